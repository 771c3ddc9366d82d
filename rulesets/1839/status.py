"""What `bank status` adds for 1839, put together from the features' own lines in one order: the
foreign companies and the revenue track, the obsolete privates, the draws and the auction. The
registry keeps one status rule a title (ledger.core.registry RULES), so this module joins them."""

from __future__ import annotations

from . import draws, foreign, obsolescence, stock_powers
from .common import tallies


def status_lines(s, rs) -> list[str]:
    if not s.own.draws:
        return ["Draws: not yet typed (deal ...)"]
    return (foreign.status_lines(s, rs) + obsolescence.status_lines(s) + stock_powers.status_lines(s, rs)
            + draws.status_lines(s, rs))


def status_data(s, rs) -> dict:
    return {"draws": s.own.draws or None, "revenue_track": tallies(s), **obsolescence.status_data(s),
            "saved_markers_used": dict(s.own.saved),
            "escrow": stock_powers.escrow_held(s, rs), **foreign.status_data(s, rs), **draws.status_data(s, rs)}


def register(reg) -> None:
    reg.rule("status_lines", status_lines)
    reg.rule("status_data", status_data)
