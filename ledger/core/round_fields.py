"""What a round's bookkeeping (GameState.round) may hold, declared: each shared round kind's fields
with their types, and each title's own, added by its features (`ROUND_FIELDS`, ledger.core.parts).

A round is kept as a plain dict (stored in the round_started event, replayed as it is); this is
its declaration, the way an event kind's annotations declare its fields. `problems(state, rs)`
lists what a round holds that nobody declared, or of another type than declared; the tests ask it
after every event of the example games and of random games of every title, so that a key's scope
is a declaration rather than a convention: a title writes only the shared keys and its own, and
the shared rules (tests/engine/test_round_fields.py) read only the shared ones.

Types are written as an event's fields are (ledger.core.events.declare): 'int', 'str | None',
'list[str]', a bare 'dict' for what holds anything.
"""

from __future__ import annotations

from ledger.core.events.declare import holds, parsed

# The shared round kinds' fields (ledger.core.rounds: auction.py, stock.py, operating.py; the
# game's setup and its end); a company's turn in an operating round is the fields after `had_trains`,
# reset as each turn starts (events.TURN_RESET), a stock-round turn's the last four
# (events.STOCK_TURN_KEYS).
SHARED = {
    "setup": {"kind": "str"},
    "over": {"kind": "str", "after": "dict"},
    "auction": {
        "kind": "str", "turn": "int", "passes": "int", "bids": "dict", "last_buyer": "int | None",
        "war": "str | None",
    },
    "stock": {
        "kind": "str", "number": "int", "turn": "int", "passes": "int", "acted": "bool", "buys": "list",
        "sold": "dict", "last_actor": "int | None", "directs": "list[str]", "passers": "list[str]",
        "at_par": "list",
        "sale_at": "dict[str, int]", "turn_sold": "list[str]", "sold_first": "bool",
    },
    "operating": {
        "kind": "str", "set": "int", "index": "int", "count": "int", "order": "list[str]", "moved": "list[str]",
        "had_trains": "list[str]",
        "pos": "int", "corp": "str | None", "tiles": "int", "extra_tiles": "int", "token": "bool",
        "free_token": "bool", "revenue": "int | None", "trains": "int", "special": "str | None",
        "station_step": "str | None", "track_open": "bool", "points": "int", "paid_tiles": "list",
        "treasury": "str | None",
    },
}


def declared(rs) -> dict[str, dict[str, str]]:
    """Every round kind's fields in a game of this title: the shared ones and the title's own."""
    out = {kind: dict(fields) for kind, fields in SHARED.items()}
    for kind in rs.parts.round_kinds:   # a title's own kind of round names itself, at least
        out.setdefault(kind, {"kind": "str"})
    for kind, fields in rs.parts.round_fields.items():
        out.setdefault(kind, {"kind": "str"}).update(fields)
    return out


def problems(s, rs) -> list[str]:
    """What the round holds that its kind does not declare, or of another type."""
    kind = s.round.get("kind")
    fields = declared(rs).get(kind)
    if fields is None:
        return [f"a round of kind {kind!r}, which nobody declares"]
    out = []
    for key, value in s.round.items():
        if key not in fields:
            out.append(f"the {kind} round holds {key!r}, which nobody declares")
        elif not holds(value, parsed(fields[key])):
            out.append(f"the {kind} round's {key} is {value!r}, not a {fields[key]}")
    return out


def title_redeclares(rs) -> list[str]:
    """A title's field that takes a shared field's name (it would change what the shared rules read)."""
    return [f"{rs.title} declares the {kind} round's {key!r}, a shared field"
            for kind, fields in rs.parts.round_fields.items() for key in fields if key in SHARED.get(kind, {})]
