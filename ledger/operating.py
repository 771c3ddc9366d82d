"""Operating rounds: private revenue, the operating order, and a company's turn
(track, token, run and pay or withhold, trains, privates), forced train purchases and bankruptcy.

Rules: SEED "Operating Rounds" and "End of Game", digest §8-§12.
"""

from __future__ import annotations

from fractions import Fraction
import math

from . import market, names, privates, shares, trains
from .errors import RuleViolation, refuse
from .state import BANK, POOL, company_acct, round_label, ipo_acct, player_acct, train_type

# The closed set of private sale bounds a ruleset may name (ruleset.KNOBS privates_rules).
PRICE_BOUNDS = {"half_face": lambda face: math.ceil(face / 2), "double_face": lambda face: 2 * face}

TURN_RESET = {"tiles": 0, "extra_tiles": 0, "token": False, "free_token": False, "revenue": None, "trains": 0}


def operating_order(s, rs) -> list[str]:
    """Floated companies by price, then column (right first), row (top first), arrival in the cell."""
    def key(sym):
        c = s.corps[sym]
        return (-market.price(rs, c.cell), -c.cell[1], c.cell[0], c.arrival)
    return sorted((sym for sym, c in s.corps.items() if c.floated and c.cell), key=key)


def start_or(ctx, set_no: int, index: int, count: int, priority: int | None = None) -> None:
    s, rs = ctx.state, ctx.rs
    fields = {"round": {"kind": "operating", "set": set_no, "index": index, "count": count,
                        "order": operating_order(s, rs), "pos": -1, "corp": None, **TURN_RESET}}
    if priority is not None:
        fields["priority"] = priority
    ctx.emit("round_started", **fields)
    privates.pay_revenue(ctx)
    next_corp(ctx)


def next_corp(ctx) -> None:
    s, rs = ctx.state, ctx.rs
    pos = s.round["pos"] + 1
    order = s.round["order"]
    if pos >= len(order):
        end_or(ctx)
        return
    sym = order[pos]
    c = s.corps[sym]
    home = not c.operated
    cost = rs.k("operating", "home_token_cost") if home else 0
    ctx.emit("round_update", set={"pos": pos, "corp": sym, **TURN_RESET})
    ctx.emit("corp_turn_started", corp=sym, president=s.president(sym), home_token=home,
             transfers=[[company_acct(sym), BANK, cost]] if cost else [])


def end_or(ctx) -> None:
    s = ctx.state
    r = s.round
    ctx.emit("operating_round_ended", set=r["set"], index=r["index"])
    if r["index"] < r["count"]:
        start_or(ctx, r["set"], r["index"] + 1, r["count"])
        return
    if s.end_after_set is not None and r["set"] >= s.end_after_set:
        ctx.emit("game_over", reason="bank broken")
        return
    from .stock import new_round  # stock imports this module
    ctx.emit("round_started", round=new_round(r["set"] + 1, s.priority))


def progress(ctx) -> bool:
    return False


# --------------------------------------------------------------------------- the operating company

def operating_corp(ctx, raw, verb: str) -> str:
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, raw)
    if s.round["kind"] != "operating":
        raise RuleViolation(f"'{verb}' is for a company's turn in an operating round (now: {round_label(s)})")
    if s.pending:
        p = s.pending[0]
        raise RuleViolation(f"{p['corp']} must first discard {p['count']} train(s) over the limit of "
                            f"{trains.limit(s, rs)}", f"discard {p['corp']} TYPE")
    if s.round["corp"] != corp:
        raise RuleViolation(f"it is {s.round['corp']}'s turn in OR {s.round['set']}.{s.round['index']}, not {corp}'s")
    return corp


def before_revenue(s, corp: str, what: str) -> None:
    if s.round["revenue"] is not None:
        refuse(f"{corp} has already run this turn: {what} comes before running trains")


def pay_from(s, corp: str, amount: int, what: str) -> None:
    cash = s.cash(company_acct(corp))
    if cash < amount:
        raise RuleViolation(f"{corp} has ${cash}, {what} costs ${amount}")


def cmd_tile(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "tile")
    cost = names.amount(cmd.get("cost"), "tile cost")
    using = cmd.get("using")
    if using:  # a private's lay: an extra one may come at any time in the turn (R18)
        tile_with_private(ctx, corp, names.private(rs, using), cost)
        return
    before_revenue(s, corp, "laying track")
    if s.round["token"]:
        refuse(f"{corp} has placed its token: track is laid before the token")
    allowed = rs.k("operating", "tile_costs")
    if cost not in allowed:
        refuse(f"no tile in {rs.title} costs ${cost}", f"terrain costs: {', '.join(map(str, allowed))}")
    if s.round["tiles"] >= rs.k("operating", "tile_lays"):
        refuse(f"{corp} has laid its tile this turn ({rs.k('operating', 'tile_lays')} lay a turn)")
    pay_from(s, corp, cost, "the tile")
    ctx.emit("tile_laid", corp=corp, cost=cost, transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    ctx.emit("round_update", set={"tiles": s.round["tiles"] + 1})


def tile_with_private(ctx, corp: str, sym: str, cost: int) -> None:
    """A company-owned private's track ability: an extra lay (CS) or the special hex lay (DH)."""
    s, rs = ctx.state, ctx.rs
    p, held = rs.private(sym), s.privates[sym]
    if held.owner != company_acct(corp) or held.closed:
        raise RuleViolation(f"{corp} does not own an open {sym}")
    if "tile" in held.used:
        refuse(f"{sym}'s track ability has been used")
    if p.ability("special_tile_cost") is not None:
        before_revenue(s, corp, "laying track")
        if s.round["token"]:
            refuse(f"{corp} has placed its token: {sym}'s tile is the turn's track lay, which comes first")
        if cost != p.ability("special_tile_cost"):
            refuse(f"{sym}'s tile costs ${p.ability('special_tile_cost')}, not ${cost}")
        if s.round["tiles"] >= rs.k("operating", "tile_lays"):
            refuse(f"{sym}'s tile is the turn's tile lay and {corp} has already laid one")
        update = {"tiles": s.round["tiles"] + 1, "free_token": bool(p.ability("free_token_after_tile"))}
    elif p.ability("extra_tile_lay"):
        if cost != p.ability("extra_tile_cost", 0):
            refuse(f"{sym}'s extra tile costs ${p.ability('extra_tile_cost', 0)}, not ${cost}")
        update = {"extra_tiles": s.round["extra_tiles"] + 1}
    else:
        raise RuleViolation(f"{sym} has no track ability")
    pay_from(s, corp, cost, "the tile")
    ctx.emit("tile_laid", corp=corp, cost=cost, private=sym, transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    ctx.emit("ability_used", private=sym, ability="tile")
    ctx.emit("round_update", set=update)


def cmd_token(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "token")
    before_revenue(s, corp, "placing a token")
    if s.round["token"]:
        refuse(f"{corp} has placed a token this turn (one a turn)")
    c = s.corps[corp]
    charter = rs.corporation(corp).tokens
    if c.tokens_used >= len(charter):
        raise RuleViolation(f"{corp} has no station tokens left (all {len(charter)} placed)")
    cost = 0 if s.round["free_token"] else charter[c.tokens_used]
    given = cmd.get("cost")
    if given is not None and names.amount(given, "token cost") != cost:
        why = "free after the private's tile" if s.round["free_token"] else "on the charter"
        refuse(f"{corp}'s next token costs ${cost} ({why}), not ${given}")
        cost = names.amount(given, "token cost")  # reached only when the banker forced this cost
    pay_from(s, corp, cost, "the token")
    ctx.emit("token_placed", corp=corp, cost=cost, transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    ctx.emit("round_update", set={"token": True, "free_token": False})


# --------------------------------------------------------------------------- revenue

def cmd_pay(ctx, cmd) -> None:
    run(ctx, cmd, "pay")


def cmd_withhold(ctx, cmd) -> None:
    run(ctx, cmd, "withhold")


def run(ctx, cmd, how: str) -> None:
    s = ctx.state
    corp = operating_corp(ctx, cmd.get("corp"), how)
    revenue = names.amount(cmd.get("revenue"), "revenue")
    if s.round["revenue"] is not None:
        refuse(f"{corp} has already run this turn (${s.round['revenue']})")
    if revenue and not s.corp_trains(corp):
        refuse(f"{corp} has no trains: its revenue is $0", f"withhold {corp} 0")
    if how == "pay" and revenue > 0:
        pay_out(ctx, corp, revenue)
    else:
        withhold(ctx, corp, revenue)


def dividends(s, rs, corp: str, revenue: int) -> list[list]:
    """[holder account, shares, amount] for everyone a payout pays; IPO shares pay nobody and pool
    shares the company (as the ruleset says). Each holder's amount is rounded by the title's rule."""
    u = shares.unit(rs)
    per_share = Fraction(revenue * u, 100)
    rounding = math.ceil if rs.k("company", "dividend_rounding") == "ceil_per_holder" else math.floor
    out = []
    for p in s.players:
        n = shares.shares_of(s, rs, player_acct(p), corp)
        if n:
            out.append([player_acct(p), n, rounding(per_share * n)])
    for holder, knob in ((POOL, "pool_pays"), (ipo_acct(corp), "ipo_pays")):
        n = shares.shares_of(s, rs, holder, corp)
        if n and rs.k("company", knob) == "company":
            out.append([company_acct(corp), n, rounding(per_share * n)])
    return out


def pay_out(ctx, corp: str, revenue: int) -> None:
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    paid = dividends(s, rs, corp, revenue)
    to = market.move(rs, c.cell, "pay")
    per_share = Fraction(revenue * shares.unit(rs), 100)
    ctx.emit("revenue", corp=corp, revenue=revenue, how="pay", per_share=str(per_share),
             payees=[[acct, n, amt] for acct, n, amt in paid],
             transfers=[[BANK, acct, amt] for acct, _n, amt in paid if amt],
             moves=[[corp, list(c.cell), list(to)]])
    ctx.emit("round_update", set={"revenue": revenue})


def withhold(ctx, corp: str, revenue: int) -> None:
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    to = market.move(rs, c.cell, "withhold")
    if revenue == 0 and rs.k("operating", "zero_revenue_moves") == "none":
        to = c.cell
    ctx.emit("revenue", corp=corp, revenue=revenue, how="withhold",
             transfers=[[BANK, company_acct(corp), revenue]] if revenue else [],
             moves=[[corp, list(c.cell), list(to)]])
    ctx.emit("round_update", set={"revenue": revenue})


def ensure_ran(ctx, corp: str, verb: str) -> None:
    """A company without trains runs for $0 (withholds, moves left) before it buys or ends its turn."""
    s = ctx.state
    if s.round["revenue"] is not None:
        return
    if s.corp_trains(corp):
        raise RuleViolation(f"{corp} must run first: pay or withhold its revenue before '{verb}'",
                            f"withhold {corp} 0 if it runs nothing")
    withhold(ctx, corp, 0)


# --------------------------------------------------------------------------- trains

def cmd_train(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "train")
    name = names.train(rs, cmd.get("type"))
    ensure_ran(ctx, corp, "train")
    source = (cmd.get("source") or "depot")
    trade = cmd.get("trade_in")
    given = cmd.get("price")
    if source.lower() in ("depot", "bank"):
        train_id, seller, price = from_depot(s, rs, corp, name, trade)
    elif source.lower() == "pool":
        train_id = trains.in_pool(s, name)
        if train_id is None:
            raise RuleViolation(f"there is no {name} train in the pool")
        seller, price = POOL, rs.train(name).price
    else:
        other = names.corp(rs, source)
        if other == corp:
            raise RuleViolation(f"{corp} cannot buy a train from itself")
        train_id = trains.holder_train(s, other, name)
        if train_id is None:
            raise RuleViolation(f"{other} has no {name} train")
        if given is None:
            raise RuleViolation(f"a train bought from {other} needs the agreed price", "--price N (at least $1)")
        seller, price = company_acct(other), names.amount(given, "price")
        if price < 1:
            raise RuleViolation("a train between companies costs at least $1")
    if trade and seller != BANK:
        raise RuleViolation(f"a train is traded in only when buying a {' or '.join(t.name for t in rs.trains if t.trade_in)} "
                            f"from the bank")
    if given is not None and seller in (BANK, POOL) and names.amount(given, "price") != price:
        refuse(f"the {name} from the {'bank' if seller == BANK else 'pool'} costs ${price}, not ${given}")
    if trade is None and len(s.corp_trains(corp)) >= trains.limit(s, rs):
        refuse(f"{corp} is at the train limit ({len(s.corp_trains(corp))} of {trains.limit(s, rs)} "
                            f"in phase {s.phase})")
    contribution = funding(ctx, corp, name, seller, price, trade)
    buy_train(ctx, corp, train_id, seller, price, contribution, trade)


def from_depot(s, rs, corp: str, name: str, trade: str | None) -> tuple[str, str, int]:
    offer = trains.depot_offer(s, rs)
    if name not in offer:
        raise RuleViolation(f"the bank does not sell {name} trains now", f"for sale: {', '.join(offer) or 'none'}")
    t = rs.train(name)
    price = t.price
    if trade:
        trade = names.train(rs, trade)
        if trade not in t.trade_in:
            raise RuleViolation(f"a {name} can be bought by trading in a {' or '.join(t.trade_in) or 'nothing'}, "
                                f"not a {trade}")
        if trains.holder_train(s, corp, trade) is None:
            raise RuleViolation(f"{corp} has no {trade} train to trade in")
        price = t.trade_in_price
    return trains.next_depot_train(s, rs, name), BANK, price


def funding(ctx, corp: str, name: str, seller: str, price: int, trade: str | None) -> int:
    """The president's contribution: only for a company that has no train and must buy one, and
    only for the cheapest bank/pool train or another company's train at no more than face value."""
    s, rs = ctx.state, ctx.rs
    cash = s.cash(company_acct(corp))
    if cash >= price:
        return 0
    if s.corp_trains(corp):
        refuse(f"{corp} has ${cash}, the {name} costs ${price}; a company that owns a train gets no "
                            f"help from its president")
    if trade:
        refuse(f"{corp} has ${cash}, the traded-in {name} costs ${price}; the president cannot "
                            f"contribute to a trade-in")
    cheapest = trains.cheapest_available(s, rs)
    if seller in (BANK, POOL):
        if rs.k("operating", "emergency_cheapest_only") and cheapest and price > cheapest[0]:
            refuse(f"{corp} has ${cash}: with the president's help it may only buy the cheapest train, "
                                f"{cheapest[1]} for ${cheapest[0]}")
    elif rs.k("operating", "emergency_from_company_max") == "face" and price > rs.train(name).price:
        refuse(f"with the president's help a train from another company costs at most its face "
                            f"value ${rs.train(name).price}, not ${price}")
    pres = s.president(corp)
    need = price - cash
    have = s.cash(player_acct(pres))
    if have < need:
        raise RuleViolation(f"{corp} has ${cash} and needs ${need} more for the {name}; {pres} has ${have}",
                            f"{pres} must sell shares first (sell {pres} CORP N), or 'bankrupt {pres}'")
    return need


def buy_train(ctx, corp: str, train_id: str, seller: str, price: int, contribution: int, trade: str | None) -> None:
    s, rs = ctx.state, ctx.rs
    name = train_type(train_id)
    first_of_type = seller == BANK and trains.sold_count(s, name) == 0
    source = "depot" if seller == BANK else seller
    moves = [[train_id, source if seller != BANK else "depot", company_acct(corp)]]
    if trade:
        moves.insert(0, [trains.holder_train(s, corp, trade), company_acct(corp), POOL])
    transfers = []
    if contribution:
        transfers.append([player_acct(s.president(corp)), company_acct(corp), contribution])
    if price:
        transfers.append([company_acct(corp), BANK if seller in (BANK, POOL) else seller, price])
    first_train = not s.corps[corp].trained
    ctx.emit("train_bought", corp=corp, train=train_id, type=name, seller=source, price=price,
             contribution=contribution, president=s.president(corp), trade_in=trade,
             transfers=transfers, trains=moves)
    ctx.emit("round_update", set={"trains": s.round["trains"] + 1})
    if first_of_type:
        new_phase_or_rust(ctx, name)
    if first_train:
        closing = [p.sym for p in rs.privates if p.ability("closes_on_first_train_of") == corp]
        privates.close(ctx, closing, reason=f"{corp} bought its first train")
    excess = trains.over_limit(s, rs)
    if excess:
        ctx.emit("pending", pending=excess)


def new_phase_or_rust(ctx, name: str) -> None:
    s, rs = ctx.state, ctx.rs
    phase = trains.phase_for_train(s, rs, name)
    rusted = trains.rusting(s, rs, name)
    if phase:
        ctx.emit("phase_changed", phase=phase, train=name, limit=rs.phase(phase).train_limit,
                 trains=rusted, rusted=[t for t, _h, _d in rusted])
        if phase == rs.k("privates_rules", "close_on_phase"):
            privates.close(ctx, [p.sym for p in rs.privates], reason=f"phase {phase}")
    elif rusted:
        ctx.emit("trains_rusted", train=name, trains=rusted, rusted=[t for t, _h, _d in rusted])


def cmd_discard(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, cmd.get("corp"))
    name = names.train(rs, cmd.get("type"))
    due = next((p for p in s.pending if p["kind"] == "discard" and p["corp"] == corp), None)
    if due is None:
        raise RuleViolation(f"{corp} is not over its train limit: trains are discarded only when the limit drops")
    train_id = trains.holder_train(s, corp, name)
    if train_id is None:
        raise RuleViolation(f"{corp} has no {name} train", f"it has {', '.join(map(train_type, s.corp_trains(corp)))}")
    ctx.emit("train_discarded", corp=corp, train=train_id, trains=[[train_id, company_acct(corp), POOL]])
    rest = [dict(p) for p in s.pending if p is not due]
    if due["count"] > 1:
        rest.insert(0, {**due, "count": due["count"] - 1})
    ctx.emit("pending", pending=rest)


# --------------------------------------------------------------------------- privates, end of turn

def cmd_buy_private(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "buy-private")
    sym = names.private(rs, cmd.get("private"))
    price = names.amount(cmd.get("price"), "price")
    held, p = s.privates[sym], rs.private(sym)
    first = rs.k("privates_rules", "company_buy_from_phase")
    if not trains.phase_reached(s, rs, first):
        refuse(f"companies may buy privates from phase {first} (now phase {s.phase})")
    if p.ability("no_company_sale"):
        raise RuleViolation(f"{sym} can never be bought by a company")
    if held.closed or not held.owner or not held.owner.startswith("player:"):
        raise RuleViolation(f"{sym} is not an open private owned by a player")
    low = PRICE_BOUNDS[rs.k("privates_rules", "company_buy_min")](p.face)
    high = PRICE_BOUNDS[rs.k("privates_rules", "company_buy_max")](p.face)
    if not low <= price <= high:
        refuse(f"{sym} (face ${p.face}) sells to a company for ${low} to ${high}, not ${price}")
    pay_from(s, corp, price, sym)
    ctx.emit("private_sold", corp=corp, private=sym, seller=held.owner.split(":", 1)[1], price=price,
             transfers=[[company_acct(corp), held.owner, price]])


def cmd_done(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "done")
    ensure_ran(ctx, corp, "done")
    if not s.corp_trains(corp) and not cmd.get("no_route") and rs.k("operating", "must_buy_train") != "never":
        cheapest = trains.cheapest_available(s, rs)
        what = f"cheapest: {cheapest[1]} for ${cheapest[0]}" if cheapest else "none for sale"
        refuse(f"{corp} has no train and must buy one ({what})",
                            f"if {corp} has no route, say 'done {corp} --no-route'")
    ctx.emit("corp_turn_ended", corp=corp)
    next_corp(ctx)


# --------------------------------------------------------------------------- emergency money

def shortfall(s, rs, corp: str) -> int:
    """How much the operating company and its president lack for the cheapest train (0 if none)."""
    if s.corp_trains(corp):
        return 0
    cheapest = trains.cheapest_available(s, rs)
    if cheapest is None:
        return 0
    pres = s.president(corp)
    return max(0, cheapest[0] - s.cash(company_acct(corp)) - s.cash(player_acct(pres)))


def cmd_emergency_sell(ctx, cmd) -> None:
    """The president sells shares to raise money for a forced train purchase: only as many as needed,
    never handing over the operating company's presidency."""
    from .stock import sell  # stock imports this module
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    n = cmd.get("count") or 1
    op = s.round["corp"]
    if s.pending:
        raise RuleViolation(f"{s.pending[0]['corp']} must first discard over the train limit")
    if op is None or s.president(op) != player:
        refuse(f"shares are sold in operating rounds only by the president of the operating company "
                            f"({op}: {s.president(op) if op else 'none'}) to buy a forced train")
    if op and not s.corp_trains(op):
        ensure_ran(ctx, op, "sell")  # a trainless company runs for $0 (and moves left) before buying
    need = shortfall(s, rs, op)
    if need <= 0:
        refuse(f"{player} may not sell: {op} and its president can already pay for the cheapest train")
    price = shares.price(s, rs, corp)
    if (n - 1) * price >= need:
        refuse(f"{player} needs ${need}: selling {n} {corp} share(s) at ${price} is more than needed",
                            f"sell {max(1, -(-need // price))} share(s)")
    keep = corp == op and not rs.k("operating", "emergency_sell_changes_operating_president")
    sell(ctx, player, corp, n, keep_president=keep)
    reorder_after_sale(ctx)


def reorder_after_sale(ctx) -> None:
    """Emergency sales re-sort the companies that have not yet operated in this OR (R18)."""
    s, rs = ctx.state, ctx.rs
    pos, order = s.round["pos"], s.round["order"]
    waiting = set(order[pos + 1:])
    new = order[:pos + 1] + [c for c in operating_order(s, rs) if c in waiting]
    if new != order:
        ctx.emit("round_update", set={"order": new})


def cmd_bankrupt(ctx, cmd) -> None:
    """The president cannot raise the cheapest train even by selling all he may: he sells what he
    can, his cash goes to the bank, and the game ends."""
    from .stock import sell
    s, rs = ctx.state, ctx.rs
    if s.round["kind"] != "operating" or not s.round.get("corp"):
        raise RuleViolation("bankruptcy happens during a forced train purchase in an operating round")
    player = names.player(s, cmd.get("player"))
    op = s.round["corp"]
    if s.president(op) != player:
        raise RuleViolation(f"{player} is not the president of the operating company {op}")
    ensure_ran(ctx, op, "bankrupt")
    need = shortfall(s, rs, op)
    can, plan = shares.sellable_value(s, rs, player, keep_president_of=op)
    if need <= 0 or can >= need:
        refuse(f"{player} is not bankrupt: {op} lacks ${need} for the cheapest train and {player} can "
                            f"raise ${can} by selling shares", "sell shares, then buy the train")
    for corp, n in plan:
        sell(ctx, player, corp, n, keep_president=(corp == op))
    cash = s.cash(player_acct(player))
    ctx.emit("bankrupt", player=player, corp=op, cash=cash,
             transfers=[[player_acct(player), BANK, cash]] if cash else [])
    if rs.k("operating", "bankrupt_ends_game"):
        ctx.emit("game_over", reason="bankruptcy")
