"""A server no one can shut (issue 36): idle and slow connections are dropped, each address has a cap,
and a phone's page is answered however many there are.

The first test runs `bank serve --table` as the banker does (its own process, its own limits): 200
connections that send nothing, half a request line or headers a line a second, from twenty source
addresses, and more from one address than it may hold; a phone's page must be answered 200 within a
second throughout, its event stream must stay open, and the server must close every idle one within
its header timeout. The others run the same server options in this process with the limits made
small, for what takes longer to see at full size: a slow body, an idle keep-alive, a client that reads
nothing it is sent, the cap on all connections (a newcomer takes the place of an idle one, or of a
stream of the address holding most).

Every connection is to 127.0.0.1 from a loopback source address (Linux routes all of 127/8 to this
machine).
"""

from __future__ import annotations

import re
import select
import socket
import sys
import time
from contextlib import contextmanager

import pytest
from browsers import served_app
from cli_driver import bank_serve
from table_rig import game_file

from ledger.interface.board import guard
from ledger.interface.board import serve as serving
from ledger.interface.board.app import create_app
from ledger.interface.board.reading import Board

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="loopback source addresses")


class Raw:
    """A raw TCP connection from `source`, which has sent `first` (maybe nothing)."""

    def __init__(self, port: int, source: str = "127.0.0.1", first: bytes = b""):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        self.opened = time.monotonic()
        self.closed_after: float | None = None
        self.received = b""
        if first:
            self.sock.sendall(first)

    def poll(self) -> bool:
        """Whether the server has closed it (reading what it sent)."""
        while self.closed_after is None and select.select([self.sock], [], [], 0)[0]:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                self.closed_after = time.monotonic() - self.opened
            self.received += data
        return self.closed_after is not None

    def send(self, data: bytes) -> None:
        try:
            self.sock.send(data)
        except OSError:
            pass

    def close(self) -> None:
        self.sock.close()


def wait_closed(conns: list[Raw], seconds: float, trickle: list[Raw] = ()) -> None:
    """Poll until all are closed or `seconds` pass, sending one header line a second on `trickle`."""
    deadline, next_line = time.monotonic() + seconds, time.monotonic() + 1
    while time.monotonic() < deadline and not all(c.poll() for c in conns):
        if time.monotonic() >= next_line:
            next_line += 1
            for c in trickle:
                if c.closed_after is None:
                    c.send(b"X-Slow: a\r\n")
        time.sleep(0.02)


def phone_get(port: int, path: str = "/", source: str = "127.0.0.1") -> tuple[int, float]:
    """A phone's GET on a new connection: its status (0 when refused) and how long it took."""
    start = time.monotonic()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, time.monotonic() - start


def open_stream(port: int, source: str = "127.0.0.1") -> Raw:
    """A page's event stream, open and past its first event."""
    stream = Raw(port, source, b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    deadline = time.monotonic() + 5
    while b"event: version" not in stream.received:
        assert not stream.poll() and time.monotonic() < deadline, f"no event: {stream.received!r}"
        time.sleep(0.02)
    assert stream.received.startswith(b"HTTP/1.1 200")
    return stream


@contextmanager
def bank_serve_table(db):
    """`bank serve --table` on `db` in its own process (cli_driver.bank_serve): the port it listens on."""
    with bank_serve(db, "--table", wait=30) as served:
        yield int(re.search(r"http://127\.0\.0\.1:(\d+)/", served.printed[0]).group(1))


def test_200_idle_connections_do_not_shut_the_phones_out(tmp_path):
    with bank_serve_table(game_file(tmp_path)) as port:
        stream = open_stream(port)
        start = time.monotonic()
        idle = []
        for i in range(200):   # ten from each of twenty addresses
            first = b"" if i % 2 == 0 else b"GET / HT" if i % 4 == 1 else b"GET / HTTP/1.1\r\nHost: x\r\n"
            idle.append(Raw(port, f"127.0.0.{2 + i % 20}", first))
        slow_headers = [c for i, c in enumerate(idle) if i % 4 == 3]
        one_address = [Raw(port, "127.0.0.250") for _ in range(guard.PER_ADDRESS + 14)]
        try:
            time.sleep(0.3)
            # one address past its cap: refused at once (a 503 or a close), the others held
            refused = [c for c in one_address if c.poll()]
            assert len(refused) == 14
            assert all(c.received in (b"", *[guard.REFUSAL[:n] for n in range(1, len(guard.REFUSAL) + 1)])
                       for c in refused)
            held = [c for c in one_address if c not in refused]
            assert not any(c.poll() for c in idle)
            # a phone is answered, at once, all the while
            for _ in range(4):
                status, took = phone_get(port)
                assert status == 200 and took < 1.0, (status, took)
                status, took = phone_get(port, "/status.json", "127.0.0.99")
                assert status == 200 and took < 1.0, (status, took)
                wait_closed(idle, 0.4, slow_headers)
            # every idle or slow one is closed within the header timeout, however slowly it sends
            wait_closed(idle + held, start + guard.HEAD + 2 - time.monotonic(), slow_headers)
            late = [c for c in idle + held if c.closed_after is None]
            assert not late, f"{len(late)} idle connections still open {guard.HEAD + 2:g} s on"
            assert all(guard.HEAD - 0.5 < c.closed_after < guard.HEAD + 2 for c in idle + held)
            # the page's stream is not an idle connection: it is open, and the address may connect again
            assert not stream.poll()
            assert phone_get(port, "/", "127.0.0.250")[0] == 200
        finally:
            for c in [stream, *idle, *one_address]:
                c.close()


# --------------------------------------------------------------------------- small limits, in process

class Small(int):
    """The port (an int), and the server's Guard for its counts."""

    def __new__(cls, port: int, counts: guard.Guard):
        self = super().__new__(cls, port)
        self.counts = counts
        return self


@pytest.fixture
def small(tmp_path, monkeypatch):
    """The board's server options in a thread of this process, with short timeouts, 4 connections an
    address and 12 in all; yields its port."""
    monkeypatch.setattr(guard, "HEAD", 1.0)
    monkeypatch.setattr(guard, "BODY", 1.0)
    monkeypatch.setattr(guard, "KEEP_ALIVE", 1)
    board = Board(game_file(tmp_path))
    counts = guard.Guard(per_address=4, most=12)
    try:
        with served_app(create_app(board), "the server", sock=serving.listen("127.0.0.1", 0),
                        **guard.server_options(counts)) as base:
            yield Small(int(base.rsplit(":", 1)[1]), counts)
    finally:
        board.close()


def test_a_slow_body_and_an_idle_keep_alive_are_closed_and_a_stream_is_not(small):
    port = small
    body = Raw(port, "127.0.0.2", b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\na=b")
    kept = Raw(port, "127.0.0.3", b"GET /status.json HTTP/1.1\r\nHost: x\r\n\r\n")
    stream = open_stream(port, "127.0.0.4")
    wait_closed([body, kept], 2.5)
    assert body.closed_after is not None and 0.8 < body.closed_after < 2.5
    assert kept.received.startswith(b"HTTP/1.1 200")   # answered, then closed once idle
    assert kept.closed_after is not None and 0.8 < kept.closed_after < 2.5
    time.sleep(max(0.0, stream.opened + 2.0 - time.monotonic()))   # twice the header timeout
    assert not stream.poll()
    for c in (body, kept, stream):
        c.close()


def test_at_the_cap_a_newcomer_takes_an_idle_place_then_a_stream_of_the_address_holding_most(small, monkeypatch):
    port = small
    monkeypatch.setattr(guard, "HEAD", 5.0)   # none gives way to its timeout meanwhile, however slow the machine
    idle = [Raw(port, f"127.0.0.{2 + i % 4}") for i in range(12)]   # three from each of four: all places
    time.sleep(0.2)
    assert not any(c.poll() for c in idle)
    assert phone_get(port)[0] == 200
    wait_closed(idle[:1], 0.5)
    assert idle[0].closed_after is not None   # the oldest idle one gave way, the others did not
    assert not any(c.poll() for c in idle[1:])
    for c in idle:
        c.close()
    time.sleep(0.2)

    streams = [open_stream(port, f"127.0.0.{10 + i // 4}") for i in range(12)]   # four from each of three
    assert phone_get(port)[0] == 200   # the oldest stream of an address holding most gave way
    time.sleep(0.1)
    closed = [s for s in streams if s.poll()]
    assert closed == [streams[0]]
    for c in streams:
        c.close()
    time.sleep(0.2)
    # one address past its own cap is refused at once; the others are not
    mine = [Raw(port, "127.0.0.20") for _ in range(5)]
    time.sleep(0.2)
    assert [c.poll() for c in mine] == [False] * 4 + [True]
    assert mine[4].received in (b"", guard.REFUSAL)   # closed within the 0.2 s above
    assert phone_get(port, "/", "127.0.0.20")[0] in (0, 503)
    assert phone_get(port, "/", "127.0.0.21")[0] == 200
    for c in mine:
        c.close()


def test_a_client_that_reads_nothing_it_is_sent_is_closed(small, monkeypatch):
    monkeypatch.setattr(guard, "WRITE", 1.0)
    monkeypatch.setattr(guard, "HEAD", 30.0)   # it sends its requests at once: only its reading is slow
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", small))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 200)   # pipelined: megabytes of answers, never read
    deadline = time.monotonic() + 8
    while not small.counts.timed_out and time.monotonic() < deadline:
        time.sleep(0.1)
    sock.close()
    assert not small.counts.open and small.counts.timed_out == 1, "a client reading nothing was held"
