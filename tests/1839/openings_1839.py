"""What the 1839 tests share (tests/1839/): a new table on the engine (also with a table's `--rules`
override), the engine's audit of a table, checkpoints of a game played once, and the openings
several files play: the draws line, the worked example, AMS about to operate."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Table
from transcripts import lines_of

from ledger import catalog
from ledger.core import engine
from ledger.core.events import apply

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "1839-opening.txt"
BANK_TOTAL = 100_000  # §2 "~ƒ100,000"; the ruleset's bank, which never breaks (D1)
DRAWS = "deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80"


def new_table(players: str = "Ann Ben Cy Dee", rules: Path | None = None, **options) -> Table:
    """`bank new 1839 PLAYERS [--rules FILE] [--option NAME[=VALUE] ...]` on the engine (a switch: NAME=True)."""
    if rules is None:
        return Table(f"new 1839 {players}" + "".join(f" --option {name}" if value is True else f" --option {name}={value}"
                                                     for name, value in options.items()))
    t = Table()
    t.rs = catalog.load("1839", dict(options), override=Path(rules))
    t.players, t.options = players.split(), dict(options)
    t.state = engine.initial_state(t.rs, t.players, t.options)
    for event in engine.start_events(t.rs, t.players):
        apply(t.state, event)
        t.events.append(event)
    t.money_at_start = sum(t.state.balances.values())
    return t


def audit(t: Table) -> None:
    """What `bank audit` checks of the rules, on the engine: the events replayed give the state
    reached; every line decided again from the start gives the same events; the invariants hold."""
    assert t.replayed() == t.state, "replaying the events differs from the state"
    again = Table()
    again.rs, again.players, again.options = t.rs, list(t.players), dict(t.options)
    again.state = engine.initial_state(t.rs, again.players, again.options)
    for event in engine.start_events(t.rs, again.players):
        apply(again.state, event)
        again.events.append(event)
    again.play("\n".join(t.lines))
    assert json.loads(json.dumps(again.events)) == json.loads(json.dumps(t.events)), \
        "the lines decided again give other events"
    t.books_balance()


def balanced(t: Table) -> None:
    """Money conserved at ƒ100,000, every company's certificates at 100 %, and the audit clean."""
    t.books_balance(BANK_TOTAL)
    audit(t)


def checkpoints(t: Table, segments) -> dict[str, Table]:
    """Play (name, script) segments on `t` and keep a copy after each, by name: every test works
    on its own copy of a game played once."""
    saves = {}
    for name, script in segments:
        if script:
            t.play(script)
        saves[name] = t.copy()
    return saves


def example_lines(upto: str | None = None) -> list[str]:
    """The lines of examples/1839-opening.txt, up to (not including) the first that starts with `upto`."""
    out = []
    for text in lines_of(EXAMPLE.read_text()):
        if upto and text.startswith(upto):
            break
        out.append(text)
    return out


def example(upto: str | None = None) -> Table:
    t = Table()
    t.play("\n".join(example_lines(upto)))
    return t


OPERATING_AMS = """
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben CM 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben LSW
buy Ann {brown}
buy Ben CM
buy Ann SHZ
par Ben ZHESM 67
buy Ben ZHESM
par Ann AMS 67
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben NBDS
buy Ann AMS
pass Ben
pass Ann
"""


def operating_ams(brown: str = "VV") -> Table:
    """A two-player game where AMS (par 67, floated with ƒ670 + ƒ30 from its yellow privates) is
    about to operate for the first time. Ann buys the brown private `brown` (ƒ180) with CM."""
    t = new_table("Ann Ben")
    t.play(f"deal --privates VVD,LSW,{brown},CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")
    t.play(OPERATING_AMS.format(brown=brown))
    assert t.status()["operating"] == "AMS"
    return t


def said(t: Table, line: str) -> str:
    """Play one line (a refusal fails the test) and return what the CLI prints of its events: one
    line each, as `bank` and `bank log` word them."""
    from ledger.core.events import describe
    return "\n".join(filter(None, (describe(e, t.rs) for e in t.do(line))))

# Two players, ƒ1300 each. Draws VVD, LSW (blue), KR, KV (brown). Ben buys RWS (NBDS 20 % at 101),
# KR and KV; Ann the rest (test_1839_sr_powers and test_1839_book_cases play on from here).
# Ann: 1300 - 200 - 10 - 80 - 100 - 160 = 750; Ben: 1300 - 250 - 200 - 280 - 140 = 430.
# SR 1 order by ascending cash: Ben, Ann.
KR_OPENING = """
deal --privates VVD,LSW,KR,KV --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben KV 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben KR
buy Ann VVD
buy Ben KV
buy Ann CO
buy Ben LSW
buy Ann SHZ
"""

# Two players, ƒ1300 each (§4); test_1839_powers and test_1839_audit play on from here (OR 2.1 in
# green, AMS to operate, Ann its director and SHZ's owner). Draws: NFLM and VVD (blue), BP and CM
# (brown); every green private.
POWERS_GREEN = """
deal --privates NFLM,VVD,BP,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben CM 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben CM
buy Ann NFLM
buy Ben BP
buy Ann SHZ
par Ben ZHESM 67
buy Ben ZHESM
par Ann AMS 67
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
pass Ben
pass Ann
withhold ZHESM 0
train ZHESM 2
train ZHESM 2
train ZHESM 2
train ZHESM 2
done ZHESM
withhold AMS 0
train AMS 2
train AMS 2
train AMS 2
train AMS 3+
done AMS
pass Ben
pass Ann
"""

# The short train roster (tests/data/1839/short-roster.toml, a table's `--rules` override: brown after
# five trains) and its opening: OR 2.1 in green, ZHESM to operate (test_1839_brown, test_1839_audit).
SHORT_ROSTER = ROOT / "tests" / "data" / "1839" / "short-roster.toml"

GREEN_SHORT = """
deal --privates VVD,LSW,JJB,NF --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben NF 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben NF
buy Ann JJB
buy Ben LSW
buy Ann SHZ
par Ann AMS 80
buy Ann AMS
par Ben ZHESM 80
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
pass Ann
pass Ben
withhold AMS 0
train AMS 2
train AMS 2
done AMS
withhold ZHESM 0
train ZHESM 3+
done ZHESM
pass Ann
pass Ben
"""
