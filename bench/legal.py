"""The property of issues 25 and 39 over many long random games (tests/properties/test_legal_property.py
runs short ones; bench/offers.py every position of the example games): at every state the core's
answer (ledger.core.legal) is exactly what the rules accept, as tests/offer_check.py checks it.

    python bench/legal.py                     # every title and player count, 3 seeds, 400 steps
    python bench/legal.py --titles 1801 --seeds 20 --steps 2000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]
sys.path.append(str(ROOT / "tests"))

from offer_check import PROBLEMS, check_position  # noqa: E402
from random_play import RandomGame  # noqa: E402

from ledger import catalog

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--titles", default="1830,1843,1839,1801")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args()
    problems, states, start = [], 0, time.monotonic()
    for title in args.titles.split(","):
        for count in sorted(catalog.load(title).players):
            for seed in range(args.seeds):
                rng = random.Random(f"{title}-{count}-{seed}")
                game = RandomGame(title, PLAYERS[:count], seed=seed)
                found = []
                try:
                    for _ in range(args.steps):
                        here = check_position(game.state, game.rs, rng, per_pair=3)
                        found += [f"{what}: {here.examples[what][:2]}" for what in PROBLEMS if here.counts[what]]
                        states += 1
                        if found or not game.step():
                            break
                except AssertionError as exc:
                    found.append(str(exc))
                problems += [f"{title} {count}p seed {seed}: {p}" for p in found[:3]]
                print(f"{title} {count}p seed {seed}: {len(game.lines)} lines, {len(found)} problem(s)", flush=True)
    print(f"{states} states in {time.monotonic() - start:.0f} s: {len(problems)} problem(s)")
    for p in problems[:30]:
        print(f"  {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
