"""Drive the real `bank` CLI in tests (typer's runner, a SQLite game file), as typed in a shell; and
`bank serve` in a process of its own (bank_serve)."""

from __future__ import annotations

import json
import queue
import shlex
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from typer.testing import CliRunner

from ledger.interface.cli import app


class Bank:
    """`bank --game DB ...` as typed in a shell. With pytest's monkeypatch, argv is set too (the CLI
    records the command as typed); without, the CLI builds the text from the arguments."""

    def __init__(self, db, monkeypatch=None):
        self.db = str(db)
        self.monkeypatch = monkeypatch
        self.runner = CliRunner()

    def __call__(self, *words: str, ok: bool | None = True, input: str | None = None):
        args = ["--game", self.db, *words]
        if self.monkeypatch is not None:
            self.monkeypatch.setattr(sys, "argv", ["bank", *args])
        result = self.runner.invoke(app, args, input=input)
        if ok is True:
            assert result.exit_code == 0, (f"bank {' '.join(words)} failed ({result.exit_code}): "
                                           f"{result.stderr or result.stdout} {result.exception!r}")
        elif ok is False:
            assert result.exit_code != 0, f"bank {' '.join(words)} should have failed: {result.stdout}"
        # a refusal or a success, never a traceback
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        return result

    def line(self, text: str, ok: bool | None = True, input: str | None = None):
        return self(*shlex.split(text), ok=ok, input=input)

    def lines(self, *texts: str) -> None:
        for text in texts:
            self.line(text)

    def status(self) -> dict:
        return json.loads(self("status", "--json").stdout)

    def status_text(self) -> str:
        """The status as JSON text: comparing it shows whether anything in the game changed."""
        return self("status", "--json").stdout

    def score(self) -> dict:
        return json.loads(self("score", "--json").stdout)

    def log(self, *options: str) -> list[dict]:
        return json.loads(self("log", "--json", *options).stdout)

    def query(self, sql: str, params=()) -> list[dict]:
        import sqlite_utils
        database = sqlite_utils.Database(self.db)
        try:
            return list(database.query(sql, params))
        finally:
            database.conn.close()

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


def run_bank(*args, env: dict | None = None, cwd=None):
    """`bank ARGS` in this process, read as a finished process (returncode, stdout and stderr as
    bytes): the same `main` a shell starts, without the half second a new Python costs. For what
    only argv decoding or a second process can show (bytes that are not UTF-8, races, kills, file
    limits), start a real process instead."""
    import contextlib
    import os
    import subprocess

    runner = CliRunner()
    full_env = {"BANK_GAME": None} if "BANK_GAME" in os.environ else {}
    full_env.update(env or {})
    argv = [str(a) for a in args]
    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        result = runner.invoke(app, argv, env=full_env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback is a failure of the test, as it is at the table
    return subprocess.CompletedProcess(["bank", *argv], result.exit_code, result.stdout_bytes,
                                       result.stderr_bytes)


def report_lines(text: str) -> list[str]:
    """A report's lines read whole: the views wrap a long line to the terminal's width (80 in a
    pipe), its rest indented under it."""
    whole: list[str] = []
    for line in text.splitlines():
        if line.startswith(" ") and whole and not whole[-1].startswith(" "):
            whole[-1] += " " + line.strip()
        else:
            whole.append(line)
    return whole


class Served:
    """A `bank serve` process: what it printed up to its "Ctrl-C" line (`printed`), and once it has
    stopped, what it printed after (`after`)."""

    def __init__(self):
        self.printed: list[str] = []
        self.after = ""


@contextmanager
def bank_serve(db: Path, *options: str, wait: float = 20):
    """`bank serve --game DB --port 0 OPTIONS` in its own process, as a shell starts it: yields a Served
    once it has printed its "Ctrl-C" line (waiting at most `wait` seconds a line), then stops it as
    Ctrl-C does and checks that it ends with 0."""
    proc = subprocess.Popen([sys.executable, "-m", "ledger", "serve", "--game", str(db), "--port", "0", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(db).parent)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout] + [lines.put(None)], daemon=True).start()
    served = Served()
    try:
        while not served.printed or "Ctrl-C" not in served.printed[-1]:
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                raise AssertionError(f"bank serve printed no address: {served.printed}") from None
            assert line is not None, f"bank serve stopped: {served.printed} {proc.stderr.read()}"
            served.printed.append(line)
        yield served
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0, proc.stderr.read()
        rest = []
        while (line := lines.get(timeout=5)) is not None:
            rest.append(line)
        served.after = "".join(rest)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
