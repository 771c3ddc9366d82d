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


def game_with(option: str | None) -> str:
    """The MAIN auction's first line, in a game begun with `--option OPTION` (None: as it is)."""
    return MAIN_AUCTION.replace("new 1801 Ann Ben Cy", f"new 1801 Ann Ben Cy --option {option}") if option \
        else MAIN_AUCTION


def or21_with(option: str | None) -> Table:
    """or21() in a game begun with `--option OPTION`."""
    def build():
        t = Table(game_with(option) + MAIN_CONCESSIONS)
        t.play(MAJOR_SR1)
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
    return or21() if option is None else kept(("or21", option), build)


def or31_first_4(option: str | None = None, a_into_gwr: bool = False) -> Table:
    """test_1801_merges_rules' P3M (OR 2.1 and 2.2 played, SR 3 with three mergers), then OR 3.1 up
    to KSS (Ben) buying the first 4 (£300, J's 10 % off: £270): Train Phase 4, the conversion window
    open (§9.4) in player order from Ben: Ben, Cy, Ann. WW is Ann's, KSS and GWR Ben's. KSS has paid
    £50 (< its £80: it stays at (4,2) £80) and holds 440 - 270 = £170.
    `a_into_gwr`: in SR 3 Ben merges Minor A into GWR instead of G (GWR's value 70, an Open Market
    share; the bank pays GWR £70 for A, §15.1), and G half-pays in OR 3.1 in A's place."""
    from test_1801_merges_rules import LEFT_MINORS, OR21_TO_P3, P3M_TURNS

    turns = P3M_TURNS.replace("merge Ben G GWR", "merge Ben A GWR") if a_into_gwr else P3M_TURNS
    left = [m for m in MINORS if m not in ("A", "J", "K")] if a_into_gwr else LEFT_MINORS

    def build():
        t = or21_with(option)
        t.play(OR21_TO_P3)
        for corp in MINORS:
            t.do(f"half {corp} 400", f"done {corp}")
        for corp in REGIONALS_LEFT:
            t.do(f"withhold {corp} 400", f"train {corp} 3", f"done {corp}")
        t.play("pay WW 100\ntrain WW 3\ndone WW\npay KSS 70\ntrain KSS 3\ndone KSS\n"
               "pay GWR 50\ntrain GWR 3\ntrain GWR 3\ndone GWR\n")
        t.play(turns)
        t.do("choose Ann normal")
        for corp in left:
            t.do(f"half {corp} 400", f"done {corp}")
        for corp in REGIONALS_LEFT:
            idle_turn(t, corp)
        t.play("pay WW 100\ndone WW\npay KSS 50\ntrain KSS 4\n")
        return t
    return kept(("or31_first_4", option, a_into_gwr), build)


# A national's revenue by capacity, as the table announces it (§11.3.10): one £60 city
NATIONAL_RUN = "--cities 60 --towns 0 --unlinked-cities 0 --unlinked-towns 0"


def or41_a_bought(option: str | None = None) -> Table:
    """From or31_first_4(): Ben converts GWR (G, merged into it, is abandoned, §9.5); the rest of
    OR 3.1 and OR 3.2 (minors and regionals idle, WW pays 100, KSS 50, GWR runs one £60 city); in SR 4
    (phase 4: minors may merge into nationals, §10.5) Ben merges Minor A into the national GWR (an
    Open Market share; A abandoned at once, no bonus: GWR is no major, §15.1); OR 4.1 to KSS's turn,
    after it pays 50 (< £80: it stays at £80, §4.4; it did so in OR 3.2 too, and nothing of KSS was
    sold in SR 4)."""
    def build():
        t = or31_first_4(option)
        t.do("convert Ben GWR", "done KSS", f"run GWR {NATIONAL_RUN}", "done GWR", "choose Ann normal")
        operate_until(t, lambda: t.round() == "SR 4")
        t.do("pass Cy", "pass Ann", "merge Ben A GWR", "pass Cy", "pass Ann", "pass Ben", "choose Ann normal")
        operate_until(t, lambda: t.status()["operating"] == "KSS")
        t.do("pay KSS 50")
        return t
    return kept(("or41_a_bought", option), build)


def operate_until(t: Table, done) -> None:
    """Every company operates in turn until `done()`: minors and regionals idle, WW pays 100, KSS 50,
    the national GWR runs (NATIONAL_RUN)."""
    turns = {"WW": ["pay WW 100", "done WW"], "KSS": ["pay KSS 50", "done KSS"],
             "GWR": [f"run GWR {NATIONAL_RUN}", "done GWR"]}
    while not done():
        corp = t.status()["operating"]
        t.do(*turns.get(corp, [f"withhold {corp} 0", f"done {corp}"]))


# --------------------------------------------------------------------------- the example game, cut

def example_lines() -> list[str]:
    from pathlib import Path
    game = Path(__file__).resolve().parents[2] / "examples" / "1801-game.txt"
    return [x.strip() for x in game.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


def first_6_with_sml(option: str | None = None) -> Table:
    """examples/1801-game.txt with one line added: in OR 5.1 (Train Phase 4), after WW withholds £130,
    Ann's Swift Metropolitan Line gives WW an unclaimed rusted 2+2 for good (§14.10); played on to SFAI
    buying the first 6 (Train Phase 6: the 3s rust, the national window opens from Ann, §9.4). WW
    then holds the SML's 2+2, a rusting 3, a 4 and a 5."""
    def build():
        lines = example_lines()
        if option:
            lines[0] += f" --option {option}"
        cut, six = lines.index("withhold WW 130"), lines.index("train SFAI 6")
        t = Table("\n".join(lines[:cut + 1]))
        t.do("claim WW 2 --using SML")
        t.play("\n".join(lines[cut + 1:six + 1]))
        return t
    return kept(("first_6_with_sml", option), build)


def before_the_repeat_or(change: str | None = None) -> tuple[Table, list[str]]:
    """examples/1801-game.txt up to the end of the last full OR (§13: the OR before the repeat), and
    the repeat OR's lines as the example types them. `change`, a line typed after the last full OR's
    last `run MSP ...` (MSP's turn), before the rest of that OR."""
    lines = example_lines()
    repeat = max(i for i, x in enumerate(lines) if x.startswith("pay MZA"))
    msp = max(i for i, x in enumerate(lines[:repeat]) if x.startswith("run MSP"))

    def build():
        if change is None:
            return Table("\n".join(lines[:repeat]))
        t = Table("\n".join(lines[:msp + 1]))
        t.do(change)
        t.play("\n".join(lines[msp + 1:repeat]))
        return t
    return kept(("before_the_repeat_or", change), build), lines[repeat:]
