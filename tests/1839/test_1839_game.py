"""Golden test for 1839: examples/1839-game.txt, a whole three-player game from the draws to a share
price of ƒ1,000, plays through the real command line into a new SQLite file and ends with exactly
the figures worked out by hand from the rules in tests/data/1839/1839-game.expected.md, an oracle
independent of the engine: every player's and company's cash and every price after each round, the
final cash, net worth and rank of each player, each company's final cash and price, what the bank
holds, and a clean `bank audit`.

The expected file is read, never generated: a figure missing from it fails its test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from transcripts import markdown_tables
from typer.testing import CliRunner

from ledger.interface.cli import app

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "examples" / "1839-game.txt"
EXPECTED = ROOT / "tests" / "data" / "1839" / "1839-game.expected.md"
PLAYERS = ("Ann", "Ben", "Cy")
COMPANIES = ("AMS", "HIJSM", "NBDS", "NCS", "NRS", "NWS", "SS", "ZHESM", "OZ", "BEL", "DUI")
BANK_TOTAL = 100000   # §2: the bank's ƒ100,000; no money is made or lost after that


def bank(game: Path, *args: str):
    return CliRunner().invoke(app, ["--game", str(game), *args])


def tables() -> dict[str, list[dict[str, str]]]:
    return markdown_tables(EXPECTED)


def table(name: str) -> list[dict[str, str]]:
    got = tables()
    assert name in got, f"{EXPECTED.name} has no table under the heading {name!r} (has {sorted(got)})"
    assert got[name], f"the table {name!r} of {EXPECTED.name} is empty"
    return got[name]


def number(cell: str) -> int | None:
    """A figure of the expected file: a whole number of guilders, or '—' for none."""
    return None if cell in ("—", "-", "") else int(cell.replace(",", "").replace("ƒ", ""))


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    assert TRANSCRIPT.is_file(), f"missing {TRANSCRIPT}"
    db = tmp_path_factory.mktemp("g1839") / "game.db"
    played = bank(db, "play", str(TRANSCRIPT))
    assert played.exit_code == 0, played.output
    out = {}
    for key, args in (("score", ("score", "--json")), ("status", ("status", "--json"))):
        result = bank(db, *args)
        assert result.exit_code == 0, result.output
        out[key] = json.loads(result.output)
    exported = db.parent / "game.json"
    result = bank(db, "export", "--json", str(exported))
    assert result.exit_code == 0, result.output
    out["rounds"] = json.loads(exported.read_text())["rounds"]
    out["audit"] = bank(db, "audit")
    return out


def test_the_game_ends_on_a_price_of_1000_in_gray(game):
    score, status = game["score"], game["status"]
    assert score["game_over"] is True
    assert "1000" in score["end_reason"].replace(",", "")
    assert status["phase"] == "gray"   # BEL's FLOOD began gray at the very end of OR 7.2


@pytest.mark.parametrize("who", PLAYERS)
def test_final_cash_net_worth_and_rank(game, who):
    want = {row["player"]: row for row in table("Players")}
    assert who in want, f"no final figures for {who} in {EXPECTED.name}"
    got = {p["name"]: p for p in game["score"]["players"]}[who]
    assert (got["cash"], got["value"], got["rank"]) == (
        number(want[who]["cash"]), number(want[who]["net worth"]), number(want[who]["rank"]))
    assert got["shares"] == number(want[who]["shares"])
    assert got["privates"] == number(want[who]["privates"])


def test_every_company_ends_with_its_cash_and_price(game):
    want = {row["company"]: (number(row["cash"]), number(row["price"])) for row in table("Companies")}
    assert set(want) == set(COMPANIES)
    got = {c["sym"]: (c["cash"], c["price"]) for c in game["status"]["companies"]}
    assert {sym: got.get(sym) for sym in COMPANIES} == want


def test_the_bank_holds_the_rest(game):
    status = game["status"]
    held = sum(p["cash"] for p in status["players"]) + sum(c["cash"] for c in status["companies"])
    assert status["bank"] + held == BANK_TOTAL
    assert status["bank"] == number(table("Money")[0]["bank"])


def rounds_against(game, name: str, field: str) -> list[str]:
    """Each row of a per-round table against the books as the next round began (bank export keeps
    each round's balances and prices as the round starts, so the state after round N is the
    snapshot of the round after it)."""
    rows = table(name)
    books = game["rounds"]
    labels = [r["round"] for r in books]
    assert [row["round"] for row in rows] == labels[:len(rows)], "the hand table's rounds differ from the game's"
    assert len(books) == len(rows) + 1 and labels[-1] == "Game over", labels[len(rows):]
    wrong = []
    for row, after in zip(rows, books[1:]):
        for col, cell in row.items():
            if col == "round":
                continue
            if field == "balances":
                acct = f"player:{col}" if col in PLAYERS else f"company:{col}"
                got = after["balances"].get(acct, 0)
            else:
                got = after["prices"].get(col)
            if got != number(cell):
                wrong.append(f"after {row['round']}: {col} worked {cell}, bank {got}")
    return wrong


def test_cash_after_every_round(game):
    assert rounds_against(game, "Cash after every round", "balances") == []


def test_prices_after_every_round(game):
    assert rounds_against(game, "Prices after every round", "prices") == []


def test_the_audit_is_clean(game):
    audit = game["audit"]
    assert audit.exit_code == 0, audit.output
    assert "audit: ledger, replay and rules agree" in audit.output
