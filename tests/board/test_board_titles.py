"""The board page shows every title as its table needs it (issue 29): each title's example is played
on the engine and, as every round begins and at the end, the page's cards, its market list and the
title's own notes are checked against `status --json` and `market --json`; then one real Chromium
shows a position of each title at a phone's size and a laptop's."""

from __future__ import annotations

import re
import tempfile
import time
from html import unescape

import pytest
from board_page import EXAMPLES, Page, card_figures, positions, quote_figures, served, viewport_of
from browsers import SIZES, chromium
from starlette.testclient import TestClient

from ledger.interface.board.app import STATUS_KEYS, create_app


class Swapped:
    """One app for a whole game: the position it shows is swapped between requests."""

    def __init__(self, board):
        self.view = board.view

    async def current(self):
        return self.view


@pytest.mark.parametrize("title", sorted(EXAMPLES))
def test_every_round_of_the_example_is_shown_as_status_json_says(title):
    rounds = positions(title)
    board = Swapped(rounds[0][1])
    kinds_seen: set[str] = set()
    with TestClient(create_app(board)) as client:
        for label, position in rounds:
            board.view = view = position.view
            status, market, money = view.status, view.market, view.money
            response = client.get("/")
            assert response.status_code == 200, label
            page = Page(response.text)
            where = f"{title} {label}"

            # a card for every company that has started or floated, whatever its kind (1801's minors
            # have no par), grouped by kind in the data's order; none for the others
            standing = {c["sym"]: c["standing"] for c in status["companies"]}
            carded = [sym for _kind, sym in page.cards]
            assert sorted(carded) == sorted(s for s, st in standing.items() if st in ("floated", "started")), where
            assert all(standing[s] == "floated" for s in status["operating_order"] if s in standing), where
            assert set(status["operating_order"]) <= set(carded), where
            order = [k["name"] for k in status["company_kinds"]]
            kinds = {c["sym"]: c["kind"] for c in status["companies"]}
            groups = [kinds[sym] for sym in carded]
            assert groups == sorted(groups, key=order.index), where
            if len(order) > 1:
                assert all(heading == kinds[sym] for heading, sym in page.cards), where
            kinds_seen |= set(groups)

            # each card's figures
            expected = card_figures(status, money)
            wrong = {key: (page.found.get(key), text) for key, text in expected.items() if page.found.get(key) != [text]}
            assert not wrong, f"{where}: card figures (shown, expected): {wrong!r}"

            # the ones without a card are named: not started, or closed
            for field, st in (("unstarted", "not started"), ("closed", "closed")):
                syms = [s for s, v in standing.items() if v == st]
                shown = page.found.get(("", field), [""])[0].split(":", 1)[-1].split()
                assert shown == syms, (where, field)

            # the market list: every marker, highest price first, its zone and next prices
            expected = quote_figures(status, market, money)
            wrong = {key: (page.found.get(key), text) for key, text in expected.items() if page.found.get(key) != [text]}
            assert not wrong, f"{where}: market list (shown, expected): {wrong!r}"
            prices = [money(m["price"]) for m in sorted(market["markers"], key=lambda m: -m["price"])]
            assert [page.found[(q, "quote-price")][0] for q in quote_order(response.text)] == prices, where

            # the title's own state: every key it adds to the status that has something in it, as a
            # small table or badges; the per-company ones on the cards
            # (money_keys says which of them are money: a key about the others, not a note)
            own = [k for k, v in status.items() if k not in STATUS_KEYS | {"money_keys"} and v not in (None, {}, [])]
            companies = set(standing)
            per_company = [k for k in own if isinstance(status[k], dict) and set(status[k]) <= companies]
            assert page.owns == [k for k in own if k not in per_company], where
            for key in per_company:
                for sym, fact in status[key].items():
                    card = next(c for c in status["companies"] if c["sym"] == sym)
                    if standing[sym] in ("floated", "started") and fact not in card.values():
                        assert (sym, f"fact-{key}") in page.found, (where, sym, key)
    # the kinds the data gives all had their cards at some round
    assert kinds_seen == {k["name"] for k in rounds[-1][1].view.status["company_kinds"]
                          if any(c["kind"] == k["name"] for _l, p in rounds for c in p.view.status["companies"]
                                 if c["standing"] != "not started")}


def quote_order(html: str) -> list[str]:
    return [unescape(sym) for sym in re.findall(r'<tr data-quote="([^"]+)"', html)]


# One position of each title in a real browser: its most varied round (the most kinds of company
# with cards, then the most cards), the first such.
def browser_position(title: str):
    def variety(r):
        cards = [c for c in r[1].view.status["companies"] if c["standing"] in ("floated", "started")]
        return len({c["kind"] for c in cards}), len(cards)
    return max(positions(title), key=variety)


READ = """
const out = [];
for (const el of document.querySelectorAll('[data-field]')) {
  const scope = el.closest('[data-company],[data-quote]');
  if (!scope) continue;
  const r = el.getBoundingClientRect();
  out.push([scope.dataset.company ?? scope.dataset.quote, el.dataset.field, el.textContent, r.width > 0 && r.height > 0]);
}
return out;
"""

def read_page(browser, count: int, seconds: float = 5) -> dict:
    """The figures of the cards and the market list once the page holds them all (a loaded machine
    may still be laying the page out when the first read comes): (scope, field) -> (texts, shown)."""
    deadline = time.monotonic() + seconds
    while True:
        found: dict = {}
        for scope, field, text, visible in browser.execute_script(READ):
            texts, shown = found.get((scope, field), ([], True))
            found[(scope, field)] = (texts + [" ".join(text.split())], shown and visible)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


MARKERS_IN_VIEW = """
const scroller = document.querySelector('#market .scroll');
const box = scroller.getBoundingClientRect();
return [...scroller.querySelectorAll('.marker')].map(m => {
  const r = m.getBoundingClientRect();
  return [m.dataset.marker, r.left >= box.left - 1 && r.right <= box.right + 1];
});
"""


@pytest.fixture(scope="module")
def browser():
    with tempfile.TemporaryDirectory(prefix="board-chromium-") as profile:
        driver = chromium(profile)
        try:
            yield driver
        finally:
            driver.quit()


@pytest.mark.parametrize("title", sorted(EXAMPLES))
def test_a_position_of_each_title_in_chromium_at_both_sizes(browser, title):
    label, position = browser_position(title)
    view = position.view
    expected = {**card_figures(view.status, view.money), **quote_figures(view.status, view.market, view.money)}
    leader = max(view.market["markers"], key=lambda m: m["price"])["sym"] if view.market["markers"] else None
    with served(position) as url:
        for size, (width, _height, _mobile) in SIZES.items():
            viewport_of(browser, size)
            browser.get(url)
            found = read_page(browser, len(expected))
            hidden = [key for key, (_texts, visible) in found.items() if not visible]
            assert not hidden, f"{title} {label} {size}: not shown {hidden}"
            found = {key: texts for key, (texts, _visible) in found.items()}
            wrong = {key: (found.get(key), text) for key, text in expected.items() if found.get(key) != [text]}
            assert not wrong, f"{title} {label} {size}: (shown, expected) {wrong!r}"
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width, (title, size)
            if size == "phone" and leader:
                in_view = dict(browser.execute_script(MARKERS_IN_VIEW))
                assert in_view[leader], f"{title} {label}: the leading marker {leader} is off screen on a phone"
        browser.get("about:blank")  # closes the page's event stream before the server stops


def test_the_title_notes_show_its_money_as_money():
    """1801's status names its money figures (money_keys): the remainder and the packet's prices and
    bids are shown in pounds on the page, the counts beside them as numbers."""
    from ledger.interface.board.app import title_facts
    status = {"companies": [], "money_keys": ["remainder", "packet.prices"], "remainder": 100000,
              "packet": {"prices": {"RSC": 20, "BB": 100}, "left": 3}, "chits": 4}
    notes, _facts = title_facts(status, lambda n: f"£{n}")
    assert dict(notes) == {"remainder": "£100000", "packet": {"prices": {"RSC": "£20", "BB": "£100"}, "left": 3},
                           "chits": 4}
