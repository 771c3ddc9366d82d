"""Checks that hold after every event: money conserved, every certificate held once, no player
below zero. Used after replays and in the tests."""

from __future__ import annotations

from ledger.core.ruleset import Ruleset
from ledger.core.state import BANK, MINT, POOL, GameState


def check(s: GameState, rs: Ruleset) -> list[str]:
    problems = []
    if sum(s.balances.values()) != 0:
        problems.append(f"postings do not balance: accounts sum to {sum(s.balances.values())}")
    total = sum(v for k, v in s.balances.items() if k != MINT)
    if s.balances and total != rs.bank_total + rs.remainder:
        problems.append(f"money is not conserved: accounts hold {total}, not {rs.bank_total + rs.remainder}")
    for acct, amount in s.balances.items():
        if amount < 0 and acct not in (BANK, MINT):
            problems.append(f"{acct} has a negative balance {amount}")
    return problems + holdings(s, rs)


def holdings(s: GameState, rs: Ruleset) -> list[str]:
    """Every company's certificates sum to 100 %, and every certificate and every asset is held by
    one holder that exists (a player in the game, a company, the pool, an IPO or treasury, or the
    bank / the map for an asset)."""
    problems = []
    totals = {c.sym: 0 for c in rs.corporations}
    for cert in s.certs:
        if cert not in s.cert_percent:
            problems.append(f"unknown certificate {cert}")
        else:
            totals[cert.rsplit(".", 1)[0]] = totals.get(cert.rsplit(".", 1)[0], 0) + s.cert_percent[cert]
    problems += [f"{corp} certificates sum to {held}%" for corp, held in totals.items() if held != 100]
    valid = holders(s)
    problems += [f"certificate {c} is held by {h}, who is not in the game" for c, h in s.certs.items()
                 if h not in valid and not h.startswith(("ipo:", "treasury:"))]
    problems += [f"{a.kind} {sym} is held by {a.owner}, who is not in the game" for sym, a in s.assets.items()
                 if a.owner is not None and a.owner not in valid]
    return problems


def holders(s: GameState) -> set[str]:
    return {POOL, "removed"} | {f"player:{p}" for p in s.players} | {f"company:{c}" for c in s.corps}
