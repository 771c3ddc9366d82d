"""The 1801 rules tests' `bank --game FILE` on the pure engine (conftest.Table): no CLI, no SQLite.

The rules tests were written against game files: a fixture builds a file once per module, each
test copies it and types lines into its copy. Here a "file" is a name for a game held in memory:
`Bank(path).line(...)` plays on the game of that name (`new ...` starts it) and `copy_game(a, b)`
gives `b` a copy of `a`'s game, so a test reads exactly as it did and asserts the same things,
at the engine's cost. What a line returns is what the tests read of the CLI's result: the exit
code, stdout and the one `error: ...` line a refusal prints (the CLI prints one_line(exc.line()),
as conftest.Table.attempt does).
"""

from __future__ import annotations

import json
import shlex

from conftest import Table

GAMES: dict[str, Table] = {}


def copy_game(source, target) -> None:
    GAMES[str(target)] = GAMES[str(source)].copy()


class Result:
    def __init__(self, exit_code: int, stdout: str = "", stderr: str = ""):
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr
        self.output = stdout + stderr
        self.exception = None


class Bank:
    """`bank --game PATH ...` for the rules verbs and the readers the tests use."""

    def __init__(self, db, monkeypatch=None):
        self.db = str(db)

    @property
    def table(self) -> Table:
        return GAMES[self.db]

    def __call__(self, *words: str, ok: bool | None = True, input: str | None = None) -> Result:
        return self.line(shlex.join(words), ok=ok)

    def line(self, text: str, ok: bool | None = True, input: str | None = None) -> Result:
        if text.split()[:1] == ["new"]:
            table = Table()
            said = table.attempt(text)
            if said is None:
                GAMES[self.db] = table
        else:
            said = self.table.attempt(text)
        result = Result(0) if said is None else Result(1, stderr=said + "\n")
        if ok is True:
            assert result.exit_code == 0, f"bank {text} failed: {result.stderr}"
        elif ok is False:
            assert result.exit_code != 0, f"bank {text} should have failed"
        return result

    def lines(self, *texts: str) -> None:
        for text in texts:
            self.line(text)

    def status(self) -> dict:
        return self.table.status()

    def status_text(self) -> str:
        """The status as JSON text: comparing it shows whether anything in the game changed."""
        return json.dumps(self.table.status(), sort_keys=True)

    def score(self) -> dict:
        return self.table.scores()

    def log(self, *options: str) -> list[str]:
        """The commands recorded (the tests count them)."""
        return list(self.table.lines)

    def company(self, sym: str) -> dict:
        return self.table.company(sym)

    def cash(self) -> dict[str, int]:
        return {p["name"]: p["cash"] for p in self.status()["players"]}
