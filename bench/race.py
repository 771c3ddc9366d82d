"""Stress the one-writer rule with real processes (issue 10 §1).

    python bench/race.py                 # 200 races, seed 1, over the four titles in turn
    python bench/race.py --races 500 --seed 3 --titles 1801

Each race starts two one-shot `bank` processes on one game file at the same moment, and (every
third race) a `bank shell` that loaded the game before them and then types its own command. The
commands are chosen so that at most one of each pair is legal after the other. After each race the
game must open, `bank audit` must be clean, and the number of recorded commands must equal the
number of commands that reported success. Exits non-zero and lists the problems otherwise.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BANK = [sys.executable, "-m", "ledger"]
PLAYERS = ["Alice", "Bob", "Carol", "Dave"]
# Each title's start (what follows `new TITLE` with the four players) and commands legal then, most
# of which exclude one another.
TITLES = {
    "1830": ([], ["buy Alice SV", "pass Alice", "bid Alice CS 45", "bid Alice DH 75", "count Alice 600"]),
    "1843": ([], ["buy Alice TB", "pass Alice", "bid Alice CEI 25", "bid Alice SG 45", "count Alice 100"]),
    # the seeded draw deals Carol the first card: she puts the first discount chip
    "1839": (["deal --random 5"], ["discount Carol LVG 60", "discount Carol SHZ 40", "discount Carol LVG 40",
                                   "discount Dave LVG 60", "count Carol 700"]),
    "1801": ([], ["buy Alice RSC", "buy Alice PC", "pass Alice", "bid Alice HML 90", "count Alice 100"]),
}


def run(game: Path, line: str) -> subprocess.Popen:
    return subprocess.Popen([*BANK, "--game", str(game), *line.split()], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def commands(game: Path) -> int:
    conn = sqlite3.connect(f"file:{game}?mode=ro", uri=True)
    try:
        return conn.execute("select count(*) from commands").fetchone()[0]
    finally:
        conn.close()


def race(game: Path, rng: random.Random, with_shell: bool, title: str) -> list[str]:
    problems = []
    setup, openers = TITLES[title]
    if subprocess.run([*BANK, "--game", str(game), "new", title, *PLAYERS], capture_output=True).returncode:
        return ["cannot create the game"]
    for line in setup:
        if subprocess.run([*BANK, "--game", str(game), *line.split()], capture_output=True).returncode:
            return [f"cannot set the game up: {line}"]
    shell = None
    if with_shell:
        shell = subprocess.Popen([*BANK, "--game", str(game), "shell"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.4)  # the shell has loaded the game before the one-shot writers start
    lines = rng.sample(openers, 2)
    procs = [run(game, line) for line in lines]
    ok = 0
    for p in procs:
        out, err = p.communicate(timeout=120)
        if b"Traceback" in err:
            problems.append(f"traceback: {err.decode()[-300:]}")
        ok += p.returncode == 0
    if shell is not None:
        out, err = shell.communicate(input=(rng.choice(openers) + "\n").encode(), timeout=120)
        if b"Traceback" in err:
            problems.append(f"shell traceback: {err.decode()[-300:]}")
        ok += b"error:" not in err
    if commands(game) != 1 + len(setup) + ok:
        problems.append(f"{commands(game) - 1 - len(setup)} commands stored, {ok} reported success ({lines})")
    audit = subprocess.run([*BANK, "--game", str(game), "audit"], capture_output=True)
    if audit.returncode:
        problems.append(f"audit: {audit.stdout.decode()[-400:]}{audit.stderr.decode()}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--races", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--titles", default=",".join(TITLES), help="the titles to race on, in turn")
    args = ap.parse_args()
    titles = args.titles.split(",")
    rng = random.Random(args.seed)
    problems = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.races):
            title = titles[n % len(titles)]
            found = race(Path(tmp) / f"race{n}.db", rng, with_shell=n % 3 == 0, title=title)
            problems += [f"race {n} ({title}): {p}" for p in found]
    print(f"{args.races} races (seed {args.seed}) in {time.monotonic() - start:.0f} s: {len(problems)} problem(s)")
    for problem in problems[:20]:
        print(f"  {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
