"""The operating company's turn: which company operates, and the checks every step of its turn
makes (the step still open, money in the treasury)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.state import company_acct


def operating_corp(ctx, raw, verb: str) -> str:
    """The company named, which must be the one operating (the registry sends a company's verbs
    here only in an operating round)."""
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, raw)
    if s.round["corp"] != corp:
        raise RuleViolation(f"it is {s.round['corp']}'s turn in OR {s.round['set']}.{s.round['index']}, not {corp}'s")
    return corp


def before_revenue(s, corp: str, what: str) -> None:
    if s.round["revenue"] is not None:
        refuse(f"{corp} has already run this turn: {what} comes before running trains")


def pay_from(ctx, corp: str, amount: int, what: str) -> None:
    """The treasury can pay `amount` for `what` (a company's own purchases get no help)."""
    cash = ctx.state.cash(company_acct(corp))
    if cash < amount:
        raise RuleViolation(f"{corp} has {ctx.rs.money(cash)}, {what} costs {ctx.rs.money(amount)}")
