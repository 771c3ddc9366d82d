"""1801 (18OE): an audit of the bank against the rulebook, scenarios written from the rules.

Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x"; its corrections 0.1 override the rest). Each test
here was written for a rule the other 1801 tests did not check; those that found a discrepancy say so.
The positions come from book_tables_1801 (built once per session, handed out as copies).
"""

from __future__ import annotations

from book_tables_1801 import (MINORS, NATIONAL_RUN, REGIONALS_LEFT, example_lines, kept, or21, or31_first_4,
                              or41_a_bought, sr2)
from conftest import Table
from test_1801_major_rules import S2X_TURNS
from test_1801_opening_rules import (N_AUCTION, N_CHITS_4, N_CHITS_6, N_CHITS_12, N_REGIONAL_18,
                                     N_REGIONALS_17)
from test_1801_merges_rules import FORCED_TURNS, LEFT_MINORS


def idle_to_the_stock_round(t) -> None:
    """Every company operates idle (withhold £0; the national GWR runs one £60 city) to the next SR."""
    while t.round_kind() == "operating":
        corp = t.state.round["corp"]
        if corp == "GWR":
            t.do(f"run GWR {NATIONAL_RUN}", "done GWR")
            continue
        err = t.attempt(f"withhold {corp} 0")
        if err and "choose" in err:        # §15.3: Minor C's place is chosen before anyone operates
            t.do("choose Ann normal")
            continue
        assert err is None, err
        t.do(f"done {corp}")


def money_kept(t) -> None:
    """Money is only moved: every event's transfers sum to zero (§3.1: the bank's £54,000 and the
    remainder cash)."""
    assert sum(t.state.balances.values()) == t.money_at_start


def sr5_national() -> object:
    """or41_a_bought() to SR 5: the national GWR held Ben 60 %, Cy 30 %, Open Market 10 % at £100."""
    t = or41_a_bought()
    t.do("done KSS")
    idle_to_the_stock_round(t)
    return t


# =========================================================================== stock round

def test_a_national_presidents_open_market_buy_at_60_percent_costs_twice_the_share_value():
    """§10.2: "a player who already owns 60% of the stock in a major or national is restricted from
    purchasing that RR's stock ... from the Open Market"; its president may buy there "paying the bank
    double the current share value per share". GWR, a national at £100 (5,5), Ben 60 %: Ben's Open
    Market share costs 2 x 100 = £200, to the bank. (Found: the engine charged a national's president
    the plain £100, the 60 % rule being applied to majors only.) §10.7: with every share in players'
    hands GWR moves UP at the SR's end: (5,5) £100 -> (4,5) £110."""
    t = sr5_national()
    assert t.round() == "SR 5" and t.turn() == "Cy"
    assert t.holdings("GWR") == {"Ann": 0, "Ben": 60, "Cy": 30, "ipo": 0, "pool": 10}
    assert (t.cell("GWR"), t.price("GWR")) == ((5, 5), 100)
    t.do("pass Cy", "pass Ann")
    before = t.cash()
    t.do("buy Ben GWR")
    after = t.cash()
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {"Ben": -200, "bank": 200}
    assert t.holdings("GWR") == {"Ann": 0, "Ben": 70, "Cy": 30, "ipo": 0, "pool": 0}
    t.do("pass Cy", "pass Ann", "pass Ben")
    assert (t.cell("GWR"), t.price("GWR")) == ((4, 5), 110)
    money_kept(t)


def test_a_national_share_below_60_percent_costs_the_share_value():
    """§10.2: below 60 % a player buys from the Open Market at the share value, paid to the bank:
    Cy (30 % of the national GWR at £100) pays £100."""
    t = sr5_national()
    before = t.cash()
    t.do("buy Cy GWR")
    after = t.cash()
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {"Cy": -100, "bank": 100}


def idle_or(t) -> None:
    """Every company of the OR withholds £0 and ends its turn (Minor C keeps its normal place)."""
    start = t.round()
    while t.round() == start:
        corp = t.state.round["corp"]
        err = t.attempt(f"withhold {corp} 0")
        if err and "choose" in err:
            t.do("choose Ann normal")
            continue
        assert err is None, err
        t.do(f"done {corp}")


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


# --------------------------------------------------------------------------- BBBT's three powers (§14.4)
# sr2(): SR 2, Ann first; Ann owns BBBT (bought in the packet). PLM is Ann's regional at par £60 with
# both its 25 % secondaries in its treasury; GWR's and KSS's have one each left.

def changes(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


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


def test_hochberg_turned_face_down_pays_no_income_and_scores_nothing():
    """§14.8: Hochberg's owner places its token in the lay-track step of a RR he controls "and turn[s]
    the private's certificate face down"; §6.1/§11 step 1: a face-down private pays no revenue;
    §4.1: it no longer counts toward the certificate limit; §13.1: only face-up privates score.
    OR 2.1 (or21), after WW's turn: Ben's GWR places Hochberg's token: Ben's certificates 17 -> 16,
    his privates score PC 20 + SHTC 60 = £80 (not + HML's 80). GWR and KSS withhold £0; OR 2.2
    opens with the privates' income: Ben PC 5 + SHTC 15 = £20 (Hochberg's £20 no more), Ann RSC 5 +
    BBBT 10 + WCF 15 = £30, Cy WSB 10 + CCTC 15 + BB 25 = £50, and Minor K's mail £20 (§15.10).
    Ben's 17: 15 in SR 2 (3 privates, 4 minors, 6 presidencies, KSS's and WW's 25 %), + GWR's
    secondary, KSS's secondary and KSS's share on expanding it, - 1 as two 10 % became KSS's 20 %,
    - WW sold, + GWR bought."""
    t = or21()
    t.do("pay WW 100", "done WW")
    assert t.state.round["corp"] == "GWR" and t.certs("Ben") == 17
    t.do("token GWR --using HML")
    assert t.certs("Ben") == 16
    assert t.score()["Ben"]["privates"] == 80
    before = t.cash()
    t.do("withhold GWR 0", "done GWR", "withhold KSS 0", "done KSS")
    assert t.round() == "OR 2.2"
    assert changes(before, t.cash()) == {"Ann": 30, "Ben": 20, "Cy": 50, "K": 20, "bank": -120}


def test_brandt_and_brandau_lays_two_free_tiles_an_or_and_turns_face_down_after_the_fourth():
    """§14.9: Brandt & Brandau's four tokens, "Up to two ... each OR", lay a yellow tile on rough
    terrain "at no cost" (the tile points as usual); "When the last token is placed, the private's
    certificate is turned face down" (§6.1: no income, no certificate, no score). Cy owns BB.
    OR 2.2 (from or21): Cy's Minor B (£0) lays tiles on £45 and £60 hexes with BB: no money moves; a
    third BB tile is refused (two an OR), and a plain £30 tile is beyond B's £0. OR 3.1 (SR 3 all
    pass): B lays BB's third and fourth: BB turns face down: Cy's certificates 18 -> 17, his privates
    score WSB 40 + CCTC 60 = £100 (not + BB's 100). OR 3.2 opens with Cy's income WSB 10 + CCTC 15 =
    £25 (not BB's 25). Cy's 18: 15 in SR 2 (3 privates, 4 minors, 6 presidencies, GWR's and WW's
    25 %), + GWR, WW and GWR bought, + 1 as KSS's 20 % became two 10 % (Ben's presidency), - 1 KSS sold."""
    t = or21()
    t.do("pay WW 100", "done WW", "withhold GWR 0", "done GWR", "withhold KSS 0", "done KSS")
    t.do("choose Ann normal", "withhold A 0", "done A")
    assert t.state.round["corp"] == "B" and t.cash("B") == 0
    before = t.cash()
    t.do("tile B 45 --using BB", "tile B 60 --using BB")
    assert t.cash() == before
    t.refused("tile B 30 --using BB", "§14.9", "two an OR")
    t.refused("tile B 30", "£0", "£30")
    t.do("withhold B 0", "done B")
    idle_or(t)
    t.do("pass Ben", "pass Cy", "pass Ann")
    assert t.round() == "OR 3.1"
    t.do("choose Ann normal", "withhold A 0", "done A")
    assert t.certs("Cy") == 18 and t.score()["Cy"]["privates"] == 200
    before = t.cash()
    t.do("tile B 45 --using BB", "tile B 60 --using BB")
    assert t.cash() == before
    assert t.private("BB")["closed"] and t.owner("BB") == "Cy"
    assert t.certs("Cy") == 17 and t.score()["Cy"]["privates"] == 100
    t.do("withhold B 0", "done B")
    cy = t.cash("Cy")
    idle_or(t)
    assert t.round() == "OR 3.2" and t.cash("Cy") == cy + 25


# =========================================================================== operating round: trains

def trainless_kss() -> object:
    """test_1801_merges_rules' FORCED table with one line more: S2X, Ben trades all his cash for
    Ann's RSC, OR 2.1 (Ben £45); WW (Ann's) withholds and buys a 3 (£200: Train Phase 3); GWR buys
    KSS's only train, its 2+2, for £1. KSS (Ben's, trainless, £331) operates: it places its £60 token
    (271) and buys a port authority (£125, §11.3.5): £146."""
    def build():
        t = sr2()
        t.play(S2X_TURNS + FORCED_TURNS)
        for corp in MINORS + REGIONALS_LEFT:
            t.do(f"withhold {corp} 0", f"done {corp}")
        t.play("""
withhold WW 0
train WW 3
done WW
withhold GWR 0
train GWR 2+2 --from KSS --price 1
done GWR
token KSS --slot 4
withhold KSS 0
port-authority KSS north
""")
        return t
    return kept("audit trainless KSS", build)


def test_a_train_from_another_railroad_is_paid_from_the_treasury_alone():
    """§11.6: "Only cash in the purchasing RR's treasury may be used. The purchase price of a train
    from a major, minor, or regional must be a minimum of £1 to a maximum of the purchasing RR's
    entire treasury"; a trainless major's president helps only in a forced purchase from the bank
    (§11.6.4). KSS (£146, no train) may buy WW's 3 for at most £146: at £150 it is refused. (Found:
    the engine let Ben pay the £4 over KSS's treasury.) At £146 KSS pays it all to WW."""
    t = trainless_kss()
    assert t.cash("KSS") == 146 and t.cash("Ben") == 45 and t.trains("KSS") == []
    t.refused("train KSS 3 --from WW --price 150", "§11.6", "£146", "£150")
    before = t.cash()
    t.do("train KSS 3 --from WW --price 146")
    after = t.cash()
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {"KSS": -146, "WW": 146}
    assert t.trains("KSS") == ["3"] and t.trains("WW") == ["2+2"]
    money_kept(t)


def test_a_level_is_sold_out_before_the_next_and_the_refusal_says_so():
    """§11.6: "All un-rusted trains of each level in the Locomotive Works must be sold before the
    first train of the next higher level may be purchased." OR 2.1 (or21), WW's turn, after its run:
    none of the twenty level 3 trains has been bought, so a 4 is refused, the refusal naming the rule
    and the count (it said only "the bank does not sell 4 trains now"); a 3 is sold (£200)."""
    t = or21()
    t.do("pay WW 100")
    t.refused("train WW 4", "§11.6", "level 3", "20 left")
    before = t.cash("WW")
    t.do("train WW 3")
    assert t.cash("WW") == before - 200


def test_level_8_is_on_sale_once_the_fourth_level_7_is_bought():
    """§11.6: "Level 8 trains may be purchased after the fourth level 7 train is purchased" (§5.2).
    examples/1801-game.txt at LNWR's turn in OR 8.1 (£1,064, one 4): three level 7 trains have been
    bought (BEL, GWR, KBS), ten are left. An 8+8 or a 5D is refused, the refusal naming the rule and
    the count. LNWR buys the fourth 7+7 (£750: 314 left); the Locomotive Works now offers level 8
    beside level 7. (Found: the refusal said only "the bank does not sell 8 trains now", and the
    status's trains for sale left level 8 out after the fourth level 7.)"""
    lines = example_lines()
    t = Table("\n".join(lines[:lines.index("train LNWR 7+7")]))
    assert t.round() == "OR 8.1" and t.state.round["corp"] == "LNWR"
    assert t.cash("LNWR") == 1064 and t.trains("LNWR") == ["4"]
    assert t.status()["trains_for_sale"] == ["7+7 at £750 / 4D at £850"]
    t.refused("train LNWR 8+8", "§11.6", "4 level 7", "3 so far")
    t.refused("train LNWR 5D", "§11.6", "3 so far")
    t.do("train LNWR 7+7")
    assert t.cash("LNWR") == 314 and t.trains("LNWR") == ["4", "7+7"]
    offer = t.status()["trains_for_sale"]
    assert offer[0] == "7+7 at £750 / 4D at £850"
    assert offer[1].startswith("8+8 at £900 / 5D at £1000")


# =========================================================================== the Consolidation round

def consolidation_round() -> object:
    """test_1801_merges_rules' CONS table on the engine: or31_first_4() played on through OR 3.2 (GWR
    buys a 4; minors buy 4s, M the first 5: Train Phase 5), so SR 4 is the Consolidation round
    (§5.1.5), Cy first. Cy holds minors B E H L and the regionals BEL MAV MZA BJV MKV, no major."""
    def build():
        t = or31_first_4()
        t.play("done KSS\npay GWR 50\ntrain GWR 4\ndone GWR\nchoose Ann normal\n")
        for corp in LEFT_MINORS:
            t.attempt(f"withhold {corp} 0")
            t.do(f"train {corp} {'5' if corp == 'M' else '4'}", f"done {corp}")
        for corp in REGIONALS_LEFT + ["WW", "KSS", "GWR"]:
            t.do(f"withhold {corp} 0", f"done {corp}")
        return t
    return kept("audit consolidation", build)


def test_no_minor_is_abandoned_while_its_owner_holds_a_regional_that_could_take_it():
    """§10.6: "If a player owns any minors that section 10.5 allows to be merged into one of that
    player's own majors ..., the player may not select the pass option"; "If a player owns a major
    that has not yet floated [a regional], the player may not select the pass option until the major
    has floated." Designer's Note: "this means that if a player owns a minor which is not eligible to
    be merged into one of their own majors or nationals, and the player also owns a regional which
    has not yet floated as a major, the player must float the major, thus making it eligible to
    acquire the minor"; only a player "left with" minors he cannot merge invites offers and, with
    none, abandons (§9.5). Cy (minors B E H L; regionals BEL MAV MZA BJV MKV) may not abandon B: he
    expands BEL (par 60 -> MAJOR 75, six 10 % shares in its treasury, §9.3), and on his next turn
    merges B into it: a treasury share to Cy, B's £100 to BEL (§10.5): BEL 400 -> 500."""
    t = consolidation_round()
    assert t.round() == "SR 4" and t.turn() == "Cy"
    assert t.cash("B") == 100 and t.cash("BEL") == 400
    t.refused("abandon Cy B --no-offers", "§10.6", "BEL")
    t.do("expand Cy BEL", "expand Ann PLM", "merge Ben A KSS")
    before = t.cash()
    t.do("merge Cy B BEL")
    assert changes(before, t.cash()) == {"B": -100, "BEL": 100}
    assert t.holdings("BEL")["Cy"] == 30        # 20 % (the president's) + the merger's 10 %
