"""1801 (18OE): mergers of minors, the Consolidation round, abandoned minors, port authorities, token
transfers and the forced train purchase of a major, played on the engine as typed at the table (table_1801.py).

Every number asserted here is worked BY HAND from the rules, never read off the program:
the rulebook shared/seeds/002_c09d1f5beee78cce.txt ("§x"; it wins where it states a rule) and the
digest shared/rules/1801.md ("D x"; its 0.1 corrections override the rest; "E n" are its edge
cases). The grammar is /tmp/1801-spec.md and /tmp/1801-spec-part2.md. The working is in comments.

The stock market (D 5.1 [S]), (row, col), row 0 on top; major pars in column 2:
    row 0:  -  110 120 135 ...     row 4: 70 75 80 90 ...
    row 1:  90 100 110 120 ...     row 5: 65 70 75 80 ...
    row 2:  80  90 100 110 ...     row 6: 60 65 70 75 80
    row 3:  75  80  90 100 ...     row 7: 50 60 65 70
§4.4: UP (top row: RIGHT), DOWN, RIGHT, LEFT (none left: DOWN). Pay >= value: RIGHT; 0 < pay < value:
stays; nothing paid: LEFT. Trains (D 14): 2+2 £100; 3 £200 / 3+3 £225; 4 £300 / 4+4 £350; 5 £400.
20 level-3 cards, 10 level-4 (§3.1). Major token slots [S]: 0 (home), 20, 40, 60, 60, 80, 80, 80.

Tables (positions_1801.py's games on the engine, each built once per module and xdist worker; every test
works on a copy):

* S2X / OR21: the tables of the major rules (test_1801_major_rules.py): SR 2 at Ben's turn after
  WW, GWR and KSS expanded; OR 2.1 at the majors' turns (WW 110, GWR 90, KSS 80), Train Phase 2.
* P3: OR21, then OR 2.1 (WW buys the first 3: Train Phase 3; GWR issues its 3 treasury shares) and
  OR 2.2 (minors half-pay 400, regionals and majors buy the other 19 level-3 trains); SR 3, Ben first.
* P3M: P3 and SR 3 with three mergers (K -> WW, J -> KSS, G -> GWR); OR 3.1 is about to operate.
* CONS: P3M, OR 3.1 (KSS buys the first 4 with J's 10 % off: Train Phase 4) and OR 3.2 (the minors
  buy the other nine 4s; M buys the first 5: Train Phase 5); SR 4, the Consolidation round, Cy first.
* OR41: CONS with the whole Consolidation round played; OR 4.1 at WW's turn.
* FORCED: S2X where Ben spends all his cash on a private (trade), then OR 2.1 to KSS's turn, with
  KSS's 2+2 sold to GWR for £1 (a trainless major, §11.6).
"""

from __future__ import annotations

import pytest
from positions_1801 import (CONS_CASH, CONS_TURNS, LEFT_MINORS, OR21_CASH, P3M_TURNS, P3_CASH, P3_HOLDINGS, REGIONALS,
                            REGIONALS_LEFT)
from positions_1801 import copied, cons_game, forced_game, or21_game, or41_game, p3_game, p3m_game, s2_game, s2x_game  # noqa: F401  (fixtures, used by name)
from table_1801 import Table, changes

BANK_TOTAL = 54_000  # §3.1


# (the table: table_1801.py; the shared openings and these tables: positions_1801.py)



s2x = copied("s2x_game")
or21 = copied("or21_game")
p3 = copied("p3_game")
p3m = copied("p3m_game")
cons = copied("cons_game")
or41 = copied("or41_game")
forced = copied("forced_game")


# =========================================================================== the tables themselves

def test_or21_table(or21):
    cash = or21.cash()
    assert {k: cash[k] for k in OR21_CASH} == OR21_CASH
    assert or21.status()["phase"] == "2"
    or21.conserved()


def test_p3_table_is_in_train_phase_3_with_the_worked_cash(p3):
    s = p3.status()
    assert s["round"] == "SR 3"
    assert s["phase"] == "3"
    cash = p3.cash()
    assert {k: cash[k] for k in P3_CASH} == P3_CASH
    for sym, held in P3_HOLDINGS.items():
        assert p3.holdings(sym) == held, sym
    assert p3.market("WW") == ([1, 2], 110)
    assert p3.market("KSS") == ([4, 2], 80)
    assert p3.market("GWR") == ([6, 2], 70)
    assert p3.trains("WW") == ["2+2", "3", "3"]
    assert p3.trains("GWR") == ["2+2", "3", "3"]
    assert p3.trains("KSS") == ["2+2", "3"]
    p3.conserved()


# =========================================================================== merging a minor (§10.5, E11)

def test_merge_before_train_phase_3_is_refused(s2x):
    """§10.5: 'Starting at the beginning of Train Phase 3 a minor may merge'. SR 2 is in phase 2."""
    assert s2x.status()["phase"] == "2"
    s2x.refused("merge Ben K GWR")
    s2x.refused("merge Ben K KSS")


def test_merge_with_a_treasury_share_sends_the_minors_cash_to_the_major(p3):
    """§10.5 / E11: KSS has 50 % in its treasury: Ben (K's owner) receives one 10 % from it, KSS
    receives all of K's cash (310); K's 2+2 and its SND chit go to KSS. No money to or from Ben;
    the share does not move KSS's marker (D 5.4 [I]). Ben's certificates: -1 charter +1 share."""
    certs = p3.player("Ben")["certificates"]
    before = p3.cash()
    p3.bank.line("merge Ben K KSS")
    assert changes(before, p3.cash()) == {"K": -310, "KSS": 310}
    assert p3.holdings("KSS") == {"Ann": 0, "Ben": 40, "Cy": 10, "ipo": 40, "pool": 10}
    assert p3.market("KSS") == ([4, 2], 80)
    assert p3.trains("KSS") == ["2+2", "2+2", "3"]
    assert p3.status()["chits"]["SND1"] == "KSS"
    assert "K" not in p3.player("Ben")["shares"]
    assert p3.player("Ben")["certificates"] == certs
    p3.conserved()


def test_merge_with_an_open_market_share_sends_the_minors_cash_to_the_bank(p3):
    """§10.5: GWR has no treasury share (issued in OR 2.1) but 30 % in the OM: Ben receives one from
    the OM and D's cash (230) goes to the bank ('forfeits ... to the bank'); GWR's cash is untouched;
    no market move. D's AH chit goes to GWR anyway (§10.5: 'must take')."""
    before = p3.cash()
    p3.bank.line("merge Ben D GWR")
    assert changes(before, p3.cash()) == {"D": -230, "bank": 230}
    assert p3.holdings("GWR") == {"Ann": 0, "Ben": 50, "Cy": 30, "ipo": 0, "pool": 20}
    assert p3.market("GWR") == ([6, 2], 70)
    assert p3.status()["chits"]["AH1"] == "GWR"
    p3.conserved()


def test_merge_with_no_share_anywhere_needs_a_connection(p3):
    """§10.5 / E11: Cy buys WW's last treasury share at the share value 110 (WW's par marker went at
    the end of SR 2, §10.7), paid to WW. WW now has no share in its treasury or the OM: Ann's merger
    of C is legal only with a connection (--connected); C's 200 go to the bank, Ann receives nothing
    (one certificate fewer); C's 2+2 goes to WW (2+2, 3, 3 + 2+2 = 4, its limit)."""
    p3.bank.line("pass Ben")
    before = p3.cash()
    p3.bank.line("buy Cy WW")
    assert changes(before, p3.cash()) == {"Cy": -110, "WW": 110}
    assert p3.holdings("WW") == {"Ann": 70, "Ben": 0, "Cy": 30, "ipo": 0, "pool": 0}
    p3.refused("merge Ann C WW")
    certs = p3.player("Ann")["certificates"]
    before = p3.cash()
    p3.bank.line("merge Ann C WW --connected")
    assert changes(before, p3.cash()) == {"C": -200, "bank": 200}
    assert p3.holdings("WW") == {"Ann": 70, "Ben": 0, "Cy": 30, "ipo": 0, "pool": 0}
    assert p3.player("Ann")["certificates"] == certs - 1
    assert p3.trains("WW") == ["2+2", "2+2", "3", "3"]
    p3.conserved()


def test_merger_share_ignores_the_sixty_percent_rule(p3):
    """§10.2: a share received by merging a minor may take a player past 60 %. Ann (70 % of WW)
    merges C into WW: WW's treasury 10 % to her (80 %); C's 200 to WW (470 -> 670)."""
    p3.play("""
pass Ben
pass Cy
""")
    before = p3.cash()
    p3.bank.line("merge Ann C WW")
    assert changes(before, p3.cash()) == {"C": -200, "WW": 200}
    assert p3.holdings("WW") == {"Ann": 80, "Ben": 0, "Cy": 20, "ipo": 0, "pool": 0}


def test_minor_a_bonus_with_a_treasury_share(p3):
    """§15.1 / E11: A merging into KSS (value 80, a treasury share): Ben gets the share, KSS gets A's
    200 and the bank pays KSS its share value 80 (not part of A's treasury): KSS +280, bank -80."""
    before = p3.cash()
    p3.bank.line("merge Ben A KSS")
    assert changes(before, p3.cash()) == {"A": -200, "KSS": 280, "bank": -80}
    assert p3.holdings("KSS") == {"Ann": 0, "Ben": 40, "Cy": 10, "ipo": 40, "pool": 10}
    p3.conserved()


def test_minor_a_bonus_with_an_open_market_share(p3):
    """§15.1: 'even if no share is available' from the treasury: A into GWR (value 70, OM share):
    A's 200 go to the bank, and the bank pays GWR 70: bank +200 - 70 = +130."""
    before = p3.cash()
    p3.bank.line("merge Ben A GWR")
    assert changes(before, p3.cash()) == {"A": -200, "GWR": 70, "bank": 130}
    assert p3.holdings("GWR") == {"Ann": 0, "Ben": 50, "Cy": 30, "ipo": 0, "pool": 20}


def test_one_minor_per_major_per_stock_round(p3):
    """§10.5: 'a given major ... may only merge with a single minor in any given SR'. After K went
    into KSS, A into KSS is refused in the same SR; A into GWR is allowed."""
    p3.play("""
merge Ben K KSS
pass Cy
pass Ann
""")
    p3.refused("merge Ben A KSS")
    before = p3.cash()
    p3.bank.line("merge Ben A GWR")
    assert changes(before, p3.cash()) == {"A": -200, "GWR": 70, "bank": 130}


def test_merge_of_a_minor_the_player_does_not_own_is_refused(p3):
    """§10.5: the minor's owner merges it. B is Cy's: Ben may not merge it (on Ben's turn).
    Nor is a regional a major (PLM), nor a minor a minor's target."""
    p3.refused("merge Ben B KSS")
    p3.refused("merge Ben K PLM")
    p3.refused("merge Ben K A")


def test_merger_share_can_change_the_presidency(p3):
    """§10.3 (D 18 #47): GWR: Ben 40 %, Cy 30 %, OM 30 %. Cy buys an OM share at the value 70 (to the
    bank): 40 = 40, Ben stays. Later Cy merges B into GWR (Ben agreeing): an OM share, B's 200 to the
    bank; Cy 50 % > Ben 40 %: Cy becomes president (the 20 % certificate for two of Cy's 10 %)."""
    p3.bank.line("pass Ben")
    before = p3.cash()
    p3.bank.line("buy Cy GWR --pool")
    assert changes(before, p3.cash()) == {"Cy": -70, "bank": 70}
    assert p3.company("GWR")["president"] == "Ben"
    p3.play("""
pass Ann
pass Ben
""")
    before = p3.cash()
    p3.bank.line("merge Cy B GWR")
    assert changes(before, p3.cash()) == {"B": -200, "bank": 200}
    assert p3.holdings("GWR") == {"Ann": 0, "Ben": 40, "Cy": 50, "ipo": 0, "pool": 10}
    assert p3.company("GWR")["president"] == "Cy"


def test_merge_with_cash_between_the_players(p3):
    """§10.5: a merger into another player's major may include personal cash: Cy merges H into KSS
    (Ben's) and Ben pays Cy £50 as agreed. H's 210 to KSS; Cy gets a KSS treasury share (10 -> 20)."""
    p3.bank.line("pass Ben")
    before = p3.cash()
    p3.bank.line("merge Cy H KSS --cash 50")
    assert changes(before, p3.cash()) == {"Ben": -50, "Cy": 50, "H": -210, "KSS": 210}
    assert p3.holdings("KSS") == {"Ann": 0, "Ben": 30, "Cy": 20, "ipo": 40, "pool": 10}
    assert p3.company("KSS")["president"] == "Ben"


def test_abandon_is_refused_outside_the_consolidation_round(p3):
    """§5.1.5 / §9.5: a minor is abandoned only when it cannot merge in the Consolidation round."""
    p3.refused("abandon Ben A")


def test_pass_with_minors_is_allowed_before_consolidation(p3):
    """§10: a normal SR allows passing while holding minors and regionals."""
    p3.bank.line("pass Ben")
    p3.bank.line("pass Cy")


# =========================================================================== abilities pass (§10.5, §15)

def test_mergers_move_assets_and_k_mail_goes_to_the_major(p3):
    """P3M's SR 3 (see the comment above P3M_TURNS), then the start of OR 3.1: privates pay and K's
    mail (£40, phase 3) is paid into WW, the major K merged into (§15.10) — not into K."""
    p3.play(P3M_TURNS.rsplit("pass Ben", 1)[0])
    cash = p3.cash()
    assert {k: cash[k] for k in ("Ann", "Ben", "Cy", "WW", "KSS", "GWR")} == \
        {"Ann": 1800, "Ben": 2402, "Cy": 2414, "WW": 780, "KSS": 420, "GWR": 395}
    assert p3.holdings("WW") == {"Ann": 70, "Ben": 10, "Cy": 20, "ipo": 0, "pool": 0}
    assert p3.holdings("KSS") == {"Ann": 10, "Ben": 30, "Cy": 10, "ipo": 40, "pool": 10}
    assert p3.holdings("GWR") == {"Ann": 0, "Ben": 50, "Cy": 30, "ipo": 0, "pool": 20}
    assert p3.trains("WW") == ["2+2", "2+2", "3", "3"]
    assert p3.trains("KSS") == ["2+2", "2+2", "3"]
    assert p3.trains("GWR") == ["2+2", "2+2", "3", "3"]
    chits = p3.status()["chits"]
    assert (chits["SND1"], chits["IT1"], chits["AH2"]) == ("WW", "KSS", "GWR")
    before = p3.cash()
    p3.bank.line("pass Ben")
    s = p3.status()
    assert s["round"] == "OR 3.1"
    assert changes(before, p3.cash()) == {"Ann": 30, "Ben": 40, "Cy": 50, "WW": 40, "bank": -160}
    assert p3.market("WW") == ([0, 2], 120)        # sold out at the end of SR 3: UP (1,2) -> (0,2)
    p3.conserved()


def to_majors_or31(t: Table) -> None:
    t.bank.line("choose Ann normal")
    for corp in LEFT_MINORS + REGIONALS_LEFT:
        t.idle_turn(corp)


def test_g_tile_points_pass_to_the_major_and_j_discount(p3m):
    """OR 3.1 (§11.1, §15.7, §15.9): WW (no G) lays 6 tile points: three 2-point tiles, a 7th point
    refused. KSS (with J) pays 50 (Ben 15, Cy 5, Ann 5, KSS 20: 420 -> 440; 50 < 80: stays) and buys
    a 4 at 300 less 10 % = 270 (170): the first 4, Train Phase 4. GWR (with G) lays 6 + 2 = 8: four
    2-point tiles, a 9th point refused."""
    to_majors_or31(p3m)
    for _ in range(3):
        p3m.bank.line("tile WW 0 --points 2")
    p3m.refused("tile WW 0")
    p3m.bank.line("pay WW 100")
    p3m.bank.line("done WW")
    before = p3m.cash()
    p3m.bank.line("pay KSS 50")
    assert changes(before, p3m.cash()) == {"Ben": 15, "Cy": 5, "Ann": 5, "KSS": 20, "bank": -45}
    before = p3m.cash()
    p3m.bank.line("train KSS 4")
    assert changes(before, p3m.cash()) == {"KSS": -270, "bank": 270}
    assert p3m.status()["phase"] == "4"
    p3m.bank.line("done KSS")
    for _ in range(4):
        p3m.bank.line("tile GWR 0 --points 2")
    p3m.refused("tile GWR 0")
    p3m.conserved()


def test_j_discount_on_the_expensive_side(p3m):
    """§15.9: 10 % off any train: a 4+4 at 350 costs KSS 315."""
    to_majors_or31(p3m)
    p3m.bank.line("pay WW 100")
    p3m.bank.line("done WW")
    p3m.bank.line("pay KSS 50")
    before = p3m.cash()
    p3m.bank.line("train KSS 4+4")
    assert changes(before, p3m.cash()) == {"KSS": -315, "bank": 315}


def test_major_without_j_pays_full_price(p3m):
    """§11.6: GWR (no J) pays the face value 300 for a 4 (after KSS's first 4 rusted the 2+2s, GWR
    holds 3, 3: room under the phase-4 limit 3)."""
    to_majors_or31(p3m)
    p3m.play("""
pay WW 100
done WW
pay KSS 50
train KSS 4
done KSS
pay GWR 50
""")
    assert p3m.trains("GWR") == ["3", "3"]
    before = p3m.cash()
    p3m.bank.line("train GWR 4")
    assert changes(before, p3m.cash()) == {"GWR": -300, "bank": 300}


# =========================================================================== the Consolidation round (§10.6)

def test_cons_table_reaches_the_consolidation_round(cons):
    s = cons.status()
    assert s["round"] == "SR 4"
    assert s["phase"] == "5"
    cash = cons.cash()
    assert {k: cash[k] for k in CONS_CASH} == CONS_CASH
    assert cons.market("WW") == ([0, 1], 110)
    assert cons.market("KSS") == ([4, 1], 75)
    assert cons.market("GWR") == ([6, 1], 65)
    cons.conserved()


def test_no_pass_while_holding_a_minor_or_a_regional(cons):
    """§5.1.5 / §10.6: players cannot pass until they have no minors or regionals left."""
    cons.refused("pass Cy")
    cons.bank.line("expand Cy BEL")
    cons.refused("pass Ann")


def test_abandoned_minor_cash_to_the_bank_charter_and_trains_to_the_open_market(cons):
    """§9.5 / §10.6: an abandoned minor's 100 go to the bank; its charter and its 4 go to the Open
    Market; its owner's cash is untouched and he holds one certificate fewer. (Cy would expand a
    regional first, which could take B: the table waives that here to see the abandonment itself.)"""
    certs = cons.player("Cy")["certificates"]
    pool_trains = len(cons.status()["pool_trains"])
    before = cons.cash()
    cons.bank.line("abandon Cy B --no-offers --force --reason 'see the abandonment'")
    assert changes(before, cons.cash()) == {"B": -100, "bank": 100}
    assert "B" not in cons.player("Cy")["shares"]
    assert cons.player("Cy")["certificates"] == certs - 1
    assert cons.holdings("B")["pool"] == 100
    assert cons.status()["chits"]["PHS1"] == "B"        # §9.5 step 6: the chit stays on the charter
    assert len(cons.status()["pool_trains"]) == pool_trains + 1
    cons.conserved()


def test_abandon_only_when_no_own_major_can_take_it(cons):
    """§10.6 and its Designer's Note: a player who holds a regional expands it first, and the major it
    becomes can then take his minor; a minor one of his own majors or nationals can take is merged,
    never abandoned. Cy (no major; regionals BEL, MAV, ...) may not abandon B: he expands BEL. Ann
    (WW has no share anywhere; regionals PLM, ...) may not abandon C: she expands PLM (par 60 -> 75,
    six treasury shares, §9.3; no money moves). Ben presides KSS (40 % treasury) and GWR (20 % OM):
    he may not abandon A or D; A into KSS: Ben gets a share, KSS gets A's 100 and A's bonus, KSS's
    value 75 (§15.1). Cy's BEL takes B (B's 100 to BEL, a treasury share to Cy); Ann's PLM takes C
    (C's 100 to PLM); Ben's GWR takes D (an OM share: D's 130 to the bank, §10.5)."""
    line = cons.refused("abandon Cy B --no-offers")
    assert "regional BEL" in line and "§10.6" in line and "expand Cy BEL" in line
    cons.bank.line("expand Cy BEL")
    line = cons.refused("abandon Ann C --no-offers")
    assert "regional PLM" in line and "§10.6" in line
    cons.bank.line("expand Ann PLM")
    cons.refused("abandon Ben A")
    cons.refused("abandon Ben D")
    before = cons.cash()
    cons.bank.line("merge Ben A KSS")
    assert changes(before, cons.cash()) == {"A": -100, "KSS": 175, "bank": -75}
    before = cons.cash()
    cons.bank.line("merge Cy B BEL")
    assert changes(before, cons.cash()) == {"B": -100, "BEL": 100}
    before = cons.cash()
    cons.bank.line("merge Ann C PLM")
    assert changes(before, cons.cash()) == {"C": -100, "PLM": 100}
    before = cons.cash()
    cons.bank.line("merge Ben D GWR")
    assert changes(before, cons.cash()) == {"D": -130, "bank": 130}
    cons.conserved()


# =========================================================================== buying an abandoned minor (§9.5, §11.7)

def test_or41_all_minors_and_regionals_are_gone(or41):
    s = or41.status()
    assert s["round"] == "OR 4.1"
    kinds = s["kinds"]
    for sym in ["A", "B", "C", "D", "E", "F", "H", "L", "M"]:
        assert not any(sym in p["shares"] for p in s["players"]), sym
    for sym in REGIONALS:
        assert kinds[sym] == "major", sym
    assert or41.market("WW") == ([0, 2], 120)
    assert s["operating"] == "WW"
    or41.conserved()


def test_a_major_buys_an_abandoned_minor_for_60_once_a_turn(or41):
    """§9.5 / §11.7: WW buys the abandoned B from the OM: £60 to the bank, no share issued; B's chit
    (PHS1) comes with it. A second abandoned minor in the same turn is refused; a merged minor (A)
    is not in the OM."""
    s = or41.status()
    shares_before = {p["name"]: dict(p["shares"]) for p in s["players"]}
    or41.refused("buy-minor WW A")
    or41.refused("buy-minor WW B")        # §11 step 7: after the run, not before
    or41.bank.line("withhold WW 0")       # WW runs nothing: no money moves
    before = or41.cash()
    or41.bank.line("buy-minor WW B")
    assert changes(before, or41.cash()) == {"WW": -60, "bank": 60}
    s = or41.status()
    assert s["chits"]["PHS1"] == "WW"
    assert or41.holdings("B")["pool"] == 0
    assert {p["name"]: dict(p["shares"]) for p in s["players"]} == shares_before
    or41.refused("buy-minor WW E")
    or41.conserved()


# =========================================================================== port authorities (§11.3.5, E15)

def test_port_authority_costs_125_one_per_major(or21):
    """§11.3.5: £125 to the bank; each major owns at most one."""
    before = or21.cash()
    or21.bank.line("port-authority WW north")
    assert changes(before, or21.cash()) == {"WW": -125, "bank": 125}
    or21.refused("port-authority WW med")
    or21.refused("port-authority WW north")


def test_port_authority_before_the_train_step_only(or21):
    """§11.3.5: 'at any time prior to the Buy Trains step'."""
    or21.bank.line("pay WW 100")
    or21.bank.line("train WW 3")
    or21.refused("port-authority WW north")


def test_port_authority_reduces_sea_zones_and_ferry_distance_by_two(or21):
    """§11.1.6 / §11.2.1 / E15: WW buys the North Sea authority (850 -> 725). Track across 2 sea
    zones: 0 + £10 x (2 - 2) = £0; a £30 hex across 3 sea zones: 30 + 10 x 1 = £40. A token across
    3 sea zones: the £20 slot + £40 x (3 - 2) = £60 (not 20 + 120 = 140)."""
    or21.refused("tile WW 0 --with sea=2,port")       # no port authority yet
    or21.bank.line("port-authority WW north")
    before = or21.cash()
    or21.bank.line("tile WW 0 --with sea=2,port")
    assert changes(before, or21.cash()) == {}
    before = or21.cash()
    or21.bank.line("tile WW 30 --with sea=3,port")
    assert changes(before, or21.cash()) == {"WW": -40, "bank": 40}
    before = or21.cash()
    or21.bank.line("token WW --with sea=3,port")
    assert changes(before, or21.cash()) == {"WW": -60, "bank": 60}


def test_port_authority_reduces_a_token_ferry_distance(or21):
    """§11.2.1: ferry £20 x distance, the port authority counting 2 less: distance 3 -> 20 + 20 = 40."""
    or21.bank.line("port-authority WW med")
    before = or21.cash()
    or21.bank.line("token WW --with ferry=3,port")
    assert changes(before, or21.cash()) == {"WW": -40, "bank": 40}


def test_port_authority_bought_from_another_major_for_exactly_125(or21):
    """§11.3.5: a major may buy another major's port authority in its transfer tokens step for
    exactly £125, paid to that major. WW buys one (bank), GWR buys it from WW: GWR -125, WW +125.
    GWR may then not buy a second; KSS cannot buy one from WW (WW has none now)."""
    or21.bank.line("port-authority WW north")
    or21.bank.line("pay WW 100")
    or21.bank.line("done WW")
    or21.bank.line("pay GWR 50")
    before = or21.cash()
    or21.bank.line("port-authority GWR north --from WW")
    assert changes(before, or21.cash()) == {"GWR": -125, "WW": 125}
    or21.refused("port-authority GWR med")
    or21.bank.line("done GWR")
    or21.bank.line("pay KSS 70")
    or21.refused("port-authority KSS north --from WW")
    or21.conserved()


# =========================================================================== token transfers (§11.5, E16)

def to_kss_with_tokens(t: Table) -> None:
    """OR 2.1: WW places its £20 token in Moskva and pays 100; GWR places its £20 token in Wien
    (510 -> 490) and pays 50 (Ben 20, Cy 15, GWR 15 -> 505); KSS operates."""
    t.play("""
token WW --city Moskva
pay WW 100
done WW
token GWR --city Wien
pay GWR 50
done GWR
""")


def test_token_transfer_grand_city_with_the_80_slot(or21):
    """§11.5 / E16: KSS (Ben) takes over GWR's (Ben) token in Wien, a grand city, with its own £80
    slot: KSS pays the bank 80 and GWR 40. KSS pays 70 first (Ben 21, Cy 7, KSS 35: 365).
    GWR's token goes back onto its charter (one more left), KSS has one fewer."""
    to_kss_with_tokens(or21)
    gwr_left, kss_left = or21.company("GWR")["tokens_left"], or21.company("KSS")["tokens_left"]
    or21.refused("transfer KSS GWR --city Wien --kind grand --slot 6")   # before its run (§11 step 5)
    or21.bank.line("pay KSS 70")
    before = or21.cash()
    or21.bank.line("transfer KSS GWR --city Wien --kind grand --slot 6")
    assert changes(before, or21.cash()) == {"KSS": -120, "bank": 80, "GWR": 40}
    assert or21.company("GWR")["tokens_left"] == gwr_left + 1
    assert or21.company("KSS")["tokens_left"] == kss_left - 1
    or21.conserved()


def test_token_transfer_city_and_metropolis_fees(or21):
    """§11.5: a normal city costs £20 access, a metropolis £60. With the £40 slot (slot 3) for a
    metropolis: KSS -100, bank +40, GWR +60."""
    to_kss_with_tokens(or21)
    or21.bank.line("pay KSS 70")
    before = or21.cash()
    or21.bank.line("transfer KSS GWR --city Wien --kind metropolis --slot 3")
    assert changes(before, or21.cash()) == {"KSS": -100, "bank": 40, "GWR": 60}


def test_token_transfer_normal_city_with_the_20_slot(or21):
    """§11.5: slot 2 (£20) and a normal city (£20): KSS -40, bank +20, GWR +20."""
    to_kss_with_tokens(or21)
    or21.bank.line("pay KSS 70")
    before = or21.cash()
    or21.bank.line("transfer KSS GWR --city Wien --kind city --slot 2")
    assert changes(before, or21.cash()) == {"KSS": -40, "bank": 20, "GWR": 20}


def test_token_transfer_refusals(or21):
    """§11.5: only from a major of the same president (WW is Ann's, KSS Ben's), and only before
    the train step (§11 step 5 before step 6)."""
    to_kss_with_tokens(or21)
    or21.bank.line("pay KSS 70")
    or21.refused("transfer KSS WW --city Moskva --kind city --slot 2")
    or21.bank.line("train KSS 3")
    or21.refused("transfer KSS GWR --city Wien --kind grand --slot 6")


def test_token_transfer_of_a_home_token_is_refused(or21):
    """§11.5: 'A major's home token may never be purchased': GWR has placed no other token."""
    or21.play("""
pay WW 100
done WW
pay GWR 50
done GWR
pay KSS 70
""")
    or21.refused("transfer KSS GWR --kind city --slot 2")


# =========================================================================== forced train purchase (§11.6.4, E12)

def test_forced_table(forced):
    s = forced.status()
    assert s["operating"] == "KSS"
    cash = forced.cash()
    assert {k: cash[k] for k in ("Ann", "Ben", "Cy", "GWR", "KSS")} == \
        {"Ann": 2455, "Ben": 45, "Cy": 1390, "GWR": 419, "KSS": 331}
    assert forced.trains("KSS") == []
    forced.conserved()


def test_forced_purchase_president_pays_the_difference_for_the_cheapest_train(forced):
    """§11.6.4 / E12: KSS places its £20 token (331 -> 311), runs nothing, buys a port authority
    (-125: 186). It has no train and cannot buy one outright (3 = £200). It must take the cheapest
    train: the 3 at £200, not the 3+3 at £225 (even though Ben could cover 225 - 186 = 39). KSS pays
    its 186 and Ben the other 14 (45 -> 31); the bank receives 200. Once it owns a train there is no
    more top-up: a second 3 with KSS at £0 is refused."""
    forced.bank.line("token KSS")
    forced.bank.line("withhold KSS 0")
    forced.bank.line("port-authority KSS north")
    assert forced.cash()["KSS"] == 186
    forced.refused("train KSS 3+3")
    before = forced.cash()
    forced.bank.line("train KSS 3")
    assert changes(before, forced.cash()) == {"KSS": -186, "Ben": -14, "bank": 200}
    assert forced.trains("KSS") == ["3"]
    forced.refused("train KSS 3")
    forced.bank.line("done KSS")
    forced.conserved()


def test_forced_purchase_refused_when_the_president_cannot_pay(forced):
    """§11.6.4: KSS places a £60 token (slot 4: 331 -> 271) and buys a port authority (146). The 3
    costs 200: Ben would owe 54 but has 45: the purchase is refused; Ben may not sell shares to raise
    it. Ending the turn trainless makes KSS a national (§11.6.4, §9.4): Ben's £45 and KSS's £146 go to
    the bank, KSS's treasury shares to the Open Market, its port authority out of play."""
    forced.bank.line("token KSS --slot 4")
    forced.bank.line("withhold KSS 0")
    forced.bank.line("port-authority KSS north")
    assert forced.cash()["KSS"] == 146
    forced.refused("train KSS 3")
    forced.refused("sell Ben GWR 1")
    before = forced.status()
    treasury = next(c for c in before["companies"] if c["sym"] == "KSS")["ipo"]
    pool = next(c for c in before["companies"] if c["sym"] == "KSS")["pool"]
    forced.bank.line("done KSS")
    after = forced.status()
    kss = next(c for c in after["companies"] if c["sym"] == "KSS")
    assert kss["kind"] == "national" and kss["cash"] == 0
    assert kss["ipo"] == 0 and kss["pool"] == pool + treasury
    assert kss["price"] == next(c for c in before["companies"] if c["sym"] == "KSS")["price"]
    forced.conserved()


def test_no_top_up_for_a_major_that_owns_a_train(forced):
    """§11.6 / §11.6.4: only a trainless major has its president pay: after the forced 3 (KSS at
    £0, one train), a 3+3 is refused although Ben still has 31."""
    forced.bank.line("token KSS")
    forced.bank.line("withhold KSS 0")
    forced.bank.line("port-authority KSS north")
    forced.bank.line("train KSS 3")
    forced.refused("train KSS 3+3")


def test_k_mail_in_phase_5_goes_to_its_major(cons):
    """§15.10: mail £50 in Train Phases 5-6, paid into the treasury of K's major (WW) at the start of
    OR 4.1, with the privates (Ann RSC 5 + BBBT 10 + WCF 15 + SML 0 = 30, Ben 40, Cy 50)."""
    cons.play(CONS_TURNS.rsplit("pass Cy", 1)[0])
    before = cons.cash()
    cons.bank.line("pass Cy")
    assert cons.status()["round"] == "OR 4.1"
    assert changes(before, cons.cash()) == {"Ann": 30, "Ben": 40, "Cy": 50, "WW": 50, "bank": -170}


def test_a_bought_abandoned_minor_brings_its_ability(or41):
    """§11.7 / §10.5 / §15.5: WW has no E/F ability: an ef discount is refused. It buys the abandoned E
    (£60). In its next turn (OR 4.2) a £45 hex with E's discount costs floor(45 x 0.67) = 30."""
    or41.refused("tile WW 45 --with ef")
    or41.bank.line("withhold WW 0")
    before = or41.cash()
    or41.bank.line("buy-minor WW E")
    assert changes(before, or41.cash()) == {"WW": -60, "bank": 60}
    or41.bank.line("done WW")
    for _ in range(60):
        s = or41.status()
        if s["round"] == "OR 4.2" and s["operating"] == "WW":
            break
        if s.get("pending"):
            or41.bank.line("choose Ann normal", ok=None)
            continue
        or41.idle_turn(s["operating"])
    else:
        pytest.fail("WW never operated in OR 4.2")
    before = or41.cash()
    or41.bank.line("tile WW 45 --with ef")
    assert changes(before, or41.cash()) == {"WW": -30, "bank": 30}


def test_only_a_major_buys_a_port_authority(p3m):
    """§11.3.5: 'Port authority markers may only be purchased by majors': Minor A is refused."""
    p3m.bank.line("choose Ann normal")
    assert p3m.status()["operating"] == "A"
    p3m.refused("port-authority A north")


def test_an_abandoned_minor_is_not_bought_by_a_player(cons):
    """§9.5 step 7: 'A player may never purchase an abandoned minor directly from the Open Market'."""
    cons.bank.line("abandon Cy B --no-offers --force --reason 'an abandoned minor'")
    cons.bank.line("abandon Ann C --no-offers --force --reason 'an abandoned minor'")
    cons.refused("buy Ben B")
    cons.refused("buy Ben C")


def offered_to_abandon(t: Table, player: str):
    """The minors the core offers `player` to abandon now (the Next line's and completion's values)."""
    from ledger.core import legal
    game = t.bank.table
    return legal.choices(game.state, game.rs, "abandon", player, "minor")


def test_abandoning_a_minor_first_invites_the_other_players_offers(cons):
    """§10.6: a player LEFT with minors none of his own railroads can take (every regional expanded,
    every major of his has absorbed its one minor this SR, §10.5) publicly invites offers from every
    other player's major or national with a share in its treasury that has not absorbed a minor this
    SR; with one offer he must accept it; with none the minor is abandoned (§9.5).

    From CONS (SR 4, Consolidation, turn order Cy, Ann, Ben; nobody may pass while he holds a minor or
    a regional, so each acts every turn). Cy has no major, the minors B 100, E 110, H 110, L 110 and
    the regionals BEL MAV MZA BJV MKV (each par 60 with both 25 % secondaries in its treasury):
    expanded, each is a major at par 75 (§9.3, D 5.2) with 6 + 2 = 8 treasury 10 % shares (Cy's 50 %
    becomes the 20 %), so five majors for four minors. Ann and Ben merge four of their minors into
    Cy's new majors (mutually agreed, §10.5, §10.6: a treasury share to the minor's owner, its cash to
    the major): Cy's majors can then take only one of his own, and he is left with three.
      R1 Cy may not abandon B (he holds regionals: expanded, they can take it): he expands BEL.
         Ann merges C into BEL: C's 100 to BEL; BEL: Ann 10, Cy 20, treasury 80 - 10 = 70.
         Ben merges A into KSS (40 % treasury): A's 100 and A's bonus, KSS's value 75 (§15.1), to
         KSS: A -100, KSS +175, bank -75. KSS has absorbed its minor this SR.
      R2 Cy expands MAV; Ann buys PLM's secondary (£60 to PLM); Ben merges D into MAV (D's 130 to MAV).
      R3 Cy expands MZA; Ann merges F into MZA; Ben buys OU's secondary.
      R4 Cy expands BJV; Ann merges M into BJV; Ben buys SB's secondary.
      R5 Cy expands MKV; Ann buys MIDI's secondary; Ben buys SFR's secondary.
      R6 Cy may not abandon B: his MKV can take it; he merges B into MKV (B's 100 to MKV). Ann buys
         SFAI's secondary; Ben buys RCP's secondary.
      R7 Cy's five majors have each absorbed a minor: E, H, L cannot merge. Offers: Ben's KSS has
         absorbed A; GWR has no treasury share (20 % in the OM only), Ann's WW none anywhere, so
         neither is invited (Ben could still agree to take E into GWR, §10.6, but need not); Ann's
         and Ben's regionals are not majors. No railroad may offer: E is abandoned (--no-offers):
         its 110 to the bank, its charter and its 4 to the Open Market, its chit stays on its charter;
         Cy's cash untouched, one certificate fewer. Ann expands PLM (par 75; treasury: 6 new + the
         secondary she left = 70 %; Ann's 50 % + 25 % -> 20 % + 10 %). Ben buys MSP's secondary.
      R8 Cy's H: now Ann's PLM (70 % treasury, no minor this SR) may offer, and only it: `abandon Cy
         H` is refused naming PLM. Ann offers; the single offer must be accepted: H into PLM, a
         treasury share to Cy, H's 110 to PLM; PLM: Ann 30, Cy 10, treasury 60."""
    line = cons.refused("abandon Cy B --no-offers")                     # R1
    assert "regional" in line and "§10.6" in line
    assert not offered_to_abandon(cons, "Cy")                             # nor offered on the Next line
    cons.bank.line("expand Cy BEL")
    before = cons.cash()
    cons.bank.line("merge Ann C BEL")
    assert changes(before, cons.cash()) == {"C": -100, "BEL": 100}
    assert cons.holdings("BEL") == {"Ann": 10, "Ben": 0, "Cy": 20, "ipo": 70, "pool": 0}
    before = cons.cash()
    cons.bank.line("merge Ben A KSS")
    assert changes(before, cons.cash()) == {"A": -100, "KSS": 175, "bank": -75}
    cons.play("""
expand Cy MAV
buy Ann PLM
merge Ben D MAV
expand Cy MZA
merge Ann F MZA
buy Ben OU
expand Cy BJV
merge Ann M BJV
buy Ben SB
expand Cy MKV
buy Ann MIDI
buy Ben SFR
""")
    line = cons.refused("abandon Cy B --no-offers")                     # R6
    assert "MKV" in line and "§10.6" in line
    before = cons.cash()
    cons.bank.line("merge Cy B MKV")
    assert changes(before, cons.cash()) == {"B": -100, "MKV": 100}
    cons.play("""
buy Ann SFAI
buy Ben RCP
""")
    # R7: no railroad may offer for E: abandoned (§9.5)
    assert offered_to_abandon(cons, "Cy") == ["E", "H", "L"]
    certs = cons.certs("Cy")
    pool_trains = len(cons.status()["pool_trains"])
    chits = {chit for chit, holder in cons.status()["chits"].items() if holder == "E"}
    before = cons.cash()
    cons.bank.line("abandon Cy E --no-offers")
    assert changes(before, cons.cash()) == {"E": -110, "bank": 110}
    assert "E" not in cons.player("Cy")["shares"]
    assert cons.certs("Cy") == certs - 1
    assert cons.holdings("E")["pool"] == 100
    assert cons.trains("E") == []
    assert len(cons.status()["pool_trains"]) == pool_trains + 1
    assert {chit for chit, holder in cons.status()["chits"].items() if holder == "E"} == chits
    cons.bank.line("expand Ann PLM")
    assert cons.holdings("PLM") == {"Ann": 30, "Ben": 0, "Cy": 0, "ipo": 70, "pool": 0}
    cons.bank.line("buy Ben MSP")
    # R8: Ann's PLM may offer for H, and no other railroad
    line = cons.refused("abandon Cy H")
    assert "PLM" in line and "§10.6" in line
    assert not any(corp in line for corp in ("KSS", "GWR", "WW", "BEL", "MAV", "MZA", "BJV", "MKV"))
    before = cons.cash()
    cons.bank.line("merge Cy H PLM")
    assert changes(before, cons.cash()) == {"H": -110, "PLM": 110}
    assert cons.holdings("PLM") == {"Ann": 30, "Ben": 0, "Cy": 10, "ipo": 60, "pool": 0}
    cons.conserved()
