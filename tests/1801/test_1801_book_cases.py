"""1801 (18OE): cases written from the rulebook that the bank got wrong or could not say (issue 27),
on the engine Table (tests/conftest.py). Every figure is worked by hand from the rules in the
comments: the rulebook shared/seeds/002_c09d1f5beee78cce.txt ("§x") and the digest
shared/rules/1801.md ("D x"; its 0.1 corrections first, "D18 #n" its readings).

Positions (positions_1801.py): or21() is OR 2.1 at WW's turn, Train Phase 2: WW (Ann 70 %, Cy 20 %,
its treasury 10 %) at (1,2) £110 with one 2+2 and £850; sr2() is SR 2 with Ann first.
"""

from __future__ import annotations

import positions_1801 as tables
from positions_1801 import (M_ALLPASS_1, M_ALLPASS_2, M_C1, M_C2, M_C3, M_EMPTY_ROW_1, M_REST, M_ROWS_1_2, M_ROWS_3_4,
                            M_ROW_5, M_WSB_AUCTION)

from conftest import Table


def changes(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if after[k] != before.get(k)}


# =========================================================================== the run's ceiling (§12)

def test_the_orient_express_extra_comes_on_top_of_the_runs_ceiling():
    """§12: the bank adds the OE extra (£30 in Train Phase 2) to the revenue the trains make. WW's one
    2+2 runs 4 stops: the typo guard's ceiling is 4 x £100 = £400, and WW announces £400, all of it
    the OE train's. Paid: 400 + 30 = 430: Ann 70 % 301, Cy 20 % 86, WW's treasury 10 % 43. Ann takes
    the first-run cash bonus (§12.2): the OE train's total 400 + 30 = 430 into WW. The bank pays
    430 + 430 = 860. 430 >= £110: RIGHT (1,2) -> (1,3) £120 (§4.4, D18 #22)."""
    t = tables.or21()
    before = t.cash()
    t.do("pay WW 400 --oe 400", "choose Ann cash")
    assert changes(before, t.cash()) == {"Ann": 301, "Cy": 86, "WW": 43 + 430, "bank": -860}
    assert (t.cell("WW"), t.price("WW")) == ((1, 3), 120)


def test_the_ceiling_still_guards_the_announced_run():
    """The typo guard is on what the table announces: £410 from one 2+2 (at most 4 x £100) is refused
    with or without the OE extra."""
    t = tables.or21()
    t.refused("pay WW 410 --oe 400", "at most about £400", "not £410")
    t.refused("pay WW 410", "at most about £400", "not £410")


# =========================================================================== the certificate limit (§4.1)
# sr2(): Ben holds PC SHTC HML (3 privates), minors A D G K (4 charters), the presidencies of GWR OU SB
# SFR RCP MSP and a 25 % of KSS and of WW (8 regional certificates, one each, §4.1): 15 certificates;
# Cy 15 too (WSB CCTC BB, B E H L, KSS MAV BEL MZA BJV MKV, GWR 25 %, WW 25 %), Ann 14. The Game
# Limits chart's 48 [S] is far off; the rule is the same at any number, so the table's limit is set
# to 15 here (as a table with its own chart would: `bank new ... --rules FILE`). Ann passes first.

def at_the_limit(t: Table) -> Table:
    assert (t.certs("Ann"), t.certs("Ben"), t.certs("Cy")) == (14, 15, 15)
    t.state.cert_limit = 15
    t.do("pass Ann")
    return t


def test_a_trade_past_the_limit_is_refused_by_default():
    """§4.1 'the number of these items that a player may own' (D18 #42): the bank refuses Ben's
    trade for Ann's Minor C at the limit, nothing changed."""
    t = at_the_limit(tables.sr2())
    t.refused("trade Ben C 200", "certificate limit 15", "§4.1")
    assert t.certs("Ben") == 15


def test_the_trade_over_limit_option_lets_a_trade_pass_the_limit_until_the_next_turn():
    """The other reading of §4.1 (option trade_over_limit): a trade may take the buyer over the
    limit; 'a player who has more certificates than the limit allows must correct this at the first
    possible opportunity during a SR': Ben buys C from Ann for £200 (Ben -200, Ann +200; Ben 16 of
    15). Cy and Ann pass; at Ben's next turn he may not pass nor trade again while over; he closes
    PC (§6.1: face down, it no longer counts): 15, and passes."""
    t = at_the_limit(tables.sr2_with("trade_over_limit"))
    before = t.cash()
    t.do("trade Ben C 200")
    assert changes(before, t.cash()) == {"Ben": -200, "Ann": 200}
    assert t.certs("Ben") == 16
    t.do("pass Cy", "pass Ann")
    t.refused("pass Ben", "16 certificates", "limit 15", "§4.1")
    t.refused("trade Ben F 10", "§4.1")
    t.do("close Ben PC")
    assert t.certs("Ben") == 15
    t.do("pass Ben")


def test_the_trade_over_limit_option_is_stated_in_bank_info():
    from ledger import catalog
    from ledger.interface.info import info_text
    text = info_text(catalog.load("1801", {}))
    assert "trade_over_limit" in text and "§4.1" in text


# =========================================================================== status --json

def test_a_majors_par_leaves_the_json_with_its_par_marker():
    """§9.3, §10.7: a major's par marker stays until the end of the SR it floats in; a regional's
    for life (§14.4). In SR 2 Ann expands WW: par 120 while SR 2 lasts; at OR 2.1 (or21) WW, GWR and
    KSS have no par marker, so no par; the regional PLM keeps its £60."""
    t = tables.sr2()
    t.do("expand Ann WW")
    assert t.company("WW")["par"] == 120
    t = tables.or21()
    assert [t.company(c)["par"] for c in ("WW", "GWR", "KSS")] == [None, None, None]
    assert t.company("PLM")["par"] == 60


GAME_M_TO_C4 = (M_ROWS_1_2 + M_ALLPASS_1 + M_EMPTY_ROW_1 + M_WSB_AUCTION + M_ROWS_3_4 + M_ROW_5 + M_ALLPASS_2
                + M_REST + M_C1 + M_C2 + M_C3)


def test_a_regional_parred_into_the_open_market_keeps_its_track_place_in_the_json():
    """§8.1: with C3 Cy pars SFAI into the Open Market: it takes its place on the Regional/Minor
    track after B (C1) and MZA (C2), as the text status shows; D18 #17: it does not operate before a
    player buys it, so it is not in operating_order, but the json's regional_minor_order has it."""
    t = Table("new 1801 Ann Ben Cy")
    t.play(GAME_M_TO_C4)
    s = t.status()
    assert "SFAI" not in s["operating_order"]
    order = [(x["sym"], x["parred"]) for x in s["regional_minor_order"]]
    assert order == [("B", False), ("MZA", False), ("SFAI", True)]
    assert "SFAI (regional, IT, parred)" in t.status_text()


# =========================================================================== a home token by its city (§11.5)

def test_a_home_token_named_by_its_city_is_refused_with_the_rule():
    """§11.5: 'A major's home token may never be purchased.' GWR's home city is named as it floats
    (`par ... --city London`); at OR 2.1 WW, GWR and KSS run (WW 100, GWR 50, KSS 70), and KSS (Ben)
    asks for GWR's (Ben) token in London: refused with the rule, not as an unknown city."""
    t = tables.or21_named_homes()
    t.do("pay WW 100", "done WW", "pay GWR 50", "done GWR", "pay KSS 70")
    t.refused("transfer KSS GWR --city London --kind city --slot 2", "home token", "§11.5")
    t.refused("transfer KSS GWR --city london --kind city --slot 2", "home token", "§11.5")


def test_an_unnamed_home_city_is_hinted_with_the_rule():
    """The same request where GWR's home city was not named as it floated (or21()): the bank cannot
    tell London from a made-up city, so it refuses as for a city without GWR's token and says the
    rule that applies if London is GWR's home (§11.5)."""
    t = tables.or21()
    t.do("pay WW 100", "done WW", "pay GWR 50", "done GWR", "pay KSS 70")
    t.refused("transfer KSS GWR --city London --kind city --slot 2", "no token in London",
              "if London is GWR's home", "§11.5")


# =========================================================================== declining a conversion (§9.4)

def test_a_player_declines_his_turn_in_the_conversion_window():
    """§9.4: as the first 4 is bought (KSS, Ben's) each player in turn from the buyer may convert his
    majors: Ben, Cy, Ann. Ben declines (`decline Ben`): his turn in the window is over, so he may no
    longer convert GWR; Ann, later in the order, still may convert WW. No money moves on a decline."""
    t = tables.or31_first_4()
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
    t = tables.or31_first_4()
    t.do("decline Ben", "decline Cy", "decline Ann")
    t.refused("convert Ann WW", "§9.4")


def test_a_later_players_decline_leaves_the_earlier_ones_their_turn():
    """§9.4: Ann (last in the order Ben, Cy, Ann) declines first: Ben may still convert GWR, and
    Ann may no longer convert WW."""
    t = tables.or31_first_4()
    t.do("decline Ann")
    t.refused("convert Ann WW", "§9.4")
    t.do("convert Ben GWR")
    assert t.company("GWR")["kind"] == "national"


# =========================================================================== Minor A's bonus (§15.1, §9.5, §11.7)

def test_a_major_buying_minor_a_abandoned_is_paid_as_if_merged():
    """§11.7: a major buys an abandoned minor for £60 to the bank, 'the minor's charter and assets
    are then added to the major as if it was merged (see 10.5)'; §15.1: when A 'is merged into a
    major, the bank pays cash into the major's treasury equal to the current share value of the
    major'. A went into the national GWR (no major: no bonus) and was abandoned; KSS, at £80, buys
    it: KSS -60 + 80 = +20, the bank +60 - 80 = -20; A's charter is KSS's."""
    t = tables.or41_a_bought()
    assert t.price("KSS") == 80
    before = t.cash()
    t.do("buy-minor KSS A")
    assert changes(before, t.cash()) == {"KSS": 20, "bank": -20}
    assert t.holdings("A")["pool"] == 0


def test_minor_a_is_paid_once_by_default():
    """D18 #36 (best reading: a one-time payment): A merged into GWR in SR 3 (the bank paid GWR £70);
    Ben converts GWR at the first 4, so A is abandoned (§9.4 step 3, §9.5); KSS, still in its turn
    (after its buy step, §11 step 7), buys A for £60: KSS -60, the bank +60, no bonus again."""
    t = tables.or31_first_4(a_into_gwr=True)
    t.do("convert Ben GWR")
    assert t.holdings("A")["pool"] == 100
    before = t.cash()
    t.do("buy-minor KSS A")
    assert changes(before, t.cash()) == {"KSS": -60, "bank": 60}


def test_minor_a_paid_again_is_an_option():
    """The other reading of D18 #36 (option minor_a_paid_again): A pays each major it joins. The same
    turn: KSS at £80 buys A for £60 and the bank pays it £80: KSS +20, the bank -20."""
    t = tables.or31_first_4("minor_a_paid_again", a_into_gwr=True)
    assert t.price("KSS") == 80
    t.do("convert Ben GWR")
    before = t.cash()
    t.do("buy-minor KSS A")
    assert changes(before, t.cash()) == {"KSS": 20, "bank": -20}


# =========================================================================== the SML's 2+2 in a national (§14.10, §9.4)

def test_the_sml_train_counts_toward_a_nationals_limit_by_default():
    """D18 #35 (best reading): as WW becomes a national the SML marker leaves play (§9.4 step 4) and
    its 2+2 is an ordinary rusted train of the national. At the first 6 Ann converts WW: it keeps the
    2+2, the rusting 3 (E28), the 4 and the 5: four trains over a national's limit of 3 in Train
    Phase 6 (§5.2): WW owes one discard once the window closes (SFAI's next step)."""
    t = tables.first_6_with_sml()
    assert t.trains("WW") == ["2+2", "4", "5"]
    t.do("convert Ann WW", "done SFAI")
    assert t.trains("WW") == ["2+2", "3", "4", "5"]
    assert {"kind": "discard", "corp": "WW", "count": 1} in t.state.pending


def test_the_sml_train_kept_outside_a_nationals_limit_is_an_option():
    """The other reading of D18 #35 (option sml_outside_limit): the developer's note keeps the SML's
    2+2 with the national, outside the limit as §14.10 says: WW keeps 2+2, 3, 4, 5 and counts three
    trains, its limit: no discard is owed."""
    t = tables.first_6_with_sml("sml_outside_limit")
    t.do("convert Ann WW", "done SFAI")
    assert t.trains("WW") == ["2+2", "3", "4", "5"]
    assert not [p for p in t.state.pending if p.get("corp") == "WW"]


def test_the_readings_35_and_36_are_stated_in_bank_info():
    from ledger import catalog
    from ledger.interface.info import info_text
    text = info_text(catalog.load("1801", {}), width=400)
    assert "sml_outside_limit" in text and "D18 #35" in text
    assert "minor_a_paid_again" in text and "D18 #36" in text


# =========================================================================== the repeat OR, played (§13)

def test_repeat_plays_the_whole_repeat_or_as_the_example_types_it():
    """§13: 'the final OR ... is a repeat of the previous OR' (E27): each railroad pays what it paid
    there, the same way. `repeat` plays the whole repeat OR at once: the game ends exactly as the
    example's typed repeat OR ends it (every balance, price and holding)."""
    t, typed = tables.before_the_repeat_or()
    assert " · repeat (every railroad pays as in the OR before, §13)" in t.status()["turn"]
    by_hand = t.copy()
    by_hand.play("\n".join(typed))
    t.do("repeat")
    assert t.status()["game_over"]
    assert t.cash() == by_hand.cash()
    assert t.score() == by_hand.score()
    assert t.market() == by_hand.market()


def test_repeat_stops_at_a_railroad_that_must_run_anew_and_refuses_it():
    """§13, §11.6.6: in the last full OR MSP (Ben's national) takes LNWR's only train, a 7+7, for a
    rusted 4. In the repeat OR `repeat` plays MZA and BHB as before, ends trainless LNWR's turn (it
    runs nothing), and stops at MSP, which acquired a train and runs anew: `repeat` is then refused
    with the rule. MSP runs by capacity; `repeat` plays the rest and the game ends."""
    t, _typed = tables.before_the_repeat_or("claim MSP 7+7 --for 4 --from LNWR")
    t.do("repeat")
    assert t.status()["operating"] == "MSP"
    assert not t.status()["game_over"]
    t.refused("repeat", "MSP", "acquired a train", "§13")
    t.do("run MSP --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1", "done MSP", "repeat")
    assert t.status()["game_over"]


def test_repeat_is_refused_before_the_repeat_or():
    """§13: there is nothing to repeat before the last OR."""
    t = tables.or21()
    t.refused("repeat", "§13")


# =========================================================================== what the bank says (issue 29)

def test_a_player_who_must_float_a_minor_is_told_what_to_do():
    """§8.2: in SR 1 Cy owns Minor L and may float it: he may not pass; the refusal says what he must
    do and why, and the hint how."""
    t = tables.sr1()
    said = t.refused("pass Cy", "Cy must float Minor L before passing",
                     "a player who can float a minor he owns may not pass (§8.2)")
    assert "hint: float Cy L ZONE" in said


def described(t) -> dict:
    """Each event kind's lines as the log says them."""
    from ledger.core import events
    out: dict = {}
    for e in t.events:
        out.setdefault(e["kind"], []).append(events.describe(e, t.rs))
    return out


def test_the_example_games_lines_read_as_words():
    """The log of examples/1801-game.txt (to its repeat OR) as a player reads it: a packet purchase
    says who buys what for how much (the way only when it adds something: an auction, the only bid);
    a regional's float has no '(floated)'; counts are singular or plural; trains are named by their
    side or level (2+2, 3+3, level 4), never by a certificate id such as 4.1."""
    import re
    t, _typed = tables.before_the_repeat_or()
    said = described(t)
    assert said["packet_sold"][0] == "Ann buys RSC for £20"
    assert "Cy floats GWR at £70: pays £140 into its treasury, home token £40" in said["regional_floated"]
    assert said["rusted_in_step"] == ["LNWR's rusted train leaves at the end of its buy step (§11.6.3)"]
    assert said["nationals_keep_rusted"] == ["nationals keep 2 rusted level 4 trains (§9.4, §11.6.6)"]
    assert "MSP claims a rusted 3+3 (§11.6.6)" in said["train_claimed"]
    assert "MSP turns its rusted 3 to its 3+3 side (§11.6.6)" in said["national_train_flipped"]
    assert "Minor J is abandoned: its major MZA became a national (§9.5)" in said["minor_abandoned"]
    assert "HML goes to auction between Ann and Cy: Cy's £95 is the high bid" in said["packet_auction"]
    lines = [x for kind in ("packet_sold", "regional_floated", "rusted_in_step", "nationals_keep_rusted",
                            "train_claimed", "national_train_flipped", "minor_abandoned", "national_revenue")
             for x in said[kind]]
    for line in lines:
        assert not re.search(r"(?<![§.\d])\b\d\.\d+\b", line), line     # a train id, not a §11.6.3
        assert "(bought)" not in line and "(floated)" not in line and "(s)" not in line, line


def test_the_swift_metropolitan_line_names_its_train():
    """§14.10: the SML's train is a 2+2, said so (not its certificate id)."""
    t = tables.first_6_with_sml()
    assert described(t)["permanent_train"] == ["Ann's Swift Metropolitan Line gives WW a rusted 2+2 for good (§14.10)"]


# =========================================================================== the status data the board page shows

def test_a_nationals_rusted_trains_are_named_in_the_status():
    """§9.4, §11.6.6: WW, converted at the first 6, keeps the SML's 2+2 and the 3 rusting as it
    converts (bought on its express side, 3): the status names them so, not by certificate ids."""
    t = tables.first_6_with_sml()
    t.do("convert Ann WW", "done SFAI")
    assert sorted(t.status()["rusted_trains"]["WW"]) == ["2+2", "3"]


def test_the_status_names_its_money_keys():
    """The board page shows a title's own status keys: `money_keys` names those whose numbers are
    money (the remainder cash, §13; an insolvent company's debt, §11.6.5; the packet's prices and
    bids, §7), so they can be shown as money; a dotted key names a key inside another."""
    t = Table("new 1801 Ann Ben Cy")
    s = t.status()
    assert sorted(s["money_keys"]) == ["insolvent", "packet.bids", "packet.prices", "remainder"]
    for key in s["money_keys"]:
        head, _, inner = key.partition(".")
        assert head in s and (not inner or inner in s[head]), key
    assert s["remainder"] == 100000 and s["packet"]["prices"]["RSC"] == 20
