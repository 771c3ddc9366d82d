"""1839 audited a second time against its rulebook (shared/seeds/003_aa544c940024c360.txt "§x";
digest shared/rules/1839.md "D x", its corrections D0.1 and best readings "B n"), on the title's own
machinery that test_1839_audit.py leaves out: the phases and the rusting of every colour with their
limits and set lengths, the privates' closing points, the foreign companies' ƒ1,000 ends, sales at
the floor and Overzees in brown, Rijkswaterstaat, Beijnes and Kabinet-Rochussen. Every figure is
worked by hand in the comments. Engine only (tests/conftest.py's Table).

Most scenarios play a tiny train roster (tests/data/1839/tiny-roster.toml, a table's `--rules`
override: two 2s, two 3+, one 5+, two 7+, one 5D+, nine FLOOD, at the rules' prices) so that a short
game reaches red and gray; the revenues above what the map could give are typed with --force."""

from __future__ import annotations

import pytest

from openings_1839 import GREEN_SHORT, KR_OPENING, TINY, TWO_FLOATS_TO_GREEN, audit, new_table, operating_ams

F = "--force --reason audit"


def orun(t, **lines) -> None:
    """One OR: each company in operating order runs its line (default: withholds ƒ10) and finishes."""
    for corp in t.status()["operating_order"]:
        t.do(lines.get(corp, f"withhold {corp} 10"), f"done {corp}")


def closed(t) -> set:
    return {p["sym"] for p in t.status()["privates"] if p["closed"]}


def left(t, train: str) -> int:
    return next(r for r in t.status()["train_roster"] if r["type"] == train)["left"]


# --------------------------------------------------------------------------- §17 phases, rusting, limits

@pytest.fixture(scope="module")
def tiny_brown():
    """GREEN_SHORT on the tiny roster: OR 2.1 in green (a set of 2 ORs), ZHESM (ƒ550, one 3+) then
    AMS (ƒ660, two 2s), both at ƒ62 (each fell 3 boxes from 80 in OR 1.1 with no train, §7.7.3.1);
    Ann directs AMS and owns LVG, SHZ, SWO, VVD, JJB; Ben directs ZHESM and owns CO, RWS, LSW, NF.
    OR 2.1: ZHESM withholds 1000 (1550; 62 -> 56, two boxes: no dividend but trains), buys the
    last 3+ (1300), the 5+ (850; blue) and the first 7+ (150; brown)."""
    t = new_table("Ann Ben", rules=TINY)
    t.play(GREEN_SHORT)
    s = t.status()
    assert (s["round"], s["phase"], s["operating_order"]) == ("OR 2.1", "green", ["ZHESM", "AMS"])
    assert (t.cash("ZHESM"), t.cash("AMS"), t.price("ZHESM"), t.price("AMS")) == (550, 660, 62, 62)
    assert (t.cash("Ann"), t.cash("Ben")) == (240, 340)
    t.do(f"withhold ZHESM 1000 {F}", "train ZHESM 3+")
    assert (t.status()["phase"], t.status()["train_limit"], t.trains("AMS")) == ("green", 4, ["2", "2"])
    t.do("train ZHESM 5+")
    # §17 blue: every 2 leaves the game (AMS's two); the limit stays 4
    assert (t.status()["phase"], t.status()["train_limit"], t.trains("AMS")) == ("blue", 4, [])
    t.do("train ZHESM 7+")
    return t


def test_each_phase_rusts_its_colour_sets_its_limit_and_the_set_keeps_its_length(tiny_brown):
    """§5 table, §17: brown removes the 3+ and the limit becomes 3, red removes the 5+ (limit 2),
    gray the 7+ (limit 2); the set of ORs fixed when the SR ended keeps its length (§7.1: green's
    2, though brown has 3); gray's sets have 3 ORs (the table; A4). §12.1 (D7.5, B20): the privates go
    obsolete as ZHESM finishes; AMS, whose turn began later, closes its own as it finishes; the
    players' pay once more in OR 2.2's private step and close; the yellow privates of companies that
    do not operate still pay their charters in OR 2.2 and close as SR 3 begins."""
    t = tiny_brown.copy()
    s = t.status()
    assert (s["phase"], s["train_limit"], t.trains("ZHESM"), t.cash("ZHESM")) == ("brown", 3, ["5+", "7+"], 150)
    t.do("done ZHESM")
    # AMS (no train) withholds 0: 62 -> 55, three boxes stopped by the floor (59, 56, 55); it buys
    # the last 7+ (700): AMS's 660 and Ann's 40 (§8.2.7.3)
    t.do("withhold AMS 0", "train AMS 7+")
    assert (t.price("AMS"), t.cash("AMS"), t.cash("Ann"), t.trains("AMS")) == (55, 0, 200, ["7+"])
    assert not {"SLE", "IJR"} & closed(t)
    t.do("done AMS")
    assert {"SLE", "IJR"} <= closed(t)
    # OR 2.2 (begun at once), the set's second: the players' privates paid and closed: Ann LVG 5 + SHZ 20 + SWO 25 +
    # VVD 15 + JJB 0 = 65 (265); Ben CO 20 + RWS 35 + LSW 15 + NF 20 = 90 (430); the charters of SS,
    # NWS, HIJSM (unfloated) get their Staatslijn's 20: 40 -> 60 each
    assert t.round() == "OR 2.2"
    assert (t.cash("Ann"), t.cash("Ben")) == (265, 430)
    assert (t.cash("SS"), t.cash("NWS"), t.cash("HIJSM")) == (60, 60, 60)
    assert {"LVG", "SHZ", "SWO", "VVD", "JJB", "CO", "RWS", "LSW", "NF"} <= closed(t)
    assert not {"SLC", "SLD", "SLK", "ZK"} & closed(t)
    # ZHESM (56, above AMS at 55) withholds 1500 (1650; 56 -> 55) and buys the 5D+ (400): red
    t.do(f"withhold ZHESM 1500 {F}", "train ZHESM 5D+")
    s = t.status()
    assert (s["phase"], s["train_limit"], t.trains("ZHESM"), t.cash("ZHESM")) == ("red", 2, ["5D+", "7+"], 400)
    t.do("done ZHESM")
    # AMS withholds 2300 and buys the first FLOOD (300): gray; every 7+ leaves the game
    t.do(f"withhold AMS 2300 {F}", "train AMS FLOOD")
    s = t.status()
    assert (s["phase"], s["train_limit"], t.trains("AMS"), t.trains("ZHESM"), t.cash("AMS")) == \
        ("gray", 2, ["FLOOD"], ["5D+"], 300)
    t.do("done AMS")
    assert t.round() == "SR 3"                          # the set of 2 is over
    assert {"SLC", "SLD", "SLK", "ZK"} <= closed(t)       # §12.1: "a stock round starts"
    t.do("pass Ann", "pass Ben")
    seen = []
    while t.round().startswith("OR"):
        seen.append(t.round())
        orun(t)
    assert (seen, t.round()) == (["OR 3.1", "OR 3.2", "OR 3.3"], "SR 4")
    audit(t)


@pytest.fixture(scope="module")
def tiny_gray(tiny_brown):
    """On from tiny_brown to SR 3 in gray, as the test above plays it: AMS (FLOOD, ƒ300) and ZHESM
    (5D+, ƒ400) both at ƒ55, AMS on top; no foreign company parred yet."""
    t = tiny_brown.copy()
    t.do("done ZHESM", "withhold AMS 0", "train AMS 7+", "done AMS")
    t.do(f"withhold ZHESM 1500 {F}", "train ZHESM 5D+", "done ZHESM")
    t.do(f"withhold AMS 2300 {F}", "train AMS FLOOD", "done AMS")
    assert (t.round(), t.status()["phase"]) == ("SR 3", "gray")
    t.do("pass Ann", "pass Ben")
    assert t.status()["operating_order"] == ["AMS", "ZHESM"]
    return t


# --------------------------------------------------------------------------- §9.1 the ƒ1,000 ends

def test_a_foreign_company_reaching_1000_by_its_trains_ends_the_game_after_the_or(tiny_gray):
    """B24 (§7.7.1, §9.1): a foreign company's price reaching ƒ1,000 through its train purchases
    ends the game at the end of that OR. OR 3.1: AMS pays 48000 ending at a German off-board:
    Duitsland is parred at its drawn 80 (§8.2.5.3); ZHESM still operates. Duitsland's income:
    48000 / 2 = 24000 (a multiple of 100); 12000 to its charter and 240 a unit to its 50 charter
    units (12000): 24000; a dividend: 80 -> 89. It buys FLOODs at 2000 while it can: 12 of them
    (each goes back to the supply, §8.3.2), each a box up: 89 is box 7 of 20, 7 + 12 = box 19,
    ƒ1,000. No stock round follows."""
    t = tiny_gray.copy()
    t.do(f"pay AMS 48000 --abroad DUI {F}", "done AMS")
    assert (t.price("DUI"), t.round()) == (80, "OR 3.1")
    t.do("withhold ZHESM 10", "done ZHESM")
    s = t.status()
    assert s["game_over"] and "1000" in s["end_reason"].replace(",", "")
    assert (t.price("DUI"), t.cash("DUI")) == (1000, 0)
    assert left(t, "FLOOD") == 9 - 1                      # AMS's; Duitsland's twelve came back
    audit(t)


def test_d14_21_a_foreign_company_all_held_by_players_ends_the_game_at_the_end_of_an_sr(tiny_gray):
    """§9.1 #2a, §7.7.2 (D14.21): at the end of an SR a foreign company held 100 % by players rises a
    box; reaching ƒ1,000 so ends the game at once, and its units score ƒ1,000 each (§9.2).
    OR 3.1: ZHESM pays 50000 (Ben 60 %: 30000). OR 3.3 (the set's last): AMS pays 44000 to Germany:
    Duitsland parred at 80; income 22000: 11000 + 50 units x 220 = 22000; 80 -> 89; eleven FLOODs
    (22000): box 7 + 11 = 18, ƒ761. SR 4: the players buy all 30 certificates (20 x 4 % and 10 x 2 %)
    at 761 a unit, 50 x 761 = 38050 to its charter (gray: the full price, §7.3); everyone passes:
    nothing in the pool, all held by players: 761 -> 1000, and the game ends before OR 4.1."""
    t = tiny_gray.copy()
    orun(t, ZHESM=f"pay ZHESM 50000 {F}")
    orun(t)
    assert t.round() == "OR 3.3"
    orun(t, AMS=f"pay AMS 44000 --abroad DUI {F}")
    assert (t.round(), t.price("DUI"), t.cash("DUI")) == ("SR 4", 761, 0)
    first = t.turn()
    other = {"Ann": "Ben", "Ben": "Ann"}[first]
    for pct in [4] * 10 + [2] * 5:
        t.do(f"buy {first} DUI --percent {pct}", f"buy {other} DUI --percent {pct}")
    assert (t.pct("Ann", "DUI"), t.pct("Ben", "DUI"), t.cash("DUI")) == (50, 50, 50 * 761)
    t.do(f"pass {first}", f"pass {other}")
    s = t.status()
    assert s["game_over"] and t.price("DUI") == 1000 and t.round() == "Game over"
    score = t.score()
    # 25 units at 1000; AMS 60 % (Ann) and ZHESM 60 % (Ben) at their prices; Ben's NBDS 20 % at 101
    assert score["Ann"]["shares"] == 25 * 1000 + 6 * t.price("AMS")
    assert score["Ben"]["shares"] == 25 * 1000 + 6 * t.price("ZHESM") + 2 * 101
    audit(t)


# --------------------------------------------------------------------------- §7.2, §8.2.5.2 foreign edges

def test_b6_a_foreign_unit_sells_at_55_on_the_floor_and_is_bought_back_at_27(tiny_gray):
    """§7.2 (B6): a foreign unit sells at the box below its price; at the ƒ55 floor there is none,
    so at 55. OR 3.1: AMS pays 200 to Overzees' off-board: Overzees parred at its drawn 67; income
    100: 50 to its charter and 1 a unit to its 50 charter units: 100; 67 -> 72. OR 3.2, 3.3: no
    income, a box down each (67, 62). SR 4: Ann buys a 2 % at 62, all to the charter (gray): 162.
    OR 4.1-4.3: 59, 56, 55. SR 5: Ann sells it for 55. The SR's end: a unit in the pool, but 55 is
    the floor. OR 5.1: no income (55 stays); the buy-back: floor(55 / 2) = 27 (§8.3.2): 135."""
    t = tiny_gray.copy()
    orun(t, AMS="pay AMS 200 --abroad OZ")
    assert (t.price("OZ"), t.cash("OZ")) == (72, 100)
    orun(t)
    orun(t)
    assert (t.round(), t.price("OZ"), t.turn()) == ("SR 4", 62, "Ann")
    t.do("buy Ann OZ --percent 2", "pass Ben", "pass Ann")
    assert t.cash("OZ") == 162
    prices = []
    for _ in range(3):
        orun(t)
        prices.append(t.price("OZ"))
    assert prices == [59, 56, 55] and t.round() == "SR 5"
    t.do("pass Ben")
    ann = t.cash("Ann")
    t.do("sell Ann OZ 1")
    assert t.cash("Ann") == ann + 55
    t.do("pass Ben", "pass Ann")
    assert (t.price("OZ"), t.holdings("OZ")["pool"]) == (55, 2)
    orun(t)
    assert (t.price("OZ"), t.holdings("OZ")["pool"], t.cash("OZ")) == (55, 0, 162 - 27)
    audit(t)


def test_d0_1_3_overzees_in_brown_is_parred_and_counts_the_whole_revenue(tiny_brown):
    """D0.1 #3 (§8.2.5.2, §17 brown): in brown Overzees' off-board pays nothing, but a route to it
    still pars Overzees and puts the company's whole revenue on its tally. OR 2.2 (brown): ZHESM
    pays 400 ending at Overzees: parred at 67; income 400 / 2 = 200: 100 to its charter, 2 a unit to
    its 50 charter units (100): 200; 67 -> 72."""
    t = tiny_brown.copy()
    t.do("done ZHESM", "withhold AMS 0", "train AMS 7+", "done AMS")
    t.do("pay ZHESM 400 --abroad OZ", "done ZHESM", "withhold AMS 10", "done AMS")
    assert t.round() == "SR 3"
    assert (t.price("OZ"), t.cash("OZ")) == (72, 200)
    audit(t)


def test_a_foreign_companys_first_flood_starts_gray_and_goes_back_to_the_supply(tiny_brown):
    """§8.3.2, §17 gray (D4.1: foreign purchases start phases too): OR 2.2 (red after ZHESM's 5D+):
    AMS (its 7+) pays 8000 to Germany: Duitsland parred at 80; income 4000: 2000 + 50 units x 40 =
    4000; 80 -> 89. It buys the first FLOOD (2000): gray at once, every 7+ (AMS's and ZHESM's)
    leaves the game; the FLOOD goes back to the supply, and it buys it again (0): 89 -> 101 -> 116.
    The phase changes once; nine FLOODs are still in the supply."""
    t = tiny_brown.copy()
    t.do("done ZHESM", "withhold AMS 0", "train AMS 7+", "done AMS")
    t.do(f"withhold ZHESM 1500 {F}", "train ZHESM 5D+", "done ZHESM")
    assert (t.status()["phase"], t.trains("AMS"), t.trains("ZHESM")) == ("red", ["7+"], ["5D+", "7+"])
    n = len(t.events)
    t.do(f"pay AMS 8000 --abroad DUI {F}", "done AMS")
    assert [e["phase"] for e in t.events[n:] if e["kind"] == "phase_changed"] == ["gray"]
    assert (t.round(), t.status()["phase"], t.price("DUI"), t.cash("DUI")) == ("SR 3", "gray", 116, 0)
    assert (t.trains("AMS"), t.trains("ZHESM"), left(t, "FLOOD")) == ([], ["5D+"], 9)
    audit(t)


# --------------------------------------------------------------------------- §12.3, §12.5 privates

def test_b17_rijkswaterstaat_closes_when_its_company_buys_another_companys_train():
    """§12.3 (B17): Rijkswaterstaat closes when its company buys a train, a company's train too.
    openings_1839.operating_ams: AMS buys two 2s; SR 2: Ben and Ann buy NBDS at 101 until 40 % is
    left in the IPO: NBDS floats with 1010 (D14.4). OR 2.1: NBDS buys AMS's 2 for ƒ50 (§8.2.7.1:
    any price from ƒ1); Ben's Rijkswaterstaat closes."""
    t = operating_ams()
    t.do("train AMS 2", "train AMS 2", "done AMS")
    t.do("buy Ben NBDS", "buy Ben NBDS", "buy Ann NBDS", "pass Ben", "pass Ann")
    assert (t.status()["operating"], t.cash("NBDS")) == ("NBDS", 1010)
    t.do("withhold NBDS 0")
    ams = t.cash("AMS")
    assert "RWS" not in closed(t)
    t.do("train NBDS 2 --from AMS --price 50")
    assert (t.cash("NBDS"), t.cash("AMS"), t.trains("AMS")) == (960, ams + 50, ["2"])
    assert "RWS" in closed(t)
    audit(t)


def test_b15_beijnes_is_exchanged_only_within_the_train_limit(tmp_path):
    """§8.2.7.2, B15: a Beijnes exchange is a train bought, so it is held to the train limit. A
    roster with four 3+ (else the tiny one). OR 2.1 in green: AMS (ƒ660, two 2s) buys Beijnes from
    Ann for 1 and two 3+ (500): four trains, the limit; a third 3+ by exchange is refused."""
    roster = tmp_path / "four-3plus.toml"
    roster.write_text(TINY.read_text().replace('price = 250\ncount = 2', 'price = 250\ncount = 4'))
    t = new_table("Ann Ben", rules=roster)
    t.play(GREEN_SHORT)
    t.do("withhold ZHESM 0", "done ZHESM")
    t.do("buy-private AMS JJB 1", "withhold AMS 0", "train AMS 3+", "train AMS 3+")
    assert (t.trains("AMS"), t.cash("AMS")) == (["2", "2", "3+", "3+"], 660 - 1 - 500)
    t.refused("train AMS 3+ --using JJB", "limit of 4")
    assert "JJB" not in closed(t)


def test_kabinet_rochussen_floats_two_companies_at_the_end_of_one_sr():
    """§12.5 (D7.4, B13): the owner may declare "one or more unfloated companies with at least 30 %
    bought from the IPO" floated, his own or not. openings_1839.KR_OPENING: Ben pars ZHESM at 67 and
    buys a 10 %; Ann the same for AMS. Ben declares both. At the SR's end each gets 7 x 67 = 469 and
    three 10 % go to the pool (IPO 40 %); then, in operating order, each falls a box a pool share:
    67 -> 62, 59, 56; ZHESM moved first, so AMS goes under it (§7.7.1). OR 1.1's private step pays
    AMS its Staatslijn E 20 and IJzeren Rijn 10: 499."""
    t = new_table("Ann Ben")
    t.play(KR_OPENING)
    t.do("par Ben ZHESM 67", "buy Ben ZHESM", "par Ann AMS 67", "buy Ann AMS")
    t.do("force-float Ben KR ZHESM", "force-float Ben KR AMS", "pass Ben", "pass Ann")
    assert t.round() == "OR 1.1"
    assert (t.cash("ZHESM"), t.cash("AMS")) == (469, 469 + 30)
    assert (t.price("ZHESM"), t.price("AMS")) == (56, 56)
    for corp in ("ZHESM", "AMS"):
        assert (t.holdings(corp)["ipo"], t.holdings(corp)["pool"]) == (40, 30)
    assert t.status()["operating_order"] == ["ZHESM", "AMS"]
    # B13: it may be used again in a later SR, and Spoorwegwerken Oost's free 10 % is not "bought".
    # OR 1.1: each buys a 2 (no train, no dividend: 56 -> 55). SR 2: Ann (NCS 10 % from SWO) pars
    # NCS at 67 and buys a 10 %: 30 % bought, 60 % left in the IPO; Ben declares it: 7 x 67 = 469,
    # three 10 % to the pool (IPO 30 %), 67 -> 56
    t.do("withhold ZHESM 0", "train ZHESM 2", "done ZHESM", "withhold AMS 0", "train AMS 2", "done AMS")
    t.do("pass Ben", "par Ann NCS 67", "buy Ann NCS")
    assert (t.holdings("NCS")["ipo"], t.pct("Ann", "NCS")) == (60, 40)
    t.do("force-float Ben KR NCS", "pass Ben", "pass Ann")
    assert (t.round(), t.cash("NCS"), t.price("NCS")) == ("OR 2.1", 469, 56)
    assert (t.holdings("NCS")["ipo"], t.holdings("NCS")["pool"]) == (30, 30)
    assert "KR" not in closed(t)
    audit(t)


def test_d14_20_ketwich_and_voombergh_reparss_down_and_the_treasury_pays_the_bank():
    """§12.5 (D14.20, B14): a re-par down: the company gives the bank the difference, 10 x (80 - 67)
    = 130; the marker moves to 67; the private closes on use (B14: single use). KR_OPENING: Ben pars
    ZHESM at 80 with a 10 % (240), Ann buys a 10 % (80), Ben one, Ann one: 60 % sold, ZHESM floats
    with 800 (§7.4)."""
    t = new_table("Ann Ben")
    t.play(KR_OPENING)
    t.do("par Ben ZHESM 80", "buy Ben ZHESM", "buy Ann ZHESM", "buy Ben ZHESM", "buy Ann ZHESM")
    assert (t.cash("ZHESM"), t.cash("Ben"), t.cash("Ann")) == (800, 430 - 320, 750 - 160)
    bank = t.cash("bank")
    t.do("repar Ben KV ZHESM 67")
    assert (t.cash("ZHESM"), t.cash("bank"), t.price("ZHESM")) == (670, bank + 130, 67)
    assert "KV" in closed(t)
    t.refused("repar Ben KV ZHESM 72", "KV")
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
    t.do(f"withhold AMS 1000 {F}", "train AMS 3+", "train AMS 5+", "train AMS 7+", "done AMS")
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
