"""The shared events of the private auction."""

from __future__ import annotations

from ledger.core.state import player_acct
from ledger.core.events.declare import event


@event
class AuctionTurn:
    """Whose turn it is in the auction and how many have passed in a row (after a purchase, also
    who bought last)."""
    turn: int
    passes: int
    last_buyer: int = None

    def apply(s, e):
        bought = {"last_buyer": e["last_buyer"]} if e.get("last_buyer") is not None else {}
        s.round = s.round.but(turn=e["turn"], passes=e["passes"], **bought)


@event
class BiddingWar:
    """A bidding war opens for the cheapest private (or ends: `private` is None)."""
    private: str = None

    def apply(s, e):
        s.round = s.round.but(war=e.get("private"))


@event
class Bid:
    player: str
    private: str
    amount: int
    war: bool = False

    def apply(s, e):
        bids = dict(s.round["bids"])
        bids[e["private"]] = {**bids.get(e["private"], {}), e["player"]: e["amount"]}
        s.round = s.round.but(bids=bids)


@event
class BidDropped:
    player: str
    private: str
    amount: int

    def apply(s, e):
        bids = dict(s.round["bids"])
        bids[e["private"]] = {p: a for p, a in bids[e["private"]].items() if p != e["player"]}
        s.round = s.round.but(bids=bids)


@event
class AuctionPass:
    player: str


@event
class PrivateBought:
    player: str
    private: str
    price: int
    normal: bool = True
    dealt: bool = False   # dealt to the player at the start, at its face value (privates_rules.deal)

    def apply(s, e):
        s.privates[e["private"]].owner = player_acct(e["player"])
        if s.round.get("kind") == "auction":
            s.round = s.round.but(bids={k: v for k, v in s.round["bids"].items() if k != e["private"]})


@event
class PrivateDiscounted:
    private: str
    price: int

    def apply(s, e):
        s.privates[e["private"]].price = e["price"]


@event
class PrivateRevenue:
    """Owned privates pay their owners: [symbol, owner account, amount]."""
    privates: list[tuple[str, str, int]]
