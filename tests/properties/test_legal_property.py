"""The core's one answer of what may be done (ledger.core.legal) is exactly what the rules accept
(issues 25 and 39), checked at positions by tests/offer_check.py: everything offered is accepted;
every command of a generated set (each verb x each actor x the legal words and their neighbours x
each option) that the rules accept was offered; nothing generated ends in an internal error; a
transcript's own command was offered where it was typed.

Positions: every twentieth of the four example games (bench/offers.py checks every one), and
short random games of every title and player count, the neighbours of a sample of the offers at
each; BANK_LONG_TESTS=1 checks every fifth position, longer random games and more offers."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from budget import runs
from offer_check import PROBLEMS, check_position
from random_play import RandomGame
from transcripts import lines_of, shipped_titles

from ledger import catalog

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from offers import GAMES as EXAMPLES, positions  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
TITLES = shipped_titles()   # the catalog's: a new title's folder and example game are checked too
RANDOM = [(title, n) for title in TITLES for n in sorted(catalog.load(title).players)]


def every_of(title: str) -> int:
    """Every k-th position: every twentieth, or for a long game about thirty-two of it (the suite's
    time goes where the positions are; bench/offers.py checks every one)."""
    return max(20, len(lines_of((ROOT / "examples" / f"{EXAMPLES[title]}.txt").read_text(encoding="utf-8"))) // 32)


def problems_of(found) -> list[str]:
    return [f"{what} ({found.counts[what]}): {found.examples.get(what, [])[:3]}" for what in PROBLEMS
            if found.counts[what]]


@pytest.mark.parametrize("title", TITLES)
@pytest.mark.parametrize("part", range(2))
def test_the_example_games_answer_is_what_the_rules_accept(title, part):
    """Every tenth position of the title's example game (half of them in each part)."""
    rng = random.Random(f"{title}-{part}")
    found = None
    for i, (s, rs, line) in enumerate(positions(EXAMPLES[title], runs(every_of(title), 5))):
        if i % 2 != part:
            continue
        here = check_position(s, rs, rng, typed=line, per_pair=2, sample=runs(6, 40))
        found = here if found is None else (found.merge(here) or found)
    assert found is not None and found.counts["positions"] >= 5
    assert not problems_of(found), problems_of(found)


@pytest.mark.parametrize("title,count", RANDOM, ids=[f"{t}-{n}p" for t, n in RANDOM])
def test_random_games_answer_is_what_the_rules_accept(title, count):
    rng = random.Random(f"{title}-{count}")
    game = RandomGame(title, PLAYERS[:count], seed=count)
    found = None
    for step in range(runs(16, 80)):
        if step % 4 == 0:
            here = check_position(game.state, game.rs, rng, per_pair=2, sample=runs(6, 40))
            found = here if found is None else (found.merge(here) or found)
        if not game.step():
            break
    assert found is not None
    assert not problems_of(found), problems_of(found)
