"""Audit of 1830 against its rulebook (SEED seeds/004_cc778651230d70e7.txt; digest rules/1830.md):
scenarios written from the rules, figures worked by hand, that the other 1830 files do not cover.
Positions are conftest's 1830 openings; `adjust` (a logged correction) sets a treasury where a
scenario needs one.
"""

from __future__ import annotations

import pytest
from conftest import FOUR, Table, chain_1830, new_1830, next_turn_of, opening_1830, sr1_1830


def finish_round(g) -> None:
    number = g.state.round["number"]
    while g.round_kind() == "stock" and g.state.round["number"] == number:
        g.do(f"pass {g.turn()}")


def run_ors(g) -> None:
    while g.round_kind() == "operating":
        g.do(f"done {g.state.round['corp']} --no-route")


def to_turn(g, who: str) -> None:
    while g.turn() != who:
        g.do(f"pass {g.turn()}")


def sr2_prr():
    """SR 2: Carol started PRR at 76 in SR 1, Dave, Alice, Bob bought one each (with the CA share
    it floated); OR 1.1 PRR ran for $0: (3,6) $76 -> (3,5) $71. Carol PRR 20 (pres), Alice 20, Dave
    10, Bob 10. Carol has the priority."""
    g = sr1_1830()
    g.do("par Carol PRR 76", "buy Dave PRR", "buy Alice PRR", "buy Bob PRR")
    finish_round(g)
    run_ors(g)
    assert g.turn() == "Carol" and g.price("PRR") == 71
    return g


# --------------------------------------------------------------------------- stock round

@pytest.mark.parametrize("n, limit", [(2, 28), (3, 20), (4, 16), (5, 13), (6, 11)])
def test_certificate_limit_by_player_count(n, limit):
    # digest §1 table (R18 CERT_LIMIT; RAILS agrees): the limit never changes during the game
    g = new_1830([f"P{i}" for i in range(n)])
    assert g.status()["cert_limit"] == limit

def test_float_counts_a_share_sold_to_the_pool_before_floating():
    # SEED "Starting a company": a company floats when 60 % has been sold from the IPO; a share a
    # player sold on to the pool has left the IPO all the same. SR 1: Bob's BO president's 20 %,
    # Carol, Dave, Alice 10 % each = 50 % out. SR 2: Alice sells hers to the pool (IPO still 50 %).
    g = sr1_1830()
    g.do("buy Carol B&O", "buy Dave B&O", "buy Alice B&O")
    finish_round(g)
    run_ors(g)
    to_turn(g, "Alice")
    g.do("sell Alice B&O 1", "pass Alice")
    assert not g.state.corps["B&O"].floated and g.pct("pool", "B&O") == 10
    to_turn(g, "Carol")
    bank = g.bank()
    g.do("buy Carol B&O --ipo")       # IPO 40 %: 60 % has left it -> floats with 10 x $67
    assert g.state.corps["B&O"].floated
    assert g.cash("B&O") == 670 and g.bank() == bank + 67 - 670


def test_buying_from_the_pool_can_take_the_presidency():
    # digest §11: a buyer holding strictly more than the president takes the chair, gives two 10 %s
    # to the old president. Dave sells his PRR 10 % at $71 ((3,5) -> (4,5) $67); Alice (20 %) buys it
    # from the pool for $67: 30 % > Carol's 20 %.
    g = sr2_prr()
    g.do("pass Carol", "sell Dave PRR 1", "pass Dave")
    alice = g.cash("Alice")
    g.do("buy Alice PRR --pool")
    assert g.cash("Alice") == alice - 67
    assert g.president("PRR") == "Alice"
    assert g.cert_percents("Alice", "PRR") == [20, 10] and g.cert_percents("Carol", "PRR") == [10, 10]
    assert g.pct("pool", "PRR") == 0


def test_priority_goes_left_of_the_last_buyer_or_seller_not_an_exchange():
    # SEED "Stock Dealing Rounds": the player left of the last to sell or buy a certificate gets the
    # priority deal. Alice's pool buy is the last purchase; Dave's later M&H exchange is neither.
    g = sr2_prr()
    g.do("pass Carol", "sell Dave PRR 1", "pass Dave", "buy Alice PRR --pool",
         "pass Alice", "pass Bob", "pass Carol", "exchange Dave MH", "pass Dave", "pass Alice")
    assert g.round_kind() == "operating"
    assert g.priority() == "Bob"


# --------------------------------------------------------------------------- forced train purchase

def test_emergency_sales_are_allowed_in_the_first_operating_round():
    # digest §10.3: "no selling in SR 1" is a stock-round rule; a president raising money for a
    # forced train sells in OR 1.1 too. B&O (Bob) has $0 and no train, Bob $0: the 2 costs $80.
    # One NYC share at $67 leaves $13 short, so a PRR share at $71 may follow; Bob keeps 138 - 80.
    g = opening_1830()
    next_turn_of(g, "B&O")
    g.do("adjust B&O bank 670 --reason 'test position'", "adjust Bob bank 170 --reason 'test position'")
    g.do("sell Bob NYC 1", "sell Bob PRR 1")
    g.do("train B&O 2")
    assert g.trains("B&O") == ["2"]
    assert (g.cash("B&O"), g.cash("Bob")) == (0, 67 + 71 - 80)


def test_no_presidents_help_toward_another_companys_train_when_the_company_can_pay_the_cheapest():
    # SEED "Forced Train Purchases": only when the company does not have enough money to buy a train
    # (the cheapest from the bank or pool) does the president help, then also toward another
    # company's train at no more than face value. OR 3.1: ERIE (Alice, $430) has no train; the
    # cheapest is the 3 in the pool at $180; B&O holds a 4 (face $300).
    g = chain_1830("or3.1")
    g.do("adjust ERIE bank 800 --reason 'test position'")    # ERIE $200 >= $180
    g.refused("train ERIE 4 --from B&O --price 300", "$200", "cheapest", "$180", "treasury")
    h = g.copy()
    h.do("train ERIE 4 --from B&O --price 200")               # its own money only
    assert (h.cash("ERIE"), h.cash("Alice")) == (0, 430)
    g.do("adjust ERIE bank 100 --reason 'test position'")    # ERIE $100 < $180: short
    g.do("train ERIE 4 --from B&O --price 300")               # Alice adds 300 - 100 = $200
    assert (g.cash("ERIE"), g.cash("Alice")) == (0, 430 - 200)


def test_the_sites_reading_lets_the_president_help_toward_another_companys_train():
    # digest §10.3 "R18 nuance": on 18xx.games the president of a trainless company may help toward
    # another company's train (at up to face value) even when the company could pay for the cheapest;
    # option site_emergency_help plays that reading, and importing the site's games always does.
    # The same OR 3.1 position, played again with the option: ERIE $200, Alice adds 300 - 200 = $100.
    site = Table(title="1830", players=list(FOUR), options={"site_emergency_help": True})
    site.do(*chain_1830("or3.1").lines, "adjust ERIE bank 800 --reason 'test position'")
    site.do("train ERIE 4 --from B&O --price 300")
    assert (site.cash("ERIE"), site.cash("Alice")) == (0, 430 - 100)
    # (tests/interface/test_import.py: an imported game plays with the option)


def test_a_later_train_is_refused_naming_the_trains_sold_before_it():
    # SEED "Trains": the bank sells its trains in order, all of one type before the next. OR 3.1:
    # B&O bought the first of the four 4s (digest §9: 4 x 4, 3 x 5), so three 4s and three 5s remain.
    g = chain_1830("or3.1")
    g.refused("train ERIE 6", "does not sell 6 trains now", "its 4s (3 left) and its 5s (3 left) come first")
    g.refused("train ERIE 5", "its 4s (3 left) come first")
