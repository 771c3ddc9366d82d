"""What the board's server does with idle, slow and too many connections (issue 36).

uvicorn alone times out only a keep-alive connection after an answer: a socket that connects and
sends nothing, or sends its request a byte at a time, is held for ever, and its `limit_concurrency`
counts every open connection, idle ones too, so a few dozen idle sockets made it answer 503 to
everyone. `Guarded` is uvicorn's own h11 protocol with, per connection:

- a deadline for the request's head (line and headers): HEAD seconds from the connection, or from
  the end of the previous answer on a kept-alive one, however slowly its bytes arrive; then one for
  its body: BODY seconds from the end of the head. Past either the connection is closed. While the
  request is answered there is none: the event stream (/events) is open for as long as its page;
- a deadline for a client that stops reading what it is sent: WRITE seconds with the send buffer
  full, then it is closed;
- a cap per client address (an IPv6 client by its /64): PER_ADDRESS connections at once (a browser
  opens at most six to one server, an event stream being one of them; two browsers and a terminal
  fit); one more from that address is answered 503 and closed at once, other addresses unaffected;
- a cap on all connections, MOST: at it, a newcomer takes the place of the oldest connection still
  waiting for a request's head (an idle or slow one), or else of the oldest event stream of the
  address holding the most connections (its page reconnects by itself), when that address holds
  more than the newcomer's; only when neither is found is it refused.

So idle sockets cost their sender its own connections and last HEAD seconds, and however many
there are, from however many addresses, a phone's page is answered.
"""

from __future__ import annotations

import asyncio
import ipaddress

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

HEAD = 5.0          # seconds for a request's line and headers
BODY = 10.0         # seconds for its body (a form is at most 4 KiB)
WRITE = 30.0        # seconds a client may leave what it is sent unread
KEEP_ALIVE = 5      # seconds an idle kept-alive connection stays open (uvicorn's timeout_keep_alive)
PER_ADDRESS = 16    # connections at once from one address
MOST = 256          # connections at once in all
MOST_HEAD = 16 * 1024   # bytes of a request's line and headers (h11's limit; past it, 400)
STREAM = "/events"

_REFUSED = b"too many connections from this address: close some pages, or wait a moment\n"
REFUSAL = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\nretry-after: 5\r\n"
           b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_REFUSED), _REFUSED))


def client_key(transport) -> str:
    """Whom a connection counts against: its address; an IPv6 one by its /64 (one machine may hold a
    whole /64), an IPv4 one mapped into IPv6 as itself."""
    address = (get_remote_addr(transport) or ("",))[0]
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return address


class Guard:
    """One server's open connections, oldest first, and how many each address holds."""

    def __init__(self, per_address: int = PER_ADDRESS, most: int = MOST):
        self.per_address, self.most = per_address, most
        self.open: dict[Guarded, None] = {}     # insertion-ordered: the oldest first
        self.held: dict[str, int] = {}
        self.refused = self.timed_out = self.replaced = 0

    def admit(self, conn: Guarded) -> bool:
        key = conn.key
        if self.held.get(key, 0) >= self.per_address:
            self.refused += 1
            return False
        if len(self.open) >= self.most:
            victim = self.victim(key)
            if victim is None:
                self.refused += 1
                return False
            self.replaced += 1
            victim.drop()
        self.open[conn] = None
        self.held[key] = self.held.get(key, 0) + 1
        return True

    def victim(self, key: str) -> Guarded | None:
        for conn in self.open:
            if conn.phase == "head":
                return conn
        most = max(self.held, key=self.held.get)
        if self.held[most] > self.held.get(key, 0) + 1:
            for conn in self.open:
                if conn.key == most and conn.phase == "stream":
                    return conn
        return None

    def leave(self, conn: Guarded) -> None:
        if conn in self.open:
            del self.open[conn]
            left = self.held[conn.key] - 1
            if left:
                self.held[conn.key] = left
            else:
                del self.held[conn.key]


class Guarded(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and caps above (`guarded` gives it its Guard)."""

    guard: Guard

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key = ""
        self.phase: str | None = None
        self.admitted = False
        self.timer: asyncio.TimerHandle | None = None
        self.stalled: asyncio.TimerHandle | None = None

    # -- the connection's life

    def connection_made(self, transport) -> None:
        self.key = client_key(transport)
        if not self.guard.admit(self):
            self.transport = transport
            transport.write(REFUSAL)
            transport.close()
            return
        self.admitted = True
        super().connection_made(transport)
        self.watch()

    def connection_lost(self, exc) -> None:
        if not self.admitted:
            return
        self.guard.leave(self)
        self.phase = None
        self.cancel()
        if self.stalled is not None:
            self.stalled.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        super().data_received(data)
        self.watch()

    def eof_received(self):
        return None if self.admitted else False

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.watch()

    def drop(self) -> None:
        """Closed by the server: out of the count at once (the loop tells the protocol later)."""
        self.guard.leave(self)
        self.phase = None
        self.cancel()
        if not self.transport.is_closing():
            self.transport.close()

    # -- the deadlines

    def watch(self) -> None:
        """What the connection waits for now; a new deadline whenever that changes."""
        if self.transport.is_closing():
            self.cancel()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            phase = "head"
        elif state is h11.SEND_BODY:
            phase = "body"
        elif self.scope is not None and self.scope.get("path") == STREAM:
            phase = "stream"
        else:
            phase = "answer"
        if phase != self.phase:
            self.phase = phase
            self.cancel()
            limit = HEAD if phase == "head" else BODY if phase == "body" else None
            if limit is not None:
                self.timer = self.loop.call_later(limit, self.expire)

    def expire(self) -> None:
        self.timer = None
        if not self.transport.is_closing():
            self.guard.timed_out += 1
            self.drop()

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.stalled is None:
            self.stalled = self.loop.call_later(WRITE, self.unread)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.stalled is not None:
            self.stalled.cancel()
            self.stalled = None

    def unread(self) -> None:
        self.stalled = None
        if not self.transport.is_closing():
            self.guard.timed_out += 1
            self.drop()
            self.transport.abort()   # what is queued for it will not be read


def guarded(guard: Guard | None = None) -> type[Guarded]:
    """A protocol class for uvicorn's Config(http=...), its connections counted by `guard`."""
    return type("Guarded", (Guarded,), {"guard": guard or Guard()})


def server_options(guard: Guard | None = None) -> dict:
    """uvicorn's Config options for the board's server: this protocol, its keep-alive, no 503 for
    open connections (they are capped here, by address), and a request head of at most 16 KiB."""
    return {"http": guarded(guard), "timeout_keep_alive": KEEP_ALIVE, "limit_concurrency": None,
            "h11_max_incomplete_event_size": MOST_HEAD}
