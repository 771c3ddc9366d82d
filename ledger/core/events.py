"""Every kind of event, declared once: its fields, how it changes the state, and its line in the log.

An event is stored and replayed as a plain dict (`{"kind": ..., fields...}`), which keeps replay
fast; its kind is declared here as a small class whose annotations are the fields (a field with a
default may be left out) and whose `apply` and `describe` say what it does and how the table reads
it. `emit` checks an event against its declaration, so a rule cannot record a field nobody reads.

Every event may also carry the generic effects the state applies the same way for every kind
(`EFFECTS`): money transfers, certificate, train and marker moves, stack order and train flags.
`apply(state, event)` applies an event: its effects, then its kind's own change.
A title module declares its own kinds with the same `event` decorator (rulesets/1843/ports.py).
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from typing import Any, Callable

from ledger.core.errors import LedgerCorrupt
from ledger.core.money import format_money
from ledger.core.round_kind import round_title
from ledger.core.state import (BANK, DEPOT, MINT, POOL, REMOVED, RUSTED, GameState, Station, acct_name, company_acct,
                                player_acct, train_type)

# Effects any event may carry; applied before the kind's own `apply` (see state.apply_effects).
EFFECTS = ("transfers", "certs", "trains", "moves", "restack", "flags", "assets")


class Kind:
    """A declared event kind."""

    def __init__(self, name: str, required: dict[str, Any], optional: dict[str, Any],
                 apply: Callable | None, describe: Callable | None, doc: str, defaults: dict | None = None,
                 held: Callable | None = None):
        self.name, self.required, self.optional = name, required, optional
        self.apply, self.describe, self.doc = apply, describe, doc
        self.defaults = defaults or {}
        self.held = held
        self.says_moves = False   # its own line says its marker moves (else `describe` adds them)

    def check(self, event: dict) -> None:
        missing = [f for f in self.required if f not in event]
        unknown = [f for f in event if f != "kind" and f not in self.required and f not in self.optional
                   and f not in EFFECTS]
        if missing or unknown:
            raise LedgerCorrupt(f"event {self.name}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
        for name, declared in {**self.required, **self.optional}.items():
            if name in event and not fits(event[name], declared, self.defaults.get(name, ...) is None):
                raise LedgerCorrupt(f"event {self.name}: {name} is {event[name]!r}, not a {declared}")


# The types an event's field may declare, and what each accepts (a field whose default is None also
# takes None): an event is JSON, so lists and tuples are one.
FIELD_TYPES = {"str": (str,), "int": (int,), "bool": (bool,), "list": (list, tuple), "dict": (dict,),
               "float": (int, float)}


def fits(value, declared, none_ok: bool) -> bool:
    if value is None:
        return none_ok
    kinds = FIELD_TYPES.get(str(declared))
    if kinds is None:   # a type this check does not know (Any): taken as it is
        return True
    if isinstance(value, bool) and bool not in kinds:   # True is an int to Python, never to a ledger
        return False
    return isinstance(value, kinds)


# The declared kinds: the shared engine's (namespace "") and each title's in its own namespace
# (ledger.core.parts.namespace_of), so two titles may name a kind alike.
KINDS: dict[str, dict[str, Kind]] = {"": {}}


def event(cls):
    """Declare an event kind from a class: annotations are fields, class defaults mark optional ones,
    `apply(s, e)` and `describe(e, rs)` are plain functions in its body; `held(e)`, where its own
    `apply` moves a holding, says which as [item, from account, to account] (as the generic effects
    do); `says_moves = True`, where its own `describe` words its marker moves (price_move), so the
    shared `describe` does not add them. A title's module declares its kinds in its title's
    namespace; none may take a shared kind's name."""
    from ledger.core.parts import namespace_of
    name = getattr(cls, "name", None) or re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    fields = cls.__dict__.get("__annotations__", {})
    required = {f: t for f, t in fields.items() if f not in cls.__dict__}
    optional = {f: t for f, t in fields.items() if f in cls.__dict__}
    namespace = namespace_of(cls.__module__)
    own = KINDS.setdefault(namespace, {})
    if name in own or (namespace and name in KINDS[""]):
        raise LedgerCorrupt(f"event kind {name} declared twice{f' (in {namespace})' if namespace else ''}")
    own[name] = Kind(name, required, optional, cls.__dict__.get("apply"), cls.__dict__.get("describe"),
                     (cls.__doc__ or "").strip(), {f: cls.__dict__[f] for f in optional}, cls.__dict__.get("held"))
    own[name].says_moves = bool(cls.__dict__.get("says_moves"))
    return cls


# A title's reading of its events as an older version of it stored them: namespace -> a function
# that rewrites an event in place in today's terms (a game file keeps every event it ever had).
UPGRADES: dict[str, Callable] = {}


def upgrades(fn: Callable) -> Callable:
    """Declare, in a title's module, how the title's older stored events read today."""
    from ledger.core.parts import namespace_of
    UPGRADES[namespace_of(fn.__module__)] = fn
    return fn


def kind_of(name: str, title: str) -> Kind | None:
    """A kind as a game of `title` reads it: its own, or a shared one."""
    return KINDS.get(title, {}).get(name) or KINDS[""].get(name)


def make(kind: str, fields: dict, title: str = "") -> dict:
    """An event dict of a kind the title declares (or a shared one), checked against its declaration."""
    declared = kind_of(kind, title)
    if declared is None:
        raise LedgerCorrupt(f"no event kind {kind!r} is declared")
    e = {"kind": kind, **fields}
    declared.check(e)
    return e


def apply_kind(s: GameState, e: dict) -> None:
    declared = kind_of(e["kind"], s.title)
    if declared is None:
        raise LedgerCorrupt(f"unknown event kind {e['kind']!r}")
    if declared.apply:
        declared.apply(s, e)


# --------------------------------------------------------------------------- applying events

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


def describe(e: dict, rs) -> str | None:
    """One log line for an event in the title's currency, or None for pure bookkeeping. Every
    marker the event moves is said with where it was and where it is now (the banker moves the
    physical markers from the log alone), unless the kind's own line says it."""
    declared = kind_of(e["kind"], rs.title)
    upgrade = UPGRADES.get(rs.title)
    if upgrade:
        upgrade(e)
    line = declared.describe(e, rs) if declared and declared.describe else None
    if line and not declared.says_moves:
        line += "".join(f"; {sym} {price_move(e, rs, sym)}" for sym, old, _new in e.get("moves", ())
                        if old is not None)   # a marker placed (a par, a listing) is its line's price
    return line


def price_move(e: dict, rs, sym: str) -> str:
    """How an event moves a company's marker, from and to: 'falls from $71 to $67', 'rises from
    $67 to $71', 'stays at $50' (the rule moved it nowhere: an edge, a protected price), and where
    the marker now sits in its cell's stack when the event re-stacked it ('..., under B&O')."""
    old, new = next(([o, n] for s, o, n in e.get("moves", ()) if s == sym), [None, None])
    return marker_move(rs, old, new) + stack_place(e, sym)


def marker_move(rs, old, new) -> str:
    """A marker's move between two cells (None: off the market), from and to, in the log's words."""
    if new is None:
        return "does not move" if old is None else f"leaves the market (was {rs.money(cell_price(rs, old))})"
    after = cell_price(rs, new)
    if old is None:
        return f"is placed at {rs.money(after)}"
    before = cell_price(rs, old)
    return (f"rises from {rs.money(before)} to {rs.money(after)}" if after > before else
            f"falls from {rs.money(before)} to {rs.money(after)}" if after < before else
            f"stays at {rs.money(after)}" if list(old) == list(new) else
            f"moves to another {rs.money(after)} box")


def cell_price(rs, cell) -> int:
    return rs.market[tuple(cell)].price


def stack_place(e: dict, sym: str) -> str:
    """Where an event's new stack order (top first) puts a marker among the others of its cell."""
    stack = next((list(st) for st in e.get("restack", ()) if sym in st), None)
    if not stack or len(stack) < 2:
        return ""
    at = stack.index(sym)
    return f", under {' and '.join(stack[:at])}" if at else f", on top of {' and '.join(stack[1:])}"


def holdings_moved(e: dict, title: str) -> list:
    """Every holding an event moves, as [item, from account, to account]: a certificate, a train,
    an asset, and what its kind's own rule moves (a private sold to a company)."""
    declared = kind_of(e["kind"], title)
    own = declared.held(e) if declared and declared.held else []
    return [list(m) for key in ("certs", "trains", "assets") for m in e.get(key, ())] + [list(m) for m in own]


# The holders that are no person or company, as the table names them.
PLACES = {POOL: "the pool", BANK: "the bank", DEPOT: "the bank", MINT: "the mint", RUSTED: "the rusted trains",
          REMOVED: "out of the game"}


def holder_words(acct: str | None) -> str:
    """An account as the table names the holder of a thing: 'Alice', 'PRR', 'the IPO', "PRR's
    treasury", 'the pool', 'the bank' (None: nobody, a certificate not yet issued)."""
    if acct is None:
        return "nobody"
    if acct in PLACES:
        return PLACES[acct]
    kind, _, name = acct.partition(":")
    return {"ipo": "the IPO", "treasury": f"{name}'s treasury"}.get(kind, name or acct)


def payees_text(e: dict, rs) -> str:
    """Each holder's payout: every player's, and the company's own for the shares of it that pay
    it ('PRR $30 for 3 pool shares'), so the banker pays the treasury as surely as the players."""
    owned = iter(company_paid_for(rs, e["corp"], sum(1 for a, _n, amt in e["payees"]
                                                      if amt and a.startswith("company:"))))
    return ", ".join(f"{acct_name(a)} {rs.money(amt)}"
                     + (f" for {counted(n, next(owned) + 'share')}" if a.startswith("company:") else "")
                     for a, n, amt in e["payees"] if amt) or "nobody"


def company_paid_for(rs, corp: str, entries: int) -> list[str]:
    """The holdings a company's own payout entries are for, in the order a payout lists them (the
    pool's shares, then its unsold ones: rules.revenue.dividends), as the words before 'share':
    'pool ', 'IPO ', 'treasury ' (or '' where its kinds leave it open). Read from the kind the
    company starts as, else from every kind of the title (a kind that converts pays alike)."""
    try:
        kinds = [rs.starting_kind(corp)]
    except KeyError:
        kinds = []
    for candidates in (kinds, list(rs.kinds.values())):
        sources = paying_holdings(candidates)
        if len(sources) == entries:
            return sources
    return [""] * entries


def paying_holdings(kinds) -> list[str]:
    """Which of a company's own holdings pay it a dividend under these kinds, pool first."""
    unsold = {k.unsold for k in kinds if k.ipo_pays == "company"}
    return ((["pool "] if any(k.pool_pays == "company" for k in kinds) else [])
            + ([{"ipo": "IPO ", "treasury": "treasury "}.get(next(iter(unsold)), "unsold ")
                if len(unsold) == 1 else "unsold "] if unsold else []))


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """'1 share', '2 shares': a count with its noun (`plural` where adding s is wrong)."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def a_train(train_id: str) -> str:
    """'a 2 train', 'an 8 train', 'a yellow train': a train as the table names it (its type, not
    the ledger's id of the one certificate)."""
    kind = train_type(train_id)
    article = "an" if kind[:1].upper() in "AEIOU8" or kind.startswith(("11", "18")) else "a"
    return f"{article} {kind} train"


# =========================================================================== the game and its rounds

@event
class GameStarted:
    """The bank is issued its money by the mint and pays each player's starting cash; every
    certificate is issued to its holder (`certs`) with its percent, and each company's president's
    certificate named (games recorded before these two fields took them from the ruleset)."""
    players: list
    percents: dict = None
    presidents: dict = None

    def apply(s, e):
        s.cert_percent.update(e.get("percents") or {})
        s.presidents.update(e.get("presidents") or {})

    def describe(e, rs):
        return "game started: " + ", ".join(f"{acct_name(t[1])} {rs.money(t[2])}" for t in e["transfers"]
                                            if t[0] != MINT)


@event
class RoundStarted:
    """A round begins; `round` is its whole bookkeeping, `priority` who holds the priority deal."""
    round: dict
    priority: int = 0

    def apply(s, e):
        s.round = dict(e["round"])
        if "priority" in e:
            s.priority = e["priority"]
        if e["round"]["kind"] == "operating" and e["round"]["index"] == 1:
            s.sets_played = e["round"]["set"]

    def describe(e, rs):
        return f"-- {round_title(e['round'])} --"


@event
class RoundUpdate:
    """Legacy (games recorded before typed events): turn bookkeeping as a bag of new values. Read,
    never written: each change now has its own kind below."""
    set: dict

    def apply(s, e):
        if "pos" in e["set"] and s.round.get("kind") == "operating":   # a company's turn began: as CorpTurnStarted
            s.round = {k: v for k, v in s.round.items() if k in OR_KEYS}
        s.round.update(e["set"])


@event
class StockRoundEnded:
    number: int
    priority: int

    def describe(e, rs):
        return f"stock round {e['number']} ends"


@event
class OperatingRoundEnded:
    set: int
    index: int


@event
class Seating:
    """The seating is re-dealt (1843 §7.1: by descending cash, ties keeping their order; 1839 D9.3:
    by the passing cards; D8: by ascending cash after the auction). `by` says how."""
    players: list
    cash: dict
    by: str = "by cash"

    def apply(s, e):
        s.players = list(e["players"])

    def describe(e, rs):
        return f"new player order {e.get('by', 'by cash')}: " + ", ".join(f"{p} {rs.money(e['cash'][p])}" for p in e["players"])


@event
class Pending:
    """The decisions that block play until answered (a par, a discard), in order."""
    pending: list

    def apply(s, e):
        s.pending = [dict(p) for p in e["pending"]]


@event
class Chosen:
    """A player answered a choice the rules asked for (the rule that settles it follows)."""
    player: str
    question: str
    option: str

    def describe(e, rs):
        return f"{e['player']} chooses {e['option']}: {answered(e['question'])}"


def answered(question: str) -> str:
    """A question the rules asked, as the statement its answer settles: 'where does Minor C operate
    in this OR (§15.3)?' -> 'where Minor C operates in this OR (§15.3)'."""
    # the subject is a name (capitalised words: 'Minor C', 'GWR'); any other question is kept as asked
    asked = re.match(r"(where|when|how|which|what) does ((?:[A-Z0-9][\w&'+-]* )+)([a-z]+)(.*)\?$", question)
    if not asked:
        return question.rstrip("?")
    how, subject, verb, rest = asked.groups()
    ending = "es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s"
    return f"{how} {subject}{verb}{ending}{rest}"


@event
class BankBroke:
    bank: int
    end_after_set: int
    end_at_or: list = None

    def apply(s, e):
        s.bank_broken = True
        s.end_after_set = e["end_after_set"]
        s.end_at_or = e.get("end_at_or")

    def describe(e, rs):
        after = f"OR {e['end_at_or'][0]}.{e['end_at_or'][1]}" if e.get("end_at_or") else f"set {e['end_after_set']}"
        return f"-- the bank has broken ({rs.money(e['bank'])}); the game ends after {after} --"


@event
class AxisPhaseChanged:
    """A phase axis the title adds beside the train phase moves to its next phase (1801: the
    Major railroad phase begins, in the middle of a stock round)."""
    axis: str
    phase: str

    def apply(s, e):
        s.axes = {**s.axes, e["axis"]: e["phase"]}

    def describe(e, rs):
        return f"-- the {e['phase']} {e['axis']} phase begins --"


@event
class EndDue:
    """A price reached an end cell in an OR: the game ends after this OR (1843 §8.10.1)."""
    corp: str
    price: int

    def apply(s, e):
        s.end_after_or = True

    def describe(e, rs):
        return f"-- {e['corp']} reaches {rs.money(e['price'])}: the game ends after this operating round --"


@event
class GameOver:
    reason: str

    def apply(s, e):
        s.game_over = True
        s.end_reason = e["reason"]
        s.round = {"kind": "over", "after": s.round}

    def describe(e, rs):
        return f"-- game over: {e['reason']} --"


@event
class Bankrupt:
    """A president cannot pay for a forced train; `cash` is what he held, `transfers` what moved."""
    player: str
    corp: str
    cash: int

    def apply(s, e):
        s.bankrupt = s.bankrupt + [e["player"]]

    def describe(e, rs):
        line = f"{e['player']} is bankrupt ({e['corp']} cannot buy a train): "
        if e.get("transfers"):
            return line + f"{rs.money(sum(amount for _payer, _payee, amount in e['transfers']))} to the bank"
        return line + "no money moves" + (f" ({e['player']} keeps {rs.money(e['cash'])})" if e["cash"] else "")


@event
class RulesWaived:
    """The banker forced a command: the rules it broke and why."""
    rules: list
    reason: str
    command: str

    def describe(e, rs):
        return f"FORCED ({e['reason']}): waived " + ("; ".join(e["rules"]) or "nothing")


@event
class Adjustment:
    """A logged, balanced correction between two accounts."""
    reason: str
    amount: int

    def describe(e, rs):
        return f"ADJUSTMENT ({e['reason']}): {rs.money(e['amount'])} from {acct_name(e['from'])} to {acct_name(e['to'])}"


# An adjustment names its accounts "from" and "to", which are Python keywords, so not annotations.
KINDS[""]["adjustment"].required.update({"from": "str", "to": "str"})


@event
class Count:
    """A physical count of a player's money compared with the ledger (no money moves)."""
    player: str
    counted: int
    ledger: int
    difference: int

    def describe(e, rs):
        said = f"count: {e['player']} has {rs.money(e['counted'])} on the table, the ledger says {rs.money(e['ledger'])}"
        if e["counted"] == e["ledger"]:
            return said + " — they agree"
        return f"{said}: {who_owes_whom(e, rs)} (if the ledger is wrong instead: {mend_ledger(e)})"


def who_owes_whom(e: dict, rs) -> str:
    """A count that differs from the ledger, as the table settles it: who hands money to whom."""
    who, gap = e["player"], abs(e["counted"] - e["ledger"])
    if e["counted"] < e["ledger"]:
        return f"{who} is {rs.money(gap)} short, so the bank owes {who} {rs.money(gap)}"
    return f"{who} has {rs.money(gap)} too much, so {who} owes the bank {rs.money(gap)}"


def mend_ledger(e: dict) -> str:
    """The command that makes the ledger agree with a count that was right."""
    who, gap = e["player"], abs(e["counted"] - e["ledger"])
    payer, payee = ("bank", who) if e["counted"] > e["ledger"] else (who, "bank")
    return f"adjust {payer} {payee} {gap} --reason ..."


def signed_money(n: int, currency: str) -> str:
    """A difference with its sign always shown, in front as a person writes it: '+$5', '-$41',
    '-41fr'."""
    return ("-" if n < 0 else "+") + format_money(abs(n), currency)


# =========================================================================== the auction

@event
class AuctionTurn:
    """Whose turn it is in the auction and how many have passed in a row (after a purchase, also
    who bought last)."""
    turn: int
    passes: int
    last_buyer: int = None

    def apply(s, e):
        s.round = {**s.round, "turn": e["turn"], "passes": e["passes"]}
        if e.get("last_buyer") is not None:
            s.round["last_buyer"] = e["last_buyer"]


@event
class BiddingWar:
    """A bidding war opens for the cheapest private (or ends: `private` is None)."""
    private: str = None

    def apply(s, e):
        s.round = {**s.round, "war": e.get("private")}


@event
class Bid:
    player: str
    private: str
    amount: int
    war: bool = False

    def apply(s, e):
        bids = dict(s.round["bids"])
        bids[e["private"]] = {**bids.get(e["private"], {}), e["player"]: e["amount"]}
        s.round = {**s.round, "bids": bids}

    def describe(e, rs):
        return f"{e['player']} bids {rs.money(e['amount'])} on {e['private']}"


@event
class BidDropped:
    player: str
    private: str
    amount: int

    def apply(s, e):
        bids = dict(s.round["bids"])
        bids[e["private"]] = {p: a for p, a in bids[e["private"]].items() if p != e["player"]}
        s.round = {**s.round, "bids": bids}

    def describe(e, rs):
        return f"{e['player']} drops out of the bidding for {e['private']} (bid {rs.money(e['amount'])})"


@event
class AuctionPass:
    player: str

    def describe(e, rs):
        return f"{e['player']} passes"


@event
class PrivateBought:
    player: str
    private: str
    price: int
    normal: bool = True

    def apply(s, e):
        s.privates[e["private"]].owner = player_acct(e["player"])
        if s.round.get("kind") == "auction":
            s.round = {**s.round, "bids": {k: v for k, v in s.round["bids"].items() if k != e["private"]}}

    def describe(e, rs):
        return (f"{e['player']} buys {e['private']} for {rs.money(e['price'])}"
                + "".join(f"; receives {certificate_words(rs, c[0])}" for c in e.get("certs", ())))


def certificate_words(rs, cert: str) -> str:
    """A certificate as issued at the start, in the table's words (not the ledger's id 'PRR.1'):
    '10% of PRR', "the B&O president's certificate (20%)"."""
    corp, _, index = cert.rpartition(".")
    try:
        kind = rs.starting_kind(corp)
        percent = kind.certificates[int(index)]
    except (KeyError, ValueError, IndexError, StopIteration):
        return cert   # a certificate the title's data does not number: its id is all there is
    if int(index) == 0 and kind.president:
        return f"the {corp} president's certificate ({percent}%)"
    return f"{percent}% of {corp}"


@event
class PrivateDiscounted:
    private: str
    price: int

    def apply(s, e):
        s.privates[e["private"]].price = e["price"]

    def describe(e, rs):
        return f"nobody bought: {e['private']} now costs {rs.money(e['price'])}"


@event
class PrivateRevenue:
    """Owned privates pay their owners: [symbol, owner account, amount]."""
    privates: list

    def describe(e, rs):
        return "privates pay: " + ", ".join(f"{sym} {rs.money(amt)} to {acct_name(o)}" for sym, o, amt in e["privates"])


# =========================================================================== stock rounds

@event
class SrTurn:
    """A stock-round turn ends: `turn` acts next; `passes` counts passes in a row."""
    turn: int
    passes: int

    def apply(s, e):
        s.round = {k: v for k, v in s.round.items()
                   if k not in ("free_action", "sale_at", "turn_sold", "sold_first")}   # a turn's (1801 §10)
        s.round.update(turn=e["turn"], passes=e["passes"], acted=False, buys=[])


@event
class SrActed:
    """The player whose turn it is bought (`bought`: [company, source]) or sold (`sold`: company)."""
    player: str
    index: int
    bought: list = None
    sold: str = None
    turn_sales: bool = None   # the title's turn order counts this turn's sales (stock.order, sell_in_blocks)

    def apply(s, e):
        r = {**s.round, "acted": True, "last_actor": e["index"]}
        if e.get("bought"):
            r["buys"] = r["buys"] + [list(e["bought"])]
        if e.get("sold"):
            r["sold"] = {**r["sold"], e["player"]: r["sold"].get(e["player"], []) + [e["sold"]]}
        if e.get("sold") and e.get("turn_sales"):
            # this turn's sales, and whether they came before its purchase (stock.order, sell_in_blocks)
            r["turn_sold"] = r.get("turn_sold", []) + [e["sold"]]
            r["sold_first"] = r.get("sold_first", False) or not r["buys"]
        if "passers" in r:  # acting hands back a passing card (1839 D9.3)
            r["passers"] = [p for p in r["passers"] if p != e["player"]]
        s.round = r


@event
class DirectorsNoted:
    """The companies a player directs as his turn's buying begins (1839 §7.3's several purchases)."""
    player: str
    corps: list

    def apply(s, e):
        s.round = {**s.round, "directs": list(e["corps"])}


@event
class StockPass:
    player: str

    def apply(s, e):
        if "passers" in s.round and e["player"] not in s.round["passers"]:
            # the lowest free passing card; a player who holds one keeps it (1839 D9.3)
            s.round = {**s.round, "passers": s.round["passers"] + [e["player"]]}

    def describe(e, rs):
        return f"{e['player']} passes"


@event
class Par:
    player: str
    corp: str
    price: int
    cost: int = 0
    par_round: bool = False  # its unsold shares sell at par for the rest of this stock round

    def apply(s, e):
        s.corps[e["corp"]].par = e["price"]
        if e.get("par_round"):
            s.round = {**s.round, "at_par": [*s.round.get("at_par", []), e["corp"]]}

    def describe(e, rs):
        return (f"{e['player']} pars {e['corp']} at {rs.money(e['price'])}"
                + (f" (pays {rs.money(e['cost'])})" if e.get("cost") else ""))


@event
class ShareBought:
    player: str
    corp: str
    source: str
    price: int
    percent: int

    def describe(e, rs):
        held = e.get("certs") or [[None, ""]]
        where = ("the pool" if e["source"] == "pool" else
                 f"{e['corp']}'s treasury" if str(held[0][1]).startswith("treasury:") else "the IPO")
        return f"{e['player']} buys {e['percent']}% of {e['corp']} from {where} for {rs.money(e['price'])}"


@event
class SharesSold:
    player: str
    corp: str
    count: int
    price: int
    amount: int
    president: str = None
    held_price: bool = False   # the turn's later sales of this company keep this price (1801 §10.1)

    def apply(s, e):
        if e.get("held_price") and e["corp"] not in s.round.get("sale_at", {}):
            s.round = {**s.round, "sale_at": {**s.round.get("sale_at", {}), e["corp"]: e["price"]}}

    says_moves = True   # the marker's move is said before the presidency it may change

    def describe(e, rs):
        line = (f"{e['player']} sells {counted(e['count'], e['corp'] + ' share')} at {rs.money(e['price'])} for "
                f"{rs.money(e['amount'])}")
        if e.get("moves"):
            line += f"; {e['corp']} {price_move(e, rs, e['corp'])}"
        if e.get("president"):
            line += f"; {e['president']} becomes president of {e['corp']}{swapped(e)}"
        return line


@event
class PresidentChanged:
    corp: str
    old: str
    new: str

    def describe(e, rs):
        return f"{e['new']} becomes president of {e['corp']} (was {e['old']}){swapped(e)}"


def swapped(e: dict) -> str:
    """The certificates a change of president trades between two players: the president's
    certificate (the first to move) to the new president, shares of the same percent back."""
    between = [(cert, acct_name(dest)) for cert, source, dest in e.get("certs", ())
               if str(source).startswith("player:") and str(dest).startswith("player:")]
    if not between:
        return ""
    (_pres, new), back = between[0], Counter(dest for _c, dest in between[1:])
    return (f": the president's certificate to {new}"
            + "".join(f", {counted(n, 'share')} to {who}" for who, n in back.items()))


@event
class Floated:
    corp: str
    capital: int

    def apply(s, e):
        corp = s.corps[e["corp"]]
        corp.floated = True
        if corp.cell is None:  # off the market: its float order is its operating order
            s.seq += 1
            corp.arrival = s.seq

    def describe(e, rs):
        return f"{e['corp']} floats: receives {rs.money(e['capital'])}" if e["capital"] else f"{e['corp']} floats"


@event
class Exchange:
    """A private exchanged for a share (`source` ipo/pool) or a director's certificate (`director`)."""
    player: str
    private: str
    corp: str
    source: str
    price: int = 0

    def apply(s, e):
        s.privates[e["private"]].closed = True

    def describe(e, rs):
        if e["source"] == "director":
            return (f"{e['player']} exchanges {e['private']} for {e['corp']}'s director's certificate, paying "
                    f"{rs.money(e['price'])}")
        source = "IPO" if e["source"] == "ipo" else e["source"]
        return f"{e['player']} exchanges {e['private']} for a {e['corp']} share from the {source}"


@event
class CompanyListed:
    """A company with no director goes on the market at a price of its own (its data, or its
    title's rule), where players may buy its shares."""
    corp: str
    price: int

    def apply(s, e):
        s.corps[e["corp"]].par = e["price"]

    def describe(e, rs):
        return f"{e['corp']} is listed at {rs.money(e['price'])}"


@event
class CompanyConverted:
    """A company becomes another kind (1801: a regional expands into a major): its certificates
    are re-valued in place (`percents`), new ones issued (`certs`, from nobody), and its
    president's certificate named (None: a kind with no director). Every company still sums to
    100 %."""
    corp: str
    becomes: str   # the company kind it is now
    percents: dict
    president: str = None

    def apply(s, e):
        s.corps[e["corp"]].kind = e["becomes"]
        s.cert_percent.update(e["percents"])
        presidents = dict(s.presidents)
        if e.get("president"):
            presidents[e["corp"]] = e["president"]
        else:
            presidents.pop(e["corp"], None)
        s.presidents = presidents

    def describe(e, rs):
        return f"{e['corp']} becomes a {e['becomes']}"


@event
class SharesIssued:
    """A company sells shares from its treasury to the pool (or, `redeem`, buys them back)."""
    corp: str
    count: int
    price: int
    amount: int
    redeem: bool = False

    def apply(s, e):
        if "corp" in s.round:  # a company either issues or buys back in its turn, not both
            s.round = {**s.round, "treasury": "redeem" if e.get("redeem") else "issue"}

    def describe(e, rs):
        verb = "buys back" if e.get("redeem") else "issues"
        return (f"{e['corp']} {verb} {counted(e['count'], 'share')} at {rs.money(e['price'])} for "
                f"{rs.money(e['amount'])}")


@event
class SoldOut:
    corp: str
    says_moves = True

    def describe(e, rs):
        return f"{e['corp']} is sold out: its price " + (price_move(e, rs, e["corp"]) if e.get("moves") else "rises")


# =========================================================================== operating rounds

# An operating round's own keys: what lasts from one company's turn to the next. Every other key of
# the round is the turn's bookkeeping (the shared steps' below, and any a title's rules keep): it
# is dropped when the next company's turn starts, so a title needs to declare none of its own.
OR_KEYS = ("kind", "set", "index", "count", "order", "pos", "corp", "moved", "had_trains")
# The shared steps' bookkeeping as a turn starts.
TURN_RESET = {"tiles": 0, "extra_tiles": 0, "token": False, "free_token": False, "revenue": None, "trains": 0,
              "special": None}


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
            s.round = {k: v for k, v in s.round.items() if k in OR_KEYS}
            s.round.update(pos=e["pos"], corp=e["corp"], **TURN_RESET)
        corp = s.corps[e["corp"]]
        if e.get("home_token"):
            homes = e.get("homes", 1)
            corp.tokens_used += homes
            corp.stations = corp.stations + tuple(home_station(e, slot) for slot in range(1, homes + 1))
        corp.operated = True

    def describe(e, rs):
        homes = e.get("homes", 1)
        placed = (f" and places its {homes} home tokens" if homes > 1 else " and places its home token")
        return f"{e['corp']} operates ({e.get('president') or 'no director'})" + (placed if e.get("home_token") else "")


@event
class OrOrder:
    """The companies still to operate in this OR are re-sorted (an emergency sale moved a price)."""
    order: list

    def apply(s, e):
        s.round = {**s.round, "order": list(e["order"])}


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
    steps: list = None
    points: int = None  # tile points it cost, where the company's kind counts them

    def apply(s, e):
        if s.round.get("kind") != "operating":
            return
        key = "extra_tiles" if e.get("extra") else "tiles"
        s.round = {**s.round, key: s.round[key] + 1}
        if e.get("points"):
            s.round["points"] = s.round.get("points", 0) + e["points"]
            if e["cost"]:  # what this turn's track cost, for a refund (1801 §11.6.5)
                s.round["paid_tiles"] = [*s.round.get("paid_tiles", []), [e.get("hex"), e["cost"]]]
        if e.get("free_token"):
            s.round["free_token"] = True

    def describe(e, rs):
        return (f"{e['corp']} lays a tile" + (f" using {e['private']}" if e.get("private") else "")
                + (f" for {rs.money(e['cost'])}" if e["cost"] else ""))


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
    steps: list = None

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.tokens_used += 1
        c.stations = c.stations + (placed_station(c, e),)
        if s.round.get("kind") != "operating":
            return
        s.round = {**s.round, "token": True, "free_token": False}
        if e.get("private"):
            s.round.update(special=e["private"], tiles=s.round["tiles"] + 1)

    def describe(e, rs):
        where = f" at {e['city']}" if e.get("city") else ""
        return f"{e['corp']} places a token{where} for {rs.money(e['cost'])}"


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
    payees: list = None
    kept: int = None  # a half payout: what the company keeps

    def apply(s, e):
        s.corps[e["corp"]].last_run = (e["revenue"], e["how"])
        if s.round.get("kind") == "operating":
            s.round = {**s.round, "revenue": e["revenue"], "moved": s.round.get("moved", []) + [e["corp"]]}

    def describe(e, rs):
        if e["how"] == "withhold":
            return f"{e['corp']} withholds {rs.money(e['revenue'])}"
        if e["how"] == "half":
            said = f"{e['corp']} runs for {rs.money(e['revenue'])}, keeps {rs.money(e['kept'])} and pays out half"
        else:
            said = f"{e['corp']} pays out {rs.money(e['revenue'])}"
        if Fraction(e.get("per_share") or 0).denominator > 1:
            # a share's part is not whole money ("£12.5"): the rules round each holder's payout
            # instead (1830 digest #1, 1801 §11.4, 1839 D11.2), so the line says so, not the fraction
            return f"{said}, {PAYOUT_ROUNDING[rs.k('company', 'dividend_rounding')]}: {payees_text(e, rs)}"
        return f"{said} ({format_money(e['per_share'], rs.currency)}/share): {payees_text(e, rs)}"


# How each holder's part of a payout is rounded, by the title's rule (ruleset: dividend_rounding).
PAYOUT_ROUNDING = {
    "ceil_per_holder": "each holder's payout rounded up",
    "floor_per_holder": "each holder's payout rounded down",
    "ceil_players_floor_company": "each player's payout rounded up, the company's down",
}


# =========================================================================== trains and phases

@event
class TrainBought:
    corp: str
    train: str
    type: str
    seller: str
    price: int
    side: str = None
    contribution: int = 0
    president: str = None
    trade_in: str = None
    rusted: bool = False

    def apply(s, e):
        s.corps[e["corp"]].trained = True
        if s.round.get("kind") == "operating":
            s.round = {**s.round, "trains": s.round.get("trains", 0) + 1}

    def describe(e, rs):
        seller = "the bank" if e["seller"] == DEPOT else acct_name(e["seller"])   # the supply is the bank's
        return (f"{e['corp']} buys a {e.get('side') or e['type']} train from {seller} for "
                f"{rs.money(e['price'])}" + (" (a rusted certificate)" if e.get("rusted") else "")
                + (f" trading in a {e['trade_in']}" if e.get("trade_in") else "")
                + (f" ({e['president']} contributes {rs.money(e['contribution'])})" if e.get("contribution") else ""))


@event
class PhaseChanged:
    phase: str
    train: str
    limit: int
    certificate_limit: int = None
    rusted: list = None
    obsolete: list = None

    def apply(s, e):
        s.phase = e["phase"]

    def describe(e, rs):
        certs = e.get("certificate_limit", e["limit"])
        return (f"-- phase {e['phase']} (train limit {e['limit']}"
                + (f" trains / {certs} certificates" if certs != e["limit"] else "") + ") --"
                + (f" rusted: {rusted_text(e)}" if e.get("rusted") else ""))


@event
class TrainsRusted:
    train: str
    rusted: list
    obsolete: list = None

    def describe(e, rs):
        return f"trains rust: {rusted_text(e)}"


def rusted_text(e: dict) -> str:
    """The trains that rust, by type, with whose they were: 'the 2 trains (6: PRR, NYC ×2, pool ×3)'
    (not the ledger's ids of the certificates, which the table never sees)."""
    holders = {t: acct_name(h) for t, h, _to in e.get("trains") or ()}
    by_type: dict[str, list[str]] = {}
    for t in e["rusted"]:
        by_type.setdefault(train_type(t), []).append(holders.get(t, ""))
    parts = []
    for kind, whose in by_type.items():
        held = ", ".join(w if n == 1 else f"{w} ×{n}" for w, n in Counter(w for w in whose if w).items())
        parts.append(f"the {kind} {'train' if len(whose) == 1 else 'trains'} ({len(whose)}"
                     + (f": {held})" if held else ")"))
    return ", ".join(parts)


@event
class TrainDiscarded:
    corp: str
    train: str
    rusted: bool = False

    def describe(e, rs):
        where = "out of the game" if (e.get("trains") or [[0, 0, "pool"]])[0][2] == "removed" else "to the pool"
        return f"{e['corp']} discards {a_train(e['train'])} {where}"


@event
class ObsoleteDiscarded:
    """Obsolete certificates have made their last run and leave play."""
    corp: str

    def describe(e, rs):
        gone = [a_train(t[0]) for t in e["trains"]]
        return f"{e['corp']}'s obsolete {'train leaves' if len(gone) == 1 else 'trains leave'} play: {', '.join(gone)}"


# =========================================================================== privates

@event
class PrivateSold:
    corp: str
    private: str
    seller: str
    price: int

    def apply(s, e):
        s.privates[e["private"]].owner = company_acct(e["corp"])

    def held(e):   # the money went to the seller's account: the private came from it
        return [[e["private"], e["transfers"][0][1], company_acct(e["corp"])]] if e.get("transfers") else []

    def describe(e, rs):
        return f"{e['corp']} buys {e['private']} from {e['seller']} for {rs.money(e['price'])}"


@event
class PrivatesClosed:
    privates: list
    reason: str

    def apply(s, e):
        for sym in e["privates"]:
            s.privates[sym].closed = True

    def describe(e, rs):
        return f"privates close ({e['reason']}): {', '.join(e['privates'])}"


@event
class PrivateDiscarded:
    """In a forced train purchase the director hands a private to the bank (1843 §8.8.3)."""
    player: str
    private: str
    price: int

    def describe(e, rs):
        return f"{e['player']} hands {e['private']} to the bank for {rs.money(e['price'])}"
