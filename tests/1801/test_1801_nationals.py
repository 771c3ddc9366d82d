"""1801 (18OE): nationals (§9.4, §10, §11.6.2; rulesets/1801/nationals.py): a national's president buying
from the Open Market at 60 % pays double (§10.2), the 50 % cap on its shares in the Open Market and a
sold-out national moving up (§10.1, §10.7), its inherent Pullman (§11.6.2), and what a converted major
leaves behind (§9.4); a player declining his turn in the conversion window; the SML's 2+2 toward a national's
limit (§14.10, D18 #35, #36); what a national never sells, and an absorbed minor's chit going back with its
charter (§9.4, §9.5, §11.6.6).
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import (LEFT_MINORS, NATIONAL_RUN, OR21_TO_P3, P3M_TURNS, REGIONALS_LEFT, example_lines,
                            first_6_with_sml, money_kept, or21, or22_to_sr3, or31_first_4, or41_a_bought, played_to, refused_line)
from table_1801 import changes


# --------------------------------------------------------------------------- §10.2 a national's shares

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


def sr5_national() -> object:
    """or41_a_bought() to SR 5: the national GWR held Ben 60 %, Cy 30 %, Open Market 10 % at £100."""
    t = or41_a_bought()
    t.do("done KSS")
    idle_to_the_stock_round(t)
    return t


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


# --------------------------------------------------------------- §10.1, §10.7, §11.6.2: nationals in the final sequence

def sr9() -> Table:
    """examples/1801-game.txt at SR 9 (Train Phase 8, the final sequence), Ann first. Three nationals
    (formed at the first 6, §9.4): MSP Ben 40 %, the Open Market 60 % (its treasury shares went there
    at formation: the 50 % cap passed for a while, §10.1) at (4,7) £135; BHB Ben 30 %, Cy 60 %, the
    Open Market 10 % at (2,12) £280; MZA Ann 60 %, Ben 10 %, Cy 30 % at (0,16) £550."""
    lines = example_lines()
    t = Table("\n".join(lines[:max(i for i, x in enumerate(lines[:1000]) if x == "pass Ann")]))
    assert t.round() == "SR 9" and t.turn() == "Ann"
    assert t.holdings("MSP") == {"Ann": 0, "Ben": 40, "Cy": 0, "ipo": 0, "pool": 60}
    assert t.holdings("BHB") == {"Ann": 0, "Ben": 30, "Cy": 60, "ipo": 0, "pool": 10}
    assert t.holdings("MZA") == {"Ann": 60, "Ben": 10, "Cy": 30, "ipo": 0, "pool": 0}
    assert [t.cell(c) for c in ("MSP", "BHB", "MZA")] == [(4, 7), (2, 12), (0, 16)]
    return t


def test_a_nationals_shares_past_the_cap_stay_unsold_and_a_sold_out_national_moves_up():
    """§10.1: "The player may not sell any shares that would result in over 50% of the stock of a
    major or national being in the Open Market"; the formation's excess does not lift it. §10.2: an
    Open Market share costs the share value, paid to the bank. §10.7: a national with no share in
    the Open Market moves UP at the end of the SR, highest value first (§4.4: in the top row RIGHT;
    at £550 nothing). SR 9: Ann buys BHB's Open Market share for £280 (bank + 280); Ben may not sell
    an MSP share (the Open Market's 60 % would become 70 %): the refusal names the cap and figures.
    Everyone passes: MZA (sold out, (0,16) £550) stays; BHB (sold out) UP (2,12) -> (1,12) £310;
    MSP (60 % in the Open Market) stays at (4,7) £135."""
    t = sr9()
    before = t.cash()
    t.do("buy Ann BHB")
    assert changes(before, t.cash()) == {"Ann": -280, "bank": 280}
    t.refused("sell Ben MSP 1", "pool limit 50%", "60%", "70%")
    t.do("pass Ben", "pass Cy", "pass Ann")
    assert t.round() == "OR 9.1"
    assert [(t.cell(c), t.price(c)) for c in ("MZA", "BHB", "MSP")] == [((0, 16), 550), ((1, 12), 310), ((4, 7), 135)]
    money_kept(t)


def test_a_national_buys_no_pullman_and_its_own_rides_its_highest_train():
    """§11.6.2: "Every national is considered to own an inherent Pullman as printed on its charter";
    §11.3.10: it rides the highest level train. OR 9.1 from sr9 (everyone passes): MZA, a national
    (3+3, 3+3, 5), may not buy a Pullman (the refusal names the rule). It runs by capacity (D 12.6):
    3 + 3 + 5 = 11 cities, 3 + 3 = 6 towns; linked cities 60, 50, 40 (150), towns 20, 10 (30); left
    11 - 3 - 1 unlinked = 7 cities at £60 = 420 and 6 - 2 - 1 = 3 towns at £10 = 30; the Pullman on
    the 5: £50. 150 + 30 + 420 + 30 + 50 = £680, in full (§11.4): Ann 60 % 408, Ben 10 % 68, Cy 30 %
    204; bank - 680. 680 >= 550: RIGHT, but at £550 nothing moves (§4.4)."""
    t = sr9()
    t.do("pass Ann", "pass Ben", "pass Cy")
    assert t.status()["operating"] == "MZA" and t.trains("MZA") == ["3+3", "3+3", "5"]
    t.refused("pullman MZA", "national", "§11.6.2")
    before = t.cash()
    t.do("run MZA --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1")
    assert changes(before, t.cash()) == {"Ann": 408, "Ben": 68, "Cy": 204, "bank": -680}
    assert (t.cell("MZA"), t.price("MZA")) == ((0, 16), 550)
    money_kept(t)


# --------------------------------------------------------------------------- §9.4: conversion

def test_a_converted_majors_orient_express_marker_and_port_authority_leave_play():
    """§9.4 steps 1 and 4: the major's cash goes to the bank; "Remove from play all other assets on
    the major's charter except for trains. This includes track rights, port authorities, Orient
    Express markers, and private markers." (Found: the national kept its OE marker.) or31_first_4
    played with one change: in OR 2.1 Ann's WW runs the Orient Express (its first: the marker, Ann
    takes the cash bonus) and buys the North Sea port authority (§11.3.5). At KSS's first 4 (Train
    Phase 4) Ben and Cy decline; Ann converts WW: its £778 to the bank, no treasury share to move
    (Ann 70, Ben 10, Cy 20), the marker and the port authority out of play; it keeps its four trains,
    the two rusting 2+2s too (§9.4 step 5, E28), and its share value (0,3) £135."""
    t = or21()
    t.play(OR21_TO_P3.replace("pay WW 100\ntrain WW 3\n",
                              "pay WW 100 --oe 50\nchoose Ann cash\nport-authority WW north\ntrain WW 3\n"))
    or22_to_sr3(t)
    t.play(P3M_TURNS)
    t.do("choose Ann normal")
    for corp in LEFT_MINORS:
        t.do(f"half {corp} 400", f"done {corp}")
    for corp in REGIONALS_LEFT:
        t.do(f"withhold {corp} 0", f"done {corp}")
    t.play("pay WW 100\ndone WW\npay KSS 50\ntrain KSS 4\n")
    assert t.status()["oe_markers"] == ["WW"]
    ports = [a for a, where in t.state.assets.items() if t.state.assets[a].kind == "port"
             and where.owner == "company:WW" and not where.closed]
    assert len(ports) == 1
    t.do("decline Ben", "decline Cy")
    before = t.cash()
    assert before["WW"] == 778
    t.do("convert Ann WW")
    assert changes(before, t.cash()) == {"WW": -778, "bank": 778}
    ww = t.company("WW")
    assert ww["kind"] == "national" and (ww["cell"], ww["price"]) == ([0, 3], 135)
    assert t.holdings("WW") == {"Ann": 70, "Ben": 10, "Cy": 20, "ipo": 0, "pool": 0}
    assert t.trains("WW") == ["2+2", "2+2", "3", "3"]
    assert t.status()["oe_markers"] == []
    assert all(t.state.assets[a].closed for a in ports)
    money_kept(t)


# --------------------------------------------------------------------------- §9.4: declining a conversion

def test_a_player_declines_his_turn_in_the_conversion_window():
    """§9.4: as the first 4 is bought (KSS, Ben's) each player in turn from the buyer may convert his
    majors: Ben, Cy, Ann. Ben declines (`decline Ben`): his turn in the window is over, so he may no
    longer convert GWR; Ann, later in the order, still may convert WW. No money moves on a decline."""
    t = or31_first_4()
    assert t.status()["phase"] == "4"
    before = t.cash()
    t.do("decline Ben")
    assert changes(before, t.cash()) == {}
    t.refused("convert Ben GWR", "§9.4")
    t.refused("decline Ben", "§9.4")
    t.do("convert Ann WW")
    assert t.company("WW")["kind"] == "national"


def test_the_last_decline_closes_the_window():
    """§9.4: once every player in the order has declined, the window is closed: nobody converts."""
    t = or31_first_4()
    t.do("decline Ben", "decline Cy", "decline Ann")
    t.refused("convert Ann WW", "§9.4")


def test_a_later_players_decline_leaves_the_earlier_ones_their_turn():
    """§9.4: Ann (last in the order Ben, Cy, Ann) declines first: Ben may still convert GWR, and
    Ann may no longer convert WW."""
    t = or31_first_4()
    t.do("decline Ann")
    t.refused("convert Ann WW", "§9.4")
    t.do("convert Ben GWR")
    assert t.company("GWR")["kind"] == "national"


# --------------------------------------------------------------------------- §14.10, §9.4: the SML's 2+2 in a national

def test_the_sml_train_counts_toward_a_nationals_limit_by_default():
    """D18 #35 (best reading): as WW becomes a national the SML marker leaves play (§9.4 step 4) and
    its 2+2 is an ordinary rusted train of the national. At the first 6 Ann converts WW: it keeps the
    2+2, the rusting 3 (E28), the 4 and the 5: four trains over a national's limit of 3 in Train
    Phase 6 (§5.2): WW owes one discard once the window closes (SFAI's next step)."""
    t = first_6_with_sml()
    assert t.trains("WW") == ["2+2", "4", "5"]
    t.do("convert Ann WW", "done SFAI")
    assert t.trains("WW") == ["2+2", "3", "4", "5"]
    assert {"kind": "discard", "corp": "WW", "count": 1} in t.state.pending


def test_the_sml_train_kept_outside_a_nationals_limit_is_an_option():
    """The other reading of D18 #35 (option sml_outside_limit): the developer's note keeps the SML's
    2+2 with the national, outside the limit as §14.10 says: WW keeps 2+2, 3, 4, 5 and counts three
    trains, its limit: no discard is owed."""
    t = first_6_with_sml("sml_outside_limit")
    t.do("convert Ann WW", "done SFAI")
    assert t.trains("WW") == ["2+2", "3", "4", "5"]
    assert not [p for p in t.state.pending if p.get("corp") == "WW"]


def test_the_readings_35_and_36_are_stated_in_bank_info():
    from ledger import catalog
    from ledger.interface.info import info_text
    text = info_text(catalog.load("1801", {}), width=400)
    assert "sml_outside_limit" in text and "D18 #35" in text
    assert "minor_a_paid_again" in text and "D18 #36" in text


# --------------------------------------------------------------------------- §9.4, §11.6.6, §14.10: what a national never sells, an absorbed minor's chit

def test_a_national_never_sells_a_train():
    """§9.4, §11.6, §11.6.6: LNWR buys the first 4 and Ben converts it at once: it keeps its rusting
    2+2 and its 3. No railroad may then buy either from it, at any price."""
    bank, _rest = played_to("train LNWR 4")
    bank.lines("convert Ben LNWR", "done LNWR", "withhold KBS 130", "done KBS", "withhold WW 130")
    assert bank.company("LNWR")["kind"] == "national"
    assert "never sell" in refused_line(bank, "train WW 2+2 --from LNWR --price 1")
    assert "never sell" in refused_line(bank, "train WW 3 --from LNWR --price 1")


def test_the_swift_metropolitan_2plus2_is_never_sold():
    """§14.10: Ann's Swift Metropolitan Line gives her WW a rusted 2+2 for good; it cannot be sold to
    another railroad (the next to operate tries, for £1)."""
    bank, _rest = played_to("withhold WW 130")
    bank.lines("claim WW 2 --using SML", "train WW 4", "done WW")
    nxt = bank.status()["operating"]
    bank.line(f"withhold {nxt} 0")
    assert "never sold" in refused_line(bank, f"train {nxt} 2+2 --from WW --price 1")


def test_an_absorbed_minors_chit_goes_back_with_its_charter():
    """§9.4 step 3, §9.5 step 6: Cy converts BHB, which absorbed Minor H; H is abandoned and its
    track-rights chit stays with its charter in the Open Market (a major buying H later gets it)."""
    bank, _rest = played_to("convert Cy BHB")
    chits = bank.status()["chits"]
    assert "H" in chits.values(), chits
