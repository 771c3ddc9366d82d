"""A company's run: the revenue the table announces, paid out to the holders or withheld, and the
stock price move it causes.

Rules: 1830 SEED "Operating Rounds" (digest §8.4); 1843 RULES §8.6, §8.7.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.rules import market, shares, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.state import BANK, POOL, company_acct, player_acct


def cmd_pay(ctx, cmd) -> None:
    run(ctx, cmd, "pay")


def cmd_withhold(ctx, cmd) -> None:
    run(ctx, cmd, "withhold")


def cmd_half(ctx, cmd) -> None:
    run(ctx, cmd, "half")


def run(ctx, cmd, how: str, bank_adds: int = 0) -> None:
    """The run: `bank_adds` of the revenue are the bank's own additions on top of what the trains
    make (1801 §12: the Orient Express extra), outside the typo guard's ceiling."""
    s = ctx.state
    corp = operating_corp(ctx, cmd.get("corp"), how)
    revenue = names.amount(cmd.get("revenue"), "revenue")
    if s.round["revenue"] is not None:
        refuse(f"{corp} has already run this turn ({ctx.rs.money(s.round['revenue'])})")
    if revenue and not s.corp_trains(corp):
        refuse(f"{corp} has no trains: its revenue is {ctx.rs.money(0)}", f"withhold {corp} 0")
    if revenue == 0 and how != "withhold":
        # a run of nothing pays nothing (and moves the marker as a withhold): said so, since in bash
        # `pay PRR $200` reaches the bank as `pay PRR 00`
        refuse(f"a revenue of {ctx.rs.money(0)} pays nothing out: {corp} withholds it",
               f"withhold {corp} 0 (in bash, type an amount without its $: '$200' reaches the bank as '00')")
    check_revenue(ctx, corp, revenue - bank_adds)
    modes = shares.kind(s, ctx.rs, corp).dividends
    if how not in modes and revenue > 0:
        refuse(f"{corp} ({s.corps[corp].kind}) may {' or '.join(modes)} its revenue, not {how}",
               f"{modes[0]} {corp} {revenue}")
    if how in ("pay", "half") and revenue > 0:
        pay_out(ctx, corp, revenue, how)
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


def dividends(s, rs, corp: str, amount) -> list[list]:
    """[holder account, shares, amount] for everyone a payout of `amount` (the revenue, or the half
    paid out) pays: each holder's percent of it, rounded per holder by the title's rule. Pool and
    unsold shares pay the company or nobody, as the company's kind says."""
    k = shares.kind(s, rs, corp)
    how = rs.k("company", "dividend_rounding")
    rounding = math.ceil if how in ("ceil_per_holder", "ceil_players_floor_company") else math.floor
    own = math.floor if how == "ceil_players_floor_company" else rounding  # 1839 D11.2: the pool's share down
    out = []
    for p in s.players:
        pct = s.percent_of(player_acct(p), corp)
        if pct:
            out.append([player_acct(p), pct // k.unit, rounding(Fraction(amount) * pct / 100)])
    for holder, pays in ((POOL, k.pool_pays), (shares.unsold_acct(s, rs, corp), k.ipo_pays)):
        pct = s.percent_of(holder, corp)
        if pct and pays == "company":
            out.append([company_acct(corp), pct // k.unit, own(Fraction(amount) * pct / 100)])
    return out


def pay_out(ctx, corp: str, revenue: int, how: str = "pay") -> None:
    """Pay the revenue out to the holders, or (half) half of it, the company keeping the rest
    rounded down (1801 §11.4, 1839 §8.2.6)."""
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    kept = revenue // 2 if how == "half" else 0
    distributed = Fraction(revenue, 2) if how == "half" else Fraction(revenue)
    paid = dividends(s, rs, corp, distributed)
    to = market.after_run(rs, c.cell, how, distributed=distributed, price=shares.price(s, rs, corp) if c.cell else 0,
                          has_trains=bool(s.corp_trains(corp)))
    per_share = distributed * shares.unit(s, rs, corp) / 100
    transfers = [[BANK, acct, amt] for acct, _n, amt in paid if amt]
    if kept:
        transfers.insert(0, [BANK, company_acct(corp), kept])
    ctx.emit("revenue", corp=corp, revenue=revenue, how=how, per_share=str(per_share),
             payees=[[acct, n, amt] for acct, n, amt in paid], transfers=transfers,
             **({"kept": kept} if how == "half" else {}), **marker_move(s, rs, corp, to))
    after_run(ctx, corp, revenue)


def withhold(ctx, corp: str, revenue: int) -> None:
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    to = market.after_run(rs, c.cell, "withhold", distributed=0, price=shares.price(s, rs, corp) if c.cell else 0,
                          has_trains=bool(s.corp_trains(corp)), revenue=revenue)
    ctx.emit("revenue", corp=corp, revenue=revenue, how="withhold",
             transfers=[[BANK, company_acct(corp), revenue]] if revenue else [],
             **marker_move(s, rs, corp, to))
    after_run(ctx, corp, revenue)


def marker_move(s, rs, corp: str, to) -> dict:
    """The event fields of a company's run moving its marker. Where the title stacks a moved marker
    face-down (1843 §8.2), it goes under the markers that have not moved this OR and over those
    that have; otherwise it arrives at the bottom of the new cell. A company off the market (1801:
    a minor or a regional) has no marker to move."""
    c = s.corps[corp]
    if c.cell is None:
        return {}
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
    """After the run: an end cell reached by a dividend ends the game after this OR (1843 §8.10.1);
    then the title's own consequences of a run (1843: an obsolete train has made its last run)."""
    s, rs = ctx.state, ctx.rs
    cell = rs.market[tuple(s.corps[corp].cell)] if s.corps[corp].cell else None
    if cell and cell.end and rs.k("endgame", "end_cell_in_or") == "end_of_or" and not s.end_after_or:
        ctx.emit("end_due", corp=corp, price=cell.price)
    ctx.reg.call("after_run", ctx, corp)


def ensure_ran(ctx, corp: str, verb: str) -> None:
    """A company without trains runs for $0 (withholds, moves left) before it buys or ends its turn."""
    s = ctx.state
    if s.round["revenue"] is not None:
        return
    if trains.counted(s, corp):
        raise RuleViolation(f"{corp} must run first: pay or withhold its revenue before '{verb}'",
                            f"withhold {corp} 0 if it runs nothing")
    withhold(ctx, corp, 0)
