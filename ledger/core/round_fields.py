"""What a round's bookkeeping (GameState.round) may hold, as its classes declare it
(ledger.core.round_state): each shared kind's fields with their types, and each title's own, added
by its features (`ROUND_FIELDS`, ledger.core.parts).

A round of a kind holds only its class's fields (`Round.but` refuses another), so what is left to
check is the values: `problems(state, rs)` lists a field whose value is not of its declared type,
and a round of a kind nobody declares. The tests ask it after every event of the example games
and of random games of every title; the shared rules (tests/engine/test_round_fields.py) read only
the shared fields.
"""

from __future__ import annotations

from ledger.core import round_state
from ledger.core.events.declare import holds, parsed

# The shared round kinds' fields (ledger.core.rounds: auction.py, stock.py, operating.py; the
# game's setup and its end), as the classes declare them.
SHARED = round_state.shared_fields()


def declared(rs) -> dict[str, dict[str, str]]:
    """Every round kind's fields in a game of this title: the shared ones and the title's own."""
    return {kind: round_state.field_types(cls) for (title, kind), cls in round_state.TYPES.items()
            if title == rs.title}


def problems(s, rs) -> list[str]:
    """What the state's round holds that its kind does not declare, or of another type."""
    return round_problems(s.round, rs)


def round_problems(r, rs) -> list[str]:
    fields = declared(rs).get(r.get("kind"))
    if fields is None or type(r) is not round_state.TYPES.get((rs.title, r.get("kind"))):
        return [f"a round of kind {r.get('kind')!r}, which nobody declares for {rs.title}"]
    out = []
    for key, value in r.items():
        if key == "after":   # the round a game ended in: a round of its own
            out += [f"the round it ended in: {p}" for p in round_problems(value, rs)]
        elif key not in fields:
            out.append(f"the {r.kind} round holds {key!r}, which nobody declares")
        elif not holds(value, parsed(fields[key])):
            out.append(f"the {r.kind} round's {key} is {value!r}, not a {fields[key]}")
    return out


def title_redeclares(rs) -> list[str]:
    """A title's field that takes a shared field's name (it would change what the shared rules read)."""
    return [f"{rs.title} declares the {kind} round's {key!r}, a shared field"
            for kind, fields in rs.parts.round_fields.items() for key in fields if key in SHARED.get(kind, {})]
