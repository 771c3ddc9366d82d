"""The whole table in a real browser (issue 30): three players' pages and the banker's on one game,
in one headless Chromium (Debian's package, driven by Selenium). Each acts in turn through their
page and the figures every page shows match `status --json`; a player's page forging another
player's action is refused; a page left stale (its reader typing while the game moved on) is refused
with the reason; a command typed at a terminal appears on every page.

It fails, never skips, when Chromium is missing: .ci/run installs it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from browsers import chromium
from table_rig import Pages, Rig, game_file, served, terminal

from ledger.books.session import Session
from ledger.core import legal
from ledger.interface.views import status_json



@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(tempfile.mkdtemp(dir=tmp_path_factory.mktemp("chromium"), prefix="profile-"), "phone")
    try:
        yield driver
    finally:
        driver.quit()


def expected(path: Path) -> dict:
    s = Session.open(path)
    try:
        status = status_json(s.state, s.rs)
        return {"cash": {p["name"]: s.rs.money(p["cash"]) for p in status["players"]},
                "bank": s.rs.money(status["bank"]), "round": status["round"], "turn": status["turn"], "head": s.head,
                "heading": legal.turn(s.state, s.rs).heading}
    finally:
        s.close()


def test_the_whole_table_plays_from_its_pages(browser, tmp_path):
    path = game_file(tmp_path)
    rig = Rig(path)
    try:
        with served(rig) as base:
            pages = Pages(browser, base, rig)
            try:
                play(pages, path)
            finally:
                pages.close()
    finally:
        rig.close()


def play(pages: Pages, path: Path) -> None:
    browser = pages.driver
    for who in ("player:Ann", "player:Ben", "player:Cy", "banker"):
        pages.open(who)

    def agree() -> None:
        """Every page shows the figures and the turn status --json gives, once it has caught up."""
        want = expected(path)
        for who in pages.tabs:
            # a player's seat says the round and whose turn (its controls are the verbs); the banker's
            # the terminal's whole line
            shown = {"cash": want["cash"], "next": want["turn"] if who == "banker" else want["heading"],
                     "bank": want["bank"], "round": want["round"], "turn": want["turn"]}
            pages.wait(lambda d: pages.figures(who) == shown,
                       f"{who}'s page shows the figures of command {want['head']}")

    # Ann bids through her page: a number field with its bounds
    bid = pages.form("player:Ann", "bid", "CS")
    amount = bid.find_element("css selector", "input[name='a.amount']")
    assert amount.get_attribute("min") == "45"
    amount.clear()
    amount.send_keys("50")
    assert pages.send("player:Ann", bid.find_element("css selector", "button.go")).startswith("Ann bids $50 on CS")
    agree()

    # Ben forges his own pass form to act as Ann: refused, nothing recorded
    forged = pages.form("player:Ben", "pass")
    browser.execute_script("arguments[0].querySelector(\"input[name='actor']\").value = 'Ann';", forged)
    assert "this link acts for Ben only: pass Ann is Ann's to enter; nothing was recorded" in \
        pages.send("player:Ben", forged.find_element("css selector", "button.go"))
    assert expected(path)["head"] == 2

    # Ben passes, on the page as drawn again
    assert pages.send("player:Ben", pages.form("player:Ben", "pass").find_element("css selector", "button.go")) \
        .startswith("Ben passes")
    agree()

    # Cy starts typing a bid; meanwhile the banker enters Cy's pass: Cy's page is stale
    stale = pages.form("player:Cy", "bid", "DH")
    field = stale.find_element("css selector", "input[name='a.amount']")
    field.clear()
    field.send_keys("80")                      # focused: the page is not swapped under the typing
    line = pages.wait(lambda d: pages.on("banker").find_element("css selector", "input[name='line']"))
    line.send_keys("pass Cy")
    assert pages.send("banker", line, "submit").startswith("Cy passes")
    assert pages.send("player:Cy", field, "submit").startswith("bid Cy DH: the game moved on since this page was "
                                                               "drawn; nothing was recorded")
    agree()

    # a command typed at a terminal reaches every page
    s = Session.open(path)
    terminal(s, "bid Ann DH 75")
    s.close()
    for who in pages.tabs:
        pages.wait(lambda d: "bid Ann DH 75" in pages.on(who).find_element("id", "log").text,
                   f"the terminal's command on {who}'s page")
    agree()
    session = Session.open(path)
    try:
        authors = [by for *_rest, by in session.store.conn.execute("select id, entered_by from commands order by id")]
    finally:
        session.close()
    assert authors == [
        "terminal", "player:Ann", "player:Ben", "banker", "terminal"]
