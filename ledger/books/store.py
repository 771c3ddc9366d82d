"""The SQLite ledger: game header, commands as typed, events, postings, certificate moves, snapshots.

Append-only: undo, redo and insert change a command's status, never delete a ledger row. A command's
status is `active` (in play), `undone` (hidden by undo), `superseded` (re-recorded after a command
inserted before it: `insert --before`) or `meta` (the record of an undo, redo or insert). The
commands in play are the active ones in id order. One command is one
`BEGIN IMMEDIATE` transaction, so a crash leaves either the whole command or none of it, and a
second writer waits for the first (busy timeout) instead of interleaving with it.

State snapshots (`state_snapshots`) are a cache, not the ledger: the state after a command that
started a round, so that opening a game replays only the events after the latest one. Files
written before they existed lack the table; the first command written to one creates it (a read
never does).

The schema (ledger.books.schema) is versioned with `PRAGMA user_version`: an older file is read as
it is and migrated forward on its first write, each step in its own transaction before the
command's; a file from a newer bank is refused. Each command also keeps the round it was typed in
(`commands.round`) and each certificate its company and percent (`cert_percents`), so the views
for SQL readers (dividends, trades, holdings, active postings...) need no JSON.

Durability: the game file uses SQLite's rollback journal with `synchronous=FULL`, so a command
that printed its result is on disk, and the `.db` file alone always holds the whole game (a copy
made with `cp` between commands is a complete backup; `bank backup` copies at any moment). Games
written by earlier versions in WAL mode are switched back on their first write; while another
process keeps such a file open in WAL mode, every commit is checkpointed into the `.db` file.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sqlite3
import stat
import time
from datetime import datetime, timezone
from pathlib import Path

from ledger import ENGINE_VERSION
from ledger.books import chain, known, schema
from ledger.core.errors import BankError, CommandError, LedgerCorrupt

# How long a writer waits for another process's command to finish before giving up (seconds).
BUSY_TIMEOUT = float(os.environ.get("BANK_BUSY_TIMEOUT", "10"))
SQLITE_MAGIC = b"SQLite format 3\x00"

# The state after a command that started a round. head_events: the active events up to and
# including the command; events_hash: a digest of those events (ids and data) for the audit;
# format and engine: the encoding and the engine that wrote it (any other one ignores it).
# The cache follows the ledger through triggers, whoever writes the file (this bank's undo and
# redo, an older bank, a hand edit): an event added, changed or removed, or a command put in or
# out of force, drops the snapshots taken at or after that command, so none is ever stale.
STATE_SNAPSHOTS = [
    "create table if not exists state_snapshots (command_id integer primary key references commands(id), "
    "head_events integer, events_hash text, format integer, engine text, state text, hash text)",
    "create trigger if not exists state_snapshots_event_added after insert on events begin "
    "delete from state_snapshots where command_id >= new.command_id; end",
    "create trigger if not exists state_snapshots_event_changed after update on events begin "
    "delete from state_snapshots where command_id >= min(old.command_id, new.command_id); end",
    "create trigger if not exists state_snapshots_event_removed after delete on events begin "
    "delete from state_snapshots where command_id >= old.command_id; end",
    "create trigger if not exists state_snapshots_status_changed after update of status on commands begin "
    "delete from state_snapshots where command_id >= old.id; end",
    "create trigger if not exists state_snapshots_command_removed after delete on commands begin "
    "delete from state_snapshots where command_id >= old.id; end",
]

# Who entered each command (`bank serve --table`): 'terminal' (bank, the shell, a transcript),
# 'banker' (the banker's page) or 'player:NAME' (that player's page). Files from before it get the
# column on their first write, every earlier command as entered at the terminal.
ENTERED_BY = "alter table commands add column entered_by text default 'terminal'"

# The table's private links (`bank serve --table`): the sha256 of each link's token, never the
# token itself, so a copy of the game file acts as nobody. who: 'banker' or 'player:NAME'.
TABLE_LINKS = ("create table if not exists table_links (who text primary key, token_hash text not null, "
               "made text not null)")

# What the header keeps of the chain besides its head (schema 5): the seals of the head and of the
# table's links, and the id of the key and the first row chained with it (ledger.books.chain).
SEAL_COLUMNS = {"chain_seal": "text", "chain_links": "text", "chain_key": "text", "chain_keyed_from": "integer"}
# ... and from schema 6 the first row whose hash covers its round and worth per round.
DERIVED_FROM = "chain_derived_from"
KEY_HINT = ("copy chain.key from the configuration folder of the machine that keyed the game into this one's "
            "(bank audit names the key and the folder)")

# The column that says which command a row with long texts belongs to.
TEXT_OWNER = {"events": "command_id", "state_snapshots": "command_id", "commands": "id"}
# The columns whose texts may outgrow a page and so live partly in overflow pages.
LONG_TEXTS = [("events", "data"), ("state_snapshots", "state"), ("commands", "args"), ("commands", "text"),
              ("game", "ruleset_text"), ("game", "ruleset_override"), ("game", "players"), ("game", "options")]


class Store:
    def __init__(self, path: str | Path, create: bool = False, read_only: bool = False):
        self.path = Path(path)
        if not create:
            check_game_file(self.path)
        self.conn = connect(self.path, create, read_only)
        self.creating = create
        # what a migration needs from the game (ledger.books.schema.Derived): the session sets it;
        # without it a write leaves the schema as it is
        self.derived: schema.Derived | None = None
        self._db = None
        self._chained = False
        self._key: chain.Key | None = None   # this machine's chain key, once read
        self._key_read = False
        # who enters the commands appended now (Session.entered_by sets it for one write)
        self.entered_by = chain.TERMINAL
        # set by a write that checked what it extends (Session.begin_write): once committed, the
        # head is this file's last verified point (ledger.books.known), recorded as the connection
        # closes if no other connection has committed since (SQLite's data_version then)
        self.checked = False
        self.unsaved_at: int | None = None
        # the last verified point the latest check started from (ledger.books.known.Point), and
        # whether a write since changed a row up to it (a status, a derived row): then its digest
        # no longer holds, and the point recorded next is a new digest at the head
        self.verified: known.Point | None = None
        self.rewrote = False

    @property
    def db(self):
        """sqlite-utils over the same connection, imported only when a command needs it (queries
        for exports): reading a game needs plain sqlite3 only, and sqlite-utils' import costs more
        than the rest of a `bank status`."""
        if self._db is None:
            import sqlite_utils
            self._db = sqlite_utils.Database(self.conn)
        return self._db

    def query(self, sql: str, params=()) -> list[dict]:
        return [dict(r) for r in self.conn.execute(sql, params)]

    def close(self) -> None:
        self.save_point()
        self.conn.close()

    # ------------------------------------------------------------------ schema

    def create(self, header: dict) -> None:
        """The tables, views and the header of a new game, at this schema version (call inside a
        transaction, on a new file)."""
        schema.create_tables(self.conn)
        for sql in STATE_SNAPSHOTS:
            self.conn.execute(sql)
        key = self.local_key(create=True)   # the chain is keyed from its first row where a key can be kept
        if key is not None:
            header = {**header, "chain_key": key.id, "chain_keyed_from": 1}
        header = {**header, DERIVED_FROM: 1}   # every row's hash covers its round and worth per round
        keys = ["id", *header]
        self.conn.execute(f"insert into game ({', '.join(keys)}) values ({', '.join('?' * len(keys))})",
                          [1, *header.values()])

    def schema_version(self) -> int:
        """The file's schema version (`PRAGMA user_version`; 0 before it was kept)."""
        return schema.version_of(self.conn)

    def refuse_if_newer(self) -> None:
        version = self.schema_version()
        if version > schema.SCHEMA_VERSION:
            raise LedgerCorrupt(f"{self.path} was written by a newer bank (ledger schema {version}; this bank "
                                f"reads up to {schema.SCHEMA_VERSION}): nothing was read or written",
                                "upgrade bank to open it")

    def migrate(self) -> list[int]:
        """Carry an older file forward to this schema (ledger.books.schema), each step in its own
        transaction, before a write's own transaction. Not for a file SQLite finds damaged or one
        changed outside bank: the write that follows refuses it as it is."""
        if self.creating or self.derived is None or self.schema_version() >= schema.SCHEMA_VERSION:
            return []
        if not self.has_table("game") or self.write_problem():
            return []
        try:
            return schema.migrate(self.conn, self.derived)
        except sqlite3.Error as exc:
            raise db_error(exc, self.path) from exc

    def write_problem(self) -> str | None:
        """Why this file must not be written, or None: the first problem of the checks every write
        makes of what it extends (ledger.books.audit.record_problems), from the file's last
        verified point when this machine recorded one (ledger.books.known), else of the whole file."""
        from ledger.books.audit import record_problems
        self.rewrote = False
        found = record_problems(self, self.start_percents, self.verified_point())
        if found:
            self.verified = None
        return found[0] if found else None

    def verified_point(self) -> int:
        """The command up to which the file is what this machine last verified and wrote, or 0; the
        point is kept (`verified`) for the point this session's writes leave (take_point)."""
        try:
            self.verified = known.verified_point(self)
        except (OSError, ValueError, sqlite3.Error):
            self.verified = None
        return self.verified.command if self.verified else 0

    def remember(self, taken: known.Taken | None = None) -> None:
        """Record this file's last verified point (`taken`, else its head now) and the game as keyed
        here (ledger.books.known); nothing that goes wrong there touches the write, committed."""
        try:
            known.save(taken) if taken is not None else known.remember(self)
        except (OSError, ValueError, TypeError, sqlite3.Error):
            pass

    def take_point(self) -> known.Taken | None:
        """The point to record after this session's writes: the one they were checked from, while
        they only appended to the rows up to it, else a new digest at the head."""
        try:
            return known.take(self, None if self.rewrote else self.verified)
        except (OSError, ValueError, TypeError, sqlite3.Error):
            return None

    def save_point(self) -> None:
        """After this connection's verified writes, once (as it closes; a shell or a table writes
        many commands, each of which would pay for a digest of the whole file): the head as the
        file's last verified point, if no other connection has committed since this one's last
        write. Taken inside a read transaction, which no writer can commit through (the rollback
        journal) and which sees one moment (WAL), so what is recorded is what this bank wrote."""
        written, self.unsaved_at = self.unsaved_at, None
        if written is None:
            return
        taken = None
        try:
            with self.reading():
                self.conn.execute("select 1 from game limit 1").fetchone()   # the read lock, then the count
                if self.data_version() == written:
                    taken = self.take_point()
        except sqlite3.Error:
            return
        if taken is not None:
            self.remember(taken)

    def data_version(self) -> int:
        """SQLite's count of the commits other connections (any process) made to the file, as this
        connection sees it: unchanged, nobody else has written since it was read."""
        self.conn.execute("pragma schema_version").fetchone()   # reads the file's header: the count is current
        return self.conn.execute("pragma data_version").fetchone()[0]

    def transaction(self):
        return _Transaction(self)

    def reading(self):
        """A read transaction: several selects see one consistent moment of the file."""
        return _Reading(self.conn)

    # ------------------------------------------------------------------ reading

    def header(self) -> dict:
        try:
            self.refuse_if_newer()
            rows = self.query("select * from game where id = 1")
        except sqlite3.DatabaseError as exc:
            raise unreadable(self.path, exc) from exc
        if not rows:
            raise unreadable(self.path, "it has no game header")
        row = rows[0]
        version = row.get("engine_version")
        if not isinstance(version, int):
            raise unreadable(self.path, f"its engine version {version!r} is not a number")
        if version > ENGINE_VERSION:
            raise LedgerCorrupt(f"{self.path} was written by a newer engine (version {version}; "
                                f"this is version {ENGINE_VERSION})", "upgrade bank to open it")
        return row

    def head(self) -> int:
        """The id of the last command recorded (any status): the version of the game a state was
        built from. Undo and redo append a command too, so every change moves it."""
        return self.conn.execute("select coalesce(max(id), 0) from commands").fetchone()[0]

    def active_events(self) -> list[dict]:
        rows = self.conn.execute(
            "select e.data from events e join commands c on c.id = e.command_id "
            "where c.status = 'active' order by e.id").fetchall()
        return [json.loads(r[0]) for r in rows]

    def active_event_rows(self, after_command: int = 0) -> list[tuple[int, str]]:
        """(id, data) of the events of commands in force recorded after command `after_command`, in
        order. Ordered by command, then id (the same order: both grow together), so that SQLite
        reads only the tail through the command_id index instead of scanning every event."""
        return self.conn.execute(
            "select e.id, e.data from events e join commands c on c.id = e.command_id "
            "where c.status = 'active' and e.command_id > ? order by e.command_id, e.id", (after_command,)).fetchall()

    def active_event_ids(self) -> list[int]:
        """The ids of the events of commands in force, in order."""
        return [i for (i,) in self.conn.execute(
            "select e.id from events e join commands c on c.id = e.command_id "
            "where c.status = 'active' order by e.id")]

    def active_events_after(self, event_id: int):
        """(id, command id, data) of the events of commands in force after event `event_id`, in order."""
        return self.conn.execute(
            "select e.id, e.command_id, e.data from events e join commands c on c.id = e.command_id "
            "where c.status = 'active' and e.id > ? order by e.id", (event_id,))

    def recent_commands(self, count: int, leave_out: tuple) -> list[tuple]:
        """(id, text, verb, entered by) of the last `count` commands in force whose verb is not in
        `leave_out`, newest first, and their events by command (id -> [event])."""
        author = self.author_column() or ", 'terminal'"
        marks = ",".join("?" * len(leave_out))
        rows = self.conn.execute(
            f"select id, text, verb{author} from commands where status = 'active' and verb not in ({marks}) "
            "order by id desc limit ?", (*leave_out, count)).fetchall()
        events: dict[int, list[dict]] = {}
        if rows:
            for command_id, data in self.conn.execute(
                    "select command_id, data from events where command_id between ? and ? order by id",
                    (rows[-1][0], rows[0][0])):
                events.setdefault(command_id, []).append(json.loads(data))
        return rows, events

    def has_table(self, name: str) -> bool:
        return self.conn.execute("select 1 from sqlite_master where type = 'table' and name = ?",
                                 (name,)).fetchone() is not None

    def latest_state_snapshot(self, fmt: int, engine: str, before: int | None = None) -> dict | None:
        """The latest state snapshot of a command in force (before command `before`, if given)
        written in this format by this engine whose hash holds, or None (also for a file from before
        state snapshots, or from before the chain: an unchained snapshot is never opened from)."""
        if not self.has_table("state_snapshots") or not self.chained():
            return None
        rows = self.conn.execute(
            "select s.command_id, s.head_events, s.events_hash, s.format, s.engine, s.state, s.hash, "
            "c.hash as command_hash from state_snapshots s join commands c on c.id = s.command_id "
            "where c.status = 'active' and s.format = ? and s.engine = ? and s.command_id < ? "
            "order by s.command_id desc", (fmt, engine, before if before is not None else 2 ** 62))
        keying = self.keying()
        for row in rows:
            row = dict(row)
            if not keying.checkable(row["command_id"]):
                continue  # keyed with a key that is not here: its hash cannot be checked
            if row["hash"] and row["hash"] == chain.snapshot_hash(row["command_hash"], row,
                                                                  keying.for_row(row["command_id"])):
                return row
        return None

    def state_snapshots(self, after: int = 0) -> list[dict]:
        """Every state snapshot (`after`: of the commands after it) with its command's status and hash."""
        if not self.has_table("state_snapshots"):
            return []
        # a file from before the chain has no hash on its commands (nor its snapshots): read as it is
        command_hash = "c.hash" if "hash" in self.columns("commands") else "null"
        rows = self.query(f"select s.*, c.status, {command_hash} as command_hash from state_snapshots s "
                          "left join commands c on c.id = s.command_id where (? = 0 or s.command_id > ?) "
                          "order by s.command_id", (after, after))
        for row in rows:
            row.setdefault("hash", None)
        return rows

    def commands(self, include_undone: bool = True) -> list[dict]:
        sql = "select * from commands" + ("" if include_undone else " where status = 'active'") + " order by id"
        return self.query(sql)

    def events_of(self, command_id: int) -> list[dict]:
        return [json.loads(r["data"]) for r in self.query(
            "select data from events where command_id = ? order by id", [command_id])]

    def command(self, command_id: int) -> dict | None:
        rows = self.query("select * from commands where id = ?", [command_id])
        return rows[0] if rows else None

    def active_after(self, command_id: int) -> list[dict]:
        """The commands in play after command `command_id`, in order."""
        return self.query("select * from commands where status = 'active' and id > ? order by id", [command_id])

    def records(self, verb: str) -> list[dict]:
        """The meta records of one kind (undo, redo, insert), newest first."""
        return self.query("select * from commands where verb = ? and status = 'meta' order by id desc", [verb])

    def last(self, status: str) -> dict | None:
        rows = self.query("select * from commands where status = ? and verb not in ('new') "
                          "order by id desc limit 1", [status])
        return rows[0] if rows else None

    # ------------------------------------------------------------------ writing

    def append(self, text: str, verb: str, args: dict, events: list[dict], status: str = "active",
               at: str | None = None, by: str | None = None, round_label: str | None = None,
               worth: list[tuple[str, list[dict]]] = ()) -> int:
        """Store a command with its events, their postings, certificate moves and percents, chained
        to the row before it (call inside a transaction, after `ensure_chain` and `ensure_entered_by`).
        `at`: when it was typed (now, unless a command re-recorded by a correction keeps its own time);
        `by`: who entered it (this write's author, unless a re-recorded command keeps its own);
        `round_label`: the round it was typed in, kept where the file has the column; `worth`: each
        player's cash and worth as each round it starts begins (session.round_snapshots), the
        `snapshots` rows. From the header's `chain_derived_from` on, the row's hash covers both."""
        row = {"text": text, "verb": verb, "args": json.dumps(args),
               "at": at or datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "entered_by": by or self.entered_by}
        derived = self.derived_columns()
        values = (row["text"], verb, row["args"], status, row["at"], row["entered_by"])
        if "round" in derived:
            cur = self.conn.execute("insert into commands (text, verb, args, status, at, entered_by, round) "
                                    "values (?, ?, ?, ?, ?, ?, ?)", (*values, round_label))
        else:
            cur = self.conn.execute("insert into commands (text, verb, args, status, at, entered_by) "
                                    "values (?, ?, ?, ?, ?, ?)", values)
        command_id = cur.lastrowid
        chained = []
        for seq, event in enumerate(events):
            data = json.dumps(event)
            ev = self.conn.execute("insert into events (command_id, seq, kind, data) values (?, ?, ?, ?)",
                                   (command_id, seq, event["kind"], data))
            chained.append((ev.lastrowid, seq, event["kind"], data))
            rows = []
            for payer, payee, amount in event.get("transfers", ()):
                rows.append((ev.lastrowid, command_id, payer, -amount, payee))
                rows.append((ev.lastrowid, command_id, payee, amount, payer))
            if rows:
                self.conn.executemany("insert into postings (event_id, command_id, account, amount, counterparty) "
                                      "values (?, ?, ?, ?, ?)", rows)
            moves = [(ev.lastrowid, command_id, cert, src, dest) for cert, src, dest in event.get("certs", ())]
            if moves:
                self.conn.executemany("insert into cert_moves (event_id, command_id, cert, source, dest) "
                                      "values (?, ?, ?, ?, ?)", moves)
            if "cert_percents" in derived and (event.get("percents") or event["kind"] == "game_started"):
                self.conn.executemany(
                    "insert into cert_percents (event_id, command_id, cert, company, percent) values (?, ?, ?, ?, ?)",
                    schema.percent_rows(ev.lastrowid, command_id, event, self.start_percents))
        stored = [(label, r["player"], r["cash"], r["shares"], r["privates"], r["value"])
                  for label, rows in worth for r in rows]
        if stored:
            self.conn.executemany("insert into snapshots (command_id, round, player, cash, shares, privates, value) "
                                  "values (?, ?, ?, ?, ?, ?, ?)", [(command_id, *w) for w in stored])
        previous = self.conn.execute("select hash from commands where id < ? order by id desc limit 1",
                                     (command_id,)).fetchone()
        keying = self.keying()
        if not keying.checkable(command_id):
            raise LedgerCorrupt(f"{self.path}: {keying.missing()}; nothing was recorded", KEY_HINT)
        derives = keying.derives(command_id)
        digest = chain.command_hash(previous[0] if previous else "",
                                    {"id": command_id, **row, "round": round_label if "round" in derived else None},
                                    chained, keying.for_row(command_id), stored if derives else None)
        self.conn.execute("update commands set hash = ? where id = ?", (digest, command_id))
        self.conn.execute("update game set chain_head = ?, chain_hash = ? where id = 1", (command_id, digest))
        self.reseal(keying)
        return command_id

    def derived_columns(self) -> set[str]:
        """Which of the rows derived for SQL readers this file keeps: 'round' (the column of
        commands) and 'cert_percents' (the table); a file from before them keeps neither until
        its migration."""
        if self.schema_version() >= schema.SCHEMA_VERSION:
            return {"round", "cert_percents"}
        found = {"round"} if "round" in self.columns("commands") else set()
        return found | ({"cert_percents"} if self.has_table("cert_percents") else set())

    def start_percents(self) -> dict[str, int]:
        return self.derived.start_percents() if self.derived else {}

    def fill_derived(self, first: int) -> None:
        """The round and certificate percents of every command from `first` on, worked out again
        (call inside a write transaction): for commands an older bank appended to a migrated file."""
        derived = self.derived_columns()
        if self.derived is None:
            return
        self.rewrote = True
        if "round" in derived:
            schema.fill_rounds(self.conn, self.derived.rounds(first))
        if "cert_percents" in derived:
            schema.fill_cert_percents(self.conn, first, self.start_percents)

    def derived_missing_from(self) -> int | None:
        """The first command of the tail that has no round (written by a bank that does not keep
        one), or None: the last command is read first, so a sound file costs one row."""
        if "round" not in self.derived_columns():
            return None
        last = self.conn.execute("select id, round from commands order by id desc limit 1").fetchone()
        if last is None or last["round"] is not None:
            return None
        known = self.conn.execute("select max(id) from commands where round is not null").fetchone()[0]
        return (known or 0) + 1

    def ensure_entered_by(self) -> None:
        """Give a file from before the table pages the column of who entered each command (call
        inside a write transaction: a read never changes a file)."""
        if "entered_by" not in self.columns("commands"):
            self.conn.execute(ENTERED_BY)

    def author_column(self) -> str:
        """', entered_by' where the file has the column, for the chain's selects."""
        return ", entered_by" if "entered_by" in self.columns("commands") else ""

    # ------------------------------------------------------------------ the table's links

    def link_hashes(self) -> dict[str, str]:
        """who -> the sha256 of their link's token; empty for a file that never served a table."""
        if not self.has_table("table_links"):
            return {}
        try:
            rows = self.query("select who, token_hash from table_links")
        except sqlite3.DatabaseError as exc:
            raise damaged_links(self.path, str(exc)) from exc
        for row in rows:
            who, digest = row["who"], row["token_hash"]
            if not (isinstance(who, str) and isinstance(digest, str) and LINK_HASH.fullmatch(digest)):
                raise damaged_links(self.path, f"the link of {who!r} holds {digest!r}, not the sha256 of a token")
        return {r["who"]: r["token_hash"] for r in rows}

    def links_made(self) -> str | None:
        if not self.has_table("table_links"):
            return None
        return self.conn.execute("select max(made) from table_links").fetchone()[0]

    def replace_links(self, hashes: dict[str, str]) -> None:
        """The table's links from now on (call inside a write transaction): every other link ends."""
        self.conn.execute(TABLE_LINKS)
        self.conn.execute("delete from table_links")
        made = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.conn.executemany("insert into table_links (who, token_hash, made) values (?, ?, ?)",
                              [(who, digest, made) for who, digest in hashes.items()])
        self.reseal(self.keying(), head=False)

    def ensure_state_snapshots(self) -> None:
        """Create the state_snapshots table and its triggers in a game file from before them (call
        inside a write transaction: a read never changes a file). Also puts back a table someone
        dropped, which the triggers that remain need before any event can be written."""
        if not self.has_table("state_snapshots"):
            for sql in STATE_SNAPSHOTS:
                self.conn.execute(sql)

    def save_state_snapshot(self, command_id: int, head_events: int, events_hash: str, fmt: int, engine: str,
                            state: str) -> None:
        """Store a state snapshot with its hash (inside the command's transaction, after
        `ensure_state_snapshots` and the command's `append`)."""
        row = {"command_id": command_id, "head_events": head_events, "events_hash": events_hash, "format": fmt,
               "engine": engine, "state": state}
        command = self.conn.execute("select hash from commands where id = ?", (command_id,)).fetchone()
        self.conn.execute("insert into state_snapshots (command_id, head_events, events_hash, format, engine, state, "
                          "hash) values (?, ?, ?, ?, ?, ?, ?)",
                          (command_id, head_events, events_hash, fmt, engine, state,
                           chain.snapshot_hash(command[0] if command else "", row,
                                               self.keying().for_row(command_id))))

    # ------------------------------------------------------------------ the chain

    def columns(self, table: str) -> set[str]:
        return {r[1] for r in self.conn.execute(f"pragma table_info({table})")}

    def chained(self) -> bool:
        """Whether the file keeps the chain (written by this engine); files from before it get it on
        their first write (`ensure_chain`)."""
        if not self._chained:
            self._chained = "chain_head" in self.columns("game") and "hash" in self.columns("commands")
        return self._chained

    def chain_required(self) -> str | None:
        """Why this file must hold a whole chain (ledger.books.chain.chain_required), or None."""
        try:
            version = self.conn.execute("select engine_version from game where id = 1").fetchone()
        except sqlite3.DatabaseError:
            version = None
        tables = {r[0] for r in self.conn.execute("select name from sqlite_master where type = 'table'")}
        columns = {t: self.columns(t) for t in ("commands", "game", "state_snapshots") if t in tables}
        return chain.chain_required(version[0] if version else None, self.schema_version(), columns, tables)

    def local_key(self, create: bool = False) -> chain.Key | None:
        """This machine's chain key (ledger.books.chain.load_key), read once; made when `create`."""
        if self._key is None and (not self._key_read or create):
            self._key = chain.load_key(create)
            self._key_read = True
        return self._key

    def keying(self) -> chain.Keying:
        """How this file's chain is keyed, with this machine's key when it is the one named."""
        game = self.columns("game")
        derived_from = None
        if DERIVED_FROM in game:
            found = self.conn.execute(f"select {DERIVED_FROM} from game where id = 1").fetchone()
            # a value that is not a row number covers every row: none can be left out by editing it
            derived_from = found[0] if found and isinstance(found[0], int) else 1
        if "chain_key" not in game:
            return chain.Keying(derived_from=derived_from)
        row = self.conn.execute("select chain_key, chain_keyed_from from game where id = 1").fetchone()
        if row is None or row[0] is None:
            return chain.Keying(derived_from=derived_from)
        key = self.local_key()
        first = row[1] if isinstance(row[1], int) else 1
        return chain.Keying(str(row[0]), first, key.secret if key and key.id == row[0] else None, chain.key_folder(),
                            derived_from)

    def key_problem(self) -> str | None:
        """Why this bank cannot write the file's chain: keyed with a key that is not here."""
        keying = self.keying()
        return None if keying.here else keying.missing()

    def ensure_chain(self) -> None:
        """Give a file from before the chain its columns and chain every row recorded so far, key it
        with this machine's key where one can be kept, and seal its head and links (call inside a
        write transaction: the schema's migration 5 and every write). What a file from before the
        chain holds is taken as it is on its first write; from then on every change outside bank is
        seen. A chained file keeps its rows' hashes: the key chains the rows after them."""
        if self.has_table("state_snapshots") and "hash" not in self.columns("state_snapshots"):
            self.conn.execute("alter table state_snapshots add column hash text")
        if "hash" not in self.columns("commands"):
            self.conn.execute("alter table commands add column hash text")
        game = self.columns("game")
        fresh = "chain_head" not in game
        if fresh:
            self.conn.execute("alter table game add column chain_head integer")
            self.conn.execute("alter table game add column chain_hash text")
        for column, kind in SEAL_COLUMNS.items():
            if column not in game:
                self.conn.execute(f"alter table game add column {column} {kind}")
        named = self.conn.execute("select chain_key from game where id = 1").fetchone()
        key = self.local_key(create=True) if named is None or named[0] is None else None
        if fresh:
            secret = key.secret if key else None
            if key:
                self.conn.execute("update game set chain_key = ?, chain_keyed_from = 1 where id = 1", (key.id,))
            previous, head = "", 0
            derives = self.keying().derives
            for row, events in self.chain_rows():
                if row.get("orphan"):
                    continue  # events of no command: the audit reports them
                previous, head = chain.command_hash(previous, row, events, secret,
                                                    row["worth"] if derives(row["id"]) else None), row["id"]
                self.conn.execute("update commands set hash = ? where id = ?", (previous, row["id"]))
            self.conn.execute("update game set chain_head = ?, chain_hash = ? where id = 1", (head, previous))
        elif key:   # the rows from the next one on are keyed
            self.conn.execute("update game set chain_key = ?, chain_keyed_from = "
                              "(select coalesce(max(id), 0) + 1 from commands) where id = 1", (key.id,))
        self._chained = True
        self.reseal(self.keying())

    def reseal(self, keying: chain.Keying, head: bool = True, links: bool = True) -> None:
        """The header's seals of the head and of the table's links, made again (inside a write)."""
        game = self.columns("game")
        if head and "chain_seal" in game:
            row = self.conn.execute("select chain_head, chain_hash from game where id = 1").fetchone()
            self.conn.execute("update game set chain_seal = ? where id = 1",
                              (chain.head_seal(row[0], row[1], keying.seal_key()),))
        if links and "chain_links" in game:
            self.conn.execute("update game set chain_links = ? where id = 1",
                              (chain.links_seal(self.genesis(), self.link_rows(), keying.seal_key()),))

    def genesis(self) -> str | None:
        """The hash of the game's first row: what binds the links' seal to this game."""
        row = self.conn.execute("select hash from commands order by id limit 1").fetchone()
        return row[0] if row else None

    def link_rows(self) -> list[tuple]:
        if not self.has_table("table_links"):
            return []
        return [tuple(r) for r in self.conn.execute("select who, token_hash, made from table_links order by who")]

    def links_problem(self) -> str | None:
        """The table's links against their seal (a hash replaced, added or removed outside bank, or
        one that is not text), or None; a file from before the seal has nothing to check."""
        if "chain_links" not in self.columns("game"):
            return None
        keying = self.keying()
        try:
            rows = self.link_rows()
            sealed = self.conn.execute("select chain_links from game where id = 1").fetchone()
            if sealed is None or sealed[0] is None:
                return "the seal of the table's links (game.chain_links) was removed"
            if not keying.here:
                return None
            want = chain.links_seal(self.genesis(), rows, keying.seal_key())
        except (ValueError, sqlite3.DatabaseError) as exc:
            return f"the table's links (table_links) were changed outside bank: {exc}"
        if want != sealed[0]:
            return "the table's links (table_links) were changed outside bank: a link's hash was replaced, added or removed"
        return None

    # ---- the record's fingerprints (ledger.books.chain.fingerprint)

    def head_hash(self) -> tuple[int, str | None]:
        """(the last command's id, its hash): what a fingerprint shows."""
        if "hash" not in self.columns("commands"):
            return self.head(), None
        row = self.conn.execute("select id, hash from commands order by id desc limit 1").fetchone()
        return (row[0], row[1]) if row else (0, None)

    def hashes_at(self, ids: list[int]) -> dict[int, str]:
        """command id -> its hash, for the ids asked (those the record holds)."""
        if not ids or "hash" not in self.columns("commands"):
            return {}
        marks = ",".join("?" * len(ids))
        return {r[0]: r[1] for r in self.conn.execute(f"select id, hash from commands where id in ({marks})",
                                                      list(ids)) if isinstance(r[1], str)}

    def heads_with(self, prefix: str) -> list[dict]:
        """The commands whose hash begins with `prefix` (hex): those the record was at when it showed
        that fingerprint."""
        if "hash" not in self.columns("commands"):
            return []
        return self.query("select id, text, status, at from commands where substr(hash, 1, ?) = ? order by id",
                          (len(prefix), prefix))

    def chain_rows(self, after: int = 0):
        """(command row, its events as (id, seq, kind, data)) for every command after `after`, in order;
        each row with its `round` (None where the file has no such column) and `worth`, its rows of
        the per-round worth (round, player, cash, shares, privates, value), in order."""
        events: dict[int, list[tuple]] = {}
        for event_id, command_id, seq, kind, data in self.conn.execute(
                "select id, command_id, seq, kind, data from events where command_id > ? order by id", (after,)):
            events.setdefault(command_id, []).append((event_id, seq, kind, data))
        worth: dict[int, list[tuple]] = {}
        if self.has_table("snapshots"):
            for command_id, *values in self.conn.execute(
                    "select command_id, round, player, cash, shares, privates, value from snapshots "
                    "where command_id > ? order by id", (after,)):
                worth.setdefault(command_id, []).append(tuple(values))
        round_column = ", round" if "round" in self.columns("commands") else ", null as round"
        for row in self.conn.execute(f"select id, text, verb, args, at, hash, status{self.author_column()}"
                                     f"{round_column} from commands where id > ? order by id", (after,)):
            yield {**dict(row), "worth": worth.get(row["id"], [])}, events.pop(row["id"], [])
        for command_id in events:  # events whose command row is gone
            yield {"id": command_id, "orphan": True}, events[command_id]

    def head_problem(self) -> str | None:
        """What is wrong with the end of the record, checked on every open (a few rows): the chain
        there at all when the file says it must be, the last command's hash, the header's head and
        its seal, no event after the last command. None when sound, or for a file from before the
        chain. A keyed file whose key is not here is checked for all but the keyed digests. Then the
        record of the games keyed here (ledger.books.known): a game keyed on this machine whose file
        now names no key, or whose chain no longer holds the hash recorded after its last write."""
        return self.chain_end_problem() or self.known_problem()

    def known_problem(self) -> str | None:
        """What the record of the games keyed here says against this file (ledger.books.known), or
        None; a record that cannot be read says nothing."""
        try:
            return known.problem(self)
        except (OSError, ValueError, TypeError, sqlite3.Error):
            return None

    def chain_end_problem(self) -> str | None:
        """The checks of `head_problem` the file itself can answer."""
        game, commands = self.columns("game"), self.columns("commands")
        missing = [name for name, there in (("commands.hash", "hash" in commands), ("game.chain_head", "chain_head" in game),
                                            ("game.chain_hash", "chain_hash" in game)) if not there]
        if missing:
            required = self.chain_required()
            if required:
                return f"its record's chain was removed ({', '.join(missing)} missing), though {required}"
            return None
        self._chained = True
        version = self.schema_version()
        sealed = version >= chain.SEALED_SINCE_SCHEMA
        required = set(SEAL_COLUMNS) | ({DERIVED_FROM} if version >= chain.DERIVED_SINCE_SCHEMA else set())
        if sealed and not required <= game:
            return f"the seals of its chain were removed ({', '.join(sorted(required - game))} missing)"
        head = self.conn.execute(f"select chain_head, chain_hash{', chain_seal' if sealed else ''} "
                                 "from game where id = 1").fetchone()
        round_column = ", round" if "round" in commands else ", null as round"
        last = self.conn.execute(f"select id, text, verb, args, at, hash{self.author_column()}{round_column} "
                                 "from commands order by id desc limit 1").fetchone()
        if head is None:
            return "it has no game header"
        if head[0] is None:
            if last is None:
                return None
            return "the head of its chain was cleared (game.chain_head is NULL), which would turn the check of every open off"
        if last is None or last["id"] != head[0]:
            found = f"command {last['id']}" if last else "no command"
            return f"its last command should be {head[0]}, but the file ends with {found}: a command was removed"
        orphan = self.conn.execute("select max(command_id) from events").fetchone()[0]
        if orphan is not None and orphan > last["id"]:
            return f"it holds events of command {orphan}, after its last command {last['id']}"
        keying = self.keying()
        what = "its events, its round or its worth per round" if keying.derives(last["id"]) else "its events"
        changed = f"command {last['id']} ({last['text']}) or {what} were changed after they were recorded"
        if last["hash"] != head[1]:
            return changed
        if keying.checkable(last["id"]):
            previous = self.conn.execute("select hash from commands where id < ? order by id desc limit 1",
                                         (last["id"],)).fetchone()
            events = self.conn.execute("select id, seq, kind, data from events where command_id = ? order by id",
                                       (last["id"],)).fetchall()
            worth = None
            if keying.derives(last["id"]):
                worth = [tuple(r) for r in self.conn.execute(
                    "select round, player, cash, shares, privates, value from snapshots where command_id = ? "
                    "order by id", (last["id"],))]
            digest = chain.command_hash(previous[0] if previous else "", dict(last), [tuple(e) for e in events],
                                        keying.for_row(last["id"]), worth)
            if digest != last["hash"]:
                return changed
        if sealed:
            if head[2] is None:
                return "the seal of its head (game.chain_seal) was removed"
            if keying.here and head[2] != chain.head_seal(head[0], head[1], keying.seal_key()):
                return (f"its record ends at command {head[0]}, but that is not the end bank sealed: commands at the "
                        f"end were removed, or the head was moved")
        return None

    def quick_check(self, after: int = 0) -> str | None:
        """SQLite's own check of the file's pages (milliseconds on a game file), and a run of zero
        bytes in a long text (a zeroed overflow page is only data to SQLite; no text bank stores
        holds a NUL): None when sound. `after`: the long texts of the commands after it only (the
        rows before it are those verified, by their digest). Read through this connection only:
        opening the file a second time and closing it would drop SQLite's locks (POSIX locks belong
        to the process)."""
        try:
            rows = [r[0] for r in self.conn.execute("pragma quick_check(5)")]
            if rows != ["ok"]:
                return "SQLite finds " + "; ".join(str(r).replace("*** in database main ***", "").strip() for r in rows)
            for table, column in LONG_TEXTS:
                if column not in self.columns(table):
                    continue
                owner = TEXT_OWNER.get(table)
                tail = f" and {owner} > {int(after)}" if after and owner else ""
                found = self.conn.execute(f"select rowid from {table} where instr(cast({column} as blob), "
                                          f"zeroblob(8)) > 0{tail} limit 1").fetchone()
                if found:
                    return f"{table} row {found[0]} holds a run of zero bytes (a zeroed page)"
        except sqlite3.DatabaseError as exc:
            return str(exc)
        return None

    def claim_engine_version(self) -> None:
        """This engine writes the game from now on: an older engine, which cannot read what it
        writes, will refuse the file (call inside a write transaction)."""
        self.conn.execute("update game set engine_version = ? where engine_version < ?", (ENGINE_VERSION, ENGINE_VERSION))

    def set_status(self, command_id: int, status: str) -> None:
        self.rewrote = True   # an earlier row changed (and the snapshots from it dropped): see take_point
        self.conn.execute("update commands set status = ? where id = ?", (status, command_id))

    def backup(self, dest: Path) -> None:
        """A consistent copy of the game at this moment (SQLite's online backup), written to a new
        file beside `dest` and moved into place only when complete."""
        dest = Path(dest)
        if dest.exists():
            raise CommandError(f"{dest} already exists", "choose a new file name for the backup")
        tmp = dest.with_name(f".bank-backup-{os.getpid()}.db")
        sweep_scratch(tmp.parent)
        try:
            target = sqlite3.connect(str(tmp))
            try:
                self.conn.backup(target)
                target.execute("pragma journal_mode=delete")
            finally:
                target.close()
            publish(tmp, dest)
        finally:
            tmp.unlink(missing_ok=True)


# What table_links keeps of each link: the hex sha256 of its token (ledger.interface.board.links).
LINK_HASH = re.compile(r"[0-9a-f]{64}")


def damaged_links(path: Path, why: str) -> LedgerCorrupt:
    return LedgerCorrupt(f"{path}: the table's links are damaged ({why}): no link acts",
                         "bank serve --table --new-links makes new links (the old ones end)")


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception. After the commit, a game still in
    WAL mode is checkpointed so that the `.db` file holds the command."""

    def __init__(self, store: Store):
        self.store = store
        self.conn = store.conn

    def __enter__(self):
        refuse_if_read_only(self.store.path)
        prefer_rollback_journal(self.conn)
        self.store.refuse_if_newer()
        self.store.migrate()
        self.conn.execute("begin immediate")
        return self

    def __exit__(self, exc_type, exc, tb):
        checked, self.store.checked = self.store.checked, False
        if exc_type is None:
            # what the write checked and what it wrote: the file's last verified point, once no other
            # connection has committed after it (SQLite's count of their commits, read while this
            # write holds the file; this connection's own commits leave it as it is)
            seen = self.store.data_version() if checked else None
            self.conn.execute("commit")
            if journal_mode(self.conn) == "wal":
                self.conn.execute("pragma wal_checkpoint(truncate)")
            if seen is not None:
                self.store.unsaved_at = seen
        elif self.conn.in_transaction:
            self.conn.execute("rollback")
        return False


class _Reading:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        if not self.conn.in_transaction:
            self.conn.execute("begin")
            self.opened = True
        else:
            self.opened = False
        return self

    def __exit__(self, *exc):
        if self.opened and self.conn.in_transaction:
            self.conn.execute("commit")
        return False


# --------------------------------------------------------------------------- files

def connect(path: Path, create: bool, read_only: bool = False) -> sqlite3.Connection:
    """A connection that never creates a file by accident (mode=rw unless creating), waits for a
    busy writer, and makes every commit durable. A read-only one (mode=ro: `bank serve`) cannot
    write the file whatever it is asked to do."""
    mode = "rwc" if create else "ro" if read_only else "rw"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, timeout=BUSY_TIMEOUT,
                               isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("pragma synchronous=full")
    except sqlite3.Error as exc:
        raise db_error(exc, path) from exc
    except UnicodeDecodeError as exc:  # SQLite reads the schema's text as it opens
        raise unreadable(path, f"its schema holds bytes that are not text ({exc.reason})") from exc
    return conn


def check_game_file(path: Path) -> None:
    """Refuse, before SQLite touches it, a path that is not a game file: missing, a folder, empty,
    unreadable or not a SQLite file at all."""
    try:
        if not path.exists():
            if not path.parent.exists():
                raise CommandError(f"no folder {path.parent} for the game file {path}")
            raise CommandError(f"no game at {path}", "start one with 'bank new TITLE Alice Bob Carol' "
                               "(bank help new) or choose the file with --game PATH")
        if path.is_dir():
            raise CommandError(f"{path} is a folder, not a game file", "choose the file with --game PATH")
        with path.open("rb") as f:
            magic = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if magic != SQLITE_MAGIC:
        raise unreadable(path, "it is empty" if not magic else "it is not a SQLite file")


def unreadable(path: Path, why) -> LedgerCorrupt:
    return LedgerCorrupt(f"{path} is not a readable bank game: {why}",
                         "restore it from a backup (bank backup FILE makes one)")


def publish(tmp: Path, dest: Path) -> None:
    """Move a finished file into place without ever replacing an existing file: a hard link fails
    if `dest` exists, where a rename would silently overwrite it."""
    try:
        os.link(tmp, dest)
    except FileExistsError:
        raise CommandError(f"{dest} already exists", "choose another file with --game PATH") from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
        if dest.exists():  # a file system without hard links: check, then rename
            raise CommandError(f"{dest} already exists", "choose another file with --game PATH") from None
        os.rename(tmp, dest)


# The files bank writes beside a game before moving them into place (new, import, backup).
SCRATCH = re.compile(r"\.bank-(?:new|import|backup)-([0-9]+)\.db(?:-journal|-wal|-shm)?")


def sweep_scratch(folder: Path) -> None:
    """Remove what a killed `bank new`, `import` or `backup` left in this folder: scratch files of
    processes that no longer run, or older than an hour (a live one takes seconds)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        found = SCRATCH.fullmatch(entry.name)
        if not found or int(found.group(1)) == os.getpid():
            continue
        try:
            stale = not process_runs(int(found.group(1))) or entry.stat().st_mtime < time.time() - 3600
            if stale:
                os.unlink(entry.path)
        except OSError:
            continue


def process_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def refuse_if_read_only(path: Path) -> None:
    """A game file with no write permission is never written, whoever runs bank (root included):
    a table archives a finished game with chmod a-w."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # SQLite reports what is wrong with the file itself
    if not stat.S_IMODE(mode) & 0o222:
        raise CommandError(f"{path} is read-only: nothing was recorded", "check the file's permissions (chmod u+w)")


def journal_mode(conn: sqlite3.Connection) -> str:
    return conn.execute("pragma journal_mode").fetchone()[0].lower()


def prefer_rollback_journal(conn: sqlite3.Connection) -> None:
    """Leave WAL mode (older games) so the `.db` file alone holds the game; SQLite refuses while
    another connection has the file open in WAL mode, and then commits are checkpointed instead."""
    if not conn.in_transaction and journal_mode(conn) == "wal":
        try:
            conn.execute("pragma journal_mode=delete")
        except sqlite3.OperationalError:
            pass


# --------------------------------------------------------------------------- errors

def db_error(exc: BaseException, path: Path | str | None) -> BankError:
    """One line for a failure of the game file (SQLite or the operating system)."""
    where = str(path) if path else "the game file"
    text = str(exc)
    low = text.lower()
    if isinstance(exc, OSError) and not isinstance(exc, sqlite3.Error):
        return CommandError(f"cannot use {where}: {exc.strerror or text}")
    if "locked" in low or "busy" in low:
        who = lock_holders(Path(where)) if path else []
        held = f"; held by {', '.join(who)}" if who else ""
        return LedgerBusy(f"{where} is in use by another bank process (waited {BUSY_TIMEOUT:g} s){held}",
                          "try again when the other command has finished")
    if "readonly" in low or "read-only" in low:
        return CommandError(f"{where} is read-only: nothing was recorded", "check the file's permissions")
    if "full" in low or "disk i/o" in low or "too large" in low:
        return CommandError(f"cannot write {where}: {text}; nothing was recorded", "free some space and try again")
    if "unable to open" in low:
        return CommandError(f"cannot open {where}", "check the path and its folder's permissions")
    return unreadable(Path(where), text)


class LedgerBusy(BankError):
    """Another process held the game file for longer than the busy timeout."""

    exit_code = 6


def lock_holders(path: Path) -> list[str]:
    """Other processes with the game file open, from /proc (Linux; elsewhere nothing is named)."""
    proc = Path("/proc")
    try:
        target = path.resolve()
        names = {str(target), f"{target}-journal", f"{target}-wal"}
        pids = [p for p in proc.iterdir() if p.name.isdigit() and int(p.name) != os.getpid()]
    except OSError:
        return []
    out = []
    for pid in pids:
        try:
            if any(os.readlink(fd) in names for fd in (pid / "fd").iterdir()):
                cmd = (pid / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
                out.append(f"pid {pid.name} ({cmd[:60]})")
        except OSError:
            continue
    return out
