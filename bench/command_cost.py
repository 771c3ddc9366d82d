#!/usr/bin/env python3
"""What one command costs at the table, as same-run ratios against the floor (issue 28).

    python bench/command_cost.py                 # every title's shipped full game, 15 pairs each
    python bench/command_cost.py --reps 5 --titles 1801
    python bench/command_cost.py --long          # also 50 vs 5,000 commands in one round

The floor is `python -c "import typer, sqlite_utils, tabulate"`: the libraries every command
needs. For each title, the shipped example is played (through the real CLI and SQLite) into a
game file once; then fresh processes of `bank status`, `bank pay` and `bank buy` (both refused on
the finished game after the whole path: the game opened, the rule asked) alternate with the floor,
so that drifting machine load hits both alike. Printed: the median wall time of each and its
ratio to the floor's median in the same run (target at most 1.0x), and each command's peak memory
(max RSS of its process, target at most 32 MiB).

`--long` builds two games of one endless stock round (players passing and buying nothing: `count`
commands, recorded like any other) of 50 and 5,000 commands and compares cold `status` on them
(target: within 1.05x).

Byte-code is compiled first (as `pip install` does), so the figures are those of an installed bank;
PYTHONDONTWRITEBYTECODE is cleared for the measured processes. Not a test; exits 0 unless it cannot run.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {"1830": "1830-full-game.txt", "1843": "1843-game.txt", "1839": "1839-game.txt", "1801": "1801-game.txt"}
FLOOR = [sys.executable, "-c", "import typer, sqlite_utils, tabulate"]
# a fresh process that runs a command and reports its own peak memory (RUSAGE_CHILDREN is the
# children's high-water mark: one child per wrapper, so it is that command's alone)
PEAK = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def bank_command() -> list[str]:
    script = Path(sysconfig.get_path("scripts")) / "bank"
    found = str(script) if script.exists() else shutil.which("bank")
    if not found:
        raise SystemExit("error: no `bank` console script (pip install -e . first)")
    return [found]


def timed(args: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def peak_mib(args: list[str], env: dict) -> float:
    out = subprocess.run([sys.executable, "-c", PEAK, *args], env=env, capture_output=True, text=True).stdout
    return int(out.strip() or 0) / 1024


def play(bank: list[str], transcript: Path, db: Path, env: dict) -> None:
    db.unlink(missing_ok=True)
    done = subprocess.run([*bank, "--game", str(db), "play", str(transcript)], env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"error: playing {transcript.name}: {done.stderr.strip()[-300:]}")


def first_corp_and_player(db: Path) -> tuple[str, str]:
    import json
    import sqlite3
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        text, players = conn.execute("select ruleset_text, players from game where id = 1").fetchone()
    finally:
        conn.close()
    import tomllib
    return tomllib.loads(text)["corporations"][0]["sym"], json.loads(players)[0]


def compare(label: str, commands: dict[str, list[str]], reps: int, env: dict) -> None:
    """Alternate each command with the floor `reps` times (after one warm-up of each)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    times["floor"] = []
    for name, args in commands.items():
        timed(args, env)
    timed(FLOOR, env)
    for _ in range(reps):
        for name, args in commands.items():
            times[name].append(timed(args, env))
            times["floor"].append(timed(FLOOR, env))
    floor = statistics.median(times["floor"])
    print(f"\n{label}: floor {floor * 1000:.0f} ms (median of {len(times['floor'])})")
    for name, args in commands.items():
        median = statistics.median(times[name])
        print(f"  {name:<28} {median * 1000:6.0f} ms  {median / floor:5.2f}x the floor   "
              f"peak {peak_mib(args, env):5.1f} MiB")


def long_round(bank: list[str], workdir: Path, reps: int, env: dict) -> None:
    games = {}
    for size in (50, 5000):
        text = workdir / f"round-{size}.txt"
        players = ["Ann", "Ben", "Cy", "Dee"]
        lines = ["new 1830 " + " ".join(players)] + [f"count {players[i % 4]} 600" for i in range(size - 1)]
        text.write_text("\n".join(lines) + "\n")
        games[size] = workdir / f"round-{size}.db"
        play(bank, text, games[size], env)
    runs = {size: [] for size in games}
    for _ in range(reps + 1):
        for size, db in games.items():
            runs[size].append(timed([*bank, "--game", str(db), "status"], env))
    small, large = (statistics.median(runs[s][1:]) for s in (50, 5000))
    print(f"\none round of 50 vs 5,000 commands: cold status {small * 1000:.0f} ms vs {large * 1000:.0f} ms: "
          f"{large / small:.2f}x (target at most 1.05x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--titles", default=",".join(EXAMPLES))
    ap.add_argument("--long", action="store_true", help="also 50 vs 5,000 commands in one round")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for folder in ("ledger", "rulesets"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)
    bank = bank_command()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for title in args.titles.split(","):
            db = workdir / f"{title}.db"
            play(bank, ROOT / "examples" / EXAMPLES[title], db, env)
            corp, player = first_corp_and_player(db)
            g = [*bank, "--game", str(db)]
            compare(f"{title}, finished game ({EXAMPLES[title]})",
                    {"status": [*g, "status"], f"pay {corp} 100 (refused)": [*g, "pay", corp, "100"],
                     f"buy {player} {corp} (refused)": [*g, "buy", player, corp]}, args.reps, env)
        if args.long:
            long_round(bank, workdir, args.reps, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
