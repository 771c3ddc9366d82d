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
