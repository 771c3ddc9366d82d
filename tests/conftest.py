"""What the tests share: one Table that plays a game on the pure engine, as a table types it.

    t = Table("new 1801 Ann Ben Cy")
    t.play(AUCTION)                 # transcript lines: comments and blank lines dropped
    assert t.cash()["Ann"] == 1020
    assert "§8.3" in t.refused("train B 3+3")

Each line is read with the one grammar the `bank` CLI is built from (ledger.core.grammar), decided
by `ledger.core.engine` and its events applied; no CLI and no SQLite, so a rules test costs what the
rules cost. A refusal reads as the CLI's one stderr line ("error: ..."): the CLI turns an error into
text with the same `one_line(exc.line())`. What the readers return is the CLI's `status --json`,
`score --json` and `market --json`, built by the same view functions from the same state.

The few tests of the CLI, the store and the board page drive the real thing (cli_driver.Bank).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from ledger import catalog
from ledger.core import engine
from ledger.core.errors import BankError, one_line
from ledger.core.events import apply
from ledger.core.invariants import check as check_invariants
from ledger.core.state import GameState

sys.path.insert(0, str(Path(__file__).parent))   # the helper modules beside this file (transcripts ...)

from transcripts import lines_of  # noqa: E402


class Refusal(AssertionError):
    """A line the table expected to be taken was refused."""


class Table:
    """A game on the pure engine, driven by transcript lines; `new TITLE PLAYERS [--option X]`
    starts it (or the constructor's title and players)."""

    def __init__(self, script: str = "", *, title: str | None = None, players: list[str] | None = None,
                 options: dict | None = None):
        self.rs = None
        self.state: GameState | None = None
        self.players: list[str] = []
        self.options: dict = {}
        self.events: list[dict] = []
        self.lines: list[str] = []
        if title:
            self.start(title, players or [], options or {})
        if script:
            self.play(script)

    # ------------------------------------------------------------------ playing

    def start(self, title: str, players: list[str], options: dict) -> None:
        self.rs = catalog.load(title, options)
        self.players, self.options = list(players), dict(options)
        self.state = engine.initial_state(self.rs, self.players, self.options)
        self.events, self.lines = [], []
        for event in engine.start_events(self.rs, self.players):
            apply(self.state, event)
            self.events.append(event)
        self.money_at_start = sum(self.state.balances.values())

    def decide(self, line: str) -> list[dict]:
        """The events a line would bring, nothing applied (raises the refusal)."""
        return engine.decide(self.state, self.rs, catalog.parse_line(line))

    def line(self, text: str) -> list[dict]:
        """One line, its events applied and returned; a refusal raises the engine's BankError."""
        cmd = catalog.parse_line(text)
        if cmd.verb == "new":
            options = {}
            for opt in cmd.get("option") or []:
                name, _, value = opt.partition("=")
                options[name] = value or True
            self.start(cmd.get("title"), cmd.get("players"), options)
            return list(self.events)
        events = engine.decide(self.state, self.rs, cmd)
        for event in events:
            apply(self.state, event)
            self.events.append(event)
        self.lines.append(text)
        return events

    def play(self, script: str) -> None:
        """Every line of a transcript; the first refusal fails the test naming the line."""
        for text in lines_of(script):
            try:
                self.line(text)
            except BankError as exc:
                raise Refusal(f"{text!r} was refused: {one_line(exc.line())}") from None

    def do(self, *lines: str) -> list[dict]:
        """Each line (a refusal fails the test), the invariants checked after each; the last one's
        events."""
        out: list[dict] = []
        for text in lines:
            for one in lines_of(text):
                try:
                    out = self.line(one)
                except BankError as exc:
                    raise Refusal(f"{one!r} was refused: {one_line(exc.line())}") from None
                problems = check_invariants(self.state, self.rs)
                assert not problems, f"after {one!r}: {problems}"
        return out

    def attempt(self, text: str) -> str | None:
        """A line that may be refused: None when taken, else the refusal's line."""
        try:
            self.line(text)
        except BankError as exc:
            return "error: " + one_line(exc.line())
        return None

    def refused(self, text: str, *fragments: str) -> str:
        """`text` is refused with one line naming the rule (each fragment, case-insensitive), and
        nothing in the game changes. Returns the line as the CLI prints it ("error: ...")."""
        before, count = self.state.clone(), len(self.events)
        try:
            self.line(text)
        except BankError as exc:
            said = "error: " + one_line(exc.line())
        else:
            raise AssertionError(f"{text!r} should have been refused")
        assert self.state == before, f"the refused {text!r} changed the game"
        assert len(self.events) == count, f"the refused {text!r} was recorded"
        for fragment in fragments:
            assert fragment.lower() in said.lower(), f"{text!r} refused with {said!r}, expected {fragment!r}"
        return said

    def copy(self) -> Table:
        """An independent copy (the state cloned; events are never changed once applied)."""
        new = copy.copy(self)
        new.state = self.state.clone()
        new.events, new.lines, new.options = list(self.events), list(self.lines), dict(self.options)
        return new

    def replayed(self) -> GameState:
        return engine.replay(self.rs, self.players, self.events, self.options)

    # ------------------------------------------------------------------ reading (the CLI's --json)

    def status(self) -> dict:
        from ledger.interface.views import status_json
        return json.loads(json.dumps(status_json(self.state, self.rs)))

    def status_text(self) -> str:
        from ledger.interface.views import status_text
        return status_text(self.state, self.rs, width=100)

    def scores(self) -> dict:
        from ledger.interface.views import score_json
        return json.loads(json.dumps(score_json(self.state, self.rs)))

    def score(self) -> dict:
        """Each player's row of `bank score --json`, by name."""
        return {p["name"]: p for p in self.scores()["players"]}

    def market(self) -> dict:
        from ledger.interface.views import market_json
        return json.loads(json.dumps(market_json(self.state, self.rs)))

    def player(self, name: str, s: dict | None = None) -> dict:
        return next(p for p in (s or self.status())["players"] if p["name"] == name)

    def company(self, sym: str, s: dict | None = None) -> dict:
        return next(c for c in (s or self.status())["companies"] if c["sym"] == sym)

    def private(self, sym: str, s: dict | None = None) -> dict:
        return next(p for p in (s or self.status())["privates"] if p["sym"] == sym)

    def cash(self) -> dict:
        """Every player's and company's cash, and the bank's."""
        s = self.status()
        out = {p["name"]: p["cash"] for p in s["players"]}
        out.update({c["sym"]: c["cash"] for c in s["companies"]})
        out["bank"] = s["bank"]
        return out

    def prices(self) -> dict:
        return {c["sym"]: c["price"] for c in self.status()["companies"]}

    def holdings(self, sym: str) -> dict:
        """Percent of `sym` held by each player, its treasury ('ipo') and the open market ('pool')."""
        s = self.status()
        out = {p["name"]: p["shares"].get(sym, 0) for p in s["players"]}
        c = self.company(sym, s)
        out["ipo"], out["pool"] = c["ipo"], c["pool"]
        return out

    def trains(self, sym: str) -> list:
        return sorted(self.company(sym)["trains"])

    def certs(self, name: str) -> int:
        return self.player(name)["certificates"]

    def round(self) -> str:
        return self.status()["round"]

    def log_count(self) -> int:
        return len(self.lines)

    def money_total(self) -> int:
        s = self.status()
        return s["bank"] + sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])

    def books_balance(self, total: int | None = None) -> None:
        """Money conserved (every event's transfers sum to zero; the total is `total` when given),
        every company's certificates sum to 100 %, and the engine's invariants hold."""
        assert sum(self.state.balances.values()) == self.money_at_start, "money was made or lost"
        if total is not None:
            assert self.money_total() == total
        s = self.status()
        for c in s["companies"]:
            held = sum(p["shares"].get(c["sym"], 0) for p in s["players"])
            assert held + c["ipo"] + c["pool"] == 100, c["sym"]
        problems = check_invariants(self.state, self.rs)
        assert not problems, problems
