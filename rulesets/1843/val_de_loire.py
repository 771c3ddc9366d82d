"""Cie du Val de Loire (RULES §10.2, digest D3.3), the private of three powers:

* `exchange PLAYER VDL CORP [--par PRICE]`: for any IPO certificate, or an unstarted company's
  director's half (the player pays the other half and sets the par);
* `use CORP VDL TRAIN`, the Engineers: the train goes obsolete instead of rusting (it runs once more,
  then leaves);
* `buy-private CORP VDL PRICE --as-train`: in the data's player counts, before the data's phase, the
  private becomes a train of the data's type.
Which private has which power is its `abilities` in the data; any other private plays as the shared
rules say.
"""

from __future__ import annotations

from ledger.core.plays import join_words

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import a_train, event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.rounds import operating, stock
from ledger.core.rules import privates, shares, train_step, trains
from ledger.core.rules.market import par_cell
from ledger.core.rules.turn import operating_corp
from ledger.core.state import BANK, DEPOT, company_acct, player_acct, train_type

from .base import own_sides

# The abilities of Val de Loire that only this module reads.
PRIVATE_ABILITIES = {
    "exchange_any": bool,          # for any IPO certificate, or an unstarted company's director's half
    "engineers": bool,             # a train goes obsolete instead of rusting
    "converts_to_train": str,      # bought by a company, it becomes this train
    "convert_players": list,       # ... in games of these player counts
    "convert_before_phase": str,   # ... before this phase
}


# How `bank info` says these abilities (ledger.interface.powers reads them through the title's parts).
ABILITY_WORDS = {
    "exchange_any": lambda v, rs: "exchanged for any IPO certificate or an unstarted company's director's half",
    "engineers": lambda v, rs: "its engineers make a train obsolete instead of rusted",
    "converts_to_train": lambda v, rs: f"bought by a company, it becomes a {v} train",
    "convert_players": lambda v, rs: f"with {join_words([str(x) for x in v])} players",
    "convert_before_phase": lambda v, rs: f"before phase {v}",
}

GRAMMAR = TitleGrammar(
    verbs=(
        Verb("use", "operating", "The company uses a private's power on TARGET (1843: VDL's Engineers on a "
             "train).", "bank use EST VDL 2+1",
             (Arg("corp", "company"), Arg("private", "private"), Arg("target", "side", optional=True)), label="Use Val de Loire's Engineers"),
    ),
    options={
        "exchange": (Opt("--par", "par", kind="amount",
                         help="par of an unstarted company (1843 VDL)"),),
        "buy-private": (Opt("--as-train", "as_train", True, help="1843: Val de Loire becomes a 2 train"),),
    },
)


def register(reg) -> None:
    reg.verb("use", cmd_use, "operating", candidates={"private": engineers_of,
                                                      "target": lambda s, rs, corp, args: own_sides(s, rs, corp)},
             phrase=lambda s, rs, corps: "Val de Loire's Engineers ({command})")
    words = {**stock.EXCHANGE_WORDS, "par": exchange_pars}
    reg.rework("stock", "exchange", handler=exchange_in_sr, bars=exchange_bars, candidates=words)
    reg.rework("operating", "exchange", handler=exchange_in_or, bars=exchange_bars, candidates=words)
    reg.rework("operating", "buy-private", handler=cmd_buy_private)
    reg.owner_flags.add("engineers")
    reg.protecting_flags.add("engineers")
    reg.train_marks["engineers"] = "engineers"


# --------------------------------------------------------------------------- the exchange

def exchange_bars(s, rs, player) -> list[str]:
    """A player exchanges a private he holds that turns into a share, Val de Loire too."""
    from ledger.core.rounds.stock import held_by
    if any((p.ability("exchange_for") or p.ability("exchange_any")) and held_by(s, p.sym) == player
           for p in rs.privates):
        return []
    return [f"{player} does not own an open private that is exchanged for a share"]


def exchange_pars(s, rs, player, args) -> list[str]:
    """The pars an exchange for an unstarted company's director's certificate may set."""
    corp = args.get("corp")
    if corp not in s.corps or s.corps[corp].par is not None:
        return []
    return [str(p) for p in stock.allowed_pars(s, rs)]


def exchange_in_sr(ctx, cmd) -> None:
    exchange(ctx, cmd, in_stock_round=True)


def exchange_in_or(ctx, cmd) -> None:
    exchange(ctx, cmd, in_stock_round=False)


def exchange(ctx, cmd, in_stock_round: bool) -> None:
    """Val de Loire for a certificate; any other private as the shared rule says."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, cmd.get("private"))
    if not rs.private(sym).ability("exchange_any"):
        stock.cmd_exchange(ctx, cmd)
        return
    player = names.player(s, cmd.get("player"))
    if not cmd.get("corp"):
        raise RuleViolation(f"name the company whose certificate {sym} is exchanged for",
                            f"exchange {player} {sym} CORP [--par PRICE]")
    corp = names.corp(rs, cmd.get("corp"))
    why = privates.not_held(s, sym, player_acct(player))
    if why:
        raise RuleViolation(why)
    started = s.corps[corp].par is not None
    if started and cmd.get("par") is not None:
        refuse(f"{corp} is started (par {rs.money(s.corps[corp].par)}): --par sets the par of a company not started yet",
               f"exchange {player} {sym} {corp}")
    if cmd.get("source") == "pool":
        refuse(f"{sym} is exchanged for a certificate from the IPO, not the pool", f"exchange {player} {sym} {corp}")
    if in_stock_round:
        stock.take_turn(ctx, player)
        stock.check_may_buy(ctx, player, corp, "ipo" if started else "par")
    if started:
        take_ipo_share(ctx, player, sym, corp)
    else:
        take_director(ctx, player, sym, corp, cmd.get("par"))
    if in_stock_round:
        stock.acted(ctx, player, bought=[corp, "ipo" if started else "par"])
    stock.check_float(ctx, corp)


def take_ipo_share(ctx, player: str, sym: str, corp: str) -> None:
    s, rs = ctx.state, ctx.rs
    cert = shares.next_ipo_cert(s, rs, corp)
    if cert is None:
        raise RuleViolation(f"the IPO has no {corp} certificate for {sym}")
    shares.check_holding(s, rs, player, corp, s.cert_percent[cert])
    ctx.emit("exchange", player=player, private=sym, corp=corp, source="ipo",
             certs=[[cert, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    stock.check_president(ctx, corp)


def take_director(ctx, player: str, sym: str, corp: str, raw_par) -> None:
    """The private is one 10 % half of the director's certificate; the player pays the other."""
    s, rs = ctx.state, ctx.rs
    if raw_par is None:
        raise RuleViolation(f"{corp} is not started: exchanging {sym} for its director's certificate sets "
                            f"its par", f"exchange {player} {sym} {corp} --par PRICE")
    price = names.amount(raw_par, "par price")
    stock.check_par_colour(s, rs, price)
    pres = f"{corp}.0"
    cost = price * (s.cert_percent[pres] - shares.unit(s, rs, corp)) // shares.unit(s, rs, corp)
    cash = s.cash(player_acct(player))
    if cash < cost:
        raise RuleViolation(f"{player} has {rs.money(cash)}; the other half of {corp}'s director's certificate "
                            f"at par {rs.money(price)} costs {rs.money(cost)}")
    ctx.emit("exchange", player=player, private=sym, corp=corp, source="director", price=cost,
             transfers=[[player_acct(player), BANK, cost]] if cost else [],
             certs=[[pres, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    ctx.emit("par", player=player, corp=corp, price=price, cost=0, moves=[[corp, None, list(par_cell(rs, price))]])


# --------------------------------------------------------------------------- the Engineers

def engineers_of(s, rs, corp, args) -> list[str]:
    return [p.sym for p in rs.privates if p.ability("engineers") and s.privates[p.sym].owner == company_acct(corp)
            and not s.privates[p.sym].closed]


def cmd_use(ctx, cmd) -> None:
    """Engineers: in its train step, the company names one of its certificates; it will go obsolete
    instead of rusting (run once more, then be discarded before the next train step)."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "use")
    sym = names.private(rs, cmd.get("private"))
    if not rs.private(sym).ability("engineers"):
        raise RuleViolation(f"{sym} has no power a company uses with 'use'")
    why = privates.not_held(s, sym, company_acct(corp))
    if why:
        raise RuleViolation(why)
    if s.round["revenue"] is None:
        refuse(f"{sym}'s Engineers are used in {corp}'s train step, after it runs", "pay or withhold first")
    if not cmd.get("target"):
        raise RuleViolation(f"name the train {sym}'s Engineers protect", f"use {corp} {sym} TRAIN")
    train_id = owned_train(s, rs, corp, cmd.get("target"))
    if trains.is_obsolete(s, train_id) or trains.is_rusted(s, train_id):
        raise RuleViolation(f"{train_id} is already obsolete or rusted")
    ctx.emit("train_protected", corp=corp, private=sym, train=train_id, flags={train_id: {"engineers": True}})
    ctx.emit("privates_closed", privates=[sym], reason=f"{corp} used its Engineers")


def owned_train(s, rs, corp: str, raw: str) -> str:
    if raw in s.trains:
        if s.trains[raw] != company_acct(corp):
            raise RuleViolation(f"{corp} does not own {raw}")
        return raw
    name, side = names.side(rs, raw)
    train_id = trains.owned_side(s, rs, corp, name, side)
    if train_id is None:
        raise RuleViolation(f"{corp} has no {side or name} train")
    return train_id


# --------------------------------------------------------------------------- the private as a train

def cmd_buy_private(ctx, cmd) -> None:
    if not cmd.get("as_train"):
        operating.cmd_buy_private(ctx, cmd)
        return
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "buy-private")
    sym = names.private(rs, cmd.get("private"))
    price = names.amount(cmd.get("price"), "price")
    p = rs.private(sym)
    kind = p.ability("converts_to_train")
    if not kind:
        raise RuleViolation(f"{sym} does not become a train")
    counts = p.ability("convert_players", [])
    if len(s.players) not in counts:
        refuse(f"{sym} becomes a train only in {' or '.join(map(str, counts))}-player games")
    before = p.ability("convert_before_phase")
    if before and trains.phase_reached(s, rs, before):
        refuse(f"{sym} becomes a train only until {trains.phase_label(before)} (now {trains.phase_label(s.phase)})")
    held = s.privates[sym]
    if held.closed or not held.owner or not held.owner.startswith("player:"):
        raise RuleViolation(f"{sym} is not an open private owned by a player")
    low, high = operating.private_price_range(s, rs, sym)
    if not low <= price <= high:
        span = rs.money(low) if low == high else f"{rs.money(low)} to {rs.money(high)}"
        refuse(f"{sym} sells to a company for {span} now, not {rs.money(price)}")
    side = rs.train(kind).sides[0]
    if not trains.within_limit(s, rs, corp, side):
        what = f"{sym}'s {side.name} train"
        refuse(f"{trains.limit_refusal(s, rs, corp, what)} (the conversion obeys the limit, digest A15)")
    left = trains.depot_left(s, kind)
    if not left:
        raise RuleViolation(f"{sym}'s {kind} train is already in play")
    operating.sell_private(ctx, corp, sym, price)
    ctx.emit("private_converted", corp=corp, private=sym, train=left[0], trains=[[left[0], DEPOT, company_acct(corp)]])
    ctx.emit("privates_closed", privates=[sym], reason=f"{corp} turned it into a train")
    train_step.acquired(ctx, corp)
    train_step.check_limits(ctx)


# --------------------------------------------------------------------------- events

@event
class TrainProtected:
    corp: str
    private: str
    train: str

    def describe(e, rs):
        return (f"{e['corp']} uses {e['private']}'s Engineers on {a_train(e['train'])}: it will go obsolete "
                f"instead of rusting")


@event
class PrivateConverted:
    corp: str
    private: str
    train: str

    def describe(e, rs):
        return f"{e['private']} becomes {e['corp']}'s {train_type(e['train'])} train"
