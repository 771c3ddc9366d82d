#!/usr/bin/env python3
"""The whole table under load (issue 30): 7 pages (six players' and the banker's) polling and acting
at random on one game, beside a terminal that records commands too.

    python bench/table_load.py                   # 10 minutes, as the issue asks
    python bench/table_load.py --seconds 60 --seed 3

A new 6-player 1830 game is served by `bank serve --table`'s app (uvicorn, on 127.0.0.1 only, a
free port). Each page is a client of its own: it fetches its page every POLL seconds and, when the
page offers it something, sends one of the offered forms with a random legal value (a button, or a
number within the field's bounds), as a phone would, and reads the page the server redirects to.
Every TERMINAL seconds the terminal records a random legal command of whoever acts (through its own
Session, as `bank` does). At the end the ledger is checked against what every page was told:

- lost: an action the page was told was recorded, missing from the ledger (the command right
  after the one its page was drawn after, entered by its holder);
- doubled: two actions told recorded in the same place (one form recorded twice);
- stale: a page's command in the ledger that no page was told of as following the command its
  page was drawn after (recorded although the game had moved on, or a form recorded again);
- the audit (`bank audit`'s checks) clean; and the p50/p95/max latency of an action (POST to the
  page drawn after it). Exits 1 when any count is not 0 or the audit finds a problem.

Traffic goes to 127.0.0.1 only and stops by itself at the deadline.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYERS = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]
POLL = 0.4          # seconds between a page's looks at the game
TERMINAL = 1.5      # seconds between the terminal's commands


class Page(HTMLParser):
    """A table page's forms: hidden fields, buttons, number fields with their bounds; its result."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self.result: list[str] = []
        self.ok: bool | None = None
        self._result = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "data-verb" in a:
            self.forms.append({"hidden": {}, "buttons": [], "numbers": []})
        elif tag == "form":
            self.forms.append(None)   # the banker's command line and undo: not used at random
        elif tag == "input" and self.forms and self.forms[-1] is not None:
            if a.get("type") == "hidden":
                self.forms[-1]["hidden"][a["name"]] = a.get("value", "")
            elif a.get("type") == "number":
                self.forms[-1]["numbers"].append((a["name"], int(a["min"]), int(a.get("max") or int(a["min"]) + 100)))
        elif tag == "button" and self.forms and self.forms[-1] is not None:
            self.forms[-1]["buttons"].append((a.get("name"), a.get("value")))
        elif tag == "div" and a.get("id") == "result":
            self._result, self.ok = True, "done" in a.get("class", "")

    def handle_endtag(self, tag):
        if tag == "div":
            self._result = False

    def handle_data(self, data):
        if self._result and data.strip():
            self.result.append(data.strip())

    def fields(self, rng: random.Random) -> dict | None:
        usable = [f for f in self.forms if f is not None]
        if not usable:
            return None
        form = rng.choice(usable)
        fields = dict(form["hidden"])
        for name, low, high in form["numbers"]:
            fields[name] = str(rng.randint(low, min(high, low + 40)))
        name, value = rng.choice(form["buttons"])
        if name:
            fields[name] = value or ""
        return fields


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.told: list[tuple[str, int]] = []     # (holder, the command its page was drawn after)
        self.refused_stale = 0
        self.refused_rules = 0
        self.other_status: dict[int, int] = {}
        self.latency: list[float] = []
        self.terminal_done = 0
        self.terminal_refused = 0


def page_loop(base: str, who: str, token: str, deadline: float, tally: Tally, seed: int) -> None:
    import httpx
    rng = random.Random(seed)
    with httpx.Client(base_url=base, follow_redirects=False, timeout=30) as client:
        while time.monotonic() < deadline:
            answer = client.get(f"/t/{token}")
            if answer.status_code != 200:
                with tally.lock:
                    tally.other_status[answer.status_code] = tally.other_status.get(answer.status_code, 0) + 1
                time.sleep(POLL)
                continue
            fields = Page(answer.text).fields(rng)
            if fields is not None and rng.random() < 0.7:
                start = time.perf_counter()
                sent = client.post(f"/t/{token}", data=fields)
                if sent.status_code == 303:
                    result = Page(client.get(sent.headers["location"]).text)
                    took = time.perf_counter() - start
                    with tally.lock:
                        tally.latency.append(took)
                        if result.ok:
                            tally.told.append((who, int(fields["after"])))
                        elif result.result and "moved on" in result.result[0]:
                            tally.refused_stale += 1
                        else:
                            tally.refused_rules += 1
                else:
                    with tally.lock:
                        tally.other_status[sent.status_code] = tally.other_status.get(sent.status_code, 0) + 1
            time.sleep(POLL * rng.uniform(0.5, 1.5))


def terminal_loop(path: Path, deadline: float, tally: Tally, seed: int) -> None:
    """A banker's terminal beside the pages: a random legal command of whoever acts now."""
    from ledger.books.session import Session
    from ledger.core import legal
    from ledger.core.command import Command
    from ledger.core.errors import BankError
    from ledger.interface.board.actions import words_of
    from ledger.core import grammar
    rng = random.Random(seed)
    s = Session.open(path)
    try:
        while time.monotonic() < deadline:
            time.sleep(TERMINAL)
            s.refresh()
            actions = legal.turn(s.state, s.rs).actions
            if not actions:
                continue
            action = rng.choice(actions)
            play = legal.play_now(s.state, s.rs, action.verb)
            found = list(legal.completions(s.state, s.rs, play, action.args[0] if action.args else None)) \
                if play else []
            if not found:
                continue
            cmd = Command(action.verb, {k: v if v is True else str(v) for k, v in rng.choice(found).items()})
            text = " ".join(words_of(grammar.verbs_of(s.rs)[cmd.verb], cmd))
            try:
                s.execute(cmd, text)
                tally.terminal_done += 1
            except BankError:
                tally.terminal_refused += 1   # the pages moved the game on between the look and the write
    finally:
        s.close()


def check(path: Path, tally: Tally) -> tuple[int, int, int, list[str]]:
    """(lost, doubled, stale, audit problems) from the ledger against what the pages were told."""
    from ledger.books.audit import audit
    from ledger.books.session import Session
    conn = sqlite3.connect(str(path))
    rows = {i: (by, status, verb) for i, by, status, verb in
            conn.execute("select id, entered_by, status, verb from commands")}
    conn.close()
    # a form decided after command N is recorded as command N + 1, entered by its holder, or not at all
    lost = sum(1 for who, after in tally.told if rows.get(after + 1, ("",))[0] != who)
    expected = {after + 1 for _who, after in tally.told}
    doubled = len(tally.told) - len(expected)
    # a page's command that no page was told of right after the command it was decided after: one
    # recorded although the game had moved on (or a replayed form recorded again)
    stale = sum(1 for i, (by, _status, _verb) in rows.items() if by != "terminal" and i not in expected)
    s = Session.open(path)
    try:
        problems = audit(s)[0]
    finally:
        s.close()
    return lost, doubled, stale, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="how long the pages play (default 600)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import uvicorn

    from ledger.books.session import Session
    from ledger.interface.board import links
    from ledger.interface.board.app import create_app
    from ledger.interface.board.reading import Board
    from ledger.interface.board.serve import listen
    from ledger.interface.board.table import Table, Writer

    folder = Path(tempfile.mkdtemp(prefix="table-load-"))
    path = folder / "load.db"
    Session.new(path, "1830", PLAYERS, {}).close()
    board, writer = Board(path), Writer(path)
    tokens = writer.worker.submit(links.issue, writer.session, True).result()
    writer.hashes = writer.worker.submit(writer.session.store.link_hashes).result()
    app = create_app(board, Table(board, writer))
    sock = listen("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)

    tally = Tally()
    deadline = time.monotonic() + args.seconds
    workers = [threading.Thread(target=page_loop, args=(base, who, token, deadline, tally, args.seed + i))
               for i, (who, token) in enumerate(tokens.items())]
    workers.append(threading.Thread(target=terminal_loop, args=(path, deadline, tally, args.seed + 99)))
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    server.should_exit = True
    thread.join(10)
    board.close()
    writer.close()

    lost, doubled, stale, problems = check(path, tally)
    conn = sqlite3.connect(str(path))
    commands = conn.execute("select count(*) from commands").fetchone()[0]
    last = conn.execute("select text from commands order by id desc limit 1").fetchone()[0]
    conn.close()
    lat = sorted(tally.latency)
    p95 = lat[min(len(lat) - 1, int(len(lat) * 0.95))] if lat else float("nan")
    print(f"{len(tokens)} pages and a terminal for {args.seconds:g} s on {path}")
    print(f"actions recorded from the pages: {len(tally.told)}; refused as stale (the game had moved on): "
          f"{tally.refused_stale}; refused by the rules: {tally.refused_rules}; other answers: "
          f"{tally.other_status or 'none'}")
    print(f"terminal commands: {tally.terminal_done} recorded, {tally.terminal_refused} refused; "
          f"{commands} rows in the ledger, the last: {last}")
    if lat:
        print(f"action latency (POST and the page after it): p50 {statistics.median(lat) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms over {len(lat)} actions")
    print(f"lost {lost}, doubled {doubled}, stale {stale}; audit: "
          f"{'clean' if not problems else '; '.join(problems[:5])}")
    return 0 if not (lost or doubled or stale or problems) else 1


if __name__ == "__main__":
    sys.exit(main())
