"""The `bank` command line through typer's CliRunner (DESIGN.md §4, §5).

Each call runs like `bank --game DB VERB ARGS` from a shell: `sys.argv` is set to that command line,
because the CLI stores the command as typed (taken from argv when it is not a transcript line).
"""

from __future__ import annotations

import json

import pytest
from cli_driver import Bank, error_line
from game_files import in_memory

PLAYERS = ["Alice", "Bob", "Carol", "Dave"]
AUCTION = ["buy Alice SV", "buy Bob CS", "buy Carol DH", "buy Dave MH", "buy Alice CA", "buy Bob BO",
           "par Bob B&O 100"]


@pytest.fixture
def tmp_path():
    """This module's tests write whole games: their files live on the memory filesystem
    (game_files.in_memory), where a durable commit does not wait for a busy disk."""
    yield from in_memory()


@pytest.fixture
def bank(tmp_path, monkeypatch):
    b = Bank(tmp_path / "game.db", monkeypatch)
    b("new", "1830", *PLAYERS)
    return b


# --------------------------------------------------------------------------- a new game and the contract

def test_new_game_status(bank):
    st = bank.status()
    assert st["title"] == "1830"
    assert st["round"] == "Auction" and st["phase"] == "2"
    assert st["bank"] == 12000 - 4 * 600
    assert st["game_over"] is False
    assert [p["name"] for p in st["players"]] == PLAYERS
    for p in st["players"]:
        assert (p["cash"], p["certificates"], p["shares"], p["privates"], p["value"]) == (600, 0, {}, [], 600)
    assert [c["sym"] for c in st["companies"]] == ["PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"]
    assert [p["sym"] for p in st["privates"]] == ["SV", "CS", "DH", "MH", "CA", "BO"]


def test_new_refuses_an_existing_game(bank):
    result = bank("new", "1830", "W", "X", "Y", ok=False)
    assert "already" in error_line(result)


def test_status_json_contract_after_auction_commands(bank):
    bank("bid", "Alice", "CS", "45")
    bank("buy", "Bob", "SV")  # SV to Bob for $20; CS resolves to Alice's single bid of $45
    st = bank.status()
    # DESIGN.md §4 contract keys
    assert {"title", "round", "phase", "bank", "game_over", "players", "companies", "privates"} <= set(st)
    for p in st["players"]:
        assert {"name", "cash", "certificates", "shares", "privates", "value"} <= set(p)
    for c in st["companies"]:
        assert {"sym", "cash", "par", "price", "president", "ipo", "pool", "trains", "floated"} <= set(c)
    for p in st["privates"]:
        assert {"sym", "owner", "closed"} <= set(p)
    players = {p["name"]: p for p in st["players"]}
    assert st["bank"] == 9600 + 20 + 45
    assert players["Alice"]["cash"] == 555 and players["Alice"]["privates"] == ["CS"]
    assert players["Alice"]["value"] == 555 + 40 and players["Alice"]["certificates"] == 1
    assert players["Bob"]["cash"] == 580 and players["Bob"]["privates"] == ["SV"]
    assert players["Bob"]["value"] == 580 + 20
    assert players["Carol"]["cash"] == 600 and players["Carol"]["privates"] == []
    owners = {p["sym"]: p["owner"] for p in st["privates"]}
    assert owners == {"SV": "Bob", "CS": "Alice", "DH": None, "MH": None, "CA": None, "BO": None}
    assert all(p["closed"] is False for p in st["privates"])


def test_status_json_after_the_auction(bank):
    for line in AUCTION:
        bank.line(line)
    st = bank.status()
    assert st["round"] == "SR 1"
    assert st["bank"] == 9600 + 620
    companies = {c["sym"]: c for c in st["companies"]}
    bo = companies["B&O"]
    assert (bo["par"], bo["price"], bo["president"], bo["ipo"], bo["pool"], bo["floated"], bo["trains"], bo["cash"]) \
        == (100, 100, "Bob", 80, 0, False, [], 0)
    prr = companies["PRR"]
    assert prr["par"] is None and prr["president"] is None and prr["ipo"] == 90
    players = {p["name"]: p for p in st["players"]}
    assert players["Alice"]["shares"] == {"PRR": 10}
    assert players["Alice"]["certificates"] == 3  # SV, CA and the unparred PRR share
    assert players["Alice"]["value"] == 600 - 180 + 20 + 160  # the PRR share is worth $0 until PRR is parred
    assert players["Bob"]["shares"] == {"B&O": 20}
    assert players["Bob"]["value"] == 600 - 260 + 2 * 100 + 40 + 220


def test_score_json_shape(bank):
    bank("bid", "Alice", "CS", "45")
    bank("buy", "Bob", "SV")
    sc = json.loads(bank("score", "--json").stdout)
    assert sc["game_over"] is False and sc["end_reason"] is None
    rows = {r["name"]: r for r in sc["players"]}
    assert set(rows) == set(PLAYERS)
    for r in sc["players"]:
        assert {"name", "cash", "value", "rank"} <= set(r)
    assert rows["Alice"]["value"] == 555 + 40 and rows["Bob"]["value"] == 600
    # ranks follow the values: a higher value never ranks below a lower one, ties share a rank
    for a in sc["players"]:
        for b in sc["players"]:
            if a["value"] > b["value"]:
                assert a["rank"] < b["rank"]
            if a["value"] == b["value"]:
                assert a["rank"] == b["rank"]
    assert min(r["rank"] for r in sc["players"]) == 1


def test_score_after_end(bank):
    bank("end")
    sc = json.loads(bank("score", "--json").stdout)
    assert sc["game_over"] is True and isinstance(sc["end_reason"], str)
    st = bank.status()
    assert st["game_over"] is True


def test_market_shows_markers(bank):
    for line in AUCTION:
        bank.line(line)
    out = bank("market").stdout
    # the marker sits on the line under its box: B&O under the 100 par box of the top row
    lines = out.splitlines()
    row = next(i for i, line in enumerate(lines) if "100p" in line)
    column = lines[row].index("100p")
    assert lines[row + 1][column:column + 3] == "B&O", out
    assert "PRR" not in out  # not parred: no marker
    assert max(len(line) for line in lines) <= 80


def test_log_lists_commands(bank):
    lines = ["bid Alice CS 45", "buy Bob SV", "pass Carol"]
    for line in lines:
        bank.line(line)
    out = bank("log").stdout
    positions = [out.find(line) for line in lines]
    assert all(p >= 0 for p in positions), out
    assert positions == sorted(positions)
    assert "new 1830 Alice Bob Carol Dave" in out


def test_log_marks_undone_commands(bank):
    bank.line("bid Alice CS 45")
    bank("undo")
    assert bank.status()["players"][0]["cash"] == 600
    assert "bid Alice CS 45" not in bank("log").stdout
    assert "bid Alice CS 45" in bank("log", "--all").stdout
    bank("redo")
    st = bank.status()
    assert st["turn"].startswith("Auction: Bob")


# --------------------------------------------------------------------------- errors

def test_rule_violation_is_one_line_with_numbers_and_changes_nothing(bank):
    before = bank("status", "--json").stdout
    result = bank("bid", "Alice", "CS", "44", ok=False)
    line = error_line(result)
    assert "$45" in line and "44" in line, line
    assert result.stdout == ""
    assert bank("status", "--json").stdout == before


def test_out_of_turn(bank):
    before = bank("status", "--json").stdout
    line = error_line(bank("pass", "Bob", ok=False))
    assert "Alice" in line and "turn" in line
    assert bank("status", "--json").stdout == before


def test_cash_commitment_error_names_the_numbers(bank):
    bank.line("bid Alice BO 560")
    bank.line("pass Bob")
    bank.line("pass Carol")
    bank.line("pass Dave")
    line = error_line(bank("bid", "Alice", "CA", "165", ok=False))
    assert "$40" in line and "560" in line and "165" in line, line


def test_unknown_player_suggests_the_closest(bank):
    before = bank("status", "--json").stdout
    result = bank("pass", "Alcie", ok=False)
    line = error_line(result)
    assert "Alcie" in line and "Alice" in line, line
    assert bank("status", "--json").stdout == before


def test_unknown_private_suggests_the_closest(bank):
    line = error_line(bank("bid", "Alice", "CX", "50", ok=False))
    assert "CX" in line and "did you mean" in line


def test_bad_amount_is_a_command_error(bank):
    before = bank("status", "--json").stdout
    result = bank("bid", "Alice", "CS", "lots", ok=False)
    line = error_line(result)
    assert "lots" in line
    assert bank("status", "--json").stdout == before


def test_a_mistyped_verb_suggests_the_closest(bank):
    """`bank selll Bob NYC` said click's "No such command 'selll'." and pointed at `bank --help`,
    which lists the shared verbs only: the verb nearest to the typo is named, else `bank help`."""
    line = error_line(bank("selll", "Bob", "NYC", ok=False))
    assert "unknown command 'selll'" in line and "did you mean sell?" in line, line
    line = error_line(bank("stauts", ok=False))
    assert "did you mean status?" in line, line
    line = error_line(bank("frobnicate", ok=False))
    assert "unknown command 'frobnicate'" in line and "bank help" in line, line
    assert "--help" not in line and "No such command" not in line, line


def test_a_missing_argument_names_the_verb_and_its_help(bank):
    """`bank pay` said "Missing argument 'CORP'. (hint: 'bank --help', 'bank VERB --help')": the
    hint names the verb's own help, as the game's other refusals name what to type."""
    line = error_line(bank("pay", ok=False))
    assert "CORP" in line and "bank help pay" in line, line
    assert "VERB" not in line, line
    assert error_line(bank("buy", "Dave", ok=False)).count("bank help buy") == 1


def test_rule_and_command_errors_have_different_exit_codes(bank):
    rule = bank("bid", "Alice", "CS", "44", ok=False).exit_code
    malformed = bank("pass", "Zed", ok=False).exit_code
    assert rule != 0 and malformed != 0 and rule != malformed


def test_missing_game_file(tmp_path, monkeypatch):
    b = Bank(tmp_path / "none.db", monkeypatch)
    line = error_line(b("status", ok=False))
    assert "no game" in line
    assert not (tmp_path / "none.db").exists()


# --------------------------------------------------------------------------- transcripts

def test_play_a_transcript(tmp_path, monkeypatch):
    script = tmp_path / "t.txt"
    script.write_text("# a small game\n"
                      "new 1830 Alice Bob Carol Dave\n"
                      "\n"
                      "bid Alice CS 45   # Alice wants CS\n"
                      "buy Bob SV\n"
                      "pass Carol\n")
    b = Bank(tmp_path / "g.db", monkeypatch)
    b("play", str(script))
    st = b.status()
    players = {p["name"]: p for p in st["players"]}
    assert players["Alice"]["cash"] == 555 and players["Bob"]["cash"] == 580
    assert st["turn"].startswith("Auction: Dave")
    out = b("log").stdout
    assert "pass Carol" in out and "bid Alice CS 45" in out


def test_play_stops_at_the_first_rejected_line_and_keeps_the_rest(tmp_path, monkeypatch):
    script = tmp_path / "t.txt"
    script.write_text("new 1830 Alice Bob Carol Dave\n"
                      "bid Alice CS 45\n"
                      "# comment\n"
                      "bid Bob CS 47\n"        # line 4: below the $50 minimum
                      "buy Bob SV\n")
    b = Bank(tmp_path / "g.db", monkeypatch)
    result = b("play", str(script), ok=False)
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert ":4:" in lines[0] and "bid Bob CS 47" in lines[0] and "$50" in lines[0]
    st = b.status()
    players = {p["name"]: p for p in st["players"]}
    assert players["Bob"]["cash"] == 600 and players["Bob"]["privates"] == []  # line 5 never ran
    assert [p for p in st["privates"] if p["owner"]] == []
    assert st["turn"].startswith("Auction: Bob")  # the bid on line 2 was kept
    assert "bid Alice CS 45" in b("log").stdout


def test_play_continues_an_existing_game(bank, tmp_path):
    script = tmp_path / "more.txt"
    script.write_text("\n".join(AUCTION) + "\n")
    bank("play", str(script))
    st = bank.status()
    assert st["round"] == "SR 1"
    assert {p["sym"]: p["owner"] for p in st["privates"]} == {
        "SV": "Alice", "CS": "Bob", "DH": "Carol", "MH": "Dave", "CA": "Alice", "BO": "Bob"}


def test_play_missing_file(bank, tmp_path):
    line = error_line(bank("play", str(tmp_path / "nope.txt"), ok=False))
    assert "nope.txt" in line
