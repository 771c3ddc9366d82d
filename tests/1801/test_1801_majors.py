"""1801 (18OE): the Major railroad phase's stock rounds (§9.3, §10; rulesets/1801/majors.py): a presidency
given up by a sale goes to the tied player closest to the left (§10.3), a reservation ends when its
regional expands before the first OR (§8.4), the Open Market's cap on a president's sale (E7), and a major
holding 60 % of itself buys none back (§11.7).
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import (N_AUCTION, N_CHITS_12, N_CHITS_4, N_CHITS_6, N_REGIONALS_17, N_REGIONAL_18, idle_or,
                            idle_until, money_kept, sr2)
from table_1801 import changes

from ledger.core import legal


# --------------------------------------------------------------------------- §10.3 the presidency, §8.4 a reservation

def test_a_presidency_given_up_by_sale_goes_to_the_tied_player_closest_to_the_left():
    """§10.3: the president may sell part of his 20 % when another player holds 20 % or more and the
    Open Market has room; "If two other players own an equal percentage of the RR and both become
    eligible to be the new president, the player closest to the left of the old president becomes
    the new president." Player order Ann, Ben, Cy: the player left of Ben is Cy.
    SR 2 (sr2): Ben expands GWR buying its secondary first (par 70 -> MAJOR 90 at (3,2), §9.3); Ann,
    Ben, Cy buy at 90 to GWR: Ben 50 % (20 + 3 x 10), Ann 20 %, Cy 20 %, treasury 10 %. OR 2.1 and
    2.2: GWR withholds £0 twice: LEFT (3,2) -> (3,1) £80 -> (3,0) £75 (§4.4). SR 3 (Cy first, after
    Ben, the last to act in SR 2): Cy and Ann pass; Ben sells 4 (Open Market 40 %, within 50 %,
    §10.1) at £75: +£300; DOWN x 4: (4,0) 70, (5,0) 65, (6,0) 60, (7,0) £50. Ben is left with 10 %:
    Ann and Cy tie at 20 %, Cy (left of Ben) presides, holding the 20 % certificate."""
    t = sr2()
    t.play("""
expand Ann WW
expand Ben GWR --secondary
buy Cy GWR
buy Ann GWR
buy Ben GWR
pass Cy
buy Ann GWR
buy Ben GWR
pass Cy
pass Ann
pass Ben
""")
    assert t.holdings("GWR") == {"Ann": 20, "Ben": 50, "Cy": 20, "ipo": 10, "pool": 0}
    assert t.cert_percents("Ben", "GWR") == [20, 10, 10, 10]
    idle_or(t)
    idle_or(t)
    assert t.round() == "SR 3" and t.turn() == "Cy"
    assert (t.cell("GWR"), t.price("GWR")) == ((3, 0), 75)
    t.do("pass Cy", "pass Ann")
    before = t.cash()
    t.do("sell Ben GWR 4")
    after = t.cash()
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {"Ben": 300, "bank": -300}
    assert t.holdings("GWR") == {"Ann": 20, "Ben": 10, "Cy": 20, "ipo": 10, "pool": 40}
    assert (t.cell("GWR"), t.price("GWR")) == ((7, 0), 50)
    assert t.president("GWR") == "Cy"
    assert t.cert_percents("Cy", "GWR") == [20] and t.cert_percents("Ben", "GWR") == [10]
    money_kept(t)


def test_a_reservation_ends_when_its_regional_expands_before_the_first_or():
    """§8.4: "If the regional expands into a major before the beginning of the first OR, the reserve
    status is cancelled and the major's shares are available for purchase by any player."
    test_1801_opening_rules' GAME N (two players, no concessions): in SR 1 Ben reserved SFAI's
    secondaries (Ann's regional, par £70); Ben floated WW, the 18th regional: the Major phase begins
    (§8.2, §8.3); Ann (410) is to act. Ann expands SFAI (REGIONAL 70 -> MAJOR 90 at (3,2), §9.3): the
    reservation is cancelled; Ann buys a treasury share at £90 (to SFAI: 130 -> 220); Ben buys one
    too, at £90 (430 -> 340; SFAI 310). Ann may not sell it in SR 1: Train Phase 1 (§10.1)."""
    t = Table("new 1801 Ann Ben --option no-concessions\n" + N_AUCTION + N_CHITS_4 + N_CHITS_6 + N_CHITS_12
              + N_REGIONALS_17 + N_REGIONAL_18)
    assert t.round() == "SR 1"
    assert t.status()["reserved"] == {"SFAI": "Ben"}
    assert (t.cash("Ann"), t.cash("Ben"), t.cash("SFAI")) == (410, 430, 130)
    t.do("expand Ann SFAI")
    assert t.status()["reserved"] == {}
    assert (t.cell("SFAI"), t.price("SFAI")) == ((3, 2), 90)
    t.do("buy Ann SFAI")
    before = t.cash()
    t.do("buy Ben SFAI")
    assert changes(before, t.cash()) == {"Ben": -90, "SFAI": 90}
    assert t.holdings("SFAI") == {"Ann": 30, "Ben": 10, "ipo": 60, "pool": 0}
    assert t.cash("SFAI") == 310
    # §10.1: "A player may not sell stock during Train Phase 1": SR 1 is still Train Phase 1 (the
    # refusal said only "no selling in the first stock round")
    t.refused("sell Ann SFAI 1", "Train Phase 1", "§10.1")


# -------------------------------------------------------- §10.1, §10.3: E7, the Open Market's cap on a president's sale

# SR 2 (sr2, Ann first; WW is Ann's regional at par 90 with Ben's and Cy's 25 % secondaries). Ann
# expands WW (§9.3): REGIONAL 90 -> MAJOR 120 (D 5.2: F), its marker on the par square (0,2) £120;
# Ann 20 % (the president's), Ben 10 %, Cy 10 %, the treasury 60 % (six new shares). Treasury shares
# sell at the major par £120 in this SR (§10.7).
E7_OPENING = """
expand Ann WW
buy Ann WW
buy Ben WW
buy Cy WW
buy Ann WW
"""


def test_e7_the_open_market_cap_keeps_a_tied_president_in_office():
    """E7 / §10.1 / §10.3: after E7_OPENING Ann 40 % (the 20 % certificate and two 10 %), Ben 20 %,
    Cy 20 %, the treasury 20 %. Ben buys one more (30 %, treasury 10 %); Cy and Ann pass; Ben sells
    his three: the Open Market holds 30 %, £120 x 3 = £360 to Ben and DOWN x 3: (3,2) £90 (§4.4).
    Cy passes. Ann may not sell 3 (the Open Market would hold 60 % > 50 %): the refusal names the cap
    and the figures. She sells 2 at £90 = £180 (the Open Market at 50 %, DOWN x 2: (5,2) £75) and
    keeps 20 %, as Cy has: Cy does not hold *more*, so Ann stays president with her 20 % certificate."""
    t = sr2()
    t.do(E7_OPENING, "buy Ben WW", "pass Cy", "pass Ann")
    before = t.cash()
    t.do("sell Ben WW 3")
    assert changes(before, t.cash()) == {"Ben": 360, "bank": -360}
    assert t.holdings("WW") == {"Ann": 40, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 30}
    assert (t.cell("WW"), t.price("WW")) == ((3, 2), 90)
    t.do("pass Cy")
    t.refused("sell Ann WW 3", "pool limit 50%", "30%", "60%", "at most 2 shares")
    before = t.cash()
    t.do("sell Ann WW 2")
    assert changes(before, t.cash()) == {"Ann": 180, "bank": -180}
    assert t.holdings("WW") == {"Ann": 20, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 50}
    assert (t.cell("WW"), t.price("WW")) == ((5, 2), 75)
    assert t.president("WW") == "Ann" and t.cert_percents("Ann", "WW") == [20]
    money_kept(t)


def test_e7_with_room_in_the_open_market_the_president_sells_the_presidency_away():
    """E7's second case / §10.3: after E7_OPENING (Ann 40 %, Ben 20 %, Cy 20 %, treasury 20 %) Ben
    sells his two: the Open Market 20 %, Ben + £240, DOWN x 2: (2,2) £100. Cy passes. Ann sells 3 at
    £100 = £300 (the Open Market reaches 50 %): first the certificates swap (Ann gives Cy the 20 %
    for his two 10 %), then three 10 % go to the Open Market; Ann keeps 10 %, Cy presides with 20 %.
    DOWN x 3: (5,2) £75."""
    t = sr2()
    t.do(E7_OPENING)
    before = t.cash()
    t.do("sell Ben WW 2")
    assert changes(before, t.cash()) == {"Ben": 240, "bank": -240}
    assert t.holdings("WW") == {"Ann": 40, "Ben": 0, "Cy": 20, "ipo": 20, "pool": 20}
    assert (t.cell("WW"), t.price("WW")) == ((2, 2), 100)
    t.do("pass Cy")
    before = t.cash()
    t.do("sell Ann WW 3")
    assert changes(before, t.cash()) == {"Ann": 300, "bank": -300}
    assert t.holdings("WW") == {"Ann": 10, "Ben": 0, "Cy": 20, "ipo": 20, "pool": 50}
    assert t.president("WW") == "Cy"
    assert (t.cert_percents("Ann", "WW"), t.cert_percents("Cy", "WW")) == ([10], [20])
    assert (t.cell("WW"), t.price("WW")) == ((5, 2), 75)
    money_kept(t)


# --------------------------------------------------------------------------- §11.7: a major's own shares

def test_a_major_holding_60_percent_of_itself_buys_none_back():
    """§11.7: a major buys its own shares "subject to the rules for buying (see 10.2) ... with the
    major acting as a player"; §10.2: a player who already owns 60 % buys none from the Open Market
    (the double-price way is the president's) (D 12.16 [I]). (Found: the engine let a major at 70 %
    of itself buy back.) SR 2 (sr2): Ann expands PLM (REGIONAL 60 -> MAJOR 75 at (5,2), §9.3) and
    buys nothing: Ann 20 %, the treasury 80 % (the two secondaries and six new shares). OR 2.1: PLM
    withholds £0: LEFT (5,1) £70 (§4.4); it issues one share at £70 (PLM + 70 from the bank; DOWN
    (6,1) £65): treasury 70 %, Open Market 10 %. OR 2.2: PLM withholds: LEFT (6,0) £60; holding 70 %
    of itself it may not buy the Open Market's share back."""
    t = sr2()
    t.do("expand Ann PLM", "pass Ben", "pass Cy", "pass Ann")
    assert t.holdings("PLM") == {"Ann": 20, "Ben": 0, "Cy": 0, "ipo": 80, "pool": 0}
    assert (t.cell("PLM"), t.price("PLM")) == ((5, 2), 75)
    idle_until(t, lambda: t.status()["operating"] == "PLM")
    t.do("withhold PLM 0")
    before = t.cash()
    t.do("issue PLM 1")
    assert changes(before, t.cash()) == {"PLM": 70, "bank": -70}
    assert t.holdings("PLM") == {"Ann": 20, "Ben": 0, "Cy": 0, "ipo": 70, "pool": 10}
    assert (t.cell("PLM"), t.price("PLM")) == ((6, 1), 65)
    t.do("done PLM")
    idle_until(t, lambda: t.status()["operating"] == "PLM")
    assert t.round() == "OR 2.2"
    t.do("withhold PLM 0")
    assert (t.cell("PLM"), t.price("PLM")) == ((6, 0), 60)
    t.refused("redeem PLM 1", "70%", "60%", "§10.2")
    assert t.holdings("PLM")["pool"] == 10
    # the redeem verb's bar: completion offers no count, and the Next line no buying back
    assert legal.choices(t.state, t.rs, "redeem", "PLM", "count") is None
    assert legal.complete(t.state, t.rs, "redeem", ["PLM"]) == []
    assert "redeem" not in legal.hint(t.state, t.rs) and "issue" in legal.hint(t.state, t.rs)
    money_kept(t)
