"""'Did you mean ...?' for a mistyped title, verb or word: the closest known ones by edit distance,
and only when close (a title or a verb is short, and a loose likeness misleads: `bank new 1831`
offered 1843); names of players and companies are matched more loosely (core.errors.nearest)."""

from __future__ import annotations

from ledger.core.errors import CommandError
from ledger.core.errors import one_of


def edits(a: str, b: str) -> int:
    """The fewest letters inserted, deleted, changed or swapped with a neighbour to make a into b
    (Damerau's distance, as a typist slips: 'wroth' is one from 'worth')."""
    a, b = a.lower(), b.lower()
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def close_to(name: str, known: list[str]) -> list[str]:
    """The known names nearest to `name`, when near enough: at most one edit in four letters (a
    slip of the finger, not another word); several when they tie."""
    if not known:
        return []
    best = min(edits(name, k) for k in known)
    if best == 0 or best > max(1, len(name) // 4):
        return []
    return [k for k in known if edits(name, k) == best]


def mistyped(message: str, name: str, known: list[str], otherwise: str) -> CommandError:
    """`message`, with the nearest known names as its hint, else `otherwise`."""
    near = close_to(name, known)
    return CommandError(message, f"did you mean {one_of(near)}?" if near else otherwise)


def unknown_name(kind: str, name: str, known: list[str]) -> CommandError:
    return mistyped(f"unknown {kind} '{name}'", name, known, f"{kind}s: {', '.join(known)}")


def unknown_title(name: str, known: list[str]) -> CommandError:
    """A title not on this machine: the nearest (1803 -> 1830), else every title there is."""
    return mistyped(f"no title '{name}' on this machine", name, known, f"the titles: {', '.join(known)}")
