#!/usr/bin/env python3
"""Idle and slow clients against `bank serve --table` (issue 36): can they shut the phones out?

    python bench/slow_clients.py                         # 200 sockets from 20 addresses, 50 from one
    python bench/slow_clients.py --idle 400 --addresses 40 --flood 100 --seconds 15
    python bench/slow_clients.py --src /tmp/old-checkout # the same against another ledger/

A new 1830 game is served by `bank serve --table` in its own process, on 127.0.0.1 and a free port.
Then, at once:

- IDLE raw TCP connections from ADDRESSES loopback source addresses (127.0.0.2 and up), of four
  kinds: silent (connect and send nothing), a partial request line ("GET / HT"), headers sent one
  short line a second and never ended, and a POST whose body comes ten bytes a second;
- FLOOD silent connections from one more address (127.0.0.250), more than one address may hold;
- a phone on 127.0.0.1: the board's event stream kept open, as a page does, and a GET of the board
  page on a new connection every 0.25 s, each timed.

For SECONDS it counts, for each kind: connections opened, closed at once (a 503 or a close within
half a second: refused over an address's cap, or replaced by a newcomer at the cap on all), closed
by the server later (and after how long: min / median / max), still open at the end; and for the
phone: its answers by status, their latency (p50 / p95 / max), and whether its
event stream is still open. It exits 1 when the phone got anything but 200, waited a second or
more, or lost its stream, or when a slow connection was still open past the server's HEAD and BODY
timeouts and a second; 0 otherwise. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("silent", "partial line", "slow headers", "slow body")


def new_game(folder: Path, src: Path) -> Path:
    path = folder / "slow.db"
    code = ("import sys; from ledger.books.session import Session; "
            "Session.new(sys.argv[1], '1830', ['Ann', 'Ben', 'Cy'], {}).close()")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, env=env_for(src), cwd=folder)
    return path


def env_for(src: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(src)}


def start_server(game: Path, src: Path):
    """`bank serve --table --port 0`: the process and its port."""
    proc = subprocess.Popen([sys.executable, "-m", "ledger", "serve", "--game", str(game), "--table", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=game.parent,
                            env=env_for(src))
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout] + [lines.put(None)], daemon=True).start()
    printed = []
    while not printed or "Ctrl-C" not in printed[-1]:
        line = lines.get(timeout=30)
        if line is None:
            raise SystemExit(f"bank serve stopped: {''.join(printed)} {proc.stderr.read()}")
        printed.append(line)
    port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", printed[0]).group(1))
    return proc, port


class Slow:
    """One raw connection of one kind, and what became of it."""

    def __init__(self, kind: str, source: str, port: int):
        self.kind, self.source = kind, source
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((source, 0))
        self.opened = time.monotonic()
        self.closed_after: float | None = None
        self.answer = b""
        self.sent = 0
        try:
            self.sock.connect(("127.0.0.1", port))
        except OSError:
            self.closed_after = 0.0
            return
        self.sock.setblocking(False)
        if kind == "partial line":
            self.send(b"GET / HT")
        elif kind == "slow headers":
            self.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        elif kind == "slow body":
            self.send(b"POST /t/0 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded"
                      b"\r\nContent-Length: 4000\r\n\r\n")

    def send(self, data: bytes) -> None:
        try:
            self.sock.send(data)
            self.sent += 1
        except OSError:
            pass

    def trickle(self) -> None:
        """The next slow bytes, for the kinds that send them."""
        if self.kind == "slow headers":
            self.send(f"X-{self.sent}: a\r\n".encode())
        elif self.kind == "slow body":
            self.send(b"a=" + b"b" * 8)

    def read(self, now: float) -> bool:
        """Read what the server sent; True once it closed the connection."""
        try:
            data = self.sock.recv(4096)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if data:
            self.answer += data
            return False
        self.closed_after = now - self.opened
        return True

    @property
    def refused(self) -> bool:
        return self.closed_after is not None and (self.closed_after < 0.5 or self.answer.startswith(b"HTTP/1.1 503"))


def watch(conns: list[Slow], until: float, tick: float = 1.0) -> None:
    """Wait for the server to close them, sending the slow kinds' bytes every `tick` seconds."""
    selector = selectors.DefaultSelector()
    for c in conns:
        if c.closed_after is None:
            selector.register(c.sock, selectors.EVENT_READ, c)
    next_tick = time.monotonic() + tick
    while selector.get_map() and time.monotonic() < until:
        for key, _ in selector.select(timeout=0.05):
            if key.data.read(time.monotonic()):
                selector.unregister(key.fileobj)
        if time.monotonic() >= next_tick:
            next_tick += tick
            for key in list(selector.get_map().values()):
                key.data.trickle()
    selector.close()


class Phone:
    """A page on 127.0.0.1: its event stream open, and a GET of the board every PERIOD seconds."""

    PERIOD = 0.25

    def __init__(self, port: int):
        self.port = port
        self.latency: list[float] = []
        self.status: dict[str, int] = {}
        self.stream_events = 0
        self.stream_closed_at: float | None = None
        self.stop = threading.Event()

    def get(self) -> None:
        start = time.perf_counter()
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                head = b""
                while b"\r\n" not in head:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    head += chunk
                while s.recv(65536):
                    pass
            status = head.split(b" ", 2)[1].decode() if head.startswith(b"HTTP/") else "closed"
        except OSError as exc:
            status = type(exc).__name__
        self.latency.append(time.perf_counter() - start)
        self.status[status] = self.status.get(status, 0) + 1

    def pages(self) -> None:
        while not self.stop.is_set():
            self.get()
            self.stop.wait(self.PERIOD)

    def stream(self) -> None:
        started = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                while not self.stop.is_set():
                    try:
                        chunk = s.recv(4096)
                    except TimeoutError:
                        continue
                    if not chunk:
                        break
                    self.stream_events += chunk.count(b"event: version")
                else:
                    return
        except OSError:
            pass
        self.stream_closed_at = time.monotonic() - started


def spread(count: int, addresses: int) -> list[tuple[str, str]]:
    """(kind, source address) for `count` connections: half silent, a quarter with a partial line,
    the rest slow headers and slow bodies, dealt round the addresses."""
    kinds = [KINDS[0]] * (count // 2) + [KINDS[1]] * (count // 4)
    kinds += [KINDS[2]] * ((count - len(kinds)) * 3 // 5)
    kinds += [KINDS[3]] * (count - len(kinds))
    return [(kind, f"127.0.0.{2 + i % addresses}") for i, kind in enumerate(kinds)]


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def report(label: str, conns: list[Slow]) -> None:
    refused = [c for c in conns if c.refused]
    later = [c.closed_after for c in conns if c.closed_after is not None and not c.refused]
    still = sum(c.closed_after is None for c in conns)
    after = (f"after {min(later):.1f} / {statistics.median(later):.1f} / {max(later):.1f} s" if later else "")
    print(f"  {label:<22} {len(conns):>5} opened  {len(refused):>5} closed at once  "
          f"{len(later):>5} closed later {after:<26} {still:>5} still open")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--idle", type=int, default=200, help="slow connections from several addresses")
    parser.add_argument("--addresses", type=int, default=20, help="how many source addresses they come from")
    parser.add_argument("--flood", type=int, default=50, help="silent connections from one more address")
    parser.add_argument("--seconds", type=float, default=12.0, help="how long to watch")
    parser.add_argument("--src", type=Path, default=ROOT, help="the checkout whose ledger/ is served")
    args = parser.parse_args()
    if not 1 <= args.addresses <= 240:
        parser.error("--addresses is from 1 to 240")

    sys.path.insert(0, str(ROOT))
    from ledger.interface.board import guard   # the limits, as this checkout has them (HEAD for the verdict)
    with tempfile.TemporaryDirectory() as folder:
        proc, port = start_server(new_game(Path(folder), args.src.resolve()), args.src.resolve())
        phone = Phone(port)
        try:
            threads = [threading.Thread(target=phone.stream, daemon=True)]
            threads[0].start()
            time.sleep(0.3)
            start = time.monotonic()
            slow = [Slow(kind, source, port) for kind, source in spread(args.idle, args.addresses)]
            flood = [Slow("silent", "127.0.0.250", port) for _ in range(args.flood)]
            opened = time.monotonic() - start
            threads.append(threading.Thread(target=phone.pages, daemon=True))
            threads[1].start()
            watch(slow + flood, start + args.seconds)
            phone.stop.set()
            for t in threads:
                t.join(5)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
            for c in slow + flood:
                c.sock.close()

    print(f"bank serve --table from {args.src}" + ("" if args.src.resolve() != ROOT else
          f"; its limits: head {guard.HEAD:g} s, body {guard.BODY:g} s, {guard.PER_ADDRESS} connections an "
          f"address, {guard.MOST} in all"))
    print(f"{len(slow) + len(flood)} connections opened in {opened:.2f} s; watched for {args.seconds:g} s")
    for kind in KINDS:
        report(kind, [c for c in slow if c.kind == kind])
    report(f"all, {args.addresses} addresses", slow)
    report("one address (flood)", flood)
    print(f"  phone: {len(phone.latency)} page GETs, status {dict(sorted(phone.status.items()))}, latency "
          f"p50 {quantile(phone.latency, 0.5) * 1000:.0f} ms, p95 {quantile(phone.latency, 0.95) * 1000:.0f} ms, "
          f"max {max(phone.latency, default=float('nan')) * 1000:.0f} ms")
    print(f"  phone's event stream: {phone.stream_events} version event(s), "
          + ("still open" if phone.stream_closed_at is None else f"closed after {phone.stream_closed_at:.1f} s"))
    late = [c for c in slow + flood if c.closed_after is None or c.closed_after > guard.HEAD + guard.BODY + 1]
    bad = (set(phone.status) != {"200"} or max(phone.latency, default=9) >= 1.0
           or phone.stream_closed_at is not None or late)
    if not bad:
        print("verdict: the phone was answered throughout")
    elif late and set(phone.status) == {"200"}:
        print(f"verdict: FAILED ({len(late)} slow connection(s) held past {guard.HEAD + guard.BODY + 1:g} s)")
    else:
        print("verdict: FAILED: the phone was not answered as it should be")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
