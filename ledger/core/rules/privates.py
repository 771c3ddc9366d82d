"""Private companies: who owns what, revenue, closing, the bonus certificates of a purchase."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation
from ledger.core.ruleset import Ruleset
from ledger.core.rules import shares, trains
from ledger.core.state import BANK, GameState, acct_name, player_acct


def unsold(s: GameState, rs: Ruleset) -> list[str]:
    """Unsold privates, cheapest (first in the ruleset's face-value order) first."""
    return [p.sym for p in rs.privates if s.privates[p.sym].owner is None and not s.privates[p.sym].closed]


def open_owned(s: GameState, rs: Ruleset) -> list[str]:
    return [p.sym for p in rs.privates if s.privates[p.sym].owner and not s.privates[p.sym].closed]


def not_held(s: GameState, sym: str, account: str) -> str | None:
    """Why `account` (a player's or a company's) cannot use the private `sym` now, naming who holds
    it: closed, unsold, or someone else's; None when it holds it open."""
    held = s.privates[sym]
    who = acct_name(account)
    if held.closed:
        return f"{sym} is closed"
    if held.owner is None:
        return f"{sym} is unsold: {who} does not own it"
    if held.owner != account:
        return f"{sym} is {acct_name(held.owner)}'s, not {who}'s"
    return None


def revenue_of(s: GameState, rs: Ruleset, sym: str) -> int:
    """What a private pays its owner: a company owner may get another amount (1839's "x / y")."""
    p = rs.private(sym)
    company = p.ability("revenue_company")
    if company is not None and str(s.privates[sym].owner).startswith("company:"):
        return company
    later = p.ability("revenue_from_phase")
    if later and trains.phase_reached(s, rs, later):   # its revenue from a phase on (1889's UTF)
        return p.ability("revenue_then", p.revenue)
    return p.revenue


def out_of_play(rs: Ruleset, players: int) -> list[str]:
    """The privates a game of this many players leaves out (closed from the start)."""
    return [p.sym for p in rs.privates
            if players < p.ability("min_players", 0) or players > p.ability("max_players", players)]


# 18xx.games' random generator (its base game's rand): r <- (A r + C) mod M, from r = seed mod M
SITE_RAND = (1103515245, 12345, 2 ** 31)


def deal(rs: Ruleset, players: list[str]) -> list[tuple[str, str]]:
    """Who is dealt which private (privates_rules.deal): (player, private) in seating order, one
    each. The table's deal names the privates in play in seating order; seed:N is 18xx.games' deal
    from its game's seed (the privates in play in the data's order, sorted by the generator's
    successive numbers, the lowest to the first player). [] when the title deals none."""
    text = rs.k("privates_rules", "deal").strip()
    if not text:
        return []
    left_out = out_of_play(rs, len(players))
    in_play = [p.sym for p in rs.privates if p.sym not in left_out]
    if len(in_play) != len(players):
        raise RuleViolation(f"the deal gives each player one private: {len(in_play)} in play for "
                            f"{len(players)} players ({', '.join(in_play)})")
    if text.lower().startswith("seed:") and text[5:].isdigit():
        a, c, m = SITE_RAND
        r, keys = int(text[5:]) % m, []
        for _sym in in_play:
            r = (a * r + c) % m
            keys.append(r)
        dealt = [sym for _key, sym in sorted(zip(keys, in_play))]
    else:
        dealt = [names.private(rs, word) for word in text.split(",") if word.strip()]
        if sorted(dealt) != sorted(in_play):
            raise RuleViolation(f"the deal names each private in play once, in seating order "
                                f"({', '.join(players)}): {', '.join(in_play)} with {len(players)} players, "
                                f"not {', '.join(dealt) or 'none'} (or seed:N for 18xx.games' deal)")
    return list(zip(players, dealt))


def survives_phase_close(s: GameState, rs: Ruleset, sym: str) -> bool:
    """The phase that closes privates leaves this one open: always, or while its owner is a
    player (or a company), as its data says."""
    p = rs.private(sym)
    if p.ability("survives_phase_close"):
        return True
    with_owner = p.ability("survives_phase_close_with")
    owner = str(s.privates[sym].owner or "")
    return bool(with_owner) and owner.startswith(("company:" if with_owner == "company" else "player:"))


def revenue_transfers(s: GameState, rs: Ruleset) -> list[list]:
    return [[BANK, s.privates[sym].owner, revenue_of(s, rs, sym)] for sym in open_owned(s, rs)]


def pay_revenue(ctx) -> None:
    transfers = revenue_transfers(ctx.state, ctx.rs)
    if transfers:
        ctx.emit("private_revenue", transfers=transfers,
                 privates=[[sym, ctx.state.privates[sym].owner, revenue_of(ctx.state, ctx.rs, sym)]
                           for sym in open_owned(ctx.state, ctx.rs)])


def bonus_certs(s: GameState, rs: Ruleset, sym: str, player: str) -> tuple[list[list[str]], str | None]:
    """Certificates that come with buying a private: a free share, or a president's certificate
    (whose par the buyer then sets). Returns the moves and the company awaiting a par, if any."""
    p = rs.private(sym)
    moves, needs_par = [], None
    share_of = p.ability("bonus_share")
    if share_of:
        cert = shares.next_ipo_cert(s, rs, share_of)
        if cert:
            moves.append([cert, shares.unsold_acct(s, rs, share_of), player_acct(player)])
    pres_of = p.ability("bonus_president")
    if pres_of:
        moves.append([s.presidents[pres_of], shares.unsold_acct(s, rs, pres_of), player_acct(player)])
        needs_par = pres_of
    return moves, needs_par


def close(ctx, syms: list[str], reason: str) -> None:
    syms = [sym for sym in syms if not ctx.state.privates[sym].closed]
    if syms:
        ctx.emit("privates_closed", privates=syms, reason=reason)
