"""The players' phones in a real browser (issue 34): headless Chromium at 390x844, one tab per
person, every tap a real click on the page's own controls. A company that must buy a train shows
no "done" to tap by mistake; a private another player holds stays theirs until they accept the
offer on their own phone; Cy's 1801 stock-round page shows his minor's float, then his pass, on
the first screen; the top line of every phone names the latest command as soon as it is entered.

It fails, never skips, when Chromium is missing: .ci/run installs it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from browsers import chromium
from table_rig import Pages, Rig, example_file, played, served

from ledger.books.session import Session

SCREEN = 844   # a phone's first screen, in CSS pixels


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(tempfile.mkdtemp(dir=tmp_path_factory.mktemp("chromium"), prefix="profile-"), "phone")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": SCREEN, "deviceScaleFactor": 1, "mobile": True})
    try:
        yield driver
    finally:
        driver.quit()


def on_first_screen(pages: Pages, element) -> bool:
    top = pages.driver.execute_script("return arguments[0].getBoundingClientRect().top + window.scrollY;", element)
    return element.is_displayed() and top < SCREEN


def at_table(browser, path: Path, who: list[str], test) -> None:
    rig = Rig(path)
    try:
        with served(rig) as base:
            pages = Pages(browser, base, rig)
            try:
                for holder in who:
                    pages.open(holder)
                test(pages)
            finally:
                pages.close()
    finally:
        rig.close()


def test_a_company_that_must_buy_a_train_shows_no_done_to_tap(browser, tmp_path):
    def test(pages: Pages) -> None:
        d = pages.on("player:Player 3")
        done = d.find_elements("css selector", "form[data-verb='done'] button.go")
        assert done and not any(b.is_displayed() for b in done)        # behind a question, never one tap
        question = d.find_element("css selector", "form[data-verb='done'] details.confirm > summary")
        assert question.is_displayed() and "no route" in question.text.lower()
        question.click()
        assert done[0].is_displayed() and done[0].text.startswith("Yes, end the turn")
        assert any(b.is_displayed() and "buys a 2" in b.text for b in d.find_elements(
            "css selector", "form[data-verb='train'] button.go")) or d.find_elements(
            "css selector", "details[data-step^='Buy a train']")
    at_table(browser, example_file(tmp_path, 56), ["player:Player 3"], test)


def test_a_private_stays_its_owners_until_they_accept_on_their_own_phone(browser, tmp_path):
    path = example_file(tmp_path, 102)

    def owner() -> str:
        s = Session.open(path)
        try:
            return s.state.privates["CS"].owner
        finally:
            s.close()

    def test(pages: Pages) -> None:
        pages.form("player:Player 1", "buy-private")
        offer = next(f for f in pages.on("player:Player 1").find_elements("css selector", "form[data-verb='buy-private']")
                     if f.find_element("css selector", "input[name='w.private']").get_attribute("value") == "CS")
        pages.opened(offer)
        button = offer.find_element("css selector", "button.go")
        assert button.text.startswith("Offer to Player 3:")
        price = offer.find_element("css selector", "input[name='a.price']")
        price.clear()
        price.send_keys("40")
        assert pages.send("player:Player 1", button).startswith("Offered to Player 3: Buy a private: CS (price 40)")
        assert owner() == "player:Player 3"
        seller = pages.on("player:Player 3")
        said = pages.wait(lambda d: seller.find_element("css selector", "[data-field='offer']"),
                          "the offer on Player 3's phone")
        assert "Player 1 offers: Buy a private: CS (price 40)" in said.text
        assert owner() == "player:Player 3"
        accept = seller.find_element("css selector", "form[data-offer] button[value='accept']")
        assert pages.send("player:Player 3", accept).startswith("NYC buys CS from Player 3 for $40")
        assert owner() == "company:NYC"
    at_table(browser, path, ["player:Player 1", "player:Player 3"], test)


def test_cys_stock_round_page_shows_his_float_then_his_pass_on_the_first_screen(browser, tmp_path):
    def test(pages: Pages) -> None:
        d = pages.on("player:Cy")
        assert d.find_element("css selector", "[data-field='your-turn']").is_displayed()
        float_step = d.find_element("css selector", "details[data-step^='Float a minor']")
        assert on_first_screen(pages, float_step)
        float_step.find_element("css selector", ":scope > summary").click()
        minor = float_step.find_element("css selector", "details[data-step='H'] > summary")
        assert on_first_screen(pages, minor)
        minor.click()
        zone = next(f for f in float_step.find_elements("css selector", "form[data-verb='float']")
                    if f.find_element("css selector", "input[name='w.zone']").get_attribute("value") == "AH"
                    and f.find_element("css selector", "input[name='w.corp']").get_attribute("value") == "H")
        tap = zone.find_element("css selector", "button.go")
        assert tap.text.startswith("Cy floats Minor H in AH")
        assert pages.send("player:Cy", tap).startswith("Cy floats Minor H in AH")
        passing = pages.wait(lambda _d: next((b for b in d.find_elements("css selector", "form[data-verb='pass'] button.go")
                                              if b.is_displayed()), False), "Cy's pass")
        assert on_first_screen(pages, passing) and "pass" in passing.text.lower()
    at_table(browser, played(tmp_path, "1801-game.txt", "float Cy H AH"), ["player:Cy"], test)


def test_every_phones_top_line_names_the_latest_command_at_once(browser, tmp_path):
    def test(pages: Pages) -> None:
        pay = pages.form("player:Player 1", "pay")
        revenue = pay.find_element("css selector", "input[name='a.revenue']")
        revenue.clear()
        revenue.send_keys("30")
        shown = pages.wait(lambda d: pay.find_element("css selector", "output.preview").text, "the preview")
        assert shown.startswith("PRR pays out $30 ($3/share)")
        assert pages.send("player:Player 1", pay.find_element("css selector", "button.go")).startswith("PRR pays out $30")
        other = pages.on("player:Player 2")
        latest = pages.wait(lambda d: "PRR pays out $30" in other.find_element(
            "css selector", "[data-field='latest']").text and other.find_element(
            "css selector", "[data-field='latest']").text, "the latest command on Player 2's phone")
        assert "Player 1)" in latest
    at_table(browser, example_file(tmp_path, 91), ["player:Player 1", "player:Player 2"], test)
