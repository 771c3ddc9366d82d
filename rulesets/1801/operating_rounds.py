"""1801 / 18OE: the start of each operating round: Train Phase 2 with the first OR (§5.2), Minor K's
mail (§15.10) and Minor C's place in the order (§15.3)."""

from __future__ import annotations

from ledger.core.events import event
from ledger.core.rules import decisions
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, company_acct

from .common import ability_user, repeat_or, rules

KNOBS = {"title_rules": {
    "mail": Knob(dict, None, REQUIRED),
}}


MAIL_CORP = "K"            # §15.10


ORDER_CORP = "C"           # §15.3


# =========================================================================== operating rounds

def first_or(ctx) -> None:
    """§5.2: Train Phase 2 begins at the start of the first OR."""
    s, rs = ctx.state, ctx.rs
    if s.phase == "1":
        p = rs.phase("2")
        ctx.emit("phase_changed", phase=p.name, train="", limit=p.train_limit, certificate_limit=p.certificate_limit,
                 trains=[], rusted=[], obsolete=[], flags={})


def pay_mail(ctx) -> None:
    """§15.10: Minor K's mail, paid into its treasury at the start of each OR (not revenue)."""
    s, rs = ctx.state, ctx.rs
    user = ability_user(s, MAIL_CORP)
    amount = rules(rs, "mail").get(s.phase, 0)
    if user and s.president(user) and amount and (not repeat_or(s) or rules(rs, "repeat_or_income")):
        ctx.emit("mail_paid", corp=user, amount=amount, transfers=[[BANK, company_acct(user), amount]])


def ask_order(ctx) -> None:
    """§15.3: Minor C's president chooses where it operates in this OR, before anyone operates."""
    s = ctx.state
    user = ability_user(s, ORDER_CORP)
    who = s.president(user) if user else None
    if who and user in s.round.get("order", []) and len(s.round["order"]) > 1:
        decisions.ask(ctx, who, f"where does {'Minor ' + user if user == ORDER_CORP else user} operate in this "
                      f"OR (§15.3)?", ["first", "last", "normal"], "minor_c_order", corp=user)


def order_chosen(ctx, due: dict, option: str) -> None:
    """§15.3: first or last within its own group (the minor with the minors and regionals, the
    major with the majors and nationals), or its normal place."""
    s = ctx.state
    user = due["data"].get("corp", ORDER_CORP)
    order = [c for c in s.round["order"] if c != user]
    if option == "normal":
        return
    majors = bool(s.corps[user].cell)
    group = [i for i, c in enumerate(order) if bool(s.corps[c].cell) == majors]
    if option == "first":
        at = group[0] if group else (len(order) if majors else 0)
    else:
        at = group[-1] + 1 if group else (len(order) if majors else 0)
    order.insert(at, user)
    ctx.emit("or_order", order=order)
    if order[0] != s.round["corp"]:
        ctx.emit("corp_turn_started", corp=order[0], pos=0, president=s.president(order[0]), home_token=False)


@event
class MailPaid:
    corp: str
    amount: int

    def describe(e, rs):
        return f"Minor K's mail: the bank pays {e['corp']} {rs.money(e['amount'])}"


def register(reg) -> None:
    reg.choice("minor_c_order", order_chosen)
    reg.on("or_started", first_or)
    reg.on("or_started", pay_mail)
    reg.on("or_started", ask_order)
