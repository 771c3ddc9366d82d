"""1801 (18OE): the end and the score (§13, §13.1; rulesets/1801/end.py): the Swift Metropolitan Line
exercised scores nothing (E25), the bank breaking in the second OR of a set ends the game with that OR,
and once the first level 8 is bought the bank no longer breaks.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import example_lines, idle_until


# --------------------------------------------------------------------------- §13.1, E25: the score

def test_the_swift_metropolitan_line_exercised_scores_nothing():
    """§13.1 / E25 / D18 #38: a face-up private scores its face; the Swift Metropolitan Line, once
    exercised, is removed and scores nothing (a face-down private neither). examples/1801-game.txt
    to WW's £130 withheld in OR 5.1 (Train Phase 4, §14.10): Ann's face-up privates RSC 20 + CCTC 60
    + HML 80 + SML 120 = £280; Ben's WSB 40 + BBBT 40 + WCF 60 = £140 (his PC is face down: nothing).
    Ann gives WW an unclaimed rusted 2+2 with the SML: her privates now score 20 + 60 + 80 = £160, her
    cash and shares unchanged."""
    lines = example_lines()
    t = Table("\n".join(lines[:lines.index("withhold WW 130") + 1]))
    before = t.score()
    assert (before["Ann"]["privates"], before["Ben"]["privates"]) == (280, 140)
    t.do("claim WW 2 --using SML")
    after = t.score()
    assert (after["Ann"]["privates"], after["Ben"]["privates"]) == (160, 140)
    assert after["Ann"]["value"] == before["Ann"]["value"] - 120
    assert (after["Ann"]["cash"], after["Ann"]["shares"]) == (before["Ann"]["cash"], before["Ann"]["shares"])


# --------------------------------------------------------------------------- §13: the bank breaking

def test_the_bank_breaking_in_the_second_or_of_a_set_ends_the_game_with_that_or():
    """§13: "if the bank runs out of money during an OR prior to the purchase of the first level 8
    train, finish only the current OR ... Use the remainder cash as needed." The example at OR 5.2
    (Train Phase 4), WW last to operate, the bank at £38,448: WW withholds £38,540 (the table's
    figure past the bank's ceiling, --force): the bank breaks, the remainder cash (£100,000, D18 #9)
    keeps it paying: 38,448 - 38,540 + 100,000 = £99,908. WW buys the first 5 (Train Phase 5) and
    ends its turn: OR 5.2 was the last; no SR 6 (the Consolidation round) is played; the score is
    open and every other command refused."""
    lines = example_lines()
    t = Table("\n".join(lines[:max(i for i, x in enumerate(lines) if x == "withhold WW 310")]))
    assert (t.round(), t.status()["operating"], t.bank()) == ("OR 5.2", "WW", 38448)
    t.do("withhold WW 38540 --force --reason table-figure")
    assert t.status()["bank_broken"] and not t.status()["game_over"]
    assert t.bank() == 99908
    t.do("train WW 5")
    count = len(t.events)
    t.do("done WW")
    assert t.status()["game_over"] and t.round() == "Game over"
    assert not [e for e in t.events[count:] if e["kind"] == "round_started"]
    t.refused("pass Ben", "game is over")
    assert set(t.score()) == {"Ann", "Ben", "Cy"}


def test_once_the_first_level_8_is_bought_the_bank_no_longer_breaks():
    """§13: "if the bank runs out of money during an OR prior to the purchase of the first level 8
    train, finish only the current OR"; once it is bought, all the remainder cash is in the bank and
    the final sequence (E27) alone ends the game. examples/1801-game.txt: BEL buys the first 8+8 in
    OR 8.2 (the second of its set): OR 8.2 is finished, SR 9, then three ORs. SFR withholds £1,000
    more than the bank holds (the table's figure, --force): the bank does not break, the game is not
    ended with OR 8.2, and SR 9 follows it."""
    lines = example_lines()
    at = lines.index("train BEL 8+8")
    t = Table("\n".join(lines[:at + 2]))
    assert (t.round(), t.status()["operating"]) == ("OR 8.2", "SFR")
    t.do(f"withhold SFR {t.bank() + 1000} --force --reason table-figure")
    assert not t.status()["bank_broken"] and not t.status()["game_over"]
    t.do("done SFR")
    idle_until(t, lambda: not t.round().startswith("OR 8"))
    assert t.round() == "SR 9" and not t.status()["game_over"]
