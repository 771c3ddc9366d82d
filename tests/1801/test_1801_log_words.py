"""1801 (18OE): the log's words for the title's events, as a player reads them (issue 29): examples/1801-game.txt
to its repeat OR, and the Swift Metropolitan Line's train named as a 2+2 (§14.10).
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import before_the_repeat_or, first_6_with_sml


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
    t, _typed = before_the_repeat_or()
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
    t = first_6_with_sml()
    assert described(t)["permanent_train"] == ["Ann's Swift Metropolitan Line gives WW a rusted 2+2 for good (§14.10)"]
