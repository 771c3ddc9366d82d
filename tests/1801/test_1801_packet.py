"""1801 (18OE): the packet auction (§7, D8; rulesets/1801/packet.py): a minor bought after two all-pass
cuts puts its cut price in its own treasury (§7.1), and money set aside for a bid is spent on nothing else.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import money_kept
from table_1801 import changes


PRIVATES_IN_TURN = """
new 1801 Ann Ben Cy
buy Ann RSC
buy Ben PC
buy Cy WSB
buy Ann BBBT
buy Ben SHTC
buy Cy CCTC
buy Ann WCF
buy Ben HML
buy Cy BB
buy Ann SML
"""


def test_a_minor_bought_after_two_all_pass_cuts_puts_its_cut_price_in_its_treasury():
    """§7 / D 8.4 / E9: the ten privates bought at face in turn (rows 1-4 [S]); row 5 (A-F, £120)
    is on top and Ben acts (the deal passes on after every action). Everyone passes twice: each time
    every owned private pays its income (§7: Ann RSC 5 + BBBT 10 + WCF 15 + SML 0 = 30, Ben PC 5 +
    SHTC 15 + HML 20 = 40, Cy WSB 10 + CCTC 15 + BB 25 = 50) and the top row drops £5: A-F cost £110.
    Ben (first again) buys A at £110: §7.1 the price goes to the minor's treasury (under £180), none
    to the bank. Ann 1800 - 240 + 60 = 1620; Ben 1800 - 160 + 80 - 110 = 1610; Cy 1800 - 200 + 100 =
    1700; A 110."""
    t = Table(PRIVATES_IN_TURN)
    t.do("pass Ben", "pass Cy", "pass Ann", "pass Ben", "pass Cy", "pass Ann")
    assert t.turn() == "Ben"
    before = t.cash()
    t.do("buy Ben A")
    assert changes(before, t.cash()) == {"Ben": -110, "A": 110}
    cash = t.cash()
    assert (cash["Ann"], cash["Ben"], cash["Cy"], cash["A"]) == (1620, 1610, 1700, 110)
    money_kept(t)


def test_money_set_aside_for_a_bid_is_not_spent_on_a_top_row_buy():
    """§7 / D 8.2, D18 #15: a bid's money is set aside until its item is sold, and (best reading) it
    cannot be spent on anything else. Ann bids £120 on A (row 5), Ben £125; Cy bids all his £1800 on
    SML (row 4); Ann and Ben buy RSC and PC (row 1 empties; row 2 on top). Cy may not buy WSB (£40):
    the refusal names the rule and the figures. Nothing is paid for a bid: the bank has 48,600 + 20 +
    20 = £48,640."""
    t = Table("new 1801 Ann Ben Cy")
    t.do("bid Ann A 120", "bid Ben A 125", "bid Cy SML 1800", "buy Ann RSC", "buy Ben PC")
    t.refused("buy Cy WSB", "£1800", "£40", "§7")
    cash = t.cash()
    assert (cash["Ann"], cash["Ben"], cash["Cy"], cash["bank"]) == (1780, 1780, 1800, 48640)
