"""1801 / 18OE: a railroad's run (§11.3, §11.4): the Pullman's and the Orient Express's extras added
to the announced revenue, and the Orient Express's first-run bonus (§12)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.command import changed
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Opt, TitleGrammar
from ledger.core.plays import Bounds
from ledger.core.rules import decisions, revenue
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, company_acct

from .common import kind_of, repeat_or, rules
from .end import check_repeat, record_final_run, repeat_as_before, repeat_phrase, repeat_revenue
from .pullmans import pullman_bonus

KNOBS = {"title_rules": {
    "oe_extra": Knob(dict, None, REQUIRED),
    "oe_moves": Knob(int, None, REQUIRED),
    "oe_cash": Knob(str, ("train_total", "train_base"), "train_total"),   # D18 #24
    "oe_moves_first": Knob(bool, None, False),                            # D18 #22
}}


# --------------------------------------------------------------------------- the run (§11.3, §11.4, §12)

def cmd_pay(ctx, cmd) -> None:
    run_1801(ctx, cmd, "pay")


def cmd_half(ctx, cmd) -> None:
    run_1801(ctx, cmd, "half")


def cmd_withhold(ctx, cmd) -> None:
    run_1801(ctx, cmd, "withhold")


def run_1801(ctx, cmd, how: str) -> None:
    """The announced revenue, with the Pullman (`--pullman TRAIN`) and the Orient Express extra
    (`--oe N`: N of the pounds are the OE train's) added by the bank; the first OE run asks for the
    bonus (§12). A national's revenue is computed by `run`."""
    from dataclasses import replace
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), how)
    base = names.amount(cmd.get("revenue"), "revenue")
    if kind_of(s, corp) == "national" and (base or s.corp_trains(corp)) and not repeat_as_before(s, corp):
        refuse(f"{corp} is a national: its revenue is computed from its capacity (§11.3.10)",
               f"run {corp} --cities 80,60 --towns 20 --unlinked-cities 0 --unlinked-towns 0")
    if cmd.get("pullman") and not base:
        refuse(f"a Pullman rides a train that ran: {corp}'s revenue is {rs.money(0)}, so no --pullman")
    bonus = pullman_bonus(s, rs, corp, cmd.get("pullman")) if cmd.get("pullman") else 0
    oe = orient_express(s, rs, corp, cmd, base, bonus)
    total = base + bonus + (oe["extra"] if oe else 0)
    check_repeat(s, rs, corp, total, how)
    # the ceiling guards the run the table announces; the bank's additions come on top (§11.3.9, §12)
    revenue.run(ctx, replace(cmd, args=changed(cmd.args, revenue=total)), how, bank_adds=total - base)
    if bonus or oe:
        ctx.emit("run_extras", corp=corp, announced=base, pullman=bonus, oe=oe["extra"] if oe else 0)
    record_final_run(ctx, corp, total, how)
    if oe and corp not in s.own.oe_markers and not repeat_or(s):
        ctx.emit("oe_marker", corp=corp)
        decisions.ask(ctx, s.president(corp), f"{corp}'s first Orient Express run: the bank pays its treasury "
                      f"{rs.money(oe['total'])}, or its share value moves right three times (§12)?",
                      ["cash", "market"], "oe_bonus", corp=corp, amount=oe["total"], before=oe["cell"],
                      paid=ctx_paid(ctx, corp))


def oe_parts(s, rs, corp, args):
    """What --oe may say: a major's Orient Express train earns part of the revenue announced."""
    revenue = str(args.get("revenue", ""))
    if kind_of(s, corp) != "major" or not revenue.isdigit():
        return []
    return Bounds(1, int(revenue))


def orient_express(s, rs, corp: str, cmd, base: int, bonus: int) -> dict | None:
    """§12: a major's Orient Express run adds £30 / £60 / £100 by phase, once an OR, not doubled."""
    if cmd.get("oe") in (None, ""):
        if cmd.get("pullman_on_oe"):
            refuse("--pullman-on-oe names the Orient Express train's Pullman: give --oe N too")
        return None
    part = names.amount(cmd.get("oe"), "the Orient Express train's revenue")
    if part < 1:
        refuse("the Orient Express train's part of the revenue is at least £1: leave --oe out if it did not run (§12)")
    if kind_of(s, corp) != "major":
        refuse(f"{corp} is a {kind_of(s, corp)}: only majors run the Orient Express (§12)")
    if part > base:
        refuse(f"the Orient Express train's {rs.money(part)} is part of the {rs.money(base)} announced (§12)")
    extra = rules(rs, "oe_extra")[s.phase]
    ride = bonus if cmd.get("pullman_on_oe") else 0
    cash = part + extra + ride if rules(rs, "oe_cash") == "train_total" else part
    return {"extra": extra, "total": cash, "cell": list(s.corps[corp].cell) if s.corps[corp].cell else None}


def oe_bonus(ctx, due: dict, option: str) -> None:
    """§12: the first-time bonus, after the payout: the OE train's whole revenue into the treasury,
    or three moves right after the dividend's move (D18 #22, #24)."""
    s, rs = ctx.state, ctx.rs
    corp, amount = due["data"]["corp"], due["data"]["amount"]
    if option == "cash":
        ctx.emit("oe_bonus", corp=corp, option=option, amount=amount, transfers=[[BANK, company_acct(corp), amount]])
        return
    c = s.corps[corp]
    market = market_module()
    if rules(rs, "oe_moves_first") and due["data"].get("before"):
        # the option: the three moves first, then the dividend's move from there, judged on the same payout
        start = market.move(rs, tuple(due["data"]["before"]), "right", rules(rs, "oe_moves"))
        paid = due["data"].get("paid") or {}
        to = market.after_run(rs, start, paid.get("how", "pay"), distributed=paid.get("distributed", 0),
                              price=paid.get("price", 0), has_trains=True, revenue=paid.get("revenue", 0))
    else:
        to = market.move(rs, c.cell, "right", rules(rs, "oe_moves"))
    ctx.emit("oe_bonus", corp=corp, option=option, amount=0, moves=[[corp, list(c.cell), list(to)]])


def ctx_paid(ctx, corp: str) -> dict:
    """What the run's dividend move was judged on (for the option oe_moves_first, D18 #22)."""
    run = next(e for e in reversed(ctx.events) if e["kind"] == "revenue" and e["corp"] == corp)
    rs = ctx.rs
    distributed = 0 if run["how"] == "withhold" else (run["revenue"] // 2 if run["how"] == "half" else run["revenue"])
    before = run.get("moves", [[corp, None, None]])[0][1]
    from ledger.core.rules import market
    return {"how": run["how"], "distributed": distributed, "revenue": run["revenue"],
            "price": market.price(rs, tuple(before)) if before else 0}


def market_module():
    from ledger.core.rules import market
    return market


@event
class RunExtras:
    """The bank's additions to an announced revenue: the Pullman and the Orient Express extra."""
    corp: str
    announced: int
    pullman: int
    oe: int

    def describe(e, rs):
        parts = [f"Pullman {rs.money(e['pullman'])}"] * bool(e["pullman"]) + \
            [f"Orient Express {rs.money(e['oe'])}"] * bool(e["oe"])
        return f"{e['corp']}: {rs.money(e['announced'])} announced + {' + '.join(parts)} (§11.3.9, §12)"


@event
class OeMarker:
    """§12: a major's first Orient Express run earns its marker (once a game)."""
    corp: str

    def apply(s, e):
        s.own.oe_markers = [*s.own.oe_markers, e["corp"]]

    def describe(e, rs):
        return f"{e['corp']} runs the Orient Express for the first time (§12)"


@event
class OeBonus:
    corp: str
    option: str
    amount: int = 0

    def describe(e, rs):
        if e["option"] == "cash":
            return f"the bank pays {e['corp']} its Orient Express train's {rs.money(e['amount'])} (§12)"
        return f"{e['corp']}'s share value moves right three times for the Orient Express (§12)"


GRAMMAR = TitleGrammar(
    options={
        "pay": (Opt("--pullman", "pullman", kind="side", help="1801: the train its Pullman rides (+£10 a level)"),
                Opt("--oe", "oe", kind="amount", help="1801: the Orient Express train's part of the revenue; the bank "
                    "adds the OE extra"),
                Opt("--pullman-on-oe", "pullman_on_oe", True, help="1801: the Pullman rides the Orient Express train")),
        "half": (Opt("--pullman", "pullman", kind="side", help="1801: the train its Pullman rides (+£10 a level)"),
                Opt("--oe", "oe", kind="amount", help="1801: the Orient Express train's part of the revenue; the bank "
                    "adds the OE extra"),
                Opt("--pullman-on-oe", "pullman_on_oe", True, help="1801: the Pullman rides the Orient Express train")),
        "withhold": (Opt("--pullman", "pullman", kind="side", help="1801: the train its Pullman rides (+£10 a level)"),
                Opt("--oe", "oe", kind="amount", help="1801: the Orient Express train's part of the revenue; the bank "
                    "adds the OE extra"),
                Opt("--pullman-on-oe", "pullman_on_oe", True, help="1801: the Pullman rides the Orient Express train")),
    },
)


def register(reg) -> None:
    for how, handler in (("pay", cmd_pay), ("half", cmd_half), ("withhold", cmd_withhold)):
        reg.rework("operating", how, handler=handler, candidates={"revenue": repeat_revenue(how), "oe": oe_parts},
                   phrase=repeat_phrase(how), together=(("oe", "pullman_on_oe"), ("oe", "pullman", "pullman_on_oe")))
    reg.choice("oe_bonus", oe_bonus)
