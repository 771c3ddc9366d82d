"""1843's own rules: Cie du Val de Loire's three powers (RULES §10.2, digest D3.3), and when
Toulouse-Barcelone's tile may be laid (§10.2).

Only 1843 has them, so they live beside its data rather than in the shared engine. The engine
runs the verbs in HANDLERS for this title in place of (or in addition to) its own.

* `exchange PLAYER VDL CORP [--par PRICE]`: the private for any 10 % certificate still in the IPO,
  or for the director's certificate of an unstarted company, the player paying the other half (1 x
  par). In a stock round it is the turn's purchase (digest A13); in an operating round, any time.
* `use CORP VDL TRAIN` (Engineers): a certificate the company owns goes obsolete instead of rusting.
* `buy-private CORP VDL PRICE --as-train`: in 5-6 player games before blue, the private becomes a
  yellow "2" train of the buying company.
Each power closes the private.
* `tile CORP COST --using TB`: only in the company's track-building step.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.rounds import operating, stock
from ledger.core.rules import shares, train_step, trains
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.rules.market import par_cell
from ledger.core.state import BANK, DEPOT, acct_name, company_acct, ipo_acct, player_acct, round_label


def cmd_exchange(ctx, cmd) -> None:
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
    held = s.privates[sym]
    if held.owner != player_acct(player) or held.closed:
        raise RuleViolation(f"{player} does not own an open {sym}")
    kind = s.round["kind"]
    if kind not in ("stock", "operating"):
        raise RuleViolation(f"{sym} is exchanged in a stock or operating round (now: {round_label(s)})")
    train_step.check_limit_met(s, rs)
    started = s.corps[corp].par is not None
    if kind == "stock":
        stock.take_turn(ctx, player)
        stock.check_may_buy(ctx, player, corp, "ipo" if started else "par")
    if started:
        take_ipo_share(ctx, player, sym, corp)
    else:
        take_director(ctx, player, sym, corp, cmd.get("par"))
    if kind == "stock":
        stock.acted(ctx, player, bought=[corp, "ipo" if started else "par"])
    stock.check_float(ctx, corp)


def take_ipo_share(ctx, player: str, sym: str, corp: str) -> None:
    s, rs = ctx.state, ctx.rs
    cert = shares.next_ipo_cert(s, corp)
    if cert is None:
        raise RuleViolation(f"the IPO has no {corp} certificate for {sym}")
    shares.check_holding(s, rs, player, corp, s.cert_percent[cert])
    ctx.emit("exchange", player=player, private=sym, corp=corp, source="ipo",
             certs=[[cert, ipo_acct(corp), player_acct(player)]])
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
    cost = price * (s.cert_percent[pres] - shares.unit(rs)) // shares.unit(rs)
    cash = s.cash(player_acct(player))
    if cash < cost:
        raise RuleViolation(f"{player} has {rs.money(cash)}; the other half of {corp}'s director's certificate "
                            f"at par {rs.money(price)} costs {rs.money(cost)}")
    ctx.emit("exchange", player=player, private=sym, corp=corp, source="director", price=cost,
             transfers=[[player_acct(player), BANK, cost]] if cost else [],
             certs=[[pres, ipo_acct(corp), player_acct(player)]])
    ctx.emit("par", player=player, corp=corp, price=price, cost=0, moves=[[corp, None, list(par_cell(rs, price))]])


def cmd_use(ctx, cmd) -> None:
    """Engineers: in its train step, the company names one of its certificates; it will go obsolete
    instead of rusting (run once more, then be discarded before the next train step)."""
    s, rs = ctx.state, ctx.rs
    corp = operating.operating_corp(ctx, cmd.get("corp"), "use")
    sym = names.private(rs, cmd.get("private"))
    if not rs.private(sym).ability("engineers"):
        raise RuleViolation(f"{sym} has no power a company uses with 'use'")
    held = s.privates[sym]
    if held.owner != company_acct(corp) or held.closed:
        raise RuleViolation(f"{corp} does not own an open {sym}")
    if s.round["revenue"] is None:
        refuse(f"{sym}'s Engineers are used in {corp}'s train step, after it runs", "pay or withhold first")
    if not cmd.get("target"):
        raise RuleViolation(f"name the train {sym}'s Engineers protect", f"use {corp} {sym} TRAIN")
    train_id = owned_train(s, rs, corp, cmd.get("target"))
    if trains.is_obsolete(s, train_id) or trains.is_relic(s, train_id):
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


def cmd_buy_private(ctx, cmd) -> None:
    if not cmd.get("as_train"):
        operating.cmd_buy_private(ctx, cmd)
        return
    s, rs = ctx.state, ctx.rs
    corp = operating.operating_corp(ctx, cmd.get("corp"), "buy-private")
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
        refuse(f"train limit: {corp} cannot take {sym}'s {side.name} train ({trains.limit_text(s, rs)})")
    left = trains.depot_left(s, kind)
    if not left:
        raise RuleViolation(f"{sym}'s {kind} train is already in play")
    operating.sell_private(ctx, corp, sym, price)
    ctx.emit("private_converted", corp=corp, private=sym, train=left[0], trains=[[left[0], DEPOT, company_acct(corp)]])
    ctx.emit("privates_closed", privates=[sym], reason=f"{corp} turned it into a train")
    train_step.acquired(ctx, corp)
    train_step.check_limits(ctx)


HANDLERS = {"exchange": cmd_exchange, "use": cmd_use, "buy-private": cmd_buy_private}


# =========================================================================== 1843's event kinds

@event
class PortClaimed:
    """A company claims a port marker from the map (RULES §8.5.3); `ports` moves it."""
    corp: str
    port: str

    def apply(s, e):
        if s.round.get("kind") == "operating":
            s.round = {**s.round, "port": e["port"]}

    def describe(e, rs):
        return f"{e['corp']} claims the {e['port']} port"


@event
class PortSold:
    corp: str
    seller: str
    port: str
    price: int

    def describe(e, rs):
        return f"{e['corp']} buys the {e['port']} port from {e['seller']} for {rs.money(e['price'])}"


@event
class PortIncome:
    """Every port pays its holder at the start of an OR (RULES §8.1)."""

    def describe(e, rs):
        return "ports pay: " + ", ".join(f"{acct_name(t[1])} {rs.money(t[2])}" for t in e["transfers"])


@event
class TrainTaken:
    """The bank takes a train out of the supply: the foreigners, or the auction's brief OR."""
    by: str
    train: str
    type: str

    def describe(e, rs):
        return f"{e['by']} take a {e['type']} train from the supply ({e['train']})"


@event
class RelicsReturned:
    """Gray phase: the single certificates of earlier colours return for sale, rusted (§15.6)."""
    phase: str

    def describe(e, rs):
        return f"{len(e['trains'])} rusted certificates return to the supply for sale"


@event
class TrainFlipped:
    corp: str
    train: str
    side: str

    def describe(e, rs):
        return f"{e['corp']} flips {e['train']} to its {e['side']} side"


@event
class TrainProtected:
    corp: str
    private: str
    train: str

    def describe(e, rs):
        return f"{e['corp']} uses {e['private']}'s Engineers on {e['train']}: it will go obsolete instead of rusting"


@event
class PrivateConverted:
    corp: str
    private: str
    train: str

    def describe(e, rs):
        return f"{e['private']} becomes {e['corp']}'s train {e['train']}"


@event
class StationMoved:
    """Gray phase: a company moves one station, once per game (§8.5.2); it is the turn's station."""
    corp: str
    cost: int

    def apply(s, e):
        s.corps[e["corp"]].station_moved = True
        if s.round.get("kind") == "operating":
            s.round = {**s.round, "token": True}

    def describe(e, rs):
        return f"{e['corp']} moves a station for {rs.money(e['cost'])}"


@event
class OwnedTypeSeen:
    """A company owns the end-trigger train in this set (§8.10.1 #4)."""
    corp: str
    type: str

    def apply(s, e):
        s.owned_this_set = True


@event
class OwnedSetCounted:
    sets: int
    type: str

    def apply(s, e):
        s.owned_sets = e["sets"]
        s.owned_this_set = False

    def describe(e, rs):
        return f"-- set {e['sets']} with a company-owned {e['type']} train --"
