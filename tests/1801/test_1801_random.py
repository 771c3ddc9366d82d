"""1801 (18OE), part 1: random legal openings for 2 to 7 players, with the books checked after every
event and the rules checked, worked here from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt
"§x"), against what each event records (random_1801.checker):

* money is conserved and nobody goes below zero; every company's certificates sum to 100 % and
  every certificate and asset has one holder (ledger.core.invariants);
* a minor's price funds its treasury up to £180, the rest to the bank (§7.1); a private's or a
  concession's price goes to the bank (§7);
* a minor's home token costs its zone's price (§9.1 Table 1) and at most four of the six asterisked
  chits are ever taken; a regional's president pays 2 x par, at a regional par (§9.2, §2.2.5);
* minors only half-pay (§11.4); each holder's dividend is its percent of the payout rounded up (§11.4);
* at most 18 regionals float and at most 6 are removed by players, from different zones (§8.2);
* no train is bought before the first OR, a level-3 only in the Major phase (§8.2, §8.3);
* replaying the events gives the state reached step by step.

The suite plays few and short games: an opening of 2 players (part 1's scope: to the first sets of
ORs), and the Consolidation round at random from the example opening
(examples/1801-opening.txt, its events checked the same way). The long runs (every player count,
more seeds, the Consolidation round reached from a random opening) are `python bench/random_1801.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from random_1801 import NAMES, FromTranscript, Table, checker

from ledger import catalog
from ledger.core.state import BANK, player_acct

OPENING = Path(__file__).resolve().parents[2] / "examples" / "1801-opening.txt"


def random_opening(count: int, seed: int, sets: int) -> tuple[Table, dict]:
    """A random opening for `count` players played until `sets` sets of ORs are over."""
    seen: dict = {}
    game = Table("1801", NAMES[:count], seed, after_event=checker(seen))
    for _ in range(500 + 60 * count):
        if game.state.sets_played >= sets or not game.step():
            break
    return game, seen


def consolidation_game(seed: int, steps: int) -> tuple[Table, dict, bool]:
    """The example opening to the line that starts the Consolidation round, then random play until
    the round is over (the first OR after it)."""
    seen: dict = {}
    game = FromTranscript(OPENING.read_text(encoding="utf-8"), seed, after_event=checker(seen),
                          stop_before=lambda e: e["kind"] == "consolidation_started")
    for _ in range(steps):
        if not game.step():
            break
        if any(e["kind"] == "consolidation_started" for e in game.events) and \
                game.state.round["kind"] == "operating":
            return game, seen, True
    return game, seen, False


def assert_opening(game: Table, seen: dict) -> None:
    kinds = seen["kinds"]
    assert {"packet_sold", "concession_executed", "minor_floated", "regional_floated", "revenue",
            "train_bought", "phase_changed"} <= kinds, kinds
    assert game.replayed() == game.state, "replaying the events differs from the state reached step by step"


def assert_consolidated(game: Table, seen: dict) -> None:
    kinds = seen["kinds"]
    assert {"company_converted", "minor_merged", "shares_sold", "consolidation_started"} <= kinds, kinds
    left = [c for c, corp in game.state.corps.items() if corp.kind in ("minor", "regional")
            and (game.state.certs.get(game.state.presidents.get(c, "")) or "").startswith("player:")]
    assert left == [], f"still in players' hands after the Consolidation round: {left}"
    assert game.replayed() == game.state


# two players here (a random opening costs ~7 s); every count from 2 to 7 (seeds 1-6 and more) is
# `python bench/random_1801.py --only openings`
@pytest.mark.parametrize("count, seed", [(2, 1)])
def test_random_openings_keep_the_books_and_the_rules(count, seed):
    game, seen = random_opening(count, seed, sets=2)
    assert_opening(game, seen)


@pytest.mark.parametrize("count, cash, without", [(2, 2700, 2600), (3, 1800, 1735), (4, 1350, 1300), (5, 1080, 1040),
                                                   (6, 900, 870), (7, 775, 745)])
def test_starting_capital_is_shared_and_rounded_up_to_five_pounds(count, cash, without):
    """§3.3: £5,400 (£5,200 without concessions) shared equally, rounded up to £5: 5400/7 = 771.4 -> 775."""
    from ledger.core import engine
    names = NAMES[:count]
    for options, each in (({}, cash), ({"no_concessions": True}, without)):
        rs = catalog.load("1801", options=options)
        state = engine.initial_state(rs, names, options)
        for event in engine.start_events(rs, names):
            from ledger.core.events import apply
            apply(state, event)
        assert [state.cash(player_acct(p)) for p in names] == [each] * count
        assert state.cash(BANK) == 54000 - each * count


def test_a_random_consolidation_round():
    """The example opening (every event checked) into the Consolidation round, played at random to its
    end with the books and the rules checked after every event (every expansion and merger keeps each
    company at 100 %); when the round is over no minor and no regional is left in a player's hands
    (§10.6), and replaying the events gives the same state."""
    for seed in range(14, 20):
        game, seen, consolidated = consolidation_game(seed, 3200)
        if consolidated:
            break
    assert consolidated, f"the game did not reach the end of the Consolidation round: {game.state.round}"
    assert_consolidated(game, seen)
