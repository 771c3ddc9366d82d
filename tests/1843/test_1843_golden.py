"""Golden test for 1843: examples/1843-game.txt, a whole 4-player game, plays through the real CLI and
ends with exactly the figures worked out by hand from the rules (tests/data/1843-game.worked.md), an
oracle independent of the engine.

The transcript marks a few points with a `# checkpoint: LABEL` comment. For each of them the lines
before the mark are played into a game of their own and `status --json` is compared with the figures
the hand computation gives there: every player's cash and every floated company's treasury and price.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.interface.cli import app

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPT = ROOT / "examples" / "1843-game.txt"
EXPECTED = Path(__file__).resolve().parent / "data" / "1843-game.expected.json"
MARK = "# checkpoint: "


def bank(game: Path, *args: str):
    return CliRunner().invoke(app, ["--game", str(game), *args])


def expected() -> dict:
    return json.loads(EXPECTED.read_text())


def play(game: Path, transcript: Path) -> None:
    result = bank(game, "play", str(transcript))
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def final(tmp_path_factory):
    game = tmp_path_factory.mktemp("g1843") / "game.db"
    play(game, TRANSCRIPT)
    score = bank(game, "score", "--json")
    assert score.exit_code == 0, score.output
    status = bank(game, "status", "--json")
    assert status.exit_code == 0, status.output
    return json.loads(score.output), json.loads(status.output)


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
def test_checkpoint(point, tmp_path):
    lines = TRANSCRIPT.read_text().splitlines()
    cut = lines.index(MARK + point["label"])
    prefix = tmp_path / "prefix.txt"
    prefix.write_text("\n".join(lines[:cut]) + "\n")
    game = tmp_path / "game.db"
    play(game, prefix)
    shown = bank(game, "status", "--json")
    assert shown.exit_code == 0, shown.output
    status = json.loads(shown.output)
    assert status["phase"] == point["phase"]
    assert {p["name"]: p["cash"] for p in status["players"]} == point["players"]
    floated = {c["sym"]: {"cash": c["cash"], "price": c["price"]} for c in status["companies"] if c["floated"]}
    assert floated == point["companies"]


def test_every_checkpoint_is_marked_once():
    text = TRANSCRIPT.read_text().splitlines()
    for point in expected()["checkpoints"]:
        assert text.count(MARK + point["label"]) == 1, point["label"]
