"""Every earlier file opens and audits without a write (issue 36). tests/data/old-releases holds a
game file written by each release whose schema differs (named by the commit's date and hash; each is
the first 36 commands of examples/1830-opening.txt played with that commit's own code, see
tests/data/README.md): before the routes' typo-guard knobs of commit 3fe915f (900cc59: its stored
ruleset lacks three knobs every title now gives), before state snapshots (fd9ffe7), state snapshots
without a chain (1cd5931), the chain without who entered each command (2336f54), and who entered
each command and the table's links, the last before the versioned schema (47db1a0). Each is read
as it is, to the byte, by every view and the audit, and migrated by its first write."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_driver import run_bank
from game_files import in_memory

from ledger.books import schema

OLD = Path(__file__).resolve().parents[1] / "data" / "old-releases"
FILES = sorted(p.name for p in OLD.glob("*.db"))
READS = [["status"], ["status", "--json"], ["log"], ["log", "--json"], ["audit"], ["audit", "--json"], ["score"],
         ["score", "--json"], ["explain", "5"], ["market"], ["log", "--hidden"]]


@pytest.fixture
def tmp_path():
    yield from in_memory()


def copy(name: str, folder: Path) -> Path:
    path = folder / name
    shutil.copyfile(OLD / name, path)
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def user_version(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("pragma user_version").fetchone()[0]
    finally:
        conn.close()


def test_there_is_a_file_of_each_earlier_schema():
    assert FILES == ["2026-11-23-1cd5931.db", "2026-11-23-900cc59.db", "2026-11-23-fd9ffe7.db",
                     "2026-11-26-2336f54.db", "2026-11-26-47db1a0.db"]
    assert all((OLD / name).stat().st_size < 100_000 for name in FILES)


@pytest.mark.parametrize("name", FILES)
def test_an_earlier_file_is_read_by_every_view_without_a_write(name, tmp_path):
    path = copy(name, tmp_path)
    before = digest(path)
    assert user_version(path) == 0
    for words in READS:
        result = run_bank("--game", str(path), *words)
        assert result.returncode == 0, (words, result.stderr.decode())
        assert digest(path) == before, f"{words} changed the file"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]   # no journal, no side file left
    status = json.loads(run_bank("--game", str(path), "status", "--json").stdout)
    assert status["round"] == "SR 1" and status["title"] == "1830"
    assert json.loads(run_bank("--game", str(path), "audit", "--json").stdout)["ok"] is True


@pytest.mark.parametrize("name", FILES)
def test_the_first_write_migrates_an_earlier_file(name, tmp_path):
    path = copy(name, tmp_path)
    status = json.loads(run_bank("--game", str(path), "status", "--json").stdout)
    result = run_bank("--game", str(path), "count", "Alice", str(status["players"][0]["cash"]))
    assert result.returncode == 0, result.stderr.decode()
    assert user_version(path) == schema.SCHEMA_VERSION
    assert run_bank("--game", str(path), "audit").returncode == 0
    conn = sqlite3.connect(str(path))
    try:
        rounds = [r[0] for r in conn.execute("select round from commands order by id")]
        assert rounds[0] == "setup" and rounds[1] == "Auction" and rounds[-1] == "SR 1"
        assert conn.execute("select count(*) from cert_percents").fetchone()[0] > 0
    finally:
        conn.close()


def test_the_file_from_before_the_typo_guard_knobs_stores_a_ruleset_without_them(tmp_path):
    """The file of commit 900cc59 (before 3fe915f) is what the other tests read as it is: its stored
    ruleset has none of the routes' knobs, and its digest is the one of that text."""
    path = copy("2026-11-23-900cc59.db", tmp_path)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        text, engine = conn.execute("select ruleset_text, engine_version from game").fetchone()
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    finally:
        conn.close()
    for knob in ("revenue_multiple", "max_stop_revenue", "max_route_stops"):
        assert knob not in text
    assert engine == 1 and "state_snapshots" not in tables and "cert_percents" not in tables
    # (read by every view and the audit without a write above), migrated: the title's values of today
    result = run_bank("--game", str(path), "count", "Alice", "1")
    assert result.returncode == 0, result.stderr.decode()
    assert user_version(path) == schema.SCHEMA_VERSION
    audit = json.loads(run_bank("--game", str(path), "audit", "--json").stdout)
    assert audit["ok"] is True, audit["problems"]


def test_an_earlier_file_covers_each_round_in_the_chain_from_its_first_write_on(tmp_path):
    """Migration 6: the rows recorded from the first write on have their round and worth per round
    in their hash (an edit of one is refused by the next write); the rows recorded before keep their
    hashes, and an edit of their round is left to `bank audit`, which reports it."""
    path = copy("2026-11-26-47db1a0.db", tmp_path)
    last = 36
    for amount in ("1", "2"):
        assert run_bank("--game", str(path), "count", "Alice", amount).returncode == 0
    conn = sqlite3.connect(str(path))
    try:
        assert conn.execute("select chain_derived_from from game").fetchone()[0] == last + 1
        conn.execute("update commands set round = 'OR 9.9' where id = 20")
        conn.commit()
    finally:
        conn.close()
    audit = run_bank("--game", str(path), "audit")
    assert audit.returncode == 8 and "stored as typed in OR 9.9" in " ".join(audit.stdout.decode().split())
    assert run_bank("--game", str(path), "count", "Alice", "3").returncode == 0   # before the cover
    conn = sqlite3.connect(str(path))
    try:
        conn.execute(f"update commands set round = 'OR 9.9' where id = {last + 1}")
        conn.commit()
    finally:
        conn.close()
    before = digest(path)
    refused = run_bank("--game", str(path), "count", "Alice", "4")
    err = [line for line in refused.stderr.decode().splitlines() if line.strip()]
    assert refused.returncode != 0 and len(err) == 1, err
    assert f"command {last + 1} (count Alice 1)" in err[0] and "its round" in err[0], err[0]
    assert digest(path) == before
