"""1839 audited a third time against its rulebook (shared/seeds/003_aa544c940024c360.txt "§x"; digest
shared/rules/1839.md "D x", its corrections D0.1 and best readings "B n"), on the cases the first two
audits (test_1839_audit.py, test_1839_audit2.py) left: a SAVED train toward the train limit and
sold (B16), Credit Mobilier on a blue train by either reading (B21, D0.1 #4), MEVS owned by a company
(B19), a Ketwich & Voombergh re-par of a company that had collected income before it floated (B14),
the operating order's ties, the foreign companies' order in an OR and the score. Every figure is
worked by hand in the comments. Engine only (tests/conftest.py's Table)."""

from __future__ import annotations


import pytest
from conftest import Table

from openings_1839 import KR_OPENING, VV_CM, audit, new_table, one_3_roster

F = "--force --reason audit"


def closed(t) -> set:
    return {p["sym"] for p in t.status()["privates"] if p["closed"]}


# --------------------------------------------------------------------------- a green table with VV and CM



@pytest.fixture(scope="module")
def vv_cm(tmp_path_factory):
    """VV_CM, OR 2.1 (green), AMS to operate. Each private step paid Ann LVG 5 + SHZ 20 + SWO 25 +
    VVD 15 + VV 20 = 85 (190 + 85 + 85 = 360) and Ben RWS 35 + CO 20 + CM 10 + LSW 15 = 80 (170 + 80 +
    80 = 330); AMS 580 + SLE 20 + IJR 10 = 610; ZHESM 800 - 200 = 600."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path_factory.mktemp("vvcm")))
    t.play(VV_CM)
    s = t.status()
    assert (s["round"], s["phase"], s["operating_order"]) == ("OR 2.1", "green", ["AMS", "ZHESM"])
    assert (t.cash("Ann"), t.cash("Ben"), t.cash("AMS"), t.cash("ZHESM")) == (360, 330, 610, 600)
    assert (t.trains("AMS"), t.trains("ZHESM")) == (["3+"], ["2", "2"])
    return t



def discards(t) -> dict:
    return {p["corp"]: p["count"] for p in t.state.pending if p["kind"] == "discard"}


# --------------------------------------------------------------------------- §12.5 SAVED markers (B16)

def test_b16_a_saved_train_counts_toward_the_limit_once_its_type_rusts(vv_cm):
    """§12.5, D7.3, B16 (best reading: a saved train counts toward the limit until it is removed).
    OR 2.1: AMS buys Verveers from Ann for 1 (609; green: §12.1), withholds 3000 (3609; 62 -> 56, two
    boxes: no dividend, trains), puts VV's marker on its 3+ (VV closes: used), buys the three 5+
    (1350: 2259): blue at the first (ZHESM's 2s leave the game); AMS holds four, the limit.
    ZHESM (no train, 600) withholds 0 (62 -> 55: three boxes, stopped by the floor) and buys the
    first 7+ (700: its 600 and 100 of Ben's, 330 -> 230): brown, the limit is 3 and every 3+ leaves
    the game but AMS's SAVED one, which runs once more. AMS then holds four trains toward a limit of
    3 (§8.2.7.2): it discards one, out of the game, unpaid: it may be the SAVED 3+ itself."""
    t = vv_cm.copy()
    # §12.5 Verveers: "Use: ... during the train-purchasing step": after the run
    t.refused("save AMS VV 3+", "train-buying step", "§12.5")
    t.do(f"withhold AMS 3000 {F}")
    t.refused("save AMS VV 3+", "VV is Ann's", "company that owns it", "§12.5")
    t.do("buy-private AMS VV 1", "save AMS VV 3+")
    assert "VV" in closed(t) and t.cash("AMS") == 3609
    t.refused("save AMS VV 3+", "VV is closed", "§12.5")
    t.do("train AMS 5+")
    assert (t.status()["phase"], t.trains("ZHESM")) == ("blue", [])
    t.do("train AMS 5+", "train AMS 5+", "done AMS")
    assert (t.trains("AMS"), t.cash("AMS")) == (["3+", "5+", "5+", "5+"], 2259)
    t.do("withhold ZHESM 0", "train ZHESM 7+")
    s = t.status()
    assert (s["phase"], s["train_limit"], t.cash("Ben"), t.price("ZHESM")) == ("brown", 3, 230, 55)
    assert t.trains("AMS") == ["3+ (obsolete)", "5+", "5+", "5+"]
    assert discards(t) == {"AMS": 1}
    t.do("discard AMS 3+")
    assert (t.trains("AMS"), discards(t)) == (["5+", "5+", "5+"], {})
    audit(t)


def test_b16_a_saved_train_sold_to_another_company_loses_its_marker(vv_cm):
    """§12.5 (Verveers): "the marker is discarded from the game and the protection removed from the
    train if the marked train is sold to another company". OR 2.1: AMS saves its 3+ as above and
    buys the three 5+ (blue: ZHESM's 2s leave). ZHESM (no train) withholds 1000 (1600; 62 -> 56)
    and buys AMS's SAVED 3+ for 1 (§8.2.7.1: any price from ƒ1) and the first 7+ (899): brown, and
    the 3+ it bought leaves the game like every other 3+."""
    t = vv_cm.copy()
    t.do("buy-private AMS VV 1", f"withhold AMS 3000 {F}", "save AMS VV 3+")
    t.do("train AMS 5+", "train AMS 5+", "train AMS 5+", "done AMS")
    t.do(f"withhold ZHESM 1000 {F}", "train ZHESM 3+ --from AMS --price 1")
    assert (t.trains("ZHESM"), t.trains("AMS"), t.cash("ZHESM")) == (["3+"], ["5+", "5+", "5+"], 1599)
    t.do("train ZHESM 7+")
    assert (t.status()["phase"], t.trains("ZHESM"), t.cash("ZHESM")) == ("brown", ["7+"], 899)
    assert discards(t) == {}
    audit(t)


# --------------------------------------------------------------------------- §12.5 Credit Mobilier (B21)

@pytest.mark.parametrize("option, price", [(None, 450 - 150), ("credit_mobilier_by_phase", 450 - 100)])
def test_b21_credit_mobilier_on_the_first_blue_train_bought_in_green(tmp_path, option, price):
    """§12.5 (Credit Mobilier: "Green: ƒ100, Blue: ƒ150, Brown: ƒ250"), D0.1 #4: by the train's
    colour (best reading) the first 5+, bought in green, is a blue train: 450 - 150 = 300; by the
    phase's colour (option credit_mobilier_by_phase) it is bought in green: 450 - 100 = 350. OR 2.1:
    AMS withholds 10 and passes; ZHESM buys CM from Ben for 1 (599), withholds 0 (its 2s: 62 -> 56)
    and buys the 5+ with it; CM closes (used, B21: once)."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM)
    t.do("withhold AMS 10", "done AMS", "buy-private ZHESM CM 1", "withhold ZHESM 0")
    bank = t.cash("bank")
    t.do("train ZHESM 5+ --using CM")
    assert (t.cash("ZHESM"), t.cash("bank"), t.status()["phase"]) == (599 - price, bank + price, "blue")
    assert "CM" in closed(t)
    assert "CM" in t.refused("train ZHESM 5+ --using CM")
    audit(t)


# --------------------------------------------------------------------------- §12.5 MEVS owned by a company (B19)

def test_b19_mevs_owned_by_a_company_earns_nothing(tmp_path):
    """§12.5, B19: MEVS's power is its player owner's ("Owning player is paid ..."); its revenue to a
    company owner is ƒ0 (§6: "? / 0"). VV_CM with MEVS drawn in Verveers' place (same face, ƒ180; it
    pays Ann nothing in the private steps: 360 - 2 x 20 = 320). OR 2.1: AMS buys MEVS from Ann for
    1 (321); the table cannot pay MEVS anything now, and OR 2.2's private step pays AMS only its
    yellow privates' 30."""
    mevs = VV_CM.replace("VVD,LSW,VV,CM", "VVD,LSW,MEVS,CM").replace("buy Ann VV\n", "buy Ann MEVS\n")
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path))
    t.play(mevs)
    assert (t.round(), t.cash("Ann"), t.status()["operating"]) == ("OR 2.1", 320, "AMS")
    anns = t.copy()
    anns.do("income MEVS 30")                  # Ann's: paid as her AMS operates (D0.1 #5)
    assert anns.cash("Ann") == 350
    t.do("buy-private AMS MEVS 1")
    assert (t.cash("Ann"), t.cash("AMS")) == (321, 609)
    t.refused("income MEVS 30", "MEVS", "player owner", "B19")
    t.do("withhold AMS 10", "done AMS", "withhold ZHESM 10", "done ZHESM")
    assert (t.round(), t.cash("AMS")) == ("OR 2.2", 609 + 10 + 30)
    audit(t)


# --------------------------------------------------------------------------- §12.5 Ketwich & Voombergh (B14)

# KR_OPENING: Ben owns RWS, KR, KV and LSW (430). SR 1: both pass; no company floats. OR 1.1: only
# the private step: Ben RWS 35 + KR 10 + KV 50 + LSW 15 = 110 (540); AMS's charter, though AMS is
# not floated, gets SLE 20 + IJR 10 = 30 (§12.2, D5.1). SR 2 (Ben first: he passed first): Ben pars
# AMS at 67 (134: 406) and buys a 10 % a turn while Ann passes (67 each): at 60 % AMS floats with
# 10 x 67 = 670 (§7.4): 700 in its treasury.
KV_INCOME = """
par Ben AMS 67
pass Ann
buy Ben AMS
pass Ann
buy Ben AMS
pass Ann
buy Ben AMS
buy Ben AMS
"""


@pytest.mark.parametrize("option, treasury", [(None, 10 * 80), ("repar_keeps_income", 700 + 10 * (80 - 67))])
def test_b14_a_repar_sets_the_treasury_to_ten_times_the_new_par(option, treasury):
    """§12.5 Ketwich & Voombergh: "The re-parred company is then capitalised as of the new par" (B14,
    D7.4). AMS floated this SR with its 670 and the 30 its yellow privates paid its charter before
    (D5.1); Ben re-pars it at 80. The digest's best reading ("treasury adjusted to 10 x new par"):
    800, the bank taking the privates' 30 back with its 130. Option repar_keeps_income (its capital
    is 10 x the new par): the bank adds 10 x (80 - 67) = 130 and the privates' income stays (830)."""
    t = new_table("Ann Ben", **({option: True} if option else {}))
    t.play(KR_OPENING)
    t.do("pass Ben", "pass Ann")
    # OR 1.1 had no company to operate: only its private step
    assert (t.round(), t.cash("Ben"), t.cash("AMS")) == ("SR 2", 540, 30)
    t.play(KV_INCOME)
    assert (t.round(), t.cash("Ben")) == ("SR 2", 540 - 134 - 67 * 4)
    assert t.cash("AMS") == 700
    t.do("repar Ben KV AMS 80")
    assert (t.cash("AMS"), t.price("AMS")) == (treasury, 80)
    audit(t)


# --------------------------------------------------------------------------- §8.2.1 operating order and its ties

@pytest.mark.parametrize("option, order", [(None, ["AMS", "ZHESM"]), ("stack_by_arrival", ["ZHESM", "AMS"])])
def test_b29_b5_ties_in_a_box_follow_the_stack(tmp_path, option, order):
    """§7.4, B29: Ben parred ZHESM at 80 before Ann parred AMS there; AMS went under it, so ZHESM
    operates first in OR 1.1. §8.2.1, B5: both fell to 62 in OR 1.1, ZHESM first; AMS, moved there
    while ZHESM's marker lay face down, goes under the face-up markers but over the face-down one:
    AMS operates first in OR 2.1. Option stack_by_arrival (the stated principle): under every
    marker there, so ZHESM, longer there, stays first."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM[:VV_CM.index("withhold ZHESM 0")])
    assert (t.round(), t.status()["operating_order"]) == ("OR 1.1", ["ZHESM", "AMS"])
    t.play(VV_CM[VV_CM.index("withhold ZHESM 0"):])
    assert (t.price("AMS"), t.price("ZHESM")) == (62, 62)
    assert (t.round(), t.status()["operating_order"]) == ("OR 2.1", order)


# --------------------------------------------------------------------------- §8.3 foreign companies in turn

def test_foreign_companies_operate_overzees_first_and_take_the_trains_in_turn(vv_cm):
    """§8.3 (D6.4): after the public companies, the parred foreign companies operate in the order
    Overzees, Belgie, Duitsland, each buying as many trains from the supply as it can afford.
    OR 2.1 (green): AMS pays 2000 to Overzees' off-board (Overzees parred at its drawn 67), ZHESM 2000
    to Germany (Duitsland parred at 80). Each income: 2000 / 2 = 1000 (a multiple of 100): half to
    its treasury (500) and 1000 / 100 = 10 a unit on its 50 charter units (500): 1000; a dividend: +1.
    Overzees (67 -> 72) buys two 5+ (900; the first starts blue at once: ZHESM's 2s leave the game),
    100 left, +2: 89. Duitsland (80 -> 89) buys the last 5+ (450), 550 left, short of a 7+ (700),
    +1: 101. Their trains leave the game (§8.3.2)."""
    t = vv_cm.copy()
    t.do(f"pay AMS 2000 --abroad OZ {F}", "done AMS", f"pay ZHESM 2000 --abroad DUI {F}", "done ZHESM")
    s = t.status()
    assert (s["round"], s["phase"], t.trains("ZHESM"), t.trains("AMS")) == ("OR 2.2", "blue", [], ["3+"])
    assert (t.price("OZ"), t.cash("OZ"), t.price("DUI"), t.cash("DUI")) == (89, 100, 101, 550)
    assert (t.trains("OZ"), t.trains("DUI")) == ([], [])
    roster = {r["type"]: r["left"] for r in s["train_roster"]}
    assert (roster["5+"], roster["7+"]) == (0, 2)
    audit(t)


def test_b7_a_run_abroad_counts_whole_once_per_country_for_each_country_reached(vv_cm):
    """§8.2.5.3, §8.3.2, B7: a company's whole revenue counts toward each country its route reached,
    once a country however many of its off-boards it used. OR 2.1: AMS pays 400 reaching Overzees and
    Germany, ZHESM 300 reaching two German off-boards. Overzees: 400 / 2 = 200 (a multiple of 100):
    100 + 50 units x 2 = 200 to its treasury; 67 -> 72. Duitsland: (400 + 300) / 2 = 350, rounded
    up to 400: 200 + 50 x 4 = 400; 80 -> 89. Neither can buy a 5+ (450)."""
    t = vv_cm.copy()
    t.do("pay AMS 400 --abroad OZ,DUI", "done AMS", "pay ZHESM 300 --abroad DUI,DUI")
    assert t.status()["revenue_track"] == {"AMS": {"revenue": 400, "abroad": ["OZ", "DUI"]},
                                           "ZHESM": {"revenue": 300, "abroad": ["DUI"]}}
    t.do("done ZHESM")
    assert t.round() == "OR 2.2"
    assert (t.price("OZ"), t.cash("OZ"), t.price("DUI"), t.cash("DUI")) == (72, 200, 89, 400)
    audit(t)


# --------------------------------------------------------------------------- §9.1 the end in an OR

def test_a_public_company_at_1000_ends_the_game_after_the_foreign_companies_operate(vv_cm):
    """§7.7.1, §9.1 (D12): a company reaching ƒ1,000 by its dividend ends the game at the end of the
    current OR; the foreign companies' operations are part of that OR (§8: after the public
    companies), so one parred in it still operates. From OR 2.1 (green) AMS pays 10000 every OR
    (ZHESM withholds 10 with its 2s, nobody buys a train, the phase stays green): 62 -> 67 -> 72 -> 80
    (+3: 10000 >= 4 x price), 89, 101, 116, then 135 (B1: a rise stops on reaching 135), then one box
    an OR (10000 > price): 160, 192, 233, 287, 359, 454, 584, 761, 1000. In that OR ZHESM pays 400
    to Germany: Duitsland is parred at 80 and operates: 400 / 2 = 200: 100 + 50 units x 2 = 200 to
    its treasury; 80 -> 89. Then the game is over; no OR or SR follows."""
    t = vv_cm.copy()
    seen = []
    while True:
        if t.round().startswith("SR"):
            t.do(f"pass {t.turn()}")
            t.do(f"pass {t.turn()}")
            continue
        if t.price("AMS") == 761:
            break
        t.do(f"pay AMS 10000 {F}", "done AMS", "withhold ZHESM 10", "done ZHESM")
        seen.append(t.price("AMS"))
    assert seen == [80, 116, 135, 160, 192, 233, 287, 359, 454, 584, 761]
    assert t.status()["operating_order"][0] == "AMS"
    t.do(f"pay AMS 10000 {F}", "done AMS")
    assert t.price("AMS") == 1000 and not t.status()["game_over"]
    t.do("pay ZHESM 400 --abroad DUI", "done ZHESM")
    s = t.status()
    assert s["game_over"] and (t.price("DUI"), t.cash("DUI")) == (89, 200)
    t.refused(f"pass {s['players'][0]['name']}")
    audit(t)


# --------------------------------------------------------------------------- the options: the other readings

@pytest.mark.parametrize("option, station, price", [
    (None, 30, 62),                       # B9: 30 x 1 location (Haarlem); B4: no train, three boxes
    ("stations_count_new", 60, 62),       # B9 (later revision): 30 x 2, the new location counted
    ("no_train_penalty_two", 30, 67),     # B4 option: two boxes, as with a train (80 -> 72 -> 67)
])
def test_b9_b4_a_first_turn_station_and_fall_by_either_reading(tmp_path, option, station, price):
    """§8.2.4 (B9, D14.22) and §7.7.3.1 (B4, D14.10): OR 1.1, ZHESM's first turn: a station in a ƒ30
    city, then no train, no dividend."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM[:VV_CM.index("withhold ZHESM 0")])
    t.do("token ZHESM 30 --city Leiden")
    assert t.cash("ZHESM") == 800 - station
    t.do("withhold ZHESM 0")
    assert t.price("ZHESM") == price
    audit(t)


@pytest.mark.parametrize("option, check", [
    ("seven_plus_800", lambda rs: rs.train("7+").price == 800),          # Appendix A: the card
    ("flood_eight", lambda rs: rs.train("FLOOD").count == 8),            # A3: the §5 table
    ("gray_four_ors", lambda rs: rs.phase("gray").ors == 4),             # A4: §17's text
    ("ijzeren_rijn_20", lambda rs: rs.private("IJR").revenue == 20),     # A2: the §6 table
])
def test_the_data_options_change_their_one_number(option, check):
    """D15 A2-A4 and Appendix A: each option is the other reading of one number; without it the
    rules' own: 7+ at 700, nine FLOODs, three ORs a gray set, IJzeren Rijn 10."""
    plain, other = Table("new 1839 Ann Ben").rs, Table(f"new 1839 Ann Ben --option {option}").rs
    assert check(other) and not check(plain)


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
    t.do(f"withhold AMS 2000 {F}", "train AMS 5+", "train AMS 5+", "train AMS 5+", "done AMS")
    t.do(f"withhold ZHESM 1000 {F}", "train ZHESM 7+")
    assert (t.status()["phase"], t.cash("ZHESM")) == ("brown", 900)
    t.do("buy-private ZHESM CM 1")
    assert (t.cash("Ben"), t.cash("ZHESM"), t.owner("CM")) == (331, 899, "ZHESM")
    t.do("done ZHESM")
    assert t.round() == "OR 2.2"
    t.refused("buy-private AMS SHZ 1", "obsolete")
    audit(t)


# --------------------------------------------------------------------------- §7.2 the pool (B26)

def test_b26_the_pool_may_hold_more_than_half_and_pays_the_company(tmp_path):
    """§7.2, B26: no limit on the bank pool; §7.7.2 (D9.4): −1 a 10 % in the pool at the SR's end;
    §8.2.6 (D11.2): the pool's dividends go to the company, the IPO's to nobody. VV_CM's SR 2 (Ben
    first; Ben 250, Ann 275; both companies at 62): Ben buys an AMS 10 % from the IPO (188); Ann
    sells four (pool 40 %: +248, 523); Ben buys a second (126; 20 % ties Ann's 20 %: she stays
    director, §7.5) and sells both (pool 60 %: +124, 250). The SR's end: six boxes down, stopped by
    the floor: 62 -> 59 -> 56 -> 55. OR 2.1: ZHESM (62) first; AMS pays 100: Ann 20, the pool's 60
    to AMS, the IPO's 20 % nothing; 100 >= 55: 55 -> 56."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path))
    t.play(VV_CM[:VV_CM.rindex("pass Ben")])
    assert (t.round(), t.turn(), t.cash("Ben"), t.cash("Ann")) == ("SR 2", "Ben", 250, 275)
    t.do("buy Ben AMS", "sell Ann AMS 4", "buy Ben AMS")
    assert (t.president("AMS"), t.cash("Ann"), t.cash("Ben")) == ("Ann", 523, 126)
    t.do("pass Ann", "sell Ben AMS 2")
    assert (t.holdings("AMS")["pool"], t.cash("Ben")) == (60, 250)
    t.do("pass Ann", "pass Ben")
    assert (t.round(), t.price("AMS"), t.status()["operating_order"]) == ("OR 2.1", 55, ["ZHESM", "AMS"])
    t.do("withhold ZHESM 10", "done ZHESM")
    ann, ams = t.cash("Ann"), t.cash("AMS")
    t.do("pay AMS 100")
    assert (t.cash("Ann"), t.cash("AMS"), t.price("AMS")) == (ann + 20, ams + 60, 56)
    audit(t)
