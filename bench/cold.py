#!/usr/bin/env python3
"""Cold `bank status` against the length of the game (issue 11, item 7).

    python bench/cold.py                    # games of ~50, ~900 and ~5,000 commands, 10 rounds of runs
    python bench/cold.py --reps 20          # more runs per game
    python bench/cold.py --src /tmp/before  # another checkout's ledger/ and rulesets/
    python bench/cold.py --src /tmp/before --src .   # two checkouts, interleaved (before/after)
    python bench/cold.py --keep DIR         # keep the game files

Each game is recorded through the real CLI (`bank play TRANSCRIPT`, one transaction a command) by
the code under test, so it has whatever that code stores. The transcript is
examples/1830-full-game.txt: its first 50 commands for the small game; the whole game with
`count PLAYER N` commands spread evenly between its commands for the larger ones (a count is a
recorded command with an event, like any other, and moves no money), so every game keeps the
full game's rounds and the longer games have more commands in each round.

Then, interleaved so that drifting machine load hits every game alike: a fresh process of
`bank --game GAME status` per game and a bare `python -c pass`, once for warm-up and then
`--reps` times. The target: the 5,000-command game within 10 % of the 50-command one.
Not a test; it exits 0 unless it cannot run.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sqlite3
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPT = ROOT / "examples" / "1830-full-game.txt"
SIZES = (50, 900, 5000)
TARGET_RATIO = 1.10
BANK_SHIM = "import sys; from ledger.interface.cli import main; sys.argv[0] = 'bank'; sys.exit(main())"


def game_lines(path: Path) -> list[str]:
    lines = [line.split("#", 1)[0].strip() for line in path.read_text().splitlines()]
    return [line for line in lines if line]


def players_of(new_line: str) -> list[str]:
    words = shlex.split(new_line)
    return [w for w in words[2:] if not w.startswith("-") and "=" not in w]


def transcript(size: int, lines: list[str]) -> list[str]:
    """`size` commands: the game's first commands, or the whole game with counts spread evenly
    between its commands (after the `new` line)."""
    if size <= len(lines):
        return lines[:size]
    players = players_of(lines[0])
    extra = size - len(lines)
    out = [lines[0]]
    played = lines[1:]
    for i, line in enumerate(played):
        out.append(line)
        # counts due after command i: the running share of `extra`, so they spread evenly
        due = (i + 1) * extra // len(played) - i * extra // len(played)
        for k in range(due):
            out.append(f"count {shlex.quote(players[(i + k) % len(players)])} 100")
    return out


class Runner:
    def __init__(self, src: Path | None):
        self.env = None
        if src:
            self.env = dict(os.environ, PYTHONPATH=str(src))
            self.bank = [sys.executable, "-c", BANK_SHIM]
        else:
            script = Path(sysconfig.get_path("scripts")) / "bank"
            found = str(script) if script.exists() else shutil.which("bank")
            if not found:
                raise SystemExit("error: no `bank` console script (pip install -e . first, or use --src)")
            self.bank = [found]

    def run(self, args: list[str]) -> float:
        t0 = time.perf_counter()
        r = subprocess.run(args, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        took = time.perf_counter() - t0
        if r.returncode:
            raise SystemExit(f"error: {' '.join(args)} exited {r.returncode}: {r.stderr.decode()[-400:]}")
        return took


def build(runner: Runner, size: int, lines: list[str], workdir: Path) -> Path:
    text = workdir / f"game-{size}.txt"
    text.write_text("\n".join(transcript(size, lines)) + "\n")
    db = workdir / f"game-{size}.db"
    db.unlink(missing_ok=True)
    runner.run([*runner.bank, "--game", str(db), "play", str(text)])
    return db


def counts(db: Path) -> dict:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        def one(sql):
            return conn.execute(sql).fetchone()[0]
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
        return {"commands": one("select count(*) from commands where status = 'active'"),
                "events": one("select count(*) from events e join commands c on c.id = e.command_id "
                              "where c.status = 'active'"),
                "state snapshots": one("select count(*) from state_snapshots") if "state_snapshots" in tables
                else "-",
                "KiB": db.stat().st_size // 1024}
    finally:
        conn.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=10, help="timed rounds (each runs every game once; default 10)")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="commands per game (default 50,900,5000)")
    ap.add_argument("--src", type=Path, action="append",
                    help="a checkout whose ledger/ and rulesets/ to benchmark (repeat to compare checkouts)")
    ap.add_argument("--keep", type=Path, help="work in this directory and keep the game files")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    sources = [src.resolve() for src in args.src] if args.src else [None]
    workdir = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="bank-cold-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        lines = game_lines(TRANSCRIPT)
        cmds, runners = {}, {}
        for n, src in enumerate(sources):
            runner = Runner(src)
            label = f"{src.name}: " if src and len(sources) > 1 else ""
            where = workdir / str(n)
            where.mkdir(exist_ok=True)
            for size in sizes:
                t0 = time.perf_counter()
                db = build(runner, size, lines, where)
                print(f"{label}built the {size}-command game in {time.perf_counter() - t0:.1f} s: {counts(db)}")
                name = f"{label}status, {size} commands"
                cmds[name], runners[name] = [*runner.bank, "--game", str(db), "status"], runner
        cmds["bare python"], runners["bare python"] = [sys.executable, "-c", "pass"], Runner(sources[0])
        times = time_interleaved(cmds, runners, args.reps)
        report(times, sizes, sources, args.reps)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def time_interleaved(cmds: dict, runners: dict, reps: int) -> dict[str, list[float]]:
    """Every command once for warm-up (page cache, .pyc files), then `reps` rounds of all of them,
    so that drifting machine load hits each alike."""
    for name, cmd in cmds.items():
        runners[name].run(cmd)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(reps):
        for name, cmd in cmds.items():
            times[name].append(runners[name].run(cmd))
    return times


def report(times: dict[str, list[float]], sizes: list[int], sources: list, reps: int) -> None:
    print(f"\ncold start, median of {reps} interleaved runs (ms):")
    print(f"{'':<34}{'median':>8}{'min':>8}{'max':>8}{'vs smallest':>13}")
    for src in sources:
        label = f"{src.name}: " if src and len(sources) > 1 else ""
        first = statistics.median(times[f"{label}status, {sizes[0]} commands"])
        for size in sizes:
            name = f"{label}status, {size} commands"
            ts = times[name]
            med = statistics.median(ts)
            print(f"{name:<34}{med * 1000:>8.1f}{min(ts) * 1000:>8.1f}{max(ts) * 1000:>8.1f}{med / first:>12.2f}x")
        ratio = statistics.median(times[f"{label}status, {sizes[-1]} commands"]) / first
        print(f"  -> {label}{sizes[-1]} commands within {TARGET_RATIO - 1:.0%} of {sizes[0]}: {ratio:.2f}x "
              f"{'MET' if ratio <= TARGET_RATIO else 'MISSED'}")
    ts = times["bare python"]
    print(f"{'bare python':<34}{statistics.median(ts) * 1000:>8.1f}{min(ts) * 1000:>8.1f}{max(ts) * 1000:>8.1f}")


if __name__ == "__main__":
    sys.exit(main())
