"""The table's pages refuse in one line what they cannot read (issue 36): an unbalanced quote on
the banker's line (a correction's or a command's), a damaged table_links row (a hash that is not
text): never a 500."""

from __future__ import annotations

import sqlite3

import pytest
from starlette.testclient import TestClient
from table_rig import Forms, Rig, game_file, submit

from ledger.core.errors import LedgerCorrupt
from ledger.interface.board.table import Writer


def test_the_bankers_line_refuses_an_open_quote_without_a_500(tmp_path):
    rig = Rig(game_file(tmp_path, ["bid Ann CS 45"]))
    try:
        with TestClient(rig.app, follow_redirects=False) as client:
            for text in ("amend 2 \"'\"", "pass 'Ben", "insert --before 2 \"pass 'Ben\"", "amend 2 'pass Ben"):
                page = Forms(client.get(rig.url("banker")).text)
                sent = client.post(rig.url("banker"), data=submit(page.forms[-2], line=text))
                assert sent.status_code == 303, (text, sent.status_code, sent.text[:300])
                shown = Forms(client.get(sent.headers["location"]).text)
                assert any("cannot read the line" in r for r in shown.result), (text, shown.result)
    finally:
        rig.close()


@pytest.mark.parametrize("bad", ["x'00ff'", "42", "'not a hash'", "null"])
def test_a_damaged_table_links_row_is_one_clear_line(tmp_path, bad):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    Rig(path).close()   # the table's links made
    conn = sqlite3.connect(str(path))
    if bad == "null":   # the column is not null: a table rebuilt by hand without it
        conn.execute("update table_links set token_hash = '' where who = 'banker'")
    else:
        conn.execute(f"update table_links set token_hash = {bad} where who = 'banker'")
    conn.commit()
    conn.close()
    with pytest.raises(LedgerCorrupt) as raised:
        Writer(path)
    assert "the table's links" in raised.value.line() and "--new-links" in raised.value.line()
    assert "\n" not in raised.value.line()
