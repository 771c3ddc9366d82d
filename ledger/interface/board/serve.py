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


def announce(game: Path, host: str, port: int, out: TextIO, last: bool = True) -> str:
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
    if last:
        print("Ctrl-C stops it.", file=out, flush=True)
    return url


def qr_code(url: str, out: TextIO) -> None:
    import segno
    # compact: two rows of modules a line, in half blocks, so it fits a terminal
    segno.make(url, error="m").terminal(out=out, compact=True)


def serve(game: str | Path, host: str | None, port_text: str | None, out: TextIO = sys.stdout,
          table: bool = False, new_links: bool = False) -> None:
    """Serve the board of `game` until interrupted; with `table`, also each player's and the banker's
    pages behind their private links (new ones when the game has none yet, or `new_links`)."""
    import uvicorn

    from ledger.interface.board.app import create_app
    from ledger.interface.board.guard import server_options
    from ledger.interface.board.reading import Board
    if new_links and not table:
        raise CommandError("--new-links renews the table's links: use it with --table",
                           "bank serve --table --new-links")
    host = host or DEFAULT_HOST
    port = port_number(port_text)
    board = Board(game)  # a game that does not read fails here, before anything listens
    writer = seated = None
    try:
        if table:
            from ledger.interface.board.table import Table
            writer, tokens = open_table(game, new_links)
            seated = Table(board, writer)
        sock = listen(host, port)
    except BaseException:
        board.close()
        if writer:
            writer.close()
        raise
    try:
        url = announce(Path(game), host, sock.getsockname()[1], out, last=not table)
        if table:
            announce_table(writer, tokens, host, url, out)
        config = uvicorn.Config(create_app(board, seated), log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=GRACE, **server_options())
        server = uvicorn.Server(config)
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            pass  # Ctrl-C is how a board is stopped
    finally:
        sock.close()
        board.close()
        if writer:
            writer.close()
    print("The board is no longer served.", file=out, flush=True)


def open_table(game, renew: bool):
    """The writer's session and the links' tokens (None when the game's links stand)."""
    from ledger.interface.board import links
    from ledger.interface.board.table import Writer
    writer = Writer(game)
    try:
        tokens = writer.worker.submit(links.issue, writer.session, renew).result()
        writer.hashes = writer.worker.submit(writer.session.store.link_hashes).result()
    except BaseException:
        writer.close()
        raise
    return writer, tokens


def announce_table(writer, tokens: dict | None, host: str, url: str, out: TextIO) -> None:
    """Each holder's private link and its QR code, or, when the links stand, that they do; and plainly
    whether phones can reach them."""
    from ledger.interface.board.actions import who_label
    if is_loopback(host):
        print(f"Listening on {host} only: phones cannot open these links. To serve the table's network, "
              f"start it with --host 0.0.0.0 (or this machine's address on it).", file=out)
    else:
        print(f"Serving the table's network on {host}: anyone on it can read the board; only a link's "
              f"holder can act, and only as themselves.", file=out)
    if tokens is None:
        made = writer.worker.submit(writer.session.store.links_made).result()
        print(f"The private links made {made} still act: each player keeps theirs. "
              f"'bank serve --table --new-links' makes new ones (the old ones end).", file=out)
        print("Ctrl-C stops it.", file=out, flush=True)
        return
    print("Private links (each acts only for its holder; keep them private):", file=out)
    for who, token in tokens.items():
        link = f"{url}t/{token}"
        print(f"\n{who_label(who).capitalize() if who == 'banker' else who_label(who)}: {link}", file=out)
        if not is_loopback(host):
            qr_code(link, out)
    print("\nCtrl-C stops it.", file=out, flush=True)
