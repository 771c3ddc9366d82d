"""The 1801 rules tests' `bank` on the pure engine (conftest.Table): no CLI, no SQLite, no file.

The rules tests were first written against game files (a fixture built a file once per module,
each test copied it and typed lines into its copy); they now hold the game itself: `Bank()` is a
game not yet started (`new ...` starts it), `Bank(table)` plays on a conftest.Table, and
`bank.copy()` is an independent copy. What a line returns is what the tests read of the CLI's
result: the exit code, stdout and the one `error: ...` line a refusal prints (the CLI prints
one_line(exc.line()), as conftest.Table.attempt does). What the CLI and a game file do is tested
with cli_driver.Bank (tests/store, tests/interface, tests/proofs/test_golden.py), not here.
"""

from __future__ import annotations

import json
import shlex

from conftest import Table

from ledger.interface import views


class Status(dict):
    """`status --json`, its Next line ("turn") and its "actions" worked out only when read: they ask
    every rule what may be typed now (ledger.core.legal.turn), most of what a status costs, and the
    rules tests read the figures. Read from a status the game has moved past, they are refused."""

    LAZY = ("turn", "actions")

    def __init__(self, data: dict, table: Table):
        super().__init__(data)
        self._table, self._count = table, len(table.events)

    def _fill(self, key) -> None:
        if key in self.LAZY and not dict.__contains__(self, key):
            assert len(self._table.events) == self._count, f"{key!r} read from a status the game has moved past"
            full = self._table.status()
            for lazy in self.LAZY:
                self[lazy] = full[lazy]

    def __getitem__(self, key):
        self._fill(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._fill(key)
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        return key in self.LAZY or super().__contains__(key)


def figures_of(table: Table) -> str:
    """`status --json` without its "turn" and "actions", as JSON text."""
    return json.dumps(views.status_json(table.state, table.rs, next_line=False))


class Result:
    def __init__(self, exit_code: int, stdout: str = "", stderr: str = ""):
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr
        self.output = stdout + stderr
        self.exception = None


class Bank:
    """One game on the engine, typed to as `bank ...` is: the rules verbs and the readers the tests use."""

    def __init__(self, table: Table | None = None):
        self._table = table
        # `status --json` as it stands: (the event count, the JSON text). The status is what the Next
        # line and the legal moves make it, the dearest thing a test reads, and it changes only with
        # an event: a line is either taken (events added) or refused, and a refused line is checked
        # to leave the state exactly as it was (Bank.line).
        self._status: tuple[int, str] | None = None

    @property
    def table(self) -> Table:
        assert self._table is not None, "no game yet: `new 1801 ...` starts one"
        return self._table

    def copy(self) -> Bank:
        """An independent copy of the game."""
        return Bank(self.table.copy())

    def __call__(self, *words: str, ok: bool | None = True, input: str | None = None) -> Result:
        return self.line(shlex.join(words), ok=ok)

    def line(self, text: str, ok: bool | None = True, input: str | None = None) -> Result:
        if text.split()[:1] == ["new"]:
            table = Table()
            said = table.attempt(text)
            if said is None:
                self._table, self._status = table, None
        elif ok is True:   # a refusal fails the test: no need to keep the state it must leave alone
            said = self.table.attempt(text)
        else:
            before = self.table.state.clone()
            said = self.table.attempt(text)
            if said is not None:
                assert self.table.state == before, f"the refused {text!r} changed the game"
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
        return Status(json.loads(self.status_text()), self.table)

    def status_text(self) -> str:
        """The status's figures as JSON text: comparing it shows whether anything in the game changed."""
        table = self.table
        if self._status is None or self._status[0] != len(table.events):
            self._status = (len(table.events), figures_of(table))
        return self._status[1]

    def score(self) -> dict:
        return self.table.scores()

    def log(self, *options: str) -> list[str]:
        """The commands recorded (the tests count them)."""
        return list(self.table.lines)

    def company(self, sym: str) -> dict:
        return next(c for c in self.status()["companies"] if c["sym"] == sym)

    def cash(self) -> dict[str, int]:
        return {p["name"]: p["cash"] for p in self.status()["players"]}
