"""Fuzz the `bank` CLI with seeded random command lines (issue 10 §2b).

    python bench/fuzz.py                 # 10,000 lines, seed 1, on a game in play
    python bench/fuzz.py --lines 50000 --seed 7
    python bench/fuzz.py --example 1801-opening.txt   # on another title's game

Every line must succeed or fail with exactly one `error:` line and a non-zero exit, never a
traceback or an internal error; at the end the game must open and audit clean. Exits non-zero and
lists the first problems otherwise. The generator is tests/fuzz_lines.py (tests/test_fuzz.py runs
2,000 of them on every test run).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the checkout first: tests/rulesets (data) must not shadow the package

from fuzz_lines import check, lines  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from ledger.interface.cli import app  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--example", default="1830-opening.txt", help="the examples/ transcript the game starts from")
    args = ap.parse_args()
    os.environ.setdefault("BANK_BUSY_TIMEOUT", "1")
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        game = str(Path(tmp) / "fuzz.db")
        played = runner.invoke(app, ["--game", game, "play", str(ROOT / "examples" / args.example)])
        if played.exit_code:
            print(f"cannot start: {played.stderr}")
            return 2
        start, problems = time.monotonic(), []
        for argv in lines(args.seed, args.lines):
            problem = check(runner, game, argv)
            if problem:
                problems.append(problem)
        audit = runner.invoke(app, ["--game", game, "audit"])
        if audit.exit_code:
            problems.append(f"audit after the fuzz: {audit.stdout}{audit.stderr}")
        took = time.monotonic() - start
    print(f"{args.lines} lines (seed {args.seed}) in {took:.1f} s: {len(problems)} problem(s)")
    for problem in problems[:20]:
        print(f"  {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
