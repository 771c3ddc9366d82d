"""Fuzzed command lines (issue 10 §2b): a few hundred seeded random lines against a game in play
(2,000 with BANK_LONG_TESTS=1) give no traceback and no multi-line error, and leave a game that opens
and audits clean. bench/fuzz.py runs the same generator for 10,000 lines on every title."""

from __future__ import annotations

from pathlib import Path

from budget import runs
from fuzz_lines import check, lines
from game_files import played_copy
from typer.testing import CliRunner

from ledger.interface.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_fuzzed_lines_give_one_error_line_or_succeed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # `new`, `play` and --game paths the fuzz invents stay here
    monkeypatch.setenv("BANK_BUSY_TIMEOUT", "1")
    runner = CliRunner()
    game = str(played_copy("1830-opening.txt", tmp_path / "fuzz.db"))  # played once through the CLI
    problems = [p for argv in lines(seed=10, count=runs(300, 2000)) if (p := check(runner, game, argv))]
    assert not problems, f"{len(problems)} lines misbehaved, e.g. {problems[:5]}"
    audit = runner.invoke(app, ["--game", game, "audit"])
    assert audit.exit_code == 0, audit.stdout + audit.stderr
