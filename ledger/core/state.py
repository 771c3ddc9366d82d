"""Game state and how events change it.

State is plain data. `apply(state, event)` changes a state in place and is used by replay; `evolve`
is its pure form. Events already carry every result (amounts, cells, certificates, trains), so
applying them needs no rules: the generic parts (money, certificates, markers, trains) are applied
the same way for every event, and a small handler per kind updates the round bookkeeping.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ledger.core.round_kind import label_of
from ledger.core.round_state import Round, make_round

BANK = "bank"
REMAINDER = "remainder"  # money held back beside the bank until the title pays it in (1801 §13)
MINT = "mint"  # where the bank's starting money comes from; its balance is minus the bank total
POOL = "pool"
DEPOT = "depot"
RUSTED = "rusted"
REMOVED = "removed"  # out of the game without rusting (1839: a train over the limit is discarded unpaid)
UNUSED = "unused"    # a component left out of this game at the set-up (1839: the sixth 5+ unless drawn for)


def player_acct(name: str) -> str:
    return f"player:{name}"


def company_acct(sym: str) -> str:
    return f"company:{sym}"


def ipo_acct(sym: str) -> str:
    return f"ipo:{sym}"


def acct_name(acct: str) -> str:
    return acct.split(":", 1)[1] if ":" in acct else acct


@dataclass(frozen=True)
class Station:
    """A station marker on the map: where (the hex or city as typed; None when the title or the
    table does not name it), from which charter slot (1 = the first printed; None when not known),
    and what it cost. `atop`: it sits on another of the company's own markers (an exchange
    marker), so it is no map location of its own."""
    city: str | None = None
    slot: int | None = None
    cost: int = 0
    home: bool = False
    atop: bool = False


@dataclass
class Corp:
    sym: str
    kind: str = ""  # its company kind now (ruleset.CompanyKind); an event may convert it
    par: int | None = None
    cell: tuple[int, int] | None = None
    arrival: int = 0  # stacking order within a market cell: lower arrived earlier
    floated: bool = False
    tokens_used: int = 0  # markers on the map, the home one included
    operated: bool = False
    trained: bool = False  # has bought a train at least once
    stations: tuple[Station, ...] = ()  # those markers, in the order placed (replaced, never changed in place)
    last_run: tuple | None = None  # its last run: (revenue, "pay" / "half" / "withhold")

    def copy(self) -> "Corp":
        """A copy (its fields are values or tuples: a shallow copy shares nothing mutable); made
        for every company at every decision, so without copy.copy's generic machinery."""
        new = Corp.__new__(Corp)
        new.__dict__.update(self.__dict__)
        return new


@dataclass
class Asset:
    """A holding that is neither a certificate nor a train, with exactly one holder: a private
    company, and whatever a title adds (1843: a port marker; 1801: concessions, zone chits, port
    authorities, Pullmans, absorbed charters)."""
    sym: str
    owner: str | None = None  # the account holding it (player:X, company:Y); None: the bank / the map
    closed: bool = False      # closed, or turned face down (no income, no score)
    price: int = 0            # an unsold private's auction price now
    used: list = field(default_factory=list)  # powers used (DH tile, CS lay)
    kind: str = "private"

    def copy(self) -> "Asset":
        new = Asset.__new__(Asset)
        new.__dict__.update(self.__dict__)
        new.used = list(self.used)
        return new


Private = Asset  # a private company is the first kind of asset


class Holdings(dict):
    """Thing -> its holder (certificates, trains), that also answers holder -> things, read once
    per change: the limits and the answer of what is legal ask it for every company and player."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._by_holder = None

    def __setitem__(self, key, value):
        self._by_holder = None
        super().__setitem__(key, value)

    def __delitem__(self, key):
        self._by_holder = None
        super().__delitem__(key)

    def update(self, *args, **kwargs):
        self._by_holder = None
        super().update(*args, **kwargs)

    def pop(self, *args):
        self._by_holder = None
        return super().pop(*args)

    def setdefault(self, key, default=None):
        self._by_holder = None
        return super().setdefault(key, default)

    def clear(self):
        self._by_holder = None
        super().clear()

    def by_holder(self) -> dict[str, list]:
        """Holder -> its things, in the order of the mapping."""
        if self._by_holder is None:
            index: dict = {}
            for thing, holder in self.items():
                index.setdefault(holder, []).append(thing)
            self._by_holder = index
        return self._by_holder

    def __reduce__(self):
        return (Holdings, (dict(self),))

    def copy(self) -> "Holdings":
        """A copy that shares the index until either changes (the index is replaced, never changed)."""
        new = Holdings(self)
        new._by_holder = self._by_holder
        return new


@dataclass
class GameState:
    title: str
    players: list[str]
    options: dict
    cert_limit: int
    balances: dict[str, int]
    certs: dict[str, str]  # cert id -> holder account
    cert_percent: dict[str, int]  # cert id -> percent it is now (an event may re-value it)
    assets: dict[str, Asset]  # every asset by its symbol, privates first
    corps: dict[str, Corp]
    trains: dict[str, str]  # train id -> holder (depot, pool, company:X, rusted)
    phase: str
    round: Round  # the round's bookkeeping, of its kind (ledger.core.round_state); a dict is made one
    priority: int = 0
    seq: int = 0
    bank_broken: bool = False
    end_after_set: int | None = None
    game_over: bool = False
    end_reason: str | None = None
    bankrupt: list = field(default_factory=list)
    pending: list = field(default_factory=list)  # obligations that block play: par choice, discards
    sets_played: int = 0
    # train id -> flags: side (the side in use, when not the first), obsolete, bought_rusted (a
    # rusted certificate bought again), and those a title adds
    train_flags: dict = field(default_factory=dict)
    end_after_or: bool = False  # a price reached an end cell in this OR: the game ends after it
    end_at_or: list | None = None  # [set, index]: the bank broke and the game ends after that OR
    # company -> its president's certificate (a company of a kind with no director has none)
    presidents: dict = field(default_factory=dict)
    # phase axis -> its phase now, for the axes a title adds beside the train phase (1801: the
    # railroad phase); `phase` is the train phase
    axes: dict = field(default_factory=dict)
    # what a title's own rules keep: an instance of the dataclass its package declares (STATE,
    # ledger.core.parts), whose fields only the title knows; None for a title that keeps nothing.
    # Its event kinds replace a field's value, never change it in place, so a shallow copy is safe.
    own: Any = None

    def __post_init__(self):
        if not isinstance(self.certs, Holdings):
            self.certs = Holdings(self.certs)
        if not isinstance(self.trains, Holdings):
            self.trains = Holdings(self.trains)
        self.round = make_round(self.title, self.round)

    def clone(self) -> "GameState":
        """A copy sharing nothing mutable (hand-written: deepcopy was most of a command's cost)."""
        new = copy.copy(self)
        new.players = list(self.players)
        new.options = dict(self.options)
        new.balances = dict(self.balances)
        new.certs = self.certs.copy() if isinstance(self.certs, Holdings) else Holdings(self.certs)
        new.trains = self.trains.copy() if isinstance(self.trains, Holdings) else Holdings(self.trains)
        new.assets = {k: a.copy() for k, a in self.assets.items()}
        new.corps = {k: c.copy() for k, c in self.corps.items()}
        # the round is shared: it is frozen, and event appliers replace its nested values, never change them
        new.bankrupt = list(self.bankrupt)
        new.pending = [dict(p) for p in self.pending]
        new.train_flags = {k: dict(v) for k, v in self.train_flags.items()}
        new.own = copy.copy(self.own)
        new.cert_percent = dict(self.cert_percent)
        new.presidents = dict(self.presidents)
        new.axes = dict(self.axes)
        return new

    @property
    def privates(self) -> dict[str, Asset]:
        """The private companies (the assets of kind private), by symbol."""
        return {k: a for k, a in self.assets.items() if a.kind == "private"}

    # --- small read helpers used everywhere
    def cash(self, acct: str) -> int:
        return self.balances.get(acct, 0)

    def player_index(self, name: str) -> int:
        return self.players.index(name)

    def next_player(self, index: int, step: int = 1) -> int:
        return (index + step) % len(self.players)

    def corp_trains(self, sym: str) -> list[str]:
        return list(self.held_trains().get(company_acct(sym), ()))

    def pool_trains(self) -> list[str]:
        return list(self.held_trains().get(POOL, ()))

    def held_trains(self) -> dict[str, list[str]]:
        """Holder -> its train ids, in the order of `trains`."""
        if not isinstance(self.trains, Holdings):
            self.trains = Holdings(self.trains)
        return self.trains.by_holder()

    def certs_of(self, holder: str, corp: str | None = None) -> list[str]:
        held = self.held_certs().get(holder, ())
        return list(held) if corp is None else [c for c in held if c.split(".")[0] == corp]

    def percent_of(self, holder: str, corp: str) -> int:
        return sum(self.cert_percent[c] for c in self.certs_of(holder, corp))

    def held_certs(self) -> dict[str, list[str]]:
        """Holder -> its certificate ids, in the order of `certs`."""
        if not isinstance(self.certs, Holdings):
            self.certs = Holdings(self.certs)
        return self.certs.by_holder()

    def president(self, corp: str) -> str | None:
        holder = self.certs.get(self.presidents.get(corp, ""))
        return acct_name(holder) if holder and holder.startswith("player:") else None


def round_label(s: "GameState") -> str:
    """'Auction', 'SR 3', 'OR 2.1' or 'Game over': how the table names the current round (each round
    kind names itself, ledger.core.round_kind)."""
    return label_of(s.round)


def train_type(train_id: str) -> str:
    return train_id.split(".")[0]


def cert_corp(cert_id: str) -> str:
    return cert_id.rsplit(".", 1)[0]
