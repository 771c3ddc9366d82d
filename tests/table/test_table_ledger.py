"""The ledger of a table that plays from its phones (issue 30): who entered each command, kept in
the chain; files from before it open, verify and get the column on their first write; a write
decided on a game that has moved on since is refused and records nothing."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_driver import Bank
from table_rig import game_file, terminal

from ledger.books.audit import audit
from ledger.books.session import MovedOn, Session
from ledger.core import grammar
from ledger.core.errors import LedgerCorrupt

V1 = Path(__file__).resolve().parents[1] / "data" / "v1"


def authors(path: Path) -> list[tuple]:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("select id, text, entered_by from commands order by id").fetchall()
    finally:
        conn.close()


def enter(s: Session, who: str, line: str, after: int | None = None) -> list[dict]:
    with s.entered_as(who, after=s.head if after is None else after):
        return terminal(s, line)


def test_each_command_records_who_entered_it(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    s = Session.open(path)
    enter(s, "player:Ben", "pass Ben")
    enter(s, "banker", "pass Cy")
    terminal(s, "pass Ann")
    s.undo("undo")
    with s.entered_as("banker", after=s.head):
        s.redo("redo")
    assert [(i, by) for i, _text, by in authors(path)] == [
        (1, "terminal"), (2, "terminal"), (3, "player:Ben"), (4, "banker"), (5, "terminal"), (6, "terminal"),
        (7, "banker")]
    problems, _notes = audit(s)
    assert problems == []
    s.close()


def test_a_correction_keeps_each_re_recorded_commands_author(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    s = Session.open(path)
    enter(s, "player:Ben", "bid Ben CS 50")
    enter(s, "player:Cy", "pass Cy")
    verbs = grammar.verbs_of(s.rs)
    with s.entered_as("banker", after=s.head):
        s.amend(2, grammar.parse_line("bid Ann DH 75", verbs), "bid Ann DH 75", "amend 2 'bid Ann DH 75'")
    rows = authors(path)
    assert [by for _i, text, by in rows[-4:]] == ["banker", "player:Ben", "player:Cy", "banker"]
    assert [text for _i, text, _by in rows[-4:-1]] == ["bid Ann DH 75", "bid Ben CS 50", "pass Cy"]
    assert audit(s)[0] == []
    s.close()


def test_who_entered_a_command_is_chained(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    s = Session.open(path)
    enter(s, "player:Ben", "pass Ben")
    s.close()
    conn = sqlite3.connect(str(path))
    conn.execute("update commands set entered_by = 'player:Ann' where id = 3")
    conn.commit()
    conn.close()
    with pytest.raises(LedgerCorrupt, match="changed outside bank"):
        Session.open(path)
    s = Session.open(path, verify=False)
    assert any("command 3" in p for p in audit(s)[0])
    s.close()


def test_a_file_from_before_the_column_opens_and_gets_it_on_its_first_write(tmp_path):
    path = tmp_path / "old.db"
    shutil.copyfile(V1 / "1830-opening.v1.db", path)
    before = Session.open(path)
    head, status = before.head, before.state
    before.close()
    conn = sqlite3.connect(str(path))
    assert "entered_by" not in {r[1] for r in conn.execute("pragma table_info(commands)")}
    conn.close()
    s = Session.open(path)
    assert s.head == head and s.state == status
    enter(s, "player:Dave", "pass Dave")
    rows = authors(path)
    assert {by for _i, _t, by in rows[:-1]} == {"terminal"} and rows[-1][2] == "player:Dave"
    assert audit(s)[0] == []
    s.close()
    assert Session.open(path).head == head + 1


def test_a_write_decided_before_the_last_command_records_nothing(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    s = Session.open(path)
    drawn = s.head
    other = Session.open(path)
    terminal(other, "pass Ben")            # another terminal records a command meanwhile
    other.close()
    with pytest.raises(MovedOn, match=r"moved on since this page was drawn: command 3 \(pass Ben\) was recorded "
                                      r"after command 2; nothing was recorded"):
        enter(s, "player:Cy", "pass Cy", after=drawn)
    assert s.head == 3 and len(authors(path)) == 3
    with pytest.raises(MovedOn):           # an undo from a stale page too
        with s.entered_as("banker", after=drawn):
            s.undo("undo")
    assert len(authors(path)) == 3
    enter(s, "player:Cy", "pass Cy", after=3)   # decided after the last command: recorded
    assert authors(path)[-1][1:] == ("pass Cy", "player:Cy")
    s.close()


def test_bank_log_shows_who_entered_each_command_within_80_columns(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    s = Session.open(path)
    enter(s, "player:Ben", "pass Ben")
    enter(s, "banker", "pass Cy")
    s.close()
    b = Bank(path)
    out = b("log").stdout.splitlines()
    assert any(line.endswith("bid Ann CS 45") for line in out)          # the terminal's, as before
    assert any(line.endswith("pass Ben  (by Ben)") for line in out)
    assert any(line.endswith("pass Cy  (by banker)") for line in out)
    assert all(len(line) <= 80 for line in out)
    assert [e["by"] for e in b.log()] == ["terminal", "terminal", "player:Ben", "banker"]


def test_export_says_who_entered_each_command(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    s = Session.open(path)
    enter(s, "player:Ben", "pass Ben")
    enter(s, "banker", "pass Cy")
    s.close()
    Bank(path)("export", "--json", str(tmp_path / "game.json"), "--csv", str(tmp_path / "csv"))
    entered = ["terminal", "terminal", "player:Ben", "banker"]
    assert [c["entered_by"] for c in json.loads((tmp_path / "game.json").read_text())["commands"]] == entered
    with (tmp_path / "csv" / "commands.csv").open(newline="") as f:
        assert [r["entered_by"] for r in csv.DictReader(f)] == entered


def test_export_of_a_file_from_before_the_column_says_the_terminal(tmp_path):
    path = tmp_path / "old.db"
    shutil.copyfile(V1 / "1830-opening.v1.db", path)
    Bank(path)("export", "--json", str(tmp_path / "game.json"))
    commands = json.loads((tmp_path / "game.json").read_text())["commands"]
    assert commands and {c["entered_by"] for c in commands} == {"terminal"}
