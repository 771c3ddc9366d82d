"""Exports: a title may remove the next train of the bank's supply at the end of every set of
operating rounds (operating.export_trains: the types that are exported while one of them is next),
and after the privates-only operating round of an auction in which everyone passed
(operating.export_after_auction_revenue). An exported train leaves the game with every effect its
purchase would have had: the first of its type begins its phase, rusts what rusts on it, closes the
privates the phase closes, and companies over the new limit discard. No money moves. Pool trains
are never exported."""

from __future__ import annotations

from ledger.core.events import event
from ledger.core.state import DEPOT, REMOVED, train_type


@event
class TrainExported:
    """The next train of the bank's supply leaves the game (operating.export_trains)."""
    train: str
    type: str

    def describe(e, rs):
        return f"-- a {e['type']} train is exported (removed from the game) --"


def export(ctx) -> None:
    """The next train of the supply, when it is of a type the title exports, leaves the game."""
    from ledger.core.rules import train_step, trains
    s, rs = ctx.state, ctx.rs
    types = rs.k("operating", "export_trains")
    if not types:
        return
    offer = [n for n in trains.depot_offer(s, rs) if rs.train(n).count is not None]
    if not offer or offer[0] not in types:
        return
    name = offer[0]
    train_id = trains.depot_left(s, name)[0]
    first = trains.sold_count(s, name) == 0
    ctx.emit("train_exported", train=train_id, type=train_type(train_id), trains=[[train_id, DEPOT, REMOVED]])
    if first:
        train_step.new_phase_or_rust(ctx, name)
        train_step.check_limits(ctx)


def at_set_end(ctx) -> bool:
    """The or_set_ended hook: export, and the game goes on."""
    export(ctx)
    return False
