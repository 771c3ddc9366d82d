"""The first rounds of every example game played entirely from the table's pages (bench/phones.py
in short): each command found among the controls of the page of the person who acts, filled with
the transcript's amounts and sent, a deal accepted on the other person's page; the banker's own
buttons only for the table's acts (the draws); nothing typed on the banker's line; and the game
ends where the CLI's replay of the same lines ends."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from phones import replay  # noqa: E402

# (example, commands entered at a terminal first, the last command played): the stock round
# before the first operating round, and that operating round; an option of 1801's run
WINDOWS = {
    "1830": ("1830-full-game", 10, 53),
    "1843": ("1843-game", 21, 64),
    "1839": ("1839-game", 0, 42),
    "1801": ("1801-game", 45, 105),            # the tiles with fee modifiers, points and patronage
    "1801-pullman": ("1801-game", 725, 728),    # a run with the train its Pullman rides
}


@pytest.mark.parametrize("title", sorted(WINDOWS))
def test_the_first_rounds_are_played_from_the_phones(title, tmp_path):
    name, typed, last = WINDOWS[title]
    found = replay(name, last, tmp_path, typed=typed)
    assert found["commands"] == last - typed
    assert found["line"] == 0, found["typed"]
    # only what nobody in particular does (the draws) is left to the banker's buttons
    assert all(line.endswith("(nobody in particular acts)") for line in found["buttons"]), found["buttons"]
    assert found["players"] + found["banker"] == found["commands"]
    assert found["players"] >= found["commands"] - 2
    assert found["same"]
