"""Checks that hold after every event: money conserved, every certificate held once, no player
below zero. Used after replays and in the tests."""

from __future__ import annotations

from ledger.core.ruleset import Ruleset
from ledger.core.state import BANK, MINT, GameState


def check(s: GameState, rs: Ruleset) -> list[str]:
    problems = []
    if sum(s.balances.values()) != 0:
        problems.append(f"postings do not balance: accounts sum to {sum(s.balances.values())}")
    total = sum(v for k, v in s.balances.items() if k != MINT)
    if s.balances and total != rs.bank_total:
        problems.append(f"money is not conserved: accounts hold {total}, not {rs.bank_total}")
    for acct, amount in s.balances.items():
        if amount < 0 and acct not in (BANK, MINT):
            problems.append(f"{acct} has a negative balance {amount}")
    for corp in rs.corporations:
        held = sum(s.cert_percent[c] for c in s.certs if c.rsplit(".", 1)[0] == corp.sym)
        if held != 100:
            problems.append(f"{corp.sym} certificates sum to {held}%")
    for cert in s.certs:
        if cert not in s.cert_percent:
            problems.append(f"unknown certificate {cert}")
    return problems
