"""The text-log importer reads every title whose ruleset has [log_import] words, not only 1830: the
title is the one whose words read the log's opening auction (its privates' names, amounts in its
currency), or the one `bank import FILE --title TITLE` names. Both recorded 1889 games' Log tabs
(tests/data/18xxgames/json/1889/, the site's log of the same games as the JSON beside them) import
with no difference and reproduce every player's final cash and net worth of their .expected.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from game_files import in_memory
from typer.testing import CliRunner

from ledger.core.errors import CommandError
from ledger.importer import logparse
from ledger.importer.run import import_log
from ledger.interface.cli import app

DATA = Path(__file__).resolve().parents[1] / "data" / "18xxgames" / "json"
# Named, not globbed: a missing file fails its test.
GAMES = [("1889", "314"), ("1889", "hs_jmmljkbw_17502")]


@pytest.fixture
def tmp_path():
    yield from in_memory()


def data_file(title: str, game: str, suffix: str) -> Path:
    path = DATA / title / f"{game}{suffix}"
    if not path.is_file():
        pytest.fail(f"missing test data {path}")
    return path


def log_text(title: str, game: str) -> str:
    return data_file(title, game, ".log.txt").read_text(encoding="utf-8")


def expected(title: str, game: str) -> dict:
    return json.loads(data_file(title, game, ".expected.json").read_text(encoding="utf-8"))


def bank(db: Path, *args: str):
    return CliRunner().invoke(app, ["--game", str(db), *args])


@pytest.mark.parametrize(("title", "game"), GAMES)
def test_the_log_names_its_title(title, game):
    assert logparse.title_of_log(log_text(title, game)) == title


def test_an_1830_log_is_still_1830():
    text = (Path(__file__).resolve().parents[1] / "data" / "18xxgames" / "179263.log.txt").read_text()
    assert logparse.title_of_log(text) == "1830"


def test_a_log_that_names_no_title_asks_for_one():
    with pytest.raises(CommandError) as exc:
        logparse.title_of_log("-- Stock Round 1 --\nPlayer 1 passes\n")
    assert "--title" in exc.value.line()


def test_amounts_are_read_in_the_titles_currency():
    words = logparse.words_for("1889")
    assert words.currency == "¥"
    entry = logparse.parse_line("KO pays out ¥100 = ¥10.0 per share (¥50 to Player 3, ¥10 to KO)",
                                ["Player 3"], title="1889")
    assert entry.kind == "pay_out" and entry.data["revenue"] == 100
    assert entry.data["payees"] == {"Player 3": 50, "KO": 10}
    entry = logparse.parse_line("Player 1 buys Takamatsu E-Railroad for ¥20", ["Player 1"], title="1889")
    assert entry.data == {"private": "TER", "amount": 20}
    with pytest.raises(logparse.LogParseError):   # 1830's words read dollars only
        logparse.parse_line("Player 1 bids ¥35 for Mitsubishi Ferry", ["Player 1"])


@pytest.mark.parametrize(("title", "game"), GAMES)
def test_the_log_reproduces_every_players_cash_and_net_worth(title, game, tmp_path):
    db = tmp_path / "g.db"
    result = import_log(log_text(title, game), db)
    assert [str(d) for d in result.differences] == []
    want = expected(title, game)
    assert result.seating == want["seating"]
    assert result.commands[0][1].startswith(f"new {title} ")
    run = bank(db, "score", "--json")
    assert run.exit_code == 0, run.output
    final = {p["name"]: p for p in json.loads(run.output)["players"]}
    assert sorted(final) == sorted(p["name"] for p in want["players"])
    for p in want["players"]:
        assert final[p["name"]]["cash"] == p["cash"], p["name"]
        assert final[p["name"]]["value"] == p["value"], p["name"]
    assert result.final_values == {p["name"]: p["value"] for p in want["players"]}


def test_bank_import_takes_the_title_it_is_told(tmp_path):
    log = tmp_path / "g.log.txt"
    log.write_text(log_text("1889", "hs_jmmljkbw_17502"), encoding="utf-8")
    db = tmp_path / "g.db"
    run = bank(db, "import", str(log), "--title", "1889")
    assert run.exit_code == 0, run.output
    assert "every figure in the log matches" in run.output
    wrong = bank(db, "import", str(log), "--title", "1830", "--replace")
    assert wrong.exit_code != 0
    assert "cannot read" in wrong.output
