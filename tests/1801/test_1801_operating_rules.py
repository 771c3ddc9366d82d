"""1801 (18OE): operating minors and regionals in Train Phase 2, played on the engine as typed at the table (table_1801.py).

Every number asserted here is worked BY HAND from the rules, never read off the program:
the rulebook shared/seeds/002_c09d1f5beee78cce.txt ("§x"; it wins where it states a rule) and the
digest shared/rules/1801.md ("D x"; its 0.1 corrections override the rest; "E n" are its edge
cases). The command grammar is /tmp/1801-spec.md (the contract). The working is in the comments.

Tables played (each from `bank new`, the whole opening typed):

* MAIN (3 players): every item bought at face in turn from the top row, ten minors floated by the
  concessions, two in SR 1, GWR (par 70, UK) and KSS (par 60, PHS) parred in SR 1 with both of their
  25 % certificates left in the treasury. Saved at the start of OR 1.1 and of OR 1.2.
* MAJOR (3 players): the same opening, then 18 regionals parred in SR 1, so the Major railroad
  phase begins in SR 1 (§8.2/§8.3) and players buy 25 % secondaries: the §11.4 examples (GWR £70
  full pay, KSS £70 half pay), the level-3 bar of the first OR (§11.6/§8.3) and the train limit 2.
* POOR (3 players): Ann spends almost everything on SML (a lower-row bid) and her minor B floats in
  the UK (£80 left); first-round insolvency and its refunds (§11.6.5, D 12.14, E13), with Ann
  holding £40 (POOR40) or £10 (POOR10) when B buys its reserved 2+2.

Each table is built once per module (per xdist worker) and every test works on a copy.
"""

from __future__ import annotations


import pytest
from positions_1801 import MAIN_AUCTION, MAIN_CONCESSIONS, MAJOR_SR1, copied, poor_auction
from table_1801 import Table, changes

BANK_TOTAL = 54_000  # §3.1: the bank holds £54,000 (starting capital dealt from it, D §1 [I])


# (the table: table_1801.py; the shared openings: positions_1801.py)


# =========================================================================== the MAIN table
# After the auction: Ann 1020, Ben 1080, Cy 1060. The bank got the privates (600) and the
# concessions (10 x 20 = 200): 48,600 + 800 = 49,400. Every minor holds £120.
# Ann: RSC BBBT WCF SML, minors C F J M; Ben: PC SHTC HML, minors A D G K; Cy: WSB CCTC BB, B E H L.

# Bank: 49,400 + tokens (40+40+20+20+10+20+20+10+10+10 = 200) - patronage 30 = 49,570.

# SR 1 starts with the player after the last auction action (Ben bought C10): Cy, Ann, Ben, ...
MAIN_SR1 = """
float Cy L IT                  # L 120 - 10 = 110 (IT's 2nd chit)
float Ann M SP                 # M 110
par Ben GWR 70                 # §9.2: Ben 1080 - 2 x 70 = 940; GWR 140 - 40 (UK home) = 100
par Cy KSS 60                  # Cy 1060 - 120 = 940; KSS 120 - 40 (PHS home) = 80
pass Ann
pass Ben
pass Cy                        # all three pass in a row: SR 1 ends, OR 1.1 begins (Train Phase 2)
"""
# Bank: 49,570 + L 10 + M 10 + GWR 40 + KSS 40 = 49,670.
# OR 1.1 step 1 (§11): the privates pay (D 15.1): Ann RSC 5 + BBBT 10 + WCF 15 + SML 0 = 30 -> 1,050;
# Ben PC 5 + SHTC 15 + HML 20 = 40 -> 980; Cy WSB 10 + CCTC 15 + BB 25 = 50 -> 990;
# §15.10: Minor K's mail £20 (phase 2) -> K 110 + 20 = 130. Bank 49,670 - 120 - 20 = 49,530.
MAIN_OR11_CASH = {"Ann": 1050, "Ben": 980, "Cy": 990,
                  "A": 80, "B": 80, "C": 100, "D": 130, "E": 110, "F": 100, "G": 100, "H": 110,
                  "J": 110, "K": 130, "L": 110, "M": 110, "GWR": 100, "KSS": 80, "bank": 49_530}
# Float order = operating order (§2.2.6, §11 step 2):
MAIN_ORDER = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "GWR", "KSS"]

# OR 1.1 with nothing but the reserved 2+2s (£100 each, §11.6.1; Minor J's 10 % off, §15.9: £90):
# A 80 -> 0, Ben tops up 20 (980 -> 960); B 80 -> 0, Cy tops up 20 (990 -> 970); C 0; D 30; E 10;
# F 0; G 0; H 10; J 110 - 90 = 20; K 30; L 10; M 10; GWR 0; KSS 80 -> 0, Cy tops up 20 (970 -> 950).
# Bank 49,530 + 13 x 100 + 90 = 50,920.
# OR 1.2 step 1: Ann 1050 + 30 = 1080, Ben 960 + 40 = 1000, Cy 950 + 50 = 1000; K 30 + 20 = 50;
# bank 50,920 - 120 - 20 = 50,780.
MAIN_OR12_CASH = {"Ann": 1080, "Ben": 1000, "Cy": 1000,
                  "A": 0, "B": 0, "C": 0, "D": 30, "E": 10, "F": 0, "G": 0, "H": 10,
                  "J": 20, "K": 50, "L": 10, "M": 10, "GWR": 0, "KSS": 0, "bank": 50_780}


@pytest.fixture(scope="module")
def main_or11() -> Table:
    t = Table()
    t.play(MAIN_AUCTION + MAIN_CONCESSIONS + MAIN_SR1)
    return t


@pytest.fixture(scope="module")
def main_or12(main_or11) -> Table:
    t = main_or11.copy()
    t.bank.line("choose Ann normal")
    for corp in MAIN_ORDER:
        t.first_turn(corp)
    return t


or11 = copied("main_or11")
or12 = copied("main_or12")


# =========================================================================== MAIN: the opening

def test_opening_reaches_or_1_1_with_private_income_and_mail(or11):
    """§5.2: Train Phase 2 starts with the first OR; §11 step 1 the privates pay their owners;
    §15.10 Minor K's treasury gets £20 mail; D's float patronage (§9.1) stays in D."""
    s = or11.status()
    assert s["round"] == "OR 1.1"
    cash = or11.cash()
    assert {k: cash[k] for k in MAIN_OR11_CASH} == MAIN_OR11_CASH
    or11.conserved()


def test_or_1_2_pays_private_income_and_mail_again(or12):
    """§11 step 1 at every OR: the privates pay again (Ann +30, Ben +40, Cy +50) and K's mail is £20
    again (still phase 2: nobody could buy a level 3). Worked in MAIN_OR12_CASH."""
    assert or12.status()["round"] == "OR 1.2"
    cash = or12.cash()
    assert {k: cash[k] for k in MAIN_OR12_CASH} == MAIN_OR12_CASH
    for sym in MAIN_ORDER:
        assert or12.company(sym)["trains"] == ["2+2"], sym
    or12.conserved()


# =========================================================================== MAIN: operating order

def test_minor_c_first_operates_before_a(or11):
    """§15.3: Minor C's president may run it first among the minors/regionals."""
    or11.bank.line("choose Ann first")
    or11.refused("train A 2+2")             # A's turn has not come
    before = or11.cash()
    or11.bank.line("train C 2+2")           # C 100 -> 0; the bank + 100
    or11.bank.line("done C")
    assert changes(before, or11.cash()) == {"C": -100, "bank": 100}
    or11.refused("train B 2+2")             # float order resumes with A
    or11.bank.line("train A 2+2")           # A 80: Ben pays the 20 missing (980 -> 960)
    assert or11.cash()["Ben"] == 960 and or11.cash()["A"] == 0


def test_minor_c_normal_keeps_float_order(or11):
    """§11 step 2: float order A, B, C, ... when C's president picks 'normal'."""
    or11.bank.line("choose Ann normal")
    or11.refused("train C 2+2")
    or11.refused("train B 2+2")
    or11.first_turn("A")
    or11.refused("train C 2+2")
    or11.first_turn("B")
    before = or11.cash()
    or11.bank.line("train C 2+2")           # now C: 100 -> 0
    assert changes(before, or11.cash()) == {"C": -100, "bank": 100}


def test_minor_c_last_operates_after_the_regionals(or11):
    """§15.3: 'last' puts C after every minor and regional (after KSS, the last floated)."""
    or11.bank.line("choose Ann last")
    for corp in [c for c in MAIN_ORDER if c != "C"]:
        or11.refused("train C 2+2")
        or11.first_turn(corp)
    assert or11.status()["round"] == "OR 1.1"
    or11.bank.line("withhold C 0", ok=None)  # its first OR: it earns nothing (D 0.1 #2)
    before = or11.cash()
    or11.bank.line("train C 2+2")           # C 100 -> 0
    assert changes(before, or11.cash()) == {"C": -100, "bank": 100}
    or11.bank.line("done C")                # the last to operate: OR 1.2 begins
    assert or11.status()["round"] == "OR 1.2"


def test_choose_only_by_minor_c_president(or11):
    """§15.3: the president of Minor C (Ann) chooses; Ben may not."""
    or11.refused("choose Ben first")
    or11.refused("choose Cy last")


def test_choice_is_asked_before_anyone_operates(or11):
    """§11 step 2 (Developer's Note) / §15.3: C's president announces the position before any
    other RR operates; the spec: 'asked at each OR start'. A cannot start before the choice."""
    or11.refused("train A 2+2")


def test_choice_is_asked_again_in_or_1_2(or12):
    """§15.3: 'This ability is exercised anew at the beginning of each OR.' C first in OR 1.2."""
    or12.bank.line("choose Ann first")
    or12.refused("withhold A 0")
    or12.idle_turn("C")
    or12.idle_turn("A")


def test_only_the_operating_company_acts(or11):
    """§11: RRs operate one at a time; B cannot lay, token or buy during A's turn."""
    or11.bank.line("choose Ann normal")
    or11.refused("tile B 0")
    or11.refused("token B")
    or11.refused("train B 2+2")


# =========================================================================== MAIN: reserved 2+2

def test_done_refused_without_the_reserved_2p2(or11):
    """§11.6.1: every minor must buy its reserved 2+2 in its first OR after floating."""
    or11.bank.line("choose Ann normal")
    or11.refused("done A")
    or11.bank.line("train A 2+2")
    or11.bank.line("done A")


def test_reserved_2p2_costs_100_and_the_president_tops_up(or11):
    """§11.6.1/§11.6.5: the 2+2 is £100 [S]; A holds 80, so its president Ben pays the 20 missing."""
    or11.bank.line("choose Ann normal")
    before = or11.cash()
    or11.bank.line("train A 2+2")           # A 80 -> 0, Ben 980 -> 960, bank + 100
    assert changes(before, or11.cash()) == {"A": -80, "Ben": -20, "bank": 100}
    assert or11.company("A")["trains"] == ["2+2"]


def test_rich_president_pays_the_shortfall_without_refunds(or11):
    """§11.6.5: refunds only 'to prevent an insolvency'; Ben can pay, so A's tile stays paid:
    A 80 - 30 (tile) = 50; the 2+2: A pays 50, Ben pays 50 (980 -> 930); bank + 30 + 100."""
    or11.bank.line("choose Ann normal")
    before = or11.cash()
    or11.bank.line("tile A 30")
    or11.bank.line("train A 2+2")
    assert changes(before, or11.cash()) == {"A": -80, "Ben": -50, "bank": 130}


def test_a_regional_buys_its_2p2_with_a_president_top_up(or11):
    """§11.6.1: KSS holds 80 (par 60: 120 - 40); Cy pays 20. GWR holds exactly 100."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:12]:
        or11.first_turn(corp)
    before = or11.cash()
    or11.first_turn("GWR")                  # GWR 100 -> 0
    or11.refused("done KSS")
    or11.bank.line("train KSS 2+2")         # KSS 80 -> 0, Cy pays 20
    # Cy paid B's 20 earlier in this test (990 -> 970); here 970 -> 950.
    assert changes(before, or11.cash()) == {"GWR": -100, "KSS": -80, "Cy": -20, "bank": 200}
    assert or11.cash()["Cy"] == 950


def test_first_or_company_earns_nothing(or11):
    """§11 steps 3 and 6; D 0.1 #2: a company runs before it buys, so in its first OR it has no
    train to run: a revenue is refused before the 2+2 and after it."""
    or11.bank.line("choose Ann normal")
    or11.refused("half A 40")
    or11.bank.line("train A 2+2")
    or11.refused("half A 40")


def test_no_level_3_train_in_the_first_or(or11):
    """§11.6 / §8.2: no level 3 in the first OR of the game nor before the Major phase."""
    or11.bank.line("choose Ann normal")
    or11.first_turn("A")
    or11.first_turn("B")
    or11.first_turn("C")
    # D has 130: it may not buy a level 3 instead of, or after, its 2+2.
    or11.refused("train D 3")
    or11.refused("train D 3+3")
    or11.bank.line("train D 2+2")           # D 130 -> 30
    or11.refused("train D 3")
    assert or11.cash()["D"] == 30


def test_level_3_refused_in_or_1_2_before_the_major_phase(or12):
    """§8.2: 'No RR may purchase a level 3 train' during the Regional/Minor phase; GWR can afford
    it after withholding £250 (§11.4: the whole revenue to the treasury: 0 + 250)."""
    or12.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:12]:
        or12.idle_turn(corp)
    before = or12.cash()
    or12.bank.line("withhold GWR 250")
    assert changes(before, or12.cash()) == {"GWR": 250, "bank": -250}
    or12.refused("train GWR 3")             # 200
    or12.refused("train GWR 3+3")           # 225
    or12.refused("train GWR 2+2")           # its reserved one is bought (D 12.10 [I]: only one)
    or12.bank.line("done GWR")


# =========================================================================== MAIN: tile points

def test_minor_lays_three_tile_points(or11):
    """§11.1: a minor has 3 tile points; a yellow tile costs 1 (a yellow metropolis 2)."""
    or11.bank.line("choose Ann normal")
    or11.bank.line("tile A 0")
    or11.bank.line("tile A 0")
    or11.bank.line("tile A 0")
    or11.refused("tile A 0")                # a 4th point


def test_two_point_tile_counts_two(or11):
    """§11.1: 2 + 1 = 3 points; one more yellow would be the 4th point."""
    or11.bank.line("choose Ann normal")
    or11.bank.line("tile A 0 --points 2")
    or11.bank.line("tile A 0")
    or11.refused("tile A 0")


def test_minor_g_lays_five_tile_points(or11):
    """§15.7: Minor G has two extra tile points every OR: 3 + 2 = 5."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:6]:             # A B C D E F
        or11.first_turn(corp)
    or11.bank.line("tile G 0 --points 2")
    or11.bank.line("tile G 0")
    or11.bank.line("tile G 0")
    or11.bank.line("tile G 0")              # 2 + 1 + 1 + 1 = 5
    or11.refused("tile G 0")                # the 6th


def test_regional_lays_three_tile_points(or11):
    """§11.1: a regional has 3 tile points, like a minor."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:12]:
        or11.first_turn(corp)
    or11.bank.line("tile GWR 0")
    or11.bank.line("tile GWR 0 --points 2")
    or11.refused("tile GWR 0")


# =========================================================================== MAIN: terrain fees

def test_uk_regional_has_no_discounts_and_pays_20_for_its_token(or11):
    """§11.1.5: GWR (UK rights) has no 20 % zone and no E/F ability; §11.2 / D 7.4 its second token
    costs £20: GWR 100 -> 80."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:12]:
        or11.first_turn(corp)
    or11.refused("tile GWR 45 --with zone")
    or11.refused("tile GWR 45 --with ef")
    before = or11.cash()
    or11.bank.line("token GWR")
    assert changes(before, or11.cash()) == {"GWR": -20, "bank": 20}


def test_plain_terrain_fee(or11):
    """§11.1.5: the construction fee is paid by the treasury to the bank: A 80 - 45 = 35."""
    or11.bank.line("choose Ann normal")
    before = or11.cash()
    or11.bank.line("tile A 45")
    assert changes(before, or11.cash()) == {"A": -45, "bank": 45}


def test_fee_the_treasury_cannot_pay_is_refused(or11):
    """§11.1.5: the fee is paid from the treasury 'at the moment the tile is laid'; A has 80."""
    or11.bank.line("choose Ann normal")
    or11.refused("tile A 90")


def test_zone_discount_20_percent_rounded_down(or11):
    """§11.1.5: a minor with Italian rights (J) pays 80 % in Italy; D E14: 45 -> 36, 90 -> 72.
    J 110 - 36 = 74; then 74 - 72 = 2."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:8]:             # A .. H
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("tile J 45 --with zone")     # 45 x 0.8 = 36
    assert changes(before, or11.cash()) == {"J": -36, "bank": 36}
    or11.bank.line("tile J 90 --with zone")     # 90 x 0.8 = 72: J 74 -> 2
    assert or11.cash()["J"] == 2


def test_zone_discount_refused_without_those_rights(or11):
    """§11.1.5: only rights in Spain/Portugal, Italy, Scandinavia or Russia give 20 %; A is UK."""
    or11.bank.line("choose Ann normal")
    or11.refused("tile A 45 --with zone")


def test_minor_f_pays_two_thirds_rounded_down(or11):
    """§15.6: F multiplies the fee by 0.67 and rounds down: 45 -> 30.15 -> 30 (D E14);
    F 100 - 30 = 70; then 75 -> 50.25 -> 50: F 20."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:5]:             # A .. E
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("tile F 45 --with ef")
    assert changes(before, or11.cash()) == {"F": -30, "bank": 30}
    or11.bank.line("tile F 75 --with ef")
    assert or11.cash()["F"] == 20


def test_minor_f_has_no_zone_to_combine(or11):
    """§11.1.5: F (France/Belgium rights) has no 20 % zone, so no 50 %."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:5]:
        or11.first_turn(corp)
    or11.refused("tile F 45 --with zone,ef")


def test_ef_refused_for_other_minors(or11):
    """§15.5/§15.6: only Minor E or F (or their major) have the 0.67 ability; A has not."""
    or11.bank.line("choose Ann normal")
    or11.refused("tile A 45 --with ef")


def test_minor_e_in_a_zone_pays_half_rounded_down(or11):
    """§11.1.5 (and D 0.1 #3): E with Russian rights pays 50 % in Russia, rounded in its favour:
    45 -> 22.5 -> 22 (the rulebook's own example); 90 -> 45. E 110 - 22 - 45 = 43."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:4]:             # A .. D
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("tile E 45 --with zone,ef")
    assert changes(before, or11.cash()) == {"E": -22, "bank": 22}
    or11.bank.line("tile E 90 --with zone,ef")
    assert or11.cash()["E"] == 43


def test_minor_e_outside_a_zone_pays_two_thirds(or11):
    """§15.5: E alone: 60 x 0.67 = 40.2 -> 40; E 110 - 40 = 70."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:4]:
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("tile E 60 --with ef")
    assert changes(before, or11.cash()) == {"E": -40, "bank": 40}


def test_cross_water_tile_fees(or11):
    """§11.1.6: a ferry adds £5 x its distance, sea zones £10 each: A 80 - 10 (ferry 2) = 70;
    then a £20 hex across one sea zone: 20 + 10 = 30 -> A 40."""
    or11.bank.line("choose Ann normal")
    before = or11.cash()
    or11.bank.line("tile A 0 --with ferry=2")
    assert changes(before, or11.cash()) == {"A": -10, "bank": 10}
    or11.bank.line("tile A 20 --with sea=1")
    assert or11.cash()["A"] == 40


def test_zone_discount_leaves_the_water_fee_whole(or11):
    """D §18 #29 / §11.1.5-11.1.6: the 20 % is on the terrain fee only: L (Italy) lays a £45 hex
    across a ferry of distance 1: 36 + 5 = 41; L 110 - 41 = 69."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:10]:            # A .. K
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("tile L 45 --with zone,ferry=1")
    assert changes(before, or11.cash()) == {"L": -41, "bank": 41}


def test_patronage_on_a_tile_pays_the_treasury(or11):
    """§11.1.8: the bank pays the patronage amount into the treasury: A 80 + 50 = 130."""
    or11.bank.line("choose Ann normal")
    before = or11.cash()
    or11.bank.line("tile A 0 --patronage 50")
    assert changes(before, or11.cash()) == {"A": 50, "bank": -50}


# =========================================================================== MAIN: tokens

def test_token_costs_its_20_slot_once_an_or(or11):
    """§11.2 / D 7.2: the second token is £20 (C 100 -> 80); one token per OR, and a minor has
    only two (the home one is down)."""
    or11.bank.line("choose Ann first")
    before = or11.cash()
    or11.bank.line("token C")
    assert changes(before, or11.cash()) == {"C": -20, "bank": 20}
    or11.refused("token C")


def test_token_ferry_surcharge(or11):
    """§11.2.1: a ferry adds £20 x its distance: D 130 - (20 + 20) = 90."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:3]:
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("token D --with ferry=1")
    assert changes(before, or11.cash()) == {"D": -40, "bank": 40}


def test_token_sea_surcharge(or11):
    """§11.2.1: £40 per sea zone crossed: H 110 - (20 + 2 x 40) = 10."""
    or11.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:7]:             # A .. G
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("token H --with sea=2")
    assert changes(before, or11.cash()) == {"H": -100, "bank": 100}


def test_token_the_treasury_cannot_pay_is_refused(or11):
    """§11.2: 'If the RR's treasury has insufficient cash to pay the fees, the token may not be
    placed': A has 80 < 20 + 2 x 40 = 100 (no president top-up for tokens)."""
    or11.bank.line("choose Ann normal")
    or11.refused("token A --with sea=2")


def test_wien_waives_the_slot_not_the_sea_and_then_pays_no_more(or11):
    """§14.3: the owner of Wien Südbahnhof (Cy) places a token of his own RR free of the slot cost
    (the sea surcharge, §11.2.1, is still due); not for Ben's A (§6.1: only for a RR owned by the
    private's owner). §6.1: an exercised private is removed, so it pays nothing at OR 1.2:
    E 110 - 40 (one sea zone) = 70; its 2+2: E pays 70, Cy 30.
    Cy: 990 - 20 (B's 2+2) - 30 (E's) - 20 (KSS's) = 920; OR 1.2: + CCTC 15 + BB 25 = 960."""
    or11.bank.line("choose Ann normal")
    or11.refused("token A --with wien")
    for corp in MAIN_ORDER[:4]:             # A .. D
        or11.first_turn(corp)
    before = or11.cash()
    or11.bank.line("token E --with wien,sea=1")
    assert changes(before, or11.cash()) == {"E": -40, "bank": 40}
    for corp in MAIN_ORDER[4:]:
        or11.first_turn(corp)
    assert or11.status()["round"] == "OR 1.2"
    assert or11.cash()["Cy"] == 960


def test_steps_go_in_order(or12):
    """§11: lay track, place token, run trains, pay ... in that order. D runs first (half £20:
    D 30 + 10 = 40, Ben + 10), then can neither lay a tile nor place a token (it could pay 20);
    K places its token (50 - 20 = 30) and then may not lay a tile."""
    or12.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:3]:             # A B C
        or12.idle_turn(corp)
    before = or12.cash()
    or12.bank.line("half D 20")
    assert changes(before, or12.cash()) == {"D": 10, "Ben": 10, "bank": -20}
    or12.refused("tile D 0")
    or12.refused("token D")
    or12.bank.line("done D")
    for corp in MAIN_ORDER[4:9]:            # E F G H J
        or12.idle_turn(corp)
    or12.bank.line("token K")
    assert or12.cash()["K"] == 30
    or12.refused("tile K 0")


# =========================================================================== MAIN: dividends

def test_minor_k_runs_50_half_pays(or12):
    """§11.4 Example 1: Minor K runs £50: its treasury gets 25 and its owner (Ben) 25."""
    or12.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:9]:             # A .. J
        or12.idle_turn(corp)
    before = or12.cash()
    or12.bank.line("half K 50")             # K 50 -> 75, Ben 1000 -> 1025
    assert changes(before, or12.cash()) == {"K": 25, "Ben": 25, "bank": -50}
    or12.bank.line("done K")
    assert or12.cash()["Ben"] == 1025 and or12.cash()["K"] == 75


def test_minor_may_only_half_pay(or12):
    """§11.4: half pay is 'the only option a minor may take'; £40: A 0 + 20, Ben + 20."""
    or12.bank.line("choose Ann normal")
    or12.refused("pay A 40")
    or12.refused("withhold A 40")
    before = or12.cash()
    or12.bank.line("half A 40")
    assert changes(before, or12.cash()) == {"A": 20, "Ben": 20, "bank": -40}


def test_regional_full_pay_with_both_25s_in_its_treasury(or12):
    """§11.4: GWR pays £70: Ben (50 %) 35; its treasury holds 50 % (two 25 %) and, as one recipient
    (rounding per recipient on its whole percentage), gets 35: GWR 0 -> 35. Bank out 70."""
    or12.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:12]:
        or12.idle_turn(corp)
    before = or12.cash()
    or12.bank.line("pay GWR 70")
    assert changes(before, or12.cash()) == {"Ben": 35, "GWR": 35, "bank": -70}


def test_regional_half_pay_rounds_each_recipient_up(or12):
    """§11.4: GWR half-pays £70: keeps 35; of 35, Ben's 50 % is 17.5 -> 18 and the treasury's 50 %
    17.5 -> 18: GWR 0 + 35 + 18 = 53. Bank out 71."""
    or12.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:12]:
        or12.idle_turn(corp)
    before = or12.cash()
    or12.bank.line("half GWR 70")
    assert changes(before, or12.cash()) == {"Ben": 18, "GWR": 53, "bank": -71}


def test_regional_half_pay_small_revenue(or12):
    """§11.4: KSS half-pays £30: keeps 15; of 15, Cy (50 %) 7.5 -> 8, its treasury (50 %) 7.5 -> 8:
    KSS 0 + 15 + 8 = 23. Bank out 31."""
    or12.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:13]:
        or12.idle_turn(corp)
    before = or12.cash()
    or12.bank.line("half KSS 30")
    assert changes(before, or12.cash()) == {"Cy": 8, "KSS": 23, "bank": -31}


def test_regional_withholds(or12):
    """§11.4: withholding puts the whole revenue in the treasury: GWR 0 + 70."""
    or12.bank.line("choose Ann normal")
    for corp in MAIN_ORDER[:12]:
        or12.idle_turn(corp)
    before = or12.cash()
    or12.bank.line("withhold GWR 70")
    assert changes(before, or12.cash()) == {"GWR": 70, "bank": -70}


# =========================================================================== the MAJOR table
MAJOR_ORDER = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M",
               "GWR", "KSS", "PLM", "OU", "BEL", "MIDI", "SB", "MAV", "SFAI", "SFR", "MZA", "CHN",
               "RCP", "BJV", "DSJ", "MSP", "MKV", "WW"]
# OR 1.1: income Ann 240 + 30 = 270, Ben 180 + 40 = 220, Cy 160 + 50 = 210.
# The 2+2s: A 80 (Ben +20: 200), B 80 (Cy +20: 190); GWR, KSS 170 -> 70; WW 350 -> 250; the rest
# have 100 or 110. OR 1.2 income: Ann 300, Ben 240, Cy 240.


@pytest.fixture(scope="module")
def major_or11() -> Table:
    t = Table()
    t.play(MAIN_AUCTION + MAIN_CONCESSIONS + MAJOR_SR1)
    return t


@pytest.fixture(scope="module")
def major_or12(major_or11) -> Table:
    t = major_or11.copy()
    t.bank.line("choose Ann normal")
    for corp in MAJOR_ORDER:
        t.first_turn(corp)
    return t


def test_major_phase_opening(major_or11):
    t = major_or11.copy()
    cash = t.cash()
    assert t.status()["round"] == "OR 1.1"
    assert {k: cash[k] for k in ("Ann", "Ben", "Cy", "GWR", "KSS", "WW", "K")} == \
        {"Ann": 270, "Ben": 220, "Cy": 210, "GWR": 170, "KSS": 170, "WW": 350, "K": 130}
    t.conserved()


def test_no_level_3_in_the_first_or_even_in_the_major_phase(major_or11):
    """§11.6 / §8.3: level 3 'never in the first OR of the game', even in the Major phase.
    WW (350) buys its 2+2 (-> 250) and could afford a 3 (200) but may not."""
    t = major_or11.copy()
    t.bank.line("choose Ann normal")
    for corp in MAJOR_ORDER[:-1]:
        t.first_turn(corp)
    t.refused("train WW 3")                 # before its 2+2 as well (§11.6.1)
    t.bank.line("train WW 2+2")
    assert t.cash()["WW"] == 250
    t.refused("train WW 3")
    t.refused("train WW 3+3")


def ww_in_or_1_2(major_or12) -> Table:
    """MAJOR, OR 1.2, WW's turn, after it withheld £300: 250 + 300 = 550 (§11.4)."""
    t = major_or12.copy()
    assert t.cash()["WW"] == 250
    t.bank.line("choose Ann normal")
    for corp in MAJOR_ORDER[:-1]:
        t.idle_turn(corp)
    t.bank.line("withhold WW 300")
    assert t.cash()["WW"] == 550
    return t


def test_major_phase_or_1_2_sells_a_3_for_200(major_or12):
    """§8.3/§11.6: in OR 1.2 of the Major phase a level 3 may be bought; §11.6.4: 'A 3 train only
    costs £200, whereas a 3+3 costs £225'; the spec: `train CORP 3` £200. WW 550 -> 350."""
    t = ww_in_or_1_2(major_or12)
    before = t.cash()
    t.bank.line("train WW 3")
    assert changes(before, t.cash()) == {"WW": -200, "bank": 200}
    assert sorted(t.company("WW")["trains"]) == ["2+2", "3"]


def test_major_phase_train_limit_2(major_or12):
    """§5.2: a regional may own two trains in phases 2-3. WW buys a 3+3 (£225: 550 -> 325); another
    level 3 (affordable: 325 >= 225) would be its third train."""
    t = ww_in_or_1_2(major_or12)
    before = t.cash()
    t.bank.line("train WW 3+3")
    assert changes(before, t.cash()) == {"WW": -225, "bank": 225}
    t.refused("train WW 3+3")
    t.refused("train WW 3")


def test_k_mail_is_40_once_phase_3_began(major_or12):
    """§5.2: the first level 3 starts Train Phase 3; §15.10: K's mail is then £40 an OR.
    WW buys a 3+3 in OR 1.2; SR 2 (Ann first: Cy acted last in SR 1, D 11.7) is all passes;
    OR 2.1 pays K 40: K 50 (OR 1.2) -> 90. The privates pay again: Ann 300 + 30 = 330."""
    t = ww_in_or_1_2(major_or12)
    t.bank.line("train WW 3+3")
    t.bank.line("done WW")
    assert t.status()["round"] == "SR 2"
    assert t.cash()["K"] == 50
    t.play("""
pass Ann
pass Ben
pass Cy
""")
    assert t.status()["round"] == "OR 2.1"
    assert t.cash()["K"] == 90
    assert t.cash()["Ann"] == 330


def test_regional_zone_discount_then_president_tops_up(major_or11):
    """§11.1.5: SFAI (Italian home, so Italian rights, §11.1.4) pays 80 %: 45 -> 36, SFAI 110 -> 74;
    its 2+2 (§11.6.1): SFAI pays 74, Ann pays 26 (270 -> 244: none of Ann's earlier companies needed
    her: C, F 100; J, M 110; PLM, MIDI 100)."""
    t = major_or11.copy()
    t.bank.line("choose Ann normal")
    for corp in MAJOR_ORDER[:MAJOR_ORDER.index("SFAI")]:
        t.first_turn(corp)
    before = t.cash()
    assert before["Ann"] == 270
    t.bank.line("tile SFAI 45 --with zone")
    assert t.cash()["SFAI"] == 74
    t.bank.line("train SFAI 2+2")
    assert changes(before, t.cash()) == {"SFAI": -110, "Ann": -26, "bank": 136}


def test_rulebook_gwr_full_pay_example(major_or12):
    """§11.4 example: GWR runs £70, pays in full; A (Ben, 50 %) 35; B (Cy, 25 %) 17.5 -> 18; the
    treasury's 25 % 17.5 -> 18 (GWR 70 -> 88). Bank out 71 (D E1)."""
    t = major_or12.copy()
    t.bank.line("choose Ann normal")
    for corp in MAJOR_ORDER[:12]:
        t.idle_turn(corp)
    before = t.cash()
    assert (before["Ben"], before["Cy"], before["GWR"]) == (240, 240, 70)
    t.bank.line("pay GWR 70")
    assert changes(before, t.cash()) == {"Ben": 35, "Cy": 18, "GWR": 18, "bank": -71}


def test_rulebook_kss_half_pay_example(major_or12):
    """§11.4 example 2: KSS runs £70, half: the treasury gets 35 + 8.75 -> 9 = 44 (70 -> 114);
    A (Cy, 50 %) 17.5 -> 18; B (Ben, 25 %) 8.75 -> 9. Bank out 71 (D E2)."""
    t = major_or12.copy()
    t.bank.line("choose Ann normal")
    for corp in MAJOR_ORDER[:13]:
        t.idle_turn(corp)
    before = t.cash()
    t.bank.line("half KSS 70")
    assert changes(before, t.cash()) == {"KSS": 44, "Cy": 18, "Ben": 9, "bank": -71}


# Ann ends the auction with 1800 - bid - 4 x 120 - 3 x 20 = 1260 - bid.
# OR 1.1 income: Ben RSC 5 + WSB 10 + SHTC 15 + WCF 15 + BB 25 = 70 (980 -> 1050); Cy PC 5 + BBBT 10
# + CCTC 15 + HML 20 = 50 (1040 -> 1090); Ann SML 0. K 110 + 20 = 130. C is Ben's.
# A (Cy's) operates first: 80 -> 0, Cy pays 20 (1090 -> 1070); then B.
POOR_ORDER = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M"]


def poor_table(bid: int) -> Table:
    t = Table()
    t.play(poor_auction(bid))
    t.bank.line("choose Ben normal")
    t.first_turn("A")
    return t


@pytest.fixture(scope="module")
def poor40() -> Table:
    return poor_table(1220)       # Ann 1260 - 1220 = 40


@pytest.fixture(scope="module")
def poor10() -> Table:
    return poor_table(1250)       # Ann 10


def test_poor_tables_reach_b(poor40, poor10):
    for game, ann in ((poor40, 40), (poor10, 10)):
        t = game.copy()
        cash = t.cash()
        assert (cash["Ann"], cash["Ben"], cash["Cy"], cash["A"], cash["B"], cash["K"]) == \
            (ann, 1050, 1070, 0, 80, 130)
        t.conserved()


def test_e13_token_then_tile_refunded_then_president_pays(poor40):
    """§11.6.5 / D E13 with Ann holding £40: B 80 - 30 (tile) - 20 (token) = 30; 30 + 40 < 100, so
    the token is refunded (50; 50 + 40 = 90 < 100), then the tile (80); Ann pays the 20 missing.
    In all: B 80 -> 0, Ann 40 -> 20, the bank + 100 (the 2+2 only; fees refunded)."""
    t = poor40.copy()
    before = t.cash()
    t.bank.line("tile B 30")
    t.bank.line("token B")
    assert t.cash()["B"] == 30
    t.bank.line("train B 2+2")
    assert changes(before, t.cash()) == {"B": -80, "Ann": -20, "bank": 100}
    assert t.company("B")["trains"] == ["2+2"]
    assert t.company("B")["president"] == "Ann"


def test_token_refund_alone_can_suffice(poor40):
    """§11.6.5: refund the token first; the tile only 'if that does not prevent the insolvency'.
    B 80 - 5 - 20 = 55; 55 + 40 = 95 < 100 -> token refunded: 75; 75 + 40 >= 100: Ann pays 25.
    B 80 -> 0, Ann 40 -> 15, bank + 5 (tile kept) + 100."""
    t = poor40.copy()
    before = t.cash()
    t.bank.line("tile B 5")
    t.bank.line("token B")
    t.bank.line("train B 2+2")
    assert changes(before, t.cash()) == {"B": -80, "Ann": -25, "bank": 105}


def test_no_refund_when_the_president_can_pay(poor40):
    """§11.6.5: B 80 - 10 = 70; 70 + 40 >= 100, so no refund: Ann pays 30 (40 -> 10)."""
    t = poor40.copy()
    before = t.cash()
    t.bank.line("tile B 10")
    t.bank.line("train B 2+2")
    assert changes(before, t.cash()) == {"B": -80, "Ann": -30, "bank": 110}


def test_e13_first_round_insolvency(poor10):
    """§11.6.5 / D E13 with Ann holding £10: token and tile refunded (B back to 80); 80 + 10 = 90
    < 100: Ann's 10 goes to B, B gets its 2+2 and its 90 goes to the bank (D 12.14 [I]; D = 10);
    the charter goes to the Open Market and the bank pays Ann £120.
    B 80 -> 0; Ann 10 -> 0 -> 120; bank + 90 - 120 = -30."""
    t = poor10.copy()
    before = t.cash()
    t.bank.line("tile B 30")
    t.bank.line("token B")
    t.bank.line("train B 2+2")
    assert changes(before, t.cash()) == {"B": -80, "Ann": 110, "bank": -30}
    b = t.company("B")
    assert b["trains"] == ["2+2"]
    assert not b["president"]
    t.conserved()


def test_insolvent_minor_sits_out_then_sells_for_face_plus_d(poor10):
    """§11.6.5 steps 3-4: B does not operate while nobody owns it; in SR 2 it sells for £120 + D (10)
    = £130 (D 12.14 [I]: to the bank), the buyer becoming its president."""
    t = poor10.copy()
    t.bank.line("tile B 30")
    t.bank.line("token B")
    t.bank.line("train B 2+2")
    t.bank.line("done B", ok=None)          # its turn may already be over
    for corp in POOR_ORDER[2:]:
        t.first_turn(corp)
    assert t.status()["round"] == "OR 1.2"
    t.bank.line("choose Ben normal")
    t.idle_turn("A")
    t.refused("withhold B 0")               # B is skipped: C operates
    for corp in POOR_ORDER[2:]:
        t.idle_turn(corp)
    assert t.status()["round"] == "SR 2"
    # SR 2 begins with Cy (the player after Ben, the last to act in SR 1, D 11.7).
    # Cy: 1090 - 20 (A's 2+2) + 50 (OR 1.2 income) = 1120.
    before = t.cash()
    assert before["Cy"] == 1120 and before["B"] == 0
    t.bank.line("buy Cy B")
    assert changes(before, t.cash()) == {"Cy": -130, "bank": 130}
    assert t.company("B")["president"] == "Cy"
    t.conserved()
