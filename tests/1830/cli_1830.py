"""The real `bank` command line for the few CLI and store tests of tests/1830, its click command
built once: typer's test runner builds it afresh for every invocation (reading every verb's
signature again), which costs more than most commands; the `bank` program builds it once per run
too, so the command run is the same."""

from __future__ import annotations

import typer
from cli_driver import Bank as CliBank
from click.testing import CliRunner as ClickRunner

from ledger.interface.cli import app

COMMAND = typer.main.get_command(app)


class Runner(ClickRunner):
    """typer.testing.CliRunner's `invoke(app, args, ...)`, on the command built once."""

    def invoke(self, _app=None, args=None, **kwargs):
        return super().invoke(COMMAND, args=args, **kwargs)


class Bank(CliBank):
    """cli_driver.Bank on the command built once."""

    def __init__(self, db, monkeypatch=None):
        super().__init__(db, monkeypatch)
        self.runner = Runner()
