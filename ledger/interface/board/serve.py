"""Listening: the socket, the address a phone types (and its QR code), the web server.

The socket is bound here, before the server starts, so that `--port 0` is answered with the port
the system picked and a port in use is a one-line error rather than a server's traceback.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path
from typing import TextIO

from ledger.core.errors import CommandError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8018
# After Ctrl-C the server waits this long for open pages' event streams before closing them.
GRACE = 1


def port_number(text: str | None) -> int:
    if text is None:
        return DEFAULT_PORT
    try:
        port = int(text)
    except ValueError:
        raise CommandError(f"the port must be a number from 0 to 65535, got '{text}'") from None
    if not 0 <= port <= 65535:
        raise CommandError(f"the port must be a number from 0 to 65535, got {port}")
    return port


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (IPv4 or IPv6, by the address given)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CommandError(f"cannot listen on '{host}': {exc.strerror}", "give an address such as 127.0.0.1 or "
                           "0.0.0.0") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(64)
    except OSError as exc:
        sock.close()
        hint = "choose another with --port (0 picks a free one)"
        raise CommandError(f"cannot listen on {host} port {port}: {exc.strerror or exc}", hint) from None
    sock.set_inheritable(True)
    return sock


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_any(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on its network, for the URL the players type. The routing table
    says which interface reaches beyond this machine: connecting a UDP socket sends nothing, it
    only picks the local address the system would use."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address (RFC 5737): no packet is sent
            address = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback and not ipaddress.ip_address(address).is_unspecified:
            return address
    except OSError:
        pass
    try:  # no route at all: whatever the host name resolves to, if it is not this machine only
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not ipaddress.ip_address(sockaddr[0]).is_loopback:
                return sockaddr[0]
    except OSError:
        pass
    return None


def url_of(host: str, port: int) -> str:
    if ":" in host:  # an IPv6 address goes in brackets
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def announce(game: Path, host: str, port: int, out: TextIO) -> str:
    """Print where the board is served (and, when it is shared beyond this machine, a QR code of the
    address for the players' phones). Returns the URL."""
    shown = host
    if is_any(host):
        shown = lan_address() or ("::1" if ":" in host else DEFAULT_HOST)
    url = url_of(shown, port)
    print(f"The board of {game} (read-only): {url}", file=out)
    if is_any(host) and is_loopback(shown):
        print("No network address was found: only this machine can open the board.", file=out)
    elif not is_loopback(shown):
        print("Players on the same network open that address, or scan this code:", file=out)
        qr_code(url, out)
    print("Ctrl-C stops it.", file=out, flush=True)
    return url


def qr_code(url: str, out: TextIO) -> None:
    import segno
    # compact: two rows of modules a line, in half blocks, so it fits a terminal
    segno.make(url, error="m").terminal(out=out, compact=True)


def serve(game: str | Path, host: str | None, port_text: str | None, out: TextIO = sys.stdout) -> None:
    """Serve the board of `game` until interrupted."""
    import uvicorn

    from ledger.interface.board.app import create_app
    from ledger.interface.board.reading import Board
    host = host or DEFAULT_HOST
    port = port_number(port_text)
    board = Board(game)  # a game that does not read fails here, before anything listens
    sock = listen(host, port)
    try:
        announce(Path(game), host, sock.getsockname()[1], out)
        config = uvicorn.Config(create_app(board), log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=GRACE)
        server = uvicorn.Server(config)
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            pass  # Ctrl-C is how a board is stopped
    finally:
        sock.close()
        board.close()
    print("The board is no longer served.", file=out, flush=True)
