"""The shared events of private companies: sales, closings and discards."""

from __future__ import annotations

from ledger.core.state import company_acct
from ledger.core.events.declare import event


@event
class PrivateSold:
    corp: str
    private: str
    seller: str
    price: int

    def apply(s, e):
        s.privates[e["private"]].owner = company_acct(e["corp"])

    def held(e):   # the money went to the seller's account: the private came from it
        return [[e["private"], e["transfers"][0][1], company_acct(e["corp"])]] if e.get("transfers") else []


@event
class PrivatesClosed:
    privates: list[str]
    reason: str

    def apply(s, e):
        for sym in e["privates"]:
            s.privates[sym].closed = True


@event
class PrivateDiscarded:
    """In a forced train purchase the director hands a private to the bank (1843 §8.8.3)."""
    player: str
    private: str
    price: int
