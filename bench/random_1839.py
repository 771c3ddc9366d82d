"""The long random 1839 games the suite keeps short (tests/1839): two to six players, every
accepted line checked against the rules worked by hand, the invariants after every event.

    python bench/random_1839.py            # every case below: a few minutes on the 2-core machine
    python bench/random_1839.py --only rules

`rules`: random games from each seed until the price rule was checked on more than 20 runs; the
generator met the draws, floats, runs, trains, a new phase and a sale (tests/1839/random_rules_1839
.checked_games). `books`: random games of up to 900 lines until the draws, the discounts, floats, runs
of each kind, a new phase, the revenue track, a listed foreign company and its income were met and a
foreign share was bought; each game replays to the state reached (books_games). `cli`: 300 lines of
a random game through `bank play`, the same status, `bank audit` clean (test_1839_cli). Exits
non-zero on the first failure.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "1839")]

from random_rules_1839 import BOOKS_WANTED, WANTED, books_games, checked_games  # noqa: E402
from test_1839_cli import replayed_through_the_cli  # noqa: E402

RULES = [(2, 11), (3, 12), (4, 13), (6, 15)]          # (players, first seed)
BOOKS = [(2, 1), (3, 2), (4, 3), (5, 6), (6, 5)]


def rules(count: int, seed: int) -> None:
    kinds, ran = checked_games(count, seed, lines=600, runs=20)
    assert WANTED <= kinds, sorted(WANTED - kinds)
    assert len(ran) > 20, f"only {len(ran)} runs checked"


def books(count: int, seed: int) -> None:
    kinds, foreign = books_games(count, seed, lines=900)
    assert BOOKS_WANTED <= kinds, sorted(BOOKS_WANTED - kinds)
    assert foreign, "no foreign share was bought"


def cli(count: int, seed: int) -> None:
    import tempfile
    with tempfile.TemporaryDirectory() as where:
        replayed_through_the_cli(Path(where), 300)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("rules", "books", "cli"))
    args = ap.parse_args()
    cases = [("rules", rules, c) for c in RULES] + [("books", books, c) for c in BOOKS] + [("cli", cli, (4, 21))]
    for name, run, (count, seed) in cases:
        if args.only and name != args.only:
            continue
        start = time.perf_counter()
        run(count, seed)
        print(f"{name} {count} players from seed {seed}: ok ({time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
