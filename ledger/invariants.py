"""Checks that hold after every event: money conserved, every certificate held once, no player
below zero. Used after replays and in the tests."""

from __future__ import annotations

from .ruleset import Ruleset
from .state import GameState


def check(s: GameState, rs: Ruleset) -> list[str]:
    problems = []
    total = sum(s.balances.values())
    if total != rs.bank_total:
        problems.append(f"money is not conserved: accounts sum to {total}, not {rs.bank_total}")
    for acct, amount in s.balances.items():
        if amount < 0 and acct != "bank":
            problems.append(f"{acct} has a negative balance {amount}")
    for corp in rs.corporations:
        held = sum(s.cert_percent[c] for c in s.certs if c.rsplit(".", 1)[0] == corp.sym)
        if held != 100:
            problems.append(f"{corp.sym} certificates sum to {held}%")
    for cert in s.certs:
        if cert not in s.cert_percent:
            problems.append(f"unknown certificate {cert}")
    return problems
