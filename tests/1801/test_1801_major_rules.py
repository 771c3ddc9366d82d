"""1801 (18OE): the Major railroad phase (expansion, major stock rounds, major dividends, issuing),
played on the engine as typed at the table (table_1801.py).

Every number asserted here is worked BY HAND from the rules, never read off the program:
the rulebook shared/seeds/002_c09d1f5beee78cce.txt ("§x"; it wins where it states a rule) and the
digest shared/rules/1801.md ("D x"; its 0.1 corrections override the rest; "E n" are its edge
cases). The grammar is /tmp/1801-spec.md and /tmp/1801-spec-part2.md. The working is in comments.

The stock market (D 5.1 [S]), row 0 on top, (row, col); red major par squares in column 2:
    row 0:  -  110 120 135 150 ...          row 4: 70 75 80 90 100 110 120 135 150
    row 1:  90 100 110 120 135 ...         row 5: 65 70 75 80 90 100 110
    row 2:  80  90 100 110 120 ...         row 6: 60 65 70 75 80
    row 3:  75  80  90 100 110 ...         row 7: 50 60 65 70
Moves (§4.4): UP (top row: RIGHT), DOWN (none below: stays), RIGHT (none right: UP), LEFT (none
left: DOWN). Major par (§9.3, D 5.2): REGIONAL 60/65/70/75/80/90 -> MAJOR 75/80/90/100/110/120.

Tables (positions_1801.py's games on the engine, each built once per module and per xdist worker; every
test works on a copy):

* S2: the MAJOR table of test_1801_operating_rules.py (the Major phase begins in SR 1 when the 18th
  regional floats), OR 1.1 with the reserved 2+2s only, OR 1.2 where every regional pays £400
  (within what a 2+2 can earn) so the players have cash; SR 2 begins, Ann first.
* S2X: S2 plus ten SR 2 turns: Ann expands WW and buys it up to 60 %, Ben expands GWR buying its
  secondary first, Ben buys KSS's last secondary and expands it (taking its presidency), Cy buys.
* OR21: S2X, a few more SR 2 turns (a sale of WW, a sale of KSS, Ann's double-price buy), then
  OR 2.1 up to the first major's turn.
"""

from __future__ import annotations

from positions_1801 import (MINORS, OR21_CASH, OR21_HOLDINGS, REGIONALS_LEFT, S2X_CASH, S2X_HOLDINGS, S2_CASH,
                            MAIN_AUCTION as AUCTION, MAIN_CONCESSIONS as CONCESSIONS)
from positions_1801 import copied, or21_game, s2_game, s2x_game  # noqa: F401  (fixtures, used by name)
from table_1801 import Table, changes

BANK_TOTAL = 54_000  # §3.1


# (the table: table_1801.py; the shared openings and these tables: positions_1801.py)


s2 = copied("s2_game")
s2x = copied("s2x_game")
or21 = copied("or21_game")


# =========================================================================== the tables themselves

def test_sr2_opens_with_the_worked_cash(s2):
    s = s2.status()
    assert s["round"] == "SR 2"
    cash = s2.cash()
    assert {k: cash[k] for k in S2_CASH} == S2_CASH
    assert s2.company("WW")["kind"] == "regional"
    assert s2.holdings("KSS") == {"Ann": 0, "Ben": 25, "Cy": 50, "ipo": 25, "pool": 0}
    s2.conserved()


def test_s2x_holdings_and_cash(s2x):
    cash = s2x.cash()
    assert {k: cash[k] for k in S2X_CASH} == S2X_CASH
    for sym, held in S2X_HOLDINGS.items():
        assert s2x.holdings(sym) == held, sym
        assert s2x.company(sym)["kind"] == "major"
    assert s2x.company("WW")["president"] == "Ann"
    assert s2x.company("GWR")["president"] == "Ben"     # 30 = 30: a tie does not move it (§10.3)
    assert s2x.company("KSS")["president"] == "Ben"
    assert s2x.market("WW") == ([0, 2], 120)
    assert s2x.market("GWR") == ([3, 2], 90)
    assert s2x.market("KSS") == ([3, 2], 90)
    s2x.conserved()


def test_or21_reaches_the_majors(or21):
    s = or21.status()
    assert s["round"] == "OR 2.1"
    cash = or21.cash()
    assert {k: cash[k] for k in OR21_CASH} == OR21_CASH
    for sym, held in OR21_HOLDINGS.items():
        assert or21.holdings(sym) == held, sym
    assert or21.market("WW") == ([1, 2], 110)
    assert or21.market("GWR") == ([3, 2], 90)
    assert or21.market("KSS") == ([4, 2], 80)
    or21.conserved()


# =========================================================================== expansion (§9.3, E10)

def test_president_expands_then_buys_one_at_the_major_par(s2):
    """§9.3 / E10: Ann (WW's president, 50 %) expands WW: par REGIONAL 90 -> MAJOR 120, its marker
    on the red square (0,2); 50 % -> 20 %, Ben's and Cy's 25 % -> 10 %, six new 10 % in the treasury
    (20 + 10 + 10 + 60 = 100). No money moves. Step 5: she buys one at 120, paid to WW (250 -> 370);
    one only. Then Ben buys one at the par 120 too (the rest of the SR, §10.2, §10.7)."""
    before = s2.cash()
    s2.bank.line("expand Ann WW")
    assert changes(before, s2.cash()) == {}
    ww = s2.company("WW")
    assert ww["kind"] == "major" and ww["par"] == 120 and ww["president"] == "Ann"
    assert s2.market("WW") == ([0, 2], 120)
    assert s2.holdings("WW") == {"Ann": 20, "Ben": 10, "Cy": 10, "ipo": 60, "pool": 0}
    before = s2.cash()
    s2.bank.line("buy Ann WW")
    assert changes(before, s2.cash()) == {"Ann": -120, "WW": 120}
    assert s2.holdings("WW") == {"Ann": 30, "Ben": 10, "Cy": 10, "ipo": 50, "pool": 0}
    s2.refused("buy Ann WW")                # one share in the action
    before = s2.cash()
    s2.bank.line("buy Ben WW")
    assert changes(before, s2.cash()) == {"Ben": -120, "WW": 120}
    assert s2.holdings("WW") == {"Ann": 30, "Ben": 20, "Cy": 10, "ipo": 40, "pool": 0}
    assert s2.market("WW") == ([0, 2], 120)  # buying moves nothing (§4.4)
    s2.conserved()


def test_president_may_expand_without_buying(s2):
    """§9.3 step 5 is optional for the president: Ann expands WW and ends her turn; Ben acts next."""
    s2.bank.line("expand Ann WW")
    s2.bank.line("pass Ann")
    before = s2.cash()
    s2.bank.line("buy Ben WW")
    assert changes(before, s2.cash()) == {"Ben": -120, "WW": 120}
    assert s2.holdings("WW") == {"Ann": 20, "Ben": 20, "Cy": 10, "ipo": 50, "pool": 0}
    assert s2.company("WW")["president"] == "Ann"   # 20 = 20: no change (§10.3: 'more')


def test_president_expands_buying_the_secondary_first(s2):
    """§9.3 step 1 / E10 #5: Ben (GWR's president) first buys the 25 % left in its treasury at the
    regional par 70 (to GWR: 170 -> 240), then expands: Ben 50 + 25 % -> 20 + 10 = 30 %, Cy 10 %,
    ipo 60 %; par 70 -> 90 at (3,2). Having bought in step 1, he may not buy in step 5."""
    s2.bank.line("pass Ann")
    before = s2.cash()
    s2.bank.line("expand Ben GWR --secondary")
    assert changes(before, s2.cash()) == {"Ben": -70, "GWR": 70}
    assert s2.holdings("GWR") == {"Ann": 0, "Ben": 30, "Cy": 10, "ipo": 60, "pool": 0}
    gwr = s2.company("GWR")
    assert gwr["kind"] == "major" and gwr["par"] == 90 and gwr["president"] == "Ben"
    assert s2.market("GWR") == ([3, 2], 90)
    s2.refused("buy Ben GWR")
    before = s2.cash()
    s2.bank.line("buy Cy GWR")              # the major par 90, to GWR
    assert changes(before, s2.cash()) == {"Cy": -90, "GWR": 90}
    assert s2.holdings("GWR") == {"Ann": 0, "Ben": 30, "Cy": 20, "ipo": 50, "pool": 0}


def test_secondary_option_needs_a_secondary_in_the_treasury(s2):
    """§9.3 step 1: 'if ... any shares remain in its treasury': WW's two 25 % are Ben's and Cy's."""
    s2.refused("expand Ann WW --secondary")


def test_holder_of_both_secondaries_must_buy_and_takes_the_presidency(s2):
    """§9.3 step 5 / E10 #6: Ben buys KSS's last 25 % (par 70, to KSS: 170 -> 240) and so holds both
    secondaries. He expands KSS (not with --secondary: president only): par 70 -> 90 at (3,2); Ben
    10 + 10 %, Cy 20 %; Ben must buy one at 90 (to KSS: 240 -> 330): Ben 30 % > Cy 20 % -> Ben is
    president; Cy's 20 % certificate is swapped for two of Ben's 10 % (§10.3): Ben's KSS
    certificates stay 2 (the 20 % + a 10 %), Cy's go from 1 to 2."""
    s2.bank.line("pass Ann")
    before = s2.cash()
    s2.bank.line("buy Ben KSS")
    assert changes(before, s2.cash()) == {"Ben": -70, "KSS": 70}
    assert s2.holdings("KSS") == {"Ann": 0, "Ben": 50, "Cy": 50, "ipo": 0, "pool": 0}
    s2.bank.line("pass Cy")
    s2.bank.line("pass Ann")
    s2.refused("expand Ben KSS --secondary")    # step 1 is the president's only, and none is left
    ben_certs, cy_certs = s2.certs("Ben"), s2.certs("Cy")
    before = s2.cash()
    s2.bank.line("expand Ben KSS")
    assert changes(before, s2.cash()) == {"Ben": -90, "KSS": 90}
    assert s2.holdings("KSS") == {"Ann": 0, "Ben": 30, "Cy": 20, "ipo": 50, "pool": 0}
    kss = s2.company("KSS")
    assert kss["kind"] == "major" and kss["president"] == "Ben" and kss["par"] == 90
    assert s2.market("KSS") == ([3, 2], 90)
    assert (s2.certs("Ben"), s2.certs("Cy")) == (ben_certs, cy_certs + 1)
    s2.refused("buy Ben KSS")               # his step-5 share is bought


def test_expansion_refused_to_a_holder_of_one_secondary(s2):
    """§9.3: only the president or a player owning BOTH secondaries: Ben holds one of KSS and of WW,
    Cy one of GWR and of WW."""
    s2.bank.line("pass Ann")
    s2.refused("expand Ben KSS")
    s2.refused("expand Ben WW")
    s2.bank.line("pass Ben")
    s2.refused("expand Cy GWR")
    s2.refused("expand Cy WW")


def test_expansion_refused_for_a_minor_and_others_regionals(s2):
    """§9.3: 'A major may only be floated by expanding a regional'; Ann's Minor C is not one; Ben's
    OU is not Ann's."""
    s2.refused("expand Ann C")
    s2.refused("expand Ann OU")


def test_expansion_refused_in_the_regional_minor_phase():
    """§5.1 / §8.2: no majors before the Major phase (12 minors and 18 regionals floated). SR 1 of the
    MAIN opening with two regionals parred: Ben, GWR's president, may not expand it."""
    t = Table()
    t.play(AUCTION + CONCESSIONS + """
float Cy L IT
float Ann M SP
par Ben GWR 70
par Cy KSS 60
pass Ann
""")
    t.refused("expand Ben GWR")
    t.refused("expand Ben GWR --secondary")


def test_expansion_refused_in_an_operating_round(or21):
    """§9.3: floating a major is a stock action (§10); Ann's PLM may not expand in OR 2.1."""
    or21.refused("expand Ann PLM")


def test_expanding_president_sells_other_railroads_then_buys(s2x):
    """§9.3 steps 4-5: Ben expands OU (par 60 -> 75 at (5,2)); he may sell shares of OTHER RRs: his
    WW 10 % at 120 (WW DOWN (0,2) -> (1,2) 110), but not the new major; then buy one OU at 75 (to
    OU, 200 -> 275)."""
    s2x.bank.line("expand Ben OU")
    assert s2x.market("OU") == ([5, 2], 75)
    assert s2x.holdings("OU") == {"Ann": 0, "Ben": 20, "Cy": 0, "ipo": 80, "pool": 0}
    s2x.refused("sell Ben OU 1")
    before = s2x.cash()
    s2x.bank.line("sell Ben WW 1")
    assert changes(before, s2x.cash()) == {"Ben": 120, "bank": -120}
    assert s2x.market("WW") == ([1, 2], 110)
    before = s2x.cash()
    s2x.bank.line("buy Ben OU")
    assert changes(before, s2x.cash()) == {"Ben": -75, "OU": 75}
    assert s2x.holdings("OU") == {"Ann": 0, "Ben": 30, "Cy": 0, "ipo": 70, "pool": 0}
    s2x.conserved()


# =========================================================================== selling and buying (§10.1, §10.2)

def test_regionals_and_minors_are_never_sold(s2):
    """§10.1: 'A player may never sell a share of a regional'; minors are not shares at all.
    (Train Phase 2: selling is otherwise allowed.)"""
    s2.refused("sell Ann PLM 1")
    s2.refused("sell Ann C 1")
    s2.bank.line("pass Ann")
    s2.refused("sell Ben KSS 1")
    s2.refused("sell Ben WW 1")             # WW is still a regional


def test_sell_then_buy_and_the_om_buy_pays_the_bank(s2x):
    """§10 (a): sell, then buy one. Ben sells his WW 10 % at 120 (bank pays; DOWN to (1,2) 110; OM 10 %),
    may not buy WW back (§10.2: sold this SR), buys GWR at its par 90 (to GWR); a sale after the buy
    and a second buy are refused. Cy then buys the OM share at the share value 110, paid to the bank
    (WW's treasury unchanged, §10.2)."""
    before = s2x.cash()
    s2x.bank.line("sell Ben WW 1")
    assert changes(before, s2x.cash()) == {"Ben": 120, "bank": -120}
    assert s2x.market("WW") == ([1, 2], 110)
    assert s2x.holdings("WW") == {"Ann": 60, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 10}
    s2x.refused("buy Ben WW")
    s2x.refused("buy Ben WW --pool")
    before = s2x.cash()
    s2x.bank.line("buy Ben GWR")
    assert changes(before, s2x.cash()) == {"Ben": -90, "GWR": 90}
    s2x.refused("sell Ben KSS 1")
    s2x.refused("buy Ben KSS")
    before = s2x.cash()
    s2x.bank.line("buy Cy WW --pool")
    assert changes(before, s2x.cash()) == {"Cy": -110, "bank": 110}
    assert s2x.holdings("WW") == {"Ann": 60, "Ben": 0, "Cy": 30, "ipo": 10, "pool": 0}
    assert s2x.market("WW") == ([1, 2], 110)
    s2x.conserved()


def test_no_sale_after_a_buy(s2x):
    """§10 (a): sell THEN buy: once Ben bought (GWR at 90) he may not sell WW in the same action."""
    s2x.bank.line("buy Ben GWR")
    s2x.refused("sell Ben WW 1")


def test_sales_move_down_per_share_at_the_start_price_and_the_om_cap(s2x):
    """§10.1 / E5 / D 0.1 #1: GWR at (3,2) 90. Ben buys one (40 %), Cy buys one (40 %: a tie, Ben
    stays president). Cy sells 3 at the start price 90 each = 270 (not 90 + 80 + 75); DOWN x 3:
    (4,2) 80, (5,2) 75, (6,2) 70; OM 30 %. Ben sells his two 10 % at 70 = 140; DOWN: (7,2) 65, then
    no square below: stays 65; OM 50 %; Ben keeps the 20 % and the presidency (20 > Cy's 10).
    Cy's last share would put 60 % in the OM: refused; nor may he buy GWR again (§10.2)."""
    s2x.bank.line("buy Ben GWR")
    s2x.bank.line("buy Cy GWR")
    assert s2x.holdings("GWR") == {"Ann": 0, "Ben": 40, "Cy": 40, "ipo": 20, "pool": 0}
    assert s2x.company("GWR")["president"] == "Ben"
    s2x.bank.line("pass Ann")
    s2x.bank.line("pass Ben")
    before = s2x.cash()
    s2x.bank.line("sell Cy GWR 3")
    assert changes(before, s2x.cash()) == {"Cy": 270, "bank": -270}
    assert s2x.market("GWR") == ([6, 2], 70)
    s2x.bank.line("pass Ann")
    before = s2x.cash()
    s2x.bank.line("sell Ben GWR 2")
    assert changes(before, s2x.cash()) == {"Ben": 140, "bank": -140}
    assert s2x.market("GWR") == ([7, 2], 65)
    assert s2x.holdings("GWR") == {"Ann": 0, "Ben": 20, "Cy": 10, "ipo": 20, "pool": 50}
    assert s2x.company("GWR")["president"] == "Ben"
    s2x.refused("sell Cy GWR 1")
    s2x.refused("buy Cy GWR")
    s2x.conserved()


def test_treasury_shares_stay_at_par_for_the_rest_of_the_sr(s2x):
    """§10.2 / §10.7: while the par marker is up, a treasury share costs the par. Cy sells one KSS at
    90 (DOWN to (4,2) 80); Ben then buys a KSS treasury share at the par 90 (not 80), paid to KSS.
    Cy may not buy KSS again this SR."""
    s2x.bank.line("pass Ben")
    before = s2x.cash()
    s2x.bank.line("sell Cy KSS 1")
    assert changes(before, s2x.cash()) == {"Cy": 90, "bank": -90}
    assert s2x.market("KSS") == ([4, 2], 80)
    s2x.bank.line("pass Ann")
    before = s2x.cash()
    s2x.bank.line("buy Ben KSS")
    assert changes(before, s2x.cash()) == {"Ben": -90, "KSS": 90}
    assert s2x.holdings("KSS") == {"Ann": 0, "Ben": 40, "Cy": 10, "ipo": 40, "pool": 10}
    s2x.refused("buy Cy KSS")
    s2x.refused("buy Cy KSS --pool")


def test_sixty_percent_rule_and_the_presidents_double_price(s2x):
    """§10.2 / E8: Ben sells his WW 10 % at 120 (DOWN to (1,2) 110, OM 10 %). Ann holds 60 %: no
    treasury share for her; from the OM she pays 2 x 110 = 220 to the bank (70 %; no move). Cy (20 %)
    still buys the last treasury share at the par 120, paid to WW. At the end of SR 2 every WW share
    is with players: UP (1,2) -> (0,2) 120 (§10.7); GWR and KSS (treasury shares) stay at 90."""
    s2x.bank.line("sell Ben WW 1")
    s2x.bank.line("pass Cy")
    s2x.refused("buy Ann WW")
    before = s2x.cash()
    s2x.bank.line("buy Ann WW --pool")
    assert changes(before, s2x.cash()) == {"Ann": -220, "bank": 220}
    assert s2x.holdings("WW") == {"Ann": 70, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 0}
    assert s2x.market("WW") == ([1, 2], 110)
    s2x.bank.line("pass Ben")
    before = s2x.cash()
    s2x.bank.line("buy Cy WW")
    assert changes(before, s2x.cash()) == {"Cy": -120, "WW": 120}
    assert s2x.holdings("WW") == {"Ann": 70, "Ben": 0, "Cy": 30, "ipo": 0, "pool": 0}
    s2x.play("""
pass Ann
pass Ben
pass Cy
""")
    assert s2x.status()["round"] == "OR 2.1"
    assert s2x.market("WW") == ([0, 2], 120)
    assert s2x.market("GWR") == ([3, 2], 90)
    assert s2x.market("KSS") == ([3, 2], 90)


def test_sold_out_on_the_top_row_moves_right(s2x):
    """§4.4 / §10.7 / E6: Cy buys WW's last treasury share (par 120, to WW); all WW shares are with
    players at the end of SR 2; WW is on the top row (0,2): RIGHT to (0,3) 135."""
    s2x.bank.line("pass Ben")
    before = s2x.cash()
    s2x.bank.line("buy Cy WW")
    assert changes(before, s2x.cash()) == {"Cy": -120, "WW": 120}
    s2x.play("""
pass Ann
pass Ben
pass Cy
""")
    assert s2x.status()["round"] == "OR 2.1"
    assert s2x.market("WW") == ([0, 3], 135)
    assert s2x.market("GWR") == ([3, 2], 90)


# =========================================================================== majors operating (§11.4, §4.4)

def test_majors_operate_after_the_regionals_by_share_value(or21):
    """§11: after the minors and regionals, majors by share value: WW 110, then GWR 90, KSS 80."""
    or21.refused("withhold GWR 0")
    or21.refused("withhold KSS 0")
    or21.bank.line("pay WW 100")
    or21.bank.line("done WW")
    or21.refused("withhold KSS 0")
    or21.bank.line("pay GWR 50")
    or21.bank.line("done GWR")
    or21.bank.line("pay KSS 70")


def test_full_pay_equal_to_the_share_value_moves_right(or21):
    """§4.4: 'equal to or greater than its share value': WW (110) pays exactly 110 in full: Ann 70 %
    77, Cy 20 % 22, the treasury's 10 % 11 to WW (§11.4). Bank out 110. RIGHT (1,2) -> (1,3) 120.
    (1801 revenues are multiples of £10, so a full pay on 10 % shares never rounds; the rounding
    cases are the half pays below.)"""
    before = or21.cash()
    or21.bank.line("pay WW 110")
    assert changes(before, or21.cash()) == {"Ann": 77, "Cy": 22, "WW": 11, "bank": -110}
    assert or21.market("WW") == ([1, 3], 120)


def test_full_pay_below_the_share_value_does_not_move(or21):
    """§4.4: 0 < 100 < 110: no move. Ann 70, Cy 20, WW 10."""
    before = or21.cash()
    or21.bank.line("pay WW 100")
    assert changes(before, or21.cash()) == {"Ann": 70, "Cy": 20, "WW": 10, "bank": -100}
    assert or21.market("WW") == ([1, 2], 110)


def test_half_pay_compares_the_paid_half(or21):
    """§4.4 / E3: WW half-pays 230: keeps 115; 115 paid, rounded up per recipient on its whole
    percentage: Ann 70 % = 80.5 -> 81 (not 7 x 11.5 -> 7 x 12 = 84), Cy 23, WW 11.5 -> 12 (+115 =
    127). Bank out 231. The half 115 >= 110: RIGHT to (1,3) 120."""
    before = or21.cash()
    or21.bank.line("half WW 230")
    assert changes(before, or21.cash()) == {"Ann": 81, "Cy": 23, "WW": 127, "bank": -231}
    assert or21.market("WW") == ([1, 3], 120)


def test_half_pay_below_the_share_value_stays(or21):
    """§4.4 (the £165 example) / E3: WW half-pays 210: keeps 105; 105 < 110 paid out: no move (210
    in full would have moved it). Per recipient, rounded up: Ann 73.5 -> 74, Cy 21, WW 10.5 -> 11
    (+105 = 116). Bank out 211."""
    before = or21.cash()
    or21.bank.line("half WW 210")
    assert changes(before, or21.cash()) == {"Ann": 74, "Cy": 21, "WW": 116, "bank": -211}
    assert or21.market("WW") == ([1, 2], 110)


def test_withhold_moves_left(or21):
    """§4.4 / E4: WW withholds 300: all to the treasury; £0 paid: LEFT (1,2) -> (1,1) 100."""
    before = or21.cash()
    or21.bank.line("withhold WW 300")
    assert changes(before, or21.cash()) == {"WW": 300, "bank": -300}
    assert or21.market("WW") == ([1, 1], 100)


def to_kss(t: Table) -> None:
    """OR 2.1: WW pays 100 and GWR 50, neither moves (below 110 and 90)."""
    t.bank.line("pay WW 100")
    t.bank.line("done WW")
    t.bank.line("pay GWR 50")
    t.bank.line("done GWR")


def test_open_market_shares_pay_nobody(or21):
    """§11.4: KSS (80): Ben 30 %, Cy 10 %, treasury 50 %, OM 10 %. Pays 90: Ben 27, Cy 9, KSS 45, the
    OM's 9 to nobody: bank out 81. 90 >= 80: RIGHT (4,2) -> (4,3) 90."""
    to_kss(or21)
    before = or21.cash()
    or21.bank.line("pay KSS 90")
    assert changes(before, or21.cash()) == {"Ben": 27, "Cy": 9, "KSS": 45, "bank": -81}
    assert or21.market("KSS") == ([4, 3], 90)


def test_half_pay_with_treasury_and_open_market_shares(or21):
    """§11.4 / E3: KSS half-pays 170: keeps 85; of 85: Ben 26, Cy 9, the treasury 43 (KSS + 128);
    OM nothing. Bank out 163. The half 85 >= 80: RIGHT to (4,3) 90."""
    to_kss(or21)
    before = or21.cash()
    or21.bank.line("half KSS 170")
    assert changes(before, or21.cash()) == {"Ben": 26, "Cy": 9, "KSS": 128, "bank": -163}
    assert or21.market("KSS") == ([4, 3], 90)


# =========================================================================== issuing and redeeming (§11.7)

def test_issue_at_the_share_value_then_no_redeem(or21):
    """§11.7 / E24: GWR (90) pays 100 (Ben 40, Cy 30, GWR 30; RIGHT to (3,3) 100), then issues its 3
    treasury shares to the OM at 100 each = 300 from the bank (start price); DOWN x 3: (4,3) 90,
    (5,3) 80, (6,3) 75; OM 30 %. Buying back in the same turn is refused (buy OR sell)."""
    or21.bank.line("pay WW 100")
    or21.bank.line("done WW")
    before = or21.cash()
    or21.bank.line("pay GWR 100")
    assert changes(before, or21.cash()) == {"Ben": 40, "Cy": 30, "GWR": 30, "bank": -100}
    assert or21.market("GWR") == ([3, 3], 100)
    before = or21.cash()
    or21.bank.line("issue GWR 3")
    assert changes(before, or21.cash()) == {"GWR": 300, "bank": -300}
    assert or21.market("GWR") == ([6, 3], 75)
    assert or21.holdings("GWR") == {"Ann": 0, "Ben": 40, "Cy": 30, "ipo": 0, "pool": 30}
    or21.refused("redeem GWR 1")
    or21.conserved()


def test_issue_is_bound_by_the_open_market_cap(or21):
    """§11.7 / §10.1: KSS (80) has 50 % in its treasury and 10 % in the OM: issuing 5 would put 60 %
    there: refused. It pays 70 first (Ben 21, Cy 7, KSS 35; no move). Issuing 4 = 4 x 80 = 320;
    DOWN x 4: (5,2) 75, (6,2) 70, (7,2) 65, then stays; OM 50 %."""
    to_kss(or21)
    before = or21.cash()
    or21.bank.line("pay KSS 70")
    assert changes(before, or21.cash()) == {"Ben": 21, "Cy": 7, "KSS": 35, "bank": -63}
    or21.refused("issue KSS 5")
    before = or21.cash()
    or21.bank.line("issue KSS 4")
    assert changes(before, or21.cash()) == {"KSS": 320, "bank": -320}
    assert or21.market("KSS") == ([7, 2], 65)
    assert or21.holdings("KSS") == {"Ann": 0, "Ben": 30, "Cy": 10, "ipo": 10, "pool": 50}


def test_redeem_from_the_open_market_then_no_issue(or21):
    """§11.7: KSS buys back the OM's one share at the share value 80, paid to the bank (no move);
    the OM has no second share; issuing in the same turn is refused."""
    to_kss(or21)
    or21.bank.line("pay KSS 70")
    or21.refused("redeem KSS 2")
    before = or21.cash()
    or21.bank.line("redeem KSS 1")
    assert changes(before, or21.cash()) == {"KSS": -80, "bank": 80}
    assert or21.holdings("KSS") == {"Ann": 0, "Ben": 30, "Cy": 10, "ipo": 60, "pool": 0}
    assert or21.market("KSS") == ([4, 2], 80)
    or21.refused("issue KSS 1")


def test_treasury_shares_at_the_share_value_in_the_next_sr(or21):
    """§10.7: the major par markers go at the end of SR 2. OR 2.1: WW pays 100 (stays 110), GWR
    withholds (LEFT (3,2) -> (3,1) 80), KSS pays 70 (stays (4,2) 80). OR 2.2: WW first, then the two
    80s: KSS (column 2) before GWR (column 1: further right first); GWR withholds again: (3,0) 75.
    SR 3 (Ben first): Ben buys a GWR treasury share at the share value 75 (not the par 90), paid to
    GWR. Then OR 3.1: GWR withholds at (3,0): no square left -> DOWN to (4,0) 70 (E4)."""
    or21.play("""
pay WW 100
done WW
withhold GWR 0
done GWR
pay KSS 70
done KSS
""")
    assert or21.market("GWR") == ([3, 1], 80)
    assert or21.status()["round"] == "OR 2.2"
    or21.bank.line("choose Ann normal")
    for corp in MINORS + REGIONALS_LEFT:
        or21.idle_turn(corp)
    or21.bank.line("pay WW 100")
    or21.bank.line("done WW")
    or21.refused("withhold GWR 0")
    or21.bank.line("pay KSS 70")
    or21.bank.line("done KSS")
    or21.bank.line("withhold GWR 0")
    or21.bank.line("done GWR")
    assert or21.market("GWR") == ([3, 0], 75)
    assert or21.status()["round"] == "SR 3"
    before = or21.cash()
    or21.bank.line("buy Ben GWR")
    assert changes(before, or21.cash()) == {"Ben": -75, "GWR": 75}
    assert or21.holdings("GWR") == {"Ann": 0, "Ben": 50, "Cy": 30, "ipo": 20, "pool": 0}
    or21.play("""
pass Cy
pass Ann
pass Ben
""")
    assert or21.status()["round"] == "OR 3.1"
    assert or21.market("GWR") == ([3, 0], 75)       # not sold out: no move
    or21.bank.line("choose Ann normal")
    for corp in MINORS + REGIONALS_LEFT:
        or21.idle_turn(corp)
    or21.bank.line("pay WW 100")
    or21.bank.line("done WW")
    or21.bank.line("pay KSS 70")
    or21.bank.line("done KSS")
    or21.bank.line("withhold GWR 0")
    assert or21.market("GWR") == ([4, 0], 70)
    or21.conserved()


# =========================================================================== more on the market and presidency

def test_a_marker_arriving_on_an_occupied_par_square_goes_under(s2x):
    """§4.4 / §9.3: GWR reached (3,2) first (turn 2), KSS later (turn 8) and went under it. SR 2 ends
    with all passing (nothing sold out; nobody moved). OR 2.1: after the minors and regionals, WW
    (120) operates, then of the two 90s in the same box the earlier arrival, GWR, then KSS."""
    s2x.play("""
pass Ben
pass Cy
pass Ann
""")
    assert s2x.status()["round"] == "OR 2.1"
    s2x.bank.line("choose Ann normal")
    for corp in MINORS + REGIONALS_LEFT:
        s2x.idle_turn(corp)
    s2x.refused("withhold GWR 0")
    s2x.bank.line("pay WW 100")             # 100 < 120: no move
    s2x.bank.line("done WW")
    s2x.refused("withhold KSS 0")
    s2x.bank.line("pay GWR 50")             # 50 < 90: no move
    s2x.bank.line("done GWR")
    s2x.bank.line("pay KSS 50")


def test_president_selling_below_another_player_hands_over_the_presidency(s2x):
    """§10.3 / E7: GWR: Ben 30 % (the 20 % + a 10 %), Cy 30 %. Cy holds >= 20 % and the OM has room,
    so Ben may sell into his 20 %: first the 20 % goes to Cy for two of Cy's 10 %; Ben then sells
    two 10 % at 90 = 180 (DOWN x 2: (4,2) 80, (5,2) 75; OM 20 %). Ben 10 % < Cy 30 %: Cy is president.
    Certificates: Ben's GWR 2 -> 1 (one 10 %), Cy's 3 -> 2 (the 20 % + a 10 %)."""
    ben_certs, cy_certs = s2x.certs("Ben"), s2x.certs("Cy")
    before = s2x.cash()
    s2x.bank.line("sell Ben GWR 2")
    assert changes(before, s2x.cash()) == {"Ben": 180, "bank": -180}
    assert s2x.market("GWR") == ([5, 2], 75)
    assert s2x.holdings("GWR") == {"Ann": 0, "Ben": 10, "Cy": 30, "ipo": 40, "pool": 20}
    assert s2x.company("GWR")["president"] == "Cy"
    assert (s2x.certs("Ben"), s2x.certs("Cy")) == (ben_certs - 1, cy_certs - 1)


def test_president_below_sixty_percent_buys_from_the_om_at_the_share_value(s2x):
    """§10.2 (D 6.2 [I]): the double price is only the way past 60 %. Cy sells one KSS at 90 (DOWN to
    (4,2) 80, OM 10 %); Ben, KSS's president with 30 %, buys it from the OM at 80, paid to the bank
    (KSS's treasury unchanged)."""
    s2x.bank.line("pass Ben")
    s2x.bank.line("sell Cy KSS 1")
    s2x.bank.line("pass Ann")
    before = s2x.cash()
    s2x.bank.line("buy Ben KSS --pool")
    assert changes(before, s2x.cash()) == {"Ben": -80, "bank": 80}
    assert s2x.holdings("KSS") == {"Ann": 0, "Ben": 40, "Cy": 10, "ipo": 50, "pool": 0}
