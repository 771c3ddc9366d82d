"""The board follows the ledger instead of replaying it (issue 30's latency): after every command,
undo, redo and correction its last commands and its chart are what `bank log` and the books' series
say, replayed from the start of the game."""

from __future__ import annotations

import random
import shlex
from pathlib import Path

import pytest
from transcripts import lines_of

from ledger.books.history import series, walk
from ledger.books.session import Session
from ledger.books.store import Store
from ledger.core import grammar
from ledger.core.errors import BankError
from ledger.interface import views
from ledger.interface.board.reading import LOG_LENGTH, Board
from ledger.interface.board.tail import said_plainly

ROOT = Path(__file__).resolve().parents[2]


def replayed(path: Path) -> tuple[list[dict], list[dict]]:
    """The last commands in force and the chart's series, replayed from the start as `bank log` does."""
    s = Session(Store(path, read_only=True))
    try:
        entries = [e for e in walk(s)[0] if e.status == "active" and e.verb not in ("undo", "redo")]
        log = []
        for e in reversed(entries[-LOG_LENGTH:]):
            lines = [t for t in (views.describe(ev, s.rs) for ev in e.events) if t]
            log.append({"id": e.id, "round": e.round, "text": e.text, "money": e.money, "by": e.by,
                        "who": e.author or "terminal", "lines": lines,
                        "said": "; ".join(lines[:2]) or said_plainly(s.rs, e.verb, e.text)})
        return log, series(s)
    finally:
        s.close()


def record(s: Session, line: str) -> None:
    s.execute(grammar.parse_line(line, grammar.verbs_of(s.rs)), line)


@pytest.mark.parametrize("example, count", [("1830-opening.txt", 120), ("1839-game.txt", 90)])
def test_the_board_follows_every_change_as_a_replay_shows_it(tmp_path, example, count):
    first, *lines = lines_of((ROOT / "examples" / example).read_text())
    _new, title, *players = shlex.split(first)
    path = tmp_path / "game.db"
    s = Session.new(path, title, players, {})
    board = Board(path)
    rng = random.Random(7)
    try:
        for n, line in enumerate(lines[:count]):
            record(s, line)
            if rng.random() < 0.15:                 # an undo, then a redo or the same command again
                s.undo("undo")
                s.redo("redo") if rng.random() < 0.5 else record(s, line)
            if n % 7 == 3:                          # a correction: an earlier command amended as it was
                number = rng.randrange(max(2, s.head - 5), s.head + 1)
                row = s.store.command(number)
                if row and row["status"] == "active" and row["verb"] not in ("undo", "redo", "new"):
                    try:
                        s.amend(number, grammar.parse_line(row["text"], grammar.verbs_of(s.rs)), row["text"],
                                f"amend {number} '{row['text']}'")
                    except BankError:
                        pass                        # not amendable here: the rules said why
            if n % 3 == 0 or n == count - 1:
                view = board.worker.submit(board.check).result()
                log, points = replayed(path)
                assert view.head == s.head
                assert view.log == log, n
                assert board.tail.series() == points, n
        statuses = {r["status"] for r in s.store.commands(include_undone=True)}
        assert statuses >= {"active", "undone", "superseded"}      # every kind of change was followed
    finally:
        board.close()
        s.close()
