"""How the problems of a damaged or edited game file begin and end, shared by the audit that finds
them and the write that refuses such a file."""

# how SQLite's own complaints are said (a problem starting with one: the file itself is damaged)
SQLITE_DAMAGE = ("SQLite finds", "the file is damaged", "SQLite cannot read")

# what ends a problem only the state snapshots have (a cache the bank can rebuild)
CACHE_HINT = "; snapshots are a cache: sqlite3 GAME 'delete from state_snapshots' makes bank replay every event"
