"""What the core offers, the rules accept; what it does not offer, they refuse in one line (issue
25). Short random games of every title and player count, every state checked (tests/legal_property.py);
bench/legal.py plays many long ones."""

from __future__ import annotations

import random

import pytest
from legal_property import check_state
from random_play import RandomGame

from ledger import catalog

GAMES = [(title, n) for title in ("1830", "1843", "1839", "1801")
         for n in sorted(catalog.load(title).players)]
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


@pytest.mark.parametrize("title,count", GAMES, ids=[f"{t}-{n}p" for t, n in GAMES])
def test_offered_actions_are_accepted_and_others_refused(title, count):
    rng = random.Random(f"{title}-{count}")
    game = RandomGame(title, PLAYERS[:count], seed=count)
    problems = []
    for _ in range(60):
        problems += check_state(game.state, game.rs, rng)
        if not game.step():
            break
    assert not problems, f"{len(problems)} problem(s), e.g. {problems[:4]}"
