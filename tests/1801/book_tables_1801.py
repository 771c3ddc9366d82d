"""The positions tests/1801/test_1801_book_cases.py starts from, played on the engine Table
(tests/conftest.py) from the shared 1801 openings and the turns of test_1801_merges_rules.py; each
built once per session and handed out as a copy.

* sr1(): the MAIN auction and concessions (openings_1801), SR 1 about to start (Cy first).
* or21(): OR 2.1 at WW's turn (WW Ann 70 / Cy 20 / treasury 10 at £110; cash: Ann 830, Ben 1480,
  Cy 1480, WW 850, GWR 510, KSS 330; each major owns its 2+2).
"""

from __future__ import annotations

from conftest import Table
from openings_1801 import MAIN_AUCTION, MAIN_CONCESSIONS, MAJOR_SR1

MINORS = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M"]
REGIONALS = ["GWR", "KSS", "PLM", "OU", "BEL", "MIDI", "SB", "MAV", "SFAI", "SFR", "MZA", "CHN",
             "RCP", "BJV", "DSJ", "MSP", "MKV", "WW"]
REGIONALS_LEFT = [r for r in REGIONALS if r not in ("GWR", "KSS", "WW")]

_KEPT: dict = {}


def kept(key, build) -> Table:
    if key not in _KEPT:
        _KEPT[key] = build()
    return _KEPT[key].copy()


def first_turn(t: Table, corp: str) -> None:
    """A company's first OR: a £0 run (D 0.1 #2: it runs before it buys), its reserved 2+2."""
    t.attempt(f"withhold {corp} 0")
    t.do(f"train {corp} 2+2", f"done {corp}")


def idle_turn(t: Table, corp: str) -> None:
    t.do(f"withhold {corp} 0", f"done {corp}")


def sr1() -> Table:
    return kept("sr1", lambda: Table(MAIN_AUCTION + MAIN_CONCESSIONS))


def sr2() -> Table:
    """SR 2, Ann first: OR 1.1 buys the reserved 2+2s, OR 1.2 every regional pays £400."""
    def build():
        t = sr1()
        t.play(MAJOR_SR1)
        t.do("choose Ann normal")
        for corp in MINORS + REGIONALS:
            first_turn(t, corp)
        t.do("choose Ann normal")
        for corp in MINORS:
            idle_turn(t, corp)
        for corp in REGIONALS:
            t.do(f"pay {corp} 400", f"done {corp}")
        return t
    return kept("sr2", build)


# test_1801_merges_rules.S2X_TURNS and S2E_TURNS
S2_TO_OR21 = """
expand Ann WW
buy Ann WW
expand Ben GWR --secondary
buy Cy GWR
buy Ann WW
buy Ben KSS
buy Cy WW
buy Ann WW
expand Ben KSS
buy Cy GWR
buy Ann WW
sell Ben WW 1
buy Ben GWR
sell Cy KSS 1
buy Ann WW --pool
pass Ben
pass Cy
pass Ann
choose Ann normal
"""


def or21() -> Table:
    def build():
        t = sr2()
        t.play(S2_TO_OR21)
        for corp in MINORS + REGIONALS_LEFT:
            idle_turn(t, corp)
        return t
    return kept("or21", build)


def or21_named_homes() -> Table:
    """or21() with GWR's home city named as it floats (`par Ben GWR 70 --city London`): the bank
    records the home token's city, as it does a minor's (`float ... --city`)."""
    def build():
        t = sr1()
        t.play(MAJOR_SR1.replace("par Ben GWR 70 ", "par Ben GWR 70 --city London "))
        t.do("choose Ann normal")
        for corp in MINORS + REGIONALS:
            first_turn(t, corp)
        t.do("choose Ann normal")
        for corp in MINORS:
            idle_turn(t, corp)
        for corp in REGIONALS:
            t.do(f"pay {corp} 400", f"done {corp}")
        t.play(S2_TO_OR21)
        for corp in MINORS + REGIONALS_LEFT:
            idle_turn(t, corp)
        return t
    return kept("or21_named_homes", build)


def sr2_with(option: str) -> Table:
    """sr2() in a game begun with `--option OPTION`."""
    def build():
        t = Table(MAIN_AUCTION.replace("new 1801 Ann Ben Cy", f"new 1801 Ann Ben Cy --option {option}")
                  + MAIN_CONCESSIONS)
        t.play(MAJOR_SR1)
        t.do("choose Ann normal")
        for corp in MINORS + REGIONALS:
            first_turn(t, corp)
        t.do("choose Ann normal")
        for corp in MINORS:
            idle_turn(t, corp)
        for corp in REGIONALS:
            t.do(f"pay {corp} 400", f"done {corp}")
        return t
    return kept(("sr2", option), build)


def or31_first_4() -> Table:
    """test_1801_merges_rules' P3M (OR 2.1 and 2.2 played, SR 3 with three mergers), then OR 3.1 up
    to KSS (Ben) buying the first 4 (£300, J's 10 % off: £270): Train Phase 4, the conversion window
    open (§9.4) in player order from Ben: Ben, Cy, Ann. WW is Ann's, KSS and GWR Ben's."""
    from test_1801_merges_rules import LEFT_MINORS, OR21_TO_P3, P3M_TURNS

    def build():
        t = or21()
        t.play(OR21_TO_P3)
        for corp in MINORS:
            t.do(f"half {corp} 400", f"done {corp}")
        for corp in REGIONALS_LEFT:
            t.do(f"withhold {corp} 400", f"train {corp} 3", f"done {corp}")
        t.play("pay WW 100\ntrain WW 3\ndone WW\npay KSS 70\ntrain KSS 3\ndone KSS\n"
               "pay GWR 50\ntrain GWR 3\ntrain GWR 3\ndone GWR\n")
        t.play(P3M_TURNS)
        t.do("choose Ann normal")
        for corp in LEFT_MINORS:
            t.do(f"half {corp} 400", f"done {corp}")
        for corp in REGIONALS_LEFT:
            idle_turn(t, corp)
        t.play("pay WW 100\ndone WW\npay KSS 50\ntrain KSS 4\n")
        return t
    return kept("or31_first_4", build)
