"""1801 (18OE): cases of the end game played on examples/1801-game.txt, cut at a line and continued
by hand on the engine (tests/1801/engine_bank_1801.py): what a national or the Swift Metropolitan Line's train may never be
sold, the last (repeat) OR with a major left trainless in the OR before, and an absorbed minor's
track rights going back to its charter when its major becomes a national.

Rules: the rulebook shared/seeds/002_c09d1f5beee78cce.txt ("§x"), the digest shared/rules/1801.md.
"""

from __future__ import annotations

from pathlib import Path

from conftest import Table
from engine_bank_1801 import GAMES, Bank

GAME = Path(__file__).resolve().parents[2] / "examples" / "1801-game.txt"


def commands() -> list[str]:
    assert GAME.is_file(), f"missing {GAME}"
    return [x.strip() for x in GAME.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


PREFIXES: dict[int, object] = {}   # the example played up to a command's index (shared by the tests)


def played_to(tmp_path: Path, last: str, nth: int = 1) -> tuple[Bank, list[str]]:
    """A game holding the example up to (and with) the nth command `last` (-1: the last one); the
    rest returned. The example is played on the engine once, from the nearest prefix already played."""
    lines = commands()
    found = [i for i, x in enumerate(lines) if x == last]
    at = found[nth - 1] if nth > 0 else found[nth]
    start = max((i for i in PREFIXES if i <= at), default=None)
    table = PREFIXES[start].copy() if start is not None else Table()
    table.play("\n".join(lines[(start + 1 if start is not None else 0): at + 1]))
    PREFIXES[at] = table.copy()
    GAMES[str(tmp_path / "game.db")] = table
    return Bank(tmp_path / "game.db"), lines[at + 1:]


def refused(bank: Bank, line: str) -> str:
    before = bank.status_text()
    result = bank.line(line, ok=False)
    err = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(err) == 1 and err[0].startswith("error: "), result.stderr
    assert bank.status_text() == before
    return err[0]


def test_a_national_never_sells_a_train(tmp_path):
    """§9.4, §11.6, §11.6.6: LNWR buys the first 4 and Ben converts it at once: it keeps its rusting
    2+2 and its 3. No railroad may then buy either from it, at any price."""
    bank, _rest = played_to(tmp_path, "train LNWR 4")
    bank.lines("convert Ben LNWR", "done LNWR", "withhold KBS 130", "done KBS", "withhold WW 130")
    assert bank.company("LNWR")["kind"] == "national"
    assert "never sell" in refused(bank, "train WW 2+2 --from LNWR --price 1")
    assert "never sell" in refused(bank, "train WW 3 --from LNWR --price 1")


def test_the_swift_metropolitan_2plus2_is_never_sold(tmp_path):
    """§14.10: Ann's Swift Metropolitan Line gives her WW a rusted 2+2 for good; it cannot be sold to
    another railroad (the next to operate tries, for £1)."""
    bank, _rest = played_to(tmp_path, "withhold WW 130")
    bank.lines("claim WW 2 --using SML", "train WW 4", "done WW")
    nxt = bank.status()["operating"]
    bank.line(f"withhold {nxt} 0")
    assert "never sold" in refused(bank, f"train {nxt} 2+2 --from WW --price 1")


def test_the_repeat_or_with_a_major_left_trainless_in_the_or_before(tmp_path):
    """§11.6.6, §13: in the last full OR MSP (Ben's national) takes LNWR's only train, a 7+7, for a rusted
    4 (the bank pays LNWR £375). In the repeat OR LNWR, trainless and unable to buy, runs nothing and
    ends its turn; MSP, having acquired a train, runs by capacity again; everyone else repeats."""
    bank, rest = played_to(tmp_path, "run MSP --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1",
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
            assert "no trains" in refused(bank, line)
            continue
        if repeat and line.startswith("pay MSP"):
            assert "capacity" in refused(bank, line)
            line = "run MSP --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1"
        bank.line(line)
    assert repeat and bank.status()["game_over"]


def test_an_absorbed_minors_chit_goes_back_with_its_charter(tmp_path):
    """§9.4 step 3, §9.5 step 6: Cy converts BHB, which absorbed Minor H; H is abandoned and its
    track-rights chit stays with its charter in the Open Market (a major buying H later gets it)."""
    bank, _rest = played_to(tmp_path, "convert Cy BHB")
    chits = bank.status()["chits"]
    assert "H" in chits.values(), chits


def test_minor_js_discount_on_a_price_agreed_between_railroads_is_an_option(tmp_path):
    """§15.9, D18 #28: by default Minor J's 10 % is off the Locomotive Works' and the Open Market's
    prices only; with the option j_discount_on_deals also off a price agreed with another railroad
    (MZA, which absorbed J, agreeing £100 for a train: £10 off)."""
    import importlib
    from types import SimpleNamespace

    from ledger import catalog
    from ledger.core.command import Command
    train_buying = importlib.import_module("rulesets.1801.train_buying")
    bank, _rest = played_to(tmp_path, "choose Ann cash")
    s = bank.table.state
    deal = Command("train", {"corp": "MZA", "type": "3", "source": "BHB", "price": 100})
    for options, off in (({}, 0), ({"j_discount_on_deals": True}, 10)):
        ctx = SimpleNamespace(state=s, rs=catalog.load("1801", options=options))
        assert train_buying.train_discount(ctx, "MZA", "3", "company:BHB", deal) == off
        assert train_buying.train_discount(ctx, "BHB", "3", "company:MZA", deal) == 0   # BHB has no Minor J
