"""What the table tests share: a game file played to a given point through the Session (as the CLI
records it), a table server on it (Starlette's TestClient, or uvicorn on a free port for a browser),
and a reader of a table page's forms."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from browsers import served_app
from transcripts import lines_of, options_of

from ledger import catalog
from ledger.books.session import Session
from ledger.core import grammar
from ledger.interface.board import links
from ledger.interface.board.app import create_app
from ledger.interface.board.reading import Board
from ledger.interface.board.table import Table, Writer

PLAYERS = ["Ann", "Ben", "Cy"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def game_file(folder: Path, lines: list[str] = (), players: list[str] = PLAYERS, name: str = "table.db") -> Path:
    """A new 1830 game with `lines` recorded as typed at a terminal."""
    path = folder / name
    s = Session.new(path, "1830", list(players), {})
    try:
        for line in lines:
            terminal(s, line)
    finally:
        s.close()
    return path


def recorded(folder: Path, lines: list[str], name: str = "game.db") -> Path:
    """A transcript's lines (its `new` line first) recorded through the Session, each as typed at a
    terminal, in the game file `name` of `folder`."""
    new = catalog.parse_line(lines[0])
    path = folder / name
    s = Session.new(path, new.get("title"), new.get("players"), options_of(new))
    try:
        for line in lines[1:]:
            terminal(s, line)
    finally:
        s.close()
    return path


def example_file(folder: Path, before: int) -> Path:
    """The 1830 example game (examples/1830-full-game.txt) recorded up to (not including) its
    transcript line `before` (1-based, as the file numbers its lines)."""
    text = EXAMPLES.joinpath("1830-full-game.txt").read_text(encoding="utf-8").splitlines()
    return recorded(folder, lines_of("\n".join(text[:before - 1])), "example.db")


def played(folder: Path, example: str, before: str) -> Path:
    """An example game recorded up to (not including) the first line that reads `before`."""
    lines = lines_of((EXAMPLES / example).read_text(encoding="utf-8"))
    return recorded(folder, lines[:lines.index(before)])


def terminal(s: Session, line: str) -> list[dict]:
    """A command typed at a terminal: parsed by the grammar and recorded, as `bank LINE` does."""
    return s.execute(grammar.parse_line(line, grammar.verbs_of(s.rs)), line)


class Rig:
    """A table server on a game, driven in process: its links' tokens and the app."""

    def __init__(self, path: Path, renew: bool = False):
        self.path = path
        self.board = Board(path)
        self.writer = Writer(path)
        self.tokens = self.writer.worker.submit(links.issue, self.writer.session, renew).result()
        self.writer.hashes = self.writer.worker.submit(self.writer.session.store.link_hashes).result()
        self.table = Table(self.board, self.writer)
        self.app = create_app(self.board, self.table)

    def url(self, who: str) -> str:
        return f"/t/{self.tokens[who]}"

    def close(self) -> None:
        self.board.close()
        self.writer.close()


def head_of(path: Path) -> int:
    s = Session.open(path)
    try:
        return s.head
    finally:
        s.close()


class Forms(HTMLParser):
    """A table page's forms: for each, its hidden fields, its buttons (name, value, text) and its
    number fields (name, min, max); and the page's result note."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self.result: list[str] = []
        self._in_result = False
        self._button: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"verb": a.get("data-verb"), "actor": a.get("data-actor"), "hidden": {},
                               "buttons": [], "numbers": [], "texts": [], "typed": {}, "selects": {}, "picks": []})
        elif tag == "input" and self.forms:
            kind = a.get("type")
            if kind == "hidden":
                self.forms[-1]["hidden"][a["name"]] = a.get("value", "")
            elif kind == "number":
                self.forms[-1]["numbers"].append((a["name"], a.get("min"), a.get("max")))
                self.forms[-1]["typed"][a["name"]] = a.get("value", "")
            elif kind == "text":
                self.forms[-1]["texts"].append(a["name"])
            if a.get("name", "").startswith("k."):       # a pick: a box to tick or a count
                self.forms[-1]["picks"].append(a["name"])
        elif tag == "select" and self.forms:
            self._select = a["name"]
            self.forms[-1]["selects"][a["name"]] = []
        elif tag == "option" and self.forms and getattr(self, "_select", None):
            self.forms[-1]["selects"][self._select].append(a.get("value", ""))
        elif tag == "button" and self.forms:
            self._button = {"name": a.get("name"), "value": a.get("value"), "text": ""}
            self.forms[-1]["buttons"].append(self._button)
        elif tag == "div" and a.get("id") == "result":
            self._in_result = True

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        if tag == "button":
            self._button = None
        if tag == "div":
            self._in_result = False

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data
        if self._in_result and data.strip():
            self.result.append(data.strip())

    def of(self, verb: str, **hidden) -> dict:
        """The first form of `verb` whose hidden fields include `hidden` (w.NAME as w_NAME)."""
        wanted = {dotted(k): v for k, v in hidden.items()}
        for form in self.forms:
            if form["verb"] == verb and all(form["hidden"].get(k) == v for k, v in wanted.items()):
                return form
        raise AssertionError(f"no {verb} form with {hidden} among {[f['verb'] for f in self.forms]}")


def dotted(key: str) -> str:
    """A form field's name from a keyword: a_NAME is a typed word a.NAME, w_NAME a fixed word w.NAME."""
    for prefix in ("a_", "w_"):
        if key.startswith(prefix):
            return prefix[0] + "." + key[2:]
    return key


def submit(form: dict, **values) -> dict:
    """The fields a browser sends for a form: its hidden fields and `values` (a.NAME as a_NAME, the
    button's own name and value as button=...)."""
    return {**form["hidden"], **{dotted(k): str(v) for k, v in values.items()}}


# --------------------------------------------------------------------------- a real server, for a browser

def served(rig: Rig):
    """The rig's app on a free local port; yields its base URL."""
    return served_app(rig.app, "the table's pages")


# how long a page is given to show what the test waits for, in seconds
WAIT = 10


class Pages:
    """One tab per holder, switched to by name."""

    def __init__(self, driver, base: str, rig: Rig):
        self.driver, self.base, self.rig, self.tabs = driver, base, rig, {}

    def open(self, who: str) -> None:
        if self.tabs:
            self.driver.switch_to.new_window("tab")
        self.driver.get(self.base + self.rig.url(who))
        self.tabs[who] = self.driver.current_window_handle
        self.wait(lambda d: d.find_element("id", "live").get_attribute("data-state") == "live")

    def on(self, who: str):
        self.driver.switch_to.window(self.tabs[who])
        return self.driver

    def wait(self, condition, what: str = ""):
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait
        # a live page replaces its document when the game moves: an element read mid-swap is asked again
        return WebDriverWait(self.driver, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(
            condition, what)

    def form(self, who: str, verb: str, item: str | None = None):
        """The page's form of `verb` (for `item`, when given), once the page offers it."""
        def found(d):
            for form in d.find_elements("css selector", f"form[data-verb='{verb}']"):
                fixed = [i.get_attribute("value") for i in form.find_elements("css selector", "input[name='w.item']")]
                if item is None or item in fixed:
                    return form
            return False
        form = self.wait(lambda d: found(self.on(who)), f"{who}'s page offers {verb} {item or ''}")
        return self.opened(form)

    def opened(self, element):
        """A control inside a step the page shows closed: its steps opened as a thumb opens them, by
        their titles, outermost first."""
        steps = self.driver.execute_script(
            "const out = []; for (let d = arguments[0].closest('details'); d; d = d.parentElement.closest('details'))"
            " out.unshift(d); return out;", element)
        for step in steps:
            if not step.get_attribute("open"):
                step.find_element("css selector", ":scope > summary").click()
        return element

    def result(self, who: str) -> str:
        return self.wait(lambda d: self.on(who).find_element("id", "result").text, f"{who}'s result")

    def send(self, who: str, element, how: str = "click") -> str:
        """Post a form from `who`'s page and read the result on the page the server answers with.
        The old page is marked first: its result line is the previous action's until the answer loads."""
        driver = self.on(who)
        driver.execute_script("window.__sent = true;")
        getattr(element, how)()
        self.wait(lambda d: d.execute_script("return window.__sent === undefined && document.readyState === 'complete';"),
                  f"{who}'s page answers the post")
        return self.result(who)

    def figures(self, who: str) -> dict:
        # read in one script: the page's script may swap the board in between two reads
        return self.on(who).execute_script("""
            const cash = {};
            for (const row of document.querySelectorAll("#board tbody[data-player]"))
              cash[row.dataset.player] = row.querySelector("[data-field='cash']").textContent.trim();
            const field = (name) => {
              const el = document.querySelector(`#board [data-field='${name}']`);
              return el ? el.textContent.trim() : null;
            };
            const next = document.querySelector("[data-field='next']");
            return {cash: cash, next: next ? next.textContent.trim() : null, bank: field("bank"),
                    round: field("round"), turn: field("turn")};""")

    def close(self) -> None:
        """Leave every page (their event streams end before the server stops), one tab left open."""
        for who in list(self.tabs)[1:]:
            self.on(who).close()
        if self.tabs:
            self.driver.switch_to.window(self.tabs[next(iter(self.tabs))])
            self.driver.get("about:blank")
