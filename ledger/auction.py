"""The private auction (waterfall): buy the cheapest, bid on the others, resolve after purchases.

Rules: SEED "Distribution", digest §4. Amounts (minimum raise, discount) come from the ruleset.
"""

from __future__ import annotations

from . import names, privates
from .errors import RuleViolation, refuse
from .state import BANK, player_acct


def opening_round(rs) -> dict:
    return {"kind": "auction", "turn": 0, "passes": 0, "bids": {}, "war": None}


def actor(s) -> str:
    """Who must act now: the lowest bidder in a bidding war, else the player whose turn it is."""
    war = s.round.get("war")
    if war:
        bids = s.round["bids"][war]
        return min(bids, key=bids.get)
    return s.players[s.round["turn"]]


def committed(s, player: str, except_private: str | None = None) -> int:
    return sum(b.get(player, 0) for sym, b in s.round["bids"].items() if sym != except_private)


def check_actor(s, player: str) -> None:
    if s.pending:
        raise RuleViolation(f"{s.pending[0]['player']} must first choose the par price of {s.pending[0]['corp']}",
                            f"par {s.pending[0]['player']} {s.pending[0]['corp']} PRICE")
    want = actor(s)
    if player != want:
        war = s.round.get("war")
        why = f"the bidding war for {war}: {want} is the lowest bidder" if war else f"it is {want}'s turn"
        refuse(f"not {player}'s turn in the auction ({why})")


def check_cash(s, player: str, amount: int, sym: str) -> None:
    free = s.cash(player_acct(player)) - committed(s, player, except_private=sym)
    if amount > free:
        others = committed(s, player, except_private=sym)
        extra = f" minus ${others} in other open bids" if others else ""
        raise RuleViolation(f"{player} can commit ${free} (cash ${s.cash(player_acct(player))}{extra}), not ${amount}")


def cmd_buy(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    check_actor(s, player)
    if s.round.get("war"):
        raise RuleViolation(f"a bidding war for {s.round['war']} is on: {player} must bid or pass")
    if kind != "private":
        raise RuleViolation(f"{sym} is a company: companies are started in the stock round")
    cheapest = privates.unsold(s, rs)[0]
    if sym != cheapest:
        refuse(f"only the cheapest private ({cheapest} at ${s.privates[cheapest].price}) can be bought "
                            f"outright", f"bid at least ${min_bid(s, rs, sym)} on {sym}")
    price = s.privates[sym].price
    check_cash(s, player, price, sym)
    award(ctx, player, sym, price, normal=True)


def award(ctx, player: str, sym: str, price: int, normal: bool) -> None:
    s, rs = ctx.state, ctx.rs
    moves, needs_par = privates.bonus_certs(s, rs, sym, player)
    ctx.emit("private_bought", player=player, private=sym, price=price, normal=normal,
             transfers=[[player_acct(player), BANK, price]] if price else [], certs=moves)
    if normal:
        ctx.emit("round_update", set={"turn": s.next_player(s.player_index(player)), "passes": 0})
    if needs_par:
        ctx.emit("pending", pending=[{"kind": "par", "player": player, "corp": needs_par}])


def min_bid(s, rs, sym: str) -> int:
    bids = s.round["bids"].get(sym, {})
    base = max(bids.values()) if bids else rs.private(sym).face
    return base + rs.k("auction", "min_raise")


def cmd_bid(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    if s.round["kind"] != "auction":
        raise RuleViolation("bids are only made in the private auction", "in a stock round use buy or par")
    player = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    amount = names.amount(cmd.get("amount"), "bid")
    check_actor(s, player)
    if kind != "private":
        raise RuleViolation(f"{sym} is a company, not a private")
    war = s.round.get("war")
    if war and sym != war:
        raise RuleViolation(f"the bidding war is for {war}: {player} must raise on {war} or pass")
    unsold = privates.unsold(s, rs)
    if sym not in unsold:
        raise RuleViolation(f"{sym} is already owned")
    if not war and sym == unsold[0]:
        raise RuleViolation(f"{sym} is the cheapest private: buy it for ${s.privates[sym].price} instead of bidding",
                            f"buy {player} {sym}")
    least = min_bid(s, rs, sym)
    if amount < least:
        refuse(f"a bid on {sym} must be at least ${least} (${least - rs.k('auction', 'min_raise')} + "
                            f"${rs.k('auction', 'min_raise')}), got ${amount}")
    multiple = rs.k("auction", "bid_multiple")
    if amount % multiple:
        refuse(f"bids are in multiples of ${multiple}, got ${amount}")
    check_cash(s, player, amount, sym)
    ctx.emit("bid", player=player, private=sym, amount=amount, war=bool(war))
    if not war:
        ctx.emit("round_update", set={"turn": s.next_player(s.player_index(player)), "passes": 0})


def cmd_pass(ctx, cmd) -> None:
    s = ctx.state
    player = names.player(s, cmd.get("player"))
    check_actor(s, player)
    war = s.round.get("war")
    if war:
        ctx.emit("bid_dropped", player=player, private=war, amount=s.round["bids"][war][player])
        return
    ctx.emit("auction_pass", player=player)
    ctx.emit("round_update", set={"turn": s.next_player(s.player_index(player)), "passes": s.round["passes"] + 1})


def progress(ctx) -> bool:
    """Resolve bids on the cheapest private, handle all-pass, end the auction. True if anything moved."""
    s, rs = ctx.state, ctx.rs
    unsold = privates.unsold(s, rs)
    if not unsold:
        turn = s.round["turn"]
        ctx.emit("round_started", round={"kind": "stock", "number": 1, "turn": turn, "passes": 0, "acted": False,
                                         "buys": [], "sold": {}, "last_actor": None}, priority=turn)
        return True
    cheapest = unsold[0]
    bids = s.round["bids"].get(cheapest, {})
    war = s.round.get("war")
    if len(bids) == 1:
        (winner, amount), = bids.items()
        if war:
            ctx.emit("round_update", set={"war": None})
        award(ctx, winner, cheapest, amount, normal=False)
        return True
    if len(bids) > 1 and war != cheapest:
        ctx.emit("round_update", set={"war": cheapest})
        return True
    if not war and s.round["passes"] >= len(s.players):
        all_passed(ctx, cheapest)
        return True
    return False


def all_passed(ctx, cheapest: str) -> None:
    s, rs = ctx.state, ctx.rs
    ctx.emit("round_update", set={"passes": 0})
    if cheapest == rs.k("auction", "discount_only"):
        price = max(s.privates[cheapest].price - rs.k("auction", "all_pass_discount"), 0)
        ctx.emit("private_discounted", private=cheapest, price=price)
        if price == 0 and rs.k("auction", "free_at_zero"):
            award(ctx, s.players[s.round["turn"]], cheapest, 0, normal=True)
    else:
        privates.pay_revenue(ctx)
