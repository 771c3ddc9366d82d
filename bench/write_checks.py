"""What the checks every write makes cost (issue 36: a damaged or edited record is never written to),
on the largest example game (examples/1801-game.txt, about 1,100 commands), and what they refuse.

    python bench/write_checks.py [--repeat 5] [--example 1801-game.txt]

Prints: the checks alone (Store.write_problem, and each of its parts), one command's write
(Session.execute of `count Ann N`) with and without them in this process, a whole `bank count`
as a new process with and without them, and the tampered copies of the game (tests/store/tampering.py)
that take no command. "Without" stubs the check out (Store.write_problem returning None); the
difference is what a one-shot `bank` command pays. A shell or the table pays it only when another
connection has written since its last check (SQLite's data_version).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "store")]

from ledger.books import audit  # noqa: E402
from ledger.books.session import Session  # noqa: E402
from ledger.books.store import Store  # noqa: E402
from ledger.core.command import Command  # noqa: E402

NO_CHECKS = "from ledger.books.store import Store; Store.write_problem = lambda self: None; "


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bank(path: Path, *words: str, checks: bool = True) -> subprocess.CompletedProcess:
    code = ("" if checks else NO_CHECKS) + "import sys; from ledger.interface.cli import main; sys.argv = ['bank'] + " \
        + repr(["--game", str(path), *words]) + "; main()"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--example", default="1801-game.txt")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bank-write-checks-"))
    try:
        game = folder / "game.db"
        played = subprocess.run([sys.executable, "-m", "ledger", "--game", str(game), "play",
                                 str(ROOT / "examples" / args.example)], capture_output=True, cwd=ROOT)
        assert played.returncode == 0, played.stderr.decode()
        s = Session.open(game)
        store = s.store
        rows = store.conn.execute("select (select count(*) from commands), (select count(*) from events)").fetchone()
        print(f"{args.example}: {rows[0]} commands, {rows[1]} events, {game.stat().st_size / 1e6:.2f} MB")
        events = audit.event_rows(store)
        parts = {
            "SQLite integrity_check": lambda: store.conn.execute("pragma integrity_check(10)").fetchall(),
            "SQLite quick_check": lambda: store.conn.execute("pragma quick_check(5)").fetchall(),
            "file (integrity, zero runs, chain, statuses, order)": lambda: audit.file_problems(store),
            "  the chain alone": lambda: audit.chain_problems(store),
            "events read and decoded": lambda: audit.event_rows(store),
            "postings against events": lambda: audit.posting_problems(store, events),
            "certificate moves against events": lambda: audit.check_cert_moves(store, events),
            "percents against events": lambda: audit.percent_problems(store, s.start_percents, events),
            "state snapshots' hashes": lambda: audit.snapshot_hash_problems(store),
        }
        for name, fn in parts.items():
            print(f"  {name:52} {timed(fn, args.repeat):7.1f} ms")
        whole = timed(store.write_problem, args.repeat)
        print(f"  {'all the checks of a write (Store.write_problem)':52} {whole:7.1f} ms")
        s.close()

        # one command written in this process, with and without the checks (a fresh session each
        # time: a one-shot command's check, not the shell's already-verified point)
        def one_write(checks: bool) -> float:
            times = []
            for n in range(args.repeat):
                copy = folder / f"w{n}.db"
                shutil.copyfile(game, copy)
                session = Session.open(copy)
                if not checks:
                    session.store.write_problem = lambda: None
                start = time.perf_counter()
                session.execute(Command("count", {"player": "Ann", "amount": 5}), "count Ann 5")
                times.append(time.perf_counter() - start)
                session.close()
                copy.unlink()
            return statistics.median(times) * 1000
        with_checks, without = one_write(True), one_write(False)
        print(f"one command (Session.execute), in this process: {with_checks:.0f} ms with the checks, "
              f"{without:.0f} ms without (+{with_checks - without:.0f} ms)")

        def process(checks: bool) -> float:
            times = []
            for n in range(args.repeat):
                copy = folder / f"p{n}.db"
                shutil.copyfile(game, copy)
                start = time.perf_counter()
                result = bank(copy, "count", "Ann", "5", checks=checks)
                times.append(time.perf_counter() - start)
                assert result.returncode == 0, result.stderr.decode()
                copy.unlink()
            return statistics.median(times) * 1000
        p_with, p_without = process(True), process(False)
        print(f"one `bank count Ann 5` (a new process): {p_with:.0f} ms with the checks, {p_without:.0f} ms "
              f"without (+{p_with - p_without:.0f} ms, {100 * (p_with - p_without) / p_without:.0f} %)")

        # what the checks refuse
        from tampering import KINDS, tamper
        refused, taken = 0, []
        for kind in KINDS:
            copy = folder / f"t-{kind}.db"
            shutil.copyfile(game, copy)
            tamper(kind, copy)
            before = hashlib.sha256(copy.read_bytes()).hexdigest()
            result = bank(copy, "count", "Ann", "5")
            err = [line for line in result.stderr.decode().splitlines() if line.strip()]
            same = hashlib.sha256(copy.read_bytes()).hexdigest() == before
            if result.returncode not in (0, 70) and len(err) == 1 and same:
                refused += 1
            else:
                taken.append(kind)
            copy.unlink()
        print(f"tampered copies: {refused} of {len(KINDS)} refused the next command in one line, the file "
              f"unchanged; taken: {', '.join(taken) or 'none'} (rows only a replay re-derives: bank audit reports them)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
