"""The record's chain anchored outside the file, keyed, and never turned off from inside it (issue 36).

Each way of beating the chain without the key is refused at open or flagged by `bank audit`:
dropping its columns, clearing its head, moving the head back after deleting the last commands,
editing a command and computing plain SHA-256 again, replacing a table link's hash. The head's
fingerprint is printed with every result and shown on every page; a phone keeps the fingerprints
it saw and warns once the record no longer holds one; `bank audit --against` says after which
command a fingerprint was the head; a keyed file moved to a machine without its key opens and
audits, and takes no command.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import sys
from pathlib import Path

import pytest
from chain_edits import local_key, rechain
from cli_driver import Bank, error_line
from starlette.testclient import TestClient

from ledger.books import chain, known, schema
from ledger.books.store import Store
from ledger.core.errors import LedgerCorrupt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "table"))
from table_rig import Rig, game_file  # noqa: E402
from outside import one, sql  # noqa: E402


@pytest.fixture
def game(tmp_path, monkeypatch):
    b = Bank(tmp_path / "g.db", monkeypatch)
    b("new", "1830", "Alice", "Bob", "Carol", "Dave")
    b.lines("bid Alice CS 45", "pass Bob", "pass Carol", "pass Dave")
    return b


def refused_at_open(b: Bank, *words: str) -> str:
    result = b(*(words or ("status",)), ok=False)
    return error_line(result)


def problems(b: Bank) -> list[str]:
    return json.loads(b("audit", "--json", ok=None).stdout)["problems"]


# --------------------------------------------------------------------------- each attack

def test_dropping_the_chain_columns_is_refused_at_open(game):
    sql(Path(game.db), "alter table commands drop column hash", "alter table game drop column chain_head",
        "alter table game drop column chain_hash")
    line = refused_at_open(game)
    assert "was changed outside bank" in line and "chain was removed" in line
    assert any("chain was removed" in p for p in problems(game))
    game("pass", "Alice", ok=False)   # the next write does not chain the edited record again
    assert "hash" not in {r[1] for r in sqlite3.connect(game.db).execute("pragma table_info(commands)")}


def test_dropping_every_trace_a_chaining_bank_leaves_but_one_is_refused(game):
    """The columns, the seals, the schema's version and the engine's: who entered each command is
    still there (only a chaining bank keeps it)."""
    db = Path(game.db)
    sql(db, *[f"alter table game drop column {c}" for c in ("chain_head", "chain_hash", "chain_seal", "chain_links",
                                                             "chain_key", "chain_keyed_from")],
        "alter table commands drop column hash", "update game set engine_version = 3", "pragma user_version = 0")
    line = refused_at_open(game)
    assert "chain was removed" in line


def test_a_cleared_head_is_refused_at_open(game):
    sql(Path(game.db), "update game set chain_head = null, chain_hash = null")
    line = refused_at_open(game)
    assert "cleared" in line and "chain_head is NULL" in line
    assert any("cleared" in p for p in problems(game))


def test_the_head_moved_back_after_deleting_the_last_commands_is_refused(game):
    db = Path(game.db)
    last = one(db, "select max(id) from commands")[0]
    sql(db, f"delete from state_snapshots where command_id >= {last - 1}",
        f"delete from postings where command_id >= {last - 1}", f"delete from cert_moves where command_id >= {last - 1}",
        f"delete from cert_percents where command_id >= {last - 1}", f"delete from snapshots where command_id >= {last - 1}",
        f"delete from events where command_id >= {last - 1}", f"delete from commands where id >= {last - 1}")
    new_last, digest = one(db, "select id, hash from commands order by id desc limit 1")
    sql(db, "update game set chain_head = ?, chain_hash = ?", params=(new_last, digest))
    line = refused_at_open(game)
    assert f"ends at command {new_last}, but that is not the end bank sealed" in line
    assert any("not the end bank sealed" in p for p in problems(game))


def test_a_command_edited_and_chained_again_with_plain_sha256_is_refused(game):
    """The chain is keyed: whoever edits the file without the key cannot make its hashes again."""
    db = Path(game.db)
    bid = one(db, "select id from commands where text like 'bid Alice%'")[0]
    sql(db, f"update commands set text = 'bid Alice CS 50', at = '2020-01-01T00:00:00+00:00' where id = {bid}")
    rechain(db, bid, key=None)
    line = refused_at_open(game)
    assert "was changed outside bank" in line
    found = problems(game)
    assert any(f"command {bid} (bid Alice CS 50)" in p for p in found), found


def test_a_keyed_file_chained_again_without_the_key_from_its_first_keyed_row_is_flagged(game):
    """Every row made again in plain SHA-256, as if the chain had never been keyed: the header still
    names the key, and this machine holds it."""
    db = Path(game.db)
    sql(db, "update commands set at = '2020-01-01T00:00:00+00:00' where id = 2")
    rechain(db, 1, key=None)
    assert "was changed outside bank" in refused_at_open(game)
    assert any("command 1 " in p for p in problems(game))


def test_the_same_edit_made_with_the_key_is_seen_by_the_fingerprints(game):
    """Whoever holds the laptop holds its key too: the chain is whole again. The record of the games
    keyed here sees it (the head's hash is not the one recorded after the last write); with that
    record removed too, the fingerprint the table saw after a later command is no longer in it."""
    db = Path(game.db)
    seen = fingerprint_in(game("pass", "Alice").stdout)
    bid = one(db, "select id from commands where text like 'bid Alice%'")[0]
    sql(db, f"update commands set text = 'bid Alice CS 50' where id = {bid}")
    rechain(db, bid, key=local_key().secret)
    line = refused_at_open(game)
    assert "does not hold the hash this machine recorded after writing it" in line, line
    store = Store(db)
    game_id = known.game_id(store)
    store.close()
    (known.folder() / f"{game_id}.json").unlink()
    game("status")   # opens: the chain is whole
    result = game("audit", "--against", seen, ok=False)
    assert f"record {seen} is not in this record's chain" in " ".join(result.stdout.split())


def test_a_replaced_table_link_hash_is_flagged_and_refused_by_the_table(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    rig = Rig(path)
    rig.close()
    token = "x" * 43
    sql(path, "update table_links set token_hash = ? where who = 'player:Ben'",
        params=(hashlib.sha256(token.encode()).hexdigest(),))
    b = Bank(path)
    assert any("table's links (table_links) were changed outside bank" in p for p in problems(b))
    with pytest.raises(LedgerCorrupt, match="changed outside bank: .*no link acts"):
        opened_table(path, renew=False)
    assert opened_table(path, renew=True)     # --new-links: new links, sealed again
    assert not problems(b)


def opened_table(path: Path, renew: bool):
    """What `bank serve --table [--new-links]` does before it listens: the links issued or read."""
    from ledger.interface.board.serve import open_table
    writer, tokens = open_table(path, renew)
    writer.close()
    return tokens


def test_a_table_link_hash_that_is_not_text_is_one_line(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    Rig(path).close()
    sql(path, "update table_links set token_hash = x'0102' where who = 'player:Ben'")
    found = problems(Bank(path))
    assert any("holds bytes" in p and "not text" in p for p in found), found
    with pytest.raises(LedgerCorrupt) as refused:
        opened_table(path, renew=False)
    assert "\n" not in refused.value.line() and "no link acts" in refused.value.line()


# --------------------------------------------------------------------------- the fingerprints

FP = re.compile(r"record ([0-9a-f]{4}·[0-9a-f]{4}) \(after command (\d+)\)")


def fingerprint_in(text: str) -> str:
    found = FP.findall(text)
    assert found, text
    return found[-1][0]


def test_every_result_ends_with_the_record_fingerprint_before_the_next_line(game):
    out = game("pass", "Alice").stdout
    lines = out.splitlines()
    record = next(i for i, line in enumerate(lines) if line.startswith("record "))
    assert lines[record + 1].startswith("Next:")
    head, digest = one(Path(game.db), "select id, hash from commands order by id desc limit 1")
    assert FP.search(out).groups() == (chain.fingerprint(digest), str(head))
    for words in (("undo",), ("redo",)):
        out = game(*words).stdout
        head, digest = one(Path(game.db), "select id, hash from commands order by id desc limit 1")
        assert f"record {chain.fingerprint(digest)} (after command {head})" in out


def test_score_prints_the_long_fingerprint_and_audit_against_finds_it(game):
    db = Path(game.db)
    head, digest = one(db, "select id, hash from commands order by id desc limit 1")
    out = game("score").stdout
    assert f"record {chain.fingerprint(digest, chain.LONG)} after command {head}" in out
    early = one(db, "select hash from commands where id = 2")[0]
    said = " ".join(game("audit", "--against", chain.fingerprint(early)).stdout.split())
    assert f"is in the chain: the head after command 2 (bid Alice CS 45" in said
    said = " ".join(game("audit", "--against", "record " + chain.fingerprint(digest, chain.LONG).upper()).stdout.split())
    assert "it is the record's head now" in said
    assert "is not a record's fingerprint" in " ".join(game("audit", "--against", "4f2a", ok=False).stdout.split())


def test_the_board_and_table_pages_show_the_fingerprint_and_warn_of_a_rewritten_past(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45", "pass Ben"])
    rig = Rig(path)
    try:
        with TestClient(rig.app, follow_redirects=False) as client:
            head, digest = one(path, "select id, hash from commands order by id desc limit 1")
            board = client.get("/")
            assert f"Record <code>{chain.fingerprint(digest)}</code> after command {head}" in board.text
            page = client.get(rig.url("player:Ann"))
            assert f"Record <code>{chain.fingerprint(digest)}</code> after command {head}" in page.text
            assert f"{head}.{digest[:16]}" in page.headers["set-cookie"]
            assert "rewritten" not in page.text
            # the laptop's holder edits the bid and chains the record again with the key
            sql(path, "update commands set text = 'bid Ann CS 50' where id = 2")
            rechain(path, 2, key=local_key().secret)
            again = client.get(rig.url("player:Ann"))
            assert "The record was rewritten" in again.text and f"after command {head}" in again.text
            later = client.get(rig.url("player:Ann") + "/fragment")
            assert "The record was rewritten" in later.text   # on every later page
            assert "The record was rewritten" in client.get("/").text
            other = TestClient(rig.app).get(rig.url("player:Ben"))   # a phone that saw only the new past
            assert "The record was rewritten" not in other.text
    finally:
        rig.close()


# --------------------------------------------------------------------------- keys and older files

def test_a_keyed_file_without_its_key_opens_and_audits_but_takes_no_command(game, tmp_path, monkeypatch):
    monkeypatch.setenv("BANK_CONFIG_DIR", str(tmp_path / "another machine"))
    game("status")
    notes = json.loads(game("audit", "--json").stdout)["notes"]
    assert any(n.startswith("chained, key not here:") and "the keyed check cannot be done" in n for n in notes)
    line = error_line(game("pass", "Alice", ok=False))
    assert "is keyed" in line and "which is not in" in line and "nothing was recorded" in line
    assert not (tmp_path / "another machine" / chain.KEY_FILE).exists()


def test_a_file_chained_before_the_seals_opens_and_is_keyed_from_its_next_command(tmp_path, monkeypatch):
    """A file of the release before: chained with plain SHA-256, schema 4, no seals."""
    monkeypatch.setenv("BANK_CONFIG_DIR", str(tmp_path / "no home"))
    (tmp_path / "no home").write_text("a file where the folder would be: no key can be kept")
    b = Bank(tmp_path / "old.db", monkeypatch)
    b("new", "1830", "Alice", "Bob", "Carol", "Dave")
    b("bid", "Alice", "CS", "45")
    db = tmp_path / "old.db"
    assert one(db, "select chain_key from game")[0] is None
    rechain(db, 1, key=None, derived=False)   # that release's hashes: no round, no worth per round
    sql(db, *[f"alter table game drop column {c}"
              for c in ("chain_seal", "chain_links", "chain_key", "chain_keyed_from", "chain_derived_from")],
        "delete from schema_migrations", "delete from state_snapshots", "pragma user_version = 4")
    monkeypatch.setenv("BANK_CONFIG_DIR", str(tmp_path / "config"))
    b("status")
    b("audit")
    b("pass", "Bob")
    assert one(db, "pragma user_version")[0] == schema.SCHEMA_VERSION
    key_id, first = one(db, "select chain_key, chain_keyed_from from game")
    assert key_id == local_key().id and first == 3
    b("audit")
    assert "keyed with this machine's key" in " ".join(b("audit").stdout.split())


def test_a_new_game_is_keyed_from_its_first_command(game):
    key_id, first = one(Path(game.db), "select chain_key, chain_keyed_from from game")
    assert (key_id, first) == (local_key().id, 1)
    assert oct((Path(local_key().path)).stat().st_mode & 0o777) == "0o600"
