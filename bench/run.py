#!/usr/bin/env python3
"""Benchmark of `bank` (issue 4): import + audit, replay, cold CLI start-up, peak memory.

    python bench/run.py                  # everything, ~20-30 s on a 2-core machine
    python bench/run.py --only b,c       # a subset: a (import), b (replay), c (cold status), d (memory)
    python bench/run.py --profile        # also print where the time goes (cProfile, -X importtime)
    python bench/run.py --src /tmp/old   # benchmark another checkout (its ledger/ and rulesets/)

Not a test: it prints numbers and whether each target of issue 4 is met, and exits 0 unless the
benchmark itself could not run. See bench/README.md for what each number means.
"""

from __future__ import annotations

import argparse
import cProfile
import glob
import io
import json
import os
import platform
import pstats
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import tracemalloc
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

# The recorded 18xx.games games that travel with the tests.
DEFAULT_LOGS = str(Path(__file__).resolve().parents[1] / "tests" / "data" / "18xxgames")

# Targets of issue 4.
TARGET_IMPORT_S = 1.0          # (a) import + audit of the largest recorded game, wall seconds
TARGET_REPLAY_MS_PER_1K = 50.0  # (b) replay of a finished game, ms per 1,000 commands
TARGET_STATUS_RATIO = 1.5       # (c) cold `bank status` / cold `python -c "import typer, sqlite_utils, tabulate"`

BASELINE_CODE = "import typer, sqlite_utils, tabulate"
# Used instead of the installed console script when --src points at another checkout.
BANK_SHIM = "import sys; from ledger.interface.cli import main; sys.argv[0] = 'bank'; sys.exit(main())"
# Runs a command as its child and prints the child's max RSS (KiB) from getrusage(RUSAGE_CHILDREN):
# a fresh wrapper per command, so the high-water mark is that command's alone.
RSS_WRAPPER = ("import resource, subprocess, sys; "
               "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)")


# --------------------------------------------------------------------------- small helpers

def median(xs):
    return statistics.median(xs) if xs else float("nan")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def table(headers: list[str], rows: list[list], title: str | None = None) -> str:
    cells = [[str(c) for c in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    def line(values):
        return "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(values, widths)))
    out = []
    if title:
        out.append(title)
    out.append(line(headers))
    out.append("  ".join("-" * w for w in widths))
    out += [line(r) for r in cells]
    return "\n".join(out)


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


@contextmanager
def timer():
    box = {}
    t0 = time.perf_counter()
    yield box
    box["s"] = time.perf_counter() - t0


def git_state(path: Path) -> str:
    try:
        out = subprocess.run(["git", "-C", str(path), "describe", "--always", "--dirty"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


# --------------------------------------------------------------------------- subprocess runs

class Runner:
    """Starts the `bank` command and the baseline as fresh processes."""

    def __init__(self, src: Path | None, workdir: Path):
        self.workdir = workdir
        self.env = dict(os.environ)
        if src:
            self.env["PYTHONPATH"] = str(src) + os.pathsep + self.env.get("PYTHONPATH", "")
            self.bank = [sys.executable, "-c", BANK_SHIM]
        else:
            script = Path(sysconfig.get_path("scripts")) / "bank"
            found = str(script) if script.exists() else shutil.which("bank")
            if not found:
                raise SystemExit("error: no `bank` console script (pip install -e . first, or use --src)")
            # The real console script (its shebang is this interpreter), not a pyenv/asdf shim, so that
            # `bank` and the baseline `python -c` start the same interpreter the same way.
            self.bank = [found]
        self.baseline = [sys.executable, "-c", BASELINE_CODE]
        self.bare = [sys.executable, "-c", "pass"]

    def wall(self, cmd: list[str], check: bool = True) -> tuple[float, int]:
        t0 = time.perf_counter()
        r = subprocess.run(cmd, cwd=self.workdir, env=self.env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        t = time.perf_counter() - t0
        if check and r.returncode not in (0, 7):  # 7: import finished, but differs from the log
            raise SystemExit(f"error: {' '.join(cmd)} exited {r.returncode}: {r.stderr.decode()[-400:]}")
        return t, r.returncode

    def max_rss_kib(self, cmd: list[str]) -> int:
        out = subprocess.run([sys.executable, "-c", RSS_WRAPPER, *cmd], cwd=self.workdir, env=self.env,
                             capture_output=True, text=True, check=True)
        return int(out.stdout.split()[0])


# --------------------------------------------------------------------------- the measurements

def scan_logs(logs: list[Path], workdir: Path) -> list[dict]:
    """Import every log once (also the warm-up): commands, differences, seconds."""
    from ledger.importer.run import import_log
    rows = []
    for log in logs:
        db = workdir / "scan.db"
        text = log.read_text()
        with timer() as t:
            try:
                result = import_log(text, db)
                n, diffs, err = len(result.commands), len(result.differences), ""
            except Exception as exc:  # a log the engine cannot import still gets a row
                n, diffs, err = 0, 0, f"{type(exc).__name__}: {exc}"[:80]
        rows.append({"log": log, "commands": n, "differences": diffs, "s": t["s"], "error": err})
    remove_db(workdir / "scan.db")
    return rows


def bench_import(log: Path, db: Path, reps: int) -> dict:
    from ledger.importer.run import import_log
    text = log.read_text()
    times, result = [], None
    for _ in range(reps):
        with timer() as t:
            result = import_log(text, db)
        times.append(t["s"])
    return {"times": times, "commands": len(result.commands), "differences": len(result.differences),
            "log_lines": text.count("\n")}


def bench_import_e2e(runner: Runner, log: Path, db: Path, reps: int) -> dict:
    cmd = [*runner.bank, "--game", str(db), "import", str(log), "--replace"]
    times, codes = [], set()
    for _ in range(reps):
        remove_db(db)
        t, code = runner.wall(cmd)
        times.append(t)
        codes.add(code)
    return {"times": times, "exit_codes": sorted(codes), "cmd": cmd}


def game_counts(db: Path) -> dict:
    conn = sqlite3.connect(str(db))
    try:
        commands = conn.execute("select count(*) from commands where status = 'active'").fetchone()[0]
        events = conn.execute("select count(*) from events e join commands c on c.id = e.command_id "
                              "where c.status = 'active'").fetchone()[0]
    finally:
        conn.close()
    return {"commands": commands, "events": events}


def bench_replay(db: Path, reps: int) -> dict:
    from ledger.books.session import Session
    from ledger.core import engine
    open_times = []
    for _ in range(reps):
        with timer() as t:
            s = Session.open(db)
        s.close()
        open_times.append(t["s"])
    s = Session.open(db)
    try:
        events = s.store.active_events()
        replay_times, state = [], None
        for _ in range(reps):
            with timer() as t:
                state = engine.replay(s.rs, s.players, events, s.options)
            replay_times.append(t["s"])
        return {"open": open_times, "replay": replay_times, "game_over": bool(s.state.game_over),
                "same_state": state == s.state, **game_counts(db)}
    finally:
        s.close()


def bench_status(runner: Runner, db: Path, reps: int) -> dict:
    bank = [*runner.bank, "--game", str(db), "status"]
    cmds = {"bank status": bank, "baseline": runner.baseline, "bare python": runner.bare}
    for cmd in cmds.values():  # warm the OS page cache and the .pyc files
        runner.wall(cmd)
    times = defaultdict(list)
    for _ in range(reps):  # interleaved, so drifting machine load hits all three alike
        for name, cmd in cmds.items():
            times[name].append(runner.wall(cmd)[0])
    return {"times": dict(times), "cmds": cmds}


def bench_memory(runner: Runner, log: Path, db: Path, e2e_db: Path) -> dict:
    from ledger.books.session import Session
    from ledger.core import engine
    from ledger.importer.run import import_log
    text = log.read_text()
    out = {}

    def peak(fn) -> int:
        tracemalloc.start()
        tracemalloc.reset_peak()
        try:
            fn()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    out["import_log (in-process)"] = peak(lambda: import_log(text, db))
    out["Session.open (in-process)"] = peak(lambda: Session.open(db).close())
    s = Session.open(db)
    events = s.store.active_events()
    out["engine.replay (in-process)"] = peak(lambda: engine.replay(s.rs, s.players, events, s.options))
    s.close()
    rss = {}
    remove_db(e2e_db)
    rss["bank import (subprocess)"] = runner.max_rss_kib([*runner.bank, "--game", str(e2e_db), "import",
                                                          str(log), "--replace"])
    rss["bank status (subprocess)"] = runner.max_rss_kib([*runner.bank, "--game", str(db), "status"])
    rss["baseline (subprocess)"] = runner.max_rss_kib(runner.baseline)
    rss["bare python (subprocess)"] = runner.max_rss_kib(runner.bare)
    return {"tracemalloc": out, "rss_kib": rss}


# --------------------------------------------------------------------------- profiling

def top_functions(prof: cProfile.Profile, n: int, key: str) -> list[list]:
    st = pstats.Stats(prof, stream=io.StringIO())
    total = st.total_tt or 1e-9
    rows = []
    for (path, line, fn), (cc, nc, tt, ct, _callers) in st.stats.items():
        rows.append((ct if key == "cumulative" else tt, nc, path, line, fn))
    rows.sort(reverse=True)
    out = []
    for t, nc, path, line, fn in rows[:n]:
        label = fn if path == "~" else f"{fn} ({Path(path).name}:{line})"
        out.append([label, nc, ms(t), f"{100 * t / total:.0f}%"])
    return out


def inclusive_timers(targets: list[tuple[str, str, str]]):
    """Wrap functions with wall-clock accumulators (no profiler overhead); returns (stats, undo)."""
    import importlib
    stats = defaultdict(lambda: [0, 0.0])
    undo = []
    for mod_name, owner_name, attr in targets:
        try:
            mod = importlib.import_module(mod_name)
        except ImportError:
            continue
        owner = getattr(mod, owner_name) if owner_name else mod
        fn = getattr(owner, attr, None)
        if fn is None:
            continue
        label = f"{mod_name.split('.')[-1]}.{owner_name + '.' if owner_name else ''}{attr}"

        def wrapped(*a, __fn=fn, __label=label, **k):
            t0 = time.perf_counter()
            try:
                return __fn(*a, **k)
            finally:
                cell = stats[__label]
                cell[0] += 1
                cell[1] += time.perf_counter() - t0
        raw = owner.__dict__.get(attr, fn)  # keep classmethod/staticmethod wrappers for the restore
        setattr(owner, attr, wrapped)
        undo.append((owner, attr, raw))

    def restore():
        for owner, attr, fn in reversed(undo):
            setattr(owner, attr, fn)
    return stats, restore


IMPORT_PARTS = [  # (module, class or "", function): timed inclusively during one import
    ("ledger.importer.translate", "", "parse_log"),
    ("ledger.books.session", "Session", "new"),
    ("ledger.books.session", "Session", "execute"),
    ("ledger.core.engine", "", "decide"),
    ("ledger.core.engine", "", "decide_with_state"),
    ("ledger.core.state", "GameState", "clone"),
    ("ledger.books.store", "Store", "append"),
    ("ledger.books.store", "Store", "snapshot"),
    ("ledger.books.store", "_Transaction", "__exit__"),
    ("ledger.importer.translate", "", "money_facts"),
]

OPEN_PARTS = [
    ("ledger.books.store", "Store", "__init__"),
    ("ledger.books.store", "Store", "header"),
    ("ledger.core.ruleset", "", "parse"),
    ("ledger.books.store", "Store", "latest_state_snapshot"),
    ("ledger.books.store", "Store", "active_event_rows"),
    ("ledger.books.session", "Session", "snapshot_state"),
    ("ledger.books.session", "Session", "replay_onto"),
    ("ledger.books.session", "", "engine_fingerprint"),
    ("ledger.core.engine", "", "initial_state"),
    ("ledger.books.session", "", "check_invariants"),
]


def profile_import(log: Path, db: Path, n: int) -> str:
    from ledger.importer.run import import_log
    text = log.read_text()
    out = []
    stats, restore = inclusive_timers(IMPORT_PARTS)
    try:
        with timer() as t:
            import_log(text, db)
    finally:
        restore()
    rows = [[label, calls, ms(secs), f"{100 * secs / t['s']:.0f}%"]
            for label, (calls, secs) in sorted(stats.items(), key=lambda kv: -kv[1][1])]
    out.append(table(["function (inclusive, wall clock, no profiler)", "calls", "ms", "share"], rows,
                     f"(a) import_log total {ms(t['s'])} ms - where it goes:"))
    prof = cProfile.Profile()
    prof.enable()
    import_log(text, db)
    prof.disable()
    out.append(table(["function (cProfile, self time)", "calls", "ms", "share"], top_functions(prof, n, "tottime"),
                     "\n(a) cProfile, top self time (profiler overhead inflates many-small-call functions):"))
    return "\n".join(out)


def profile_open(db: Path, reps: int, n: int) -> str:
    from ledger.books.session import Session
    stats, restore = inclusive_timers(OPEN_PARTS)
    try:
        with timer() as t:
            for _ in range(reps):
                Session.open(db).close()
    finally:
        restore()
    rows = [[label, calls, ms(secs / reps), f"{100 * secs / t['s']:.0f}%"]
            for label, (calls, secs) in sorted(stats.items(), key=lambda kv: -kv[1][1])]
    out = [table(["function (inclusive, wall clock)", "calls", "ms/open", "share"], rows,
                 f"(b) Session.open, {ms(t['s'] / reps)} ms per open - where it goes:")]
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(reps):
        Session.open(db).close()
    prof.disable()
    out.append(table(["function (cProfile, self time)", "calls", "ms", "share"], top_functions(prof, n, "tottime"),
                     f"\n(b) cProfile of {reps} opens, top self time:"))
    return "\n".join(out)


def importtime(runner: Runner, cmd: list[str], runs: int = 3) -> tuple[dict[str, float], dict[str, float]]:
    """`python -X importtime`, median of `runs`: (self seconds per top-level package,
    cumulative seconds per top-level import statement, i.e. what the program itself asked for)."""
    env = dict(runner.env, PYTHONPROFILEIMPORTTIME="1")
    per_pkg, per_root = defaultdict(list), defaultdict(list)
    for _ in range(runs):
        r = subprocess.run(cmd, cwd=runner.workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        pkg, root = defaultdict(float), defaultdict(float)
        for line in r.stderr.splitlines():
            m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
            if not m:
                continue
            pkg[m.group(4).split(".")[0]] += int(m.group(1)) / 1e6
            if len(m.group(3)) == 1:  # depth 0: imported by the program, not by another module
                root[m.group(4)] += int(m.group(2)) / 1e6
        for k, v in pkg.items():
            per_pkg[k].append(v)
        for k, v in root.items():
            per_root[k].append(v)
    return ({k: median(v + [0.0] * (runs - len(v))) for k, v in per_pkg.items()},
            {k: median(v + [0.0] * (runs - len(v))) for k, v in per_root.items()})


def profile_status(runner: Runner, db: Path, n: int) -> str:
    bank = [*runner.bank, "--game", str(db), "status"]
    # Phases measured inside one cold `bank status` process.
    driver = ("import sys, time; t0 = time.perf_counter(); import ledger.cli as cli; t1 = time.perf_counter()\n"
              "import io, contextlib\n"
              f"sys.argv = ['bank', '--game', {str(db)!r}, 'status']\n"
              "mods = set(sys.modules)\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    try: cli.main()\n"
              "    except SystemExit: pass\n"
              "t2 = time.perf_counter()\n"
              "print(t1 - t0, t2 - t1, len(set(sys.modules) - mods), len(sys.modules))\n")
    walls, phases = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", driver], cwd=runner.workdir, env=runner.env,
                           capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - t0)
        phases.append([float(x) for x in r.stdout.split()])
    i = walls.index(sorted(walls)[len(walls) // 2])
    wall, (imp, run, lazy_mods, all_mods) = walls[i], phases[i]
    base = median([runner.wall(runner.bare)[0] for _ in range(5)])
    out = [table(["phase of one cold `bank status`", "ms", "share"], [
        ["python start-up (bare `python -c pass`)", ms(base), f"{100 * base / wall:.0f}%"],
        ["import ledger.cli (typer, click, ledger.engine, ...)", ms(imp), f"{100 * imp / wall:.0f}%"],
        [f"main(): lazy imports ({int(lazy_mods)} modules) + open + replay + print", ms(run),
         f"{100 * run / wall:.0f}%"],
        ["rest (interpreter teardown, process spawn)", ms(wall - base - imp - run),
         f"{100 * (wall - base - imp - run) / wall:.0f}%"],
        ["total wall", ms(wall), "100%"],
    ], f"(c) one cold `bank status` ({int(all_mods)} modules loaded):")]

    bank_pkg, bank_root = importtime(runner, bank)
    base_pkg, base_root = importtime(runner, runner.baseline)
    names = sorted(set(bank_root) | set(base_root), key=lambda k: -max(bank_root.get(k, 0), base_root.get(k, 0)))
    rows = [[name, ms(bank_root.get(name, 0.0)), ms(base_root.get(name, 0.0))]
            for name in names if max(bank_root.get(name, 0), base_root.get(name, 0)) >= 0.002]
    out.append(table(["import statement run by the program (cumulative)", "bank status", "baseline"], rows,
                     "\n(c) -X importtime, median of 3: what each top-level import pulled in (>= 2 ms):"))
    rows = []
    for pkg in sorted(set(bank_pkg) | set(base_pkg), key=lambda p: -(bank_pkg.get(p, 0) - base_pkg.get(p, 0))):
        b, a = bank_pkg.get(pkg, 0.0), base_pkg.get(pkg, 0.0)
        if abs(b - a) >= 0.003:
            rows.append([pkg, ms(b), ms(a), ms(b - a)])
    rows.append(["(all packages)", ms(sum(bank_pkg.values())), ms(sum(base_pkg.values())),
                 ms(sum(bank_pkg.values()) - sum(base_pkg.values()))])
    out.append(table(["top-level package (self time summed)", "bank status", "baseline", "extra"], rows,
                     "\n(c) -X importtime by package, bank status minus the baseline (|extra| >= 3 ms):"))

    # cProfile of main() in a cold process, import machinery included.
    prof_file = runner.workdir / "status.prof"
    pdriver = ("import cProfile, sys, io, contextlib\n"
               f"sys.argv = ['bank', '--game', {str(db)!r}, 'status']\n"
               "p = cProfile.Profile(); p.enable()\n"
               "with contextlib.redirect_stdout(io.StringIO()):\n"
               "    try:\n"
               "        from ledger.interface.cli import main; main()\n"
               "    except SystemExit: pass\n"
               f"p.disable(); p.dump_stats({str(prof_file)!r})\n")
    subprocess.run([sys.executable, "-c", pdriver], cwd=runner.workdir, env=runner.env, check=True)
    st = pstats.Stats(str(prof_file), stream=io.StringIO())
    total = st.total_tt or 1e-9
    wanted = [("cli.py", "status"), ("cli.py", "session"), ("session.py", "open"), ("session.py", "replay"),
              ("ruleset.py", "parse"), ("views.py", "status_text"), ("_coercion.py", "build_runtime_param"),
              ("_adapters.py", "<module>"), ("db.py", "<module>"), ("numpy/__init__.py", "<module>"),
              ("pydantic/__init__.py", "<module>"), ("tabulate/__init__.py", "<module>"),
              ("ledger/engine.py", "<module>"), ("ledger/names.py", "<module>"), ("typer/main.py", "get_command")]
    rows = []
    for (path, line, fn), (cc, nc, tt, ct, _c) in st.stats.items():
        for suffix, name in wanted:
            if path.endswith(suffix) and fn == name:
                rows.append([f"{fn} ({'/'.join(Path(path).parts[-2:])})", ms(ct), f"{100 * ct / total:.0f}%"])
    rows.sort(key=lambda r: -float(r[1]))
    out.append(table(["selected function (cProfile cumulative, in a cold process)", "ms", "share"], rows,
                     f"\n(c) cProfile of `bank status` main() + imports ({ms(total)} ms profiled):"))
    return "\n".join(out)


# --------------------------------------------------------------------------- main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="a,b,c,d", help="comma list of a,b,c,d (default all)")
    ap.add_argument("--logs", default=DEFAULT_LOGS, help=f"directory of *.log.txt (default {DEFAULT_LOGS})")
    ap.add_argument("--log", type=Path, help="the log to use for (a) and as the finished game for (b)-(c) "
                                              "(default: the one whose import yields the most commands)")
    ap.add_argument("--reps", type=int, default=5, help="in-process import repetitions (default 5)")
    ap.add_argument("--open-reps", type=int, default=20, help="Session.open / replay repetitions (default 20)")
    ap.add_argument("--cold-reps", type=int, default=10, help="cold `bank status` / baseline pairs (default 10)")
    ap.add_argument("--e2e-reps", type=int, default=3, help="`bank import` subprocess repetitions (default 3)")
    ap.add_argument("--profile", action="store_true", help="also show where the time goes")
    ap.add_argument("--top", type=int, default=12, help="rows of cProfile output with --profile")
    ap.add_argument("--src", type=Path, help="a checkout whose ledger/ and rulesets/ to benchmark instead")
    ap.add_argument("--keep", type=Path, help="work in this directory and keep the game files")
    ap.add_argument("--json", type=Path, help="also write the raw numbers here")
    args = ap.parse_args(argv)
    only = set(args.only.replace(" ", "").split(","))

    if args.src:
        sys.path.insert(0, str(args.src.resolve()))
    try:
        import ledger
    except Exception as exc:
        raise SystemExit(f"error: cannot import ledger: {type(exc).__name__}: {exc}")
    src_dir = Path(ledger.__file__).resolve().parent.parent

    workdir = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="bank-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    runner = Runner(args.src.resolve() if args.src else None, workdir)
    game_db, e2e_db = workdir / "game.db", workdir / "e2e.db"
    raw: dict = {}
    started = time.perf_counter()

    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    print(f"bank benchmark: Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"load {load[0]:.2f}" if isinstance(load[0], float) else "")
    print(f"ledger: {src_dir} (git {git_state(src_dir)}); bank command: {' '.join(runner.bank)[:90]}")
    print(f"work files: {workdir}\n")

    try:
        # ------------------------------------------------------------------ choose the game
        if args.log:
            log = args.log.resolve()
            from ledger.importer.run import import_log
            import_log(log.read_text(), game_db)  # warm-up
        else:
            logs = sorted(Path(p) for p in glob.glob(os.path.join(args.logs, "*.log.txt")))
            if not logs:
                raise SystemExit(f"error: no *.log.txt in {args.logs}")
            scan = scan_logs(logs, workdir)
            raw["scan"] = [{**r, "log": str(r["log"])} for r in scan]
            print(table(["log", "log lines", "commands", "differences", "import s", "ms / 1k cmds"],
                        [[r["log"].name, r["log"].read_text().count("\n"), r["commands"],
                          r["differences"] if not r["error"] else r["error"], f"{r['s']:.3f}",
                          f"{1e6 * r['s'] / r['commands']:.0f}" if r["commands"] else "-"] for r in scan],
                        "Recorded games (one import each; the first also pays for loading modules):"))
            ok = [r for r in scan if r["commands"]]
            if not ok:
                raise SystemExit("error: no log could be imported")
            log = max(ok, key=lambda r: r["commands"])["log"]
            print(f"-> largest game: {log.name}\n")
        raw["log"] = str(log)

        results = []  # (target, measured, target text, verdict)

        # ------------------------------------------------------------------ (a)
        if "a" in only or "b" in only or "c" in only or "d" in only:
            imp = bench_import(log, game_db, max(1, args.reps if "a" in only else 1))
            raw["import"] = imp
        if "a" in only:
            e2e = bench_import_e2e(runner, log, e2e_db, args.e2e_reps)
            raw["import_e2e"] = {k: v for k, v in e2e.items() if k != "cmd"}
            t_in, t_e2e = median(imp["times"]), median(e2e["times"])
            rows = [
                [f"import_log in process (median of {len(imp['times'])})", f"{t_in:.3f}", f"{min(imp['times']):.3f}",
                 f"{max(imp['times']):.3f}", f"{1000 * t_in / imp['commands'] * 1000:.0f}"],
                [f"`bank import` end to end (median of {len(e2e['times'])})", f"{t_e2e:.3f}",
                 f"{min(e2e['times']):.3f}", f"{max(e2e['times']):.3f}",
                 f"{1000 * t_e2e / imp['commands'] * 1000:.0f}"],
            ]
            print(table(["(a) import + audit of " + log.name, "median s", "min s", "max s", "ms / 1k cmds"], rows))
            print(f"    {imp['commands']} commands, {imp['differences']} differences from the log"
                  + (f", exit codes {e2e['exit_codes']}" if e2e["exit_codes"] != [0] else "") + "\n")
            results.append(["(a) import in process", f"{t_in:.3f} s", f"< {TARGET_IMPORT_S} s",
                            verdict(t_in < TARGET_IMPORT_S)])
            results.append(["(a) `bank import` end to end", f"{t_e2e:.3f} s", f"< {TARGET_IMPORT_S} s",
                            verdict(t_e2e < TARGET_IMPORT_S)])

        # ------------------------------------------------------------------ (b)
        if "b" in only:
            rep = bench_replay(game_db, args.open_reps)
            raw["replay"] = rep
            k = rep["commands"] / 1000
            t_open, t_rep = median(rep["open"]), median(rep["replay"])
            rows = [
                ["Session.open (header, ruleset, events, replay, checks)", ms(t_open), ms(min(rep["open"])),
                 f"{1000 * t_open / k:.1f}", f"{1000 * t_open / (rep['events'] / 1000):.1f}"],
                ["engine.replay over the stored events", ms(t_rep), ms(min(rep["replay"])),
                 f"{1000 * t_rep / k:.2f}", f"{1000 * t_rep / (rep['events'] / 1000):.2f}"],
            ]
            print(table([f"(b) replay, median of {args.open_reps}", "median ms", "min ms", "ms / 1k cmds",
                         "ms / 1k events"], rows))
            print(f"    {rep['commands']} active commands, {rep['events']} events; game over: "
                  f"{'yes' if rep['game_over'] else 'NO'}; engine.replay state == Session state: "
                  f"{'yes' if rep['same_state'] else 'NO'}\n")
            results.append(["(b) Session.open per 1k commands", f"{1000 * t_open / k:.1f} ms",
                            f"< {TARGET_REPLAY_MS_PER_1K:.0f} ms", verdict(1000 * t_open / k < TARGET_REPLAY_MS_PER_1K)])
            results.append(["(b) engine.replay per 1k commands", f"{1000 * t_rep / k:.2f} ms",
                            f"< {TARGET_REPLAY_MS_PER_1K:.0f} ms", verdict(1000 * t_rep / k < TARGET_REPLAY_MS_PER_1K)])

        # ------------------------------------------------------------------ (c)
        if "c" in only:
            st = bench_status(runner, game_db, args.cold_reps)
            raw["status"] = {k: v for k, v in st.items() if k != "cmds"}
            med = {name: median(ts) for name, ts in st["times"].items()}
            ratio = med["bank status"] / med["baseline"]
            rows = [[name + (" (`python -c \"" + BASELINE_CODE + "\"`)" if name == "baseline" else ""),
                     ms(med[name]), ms(min(ts)), ms(max(ts)), f"{med[name] / med['baseline']:.2f}x"]
                    for name, ts in st["times"].items()]
            print(table([f"(c) cold start, median of {args.cold_reps}", "median ms", "min ms", "max ms",
                         "vs baseline"], rows))
            over = med["bank status"] - med["baseline"]
            print(f"    bank status costs {ms(over)} ms more than the baseline; the baseline itself is "
                  f"{ms(med['baseline'] - med['bare python'])} ms of imports over a bare interpreter\n")
            results.append(["(c) cold `bank status` / baseline", f"{ratio:.2f}x", f"<= {TARGET_STATUS_RATIO}x",
                            verdict(ratio <= TARGET_STATUS_RATIO)])

        # ------------------------------------------------------------------ (d)
        if "d" in only:
            mem = bench_memory(runner, log, game_db, e2e_db)
            raw["memory"] = mem
            rows = [[name, f"{b / 2**10:,.0f}", ""] for name, b in mem["tracemalloc"].items()]
            rows += [[name, "", f"{kib / 1024:.1f}"] for name, kib in mem["rss_kib"].items()]
            print(table(["(d) peak memory", "tracemalloc peak KiB", "max RSS MiB"], rows))
            print("    (no target: reported for reference)\n")

        if results:
            print(table(["target (issue 4)", "measured", "target", "verdict"], results, "Summary:"))
            raw["summary"] = results

        if args.profile:
            print("\n" + "=" * 30 + " where the time goes " + "=" * 30 + "\n")
            if "a" in only:
                print(profile_import(log, workdir / "profile.db", args.top) + "\n")
            if "b" in only:
                print(profile_open(game_db, args.open_reps, args.top) + "\n")
            if "c" in only:
                print(profile_status(runner, game_db, args.top))

        print(f"\nbenchmark took {time.perf_counter() - started:.1f} s")
        if args.json:
            args.json.write_text(json.dumps(raw, indent=1, default=str))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
