"""One open game: load and replay it, decide a command, store it in one transaction.

This is the only place the pure core meets the store. A command is decided on the state it is
written after: inside the write transaction the session checks that the game's last command is
still the one its state was built from, and replays the game first if another process (a second
terminal, a shell) has written since.

Opening a game does not replay it from the start: a command that starts a round (or ends the game)
also stores the state after it, and a game is opened from the latest such state snapshot that is
still in force plus the events after it. A snapshot is used only when its command is in force and
it was written in this snapshot format by this very engine (the same sources and state layout).
Undo and redo need no care here: the store's triggers drop the snapshots at or after a command
whose status changes, in the same transaction. A snapshot that does not load, or leads to a state
that fails the invariants, makes the session replay everything; one that loads and passes them is
trusted (checking its digest would mean reading every event before it): `bank audit` checks each.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ledger import ENGINE_VERSION
from ledger.books.store import Store, db_error, publish, unreadable
from ledger.core import engine, ruleset, snapshot
from ledger.core.engine import Command
from ledger.core.errors import BankError, CommandError, LedgerCorrupt, RuleViolation
from ledger.core.events import apply
from ledger.core.invariants import check as check_invariants
from ledger.core.state import GameState, round_label


@dataclass(frozen=True)
class Base:
    """Where the state in memory was rebuilt from: a state snapshot (or the start of the game) and
    the digest of the active events up to it, which the next snapshot's digest extends."""
    command_id: int = 0
    head_events: int = 0
    events_hash: str = ""


class UnusableSnapshot(Exception):
    """A state snapshot that does not load or does not lead to a sound state: replay everything."""


class Session:
    def __init__(self, store: Store):
        self.store = store
        try:
            self.header = store.header()
            self.options = json.loads(self.header["options"])
            self.players = json.loads(self.header["players"])
            self.rs = self.stored_ruleset()
        except BankError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, sqlite3.DatabaseError) as exc:
            raise unreadable(store.path, f"its header is damaged ({exc})") from exc
        self.head = 0
        self.base = Base()
        self.state: GameState
        try:
            self.load()
        except BankError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, sqlite3.DatabaseError) as exc:
            raise unreadable(store.path, f"its commands cannot be read ({exc})") from exc

    def stored_ruleset(self):
        try:
            rs = ruleset.parse(self.header["ruleset_text"], self.options, source=self.header["title"],
                               override_text=self.header.get("ruleset_override") or "")
        except BankError as exc:
            raise LedgerCorrupt(f"the game's stored ruleset no longer loads: {exc.message}") from exc
        if rs.digest != self.header["ruleset_hash"]:
            raise LedgerCorrupt("the stored ruleset does not match its hash: the game file was altered")
        return rs

    @classmethod
    def open(cls, path: str | Path) -> "Session":
        store = Store(path)
        try:
            return cls(store)
        except BaseException:
            store.close()
            raise

    @classmethod
    def new(cls, path: str | Path, title: str, players: list[str], options: dict,
            override: Path | None = None, text: str | None = None) -> "Session":
        """Create a game. Everything is checked before the disk is touched; the game is written to
        a new file beside `path` in one transaction and appears at `path` only when complete, never
        replacing an existing file."""
        path = Path(path)
        # Store the exact rules texts (the title's and the table's override, kept apart because the
        # override is merged over the title, not appended) so the game always loads the rules it
        # was started with.
        base, extra = ruleset.ruleset_text(title), read_override(override)
        rs = ruleset.parse(base, options, source=title, override_text=extra)
        events = engine.start_events(rs, players)
        if path.exists() or path.is_symlink():
            raise CommandError(f"{path} already exists", "choose another file with --game PATH")
        header = {"title": rs.title, "players": json.dumps(players), "options": json.dumps(options),
                  "ruleset_text": base, "ruleset_override": extra, "ruleset_hash": rs.digest,
                  "engine_version": ENGINE_VERSION}
        tmp = path.with_name(f".bank-new-{os.getpid()}.db")
        try:
            store = Store(tmp, create=True)
            try:
                with store.transaction():
                    store.create(header)
                    command_id = store.append(text or f"new {title} " + " ".join(players), "new",
                                              {"title": title, "players": players, "options": options}, events)
                    start = engine.initial_state(rs, players, options)
                    for label, rows in round_snapshots(start, rs, events):
                        store.snapshot(command_id, label, rows)
                    after = start.clone()
                    for event in events:
                        apply(after, event)
                    store_state_snapshot(store, Base(), command_id, events, after)
            finally:
                store.close()
            publish(tmp, path)
        except (OSError, sqlite3.Error) as exc:
            raise db_error(exc, path) from exc
        finally:
            unlink_quietly(tmp)
        return cls.open(path)

    # ------------------------------------------------------------------ the state

    def load(self) -> None:
        """Rebuild the game as it is on disk now: from the latest usable state snapshot and the events
        after it, or from every event when there is none or it proves unusable."""
        try:
            self.load_from(use_snapshot=True)
        except UnusableSnapshot:
            self.load_from(use_snapshot=False)

    def load_from(self, use_snapshot: bool) -> None:
        with self.store.reading():  # one consistent read: head, snapshot and events
            head = self.store.head()
            found = self.store.latest_state_snapshot(snapshot.FORMAT, engine_fingerprint()) if use_snapshot else None
            rows = self.store.active_event_rows(after_command=found["command_id"] if found else 0)
        if found:
            base = Base(found["command_id"], found["head_events"], found["events_hash"])
            start = self.snapshot_state(found)
        else:
            base, start = Base(), engine.initial_state(self.rs, self.players, self.options)
        self.state = self.replay_onto(start, rows, from_snapshot=found is not None)
        self.head, self.base = head, base

    def snapshot_state(self, row: dict) -> GameState:
        try:
            return snapshot.state_from_json(row["state"])
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise UnusableSnapshot(f"state snapshot of command {row['command_id']}: {exc}") from exc

    def replay_onto(self, state: GameState, rows: list[tuple[int, str]], from_snapshot: bool) -> GameState:
        """Apply stored events to a state and check the invariants on the result. A failure after a
        snapshot may be the snapshot's fault, so it is left to a full replay to tell."""
        damaged = UnusableSnapshot if from_snapshot else LedgerCorrupt
        for event_id, data in rows:
            event = json.loads(data)
            try:
                apply(state, event)
            except Exception as exc:  # any failure here means the stored game (or snapshot) is damaged
                raise damaged(f"replay fails at event {event_id} ({event.get('kind')}): {exc}") from exc
        problems = check_invariants(state, self.rs)
        if problems:
            raise damaged("stored game breaks an invariant: " + "; ".join(problems))
        return state

    def refresh(self) -> int:
        """Reload when another process has recorded commands since this state was built; returns
        how many commands arrived (0: the state is current)."""
        head = self.store.head()
        if head == self.head:
            return 0
        before = self.head
        self.load()
        return self.head - before

    # ------------------------------------------------------------------ writing

    def execute(self, cmd: Command, text: str) -> list[dict]:
        with self.store.transaction():
            self.refresh()
            self.store.ensure_state_snapshots()
            self.store.claim_engine_version()
            events, after = engine.decide_with_state(self.state, self.rs, cmd)
            snapshots = round_snapshots(self.state, self.rs, events)
            command_id = self.store.append(text, cmd.verb, cmd.args, events)
            for label, rows in snapshots:
                self.store.snapshot(command_id, label, rows)
            base = store_state_snapshot(self.store, self.base, command_id, events, after)
        # only once committed: a rolled-back command leaves the session as it was
        self.state, self.head, self.base = after, command_id, base
        return events

    def undo(self, text: str = "undo") -> dict:
        with self.store.transaction():
            self.refresh()
            self.store.ensure_state_snapshots()  # its triggers follow the status change
            self.store.claim_engine_version()
            last = self.store.last("active")
            if last is None:
                raise RuleViolation("nothing to undo")
            self.store.set_status(last["id"], "undone")
            self.store.append(text, "undo", {"command": last["id"]}, [], status="meta")
            self.load()
        return last

    def redo(self, text: str = "redo") -> dict:
        with self.store.transaction():
            self.refresh()
            self.store.ensure_state_snapshots()  # its triggers follow the status change
            self.store.claim_engine_version()
            target = self.redoable()
            if target is None:
                raise RuleViolation("nothing to redo", "redo works right after undo, before any new command")
            self.store.set_status(target["id"], "active")
            self.store.append(text, "redo", {"command": target["id"]}, [], status="meta")
            self.load()
        return target

    def redoable(self) -> dict | None:
        """The command undone most recently, if nothing new has been done since: read in order, the
        commands table is a stack of undone commands that undo pushes, redo pops and any new
        command clears."""
        stack: list[int] = []
        rows = self.store.commands()
        for row in rows:
            if row["verb"] == "undo":
                stack.append(json.loads(row["args"])["command"])
            elif row["verb"] == "redo":
                if stack:
                    stack.pop()
            elif row["verb"] != "new":
                stack = []
        if not stack:
            return None
        return next(r for r in rows if r["id"] == stack[-1])

    def backup(self, dest: Path) -> None:
        try:
            self.store.backup(dest)
        except (OSError, sqlite3.Error) as exc:
            raise db_error(exc, dest) from exc

    def close(self) -> None:
        self.store.close()


def read_override(path: Path | None) -> str:
    if path is None:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read the rules file {path}: {getattr(exc, 'strerror', None) or exc}") from exc


def unlink_quietly(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            Path(str(path) + suffix).unlink(missing_ok=True)
        except OSError:
            pass


# --------------------------------------------------------------------------- state snapshots

def starts_round(events: list[dict]) -> bool:
    return any(e["kind"] in ("round_started", "game_over") for e in events)


def store_state_snapshot(store: Store, base: Base, command_id: int, events: list[dict], after: GameState) -> Base:
    """Store the state after a command that starts a round or ends the game, with the digest of
    the active events up to it (those after `base` are read from this transaction). Returns the
    new base, or `base` when nothing was stored."""
    if not starts_round(events):
        return base
    try:
        text = snapshot.state_to_json(after)
    except (TypeError, ValueError):
        return base  # a state the encoding cannot hold exactly: no cache, the command still counts
    rows = store.active_event_rows(after_command=base.command_id)
    new = Base(command_id, base.head_events + len(rows), extend_events_hash(base.events_hash, rows))
    store.save_state_snapshot(command_id, new.head_events, new.events_hash, snapshot.FORMAT, engine_fingerprint(),
                              text)
    return new


def extend_events_hash(digest: str, rows: list[tuple[int, str]]) -> str:
    """The digest of the active events, extended by more (id, data) rows: a chain, so a snapshot's
    digest follows from the previous one's without reading the events before it again."""
    for event_id, data in rows:
        digest = hashlib.sha256(f"{digest}|{event_id}|{data}".encode()).hexdigest()
    return digest


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """Which engine wrote a state snapshot: the engine version, the snapshot format, the state's
    layout and the source of the pure core and the titles' modules (everything that decides what
    applying an event does). Equal sources give equal fingerprints on every machine, so a game
    file shared between people keeps its snapshots; any change to the engine ignores them."""
    import ledger.core
    import rulesets
    digest = hashlib.sha256(f"{ENGINE_VERSION}:{snapshot.FORMAT}:{snapshot.layout_digest()}".encode())
    for package in (ledger.core, rulesets):
        root = Path(package.__file__).parent
        for path in source_files(root):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


def source_files(root: Path) -> list[Path]:
    """The .py files under a package folder, in a fixed order (os.walk: cheaper than a glob on a
    cold start)."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        found += [Path(folder, n) for n in names if n.endswith(".py")]
    return sorted(found)


def round_snapshots(state: GameState, rs, events: list[dict]) -> list[tuple[str, list[dict]]]:
    """Each player's cash and worth at the moment each round begins (and when the game ends), for
    the ledger's per-round snapshots; the same moment `bank export` uses."""
    from ledger.core.scoring import snapshot_rows
    if not any(e["kind"] in ("round_started", "game_over") for e in events):
        return []
    work, out = state.clone(), []
    for event in events:
        apply(work, event)
        if event["kind"] in ("round_started", "game_over"):
            out.append((round_label(work), snapshot_rows(work, rs)))
    return out
