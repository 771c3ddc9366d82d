"""Per-command latency of `bank shell` after start-up (issue 5 target: under 20 ms a command).

Plays examples/1830-full-game.txt line by line through the shell's own line runner (the same path
as typing at the prompt), timing each command, then times the read-only views on the finished
game. Run: python bench/shell.py [--file TRANSCRIPT]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import typer  # noqa: E402

from ledger.interface.cli import app  # noqa: E402
from ledger.interface.shell import Shell  # noqa: E402


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--file", type=Path, default=ROOT / "examples" / "1830-full-game.txt")
    args = ap.parse_args()
    lines = [l.split("#", 1)[0].strip() for l in args.file.read_text().splitlines()]
    lines = [l for l in lines if l]
    with tempfile.TemporaryDirectory() as tmp:
        shell = Shell(typer.main.get_command(app), {"game": str(Path(tmp) / "g.db")},
                      out=io.StringIO(), err=io.StringIO())
        timings: dict[str, list[float]] = {}
        sink = io.StringIO()
        for i, line in enumerate(lines):
            start = time.perf_counter()
            with contextlib.redirect_stdout(sink):
                shell.run_line(line)
            took = time.perf_counter() - start
            if i:  # the first line creates the game: start-up, not a table command
                timings.setdefault(line.split()[0], []).append(took)
        for view in ("status", "market", "score", "status --json"):
            for _ in range(20):
                start = time.perf_counter()
                with contextlib.redirect_stdout(sink):
                    shell.run_line(view)
                timings.setdefault(view, []).append(time.perf_counter() - start)
        if shell.errors:
            print(f"the transcript had {shell.errors} rejected line(s)", file=sys.stderr)
            return 1
    every = [t for ts in timings.values() for t in ts]
    print(f"{'command':<16}{'n':>6}{'median ms':>12}{'p95 ms':>10}{'max ms':>10}")
    for verb, ts in sorted(timings.items(), key=lambda kv: -len(kv[1])):
        print(f"{verb:<16}{len(ts):>6}{statistics.median(ts) * 1000:>12.2f}{percentile(ts, .95) * 1000:>10.2f}"
              f"{max(ts) * 1000:>10.2f}")
    p95 = percentile(every, .95) * 1000
    print(f"{'all':<16}{len(every):>6}{statistics.median(every) * 1000:>12.2f}{p95:>10.2f}{max(every) * 1000:>10.2f}")
    print(f"target: under 20 ms a command after start-up -> {'MET' if p95 < 20 else 'MISSED'} (p95 {p95:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
