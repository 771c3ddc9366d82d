"""Operating rounds: the operating order, private revenue, each company's turn in order (its track
and station, its run, its trains, the privates it buys), forced train purchases and bankruptcy.

Rules: SEED "Operating Rounds" and "End of Game", digest §8-§12. The steps of a turn live in
ledger.core.rules (track, revenue, train_step); this module runs the round and registers its verbs.
"""

from __future__ import annotations

import math

from ledger.core import fees, grammar, names, registry
from ledger.core.errors import BankError, RuleViolation, refuse
from ledger.core.events import TURN_RESET, counted
from ledger.core.plays import Bounds
from ledger.core.round_kind import RoundKind, known_round
from ledger.core.rules import exports, privates, revenue, shares, track, train_step, trains, turn
from ledger.core.rules.market import operating_order
from ledger.core.rules.revenue import ensure_ran
from ledger.core.rules.turn import operating_corp
from ledger.core.state import BANK, POOL, RUSTED, acct_name, company_acct, player_acct, train_type

# The closed set of private sale bounds a ruleset may name (ruleset.KNOBS privates_rules).
PRICE_BOUNDS = {"half_face": lambda face: math.ceil(face / 2), "double_face": lambda face: 2 * face,
                "one": lambda face: 1, "face": lambda face: face}


def register(reg, rs) -> None:
    from ledger.core.rounds.stock import EXCHANGE_WORDS, anyone, cmd_exchange, exchange_bars, exchange_phrase, sell_counts
    reg.round(OPERATING)
    if rs.k("operating", "export_trains"):   # the next supply train leaves the game after each set
        reg.on("or_set_ended", exports.at_set_end)
    # a private's lay or station may come at other points of the turn (R18, 1839 §12.2): the step's
    # bars are the rule's own, which knows the private named
    reg.verb("tile", track.cmd_tile, "operating", phrase=tile_phrase, last=("cost",),
             candidates={"cost": terrain_costs, "modifiers": lambda s, rs, corp, args: track.fee_picks(rs, "tile"),
                         "points": track.point_costs})
    reg.verb("token", track.cmd_token, "operating", last=("cost",), candidates=track.TOKEN_WORDS)
    for mode in ("pay", "withhold", "half"):
        if mode != "half" or any("half" in k.dividends for k in rs.kinds.values()):  # only some titles half-pay
            reg.verb(mode, RUNS[mode], "operating", bars=run_bars(mode), candidates={"revenue": revenues(mode)},
                     phrase=run_phrase(mode))
    reg.verb("train", train_step.cmd_train, "operating", bars=train_bars, phrase=train_phrase, listing="type",
             leads=("source",), candidates={"type": train_types, "price": train_prices, "trade_in": trade_ins})
    reg.verb("discard", train_step.cmd_discard, "operating",
             bars=lambda s, rs, corp: [f"{corp} is not over its train limit: trains are discarded only when the "
                                       f"limit drops"])
    reg.verb("buy-private", cmd_buy_private, "operating",
             candidates={"private": players_privates, "price": private_prices})
    if any(k.issues for k in rs.kinds.values()):  # as the grammar says (needs="issues")
        reg.verb("issue", cmd_issue, "operating", bars=treasury_bars("issue"), phrase=lambda *_: "{command}")
        reg.verb("redeem", cmd_redeem, "operating", bars=treasury_bars("redeem"))
    reg.verb("done", cmd_done, "operating", phrase=done_phrase,
             candidates={"no_route": lambda s, rs, corp, args: [None, True] if rs.k("operating", "must_buy_train")
                         == "route" else [None]})
    reg.verb("sell", cmd_emergency_sell, "operating", who=short_president, phrase=shortfall_phrase,
             candidates={"corp": emergency_sales, "count": sell_counts},
             not_actor=not_short)
    reg.verb("bankrupt", cmd_bankrupt, "operating", who=short_president, phrase=lambda s, rs, who: "{command}",
             elsewhere="bankruptcy happens during a forced train purchase in an operating round",
             not_actor=not_bankrupt)
    reg.verb("exchange", cmd_exchange, "operating", who=anyone, bars=exchange_bars, phrase=exchange_phrase,
             candidates=EXCHANGE_WORDS)
    reg.answer("discard", "discard", train_step.cmd_discard, who=train_step.owing_discard,
               phrase=train_step.discard_phrase, not_actor=train_step.not_owing)
    reg.pending("discard", train_step.limit_text_pending, train_step.limit_heading)
    reg.rule("rusting", trains.rust_all)
    reg.on("after_run", drop_obsolete)


# --------------------------------------------------------------------------- what each step allows now

def terrain_costs(s, rs, corp, args):
    """The title's terrain costs, or any terrain the company can pay with the tile's fees (the most
    found by halving: the price grows with the terrain)."""
    allowed = rs.k("operating", "tile_costs")
    if allowed:
        return [str(c) for c in allowed]
    cash = s.cash(company_acct(corp))
    try:
        sources = {"second_tile": track.next_tile_fee(s, rs, corp), "hex": track.hex_fee_of(rs, args.get("hex"))}
        asked = fees.parse_asked(args.get("modifiers"))

        def price(terrain: int) -> int:
            return track.tile_price(s, rs, corp, terrain, sources, asked)[0]
        price(0)
    except BankError:
        return []
    if price(0) > cash:
        return []
    low, high = 0, 4 * cash + 100    # a discount lets the terrain exceed the cash
    if price(high) <= cash:          # nothing is paid for terrain (a national's free track)
        return Bounds(0)
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if price(mid) <= cash else (low, mid - 1)
    return Bounds(0, low)


def tile_phrase(s, rs, corps) -> str:
    fee = track.next_tile_fee(s, rs, corps[0])
    return f"{{command}} (or its terrain's cost; the fee {rs.money(fee)} on top)" if fee else "{command} (or its terrain's cost)"


RUNS = {"pay": revenue.cmd_pay, "withhold": revenue.cmd_withhold, "half": revenue.cmd_half}


def run_bars(mode: str):
    def bars(s, rs, corp) -> list[str]:
        if s.round["revenue"] is not None:
            return [f"{corp} has already run this turn ({rs.money(s.round['revenue'])})"]
        modes = shares.kind(s, rs, corp).dividends
        if mode != "withhold" and not s.corp_trains(corp):
            return [f"{corp} has no trains: its revenue is {rs.money(0)} (withhold {corp} 0)"]
        if mode not in modes and mode != "withhold":
            return [f"{corp} ({s.corps[corp].kind}) may {' or '.join(modes)} its revenue, not {mode}"]
        return []
    return bars


def revenues(mode: str):
    def found(s, rs, corp, args):
        if not s.corp_trains(corp):
            return ["0"]
        step = rs.k("operating", "revenue_multiple")
        return Bounds(step if mode != "withhold" else 0, trains.plausible_revenue(s, rs, corp), step)
    return found


def run_phrase(mode: str):
    def phrase(s, rs, corps) -> str:
        corp = corps[0]
        if not s.corp_trains(corp):
            return "{command} (no trains: it runs nothing)" if mode == "withhold" else ""
        modes = shares.kind(s, rs, corp).dividends
        if mode != modes[0]:
            return ""
        found = revenues(mode)(s, rs, corp, {})
        most = f" to {rs.money(found.last)}" if isinstance(found, Bounds) and found.high is not None else ""
        others = " or ".join(m for m in [*modes[1:], *["withhold"] * ("withhold" not in modes)] if m != mode)
        return f"{{command}} (its run's revenue{most}; or {others})"
    return phrase


def train_bars(s, rs, corp) -> list[str]:
    early = registry.of(rs).rules.get("train_before_run")   # 1839 Nederlandsche Fabriek: at any point of the turn
    if s.round["revenue"] is None and trains.counted(s, corp) and not (early and early(s, rs, corp)):
        return [f"{corp} must run first: pay or withhold its revenue before 'train'"]
    return []


def train_types(s, rs, corp, args) -> list[str]:
    """The trains worth trying from where the purchase comes (`source`): the supply's types now with
    each printed side (and those the title's own rules sell), the pool's, or another company's."""
    source = args.get("source")
    if source is None or str(source).lower() in grammar.DEPOT_WORDS:
        extra = registry.of(rs).rules.get("supply_types")
        types = trains.depot_offer(s, rs) + (extra(s, rs, corp) if extra else [])
        return list(dict.fromkeys(w for n in types for w in [n] + [sd.name for sd in rs.train(n).sides]))
    if str(source).lower() == "pool":
        holder = POOL
    else:
        try:
            holder = company_acct(names.corp(rs, source))
        except BankError:
            return []
    held = [t for t, h in s.trains.items() if h == holder]
    if holder == POOL:   # a pool certificate is sold on the sides the pool allows
        return list(dict.fromkeys(w for tid in held for w in [train_type(tid)] +
                                  [sd.name for sd in trains.pool_sides(s, rs, tid)]))
    # another company's certificate changes hands as it lies: its type, or the side it is on
    return list(dict.fromkeys(w for tid in held for w in (train_type(tid), trains.side_name(s, rs, tid))))


def trade_ins(s, rs, corp, args) -> list[str]:
    """The trains a purchase may trade in: those the bought type allows that the company holds."""
    try:
        name = names.side(rs, args.get("type"))[0]
    except BankError:
        return []
    allowed = rs.train(name).trade_in if rs.train(name).trade_in_price is not None else ()
    return [t for t in allowed if any(train_type(tid) == t for tid in s.corp_trains(corp))]


def train_prices(s, rs, corp, args):
    """An agreed price for another company's train: at least 1, at most what the buyer and its
    president could pay (the rule narrows it); none from the supply or the pool (their price is
    the card's)."""
    source = args.get("source")
    if source is None or str(source).lower() in (*grammar.SUPPLY_WORDS,):
        return []
    cash = s.cash(company_acct(corp))
    if trains.working(s, corp):   # a company that owns a train pays from its treasury alone
        return Bounds(1, cash, exact=True, needed=True)
    pres = s.president(corp)
    return Bounds(1, max(1, cash + (s.cash(player_acct(pres)) if pres else 0)), needed=True)


def train_phrase(s, rs, corps, types: list) -> str:
    """What is for sale now that the company may buy (its legal train types)."""
    legal = set(types)
    offer = [t for t in trains.for_sale(s, rs, registry.of(rs)) if any(w in legal for w in offer_names(t))]
    return f"train (for sale: {', '.join(offer)})" if offer else "train"


def offer_names(line: str) -> list[str]:
    """The train names a line of what is for sale offers ('3+3 at £225 / 3 at £200 (pool)' -> 3+3, 3)."""
    return [part.split(" at ")[0].strip() for part in line.split(" / ")]


def players_privates(s, rs, corp, args) -> list[str]:
    return [sym for sym in privates.open_owned(s, rs) if s.privates[sym].owner.startswith("player:")]


def private_prices(s, rs, corp, args):
    sym = args.get("private")
    if sym not in s.privates:
        return Bounds(0)
    try:
        low, high = private_price_range(s, rs, sym)
    except RuleViolation:
        return Bounds(0)
    return Bounds(low, min(high, s.cash(company_acct(corp))))


def treasury_bars(direction: str):
    def bars(s, rs, corp) -> list[str]:
        if not shares.kind(s, rs, corp).issues:
            return [f"{corp} ({s.corps[corp].kind}) does not issue or redeem its shares"]
        done = s.round.get("treasury")
        if done and done != direction:
            return [f"{corp} has {'issued' if done == 'issue' else 'bought back'} shares this turn: it may either "
                    f"sell or buy its own shares in a turn, not both"]
        return []
    return bars


def done_phrase(s, rs, corps) -> str:
    corp = corps[0]
    must = not s.corp_trains(corp) and must_own_train(s, rs, corp)
    if must and rs.k("operating", "must_buy_train") == "route":
        return "{command} (only with no route: else it must buy a train)"
    return "{command}"


def short_president(s, rs) -> list[str]:
    """The president of the operating company: he alone raises money for a forced train (the rule
    says whether the company must buy one and the two of them lack the money)."""
    corp = s.round.get("corp")
    pres = s.president(corp) if corp else None
    return [pres] if pres else []


def shortfall_phrase(s, rs, players) -> str:
    corp = s.round["corp"]
    return f"{{command}} ({players[0]} is {rs.money(shortfall(s, rs, corp))} short of the train: sells shares)"


def not_short(s, rs, player) -> tuple[str, None]:
    corp = s.round["corp"]
    return (f"shares are sold in operating rounds only by the president of the operating company ({corp}: "
            f"{s.president(corp)}) to buy a forced train", None)


def emergency_sales(s, rs, player, args) -> list[str]:
    own = [c for c in s.corps if s.corps[c].cell is not None and s.percent_of(player_acct(player), c)]
    return own + [sym for sym in privates.open_owned(s, rs) if s.privates[sym].owner == player_acct(player)]


def not_bankrupt(s, rs, player) -> tuple[str, str | None]:
    corp = s.round["corp"]
    if s.president(corp) != player:
        return f"{player} is not the president of the operating company {corp}", None
    return (f"{player} is not bankrupt: {corp} has a train, need not buy one, or {player} and {corp} can pay "
            f"for the cheapest", None)


def not_turn(s, rs, actor, actors, verb) -> tuple[str, None]:
    corp = s.round["corp"]
    return f"it is {corp}'s turn in OR {s.round['set']}.{s.round['index']}, not {actor}'s", None


def heading(s, rs) -> str:
    corp = s.round["corp"]
    return f"OR {s.round['set']}.{s.round['index']}: {corp} ({s.president(corp) or 'no director'}) operates"


def start(ctx, priority: int | None = None, **_carry) -> None:
    """A set of ORs begins after a stock round: as many as the phase says."""
    s, rs = ctx.state, ctx.rs
    start_or(ctx, s.sets_played + 1, 1, rs.phase(s.phase).ors, priority=priority)


def start_or(ctx, set_no: int, index: int, count: int, priority: int | None = None) -> None:
    s, rs = ctx.state, ctx.rs
    # which companies owned a train as the OR began (a port claim needs one, 1843 §8.5.3)
    had = [sym for sym in s.corps if trains.counted(s, sym)]
    fields = {"round": {"kind": "operating", "set": set_no, "index": index, "count": count,
                        "order": operating_order(s, rs), "pos": -1, "corp": None, "moved": [],
                        "had_trains": had, **TURN_RESET}}
    if priority is not None:
        fields["priority"] = priority
    ctx.emit("round_started", **fields)
    income = ctx.reg.rules.get("privates_pay")   # 1801 §13: the repeat OR pays no private income
    if income is None or income(s):
        privates.pay_revenue(ctx)
    ctx.reg.call("or_started", ctx)
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
    # a home marker goes down on the company's first turn, unless its title placed it as it
    # floated (1801 §9.1, §9.2)
    home = not c.operated and not any(st.home for st in c.stations)
    cost = rs.k("operating", "home_token_cost") if home else 0
    more = ctx.reg.rules.get("extra_homes")   # 1839 Rijkswaterstaat: a home at Emmen for its company
    homes = rs.corporation(sym).homes + (more(s, sym) if more else 0) if home else 1
    ctx.emit("corp_turn_started", corp=sym, pos=pos, president=s.president(sym), home_token=home,
             **({"homes": homes} if homes > 1 else {}), transfers=[[company_acct(sym), BANK, cost]] if cost else [])


def end_or(ctx) -> None:
    """After the last company: the game may end (a price in an end cell, the bank broken after its
    last set, the title's own endings at the end of a set), else the next OR or the next round."""
    s, rs = ctx.state, ctx.rs
    if ctx.reg.call("or_ended", ctx):  # a title's step after its companies (1839: the foreign companies)
        return
    r = s.round
    ctx.emit("operating_round_ended", set=r["set"], index=r["index"])
    if s.end_after_or:
        ctx.emit("game_over", reason=f"a share price reached {rs.money(end_price(rs))}")
        return
    if s.end_at_or and [r["set"], r["index"]] >= list(s.end_at_or):   # 1801 §13: this OR was the last
        ctx.emit("game_over", reason="bank broken")
        return
    if r["index"] < r["count"]:
        start_or(ctx, r["set"], r["index"] + 1, r["count"])
        return
    if s.end_after_set is not None and r["set"] >= s.end_after_set and not s.end_at_or:
        ctx.emit("game_over", reason="bank broken")
        return
    if ctx.reg.call("or_set_ended", ctx):
        return
    ctx.next_round()


def end_price(rs) -> int:
    return min((c.price for c in rs.market.values() if c.end), default=0)


def progress(ctx) -> bool:
    return False  # an operating round moves on only by the companies' commands


def cmd_issue(ctx, cmd) -> None:
    treasury(ctx, cmd, redeem=False)


def cmd_redeem(ctx, cmd) -> None:
    treasury(ctx, cmd, redeem=True)


def treasury(ctx, cmd, redeem: bool) -> None:
    """The operating company sells shares from its treasury to the pool, or buys them back: one
    direction a turn (1801 §11.7)."""
    corp = operating_corp(ctx, cmd.get("corp"), "redeem" if redeem else "issue")
    done = ctx.state.round.get("treasury")
    if done and done != ("redeem" if redeem else "issue"):
        refuse(f"{corp} has {'issued' if done == 'issue' else 'bought back'} shares this turn: it may either sell or "
               f"buy its own shares in a turn, not both")
    shares.treasury_trade(ctx, corp, cmd.get("count") or 1, redeem)


def cmd_buy_private(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "buy-private")
    sym = names.private(rs, cmd.get("private"))
    price = names.amount(cmd.get("price"), "price")
    held, p = s.privates[sym], rs.private(sym)
    if p.ability("no_company_sale"):
        raise RuleViolation(f"{sym} can never be bought by a company")
    if held.closed:
        raise RuleViolation(f"{sym} is closed: no company buys it")
    if not held.owner or not held.owner.startswith("player:"):
        where = f"owned by {acct_name(held.owner)}" if held.owner else "unsold"
        raise RuleViolation(f"{sym} is {where}: a company buys a private from a player")
    low, high = private_price_range(s, rs, sym)
    if not low <= price <= high:
        span = rs.money(low) if low == high else f"{rs.money(low)} to {rs.money(high)}"
        refuse(f"{sym} (face {rs.money(p.face)}) sells to a company for {span} now, not {rs.money(price)}")
    sell_private(ctx, corp, sym, price)


def private_price_range(s, rs, sym: str) -> tuple[int, int]:
    """What a company may pay a player for a private now. Before the title's phase only a private
    with an early-sale clause (1843 Val de Loire, at face, in 5-6 player games) may be bought."""
    p = rs.private(sym)
    first = rs.k("privates_rules", "company_buy_from_phase")
    if not trains.phase_reached(s, rs, first):
        if len(s.players) in p.ability("company_buy_early", []):
            return p.face, p.face
        refuse(f"companies may buy privates from {trains.phase_label(first)} (now {trains.phase_label(s.phase)})")
    return (PRICE_BOUNDS[rs.k("privates_rules", "company_buy_min")](p.face),
            PRICE_BOUNDS[rs.k("privates_rules", "company_buy_max")](p.face))


def sell_private(ctx, corp: str, sym: str, price: int) -> None:
    s = ctx.state
    held = s.privates[sym]
    turn.pay_from(ctx, corp, price, sym)
    ctx.emit("private_sold", corp=corp, private=sym, seller=held.owner.split(":", 1)[1], price=price,
             transfers=[[company_acct(corp), held.owner, price]])


def cmd_done(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "done")
    ensure_ran(ctx, corp, "done")
    always = rs.k("operating", "must_buy_train") == "always"
    if cmd.get("no_route") and always:
        refuse(f"in {rs.title} a company must own a train after its turn, route or not")
    if not trains.working(s, corp) and not cmd.get("no_route") and must_own_train(s, rs, corp):
        cheapest = trains.cheapest_available(s, rs)
        what = f"cheapest: {cheapest[1]} for {rs.money(cheapest[0])}" if cheapest else "none for sale"
        refuse(f"{corp} has no train and must buy one ({what})",
               f"buy one: train {corp} TYPE" if always else f"if {corp} has no route, say 'done {corp} --no-route'")
    ctx.emit("corp_turn_ended", corp=corp)
    ctx.reg.call("corp_turn_ended", ctx, corp)
    next_corp(ctx)


def operated_this_or(s) -> list[str]:
    """The companies that have had their turn in the operating round under way (the one operating
    now included); none outside an operating round."""
    if s.round.get("kind") != "operating":
        return []
    return list(s.round["order"][:s.round["pos"] + 1])


def must_own_train(s, rs, corp: str) -> bool:
    """Whether the company must hold a train when its turn ends: its kind may be exempt (1801:
    minors and regionals need not); else the title's rule."""
    return shares.kind(s, rs, corp).must_own_train and rs.k("operating", "must_buy_train") != "never"


# --------------------------------------------------------------------------- emergency money

def shortfall(s, rs, corp: str) -> int:
    """How much the operating company and its president lack for the cheapest train (0 if none)."""
    if trains.working(s, corp):
        return 0
    cheapest = trains.cheapest_available(s, rs)
    if cheapest is None:
        return 0
    pres = s.president(corp)
    return max(0, cheapest[0] - s.cash(company_acct(corp)) - s.cash(player_acct(pres)))


def cmd_emergency_sell(ctx, cmd) -> None:
    """The president sells shares to raise money for a forced train purchase: only as many as needed,
    never handing over the operating company's presidency."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, corp = names.item(rs, cmd.get("corp"))
    n = cmd.get("count") or 1
    op = s.round["corp"]
    if kind == "private":
        if n != 1:
            refuse(f"{corp} is one private: it is handed over alone, not {n} of it", f"sell {player} {corp}")
        discard_private(ctx, player, corp, op)
        return
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
        refuse(f"{player} needs {rs.money(need)}: selling {counted(n, corp + ' share')} at {rs.money(price)} is more than needed",
                            f"sell {counted(max(1, -(-need // price)), 'share')}")
    keep = corp == op and not rs.k("operating", "emergency_sell_changes_operating_president")
    shares.sell(ctx, player, corp, n, keep_president=keep)
    reorder_after_sale(ctx)


def discard_private(ctx, player: str, sym: str, op: str | None) -> None:
    """1843 §8.8.3: in a forced train purchase the director may hand privates to the bank for face
    value; only while the money is still short (digest A22)."""
    s, rs = ctx.state, ctx.rs
    if rs.k("operating", "emergency_private_discard") == "none":
        raise RuleViolation(f"privates are not sold to the bank in {rs.title}")
    if op is None or s.president(op) != player:
        refuse(f"only the director of the operating company ({op or 'none'}) raises money for a forced train")
    why = privates.not_held(s, sym, player_acct(player))
    if why:
        raise RuleViolation(why)
    if not trains.working(s, op):
        ensure_ran(ctx, op, "sell")
    need = shortfall(s, rs, op)
    if need <= 0:
        refuse(f"{player} may not hand in {sym}: {op} and its director can already pay for the cheapest train")
    value = handed_in_value(rs, sym)
    ctx.emit("private_discarded", player=player, private=sym, price=value,
             transfers=[[BANK, player_acct(player), value]] if value else [])
    privates.close(ctx, [sym], reason=f"{player} handed it to the bank for {rs.money(value)}")


def handed_in_value(rs, sym: str) -> int:
    """What the bank pays for a private handed in for a forced train: its face (1843 §8.8.3) or half
    of it, rounded down (1839 D11.6)."""
    face = rs.private(sym).face
    return face // 2 if rs.k("operating", "emergency_private_discard") == "half_face" else face


def reorder_after_sale(ctx) -> None:
    """Emergency sales re-sort the companies that have not yet operated in this OR (R18)."""
    s, rs = ctx.state, ctx.rs
    pos, order = s.round["pos"], s.round["order"]
    waiting = set(order[pos + 1:])
    new = order[:pos + 1] + [c for c in operating_order(s, rs) if c in waiting]
    if new != order:
        ctx.emit("or_order", order=new)


def raisable(s, rs, player: str, op: str) -> tuple[int, list, list[str]]:
    """What a president can still raise for his operating company's forced train: (the money, the
    shares he may sell as [company, count], the privates he may hand to the bank where the title
    allows it)."""
    can, plan = shares.sellable_value(s, rs, player, keep_president_of=op)
    owned = []
    if rs.k("operating", "emergency_private_discard") != "none":
        owned = [p for p in privates.open_owned(s, rs) if s.privates[p].owner == player_acct(player)]
        can += sum(handed_in_value(rs, p) for p in owned)
    return can, plan, owned


def cmd_bankrupt(ctx, cmd) -> None:
    """The president cannot raise the cheapest train even by selling all he may, and the game ends.
    Where his cash goes to the bank (1830), the bank first sells for him what he still may; where
    he keeps it (1843 A21: the game ends as things stand), he must have sold it all himself (§8.8.3)."""
    s, rs = ctx.state, ctx.rs
    if not s.round.get("corp"):
        raise RuleViolation("bankruptcy happens during a forced train purchase in an operating round")
    player = names.player(s, cmd.get("player"))
    op = s.round["corp"]
    if s.president(op) != player:
        raise RuleViolation(f"{player} is not the president of the operating company {op}")
    ensure_ran(ctx, op, "bankrupt")
    need = shortfall(s, rs, op)
    can, plan, owned = raisable(s, rs, player, op)
    if need <= 0 or can >= need:
        refuse(f"{player} is not bankrupt: {op} lacks {rs.money(need)} for the cheapest train and {player} can "
               f"raise {rs.money(can)} by selling shares{' and privates' if owned else ''}",
               "sell shares, then buy the train")
    if rs.k("operating", "bankrupt_cash") == "keep":
        # 1843 A21: the game ends as things stand, so nothing is sold for him; §8.8.3 wants it sold already
        if plan or owned:
            refuse(f"{player} is not bankrupt yet: a president is bankrupt only after handing in every private "
                   f"and selling every share he legally can, and he can still {still_to_raise(s, rs, plan, owned)}, "
                   f"{rs.money(can)} in all", f"sell {player} {' '.join(map(str, plan[0])) if plan else owned[0]}")
        ctx.emit("bankrupt", player=player, corp=op, cash=s.cash(player_acct(player)))
        ctx.emit("game_over", reason="bankruptcy")
        return
    for corp, n in plan:
        shares.sell(ctx, player, corp, n, keep_president=(corp == op))
    cash = s.cash(player_acct(player))
    ctx.emit("bankrupt", player=player, corp=op, cash=cash,
             transfers=[[player_acct(player), BANK, cash]] if cash else [])
    if rs.k("operating", "bankrupt_ends_game"):
        ctx.emit("game_over", reason="bankruptcy")


def still_to_raise(s, rs, plan: list, owned: list[str]) -> str:
    """'sell ETA 1 at 47fr, NOR 2 at 47fr and hand in HAV for 60fr': what a president may still raise."""
    parts = []
    if plan:
        parts.append("sell " + ", ".join(f"{corp} {n} at {rs.money(shares.price(s, rs, corp))}" for corp, n in plan))
    if owned:
        parts.append("hand in " + ", ".join(f"{p} for {rs.money(handed_in_value(rs, p))}" for p in owned))
    return " and ".join(parts)


OPERATING = known_round(RoundKind(
    name="operating", start=start, progress=progress, actor=lambda s: s.round.get("corp"), heading=heading,
    not_turn=not_turn,
    label=lambda r: f"OR {r['set']}.{r['index']}",
    title=lambda r: f"Operating Round {r['set']}.{r['index']} (of {r['count']})",
    breaks_bank=lambda s: s.round["set"]))


def drop_obsolete(ctx, corp: str) -> None:
    """An obsolete train (kept from rusting once by a protecting flag) has made its last run: it
    leaves play after the company's run (1843 §10.2 Engineers, 1839 §12.5 SAVED, B16)."""
    s = ctx.state
    gone = [t for t in s.corp_trains(corp) if trains.is_obsolete(s, t)]
    if gone:
        ctx.emit("obsolete_discarded", corp=corp, trains=[[t, company_acct(corp), RUSTED] for t in gone],
                 flags={t: {"obsolete": None} for t in gone})
