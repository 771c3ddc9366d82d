"""Drive the pure engine (no SQLite) with transcript lines, for scenario tests.

    g = Game(["Alice", "Bob", "Carol", "Dave"])
    g.do("bid Alice CS 45")
    assert g.cash("Alice") == 600
    g.expect_error("bid Bob CS 46", match="at least")

`g.do` parses a line with the grammar the `bank` CLI is built from (ledger/core/grammar.py: verbs,
argument order, options), builds the same `Command` the CLI would (`None`/`False` arguments
dropped, counts as ints, amounts as the typed strings), then runs `ledger.engine.decide` and applies each event with
`ledger.state.apply`, keeping every event so a test can replay them.
"""

from __future__ import annotations

import copy

import pytest

from ledger import catalog
from ledger.core import engine
from ledger.core.engine import Command
from ledger.core.errors import BankError, CommandError, RuleViolation
from ledger.core.events import apply
from ledger.core.invariants import check as check_invariants
from ledger.core.rules import shares
from ledger.core.state import BANK, POOL, GameState, company_acct, player_acct


def parse(line: str) -> Command:
    """A transcript line -> the Command the CLI builds for it: both read the one grammar
    (ledger.core.grammar), so `None`/`False` arguments are dropped, counts are ints and amounts the
    typed strings."""
    return catalog.parse_line(line)


def state_snapshot(state: GameState) -> GameState:
    return state.clone()  # shares nothing a command could change (GameState.clone)


class Game:
    def __init__(self, players, title: str = "1830", options: dict | None = None):
        self.players = list(players)
        self.options = dict(options or {})
        self.rs = catalog.load(title, self.options)
        self.state = engine.initial_state(self.rs, self.players, self.options)
        self.events: list[dict] = []
        self.lines: list[str] = []
        for event in engine.start_events(self.rs, self.players):
            apply(self.state, event)
            self.events.append(event)

    # ------------------------------------------------------------------ acting

    def decide(self, line: str) -> list[dict]:
        """The events a line would produce, without applying them."""
        return engine.decide(self.state, self.rs, parse(line))

    def do(self, *lines: str) -> list[dict]:
        """Run each line; returns the events of the last one. Checks the invariants after each."""
        out: list[dict] = []
        for line in lines:
            for part in line.strip().splitlines():
                part = part.split("#", 1)[0].strip()
                if not part:
                    continue
                out = engine.decide(self.state, self.rs, parse(part))
                for event in out:
                    apply(self.state, event)
                    self.events.append(event)
                self.lines.append(part)
                problems = check_invariants(self.state, self.rs)
                assert not problems, f"after {part!r}: {problems}"
        return out

    def expect_error(self, line: str, match: str | None = None, kind=BankError) -> BankError:
        """The line is rejected with a RuleViolation/CommandError (matching `match`, a regex) and the
        state is unchanged."""
        before = state_snapshot(self.state)
        n_events = len(self.events)
        with pytest.raises(kind, match=match) as info:
            engine.decide(self.state, self.rs, parse(line))
        assert isinstance(info.value, (RuleViolation, CommandError))
        assert self.state == before, "a rejected command changed the state"
        assert len(self.events) == n_events
        return info.value

    def clone(self) -> "Game":
        return copy.deepcopy(self)

    def replayed(self) -> GameState:
        return engine.replay(self.rs, self.players, self.events, self.options)

    # ------------------------------------------------------------------ reading

    def cash(self, who: str) -> int:
        """A player's cash, or a company's treasury (by symbol), or 'bank'."""
        if who == "bank":
            return self.state.cash(BANK)
        if who in self.state.corps:
            return self.state.cash(company_acct(who))
        return self.state.cash(player_acct(who))

    def bank(self) -> int:
        return self.state.cash(BANK)

    def price(self, corp: str) -> int | None:
        cell = self.state.corps[corp].cell
        return self.rs.market[tuple(cell)].price if cell else None

    def cell(self, corp: str):
        cell = self.state.corps[corp].cell
        return tuple(cell) if cell else None

    def pct(self, holder: str, corp: str) -> int:
        """Percent of `corp` held by a player, or by 'pool' / 'ipo'."""
        if holder == "pool":
            acct = POOL
        elif holder == "ipo":
            acct = shares.unsold_acct(self.state, self.rs, corp)
        else:
            acct = player_acct(holder)
        return self.state.percent_of(acct, corp)

    def president(self, corp: str) -> str | None:
        return self.state.president(corp)

    def certs(self, holder: str, corp: str) -> list[int]:
        """The percentages of the certificates a player (or 'pool') holds of a company, sorted high first."""
        acct = POOL if holder == "pool" else player_acct(holder)
        return sorted((self.state.cert_percent[c] for c in self.state.certs_of(acct, corp)), reverse=True)

    def owner(self, private: str) -> str | None:
        owner = self.state.privates[private].owner
        return owner.split(":", 1)[1] if owner else None

    @property
    def round(self) -> dict:
        return self.state.round

    def round_kind(self) -> str:
        return self.state.round["kind"]

    def turn(self) -> str:
        """Whose turn it is in an auction (the actor, also in a bidding war) or a stock round."""
        from ledger.core.rounds import auction
        r = self.state.round
        if r["kind"] == "auction":
            return auction.actor(self.state)
        return self.state.players[r["turn"]]

    def order(self) -> list[str]:
        """The seating (player-card) order now; 1843 re-deals it after each stock round."""
        return list(self.state.players)

    def phase(self) -> str:
        return self.state.phase

    def trains(self, corp: str) -> list[str]:
        """The sides (e.g. '2+1', '3/5x2', 'TGV') of the train certificates a company holds, sorted."""
        from ledger.core.rules import trains
        return sorted(trains.side_name(self.state, self.rs, t) for t in self.state.corp_trains(corp))

    def pool_trains(self) -> list[str]:
        from ledger.core.rules import trains
        return sorted(trains.side_name(self.state, self.rs, t) for t in self.state.pool_trains())

    def supply_left(self, train_type: str) -> int:
        """Certificates of a type still in the bank's supply."""
        from ledger.core.rules import trains
        return len(trains.depot_left(self.state, train_type))

    def port_owner(self, port: str) -> str | None:
        owner = self.state.assets[port].owner  # 1843's ports are assets: held by a company or on the map
        return owner.split(":", 1)[1] if owner else None

    @property
    def game_over(self) -> bool:
        return self.state.game_over

    @property
    def end_reason(self) -> str | None:
        return self.state.end_reason

    def priority(self) -> str:
        return self.state.players[self.state.priority]

    def value(self, player: str) -> int:
        """The player's net worth as `score` computes it."""
        from ledger.interface import views
        return views.value(self.state, self.rs, player)

    def kinds(self, events=None) -> list[str]:
        return [e["kind"] for e in (self.events if events is None else events)]


# ---------------------------------------------------------------------- common openings

FOUR = ["Alice", "Bob", "Carol", "Dave"]


def auction_all_bought(g: Game, buyers=("Alice", "Bob", "Carol", "Dave", "Alice", "Bob"), bo_par: int = 100) -> None:
    """Digest §4 example: each private bought outright in turn (A SV, B CS, C DH, D MH, A CA, B BO),
    then the BO buyer sets B&O's par."""
    privates = ["SV", "CS", "DH", "MH", "CA", "BO"]
    for who, sym in zip(buyers, privates):
        g.do(f"buy {who} {sym}")
    g.do(f"par {buyers[5]} B&O {bo_par}")
