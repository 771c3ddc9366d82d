"""Audit probes (scratch)."""
from __future__ import annotations

import pytest
from conftest import Table, new_1830, next_turn_of, opening_1830, sr1_1830, chain_1830


def finish_round(g):
    number = g.state.round["number"]
    while g.round_kind() == "stock" and g.state.round["number"] == number:
        g.do(f"pass {g.turn()}")


def run_ors(g):
    while g.round_kind() == "operating":
        g.do(f"done {g.state.round['corp']} --no-route")


def to_turn(g, who):
    while g.turn() != who:
        g.do(f"pass {g.turn()}")


def test_float_counts_a_share_sold_to_the_pool_before_floating():
    # SEED "Starting a company": floats when 60 % has been sold from the IPO; a share a player sold
    # on to the pool has left the IPO. SR 1: Bob 20 (BO), Carol, Dave, Alice 10 each = 50 % out.
    g = sr1_1830()
    g.do("buy Carol B&O", "buy Dave B&O", "buy Alice B&O")
    finish_round(g)
    run_ors(g)
    to_turn(g, "Alice")
    g.do("sell Alice B&O 1")          # pool 10, IPO 50
    assert not g.state.corps["B&O"].floated
    g.do("pass Alice")
    bank = g.bank()
    to_turn(g, "Carol")
    g.do("buy Carol B&O --ipo")       # IPO 40: 60 % has left it -> floats, 10 x 67
    assert g.state.corps["B&O"].floated
    assert g.cash("B&O") == 670


def test_emergency_sale_allowed_in_or_1():
    # digest §10.3: the no-selling-in-SR-1 rule does not apply to emergency sales, OR 1.1 included.
    g = opening_1830()
    next_turn_of(g, "B&O")
    g.do("adjust B&O bank 670 --reason test", "adjust Bob bank 170 --reason test")
    assert g.cash("B&O") == 0 and g.cash("Bob") == 0
    g.do("sell Bob NYC 1", "sell Bob PRR 1")   # 67 + 71
    g.do("train B&O 2")
    assert g.trains("B&O") == ["2"] and g.cash("Bob") == 67 + 71 - 80


def test_no_presidents_help_toward_another_companys_train_when_the_company_can_pay_the_cheapest():
    # SEED "Forced Train Purchases": only when the company does not have enough money to buy a train
    # (the cheapest from the bank or pool) does the president help, then also toward another
    # company's train at no more than face value. OR 3.1: ERIE (Alice) has no train; the cheapest
    # is the 3 in the pool at $180; B&O holds a 4 (face $300).
    g = chain_1830("or3.1")
    g.do("adjust ERIE bank 800 --reason 'test position'")    # ERIE $200 >= $180
    g.refused("train ERIE 4 --from B&O --price 300", "$200", "cheapest", "$180", "treasury")
    h = g.copy()
    h.do("train ERIE 4 --from B&O --price 200")               # its own money only
    assert (h.cash("ERIE"), h.cash("Alice")) == (0, 430)
    g.do("adjust ERIE bank 100 --reason 'test position'")    # ERIE $100 < $180: short
    g.do("train ERIE 4 --from B&O --price 300")               # Alice adds 300 - 100 = $200
    assert (g.cash("ERIE"), g.cash("Alice")) == (0, 430 - 200)
