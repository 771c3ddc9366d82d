"""The private auction (waterfall): buy the cheapest, bid on the others, resolve after purchases.

Rules: SEED "Distribution", digest §4. Amounts (minimum raise, discount) come from the ruleset.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.plays import Bounds
from ledger.core.round_kind import RoundKind, known_round
from ledger.core.rules import exports, privates
from ledger.core.state import BANK, player_acct


def register(reg) -> None:
    reg.round(AUCTION)
    reg.verb("buy", cmd_buy, "auction", bars=buy_bars, candidates={"item": lambda s, rs, who, args: cheapest(s, rs)},
             phrase=buy_phrase, reads=("item",))
    reg.verb("bid", cmd_bid, "auction", elsewhere="bids are only made in the private auction",
             candidates={"item": bid_items, "amount": bid_bounds}, phrase=bid_phrase, listing="item")
    reg.verb("pass", cmd_pass, "auction")
    reg.rule("auction_all_passed", discount_or_revenue)


def start(ctx, priority: int = 0, **_carry) -> None:
    ctx.emit("round_started", round={"kind": "auction", "turn": 0, "passes": 0, "bids": {}, "war": None,
                                     "last_buyer": None}, priority=priority)


def actor(s) -> str:
    """Who must act now: the lowest bidder in a bidding war, else the player whose turn it is."""
    war = s.round.get("war")
    if war:
        bids = s.round["bids"][war]
        return min(bids, key=bids.get)
    return s.players[s.round["turn"]]


def committed(s, player: str, except_private: str | None = None, rs=None) -> int:
    if rs is not None and not rs.k("auction", "earmark_bids"):
        return 0
    # where only a player's leading bids tie up his cash (R18 ONLY_HIGHEST_BID_COMMITTED), an
    # outbid one does not
    highest = rs is not None and rs.k("auction", "earmark_highest_only")
    return sum(b.get(player, 0) for sym, b in s.round["bids"].items() if sym != except_private
               and (not highest or b.get(player, 0) == max(b.values(), default=0)))


def not_turn(s, rs, player: str, actors: list, verb: str) -> tuple[str, None]:
    want = actor(s)
    war = s.round.get("war")
    why = f"the bidding war for {war}: {want} is the lowest bidder" if war else f"it is {want}'s turn"
    return f"not {player}'s turn in the auction ({why})", None


def buy_bars(s, rs, player) -> list[str]:
    war = s.round.get("war")
    return [f"a bidding war for {war} is on: {player} must bid or pass"] if war else []


def cheapest(s, rs) -> list[str]:
    return privates.unsold(s, rs)[:1]


def buy_phrase(s, rs, players) -> str:
    sym = cheapest(s, rs)[0]
    return f"{{command}} (for {rs.money(s.privates[sym].price)})"


def bid_items(s, rs, player, args) -> list[str]:
    """A bidding war's private, else every unsold private but the cheapest."""
    war = s.round.get("war")
    return [war] if war else privates.unsold(s, rs)[1:]


def bid_bounds(s, rs, player, args):
    """From the least bid on the private to the player's cash free of his other bids."""
    sym = args.get("item")
    if sym not in s.privates:
        return Bounds(0)
    least = min_bid(s, rs, sym)
    free = s.cash(player_acct(player)) - committed(s, player, except_private=sym, rs=rs)
    multiple = rs.k("auction", "bid_multiple")
    low = -(-least // multiple) * multiple
    return Bounds(low, free, multiple)


def bid_phrase(s, rs, players, items: list) -> str:
    """The least bid, as a command ("bid Alice CS 45"), the others in words: "(or more; DH from 75,
    MH 115)"."""
    war = s.round.get("war")
    others = [f"{sym} {rs.money(min_bid(s, rs, sym))}" for sym in items[1:]] if not war else []
    if others:
        others[0] = others[0].replace(" ", " from ", 1)
    return "{command} (or more" + (f"; {', '.join(others)}" if others else "") + ")"


def heading(s, rs) -> str:
    war = s.round.get("war")
    return f"Bidding war for {war}: {actor(s)}" if war else f"Auction: {actor(s)} to act"


def check_cash(s, rs, player: str, amount: int, sym: str) -> None:
    others = committed(s, player, except_private=sym, rs=rs)
    free = s.cash(player_acct(player)) - others
    if amount > free:
        extra = f" minus {rs.money(others)} in other open bids" if others else ""
        raise RuleViolation(f"{player} can commit {rs.money(free)} (cash {rs.money(s.cash(player_acct(player)))}{extra}), "
                            f"not {rs.money(amount)}")


def cmd_buy(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    if kind != "private":
        raise RuleViolation(f"{sym} is a company: companies are started in the stock round")
    cheapest = privates.unsold(s, rs)[0]
    if sym != cheapest:
        refuse(f"only the cheapest private ({cheapest} at {rs.money(s.privates[cheapest].price)}) can be bought "
               f"outright", f"bid at least {rs.money(min_bid(s, rs, sym))} on {sym}")
    price = s.privates[sym].price
    check_cash(s, rs, player, price, sym)
    award(ctx, player, sym, price, normal=True)


def award(ctx, player: str, sym: str, price: int, normal: bool) -> None:
    s, rs = ctx.state, ctx.rs
    moves, needs_par = privates.bonus_certs(s, rs, sym, player)
    ctx.emit("private_bought", player=player, private=sym, price=price, normal=normal,
             transfers=[[player_acct(player), BANK, price]] if price else [], certs=moves)
    if normal:
        ctx.emit("auction_turn", turn=s.next_player(s.player_index(player)), passes=0,
                 last_buyer=s.player_index(player))
    if needs_par:
        due = {"kind": "par", "player": player, "corp": needs_par}
        if rs.private(sym).ability("par_colours"):
            due["colours"] = list(rs.private(sym).ability("par_colours"))
        ctx.emit("pending", pending=[due])


def min_bid(s, rs, sym: str) -> int:
    bids = s.round["bids"].get(sym, {})
    base = max(bids.values()) if bids else rs.private(sym).face
    return base + rs.k("auction", "min_raise")


def cmd_bid(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    amount = names.amount(cmd.get("amount"), "bid")
    if kind != "private":
        raise RuleViolation(f"{sym} is a company, not a private")
    war = s.round.get("war")
    if war and sym != war:
        raise RuleViolation(f"the bidding war is for {war}: {player} must raise on {war} or pass")
    unsold = privates.unsold(s, rs)
    if sym not in unsold:
        raise RuleViolation(f"{sym} is already owned")
    if not war and sym == unsold[0]:
        raise RuleViolation(f"{sym} is the cheapest private: buy it for {rs.money(s.privates[sym].price)} instead of bidding",
                            f"buy {player} {sym}")
    least = min_bid(s, rs, sym)
    if amount < least:
        refuse(f"a bid on {sym} must be at least {rs.money(least)} ({rs.money(least - rs.k('auction', 'min_raise'))} + "
               f"{rs.money(rs.k('auction', 'min_raise'))}), got {rs.money(amount)}")
    multiple = rs.k("auction", "bid_multiple")
    if amount % multiple:
        refuse(f"bids are in multiples of {rs.money(multiple)}, got {rs.money(amount)}")
    check_cash(s, rs, player, amount, sym)
    ctx.emit("bid", player=player, private=sym, amount=amount, war=bool(war))
    if not war:
        ctx.emit("auction_turn", turn=s.next_player(s.player_index(player)), passes=0)


def cmd_pass(ctx, cmd) -> None:
    s = ctx.state
    player = names.player(s, cmd.get("player"))
    war = s.round.get("war")
    if war:
        ctx.emit("bid_dropped", player=player, private=war, amount=s.round["bids"][war][player])
        return
    ctx.emit("auction_pass", player=player)
    ctx.emit("auction_turn", turn=s.next_player(s.player_index(player)), passes=s.round["passes"] + 1)


def progress(ctx) -> bool:
    """Resolve bids on the cheapest private, handle all-pass, end the auction. True if anything moved."""
    s, rs = ctx.state, ctx.rs
    unsold = privates.unsold(s, rs)
    if not unsold:
        turn = s.round["turn"] if rs.k("stock", "first_round_turn") == "after_last_buyer" else 0
        ctx.next_round(priority=turn)
        return True
    cheapest = unsold[0]
    bids = s.round["bids"].get(cheapest, {})
    war = s.round.get("war")
    if len(bids) == 1:
        (winner, amount), = bids.items()
        if war:
            ctx.emit("bidding_war", private=None)
        award(ctx, winner, cheapest, amount, normal=False)
        return True
    if len(bids) > 1 and war != cheapest:
        ctx.emit("bidding_war", private=cheapest)
        return True
    if not war and s.round["passes"] >= len(s.players):
        all_passed(ctx, cheapest)
        return True
    return False


def all_passed(ctx, cheapest: str) -> None:
    s, rs = ctx.state, ctx.rs
    turn = s.round["turn"]
    if rs.k("auction", "next_after_all_pass") == "after_last_buyer" and s.round.get("last_buyer") is not None:
        turn = s.next_player(s.round["last_buyer"])
    ctx.emit("auction_turn", turn=turn, passes=0)
    ctx.reg.rules["auction_all_passed"](ctx, cheapest)


def discount_or_revenue(ctx, cheapest: str) -> None:
    """1830 (SEED "Distribution", R18): the one private the title names drops in price (at zero the
    next player must take it); once it is sold, an all-pass makes the owned privates pay."""
    if cheapest == ctx.rs.k("auction", "discount_only"):
        discount(ctx, cheapest)
    else:
        privates.pay_revenue(ctx)
        if ctx.rs.k("operating", "export_after_auction_revenue"):
            exports.export(ctx)   # the privates-only OR ends its set (R18 18Chesapeake)


def discount(ctx, cheapest: str) -> None:
    """The cheapest private drops by the title's discount; at zero the player to act must take it."""
    s, rs = ctx.state, ctx.rs
    price = max(s.privates[cheapest].price - rs.k("auction", "all_pass_discount"), 0)
    ctx.emit("private_discounted", private=cheapest, price=price)
    if price == 0 and rs.k("auction", "free_at_zero"):
        award(ctx, s.players[s.round["turn"]], cheapest, 0, normal=True)


AUCTION = known_round(RoundKind(
    name="auction", start=start, progress=progress, actor=actor, heading=heading, not_turn=not_turn,
    label=lambda r: "Auction", title=lambda r: "Private auction", breaks_bank=lambda s: 1))
