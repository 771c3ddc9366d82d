"""1801 (18OE): the end and the score (§13, §13.1; rulesets/1801/end.py): the Swift Metropolitan Line
exercised scores nothing (E25), the bank breaking in the second OR of a set ends the game with that OR,
once the first level 8 is bought the bank no longer breaks, and the repeat OR (`repeat`, and played by
hand with a major left trainless in the OR before, §11.6.6).
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import before_the_repeat_or, example_lines, idle_until, or21, played_to, refused_line


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


# --------------------------------------------------------------------------- §13: the repeat OR, played

def test_repeat_plays_the_whole_repeat_or_as_the_example_types_it():
    """§13: 'the final OR ... is a repeat of the previous OR' (E27): each railroad pays what it paid
    there, the same way. `repeat` plays the whole repeat OR at once: the game ends exactly as the
    example's typed repeat OR ends it (every balance, price and holding)."""
    t, typed = before_the_repeat_or()
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
    t, _typed = before_the_repeat_or("claim MSP 7+7 --for 4 --from LNWR")
    t.do("repeat")
    assert t.status()["operating"] == "MSP"
    assert not t.status()["game_over"]
    t.refused("repeat", "MSP", "acquired a train", "§13")
    t.do("run MSP --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1", "done MSP", "repeat")
    assert t.status()["game_over"]


def test_repeat_is_refused_before_the_repeat_or():
    """§13: there is nothing to repeat before the last OR."""
    t = or21()
    t.refused("repeat", "§13")


def test_the_repeat_or_with_a_major_left_trainless_in_the_or_before():
    """§11.6.6, §13: in the last full OR MSP (Ben's national) takes LNWR's only train, a 7+7, for a rusted
    4 (the bank pays LNWR £375). In the repeat OR LNWR, trainless and unable to buy, runs nothing and
    ends its turn; MSP, having acquired a train, runs by capacity again; everyone else repeats."""
    bank, rest = played_to("run MSP --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1",
                           nth=-1)
    before = bank.status()["companies"]
    lnwr = next(c for c in before if c["sym"] == "LNWR")
    assert lnwr["trains"] == ["7+7"], lnwr["trains"]
    bank.line("claim MSP 7+7 --for 4 --from LNWR")
    assert bank.company("LNWR")["cash"] == lnwr["cash"] + 750 // 2
    repeat = False
    for line in rest:
        s = bank.status()
        if s["game_over"]:
            break
        repeat = repeat or (s["final_repeat_or"] and s["round"] == f"OR {s['final_repeat_or'][0]}.{s['final_repeat_or'][1]}")
        if repeat and line == "pay LNWR 200":
            assert "no trains" in refused_line(bank, line)
            continue
        if repeat and line.startswith("pay MSP"):
            assert "capacity" in refused_line(bank, line)
            line = "run MSP --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1"
        bank.line(line)
    assert repeat and bank.status()["game_over"]
