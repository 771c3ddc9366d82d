"""Every view fits an 80-column terminal and reads as words (issue 29): every title's example
played on the engine, and at every round boundary its status, market and scores, after every
command the summaries, and its whole log and `bank info`, each line at most 80
characters and none of them a Python value printed as it is."""

from __future__ import annotations

import pytest
from screens_80 import GAMES, REPRS, WIDTH, played


@pytest.mark.parametrize("title", sorted(GAMES))
def test_every_line_of_every_view_fits_80_columns(title):
    screens = played(title)
    too_wide = [(where, line) for where, text in screens.shown for line in text.split("\n") if len(line) > WIDTH]
    assert not too_wide, f"{len(too_wide)} lines wider than {WIDTH}, the first: {too_wide[:3]}"


@pytest.mark.parametrize("title", sorted(GAMES))
def test_no_view_prints_a_python_value(title):
    screens = played(title)
    reprs = [(where, line) for where, text in screens.shown for line in text.split("\n")
             if any(r in line for r in REPRS)]
    assert not reprs, f"{len(reprs)} lines print Python values, the first: {reprs[:3]}"


@pytest.mark.parametrize("title", sorted(GAMES))
def test_every_round_was_shown(title):
    """The check covers the whole game: a status and a market at each round it went through, the
    log of every command, and the game reached its end."""
    screens = played(title)
    kinds = {where.split(" at ")[0] for where, _ in screens.shown}
    assert {"status", "market", "score", "log", "info"} <= kinds
    rounds = [where for where, _ in screens.shown if where.startswith("status at ")]
    assert len(rounds) > 10, rounds
    assert screens.table.state.game_over
    assert len(screens.entries) == len(screens.table.lines) + 1   # every command, and the new line
