"""Private companies: who owns what, revenue, closing, the bonus certificates of a purchase."""

from __future__ import annotations

from ledger.core.ruleset import Ruleset
from ledger.core.state import BANK, GameState, ipo_acct, player_acct


def unsold(s: GameState, rs: Ruleset) -> list[str]:
    """Unsold privates, cheapest (first in the ruleset's face-value order) first."""
    return [p.sym for p in rs.privates if s.privates[p.sym].owner is None and not s.privates[p.sym].closed]


def open_owned(s: GameState, rs: Ruleset) -> list[str]:
    return [p.sym for p in rs.privates if s.privates[p.sym].owner and not s.privates[p.sym].closed]


def revenue_transfers(s: GameState, rs: Ruleset) -> list[list]:
    return [[BANK, s.privates[sym].owner, rs.private(sym).revenue] for sym in open_owned(s, rs)]


def pay_revenue(ctx) -> None:
    transfers = revenue_transfers(ctx.state, ctx.rs)
    if transfers:
        ctx.emit("private_revenue", transfers=transfers,
                 privates=[[sym, ctx.state.privates[sym].owner, ctx.rs.private(sym).revenue]
                           for sym in open_owned(ctx.state, ctx.rs)])


def bonus_certs(s: GameState, rs: Ruleset, sym: str, player: str) -> tuple[list[list[str]], str | None]:
    """Certificates that come with buying a private: a free share, or a president's certificate
    (whose par the buyer then sets). Returns the moves and the company awaiting a par, if any."""
    p = rs.private(sym)
    moves, needs_par = [], None
    share_of = p.ability("bonus_share")
    if share_of:
        ordinary = sorted(c for c, h in s.certs.items()
                          if h == ipo_acct(share_of) and c.startswith(share_of + ".") and not c.endswith(".0"))
        if ordinary:
            moves.append([ordinary[0], ipo_acct(share_of), player_acct(player)])
    pres_of = p.ability("bonus_president")
    if pres_of:
        moves.append([f"{pres_of}.0", ipo_acct(pres_of), player_acct(player)])
        needs_par = pres_of
    return moves, needs_par


def close(ctx, syms: list[str], reason: str) -> None:
    syms = [sym for sym in syms if not ctx.state.privates[sym].closed]
    if syms:
        ctx.emit("privates_closed", privates=syms, reason=reason)
