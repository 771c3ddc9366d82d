"""1839 on the way to brown, with a short train roster (tests/data/1839/short-roster.toml, the
table-side `--rules` override) so that brown comes after five trains: Nederlandsche Fabriek's
trains before the run, Beijnes exchanged for a train, the first 7+ making every private obsolete
once its buyer finishes its turn, and the privates closing at their points (§12.1, §12.5, D7.5,
D14.17, D0.1 #6): a company's Beijnes turned into a brown train as brown begins (B15), no obsolete private
bought, the company that starts brown still buying one in its turn, and an obsolete NFLM's last run
(B20). rulesets/1839/obsolescence.py; positions: openings_1839.py."""

from __future__ import annotations

import pytest

from openings_1839 import FORCE, GREEN_SHORT, SHORT_ROSTER, TINY, TWO_FLOATS_TO_GREEN, audit, closed, new_table
from openings_1839 import vv_cm  # noqa: F401  (fixtures, used by name)

ROSTER, SETUP = SHORT_ROSTER, GREEN_SHORT


@pytest.fixture
def game():
    assert ROSTER.is_file(), f"missing {ROSTER}"
    b = new_table("Ann Ben", rules=ROSTER)      # new 1839 Ann Ben --rules short-roster.toml
    b.play(SETUP)
    s = b.status()
    assert (s["round"], s["phase"], s["operating"]) == ("OR 2.1", "green", "ZHESM")
    return b


def company(b, sym):
    return next(c for c in b.status()["companies"] if c["sym"] == sym)


def test_nederlandsche_fabriek_buys_a_train_before_the_run(game):
    assert "must run first" in game.refused("train ZHESM 3+")
    game.do("buy-private ZHESM NF 1")
    game.do("train ZHESM 3+")                          # before its run (§12.5)
    assert company(game, "ZHESM")["trains"] == ["3+", "3+"]


def test_beijnes_is_exchanged_for_a_train_and_the_phase_follows(game):
    game.do("pay ZHESM 100", "done ZHESM", "buy-private AMS JJB 1", "pay AMS 100")
    cash = company(game, "AMS")["cash"]
    game.do("train AMS 3+ --using JJB")                # the last 3+, for nothing (B15)
    assert company(game, "AMS")["cash"] == cash
    assert "JJB" in closed(game)
    game.do("done AMS")


def test_the_first_7_plus_makes_the_privates_obsolete_after_its_buyers_turn(game):
    game.do("buy-private ZHESM NF 1", "train ZHESM 3+", "pay ZHESM 100", "done ZHESM")
    game.do("buy-private AMS JJB 1", "pay AMS 100", "train AMS 5+ --using JJB")   # blue: the 2s rust
    assert company(game, "AMS")["trains"] == ["5+"]
    game.do("done AMS")
    # OR 2.2: AMS (ƒ67) above ZHESM; ZHESM buys the first 7+
    game.do("pay AMS 50", "done AMS", "withhold ZHESM 500", "train ZHESM 7+")
    s = game.status()
    assert s["phase"] == "brown"
    # D0.1 #6: until ZHESM finishes, a company may still buy a private
    game.do("buy-private ZHESM CO 1")
    game.do("done ZHESM")
    # the next SR began: every obsolete private closed (D7.5)
    assert game.status()["round"] == "SR 3"
    owned_before = {"SLC", "SLD", "SLE", "SLK", "IJR", "ZK", "LVG", "SHZ", "CO", "RWS", "SWO", "VVD", "LSW", "NF"}
    assert owned_before <= closed(game)
    audit(game)


# --------------------------------------------------------------------------- §12.5 Beijnes at brown, §12.1 obsolete privates

def test_a_companys_beijnes_becomes_a_brown_train_as_brown_begins():
    """§12.5 (B15): Beijnes "auto-converts to a brown train at the start of brown phase if owned by a
    company": a 7+ from the supply, unpaid, and the private closes. Short roster (two 3+, one 5+,
    three 7+). OR 2.1: ZHESM (ƒ550) buys NF from Ben for 1 and the last 3+ (299), pays 100 (Ben
    60 %: +60); AMS (ƒ660) buys JJB from Ann for 1, pays 100 (Ann 60 %: +60) and the 5+ (659 - 450 =
    209; blue: AMS's 2s rust). OR 2.2: privates pay AMS 20 + 10 (SLE, IJR; JJB 0) = 239 and ZHESM
    20 (NF); AMS pays 50; ZHESM withholds 500 (299 + 20 + 500 = 819) and buys the first 7+ (119)."""
    t = new_table("Ann Ben", rules=SHORT_ROSTER)
    t.play(GREEN_SHORT)
    t.do("buy-private ZHESM NF 1", "train ZHESM 3+", "pay ZHESM 100", "done ZHESM")
    t.do("buy-private AMS JJB 1", "pay AMS 100", "train AMS 5+", "done AMS")
    # OR 2.2's private step paid AMS 209 + 30 and ZHESM 299 + 20
    assert (t.cash("AMS"), t.cash("ZHESM"), t.trains("AMS")) == (239, 319, ["5+"])
    t.do("pay AMS 50", "done AMS", "withhold ZHESM 500", "train ZHESM 7+")
    s = t.status()
    assert s["phase"] == "brown"
    assert t.trains("ZHESM") == ["7+"]                    # its two 3+ rusted (§17)
    assert t.trains("AMS") == ["5+", "7+"]                # JJB became a 7+, within the limit of 3
    assert t.private("JJB", s)["closed"]
    assert next(r for r in s["train_roster"] if r["type"] == "7+")["left"] == 3 - 2
    assert (t.cash("AMS"), t.cash("ZHESM")) == (239, 119)  # the converted train costs nothing
    audit(t)


def test_no_company_buys_an_obsolete_private():
    """§12.1: privates become obsolete once the first 7+'s buyer finishes its turn, and "obsolete
    private companies cannot be bought by a public company". Short roster, OR 2.1: ZHESM (ƒ550)
    buys NF from Ben for 1 (§12.5: trains before its run), the last 3+ (299), withholds 900 (1199),
    buys the 5+ (749; blue: AMS's 2s rust) and the first 7+ (49; brown: its 3+ rust)."""
    t = new_table("Ann Ben", rules=SHORT_ROSTER)
    t.play(GREEN_SHORT)
    t.do("buy-private ZHESM NF 1", "train ZHESM 3+", "withhold ZHESM 900", "train ZHESM 5+", "train ZHESM 7+")
    assert (t.status()["phase"], t.cash("ZHESM"), t.trains("ZHESM"), t.trains("AMS")) == \
        ("brown", 49, ["5+", "7+"], [])
    t.do("done ZHESM")                                   # every private is obsolete now
    t.refused("buy-private AMS JJB 1", "obsolete", "§12.1")


# --------------------------------------------------------------------------- §12.1 privates bought in brown (D0.1 #6)

def test_d0_1_6_the_company_that_starts_brown_may_still_buy_a_private_in_its_turn(vv_cm):
    """D0.1 #6 (§12.1: companies buy privates "in green phase or later"; they become obsolete only
    after the company that bought the first 7+ finishes its turn). OR 2.1: AMS buys the three 5+
    (blue); ZHESM (no train) withholds 1000 (1600) and buys the first 7+ (900): brown; still in its
    turn it buys Credit Mobilier from Ben for 1 (899; Ben 331). Once it is done, every private is obsolete and
    no company may buy one (OR 2.2: AMS and Ann's SHZ). B28: a company's private is not for sale to
    another company."""
    t = vv_cm.copy()
    t.refused("buy-private ZHESM SLE 1")
    t.do(f"withhold AMS 2000 {FORCE}", "train AMS 5+", "train AMS 5+", "train AMS 5+", "done AMS")
    t.do(f"withhold ZHESM 1000 {FORCE}", "train ZHESM 7+")
    assert (t.status()["phase"], t.cash("ZHESM")) == ("brown", 900)
    t.do("buy-private ZHESM CM 1")
    assert (t.cash("Ben"), t.cash("ZHESM"), t.owner("CM")) == (331, 899, "ZHESM")
    t.do("done ZHESM")
    assert t.round() == "OR 2.2"
    t.refused("buy-private AMS SHZ 1", "obsolete")
    audit(t)


# --------------------------------------------------------------------------- §12.1 (B20) NFLM's last run

# Two players on the tiny roster; as GREEN_SHORT, but Ann buys the Noord Friesche (NFLM, ƒ300) and
# Ben Beijnes (ƒ260). Auction: Ann SWO 200 + LVG 10 + VVD 80 + NFLM 300 + SHZ 160 = 750 (550); Ben
# RWS 250 + CO 100 + NF 170 + JJB 260 = 780 (520): SR 1 Ben first. Each floats his company at 80
# with 60 % (480): Ann 70, Ben 40. OR 1.1: no train, no dividend: 80 -> 62 each; ZHESM buys both 2s
# (600), AMS (800 + SLE 20 + IJR 10) the first 3+ (580): green.
NFLM_GREEN = """
deal --privates VVD,NFLM,JJB,NF --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben NF 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben NF
buy Ann NFLM
buy Ben JJB
buy Ann SHZ
""" + TWO_FLOATS_TO_GREEN


@pytest.fixture(scope="module")
def nflm_obsolete():
    """NFLM_GREEN, OR 2.1 (green): the private step paid Ann LVG 5 + SHZ 20 + SWO 25 + VVD 15 (NFLM:
    its run) = 65 (200) and Ben RWS 35 + CO 20 + NF 20 = 75 (190); AMS (610) is on top. Ann's NFLM
    runs for 40 (240). AMS withholds 1000 (1610), buys the last 3+ (1360), the 5+ (910; blue: ZHESM's
    2s rust) and the first 7+ (210; brown: its 3+ rust). ZHESM (600, no train) falls 62 -> 55 and
    buys the last 7+ with 100 of Ben's (90). OR 2.2's private step pays Ann 65 again (305) and Ben
    75 (165), and closes their other privates."""
    t = new_table("Ann Ben", rules=TINY)
    t.play(NFLM_GREEN)
    s = t.status()
    assert (s["round"], s["phase"], s["operating_order"]) == ("OR 2.1", "green", ["AMS", "ZHESM"])
    assert (t.cash("Ann"), t.cash("Ben"), t.cash("AMS"), t.cash("ZHESM")) == (200, 190, 610, 600)
    t.do("income NFLM 40")
    t.do(f"withhold AMS 1000 {FORCE}", "train AMS 3+", "train AMS 5+", "train AMS 7+", "done AMS")
    assert (t.status()["phase"], t.trains("AMS"), t.trains("ZHESM"), t.cash("AMS")) == ("brown", ["5+", "7+"], [], 210)
    t.do("withhold ZHESM 0", "train ZHESM 7+", "done ZHESM")
    assert (t.round(), t.cash("Ann"), t.cash("Ben"), t.price("ZHESM")) == ("OR 2.2", 305, 165, 55)
    return t


def test_b20_an_obsolete_players_nflm_runs_once_more_then_closes(nflm_obsolete):
    """§12.1 (D7.5, B20): a player's obsolete private closes "at the end of the private operations
    step" of the next OR, so it still earns that step's revenue; NFLM's revenue is its own run in
    that step (§12.4). OR 2.2: Ann's NFLM runs for 40 (345) and then it is closed: no second run."""
    t = nflm_obsolete.copy()
    assert {"LVG", "SHZ", "SWO", "VVD", "CO", "RWS", "NF", "JJB"} <= closed(t)
    t.do("income NFLM 40")
    assert t.cash("Ann") == 305 + 40
    assert "NFLM" in closed(t)
    t.refused("income NFLM 40", "NFLM", "closed")
    audit(t)


def test_b20_an_obsolete_nflm_that_does_not_run_closes_as_the_companies_operate(nflm_obsolete):
    """§12.1: the private step ends before the companies operate; an NFLM that did not run in it
    is closed once the first company (AMS) has finished, and earns nothing more."""
    t = nflm_obsolete.copy()
    t.do("withhold AMS 10", "done AMS")
    assert "NFLM" in closed(t)
    t.refused("income NFLM 40", "NFLM", "closed")
    assert t.cash("Ann") == 305
    audit(t)
