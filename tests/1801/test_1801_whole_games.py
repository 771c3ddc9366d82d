"""1801 (18OE): whole games to the end, with the books and the rules checked after every event
(random_1801.checker) and at the end.

A table in a hurry plays the operating rounds (random_1801.HurriedTable): each railroad runs a
random revenue, buys the next train when its treasury allows, the nationals claim rusted trains;
conversions into nationals are taken at random when offered; the stock rounds are random legal play
(tests/random_play.py). Every game must end — the bank broken (§13) or the repeat OR after the first
level 8 train (§13) — and at the end:

* money is conserved with the remainder cash counted, and the remainder is in the bank (§13);
* each player's score is cash + shares at their value (a 20 % certificate counts two) + face-up
  privates at face; treasuries and face-down privates count nothing (§13.1); a regional left before
  the Consolidation round counts at par (D18 #44);
* replaying the events gives the state reached step by step.

The suite plays the example game (examples/1801-game.txt, its events checked the same way) to the
first train of a late phase, and the hurried table from there to the end; whole random games for 2
to 7 players from the packet auction are `python bench/random_1801.py --whole`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from random_1801 import HurriedFromTranscript, checker

from ledger.core import legal, scoring
from ledger.core.rules import shares
from ledger.core.state import REMAINDER, company_acct, player_acct

GAME = Path(__file__).resolve().parents[2] / "examples" / "1801-game.txt"


def assert_the_end(game) -> None:
    s, rs = game.state, game.rs
    assert s.game_over, f"no end after {len(game.lines)} lines, at {s.round} (phase {s.phase}; {legal.hint(s, rs)})"
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


@pytest.mark.parametrize("phase, seed", [("6", 21), ("8", 22)])
def test_a_hurried_game_from_the_example_ends_with_the_books_kept(phase, seed):
    seen: dict = {}
    game = HurriedFromTranscript(GAME.read_text(encoding="utf-8"), seed, after_event=checker(seen),
                                 stop_before=lambda e: e["kind"] == "phase_changed" and e["phase"] == phase)
    for _ in range(9000):
        if not game.step():
            break
    assert_the_end(game)
