"""The Next line wrapped to the terminal never cuts a command it prints (issue 35: a command copied
off the screen pastes as printed): at 80 and 60 columns, over the 1830 opening and 1801's first
rounds, each command of the line is whole on one screen line."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Table
from transcripts import lines_of

from ledger.core import legal
from ledger.interface.fit import fit_text
from ledger.interface.views import next_line

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("example, count", [("1830-opening.txt", 80), ("1801-game.txt", 60)])
def test_no_command_is_cut(example, count):
    first, *lines = lines_of((ROOT / "examples" / example).read_text())
    words = first.split()
    g = Table(title=words[1], players=words[2:])
    checked = 0
    for line in lines[:count]:
        turn = legal.turn(g.state, g.rs)
        for width in (80, 60):
            screen = fit_text(next_line(g.state, g.rs), width).split("\n")
            assert all(len(row) <= width for row in screen)
            for command in turn.commands:
                if len(command) + 2 <= width:
                    assert any(command in row for row in screen), (width, command, screen)
                    checked += 1
        g.do(line)
    assert checked > count
