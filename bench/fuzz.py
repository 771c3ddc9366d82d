"""Fuzz the `bank` CLI with seeded random command lines (issue 10 §2b).

    python bench/fuzz.py                 # 10,000 lines, seed 1, on a game in play
    python bench/fuzz.py --lines 50000 --seed 7
    python bench/fuzz.py --example 1801-opening.txt   # on another title's game
    python bench/fuzz.py --all-titles    # 10,000 lines on each title's opening example

Every line must succeed or fail with exactly one `error:` line and a non-zero exit, never a
traceback or an internal error; at the end the game must open and audit clean. Exits non-zero and
lists the first problems otherwise. The generator is tests/fuzz_lines.py (tests/properties/test_fuzz.py runs
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
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the checkout first: nothing under tests/ may shadow the package

from fuzz_lines import check, lines  # noqa: E402
from transcripts import complete_game, shipped_titles  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from ledger.interface.cli import app  # noqa: E402


# Each title's game to fuzz: an example transcript and how many of its command lines to play (a
# game in play takes more kinds of command than a finished one).
def titles() -> dict:
    """Every shipped title's game to fuzz, as the catalog finds them: its opening example, else the
    first 150 lines of its complete game (a new title is picked up)."""
    out = {}
    for title in shipped_titles():
        opening = f"{title}-opening.txt"
        out[title] = (opening, None) if (ROOT / "examples" / opening).is_file() else (f"{complete_game(title)}.txt", 150)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--example", default="1830-opening.txt", help="the examples/ transcript the game starts from")
    ap.add_argument("--first", type=int, default=None, help="play only the example's first N command lines")
    ap.add_argument("--all-titles", action="store_true", help="fuzz each title's game in turn")
    args = ap.parse_args()
    os.environ.setdefault("BANK_BUSY_TIMEOUT", "1")
    runs = titles().values() if args.all_titles else [(args.example, args.first)]
    failed = 0
    for example, first in runs:
        problems, took = fuzz(example, first, args.lines, args.seed)
        print(f"{example}{f' (first {first} lines)' if first else ''}: {args.lines} lines (seed {args.seed}) in "
              f"{took:.1f} s: {len(problems)} problem(s)")
        for problem in problems[:20]:
            print(f"  {problem}")
        failed += bool(problems)
    return 1 if failed else 0


def fuzz(example: str, first: int | None, count: int, seed: int) -> tuple[list[str], float]:
    runner = CliRunner()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            game = str(Path(tmp) / "fuzz.db")
            script = Path(tmp) / "start.txt"
            script.write_text("\n".join(command_lines(ROOT / "examples" / example)[:first]) + "\n")
            played = runner.invoke(app, ["--game", game, "play", str(script)])
            if played.exit_code:
                return [f"cannot start: {played.stderr}"], 0.0
            start, problems = time.monotonic(), []
            for argv in lines(seed, count):
                problem = check(runner, game, argv)
                if problem:
                    problems.append(problem)
            audit = runner.invoke(app, ["--game", game, "audit"])
            if audit.exit_code:
                problems.append(f"audit after the fuzz: {audit.stdout}{audit.stderr}")
            return problems, time.monotonic() - start
        finally:
            os.chdir(here)


def command_lines(path: Path) -> list[str]:
    """A transcript's command lines, comments and blank lines left out."""
    out = []
    for raw in path.read_text().splitlines():
        text = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if text:
            out.append(text)
    return out


if __name__ == "__main__":
    sys.exit(main())
