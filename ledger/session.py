"""One open game: load and replay it, decide a command, store it in one transaction.

This is the only place the pure core meets the store.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import ENGINE_VERSION, engine, ruleset
from .engine import Command
from .errors import BankError, LedgerCorrupt, RuleViolation
from .invariants import check as check_invariants
from .state import GameState, apply
from .store import Store
from .state import round_label
from .views import snapshot_rows


class Session:
    def __init__(self, store: Store):
        self.store = store
        self.header = store.header()
        self.options = json.loads(self.header["options"])
        try:
            self.rs = ruleset.parse(self.header["ruleset_text"], self.options, source=self.header["title"],
                                    override_text=self.header.get("ruleset_override") or "")
        except BankError as exc:
            raise LedgerCorrupt(f"the game's stored ruleset no longer loads: {exc.message}") from exc
        if self.rs.digest != self.header["ruleset_hash"]:
            raise LedgerCorrupt("the stored ruleset does not match its hash: the game file was altered")
        self.players = json.loads(self.header["players"])
        self.state = self.replay()

    @classmethod
    def open(cls, path: str | Path) -> "Session":
        return cls(Store(path))

    @classmethod
    def new(cls, path: str | Path, title: str, players: list[str], options: dict,
            override: Path | None = None, text: str | None = None) -> "Session":
        # Store the exact rules texts (the title's and the table's override, kept apart because the
        # override is merged over the title, not appended) so the game always loads the rules it
        # was started with.
        base, extra = ruleset.ruleset_text(title), override.read_text() if override else ""
        rs = ruleset.parse(base, options, source=title, override_text=extra)
        events = engine.start_events(rs, players)
        store = Store(path, create=True)
        header = {"title": rs.title, "players": json.dumps(players), "options": json.dumps(options),
                  "ruleset_text": base, "ruleset_override": extra, "ruleset_hash": rs.digest,
                  "engine_version": ENGINE_VERSION}
        store.create(header)
        store.header()  # sanity: readable
        with store.transaction():
            command_id = store.append(text or f"new {title} " + " ".join(players), "new",
                                      {"title": title, "players": players, "options": options}, events)
            start = engine.initial_state(rs, players, options)
            for label, rows in round_snapshots(start, rs, events):
                store.snapshot(command_id, label, rows)
        return cls(store)

    def replay(self) -> GameState:
        state = engine.initial_state(self.rs, self.players, self.options)
        for i, event in enumerate(self.store.active_events()):
            try:
                apply(state, event)
            except Exception as exc:  # any failure here means the stored game is damaged
                raise LedgerCorrupt(f"replay fails at event {i + 1} ({event.get('kind')}): {exc}") from exc
        problems = check_invariants(state, self.rs)
        if problems:
            raise LedgerCorrupt("stored game breaks an invariant: " + "; ".join(problems))
        return state

    def execute(self, cmd: Command, text: str) -> list[dict]:
        events, after = engine.decide_with_state(self.state, self.rs, cmd)
        snapshots = round_snapshots(self.state, self.rs, events)
        with self.store.transaction():
            command_id = self.store.append(text, cmd.verb, cmd.args, events)
            for label, rows in snapshots:
                self.store.snapshot(command_id, label, rows)
        self.state = after
        return events

    def undo(self, text: str = "undo") -> dict:
        last = self.store.last("active")
        if last is None:
            raise RuleViolation("nothing to undo")
        with self.store.transaction():
            self.store.set_status(last["id"], "undone")
            self.store.append(text, "undo", {"command": last["id"]}, [], status="meta")
        self.state = self.replay()
        return last

    def redo(self, text: str = "redo") -> dict:
        target = self.redoable()
        if target is None:
            raise RuleViolation("nothing to redo", "redo works right after undo, before any new command")
        with self.store.transaction():
            self.store.set_status(target["id"], "active")
            self.store.append(text, "redo", {"command": target["id"]}, [], status="meta")
        self.state = self.replay()
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

    def close(self) -> None:
        self.store.close()


def round_snapshots(state: GameState, rs, events: list[dict]) -> list[tuple[str, list[dict]]]:
    """Each player's cash and worth at the moment each round begins (and when the game ends), for
    the ledger's per-round snapshots; the same moment `bank export` uses."""
    if not any(e["kind"] in ("round_started", "game_over") for e in events):
        return []
    work, out = state.clone(), []
    for event in events:
        apply(work, event)
        if event["kind"] in ("round_started", "game_over"):
            out.append((round_label(work), snapshot_rows(work, rs)))
    return out
