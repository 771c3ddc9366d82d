"""One-line refusals where a command is read (issue 36): an unbalanced quote in `amend` and
`insert` (the CLI, a transcript; the banker's line: tests/table/test_table_refusals.py); and
`status --json` names the round as every view does (its contract: "round": "OR 2.1")."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_driver import run_bank
from game_files import in_memory, new_copy, played_copy



@pytest.fixture
def tmp_path():
    yield from in_memory()


def one_line(result) -> str:
    err = [line for line in result.stderr.decode().splitlines() if line.strip()]
    assert result.returncode not in (0, 70), (result.returncode, err)
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


@pytest.mark.parametrize("words", [["amend", "5", "'"], ["amend", "5", "pass 'Alice"], ["amend", "5", 'pass "Alice'],
                                   ["insert", "--before", "5", "pass 'Alice"], ["insert", "--before", "5", "'"],
                                   ["amend", "5", "pass Alice\\"]])
def test_an_unbalanced_quote_in_a_correction_is_one_line(tmp_path, words):
    path = played_copy("1830-opening.txt", tmp_path / "g.db")
    before = path.read_bytes()
    line = one_line(run_bank("--game", str(path), *words))
    assert "cannot read the line" in line and "internal error" not in line
    assert path.read_bytes() == before


def test_the_shell_and_a_transcript_refuse_an_open_quote_in_one_line(tmp_path):
    path = new_copy(tmp_path / "g.db")
    script = tmp_path / "t.txt"
    script.write_text("amend 1 \"pass 'Alice\"\npass 'Alice\n")
    result = run_bank("--game", str(path), "play", str(script))
    assert "cannot read the line" in one_line(result)


def test_status_json_names_the_round_as_the_views_do_in_a_new_process(tmp_path):
    """The shared round kinds register when their module is imported: a `status --json` that names
    the round before any rule is asked said 'auction' and 'stock' where every view says 'Auction'
    and 'SR 1'. In a fresh process, as at the table."""
    rounds = {}
    for name, lines in (("new", None), ("sr", 30)):
        path = tmp_path / f"{name}.db"
        new_copy(path) if lines is None else played_copy("1830-opening.txt", path, first=lines)
        out = subprocess.run([sys.executable, "-m", "ledger", "--game", str(path), "status", "--json"],
                             capture_output=True, timeout=120, check=True).stdout
        rounds[name] = json.loads(out)["round"]
        text = subprocess.run([sys.executable, "-m", "ledger", "--game", str(path), "status"],
                              capture_output=True, timeout=120, check=True).stdout.decode()
        assert f" · {rounds[name]} · " in text.splitlines()[0]
    assert rounds == {"new": "Auction", "sr": "SR 1"}
