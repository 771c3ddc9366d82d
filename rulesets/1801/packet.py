"""1801 / 18OE: the packet auction (§7, D8).

The items lie in rows; a player buys an item of the top row at its price, bids on one lower down
(money held back), or passes. When the top row empties the next row's bids resolve: one bid buys,
several are auctioned among their bidders from the left of the highest. Everyone passing pays the
privates and cuts the top row £5; at £0 the next player takes the row's free items. A minor's price
funds its treasury up to £180 (§7.1), and a bid above a top-row minor's price opens an auction for it
among all players."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event, upgrades
from ledger.core.plays import Bounds
from ledger.core.round_kind import RoundKind, known_round
from ledger.core.rules import privates, shares
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, company_acct, player_acct

from .common import rules

ROUND_KINDS = ("packet",)
# the packet auction (§7): the rows left, their prices, the bids, the item auctioned, whose turn
ROUND_FIELDS = {"packet": {"turn": "int", "passes": "int", "rows": "list[list[str]]", "prices": "dict[str, int]",
                           "bids": "dict", "auction": "dict | None"}}
KNOBS = {"title_rules": {
    "minor_treasury_cap": Knob(int, None, REQUIRED),
    "minor_face": Knob(int, None, REQUIRED),
    "packet_rows": Knob(list, None, REQUIRED),
    "concession_face": Knob(int, None, REQUIRED),
}}


# =========================================================================== the packet auction

def packet_items(rs) -> list[list[str]]:
    rows = [list(r) for r in rules(rs, "packet_rows")]
    if not rules(rs, "concessions"):
        concessions = set(rs.assets.get("concession", ()))
        rows = [[i for i in r if i not in concessions] for r in rows]
    return [r for r in rows if r]


def face_of(rs, item: str) -> int:
    if item in rs.assets.get("concession", ()):
        return rules(rs, "concession_face")
    if any(p.sym == item for p in rs.privates):
        return rs.private(item).face
    return rules(rs, "minor_face")


def item_kind(rs, item: str) -> str:
    if item in rs.assets.get("concession", ()):
        return "concession"
    if any(p.sym == item for p in rs.privates):
        return "private"
    return "minor"


def packet_item(s, rs, raw) -> str:
    """An item of the packet as typed (any case), or a refusal naming what is left."""
    text = str(raw).strip()
    left = [i for row in s.round.get("rows", []) for i in row]
    for item in left:
        if item.lower() == text.lower():
            return item
    everything = [i for row in packet_items(rs) for i in row]
    if any(i.lower() == text.lower() for i in everything):
        raise RuleViolation(f"{text.upper()} is already sold", f"left in the packet: {', '.join(left)}")
    raise RuleViolation(f"no item {text!r} in the 1801 packet", f"left: {', '.join(left)}")


def start_packet(ctx, priority: int = 0, **_carry) -> None:
    rs = ctx.rs
    rows = packet_items(rs)
    prices = {i: face_of(rs, i) for row in rows for i in row}
    ctx.emit("round_started", round={"kind": "packet", "turn": priority, "passes": 0, "rows": rows,
                                     "prices": prices, "bids": {}, "auction": None}, priority=priority)


def held_back(s, player: str, except_item: str | None = None) -> int:
    """The money a player's open bids hold back (§7: set aside until the item is sold)."""
    return sum(b.get(player, 0) for item, b in s.round.get("bids", {}).items() if item != except_item)


def free_cash(s, player: str, except_item: str | None = None) -> int:
    return s.cash(player_acct(player)) - held_back(s, player, except_item)


def packet_whose_turn(s) -> str:
    a = s.round.get("auction")
    return a["turn"] if a else s.players[s.round["turn"]]


def packet_not_turn(s, rs, player: str, actors: list, verb: str) -> tuple[str, None]:
    a = s.round.get("auction")
    what = f"the auction of {a['item']}" if a else "the auction"
    return f"it is {packet_whose_turn(s)}'s turn in {what}, not {player}'s", None


def packet_heading(s, rs) -> str:
    a = s.round.get("auction")
    if a:
        return f"Auction of {a['item']}: {a['turn']} (high {a['leader']} {rs.money(a['high'])})"
    return f"Packet: {packet_whose_turn(s)}"


def packet_buy_bars(s, rs, player) -> list[str]:
    a = s.round.get("auction")
    return [f"{a['item']} is being auctioned: bid or pass"] if a else []


def packet_buy_phrase(s, rs, players) -> str:
    top = ", ".join(f"{i} {rs.money(s.round['prices'][i])}" for i in s.round["rows"][0])
    return f"{{command}} (from the top row: {top})"


def packet_bid_items(s, rs, player, args) -> list[str]:
    a = s.round.get("auction")
    if a:
        return [a["item"]]
    top = s.round["rows"][0]
    return [i for row in s.round["rows"] for i in row if i not in top or item_kind(rs, i) == "minor"]


def packet_bid_bounds(s, rs, player, args):
    item = args.get("item")
    if not item or item not in s.round["prices"]:
        return Bounds(0)
    return Bounds(least_bid(s, rs, player, item), free_cash(s, player, except_item=item))


def least_bid(s, rs, player: str, item: str) -> int:
    """The least bid `player` may make on `item` now (§7, §7.1): in an auction the high bid raised;
    on a top-row minor its price raised; on a lower item its face, above every other player's bid
    and above his own."""
    raise_by = rs.k("auction", "min_raise")
    a = s.round.get("auction")
    if a:
        return a["high"] + raise_by
    if item in s.round["rows"][0]:
        return s.round["prices"][item] + raise_by
    bids = s.round["bids"].get(item, {})
    others = [v for p, v in bids.items() if p != player]
    least = max([face_of(rs, item)] + [v + raise_by for v in others])
    own = bids.get(player)
    return max(least, own + raise_by) if own is not None else least


def packet_bid_phrase(s, rs, players) -> str:
    a = s.round.get("auction")
    if a:
        return "{command} (or more)"
    return "{command} (or more, or on another lower item)"


def award(ctx, player: str, item: str, price: int, how: str) -> None:
    """The item changes hands for `price`: a private's or a concession's price to the bank, a
    minor's to its treasury up to the cap, the rest to the bank (§7.1, D17 E9)."""
    s, rs = ctx.state, ctx.rs
    kind = item_kind(rs, item)
    buyer = player_acct(player)
    transfers, certs, assets = [], [], []
    if kind == "minor":
        cap = rules(rs, "minor_treasury_cap")
        to_minor = min(price, cap)
        if to_minor:
            transfers.append([buyer, company_acct(item), to_minor])
        if price > to_minor:
            transfers.append([buyer, BANK, price - to_minor])
        certs.append([s.presidents[item], shares.unsold_acct(s, rs, item), buyer])
    else:
        if price:
            transfers.append([buyer, BANK, price])
        assets.append([item, None, buyer])
    rows = [[i for i in row if i != item] for row in s.round["rows"]]
    bids = {k: v for k, v in s.round["bids"].items() if k != item}
    prices = {k: v for k, v in s.round["prices"].items() if k != item}
    ctx.emit("packet_sold", player=player, item=item, price=price, how=how, transfers=transfers, certs=certs,
             assets=assets, rows=rows, bids=bids, prices=prices)


def cmd_packet_buy(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    item = packet_item(s, rs, cmd.get("item"))
    top = s.round["rows"][0]
    if item not in top:
        refuse(f"{item} is not in the top row ({', '.join(top)}): bid on it instead (§7)",
               f"bid {player} {item} {face_of(rs, item)}")
    price = s.round["prices"][item]
    if free_cash(s, player) < price:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}, {rs.money(held_back(s, player))} of it held "
               f"back by bids; {item} costs {rs.money(price)} (§7: a bid's money stays set aside until its item is "
               f"sold, D18 #15)")
    check_portfolio(s, rs, player, item)
    award(ctx, player, item, price, "bought")
    after_action(ctx)


def check_portfolio(s, rs, player: str, item: str) -> None:
    """A private or a minor counts toward the certificate limit (§4.1); a concession does not."""
    if item_kind(rs, item) == "concession":
        return
    count, limit = shares.cert_count(s, rs, player), shares.cert_limit(s, rs, player)
    if count >= limit:
        refuse(f"certificate limit {limit} reached: {player} holds {count} (§4.1)")


def cmd_packet_bid(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    amount = names.amount(cmd.get("amount"), "bid")
    a = s.round.get("auction")
    if a:
        auction_bid(ctx, player, packet_item(s, rs, cmd.get("item")), amount)
        return
    item = packet_item(s, rs, cmd.get("item"))
    top = s.round["rows"][0]
    if item in top:
        if item_kind(rs, item) != "minor":
            refuse(f"{item} is in the top row: buy it at {rs.money(s.round['prices'][item])}; only a minor in the "
                   f"top row may be bid above its price (§7.1)", f"buy {player} {item}")
        open_minor_auction(ctx, player, item, amount)
        return
    raise_by = rs.k("auction", "min_raise")
    others = [v for p, v in s.round["bids"].get(item, {}).items() if p != player]
    own = s.round["bids"].get(item, {}).get(player)
    if own is not None and amount < own + raise_by:
        refuse(f"{player} bids {rs.money(own)} on {item}: a new bid raises it by at least {rs.money(raise_by)} (§7: the "
               f"money stays set aside until the item is sold)")
    least = max([face_of(rs, item)] + [v + raise_by for v in others])
    if amount < least:
        top_bid = f"; the top bid is {rs.money(max(others))}" if others else ""
        refuse(f"a bid on {item} is at least its face {rs.money(face_of(rs, item))} and {rs.money(raise_by)} above "
               f"another player's bid{top_bid}: at least {rs.money(least)} (§7)")
    if free_cash(s, player, except_item=item) < amount:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}, {rs.money(held_back(s, player, item))} of it "
               f"held back by other bids: {rs.money(amount)} cannot be set aside (§7)")
    check_portfolio(s, rs, player, item)
    bids = {**s.round["bids"], item: {**s.round["bids"].get(item, {}), player: amount}}
    ctx.emit("packet_bid", player=player, item=item, amount=amount, bids=bids)
    after_action(ctx)


def open_minor_auction(ctx, player: str, item: str, amount: int) -> None:
    """§7.1: a bid above a top-row minor's price starts an auction for it among all players, from
    the player to the bidder's left (D18 #15)."""
    s, rs = ctx.state, ctx.rs
    least = s.round["prices"][item] + rs.k("auction", "min_raise")
    if amount < least:
        refuse(f"{item} costs {rs.money(s.round['prices'][item])} in the top row; a bid above it is at least "
               f"{rs.money(least)} (§7.1)", f"buy {player} {item}")
    if free_cash(s, player) < amount:
        refuse(f"{player} has {rs.money(free_cash(s, player))} free of bids: cannot bid {rs.money(amount)} (§7, §7.1: "
               f"a bid's money stays set aside until its item is sold)")
    check_portfolio(s, rs, player, item)
    seat = s.player_index(player)
    bidders = [s.players[(seat + i) % len(s.players)] for i in range(1, len(s.players))] + [player]
    auction = {"item": item, "bidders": bidders, "high": amount, "leader": player, "turn": bidders[0],
               "open": True, "actor": seat}
    ctx.emit("packet_auction", item=item, bidders=bidders, high=amount, leader=player, open=True,
             auction=auction)
    settle_auction(ctx)


def auction_bid(ctx, player: str, item: str, amount: int) -> None:
    s, rs = ctx.state, ctx.rs
    a = s.round["auction"]
    if item != a["item"]:
        refuse(f"{a['item']} is being auctioned, not {item}", f"bid {player} {a['item']} {a['high'] + 5}")
    least = a["high"] + rs.k("auction", "min_raise")
    if amount < least:
        refuse(f"the high bid on {item} is {rs.money(a['high'])} ({a['leader']}): a raise is at least "
               f"{rs.money(least)}")
    if free_cash(s, player, except_item=item) < amount:
        refuse(f"{player} has {rs.money(free_cash(s, player, item))} free of other bids: cannot bid {rs.money(amount)}")
    auction = {**a, "high": amount, "leader": player, "turn": next_bidder(a["bidders"], player)}
    bids = s.round["bids"]
    if item in bids:
        bids = {**bids, item: {**bids[item], player: amount}}
    ctx.emit("packet_bid", player=player, item=item, amount=amount, auction=auction, bids=bids)


def next_bidder(bidders: list[str], after: str) -> str:
    i = bidders.index(after)
    return bidders[(i + 1) % len(bidders)]


def cmd_packet_pass(ctx, cmd) -> None:
    s = ctx.state
    player = names.player(s, cmd.get("player"))
    a = s.round.get("auction")
    if a:
        left = [b for b in a["bidders"] if b != player]
        auction = {**a, "bidders": left, "turn": next_bidder(a["bidders"], player)}
        bids = s.round["bids"]
        if a["item"] in bids and player in bids[a["item"]]:
            bids = {**bids, a["item"]: {p: v for p, v in bids[a["item"]].items() if p != player}}
        ctx.emit("packet_pass", player=player, item=a["item"], auction=auction, bids=bids)
        settle_auction(ctx)
        return
    passes = s.round["passes"] + 1
    ctx.emit("packet_pass", player=player, passes=passes, turn=s.next_player(s.round["turn"]))
    if passes >= len(s.players):
        all_passed(ctx)


def all_passed(ctx) -> None:
    """§7: everyone passed: the owned privates pay, the top row drops £5 (never below £0)."""
    s, rs = ctx.state, ctx.rs
    privates.pay_revenue(ctx)
    cut = rs.k("auction", "all_pass_discount")
    top = s.round["rows"][0]
    prices = {**s.round["prices"], **{i: max(0, s.round["prices"][i] - cut) for i in top}}
    ctx.emit("packet_cut", items=list(top), cut=cut, prices=prices, passes=0)
    free_takes(ctx)


def free_takes(ctx) -> None:
    """§7, D18 #15: top-row items at £0 are all taken by the next player to act, for nothing."""
    s = ctx.state
    free = [i for i in s.round["rows"][0] if s.round["prices"][i] == 0]
    if not free:
        return
    player = s.players[s.round["turn"]]
    for item in free:
        award(ctx, player, item, 0, "taken free")
    after_action(ctx)


def after_action(ctx) -> None:
    """A normal action is over: the turn (and the priority deal) passes left; an emptied top row
    resolves the next one (§7)."""
    s = ctx.state
    if s.round.get("auction"):
        return
    ctx.emit("packet_turn", turn=s.next_player(s.round["turn"]), passes=0)
    resolve_rows(ctx)


def resolve_rows(ctx) -> None:
    """While the top row is empty: the next row becomes the top, its single bids buy, and its
    first item with several bids goes to auction among its bidders (left to right, §7)."""
    s = ctx.state
    while s.round["rows"] and not s.round["rows"][0]:
        ctx.emit("packet_row", rows=s.round["rows"][1:])
        if not s.round["rows"]:
            break
    if not s.round["rows"]:
        packet_done(ctx)
        return
    for item in list(s.round["rows"][0]):
        bids = s.round["bids"].get(item, {})
        if len(bids) == 1:
            (player, amount), = bids.items()
            award(ctx, player, item, amount, "sole bid")
    for item in list(s.round["rows"][0]):
        bids = s.round["bids"].get(item, {})
        if len(bids) > 1:
            start_bid_auction(ctx, item, bids)
            return
    if s.round["rows"] and not s.round["rows"][0]:
        resolve_rows(ctx)


def start_bid_auction(ctx, item: str, bids: dict) -> None:
    """§7: only the item's bidders take part, from the bidder to the left of the highest bid."""
    s = ctx.state
    high = max(bids.values())
    leader = next(p for p in s.players if bids.get(p) == high)
    seat = s.player_index(leader)
    order = [s.players[(seat + i) % len(s.players)] for i in range(1, len(s.players) + 1)]
    bidders = [p for p in order if p in bids]
    auction = {"item": item, "bidders": bidders, "high": high, "leader": leader, "turn": bidders[0], "open": False}
    ctx.emit("packet_auction", item=item, bidders=bidders, high=high, leader=leader, open=False,
             auction=auction)


def settle_auction(ctx) -> None:
    """The last bidder left buys at his high bid; an overbid auction was its opener's action."""
    s = ctx.state
    a = s.round["auction"]
    if len(a["bidders"]) > 1:
        return
    ctx.emit("packet_auction_over", item=a["item"])
    award(ctx, a["leader"], a["item"], a["high"], "auction")
    if a.get("open"):
        after_action(ctx)
    else:
        resolve_rows(ctx)


def packet_done(ctx) -> None:
    """The last item is sold: Train Phase 1 and the concession round begin (§7, §8)."""
    s = ctx.state
    ctx.emit("packet_over", priority=s.round["turn"])
    ctx.next_round(priority=s.round["turn"])


def packet_progress(ctx) -> bool:
    return False


PACKET = known_round(RoundKind(
    name="packet", start=start_packet, progress=packet_progress, actor=packet_whose_turn, heading=packet_heading,
    not_turn=packet_not_turn,
    label=lambda r: "Auction", title=lambda r: "The packet auction"))


# =========================================================================== status, info

def packet_lines(s, rs) -> list[str]:
    out = []
    for n, row in enumerate(s.round.get("rows", []), 1):
        cells = []
        for item in row:
            bids = s.round["bids"].get(item, {})
            bid = (" bids " + ", ".join(f"{p} {rs.money(v)}" for p, v in bids.items())) if bids else ""
            cells.append(f"{item} {rs.money(s.round['prices'][item])}{bid}")
        out.append(f"Packet row {n}{' (top)' if n == 1 else ''}: " + "; ".join(cells))
    a = s.round.get("auction")
    if a:
        out.append(f"Auction of {a['item']}: high {a['leader']} {rs.money(a['high'])}; still bidding "
                   f"{', '.join(a['bidders'])}")
    held = {p: held_back(s, p) for p in s.players if held_back(s, p)}
    if held:
        out.append("Held back by bids: " + ", ".join(f"{p} {rs.money(v)}" for p, v in held.items()))
    return out



def round_update(s, e) -> None:
    """The packet round takes the fields of its own the event gives anew (its rows, bids and turn)."""
    s.round = s.round.but(**{k: e[k] for k in ROUND_FIELDS["packet"] if e.get(k) is not None})
    if e.get("turn") is not None:   # §7: the priority deal passes after every action of the auction
        s.priority = e["turn"]


@upgrades
def upgrade_event(e: dict) -> None:
    """Packet events stored before engine version 6 carry the round's new fields in a bag,
    `update` (an auction over cleared its `auction`, which its kind now does itself)."""
    if e["kind"].startswith("packet_") and isinstance(e.get("update"), dict):
        e.update({k: v for k, v in e.pop("update").items() if v is not None})


@event
class PacketSold:
    """A packet item changes hands: bought from the top row, on a sole bid, in an auction, or taken
    free at £0 (§7)."""
    player: str
    item: str
    price: int
    how: str
    rows: list[list[str]]       # the packet's rows, the bids and the prices once it is sold
    bids: dict
    prices: dict[str, int]

    apply = round_update

    def describe(e, rs):
        who, item, price = e["player"], e["item"], rs.money(e["price"])
        said = {"bought": f"{who} buys {item} for {price}",
                "sole bid": f"{who} buys {item} for {price}, the only bid",
                "auction": f"{who} wins the auction for {item} at {price}",
                "taken free": f"{who} takes {item} free (its price fell to {price}, §7)"}
        return said.get(e["how"], f"{who} takes {item} for {price} ({e['how']})")


@event
class PacketBid:
    player: str
    item: str
    amount: int
    bids: dict = None           # the bids held back, with this one
    auction: dict = None        # the auction under way, this bid its high bid

    apply = round_update

    def describe(e, rs):
        return f"{e['player']} bids {rs.money(e['amount'])} on {e['item']}"


@event
class PacketAuction:
    """An item goes to auction among `bidders` in order, `leader` holding the high bid."""
    item: str
    bidders: list[str]
    high: int
    leader: str
    open: bool
    auction: dict

    apply = round_update

    def describe(e, rs):
        bidders = " and ".join(", ".join(e["bidders"]).rsplit(", ", 1))
        who = ", open to every player" if e["open"] else f" between {bidders}"
        return f"{e['item']} goes to auction{who}: {e['leader']}'s {rs.money(e['high'])} is the high bid"


@event
class PacketAuctionOver:
    item: str

    def apply(s, e):
        s.round = s.round.but(auction=None)


@event
class PacketPass:
    player: str
    item: str = None
    passes: int = None          # passes in a row, and the next to act (outside an auction)
    turn: int = None
    auction: dict = None        # the auction without the player, and the bids left (in one)
    bids: dict = None

    apply = round_update

    def describe(e, rs):
        return f"{e['player']} passes" + (f" on {e['item']}" if e.get("item") else "")


@event
class PacketCut:
    """Everyone passed: the top row's items drop (§7)."""
    items: list[str]
    cut: int
    prices: dict[str, int]
    passes: int

    apply = round_update

    def describe(e, rs):
        return f"all pass: {', '.join(e['items'])} drop {rs.money(e['cut'])}"


@event
class PacketTurn:
    turn: int
    passes: int
    priority: int = None

    def apply(s, e):
        round_update(s, e)
        if e.get("priority") is not None:
            s.priority = e["priority"]


@event
class PacketRow:
    rows: list[list[str]]

    apply = round_update


@event
class PacketOver:
    priority: int

    def apply(s, e):
        s.priority = e["priority"]

    def describe(e, rs):
        return "-- the opening packet is sold --"


def register(reg) -> None:
    reg.round(PACKET)
    reg.verb("buy", cmd_packet_buy, "packet", bars=packet_buy_bars,
             candidates={"item": lambda s, rs, who, args: list(s.round["rows"][0])}, phrase=packet_buy_phrase,
             reads=("item",))
    reg.verb("bid", cmd_packet_bid, "packet", elsewhere="bids are made in the packet auction (§7)",
             candidates={"item": packet_bid_items, "amount": packet_bid_bounds}, phrase=packet_bid_phrase)
    reg.verb("pass", cmd_packet_pass, "packet")
