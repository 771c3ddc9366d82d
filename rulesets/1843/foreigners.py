"""The foreigners (RULES §5, §8.1): after the last OR of each set the bank takes the next supply
train, and the next colour's first too when it took a colour's last; a first train of its colour may
start a phase. The auction's brief OR takes its train from the supply the same way (brief_or).
"""

from __future__ import annotations

from ledger.core.events import event
from ledger.core.rules import train_step, trains
from ledger.core.state import DEPOT, RUSTED


def register(reg) -> None:
    reg.on("or_set_ended", foreigners_buy)


def take_from_supply(ctx, who: str, name: str | None = None) -> str | None:
    """The bank discards the next supply train (of a type, or the next on sale): the foreigners'
    purchase (which may start a phase) or the auction's brief OR. Returns the train's type."""
    s, rs = ctx.state, ctx.rs
    if name is None:
        offer = trains.depot_offer(s, rs)
        if not offer:
            return None
        name = offer[0]
    left = trains.depot_left(s, name)
    if not left:
        return None
    first = trains.sold_count(s, name) == 0
    ctx.emit("train_taken", by=who, train=left[0], type=name, trains=[[left[0], DEPOT, RUSTED]])
    if first:
        train_step.new_phase_or_rust(ctx, name)
    return name


def foreigners_buy(ctx) -> bool:
    """After the last OR of a set: the next supply train, and if it was the last of its colour the
    next colour's first too (RULES §5, §8.1)."""
    s, rs = ctx.state, ctx.rs
    name = take_from_supply(ctx, "the foreigners")
    if name and not trains.depot_left(s, name):
        nxt = trains.depot_offer(s, rs)
        if nxt:
            take_from_supply(ctx, "the foreigners", nxt[0])
    train_step.check_limits(ctx)
    return False


@event
class TrainTaken:
    """The bank takes a train out of the supply: the foreigners, or the auction's brief OR."""
    by: str
    train: str
    type: str

    def describe(e, rs):
        # who took it: the foreigners buy it; the auction's brief OR discards it (§5, §6.2)
        what = "discards" if e["by"] == "the brief operating round" else "buy"
        return f"{e['by']} {what} a {e['type']} train from the supply"
