"""Issue 35's measure: at every position of the four example games, does Tab offer exactly what the
rules accept? (tests/completion_check.py: each offered path walked and decided;
each accepted command of the generated set typed word by word; nothing offered as a fallback.)
Prints, per title, the counts of each finding and a few examples.

    python bench/completion.py                   # every position of every example game
    python bench/completion.py --every 10 --titles 1830,1801 --show 5
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from completion_check import PROBLEMS, check_position  # noqa: E402
from offer_check import Findings  # noqa: E402
from offers import GAMES, positions  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--titles", default=",".join(GAMES))
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--first", type=int, default=None, help="only the first N lines of each game")
    ap.add_argument("--paths", type=int, default=12, help="Tab paths walked per verb per position")
    ap.add_argument("--show", type=int, default=4, help="examples shown of each finding")
    ap.add_argument("--kinds", type=int, default=20, help="the most frequent shapes of finding shown")
    args = ap.parse_args()
    bad = 0
    for title in args.titles.split(","):
        found = Findings()
        rng = random.Random(title)
        start = time.perf_counter()
        for s, rs, _line in positions(GAMES[title], args.every, args.first):
            found.merge(check_position(s, rs, rng, paths=args.paths, per_pair=3))
        c = found.counts
        print(f"{title}: {c['positions']} positions in {time.perf_counter() - start:.0f} s; "
              f"verbs offered {c['verbs offered']}, accepted commands offered {c['accepted commands offered']} of {c['commands decided']} decided, "
              f"accepted commands typed {c['accepted commands']}, prefixes without a legal verb "
              f"{c['prefixes without a legal verb']}; " + "; ".join(f"{p} {c[p]}" for p in PROBLEMS), flush=True)
        for (what, shape), n in found.kinds.most_common(args.kinds):
            print(f"    {n:6d}  {what}: {shape}    e.g. {' | '.join(found.shapes[(what, shape)][:2])}")
        for what in PROBLEMS:
            bad += c[what]
            for ex in found.examples.get(what, [])[: args.show]:
                print(f"    {what}: {ex}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
