"""The auction's brief OR (RULES §6.2): when everyone passes with privates unsold, the owned
privates pay, one train of the data's type leaves the supply (the last one may end the game), and
the cheapest private drops in price; at zero the next player must take it.
"""

from __future__ import annotations

from ledger.core.rounds import auction
from ledger.core.rules import privates, trains
from ledger.core.ruleset import Knob

from .foreigners import take_from_supply

KNOBS = {"title_rules": {
    "brief_or_discards": Knob(str, None, ""),      # the train type a brief OR of the auction discards
    "brief_or_ends_game": Knob(bool, None, False),  # discarding its last train ends the game
}}

# Where games stored before these were 1843's own kept them (the shared sections).
LEGACY_KNOBS = {
    ("auction", "brief_or_discards"): ("title_rules", "brief_or_discards"),
    ("endgame", "auction_discards_end"): ("title_rules", "brief_or_ends_game"),
}


def check(rs, problems: list[str]) -> None:
    value = rs.k("title_rules", "brief_or_discards")
    if value and value not in {t.name for t in rs.trains}:
        problems.append(f"title_rules.brief_or_discards: no train '{value}'")


def register(reg) -> None:
    reg.rule("auction_all_passed", brief_or)


def brief_or(ctx, cheapest: str) -> None:
    """Everyone passed with privates unsold: owned privates pay; one train of the ruleset's type is
    discarded (the last one ends the game); the cheapest private drops; at zero the next player must
    take it."""
    s, rs = ctx.state, ctx.rs
    privates.pay_revenue(ctx)
    kind = rs.k("title_rules", "brief_or_discards")
    if kind:
        take_from_supply(ctx, "the brief operating round", kind)
        if not trains.depot_left(s, kind) and rs.k("title_rules", "brief_or_ends_game"):
            ctx.emit("game_over", reason=f"every {kind} train was discarded in the auction")
            return
    auction.discount(ctx, cheapest)
