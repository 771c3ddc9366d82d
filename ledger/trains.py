"""Trains and phases: what the depot offers, prices, phase changes, rusting, train limits."""

from __future__ import annotations

from .ruleset import Ruleset
from .state import DEPOT, RUSTED, GameState, train_type


def phase_index(rs: Ruleset, name: str) -> int:
    return [p.name for p in rs.phases].index(name)


def phase_reached(s: GameState, rs: Ruleset, name: str) -> bool:
    return phase_index(rs, s.phase) >= phase_index(rs, name)


def limit(s: GameState, rs: Ruleset) -> int:
    return rs.phase(s.phase).train_limit


def sold_count(s: GameState, name: str) -> int:
    return sum(1 for t, h in s.trains.items() if train_type(t) == name and h != DEPOT)


def depot_left(s: GameState, name: str) -> list[str]:
    return sorted((t for t, h in s.trains.items() if train_type(t) == name and h == DEPOT), key=train_number)


def train_number(train_id: str) -> int:
    return int(train_id.split(".")[1])


def depot_offer(s: GameState, rs: Ruleset) -> list[str]:
    """Train types the depot sells now: the first type with trains left (depot order), plus any
    unlimited type whose phase has come."""
    offer = []
    for t in rs.trains:
        if t.count is None:
            if t.available_from_phase is None or phase_reached(s, rs, t.available_from_phase):
                offer.append(t.name)
        elif depot_left(s, t.name) and not any(o for o in offer if rs.train(o).count is not None):
            offer.append(t.name)
    return offer


def next_depot_train(s: GameState, rs: Ruleset, name: str) -> str:
    """The id of the next train of a type the depot sells (unlimited types get a fresh id)."""
    if rs.train(name).count is None:
        return f"{name}.{sold_count(s, name) + 1}"
    return depot_left(s, name)[0]


def cheapest_available(s: GameState, rs: Ruleset) -> tuple[int, str] | None:
    """(price, description) of the cheapest train from the depot or the pool."""
    options = [(rs.train(n).price, f"a {n} from the bank") for n in depot_offer(s, rs)]
    options += [(rs.train(train_type(t)).price, f"the {train_type(t)} in the pool") for t in s.pool_trains()]
    return min(options) if options else None


def phase_for_train(s: GameState, rs: Ruleset, name: str) -> str | None:
    """The phase the first purchase of this train type starts, if it is later than the current one."""
    for p in rs.phases:
        if p.on_train == name and phase_index(rs, p.name) > phase_index(rs, s.phase):
            return p.name
    return None


def rusting(s: GameState, rs: Ruleset, name: str) -> list[list[str]]:
    """Train moves to 'rusted' when the first train of type `name` is bought."""
    types = {t.name for t in rs.trains if t.rusts_on == name}
    return [[t, h, RUSTED] for t, h in s.trains.items() if train_type(t) in types and h not in (RUSTED,)]


def over_limit(s: GameState, rs: Ruleset) -> list[dict]:
    lim = limit(s, rs)
    out = []
    for sym in s.corps:
        n = len(s.corp_trains(sym))
        if n > lim:
            out.append({"kind": "discard", "corp": sym, "count": n - lim})
    return out


def in_pool(s: GameState, name: str) -> str | None:
    found = sorted((t for t in s.pool_trains() if train_type(t) == name), key=train_number)
    return found[0] if found else None


def holder_train(s: GameState, sym: str, name: str) -> str | None:
    found = sorted((t for t in s.corp_trains(sym) if train_type(t) == name), key=train_number)
    return found[0] if found else None


