"""`bank serve --table` itself, in its own process (the few checks that need the CLI): it prints a
link for each player and the banker, on this machine only by default and saying so; a link's page
acts for its holder; `--new-links` ends them; Ctrl-C stops it. (Serving again keeps the links:
test_table_pages.)"""

from __future__ import annotations

import re

import httpx
import pytest
from cli_driver import bank_serve
from table_rig import game_file

from ledger.core.errors import CommandError
from ledger.interface.board.serve import serve


def test_bank_serve_table_prints_the_links_and_new_links_end_them(tmp_path):
    db = game_file(tmp_path, ["bid Ann CS 45"])
    with bank_serve(db, "--table") as served:
        printed = "".join(served.printed)
        assert "Listening on 127.0.0.1 only: phones cannot open these links" in printed
        found = dict(re.findall(r"^(Ann|Ben|Cy|The banker): (http://127\.0\.0\.1:\d+/t/\S+)$", printed, re.M))
        assert set(found) == {"Ann", "Ben", "Cy", "The banker"}
        page = httpx.get(found["Ben"], timeout=10)
        assert page.status_code == 200 and 'data-who="player:Ben"' in page.text and 'data-verb="pass"' in page.text
    with bank_serve(db, "--table", "--new-links") as served:
        renewed = "".join(served.printed)
        base = re.search(r"http://\S+/", renewed).group(0)
        old = httpx.get(base + found["Ben"].split("/", 3)[3], timeout=10)
        assert "acts as nobody" in old.text
        assert re.search(r"^Ben: http://\S+/t/\S+$", renewed, re.M)


def test_new_links_need_the_table(tmp_path):
    db = game_file(tmp_path)
    with pytest.raises(CommandError) as refused:
        serve(db, None, None, table=False, new_links=True)
    assert refused.value.line() == ("--new-links renews the table's links: use it with --table "
                                    "(hint: bank serve --table --new-links)")
