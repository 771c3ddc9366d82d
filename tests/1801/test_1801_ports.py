"""1801 (18OE): what a major buys of another's place on the map (§11.3.5, §11.5; rulesets/1801/ports.py):
a transferred token returns to the seller's dearest open slot, a port authority the treasury cannot pay.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import kbs_trainless, money_kept, or21
from table_1801 import changes


# --------------------------------------------------------------------------- §11.5: token transfer

def withhold_until(t, corp: str) -> None:
    """Every company before `corp` withholds £0 and ends its turn."""
    while t.status()["operating"] != corp:
        other = t.status()["operating"]
        t.do(f"withhold {other} 0", f"done {other}")


def test_a_transferred_token_returns_to_the_sellers_dearest_open_slot():
    """§11.5: "The selling major takes the returned token and places it on its charter in the highest
    cost open position." From or21 (GWR and KSS both Ben's majors): OR 2.1 GWR places its £20 token
    (slot 2) in Wien; OR 2.2 it places its £80 token (slot 7) in Berlin (bank + 80). KSS then takes
    over the Wien token with its own £20 slot: the bank + 20 (KSS's slot), GWR + 20 (a normal city's
    access fee). GWR's open positions are slots 2 (£20) and 7 (£80): the token goes back into slot 7.
    In OR 3.1 GWR may not place from slot 2 (empty) and pays £80 for the token of slot 7."""
    t = or21()
    t.do("withhold WW 0", "done WW")
    before = t.cash()
    t.do("token GWR --city Wien")
    assert changes(before, t.cash()) == {"GWR": -20, "bank": 20}
    t.do("withhold GWR 0", "done GWR", "withhold KSS 0", "done KSS", "choose Ann normal")
    withhold_until(t, "GWR")
    assert t.round() == "OR 2.2"
    before = t.cash()
    t.do("token GWR --city Berlin --slot 7")
    assert changes(before, t.cash()) == {"GWR": -80, "bank": 80}
    t.do("withhold GWR 0", "done GWR")
    withhold_until(t, "KSS")
    t.do("withhold KSS 0")
    before = t.cash()
    t.do("transfer KSS GWR --city Wien --kind city --slot 2")
    assert changes(before, t.cash()) == {"KSS": -40, "bank": 20, "GWR": 20}
    t.do("done KSS")
    assert t.round() == "SR 3"
    t.do("pass Ben", "pass Cy", "pass Ann", "choose Ann normal")
    withhold_until(t, "GWR")
    t.refused("token GWR --city Paris --slot 2", "slot 2")
    before = t.cash()
    t.do("token GWR --city Paris --slot 7")
    assert changes(before, t.cash()) == {"GWR": -80, "bank": 80}
    money_kept(t)


# --------------------------------------------------------------------------- §11.3.5: port authorities

def test_a_port_authority_the_treasury_cannot_pay_is_refused_with_the_rule():
    """§11.3.5: a port authority costs £125 from the major's treasury, before its train step. KBS
    (kbs_trainless: £50) may not buy one; the refusal names the rule and both figures."""
    t = kbs_trainless()
    t.refused("port-authority KBS north", "KBS has £50", "£125", "§11.3.5")
