"""1801 (18OE): whole random games for 2 to 7 players, from the packet auction to the end, with the
books and the rules checked after every event (tests/test_1801_random.py's checker) and at the end.

The stock rounds, the packet and the concessions are played at random from what the core says is
legal (tests/random_play.py). In the operating rounds a table in a hurry plays instead: each
railroad runs a random revenue, buys the next train when its treasury allows, the nationals claim
rusted trains; conversions into nationals are taken at random when offered. Every game must end —
the bank broken (§13) or the repeat OR after the first level 8 train (§13) — and at the end:

* money is conserved with the remainder cash counted, and the remainder is in the bank (§13);
* each player's score is cash + shares at their value (a 20 % certificate counts two) + face-up
  privates at face; treasuries and face-down privates count nothing (§13.1); a regional left before
  the Consolidation round counts at par (D18 #44);
* replaying the events gives the state reached step by step.
"""

from __future__ import annotations

import importlib

import pytest
from test_1801_random import Table, checker

from ledger import catalog
from ledger.core import engine, legal, scoring
from ledger.core.errors import BankError
from ledger.core.rules import shares
from ledger.core.rules import trains as T
from ledger.core.state import REMAINDER, RUSTED, company_acct, player_acct

title = importlib.import_module("rulesets.1801.title")
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


class HurriedTable(Table):
    """Random stock rounds; operating rounds played by a hurried policy with random amounts."""

    def step(self) -> bool:
        s = self.state
        if s.game_over:
            return False
        if s.round.get("kind") == "stock" and title.major_phase(s) and self.rng.random() < 0.7:
            # a hurried table: most stock turns pass (refused while a minor or regional must be placed)
            if self.play_if_legal(f"pass {legal.turn(s, self.rs).actor}"):
                return True
        if s.round.get("kind") == "concessions":
            try:
                return super().step()
            except AssertionError:   # the random pars are dearer than the holder can pay: the cheapest
                who = legal.turn(s, self.rs).actor
                free = [c for c in s.corps if s.corps[c].kind == "regional" and not s.corps[c].floated
                        and not s.corps[c].par and c not in title.removed(s)]
                par = min(title.rules(self.rs, "regional_pars"))
                if any(self.play_if_legal(f"par {who} {c} {par}{x}") for c in free for x in ("", " --open-market")):
                    return True
                raise
        if s.round.get("kind") != "operating":
            return super().step()
        line = self.or_line()
        try:
            events = engine.decide(s, self.rs, catalog.parse_line(line))
        except BankError:   # the hurried line is not legal here: any legal line instead
            return super().step()
        for event in events:
            self.apply(event, line)
        self.lines.append(line)
        return True

    def play_if_legal(self, line: str) -> bool:
        try:
            events = engine.decide(self.state, self.rs, catalog.parse_line(line))
        except BankError:
            return False
        for event in events:
            self.apply(event, line)
        self.lines.append(line)
        return True

    def or_line(self) -> str:
        s, rs, rng = self.state, self.rs, self.rng
        if s.pending:
            due = s.pending[0]
            if due["kind"] == "choice":
                return f"choose {due['who']} {rng.choice(due['options'])}"
            corp = due["corp"]
            held = sorted(s.corp_trains(corp), key=lambda t: (not title.is_rusted(s, t), int(T.train_type(t))))
            return f"discard {corp} {T.train_type(held[0]) if title.is_rusted(s, held[0]) else T.side_name(s, rs, held[0])}"
        window = title.conversion_window(s)
        if window and rng.random() < 0.3:
            for player in window["order"][window["next"]:]:
                mine = [m for m in s.corps if s.corps[m].kind == "major" and s.president(m) == player]
                if mine:
                    return f"convert {player} {rng.choice(mine)}"
        corp = s.round["corp"]
        kind = s.corps[corp].kind
        ran = s.round["revenue"] is not None
        if title.repeat_or(s):
            rec = s.own.final["runs"].get(corp) or {}
            if not ran:
                if "revenue" in rec and not rec.get("new_train"):
                    return f"{rec['how']} {corp} {rec['revenue']}"
                return f"withhold {corp} 0"
            return f"done {corp}"
        if kind == "national":
            if not ran:
                if not s.corp_trains(corp):
                    return f"withhold {corp} 0"
                cities = ",".join(str(rng.choice((20, 30, 40, 60))) for _ in range(rng.randint(0, 6)))
                return f"run {corp} --cities {cities or 0} --towns 10 --unlinked-cities {rng.randint(0, 2)}"
            box = [t for t, h in s.trains.items() if h == RUSTED]
            if box and T.load(s, rs, corp)[0] < T.limit(s, rs, corp) and rng.random() < 0.8:
                return f"claim {corp} {T.train_type(rng.choice(box))}"
            return f"done {corp}"
        if corp in s.own.owes_train:
            return f"train {corp} 2+2"
        if not ran:
            n = len(T.counted(s, corp))
            if not n:
                return f"withhold {corp} 0"
            how = rng.choice(shares.kind(s, rs, corp).dividends)
            amount = 10 * rng.randint(0, 12) * n
            return f"{how} {corp} {amount}"
        offer = T.depot_offer(s, rs)
        if T.sold_count(s, "7") >= 4 and T.depot_left(s, "8"):
            offer = ["8"] + list(offer)
        if offer and title.major_phase(s) and T.load(s, rs, corp)[0] < T.limit(s, rs, corp) \
                and s.round["trains"] < 2 and not s.round.get("treasury"):
            side = min(rs.train(offer[0]).sides, key=lambda sd: sd.price)
            line = f"train {corp} {side.name}"
            try:
                engine.decide(s, rs, catalog.parse_line(line))
                return line
            except BankError:
                pass
        return f"done {corp}"


def play_to_the_end(count: int, seed: int, steps: int) -> HurriedTable:
    seen: dict = {}
    game = HurriedTable("1801", NAMES[:count], seed, after_event=checker(seen))
    for _ in range(steps):
        if not game.step():
            break
    return game


@pytest.mark.parametrize("count, seed", [(2, 21), (3, 22), (4, 23), (5, 24), (6, 25), (7, 26)])
def test_a_whole_random_game_ends_with_the_books_kept(count, seed):
    game = play_to_the_end(count, seed, 9000)
    s, rs = game.state, game.rs
    assert s.game_over, f"{count} players: no end after {len(game.lines)} lines, at {s.round} (phase {s.phase}; " \
                        f"{legal.hint(s, rs)})"
    assert s.end_reason in ("bank broken", "the repeat OR after the first level 8 train is over (§13)"), s.end_reason
    assert s.cash(REMAINDER) == 0, "the remainder cash joins the bank at the end (§13)"
    for row in scoring.score_rows(s, rs):
        p = row["name"]
        worth = sum(shares.shares_of(s, rs, player_acct(p), c) * shares.price(s, rs, c) for c in s.corps
                    if s.corps[c].kind in ("major", "national"))
        # D18 #44: a game ending before the Consolidation round: a regional's certificates at par
        worth += sum(s.percent_of(player_acct(p), c) // 25 * s.corps[c].par for c in s.corps
                     if s.corps[c].kind == "regional" and s.corps[c].par)
        face = sum(rs.private(sym).face for sym, a in s.privates.items() if a.owner == player_acct(p) and not a.closed)
        assert row["value"] == s.cash(player_acct(p)) + worth + face, row
    assert all(s.cash(company_acct(c)) >= 0 for c in s.corps)
    assert game.replayed() == s, "replaying the events differs from the state reached step by step"
