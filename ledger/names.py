"""Turning what the banker typed into the names the state uses.

Names match case-insensitively; a unique prefix of a player's name is enough. Unknown names get a
'did you mean' hint.
"""

from __future__ import annotations

from .errors import CommandError, unknown
from .ruleset import Ruleset
from .state import GameState


def player(s: GameState, raw: str) -> str:
    text = str(raw).strip().lower()
    exact = [p for p in s.players if p.lower() == text]
    if exact:
        return exact[0]
    prefixed = [p for p in s.players if p.lower().startswith(text)]
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        raise CommandError(f"'{raw}' could be {', '.join(prefixed)}", "type more of the name")
    raise unknown("player", raw, s.players)


def corp(rs: Ruleset, raw: str) -> str:
    return _symbol("company", raw, [c.sym for c in rs.corporations], {c.name.lower(): c.sym for c in rs.corporations})


def private(rs: Ruleset, raw: str) -> str:
    return _symbol("private", raw, [p.sym for p in rs.privates], {p.name.lower(): p.sym for p in rs.privates})


def item(rs: Ruleset, raw: str) -> tuple[str, str]:
    """A private or a company: ('private', sym) or ('corp', sym)."""
    text = str(raw).strip().lower()
    for kind, table in (("private", rs.privates), ("corp", rs.corporations)):
        for entry in table:
            if entry.sym.lower() == text or entry.name.lower() == text:
                return kind, entry.sym
    raise unknown("private or company", raw, [p.sym for p in rs.privates] + [c.sym for c in rs.corporations])


def train(rs: Ruleset, raw: str) -> str:
    names = [t.name for t in rs.trains]
    upper = [n.upper() for n in names]
    text = str(raw).strip().upper()
    if text not in upper:
        text = text.removesuffix("-TRAIN").removesuffix("T")
    for name in names:
        if name.upper() == text:
            return name
    sides = [sd.name for t in rs.trains for sd in t.sides if sd.name != t.name]
    raise unknown("train", raw, names + sides)


def side(rs: Ruleset, raw: str) -> tuple[str, str | None]:
    """A train as the banker names it: (train type, side name or None for 'the type's first side').
    A side's printed name or alias (1843 '4+1', '3/5x2', 'TGV') names that side of its certificate."""
    text = str(raw).strip().lower()
    for t in rs.trains:
        for sd in t.sides:
            if sd.name != t.name and text in (sd.name.lower(), *(a.lower() for a in sd.aliases)):
                return t.name, sd.name
    return train(rs, raw), None


def _symbol(kind: str, raw: str, syms: list[str], by_name: dict[str, str]) -> str:
    text = str(raw).strip().lower()
    for sym in syms:
        if sym.lower() == text:
            return sym
    if text in by_name:
        return by_name[text]
    loose = [sym for sym in syms if sym.lower().replace("&", "") == text.replace("&", "")]
    if len(loose) == 1:
        return loose[0]
    raise unknown(kind, raw, syms)


def amount(raw, what: str = "amount") -> int:
    text = str(raw).strip().lstrip("$")
    try:
        value = int(text)
    except ValueError:
        raise CommandError(f"{what} must be a whole number of dollars, got '{raw}'") from None
    if value < 0:
        raise CommandError(f"{what} must not be negative, got {value}")
    return value
