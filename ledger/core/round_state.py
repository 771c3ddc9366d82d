"""A round's bookkeeping (GameState.round), typed: a frozen dataclass per kind of round.

The shared kinds (the game's setup and end, the private auction, the stock round, the operating
round with its company's turn) are declared here; a title's own fields, and its own kinds of
round, are declared by its features (`ROUND_FIELDS`, `ROUND_KINDS`: ledger.core.parts) and become
a subclass per title and kind (`declare`, called as a ruleset loads), the way a title's `STATE`
extends the game state. A field of no kind of the title cannot be written (`but` refuses it) nor
read (`get` raises), so a misspelt key fails where it is used rather than reading as empty. Only a
round rebuilt from stored data passes over a key it does not keep (`make_round`: an older version's
field), so the tests check every round_started event's keys against its class.

Every field but `kind` is None until set: None means "not set", as a missing key did when the
round was a dict. A round still reads as a mapping (`r.get("tiles", 0)`, `r["bids"]`, `"passers"
in r`), so the rules read it as before; it is changed only by replacing it (`but`, `cleared`,
`kept`), never in place. It is stored as the plain data `as_data` gives (the round_started event
and the snapshots) and rebuilt by `make_round`.

Types are written as an event's fields are (ledger.core.events.declare): 'int', 'list[str]', a bare
'dict' for what holds anything; ledger.core.round_fields checks the values against them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, make_dataclass

NOT_SET = object()


@dataclass(frozen=True, eq=False, repr=False)
class Round(Mapping):
    """A round of some kind; its subclasses declare what it keeps."""
    kind: str = ""

    # every field a round of the title may have, of any kind: the names `get` answers for
    KNOWN = frozenset({"kind"})
    # stored as the plain data `as_data` gives, which GameState makes a round again (ledger.core.snapshot)
    KEPT_AS_DATA = True

    # --- reading, as a mapping of the fields that are set
    def get(self, key, default=None):
        value = self.__dict__.get(key, NOT_SET)
        if value is NOT_SET:
            if key not in self.KNOWN:
                raise KeyError(f"no round of this game keeps {key!r}")
            return default
        return default if value is None else value

    def __getitem__(self, key):
        # a field of this kind that is not set reads as None (a rule asks `r["revenue"] is None`);
        # a field of no kind of this round raises, as a missing key did
        value = self.__dict__.get(key, NOT_SET)
        if value is NOT_SET:
            raise KeyError(key)
        return value

    def __contains__(self, key):
        return self.__dict__.get(key) is not None

    def __iter__(self):
        return (k for k, v in self.__dict__.items() if v is not None)

    def __len__(self):
        return sum(1 for v in self.__dict__.values() if v is not None)

    def __eq__(self, other):
        if isinstance(other, Mapping):
            return as_data(self) == as_data(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.items())})"

    # --- changing, by replacing
    def but(self, **changes) -> "Round":
        """This round with some fields replaced (None: no longer set)."""
        unknown = [k for k in changes if k not in self.__dict__ or k == "kind"]
        if unknown:
            raise TypeError(f"a {self.kind} round keeps no {', '.join(map(repr, unknown))}")
        new = object.__new__(type(self))   # frozen: its fields are set past the dataclass's guard
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def cleared(self, names, **changes) -> "Round":
        """This round with the fields `names` no longer set (a stock-round turn's, as the next
        begins), then `changes`."""
        return self.but(**{**{k: None for k in names if k in self.__dict__ and k != "kind"}, **changes})

    def kept(self, names, **changes) -> "Round":
        """This round keeping only the fields `names` (an operating round's, as a company's turn
        begins), then `changes`."""
        return self.cleared([k for k in self.__dict__ if k not in names], **changes)

    def as_data(self) -> dict:
        return as_data(self)


def as_data(r: Mapping) -> dict:
    """A round as plain data: its fields that are set (a round inside it, too)."""
    return {k: (as_data(v) if isinstance(v, Mapping) and k == "after" else v)
            for k, v in r.items() if v is not None}


@dataclass(frozen=True, eq=False, repr=False)
class SetupRound(Round):
    """Before the first round: the game is being set up."""


@dataclass(frozen=True, eq=False, repr=False)
class OverRound(Round):
    """The game has ended; `after`: the round it ended in."""
    after: Round = None


@dataclass(frozen=True, eq=False, repr=False)
class AuctionRound(Round):
    """The private auction (ledger.core.rounds.auction)."""
    turn: int = None
    passes: int = None              # passes in a row
    bids: dict = None               # private -> player -> amount
    last_buyer: int = None          # the index of who bought last
    war: str = None                 # the private a bidding war is open for


@dataclass(frozen=True, eq=False, repr=False)
class StockRound(Round):
    """A stock round (ledger.core.rounds.stock); a turn's own fields are the last three
    (ledger.core.events.STOCK_TURN_KEYS), dropped as the next turn starts."""
    number: int = None
    turn: int = None
    passes: int = None
    acted: bool = None              # the player whose turn it is has bought or sold
    buys: list = None               # this turn's purchases: [company, source]
    sold: dict = None               # player -> the companies sold this round
    last_actor: int = None
    directs: list[str] = None       # the companies the player directs as the turn's buying began
    passers: list[str] = None       # the passing cards taken, in order (1839 D9.3's kind of turn order)
    at_par: list = None             # companies whose unsold shares sell at par this round
    sale_at: dict[str, int] = None  # a company's price this turn's later sales keep
    turn_sold: list[str] = None     # the companies sold this turn
    sold_first: bool = None         # this turn sold before it bought


@dataclass(frozen=True, eq=False, repr=False)
class OperatingRound(Round):
    """An operating round (ledger.core.rounds.operating): its own fields (OR_KEYS) and a company's
    turn, the fields after `had_trains`, reset as each turn starts (TURN_RESET)."""
    set: int = None
    index: int = None
    count: int = None
    order: list[str] = None         # the companies still to operate, in order
    moved: list[str] = None         # the companies whose run has moved their price this round
    had_trains: list[str] = None
    pos: int = None
    corp: str = None                # whose turn it is
    tiles: int = None
    extra_tiles: int = None
    token: bool = None
    free_token: bool = None
    revenue: int = None
    trains: int = None
    special: str = None             # the private whose power took the turn's track
    station_step: str = None        # what took the station step other than a token, in the table's words
    track_open: bool = None
    points: int = None              # tile points this turn spent
    paid_tiles: list = None         # [hex, cost] of the tiles this turn paid for
    treasury: str = None            # "issue" or "redeem": what the company did with its treasury


SHARED_KINDS: dict[str, type[Round]] = {
    "setup": SetupRound, "over": OverRound, "auction": AuctionRound, "stock": StockRound,
    "operating": OperatingRound,
}

SHARED_KNOWN = frozenset(n for cls in SHARED_KINDS.values() for n in cls.__dataclass_fields__)
for _cls in SHARED_KINDS.values():
    _cls.KNOWN = SHARED_KNOWN

# (title, kind) -> the class of that kind of round in a game of the title
TYPES: dict[tuple[str, str], type[Round]] = {}
_DECLARED: dict[str, tuple] = {}   # title -> what its classes were made from


def field_types(cls: type[Round]) -> dict[str, str]:
    """A round class's fields and their declared types, as text."""
    return {f.name: f.type if isinstance(f.type, str) else f.type.__name__ for f in fields(cls)}


def declare(title: str, round_kinds, round_fields: dict) -> None:
    """Make the title's round classes: each shared kind with the fields the title's features add,
    and each kind of round the title adds. Declaring a title again as it was keeps its classes (a
    round made by one load of the title equals one made by the next)."""
    made_from = (tuple(round_kinds), tuple((k, tuple(sorted(v.items()))) for k, v in sorted(round_fields.items())))
    if _DECLARED.get(title) == made_from:
        return
    kinds = {**SHARED_KINDS, **{k: Round for k in round_kinds if k not in SHARED_KINDS},
             **{k: Round for k in round_fields if k not in SHARED_KINDS}}
    known = {"kind"} | {n for base in kinds.values() for n in field_types(base)} \
        | {n for own in round_fields.values() for n in own}
    for kind, base in kinds.items():
        own = round_fields.get(kind, {})
        name = f"{symbol(title)}{kind.title().replace('_', '')}Round"
        cls = make_dataclass(name, [(n, t, None) for n, t in own.items()], bases=(base,),
                             frozen=True, eq=False, repr=False, namespace={"KNOWN": frozenset(known)})
        cls.__module__ = __name__
        globals()[name] = cls   # found by its name, as a module's class is (copying, pickling)
        TYPES[(title, kind)] = cls
    _DECLARED[title] = made_from


def symbol(title: str) -> str:
    return "T" + re.sub(r"\W", "_", title)


def round_class(title: str, kind: str) -> type[Round]:
    cls = TYPES.get((title, kind)) or SHARED_KINDS.get(kind)
    if cls is None:
        raise ValueError(f"a round of kind {kind!r}, which no rule of {title} declares")
    return cls


def make_round(title: str, data: Mapping) -> Round:
    """The round a game of `title` keeps for this data (a round_started event's, a snapshot's). A
    key no longer declared (a field an older version kept) is passed over, as a stored game must
    still open."""
    if isinstance(data, Round) and type(data) is TYPES.get((title, data.kind), type(data)):
        return data
    cls = round_class(title, data["kind"])
    names = cls.__dataclass_fields__
    values = {k: v for k, v in data.items() if k in names}
    if isinstance(values.get("after"), Mapping):
        values["after"] = make_round(title, values["after"])
    return cls(**values)


def shared_fields() -> dict[str, dict[str, str]]:
    """Each shared kind's fields and their types, as text."""
    return {kind: field_types(cls) for kind, cls in SHARED_KINDS.items()}
