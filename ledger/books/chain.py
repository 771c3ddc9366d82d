"""The record's chain: every change to a game file outside bank is seen.

Each command row carries `hash`: the digest of the previous row's hash, the row's own fields (id,
text, verb, arguments, time) and its events (id, order, kind, data). Deleting, editing or
reordering any row, or any event, breaks the chain from that row on. Who entered a command
(`entered_by`: a player's or the banker's page at the table) is chained too, except for the
terminal, every command's author before the column existed: so the rows of older files keep their
hashes, and a command moved from one author to another is seen. The game header keeps the
last row's id and hash (`chain_head`, `chain_hash`), so that deleting the last row, which leaves
a chain that is whole but short, is seen too. A command's status is not in its hash (undo and
redo change it); it is derived from the undo, redo and correction records, which are chained.

Each state snapshot carries the digest of its content and of its command's hash: a snapshot
moved to another command or edited is never opened from.

What a replay derives from a command and bank stores for SQL readers, its round (`commands.round`)
and the worth per round it recorded (`snapshots`), is known when the command is recorded: from the
row the header names (`chain_derived_from`: 1 for a game begun at schema 6, the next row for a file
migrated to it) each row's hash covers them too, so an edit of them is refused like any other
without replaying the game. Moving that row number changes how the rows after it are hashed, so it
cannot be moved to leave any out.

Opening a game checks the head (the last row and its events, and that no event follows it);
`bank audit` checks every row, every status and every snapshot. Pure functions over rows: the
store reads and writes them.

Anchored and keyed (issue 36). A chain over what the file holds can be recomputed by whoever edits
the file, so it is anchored outside it: the head's fingerprint (`fingerprint`: the first 8 hex
digits of the last row's hash, '4f2a·c19e') is printed with every command's result and shown on
every page, each phone keeps the fingerprints it saw, `bank score` prints a longer one for the
table to photograph, and `bank audit --against FINGERPRINT` says after which command the chain held
it. Where the user's configuration folder can hold a key (`key_folder`: $BANK_CONFIG_DIR, else
$XDG_CONFIG_HOME/bank, else ~/.config/bank; the file `chain.key`, made on the first write), the
rows from `chain_keyed_from` on are HMAC-SHA256 under it (`command_hash(..., key)`), as are the
snapshots of those rows: a file alone cannot be chained again by someone without the key. The
header names the key (`chain_key`: its id, never the key) and keeps two seals: `chain_seal` over the
head (its id and hash: the head moved back to an earlier row is seen) and `chain_links` over the
table's links (table_links: a link's hash replaced is seen). Without the key here a keyed file
still opens and audits: its structure and fingerprints are checked, the keyed digests cannot be.

Stripping the key's id from a keyed file and chaining it again in plain SHA-256 would make it look
like a keyless machine's file: the record of the games keyed here, beside the key
(ledger.books.known), names each game keyed with this machine's key, and the last verified point
of each of its files, so such a file is refused.

A chained file stays chained: `chain_required` names what says a file was written by a bank that
chains (its engine version, its schema version, the columns only such a bank adds), so a chain
whose columns were dropped, whose head was cleared, or whose seal is missing is refused at open.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

# Who entered a command typed at a terminal (bank, the shell, a transcript): every command of a
# file from before the table pages.
TERMINAL = "terminal"

# What an undo's, a redo's or a correction's record does to the statuses of the rows it names.
CORRECTIONS = ("insert", "amend", "restore")


def digester(key: bytes | None):
    """SHA-256, or HMAC-SHA256 under `key`."""
    return hmac.new(key, digestmod=hashlib.sha256) if key else hashlib.sha256()


def command_hash(previous: str, row: dict, events: list[tuple], key: bytes | None = None,
                 worth: list[tuple] | None = None) -> str:
    """The digest of a command row: the previous row's hash, its fields and its events, each event
    as (id, seq, kind, data); keyed with `key` (HMAC) for the rows of a keyed chain. `worth`: for
    the rows whose derived values are chained too (`Keying.derives`), the per-round worth rows of
    the command (round, player, cash, shares, privates, value), with the row's `round`."""
    fields = [previous or "", row["id"], row["text"], row["verb"], row["args"], row["at"]]
    author = row.get("entered_by")
    if author not in (None, TERMINAL):
        fields.append(author)
    digest = digester(key)
    digest.update(json.dumps(fields, ensure_ascii=False).encode())
    for event in events:
        digest.update(json.dumps(list(event), ensure_ascii=False).encode())
    if worth is not None:
        digest.update(json.dumps(["derived", row.get("round"), [list(w) for w in worth]],
                                 ensure_ascii=False).encode())
    return digest.hexdigest()


def snapshot_hash(command_hash_: str, row: dict, key: bytes | None = None) -> str:
    """The digest of a state snapshot: the hash of the command it follows and everything stored
    with it (keyed as its command's row is)."""
    digest = digester(key)
    digest.update(json.dumps([command_hash_ or "", row["command_id"], row["head_events"], row["events_hash"],
                              row["format"], row["engine"], row["state"]], ensure_ascii=False).encode())
    return digest.hexdigest()


def head_seal(head_id: int, head_hash: str | None, key: bytes | None = None) -> str:
    """The seal of the record's end: which row is the last, and its hash. Keyed, it cannot be made
    for an earlier row by someone without the key (the head moved back after deleting rows)."""
    digest = digester(key)
    digest.update(json.dumps(["head", head_id, head_hash or ""]).encode())
    return digest.hexdigest()


def links_seal(genesis: str | None, rows: list[tuple], key: bytes | None = None) -> str:
    """The seal of the table's links (who, token hash, made), bound to the game's first row: a hash
    replaced, added or removed outside bank, or links copied from another game, fail it. Raises
    ValueError for a value that is not text."""
    for row in rows:
        for value in row:
            if not isinstance(value, str):
                raise ValueError(f"the link of {row[0]!r} holds {type(value).__name__} {value!r}, not text")
    digest = digester(key)
    digest.update(json.dumps(["links", genesis or "", sorted(list(r) for r in rows)], ensure_ascii=False).encode())
    return digest.hexdigest()


# --------------------------------------------------------------------------- fingerprints

SHORT, LONG = 8, 16   # hex digits: on every result and page; for the photograph at the end


def fingerprint(digest: str | None, length: int = SHORT) -> str:
    """A head's fingerprint as people read it: '4f2a·c19e' (groups of four hex digits)."""
    text = (digest or "")[:length]
    return "·".join(text[i:i + 4] for i in range(0, len(text), 4)) or "none"


def fingerprint_line(head: int, digest: str | None) -> str:
    """What a command's result ends with: the record's fingerprint after it."""
    return f"record {fingerprint(digest)} (after command {head})"


FINGERPRINT = re.compile(r"[0-9a-f]{8,64}")


def parse_fingerprint(text: str) -> str:
    """The hex digits of a fingerprint as typed ('4f2a·c19e', '4f2a c19e', 'record 4F2A-C19E'), at
    least 8 of them; ValueError otherwise."""
    cleaned = re.sub(r"[\s·.:\-_]", "", str(text).strip().lower().removeprefix("record"))
    if not FINGERPRINT.fullmatch(cleaned):
        raise ValueError(f"'{text}' is not a record's fingerprint (8 or more hex digits, as '4f2a·c19e')")
    return cleaned


# --------------------------------------------------------------------------- the key

KEY_FILE = "chain.key"
KEY_ID = b"bank chain key id"


@dataclass(frozen=True)
class Key:
    secret: bytes
    id: str          # what the game file names it by (never the key itself)
    path: Path


def key_folder() -> Path | None:
    """The user's configuration folder for bank: $BANK_CONFIG_DIR (tests, a table's own folder),
    else $XDG_CONFIG_HOME/bank, else ~/.config/bank; None when there is no home to put it in."""
    given = os.environ.get("BANK_CONFIG_DIR")
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        return Path(xdg) / "bank"
    try:
        return Path.home() / ".config" / "bank"
    except (RuntimeError, KeyError, OSError):
        return None


def key_id(secret: bytes) -> str:
    return hmac.new(secret, KEY_ID, hashlib.sha256).hexdigest()[:16]


def load_key(create: bool = False) -> Key | None:
    """This machine's chain key, made (32 random bytes, readable by the user only) when `create`
    and there is none yet; None when there is none, or the folder cannot hold one."""
    folder = key_folder()
    if folder is None:
        return None
    path = folder / KEY_FILE
    found = read_key(path)
    if found is not None or not create:
        return found
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = folder / f".{KEY_FILE}-{os.getpid()}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, secrets.token_hex(32).encode() + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)   # never replaces a key another process made meanwhile
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    except OSError:
        return None
    return read_key(path)


def read_key(path: Path) -> Key | None:
    try:
        text = path.read_text().strip()
        secret = bytes.fromhex(text)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if len(secret) < 16:
        return None
    return Key(secret, key_id(secret), path)


@dataclass(frozen=True)
class Keying:
    """How a file's chain is keyed: the id of the key it names (None: plain SHA-256 throughout), the
    first row chained with it, and the key itself when it is here (this machine's is that one)."""
    key_id: str | None = None
    first: int | None = None
    secret: bytes | None = None
    folder: Path | None = None
    # the first row whose hash also covers what the replay derives from it (its round, the worth
    # per round it recorded): None for a file from before schema 6
    derived_from: int | None = None

    def derives(self, row_id: int) -> bool:
        """Whether row `row_id`'s hash covers its round and per-round worth rows."""
        return self.derived_from is not None and row_id >= self.derived_from

    @property
    def keyed(self) -> bool:
        return self.key_id is not None

    @property
    def here(self) -> bool:
        return not self.keyed or self.secret is not None

    def for_row(self, row_id: int) -> bytes | None:
        """The key row `row_id` is chained with (None: plain SHA-256)."""
        return self.secret if self.keyed and row_id >= (self.first or 0) else None

    def checkable(self, row_id: int) -> bool:
        """Whether row `row_id`'s digest can be made again here."""
        return not (self.keyed and row_id >= (self.first or 0) and self.secret is None)

    def seal_key(self) -> bytes | None:
        return self.secret if self.keyed else None

    def missing(self) -> str:
        where = self.folder / KEY_FILE if self.folder else "the configuration folder (no home folder here)"
        return (f"its chain is keyed (from command {self.first}) with key {self.key_id}, which is not in {where}: "
                f"the fingerprints are checked, the keyed check cannot be done here")


# --------------------------------------------------------------------------- what says a file is chained

# The engine version that brought the chain: every file a bank of it or later wrote is chained.
CHAINED_SINCE_ENGINE = 4
# The schema version from which the header also keeps the seals and the key's id.
SEALED_SINCE_SCHEMA = 5
# The schema version from which the rows' hashes also cover what a replay derives (each command's
# round and the worth per round), from the row the header names (`chain_derived_from`).
DERIVED_SINCE_SCHEMA = 6


def chain_required(engine_version, schema_version: int, columns: dict[str, set[str]], tables: set[str]) -> str | None:
    """Why this file must hold a whole chain (a bank that chains wrote it), or None for a file of a
    release before the chain. Each trace is one only a chaining bank leaves: removing the chain's
    columns leaves the others."""
    if isinstance(engine_version, int) and engine_version >= CHAINED_SINCE_ENGINE:
        return f"it was written by engine version {engine_version}, which chains every command"
    if schema_version >= SEALED_SINCE_SCHEMA:
        return f"its schema is version {schema_version}, which seals the chain"
    # (schema versions 1 to 4 are also those a file from before the chain passes through on its
    # first write, before the step that chains it: not a trace)
    found = [f"{table}.{column}" for table, column in (("commands", "hash"), ("game", "chain_head"),
                                                      ("game", "chain_hash"), ("state_snapshots", "hash"),
                                                      ("commands", "entered_by"), ("game", "chain_seal"))
             if column in columns.get(table, set())]
    found += [t for t in ("table_links",) if t in tables]
    if found:
        return f"it holds {found[0]}, which only a chaining bank writes"
    return None


def derived_statuses(rows: list[dict]) -> dict[int, str]:
    """Each command's status as its records say it must be: a game command is recorded in play
    (`active`), a record as `meta`; then each undo, redo and correction record, in order, hides,
    restores or supersedes the commands it names."""
    status: dict[int, str] = {}
    for row in rows:
        verb, args = row["verb"], json.loads(row["args"] or "{}")
        if verb in ("undo", "redo", *CORRECTIONS) and row["status"] == "meta":
            status[row["id"]] = "meta"
            apply_record(status, verb, args)
        else:
            status[row["id"]] = "active"
    return status


def apply_record(status: dict[int, str], verb: str, args: dict) -> None:
    if verb == "undo":
        for command_id in args.get("commands", [args.get("command")]):
            status[command_id] = "undone"
        for command_id in args.get("restored", []):
            status[command_id] = "active"
    elif verb == "redo":
        for command_id in args.get("commands", [args.get("command")]):
            status[command_id] = "active"
        for command_id in args.get("superseded", []):
            status[command_id] = "superseded"
    elif verb in ("insert", "amend"):
        for old, _new in args.get("renumbered", []):
            status[old] = "superseded"
