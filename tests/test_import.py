"""Importing the recorded 18xx.games 1830 games (tests/data/18xxgames/): every game imports without a single
difference between the log's figures and our engine, ends the way 18xx.games says, with every
player's cash and net worth equal to 18xx.games' own computation (expected.json); the transcript the
import writes replays through `bank play` to the same scores; and the audit catches a tampered log.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli import app
from ledger.errors import BankError
from ledger.importer.run import import_log, transcript

# One list of the recorded games and one way to read them (failing, never skipping, without them).
from test_logparse import GAME_IDS as GAMES
from test_logparse import expected, log_text

END_REASONS = {
    "BankBroke": "bank broken", "bank": "bank broken",
    "PlayerGoesBankrupt": "bankruptcy", "bankrupt": "bankruptcy",
    "GameEndedManually": "ended by the players",
}


def bank(db: Path, *args: str):
    return CliRunner().invoke(app, ["--game", str(db), *args])


def score(db: Path) -> dict:
    result = bank(db, "score", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """game id -> (Translation, path of the imported game file), each game imported once."""
    cache = {}

    def get(game: str):
        if game not in cache:
            db = tmp_path_factory.mktemp(re.sub(r"\W", "_", game)) / "g.db"
            cache[game] = (import_log(log_text(game), db), db)
        return cache[game]

    return get


@pytest.mark.parametrize("game", GAMES)
def test_import_has_no_differences(game, imported):
    result, _db = imported(game)
    assert [str(d) for d in result.differences] == []
    assert len(result.commands) > 100
    assert result.seating == expected(game)["seating"]


@pytest.mark.parametrize("game", GAMES)
def test_import_ends_the_way_18xx_games_did(game, imported):
    _result, db = imported(game)
    final = score(db)
    assert final["game_over"] is True
    assert final["end_reason"] == END_REASONS[expected(game)["end"]]


@pytest.mark.parametrize("game", GAMES)
def test_import_final_cash_and_value_match_18xx_games(game, imported):
    result, db = imported(game)
    final = {p["name"]: p for p in score(db)["players"]}
    want = expected(game)["players"]
    assert sorted(final) == sorted(p["name"] for p in want)
    for p in want:
        if p["cash"] is not None:
            assert final[p["name"]]["cash"] == p["cash"], p["name"]
        assert final[p["name"]]["value"] == p["value"], p["name"]
    assert result.final_values == {p["name"]: p["value"] for p in want}


@pytest.mark.parametrize("game", GAMES)
def test_import_transcript_replays_to_the_same_scores(game, imported, tmp_path):
    result, db = imported(game)
    script = tmp_path / "transcript.txt"
    script.write_text(transcript(result))
    replayed = tmp_path / "replayed.db"
    run = bank(replayed, "play", str(script))
    assert run.exit_code == 0, run.output
    assert score(replayed) == score(db)


def tamper_first_payout(text: str) -> tuple[str, int]:
    """Add $1 to the first payee of the first 'pays out' line; returns the text and that line's number."""
    lines = text.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if " pays out " in line)
    m = re.search(r"\(\$(\d+) to ", lines[index])
    assert m, lines[index]
    lines[index] = lines[index][: m.start(1)] + str(int(m.group(1)) + 1) + lines[index][m.end(1):]
    return "".join(lines), index + 1


@pytest.mark.parametrize("game", GAMES)
def test_audit_catches_a_tampered_payout(game, tmp_path):
    text, lineno = tamper_first_payout(log_text(game))
    result = import_log(text, tmp_path / "g.db")
    assert result.differences, "a wrong payout went unnoticed"
    assert [d.lineno for d in result.differences] == [lineno]
    assert f"line {lineno}" in str(result.differences[0])
    assert "payout" in str(result.differences[0])


def test_an_unreadable_line_fails_the_import_naming_it(tmp_path):
    game = GAMES[0]
    lines = log_text(game).splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if " pays out " in line)
    lines.insert(index, "Zorblax frobnicates the widget\n")
    with pytest.raises(BankError, match=rf"line {index + 1}\b.*Zorblax") as info:
        import_log("".join(lines), tmp_path / "g.db")
    assert f"line {index + 1}" in info.value.line()


def test_bank_import_exit_codes(tmp_path):
    game = "hs_inzqxyla_1708318031"
    clean = tmp_path / "clean.log"
    clean.write_text(log_text(game))
    ok = bank(tmp_path / "clean.db", "import", str(clean))
    assert ok.exit_code == 0, ok.output
    assert "audit: every figure in the log matches" in ok.output
    text, lineno = tamper_first_payout(log_text(game))
    tampered = tmp_path / "tampered.log"
    tampered.write_text(text)
    bad = bank(tmp_path / "tampered.db", "import", str(tampered))
    assert bad.exit_code != 0
    assert f"line {lineno}" in bad.output
