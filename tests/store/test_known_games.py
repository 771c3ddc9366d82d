"""The games keyed here (issue 36, ledger.books.known): a record in the configuration folder, beside
chain.key, of each game keyed with this machine's key and of each of its files' last verified point.

A file stripped of its key's id and chained again in plain SHA-256 looked like a keyless machine's
file; listed here, it is refused at open and by every write, in one line. A file whose chain no
longer holds the hash recorded after its last write here is refused too. The record never breaks a
write (a configuration folder that cannot hold it: the game carries on as keyless). And from the
last verified point a write checks only the rows after it, while an edit before it is still seen.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from chain_edits import rechain
from cli_driver import Bank, error_line
from game_files import in_memory, played_file

from ledger.books import audit, chain, known
from ledger.books.session import Session
from ledger.books.store import Store
from ledger.core.command import Command
from outside import one, sql  # noqa: E402


@pytest.fixture
def tmp_path():
    yield from in_memory()


@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    """This test's own configuration folder: its record of the games keyed here, and a copy of the
    test process's key (the made game files of tests/game_files.py are keyed with it)."""
    folder = tmp_path / "config"
    folder.mkdir()
    shutil.copyfile(chain.load_key(create=True).path, folder / chain.KEY_FILE)
    monkeypatch.setenv("BANK_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def game(tmp_path, config, monkeypatch) -> Bank:
    b = Bank(tmp_path / "g.db", monkeypatch)
    b("new", "1830", "Alice", "Bob", "Carol", "Dave")
    b.lines("bid Alice CS 45", "pass Bob", "pass Carol", "pass Dave", "pass Alice")
    return b


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def record_of(path: Path) -> dict:
    store = Store(path)
    try:
        game_id = known.game_id(store)
    finally:
        store.close()
    return json.loads((known.folder() / f"{game_id}.json").read_text())


def last_written(path: Path) -> tuple[int, str]:
    """The last command this machine recorded writing to the file at `path`, and its hash."""
    point = record_of(path)["files"][str(Path(path).resolve())]
    return (point["head"], point["head_hash"]) if point.get("head") else (point["command"], point["hash"])


def strip_the_key(path: Path) -> None:
    """What someone with the file but not the key does: the header names no key, and every row,
    the head's and the links' seals are made again in plain SHA-256."""
    sql(path, "update game set chain_key = null, chain_keyed_from = null", "delete from state_snapshots")
    rechain(path, 1, key=None, links=True)


def test_a_new_game_is_recorded_as_keyed_here_with_its_last_verified_point(game, config):
    db = Path(game.db)
    record = record_of(db)
    key = chain.load_key()
    assert (record["key"], record["first"], record["since"]) == (key.id, 1, 1)
    head, last_hash = one(db, "select id, hash from commands order by id desc limit 1")
    assert last_written(db) == (head, last_hash)
    assert (config / "games").is_dir() and (config / chain.KEY_FILE).is_file()


def test_a_file_stripped_of_its_key_and_chained_again_is_refused_in_one_line(game, tmp_path, monkeypatch):
    db = Path(game.db)
    strip_the_key(db)
    before = digest(db)
    line = error_line(game("status", ok=False))
    assert "was keyed on this machine with key" in line and "now names no key" in line, line
    line = error_line(game("pass", "Bob", ok=False))
    assert "now names no key" in line
    assert digest(db) == before
    found = json.loads(game("audit", "--json", ok=None).stdout)["problems"]
    assert any("now names no key" in p for p in found), found
    # a copy elsewhere is refused too: the record names the game, not only its path
    copy = tmp_path / "elsewhere.db"
    shutil.copyfile(db, copy)
    assert "now names no key" in error_line(Bank(copy)("status", ok=False))
    # what the record adds: on a machine that never keyed the game, the same file looks keyless
    monkeypatch.setenv("BANK_CONFIG_DIR", str(tmp_path / "another machine"))
    game("status")
    notes = json.loads(game("audit", "--json").stdout)["notes"]
    assert any("plain SHA-256" in n for n in notes)


def test_a_file_keyed_again_from_a_later_row_is_refused(game):
    """The key kept but the rows before a later one made plain: another first keyed row."""
    db = Path(game.db)
    sql(db, "update game set chain_keyed_from = 4", "delete from state_snapshots")
    rechain(db, 1, key=chain.load_key().secret, keyed_from=4, links=False)
    line = error_line(game("status", ok=False))
    assert "now names key" in line and "from command 4" in line, line


def test_a_file_whose_chain_no_longer_holds_the_recorded_hash_is_refused(game):
    """The past rewritten with the key (whoever holds the laptop) at the same path: the hash of the
    command recorded after the last write is no longer the one in the file."""
    db = Path(game.db)
    sql(db, "update commands set text = 'bid Alice CS 50' where id = 2", "delete from state_snapshots")
    rechain(db, 2, key=chain.load_key().secret)
    head = one(db, "select max(id) from commands")[0]
    line = error_line(game("status", ok=False))
    assert f"command {head} does not hold the hash this machine recorded" in line, line


def test_a_backup_put_back_takes_the_next_command(game, tmp_path):
    """An earlier copy at the same path ends before the recorded point: checked whole, then written."""
    db = Path(game.db)
    game("backup", str(tmp_path / "kept.db"))
    game("pass", "Bob")
    game("pass", "Carol")
    shutil.copyfile(tmp_path / "kept.db", db)
    game("pass", "Bob")
    game("audit")
    assert last_written(db) == one(db, "select id, hash from commands order by id desc limit 1")


def test_an_unwritten_copy_from_before_the_key_still_reads(tmp_path, config, monkeypatch):
    """A file of a release before the chain, written once here (chained and keyed), and a copy of it
    as it was: the copy ends before the first command recorded here, so it is an earlier copy."""
    old = Path(__file__).resolve().parents[1] / "data" / "old-releases" / "2026-11-23-fd9ffe7.db"
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    shutil.copyfile(old, first)
    shutil.copyfile(old, second)
    a = Bank(first, monkeypatch)
    a("count", "Alice", "1")
    assert record_of(first)["since"] == one(first, "select max(id) from commands")[0]
    b = Bank(second, monkeypatch)
    b("status")
    b("audit")
    b("count", "Alice", "1")   # and it is written, keyed from its own next command


def test_a_configuration_folder_that_cannot_hold_the_record_never_breaks_a_write(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    folder.mkdir()
    (folder / known.FOLDER).write_text("a file where the record's folder would be")
    monkeypatch.setenv("BANK_CONFIG_DIR", str(folder))
    b = Bank(tmp_path / "g.db", monkeypatch)
    b("new", "1830", "Alice", "Bob", "Carol", "Dave")
    b("bid", "Alice", "CS", "45")
    b("audit")
    assert one(tmp_path / "g.db", "select chain_key from game")[0] == chain.load_key().id
    # no configuration folder at all (a path under a file): keyless, and still written
    monkeypatch.setenv("BANK_CONFIG_DIR", str(tmp_path / "g.db" / "config"))
    c = Bank(tmp_path / "h.db", monkeypatch)
    c("new", "1830", "Alice", "Bob", "Carol", "Dave")
    c("bid", "Alice", "CS", "45")
    assert one(tmp_path / "h.db", "select chain_key from game")[0] is None


def test_a_record_that_does_not_parse_is_as_if_there_were_none(game):
    db = Path(game.db)
    store = Store(db)
    path = known.folder() / f"{known.game_id(store)}.json"
    store.close()
    path.write_text("{not json")
    game("pass", "Bob")
    assert last_written(db) == one(db, "select id, hash from commands order by id desc limit 1")


# --------------------------------------------------------------------------- incremental checks

def test_a_write_checks_only_the_rows_after_its_last_verified_point(tmp_path, config):
    path = tmp_path / "opening.db"
    shutil.copyfile(played_file("1830-opening.txt"), path)
    s = Session.open(path)
    try:
        assert s.store.verified_point() == 0   # a copy this machine never wrote: the whole file
        s.execute(Command("count", {"player": "Alice", "amount": 1}), "count Alice 1")
        s.execute(Command("count", {"player": "Alice", "amount": 2}), "count Alice 2")
        head = s.store.head()
        assert s.store.verified_point() == 0   # recorded once, as the session closes
    finally:
        s.close()
    s = Session.open(path)
    try:
        assert s.store.verified_point() == head
        # the checks from the point find nothing, and look at no row before it
        assert audit.record_problems(s.store, s.start_percents, head) == []
    finally:
        s.close()


def test_an_edit_before_the_last_verified_point_is_still_refused(tmp_path, config):
    """The rows up to the point must be, to the byte, those verified: one edited there (even one no
    hash covers, a posting) makes the write check the whole file, which names it."""
    path = tmp_path / "opening.db"
    shutil.copyfile(played_file("1830-opening.txt"), path)
    b = Bank(path)
    b("count", "Alice", "1")
    sql(path, "update postings set amount = amount + 10 where id = 40")
    before = digest(path)
    store = Store(path)
    try:
        assert store.verified_point() == 0
    finally:
        store.close()
    line = error_line(b("count", "Alice", "2", ok=False))
    assert "changed outside bank" in line and "postings of event" in line, line
    assert digest(path) == before


def test_commands_written_where_no_record_was_kept_are_checked_from_the_point(tmp_path, config, monkeypatch):
    """Another bank process recorded commands without updating the record (its own configuration
    folder could not hold it): the write checks them, from the point, and an edit among them shows."""
    path = tmp_path / "opening.db"
    shutil.copyfile(played_file("1830-opening.txt"), path)
    b = Bank(path)
    b("count", "Alice", "1")
    point = one(path, "select max(id) from commands")[0]
    record = config / known.FOLDER
    shutil.copytree(record, tmp_path / "saved")
    b("count", "Alice", "2")
    b("count", "Alice", "3")
    shutil.rmtree(record)
    shutil.copytree(tmp_path / "saved", record)   # the record as it was at `point`
    assert one(path, "select max(id) from commands")[0] == point + 2
    store = Store(path)
    try:
        assert store.verified_point() == point
    finally:
        store.close()
    b("count", "Alice", "4")   # the two commands after the point are sound
    sql(path, f"update events set data = replace(data, '\"counted\": 2', '\"counted\": 20') "
              f"where command_id = {point + 1}")
    shutil.rmtree(record)
    shutil.copytree(tmp_path / "saved", record)
    line = error_line(b("count", "Alice", "5", ok=False))
    assert f"command {point + 1} (count Alice 2)" in line, line


def test_the_point_is_the_writes_own_not_a_commit_made_after_it(tmp_path, config):
    """The point is recorded only while no other connection has committed since this one's last
    write: an edit committed after the write and before the session closes is not taken as
    verified, and the next write sees it."""
    path = tmp_path / "opening.db"
    shutil.copyfile(played_file("1830-opening.txt"), path)
    s = Session.open(path)
    try:
        s.execute(Command("count", {"player": "Alice", "amount": 1}), "count Alice 1")
        # before the point, where only the whole file's check looks, were the edit taken as verified
        sql(path, "update commands set text = 'pass Bob' where id = 10")
    finally:
        s.close()
    store = Store(path)
    record = known.folder() / f"{known.game_id(store)}.json"
    store.close()
    assert not record.exists() or str(path.resolve()) not in json.loads(record.read_text())["files"]
    line = error_line(Bank(path)("count", "Alice", "2", ok=False))
    assert "changed outside bank" in line and "command 10 (pass Bob)" in line, line


def test_a_session_that_only_appended_keeps_its_point_and_one_that_undid_takes_a_new_one(tmp_path, config):
    """A write that only appended leaves the rows up to its point as they were: the point (and its
    digest) is kept, with the head after it, so that no digest of the whole file is taken again;
    an undo changes an earlier row's status, so the next point is a new digest at the head."""
    path = tmp_path / "opening.db"
    shutil.copyfile(played_file("1830-opening.txt"), path)
    b = Bank(path)
    b("count", "Alice", "1")   # the whole file checked: the point is the head
    first = one(path, "select max(id) from commands")[0]
    assert record_of(path)["files"][str(path.resolve())]["command"] == first
    b("count", "Alice", "2")
    b("count", "Alice", "3")
    point = record_of(path)["files"][str(path.resolve())]
    assert point["command"] == first and point["head"] == first + 2
    store = Store(path)
    try:
        assert store.verified_point() == first   # its digest still holds
    finally:
        store.close()
    b("undo")
    point = record_of(path)["files"][str(path.resolve())]
    head = one(path, "select max(id) from commands")[0]
    assert point["command"] == head and not point.get("head")
    b("count", "Alice", "4")
    b("audit")


def test_the_point_moves_to_the_head_once_the_tail_is_long(tmp_path, config, monkeypatch):
    monkeypatch.setattr(known, "TAIL_MAX", 2)
    path = tmp_path / "opening.db"
    shutil.copyfile(played_file("1830-opening.txt"), path)
    b = Bank(path)
    b("count", "Alice", "1")
    first = one(path, "select max(id) from commands")[0]
    b("count", "Alice", "2")
    b("count", "Alice", "3")
    assert record_of(path)["files"][str(path.resolve())]["command"] == first
    b("count", "Alice", "4")   # three after the point: a new digest at the head
    assert record_of(path)["files"][str(path.resolve())]["command"] == first + 3
