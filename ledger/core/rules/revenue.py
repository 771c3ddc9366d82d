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
from ledger.core.state import BANK, POOL, company_acct, ipo_acct, player_acct


def cmd_pay(ctx, cmd) -> None:
    run(ctx, cmd, "pay")


def cmd_withhold(ctx, cmd) -> None:
    run(ctx, cmd, "withhold")


def run(ctx, cmd, how: str) -> None:
    s = ctx.state
    corp = operating_corp(ctx, cmd.get("corp"), how)
    revenue = names.amount(cmd.get("revenue"), "revenue")
    if s.round["revenue"] is not None:
        refuse(f"{corp} has already run this turn ({ctx.rs.money(s.round['revenue'])})")
    if revenue and not s.corp_trains(corp):
        refuse(f"{corp} has no trains: its revenue is {ctx.rs.money(0)}", f"withhold {corp} 0")
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
    """After the run: an end cell reached by a dividend ends the game after this OR (1843 §8.10.1);
    then the title's own consequences of a run (1843: an obsolete train has made its last run)."""
    s, rs = ctx.state, ctx.rs
    cell = rs.market[tuple(s.corps[corp].cell)]
    if cell.end and rs.k("endgame", "end_cell_in_or") == "end_of_or" and not s.end_after_or:
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
