"""Nothing lost (issue 24): every correction recoverable, every tampering seen, one line for every
failure, money typed in bash meaning what was typed. Through the real `bank` command line (typer's
runner) and the SQLite file it writes, on the 1830 opening example (73 commands).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_driver import Bank, error_line, report_lines
from game_files import in_memory, played_file

from ledger.interface.cli import app
from ledger.interface.shell import Shell
from outside import sql  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OPENING = ROOT / "examples" / "1830-opening.txt"
LOG = ROOT / "tests" / "data" / "18xxgames" / "179263.log.txt"


@pytest.fixture
def tmp_path():
    """This module's tests write whole games: their files live on the memory filesystem
    (game_files.in_memory), where a durable commit does not wait for a busy disk."""
    yield from in_memory()


@pytest.fixture(scope="module")
def played() -> Path:
    return played_file(OPENING.name)  # played once through the CLI; each test gets a copy


@pytest.fixture
def game(played, tmp_path) -> Bank:
    db = tmp_path / "game.db"
    shutil.copyfile(played, db)
    return Bank(db)


def digest(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def problems(bank: Bank) -> list[str]:
    result = bank("audit", ok=False)
    assert result.exit_code == 8
    return [line for line in report_lines(result.stdout) if line.startswith("PROBLEM")]


# =========================================================================== 1. nothing a command does loses a game

def test_import_replace_with_an_unreadable_log_keeps_the_game(game, tmp_path):
    before = digest(game.db)
    empty = tmp_path / "empty.log"
    empty.write_text("")
    # an empty log names no title: the refusal says so and how to name one
    assert "the log does not say which title" in error_line(game("import", "--replace", str(empty), ok=False))
    binary = tmp_path / "binary.log"
    binary.write_bytes(b"\xff\xfe\x00junk")
    assert "cannot read the log" in error_line(game("import", "--replace", str(binary), ok=False))
    assert "is not a file" in error_line(game("import", "--replace", "/dev/null", ok=False))
    assert digest(game.db) == before
    assert not list(tmp_path.glob(".bank-*")) and not list(tmp_path.glob("*.bak*"))


def test_import_replace_keeps_the_old_game_beside_the_new(game, tmp_path):
    before = digest(game.db)
    out = game("import", "--replace", str(LOG)).stdout
    assert f"the game that was in {game.db} is kept as {game.db}.bak" in out
    assert digest(tmp_path / "game.db.bak") == before
    assert Bank(tmp_path / "game.db.bak").status()["round"] == "OR 2.1"
    assert game.status()["game_over"] is True
    # a second replace keeps the second old game under the next free name
    game("import", "--replace", str(LOG))
    assert (tmp_path / "game.db.bak-2").exists()


def test_undo_to_hiding_many_commands_needs_yes(game):
    before = digest(game.db)
    line = error_line(game("undo", "--to", "2", ok=False))
    assert "undo --to 2 would hide 71 commands (3 bid Bob CS 50 to 73 pass Dave): nothing was hidden" in line
    assert "add --yes" in line
    assert digest(game.db) == before
    out = game("undo", "--to", "68").stdout  # five commands: a handful, no confirmation
    assert "undone: 5 command(s) after command 68" in out
    game("redo")
    assert "undone: 71 command(s)" in game("undo", "--to", "2", "--yes").stdout


def test_the_shell_asks_before_undo_to_hides_many(game, monkeypatch):
    obj = {"game": game.db}
    from typer.main import get_command
    shell = Shell(get_command(app), obj)
    shell.interactive = True
    answers = iter(["n", "y"])
    asked = []

    def answer(question):
        asked.append(question)
        return next(answers)
    monkeypatch.setattr("builtins.input", answer)
    shell.run_line("undo --to 2")
    assert asked == ["undo --to 2 hides 71 commands (3 bid Bob CS 50 to 73 pass Dave)? [y/N] "]
    assert game.status()["round"] == "OR 2.1"
    shell.run_line("undo --to 2")
    assert game.status()["round"] == "Auction"


def test_hidden_commands_are_listed_and_restored_after_a_new_command(game):
    end = game.status_text()
    game("undo", "--to", "2", "--yes")
    game("count", "Alice", "600")  # a new command: redo can no longer reach them
    assert "nothing to redo" in error_line(game("redo", ok=False))
    hidden = game("log", "--hidden").stdout
    assert "   3  Auction" in hidden and "bid Bob CS 50 [undone]" in hidden and "73  " in hidden
    assert "bank restore N" in hidden
    out = game("restore", "3").stdout
    assert "restored 71 hidden command(s), 3-73, as commands 76-146" in out
    status = json.loads(end)
    assert game.status() == status
    # the hidden commands stay in the ledger, hidden; the restore is recorded
    rows = game.query("select id, status from commands where id between 3 and 73")
    assert {r["status"] for r in rows} == {"undone"}
    assert game.query("select verb, status from commands order by id desc limit 1") == [
        {"verb": "restore", "status": "meta"}]
    assert "audit: ledger, replay and rules agree" in game("audit").stdout
    # undo takes the whole restore back, redo puts it back
    assert "undone: restore 3" in game("undo").stdout
    assert game.status()["round"] == "Auction"
    game("redo")
    assert game.status() == status


def test_restore_refuses_naming_the_first_command_that_no_longer_holds(game):
    game("undo", "--to", "40", "--yes")
    game("undo", "--to", "38", "--yes")  # a second step: 39-40
    before = digest(game.db)
    game_line = error_line(game("restore", "3", ok=False))
    assert "restore 3: command 3 is in play, not a hidden command" in game_line
    line = error_line(game("restore", "41", "--to", "41", ok=False))
    assert line.startswith("error: restore refused: command 41 (")
    assert "no longer holds" in line
    assert digest(game.db) == before
    # the commands hidden by the first step, from 41 on, need 39-40 first
    game("restore", "39")
    assert "restored 33 hidden command(s), 41-73" in game("restore", "41").stdout
    assert game.status()["round"] == "OR 2.1"


def test_amend_replaces_a_past_amount_and_says_what_money_moved(game):
    before = game.status()
    out = game("amend", "48", "tile C&O 0").stdout  # typed as `tile C&O 80`: there was no terrain
    assert "amended command 48 (tile C&O 80): now command 74: tile C&O 0" in out
    assert "re-derived 25 later command(s): 49-73 are now 75-99" in out
    assert "money: C&O +$80, the bank -$80" in out
    after = game.status()
    cash = lambda status: next(c["cash"] for c in status["companies"] if c["sym"] == "C&O")  # noqa: E731
    assert cash(after) == cash(before) + 80 and after["round"] == before["round"]
    # the old command stays in the ledger, superseded, and the audit agrees
    assert game.query("select text, status from commands where id = 48") == [
        {"text": "tile C&O 80", "status": "superseded"}]
    assert "audit: ledger, replay and rules agree" in game("audit").stdout
    # undo takes the whole amend back; redo puts it back
    assert "undone: amend 48" in game("undo").stdout
    assert game.status() == before
    game("redo")
    assert game.status() == after


def test_amend_refused_by_a_later_command_names_it_and_changes_nothing(game):
    log = game.log()
    par = next(e for e in log if e["text"] == "par Carol C&O 71")
    before = digest(game.db)
    line = error_line(game("amend", str(par["id"]), "par Carol C&O 100", ok=False))
    assert line.startswith("error: amend refused: with 'par Carol C&O 100' in place of command")
    assert "would be refused" in line
    assert digest(game.db) == before
    assert "the start of the game (command 1) cannot be amended" in error_line(
        game("amend", "1", "pass Alice", ok=False))
    assert "only a game command" in error_line(game("amend", "5", "status", ok=False))


# =========================================================================== 2. every change to the file is seen

def test_deleting_the_last_command_row_is_refused_and_audited(game):
    sql(game.db, "delete from commands where id = (select max(id) from commands)")
    before = digest(game.db)
    line = error_line(game("count", "Alice", "10", ok=False))
    assert "was changed outside bank: its last command should be 73, but the file ends with command 72" in line
    assert "its last command should be 73" in error_line(game("status", ok=False))
    assert digest(game.db) == before
    assert any("belong to command 73, which is not in the record" in p for p in problems(game))


def test_editing_a_command_text_is_audited(game):
    sql(game.db, "update commands set text = 'pass Bob' where id = 5")
    assert problems(game) == ["PROBLEM: command 5 (pass Bob): the row, its events, its round, its worth per round "
                              "or the row before it were changed, added or removed after they were recorded"]


def test_editing_the_last_command_is_refused_on_open(game):
    sql(game.db, "update events set data = replace(data, '\"Dave\"', '\"Carol\"') "
                 "where command_id = (select max(id) from commands)")
    line = error_line(game("status", ok=False))
    assert "command 73 (pass Dave) or its events, its round or its worth per round were changed" in line


def test_a_swapped_snapshot_is_never_used(game):
    truth = game.status()
    ids = [r["command_id"] for r in game.query("select command_id from state_snapshots order by command_id")]
    a, b = ids[-2], ids[-1]
    sql(game.db, f"update state_snapshots set command_id = -1 where command_id = {a}",
        f"update state_snapshots set command_id = {a} where command_id = {b}",
        f"update state_snapshots set command_id = {b} where command_id = -1")
    assert game.status() == truth
    found = problems(game)
    assert any(f"state snapshot of command {b}" in p and "hash" in p for p in found)


def test_money_moved_inside_a_snapshot_is_never_used(game):
    truth = game.status()
    latest = game.query("select max(command_id) as c from state_snapshots")[0]["c"]
    state = json.loads(game.query(f"select state from state_snapshots where command_id = {latest}")[0]["state"])
    state["balances"]["player:Alice"] += 50
    state["balances"]["player:Bob"] -= 50
    conn = sqlite3.connect(game.db)
    conn.execute("update state_snapshots set state = ? where command_id = ?", (json.dumps(state), latest))
    conn.commit()
    conn.close()
    assert game.status() == truth
    assert any("differs from the replay in balances" in p for p in problems(game))
    # an edited cache is an edited file: no write until the cache is dropped (issue 36)
    assert "fails its hash" in error_line(game("count", "Alice", str(truth["players"][0]["cash"]), ok=False))
    sql(game.db, "delete from state_snapshots")
    game("count", "Alice", str(truth["players"][0]["cash"]))  # decided on the true state
    assert game.log()[-1]["text"].startswith("count Alice")


def test_reordered_certificate_moves_are_audited(game):
    rows = game.query("select id from cert_moves where cert = 'PRR.1' order by id")
    first, last = rows[0]["id"], rows[-1]["id"]
    sql(game.db, f"update cert_moves set id = -1 where id = {first}",
        f"update cert_moves set id = {first} where id = {last}",
        f"update cert_moves set id = {last} where id = -1")
    assert any("certificate moves are out of the order of their events" in p for p in problems(game))


def test_a_changed_status_is_audited(game):
    sql(game.db, "update commands set status = 'undone' where id = 30")
    assert "PROBLEM: command 30 is undone, but the records make it active: its status was changed outside bank" \
        in problems(game)


def test_a_zeroed_page_takes_no_write(game):
    size = Path(game.db).stat().st_size
    page = 4096
    refused = 0
    for number in range(2, size // page):
        copy = Path(game.db).with_name(f"zeroed{number}.db")
        shutil.copyfile(game.db, copy)
        with open(copy, "r+b") as f:
            f.seek(number * page)
            f.write(bytes(page))
        before = digest(copy)
        result = Bank(copy)("count", "Alice", "5", ok=None)
        if result.exit_code:
            error_line(result)
            refused += 1
            assert digest(copy) == before
    assert refused == size // page - 2  # every page of a game file holds data: each zeroed one is refused


# =========================================================================== 3. one line for every failure

@pytest.mark.parametrize("words", [
    ["undo", "--to", "99999999999999999999"],
    ["insert", "--before", "99999999999999999999", "pass Alice"],
    ["amend", "99999999999999999999", "pass Alice"],
    ["restore", "99999999999999999999"],
    ["explain", "99999999999999999999"],
    ["count", "Alice", "99999999999999999999"],
])
def test_a_number_out_of_range_is_a_plain_refusal(game, words):
    line = error_line(game(*words, ok=False))
    assert "internal error" not in line and "99999999999999999999" in line


def test_a_schema_that_is_not_text_is_one_line(game):
    data = bytearray(Path(game.db).read_bytes())
    at = data.find(b"CREATE TABLE game")
    assert at > 0
    data[at + 3] = 0xFF
    Path(game.db).write_bytes(bytes(data))
    for words in (["status"], ["audit"], ["count", "Alice", "5"]):
        line = error_line(game(*words, ok=False))
        assert "is not a readable bank game" in line and "not text" in line


def test_log_refuses_an_unknown_round_naming_the_rounds(game):
    line = error_line(game("log", "--round", "foo", ok=False))
    assert line == "error: no round 'foo' in this game (hint: its rounds: Auction, SR 1, OR 1.1, SR 2, OR 2.1)"
    assert "buy Bob PRR" in game("log", "--round", "sr 2").stdout


def test_a_killed_new_leaves_nothing_behind_the_next_new(tmp_path):
    for name in (".bank-new-999999.db", ".bank-new-999999.db-journal", ".bank-import-999998.db"):
        (tmp_path / name).write_bytes(b"half a game")
    Bank(tmp_path / "g.db")("new", "1830", "Ann", "Ben", "Cy")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]


# =========================================================================== 4. money typed means what was typed

def test_next_line_and_hints_paste_into_bash(game):
    game("withhold", "NYC", "0")   # the train step: what is for sale, as it pastes into bash
    out = game("status").stdout
    next_line = " ".join(out.split("Next:", 1)[1].split())
    assert "$" not in next_line and "for sale: 3 at 180" in next_line
    fresh = Bank(Path(game.db).with_name("fresh.db"))
    fresh("new", "1830", "Alice", "Bob", "Carol", "Dave")
    assert "buy Bob SV (for 20) · bid Bob CS 45 (or more; DH" in fresh("pass", "Alice").stdout
    # a refusal's hint is a command to type: B&M by its plain alias
    sr2 = next(e["id"] for e in game.log() if e["round"] == "SR 2")
    game("undo", "--to", str(sr2), "--yes")
    line = error_line(game("buy", "Bob", "BnM", ok=False))
    assert line == "error: B&M has not been started (hint: par Bob BnM PRICE)"


def test_the_shell_reads_currency_signs_as_the_amount(game):
    from typer.main import get_command
    obj = {"game": game.db}
    shell = Shell(get_command(app), obj)
    shell.run_line("count Alice $40")
    shell.run_line("count Alice £41")
    shell.run_line("count Alice ƒ42")
    shell.run_line("count Alice 43fr")
    counts = [json.loads(r["data"])["counted"] for r in game.query(
        "select data from events where kind = 'count' order by id")]
    assert counts == [40, 41, 42, 43]
    assert shell.errors == 0
