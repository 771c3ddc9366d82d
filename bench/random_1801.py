"""1801 (18OE) played at random, long: what tests/1801 checks on a few short games, on many long ones.

    python bench/random_1801.py                      # everything once: the openings for 2-7 players,
                                                     # the Consolidation round from a random opening,
                                                     # whole games for 2-7 players (several minutes)
    python bench/random_1801.py --games 10           # ten seeds of each (seed, seed+1, ...)
    python bench/random_1801.py --only openings,whole --seed 100

Every event is checked as it is applied (tests/1801/random_1801.py: checker): the books, every
company at 100 %, the floats' and sales' figures from the rulebook; each game must also replay to the
state reached step by step. The three kinds of game:

* openings: 2 to 7 players from the packet auction to the end of the second set of ORs, every kind
  of event of the opening seen (tests/1801/test_1801_random.py plays 2 and 7 players);
* consolidation: three players at random from the packet auction through the Consolidation round
  (a random table may break the bank first: the next seed plays); no minor and no regional is left
  in a player's hands (§10.6) (the suite starts the round from examples/1801-opening.txt);
* whole: 2 to 7 players to the end, the operating rounds by a hurried table: the game ends, the
  remainder is in the bank and each score is cash + shares + face-up privates (§13, §13.1) (the
  suite plays the end from examples/1801-game.txt).

Exits non-zero when a game breaks a rule or does not get where it must; prints each game's time.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "1801")]

import test_1801_random as R  # noqa: E402
import test_1801_whole_games as W  # noqa: E402
from random_1801 import NAMES, Table, checker, play_to_the_end  # noqa: E402


def opening(count: int, seed: int) -> None:
    game, seen = R.random_opening(count, seed, sets=2)
    R.assert_opening(game, seen)


def consolidation(seed: int) -> None:
    """The original test's game: random from the packet auction; another seed when this one does not
    reach the end of the Consolidation round (the bank broken first)."""
    for attempt in range(seed, seed + 6):
        seen: dict = {}
        game = Table("1801", NAMES[:3], attempt, after_event=checker(seen))
        for _ in range(3200):
            if not game.step():
                break
            if any(e["kind"] == "consolidation_started" for e in game.events) and \
                    game.state.round["kind"] == "operating":
                R.assert_consolidated(game, seen)
                return
    raise AssertionError(f"seeds {seed}-{seed + 5}: no game reached the end of the Consolidation round")


def whole(count: int, seed: int) -> None:
    W.assert_the_end(play_to_the_end(count, seed, 9000))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1, help="seeds of each kind of game (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="added to each kind's first seed")
    ap.add_argument("--only", default="openings,consolidation,whole", help="openings, consolidation, whole")
    args = ap.parse_args()
    kinds = set(args.only.split(","))
    runs = []
    for g in range(args.games):
        if "openings" in kinds:
            runs += [(f"opening {n} players seed {n - 1 + args.seed + 10 * g}", opening, (n, n - 1 + args.seed + 10 * g))
                     for n in range(2, 8)]
        if "consolidation" in kinds:
            runs.append((f"consolidation seed {14 + args.seed + 10 * g}", consolidation, (14 + args.seed + 10 * g,)))
        if "whole" in kinds:
            runs += [(f"whole game {n} players seed {19 + n + args.seed + 10 * g}", whole, (n, 19 + n + args.seed + 10 * g))
                     for n in range(2, 8)]
    failed = 0
    for name, run, run_args in runs:
        start = time.perf_counter()
        try:
            run(*run_args)
            verdict = "ok"
        except AssertionError as exc:
            failed += 1
            verdict = f"FAILED: {str(exc).splitlines()[0] if str(exc) else traceback.format_exc(limit=1)}"
        print(f"{time.perf_counter() - start:7.1f} s  {name}: {verdict}", flush=True)
    print(f"{len(runs) - failed} of {len(runs)} games kept the books and the rules")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
