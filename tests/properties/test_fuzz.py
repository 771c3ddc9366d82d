"""Fuzzed command lines (issue 10 §2b): a few thousand seeded random lines against a game in play
give no traceback and no multi-line error, and leave a game that opens and audits clean.
bench/fuzz.py runs the same generator for 10,000 lines and more seeds."""

from __future__ import annotations

from pathlib import Path

from fuzz_lines import check, lines
from typer.testing import CliRunner

from ledger.interface.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_fuzzed_lines_give_one_error_line_or_succeed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # `new`, `play` and --game paths the fuzz invents stay here
    monkeypatch.setenv("BANK_BUSY_TIMEOUT", "1")
    runner = CliRunner()
    game = str(tmp_path / "fuzz.db")
    played = runner.invoke(app, ["--game", game, "play", str(EXAMPLES / "1830-opening.txt")])
    assert played.exit_code == 0, played.stderr
    problems = [p for argv in lines(seed=10, count=2000) if (p := check(runner, game, argv))]
    assert not problems, f"{len(problems)} lines misbehaved, e.g. {problems[:5]}"
    audit = runner.invoke(app, ["--game", game, "audit"])
    assert audit.exit_code == 0, audit.stdout + audit.stderr
