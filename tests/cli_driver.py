"""Drive the real `bank` CLI in tests (typer's runner, a SQLite game file), as typed in a shell."""

from __future__ import annotations

import json
import shlex
import sys

from typer.testing import CliRunner

from ledger.cli import app


class Bank:
    """`bank --game DB ...` as typed in a shell (argv is set: the CLI records the command as typed)."""

    def __init__(self, db, monkeypatch):
        self.db = str(db)
        self.monkeypatch = monkeypatch
        self.runner = CliRunner()

    def __call__(self, *words: str, ok: bool | None = True):
        args = ["--game", self.db, *words]
        self.monkeypatch.setattr(sys, "argv", ["bank", *args])
        result = self.runner.invoke(app, args)
        if ok is True:
            assert result.exit_code == 0, f"bank {' '.join(words)} failed: {result.stderr or result.output}"
        elif ok is False:
            assert result.exit_code != 0, f"bank {' '.join(words)} should have failed"
        return result

    def line(self, text: str, ok: bool | None = True):
        return self(*shlex.split(text), ok=ok)

    def lines(self, *texts: str) -> None:
        for text in texts:
            self.line(text)

    def status(self) -> dict:
        return json.loads(self("status", "--json").stdout)

    def company(self, sym: str) -> dict:
        return next(c for c in self.status()["companies"] if c["sym"] == sym)

    def cash(self) -> dict[str, int]:
        return {p["name"]: p["cash"] for p in self.status()["players"]}


def error_line(result) -> str:
    """The one stderr line of a rejected command."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected exactly one stderr line, got {lines!r}"
    assert lines[0].startswith("error: "), lines[0]
    return lines[0]
