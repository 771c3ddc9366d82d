"""Kill one-shot `bank` commands at random moments (issue 36's stress figures): nothing lost, nothing
corrupted, nothing recorded twice.

    python bench/kills.py                  # 60 kills on the 1830 opening, seed 1
    python bench/kills.py --kills 200 --seed 3 --example 1801-game.txt

A game is played to its 20th command; then each next command of the transcript is started as a
`bank` process and killed (SIGKILL) after a random delay of up to the command's usual duration.
After each kill the game must open, `bank audit` must be clean, and the number of commands in force
must be the one before or one more (the command either happened whole or not at all); a command
that did not happen is tried again. The record of the games keyed here (ledger.books.known, kept in
a configuration folder of the bench's own) may lag behind a command killed after its commit, never
break the game: at the end a command is written from it, and nothing a killed bank left of the
record stays. Prints the counts; exits non-zero if any kill broke the rule.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from transcripts import lines_of  # noqa: E402

BANK = str(Path(sys.executable).with_name("bank"))


def bank(game: Path, *words: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([BANK, "--game", str(game), *words], capture_output=True, text=True, timeout=timeout)


def commands_in_force(game: Path) -> int:
    done = bank(game, "log", "--json")
    if done.returncode:
        raise RuntimeError(f"the game does not open: {done.stderr.strip()}")
    return len(json.loads(done.stdout))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--example", default="1830-opening.txt")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lines = lines_of((ROOT / "examples" / args.example).read_text())
    folder = Path(tempfile.mkdtemp(prefix="bank-kills-"))
    os.environ["BANK_CONFIG_DIR"] = str(folder / "config")   # the bench's key and record, not the user's
    game = folder / "game.db"
    start = folder / "start.txt"
    start.write_text("\n".join(lines[:20]) + "\n")
    assert bank(game, "play", str(start)).returncode == 0, "the start did not play"
    # how long one command takes here: kills land anywhere inside it
    t = time.perf_counter()
    bank(game, "status")
    usual = time.perf_counter() - t
    at, problems, whole, none = 20, [], 0, 0
    for n in range(args.kills):
        if at >= len(lines):
            break
        before = commands_in_force(game)
        proc = subprocess.Popen([BANK, "--game", str(game), *shlex.split(lines[at])],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, usual * 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        try:
            after = commands_in_force(game)
        except RuntimeError as exc:
            problems.append(f"kill {n} during '{lines[at]}': {exc}")
            break
        audit = bank(game, "audit")
        if audit.returncode:
            problems.append(f"kill {n} during '{lines[at]}': audit: {audit.stderr.strip() or audit.stdout[-200:]}")
        if after == before + 1:
            whole += 1
            at += 1
        elif after == before:
            none += 1
        else:
            problems.append(f"kill {n} during '{lines[at]}': {before} commands before, {after} after")
    # the record: its point may be behind the head (a kill after the commit), never in the way
    records = list((folder / "config" / "games").glob("*.json"))
    files = json.loads(records[0].read_text())["files"] if len(records) == 1 else {}
    recorded = files.get(str(game.resolve()), {})
    point, written = recorded.get("command"), recorded.get("head") or recorded.get("command")
    head = json.loads(bank(game, "log", "--json").stdout)[-1]["id"] if not problems else None
    final = bank(game, "count", "Alice", "0") if not problems else None
    if final is not None and final.returncode:
        problems.append(f"the write after the kills, from the record's point {point}: {final.stderr.strip()}")
    left = [p.name for p in (folder / "config" / "games").glob(".*")]
    if left:
        problems.append(f"a killed bank left {left} in the record's folder")
    print(f"{args.example}: {whole + none} kills (seed {args.seed}, up to {usual * 1.5 * 1000:.0f} ms into a "
          f"command): {whole} commands recorded whole, {none} not at all, {len(problems)} problem(s); "
          f"the record's last verified point: command {point}, the last it recorded written {written}, the "
          f"last in force {head}")
    for p in problems[:10]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
