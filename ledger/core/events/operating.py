"""The shared events of operating rounds, with the operating round's conventions: the keys a turn
keeps (OR_KEYS) and what a company's turn starts from (TURN_RESET)."""

from __future__ import annotations

from ledger.core.state import Station
from ledger.core.events.declare import event


# An operating round's own keys: what lasts from one company's turn to the next. Every other key of
# the round is the turn's bookkeeping (the shared steps' below, and any a title's rules keep): it
# is dropped when the next company's turn starts, so a title needs to declare none of its own.
OR_KEYS = ("kind", "set", "index", "count", "order", "pos", "corp", "moved", "had_trains")


# The shared steps' bookkeeping as a turn starts. `station_step`: what took the turn's station step
# other than a station token, in the table's words (a title's own use of the step: 1843's port claim).
TURN_RESET = {"tiles": 0, "extra_tiles": 0, "token": False, "free_token": False, "revenue": None, "trains": 0,
              "special": None, "station_step": None}


@event
class CorpTurnStarted:
    """A company starts its turn (`pos` in the operating order); its home token goes down on its
    first turn."""
    corp: str
    president: str = None
    home_token: bool = False
    pos: int = None
    homes: int = 1  # home markers its first turn places (1839: two for HIJSM, NCS, SS)

    def apply(s, e):
        if e.get("pos") is not None:
            s.round = s.round.kept(OR_KEYS, pos=e["pos"], corp=e["corp"], **TURN_RESET)
        corp = s.corps[e["corp"]]
        if e.get("home_token"):
            homes = e.get("homes", 1)
            corp.tokens_used += homes
            corp.stations = corp.stations + tuple(home_station(e, slot) for slot in range(1, homes + 1))
        corp.operated = True


@event
class OrOrder:
    """The companies still to operate in this OR are re-sorted (an emergency sale moved a price)."""
    order: list[str]

    def apply(s, e):
        s.round = s.round.but(order=list(e["order"]))


@event
class CorpTurnEnded:
    corp: str


@event
class TileLaid:
    """A tile: `cost` = terrain + fee + hex fee. `extra`: a private's extra lay; `free_token`: the
    company's next station is free (1830 D&H). `steps`: how the cost was made, line by line
    ([what, amount before, amount after, rounding], the first line the terrain: fees.price)."""
    corp: str
    cost: int
    terrain: int
    fee: int = 0
    hex_fee: int = 0
    hex: str = None
    private: str = None
    extra: bool = False
    free_token: bool = False
    steps: list[list] = None
    points: int = None  # tile points it cost, where the company's kind counts them

    def apply(s, e):
        if s.round.get("kind") != "operating":
            return
        r = s.round
        key = "extra_tiles" if e.get("extra") else "tiles"
        changes = {key: r[key] + 1}
        if e.get("points"):
            changes["points"] = r.get("points", 0) + e["points"]
            if e["cost"]:  # what this turn's track cost, for a refund (1801 §11.6.5)
                changes["paid_tiles"] = [*r.get("paid_tiles", []), [e.get("hex"), e["cost"]]]
        if e.get("free_token"):
            changes["free_token"] = True
        s.round = r.but(**changes)


@event
class TokenPlaced:
    """A station marker: where (`city` as typed), from which charter `slot` (1 = the first printed)
    and its `cost`, made as `steps` say (fees.price); with a private's station power (`private`) it
    is also the turn's track. An event recorded before slots were kept has no slot: the marker took
    the charter's next one, as every title then did."""
    corp: str
    cost: int
    private: str = None
    city: str = None
    slot: int = None
    steps: list[list] = None

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.tokens_used += 1
        c.stations = c.stations + (placed_station(c, e),)
        if s.round.get("kind") != "operating":
            return
        track = {"special": e["private"], "tiles": s.round["tiles"] + 1} if e.get("private") else {}
        s.round = s.round.but(token=True, free_token=False, **track)


@event
class AbilityUsed:
    private: str
    ability: str

    def apply(s, e):
        s.privates[e["private"]].used = s.privates[e["private"]].used + [e["ability"]]


@event
class Revenue:
    """A run: paid out (`payees`: [account, shares, amount]) or withheld; `moves` the price."""
    corp: str
    revenue: int
    how: str
    per_share: str = None
    payees: list[tuple[str, int, int]] = None
    kept: int = None  # a half payout: what the company keeps

    def apply(s, e):
        s.corps[e["corp"]].last_run = (e["revenue"], e["how"])
        if s.round.get("kind") == "operating":
            s.round = s.round.but(revenue=e["revenue"], moved=s.round.get("moved", []) + [e["corp"]])


def home_station(e: dict, slot: int = 1) -> Station:
    """A home marker a company's first turn places: the charter's first slot(s), the first for
    what the turn's start paid (1830 and 1843: nothing)."""
    cost = sum(n for _a, _b, n in e.get("transfers", ())) if slot == 1 else 0
    return Station(None, slot, cost, home=True)


def placed_station(c, e: dict) -> Station:
    slot = e.get("slot") if "slot" in e else next_free_slot(c.stations)
    return Station(e.get("city"), slot, e["cost"])


def next_free_slot(stations) -> int:
    """The lowest charter slot no marker came from (numbered from 1)."""
    taken = {st.slot for st in stations}
    return next(n for n in range(1, len(stations) + 2) if n not in taken)
