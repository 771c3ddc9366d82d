"""1801 (18OE): what `bank status` says of the title's own state (rulesets/1801/status.py): a major's par marker
until the end of the SR it floats in (§9.3, §10.7), a regional parred into the Open Market in its track
place (§8.1, D18 #17), a national's rusted trains by name, and the keys whose numbers are money.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import (M_ALLPASS_1, M_ALLPASS_2, M_C1, M_C2, M_C3, M_EMPTY_ROW_1, M_REST, M_ROWS_1_2, M_ROWS_3_4,
                            M_ROW_5, M_WSB_AUCTION, first_6_with_sml, or21, sr2)


# --------------------------------------------------------------------------- status --json

def test_a_majors_par_leaves_the_json_with_its_par_marker():
    """§9.3, §10.7: a major's par marker stays until the end of the SR it floats in; a regional's
    for life (§14.4). In SR 2 Ann expands WW: par 120 while SR 2 lasts; at OR 2.1 (or21) WW, GWR and
    KSS have no par marker, so no par; the regional PLM keeps its £60."""
    t = sr2()
    t.do("expand Ann WW")
    assert t.company("WW")["par"] == 120
    t = or21()
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


# --------------------------------------------------------------------------- the status data the board page shows

def test_a_nationals_rusted_trains_are_named_in_the_status():
    """§9.4, §11.6.6: WW, converted at the first 6, keeps the SML's 2+2 and the 3 rusting as it
    converts (bought on its express side, 3): the status names them so, not by certificate ids."""
    t = first_6_with_sml()
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
