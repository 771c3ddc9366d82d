"""Operating rounds: private revenue, the operating order, and a company's turn
(track, token, run and pay or withhold, trains, privates), forced train purchases and bankruptcy.

Rules: SEED "Operating Rounds" and "End of Game", digest §8-§12.
"""

from __future__ import annotations

from fractions import Fraction
import math

from ledger.core.rules import market, ports, privates, shares, train_step, trains
from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import TURN_RESET
from ledger.core.state import BANK, POOL, company_acct, round_label, ipo_acct, player_acct

# The closed set of private sale bounds a ruleset may name (ruleset.KNOBS privates_rules).
PRICE_BOUNDS = {"half_face": lambda face: math.ceil(face / 2), "double_face": lambda face: 2 * face,
                "one": lambda face: 1}



def operating_order(s, rs) -> list[str]:
    """Floated companies by price, then column (right first), row (top first), arrival in the cell."""
    def key(sym):
        c = s.corps[sym]
        return (-market.price(rs, c.cell), -c.cell[1], c.cell[0], c.arrival)
    return sorted((sym for sym, c in s.corps.items() if c.floated and c.cell), key=key)


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
    if index == 1:
        owned = rs.k("endgame", "owned_train_type")
        holder = next((sym for sym in s.corps if any(t.startswith(owned + ".") for t in s.corp_trains(sym))), None)
        if owned and holder:
            train_step.saw_train(ctx, holder, owned)
    privates.pay_revenue(ctx)
    ports.pay_income(ctx)
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
    ctx.emit("corp_turn_started", corp=sym, pos=pos, president=s.president(sym), home_token=home,
             transfers=[[company_acct(sym), BANK, cost]] if cost else [])


def end_or(ctx) -> None:
    s, rs = ctx.state, ctx.rs
    r = s.round
    ctx.emit("operating_round_ended", set=r["set"], index=r["index"])
    if s.end_after_or:
        ctx.emit("game_over", reason=f"a share price reached {rs.money(end_price(rs))}")
        return
    if r["index"] < r["count"]:
        start_or(ctx, r["set"], r["index"] + 1, r["count"])
        return
    if s.end_after_set is not None and r["set"] >= s.end_after_set:
        ctx.emit("game_over", reason="bank broken")
        return
    if end_of_set_counts(ctx):
        return
    if rs.k("operating", "end_of_set_discard") == "next_train":
        train_step.foreigners_buy(ctx)
    from ledger.core.rounds.stock import new_round  # stock imports this module
    ctx.emit("round_started", round=new_round(r["set"] + 1, s.priority))


def end_price(rs) -> int:
    return min((c.price for c in rs.market.values() if c.end), default=0)


def end_of_set_counts(ctx) -> bool:
    """1843 §8.10.1 #4: the game ends after the Nth set in which a company owned the trigger train."""
    s, rs = ctx.state, ctx.rs
    needed = rs.k("endgame", "owned_train_sets")
    if not needed or not s.owned_this_set:
        return False
    ctx.emit("owned_set_counted", sets=s.owned_sets + 1, type=rs.k("endgame", "owned_train_type"))
    if s.owned_sets >= needed:
        ctx.emit("game_over", reason=f"the end of set {s.round['set']}, set {needed} in which a company "
                                     f"owned a {rs.k('endgame', 'owned_train_type')} train")
        return True
    return False


def progress(ctx) -> bool:
    return False


# --------------------------------------------------------------------------- the operating company

def operating_corp(ctx, raw, verb: str) -> str:
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, raw)
    if s.round["kind"] != "operating":
        raise RuleViolation(f"'{verb}' is for a company's turn in an operating round (now: {round_label(s)})")
    train_step.check_limit_met(s, rs)
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
    check_revenue(ctx, corp, revenue)
    if how == "pay" and revenue > 0:
        pay_out(ctx, corp, revenue)
    else:
        withhold(ctx, corp, revenue)


def check_revenue(ctx, corp: str, revenue: int) -> None:
    """A revenue is a sum of the map's values, so it comes in the title's granularity; one far
    above what the company's trains could earn is almost surely mistyped, and needs --force."""
    s, rs = ctx.state, ctx.rs
    step = rs.k("operating", "revenue_multiple")
    if revenue % step:
        refuse(f"{rs.title} revenues are multiples of {rs.money(step)} (every stop on the map is): "
               f"{rs.money(revenue)} is not", f"did you mean {rs.money(revenue - revenue % step)}?")
    ceiling = trains.plausible_revenue(s, rs, corp)
    if revenue > ceiling:
        refuse(f"{corp}'s trains ({', '.join(trains.side_name(s, rs, t) for t in s.corp_trains(corp))}) "
               f"could earn at most about {rs.money(ceiling)}, not {rs.money(revenue)}",
               "if the revenue is right, add --force --reason TEXT")


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
             **marker_move(s, rs, corp, to))
    after_run(ctx, corp, revenue)


def withhold(ctx, corp: str, revenue: int) -> None:
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    to = market.move(rs, c.cell, "withhold")
    if revenue == 0 and rs.k("operating", "zero_revenue_moves") == "none":
        to = c.cell
    ctx.emit("revenue", corp=corp, revenue=revenue, how="withhold",
             transfers=[[BANK, company_acct(corp), revenue]] if revenue else [],
             **marker_move(s, rs, corp, to))
    after_run(ctx, corp, revenue)


def marker_move(s, rs, corp: str, to) -> dict:
    """The event fields of a company's run moving its marker. Where the title stacks a moved marker
    face-down (1843 §8.2), it goes under the markers that have not moved this OR and over those
    that have; otherwise it arrives at the bottom of the new cell."""
    c = s.corps[corp]
    fields = {"moves": [[corp, list(c.cell), list(to)]]}
    if rs.market_rules["or_move_stacking"] == "under_unmoved" and tuple(to) != tuple(c.cell):
        there = sorted((sym for sym, o in s.corps.items() if o.cell == tuple(to) and sym != corp),
                       key=lambda sym: s.corps[sym].arrival)
        moved = set(s.round.get("moved", []))
        stack = [x for x in there if x not in moved] + [corp] + [x for x in there if x in moved]
        if len(stack) > 1:
            fields["restack"] = [stack]
    return fields


def after_run(ctx, corp: str, revenue: int) -> None:
    """Record the run; an end cell reached by a dividend ends the game after this OR (1843 §8.10.1);
    an obsolete train has made its last run and goes before the train step."""
    s, rs = ctx.state, ctx.rs
    cell = rs.market[tuple(s.corps[corp].cell)]
    if cell.end and rs.k("endgame", "end_cell_in_or") == "end_of_or" and not s.end_after_or:
        ctx.emit("end_due", corp=corp, price=cell.price)
    train_step.drop_obsolete(ctx, corp)


def ensure_ran(ctx, corp: str, verb: str) -> None:
    """A company without trains runs for $0 (withholds, moves left) before it buys or ends its turn."""
    s = ctx.state
    if s.round["revenue"] is not None:
        return
    if trains.counted(s, corp):
        raise RuleViolation(f"{corp} must run first: pay or withhold its revenue before '{verb}'",
                            f"withhold {corp} 0 if it runs nothing")
    withhold(ctx, corp, 0)


# --------------------------------------------------------------------------- privates, end of turn

def cmd_buy_private(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "buy-private")
    sym = names.private(rs, cmd.get("private"))
    price = names.amount(cmd.get("price"), "price")
    held, p = s.privates[sym], rs.private(sym)
    if p.ability("no_company_sale"):
        raise RuleViolation(f"{sym} can never be bought by a company")
    if held.closed or not held.owner or not held.owner.startswith("player:"):
        raise RuleViolation(f"{sym} is not an open private owned by a player")
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
    pay_from(s, corp, price, sym)
    ctx.emit("private_sold", corp=corp, private=sym, seller=held.owner.split(":", 1)[1], price=price,
             transfers=[[company_acct(corp), held.owner, price]])


def cmd_done(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "done")
    ensure_ran(ctx, corp, "done")
    train_step.check_limit_met(s, rs)
    if not trains.working(s, corp) and not cmd.get("no_route") and rs.k("operating", "must_buy_train") != "never":
        cheapest = trains.cheapest_available(s, rs)
        what = f"cheapest: {cheapest[1]} for {rs.money(cheapest[0])}" if cheapest else "none for sale"
        refuse(f"{corp} has no train and must buy one ({what})",
                            f"if {corp} has no route, say 'done {corp} --no-route'")
    ctx.emit("corp_turn_ended", corp=corp)
    next_corp(ctx)


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
    from ledger.core.rounds.stock import sell  # stock imports this module
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, corp = names.item(rs, cmd.get("corp"))
    n = cmd.get("count") or 1
    op = s.round["corp"]
    train_step.check_limit_met(s, rs)
    if kind == "private":
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
        refuse(f"{player} needs ${need}: selling {n} {corp} share(s) at ${price} is more than needed",
                            f"sell {max(1, -(-need // price))} share(s)")
    keep = corp == op and not rs.k("operating", "emergency_sell_changes_operating_president")
    sell(ctx, player, corp, n, keep_president=keep)
    reorder_after_sale(ctx)


def discard_private(ctx, player: str, sym: str, op: str | None) -> None:
    """1843 §8.8.3: in a forced train purchase the director may hand privates to the bank for face
    value; only while the money is still short (digest A22)."""
    s, rs = ctx.state, ctx.rs
    if rs.k("operating", "emergency_private_discard") == "none":
        raise RuleViolation(f"privates are not sold to the bank in {rs.title}")
    if op is None or s.president(op) != player:
        refuse(f"only the director of the operating company ({op or 'none'}) raises money for a forced train")
    held = s.privates[sym]
    if held.owner != player_acct(player) or held.closed:
        raise RuleViolation(f"{player} does not own an open {sym}")
    if not trains.working(s, op):
        ensure_ran(ctx, op, "sell")
    need = shortfall(s, rs, op)
    if need <= 0:
        refuse(f"{player} may not hand in {sym}: {op} and its director can already pay for the cheapest train")
    face = rs.private(sym).face
    ctx.emit("private_discarded", player=player, private=sym, price=face,
             transfers=[[BANK, player_acct(player), face]] if face else [])
    privates.close(ctx, [sym], reason=f"{player} handed it to the bank for {rs.money(face)}")


def reorder_after_sale(ctx) -> None:
    """Emergency sales re-sort the companies that have not yet operated in this OR (R18)."""
    s, rs = ctx.state, ctx.rs
    pos, order = s.round["pos"], s.round["order"]
    waiting = set(order[pos + 1:])
    new = order[:pos + 1] + [c for c in operating_order(s, rs) if c in waiting]
    if new != order:
        ctx.emit("or_order", order=new)


def cmd_bankrupt(ctx, cmd) -> None:
    """The president cannot raise the cheapest train even by selling all he may, and the game ends.
    Where his cash goes to the bank (1830), the bank first sells for him what he still may; where
    he keeps it (1843 A21: the game ends as things stand), he must have sold it all himself (§8.8.3)."""
    from ledger.core.rounds.stock import sell
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
    owned = []
    if rs.k("operating", "emergency_private_discard") == "face":
        owned = [p for p in privates.open_owned(s, rs) if s.privates[p].owner == player_acct(player)]
        can += sum(rs.private(p).face for p in owned)
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
        sell(ctx, player, corp, n, keep_president=(corp == op))
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
        parts.append("hand in " + ", ".join(f"{p} for {rs.money(rs.private(p).face)}" for p in owned))
    return " and ".join(parts)
