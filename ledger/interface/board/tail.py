"""The game's history as the board shows it (its last commands and its net-worth chart), kept by
following the ledger rather than replaying it on every change.

The board is rebuilt after every command anyone records; replaying the whole ledger each time (as
`bank log` and `bank chart` do once) made a long game's page slower with every command. `Tail`
keeps its own state and the ids of the events it has applied: when the events in force now begin
with those, only the new ones are read and applied; otherwise (an undo, a correction) it starts
again from the start of the game. The chart's points of the rounds already played are kept, and
the last commands are read from the last rows of the ledger alone, each labelled with the round
it was recorded in, as `bank log` labels it (ledger.books.history.walk).
"""

from __future__ import annotations

import json
import shlex
from bisect import bisect_right

from ledger.books.history import author_label, closes_round, money_moved, point
from ledger.core import engine, grammar
from ledger.core.events import apply
from ledger.core.state import round_label
from ledger.interface import views

# Undo and redo are not listed as commands of their own (as in `bank log`).
UNLISTED = ("undo", "redo")


def said_plainly(rs, verb: str, text: str) -> str:
    """A command whose events the log does not word (a turn ended) in the table's words: the verb's
    label and its words, 'Pass: Player 1'."""
    syntax = grammar.verbs_of(rs).get(verb)
    try:
        words = shlex.split(text)[1:]
    except ValueError:
        words = text.split()[1:]
    label = syntax.label if syntax is not None and syntax.label else verb
    return f"{label}: {' '.join(words)}" if words else label


class Tail:
    def __init__(self, rs, players: list[str], options: dict):
        self.rs, self.players, self.options = rs, players, options
        self.restart()

    def restart(self) -> None:
        self.state = engine.initial_state(self.rs, self.players, self.options)
        self.applied: list[int] = []    # the ids of the events applied to the state, in order
        self.played: list[dict] = []    # the chart's points of the rounds played so far
        self.commands: list[int] = []   # the commands with events in force, in order ...
        self.rounds: list[str] = []     # ... and the round each was recorded in

    # ------------------------------------------------------------------ following the ledger

    def follow(self, store) -> None:
        """Bring the state up to the events in force in `store` now (call inside one read)."""
        ids = store.active_event_ids()
        if ids[:len(self.applied)] != self.applied:
            self.restart()              # an event applied is no longer in force
        if len(ids) == len(self.applied):
            return
        last = self.applied[-1] if self.applied else 0
        try:
            for event_id, command_id, data in store.active_events_after(last):
                self.take(command_id, json.loads(data))
                self.applied.append(event_id)
        except BaseException:
            self.restart()              # a state half changed by an event is no state to go on from
            raise

    def take(self, command_id: int, event: dict) -> None:
        if not self.commands or self.commands[-1] != command_id:
            self.commands.append(command_id)
            self.rounds.append(round_label(self.state))
        if closes_round(self.state, event):
            self.played.append(point(self.state, self.rs, round_label(self.state)))
        apply(self.state, event)

    # ------------------------------------------------------------------ what the page shows

    def series(self) -> list[dict]:
        """ledger.books.history.series, from what has been followed."""
        if self.state.game_over:
            return list(self.played)
        return [*self.played, point(self.state, self.rs, round_label(self.state) + " (now)")]

    def round_of(self, command_id: int) -> str:
        """The round a command in force was recorded in: that of the state before it, which a
        command without events shares with the next command that has some (or with now)."""
        at = bisect_right(self.commands, command_id - 1)
        return self.rounds[at] if at < len(self.commands) else round_label(self.state)

    def recent(self, store, count: int) -> list[dict]:
        """The last `count` commands in force, newest first, each with what it did in plain words and
        who entered it: the lines `bank log` prints (call inside the same read as `follow`)."""
        rows, events = store.recent_commands(count, tuple(UNLISTED))
        out = []
        for command_id, text, verb, by in rows:
            done = events.get(command_id, [])
            lines = [t for t in (views.describe(e, self.rs) for e in done) if t]
            out.append({"id": command_id, "round": "setup" if verb == "new" else self.round_of(command_id),
                        "text": text, "money": money_moved(done), "by": by or "terminal",
                        "who": author_label(by) or "terminal",
                        "lines": lines, "said": "; ".join(lines[:2]) or said_plainly(self.rs, verb, text)})
        return out
