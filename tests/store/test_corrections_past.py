"""Corrections in the past: `bank undo --to N` and `bank insert --before N "COMMAND"`, through the
`bank` command line and the SQLite file it writes.

The example game (examples/1830-full-game.txt) is played once per module, and twice more as the
table might have played it:

- without B&M's first tile line (command 343, `tile B&M 0` in OR 6.1): the banker forgot to type
  it, and later inserts it as it really was, `tile B&M 120`;
- with `tile B&M 120` in its place: the independent oracle, played from a transcript, that the
  game with the insertion must equal command for command.

Every earlier tile of 80 or 120 in this game cannot be inserted: the companies spend their last
dollar, so some later command always fails (those refusals are tested too).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_driver import Bank, error_line
from game_files import in_memory, memory_folder, played_file
from transcripts import lines_of

from ledger import ENGINE_VERSION
from ledger.books.session import Session
from ledger.core import engine
from ledger.core.events import apply

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "examples" / "1830-full-game.txt"
OPENING = ROOT / "examples" / "1830-opening.txt"
FORGOTTEN = 343  # `tile B&M 0`: B&M's first operating turn (OR 6.1)


# --------------------------------------------------------------------------- helpers


def flat(text: str) -> str:
    """The output with its lines joined: the views wrap to the terminal's width (80 in a pipe), and
    these tests read what a line says, not where it breaks."""
    return " ".join(text.split())


@pytest.fixture
def tmp_path():
    """This module's tests write whole games: their files live on the memory filesystem
    (game_files.in_memory), where a durable commit does not wait for a busy disk."""
    yield from in_memory()


def play(lines: list[str], db: Path) -> Bank:
    script = db.with_suffix(".txt")
    script.write_text("\n".join(lines) + "\n")
    bank = Bank(db)
    bank("play", str(script))
    return bank


def copy(src: Path, dest: Path) -> Bank:
    shutil.copyfile(src, dest)
    return Bank(dest)


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def rows(db, sql: str, params=()) -> list[tuple]:
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def in_play(db) -> list[dict]:
    """Every command in play, in play order, with its events and every balance after it, replayed
    here from the stored events (not by the code under test)."""
    session = Session.open(db)
    try:
        state = engine.initial_state(session.rs, session.players, session.options)
    finally:
        session.close()
    events: dict[int, list[dict]] = {}
    for command_id, data in rows(db, "select command_id, data from events order by id"):
        events.setdefault(command_id, []).append(json.loads(data))
    out = []
    for command_id, text in rows(db, "select id, text from commands where status = 'active' order by id"):
        for event in events.get(command_id, []):
            apply(state, event)
        out.append({"id": command_id, "text": text, "events": events.get(command_id, []),
                    "balances": {a: v for a, v in state.balances.items() if v}})
    return out


def difference(after: dict, before: dict) -> dict:
    return {a: after.get(a, 0) - before.get(a, 0) for a in set(after) | set(before)
            if after.get(a, 0) != before.get(a, 0)}


def ledger_rows(db) -> dict[str, list[tuple]]:
    """Every ledger row (commands without their status, events, postings, certificate moves)."""
    return {"commands": rows(db, "select id, text, verb, args, at from commands order by id"),
            "events": rows(db, "select * from events order by id"),
            "postings": rows(db, "select * from postings order by id"),
            "cert_moves": rows(db, "select * from cert_moves order by id"),
            "snapshots": rows(db, "select * from snapshots order by id")}


def statuses(db) -> list[tuple]:
    return rows(db, "select id, status from commands order by id")


# --------------------------------------------------------------------------- games

@pytest.fixture(scope="module")
def lines() -> list[str]:
    out = lines_of(FULL.read_text())
    assert out[FORGOTTEN - 1] == "tile B&M 0" and "tile B&M" not in " ".join(out[:FORGOTTEN - 1])
    return out


@pytest.fixture(scope="module")
def full_master(lines) -> Path:
    """The example game as `bank play` of its transcript left it (game_files: played once for every
    test that reads it; each test here changes a copy)."""
    return played_file(FULL.name)


@pytest.fixture(scope="module")
def forgot_master(lines) -> Path:
    """The example game as typed by a banker who forgot B&M's tile in OR 6.1."""
    db = memory_folder("forgot") / "forgot.db"
    play(lines[:FORGOTTEN - 1] + lines[FORGOTTEN:], db)
    return db


@pytest.fixture(scope="module")
def oracle_master(lines) -> Path:
    """The example game with B&M's tile as it really was, played from the start."""
    db = memory_folder("oracle") / "oracle.db"
    play(lines[:FORGOTTEN - 1] + ["tile B&M 120"] + lines[FORGOTTEN:], db)
    return db


@pytest.fixture
def full(full_master, tmp_path) -> Bank:
    return copy(full_master, tmp_path / "full.db")


@pytest.fixture
def forgot(forgot_master, tmp_path) -> Bank:
    return copy(forgot_master, tmp_path / "forgot.db")


@pytest.fixture(scope="module")
def opening_master() -> Path:
    return played_file(OPENING.name)


@pytest.fixture
def opening(opening_master, tmp_path) -> Bank:
    return copy(opening_master, tmp_path / "opening.db")


# =========================================================================== undo --to

def test_undo_to_hides_everything_after_n_in_one_step_and_redo_brings_it_all_back(full, lines, tmp_path):
    before_status, before_log = full.status_text(), full.log()
    before_rows = ledger_rows(full.db)
    out = full("undo", "--to", "300", "--yes").stdout
    assert "undone: 339 command(s) after command 300, from 301" in flat(out)
    log = full.log()
    assert [e["id"] for e in log] == list(range(1, 301))
    # the game now is exactly the one played from the first 300 lines (an independent replay)
    prefix = play(lines[:300], tmp_path / "prefix.db")
    assert full.status() == prefix.status()
    assert full.score() == prefix.score()
    full("audit")
    # one meta command records it; nothing was deleted or changed
    records = full.query("select text, verb, args, status from commands where verb = 'undo'")
    assert records == [{"text": "undo --to 300 --yes", "verb": "undo", "status": "meta",
                        "args": json.dumps({"to": 300, "commands": list(range(301, 640))})}]
    assert {k: v for k, v in ledger_rows(full.db).items() if k != "commands"} == \
        {k: v for k, v in before_rows.items() if k != "commands"}
    assert ledger_rows(full.db)["commands"][:639] == before_rows["commands"]

    out = full("redo").stdout
    assert "redone: 339 command(s), 301-639" in flat(out)
    assert full.status_text() == before_status
    assert full.log() == before_log
    assert "audit: ledger, replay and rules agree" in full("audit").stdout
    assert "nothing to redo" in error_line(full("redo", ok=False))


def test_single_undo_and_redo_after_an_undo_to_keep_their_stack_order(full):
    log = full.log()
    full("undo", "--to", "630", "--yes")  # hides 631..639
    assert "undone: done B&O" not in full("undo").stdout  # hides 630 alone
    assert [e["id"] for e in full.log()][-1] == 629
    assert "redone: " + log[629]["text"] in full("redo").stdout  # 630 first: the last undo
    assert [e["id"] for e in full.log()][-1] == 630
    assert "redone: 9 command(s), 631-639" in full("redo").stdout
    assert full.log() == log
    full("audit")


def test_single_undo_and_redo_behave_as_before(opening):
    log = opening.log()
    assert f"undone: {log[-1]['text']}" in opening("undo").stdout
    assert f"undone: {log[-2]['text']}" in opening("undo").stdout
    assert f"redone: {log[-2]['text']}" in opening("redo").stdout
    assert f"redone: {log[-1]['text']}" in opening("redo").stdout
    assert opening.log() == log
    args = [json.loads(a) for (a,) in rows(opening.db, "select args from commands where status = 'meta'")]
    assert args == [{"command": log[-1]["id"]}, {"command": log[-2]["id"]},
                    {"command": log[-2]["id"]}, {"command": log[-1]["id"]}]


@pytest.mark.parametrize("words, expected", [
    (["undo", "--to", "0"], "undo --to 0: there is no command 0 (hint: bank log shows the numbers)"),
    (["undo", "--to", "9999"], "undo --to 9999: there is no command 9999 yet (the last is 73)"),
    (["undo", "--to", "73"], "nothing after command 73 to undo: it is the last command in play"),
    (["undo", "--to", "seven"], "the command number must be a whole number, got 'seven'"),
])
def test_undo_to_refuses_a_bad_number_with_one_line_and_changes_nothing(opening, words, expected):
    before = digest(opening.db)
    assert expected in error_line(opening(*words, ok=False))
    assert digest(opening.db) == before


def test_undo_to_refuses_a_hidden_command_or_a_record(opening):
    opening("undo")  # hides 73, records 74
    before = statuses(opening.db)
    assert "command 73 (pass Dave) is already hidden (undone)" in error_line(opening("undo", "--to", "73", ok=False))
    assert "command 74 is the record of 'undo', not a command in play" in \
        error_line(opening("undo", "--to", "74", ok=False))
    assert statuses(opening.db) == before


# =========================================================================== insert

def test_an_inserted_command_the_table_forgot_gives_the_game_played_with_it(tmp_path):
    """Leave C&O's tile over Toledo ($80, OR 1.1) out of the opening, insert it back: the game equals
    the one played from the whole transcript, command for command."""
    lines = lines_of(OPENING.read_text())
    missing = lines.index("tile C&O 80")
    forgot = play(lines[:missing] + lines[missing + 1:], tmp_path / "forgot.db")
    whole = play(lines, tmp_path / "whole.db")
    assert forgot.company("C&O")["cash"] == whole.company("C&O")["cash"] + 80
    out = forgot("insert", "--before", str(missing + 1), "tile C&O 80").stdout
    assert f"inserted as command {len(lines)}, before command {missing + 1}: tile C&O 80" in flat(out)
    assert f"re-derived {len(lines) - missing - 1} later command(s)" in flat(out)
    assert "money: C&O -$80, the bank +$80" in flat(out)
    assert forgot.status_text() == whole.status_text()
    assert [(c["text"], c["events"], c["balances"]) for c in in_play(forgot.db)] == \
        [(c["text"], c["events"], c["balances"]) for c in in_play(whole.db)]
    assert "audit: ledger, replay and rules agree" in forgot("audit").stdout


def test_a_forgotten_tile_cost_shifts_every_later_balance_exactly_as_the_rules_say(forgot, forgot_master,
                                                                                    oracle_master):
    """The required one: B&M's tile in its first operating round, $120 over a river, was never typed.
    Inserted before the command that continued B&M's turn, the game must equal the one played with
    the tile (an independent oracle), and against the game without it every balance after the tile
    differs by exactly B&M -$120 and the bank +$120."""
    without = in_play(forgot_master)
    assert without[FORGOTTEN - 1]["text"] == "withhold B&M 0"
    assert forgot.log()[FORGOTTEN - 1]["round"] == "OR 6.1"
    before_score = forgot.score()

    out = forgot("insert", "--before", str(FORGOTTEN), "tile B&M 120").stdout
    later = len(without) - FORGOTTEN + 1
    assert f"inserted as command {len(without) + 1}, before command {FORGOTTEN}: tile B&M 120" in flat(out)
    assert "B&M lays a tile: $120" in out or "$120" in out.splitlines()[1]
    assert f"re-derived {later} later command(s): {FORGOTTEN}-{len(without)} are now " \
           f"{len(without) + 2}-{len(without) + 1 + later} (2 with results that changed" in flat(out)
    assert "money: B&M -$120, the bank +$120" in flat(out)

    now = in_play(forgot.db)
    oracle = in_play(oracle_master)
    # 1. the independent oracle: the same commands in the same order, the same events, and the same
    #    balance of every account after every command
    assert len(now) == len(oracle) == len(without) + 1
    for mine, theirs in zip(now, oracle):
        assert (mine["text"], mine["events"], mine["balances"]) == \
            (theirs["text"], theirs["events"], theirs["balances"]), mine["id"]
    # 2. against the game without the tile: nothing changes before it; from the tile on, B&M has
    #    $120 less and the bank $120 more after every command, and nothing else moves
    for k in range(FORGOTTEN - 1):
        assert now[k]["balances"] == without[k]["balances"]
    assert now[FORGOTTEN - 1]["text"] == "tile B&M 120"
    assert difference(now[FORGOTTEN - 1]["balances"], without[FORGOTTEN - 2]["balances"]) == \
        {"bank": 120, "company:B&M": -120}
    for k in range(FORGOTTEN - 1, len(without)):
        assert now[k + 1]["text"] == without[k]["text"]
        assert difference(now[k + 1]["balances"], without[k]["balances"]) == {"bank": 120, "company:B&M": -120}, \
            without[k]["text"]
    # 3. what the rules change besides: the bank, $120 richer, no longer breaks on PRR's payout
    #    of OR 8.2 but on CPR's, after it; the game still ends after set 8
    changed = [(k, without[k]["text"]) for k in range(FORGOTTEN - 1, len(without))
               if now[k + 1]["events"] != without[k]["events"]]
    assert changed == [(613, "pay PRR 390"), (616, "pay CPR 260")]
    broke_before = [e for e in without[613]["events"] if e["kind"] == "bank_broke"]
    broke_now = [e for e in now[617]["events"] if e["kind"] == "bank_broke"]
    assert [e["bank"] for e in broke_before] == [-113] and [e["bank"] for e in broke_now] == [-113 + 120 - 260]
    assert not any(e["kind"] == "bank_broke" for e in now[614]["events"])
    assert broke_now[0]["end_after_set"] == broke_before[0]["end_after_set"]
    # the players' cash and worth are untouched: company money is nobody's net worth
    assert forgot.score() == before_score
    assert "audit: ledger, replay and rules agree" in forgot("audit").stdout


def test_an_insert_keeps_history_auditable_and_undo_takes_it_back_whole(forgot, oracle_master):
    before_rows = ledger_rows(forgot.db)
    before_status, before_log = forgot.status_text(), forgot.log()
    head = len(before_rows["commands"])
    forgot("insert", "--before", str(FORGOTTEN), "tile B&M 120")
    after_status, after_log = forgot.status_text(), forgot.log()
    # nothing deleted or changed: every row written before is still there as it was
    rows_now = ledger_rows(forgot.db)
    for table, old in before_rows.items():
        assert rows_now[table][:len(old)] == old, table
    # the later commands are superseded (their events kept) and recorded again after the tile
    status = dict(statuses(forgot.db))
    assert {status[i] for i in range(FORGOTTEN, head + 1)} == {"superseded"}
    assert {status[i] for i in range(head + 1, 2 * head - FORGOTTEN + 3)} == {"active"}
    record = forgot.query("select * from commands where verb = 'insert'")
    assert len(record) == 1 and record[0]["status"] == "meta"
    assert record[0]["text"] == "insert --before 343 'tile B&M 120'"
    args = json.loads(record[0]["args"])
    assert args["before"] == FORGOTTEN and args["command"] == head + 1
    assert args["renumbered"] == [[old, old + head - FORGOTTEN + 2] for old in range(FORGOTTEN, head + 1)]
    # re-recorded commands keep the time they were typed
    typed = dict(rows(forgot.db, "select id, at from commands"))
    assert all(typed[new] == typed[old] for old, new in args["renumbered"])
    # bank log: the game in play order, numbers growing down the list, the tile in its place
    ids = [e["id"] for e in after_log]
    assert ids == list(range(1, FORGOTTEN)) + list(range(head + 1, 2 * head - FORGOTTEN + 3))
    assert [e["text"] for e in after_log] == [c["text"] for c in in_play(oracle_master)]
    all_log = forgot("log", "--all").stdout
    assert f"{FORGOTTEN:>4}  " in all_log and "withhold B&M 0 [superseded]" in all_log
    assert "insert --before 343 'tile B&M 120' [meta]" in all_log
    # the SQL views follow the commands in play
    balances = {r["account"]: r["balance"] for r in forgot.query("select * from balances")}
    assert balances["bank"] == forgot.status()["bank"]
    assert "audit: ledger, replay and rules agree" in forgot("audit").stdout
    # explain of a superseded command explains the command that re-recorded it
    explained = forgot("explain", str(FORGOTTEN + 1)).stdout
    assert f"[superseded: re-recorded as command {head + 3} after an insert]" in flat(explained)

    # undo right after: the whole insert comes out, the superseded commands are back as recorded
    out = forgot("undo").stdout
    assert "undone: insert --before 343 'tile B&M 120'" in flat(out)
    assert f"commands {FORGOTTEN}-{head} are in play again as they were recorded" in flat(out)
    assert forgot.status_text() == before_status
    assert forgot.log() == before_log
    assert "audit: ledger, replay and rules agree" in forgot("audit").stdout
    # redo puts it back
    assert "superseded again" in forgot("redo").stdout
    assert forgot.status_text() == after_status and forgot.log() == after_log
    assert "audit: ledger, replay and rules agree" in forgot("audit").stdout
    # a plain undo after a new undo --to into its commands hides one command, not the insert
    forgot("undo", "--to", str(head + 200), "--yes")
    last = forgot.log()[-1]
    assert f"undone: {last['text']}" in forgot("undo").stdout
    assert forgot.log()[-1]["id"] == head + 199
    forgot("redo")
    forgot("redo")
    assert forgot.log() == after_log
    forgot("audit")


def test_an_insert_refused_by_a_later_command_names_it_and_changes_nothing(full):
    """`tile PRR 120` before PRR's first turn's own tile: that tile (command 42) is now PRR's
    second lay of the turn."""
    before = digest(full.db)
    line = error_line(full("insert", "--before", "42", "tile PRR 120", ok=False))
    assert line == ("error: insert refused: with 'tile PRR 120' before command 42, command 42 (tile PRR 0) would be "
                    "refused: PRR has laid its tile this turn (1 lay a turn) (hint: nothing was recorded; correct "
                    "the later commands first (undo --to), or insert elsewhere)")
    assert digest(full.db) == before  # one transaction, rolled back: the file byte for byte


def test_an_insert_refused_when_a_company_can_no_longer_afford_a_later_train(full):
    """A forgotten station in PRR's first turn ($40) leaves PRR short when it buys its D in OR 7.1,
    and its president cannot make up the difference."""
    before = digest(full.db)
    line = error_line(full("insert", "--before", "43", "token PRR", ok=False))
    assert "command 384 (train PRR D) would be refused: PRR has $330 and needs $770 more for the D; " \
           "Player 4 has $670" in line
    assert digest(full.db) == before


def test_an_early_forgotten_tile_that_the_rules_cascade_into_a_refusal(tmp_path, lines):
    """The table forgot PRR's first tile ($120): PRR then needs its president's money for a train,
    and Player 1, $120 poorer, can no longer buy the NYC share he bought in SR 4."""
    forgot = play(lines[:41] + lines[42:], tmp_path / "prr.db")
    before = digest(forgot.db)
    line = error_line(forgot("insert", "--before", "42", "tile PRR 120", ok=False))
    assert "command 229 (buy 'Player 1' NYC --pool) would be refused: Player 1 has $59, a NYC share from the " \
           "pool costs $68" in line
    assert digest(forgot.db) == before


def test_an_inserted_command_refused_where_it_goes_gives_its_rule(full):
    before = digest(full.db)
    line = error_line(full("insert", "--before", "43", "tile PRR 80", ok=False))
    assert line == "error: 'tile PRR 80' is refused before command 43: PRR has laid its tile this turn (1 lay a turn)"
    assert "is refused before command 2: unknown player 'Nobody'" in \
        error_line(full("insert", "--before", "2", "pass Nobody", ok=False))
    assert digest(full.db) == before


@pytest.mark.parametrize("words, expected", [
    (["insert", "--before", "1", "pass Alice"], "nothing can be inserted before the start of the game (command 1)"),
    (["insert", "--before", "500", "pass Alice"], "insert --before 500: there is no command 500 yet (the last is 73)"),
    (["insert", "--before", "0", "pass Alice"], "insert --before 0: there is no command 0"),
    (["insert", "--before", "40", "status"], "only a game command can be inserted, not 'status'"),
    (["insert", "--before", "40", "undo"], "only a game command can be inserted, not 'undo'"),
    (["insert", "--before", "40", "fly PRR"], "unknown command 'fly'"),
    (["insert", "pass Alice"], "say where: insert --before N"),
])
def test_insert_refuses_a_bad_place_or_command_with_one_line(opening, words, expected):
    before = digest(opening.db)
    assert expected in error_line(opening(*words, ok=False))
    assert digest(opening.db) == before


def test_insert_refuses_a_hidden_command(opening):
    opening("undo")
    line = error_line(opening("insert", "--before", "73", "pass Dave", ok=False))
    assert "command 73 (pass Dave) is already hidden (undone)" in line


def test_insert_before_a_superseded_command_names_its_new_number(opening):
    opening("insert", "--before", "60", "adjust bank Alice 10 --reason 'paid short'")
    line = error_line(opening("insert", "--before", "65", "pass Alice", ok=False))
    assert "command 65 (buy Dave B&O) is already hidden: it was re-recorded after an insert; it is now command 80" in line


def test_a_failing_write_in_the_middle_of_an_insert_leaves_the_file_as_it_was(forgot, monkeypatch):
    """The insert is one SQLite transaction: a failure after half the commands are written leaves
    the file byte for byte as it was, and the game opens as before."""
    from ledger.books.store import Store
    before, status = digest(forgot.db), forgot.status_text()
    real, calls = Store.append, []

    def failing(self, *args, **kwargs):
        calls.append(args[0])
        if len(calls) == 150:
            raise OSError(28, "No space left on device")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "append", failing)
    result = forgot("insert", "--before", str(FORGOTTEN), "tile B&M 120", ok=False)
    assert "nothing was recorded" in error_line(result) or "No space" in error_line(result)
    assert len(calls) == 150
    monkeypatch.undo()
    assert digest(forgot.db) == before
    assert forgot.status_text() == status
    forgot("audit")


def test_insert_and_undo_to_in_the_shell(opening):
    out = opening("shell", input='insert --before 60 "adjust bank Alice 10 --reason \'paid short\'"\n'
                                 "undo --to 55 --yes\nredo\n").stdout
    assert "inserted as command 74, before command 60: adjust bank Alice 10 --reason 'paid short'" in flat(out)
    assert "money: Alice +$10, the bank -$10" in flat(out)
    assert "undone: 19 command(s) after command 55" in flat(out)
    assert "redone: 19 command(s), 56-88" in flat(out)
    assert opening.cash()["Alice"] == 38
    opening("audit")


def test_insert_accepts_the_command_unquoted(opening):
    """Quoted as one argument, or as the words of the command, its options and negative amounts too."""
    line = error_line(opening("insert", "--before", "60", "adjust", "bank", "Alice", "-10", "--reason", "x", ok=False))
    assert line.endswith("is refused before command 60: amount must not be negative, got -10")
    out = opening("insert", "--before", "60", "adjust", "bank", "Alice", "10", "--reason", "found it").stdout
    assert "inserted as command 74, before command 60: adjust bank Alice 10 --reason 'found it'" in flat(out)
    assert opening.cash()["Alice"] == 38


def test_an_old_game_takes_inserts_and_undo_to(tmp_path):
    """A game recorded by engine version 1: its commands in older words are decided again in
    today's words, the audit agrees, and the file is claimed by this engine."""
    db = tmp_path / "v1.db"
    shutil.copyfile(ROOT / "tests" / "data" / "v1" / "1830-opening.v1.db", db)
    b = Bank(db)
    log = b.log()
    middle = log[len(log) // 2]["id"]
    status = b.status_text()
    b("undo", "--to", str(middle), "--yes")
    b("redo")
    assert b.status_text() == status
    b("insert", "--before", str(middle), "adjust bank Alice 5 --reason 'found under the board'")
    assert b.cash()["Alice"] == json.loads(status)["players"][0]["cash"] + 5
    assert "audit: ledger, replay and rules agree" in b("audit").stdout
    assert rows(db, "select engine_version from game") == [(ENGINE_VERSION,)]
