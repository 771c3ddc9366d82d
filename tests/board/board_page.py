"""What the board tests share: each title's example played on the engine, its positions at every
round boundary, the page rendered for a position, the figures read back from its HTML, and the
figures a company's card must show, worked from `status --json`."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from contextlib import contextmanager
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from conftest import Table
from transcripts import lines_of

from ledger.core.state import round_label
from ledger.interface.board.reading import Position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"1830": "1830-full-game.txt", "1801": "1801-game.txt", "1839": "1839-game.txt", "1843": "1843-game.txt"}
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


class Page(HTMLParser):
    """The text of every element marked data-field, by its scope (the nearest data-company,
    data-quote, data-player or data-own around it), and the companies of each card group."""

    SCOPES = ("data-company", "data-quote", "data-player", "data-own")
    VOID = frozenset({"meta", "link", "br", "img", "input", "hr", "wbr", "source"})

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[dict] = []
        self.open: list[tuple[tuple[str, str], int, list[str]]] = []
        self.found: dict[tuple[str, str], list[str]] = {}
        self.cards: list[tuple[str, str]] = []   # (kind heading or "", company) in page order
        self.owns: list[str] = []
        self.kind = ""
        self.feed(html)
        self.close()

    def scope(self) -> str:
        for attrs in reversed(self.stack):
            for attr in self.SCOPES:
                if attr in attrs:
                    return attrs[attr]
        return ""

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        a = dict(attrs)
        self.stack.append({**a, "_tag": tag})
        if "data-kind" in a:
            self.kind = a["data-kind"]
        if "data-company" in a:
            self.cards.append((self.kind, a["data-company"]))
        if "data-own" in a:
            self.owns.append(a["data-own"])
        if "data-field" in a:
            self.open.append(((self.scope(), a["data-field"]), len(self.stack), []))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.VOID or not self.stack:
            return
        assert self.stack[-1]["_tag"] == tag, f"</{tag}> closes <{self.stack[-1]['_tag']}>"
        depth = len(self.stack)
        while self.open and self.open[-1][1] == depth:
            key, _, parts = self.open.pop()
            self.found.setdefault(key, []).append(" ".join("".join(parts).split()))
        self.stack.pop()

    def handle_data(self, data):
        for _, _, parts in self.open:
            parts.append(data)


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
    """The board app on a free local port, in a thread (uvicorn), for a browser."""
    import uvicorn

    from ledger.interface.board.app import create_app
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(board), log_level="warning", access_log=False,
                                           lifespan="on", timeout_graceful_shutdown=0))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the board did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(5)
        sock.close()


def chromium(profile: str):
    """Headless Chromium from Debian's packages, driven by Selenium (never downloads a driver)."""
    import os

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    os.environ.setdefault("SE_AVOID_STATS", "true")
    os.environ.setdefault("SE_OFFLINE", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
                 "--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1366,768", "--hide-scrollbars"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


SIZES = {"phone": (390, 844, True), "laptop": (1366, 768, False)}


def viewport(driver, size: str) -> None:
    width, height, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
