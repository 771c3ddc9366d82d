"""Applying an event to the state: its generic effects (money, certificates, trains, markers, stack
order, train flags, assets), then its kind's own change; and what holdings an event moves."""

from __future__ import annotations

from ledger.core.errors import LedgerCorrupt
from ledger.core.state import DEPOT, GameState
from ledger.core.events.declare import UPGRADES, apply_kind, kind_of


def evolve(state: GameState, event: dict) -> GameState:
    """Pure form: a new state with the event applied."""
    new = state.clone()
    apply(new, event)
    return new


def apply(state: GameState, event: dict) -> None:
    """Apply one event: its generic effects, then what its kind declares (ledger.core.events)."""
    upgrade = UPGRADES.get(state.title)
    if upgrade:
        upgrade(event)
    apply_effects(state, event)
    apply_kind(state, event)


def apply_effects(state: GameState, event: dict) -> None:
    """The effects any event may carry: money, certificates, trains, market markers, stack order,
    train flags."""
    for payer, payee, amount in event.get("transfers", ()):
        state.balances[payer] = state.balances.get(payer, 0) - amount
        state.balances[payee] = state.balances.get(payee, 0) + amount
    for cert, source, dest in event.get("certs", ()):
        if state.certs.get(cert) != source:
            raise LedgerCorrupt(f"event {event['kind']}: certificate {cert} is held by {state.certs.get(cert)}, "
                                f"not {source}")
        state.certs[cert] = dest
    for train, source, dest in event.get("trains", ()):
        if state.trains.get(train, DEPOT) != source:
            raise LedgerCorrupt(f"event {event['kind']}: train {train} is at {state.trains.get(train)}, not {source}")
        state.trains[train] = dest
    for sym, _old, new in event.get("moves", ()):
        corp = state.corps[sym]
        new = tuple(new)
        if corp.cell != new:
            state.seq += 1
            corp.cell, corp.arrival = new, state.seq
    # a cell's stack in a new order (top first), when a title stacks markers other than at the bottom
    for stack in event.get("restack", ()):
        for sym in stack:
            state.seq += 1
            state.corps[sym].arrival = state.seq
    for sym, source, dest in event.get("assets", ()):
        if sym not in state.assets or state.assets[sym].owner != source:
            held = state.assets[sym].owner if sym in state.assets else "nobody (no such asset)"
            raise LedgerCorrupt(f"event {event['kind']}: {sym} is held by {held}, not {source}")
        state.assets[sym].owner = dest
    for train, changes in event.get("flags", {}).items():
        flags = state.train_flags.setdefault(train, {})
        for key, value in changes.items():
            if value is None:
                flags.pop(key, None)
            else:
                flags[key] = value
        if not flags:
            del state.train_flags[train]


def holdings_moved(e: dict, title: str) -> list:
    """Every holding an event moves, as [item, from account, to account]: a certificate, a train,
    an asset, and what its kind's own rule moves (a private sold to a company)."""
    declared = kind_of(e["kind"], title)
    own = declared.held(e) if declared and declared.held else []
    return [list(m) for key in ("certs", "trains", "assets") for m in e.get(key, ())] + [list(m) for m in own]
