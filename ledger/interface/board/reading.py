"""The game as the board page shows it, read from the game file read-only and rebuilt whenever
another process (the banker's `bank` commands, a shell) commits to it.

One thread owns the SQLite connection (`Board.worker`): the web server's requests and its watcher
ask it for the current view, so reads never interleave and the event loop never waits on the disk.
The connection is opened with mode=ro: nothing here can change a game.

Change detection is SQLite's `PRAGMA data_version`, which moves whenever another connection commits
to the file (a command, an undo, a correction, whatever writes it) and costs no read of the
tables. A view is built in one read of the file; the version is taken before it, so a command
recorded meanwhile is seen by the next check and the view rebuilt again. The history it shows (the
last commands, the chart) is followed command by command (ledger.interface.board.tail), so a
rebuild costs the new commands, not the whole game.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ledger.books.session import Session
from ledger.books.store import Store
from ledger.core.errors import BankError, one_line
from ledger.interface import views
from ledger.interface.board.chart import Chart, worth_chart
from ledger.interface.board.tail import Tail
from ledger.interface.charts import data

# How many recorded commands the page lists (newest first).
LOG_LENGTH = 10
# A check that meets a busy file (a writer committing) or a failed rebuild keeps the last good view;
# after this many rebuilds in a row that each saw another commit, it waits for the next check.
REBUILDS_PER_CHECK = 3


@dataclass(frozen=True)
class View:
    """Everything the page shows, at one version of the game."""
    digest: str             # of the figures: equal digests, equal figures
    game: str               # the game file's name
    head: int               # the last command recorded
    status: dict            # views.status_json
    market: dict            # views.market_json
    score: dict             # views.score_json
    log: list[dict]         # the last commands in force: id, round, text, money, by, lines (newest first)
    chart: Chart            # net worth after each round
    money: Callable[[int], str]
    notes: tuple = ()       # what the title says about its own state (1839: the draws), as in status
    problem: str = ""       # why the latest read failed (the page still shows this view)
    record: str = ""        # the hash of the chain's head (ledger.books.chain): its fingerprint is shown
    genesis: str = ""       # the hash of the game's first row (names the board's memory of fingerprints)

    @property
    def fingerprint(self) -> str:
        from ledger.books.chain import fingerprint
        return fingerprint(self.record)

    @property
    def version(self) -> str:
        """What the page announces: the figures, the record's head, and whether they could be read
        just now (a past rewritten with the same figures still reaches the pages)."""
        return self.digest + (f"-{self.record[:8]}" if self.record else "") + ("-unread" if self.problem else "")


class Board:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bank-board")
        self.session: Session | None = None
        self.seen: int | None = None
        self.view: View | None = None
        self.tail: Tail | None = None
        # opened in the worker thread, which alone uses the connection; a missing or damaged game
        # file fails here, before anything listens
        self.worker.submit(self.open).result()

    def open(self) -> None:
        store = Store(self.path, read_only=True)
        try:
            self.session = Session(store)
        except BaseException:
            store.close()
            raise
        self.tail = Tail(self.session.rs, self.session.players, self.session.options)
        self.seen = self.data_version()
        self.view = self.build()

    def close(self) -> None:
        def shut():
            if self.session:
                self.session.close()
        self.worker.submit(shut).result()
        self.worker.shutdown()

    async def current(self) -> View:
        """The view of the game as it is on disk now (read in the worker thread)."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, self.check)

    # ------------------------------------------------------------------ in the worker thread

    def data_version(self) -> int:
        return self.session.store.conn.execute("pragma data_version").fetchone()[0]

    def check(self) -> View:
        """The view, rebuilt first when another connection has committed since the last build."""
        try:
            for _ in range(REBUILDS_PER_CHECK):
                version = self.data_version()
                if version == self.seen:
                    if self.view.problem:  # the file reads again and has not changed since
                        self.view = replace(self.view, problem="")
                    break
                self.view = self.build(load=True)
                self.seen = version  # only once built: a failed rebuild is tried again
        except (sqlite3.Error, BankError) as exc:
            # a writer holding the file past the busy timeout, or a game that no longer reads: the
            # page keeps the last good figures and says why they may be old; the next check retries
            why = exc.line() if isinstance(exc, BankError) else str(exc)
            self.view = replace(self.view, problem=f"cannot read {self.path.name} now ({one_line(why)}): "
                                                   "the figures may be out of date")
        return self.view

    def build(self, load: bool = False) -> View:
        """The view of the game on disk, read at one moment (after reloading the state, with `load`)."""
        s = self.session
        with s.store.reading():
            if load:
                s.load()
            self.tail.follow(s.store)
            log = self.tail.recent(s.store, LOG_LENGTH)
            _head, record = s.store.head_hash()
            genesis = s.store.genesis() if s.store.chained() else None
        labels, lines = data(self.tail.series(), "worth")
        return replace(view_of(s.state, s.rs, self.path.name, s.head, log, labels, lines),
                       record=record or "", genesis=genesis or "")

    async def hashes_at(self, ids: list[int]) -> dict[int, str]:
        """command id -> its hash now (the record's fingerprints a phone kept, looked up)."""
        def read():
            with self.session.store.reading():
                return self.session.store.hashes_at(ids)
        return await asyncio.get_running_loop().run_in_executor(self.worker, read)


def view_of(state, rs, game: str, head: int, log: list[dict], labels: list[str], lines: dict) -> View:
    """The view of a state: its figures as the views give them, the commands and the chart's series."""
    status = views.status_json(state, rs)
    market = views.market_json(state, rs)
    score = views.score_json(state, rs)
    chart = worth_chart(labels, lines, rs.money)
    digest = hashlib.sha256(json.dumps([status, market, score, log, labels, lines], sort_keys=True,
                                       default=str).encode()).hexdigest()[:16]
    notes = tuple(views.title_status(state, rs, "status_lines", []))
    return View(digest, game, head, status, market, score, log, chart, rs.money, notes)


class Position:
    """A board of one position held in memory (no game file, no commands, no chart): what the
    board's tests and the screenshots in docs/ serve."""

    def __init__(self, state, rs, game: str = "position"):
        self.view = view_of(state, rs, game, 0, [], [], {})

    async def current(self) -> View:
        return self.view
