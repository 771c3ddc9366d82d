"""Golden test for 1843: examples/1843-game.txt, a whole 4-player game, plays on the engine and ends with
exactly the figures worked out by hand from the rules (tests/data/1843-game.worked.md), an oracle
independent of the engine. (tests/test_golden.py plays every example, this one too, through the CLI.)

The transcript marks a few points with a `# checkpoint: LABEL` comment. The game is played once; at each
mark `status --json` is taken and compared with the figures the hand computation gives there: every
player's cash and every floated company's treasury and price.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Table

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "examples" / "1843-game.txt"
EXPECTED = ROOT / "tests" / "data" / "1843-game.expected.json"
MARK = "# checkpoint: "


def expected() -> dict:
    return json.loads(EXPECTED.read_text())


@pytest.fixture(scope="module")
def played() -> dict:
    """`status --json` at each checkpoint mark, by label, and the final score and status."""
    t = Table()
    shown, chunk = {}, []
    for raw in TRANSCRIPT.read_text().splitlines():
        if raw.startswith(MARK):
            t.play("\n".join(chunk))
            chunk = []
            shown[raw[len(MARK):]] = t.status()
        else:
            chunk.append(raw)
    t.play("\n".join(chunk))
    return {"checkpoints": shown, "score": t.scores(), "status": t.status()}


@pytest.fixture(scope="module")
def final(played):
    return played["score"], played["status"]


def test_the_game_ends_naturally(final):
    score, status = final
    assert score["game_over"] is True
    assert expected()["end_reason_contains"] in score["end_reason"]
    assert status["phase"] == "gray"


@pytest.mark.parametrize("who", ["Alice", "Bob", "Carol", "Dave"])
def test_final_cash_and_net_worth(final, who):
    score, _ = final
    want = {p["name"]: p for p in expected()["players"]}[who]
    got = {p["name"]: p for p in score["players"]}[who]
    assert (got["cash"], got["value"]) == (want["cash"], want["value"])


def test_ranks(final):
    score, _ = final
    want = {p["name"]: p["rank"] for p in expected()["players"]}
    assert {p["name"]: p["rank"] for p in score["players"]} == want


def test_companies_at_the_end(final):
    _, status = final
    got = {c["sym"]: (c["cash"], c["price"]) for c in status["companies"] if c["floated"]}
    assert got == {c["sym"]: (c["cash"], c["price"]) for c in expected()["companies"]}


def test_no_money_is_created_or_lost(final):
    _, status = final
    money = status["bank"] + sum(p["cash"] for p in status["players"]) + sum(c["cash"] for c in status["companies"])
    assert money == expected()["bank_total"]


def checkpoints() -> list[dict]:
    return [c for c in expected()["checkpoints"] if c["label"] != "final"]


@pytest.mark.parametrize("point", checkpoints(), ids=lambda c: c["label"])
def test_checkpoint(point, played):
    status = played["checkpoints"][point["label"]]
    assert status["phase"] == point["phase"]
    assert {p["name"]: p["cash"] for p in status["players"]} == point["players"]
    floated = {c["sym"]: {"cash": c["cash"], "price": c["price"]} for c in status["companies"] if c["floated"]}
    assert floated == point["companies"]


def test_every_checkpoint_is_marked_once():
    text = TRANSCRIPT.read_text().splitlines()
    for point in expected()["checkpoints"]:
        assert text.count(MARK + point["label"]) == 1, point["label"]
