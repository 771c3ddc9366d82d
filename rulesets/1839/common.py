"""What 1839's features share: the title's own state (GameState.own) and the small readers more
than one feature asks (rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest
shared/rules/1839.md "D x", its best readings "B n")."""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.core.errors import RuleViolation
from ledger.core.state import company_acct


@dataclass
class State:
    """What 1839's own rules keep (GameState.own): what was drawn as the game started (§4); the
    company whose turn's end makes the privates obsolete, and the OR they became so (§12.1); the
    SAVED markers used; the incomes paid this OR and the players' privates' runs on the revenue
    track (§12.4); the revenue track itself (D3); the par each escrowed pool share holds (§12.5)."""
    draws: dict = field(default_factory=dict)
    obsolescence_due: str | None = None
    obsolete: list | None = None
    saved: dict = field(default_factory=dict)
    incomes: list = field(default_factory=list)
    private_runs: dict = field(default_factory=dict)
    track: dict = field(default_factory=dict)
    escrow: dict = field(default_factory=dict)


STATE = State


def split(raw) -> list[str]:
    """Words typed with commas or spaces between them."""
    return [w for w in str(raw).replace(" ", ",").split(",") if w]


def owned_by(s, sym: str, corp: str) -> bool:
    """The private is open and the company owns it."""
    held = s.privates[sym]
    return held.owner == company_acct(corp) and not held.closed


def foreign_companies(rs) -> tuple[str, ...]:
    """Overzees, België, Duitsland, in the order they operate (D6.4; [foreign] companies)."""
    return tuple(rs.k("foreign", "companies"))


def country(rs, raw: str) -> str:
    """A foreign country as typed: its symbol or one of its names ([foreign] names)."""
    text = raw.strip().lower()
    aliases = rs.k("foreign", "names")
    for sym in foreign_companies(rs):
        if text in (sym.lower(), *aliases.get(sym, ())):
            return sym
    raise RuleViolation(f"no foreign country {raw!r}", f"countries: {', '.join(foreign_companies(rs))}")


def listed(s, sym: str) -> bool:
    """A foreign company is on the market once a route first reached it (§8.2.5.3)."""
    return s.corps[sym].par is not None


def tallies(s) -> dict:
    """The revenue track of this OR (D3): each public company's total revenue and the countries its
    route reached."""
    return s.own.track
