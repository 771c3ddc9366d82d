"""What the checks every write makes cost (issue 36: a damaged or edited record is never written to),
on the largest example game (examples/1801-game.txt, about 1,100 commands), and what they refuse.

    python bench/write_checks.py [--repeat 5] [--example 1801-game.txt]

Prints: the checks alone (Store.write_problem, and each of its parts), of the whole file and from
the file's last verified point (ledger.books.known: what this machine recorded after its last write
to that file); one command's write (Session.execute of `count Ann N`) in this process and a whole
`bank count` as a new process, each at a copy this machine never wrote (the whole file checked: the
cost before the last verified point was kept), at a file it wrote last (from the point), and
without the checks; then the tampered copies of the game (tests/store/tampering.py) that take no
command, both as copies never written here and as files edited in place after a write here.
"Without" stubs the check out (Store.write_problem returning None); the difference is what a
one-shot `bank` command pays. A shell or the table pays it only when another connection has
written since its last check (SQLite's data_version). Each figure is the fastest of --repeat runs
(on a machine shared with other work, the least disturbed one). The bench keeps its key and its record of
the games keyed here in a folder of its own (BANK_CONFIG_DIR), never the user's.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "store")]

from ledger.books import audit, known  # noqa: E402
from ledger.books.session import Session  # noqa: E402
from ledger.core.command import Command  # noqa: E402

# What a new process is started with: no record of the point kept (the cost before it was kept),
# and no checks at all either.
STUBS = {"whole": "from ledger.books.store import Store; Store.take_point = lambda self: None; ",
         "none": "from ledger.books.store import Store; Store.write_problem = lambda self: None; "
                 "Store.take_point = lambda self: None; "}


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def bank(path: Path, *words: str, how: str = "point") -> subprocess.CompletedProcess:
    code = STUBS.get(how, "") + "import sys; from ledger.interface.cli import main; sys.argv = ['bank'] + " \
        + repr(["--game", str(path), *words]) + "; main()"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT)


def interleaved(measure, repeat: int) -> tuple[float, float, float]:
    """(whole file, from the point, no checks): the fastest of `repeat` runs of each in ms, the three
    taken in turn so that what else the machine does weighs on them alike."""
    times = {"whole": [], "point": [], "none": []}
    for n in range(repeat):
        for how, found in times.items():
            found.append(measure(how, n))
    return tuple(min(times[how]) * 1000 for how in ("whole", "point", "none"))


def rows_of(path: Path) -> str | None:
    """Every row of the file as SQLite reads it (its dump), or None where it cannot be read whole."""
    import sqlite3
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return "\n".join(conn.iterdump())
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--example", default="1801-game.txt")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bank-write-checks-"))
    os.environ["BANK_CONFIG_DIR"] = str(folder / "config")   # this process's and every bank it starts
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
        whole = timed(lambda: audit.record_problems(store, s.start_percents, 0), args.repeat)
        print(f"  {'all the checks of a write, the whole file':52} {whole:7.1f} ms")
        s.close()
        # the same file once written here: its last verified point is recorded
        written = folder / "written.db"
        shutil.copyfile(game, written)
        s = Session.open(written)
        s.execute(Command("count", {"player": "Ann", "amount": 5}), "count Ann 5")
        s.close()   # the point is recorded as the session closes
        s = Session.open(written)
        point = s.store.verified_point()
        assert point == s.store.head(), (point, s.store.head())
        print(f"  {'the last verified point (known.verified_point)':52} "
              f"{timed(lambda: known.verified_point(s.store), args.repeat):7.1f} ms")
        print(f"  {'recording a new point at the head (known.remember)':52} "
              f"{timed(lambda: known.remember(s.store), args.repeat):7.1f} ms")
        kept = known.verified_point(s.store)
        print(f"  {'recording the point a write only appended after':52} "
              f"{timed(lambda: known.save(known.take(s.store, kept)), args.repeat):7.1f} ms")
        tail = timed(s.store.write_problem, args.repeat)
        print(f"  {'all the checks of a write, from the point (with it)':52} {tail:7.1f} ms")
        s.close()

        # one command written in this process (a fresh session each time: a one-shot command's
        # check, not the shell's already-verified point): at a copy never written here (the whole
        # file), at a file written here last (from its point), and without the checks
        def one_write(how: str, n: int) -> float:
            copy = folder / f"w{n}.db"
            shutil.copyfile(game, copy)
            if how == "point":
                warm = Session.open(copy)
                warm.execute(Command("count", {"player": "Ann", "amount": 4}), "count Ann 4")
                warm.close()
            session = Session.open(copy)
            if how == "none":
                session.store.write_problem = lambda: None
            if how in ("none", "whole"):
                session.store.take_point = lambda: None
            start = time.perf_counter()
            session.execute(Command("count", {"player": "Ann", "amount": 5}), "count Ann 5")
            session.close()   # where the next point is recorded
            took = time.perf_counter() - start
            copy.unlink()
            return took
        full, incremental, without = interleaved(one_write, args.repeat)
        print(f"one command (Session.execute), in this process: {without:.0f} ms without the checks; before the "
              f"last verified point was kept, the whole file checked {full:.0f} ms (+{full - without:.0f} ms); now, "
              f"from the last verified point and recording the next {incremental:.0f} ms "
              f"(+{incremental - without:.0f} ms)")

        def process(how: str, n: int) -> float:
            copy = folder / f"p{n}.db"
            shutil.copyfile(game, copy)
            if how == "point":
                assert bank(copy, "count", "Ann", "4").returncode == 0
            start = time.perf_counter()
            result = bank(copy, "count", "Ann", "5", how=how)
            took = time.perf_counter() - start
            assert result.returncode == 0, result.stderr.decode()
            copy.unlink()
            return took
        p_full, p_point, p_without = interleaved(process, args.repeat)
        print(f"one `bank count Ann 5` (a new process): {p_without:.0f} ms without the checks; before, the whole "
              f"file checked {p_full:.0f} ms (+{p_full - p_without:.0f} ms); now, from the last verified point "
              f"{p_point:.0f} ms (+{p_point - p_without:.0f} ms)")

        # what the checks refuse: copies never written here (the whole file is checked), and files
        # tampered in place after a write here (checked from the point, unless the rows before it
        # changed, when the whole file is)
        from tampering import KINDS, tamper
        for where in ("copies never written here", "files written here, then tampered in place"):
            refused, unused, taken = 0, [], []
            for kind in KINDS:
                copy = folder / f"t-{kind}.db"
                shutil.copyfile(game, copy)
                if where.startswith("files"):
                    assert bank(copy, "count", "Ann", "4").returncode == 0
                sound, tampered = folder / "sound.db", folder / "tampered.db"
                shutil.copyfile(copy, sound)
                tamper(kind, copy)
                shutil.copyfile(copy, tampered)
                before = hashlib.sha256(copy.read_bytes()).hexdigest()
                result = bank(copy, "count", "Ann", "5")
                err = [line for line in result.stderr.decode().splitlines() if line.strip()]
                same = hashlib.sha256(copy.read_bytes()).hexdigest() == before
                if result.returncode not in (0, 70) and len(err) == 1 and same:
                    refused += 1
                elif rows_of(tampered) == rows_of(sound):
                    unused.append(kind)   # the bytes it changed held no row: nothing was damaged
                else:
                    taken.append(kind)
                for done in (copy, sound, tampered):
                    done.unlink()
            print(f"tampered {where}: {refused} of {len(KINDS)} refused the next command in one line, the file "
                  f"unchanged; {len(unused)} changed only bytes that hold no row ({', '.join(unused) or 'none'}: "
                  f"SQLite reads every row as before); taken: {', '.join(taken) or 'none'}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
