"""The games keyed here: a record, outside the game file, of what this machine last verified and wrote.

In the user's configuration folder, beside the chain's key (ledger.books.chain.key_folder), the
folder `games/` keeps one small file per game keyed with this machine's key (`ID.json`, the game's
id: `game_id`): the key's id and the first row chained with it, the first command this machine
recorded of the game (`since`: a copy that ends before it, as a file from before the chain or
the key, is an earlier copy, not a stripped one), and for each file of the game
written here (its absolute path, the latest 50) the last verified point: a command's id and hash
and a digest of every row up to it (`rows_digest`), with the head this machine wrote after it and
its hash. A write that only appended keeps the point it was checked from (no new digest of the
whole file), until TAIL_MAX commands follow it; one that changed an earlier row (an undo, a
correction) records a new digest at the head. It is recorded as
the connection that wrote closes (Store.save_point: once per one-shot command, once per shell or
table session rather than a digest of the whole file per command), and only while no other
connection has committed since its last write (SQLite's data_version), inside a read transaction:
what is recorded is what this bank checked and wrote, never an outsider's commit after it.

What it closes (issue 36). A keyed file alone cannot be chained again without the key; but
stripping the key's id from the header and chaining the whole record again in plain SHA-256 makes
it look like a file from a machine that could keep no key. Listed here, such a file is refused at
open and by every write, in one line (`problem`): the game was keyed here and the file, holding the
commands recorded here, now names no key, or another key, or another first keyed row; or the file
at this path no longer holds, at the last command recorded there, the hash this machine recorded
(its past was rewritten, with or without the key). A file that ends before the recorded command is
an earlier copy put back (a backup): it is checked in full.

It also makes the write checks incremental (`verified_point`): when the rows up to the recorded
command are, to the byte, those this machine verified and wrote (the same digest), a write checks
only the rows after it, plus SQLite's integrity check (a millisecond or two on the largest example
game), instead of the whole file; otherwise it checks the whole file, as without the record.

Never in the way of a write: a folder that is missing and cannot be made, read-only or full, or a
record that does not parse, is as if there were none (the game is then checked as a keyless
machine's would be). What it does not protect against: whoever can write the configuration folder
holds the key too (the laptop's holder), and can rewrite both; the fingerprints the phones and the
table kept show that. A file given a new id (its first command's text or time edited) and chained
again is a game this folder never saw, unless it is put back at the same path.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from ledger.books import chain

FOLDER = "games"
PATHS_KEPT = 50   # files of one game remembered (copies, backups put back): the latest written

# The tables whose rows up to a command the digest covers, each with the column that says which
# command a row belongs to. A unary + keeps SQLite from reading them through an index: the rows up
# to the head are nearly all of them, and a scan in rowid order reads them in one pass.
TABLES = [("commands", "id"), ("events", "command_id"), ("postings", "command_id"),
          ("cert_moves", "command_id"), ("cert_percents", "command_id"), ("snapshots", "command_id"),
          ("state_snapshots", "command_id")]
HEADER = ["title", "players", "options", "ruleset_text", "ruleset_override", "ruleset_hash"]


@dataclass
class Point:
    """A file's last verified point (command, its hash, the digest of the rows up to it) and the
    head this machine last wrote after it (`head`, `head_hash`: the same command when the digest
    was taken at the head)."""
    command: int
    hash: str
    digest: str
    at: float = 0.0
    head: int | None = None
    head_hash: str | None = None

    def last(self) -> tuple[int, str]:
        """The latest command this machine recorded the hash of, and that hash."""
        return (self.head, self.head_hash) if self.head is not None and self.head_hash else (self.command, self.hash)


@dataclass
class Entry:
    key: str | None = None
    first: int | None = None
    since: int | None = None
    points: dict[str, Point] = field(default_factory=dict)


def folder() -> Path | None:
    base = chain.key_folder()
    return base / FOLDER if base is not None else None


def game_id(store) -> str | None:
    """What names a game across its copies: its header (title, players, options, ruleset) and its
    first command's text and time. None for a file without them. Read once per connection (a
    command's checks ask several times; what names the game is never rewritten by bank)."""
    cached = getattr(store, "_known_game_id", None)
    if cached is not None:
        return cached
    found = read_game_id(store)
    if found is not None:
        store._known_game_id = found
    return found


def read_game_id(store) -> str | None:
    try:
        header = store.conn.execute(f"select {', '.join(HEADER)} from game where id = 1").fetchone()
        first = store.conn.execute("select text, at from commands order by id limit 1").fetchone()
    except sqlite3.DatabaseError:
        return None
    if header is None or first is None:
        return None
    text = json.dumps([list(header), list(first)], ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def where(store) -> str:
    return str(Path(store.path).resolve())


# path -> (what stat said of it, the entry read): a command reads its game's record several times
_read: dict[Path, tuple[tuple, Entry]] = {}


def read(game: str) -> Entry | None:
    """The record of a game, or None (none, or one that does not parse): a fresh copy each time."""
    place = folder()
    if place is None:
        return None
    path = place / f"{game}.json"
    try:
        info = path.stat()
    except OSError:
        return None
    seen = (info.st_ino, info.st_mtime_ns, info.st_size)
    cached = _read.get(path)
    if cached is None or cached[0] != seen:
        entry = parse(path)
        if entry is None:
            return None
        _read.clear()   # one game's record at a time: a process writes one game
        _read[path] = cached = (seen, entry)
    entry = cached[1]
    return Entry(entry.key, entry.first, entry.since, dict(entry.points))


def parse(path: Path) -> Entry | None:
    try:
        data = json.loads(path.read_text())
        points = {str(file): Point(int(p["command"]), str(p["hash"]), str(p["digest"]), float(p.get("at", 0)),
                                   whole(p.get("head")), p.get("head_hash") if isinstance(p.get("head_hash"), str)
                                   else None)
                  for file, p in data.get("files", {}).items()}
        key, first, since = data.get("key"), data.get("first"), data.get("since")
        return Entry(key if isinstance(key, str) else None, whole(first), whole(since), points)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def whole(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def write(game: str, entry: Entry) -> None:
    """Write the record atomically (a new file moved into place); any failure is left unsaid."""
    place = folder()
    if place is None:
        return
    kept = dict(sorted(entry.points.items(), key=lambda item: -item[1].at)[:PATHS_KEPT])
    data = {"game": game, "key": entry.key, "first": entry.first, "since": entry.since,
            "files": {path: {"command": p.command, "hash": p.hash, "digest": p.digest, "at": p.at,
                             "head": p.head, "head_hash": p.head_hash}
                      for path, p in kept.items()}}
    tmp = place / f".{game}-{os.getpid()}.json"
    try:
        place.mkdir(mode=0o700, parents=True, exist_ok=True)
        sweep(place, game)
        tmp.write_text(json.dumps(data, indent=1))
        os.replace(tmp, place / f"{game}.json")
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def sweep(place: Path, game: str) -> None:
    """Remove what a killed bank left of this game's record: a new file never moved into place."""
    for left in place.glob(f".{game}-*.json"):
        pid = left.stem.rsplit("-", 1)[-1]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            left.unlink(missing_ok=True)
        except (PermissionError, OverflowError, OSError):
            continue


def rows_digest(store, upto: int) -> str | None:
    """A digest of every row of the game up to command `upto` (every table of TABLES, and the
    header's rules): equal, the rows are those it was taken of, to the byte. None when the file
    cannot be read so."""
    digest = hashlib.sha256()
    try:
        header = store.conn.execute(f"select {', '.join(HEADER)} from game where id = 1").fetchone()
        digest.update(repr(tuple(header) if header else None).encode())
        plain = store.conn.cursor()
        plain.row_factory = None   # tuples: one repr of each table's rows, in C
        for table, column in TABLES:
            if not store.has_table(table):
                digest.update(f"no {table}".encode())
                continue
            rows = plain.execute(f"select * from {table} where +{column} <= ? order by rowid", (upto,)).fetchall()
            digest.update(f"{table}:{rows!r}".encode())
    except sqlite3.DatabaseError:
        return None
    return digest.hexdigest()


@dataclass
class Taken:
    """A file's point as this bank's writes left it (taken in a read transaction, while no other
    connection has committed since), saved to the record after."""
    game: str
    path: str
    key: str
    first: int | None
    point: Point
    since_held: int | None   # the recorded first command here, when this file holds it


# How many commands a write may find after its last verified point before the point is moved to the
# head (a digest of the whole file taken again): the rows after the point are checked on every
# write, and checking a hundred costs about what the digest does.
TAIL_MAX = 100


def take(store, verified: Point | None = None) -> Taken | None:
    """This file's last verified point, and how its game is keyed; None for a file not keyed with
    this machine's key, or where there is no configuration folder. `verified`: the point this
    session's write was checked from, whose rows it left as they were (it only appended): kept,
    with the head after it, while the head is at most TAIL_MAX commands on; otherwise the point is
    the head, with a digest of every row up to it."""
    try:
        keying = store.keying()
        if not (keying.keyed and keying.here) or folder() is None:
            return None
        game = game_id(store)
        head, digest = store.head_hash()
        if verified is not None and 0 <= head - verified.command <= TAIL_MAX:
            point = Point(verified.command, verified.hash, verified.digest, time.time(), head, digest)
        else:
            rows = rows_digest(store, head)
            point = Point(head, digest, rows, time.time()) if rows is not None else None
    except sqlite3.DatabaseError:
        return None
    if game is None or digest is None or point is None:
        return None
    entry = read(game)
    since = entry.since if entry and holds(store, entry.since) else None
    return Taken(game, where(store), keying.key_id, keying.first, point, since)


def save(taken: Taken | None) -> None:
    """The game is keyed here, and the file's last verified point is the one taken."""
    if taken is None:
        return
    entry = read(taken.game) or Entry()
    if entry.key is None or entry.since is None or entry.since != taken.since_held:
        entry.key, entry.first, entry.since = taken.key, taken.first, taken.point.command
    entry.points[taken.path] = taken.point
    write(taken.game, entry)


def remember(store) -> None:
    """A file's head as its last verified point, for a file no other connection writes (a new game
    just moved into place)."""
    save(take(store))


def holds(store, command: int | None) -> bool:
    return command is not None and store.conn.execute("select 1 from commands where id = ?",
                                                      (command,)).fetchone() is not None


def problem(store) -> str | None:
    """Why this file is not the game this machine keyed and wrote (see the module's docstring), or
    None: also for a game not listed here, or when the record cannot be read."""
    game = game_id(store)
    entry = read(game) if game else None
    if entry is None:
        return None
    place = folder() / f"{game}.json"
    keying = store.keying()
    if entry.key and holds(store, entry.since) and (keying.key_id, keying.first) != (entry.key, entry.first):
        now = (f"names key {keying.key_id} from command {keying.first}" if keying.keyed else "names no key")
        return (f"this game was keyed on this machine with key {entry.key} from command {entry.first} (recorded in "
                f"{place}), but the file now {now}: its chain was made again outside bank")
    point = entry.points.get(where(store))
    if point is not None:
        command, recorded = point.last()
        found = store.conn.execute("select hash from commands where id = ?", (command,)).fetchone()
        if found is not None and found[0] != recorded:
            return (f"command {command} does not hold the hash this machine recorded after writing it "
                    f"(recorded in {place}): the record was rewritten at or before command {command}")
    return None


def verified_point(store) -> Point | None:
    """The last verified point up to which this file is, to the byte, what this machine verified
    (the same rows' digest), or None: the whole file is to be checked."""
    game = game_id(store)
    entry = read(game) if game else None
    point = entry.points.get(where(store)) if entry else None
    if point is None:
        return None
    try:
        found = store.conn.execute("select hash from commands where id = ?", (point.command,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    if found is None or found[0] != point.hash or rows_digest(store, point.command) != point.digest:
        return None
    return point
