"""The round kinds every title shares: the private auction, stock rounds, operating rounds.

`register_shared(reg)` puts them, their verbs and the default rules into a title's registry
(ledger.core.registry); a title's own module may then add rounds or replace any of it.
"""

from __future__ import annotations


def register_shared(reg, rs) -> None:
    from ledger.core.rounds import auction, corrections, operating, stock
    from ledger.core.rules import decisions
    auction.register(reg)
    stock.register(reg)
    operating.register(reg, rs)
    corrections.register(reg)
    decisions.register(reg)
