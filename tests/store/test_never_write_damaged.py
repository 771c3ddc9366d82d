"""A damaged or edited record is never written to (issue 36). Every write checks what it extends
(Store.write_problem: SQLite's integrity check, the whole chain, the statuses, the rows derived from
the events, the snapshots' hashes), so a file `bank audit` flags takes no command: one line on stderr,
a non-zero exit, the file byte-identical. The damaged and tampered copies are made here from a sound
game (tests/store/tampering.py: a file cut by one byte or one page, flipped bytes in an index page or
in an event as it lies on its page, a zeroed page, an event's JSON edited, a middle command row
deleted, a time, an author, a status, a posting, a certificate move, a percent, a state snapshot).
The repair paths: `bank backup` still copies a flagged file, read-only; a restored backup takes the
next command; a state snapshot (a cache) edited is repaired by deleting the cache.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_driver import run_bank
from game_files import in_memory, played_file
from tampering import KINDS, tamper

from ledger.books.session import Session
from ledger.core.command import Command
from ledger.core.errors import LedgerCorrupt

# Every kind, the rows derived for SQL readers that only a replay re-derives too (each command's
# round, the worth per round): from schema 6 each row's hash covers them.
DERIVED = ["command_round", "last_round_cleared", "worth_snapshot"]
REFUSED = list(KINDS)


@pytest.fixture
def tmp_path():
    yield from in_memory()


@pytest.fixture(scope="module")
def sound() -> Path:
    return played_file("1830-opening.txt")   # 73 commands: auction, SR 1, OR 1, SR 2


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line(result) -> str:
    err = [line for line in result.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    assert result.returncode not in (0, 70), (result.returncode, err)
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


def damaged_copy(sound: Path, folder: Path, kind: str) -> Path:
    path = folder / f"{kind}.db"
    shutil.copyfile(sound, path)
    tamper(kind, path)
    return path


@pytest.mark.parametrize("kind", REFUSED)
def test_a_flagged_file_takes_no_command_and_is_left_as_it_is(sound, tmp_path, kind):
    path = damaged_copy(sound, tmp_path, kind)
    before = digest(path)
    assert run_bank("--game", str(path), "audit").returncode != 0, f"audit does not see {kind}"
    for words in (["count", "Alice", "5"], ["undo"], ["pass", "Dave"]):
        line = one_line(run_bank("--game", str(path), *words))
        assert "nothing was recorded" in line or "not a readable bank game" in line or "changed outside bank" in line \
            or "invariant" in line, line
        assert digest(path) == before, f"{words} changed the {kind} file"
    assert run_bank("--game", str(path), "audit").returncode != 0   # still flagged: nothing was made to look whole
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.parametrize("kind", DERIVED)
def test_a_derived_row_edited_is_refused_as_a_change_to_its_command(sound, tmp_path, kind):
    """A command's round or its worth per round edited: the chain names the command, the audit
    also says what the replay derives instead, and the file takes no command."""
    path = damaged_copy(sound, tmp_path, kind)
    line = one_line(run_bank("--game", str(path), "count", "Alice", "5"))
    assert "was changed outside bank" in line and "its round" in line and "worth per round" in line, line
    audit = run_bank("--game", str(path), "audit")
    assert audit.returncode == 8
    text = " ".join(audit.stdout.decode().split())
    if kind == "command_round":
        assert "is stored as typed in OR 9.9, but the replay puts it in" in text, text
    if kind == "worth_snapshot":
        assert "its stored round snapshot" in text and "differs from the ledger's" in text, text


def test_the_refusal_says_what_to_do(sound, tmp_path):
    edited = damaged_copy(sound, tmp_path, "event_json")
    line = one_line(run_bank("--game", str(edited), "count", "Alice", "5"))
    assert "was changed outside bank (command 21 (buy Dave PRR)" in line
    assert "restore the game from a backup" in line and "bank backup COPY.db keeps this file as it is" in line
    cut = damaged_copy(sound, tmp_path, "index_page_flip")
    line = one_line(run_bank("--game", str(cut), "count", "Alice", "5"))
    assert "damaged" in line and "from a backup" in line


def test_a_flagged_file_is_still_backed_up_read_only_and_a_backup_takes_commands(sound, tmp_path):
    good = tmp_path / "good.db"
    shutil.copyfile(sound, good)
    assert run_bank("--game", str(good), "backup", str(tmp_path / "kept.db")).returncode == 0
    path = damaged_copy(sound, tmp_path, "posting_amount")
    before = digest(path)
    assert run_bank("--game", str(path), "backup", str(tmp_path / "copy.db")).returncode == 0
    assert digest(path) == before
    assert run_bank("--game", str(tmp_path / "copy.db"), "audit").returncode == 8   # the copy is as flagged
    # restored from the backup made before: the game goes on
    shutil.copyfile(tmp_path / "kept.db", path)
    assert run_bank("--game", str(path), "count", "Alice", "5").returncode == 0
    assert run_bank("--game", str(path), "audit").returncode == 0


def test_an_edited_state_snapshot_is_repaired_by_dropping_the_cache(sound, tmp_path):
    path = damaged_copy(sound, tmp_path, "state_snapshot_state")
    line = one_line(run_bank("--game", str(path), "count", "Alice", "5"))
    assert "fails its hash" in line and "delete from state_snapshots" in line
    conn = sqlite3.connect(str(path))
    conn.execute("delete from state_snapshots")
    conn.commit()
    conn.close()
    assert run_bank("--game", str(path), "count", "Alice", "5").returncode == 0
    assert run_bank("--game", str(path), "audit").returncode == 0


def test_an_edit_while_a_shell_has_the_game_open_is_seen_by_its_next_write(sound, tmp_path):
    """A long-lived session (the shell, the table) checks again only when another connection has
    committed since its last check (SQLite's data_version): its own writes are not re-checked, an
    outsider's edit is."""
    path = tmp_path / "g.db"
    shutil.copyfile(sound, path)
    s = Session.open(path)
    try:
        s.execute(Command("count", {"player": "Alice", "amount": 1}), "count Alice 1")
        checked = s.verified_at
        s.execute(Command("count", {"player": "Alice", "amount": 2}), "count Alice 2")
        assert s.verified_at == checked   # nobody else wrote: not checked again
        conn = sqlite3.connect(str(path))
        conn.execute("update commands set text = 'pass Bob' where id = 5")
        conn.commit()
        conn.close()
        before = digest(path)
        with pytest.raises(LedgerCorrupt, match="command 5 \\(pass Bob\\)"):
            s.execute(Command("count", {"player": "Alice", "amount": 3}), "count Alice 3")
        assert digest(path) == before
    finally:
        s.close()


def test_the_largest_example_cut_by_its_last_byte_takes_no_command(tmp_path):
    """The last byte of examples/1801-game.txt's file lies in a state snapshot's overflow page:
    SQLite's checks pass it, the snapshot's hash does not."""
    path = tmp_path / "1801.db"
    shutil.copyfile(played_file("1801-game.txt"), path)
    tamper("truncate_one_byte", path)
    before = digest(path)
    one_line(run_bank("--game", str(path), "count", "Ann", "5"))
    assert digest(path) == before
