"""The table's private links: one per player and one for the banker, each carrying a random token.

A token is 192 random bits (secrets), printed once in its link; the game file keeps only its sha256
(table_links), so neither a copy of the file nor its backup acts as anyone. `--new-links` draws new
tokens and the old ones end. A token that matches no stored digest acts as nobody: its page is the
read-only board.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from ledger.books.session import Session
from ledger.core.errors import LedgerCorrupt
from ledger.interface.board.actions import BANKER

TOKEN_BYTES = 24               # 192 bits; the issue asks for at least 128
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def holders(players: list[str]) -> list[str]:
    """Who gets a link, in the order they are printed: each player in seating order, then the banker."""
    return [f"player:{p}" for p in players] + [BANKER]


def issue(session: Session, renew: bool) -> dict[str, str] | None:
    """New tokens for everyone (who -> token), stored hashed in one write, when the game has none yet
    or `renew`; None when its links stand (they were printed when made, and cannot be shown again)."""
    if not renew:
        refuse_unsealed(session)
    if not renew and session.store.link_hashes():  # renewing never reads the old ones (they may be damaged)
        return None
    tokens = {who: secrets.token_urlsafe(TOKEN_BYTES) for who in holders(session.players)}
    with session.store.transaction():
        session.begin_write()
        session.store.replace_links({who: digest(token) for who, token in tokens.items()})
    return tokens


def refuse_unsealed(session: Session) -> None:
    """Refuse the table's links when their seal fails (ledger.books.chain): a hash replaced in the
    file outside bank would be a link whose token its editor knows. --new-links replaces them."""
    problem = session.store.links_problem()
    if problem:
        raise LedgerCorrupt(f"{session.store.path}: {problem}: no link acts",
                            "bank serve --table --new-links makes new links (the old ones end); bank audit says more")


def holder_of(hashes: dict[str, str], token: str | None) -> str | None:
    """Whose link carries `token` ('banker', 'player:NAME'), or None: it acts as nobody. Every stored
    digest is compared in constant time, so a guess learns nothing from the time it takes."""
    if not token or not TOKEN.fullmatch(token):
        return None
    wanted = digest(token)
    found = None
    for who, stored in hashes.items():
        if hmac.compare_digest(stored, wanted):
            found = who
    return found
