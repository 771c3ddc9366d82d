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

Opening a game checks the head (the last row and its events, and that no event follows it);
`bank audit` checks every row, every status and every snapshot. Pure functions over rows: the
store reads and writes them.
"""

from __future__ import annotations

import hashlib
import json

# Who entered a command typed at a terminal (bank, the shell, a transcript): every command of a
# file from before the table pages.
TERMINAL = "terminal"

# What an undo's, a redo's or a correction's record does to the statuses of the rows it names.
CORRECTIONS = ("insert", "amend", "restore")


def command_hash(previous: str, row: dict, events: list[tuple]) -> str:
    """The digest of a command row: the previous row's hash, its fields and its events, each event
    as (id, seq, kind, data)."""
    fields = [previous or "", row["id"], row["text"], row["verb"], row["args"], row["at"]]
    author = row.get("entered_by")
    if author not in (None, TERMINAL):
        fields.append(author)
    digest = hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode())
    for event in events:
        digest.update(json.dumps(list(event), ensure_ascii=False).encode())
    return digest.hexdigest()


def snapshot_hash(command_hash_: str, row: dict) -> str:
    """The digest of a state snapshot: the hash of the command it follows and everything stored
    with it."""
    return hashlib.sha256(json.dumps([command_hash_ or "", row["command_id"], row["head_events"], row["events_hash"],
                                      row["format"], row["engine"], row["state"]],
                                     ensure_ascii=False).encode()).hexdigest()


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
