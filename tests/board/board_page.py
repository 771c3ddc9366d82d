"""What the board tests share: each title's example played on the engine, its positions at every
round boundary, the page rendered for a position, the figures read back from its HTML, and the
figures a company's card must show, worked from `status --json`."""

from __future__ import annotations

from contextlib import contextmanager
from functools import cache
from pathlib import Path

from browsers import SIZES, FieldReader, served_app, viewport
from conftest import Table
from transcripts import complete_games, lines_of

from ledger.core.state import round_label
from ledger.interface.board.reading import Position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = complete_games()   # title -> its complete example game
HOW = {"pay": "paid out", "withhold": "withheld", "half": "half paid"}


@cache
def positions(title: str) -> list[tuple[str, Position]]:
    """The example's position as each round begins (and at the end), played once a session."""
    t = Table()
    out, last = [], None
    for line in lines_of((ROOT / "examples" / EXAMPLES[title]).read_text()):
        t.line(line)
        label = round_label(t.state)
        if label != last:
            last = label
            out.append((label, Position(t.state, t.rs, EXAMPLES[title])))
    out.append(("end", Position(t.state, t.rs, EXAMPLES[title])))
    return out


class Page(FieldReader):
    """The figures of a board page by scope (the nearest data-company, data-quote, data-player or
    data-own around each), and the companies of each card group."""

    SCOPES = (("data-company", ""), ("data-quote", ""), ("data-player", ""), ("data-own", ""))

    def __init__(self, html: str):
        self.cards: list[tuple[str, str]] = []   # (kind heading or "", company) in page order
        self.owns: list[str] = []
        self.kind = ""
        super().__init__(html)

    def opened(self, a: dict) -> None:
        if "data-kind" in a:
            self.kind = a["data-kind"]
        if "data-company" in a:
            self.cards.append((self.kind, a["data-company"]))
        if "data-own" in a:
            self.owns.append(a["data-own"])


def card_figures(status: dict, money) -> dict[tuple[str, str], str]:
    """Every figure each company's card shows, as status --json says it."""
    kinds = {k["name"]: k for k in status["company_kinds"]}
    out = {}
    for c in status["companies"]:
        if c["standing"] not in ("floated", "started"):
            continue
        sym = c["sym"]
        out[(sym, "cash")] = money(c["cash"])
        if c["price"] is not None or c["par"] is not None:
            out[(sym, "price")] = money(c["price"]) if c["price"] is not None else "–"
        if kinds[c["kind"]]["president"]:
            out[(sym, "president")] = c["president"] or "none"
        out[(sym, "trains")] = ", ".join(c["trains"]) or "none"
        if c["operates"]:
            out[(sym, "stations")] = f"{c['tokens_left']} left" + (f", next {money(c['next_token_cost'])}"
                                                                    if c["next_token_cost"] else "")
        out[(sym, "last-run")] = (f"{money(c['last_run']['revenue'])} {HOW[c['last_run']['how']]}"
                                  if c["last_run"] else "none yet")
        out[(sym, "unsold")] = f"{c['ipo']}% / {c['pool']}%"
        if c["unit"] != 10:
            out[(sym, "units")] = f"{c['ipo'] // c['unit']} unsold, {c['pool'] // c['unit']} in pool"
        if status["operating"] is not None:
            out[(sym, "this-or")] = ("operating now" if sym == status["operating"] else
                                     "operated" if sym in status["operated_this_or"] else
                                     "yet to operate" if sym in status["operating_order"] else "does not operate")
    return out


def quote_figures(status: dict, market: dict, money) -> dict[tuple[str, str], str]:
    """The market list above the grid: each marker's price, box zone and next prices."""
    companies = {c["sym"]: c for c in status["companies"]}
    out = {}
    for m in market["markers"]:
        c = companies[m["sym"]]
        out[(m["sym"], "quote-price")] = money(m["price"])
        assert c["price"] == m["price"]
        out[(m["sym"], "quote-zone")] = c["zone"] or "plain"
        for name, price in c["moves"].items():
            out[(m["sym"], f"quote-{name}")] = money(price) if price is not None else "–"
    return out


# --------------------------------------------------------------------------- a real server, a real browser

@contextmanager
def served(board):
    """The board app for `board`, on a free local port; yields its URL."""
    from ledger.interface.board.app import create_app
    with served_app(create_app(board), "the board") as base:
        yield base + "/"


def viewport_of(driver, size: str) -> None:
    viewport(driver, *SIZES[size])
