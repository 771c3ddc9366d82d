"""Issue 39's measure: at every position of the four example games, is the core's one answer
(ledger.core.legal) exactly what the rules accept? Prints, per title, what was offered then
refused, what was accepted but never offered, internal errors, the transcript's own commands not
offered where they were typed, and the time the whole answer takes at a position.

    python bench/offers.py                   # every position of every example game
    python bench/offers.py --every 10        # every tenth position
    python bench/offers.py --titles 1801 --show 5
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from offer_check import Findings, check_position  # noqa: E402
from transcripts import complete_game, positions, shipped_titles  # noqa: E402

# every shipped title's complete example game, as the catalog finds them (a new title is picked up)
GAMES = {title: complete_game(title) for title in shipped_titles()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--titles", default=",".join(GAMES))
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--first", type=int, default=None, help="only the first N lines of each game")
    ap.add_argument("--show", type=int, default=3, help="examples shown of each finding")
    ap.add_argument("--kinds", type=int, default=25, help="the most frequent shapes of finding shown")
    args = ap.parse_args()
    bad = 0
    for title in args.titles.split(","):
        found = Findings()
        rng = random.Random(title)
        for s, rs, line in positions(GAMES[title], args.every, args.first):
            found.merge(check_position(s, rs, rng, typed=line))
        times = sorted(found.times)
        median = times[len(times) // 2] * 1000 if times else 0
        worst = times[-1] * 1000 if times else 0
        c = found.counts
        pasted_refused = c["the Next line's command, pasted, refused"]
        print(f"{title}: {c['positions']} positions; offered then refused {c['offered, then refused']}; "
              f"accepted never offered: verb/actor {c['accepted, never offered: the verb or actor']}, "
              f"word {c['accepted, never offered: a word']}; internal errors {c['internal error']}; "
              f"typed not offered {c['typed, not offered']} of {c['typed']}; Next-line commands pasted "
              f"{c['Next-line commands']}, refused {pasted_refused}; "
              f"answer {median:.1f} ms median, {worst:.0f} ms at most", flush=True)
        for (what, shape), n in found.kinds.most_common(args.kinds):
            print(f"    {n:6d}  {what}: {shape}    e.g. {' | '.join(found.shapes[(what, shape)][:2])}")
        for what, examples in found.examples.items():
            if what in ("typed", "positions", "Next-line commands"):
                continue
            bad += found.counts[what]
            for ex in examples[: args.show]:
                print(f"    {what}: {ex}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
