#!/usr/bin/env python3
"""How soon the other phones show a command (issue 34): an example game played through the
table's pages over HTTP (`bank serve --table`'s app under uvicorn on 127.0.0.1), while every
other page listens as a phone's script does: it holds /events open and, at each version it hears,
fetches its fragment. For each command, the time from the acting page's POST being sent (before
the commit: an upper bound) to each other page holding a fragment whose latest line is that
command; and the size of what an update carries.

    python bench/table_live.py                 # 1830's first 120 commands, one every 0.3 s
    python bench/table_live.py --title 1801 --first 300 --pace 0.2

Prints p50/p95/max over every (command, other page), the fragment's size, and exits 1 when the
p95 is over 300 ms.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests"), str(ROOT / "tests" / "table")]

from phones import GAMES, matching, new_game  # noqa: E402
from table_rig import Forms  # noqa: E402
from transcripts import lines_of  # noqa: E402

from ledger import catalog  # noqa: E402
from ledger.books.session import Session  # noqa: E402
from ledger.core import engine, legal  # noqa: E402

LATEST = re.compile(r'data-field="latest">.*?\(#(\d+),', re.S)
GOAL = 0.300


class Listener(threading.Thread):
    """A phone's page: /events held open; its fragment fetched at every version announced. Keeps,
    for each command id, when a fragment naming it as the latest first arrived."""

    def __init__(self, base: str, token: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.base, self.token, self.stop = base, token, stop
        self.seen: dict[int, float] = {}
        self.sizes: list[int] = []
        self.ready = threading.Event()

    def run(self) -> None:
        import httpx
        try:
            with httpx.Client(base_url=self.base, timeout=30) as client, \
                    client.stream("GET", "/events", headers={"Accept": "text/event-stream"}) as events:
                self.ready.set()
                for line in events.iter_lines():
                    if self.stop.is_set():
                        return
                    if line.startswith("data:"):
                        self.fetch(client)
        except httpx.HTTPError:
            if not self.stop.is_set():
                raise

    def fetch(self, client) -> None:
        page = client.get(f"/t/{self.token}/fragment")
        self.sizes.append(int(page.headers.get("content-length") or len(page.content)))   # as sent
        found = LATEST.search(page.text)
        if found:
            self.seen.setdefault(int(found.group(1)), time.monotonic())


def serve(path: Path):
    import uvicorn

    from ledger.interface.board import links
    from ledger.interface.board.app import create_app
    from ledger.interface.board.reading import Board
    from ledger.interface.board.serve import listen
    from ledger.interface.board.table import Table, Writer

    board, writer = Board(path), Writer(path)
    tokens = writer.worker.submit(links.issue, writer.session, True).result()
    writer.hashes = writer.worker.submit(writer.session.store.link_hashes).result()
    app = create_app(board, Table(board, writer))
    sock = listen("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{sock.getsockname()[1]}", tokens, (server, thread, board, writer)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--title", default="1830", choices=sorted(GAMES), help="whose example game (default 1830)")
    ap.add_argument("--first", type=int, default=120, help="how many of its commands")
    ap.add_argument("--pace", type=float, default=0.3, help="seconds between two commands")
    args = ap.parse_args()
    import httpx

    lines = lines_of((ROOT / "examples" / f"{GAMES[args.title]}.txt").read_text(encoding="utf-8"))[: args.first + 1]
    path = Path(tempfile.mkdtemp(prefix="table-live-")) / "live.db"
    new_game(path, lines[0])
    base, tokens, running = serve(path)
    stop = threading.Event()
    listeners = {who: Listener(base, token, stop) for who, token in tokens.items()}
    for listener in listeners.values():
        listener.start()
        listener.ready.wait(10)
    reader = Session.open(path)
    sent: dict[int, tuple[float, str]] = {}   # command id -> (when its POST was sent, who sent it)
    skipped = 0
    try:
        with httpx.Client(base_url=base, timeout=30, follow_redirects=False) as client:
            for line in lines[1:]:
                reader.refresh()
                s, rs = reader.state, reader.rs
                cmd = catalog.parse_line(line)
                events = engine.decide(s, rs, cmd)
                player = legal.player_for(s, legal.actor_of_command(s, rs, cmd))
                who = f"player:{player}" if player is not None else "banker"
                fields = matching(s, rs, Forms(client.get(f"/t/{tokens[who]}").text), cmd, events)
                if fields is None or fields.get("kind") != "act":
                    # a deal or a turn handed on: entered as the banker's line (not what is timed)
                    who = "banker"
                    page = Forms(client.get(f"/t/{tokens[who]}").text)
                    form = next(f for f in page.forms if "line" in f["texts"])
                    fields = {**form["hidden"], "line": line}
                    skipped += 1
                began = time.monotonic()
                answer = client.post(f"/t/{tokens[who]}", data=fields)
                assert answer.status_code == 303, answer.text
                reader.refresh()
                sent[reader.head] = (began, who)
                time.sleep(args.pace)
    finally:
        reader.close()
        time.sleep(1)
        stop.set()
        server, thread, board, writer = running
        server.force_exit = True
        server.should_exit = True
        thread.join(10)
        board.close()
        writer.close()

    delays, missed = [], 0
    for command, (began, who) in sent.items():
        for holder, listener in listeners.items():
            if holder == who:
                continue
            if command in listener.seen:
                delays.append(listener.seen[command] - began)
            else:
                missed += 1   # a later command arrived first (its page was fetched after both)
    delays.sort()
    sizes = sorted(size for listener in listeners.values() for size in listener.sizes)
    p95 = delays[min(len(delays) - 1, int(len(delays) * 0.95))]
    print(f"{len(sent)} commands ({skipped} of them on the banker's line), {len(listeners) - 1} other pages each")
    print(f"shown on the other pages after the POST: p50 {statistics.median(delays) * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms over {len(delays)} ({missed} overtaken)")
    print(f"a fragment as sent (gzip): median {statistics.median(sizes) / 1024:.1f} KiB, max {sizes[-1] / 1024:.1f} KiB")
    return 0 if p95 <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
