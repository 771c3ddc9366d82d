"""`bank import GAME.json`: games as 18xx.games stores them (the `actions` list with undo/redo and
auto_actions, players, optional rules) replayed through our engine and audited (ledger/importer/record.py).

Every shared record (1830's `*.actions.json`, 1889's `json/1889/*.json`, 18Chesapeake's
`json/18Chesapeake/*.json`, tests/data/18xxgames/json/README.md)
reproduces the expected final cash and net worth of every player to the dollar, with no difference
between the record's figures and ours; a tampered figure is named as the first difference with its
action; an old record whose routes carry no revenue is refused in one line; undo/redo follow the
site's own rule; the record's title picks the bank's title (1889 is not read as 1830).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

import pytest
from game_files import in_memory
from typer.testing import CliRunner

from ledger.core.errors import BankError
from ledger.importer.record import RecordImport, effective_actions, read_record
from ledger.importer.sites import for_site_title
from ledger.interface.cli import app

DATA = Path(__file__).resolve().parents[1] / "data" / "18xxgames"
# Named, not globbed: a missing file fails its game's tests instead of leaving nothing to run.
RECORDS = {
    "210011": ("json/1830/210011.actions.json", "210011.expected.json"),
    "26855": ("json/1830/26855.actions.json", "26855.expected.json"),
    "29133": ("json/1830/29133.actions.json", "29133.expected.json"),
    "hs_inzqxyla_1708318031": ("json/1830/hs_inzqxyla_1708318031.actions.json", "hs_inzqxyla_1708318031.expected.json"),
    "1889-314": ("json/1889/314.json", "json/1889/314.expected.json"),
    "1889-hs_jmmljkbw_17502": ("json/1889/hs_jmmljkbw_17502.json", "json/1889/hs_jmmljkbw_17502.expected.json"),
    "18Chesapeake-1277": ("json/18Chesapeake/1277.json", "json/18Chesapeake/1277.expected.json"),
    "18Chesapeake-1905": ("json/18Chesapeake/1905.json", "json/18Chesapeake/1905.expected.json"),
    "18Chesapeake-3055": ("json/18Chesapeake/3055.json", "json/18Chesapeake/3055.expected.json"),
}
CHESAPEAKE = ("18Chesapeake-1277", "18Chesapeake-1905", "18Chesapeake-3055")


def data_file(name: str) -> Path:
    path = DATA / name
    if not path.is_file():
        pytest.fail(f"missing test data {path} (tests/data/18xxgames/json/README.md)")
    return path


@cache
def record_of(game: str) -> dict:
    return json.loads(data_file(RECORDS[game][0]).read_text())


def fresh(game: str) -> dict:
    return copy.deepcopy(record_of(game))


@cache
def expected_of(game: str) -> dict:
    return json.loads(data_file(RECORDS[game][1]).read_text())


@cache
def translated(game: str):
    return read_record(fresh(game))


@pytest.fixture
def tmp_path():
    yield from in_memory()


@pytest.mark.parametrize("game", list(RECORDS))
def test_each_record_reproduces_every_players_cash_and_net_worth(game):
    result = translated(game)
    assert [str(d) for d in result.differences] == []
    exp = expected_of(game)
    assert result.seating == exp["seating"]
    for p in exp["players"]:
        if p["cash"] is not None:
            assert result.final_cash[p["name"]] == p["cash"], p["name"]
        assert result.final_values[p["name"]] == p["value"], p["name"]


def test_the_bank_cash_as_the_site():
    for game in ("1889-314", "1889-hs_jmmljkbw_17502", *CHESAPEAKE):
        result = translated(game)
        exp = expected_of(game)
        if "bank_cash_final" in exp:
            assert result.state.cash("bank") == exp["bank_cash_final"], game


def test_the_record_names_the_title():
    assert translated("1889-314").title == "1889"
    assert translated("210011").title == "1830"
    assert for_site_title("1889").private("TR") == "TER"      # the title's own symbols
    assert for_site_title("1830").private("TR") == "TR"
    assert translated("18Chesapeake-1905").title == "18chesapeake"
    with pytest.raises(BankError, match="no title here imports"):
        read_record({**fresh("1889-314"), "title": "18OE"})


@pytest.mark.parametrize("game", CHESAPEAKE)
def test_a_valued_option_from_the_records_settings(game):
    """Cornelius Vanderbilt's company is the site's draw from the game's seed ([log_import.json]
    settings_options): the game starts with --option vanderbilt=seed:N, N the record's seed."""
    result = translated(game)
    seed = record_of(game)["settings"]["seed"]
    assert result.options["vanderbilt"] == f"seed:{seed}"
    assert result.commands[0][1].endswith(f" --option vanderbilt=seed:{seed}")


def test_the_transcript_types_symbols_as_a_table_does():
    """A symbol a shell would split (B&O, C&OC) is written as its alias; the abilities that move money
    are played with --using (B&S's and C-P's extra lays, C&OC's Berlin tile at its $80 mountain)."""
    texts = [t for _aid, t in translated("18Chesapeake-3055").commands[1:]]
    assert not [t for t in texts if "&" in t]
    assert "tile BnO 0 --using BnS" in texts and "tile CnA 0 --using C-P" in texts
    berlin = texts.index("tile PRR 80 --using CnOC")
    assert texts[berlin + 1] == "token PRR"     # its free station


def test_a_missing_setting_is_named():
    record = fresh("18Chesapeake-1277")
    del record["settings"]["seed"]
    with pytest.raises(BankError, match="vanderbilt"):
        read_record(record)


def first_action(record: dict, kind: str, test=lambda a: True) -> dict:
    return next(a for a in record["actions"] if a["type"] == kind and test(a))


def test_a_tampered_train_price_is_the_first_difference_with_its_action():
    record = fresh("1889-314")
    effective = {id(a) for a in effective_actions(record["actions"])}
    train = first_action(record, "buy_train", lambda a: id(a) in effective and not a.get("exchange"))
    train["price"] += 10
    result = read_record(record)
    assert result.differences, "the tampered price went unnoticed"
    first = result.differences[0]
    assert first.action == train["id"]
    assert str(first).startswith(f"action {train['id']}: ")
    assert f"record {train['price']}" in str(first)


def test_a_tampered_bid_is_named_with_its_action():
    record = fresh("1889-314")
    # Player 1 buys the cheapest private (the site's TR, the bank's TER) at its ¥20 face value
    bid = first_action(record, "bid", lambda a: a["company"] == "TR")
    bid["price"] += 5
    result = read_record(record)
    assert result.differences and result.differences[0].action == bid["id"]


def test_a_tampered_revenue_changes_the_result():
    record = fresh("1889-314")
    run = first_action(record, "run_routes")
    run["routes"][0]["revenue"] += 10
    result = read_record(record)
    assert any(d.action == "result" for d in result.differences)


def test_a_record_without_route_revenue_is_refused_in_one_line():
    record = fresh("1889-314")
    runs = [a for a in record["actions"] if a["type"] == "run_routes"]
    for route in runs[1]["routes"]:
        del route["revenue"]
    with pytest.raises(BankError) as info:
        read_record(record)
    message = info.value.line()
    assert "\n" not in message and f"action {runs[1]['id']}" in message and "revenue" in message


def act(i, kind="pass", **kw):
    return {"id": i, "type": kind, **kw}


def test_undo_and_redo_as_the_site():
    ids = lambda acts: [a["id"] for a in effective_actions(acts)]  # noqa: E731
    assert ids([act(25, "lay_tile"), act(26, "undo"), act(27, "lay_tile")]) == [27]
    assert ids([act(10, "buy_shares"), act(11), act(12, "undo"), act(13, "undo"), act(14, "redo")]) == [10]
    assert ids([act(10), act(11), act(12), act(13, "undo", action_id=10), act(14, "buy_shares"),
                act(15, "redo")]) == [10, 14]
    assert ids([act(1), act(2, "message"), act(3, "undo", action_id=0), act(4)]) == [4]
    with pytest.raises(BankError, match="undo to action 99"):
        effective_actions([act(1), act(2, "undo", action_id=99)])
    # auto_actions follow their parent, under its id
    acts = effective_actions([act(5, "buy_shares", auto_actions=[{"type": "pass", "entity": 1}])])
    assert [(a["id"], a["type"]) for a in acts] == [(5, "buy_shares"), (5, "pass")]


def test_bank_import_json_through_the_cli(tmp_path):
    db = tmp_path / "g.db"
    out = tmp_path / "t.txt"
    record = tmp_path / "hs.json"
    record.write_text(json.dumps(fresh("1889-hs_jmmljkbw_17502")))
    result = CliRunner().invoke(app, ["--game", str(db), "import", str(record), "--transcript", str(out)])
    assert result.exit_code == 0, result.output
    assert "audit: every figure in the record matches" in result.output
    assert out.read_text().splitlines()[1].startswith("new 1889 ")
    score = CliRunner().invoke(app, ["--game", str(db), "score", "--json"])
    assert score.exit_code == 0, score.output
    board = json.loads(score.output)
    assert board["game_over"]
    exp = expected_of("1889-hs_jmmljkbw_17502")["players"]
    assert {p["name"]: (p["cash"], p["value"]) for p in board["players"]} == \
        {p["name"]: (p["cash"], p["value"]) for p in exp}


def test_bank_import_json_of_18chesapeake_through_the_cli(tmp_path):
    game = "18Chesapeake-1905"
    db = tmp_path / "g.db"
    record = tmp_path / "1905.json"
    record.write_text(json.dumps(fresh(game)))
    result = CliRunner().invoke(app, ["--game", str(db), "import", str(record)])
    assert result.exit_code == 0, result.output
    assert "audit: every figure in the record matches" in result.output
    score = CliRunner().invoke(app, ["--game", str(db), "score", "--json"])
    assert score.exit_code == 0, score.output
    board = json.loads(score.output)
    assert board["game_over"]
    exp = expected_of(game)["players"]
    assert {p["name"]: (p["cash"], p["value"]) for p in board["players"]} == \
        {p["name"]: (p["cash"], p["value"]) for p in exp}


def test_bank_import_refuses_an_old_record_in_one_line(tmp_path):
    record = fresh("1889-314")
    run = first_action(record, "run_routes")
    for route in run["routes"]:
        del route["revenue"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    db = tmp_path / "g.db"
    result = CliRunner().invoke(app, ["--game", str(db), "import", str(path)])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and f"action {run['id']}" in lines[0], result.output
    assert not db.exists()


def test_the_reader_holds_no_titles_words():
    importer = Path(__file__).resolve().parents[2] / "ledger" / "importer"
    text = (importer / "record.py").read_text()
    for word in ('"1830"', '"1889"', '"TER"', '"SMR"', '"MH"', '"DH"', '"ERIE"', '"I4"'):
        assert word not in text, word
    text += (importer / "sites.py").read_text()
    for word in ("18Chesapeake", "18chesapeake", "vanderbilt", "C&OC", "CnOC", "B&S", "B&OR", '"D2"'):
        assert word not in text, word


def test_a_game_of_another_title_is_not_read_as_1830():
    imp = RecordImport(fresh("1889-hs_jmmljkbw_17502"))
    assert imp.words.title == "1889" and "TER" in {p.sym for p in imp.rs.privates}
