"""`bank serve`: the read-only board page of a game, checked against `bank status --json`.

Mid-game positions of the example games (1830 in an operating round, 1843 in one) are served; the
page's figures are read back from its HTML (Starlette's TestClient) and from a real headless
Chromium (Debian's package, driven by Selenium), compared with what `status --json` says, and a
command recorded by another process must reach the open page without a reload. No route may
change the game, and the game file is opened read-only.

The browser test fails, never skips, when Chromium is missing: .ci/run installs it.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from browsers import FieldReader, chromium, served_app, viewport
from cli_driver import Bank, bank_serve, error_line
from game_files import played_file
from starlette.testclient import TestClient

from ledger import catalog
from ledger.interface.board import serve as serving
from ledger.interface.board.app import create_app, ink
from ledger.interface.board.chart import labelled, runs, worth_chart, y_ticks
from ledger.interface.board.reading import Board

ROOT = Path(__file__).resolve().parents[2]

# A position in the middle of each example game (the transcript's first N lines), and the game's
# next line there, recorded while the page is open: each moves money between a company and the bank.
MIDGAME = {
    "1830": ("1830-full-game.txt", 201, "train PRR 4", "PRR"),   # OR 4.2: PRR buys a 4 for $300
    "1843": ("1843-game.txt", 301, "tile SO 0", "SO"),            # OR 4.1: SO's second yellow tile, 20fr
}


@pytest.fixture(scope="session")
def masters() -> dict[str, Path]:
    """Each title's mid-game position (the example's first lines), played once through the CLI."""
    return {title: played_file(name, first=count) for title, (name, count, _next, _corp) in MIDGAME.items()}


def game_copy(masters, title: str, folder: Path) -> Path:
    """A copy of the position (the .db file alone is the whole game) that a test may change."""
    db = folder / f"{title}.db"
    shutil.copy(masters[title], db)
    return db


def money_of(title: str):
    return catalog.load(title).money


# --------------------------------------------------------------------------- what the page must show

def expected_figures(status: dict, score: dict, money) -> dict[tuple[str, str], str]:
    """(scope, field) -> the text the page shows there, from status --json and score --json. Scope
    is a player's name, a company's symbol, a train type ('train:4') or '' for the board itself."""
    out = {("", "bank"): money(status["bank"]), ("", "round"): status["round"], ("", "turn"): status["turn"],
           ("", "phase"): status["phase"], ("", "train-limit"): str(status["train_limit"]),
           ("", "priority"): status["priority"], ("", "cert-limit"): str(status["cert_limit"]),
           ("", "pool-trains"): ", ".join(status["pool_trains"]) or "none"}
    ranks = {p["name"]: p["rank"] for p in score["players"]}
    for p in status["players"]:
        name = p["name"]
        out[(name, "name")] = name
        out[(name, "cash")] = money(p["cash"])
        out[(name, "worth")] = money(p["value"])
        assert ranks[name]
        out[(name, "certs")] = f"{p['certificates']}/{p['cert_limit']}"
        out[(name, "shares")] = " ".join(f"{sym} {pct}%" for sym, pct in p["shares"].items()) or "no shares"
        if p["privates"]:
            out[(name, "privates")] = "· privates " + " ".join(p["privates"])
    for c in status["companies"]:
        if c["par"] is None:
            continue
        sym = c["sym"]
        out[(sym, "cash")] = money(c["cash"])
        out[(sym, "price")] = money(c["price"]) if c["price"] is not None else "–"
        out[(sym, "president")] = c["president"] or "none"
        out[(sym, "trains")] = ", ".join(c["trains"]) or "none"
        out[(sym, "stations")] = f"{c['tokens_left']} left" + (f", next {money(c['next_token_cost'])}"
                                                                if c["next_token_cost"] else "")
        how = {"pay": "paid out", "withhold": "withheld", "half": "half paid"}
        out[(sym, "last-run")] = (f"{money(c['last_run']['revenue'])} {how[c['last_run']['how']]}"
                                  if c["last_run"] else "none yet")
        out[(sym, "unsold")] = f"{c['ipo']}% / {c['pool']}%"
        if status["operating"] is not None:
            out[(sym, "this-or")] = ("operating now" if sym == status["operating"] else
                                     "operated" if sym in status["operated_this_or"] else
                                     "yet to operate" if sym in status["operating_order"] else "does not operate")
    for t in status["train_roster"]:
        out[(f"train:{t['type']}", "left")] = "unlimited" if t["left"] is None else f"{t['left']} of {t['of']}"
        out[(f"train:{t['type']}", "rusts-on")] = t["rusts_on"] or "never"
    return out


def assert_figures(found: dict[tuple[str, str], list[str]], status: dict, score: dict, money) -> None:
    expected = expected_figures(status, score, money)
    wrong = {key: (found.get(key), text) for key, text in expected.items() if found.get(key) != [text]}
    assert not wrong, "page figures that differ from status --json (shown, expected): " + repr(wrong)
    # no card for a company that has not started, and one for each that has
    cards = {scope for scope, field in found if field == "cash"} - {p["name"] for p in status["players"]}
    assert cards == {c["sym"] for c in status["companies"] if c["par"] is not None}


class Figures(FieldReader):
    """A page's figures by scope (the nearest data-player, data-company or data-train around each),
    and each market marker's box title."""

    SCOPES = (("data-player", ""), ("data-company", ""), ("data-train", "train:"))

    def __init__(self, html: str):
        self.markers: dict[str, str] = {}
        super().__init__(html)

    def opened(self, a: dict) -> None:
        if "data-marker" in a:
            self.markers[a["data-marker"]] = next(s.get("title") for s in reversed(self.stack) if "title" in s)


def figures_of(html: str) -> Figures:
    return Figures(html)


# --------------------------------------------------------------------------- the app, in process

@contextmanager
def client_for(db: Path):
    board = Board(db)
    try:
        with TestClient(create_app(board)) as client:
            yield client
    finally:
        board.close()


@pytest.mark.parametrize("title", sorted(MIDGAME))
def test_the_first_response_holds_every_figure_of_status_json(masters, tmp_path, title):
    db = game_copy(masters, title, tmp_path)
    bank = Bank(db)
    status, score, market = bank.status(), bank.score(), json.loads(bank("market", "--json").stdout)
    with client_for(db) as client:
        response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = figures_of(response.text)
    money = money_of(title)
    assert_figures(page.found, status, score, money)
    # every marker on the market, on the box of its price
    assert set(page.markers) == {m["sym"] for m in market["markers"]}
    for m in market["markers"]:
        assert page.markers[m["sym"]].startswith(money(m["price"])), (m, page.markers[m["sym"]])
    # the operating order, in order
    order = re.search(r'data-field="operating-order">(.*?)</p>', response.text, re.DOTALL).group(1)
    assert re.findall(r'class="chip"[^>]*>([^<]+)<', order) == [sym.replace("&", "&amp;")
                                                               for sym in market["operating_order"]]
    # the last ten commands in force, newest first, each in plain words as `bank log` says them
    log = [e for e in bank.log() if e["status"] == "active" and not e["text"].startswith(("undo", "redo"))]
    shown = [int(n) for n in re.findall(r'data-command="(\d+)"', response.text)]
    assert shown == [e["id"] for e in reversed(log[-10:])]
    newest = log[-1]
    assert all(line.replace("&", "&amp;") in response.text for line in newest["lines"])
    # the net-worth chart: an inline SVG with a line for each player, and the legend's figures now
    assert response.text.count('<polyline class="worth"') >= len(status["players"])
    for p in status["players"]:
        legend = re.search(rf'<li data-line="{re.escape(p["name"])}">(.*?)</li>', response.text, re.DOTALL).group(1)
        assert money(p["value"]) in legend
    # the next phase and what it rusts
    nxt = status["next_phase"]
    assert f"The first {nxt['on_train']} starts phase {nxt['name']}: train limit {nxt['train_limit']}" in response.text


@pytest.mark.parametrize("title", sorted(MIDGAME))
def test_the_json_routes_are_the_views(masters, tmp_path, title):
    db = game_copy(masters, title, tmp_path)
    bank = Bank(db)
    with client_for(db) as client:
        assert client.get("/status.json").json() == bank.status()
        assert client.get("/market.json").json() == json.loads(bank("market", "--json").stdout)
        assert client.get("/score.json").json() == bank.score()


def test_the_fragment_is_the_board_the_page_holds(masters, tmp_path):
    db = game_copy(masters, "1830", tmp_path)
    with client_for(db) as client:
        page, fragment = client.get("/"), client.get("/fragment")
    version = re.search(r'<main id="board" data-version="([^"]+)">', page.text).group(1)
    assert fragment.headers["X-Board-Version"] == version
    inside = page.text.split('data-version="' + version + '">', 1)[1].rsplit("</main>", 1)[0]
    assert fragment.text.strip() == inside.strip()
    assert figures_of(fragment.text).found == figures_of(page.text).found


def test_no_route_changes_the_game_and_the_file_is_opened_read_only(masters, tmp_path):
    db = game_copy(masters, "1830", tmp_path)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    board = Board(db)
    try:
        app = create_app(board)
        for route in app.routes:
            methods = getattr(route, "methods", None)
            assert methods is None or methods <= {"GET", "HEAD"}, (route.path, methods)
        paths = ["/", "/fragment", "/events", "/status.json", "/market.json", "/score.json", "/static/board.css",
                 "/static/board.js", "/static/live.js"]
        with TestClient(app) as client:
            for path in paths:
                for method in ("POST", "PUT", "PATCH", "DELETE"):
                    assert client.request(method, path).status_code == 405, (method, path)
            for path in paths:
                if path != "/events":  # a stream that never ends (test_the_event_stream_...)
                    assert client.get(path).status_code == 200, path
            assert client.get("/nothing").status_code == 404
        with pytest.raises(Exception, match="readonly"):
            board.worker.submit(board.session.store.conn.execute,
                                "update commands set status = 'undone' where id = 2").result()
    finally:
        board.close()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_everything_the_page_loads_is_served_by_the_program(masters, tmp_path):
    db = game_copy(masters, "1843", tmp_path)
    with client_for(db) as client:
        html = client.get("/").text
        links = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert links and all(link.startswith("/") for link in links), links
        for link in links:
            assert client.get(link).status_code == 200, link
        assert "@import" not in client.get("/static/board.css").text
        assert "url(" not in client.get("/static/board.css").text
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html


@contextmanager
def uvicorn_thread(db: Path):
    """The app on a real server (uvicorn, in a thread of this process) on a free loopback port."""
    board = Board(db)
    try:
        with served_app(create_app(board), "the server", sock=serving.listen("127.0.0.1", 0), access_log=True) as base:
            yield base + "/"
    finally:
        board.close()


def next_event(lines, deadline: float) -> dict:
    """The next server-sent event (its fields), skipping comments."""
    event: dict = {}
    for line in lines:
        assert time.monotonic() < deadline, "no event in time"
        if not line:
            if "data" in event:
                return event
            event = {}
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        event[field] = value.removeprefix(" ")
    raise AssertionError("the stream ended")


def test_the_event_stream_announces_a_command_recorded_by_another_connection(masters, tmp_path):
    db = game_copy(masters, "1843", tmp_path)
    bank = Bank(db)
    with uvicorn_thread(db) as url:
        with httpx.stream("GET", url + "events", timeout=10) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            first = next_event(lines, time.monotonic() + 5)
            assert first["event"] == "version" and first["id"] == first["data"]
            assert first["data"] == httpx.get(url + "fragment").headers["X-Board-Version"]
            bank.line(MIDGAME["1843"][2])
            # announced without a reload (how soon is a benchmark's to say, not a test's)
            second = next_event(lines, time.monotonic() + 30)
            assert second["event"] == "version" and second["data"] != first["data"]
        assert httpx.get(url + "status.json").json() == bank.status()
        assert httpx.get(url + "fragment").headers["X-Board-Version"] == second["data"]


def test_an_undo_is_seen_too(masters, tmp_path):
    """Any write shows: an undo changes no command count but hides one."""
    db = game_copy(masters, "1830", tmp_path)
    bank = Bank(db)
    with client_for(db) as client:
        before = client.get("/status.json").json()
        bank.line("undo")
        after = client.get("/status.json").json()
        assert after == bank.status() and after != before


# --------------------------------------------------------------------------- the command line

def test_serve_refuses_in_one_line(masters, tmp_path, monkeypatch):
    bank = Bank(tmp_path / "missing.db")
    assert "no game at" in error_line(bank("serve", "--port", "0", ok=False))
    db = game_copy(masters, "1830", tmp_path)
    assert "the port must be a number from 0 to 65535" in error_line(Bank(db)("serve", "--port", "70000", ok=False))
    assert "the port must be a number" in error_line(Bank(db)("serve", "--port", "http", ok=False))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        line = error_line(Bank(db)("serve", "--port", str(port), ok=False))
        assert f"cannot listen on 127.0.0.1 port {port}" in line and "--port" in line
    monkeypatch.setitem(sys.modules, "segno", None)  # as if the serve extra were not installed
    line = error_line(Bank(db)("serve", "--port", "0", ok=False))
    assert "bank serve needs segno" in line and "pip install starlette uvicorn jinja2 segno" in line


def test_the_address_and_its_qr_code(monkeypatch):
    import segno
    out = io.StringIO()
    assert serving.announce(Path("bank.db"), "127.0.0.1", 8018, out) == "http://127.0.0.1:8018/"
    assert "█" not in out.getvalue() and "▀" not in out.getvalue()
    assert serving.announce(Path("g.db"), "::1", 9000, io.StringIO()) == "http://[::1]:9000/"
    # shared on the network: the machine's address, and its QR code for the phones
    monkeypatch.setattr(serving, "lan_address", lambda: "192.0.2.7")
    out = io.StringIO()
    assert serving.announce(Path("bank.db"), "0.0.0.0", 8018, out) == "http://192.0.2.7:8018/"
    code = io.StringIO()
    segno.make("http://192.0.2.7:8018/", error="m").terminal(out=code, compact=True)
    assert code.getvalue() in out.getvalue() and len(code.getvalue().splitlines()) > 10
    out = io.StringIO()
    assert serving.announce(Path("bank.db"), "192.0.2.9", 80, out) == "http://192.0.2.9:80/"
    assert "scan this code" in out.getvalue()
    # no network: said so, and no code to scan
    monkeypatch.setattr(serving, "lan_address", lambda: None)
    out = io.StringIO()
    assert serving.announce(Path("bank.db"), "0.0.0.0", 8018, out) == "http://127.0.0.1:8018/"
    assert "only this machine" in out.getvalue()


@contextmanager
def served(db: Path, *options: str):
    """`bank serve --port 0` in its own process (cli_driver.bank_serve); yields (URL, what it printed
    first). Ctrl-C stops it cleanly, open pages or not, saying so."""
    with bank_serve(db, *options) as run:
        yield re.search(r"http://\S+", run.printed[0]).group(0), run.printed
    assert "no longer served" in run.after


def bank_json(db: Path, verb: str) -> dict:
    return json.loads(bank_process(db, verb, "--json"))


def bank_process(db: Path, *words: str) -> str:
    """`bank ...` in its own process, as the banker's terminal runs it."""
    done = subprocess.run([sys.executable, "-m", "ledger", "--game", str(db), *words], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_shared_on_the_network_it_listens_on_every_address(masters, tmp_path):
    db = game_copy(masters, "1830", tmp_path)
    with served(db, "--host", "0.0.0.0") as (url, printed):
        port = int(url.rsplit(":", 1)[1].strip("/"))
        text = "".join(printed)
        assert ("scan this code" in text and "▀" in text or "█" in text) or "only this machine" in text
        assert httpx.get(f"http://127.0.0.1:{port}/status.json", timeout=10).json() == bank_json(db, "status")


# --------------------------------------------------------------------------- a real browser

@pytest.fixture
def browser(tmp_path):
    driver = chromium(tempfile.mkdtemp(dir=tmp_path, prefix="chromium-"))
    try:
        yield driver
    finally:
        driver.quit()


# the figures as the browser renders them: the text of every data-field element, by scope
READ_FIGURES = """
const out = [];
for (const el of document.querySelectorAll('[data-field]')) {
  const scope = el.closest('[data-player],[data-company],[data-train]');
  let key = '';
  if (scope) key = scope.dataset.player ?? scope.dataset.company ?? ('train:' + scope.dataset.train);
  out.push([key, el.dataset.field, el.textContent]);
}
return out;
"""


def browser_figures(driver) -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for scope, field, text in driver.execute_script(READ_FIGURES):
        found.setdefault((scope, field), []).append(" ".join(text.split()))
    return found


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize("title", sorted(MIDGAME))
def test_the_page_in_a_real_browser_follows_the_game(masters, tmp_path, browser, title):
    db = game_copy(masters, title, tmp_path)
    money = money_of(title)
    _name, _count, next_line, corp = MIDGAME[title]
    with served(db) as (url, _printed):
        # a phone
        viewport(browser, 390, 844, mobile=True)
        browser.get(url)
        wait_for(lambda: browser.execute_script("return document.getElementById('live').dataset.state") == "live",
                 10, "the live connection")
        status = bank_json(db, "status")
        assert_figures(browser_figures(browser), status, bank_json(db, "score"), money)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        phone = tmp_path / f"board-{title}-phone.png"
        browser.save_screenshot(str(phone))
        assert png_size(phone) == (390, 844)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        viewport(browser, 390, height, mobile=True)
        browser.save_screenshot(str(tmp_path / f"board-{title}-phone-full.png"))
        viewport(browser, 390, 844, mobile=True)

        # the banker records the game's next command in another process; the open page follows
        browser.execute_script("window.boardNotReloaded = true")
        version = browser.execute_script("return document.getElementById('board').dataset.version")
        bank_process(db, *next_line.split())
        after = bank_json(db, "status")
        cash = money(next(c["cash"] for c in after["companies"] if c["sym"] == corp))
        assert cash != money(next(c["cash"] for c in status["companies"] if c["sym"] == corp))
        shown = f'[data-company="{corp}"] [data-field="cash"]'
        wait_for(lambda: browser.execute_script(f"return document.querySelector('{shown}').textContent") == cash,
                 5, f"{corp}'s cash to become {cash} on the page")
        assert browser.execute_script("return window.boardNotReloaded === true"), "the page was reloaded"
        assert browser.execute_script("return document.getElementById('board').dataset.version") != version
        assert_figures(browser_figures(browser), after, bank_json(db, "score"), money)
        assert f"{next_line}" in browser.find_element("css selector", "#log li[data-command]").text

        # a laptop: the players and companies beside the market
        viewport(browser, 1366, 768, mobile=False)
        laptop = tmp_path / f"board-{title}-laptop.png"
        browser.save_screenshot(str(laptop))
        assert png_size(laptop) == (1366, 768)
        players = browser.find_element("css selector", "#players").rect
        market = browser.find_element("css selector", "#market").rect
        assert market["x"] >= players["x"] + players["width"], (players, market)
        assert_figures(browser_figures(browser), after, bank_json(db, "score"), money)
    if os.environ.get("BANK_BOARD_SHOTS"):  # where to keep the screenshots (the README's comes from here)
        keep = Path(os.environ["BANK_BOARD_SHOTS"])
        keep.mkdir(parents=True, exist_ok=True)
        for shot in tmp_path.glob("board-*.png"):
            shutil.copy(shot, keep / shot.name)


# --------------------------------------------------------------------------- the chart and the colours

def test_the_chart_draws_every_player_and_keeps_round_names_apart():
    labels = ["Auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1", "OR 2.2", "SR 3", "OR 3.1", "OR 3.2", "OR 3.3",
              "SR 4", "OR 4.1 (now)"]
    lines = {"Ann": [600, 620, 640, 700, 800, 900, 950, 1000, 1100, 1300, 1400, 1500],
             "Ben": [600, 590, None, 650, 700, 720, 800, 900, 1000, 1100, 1150, 1200],
             "Cy & <Co>": [600] * 12}
    chart = worth_chart(labels, lines, money_of("1843"))
    assert [line.name for line in chart.legend] == ["Ann", "Ben", "Cy & <Co>"]
    assert chart.legend[0].last == 1500 and len({line.colour for line in chart.legend}) == 3
    assert chart.svg.count('<polyline class="worth"') == 4  # Ben's line breaks where a round has no value
    assert "Cy &amp; &lt;Co&gt;" in chart.svg and "<Co>" not in chart.svg
    assert "1500fr" in chart.svg and "$" not in chart.svg
    placed = labelled(labels, [50 + i * 25 for i in range(len(labels))])
    indices = [i for i, _ in placed]
    assert indices[0] == 0 and indices[-1] == len(labels) - 1 and len(indices) < len(labels)
    spans = sorted((x - len(labels[i]) * 3.35, x + len(labels[i]) * 3.35) for i, x in placed)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans)), "round names overlap"
    assert worth_chart([], {}, str).svg == ""


def test_chart_steps_and_gaps():
    assert y_ticks(0, 1500) == (500, 0, 1500)
    assert y_ticks(0, 7576) == (2000, 0, 8000)
    step, bottom, top = y_ticks(0, 123)
    assert bottom == 0 and top >= 123 and (top - bottom) // step + 1 <= 6
    assert runs([1, None, 2, 3, None]) == [[0], [2, 3]]


def test_text_on_a_company_colour_reads():
    assert ink("#ffffff") == "#000" and ink("#000000") == "#fff"
    assert ink("#32763f") == "#fff"  # PRR's green
    assert ink("#f0e442") == "#000"  # a yellow
    assert ink(None) == "#000"
