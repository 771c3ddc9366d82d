"""The record's fingerprints a phone has seen, kept by the phone itself (issue 36).

Every board and table page shows the fingerprint of the chain's head ('record 4f2a·c19e after
command 17', ledger.books.chain). The page's answer also sets a cookie holding the fingerprints that
phone was shown (`N.HEX16`, the latest MOST of them), so the phone keeps them whether or not it runs
scripts; on every later page the server looks each one up in the record (is the hash of command N
still the one it showed?) and the page warns while one is missing: the past was rewritten since
that phone saw it (an edited, deleted or re-chained command at or before N). The phone keeps the
missing ones, so the warning stays on every page until the game is restored.

A table page's cookie belongs to its link (Path=/t/TOKEN: links are made for one game file). The
plain board's is named by the game's first row, so a new game served at the same address starts a
new memory; a rewrite of that first row starts one too (the table pages still see it).

What it does not do: the check is made by the bank that serves the page, so it protects against an
edited file, not against a laptop running a bank changed to hide it; the fingerprints the phones
show, and the one `bank score` prints for the table to photograph, are the record kept beyond it.
"""

from __future__ import annotations

import hashlib
import re

from ledger.books.chain import LONG, fingerprint

# How many fingerprints a phone keeps: the latest ones (each covers every command before it).
MOST = 40
ENTRY = re.compile(r"([0-9]{1,9})\.([0-9a-f]{16})")
TABLE_COOKIE = "bank_record"
# a month: a game played over several evenings keeps its memory
KEEP = 31 * 24 * 3600


def board_cookie(genesis: str | None) -> str:
    return "bank_board_" + hashlib.sha256((genesis or "").encode()).hexdigest()[:10]


def seen_in(value: str | None) -> list[tuple[int, str]]:
    """The (command, fingerprint) pairs a cookie holds, junk left out."""
    out: list[tuple[int, str]] = []
    for part in (value or "")[:4000].split("-"):
        found = ENTRY.fullmatch(part.strip())
        if found and (int(found.group(1)), found.group(2)) not in out:
            out.append((int(found.group(1)), found.group(2)))
    return out[-MOST:]


def remembered(seen: list[tuple[int, str]], head: int, digest: str | None, missing: list) -> list[tuple[int, str]]:
    """What the phone keeps after this page: what it kept (the missing ones always) and the head now."""
    now = (head, (digest or "")[:LONG])
    kept = [e for e in seen if e != now]
    if len(now[1]) == LONG:
        kept.append(now)
    extra = len(kept) - MOST
    if extra > 0:   # drop the oldest that the record still holds; a missing one is never dropped
        for entry in [e for e in kept if e not in missing][:extra]:
            kept.remove(entry)
    return kept


def missing_from(seen: list[tuple[int, str]], hashes: dict[int, str]) -> list[tuple[int, str]]:
    """The fingerprints the record no longer holds at their command."""
    return [(n, fp) for n, fp in seen if not str(hashes.get(n, "")).startswith(fp)]


def warnings(missing: list[tuple[int, str]]) -> list[str]:
    if not missing:
        return []
    first = min(missing)
    more = f" (and {len(missing) - 1} later one(s))" if len(missing) > 1 else ""
    return [f"The record was rewritten: this device was shown record {fingerprint(first[1])} after command "
            f"{first[0]}{more}, and the game no longer holds it. Something at or before command {first[0]} was "
            f"changed, removed or chained again since. Ask the banker to run bank audit --against "
            f"{fingerprint(first[1], LONG)}."]


def cookie(name: str, seen: list[tuple[int, str]], path: str) -> str:
    value = "-".join(f"{n}.{fp}" for n, fp in seen)
    return f"{name}={value}; Max-Age={KEEP}; Path={path}; SameSite=Strict; HttpOnly"


async def checked(board, request, view, name: str, path: str) -> tuple[list[str], dict]:
    """(the warnings for this page, the header that keeps the phone's fingerprints) for a page drawn
    from `view`; the lookup runs in the board's reading thread."""
    if not view.record or not hasattr(board, "hashes_at"):
        return [], {}   # a position held in memory, or a file from before the chain: nothing to keep
    seen = seen_in(request.cookies.get(name))
    hashes = await board.hashes_at([n for n, _fp in seen]) if seen else {}
    missing = missing_from(seen, hashes)
    kept = remembered(seen, view.head, view.record, missing)
    return warnings(missing), {"Set-Cookie": cookie(name, kept, path)}
