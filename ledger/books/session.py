"""One open game: load and replay it, decide a command, store it in one transaction.

This is the only place the pure core meets the store. A command is decided on the state it is
written after: inside the write transaction the session checks that the game's last command is
still the one its state was built from, and replays the game first if another process (a second
terminal, a shell) has written since.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from ledger import ENGINE_VERSION
from ledger.core import engine, ruleset
from ledger.core.engine import Command
from ledger.core.errors import BankError, CommandError, LedgerCorrupt, RuleViolation
from ledger.core.invariants import check as check_invariants
from ledger.core.state import GameState, apply, round_label
from ledger.books.store import Store, db_error, publish, unreadable


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
        """Replay the game as it is on disk now (one consistent read)."""
        with self.store.reading():
            head = self.store.head()
            events = self.store.active_events()
        self.state = self.replay(events)
        self.head = head

    def replay(self, events: list[dict] | None = None) -> GameState:
        if events is None:
            events = self.store.active_events()
        state = engine.initial_state(self.rs, self.players, self.options)
        for i, event in enumerate(events):
            try:
                apply(state, event)
            except Exception as exc:  # any failure here means the stored game is damaged
                raise LedgerCorrupt(f"replay fails at event {i + 1} ({event.get('kind')}): {exc}") from exc
        problems = check_invariants(state, self.rs)
        if problems:
            raise LedgerCorrupt("stored game breaks an invariant: " + "; ".join(problems))
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
            events, after = engine.decide_with_state(self.state, self.rs, cmd)
            snapshots = round_snapshots(self.state, self.rs, events)
            command_id = self.store.append(text, cmd.verb, cmd.args, events)
            for label, rows in snapshots:
                self.store.snapshot(command_id, label, rows)
        self.state, self.head = after, command_id
        return events

    def undo(self, text: str = "undo") -> dict:
        with self.store.transaction():
            self.refresh()
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


def round_snapshots(state: GameState, rs, events: list[dict]) -> list[tuple[str, list[dict]]]:
    """Each player's cash and worth at the moment each round begins (and when the game ends), for
    the ledger's per-round snapshots; the same moment `bank export` uses."""
    from ledger.interface.views import snapshot_rows
    if not any(e["kind"] in ("round_started", "game_over") for e in events):
        return []
    work, out = state.clone(), []
    for event in events:
        apply(work, event)
        if event["kind"] in ("round_started", "game_over"):
            out.append((round_label(work), snapshot_rows(work, rs)))
    return out
