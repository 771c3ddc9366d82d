"""The text-log importer reads every title whose ruleset has [log_import] words, not only 1830: the
title is the one whose words read the log's opening auction (its privates' names, amounts in its
currency), or the one `bank import FILE --title TITLE` names. Both recorded 1889 games' Log tabs and
the three 18Chesapeake ones (tests/data/18xxgames/json/<title>/, the site's log of the same games as
the JSON beside them) import with no difference and reproduce every player's final cash and net
worth of their .expected.json."""

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
GAMES = [("1889", "314"), ("1889", "hs_jmmljkbw_17502"),
         ("18Chesapeake", "1277"), ("18Chesapeake", "1905"), ("18Chesapeake", "3055")]
TITLE = {"1889": "1889", "18Chesapeake": "18chesapeake"}   # the data's folder -> the bank's title


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
    assert logparse.title_of_log(log_text(title, game)) == TITLE[title]


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
    assert result.commands[0][1].startswith(f"new {TITLE[title]} ")
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


@pytest.mark.parametrize(("game", "corp"), [("1277", "SRR"), ("1905", "CnA"), ("3055", "CnO")])
def test_the_log_names_vanderbilt_s_company(game, corp, tmp_path):
    """18Chesapeake D3.1: the log's first line names the company whose president's certificate comes
    with Cornelius Vanderbilt ([log_import] option_lines): the game starts with --option vanderbilt=
    that company, as the bank types it (C&A is CnA)."""
    result = import_log(log_text("18Chesapeake", game), tmp_path / "g.db")
    assert result.options["vanderbilt"] == corp
    assert f" --option vanderbilt={corp}" in result.commands[0][1]


def test_an_export_is_read_and_audited():
    """18Chesapeake D10.2: '-- Event: A 2 train exports --' is the supply's export, which the engine
    makes by itself at the end of the set: the import expects one of that type."""
    entry = logparse.parse_line("-- Event: A 2 train exports --", title="18chesapeake")
    assert entry.kind == "export" and entry.data == {"train": "2"}
    text = log_text("18Chesapeake", "1277")
    exports = [e for e in logparse.parse_log(text)[1] if e.kind == "export"]
    assert [e.data["train"] for e in exports] == ["2", "2", "3", "4"]


@pytest.mark.parametrize(("title", "game"), GAMES)
def test_no_line_reads_two_ways(title, game):
    """With the game's player names, every line of the log matches exactly one of the title's rules."""
    text = log_text(title, game)
    words = logparse.words_for(TITLE[title])
    lines = text.splitlines()
    patterns = logparse._patterns_for(tuple(logparse._discover_players(lines, words)), words)
    twice = [line for line in lines if len(patterns.all_matches(logparse._strip_time(line))) > 1]
    assert twice == []
