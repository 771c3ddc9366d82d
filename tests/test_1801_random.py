"""1801 (18OE), part 1: random legal openings for 2 to 7 players, with the books checked after every
event and the rules checked, worked here from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt
"§x"), against what each event records:

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
"""

from __future__ import annotations

import math

import pytest
from random_play import RandomGame

from ledger import catalog
from ledger.core import invariants
from ledger.core.state import BANK, player_acct

HOME = {"UK": 40, "PHS": 40, "FB": 20, "AH": 20, "IT": 10, "SP": 10, "SND": 10, "RU": 10}   # §9.1 Table 1
LIMITED = ("UK", "PHS", "FB")                                                           # Table 1's asterisks
REGIONAL_PARS = (60, 65, 70, 75, 80, 90)                                                # §2.2.5
ZONE_OF = {"GWR": "UK", "LNWR": "UK", "GSWR": "UK", "BHB": "PHS", "KBS": "PHS", "POB": "PHS", "KSS": "PHS",
           "PLM": "FB", "OU": "FB", "BEL": "FB", "MIDI": "FB", "SB": "AH", "MAV": "AH", "SFAI": "IT", "SFR": "IT",
           "MZA": "SP", "CHN": "SP", "RCP": "SP", "BJV": "SND", "DSJ": "SND", "MSP": "RU", "MKV": "RU", "WW": "RU",
           "LRZD": "RU"}
MINORS = set("ABCDEFGHJKLM")


class Table(RandomGame):
    """Random play with trades made rare: two players may trade items back and forth for ever,
    which a real table would not (§10.4 trades are a stock action, so they reset the passes)."""

    def step(self) -> bool:
        import random_play
        original = random_play.candidates

        def fewer_trades(s, rs):
            lines = [x for x in original(s, rs) if not x.startswith("trade") or self.rng.random() < 0.02]
            if s.round.get("consolidation"):   # a table gets on with placing its minors and regionals
                lines = [x for x in lines if x.split()[0] in ("merge", "expand", "abandon", "pass", "discard")
                         or self.rng.random() < 0.05]
            return lines
        random_play.candidates = fewer_trades
        try:
            return super().step()
        finally:
            random_play.candidates = original


def checker(seen: dict):
    def check(state, rs, event: dict, line: str) -> None:
        problems = invariants.check(state, rs)
        assert not problems, f"after {event['kind']} of {line!r}: {problems}"
        kind = event["kind"]
        moved = {(a, b): amt for a, b, amt in event.get("transfers", [])}
        if kind == "packet_sold":
            price, item = event["price"], event["item"]
            buyer = player_acct(event["player"])
            if item in MINORS:
                assert moved.get((buyer, f"company:{item}"), 0) == min(price, 180), event
                assert moved.get((buyer, BANK), 0) == max(0, price - 180), event
            else:
                assert moved.get((buyer, BANK), 0) == price, event
        if kind == "minor_floated":
            assert event["cost"] == HOME[event["zone"]], event
            assert moved.get((f"company:{event['corp']}", BANK), 0) == event["cost"], event
            taken = [sym for sym, a in state.assets.items() if a.kind == "chit" and a.owner
                     and sym.rstrip("0123456789") in LIMITED]
            assert len(taken) <= 4, taken
        if kind == "regional_floated":
            assert event["par"] in REGIONAL_PARS
            assert moved[(player_acct(event["player"]), f"company:{event['corp']}")] == 2 * event["par"]
            assert event["home_cost"] == HOME[ZONE_OF[event["corp"]]]
        if kind == "revenue":
            corp = event["corp"]
            if corp in MINORS and event["revenue"]:
                assert event["how"] == "half", event
            if event["how"] in ("pay", "half") and event["revenue"]:
                pool = event["revenue"] - (event["revenue"] // 2 if event["how"] == "half" else 0)
                for acct, _n, amount in event["payees"]:
                    if acct.startswith("player:"):
                        pct = state.percent_of(acct, corp)
                        assert amount == math.ceil(pool * pct / 100), (event, acct, pct)
        if kind == "train_bought":
            seen["trains"] = seen.get("trains", 0) + 1
            assert state.phase != "1"
            if event["type"] == "3":
                assert state.axes["railroad"] == "major"
        floated = [c for c, corp in state.corps.items() if corp.floated and corp.kind == "regional"]
        assert len(floated) <= 18
        by_players = state.own.removed_by_players
        assert len(by_players) <= 6 and len({ZONE_OF[c] for c in by_players}) == len(by_players)
        seen.setdefault("kinds", set()).add(kind)
    return check


@pytest.mark.parametrize("count, seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)])
def test_random_openings_keep_the_books_and_the_rules(count, seed):
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"][:count]
    seen: dict = {}
    game = Table("1801", names, seed, after_event=checker(seen))
    # part 1's scope: the opening to the first sets of ORs (a forced conversion into a national, which
    # comes later, is where longer random games end today)
    for _ in range(500 + 60 * count):
        if game.state.sets_played >= 2 or not game.step():
            break
    kinds = seen["kinds"]
    assert {"packet_sold", "concession_executed", "minor_floated", "regional_floated", "revenue",
            "train_bought", "phase_changed"} <= kinds, kinds
    assert game.replayed() == game.state, "replaying the events differs from the state reached step by step"


@pytest.mark.parametrize("count, cash, without", [(2, 2700, 2600), (3, 1800, 1735), (4, 1350, 1300), (5, 1080, 1040),
                                                   (6, 900, 870), (7, 775, 745)])
def test_starting_capital_is_shared_and_rounded_up_to_five_pounds(count, cash, without):
    """§3.3: £5,400 (£5,200 without concessions) shared equally, rounded up to £5: 5400/7 = 771.4 -> 775."""
    from ledger.core import engine
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"][:count]
    for options, each in (({}, cash), ({"no_concessions": True}, without)):
        rs = catalog.load("1801", options=options)
        state = engine.initial_state(rs, names, options)
        for event in engine.start_events(rs, names):
            from ledger.core.events import apply
            apply(state, event)
        assert [state.cash(player_acct(p)) for p in names] == [each] * count
        assert state.cash(BANK) == 54000 - each * count


def test_a_random_game_through_expansions_mergers_and_the_consolidation_round():
    """A three-player game played at random into the Major phase and through the Consolidation round,
    with the books and the rules checked after every event (every expansion and merger keeps each
    company at 100 %); when the Consolidation round is over no minor and no regional is left in a
    player's hands (§10.6), and replaying the events gives the same state."""
    consolidated = False
    for seed in range(14, 20):   # a random table may break the bank before: another game goes on
        seen: dict = {}
        game = Table("1801", ["Ann", "Ben", "Cy"], seed, after_event=checker(seen))
        for _ in range(3200):
            if not game.step():
                break
            if any(e["kind"] == "consolidation_started" for e in game.events) and \
                    game.state.round["kind"] == "operating":
                consolidated = True
                break
        if consolidated:
            break
    assert consolidated, f"the game did not reach the end of the Consolidation round: {game.state.round}"
    kinds = seen["kinds"]
    assert {"company_converted", "minor_merged", "shares_sold", "consolidation_started"} <= kinds, kinds
    left = [c for c, corp in game.state.corps.items() if corp.kind in ("minor", "regional")
            and (game.state.certs.get(game.state.presidents.get(c, "")) or "").startswith("player:")]
    assert left == [], f"still in players' hands after the Consolidation round: {left}"
    assert game.replayed() == game.state
