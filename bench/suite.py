"""How long the test suite takes: the whole of it on N workers (default 2, the CI machine's cores),
wall and CPU time, and the slowest test files by the time their tests took. The suite's target is
two minutes on two cores; this measures it (the suite itself holds no timed test).

    python bench/suite.py                 # the whole suite, 2 workers
    python bench/suite.py --workers 1 tests/1801
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DURATION = re.compile(r"^\s*([0-9.]+)s (?:call|setup|teardown)\s+(\S+?)::")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--top", type=int, default=15, help="how many of the slowest files to list")
    ap.add_argument("paths", nargs="*", help="test files or folders (default: the whole suite)")
    args = ap.parse_args()
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", str(args.workers),
               "--durations=0", "--durations-min=0.05", *args.paths]
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    per_file: dict[str, float] = defaultdict(float)
    for line in done.stdout.splitlines():
        m = DURATION.match(line)
        if m:
            per_file[m.group(2)] += float(m.group(1))
    summary = next((line for line in reversed(done.stdout.splitlines()) if " in " in line and "passed" in line
                    or "failed" in line), "")
    print(f"{' '.join(command[2:])}")
    for line in done.stdout.splitlines():
        if line.startswith(("FAILED", "ERROR")):
            print(f"  {line}")
    print(f"  {summary.strip('= ')}")
    print(f"  wall {wall:.1f} s on {args.workers} worker(s), CPU {cpu:.1f} s (target: wall at most 120 s on 2)")
    print("  the slowest files (seconds of their tests):")
    for name, seconds in sorted(per_file.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"    {seconds:7.1f}  {name}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
