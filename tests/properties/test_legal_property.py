"""What the core offers, the rules accept; what it does not offer, they refuse in one line (issue
25). Short random games of every title and player count, a longer one of each title's first
count, every state checked (tests/legal_property.py); BANK_LONG_TESTS=1 plays 60 steps of each, and
bench/legal.py many long ones."""

from __future__ import annotations

import random

import pytest
from budget import runs
from legal_property import check_state
from random_play import RandomGame

from ledger import catalog

GAMES = [(title, n) for title in ("1830", "1843", "1839", "1801")
         for n in sorted(catalog.load(title).players)]
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
# the player count of each title played as long as every count was before (60 steps)
DEEP = {title: min(catalog.load(title).players) for title in ("1830", "1843", "1839", "1801")}


def steps(title: str, count: int) -> int:
    return 60 if DEEP[title] == count else runs(12, 60)


@pytest.mark.parametrize("title,count", GAMES, ids=[f"{t}-{n}p" for t, n in GAMES])
def test_offered_actions_are_accepted_and_others_refused(title, count):
    rng = random.Random(f"{title}-{count}")
    game = RandomGame(title, PLAYERS[:count], seed=count)
    problems = []
    for _ in range(steps(title, count)):
        problems += check_state(game.state, game.rs, rng)
        if not game.step():
            break
    assert not problems, f"{len(problems)} problem(s), e.g. {problems[:4]}"
