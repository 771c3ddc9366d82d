"""Safe at the table (issue 10): one writer, durable commits, real backups, damaged files, bash-safe
input. Every test drives the real `bank` command: as separate processes where the failure guarded
against only happens between processes (a stale state, a second writer, a shell left open, a full
disk, bytes a shell passes that are not UTF-8), else its same `main` in this process
(cli_driver.run_bank: damaged files, odd paths, hostile arguments), which saves the half second each
new Python costs. bench/race.py runs many more races than the few here.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import tempfile
from pathlib import Path

import pytest
import typer
from cli_driver import Bank, error_line, run_bank
from game_files import in_memory, new_copy, played_copy

from ledger import catalog
from ledger.books.session import Session
from ledger.interface.cli import app
from ledger.interface.shell import Shell

PLAYERS = ["Alice", "Bob", "Carol", "Dave"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def bank(*args: str, game: Path | None = None, cwd: Path | None = None, env: dict | None = None,
         limit_file_size: int | None = None, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`bank ARGS` as a separate process (python -m ledger), as typed in a shell."""
    argv = [sys.executable, "-m", "ledger", *(["--game", str(game)] if game else []), *args]
    preexec = None
    if limit_file_size is not None:
        def preexec():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))
    full_env = {k: v for k, v in os.environ.items() if k != "BANK_GAME"}
    full_env.update(env or {})
    return subprocess.run(argv, capture_output=True, cwd=cwd, env=full_env, preexec_fn=preexec,
                          input=stdin.encode() if stdin is not None else None, timeout=120)


def one_error(result: subprocess.CompletedProcess) -> str:
    """The process failed with exactly one stderr line `error: ...` and no traceback."""
    err = result.stderr.decode("utf-8", "replace")
    lines = [line for line in err.splitlines() if line.strip()]
    assert result.returncode != 0, f"expected a failure, got exit 0: {result.stdout!r}"
    assert len(lines) == 1 and lines[0].startswith("error: "), f"expected one error line, got {err!r}"
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def commands_in(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("select count(*) from commands").fetchone()[0]
    finally:
        conn.close()


def in_process(*args: str, game: Path | None = None, cwd: Path | None = None, env: dict | None = None):
    """`bank ARGS` as `bank()` runs it, through the same `main` in this process."""
    return run_bank(*(["--game", str(game)] if game else []), *args, cwd=cwd, env=env)


@pytest.fixture
def memory_path() -> Path:
    """A folder on the memory filesystem (game_files.in_memory), for what is not about the disk."""
    yield from in_memory()


@pytest.fixture
def tmp_path():
    """A folder on a disk (the system's temporary folder), not the memory filesystem the rest of
    the suite uses: this module tests durability, copies and full disks on the real thing."""
    folder = Path(tempfile.mkdtemp(prefix="bank-safety-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def game(tmp_path) -> Path:
    """`bank new 1830 Alice Bob Carol Dave` (made once, copied; `bank new` itself is tested below)."""
    return new_copy(tmp_path / "g.db")


@pytest.fixture
def opening(tmp_path) -> Path:
    """The example opening (auction, SR 1, OR 1, SR 2) played into a game file (once, copied)."""
    return played_copy("1830-opening.txt", tmp_path / "opening.db")


# --------------------------------------------------------------------------- one writer

def test_two_processes_racing_never_store_a_command_decided_on_an_old_state(tmp_path):
    """Two one-shot writers start together, each with a command that is legal now but not after
    the other: exactly one is recorded, the other is refused, the game opens and audits clean."""
    races = [("buy Alice SV", "pass Alice"), ("bid Alice CS 45", "buy Alice SV"), ("pass Alice", "pass Alice")]
    for round_no in range(len(races)):  # each pair once; bench/race.py runs hundreds over every title
        path = new_copy(tmp_path / f"race{round_no}.db")
        first, second = races[round_no % len(races)]
        argv = [sys.executable, "-m", "ledger", "--game", str(path)]
        procs = [subprocess.Popen([*argv, *line.split()], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for line in (first, second)]
        results = [(p.wait(timeout=60), p.stderr.read().decode()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        codes = sorted(code for code, _ in results)
        assert codes[0] == 0 and codes[1] != 0, results
        assert all("Traceback" not in err for _, err in results)
        assert commands_in(path) == 2
        audit = in_process("audit", game=path)  # the race is between the writers
        assert audit.returncode == 0, audit.stdout.decode() + audit.stderr.decode()


def test_a_shell_decides_on_the_game_as_another_terminal_left_it(game, capsys):
    """The shell loaded the game; another terminal records a purchase; the shell's next command is
    decided on the new state (refused: it is no longer Alice's turn) and the shell says it re-read."""
    session = Session.open(game)
    sh = Shell(typer.main.get_command(app), {"game": str(game), "session": session})
    try:
        assert bank("buy", "Alice", "SV", game=game).returncode == 0
        sh.run_line("buy Alice SV")
        err = capsys.readouterr().err
        assert "changed in another window (1 new command(s))" in err
        assert "not Alice's turn" in err
        assert sh.errors == 1
        assert commands_in(game) == 2
        sh.run_line("pass Bob")  # on the current state Bob is next: accepted
        assert commands_in(game) == 3
    finally:
        session.close()
    assert in_process("audit", game=game).returncode == 0


def test_a_stale_session_redecides_inside_the_write(game):
    """Even without the shell's re-read, the write itself checks: a session opened before another
    process wrote decides again on the new state."""
    stale = Session.open(game)
    try:
        assert bank("pass", "Alice", game=game).returncode == 0
        from ledger.core.command import Command
        from ledger.core.errors import RuleViolation
        with pytest.raises(RuleViolation, match="not Alice's turn"):
            stale.execute(Command("pass", {"player": "Alice"}), "pass Alice")
        assert commands_in(game) == 2
        stale.execute(Command("pass", {"player": "Bob"}), "pass Bob")
        assert commands_in(game) == 3
    finally:
        stale.close()


def test_a_writer_waits_for_another_and_then_says_who_holds_the_file(game):
    """A second writer waits for the busy timeout; if the lock is still held it fails with one line
    naming the process that holds the game, and records nothing."""
    holder = sqlite3.connect(str(game), isolation_level=None)
    holder.execute("begin exclusive")
    try:
        start = time.monotonic()
        result = bank("pass", "Alice", game=game, env={"BANK_BUSY_TIMEOUT": "0.5"})
        waited = time.monotonic() - start
        line = one_error(result)
        assert "in use by another bank process (waited 0.5 s)" in line
        assert f"pid {os.getpid()}" in line
        assert waited >= 0.5
    finally:
        holder.execute("rollback")
        holder.close()
    assert commands_in(game) == 1


def test_a_short_lock_is_waited_out(game):
    holder = sqlite3.connect(str(game), isolation_level=None, check_same_thread=False)
    holder.execute("begin exclusive")
    release = threading.Timer(0.4, lambda: (holder.execute("rollback"), holder.close()))
    release.start()
    try:
        result = bank("pass", "Alice", game=game)
    finally:
        release.join()
    assert result.returncode == 0, result.stderr
    assert commands_in(game) == 2


# --------------------------------------------------------------------------- durability and backups

def test_commits_are_durable_and_the_db_file_alone_holds_the_game(game):
    session = Session.open(game)
    try:
        conn = session.store.conn
        assert conn.execute("pragma synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("pragma journal_mode").fetchone()[0] == "delete"
    finally:
        session.close()


def test_a_copy_of_the_db_file_taken_while_a_shell_is_open_holds_every_command(opening, tmp_path):
    """A shell (a long-lived connection) records commands; after each one, `cp bank.db` alone (no
    -wal, no -journal) holds every command."""
    shell = subprocess.Popen([sys.executable, "-m", "ledger", "--game", str(opening), "shell"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        before = commands_in(opening)
        for n, line in enumerate(["count Alice 1", "count Bob 2", "count Carol 3"], start=1):
            shell.stdin.write((line + "\n").encode())
            shell.stdin.flush()
            deadline = time.monotonic() + 30
            while commands_in(opening) < before + n and time.monotonic() < deadline:
                time.sleep(0.05)
            copy = tmp_path / f"copy{n}.db"
            shutil.copyfile(opening, copy)  # the .db file only, as a person copies a game
            assert commands_in(copy) == before + n
            assert in_process("audit", game=copy).returncode == 0
        backup = tmp_path / "backup.db"
        result = bank("backup", str(backup), game=opening)  # while the shell still has the game open
        assert result.returncode == 0, result.stderr
        assert commands_in(backup) == before + 3
        assert in_process("audit", game=backup).returncode == 0
    finally:
        shell.stdin.close()
        shell.wait(timeout=30)
        shell.stdout.close()
        shell.stderr.close()


def test_backup_never_replaces_a_file(game, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("keep me")
    line = one_error(in_process("backup", str(other), game=game))
    assert "already exists" in line
    assert other.read_text() == "keep me"


def test_a_game_written_in_wal_mode_by_an_older_bank_is_switched_back(game):
    conn = sqlite3.connect(str(game))
    conn.execute("pragma journal_mode=wal")
    conn.close()
    assert in_process("pass", "Alice", game=game).returncode == 0
    conn = sqlite3.connect(str(game))
    try:
        assert conn.execute("pragma journal_mode").fetchone()[0] == "delete"
    finally:
        conn.close()
    assert commands_in(game) == 2


def test_new_is_one_transaction_and_never_leaves_a_half_game(tmp_path):
    path = tmp_path / "g.db"
    one_error(in_process("new", "1830", "Alice", "Bob", "Carol", "Alice", game=path))  # names must differ
    one_error(in_process("new", "1830", "Alice", game=path))  # too few players
    assert not path.exists()
    assert in_process("new", "1830", *PLAYERS, game=path).returncode == 0
    before = digest(path)
    line = one_error(in_process("new", "1830", "W", "X", "Y", "Z", game=path))
    assert "already exists" in line and digest(path) == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.db"]  # no temporary file left behind


def test_new_refuses_a_file_that_is_not_a_game(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("my notes")
    one_error(in_process("new", "1830", *PLAYERS, game=path))
    assert path.read_text() == "my notes"


# --------------------------------------------------------------------------- the demo

def test_demo_never_deletes_a_file_it_did_not_create(memory_path):
    tmp_path = memory_path  # the demo plays a whole game: no durable commit need wait for a disk
    mine = tmp_path / "mine.db"
    assert in_process("new", "1830", *PLAYERS, game=mine).returncode == 0
    before = digest(mine)
    line = one_error(in_process("demo", game=mine))
    assert "already exists" in line and digest(mine) == before
    line = one_error(in_process("demo", env={"BANK_GAME": str(mine)}, cwd=tmp_path))
    assert digest(mine) == before
    # without --game it picks a new file each time
    (tmp_path / "demo.db").write_text("not a demo")
    result = in_process("demo", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "demo.db").read_text() == "not a demo"
    assert "into demo-2.db" in result.stdout.decode()
    assert commands_in(tmp_path / "demo-2.db") > 300


def test_demo_runs_from_any_directory_and_the_examples_ship_in_the_package(memory_path):
    tmp_path = memory_path  # the demo plays a whole game: no durable commit need wait for a disk
    result = in_process("demo", "1830-opening", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Scores if the game ended now" in result.stdout.decode()
    wheel_dir = tmp_path / "wheel"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "-w", str(wheel_dir), str(EXAMPLES.parent)], capture_output=True, timeout=300)
    assert build.returncode == 0, build.stderr.decode()
    import zipfile
    wheel = next(wheel_dir.glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for example in EXAMPLES.glob("*.txt"):
        assert f"ledger/examples/{example.name}" in names


# --------------------------------------------------------------------------- damaged files

def damage(kind: str, path: Path) -> None:
    """Damage a copy of a game in one of the ways files get damaged."""
    data = path.read_bytes()
    if kind == "random":
        path.write_bytes(os.urandom(len(data)))
    elif kind == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif kind == "zeroed_page":
        page = 4096
        path.write_bytes(data[:page] + bytes(page) + data[2 * page:])
    elif kind == "text":
        path.write_text("just some notes\n")
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        sql = {"header_json": "update game set players = '[\"Alice\", '",
               "options_json": "update game set options = '{'",
               "event_json": "update events set data = '{\"kind\": ' where id = (select max(id) from events)",
               "engine_version": "update game set engine_version = 'one'",
               "dropped_table": "drop table events",
               "no_header": "delete from game",
               "ruleset": "update game set ruleset_text = ruleset_text || ' '"}[kind]
        conn = sqlite3.connect(str(path))
        conn.execute(sql)
        conn.commit()
        conn.close()


DAMAGE = ["random", "truncated", "zeroed_page", "text", "empty", "header_json", "options_json", "event_json",
          "engine_version", "dropped_table", "no_header", "ruleset"]


@pytest.mark.parametrize("kind,run", [(kind, in_process) for kind in DAMAGE] + [("zeroed_page", bank)],
                         ids=DAMAGE + ["zeroed_page-processes"])
def test_a_damaged_file_gives_one_line_and_is_not_touched(opening, tmp_path, kind, run):
    path = tmp_path / "damaged.db"
    shutil.copyfile(opening, path)
    damage(kind, path)
    before = digest(path)
    for args in (["status"], ["pass", "Alice"], ["log"], ["audit"], ["undo"], ["score", "--json"]):
        line = one_error(run(*args, game=path))
        assert str(path) in line or "stored ruleset" in line, line
        assert digest(path) == before, f"{args} changed a damaged file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.db", "opening.db"]


# --------------------------------------------------------------------------- hostile input

def test_bytes_that_are_not_utf8_are_refused_in_one_line(game, tmp_path):
    python = [sys.executable, "-m", "ledger", "--game", str(game)]
    for argv in ([*python, "adjust", "bank", "Alice", "5", b"--reason", b"\xff"],
                 [*python, "pass", b"Al\xffice"]):
        result = subprocess.run([a if isinstance(a, bytes) else a.encode() for a in argv], capture_output=True)
        line = one_error(result)
        assert "not valid UTF-8" in line and "\\xff" in line
    fresh = tmp_path / "fresh.db"
    result = subprocess.run([sys.executable.encode(), b"-m", b"ledger", b"--game", str(fresh).encode(),
                             b"new", b"1830", b"\xffA", b"B", b"C", b"D"], capture_output=True)
    one_error(result)
    assert not fresh.exists()
    assert commands_in(game) == 1


def test_a_line_break_in_an_argument_is_echoed_on_one_line(game):
    for text in ("x\ny", "x\ry", "x\u2028y", "x\x0by"):
        line = one_error(in_process("pass", text, game=game))
        assert "unknown player" in line


def test_paths_that_are_not_game_files(tmp_path):
    cases = {
        "a folder": (tmp_path, "is a folder"),
        "a missing folder": (tmp_path / "nope" / "g.db", "no folder"),
        "a path over 255 bytes": (tmp_path / ("x" * 300 + ".db"), "too long"),
        "a missing file": (tmp_path / "none.db", "no game at"),
    }
    for what, (path, expect) in cases.items():
        line = one_error(in_process("status", game=path))
        assert expect in line, (what, line)
    line = one_error(in_process("new", "1830", *PLAYERS, game=tmp_path / ("y" * 300 + ".db")))
    assert "too long" in line.lower()
    line = one_error(in_process("new", "1830", *PLAYERS, game=tmp_path / "nope" / "g.db"))
    assert "cannot" in line


def test_play_refuses_what_is_not_a_transcript(game, tmp_path):
    assert "not a file" in one_error(in_process("play", "", game=game))
    assert "no transcript" in one_error(in_process("play", str(tmp_path / "none.txt"), game=game))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"pass Alice\npass B\xffob\n")
    line = one_error(in_process("play", str(bad), game=game))
    assert "bad.txt:2" in line and "UTF-8" in line
    assert commands_in(game) == 1


def test_a_read_only_game_file_is_never_written(game):
    before = digest(game)
    game.chmod(0o444)
    try:
        line = one_error(in_process("pass", "Alice", game=game))
        assert "read-only" in line
        assert in_process("status", game=game).returncode == 0  # reading still works
    finally:
        game.chmod(0o644)
    assert digest(game) == before


def test_a_full_disk_records_nothing_and_leaves_the_game_whole(opening):
    before = commands_in(opening)
    line = one_error(bank("count", "Alice", "100", game=opening, limit_file_size=2048))
    assert "nothing was recorded" in line
    assert commands_in(opening) == before
    assert in_process("audit", game=opening).returncode == 0


def test_digit_strings_python_reads_are_not_amounts(game):
    for amount in ("1_000", "٣", "４５", "4 5", "0x2d", "45.0", "+45"):
        line = one_error(in_process("bid", "Alice", "CS", amount, game=game))
        assert "whole number" in line, (amount, line)
    assert commands_in(game) == 1


def test_negative_amounts_get_the_rules_error(opening):
    line = one_error(in_process("sell", "Alice", "PRR", "-2", game=opening))
    assert "at least 1" in line
    line = one_error(in_process("count", "Alice", "-40", game=opening))
    assert "must not be negative" in line
    line = one_error(in_process("pass", "Alice", "--pol", game=opening))
    assert "no option --pol" in line or "No such option" in line or "unexpected extra argument" in line


def test_game_option_after_the_verb(game):
    result = in_process("status", "--json", "--game", str(game))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["round"] == "Auction"
    assert in_process("pass", "Alice", f"--game={game}").returncode == 0
    assert commands_in(game) == 2


# --------------------------------------------------------------------------- bash-safe symbols

def test_a_symbol_with_an_ampersand_has_a_plain_alias(tmp_path, monkeypatch):
    b = Bank(tmp_path / "g.db", monkeypatch)
    b.line("play " + str(EXAMPLES / "1830-opening.txt"))
    president = b.company("B&O")["president"]
    assert president
    # `bank sell Carol B&O 1` in bash runs `bank sell Carol B` and a command `O 1`:
    line = error_line(b("sell", president, "B", ok=False))
    assert "BnO" in line and "'B&O'" in line and "did you mean B&O" not in line
    info = b("info", "1830").stdout
    assert "BnO" in info and "BnM" in info and "CnO" in info


def test_shipped_symbols_a_shell_would_split_all_have_aliases():
    from ledger.core import ruleset
    for title in catalog.available_titles():
        rs = catalog.load(title)
        for entry in (*rs.corporations, *rs.privates):
            if not ruleset.SHELL_SAFE.fullmatch(entry.sym):
                assert entry.alias, f"{title}: {entry.sym} needs a plain alias"


def test_an_alias_may_not_be_another_symbol():
    from ledger.core.errors import RulesetError
    with pytest.raises(RulesetError, match="'BO' is also"):
        catalog.parse_text(catalog.ruleset_text("1830"), {}, source="1830",
                      override_text='[[corporations]]\nsym = "X"\nname = "X"\nhome = "A1"\ntokens = [0]\nalias = "BO"\n')


# --------------------------------------------------------------------------- the audit sees every table

def test_audit_sees_a_deleted_certificate_move_and_an_edited_snapshot(opening, tmp_path):
    """The `holdings` and `worth_by_round` views read cert_moves and snapshots: the audit derives
    both again, so a deleted row or an edited figure is a problem, not a wrong answer in SQL."""
    moved = tmp_path / "moved.db"
    shutil.copyfile(opening, moved)
    conn = sqlite3.connect(str(moved))
    cert, command = conn.execute("select cert, command_id from cert_moves where dest like 'player:%' "
                                 "order by id desc limit 1").fetchone()
    conn.execute("delete from cert_moves where id = (select max(id) from cert_moves where dest like 'player:%')")
    conn.commit()
    conn.close()
    result = in_process("audit", game=moved)
    assert result.returncode != 0
    assert f"command {command}: the certificate moves" in result.stdout.decode() and cert in result.stdout.decode()

    worth = tmp_path / "worth.db"
    shutil.copyfile(opening, worth)
    conn = sqlite3.connect(str(worth))
    command, player = conn.execute("select command_id, player from snapshots order by id desc limit 1").fetchone()
    conn.execute("update snapshots set value = value + 100 where id = (select max(id) from snapshots)")
    conn.commit()
    conn.close()
    result = in_process("audit", game=worth)
    assert result.returncode != 0
    out = result.stdout.decode()
    assert f"command {command}" in out and "round snapshot" in out and player in out
