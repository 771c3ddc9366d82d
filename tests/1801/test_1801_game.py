"""1801 (18OE): examples/1801-game.txt, a whole three-player game from the packet auction to the
repeat OR after the first level 8 train, played through the real `bank` CLI and SQLite, against the
figures worked by hand in tests/data/1801/1801-game.expected.md (the opening's own checkpoints are
tests/test_1801_opening.py's): the cash of every account at the end of OR 6.2 and at the end of the
game, every share value at the end, and each player's score (cash + shares at their value +
face-up privates at face, §13.1). The game must be over and `bank audit` clean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from transcripts import markdown_tables
from typer.testing import CliRunner

from ledger.interface.cli import app

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "examples" / "1801-game.txt"
EXPECTED = Path(__file__).resolve().parents[1] / "data" / "1801" / "1801-game.expected.md"
PLAYERS = ("Ann", "Ben", "Cy")
TOTAL = 54_000 + 100_000   # §3.1's bank and the remainder cash ([S], provisional), all of it in play at the end


def bank(game: Path, *args: str):
    return CliRunner().invoke(app, ["--game", str(game), *args], catch_exceptions=False)


def tables() -> dict[str, list[dict[str, str]]]:
    return markdown_tables(EXPECTED)


def number(cell: str) -> int:
    return int(cell.replace(",", "").replace("£", "").replace("*", "").strip())


def table(prefix: str) -> list[dict[str, str]]:
    got = [rows for heading, rows in tables().items() if heading and heading.startswith(prefix)]
    assert len(got) == 1 and got[0], f"{EXPECTED.name}: one non-empty table under {prefix!r}, found {len(got)}"
    return got[0]


def cash_table(prefix: str) -> dict[str, int]:
    return {row["account"]: number(row["cash"]) for row in table(prefix)}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    db = tmp_path_factory.mktemp("game1801") / "game.db"
    played = bank(db, "play", str(TRANSCRIPT))
    assert played.exit_code == 0, played.output
    out = {}
    for name, args in (("status", ("status", "--json")), ("score", ("score", "--json"))):
        result = bank(db, *args)
        assert result.exit_code == 0, result.output
        out[name] = json.loads(result.output)
    exported = db.parent / "game.json"
    assert bank(db, "export", "--json", str(exported)).exit_code == 0
    out["rounds"] = {r["round"]: r["balances"] for r in json.loads(exported.read_text())["rounds"]}
    out["audit"] = bank(db, "audit")
    return out


def ledger_cash(balances: dict[str, int]) -> dict[str, int]:
    return {account.split(":", 1)[-1]: amount for account, amount in balances.items() if account != "mint" and amount}


def compare(want: dict[str, int], got: dict[str, int]) -> list[str]:
    wrong = [f"{a}: worked {v}, bank {got.get(a, 0)}" for a, v in want.items() if got.get(a, 0) != v]
    return wrong + [f"{a}: bank {v}, not in the hand table" for a, v in got.items() if a not in want and v]


def test_the_hand_tables_hold_all_the_money():
    for prefix in ("Checkpoint A", "Final cash"):
        assert sum(cash_table(prefix).values()) == TOTAL, prefix


def test_cash_at_the_end_of_or_6_2(game):
    """The export's SR 7 snapshot is the position at the end of OR 6.2."""
    assert "SR 7" in game["rounds"], sorted(game["rounds"])
    assert compare(cash_table("Checkpoint A"), ledger_cash(game["rounds"]["SR 7"])) == []


def test_the_game_ends_after_the_repeat_or(game):
    assert game["status"]["game_over"] and game["score"]["game_over"]
    assert "repeat OR" in game["score"]["end_reason"]
    assert game["audit"].exit_code == 0, game["audit"].output


def test_cash_at_the_end(game):
    status = game["status"]
    got = {p["name"]: p["cash"] for p in status["players"]}
    got.update({c["sym"]: c["cash"] for c in status["companies"]})
    got["bank"] = status["bank"]
    got["remainder"] = status["remainder"]
    want = cash_table("Final cash")
    want.setdefault("remainder", 0)
    assert compare(want, got) == []


def test_share_values_at_the_end(game):
    got = {c["sym"]: c["price"] for c in game["status"]["companies"] if c.get("price")}
    want = {row["company"]: number(row["value"]) for row in table("Final share values")}
    assert {c: got.get(c) for c in want} == want


def test_scores(game):
    got = {p["name"]: p for p in game["score"]["players"]}
    rows = table("Final scores")
    assert sorted(row["player"] for row in rows) == sorted(PLAYERS)
    for row in rows:
        p = got[row["player"]]
        assert (p["cash"], p["shares"], p["privates"], p["value"]) == \
            tuple(number(row[k]) for k in ("cash", "shares", "privates", "total")), row
