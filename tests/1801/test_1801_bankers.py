"""1801 (18OE): Barclay, Bevan, Barclay & Tritton's three powers in a stock round (§14.4, E26;
rulesets/1801/bankers.py): protection of a share value, custody of a treasury share, a regional re-parred.
sr2(): SR 2, Ann first; Ann owns BBBT (bought in the packet). PLM is Ann's regional at par £60 with both
its 25 % secondaries in its treasury; GWR's and KSS's have one each left.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import sr2
from table_1801 import changes


def test_bbbt_protection_holds_a_share_value_through_sales_for_the_rest_of_the_stock_round():
    """§14.4 (3), E26: BBBT's owner may, "at any time during a SR, including at the moment another
    player is selling", stop any RR's marker moving DOWN for the rest of the SR; at its end the
    marker and the certificate leave play. Ann expands WW (par 90 -> MAJOR 120 at (0,2), §9.3) and
    buys a share (Ann 30 %, Ben 10 %, Cy 10 %); Ben expands GWR. At Cy's turn Ann protects WW; Cy sells
    his 10 % at £120 (§10.1): +£120 and WW stays at (0,2). Ann, Ben, Cy pass: SR 2 ends; BBBT is out
    of play (no longer Ann's, no longer a certificate of hers: 15 -> 14)."""
    t = sr2()
    t.play("""
expand Ann WW
buy Ann WW
expand Ben GWR --secondary
""")
    assert t.certs("Ann") == 15 and t.owner("BBBT") == "Ann"
    t.do("protect Ann BBBT WW")
    before = t.cash()
    t.do("sell Cy WW 1")
    assert changes(before, t.cash()) == {"Cy": 120, "bank": -120}
    assert t.holdings("WW") == {"Ann": 30, "Ben": 10, "Cy": 0, "ipo": 50, "pool": 10}
    assert (t.cell("WW"), t.price("WW")) == ((0, 2), 120)
    t.do("pass Ann", "pass Ben", "pass Cy")
    assert t.round() == "OR 2.1"
    assert t.owner("BBBT") is None and t.certs("Ann") == 14


def test_bbbt_custody_keeps_one_regional_secondary_for_its_owner():
    """§14.4 (2): BBBT's owner reserves one treasury share for himself ("This share may not be
    purchased by any other player"; other shares stay on sale); on a regional's secondary only while
    both are in its treasury. GWR and KSS have sold one secondary each: refused. On PLM (par £60,
    both secondaries unsold, §8.3: on sale in the Major phase) Ann keeps one: Ben buys the other at
    £60 (to PLM); Cy may not buy the kept one; Ann buys it at £60 (to PLM)."""
    t = sr2()
    t.refused("custody Ann BBBT GWR", "§14.4")
    t.refused("custody Ann BBBT KSS", "§14.4")
    t.do("custody Ann BBBT PLM", "pass Ann")
    before = t.cash()
    t.do("buy Ben PLM")
    assert changes(before, t.cash()) == {"Ben": -60, "PLM": 60}
    t.refused("buy Cy PLM", "kept for Ann", "§14.4")
    t.do("pass Cy")
    before = t.cash()
    t.do("buy Ann PLM")
    assert changes(before, t.cash()) == {"Ann": -60, "PLM": 60}
    assert t.holdings("PLM") == {"Ann": 75, "Ben": 25, "Cy": 0, "ipo": 0, "pool": 0}


def test_bbbt_re_par_of_a_regional_prices_its_secondaries_and_its_major():
    """§14.4 (1): BBBT's owner re-sets the par value of a regional he owns, within the regional par
    values (§2.2.5: £60 65 70 75 80 90). £85 is none: refused. PLM £60 -> £90: Ben then buys a
    secondary at £90 (to PLM); Ann expands PLM: REGIONAL £90 moves to MAJOR £120 (§9.3, D18 #3),
    its marker at (0,2), and Ann's share bought after it costs £120 (to PLM)."""
    t = sr2()
    t.refused("repar Ann BBBT PLM 85", "§14.4")
    t.refused("repar Ann BBBT GWR 90", "Ann does not control GWR")
    t.do("repar Ann BBBT PLM 90", "pass Ann")
    before = t.cash()
    t.do("buy Ben PLM")
    assert changes(before, t.cash()) == {"Ben": -90, "PLM": 90}
    t.do("pass Cy", "expand Ann PLM")
    assert (t.cell("PLM"), t.price("PLM")) == ((0, 2), 120)
    before = t.cash()
    t.do("buy Ann PLM")
    assert changes(before, t.cash()) == {"Ann": -120, "PLM": 120}
    assert t.holdings("PLM") == {"Ann": 30, "Ben": 10, "Cy": 0, "ipo": 60, "pool": 0}
