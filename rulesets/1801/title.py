"""1801 / 18OE: what only 1801 has, registered into the shared engine (part 1: the packet auction,
the concession round, minors and regionals to the Major railroad phase).

Numbers live in ruleset.toml beside this file (rules: shared/seeds/002_c09d1f5beee78cce.txt "§x";
digest shared/rules/1801.md "D x", its corrections "D0.1 #n", its readings "D18 #n"):

* **The packet auction** (§7, D8): the items lie in rows; a player buys an item of the top row at
  its price, bids on one lower down (money held back), or passes. When the top row empties the next
  row's bids resolve: one bid buys, several are auctioned among their bidders from the left of the
  highest. Everyone passing pays the privates and cuts the top row £5; at £0 the next player takes
  the row's free items. A minor's price funds its treasury up to £180 (§7.1), and a bid above a
  top-row minor's price opens an auction for it among all players.
* **The concession round** (§8.1): the concessions' holders float a minor or a regional, or (only
  when they can do neither) par a regional into the Open Market, in the concessions' order.
* **Floats** (§9.1, §9.2): a minor takes a track-rights chit of a zone and pays its home token (only
  four of the six asterisked chits are ever taken), with the patronage tile's lowest amount; a
  regional's president pays 2 x par into its treasury, which pays the zone's home token. The Major
  railroad phase begins the moment 12 minors and 18 regionals have floated (§8.2).
* **Regional/Minor stock rounds** (§8.2, §8.4): floats, a parred presidency bought from the Open
  Market, removing regionals, reserving secondaries; no sale in Train Phase 1; trades (§10.4).
* **Operating minors and regionals** (§11): Train Phase 2 with the first OR, Minor K's mail, Minor
  C's place in the order, fees through the ruleset's modifiers checked against the company's rights,
  the reserved 2+2 in the first OR with the president's help, refunds and first-round insolvency
  (§11.6.5), level 3 only in the Major phase and never in the first OR.
"""

from __future__ import annotations


from dataclasses import dataclass, field

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.plays import Bounds
from ledger.core.round_kind import RoundKind, known_round
from ledger.core.rounds import operating, stock
from ledger.core.rules import decisions, privates, revenue, shares, track, train_step, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, DEPOT, POOL, REMAINDER, RUSTED, acct_name, company_acct, player_acct

KNOBS = {"title_rules": {
    "concessions": Knob(bool, None, REQUIRED),
    "early_trades": Knob(bool, None, False),
    "minor_treasury_cap": Knob(int, None, REQUIRED),
    "minor_face": Knob(int, None, REQUIRED),
    "reserved_train": Knob(str, None, REQUIRED),
    "regional_pars": Knob(list, None, REQUIRED),
    "regionals_in_play": Knob(int, None, REQUIRED),
    "minors_in_play": Knob(int, None, REQUIRED),
    "removals": Knob(int, None, REQUIRED),
    "limited_chits": Knob(int, None, REQUIRED),
    "mail": Knob(dict, None, REQUIRED),
    "extra_tile_points": Knob(dict, None, REQUIRED),
    "packet_rows": Knob(list, None, REQUIRED),
    "concession_face": Knob(int, None, REQUIRED),
    "provisional": Knob(list, None, REQUIRED),
    "conversion_phases": Knob(list, None, REQUIRED),
    "national_leftover": Knob(dict, None, REQUIRED),
    "oe_extra": Knob(dict, None, REQUIRED),
    "oe_moves": Knob(int, None, REQUIRED),
    "pullman_phase": Knob(str, None, REQUIRED),
    "pullman_price": Knob(int, None, REQUIRED),
    "pullman_royalty": Knob(int, None, REQUIRED),
    "pullman_transfer": Knob(int, None, REQUIRED),
    "pullman_per_level": Knob(int, None, REQUIRED),
    "pullman_side_bonus": Knob(dict, None, REQUIRED),
    "final_phase": Knob(str, None, REQUIRED),
    "final_ors": Knob(int, None, REQUIRED),
    "oe_cash": Knob(str, ("train_total", "train_base"), "train_total"),   # D18 #24
    "oe_moves_first": Knob(bool, None, False),                            # D18 #22
    "repeat_or_income": Knob(bool, None, False),                          # D18 #43
    "j_discount_on_deals": Knob(bool, None, False),                       # D18 #28
    "no_claim_after_forced": Knob(bool, None, False),                     # D18 #32
}}
ROUND_KINDS = ("packet", "concessions")
AXIS = "railroad"
MAIL_CORP = "K"            # §15.10
ORDER_CORP = "C"           # §15.3
DISCOUNT_CORPS = ("E", "F")  # §15.5, §15.6
DISCOUNT_TRAINS = "J"        # §15.9
EARLY_LEVELS = {"8": ("7", 4)}   # §5.2, §11.6: level 8 is on sale once four level 7 trains are bought
ZONE_CODES = ("UK", "PHS", "FB", "AH", "IT", "SP", "SND", "RU")   # the zones as typed (ruleset.toml [zones])


def read_zones(table, problems: list[str]) -> dict:
    """[zones.CODE]: name, home_cost, chits, discount (the 20 % terrain zone), limited (one of the
    asterisked zones), regionals (Table 1)."""
    out = {}
    if not isinstance(table, dict):
        problems.append("zones: expected a table of zones")
        return out
    for code, z in table.items():
        if not isinstance(z, dict):
            problems.append(f"zones.{code}: expected a table")
            continue
        out[code] = {"name": str(z.get("name", code)), "home_cost": int(z.get("home_cost", 0)),
                     "chits": int(z.get("chits", 2)), "discount": bool(z.get("discount", False)),
                     "limited": bool(z.get("limited", False)), "regionals": list(z.get("regionals", []))}
    return out


DATA_SECTIONS = {"zones": read_zones}


def check(rs, problems: list[str]) -> None:
    """The title's data agree with each other: every regional in one zone, every packet item known."""
    zones = rs.own.get("zones", {})
    placed = [r for z in zones.values() for r in z["regionals"]]
    for c in rs.corporations:
        if c.kind == "regional" and placed.count(c.sym) != 1:
            problems.append(f"zones: regional {c.sym} must be in exactly one zone")
    items = [i for row in rs.k("title_rules", "packet_rows") for i in row]
    known = {p.sym for p in rs.privates} | {c.sym for c in rs.corporations if c.kind == "minor"} | \
        set(rs.assets.get("concession", ()))
    for item in items:
        if item not in known:
            problems.append(f"title_rules.packet_rows: {item!r} is no private, minor or concession")


# =========================================================================== small readers

def rules(rs, name: str):
    return rs.k("title_rules", name)


def zones(rs) -> dict:
    return rs.own["zones"]


def zone_of(rs, corp: str) -> str | None:
    """The track-rights zone of a regional (Table 1)."""
    return next((code for code, z in zones(rs).items() if corp in z["regionals"]), None)


def kind_of(s, corp: str) -> str:
    return s.corps[corp].kind


def is_minor(s, corp: str) -> bool:
    return kind_of(s, corp) == "minor"


def removed(s) -> list[str]:
    return s.own.removed


def holder_of(s, corp: str) -> str | None:
    """Who holds a company's charter or president's certificate: an account."""
    return s.certs.get(s.presidents.get(corp, ""))


def chit_of(s, corp: str) -> str | None:
    return next((sym for sym, a in s.assets.items() if a.kind == "chit" and a.owner == company_acct(corp)), None)


def chit_zone(sym: str) -> str:
    return sym.rstrip("0123456789")


def ability_user(s, minor: str) -> str | None:
    """The railroad that uses a minor's ability now (§6.2, §15): the minor while a player owns it,
    the major it merged into after (never a national), else none."""
    c = s.corps.get(minor)
    if c is None:
        return None
    holder = holder_of(s, minor) or ""
    if c.floated and holder.startswith("player:"):
        return minor
    major = s.own.absorbed.get(minor)
    return major if major and s.corps[major].kind == "major" else None


def uses(s, corp: str, minors) -> bool:
    return any(ability_user(s, m) == corp for m in ([minors] if isinstance(minors, str) else minors))


def rights(s, rs, corp: str) -> set[str]:
    """The zones where a company has track rights: a minor's chit, a regional's home zone, a
    major's home zone and its merged minors' chits (§11.1.4)."""
    out = {chit_zone(sym) for sym, a in s.assets.items() if a.kind == "chit" and a.owner == company_acct(corp)}
    home = zone_of(rs, corp)
    if home:
        out.add(home)
    return out


def railroad_phase(s) -> str:
    return s.axes.get(AXIS, "auction")


def major_phase(s) -> bool:
    return railroad_phase(s) == "major"


@dataclass
class State:
    """What 1801's own rules keep (GameState.own)."""
    removed: list = field(default_factory=list)             # regionals out of the game (§8.2)
    removed_by_players: list = field(default_factory=list)  # ... of them, those the players removed
    owes_train: list = field(default_factory=list)          # companies owing their reserved 2+2 (§11.6.1)
    insolvent: dict = field(default_factory=dict)           # company -> the unpaid part of its 2+2 (§11.6.5)
    reserved: dict = field(default_factory=dict)            # regional -> who its secondaries are kept for (§8.4)
    repeat_income: bool = False                             # the repeat OR pays private income (D18 #43)
    absorbed: dict = field(default_factory=dict)            # minor -> the major that absorbed it (§10.5, §9.5)
    a_bonus_paid: bool = False                              # Minor A's merger bonus is paid (§15.1)
    consolidation_due: bool = False                         # the next SR is the Consolidation round (§5.1.5)
    custody: dict = field(default_factory=dict)             # company -> whom BBBT keeps a share for (§14.4)
    private_tokens: list = field(default_factory=list)      # [private, company, city] of the free tokens (§14.5-7)
    engineers: dict = field(default_factory=lambda: {"laid": 0, "or": None, "this_or": 0})   # BB's tiles (§14.9)
    ferry_window: list | None = None                        # WCF's Lille token may go down now (§14.7)
    minor_chits: dict = field(default_factory=dict)         # minor -> its zone chit (§9.5)
    m_pullman: str | None = None                            # Minor M's own Pullman (§15.12)
    oe_markers: list = field(default_factory=list)          # majors that made their first OE run (§12)
    final: dict | None = None                               # the final sequence: the repeat OR and its runs (§13)

    @classmethod
    def start(cls, rs) -> "State":
        return cls(repeat_income=bool(rules(rs, "repeat_or_income")))


STATE = State


def starting_corps(rs, corps: dict) -> None:
    """§15.7: Minor G's extra tile point (it goes with it into the major that absorbs it)."""
    for sym, points in rules(rs, "extra_tile_points").items():
        corps[sym].extra_tile_points = points


def protected(s) -> list[str]:
    """The companies BBBT's protection holds against sale drops this stock round (§14.4)."""
    return [sym for sym, c in s.corps.items() if c.price_held]


def tile_points_moved(s, bonus: dict) -> None:
    """An absorption carries a minor's extra tile points to its major: `bonus` is every company's now."""
    for sym, corp in s.corps.items():
        corp.extra_tile_points = bonus.get(sym, 0)


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
    return f"buy from the top row ({top})"


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
        return f"bid at least {rs.money(a['high'] + rs.k('auction', 'min_raise'))} (bid {players[0]} {a['item']} AMOUNT)"
    return "bid on a lower item"




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
             assets=assets, update={"rows": rows, "bids": bids, "prices": prices})


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
               f"back by bids; {item} costs {rs.money(price)}")
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
    ctx.emit("packet_bid", player=player, item=item, amount=amount, update={"bids": bids})
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
        refuse(f"{player} has {rs.money(free_cash(s, player))} free of bids: cannot bid {rs.money(amount)}")
    check_portfolio(s, rs, player, item)
    seat = s.player_index(player)
    bidders = [s.players[(seat + i) % len(s.players)] for i in range(1, len(s.players))] + [player]
    auction = {"item": item, "bidders": bidders, "high": amount, "leader": player, "turn": bidders[0],
               "open": True, "actor": seat}
    ctx.emit("packet_auction", item=item, bidders=bidders, high=amount, leader=player, open=True,
             update={"auction": auction})
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
    ctx.emit("packet_bid", player=player, item=item, amount=amount, update={"auction": auction, "bids": bids})


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
        ctx.emit("packet_pass", player=player, item=a["item"], update={"auction": auction, "bids": bids})
        settle_auction(ctx)
        return
    passes = s.round["passes"] + 1
    ctx.emit("packet_pass", player=player, update={"passes": passes, "turn": s.next_player(s.round["turn"])})
    if passes >= len(s.players):
        all_passed(ctx)


def all_passed(ctx) -> None:
    """§7: everyone passed: the owned privates pay, the top row drops £5 (never below £0)."""
    s, rs = ctx.state, ctx.rs
    privates.pay_revenue(ctx)
    cut = rs.k("auction", "all_pass_discount")
    top = s.round["rows"][0]
    prices = {**s.round["prices"], **{i: max(0, s.round["prices"][i] - cut) for i in top}}
    ctx.emit("packet_cut", items=list(top), cut=cut, update={"prices": prices, "passes": 0})
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
    ctx.emit("packet_turn", update={"turn": s.next_player(s.round["turn"]), "passes": 0})
    resolve_rows(ctx)


def resolve_rows(ctx) -> None:
    """While the top row is empty: the next row becomes the top, its single bids buy, and its
    first item with several bids goes to auction among its bidders (left to right, §7)."""
    s = ctx.state
    while s.round["rows"] and not s.round["rows"][0]:
        ctx.emit("packet_row", update={"rows": s.round["rows"][1:]})
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
             update={"auction": auction})


def settle_auction(ctx) -> None:
    """The last bidder left buys at his high bid; an overbid auction was its opener's action."""
    s = ctx.state
    a = s.round["auction"]
    if len(a["bidders"]) > 1:
        return
    ctx.emit("packet_auction_over", item=a["item"], update={"auction": None})
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


# =========================================================================== the concession round

def concession_holder(s) -> tuple[str, str] | None:
    """(concession, its holder) of the lowest-numbered concession still to execute."""
    held = [(int(sym[1:]), sym, acct_name(a.owner)) for sym, a in s.assets.items()
            if a.kind == "concession" and a.owner and a.owner.startswith("player:") and not a.closed]
    return (min(held)[1], min(held)[2]) if held else None


def start_concessions(ctx, priority: int | None = None, **_carry) -> None:
    s = ctx.state
    prio = s.priority if priority is None else priority
    if rules(ctx.rs, "concessions"):
        ctx.emit("axis_phase_changed", axis=AXIS, phase="concession")
    ctx.emit("round_started", round={"kind": "concessions"}, priority=prio)
    concessions_progress(ctx)


def concessions_progress(ctx) -> bool:
    s = ctx.state
    if s.round.get("kind") != "concessions" or concession_holder(s):
        return False
    ctx.emit("axis_phase_changed", axis=AXIS, phase="regional")
    ctx.next_round(priority=s.priority)
    return True


def concession_turn(ctx, player: str) -> str:
    """The concession the player executes now, or a refusal (§8.1: in number order)."""
    s = ctx.state
    due = concession_holder(s)
    if due is None or due[1] != player:
        refuse(*concession_not_turn(s, ctx.rs, player, [], ""))
    return due[0]


def concession_not_turn(s, rs, player: str, actors: list, verb: str) -> tuple[str, None]:
    due = concession_holder(s)
    if due is None:
        return "no concession is left to execute", None
    return f"concession {due[0]} is executed next, by {due[1]}, not by {player} (§8.1)", None


def executed(ctx, concession: str) -> None:
    ctx.emit("concession_executed", concession=concession, assets=[[concession, ctx.state.assets[concession].owner,
                                                                     None]])


def concessions_heading(s, rs) -> str:
    due = concession_holder(s)
    return f"Concession {due[0]}: {due[1]}" if due else "The concession round"


CONCESSIONS = known_round(RoundKind(
    name="concessions", start=start_concessions, progress=concessions_progress,
    actor=lambda s: (concession_holder(s) or (None, None))[1], heading=concessions_heading,
    not_turn=concession_not_turn,
    label=lambda r: "Concessions", title=lambda r: "The concession round"))


# =========================================================================== floats (§9.1, §9.2)

def chits_left(s, rs, zone: str) -> list[str]:
    """The zone's chits still to take (§9.1 Table 1: of the asterisked zones' six, four are taken)."""
    return sorted(sym for sym, a in s.assets.items()
                  if a.kind == "chit" and chit_zone(sym) == zone and a.owner is None and not a.closed)


def zone_code(rs, raw) -> str:
    text = str(raw or "").strip().upper()
    for code, z in zones(rs).items():
        if text == code or text == z["name"].upper():
            return code
    raise RuleViolation(f"no track-rights zone {raw!r} in 1801",
                        "zones: " + ", ".join(f"{c} ({z['name']})" for c, z in zones(rs).items()))


def cmd_float(ctx, cmd) -> None:
    """Float a minor the player owns with a chit of a zone (§9.1); in the concession round or an SR."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    concession = begin_action(ctx, player)
    if not is_minor(s, corp):
        refuse(f"{corp} is a {kind_of(s, corp)}: a regional floats with par {player} {corp} PRICE (§9.2)",
               f"par {player} {corp} {rules(rs, 'regional_pars')[0]}")
    if holder_of(s, corp) != player_acct(player):
        refuse(f"{player} does not own Minor {corp}: a player floats only the minors he owns (§9.1)")
    if s.corps[corp].floated:
        refuse(f"Minor {corp} has already floated")
    zone = zone_code(rs, cmd.get("zone"))
    left = chits_left(s, rs, zone)
    if not left:
        refuse(f"no {zones(rs)[zone]['name']} track-rights chit is left (§9.1)",
               "zones with chits: " + ", ".join(c for c in zones(rs) if chits_left(s, rs, c)))
    cost = zones(rs)[zone]["home_cost"]
    help_ = home_help(s, rs, player, corp, zone)
    patronage = names.amount(cmd.get("patronage"), "the patronage tile's amount") if cmd.get("patronage") else 0
    chit = left[0]
    closing = limited_chits_closing(s, rs, zone)
    transfers = [[player_acct(player), company_acct(corp), help_]] if help_ else []
    transfers += [[company_acct(corp), BANK, cost]] if cost else []
    if patronage:
        transfers.append([BANK, company_acct(corp), patronage])
    ctx.emit("minor_floated", player=player, corp=corp, zone=zone, chit=chit, cost=cost, city=cmd.get("city"),
             patronage=patronage, closed_chits=closing, **({"owner_paid": help_} if help_ else {}), transfers=transfers, assets=[[chit, None, company_acct(corp)]])
    owes_train(ctx, corp)
    finish_action(ctx, player, corp, concession)


def cheapest_home(s, rs) -> int | None:
    """The cheapest home token among the chits left (None: no chit is left)."""
    costs = [z["home_cost"] for code, z in zones(rs).items() if chits_left(s, rs, code)]
    return min(costs) if costs else None


def home_help(s, rs, player: str, corp: str, zone: str) -> int:
    """What the owner pays toward a minor's home token. §9.1 has the minor pay it; D18 #45 (a minor
    bought for £0 after the price cuts) needs a ruling: a treasury short of the chosen chit picks
    a chit it can pay; when it can pay none, the owner pays the difference, as a president does for
    the reserved 2+2 (§11.6.1), so the minor is not stranded unfloated."""
    cost, cash = zones(rs)[zone]["home_cost"], s.cash(company_acct(corp))
    if cash >= cost:
        return 0
    cheapest = cheapest_home(s, rs)
    if cheapest is not None and cash >= cheapest:
        refuse(f"Minor {corp} has {rs.money(cash)}; a home token in {zones(rs)[zone]['name']} costs {rs.money(cost)}: "
               f"choose a zone whose home token it can pay ({rs.money(cheapest)}) (§9.1, D18 #45)")
    if cost != cheapest:
        refuse(f"Minor {corp} has {rs.money(cash)}: its owner helps only with the cheapest home token left, "
               f"{rs.money(cheapest)} (D18 #45)")
    own = s.cash(player_acct(player))
    if cash + own < cost:
        refuse(f"Minor {corp} has {rs.money(cash)} and {player} {rs.money(own)}: the home token costs {rs.money(cost)}")
    return cost - cash


def limited_chits_closing(s, rs, zone: str) -> list[str]:
    """§9.1: when the fourth of the asterisked zones' chits is taken, the others leave the game."""
    if not zones(rs)[zone]["limited"]:
        return []
    limited = [sym for sym, a in s.assets.items() if a.kind == "chit" and zones(rs)[chit_zone(sym)]["limited"]]
    taken = [sym for sym in limited if s.assets[sym].owner]
    if len(taken) + 1 < rules(rs, "limited_chits"):
        return []
    chosen = chits_left(s, rs, zone)[0]
    return [sym for sym in limited if not s.assets[sym].owner and not s.assets[sym].closed and sym != chosen]


def cmd_par(ctx, cmd) -> None:
    """Float a regional at a par (§9.2), or in the concession round par one into the Open Market
    (§8.1: only when the player can neither float a regional nor a minor)."""
    s, rs = ctx.state, ctx.rs
    if s.pending:
        stock.cmd_par(ctx, cmd)
        return
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    concession = begin_action(ctx, player)
    price = names.amount(cmd.get("price"), "par value")
    check_regional_open(s, rs, corp)
    pars = rules(rs, "regional_pars")
    if price not in pars:
        refuse(f"{rs.money(price)} is not a regional par value: {', '.join(rs.money(p) for p in pars)} (§2.2.5)")
    cost = 2 * price
    cash = s.cash(player_acct(player))
    if cmd.get("open_market"):
        if concession is None:
            refuse("a regional is parred into the Open Market only with a concession (§8.1)", f"par {player} {corp} {price}")
        if floatable_minors(s, rs, player) or cash >= 2 * min(pars):
            can = (f"float Minor {floatable_minors(s, rs, player)[0]}" if floatable_minors(s, rs, player)
                   else f"float a regional ({rs.money(cash)} covers 2 x {rs.money(min(pars))})")
            refuse(f"{player} can {can}: a regional is parred into the Open Market only by a player who can do "
                   f"neither (§8.1)")
        ctx.emit("regional_parred", player=player, corp=corp, par=price,
                 certs=[[s.presidents[corp], shares.unsold_acct(s, rs, corp), POOL]])
        finish_action(ctx, player, corp, concession)
        return
    if cash < cost:
        refuse(f"{player} has {rs.money(cash)}; floating {corp} at {rs.money(price)} costs 2 x par = {rs.money(cost)} "
               f"(§9.2)")
    shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[s.presidents[corp]])
    float_regional(ctx, player, corp, price, shares.unsold_acct(s, rs, corp), "floated")
    finish_action(ctx, player, corp, concession)


def check_regional_open(s, rs, corp: str) -> None:
    k = kind_of(s, corp)
    if k != "regional":
        refuse(f"{corp} is a {k}: only a regional is parred (§9.2)" + (" — a minor floats with float PLAYER MINOR ZONE"
                                                                          if k == "minor" else ""))
    if corp in removed(s):
        refuse(f"{corp} has been removed from the game")
    if s.corps[corp].floated or s.corps[corp].par is not None:
        refuse(f"{corp} is already {'floated' if s.corps[corp].floated else 'parred'}")


def unfloated_minors(s, player: str) -> list[str]:
    return [c for c, corp in s.corps.items() if corp.kind == "minor" and not corp.floated
            and s.certs.get(s.presidents.get(c, "")) == player_acct(player)]


def floatable_minors(s, rs, player: str) -> list[str]:
    """The player's unfloated minors that can float now: a chit is left, and the minor (with its
    owner's help for the cheapest, D18 #45) can pay its home token."""
    cheapest = cheapest_home(s, rs)
    if cheapest is None:
        return []
    return [c for c in unfloated_minors(s, player)
            if s.cash(company_acct(c)) >= cheapest or s.cash(company_acct(c)) + s.cash(player_acct(player)) >= cheapest]


def float_regional(ctx, player: str, corp: str, par: int, source: str, how: str) -> None:
    """§9.2: the president pays 2 x par into the treasury, which pays the zone's home token."""
    s, rs = ctx.state, ctx.rs
    zone = zone_of(rs, corp)
    home = zones(rs)[zone]["home_cost"]
    transfers = [[player_acct(player), company_acct(corp), 2 * par]]
    if home:
        transfers.append([company_acct(corp), BANK, home])
    ctx.emit("regional_floated", player=player, corp=corp, par=par, zone=zone, home_cost=home, how=how,
             transfers=transfers, certs=[[s.presidents[corp], source, player_acct(player)]])
    owes_train(ctx, corp)


def owes_train(ctx, corp: str) -> None:
    """§11.6.1: a new company buys its reserved 2+2 in its first OR (unless level 2 has rusted)."""
    s, rs = ctx.state, ctx.rs
    if not trains.phase_reached(s, rs, rs.train(rules(rs, "reserved_train")).rusts_on or "9"):
        ctx.emit("train_owed", corp=corp, owes=[*s.own.owes_train, corp])


def begin_action(ctx, player: str) -> str | None:
    """A concession's action, or a stock action (one a turn): the concession it executes, if any."""
    s = ctx.state
    if s.round.get("kind") == "concessions":
        return concession_turn(ctx, player)
    stock.take_turn(ctx, player)
    if s.round.get("acted"):
        refuse(f"{player} has taken his stock action this turn (one a turn, §8.2, §10)", f"pass {player}")
    return None


def finish_action(ctx, player: str, corp: str, concession: str | None) -> None:
    if concession:
        executed(ctx, concession)
    else:
        stock.acted(ctx, player, bought=[corp, "float"])
    check_major_phase(ctx)


def check_major_phase(ctx) -> None:
    """§8.2: when the 18th regional floats the others (parred ones too, D18 #17) leave the game;
    the Major railroad phase begins the moment all 12 minors and 18 regionals have floated."""
    s, rs = ctx.state, ctx.rs
    if major_phase(s):
        return
    floated = [c for c, corp in s.corps.items() if corp.floated]
    minors = [c for c in floated if kind_of(s, c) == "minor"]
    regionals = [c for c in floated if kind_of(s, c) == "regional"]
    if len(regionals) >= rules(rs, "regionals_in_play"):
        out = [c for c, corp in s.corps.items() if corp.kind == "regional" and not corp.floated and c not in removed(s)]
        if out:
            back = [[s.presidents[c], POOL, shares.unsold_acct(s, rs, c)] for c in out
                    if s.certs[s.presidents[c]] == POOL]
            ctx.emit("regionals_removed", corps=out, removed=[*removed(s), *out],
                     reason=f"the {rules(rs, 'regionals_in_play')}th regional floated (§8.2)", certs=back)
    if len(minors) >= rules(rs, "minors_in_play") and len(regionals) >= rules(rs, "regionals_in_play"):
        ctx.emit("axis_phase_changed", axis=AXIS, phase="major")


# =========================================================================== Regional/Minor stock rounds

def cmd_remove(ctx, cmd) -> None:
    """`remove PLAYER PRIVATE` (a free action, §10) or `remove PLAYER REGIONAL` (a stock action,
    §8.2: at most six, each from a different zone, never a floated or parred one)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    if kind == "private":
        private_down(ctx, player, sym, "removed")
        return
    begin_action(ctx, player)
    if kind_of(s, sym) != "regional":
        refuse(f"{sym} is a {kind_of(s, sym)}: only an unfloated, unparred regional (or a player's private) is removed "
               f"(§8.2, §10)")
    check_regional_open(s, rs, sym)
    if major_phase(s):
        refuse("regionals are removed only in the Regional/Minor railroad phase (§8.2)")
    by_players = [c for c in removed(s) if c in s.own.removed_by_players]
    if len(by_players) >= rules(rs, "removals"):
        refuse(f"{len(by_players)} regionals have been removed: at most {rules(rs, 'removals')} (§8.2)")
    zone = zone_of(rs, sym)
    same = [c for c in by_players if zone_of(rs, c) == zone]
    if same:
        refuse(f"{same[0]} was removed from {zones(rs)[zone]['name']}: each removed regional comes from a "
               f"different zone (§8.2)")
    ctx.emit("regionals_removed", corps=[sym], removed=[*removed(s), sym], player=player,
             by_players=[*s.own.removed_by_players, sym], reason=f"removed by {player} (§8.2)")
    stock.acted(ctx, player, bought=[sym, "remove"])


def cmd_close(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    private_down(ctx, player, names.private(rs, cmd.get("private")), "closed")


def private_down(ctx, player: str, sym: str, how: str) -> None:
    """§10, §6.1: before his stock action a player may close a private (face down: no income, no
    limit, no score) or remove it from the game; one such free action a turn."""
    s = ctx.state
    free_action_turn(ctx, player)
    if s.privates[sym].owner != player_acct(player):
        refuse(f"{player} does not own {sym}")
    if s.privates[sym].closed and how == "closed":
        refuse(f"{sym} is already face down")
    ctx.emit("private_put_down", player=player, private=sym, how=how,
             assets=[[sym, player_acct(player), None]] if how == "removed" else [])


def cmd_reserve(ctx, cmd) -> None:
    """§8.4: in the initial SR a player reserves one regional's secondaries for himself until SR 2."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    if s.round.get("kind") != "stock" or s.round.get("number") != 1:
        refuse("secondary shares are reserved only in the initial stock round (§8.4)")
    if kind_of(s, corp) != "regional" or not s.corps[corp].floated:
        refuse(f"{corp} is not a floated regional: only a regional's secondary shares are reserved (§8.4)")
    reserved = s.own.reserved
    if player in reserved.values():
        mine = next(c for c, p in reserved.items() if p == player)
        refuse(f"{player} has reserved {mine}'s secondaries: one regional each, never moved (§8.4)")
    if corp in reserved:
        refuse(f"{corp}'s secondaries are reserved by {reserved[corp]}")
    if len(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)) < 2:
        refuse(f"a secondary of {corp} has been bought: the other may not be reserved (§8.4)")
    ctx.emit("shares_reserved", player=player, corp=corp, reserved={**reserved, corp: player})


def cmd_buy(ctx, cmd) -> None:
    """`buy PLAYER CORP`: a parred presidency (§8.2), an insolvent company (§11.6.5), a regional's
    25 % from its treasury at par in the Major phase (§8.3, §8.4), or a share (part 2)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, corp = names.item(rs, cmd.get("item"))
    if kind == "private":
        refuse(f"{corp} is a private: privates change hands between players with trade {player} {corp} PRICE (§10.4)")
    if (cmd.get("count") or 1) > 1:
        refuse(f"a stock action buys one share (§10): buy {player} {corp}")
    if s.certs.get(s.presidents.get(corp, "")) == POOL:
        insolvent = corp in s.own.insolvent
        if is_minor(s, corp) and not insolvent:
            refuse(f"Minor {corp} is abandoned: a player never buys it; a major may, for £60 in its OR (§9.5)")
        if insolvent or (kind_of(s, corp) == "regional" and not s.corps[corp].floated):
            buy_from_open_market(ctx, player, corp)
            return
    if is_minor(s, corp):
        refuse(f"a minor is bought in the packet auction, or from its owner with trade {player} {corp} PRICE (§10.4)")
    if kind_of(s, corp) == "regional":
        if corp in removed(s) or not s.corps[corp].floated:
            refuse(f"{corp} has not floated: a regional is floated with par {player} {corp} PRICE (§9.2)")
        if not major_phase(s):
            refuse("no regional's 25 % share is sold before the Major railroad phase (§8.2)")
        owner = s.own.reserved.get(corp)
        if owner and owner != player and s.round.get("number") == 1:
            refuse(f"{corp}'s secondaries are reserved for {owner} until the second stock round (§8.4)")
        if not shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp):
            refuse(f"{corp}'s treasury has no 25 % share left")
    keeper = s.own.custody.get(corp)
    if keeper and cmd.get("source") != "pool":
        left = shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)
        if keeper != player and len(left) <= 1:
            refuse(f"{corp}'s last treasury share is kept for {keeper} (BBBT, §14.4)")
        if keeper == player:
            ctx.emit("share_kept", player=player, corp=corp,
                     custody={k: v for k, v in s.own.custody.items() if k != corp})
    if kind_of(s, corp) == "major":
        major_buy(ctx, player, corp, cmd)
        return
    stock.cmd_buy(ctx, cmd)


# =========================================================================== the Major phase (§9.3, §10)

def major_par(rs, regional_par: int) -> int:
    """§9.3: REGIONAL X's par marker moves to MAJOR X (D18 #3: the letters in ascending order)."""
    return rs.k("company", "par_prices")[rules(rs, "regional_pars").index(regional_par)]


def cmd_expand(ctx, cmd) -> None:
    """§9.3 (D10.4): a regional's president, or the holder of both its secondaries, floats it as a
    major: optionally the president first buys a 25 % left in its treasury at the regional par
    (--secondary); the 50 % becomes the 20 % president's certificate and each 25 % a 10 %; six new
    10 % certificates go into its treasury; its par marker moves to the major's par, where its
    marker enters the market (under any already there). A player other than the president must then
    buy a treasury share at the major's par, which makes him president; the president may (buy)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    begin_action(ctx, player)
    if not major_phase(s):
        refuse("majors float only in the Major railroad phase (§8.2, §8.3)")
    if kind_of(s, corp) != "regional" or not s.corps[corp].floated:
        refuse(f"{corp} is not a floated regional: only a regional expands into a major (§9.3)")
    if corp in s.own.insolvent:
        refuse(f"{corp} is insolvent: a player must buy it first (§11.6.5)")
    president = s.president(corp)
    seconds = [c for c in s.certs_of(player_acct(player), corp) if c != s.presidents[corp]]
    if player != president and len(seconds) < 2:
        refuse(f"{corp} is expanded by its president ({president}) or by the holder of both its secondary shares "
               f"(§9.3); {player} holds {s.percent_of(player_acct(player), corp)}%")
    secondary = None
    if cmd.get("secondary"):
        if player != president:
            refuse(f"only {corp}'s president buys its secondary share before expanding (§9.3 step 1)")
        secondary = next(iter(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)), None)
        if secondary is None:
            refuse(f"{corp}'s treasury holds no secondary share (§9.3 step 1)")
    par = major_par(rs, s.corps[corp].par)
    need = (s.corps[corp].par if secondary else 0) + (par if player != president else 0)
    sales = expansion_sales(s, rs, player, corp, cmd.get("sell"))
    if s.cash(player_acct(player)) + sum(v for _c, _n, v in sales) < need:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}; this expansion costs him {rs.money(need)} "
               f"(§9.3; he may sell other railroads' shares in it: --sell CORP=N)")
    if secondary:
        shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[secondary])
        ctx.emit("share_bought", player=player, corp=corp, source="ipo", price=s.corps[corp].par,
                 percent=s.cert_percent[secondary],
                 transfers=[[player_acct(player), company_acct(corp), s.corps[corp].par]],
                 certs=[[secondary, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    ctx.emit("company_converted", **shares.conversion(s, rs, corp, "major"))
    from ledger.core.rules import market
    ctx.emit("par", player=player, corp=corp, price=par, par_round=True,
             moves=[[corp, None, list(market.par_cell(rs, par))]])
    reserved = s.own.reserved
    if corp in reserved and s.sets_played == 0:   # §8.4: expanded before the first OR
        ctx.emit("shares_reserved", player=reserved[corp], corp=corp,
                 reserved={k: v for k, v in reserved.items() if k != corp})
    stock.acted(ctx, player, bought=[corp, "expand" if not secondary else "expand+"])
    for other, n, _value in sales:   # §9.3 step 4: his other railroads' shares, under the normal rules
        shares.sell(ctx, player, other, n)
        stock.acted(ctx, player, sold=other)
    if player != president:
        treasury_buy(ctx, player, corp, par, "§9.3 step 5: compulsory for a player other than the president")
        stock.check_president(ctx, corp)


def expansion_sales(s, rs, player: str, corp: str, raw) -> list[tuple[str, int, int]]:
    """`--sell WW=2,GWR=1`: shares of other railroads the expanding player sells within the
    expansion (§9.3 step 4): (company, count, what they fetch at the share value now)."""
    out = []
    for part in filter(None, (p.strip() for p in str(raw or "").split(","))):
        name, _, count = part.partition("=")
        other = names.corp(rs, name)
        if other == corp:
            refuse("the new major's shares are not sold in its expansion (§9.3 step 4)")
        n = names.whole_number(count or "1", "the shares to sell")
        if s.corps[other].cell is None:
            refuse(f"{other} is a {kind_of(s, other)}: its shares are never sold (§10.1)")
        out.append((other, n, n * shares.sale_price(s, rs, other)))
    return out


def treasury_buy(ctx, player: str, corp: str, price: int, why: str) -> None:
    s, rs = ctx.state, ctx.rs
    cert = next(iter(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)), None)
    if cert is None:
        refuse(f"{corp}'s treasury has no share left")
    if s.cash(player_acct(player)) < price:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}, a {corp} share costs {rs.money(price)}")
    shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[cert])
    ctx.emit("share_bought", player=player, corp=corp, source="ipo", price=price, percent=s.cert_percent[cert],
             transfers=[[player_acct(player), company_acct(corp), price]],
             certs=[[cert, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    ctx.emit("sr_acted", player=player, index=s.player_index(player), bought=[corp, "ipo"])


def major_buy(ctx, player: str, corp: str, cmd) -> None:
    """§10.2: one share a turn, after any sales: from the treasury (at par while its par marker is
    up, then at the share value, paid to it) or the Open Market (the share value, to the bank); a
    player at 60 % buys no more, except a president from the Open Market at twice the share value."""
    s, rs = ctx.state, ctx.rs
    stock.take_turn(ctx, player)
    buys = s.round.get("buys", [])
    if buys == [[corp, "expand"]] and s.round.get("acted"):
        # §9.3 step 5: after his expansion the president may buy one treasury share at the major's par
        treasury_buy(ctx, player, corp, s.corps[corp].par, "§9.3 step 5")
        stock.check_president(ctx, corp)
        return
    if any(b[1] in ("expand", "expand+", "float", "trade", "remove") for b in buys):
        refuse(f"{player} has taken his stock action this turn (one a turn, §10)", f"pass {player}")
    source = cmd.get("source") or ("ipo" if shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)
                                   else "pool")
    held = s.percent_of(player_acct(player), corp)
    limit = rs.k("stock", "holding_limit")
    if held >= limit:
        if source == "ipo":
            refuse(f"{player} holds {held}% of {corp}: at {limit}% a player buys none from its treasury (§10.2)")
        if s.president(corp) != player:
            refuse(f"{player} holds {held}% of {corp}: at {limit}% only the president buys more, from the Open "
                   f"Market at twice the share value (§10.2)")
        double_price_buy(ctx, player, corp)
        return
    stock.cmd_buy(ctx, cmd)


def double_price_buy(ctx, player: str, corp: str) -> None:
    s, rs = ctx.state, ctx.rs
    if s.round.get("buys"):
        refuse(f"{player} has already bought this turn: one share a turn (§10)")
    if corp in s.round["sold"].get(player, []):
        refuse(f"{player} sold {corp} earlier in this stock round and may not buy it again (§10.2)")
    cert = shares.next_pool_cert(s, corp)
    if cert is None:
        refuse(f"the Open Market holds no {corp} share")
    price = 2 * shares.price(s, rs, corp) * s.cert_percent[cert] // shares.unit(s, rs, corp)
    if s.cash(player_acct(player)) < price:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}; at 60 % or more the president pays twice the "
               f"share value: {rs.money(price)} (§10.2)")
    count, cap = shares.cert_count(s, rs, player), shares.cert_limit(s, rs, player)
    if count >= cap:
        refuse(f"certificate limit {cap} reached: {player} holds {count} (§4.1)")
    ctx.emit("share_bought", player=player, corp=corp, source="pool", price=price, percent=s.cert_percent[cert],
             transfers=[[player_acct(player), BANK, price]], certs=[[cert, POOL, player_acct(player)]])
    stock.acted(ctx, player, bought=[corp, "pool"])


def buy_from_open_market(ctx, player: str, corp: str) -> None:
    """A parred regional's presidency: 2 x par into its treasury, which floats it (§8.2, D18 #17);
    an insolvent company: its face plus the unpaid 2+2 difference, to the bank (§11.6.5, D18 #31)."""
    s, rs = ctx.state, ctx.rs
    begin_action(ctx, player)
    c = s.corps[corp]
    debt = s.own.insolvent.get(corp)
    if debt is None:
        cash = s.cash(player_acct(player))
        if cash < 2 * c.par:
            refuse(f"{player} has {rs.money(cash)}; {corp}'s presidency costs 2 x par = {rs.money(2 * c.par)} (§8.2)")
        shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[s.presidents[corp]])
        float_regional(ctx, player, corp, c.par, POOL, "bought from the Open Market")
        stock.acted(ctx, player, bought=[corp, "float"])
        check_major_phase(ctx)
        return
    face = rules(rs, "minor_face") if is_minor(s, corp) else 2 * c.par
    price = face + debt
    cash = s.cash(player_acct(player))
    if cash < price:
        refuse(f"{player} has {rs.money(cash)}; {corp} costs its face {rs.money(face)} plus the unpaid "
               f"{rs.money(debt)} of its 2+2 = {rs.money(price)} (§11.6.5)")
    shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[s.presidents[corp]])
    insolvent = {k: v for k, v in s.own.insolvent.items() if k != corp}
    ctx.emit("insolvent_bought", player=player, corp=corp, price=price, debt=debt, insolvent=insolvent,
             transfers=[[player_acct(player), BANK, price]],
             certs=[[s.presidents[corp], POOL, player_acct(player)]])
    stock.acted(ctx, player, bought=[corp, "pool"])


def cmd_trade(ctx, cmd) -> None:
    """§10.4: a player buys a minor or a face-up private from another for an agreed sum of personal
    cash; a stock action (in the Major phase, D18 #41, unless the table plays early trades)."""
    s, rs = ctx.state, ctx.rs
    buyer = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    price = names.amount(cmd.get("price"), "the agreed price")
    begin_action(ctx, buyer)
    if not major_phase(s) and not rules(rs, "early_trades"):
        refuse("players trade minors and privates in the Major railroad phase (§10, §10.4; D18 #41)")
    if kind == "private":
        owner = s.privates[sym].owner
        if s.privates[sym].closed:
            refuse(f"{sym} is face down: a closed private may not be sold (§10.4)")
        moves = {"assets": [[sym, owner, player_acct(buyer)]]}
    else:
        if not is_minor(s, sym):
            refuse(f"{sym} is a {kind_of(s, sym)}: only minors and face-up privates are traded (§10.4)")
        owner = holder_of(s, sym)
        moves = {"certs": [[s.presidents[sym], owner, player_acct(buyer)]]}
    if not owner or not owner.startswith("player:"):
        refuse(f"{sym} is not held by a player")
    seller = acct_name(owner)
    if seller == buyer:
        refuse(f"{buyer} already owns {sym}")
    if s.cash(player_acct(buyer)) < price:
        refuse(f"{buyer} has {rs.money(s.cash(player_acct(buyer)))}, not {rs.money(price)}")
    count, limit = shares.cert_count(s, rs, buyer), shares.cert_limit(s, rs, buyer)
    if count >= limit:
        refuse(f"certificate limit {limit} reached: {buyer} holds {count} (§4.1)")
    ctx.emit("traded", buyer=buyer, seller=seller, item=sym, price=price,
             transfers=[[player_acct(buyer), player_acct(seller), price]] if price else [], **moves)
    stock.acted(ctx, buyer, bought=[sym, "trade"])


# --------------------------------------------------------------------------- BBBT (§14.4)

BANKERS = "BBBT"


def bankers_power(ctx, cmd, power: str) -> tuple[str, str]:
    """The player and the company BBBT's power is used on: he owns the face-up BBBT and, except
    for its protection, presides the company; in a stock round."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    sym = names.private(rs, cmd.get("private"))
    corp = names.corp(rs, cmd.get("corp"))
    if sym != BANKERS:
        refuse(f"{sym} has no such power: re-par, custodianship and protection are Barclay, Bevan, Barclay & "
               f"Tritton's (§14.4)")
    if s.privates[sym].owner != player_acct(player) or s.privates[sym].closed:
        refuse(f"{player} does not own a face-up {sym} (§14.4)")
    if protected(s):
        refuse(f"{sym}'s power is used this round (one of its three, once, §14.4)")
    if power != "protect" and s.president(corp) != player:
        refuse(f"{player} does not control {corp}: a private's power serves its owner's railroads (§6.1)")
    if power != "protect":
        free_action_turn(ctx, player)
    return player, corp


def free_action_turn(ctx, player: str) -> None:
    """§10: a private's power, closing or removing one, is one free action a turn, before the
    player's stock action."""
    s = ctx.state
    stock.take_turn(ctx, player)
    if s.round.get("acted"):
        refuse(f"{player} has taken his stock action: a private's free action comes before it (§10)")
    if s.round.get("free_action"):
        refuse(f"{player} has taken his free action this turn (one a turn, §10)")


def cmd_repar(ctx, cmd) -> None:
    """§14.4 (1): re-par a regional or major the owner controls that still has its par marker, to
    another par of its kind; a major's market marker moves with it if it has not moved since it
    floated (D18 #39); no money changes hands. BBBT leaves the game."""
    s, rs = ctx.state, ctx.rs
    player, corp = bankers_power(ctx, cmd, "repar")
    price = names.amount(cmd.get("price"), "the new par")
    k = kind_of(s, corp)
    if k == "regional":
        pars = rules(rs, "regional_pars")
    elif k == "major" and corp in s.round.get("at_par", []):
        pars = rs.k("company", "par_prices")
    else:
        refuse(f"{corp} has no par marker: a regional keeps it for life, a major until the end of the stock round "
               f"it floated in (§10.7, §14.4)")
    if price not in pars or price == s.corps[corp].par:
        refuse(f"{rs.money(price)} is not another {k} par: {', '.join(rs.money(p) for p in pars)} (§14.4)")
    moves = {}
    if k == "major":
        from ledger.core.rules import market
        old = market.par_cell(rs, s.corps[corp].par)
        if s.corps[corp].cell == tuple(old):
            moves = {"moves": [[corp, list(old), list(market.par_cell(rs, price))]]}
    ctx.emit("bankers_reparred", player=player, corp=corp, price=price, **moves)
    bankers_gone(ctx, player)


def cmd_protect(ctx, cmd) -> None:
    """§14.4 (3): for the rest of this stock round no sale moves the company's marker down, even in
    the middle of another player's sale; at the round's end BBBT leaves the game."""
    s = ctx.state
    player, corp = bankers_power(ctx, cmd, "protect")
    if kind_of(s, corp) not in ("major", "national"):
        refuse(f"{corp} has no share value marker to protect (§14.4)")
    ctx.emit("price_protected", player=player, corp=corp, protected=[*protected(s), corp])


def cmd_custody(ctx, cmd) -> None:
    """§14.4 (2): one treasury share of a railroad is kept for BBBT's owner (it pays the treasury
    still); a regional's secondary only while both are unsold. BBBT's certificate stays on it
    until he buys it (or a merger uses it)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    sym = names.private(rs, cmd.get("private"))
    corp = names.corp(rs, cmd.get("corp"))
    if sym != BANKERS or s.privates[sym].owner != player_acct(player) or s.privates[sym].closed:
        refuse(f"{player} does not own a face-up {BANKERS} (§14.4)")
    if protected(s):
        refuse(f"{BANKERS}'s power is used this round (one of its three, once, §14.4)")
    # §14.4 (2): at any time in a stock round, even as another player is buying
    unsold = shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)
    if kind_of(s, corp) == "regional" and len(unsold) < 2:
        refuse("a regional's secondary is kept only while both are unsold (§14.4)")
    if not unsold or kind_of(s, corp) not in ("regional", "major"):
        refuse(f"{corp}'s treasury holds no share to keep")
    ctx.emit("share_kept", player=player, corp=corp, custody={**s.own.custody, corp: player})
    bankers_gone(ctx, player)   # D18 #38: only its marker stays, on the share


def protection_ends(ctx) -> None:
    """§14.4 (3): the protection ends with the stock round, and BBBT leaves the game."""
    s = ctx.state
    if protected(s):
        ctx.emit("price_protected", player="", corp="", protected=[])
        owner = s.privates[BANKERS].owner
        if owner and not s.privates[BANKERS].closed:
            bankers_gone(ctx, acct_name(owner))


def bankers_gone(ctx, player: str) -> None:
    """BBBT's power is used: the certificate leaves the game (§14.4)."""
    ctx.emit("private_put_down", player=player, private=BANKERS, how="used",
             assets=[[BANKERS, player_acct(player), None]])


def cmd_issue(ctx, cmd) -> None:
    treasury_step(ctx, cmd, redeem=False)


def cmd_redeem(ctx, cmd) -> None:
    treasury_step(ctx, cmd, redeem=True)


def treasury_step(ctx, cmd, redeem: bool) -> None:
    """§11 step 7, §11.7: a major buys or sells its own shares after its run and its train step;
    a share BBBT keeps (§14.4) is never issued."""
    s, rs = ctx.state, ctx.rs
    from ledger.core.rounds import operating
    corp = operating_corp(ctx, cmd.get("corp"), "redeem" if redeem else "issue")
    if s.round.get("revenue") is None:
        refuse(f"{corp} buys or sells its own shares in its last step, after it runs (§11 step 7)")
    if owes(s, corp):
        refuse(f"{corp} must first buy its reserved 2+2: the train step comes before the shares step (§11.6.1, "
               f"§11 steps 6-7)", f"train {corp} 2+2")
    if not trains.working(s, corp) and operating.must_own_train(s, rs, corp):
        refuse(f"{corp} has no train: it buys one in its train step, before it buys or sells its own shares "
               f"(§11.6, §11 steps 6-7)")
    keeper = s.own.custody.get(corp)
    if keeper and not redeem:
        left = len(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp))
        if (cmd.get("count") or 1) > left - 1:
            refuse(f"one of {corp}'s {left} treasury shares is kept for {keeper} (BBBT, §14.4): it issues at most "
                   f"{left - 1}")
    (operating.cmd_redeem if redeem else operating.cmd_issue)(ctx, cmd)


def cmd_sell(ctx, cmd) -> None:
    """§10, §10.1: sell, then buy one; never a regional or a minor; not in Train Phase 1; after an
    expansion only other railroads' shares (§9.3 step 4)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    if s.phase == "1":
        refuse("no player sells stock in Train Phase 1 (§10.1)")
    if kind_of(s, corp) in ("regional", "minor"):
        refuse(f"{corp} is a {kind_of(s, corp)}: a player never sells a regional's shares or a minor (§10.1)")
    mine = s.round.get("acted") and stock.current(s) == player
    buys = s.round.get("buys", []) if mine else []
    expanded = [b[0] for b in buys if b[1] in ("expand", "expand+")]
    if corp in expanded:
        refuse(f"{player} expanded {corp} this turn: the new major's shares are not sold in the same action (§9.3)")
    if buys and not expanded or any(b[1] in ("ipo", "pool") for b in buys):
        refuse(f"{player} has bought this turn: a stock action sells first, then buys one share (§10, §9.3)")
    stock.cmd_sell(ctx, cmd)


def cmd_pass(ctx, cmd) -> None:
    """Pass, or end a turn after acting. §8.2: not while the player owns a minor that can float;
    §10.6: in the Consolidation round not while he holds a minor or a regional."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    ending_his_turn = s.round.get("acted") and stock.current(s) == player
    stock.take_turn(ctx, player)   # a player out of turn is told so first
    if not ending_his_turn:
        left = consolidation_holdings(s, player) if s.round.get("consolidation") else []
        if left:
            refuse(f"{player} still holds {', '.join(left)}: in the Consolidation round a player with a minor or a "
                   f"regional may not pass (§10.6)", f"expand {player} REGIONAL / merge {player} MINOR MAJOR")
        unfloated = floatable_minors(s, rs, player)
        if unfloated:
            refuse(f"{player} owns unfloated Minor {unfloated[0]}: he may not pass (§8.2)",
                   f"float {player} {unfloated[0]} ZONE")
    stock.cmd_pass(ctx, cmd)


def sr_heading(s, rs) -> str:
    """§8.2: a player who can float a minor he owns must (he may not pass); the rest is the shared
    round's heading."""
    who = stock.current(s)
    minors = floatable_minors(s, rs, who) if not s.round["acted"] and not major_phase(s) else []
    if minors:
        return f"SR {s.round['number']}: {who} must float Minor {minors[0]} (float {who} {minors[0]} ZONE) or act"
    return stock.heading(s, rs)


# =========================================================================== merging and abandoning minors

MERGE_FROM_PHASE = "3"   # §5.2, §10.5: minors merge into majors from Train Phase 3
MINOR_A = "A"            # §15.1: the bank pays the major its share value when A merges into it
ABANDONED_PRICE = 60     # §9.5: a major buys an abandoned minor for £60


def cmd_merge(ctx, cmd) -> None:
    """§10.5 (D11.5): a stock action: a minor merges into a major. Its owner receives a 10 % share from
    the major's treasury (the minor's cash to the major), else from the Open Market (its cash to the
    bank), else none (legal only with a track connection, `--connected`; cash to the bank). The
    share ignores the 60 % rule. Trains, chit and ability go to the major (over its limit it
    discards); Minor A's bonus is paid. One minor per major a stock round. Owners who differ agree,
    and may pay each other personal cash (`--cash N` the major's president to the minor's owner)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    minor = names.corp(rs, cmd.get("minor"))
    major = names.corp(rs, cmd.get("corp"))
    begin_action(ctx, player)
    if not is_minor(s, minor) or holder_of(s, minor) != player_acct(player) or not s.corps[minor].floated:
        refuse(f"{player} owns no floated minor {minor}: a player merges his own floated minor (§10.5)")
    if kind_of(s, major) == "national":
        merge_into_national(ctx, player, minor, major)
        return
    if kind_of(s, major) != "major":
        refuse(f"{major} is a {kind_of(s, major)}: minors merge into majors (§10.5)")
    if not trains.phase_reached(s, rs, MERGE_FROM_PHASE):
        refuse(f"minors merge into majors from Train Phase {MERGE_FROM_PHASE}; it is Train Phase {s.phase} (§5.2)")
    if major in s.round.get("merged_into", []):
        refuse(f"{major} has absorbed a minor in this stock round: one a stock round (§10.5)")
    source, cert = merger_share(s, rs, major)
    if cert is None and not cmd.get("connected"):
        refuse(f"{major} has no share in its treasury or the Open Market: the merger needs a track connection from "
               f"{minor}'s token to {major}'s (§10.5)", f"merge {player} {minor} {major} --connected")
    cash = s.cash(company_acct(minor))
    to = company_acct(major) if source == "treasury" else BANK
    transfers = [[company_acct(minor), to, cash]] if cash else []
    bonus = 0
    if minor == MINOR_A and not s.own.a_bonus_paid:
        bonus = shares.price(s, rs, major)
        transfers.append([BANK, company_acct(major), bonus])
    side = names.amount(cmd.get("cash"), "the cash between the players") if cmd.get("cash") else 0
    back = names.amount(cmd.get("cash_back"), "the cash between the players") if cmd.get("cash_back") else 0
    president = s.president(major)
    for amount, payer, payee in ((side, president, player), (back, player, president)):
        if not amount:
            continue
        if president == player:
            refuse(f"{player} presides {major}: no cash changes hands with himself")
        if s.cash(player_acct(payer)) < amount:
            refuse(f"{payer} has {rs.money(s.cash(player_acct(payer)))}, not {rs.money(amount)}")
        transfers.append([player_acct(payer), player_acct(payee), amount])
    side -= back
    certs = [[s.presidents[minor], player_acct(player), company_acct(major)]]
    if cert:
        certs.append([cert, shares.unsold_acct(s, rs, major) if source == "treasury" else POOL, player_acct(player)])
    moved = [[t, company_acct(minor), company_acct(major)] for t in s.corp_trains(minor)]
    # §11.6.2: Minor M's own Pullman goes with it; if the major has one already, M's goes to the Open Market
    chits = [[sym, company_acct(minor), POOL if a.kind == "pullman" and pullmans_of(s, major) else company_acct(major)]
             for sym, a in s.assets.items() if a.kind in ("chit", "pullman") and a.owner == company_acct(minor)]
    bonus_points = {sym: c.extra_tile_points for sym, c in s.corps.items() if c.extra_tile_points}
    if minor in bonus_points:
        bonus_points[major] = bonus_points.get(major, 0) + bonus_points.pop(minor)
    ctx.emit("minor_merged", player=player, minor=minor, corp=major, source=source or "none", cash=cash,
             a_bonus=bonus, side_cash=side, absorbed={**s.own.absorbed, minor: major},
             tile_point_bonus=bonus_points, transfers=transfers, certs=certs, trains=moved, assets=chits)
    stock.acted(ctx, player, bought=[major, "merge"])
    stock.check_president(ctx, major)
    train_step.check_limits(ctx)


def merge_into_national(ctx, player: str, minor: str, national: str) -> None:
    """§10.5, §9.5 (E11): a minor merging into a national (from Train Phase 4): its owner receives an
    Open Market share, the minor's cash goes to the bank, its trains to the national, and the minor is
    abandoned at once (charter and chit to the Open Market, its ability lost)."""
    s, rs = ctx.state, ctx.rs
    if not trains.phase_reached(s, rs, rules(rs, "pullman_phase")):
        refuse(f"minors merge into nationals from Train Phase {rules(rs, 'pullman_phase')} (§10.5)")
    if national in s.round.get("merged_into", []):
        refuse(f"{national} has absorbed a minor in this stock round: one a stock round (§10.5)")
    cert = shares.next_pool_cert(s, national)
    if cert is None:
        refuse(f"{national} has no share in the Open Market, and a national has no token to connect to: {minor} "
               f"cannot merge into it (§10.5)")
    cash = s.cash(company_acct(minor))
    ctx.emit("minor_merged", player=player, minor=minor, corp=national, source="open market", cash=cash, a_bonus=0,
             side_cash=0, absorbed=dict(s.own.absorbed),
             tile_point_bonus={sym: c.extra_tile_points for sym, c in s.corps.items() if c.extra_tile_points},
             transfers=[[company_acct(minor), BANK, cash]] if cash else [], certs=[[cert, POOL, player_acct(player)]],
             trains=[[t, company_acct(minor), company_acct(national)] for t in s.corp_trains(minor)])
    abandon(ctx, minor, f"it merged into the national {national} (§10.5)")
    stock.acted(ctx, player, bought=[national, "merge"])
    stock.check_president(ctx, national)
    train_step.check_limits(ctx)


def merger_share(s, rs, major: str) -> tuple[str | None, str | None]:
    """The share a merger hands the minor's owner: from the major's treasury, else the Open Market."""
    cert = next(iter(shares.ordinary_certs(s, shares.unsold_acct(s, rs, major), major)), None)
    if cert:
        return "treasury", cert
    cert = shares.next_pool_cert(s, major)
    return ("open market", cert) if cert else (None, None)


def cmd_abandon(ctx, cmd) -> None:
    """§9.5, §10.6: in the Consolidation round a minor its owner cannot place is abandoned: its
    charter goes to the Open Market (its chit with it), its trains to the Open Market (rusted ones
    to the Locomotive Works), its tokens off the map, its cash to the bank."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    minor = names.corp(rs, cmd.get("minor"))
    begin_action(ctx, player)
    if not is_minor(s, minor) or holder_of(s, minor) != player_acct(player):
        refuse(f"{player} owns no minor {minor}")
    if not s.round.get("consolidation"):
        refuse("a minor is abandoned in the Consolidation round, when it cannot be merged (§9.5, §10.6)")
    own = [c for c in s.corps if kind_of(s, c) == "major" and s.president(c) == player
           and c not in s.round.get("merged_into", []) and merger_share(s, rs, c)[1]]
    if own:
        refuse(f"{minor} can merge into {player}'s {own[0]} (§10.6): merge {player} {minor} {own[0]}")
    bidders = [c for c in s.corps if kind_of(s, c) in ("major", "national") and s.president(c) not in (None, player)
               and c not in s.round.get("merged_into", []) and shares.ordinary_certs(s, shares.unsold_acct(s, rs, c), c)]
    if bidders and not cmd.get("no_offers"):
        refuse(f"{player} first invites offers for {minor} (§10.6): {', '.join(bidders)} may take it (one offer must be "
               f"accepted: merge {player} {minor} CORP); with no offer, abandon {player} {minor} --no-offers")

    abandon(ctx, minor, f"abandoned by {player} (§10.6)")
    stock.acted(ctx, player, bought=[minor, "abandon"])


def abandon(ctx, minor: str, reason: str) -> None:
    s = ctx.state
    cash = s.cash(company_acct(minor))
    from ledger.core.state import RUSTED
    moved = [[t, company_acct(minor), RUSTED if trains.flags(s, t).get("rusted") else POOL] for t in s.corp_trains(minor)]
    ctx.emit("minor_abandoned", minor=minor, cash=cash, reason=reason,
             transfers=[[company_acct(minor), BANK, cash]] if cash else [],
             certs=[[s.presidents[minor], holder_of(s, minor), POOL]], trains=moved)


def cmd_buy_minor(ctx, cmd) -> None:
    """§9.5 #7, §11.7: in its buy-or-sell-shares step a major buys one abandoned minor from the Open
    Market for £60 paid to the bank, taking its charter, chit and ability as if merged; no share."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "buy-minor")
    minor = names.corp(rs, cmd.get("minor"))
    if kind_of(s, corp) != "major":
        refuse(f"{corp} is a {kind_of(s, corp)}: only a major buys an abandoned minor (§9.5)")
    if not is_minor(s, minor) or holder_of(s, minor) != POOL or minor in s.own.insolvent:
        refuse(f"Minor {minor} is not an abandoned minor in the Open Market (§9.5)")
    if s.round.get("bought_minor"):
        refuse(f"{corp} has bought an abandoned minor this OR: one a turn (§11.7)")
    if s.round.get("revenue") is None:
        refuse(f"{corp} buys an abandoned minor in its last step, after it runs (§9.5 #7, §11 step 7)")
    if s.cash(company_acct(corp)) < ABANDONED_PRICE:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; an abandoned minor costs {rs.money(ABANDONED_PRICE)}")
    chits = [[sym, a.owner, company_acct(corp)] for sym, a in s.assets.items()
             if a.kind == "chit" and a.owner == company_acct(minor)]
    bonus_points = {sym: c.extra_tile_points for sym, c in s.corps.items() if c.extra_tile_points}
    if minor in bonus_points:
        bonus_points[corp] = bonus_points.get(corp, 0) + bonus_points.pop(minor)
    ctx.emit("abandoned_minor_bought", corp=corp, minor=minor, price=ABANDONED_PRICE,
             absorbed={**s.own.absorbed, minor: corp}, tile_point_bonus=bonus_points,
             transfers=[[company_acct(corp), BANK, ABANDONED_PRICE]],
             certs=[[s.presidents[minor], POOL, company_acct(corp)]], assets=chits)


def consolidation_due(ctx, phase: str) -> None:
    """§5.1.5: the first SR after the OR in which Train Phase 5 began is the Consolidation round."""
    if phase == "5":
        ctx.emit("consolidation_due", due=True)


def consolidation_begins(ctx) -> None:
    s = ctx.state
    if s.own.consolidation_due and s.round.get("kind") == "stock":
        ctx.emit("consolidation_started", number=s.round["number"])


def consolidation_holdings(s, player: str) -> list[str]:
    """The minors and unexpanded regionals a player still holds (§10.6: he may not pass)."""
    return [c for c, corp in s.corps.items() if corp.kind in ("minor", "regional")
            and s.certs.get(s.presidents.get(c, "")) == player_acct(player) and corp.floated]


# =========================================================================== operating rounds

def first_or(ctx) -> None:
    """§5.2: Train Phase 2 begins at the start of the first OR."""
    s, rs = ctx.state, ctx.rs
    if s.phase == "1":
        p = rs.phase("2")
        ctx.emit("phase_changed", phase=p.name, train="", limit=p.train_limit, certificate_limit=p.certificate_limit,
                 trains=[], rusted=[], obsolete=[], flags={})


def pay_mail(ctx) -> None:
    """§15.10: Minor K's mail, paid into its treasury at the start of each OR (not revenue)."""
    s, rs = ctx.state, ctx.rs
    user = ability_user(s, MAIL_CORP)
    amount = rules(rs, "mail").get(s.phase, 0)
    if user and s.president(user) and amount and (not repeat_or(s) or rules(rs, "repeat_or_income")):
        ctx.emit("mail_paid", corp=user, amount=amount, transfers=[[BANK, company_acct(user), amount]])


def ask_order(ctx) -> None:
    """§15.3: Minor C's president chooses where it operates in this OR, before anyone operates."""
    s = ctx.state
    user = ability_user(s, ORDER_CORP)
    who = s.president(user) if user else None
    if who and user in s.round.get("order", []) and len(s.round["order"]) > 1:
        decisions.ask(ctx, who, f"where does {'Minor ' + user if user == ORDER_CORP else user} operate in this "
                      f"OR (§15.3)?", ["first", "last", "normal"], "minor_c_order", corp=user)


def order_chosen(ctx, due: dict, option: str) -> None:
    """§15.3: first or last within its own group (the minor with the minors and regionals, the
    major with the majors and nationals), or its normal place."""
    s = ctx.state
    user = due["data"].get("corp", ORDER_CORP)
    order = [c for c in s.round["order"] if c != user]
    if option == "normal":
        return
    majors = bool(s.corps[user].cell)
    group = [i for i, c in enumerate(order) if bool(s.corps[c].cell) == majors]
    if option == "first":
        at = group[0] if group else (len(order) if majors else 0)
    else:
        at = group[-1] + 1 if group else (len(order) if majors else 0)
    order.insert(at, user)
    ctx.emit("or_order", order=order)
    if order[0] != s.round["corp"]:
        ctx.emit("corp_turn_started", corp=order[0], pos=0, president=s.president(order[0]), home_token=False)


def rights_text(s, rs, corp: str) -> str:
    held = sorted(rights(s, rs, corp))
    return ", ".join(zones(rs)[z]["name"] for z in held) or "none"


def check_modifiers(s, rs, corp: str, raw) -> None:
    """The fee modifiers the table names must be the company's to use (§11.1.5, §11.1.6, §15.5-6)."""
    from ledger.core import fees
    asked = fees.parse_asked(raw)
    if "zone" in asked and not any(zones(rs)[z]["discount"] for z in rights(s, rs, corp)):
        refuse(f"{corp} has track rights only in {rights_text(s, rs, corp)}: the 20 % discount needs rights in "
               f"Spain/Portugal, Italy, Sweden/Norway/Denmark or Russia (§11.1.5)")
    if "ef_zone" in asked:
        asked = {**asked, "ef": None, "zone": None}
    if "zone" in asked and not any(zones(rs)[z]["discount"] for z in rights(s, rs, corp)):
        refuse(f"{corp} has track rights only in {rights_text(s, rs, corp)}: the 20 % discount needs rights in "
               f"Spain/Portugal, Italy, Sweden/Norway/Denmark or Russia (§11.1.5)")
    if "ef" in asked and not uses(s, corp, DISCOUNT_CORPS):
        refuse(f"{corp} is not Minor E or F: only their ability (or a major owning them) takes a third off (§15.5, §15.6)")
    if "port" in asked and not port_of(s, corp):
        refuse(f"{corp} holds no port authority: only a major that bought one counts two fewer (§11.3.5)")
    if "wien" in asked:
        owner = s.privates["WSB"].owner
        if owner != player_acct(s.president(corp) or "") or s.privates["WSB"].closed:
            refuse("Wien Suedbahnhof waives a slot only for a railroad its owner controls (§14.3)")


def cmd_tile(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "tile")
    check_modifiers(s, rs, corp, cmd.get("modifiers"))
    if cmd.get("using"):
        engineers_tile(ctx, corp, cmd)
        return
    patronage = names.amount(cmd.get("patronage"), "the patronage amount") if cmd.get("patronage") else 0
    terrain_point(ctx, corp, cmd)
    track.cmd_tile(ctx, cmd)
    if patronage:
        ctx.emit("patronage_paid", corp=corp, amount=patronage, transfers=[[BANK, company_acct(corp), patronage]])


def terrain_point(ctx, corp: str, cmd) -> None:
    """§15.5, §15.6: each OR Minor E (F) may spend one more tile point, on a yellow tile in a hex
    with a blue (green) terrain cost: the table names its discount (`--with ef`) on a 1-point tile."""
    from ledger.core import fees
    s = ctx.state
    if not uses(s, corp, DISCOUNT_CORPS) or "ef" not in fees.parse_asked(cmd.get("modifiers")):
        return
    if (cmd.get("points") or 1) != 1 or s.round.get("bonus_points") or not cmd.get("cost"):
        return
    ctx.emit("tile_point_granted", corp=corp, reason="Minor E/F's yellow tile on its terrain (§15.5, §15.6)")


def cmd_token(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    if ferry_window_open(s) and cmd.get("using") and names.private(rs, cmd.get("using")) == FERRY_TOKEN \
            and names.corp(rs, cmd.get("corp")) != s.round.get("corp"):
        ferry_token_at_once(ctx, cmd)
        return
    corp = operating_corp(ctx, cmd.get("corp"), "token")
    check_modifiers(s, rs, corp, cmd.get("modifiers"))
    if kind_of(s, corp) == "national":
        refuse(f"{corp} is a national: nationals never have tokens on the map (§11.2)")
    if cmd.get("using"):
        private_token(ctx, corp, cmd)
        return
    from ledger.core import fees
    wien = "wien" in fees.parse_asked(cmd.get("modifiers"))
    track.cmd_token(ctx, cmd)
    if wien:
        ctx.emit("private_put_down", player=s.president(corp), private="WSB", how="used",
                 assets=[["WSB", s.privates["WSB"].owner, None]])


# --------------------------------------------------------------------------- privates' powers in an OR (§14)

FREE_TOKENS = ("SHTC", "CCTC")   # §14.5, §14.6: a free token that takes no token position
FERRY_TOKEN = "WCF"              # §14.7, §11.2.2: Lille's ferry position, from Train Phase 5, at the slot's cost
TOWN_TOKEN = "HML"               # §14.8: a token that counts as a town; the certificate turns face down
ENGINEERS = "BB"                 # §14.9: four free yellow tiles on rough terrain, two an OR
ENGINEERS_TILES, ENGINEERS_PER_OR = 4, 2


def owned_power(ctx, corp: str, raw) -> str:
    """A private whose power the operating railroad uses: its president owns it face up (§6.1)."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, raw)
    if s.privates[sym].owner != player_acct(s.president(corp) or "") or s.privates[sym].closed:
        refuse(f"{corp}'s president does not own a face-up {sym}: a private's power serves its owner's railroads "
               f"(§6.1)")
    return sym


def private_token(ctx, corp: str, cmd) -> None:
    """`token CORP --using SHTC|CCTC|WCF|HML`: Star Harbor's or Central Circle's free token (no
    token position, §14.5-6), White Cliffs Ferry's token at Lille from Train Phase 5 for the slot's
    cost (§14.7), Hochberg's town token (§14.8, its certificate then face down)."""
    s, rs = ctx.state, ctx.rs
    sym = owned_power(ctx, corp, cmd.get("using"))
    city = cmd.get("city")
    if sym in FREE_TOKENS:
        if s.round.get("revenue") is not None:
            refuse(f"{corp} has run: {sym}'s token is placed before (§11)")
        ctx.emit("private_token", corp=corp, private=sym, city=city, cost=0)
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="used",
                 assets=[[sym, s.privates[sym].owner, None]])
        return
    if sym == FERRY_TOKEN:
        if not trains.phase_reached(s, rs, "5"):
            refuse(f"White Cliffs Ferry's token goes to Lille from Train Phase 5; it is Train Phase {s.phase} (§11.2.2)")
        track.cmd_token(ctx, cmd.__class__(cmd.verb, {**cmd.args, "using": None, "city": city or "Lille"}))
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="used",
                 assets=[[sym, s.privates[sym].owner, None]])
        return
    if sym == TOWN_TOKEN:
        if s.round.get("revenue") is not None or s.round.get("token"):
            refuse(f"Hochberg's token is placed in {corp}'s lay-track step (§14.8)")
        ctx.emit("private_token", corp=corp, private=sym, city=city, cost=0)
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="face down")
        return
    refuse(f"{sym} places no token (§14)")


def ferry_window_open(s) -> bool:
    """§11.2.2: at the moment Train Phase 5 begins (the rest of that buy step) WCF may be used for
    any railroad its owner controls, not only one operating."""
    w = s.own.ferry_window
    return bool(w) and s.round.get("kind") == "operating" and w == [s.round.get("set"), s.round.get("index"),
                                                                     s.round.get("pos")]


def ferry_token_at_once(ctx, cmd) -> None:
    """`token CORP --using WCF` as Train Phase 5 begins: CORP (its owner's, any) places its token on
    Lille's ferry position for the slot's cost from its treasury (Wien Suedbahnhof may pay it:
    --with wien), no connection needed (§11.2.2, §14.7)."""
    s, rs = ctx.state, ctx.rs
    from ledger.core import fees
    corp = names.corp(rs, cmd.get("corp"))
    owner = s.privates[FERRY_TOKEN].owner
    if s.privates[FERRY_TOKEN].closed or owner != player_acct(s.president(corp) or ""):
        refuse(f"{corp}'s president does not own a face-up White Cliffs Ferry (§14.7)")
    if kind_of(s, corp) not in ("minor", "regional", "major"):
        refuse(f"{corp} places no token (§11.2)")
    check_modifiers(s, rs, corp, cmd.get("modifiers"))
    if track.markers_left(s, rs, corp) <= 0:
        refuse(f"{corp} has no token left on its charter")
    slot = track.station_slot(s, rs, corp, cmd.get("slot"))
    wien = "wien" in fees.parse_asked(cmd.get("modifiers"))
    cost = 0 if wien else rs.corporation(corp).tokens[slot - 1]
    if s.cash(company_acct(corp)) < cost:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; its slot {slot} costs {rs.money(cost)}")
    ctx.emit("ferry_token", corp=corp, slot=slot, cost=cost, city=cmd.get("city") or "Lille",
             transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    ctx.emit("private_put_down", player=s.president(corp), private=FERRY_TOKEN, how="used",
             assets=[[FERRY_TOKEN, owner, None]])
    if wien:
        ctx.emit("private_put_down", player=s.president(corp), private="WSB", how="used",
                 assets=[["WSB", s.privates["WSB"].owner, None]])


def engineers_tile(ctx, corp: str, cmd) -> None:
    """`tile CORP COST --using BB`: Brandt & Brandau lays a yellow tile on rough terrain with no
    terrain fee (tile points as usual); four in all, at most two an OR; the certificate turns face
    down after the last (§14.9)."""
    s, rs = ctx.state, ctx.rs
    sym = owned_power(ctx, corp, cmd.get("using"))
    if sym != ENGINEERS:
        refuse(f"{sym} lays no tile (§14)")
    used = s.own.engineers
    this_or = (s.round.get("set"), s.round.get("index"))
    count = used["this_or"] if tuple(used.get("or") or ()) == this_or else 0
    if count >= ENGINEERS_PER_OR:
        refuse(f"{sym} has laid {ENGINEERS_PER_OR} tiles this OR: two an OR (§14.9)")
    if used["laid"] >= ENGINEERS_TILES:
        refuse(f"{sym}'s {ENGINEERS_TILES} tokens are all placed (§14.9)")
    points = cmd.get("points") or 1
    for why in track.tile_bars(s, rs, corp, points):
        refuse(why)
    terrain = names.amount(cmd.get("cost"), "the terrain cost")
    laid = used["laid"] + 1
    ctx.emit("tile_laid", corp=corp, cost=0, terrain=terrain, fee=-terrain, hex_fee=0, private=sym,
             steps=[["terrain", None, terrain, None], [f"− {rs.money(terrain)} {sym}: no terrain fee (§14.9)", terrain, 0,
                                                       None]], points=points)
    ctx.emit("engineers_used", corp=corp, laid=laid, this_or=list(this_or), count=count + 1)
    if laid >= ENGINEERS_TILES:
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="face down")


def owes(s, corp: str) -> bool:
    return corp in s.own.owes_train


def first_or_of_game(s) -> bool:
    return s.round.get("kind") == "operating" and s.round.get("set") == 1 and s.round.get("index") == 1


def cmd_train(ctx, cmd) -> None:
    """§11.6: the reserved 2+2 first (and only as reserved); level 3 from the Major phase, never in
    the first OR; trains between railroads from the Major phase; minors and regionals pay from
    their treasuries (the president helps only with the reserved 2+2)."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "train")
    name, side = names.side(rs, cmd.get("type"))
    reserved = rules(rs, "reserved_train")
    source = (cmd.get("source") or "depot").lower()
    if s.round.get("treasury"):
        refuse(f"{corp} has bought or sold its own shares: its train step is over (§11 steps 6-7)")
    if kind_of(s, corp) == "national":
        refuse(f"{corp} is a national: nationals claim rusted trains and swap with their owner's majors instead of "
               f"buying (§11.6.6)", f"claim {corp} TYPE")
    if owes(s, corp) and name != reserved:
        refuse(f"{corp} must first buy its reserved {rs.train(reserved).sides[0].name} (§11.6.1)",
               f"train {corp} {rs.train(reserved).sides[0].name}")
    if source not in ("depot", "bank", "supply", "pool"):
        check_seller(s, rs, names.corp(rs, cmd.get("source")), name)
    if name == reserved and source not in ("depot", "bank", "supply", "pool") and major_phase(s):
        train_step.cmd_train(ctx, cmd)   # §11.6: any train changes hands between railroads in the Major phase
        return
    if name == reserved:
        if not owes(s, corp) or source not in ("depot", "bank", "supply"):
            refuse("2+2 trains are sold only as a company's reserved train, from the Locomotive Works, in its first "
                   "OR (§11.6.1, D18 #46)")
        buy_reserved(ctx, corp)
        return
    if source not in ("depot", "bank", "supply", "pool") and not major_phase(s):
        refuse("trains are bought from other railroads only in the Major railroad phase (§8.2, §8.3)")
    if name == "3" and source in ("depot", "bank", "supply", "pool"):
        if first_or_of_game(s):
            refuse("no level 3 train is bought in the first OR of the game (§8.3, §11.6)")
        if not major_phase(s):
            refuse("level 3 trains are bought only in the Major railroad phase (§8.2)")
    rusting = s.round.get("rusted_in_step", 0)
    if rusting and trains.load(s, rs, corp)[0] + rusting >= trains.limit(s, rs, corp):
        refuse(f"{corp} holds {trains.load(s, rs, corp)[0]} train(s) and {rusting} rusted this step, which leave only "
               f"at its end: it is at the limit of {trains.limit(s, rs, corp)} and buys no more now (§11.6, §11.6.3)")
    if kind_of(s, corp) == "major" and source in ("depot", "bank", "supply", "pool"):
        forced_purchase_check(s, rs, corp, name, side)
    if kind_of(s, corp) in ("minor", "regional"):
        price = rs.train(name).side(side).price if source in ("depot", "bank", "supply", "pool") else None
        if price is not None:
            price -= locomotive_discount(s, corp, price)
        cash = s.cash(company_acct(corp))
        if price is not None and cash < price:
            refuse(f"{corp} has {rs.money(cash)}, a {side or rs.train(name).sides[0].name} costs {rs.money(price)}: a "
                   f"{kind_of(s, corp)} pays from its treasury alone (§11.6)")
    train_step.cmd_train(ctx, cmd)


def check_seller(s, rs, seller: str, name: str) -> None:
    """§11.6, §11.6.6: nationals never sell trains; a rusted train is only a national's (§11.6.3);
    the Swift Metropolitan Line's 2+2 can never be sold (§14.10)."""
    if seller in s.corps and kind_of(s, seller) == "national":
        refuse(f"{seller} is a national: nationals never sell trains (§11.6, §11.6.6)")
    held = [t for t in s.corp_trains(seller) if trains.train_type(t) == name] if seller in s.corps else []
    if held and all(is_rusted(s, t) or trains.flags(s, t).get("outside_limit") for t in held):
        refuse(f"{seller}'s level {name} train is rusted or the Swift Metropolitan Line's: it is never sold "
               f"(§11.6.3, §14.10)")


def forced_purchase_check(s, rs, corp: str, name: str, side_name) -> None:
    """§11.6.4: a major without a train that cannot pay for one buys the cheapest train on offer
    (the cheaper side), its president paying the rest from his own cash; he may not sell shares.
    If he cannot, the major becomes a national (§9.4), which this program does not play yet."""
    if trains.working(s, corp):
        return
    price = rs.train(name).side(side_name).price
    price -= locomotive_discount(s, corp, price)
    cash = s.cash(company_acct(corp))
    if cash >= price:
        return
    pres = s.president(corp)
    lacking, own = price - cash, s.cash(player_acct(pres))
    if own < lacking:
        refuse(f"{corp} has {rs.money(cash)} and {pres} {rs.money(own)}, {rs.money(lacking)} short of the "
               f"{side_name or rs.train(name).sides[0].name}: the president may not sell shares; ending the turn "
               f"without a train makes {corp} a national (§11.6.4, §9.4)", f"done {corp}")


def forced_conversion(ctx, corp: str) -> None:
    """§11.6.4, §9.4 (D18 #32): the president hands all his cash to the bank and the major becomes a
    national; no train is bought, and the national may claim rusted trains at once."""
    form_national(ctx, corp, forced=True)


def cmd_no_emergency_sale(ctx, cmd) -> None:
    refuse("in 1801 a president never sells shares to pay for a train: he pays what he can and the major becomes a "
           "national if that is not enough (§11.6.4)")


def cmd_no_bankruptcy(ctx, cmd) -> None:
    refuse("1801 has no player bankruptcy: a major whose president cannot pay for its train becomes a national "
           "(§11.6.4)")


# --------------------------------------------------------------------------- port authorities (§11.3.5)

PORT_PRICE = 125   # §11.3.5: from the bank, or exactly this from another major


def cmd_port(ctx, cmd) -> None:
    """§11.3.5, §7.7: a major buys a port authority of a sea (North Sea or Mediterranean) for £125
    from the bank before its train step, or from another major in its transfer step for exactly
    £125 paid to that major (`--from CORP`). One each; it counts two fewer sea zones or ferry
    distance on that major's cross-water fees (--with port)."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "port-authority")
    if kind_of(s, corp) != "major":
        refuse(f"{corp} is a {kind_of(s, corp)}: only a major buys a port authority (§11.3.5)")
    if port_of(s, corp):
        refuse(f"{corp} holds the {port_of(s, corp)} port authority: one a major (§11.3.5)")
    if s.round.get("trains"):
        refuse(f"{corp} has bought trains this turn: a port authority comes before the train step (§11.3.5)")
    sea = port_sea(cmd.get("sea"))
    seller = names.corp(rs, cmd.get("source")) if cmd.get("source") else None
    if seller and s.round.get("revenue") is None:
        refuse(f"{corp} buys another major's port authority in its transfer-tokens step, after it runs (§11.3.5)")
    if seller:
        held = port_of(s, seller)
        if not held or not held.startswith(sea.upper()):
            refuse(f"{seller} holds no {SEAS[sea]} port authority")
        marker, pay_to = held, company_acct(seller)
    else:
        free = sorted(sym for sym, a in s.assets.items() if a.kind == "port" and a.owner is None and not a.closed
                      and sym.startswith(sea.upper()))
        if not free:
            refuse(f"no {SEAS[sea]} port authority is left")
        marker, pay_to = free[0], BANK
    if s.cash(company_acct(corp)) < PORT_PRICE:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; a port authority costs {rs.money(PORT_PRICE)}")
    ctx.emit("port_bought", corp=corp, port=marker, seller=seller or "bank", price=PORT_PRICE,
             transfers=[[company_acct(corp), pay_to, PORT_PRICE]],
             assets=[[marker, s.assets[marker].owner, company_acct(corp)]])


SEAS = {"north": "North Sea", "med": "Mediterranean"}


def port_sea(raw) -> str:
    text = str(raw or "").strip().lower()
    for key, name in SEAS.items():
        if text in (key, name.lower(), name.lower().split()[0]) or (text and name.lower().startswith(text)):
            return key
    raise RuleViolation(f"no sea {raw!r}: a port authority is of the North Sea or the Mediterranean",
                        "port-authority CORP north / port-authority CORP med")


def port_of(s, corp: str) -> str | None:
    return next((sym for sym, a in s.assets.items() if a.kind == "port" and a.owner == company_acct(corp)), None)


# --------------------------------------------------------------------------- token transfers (§11.5)

ACCESS_FEES = {"city": 20, "grand": 40, "metropolis": 60}   # §11.5 (D12.8): to the selling major


def cmd_transfer(ctx, cmd) -> None:
    """§11.5 (D12.8): the operating major takes over a token of another major of the same
    president (never a home token), using one of its own charter tokens: it pays that slot's cost
    to the bank and £20 / £40 / £60 (a city, a grand city or 'Y' red zone, a metropolis or 'M'
    red zone) to the seller, whose token returns to its dearest open slot."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "transfer")
    seller = names.corp(rs, cmd.get("seller"))
    where = str(cmd.get("kind") or "city").lower()
    if where not in ACCESS_FEES:
        refuse(f"a token's place is a city, grand or metropolis, not {where!r}")
    for c in (corp, seller):
        if kind_of(s, c) != "major":
            refuse(f"{c} is a {kind_of(s, c)}: tokens pass between majors (§11.5)")
    if corp == seller or s.president(corp) != s.president(seller):
        refuse(f"{corp} and {seller} must be different majors of the same president (§11.5)")
    if s.round.get("revenue") is None:
        refuse(f"{corp} transfers tokens after its run (§11 step 5)")
    if s.round.get("trains"):
        refuse(f"{corp} has bought trains: tokens are transferred before the train step (§11 step 5)")
    city = cmd.get("city")
    stations = [st for st in s.corps[seller].stations if not st.home]
    if city is not None:
        stations = [st for st in stations if st.city and st.city.lower() == str(city).lower()]
    if not stations:
        refuse(f"{seller} has no token {'in ' + str(city) + ' ' if city else ''}that may be transferred (never a "
               f"home token, §11.5)")
    token = stations[-1]
    slot = track.station_slot(s, rs, corp, cmd.get("slot"))
    cost = rs.corporation(corp).tokens[slot - 1]
    fee = ACCESS_FEES[where]
    if s.cash(company_acct(corp)) < cost + fee:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; the token costs its slot {rs.money(cost)} and "
               f"{rs.money(fee)} to {seller}")
    back = dearest_open_slot(s, rs, seller, token)
    transfers = [t for t in ([company_acct(corp), BANK, cost], [company_acct(corp), company_acct(seller), fee]) if t[2]]
    ctx.emit("token_transferred", corp=corp, seller=seller, city=token.city, slot=slot, cost=cost, fee=fee,
             back_to=back, transfers=transfers)


def dearest_open_slot(s, rs, corp: str, leaving) -> int:
    """The returned token's slot: the most expensive open one on the seller's charter (§11.5), an
    open slot being one whose token is on the map (never the home one's)."""
    prices = rs.corporation(corp).tokens
    open_ = [st.slot for st in s.corps[corp].stations if not st.home and st.slot]
    return max(open_, key=lambda n: (prices[n - 1], n))


def locomotive_discount(s, corp: str, price: int) -> int:
    """§15.9: Minor J takes 10 % off every train it buys from the Locomotive Works or the Open
    Market, the price rounded down (D18 #28); not off a price agreed with another railroad."""
    return price - price * 9 // 10 if uses(s, corp, DISCOUNT_TRAINS) else 0


def train_discount(ctx, corp: str, name: str, seller: str, cmd) -> int:
    """Minor J's discount on a purchase from the Locomotive Works or the Open Market (§15.9); with
    the option j_discount_on_deals also off a price agreed with another railroad (D18 #28)."""
    s, rs = ctx.state, ctx.rs
    if seller not in (BANK, POOL):
        agreed = cmd.get("price")
        if rules(rs, "j_discount_on_deals") and agreed not in (None, ""):
            return locomotive_discount(s, corp, names.amount(agreed, "price"))
        return 0
    side_name = names.side(rs, cmd.get("type"))[1]
    return locomotive_discount(s, corp, rs.train(name).side(side_name).price)


def supply_fallback(ctx, corp: str, name: str, side):
    """§11.6: the Locomotive Works sells the next level once every lower one is sold (the 2+2s are
    all reserved and never on offer), and level 8 once the fourth level 7 has been bought (§5.2)."""
    s, rs = ctx.state, ctx.rs
    reserved = rules(rs, "reserved_train")
    early = EARLY_LEVELS.get(name)
    if early and trains.sold_count(s, early[0]) >= early[1] and trains.depot_left(s, name):
        return trains.next_depot_train(s, rs, name), BANK, side, False
    for t in rs.trains:
        if t.name == name:
            break
        if t.name != reserved and trains.depot_left(s, t.name):
            return None
    if not trains.depot_left(s, name):
        return None
    return trains.next_depot_train(s, rs, name), BANK, side, False


def buy_reserved(ctx, corp: str) -> None:
    """§11.6.1, §11.6.5: the reserved 2+2; short of cash the president pays the difference; if he
    cannot, this OR's token and then its paid tiles are refunded; failing that, insolvency."""
    s, rs = ctx.state, ctx.rs
    revenue.ensure_ran(ctx, corp, "train")
    reserved = rules(rs, "reserved_train")
    side = rs.train(reserved).sides[0]
    train_id = trains.next_depot_train(s, rs, reserved)
    price = side.price - locomotive_discount(s, corp, side.price)
    pres = s.president(corp)
    if kind_of(s, corp) == "major" and s.cash(company_acct(corp)) + s.cash(player_acct(pres)) < price:
        # §11.6.1: a major short of its reserved 2+2 follows the forced purchase (§11.6.4): it becomes a national
        ctx.emit("train_owed", corp=corp, owes=[c for c in s.own.owes_train if c != corp])
        forced_conversion(ctx, corp)
        return
    if s.cash(company_acct(corp)) + s.cash(player_acct(pres)) < price:
        refund_spending(ctx, corp, price)
    cash, own = s.cash(company_acct(corp)), s.cash(player_acct(pres))
    owed = [c for c in s.own.owes_train if c != corp]
    if cash + own < price:
        insolvency(ctx, corp, train_id, price, owed)
        return
    ctx.emit("train_owed", corp=corp, owes=owed)
    train_step.buy_train(ctx, corp, train_id, BANK, price, max(0, price - cash), None, side.name)


def refund_spending(ctx, corp: str, price: int) -> None:
    """§11.6.5: to prevent an insolvency, the token placed this OR comes back with its cost, then
    each tile laid this OR that cost money, the latest first, until the 2+2 can be paid."""
    s = ctx.state
    pres = s.president(corp)

    def short() -> bool:
        return s.cash(company_acct(corp)) + s.cash(player_acct(pres)) < price

    c = s.corps[corp]
    if short() and s.round.get("token") and not c.stations[-1].home:
        st = c.stations[-1]
        ctx.emit("token_refunded", corp=corp, city=st.city, cost=st.cost,
                 transfers=[[BANK, company_acct(corp), st.cost]] if st.cost else [])
    for hex_name, cost in reversed(s.round.get("paid_tiles", [])):
        if not short():
            break
        ctx.emit("tile_refunded", corp=corp, hex=hex_name, cost=cost, transfers=[[BANK, company_acct(corp), cost]])


def insolvency(ctx, corp: str, train_id: str, price: int, owed: list) -> None:
    """§11.6.5 (D12.14, D18 #31): the president's cash goes into the treasury, the treasury pays
    what it has for the 2+2, the shortfall D stays owed; the charter or 50 % goes to the Open
    Market and the bank pays the ex-president its face (£120, or 2 x par)."""
    s, rs = ctx.state, ctx.rs
    pres = s.president(corp)
    own, cash = s.cash(player_acct(pres)), s.cash(company_acct(corp))
    debt = price - cash - own
    face = rules(rs, "minor_face") if is_minor(s, corp) else 2 * s.corps[corp].par
    transfers = [t for t in ([player_acct(pres), company_acct(corp), own], [company_acct(corp), BANK, cash + own],
                             [BANK, player_acct(pres), face]) if t[2]]
    ctx.emit("insolvent", corp=corp, president=pres, debt=debt, face=face, train=train_id,
             insolvent={**s.own.insolvent, corp: debt}, owes=owed, transfers=transfers,
             trains=[[train_id, DEPOT, company_acct(corp)]], certs=[[s.presidents[corp], player_acct(pres), POOL]])
    from ledger.core.rounds import operating
    ctx.emit("corp_turn_ended", corp=corp)
    ctx.reg.call("corp_turn_ended", ctx, corp)
    operating.next_corp(ctx)


def train_type_of(train_id: str) -> str:
    return train_id.split(".")[0]


def cmd_done(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "done")
    if owes(s, corp):
        refuse(f"{corp} must buy its reserved {rs.train(rules(rs, 'reserved_train')).sides[0].name} in its first OR "
               f"(§11.6.1)", f"train {corp} {rs.train(rules(rs, 'reserved_train')).sides[0].name}")
    from ledger.core.rounds import operating
    if s.pending:
        return   # a discard the window's close left is owed first
    if repeat_or(s):   # §13: no train is bought in the last OR, so none is owed
        revenue.ensure_ran(ctx, corp, "done")
        ctx.emit("corp_turn_ended", corp=corp)
        ctx.reg.call("corp_turn_ended", ctx, corp)
        operating.next_corp(ctx)
        return
    if kind_of(s, corp) == "major" and not repeat_or(s) and not trains.working(s, corp) \
            and operating.shortfall(s, rs, corp) > 0:
        forced_conversion(ctx, corp)
        if any(h == RUSTED for h in s.trains.values()) and not rules(rs, "no_claim_after_forced"):
            return   # D18 #32: the new national may claim rusted trains before its turn ends
    operating.cmd_done(ctx, cmd)


def cmd_no_private_sale(ctx, cmd) -> None:
    refuse("railroads never buy privates in 1801; players trade them with trade PLAYER PRIVATE PRICE (§7.1, §10.4)")


def phase_began(ctx, phase: str) -> None:
    """§11.6.1: once level 2 has rusted, no reserved 2+2 is owed any more. §11.6.3: the buyer's
    rusted trains leave at the end of its buy step, so until then they still count toward its limit
    (the rest of play sees them gone at once)."""
    s, rs = ctx.state, ctx.rs
    if phase == rs.train(rules(rs, "reserved_train")).rusts_on and s.own.owes_train:
        ctx.emit("train_owed", corp="", owes=[])
    corp = s.round.get("corp") if s.round.get("kind") == "operating" else None
    if phase == "5" and corp and s.privates[FERRY_TOKEN].owner and not s.privates[FERRY_TOKEN].closed:
        ctx.emit("ferry_window", window=[s.round.get("set"), s.round.get("index"), s.round.get("pos")])
    change = next((e for e in reversed(ctx.events) if e["kind"] == "phase_changed"), None)
    if corp and change:
        rusted = sum(1 for _t, holder, _to in change.get("trains") or () if holder == company_acct(corp))
        if rusted:
            ctx.emit("rusted_in_step", corp=corp, count=s.round.get("rusted_in_step", 0) + rusted)


# =========================================================================== nationals (§9.4, §11.6.6, §11.3.10)

def conversion_window(s) -> dict | None:
    return s.round.get("conversion") if s.round.get("kind") == "operating" else None


def open_conversion_window(ctx, phase: str) -> None:
    """§9.4: as the first train of Train Phase 4, 6 or 8 is bought, each player in turn from the
    buyer may convert majors into nationals. The trains rusting now are noted: a major converted in
    this window keeps them (E28)."""
    s, rs = ctx.state, ctx.rs
    corp = s.round.get("corp")
    if phase not in rules(rs, "conversion_phases") or not corp:
        return
    buyer = s.president(corp)
    if buyer not in s.players:
        return
    at = s.players.index(buyer)
    change = next((e for e in reversed(ctx.events) if e["kind"] == "phase_changed"), None)
    rusting = [[t, holder] for t, holder, _to in (change.get("trains") or ())] if change else []
    ctx.emit("conversion_window", window={"phase": phase, "order": s.players[at:] + s.players[:at], "next": 0,
                                          "rusting": rusting, "opened": True})


# the buying company's steps after a purchase (§9.4): any of them closes the conversion window
CLOSES_WINDOW = ("train", "done", "claim", "flip", "pullman", "issue", "redeem", "buy-minor")


def close_conversion_window(ctx) -> None:
    """The window is the moment of the purchase: the buying company's next step closes it."""
    if conversion_window(ctx.state):
        ctx.emit("conversion_window", window=None)
        train_step.check_limits(ctx)


def window_closes(ctx, cmd) -> None:
    """Before every verb: the buying company's next step closes the conversion window (§9.4)."""
    if cmd.verb in CLOSES_WINDOW and cmd.get("corp") == ctx.state.round.get("corp"):
        close_conversion_window(ctx)


def cmd_convert(ctx, cmd) -> None:
    """§9.4: `convert PLAYER MAJOR` in the window the first train of Phase 4, 6 or 8 opens."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    window = conversion_window(s)
    if not window:
        refuse("majors become nationals only as the first train of Train Phase 4, 6 or 8 is bought (§9.4), or "
               "when a president cannot pay for a forced train (§11.6.4)")
    if kind_of(s, corp) != "major":
        refuse(f"{corp} is a {kind_of(s, corp)}: only a major becomes a national (§9.4)")
    if s.president(corp) != player:
        refuse(f"{corp}'s president is {s.president(corp)}, not {player} (§9.4)")
    order = window["order"]
    if order.index(player) < window["next"]:
        refuse(f"conversions go in player order from {order[0]}; {order[window['next']]} has converted already, so "
               f"{player}'s turn in this window is over (§9.4)")
    form_national(ctx, corp, forced=False, keep=[t for t, holder in window["rusting"]
                                                 if holder == company_acct(corp) and s.trains.get(t) == RUSTED])
    ctx.emit("conversion_window", window={**window, "next": order.index(player), "opened": False})


def form_national(ctx, corp: str, forced: bool, keep=()) -> None:
    """§9.4 (D10.5): the major's cash to the bank, its treasury shares and its Pullman to the Open
    Market (the 50 % cap aside, no price move), its tokens off the map, its merged minors
    abandoned, its track rights, port authority and markers out of play; it keeps every train (the
    ones rusting at this moment too, `keep`) and its share value. Forced (§11.6.4): its president
    also hands all his cash to the bank."""
    s, rs = ctx.state, ctx.rs
    pres = s.president(corp)
    own = s.cash(player_acct(pres)) if forced else 0
    cash = s.cash(company_acct(corp))
    unsold = shares.unsold_acct(s, rs, corp)
    certs = [[c, unsold, POOL] for c in s.certs_of(unsold, corp)]
    # §9.5 steps 5-6: an absorbed minor's chit and Minor M's own Pullman stay with its charter
    home = {sym: company_acct(minor) for minor, sym in s.own.minor_chits.items()
            if s.own.absorbed.get(minor) == corp}
    if s.own.absorbed.get(PULLMAN_CORP) == corp and s.own.m_pullman:
        home[s.own.m_pullman] = company_acct(PULLMAN_CORP)
    gone = [[sym, company_acct(corp), home.get(sym)] for sym, a in s.assets.items()
            if a.kind in ("chit", "port") and a.owner == company_acct(corp)]
    pullman = [[sym, company_acct(corp), home.get(sym, POOL)] for sym in pullmans_of(s, corp)]
    back = [[t, RUSTED, company_acct(corp)] for t in keep]
    # D18 #35: the SML's 2+2 becomes an ordinary rusted train of the national; its others rust as they go
    held = [t for t in s.corp_trains(corp) if trains.flags(s, t).get("outside_limit")]
    flags = {t: {"rusted": True} for t in keep} | {t: {"outside_limit": None, "rusted": True} for t in held}
    transfers = [t for t in ([player_acct(pres), BANK, own], [company_acct(corp), BANK, cash]) if t[2]]
    ctx.emit("company_converted", **shares.conversion(s, rs, corp, "national"))
    ctx.emit("national_formed", corp=corp, president=pres, president_cash=own, cash=cash, forced=forced,
             transfers=transfers, certs=certs, assets=gone + pullman, trains=back, flags=flags,
             kept=list(keep))
    for minor, major in s.own.absorbed.items():
        if major == corp:
            abandon(ctx, minor, f"its major {corp} became a national (§9.5)")


def rusting(s, rs, name: str, protecting=()):
    """§11.6.3, §11.6.6: the trains of the level that rusts leave play, except a national's, which
    it keeps."""
    moves, obsolete = trains.rust_all(s, rs, name, protecting)
    return [m for m in moves if not is_national_acct(s, m[1])], obsolete


def is_national_acct(s, acct: str) -> bool:
    sym = acct_name(acct) if acct.startswith("company:") else None
    return bool(sym) and sym in s.corps and kind_of(s, sym) == "national"


def nationals_keep_rusted(ctx, phase: str) -> None:
    s, rs = ctx.state, ctx.rs
    types = {t.name for t in rs.trains if t.rusts_on == phase}
    kept = [t for t, holder in s.trains.items() if trains.train_type(t) in types and is_national_acct(s, holder)
            and not trains.flags(s, t).get("rusted")]
    if kept:
        ctx.emit("nationals_keep_rusted", trains_kept=kept, flags={t: {"rusted": True} for t in kept})


def is_rusted(s, train_id: str) -> bool:
    return bool(trains.flags(s, train_id).get("rusted")) or s.trains.get(train_id) == RUSTED


def level(train_id: str) -> int:
    return int(trains.train_type(train_id))


def cmd_claim(ctx, cmd) -> None:
    """§11.6.6, in the national's train step (after its run): claim an unclaimed rusted train free
    (up to its limit), swap a rusted train for a higher unclaimed rusted one (`--for`), or swap a
    rusted train for an un-rusted train of a major with the same president (`--for OLD --from
    MAJOR`), the bank paying that major half the train's face value, rounded down. With `--using SML`
    any railroad its owner controls takes a rusted 2+2 that runs for good (§14.10)."""
    s, rs = ctx.state, ctx.rs
    if cmd.get("using"):
        preserve_2plus2(ctx, cmd)
        return
    corp = operating_corp(ctx, cmd.get("corp"), "claim")
    if kind_of(s, corp) != "national":
        refuse(f"{corp} is a {kind_of(s, corp)}: only a national claims rusted trains (§11.6.6); it buys with train")
    national_ran(ctx, corp, "claim")
    name, side = names.side(rs, cmd.get("type"))
    old = None
    if cmd.get("swap"):
        old_name = names.side(rs, cmd.get("swap"))[0]
        old = next((t for t in s.corp_trains(corp) if trains.train_type(t) == old_name and is_rusted(s, t)), None)
        if old is None:
            refuse(f"{corp} holds no rusted level {old_name} train to give back (§11.6.6)")
    if cmd.get("source"):
        upgrade_from_major(ctx, corp, name, old, names.corp(rs, cmd.get("source")))
        return
    box = sorted((t for t, h in s.trains.items() if h == RUSTED and trains.train_type(t) == name), key=train_order)
    if not box:
        have = sorted({trains.train_type(t) for t, h in s.trains.items() if h == RUSTED})
        refuse(f"no unclaimed rusted level {name} train is in the Locomotive Works (there: "
               f"{', '.join(have) or 'none'}) (§11.6.6)")
    if old is None:
        if trains.load(s, rs, corp)[0] >= trains.limit(s, rs, corp):
            refuse(f"{corp} holds {trains.load(s, rs, corp)[0]} trains, its limit of {trains.limit(s, rs, corp)}: it may "
                   f"only swap a rusted train for a higher one (claim {corp} TYPE --for OLD) (§11.6.6)")
        moves = [[box[0], RUSTED, company_acct(corp)]]
    else:
        if level(box[0]) <= level(old):
            refuse(f"a rusted level {level(old)} train is swapped only for a higher level (§11.6.6)")
        moves = [[box[0], RUSTED, company_acct(corp)], [old, company_acct(corp), RUSTED]]
    # the side the national takes it on, as typed; a level alone (`claim N 3`) the local side, which it
    # may always flip to for free (§11.6.6)
    typed = str(cmd.get("type")).strip()
    chosen = side if side and side != rs.train(name).sides[0].name and not typed.isdigit() else None
    ctx.emit("train_claimed", corp=corp, train=box[0], gave=old, source=None, trains=moves,
             flags={box[0]: {"rusted": True, "side": chosen}, **({old: {"rusted": None, "side": None}} if old else {})})
    ctx.reg.call("train_bought", ctx, corp, name)


def cmd_flip(ctx, cmd) -> None:
    """§11.6.6: in its train step a national turns a rusted train from its express side to its local
    side, free."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "flip")
    if kind_of(s, corp) != "national":
        refuse(f"{corp} is a {kind_of(s, corp)}: only a national flips its rusted trains (§11.6.6)")
    national_ran(ctx, corp, "flip")
    name, side = names.side(rs, cmd.get("type"))
    local = rs.train(name).sides[0].name
    train = next((t for t in s.corp_trains(corp) if trains.train_type(t) == name and is_rusted(s, t)
                  and trains.side_name(s, rs, t) != local), None)
    if train is None:
        refuse(f"{corp} holds no rusted level {name} train on its express side to flip to {local} (§11.6.6)")
    ctx.emit("national_train_flipped", corp=corp, train=train, side=local, flags={train: {"side": None}})


def national_ran(ctx, corp: str, verb: str) -> None:
    """A national runs (by capacity) before its train step; one without trains runs nothing."""
    s = ctx.state
    if s.round["revenue"] is None and s.corp_trains(corp):
        refuse(f"{corp} runs before its train step ('{verb}'): its revenue by capacity (§11.3.10, §11.6.6)",
               f"run {corp} --cities 80,60 --towns 20 --unlinked-cities 0 --unlinked-towns 0")
    revenue.ensure_ran(ctx, corp, verb)


def train_order(t: str):
    kind, _, n = t.partition(".")
    return (kind, int(n) if n.isdigit() else 0)


def upgrade_from_major(ctx, corp: str, name: str, old: str | None, major: str) -> None:
    s, rs = ctx.state, ctx.rs
    if old is None:
        refuse(f"{corp} gives a rusted train back for each train it takes from a major: claim {corp} {name} --for OLD "
               f"--from {major} (§11.6.6)")
    if kind_of(s, major) != "major" or s.president(major) != s.president(corp):
        refuse(f"{corp} takes trains only from majors its president {s.president(corp)} owns; {major} is "
               f"{s.president(major) or 'nobody'}'s {kind_of(s, major)} (§11.6.6)")
    train = next((t for t in s.corp_trains(major) if trains.train_type(t) == name and not is_rusted(s, t)
                  and not trains.flags(s, t).get("outside_limit")), None)
    if train is None:
        refuse(f"{major} holds no un-rusted level {name} train ({', '.join(trains.side_name(s, rs, t) for t in s.corp_trains(major)) or 'no trains'}) (§11.6.6)")
    paid = trains.side(s, rs, train).price // 2
    ctx.emit("train_claimed", corp=corp, train=train, gave=old, source=major, paid=paid,
             trains=[[train, company_acct(major), company_acct(corp)], [old, company_acct(corp), RUSTED]],
             flags={old: {"rusted": None, "side": None}}, transfers=[[BANK, company_acct(major), paid]])
    ctx.reg.call("train_bought", ctx, corp, name)


def preserve_2plus2(ctx, cmd) -> None:
    """§14.10: from Train Phase 4 the Swift Metropolitan Line's owner gives a railroad he controls an
    unclaimed rusted 2+2 that works for good: outside its limit, never sold, not a train it must own
    (§11.6); the certificate is then out of play (D18 #38)."""
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, cmd.get("corp"))
    sym = names.private(rs, cmd.get("using"))
    if sym != PERMANENT_TRAIN:
        refuse(f"only the Swift Metropolitan Line ({PERMANENT_TRAIN}) gives a railroad a rusted train (§14.10)")
    owner = s.privates[sym].owner
    pres = s.president(corp)
    if s.privates[sym].closed or owner != player_acct(pres or ""):
        refuse(f"{corp}'s president {pres} does not hold the Swift Metropolitan Line face up (§14.10)")
    if int(s.phase) < int(rules(rs, "pullman_phase")):
        refuse(f"the Swift Metropolitan Line is used from Train Phase {rules(rs, 'pullman_phase')} (§14.10); it is "
               f"Phase {s.phase}")
    if kind_of(s, corp) == "national":
        refuse(f"{corp} is a national: the Swift Metropolitan Line serves a minor, regional or major (§14.10)")
    reserved = rules(rs, "reserved_train")
    box = sorted((t for t, h in s.trains.items() if h == RUSTED and trains.train_type(t) == reserved), key=train_order)
    if not box:
        refuse("no unclaimed rusted 2+2 is in the Locomotive Works (§14.10)")
    ctx.emit("permanent_train", corp=corp, player=pres, private=sym, train=box[0],
             trains=[[box[0], RUSTED, company_acct(corp)]], flags={box[0]: {"outside_limit": True}},
             assets=[[sym, owner, None]])


PERMANENT_TRAIN = "SML"   # §14.10


# --------------------------------------------------------------------------- national revenue (§11.3.10)

def train_capacity(s, rs, train_id: str) -> tuple[int, int, int]:
    """(cities, doubled cities, towns) a train adds to a national's capacity (D12.6): N+N gives N
    cities and N towns, an express N gives N cities, a D train its cities, doubled."""
    side = trains.side(s, rs, train_id)
    if "+" in side.name:
        cities, towns = (int(x) for x in side.name.split("+"))
        return cities, 0, towns
    if side.multiplier and side.multiplier > 1:
        return side.stops, side.stops, 0
    return side.stops, 0, 0


def amounts(raw, what: str) -> list[int]:
    if raw in (None, ""):
        return []
    try:
        out = [int(x) for x in str(raw).replace(" ", "").split(",") if x]
    except ValueError:
        raise RuleViolation(f"{what} are amounts separated by commas (80,60,60), not '{raw}'") from None
    if any(x < 0 for x in out):
        refuse(f"{what} are never negative: '{raw}'")
    return out


def national_revenue(s, rs, corp: str, cities: list[int], towns: list[int], unlinked_cities: int,
                     unlinked_towns: int) -> dict:
    """§11.3.10 (D12.6, E19): the linked home-zone cities best first up to the city capacity, the
    best of them doubled up to the D trains' cities; the linked towns best first up to the town
    capacity; what capacity is left, less the zone's unlinked cities and towns, at £60 a city and
    £10 a town; and the built-in Pullman on the highest train."""
    caps = [train_capacity(s, rs, t) for t in s.corp_trains(corp)]
    cap_city, cap_double, cap_town = (sum(c[i] for c in caps) for i in range(3))
    taken = sorted(cities, reverse=True)[:cap_city]
    doubled = sum(taken[:cap_double])
    towns_taken = sorted(towns, reverse=True)[:cap_town]
    left_city = max(0, cap_city - len(taken) - unlinked_cities)
    left_town = max(0, cap_town - len(towns_taken) - unlinked_towns)
    bonus = rules(rs, "national_leftover")
    pullman = max((pullman_value(s, rs, t) for t in s.corp_trains(corp)), default=0)
    total = sum(taken) + doubled + sum(towns_taken) + bonus["city"] * left_city + bonus["town"] * left_town + pullman
    return {"cities": sum(taken) + doubled, "towns": sum(towns_taken), "left_cities": left_city,
            "left_towns": left_town, "pullman": pullman, "revenue": total,
            "capacity": [cap_city, cap_double, cap_town]}


def cmd_run(ctx, cmd) -> None:
    """`run NAT --cities ... --towns ... --unlinked-cities N --unlinked-towns M`: a national's
    revenue by capacity, paid out in full (§11.3.10, §11.4)."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "run")
    if kind_of(s, corp) != "national":
        refuse(f"{corp} is a {kind_of(s, corp)}: it announces its revenue with pay, half or withhold; run computes a "
               f"national's (§11.3.10)", f"pay {corp} REVENUE")
    if s.round["revenue"] is not None:
        refuse(f"{corp} has already run this turn ({rs.money(s.round['revenue'])})")
    got = national_revenue(s, rs, corp, amounts(cmd.get("cities"), "cities"), amounts(cmd.get("towns"), "towns"),
                           int(cmd.get("unlinked_cities") or 0), int(cmd.get("unlinked_towns") or 0))
    if not s.corp_trains(corp):
        got["revenue"] = 0
    check_repeat(s, rs, corp, got["revenue"], "pay")
    ctx.emit("national_revenue", corp=corp, **got)
    if got["revenue"]:
        revenue.pay_out(ctx, corp, got["revenue"], "pay")
    else:
        revenue.withhold(ctx, corp, 0)
    record_final_run(ctx, corp, got["revenue"], "pay")


# --------------------------------------------------------------------------- Pullmans (§11.6.2, §15.12)

def pullmans_of(s, corp: str) -> list[str]:
    return sorted(sym for sym, a in s.assets.items() if a.kind == "pullman" and a.owner == company_acct(corp))


def pullman_value(s, rs, train_id: str) -> int:
    """£10 a level of the train it rides (§11.3.9); the rulebook's example gives a 4D £80 (D0.1
    #6), the option pullman_by_level £70."""
    side = trains.side(s, rs, train_id).name
    return rules(rs, "pullman_side_bonus").get(side, rules(rs, "pullman_per_level") * level(train_id))


def pullmans_on_sale(s) -> bool:
    return int(s.phase) >= 4


def cmd_pullman(ctx, cmd) -> None:
    """§11.6.2: in its buy-trains step a railroad buys a Pullman from Minor M's stock (£150 to the
    bank, £15 royalty to M or its major; Minor J's 10 % off), from the Open Market (£150, no
    royalty) or from another railroad (exactly £75 to it); one each; `--discard` puts its own in
    the Open Market, with no refund, before it buys trains."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "pullman")
    if kind_of(s, corp) == "national":
        refuse(f"{corp} is a national: its Pullman is printed on its charter (§11.6.2)")
    if s.round.get("treasury"):
        refuse(f"{corp} has bought or sold its own shares: its train step is over (§11 steps 6-7)")
    own = pullmans_of(s, corp)
    if cmd.get("discard"):
        if s.round["revenue"] is None and trains.counted(s, corp):
            refuse(f"{corp} runs first: a Pullman is discarded in the buy-trains step (§11.6.2)", f"pay {corp} REVENUE")
        if not own:
            refuse(f"{corp} has no Pullman to discard")
        if s.round.get("trains"):
            refuse(f"{corp} has bought trains this turn: a Pullman is discarded before buying (§11.6.2)")
        ctx.emit("pullman_discarded", corp=corp, pullman=own[0], assets=[[own[0], company_acct(corp), POOL]])
        return
    revenue.ensure_ran(ctx, corp, "pullman")
    if not pullmans_on_sale(s):
        refuse(f"Pullmans are on sale from Train Phase 4 (§11.6.2); it is Phase {s.phase}")
    if own:
        refuse(f"{corp} already has a Pullman ({own[0]}): one per railroad; discard it first with "
               f"pullman {corp} --discard (§11.6.2)")
    source = (cmd.get("source") or "").lower()
    price, royalty = rules(rs, "pullman_price"), rules(rs, "pullman_royalty")
    if source in ("pool", "om", "open-market"):
        stock = sorted(sym for sym, a in s.assets.items() if a.kind == "pullman" and a.owner == POOL)
        if not stock:
            refuse("no Pullman is in the Open Market (§11.6.2)")
        sym, seller, pay_to, royalty = stock[0], POOL, BANK, 0
        price -= locomotive_discount(s, corp, price)
    elif source:
        other = names.corp(rs, cmd.get("source"))
        theirs = pullmans_of(s, other)
        if not theirs:
            refuse(f"{other} has no Pullman to sell (§11.6.2)")
        if kind_of(s, other) == "national":
            refuse(f"{other} is a national: nationals never sell (§11.6)")
        sym, seller, pay_to, royalty = theirs[0], company_acct(other), company_acct(other), 0
        price = rules(rs, "pullman_transfer")
    else:
        stock = sorted((sym for sym, a in s.assets.items() if a.kind == "pullman" and a.owner is None and not a.closed),
                       key=lambda x: int(x.lstrip("PM") or 0))
        if not stock:
            refuse("Minor M has no Pullman left to sell (§15.12)")
        sym, seller, pay_to = stock[0], None, BANK
        price -= locomotive_discount(s, corp, price)
    cash = s.cash(company_acct(corp))
    if cash < price:
        refuse(f"{corp} has {rs.money(cash)}, a Pullman costs it {rs.money(price)}: only treasury cash pays (§11.6)")
    m_user = ability_user(s, PULLMAN_CORP)
    transfers = [[company_acct(corp), pay_to, price]]
    if royalty and m_user:
        transfers.append([BANK, company_acct(m_user), royalty])
    else:
        royalty = 0
    ctx.emit("pullman_bought", corp=corp, pullman=sym, price=price, royalty=royalty, royalty_to=m_user if royalty else None,
             source=acct_name(seller) if seller and seller.startswith("company:") else ("Open Market" if seller else "Minor M"),
             assets=[[sym, seller, company_acct(corp)]], transfers=transfers)


PULLMAN_CORP = "M"   # §15.12


def free_pullman(ctx, phase: str) -> None:
    """§11.6.2: as Train Phase 4 begins Minor M (or the major that took it) receives a Pullman free,
    with no royalty."""
    s, rs = ctx.state, ctx.rs
    if phase != rules(rs, "pullman_phase"):
        return
    user = ability_user(s, PULLMAN_CORP)
    stock = sorted((sym for sym, a in s.assets.items() if a.kind == "pullman" and a.owner is None and not a.closed),
                   key=lambda x: int(x.lstrip("PM") or 0))
    if user and stock and not pullmans_of(s, user):
        ctx.emit("pullman_granted", corp=user, pullman=stock[0], assets=[[stock[0], None, company_acct(user)]])


def pullman_bonus(s, rs, corp: str, raw) -> int:
    """The Pullman the president attaches to one of the company's trains (§11.3.9)."""
    if not pullmans_of(s, corp):
        refuse(f"{corp} has no Pullman (§11.6.2)")
    name, side = names.side(rs, raw)
    train = next((t for t in s.corp_trains(corp) if trains.train_type(t) == name and not is_rusted(s, t)
                  and (side is None or trains.side_name(s, rs, t) == side)), None)
    if train is None:
        refuse(f"{corp} runs no {side or 'level ' + name} train for the Pullman to ride (its trains: "
               f"{', '.join(trains.side_name(s, rs, t) for t in s.corp_trains(corp)) or 'none'}) (§11.3.9)")
    return pullman_value(s, rs, train)


# --------------------------------------------------------------------------- the run (§11.3, §11.4, §12)

def cmd_pay(ctx, cmd) -> None:
    run_1801(ctx, cmd, "pay")


def cmd_half(ctx, cmd) -> None:
    run_1801(ctx, cmd, "half")


def cmd_withhold(ctx, cmd) -> None:
    run_1801(ctx, cmd, "withhold")


def run_1801(ctx, cmd, how: str) -> None:
    """The announced revenue, with the Pullman (`--pullman TRAIN`) and the Orient Express extra
    (`--oe N`: N of the pounds are the OE train's) added by the bank; the first OE run asks for the
    bonus (§12). A national's revenue is computed by `run`."""
    from dataclasses import replace
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), how)
    base = names.amount(cmd.get("revenue"), "revenue")
    if kind_of(s, corp) == "national" and (base or s.corp_trains(corp)) and not repeat_as_before(s, corp):
        refuse(f"{corp} is a national: its revenue is computed from its capacity (§11.3.10)",
               f"run {corp} --cities 80,60 --towns 20 --unlinked-cities 0 --unlinked-towns 0")
    bonus = pullman_bonus(s, rs, corp, cmd.get("pullman")) if cmd.get("pullman") else 0
    oe = orient_express(s, rs, corp, cmd, base, bonus)
    total = base + bonus + (oe["extra"] if oe else 0)
    check_repeat(s, rs, corp, total, how)
    revenue.run(ctx, replace(cmd, args={**cmd.args, "revenue": total}), how)
    if bonus or oe:
        ctx.emit("run_extras", corp=corp, announced=base, pullman=bonus, oe=oe["extra"] if oe else 0)
    record_final_run(ctx, corp, total, how)
    if oe and corp not in s.own.oe_markers and not repeat_or(s):
        ctx.emit("oe_marker", corp=corp)
        decisions.ask(ctx, s.president(corp), f"{corp}'s first Orient Express run: the bank pays its treasury "
                      f"{rs.money(oe['total'])}, or its share value moves right three times (§12)?",
                      ["cash", "market"], "oe_bonus", corp=corp, amount=oe["total"], before=oe["cell"],
                      paid=ctx_paid(ctx, corp))


def orient_express(s, rs, corp: str, cmd, base: int, bonus: int) -> dict | None:
    """§12: a major's Orient Express run adds £30 / £60 / £100 by phase, once an OR, not doubled."""
    if cmd.get("oe") in (None, ""):
        if cmd.get("pullman_on_oe"):
            refuse("--pullman-on-oe names the Orient Express train's Pullman: give --oe N too")
        return None
    part = names.amount(cmd.get("oe"), "the Orient Express train's revenue")
    if kind_of(s, corp) != "major":
        refuse(f"{corp} is a {kind_of(s, corp)}: only majors run the Orient Express (§12)")
    if part > base:
        refuse(f"the Orient Express train's {rs.money(part)} is part of the {rs.money(base)} announced (§12)")
    extra = rules(rs, "oe_extra")[s.phase]
    ride = bonus if cmd.get("pullman_on_oe") else 0
    cash = part + extra + ride if rules(rs, "oe_cash") == "train_total" else part
    return {"extra": extra, "total": cash, "cell": list(s.corps[corp].cell) if s.corps[corp].cell else None}


def oe_bonus(ctx, due: dict, option: str) -> None:
    """§12: the first-time bonus, after the payout: the OE train's whole revenue into the treasury,
    or three moves right after the dividend's move (D18 #22, #24)."""
    s, rs = ctx.state, ctx.rs
    corp, amount = due["data"]["corp"], due["data"]["amount"]
    if option == "cash":
        ctx.emit("oe_bonus", corp=corp, option=option, amount=amount, transfers=[[BANK, company_acct(corp), amount]])
        return
    c = s.corps[corp]
    market = market_module()
    if rules(rs, "oe_moves_first") and due["data"].get("before"):
        # the option: the three moves first, then the dividend's move from there, judged on the same payout
        start = market.move(rs, tuple(due["data"]["before"]), "right", rules(rs, "oe_moves"))
        paid = due["data"].get("paid") or {}
        to = market.after_run(rs, start, paid.get("how", "pay"), distributed=paid.get("distributed", 0),
                              price=paid.get("price", 0), has_trains=True, revenue=paid.get("revenue", 0))
    else:
        to = market.move(rs, c.cell, "right", rules(rs, "oe_moves"))
    ctx.emit("oe_bonus", corp=corp, option=option, amount=0, moves=[[corp, list(c.cell), list(to)]])


def ctx_paid(ctx, corp: str) -> dict:
    """What the run's dividend move was judged on (for the option oe_moves_first, D18 #22)."""
    run = next(e for e in reversed(ctx.events) if e["kind"] == "revenue" and e["corp"] == corp)
    rs = ctx.rs
    distributed = 0 if run["how"] == "withhold" else (run["revenue"] // 2 if run["how"] == "half" else run["revenue"])
    before = run.get("moves", [[corp, None, None]])[0][1]
    from ledger.core.rules import market
    return {"how": run["how"], "distributed": distributed, "revenue": run["revenue"],
            "price": market.price(rs, tuple(before)) if before else 0}


def market_module():
    from ledger.core.rules import market
    return market


# --------------------------------------------------------------------------- the end (§13, §13.1)

def remainder_in(ctx, why: str) -> None:
    s = ctx.state
    amount = s.cash(REMAINDER)
    if amount:
        ctx.emit("remainder_paid", amount=amount, why=why, transfers=[[REMAINDER, BANK, amount]])


def bank_broke(ctx) -> None:
    """§13: once the bank breaks, the remainder cash keeps it paying to the end."""
    remainder_in(ctx, "the bank has broken")


def bank_can_break(s) -> bool:
    return not s.own.final


def final_sequence(ctx, phase: str) -> None:
    """§13: the first level 8 train (the bank still solvent) puts the remainder cash in the bank;
    three more ORs follow the one it was bought in (with the stock round between), the last a
    repeat of the one before (E27)."""
    s, rs = ctx.state, ctx.rs
    if phase != rules(rs, "final_phase") or s.bank_broken or s.own.final:
        return
    r = s.round
    left_in_set = r["count"] - r["index"]
    after = rules(rs, "final_ors")
    repeat = [r["set"], r["index"] + after] if left_in_set >= after else [r["set"] + 1, after - left_in_set]
    remainder_in(ctx, "the first level 8 train was bought")
    ctx.emit("final_sequence", final={"repeat": repeat, "runs": {}})


def repeat_or(s) -> bool:
    fin = s.own.final
    return bool(fin) and s.round.get("kind") == "operating" and [s.round["set"], s.round["index"]] == fin["repeat"]


def last_full_or(s) -> bool:
    fin = s.own.final
    if not fin or s.round.get("kind") != "operating":
        return False
    rep = fin["repeat"]
    return [s.round["set"], s.round["index"]] == [rep[0], rep[1] - 1]


def record_final_run(ctx, corp: str, amount: int, how: str) -> None:
    if last_full_or(ctx.state):
        ctx.emit("final_run", corp=corp, revenue=amount, how=how)


def train_in_final_or(ctx, corp: str, _name: str) -> None:
    """§13: a railroad that acquired a train in the last full OR may run again with it."""
    s = ctx.state
    if last_full_or(s):
        ctx.emit("final_run", corp=corp, new_train=True)


def check_repeat(s, rs, corp: str, amount: int, how: str) -> None:
    """§13: the repeat OR pays what the OR before paid, the same way (the OE cash bonus not
    again), unless the railroad acquired a train in that OR."""
    if not repeat_or(s):
        return
    rec = s.own.final["runs"].get(corp)
    if not rec or rec.get("new_train") or "revenue" not in rec or not s.corp_trains(corp):
        return
    if amount != rec["revenue"] or how != rec["how"]:
        refuse(f"the last OR repeats the one before: {corp} ran {rs.money(rec['revenue'])} ({rec['how']}) there, "
               f"so it does again (§13)", f"{rec['how']} {corp} {rec['revenue']}")


def repeat_as_before(s, corp: str) -> bool:
    """In the repeat OR a railroad pays as before unless it acquired a train (§13)."""
    rec = s.own.final["runs"].get(corp) if repeat_or(s) else None
    return bool(rec) and "revenue" in rec and not rec.get("new_train")


# §13: what the repeat OR still plays (the payouts, a national's run, the end of a turn, a conversion
# window's answer); every other verb of an operating turn is business it no longer does
REPEAT_OR_PLAYS = ("pay", "half", "withhold", "run", "done", "convert", "discard", "choose", "adjust", "count", "end")


def no_repeat_business(s, rs, verb: str) -> list[str]:
    if repeat_or(s) and verb not in REPEAT_OR_PLAYS:
        return [f"the last OR only repeats the payouts: no track, tokens, trains or shares ({verb}) (§13)"]
    return []


def final_or_ended(ctx) -> bool:
    """§13: the repeat OR ends the game; an OR the sequence needs beyond the set is added."""
    s = ctx.state
    fin = s.own.final
    if not fin or s.round.get("kind") != "operating":
        return False
    r = s.round
    if [r["set"], r["index"]] == fin["repeat"]:
        ctx.emit("operating_round_ended", set=r["set"], index=r["index"])
        ctx.emit("game_over", reason="the repeat OR after the first level 8 train is over (§13)")
        return True
    if r["set"] == fin["repeat"][0] and r["index"] >= r["count"] and r["index"] + 1 <= fin["repeat"][1]:
        from ledger.core.rounds import operating
        ctx.emit("operating_round_ended", set=r["set"], index=r["index"])
        operating.start_or(ctx, r["set"], r["index"] + 1, fin["repeat"][1])
        return True
    return False


def unpriced_share_value(s, rs, player: str, corp: str) -> int:
    """D18 #44: a game ending before the Consolidation round scores a regional's certificates at its
    par (the 50 % at 2 x par, a 25 % at par); a minor scores nothing."""
    if kind_of(s, corp) != "regional" or not s.corps[corp].par:
        return 0
    return s.percent_of(player_acct(player), corp) // 25 * s.corps[corp].par


def privates_pay(s) -> bool:
    """D18 #43: the repeat OR is only payouts: no private income (nor Minor K's mail); the option
    repeat_or_income pays both."""
    return not repeat_or(s) or s.own.repeat_income


def cmd_discard(ctx, cmd) -> None:
    """§11.6.3: a train over the new limit leaves: an un-rusted one to the Open Market, a rusted one
    a national drops back to the Locomotive Works' rusted box (D18 #52)."""
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, cmd.get("corp"))
    name = names.side(rs, cmd.get("type"))[0]
    due = next((p for p in s.pending if p["kind"] == "discard" and p["corp"] == corp), None)
    rusted = [t for t in s.corp_trains(corp) if trains.train_type(t) == name and trains.flags(s, t).get("rusted")]
    if due is None or not rusted:
        train_step.cmd_discard(ctx, cmd)
        return
    ctx.emit("train_discarded", corp=corp, train=rusted[0], trains=[[rusted[0], company_acct(corp), RUSTED]],
             flags={rusted[0]: {"rusted": None, "side": None}})
    train_step.check_limits(ctx)


def or_heading(s, rs) -> str:
    """A national's turn, and the repeat OR's (§11.3.10, §13); else the shared round's."""
    corp = s.round["corp"]
    if repeat_or(s):
        return f"OR {s.round['set']}.{s.round['index']} (the last, a repeat): {corp}"
    if kind_of(s, corp) == "national":
        return f"OR {s.round['set']}.{s.round['index']}: {corp} (national, {s.president(corp)}) operates"
    return operating.heading(s, rs)


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


def status_lines(s, rs) -> list[str]:
    out = [f"Railroad phase: {railroad_phase(s)}; Train Phase {s.phase}"]
    if s.round.get("kind") == "packet":
        out += packet_lines(s, rs)
    due = concession_holder(s)
    if due and s.round.get("kind") == "concessions":
        left = sorted((int(k[1:]), k, acct_name(a.owner)) for k, a in s.assets.items()
                      if a.kind == "concession" and a.owner and not a.closed)
        out.append("Concessions to execute: " + ", ".join(f"{k} {p}" for _n, k, p in left))
    chits = {z: len(chits_left(s, rs, z)) for z in zones(rs)}
    if s.round.get("kind") != "packet":
        out.append("Track-rights chits left: " + ", ".join(f"{z} {n}" for z, n in chits.items()))
        track_order = [c for c in sorted((c for c in s.corps if s.corps[c].kind in ("minor", "regional")
                                          and (s.corps[c].floated or s.corps[c].par)), key=lambda c: s.corps[c].arrival)]
        if track_order:
            out.append("Regional/Minor order: " + ", ".join(track_entry(s, rs, c) for c in track_order))
    om = [f"{c} {s.percent_of(POOL, c)}%" for c in s.corps if s.percent_of(POOL, c)]
    if om:
        out.append("Open Market: " + ", ".join(om))
    if removed(s):
        out.append("Removed regionals: " + ", ".join(removed(s)))
    if s.own.reserved:
        out.append("Reserved secondaries: " + ", ".join(f"{c} for {p}" for c, p in s.own.reserved.items()))
    early = [f"level {n} once {k} level {m} trains are bought ({trains.sold_count(s, m)} so far)"
             for n, (m, k) in EARLY_LEVELS.items() if trains.sold_count(s, m) and trains.depot_left(s, m)]
    if early:
        out.append("On sale early (§5.2): " + "; ".join(early))
    reserved = trains.depot_left(s, rules(rs, "reserved_train"))
    if reserved and s.round.get("kind") not in ("packet",):
        out.append(f"Reserved 2+2s in the Locomotive Works: {len(reserved)} at "
                   f"{rs.money(rs.train(rules(rs, 'reserved_train')).sides[0].price)}; level 3 is on sale from the Major "
                   f"phase, never in OR 1.1 (§11.6)")
    if s.own.custody:
        out.append("BBBT keeps a treasury share: " + ", ".join(f"{c} for {p}" for c, p in s.own.custody.items()))
    if protected(s):
        out.append("BBBT protects from sale drops this round: " + ", ".join(protected(s)))
    if s.own.owes_train:
        out.append("Reserved 2+2 owed in their first OR: " + ", ".join(s.own.owes_train))
    if s.own.insolvent:
        out.append("Insolvent, in the Open Market (face + unpaid 2+2): " + ", ".join(
            f"{c} {rs.money(insolvent_price(s, rs, c))}" for c in s.own.insolvent))
    return out + endgame_lines(s, rs)


def endgame_lines(s, rs) -> list[str]:
    """Nationals, Pullmans, the Orient Express markers, the remainder cash and the final sequence."""
    out = []
    nationals = [c for c in s.corps if kind_of(s, c) == "national"]
    if nationals:
        out.append("Nationals (claim rusted trains, run by capacity): " + ", ".join(
            f"{c} [{' '.join(trains.side_name(s, rs, t) + ('r' if is_rusted(s, t) else '') for t in s.corp_trains(c))}]"
            for c in nationals))
    box = sorted(trains.train_type(t) for t, h in s.trains.items() if h == RUSTED)
    if box and nationals:
        out.append("Rusted trains unclaimed: " + ", ".join(f"{n} x{box.count(n)}" for n in sorted(set(box))))
    held = [(acct_name(a.owner) if a.owner.startswith("company:") else "Open Market")
            for a in s.assets.values() if a.kind == "pullman" and a.owner]
    stock = sum(1 for a in s.assets.values() if a.kind == "pullman" and a.owner is None)
    if pullmans_on_sale(s):
        out.append(f"Pullmans: {stock} in Minor M's stock at {rs.money(rules(rs, 'pullman_price'))}"
                   + (f"; held by {', '.join(sorted(held))}" if held else ""))
    if s.own.oe_markers:
        out.append("Orient Express markers: " + ", ".join(s.own.oe_markers))
    if s.cash(REMAINDER):
        out.append(f"Remainder cash aside: {rs.money(s.cash(REMAINDER))} (joins the bank when it breaks or with the "
                   f"first level 8 train, §13)")
    fin = s.own.final
    if fin:
        rep = fin["repeat"]
        out.append(f"Final sequence (§13): the game ends after OR {rep[0]}.{rep[1]}, a repeat of OR {rep[0]}."
                   f"{rep[1] - 1}'s payouts")
    if s.bank_broken and s.end_at_or:
        out.append(f"The bank has broken: the game ends after OR {s.end_at_or[0]}.{s.end_at_or[1]} (§13)")
    return out


def track_entry(s, rs, corp: str) -> str:
    """A company on the Regional/Minor track as the board shows it: 'C (minor, UK1)',
    'GWR (regional, UK)', 'MZA (regional, SP, parred)'."""
    c = s.corps[corp]
    where = chit_of(s, corp) or zone_of(rs, corp) or "-"
    notes = [c.kind, where] + ([] if c.floated else ["parred"]) + (["insolvent"] if corp in s.own.insolvent
                                                                   else [])
    return f"{corp} ({', '.join(notes)})"


def insolvent_price(s, rs, corp: str) -> int:
    face = rules(rs, "minor_face") if is_minor(s, corp) else 2 * s.corps[corp].par
    return face + s.own.insolvent[corp]


def status_data(s, rs) -> dict:
    data = {"railroad_phase": railroad_phase(s), "removed": list(removed(s)),
            "reserved": dict(s.own.reserved), "owes_reserved_train": list(s.own.owes_train),
            "insolvent": dict(s.own.insolvent),
            "chits": {sym: acct_name(a.owner) if a.owner else ("removed" if a.closed else None)
                      for sym, a in s.assets.items() if a.kind == "chit"},
            "concessions": {sym: acct_name(a.owner) if a.owner else None
                            for sym, a in s.assets.items() if a.kind == "concession"},
            "kinds": {c: corp.kind for c, corp in s.corps.items()},
            "open_market": {c: s.percent_of(POOL, c) for c in s.corps if s.percent_of(POOL, c)},
            "remainder": s.cash(REMAINDER),
            "pullmans": {sym: (acct_name(a.owner) if a.owner.startswith("company:") else "Open Market")
                         if a.owner else None for sym, a in s.assets.items() if a.kind == "pullman"},
            "rusted_trains": {c: [t for t in s.corp_trains(c) if is_rusted(s, t)] for c in s.corps
                              if any(is_rusted(s, t) for t in s.corp_trains(c))},
            "oe_markers": list(s.own.oe_markers),
            "final_repeat_or": list(s.own.final["repeat"]) if s.own.final else None}
    if s.round.get("kind") == "packet":
        data["packet"] = {"rows": [list(r) for r in s.round["rows"]], "prices": dict(s.round["prices"]),
                          "bids": {k: dict(v) for k, v in s.round["bids"].items()},
                          "auction": dict(s.round["auction"]) if s.round.get("auction") else None,
                          "held_back": {p: held_back(s, p) for p in s.players}}
    return data


def info_lines(rs) -> list[str]:
    out = ["Packet rows [S]: " + " | ".join(" ".join(r) for r in packet_items(rs)),
           f"Minors: face {rs.money(rules(rs, 'minor_face'))}, treasury keeps at most "
           f"{rs.money(rules(rs, 'minor_treasury_cap'))} of the price (§7.1); concessions "
           f"{rs.money(rules(rs, 'concession_face'))} each [S]"
           + ("" if rules(rs, "concessions") else " — not in this game"),
           "Zones (chits, home token, 20 % terrain discount): " + "; ".join(
               f"{c} {z['name']} {z['chits']}{'*' if z['limited'] else ''} {rs.money(z['home_cost'])}"
               f"{' 20%' if z['discount'] else ''}" for c, z in zones(rs).items())
           + f"; * only {rules(rs, 'limited_chits')} of these chits are taken",
           f"Regional pars: {', '.join(rs.money(p) for p in rules(rs, 'regional_pars'))} (2 x par for the 50 %)",
           "Minor K mail by phase: " + ", ".join(f"{p}: {rs.money(v)}" for p, v in rules(rs, "mail").items()),
           f"Nationals from the first train of phases {', '.join(rules(rs, 'conversion_phases'))} (§9.4); leftover "
           f"capacity {rs.money(rules(rs, 'national_leftover')['city'])} a city, "
           f"{rs.money(rules(rs, 'national_leftover')['town'])} a town (§11.3.10)",
           "Orient Express extra by phase: " + ", ".join(f"{p}: {rs.money(v)}" for p, v in rules(rs, "oe_extra").items())
           + f"; first run: its train's revenue as cash, or {rules(rs, 'oe_moves')} moves right (§12)",
           f"Pullmans from phase {rules(rs, 'pullman_phase')}: {rs.money(rules(rs, 'pullman_price'))}, royalty "
           f"{rs.money(rules(rs, 'pullman_royalty'))} to Minor M, {rs.money(rules(rs, 'pullman_transfer'))} between "
           f"railroads; {rs.money(rules(rs, 'pullman_per_level'))} a level"
           + "".join(f", {k} {rs.money(v)}" for k, v in rules(rs, "pullman_side_bonus").items()) + " (§11.6.2)",
           f"The end: remainder cash {rs.money(rs.remainder)}; the first level {rules(rs, 'final_phase')} train: "
           f"{rules(rs, 'final_ors')} more ORs, the last a repeat (§13)"]
    out += [f"PROVISIONAL [S]: {p}" for p in rules(rs, "provisional")]
    out += ["Readings (digest §18): a minor's treasury short of every home token left is helped by its owner for "
            "the cheapest (#45); escrowed bids also block buys (#15); a raise is £5 in every auction (#15); trades "
            "from the Major phase (#41, option early_trades); a parred regional is removed with the other "
            "unfloated ones (#17); Minor J's 10 % off rounds the price down (#28); in the Consolidation round a "
            "minor may be abandoned while its owner still has regionals to expand; rusted trains leave at once "
            "but the buyer's still count toward its limit until its buy step ends (§11.6.3); a Pullman on a 4D adds £80, the "
            "rulebook's example (D0.1 #6; option pullman_by_level: £70); the OE cash bonus counts the extra and the "
            "Pullman on its train (#24); the dividend's move comes before the OE's three (#22); a forced conversion buys "
            "no train and the national may claim at once (#32); the repeat OR pays no private income or mail (#43); "
            "after Minor M is abandoned the Pullmans stay on sale and the bank keeps the royalty (#27); Minor J's "
            "discount applies to Pullmans from M and the Open Market, not to a price agreed between railroads (#28)"]
    return out


# =========================================================================== registration

def register(reg) -> None:
    from dataclasses import replace

    from ledger.core.rounds import operating
    reg.round(PACKET)
    reg.round(CONCESSIONS)
    reg.round(replace(stock.STOCK, heading=sr_heading))
    reg.round(replace(operating.OPERATING, heading=or_heading))
    reg.rule("starting_corps", starting_corps)
    reg.rule("info_lines", info_lines)
    reg.rule("status_lines", status_lines)
    reg.rule("status_data", status_data)
    reg.rule("supply_fallback", supply_fallback)
    reg.rule("train_discount", train_discount)
    reg.bar(no_repeat_business)
    reg.on("before_verb", window_closes)
    # ---- the packet auction (§7)
    reg.verb("buy", cmd_packet_buy, "packet", bars=packet_buy_bars,
             candidates={"item": lambda s, rs, who, args: list(s.round["rows"][0])}, phrase=packet_buy_phrase)
    reg.verb("bid", cmd_packet_bid, "packet", elsewhere="bids are made in the packet auction (§7)",
             candidates={"item": packet_bid_items, "amount": packet_bid_bounds}, phrase=packet_bid_phrase)
    reg.verb("pass", cmd_packet_pass, "packet")
    # ---- concessions and stock rounds (§8-§10)
    reg.rework("stock", "buy", handler=cmd_buy, bars=lambda *_: [], phrase=lambda *_: "buy")
    reg.rework("stock", "pass", handler=cmd_pass)
    reg.rework("stock", "sell", handler=cmd_sell, candidates={"corp": player_majors_held, "count": one_share})
    reg.verb("float", cmd_float, "concessions", "stock", elsewhere="a minor floats in the concession round or a "
             "stock round (§8.1, §8.2)", bars=one_stock_action, candidates={"corp": own_unfloated_minors},
             phrase=lambda s, rs, who: f"float a minor (float {who[0]} MINOR ZONE)")
    reg.verb("par", cmd_par, "concessions", "stock", bars=one_stock_action,
             candidates={"corp": open_regionals, "price": regional_pars, "open_market": lambda *_: [None, True]},
             fill=("open_market",), phrase=par_phrase)
    reg.verb("remove", cmd_remove, "stock", elsewhere="regionals and privates are removed in a stock round (§8.2, §10)",
             candidates={"item": removable}, phrase=lambda *_: "remove a regional or a private")
    reg.verb("close", cmd_close, "stock", elsewhere="a private is closed in a stock round (§10)",
             candidates={"private": own_privates}, phrase=lambda *_: "close a private")
    reg.verb("reserve", cmd_reserve, "stock", elsewhere="secondary shares are reserved in the initial SR (§8.4)",
             when=reserve_bars, candidates={"corp": floated_regionals},
             phrase=lambda *_: "reserve a regional's secondaries")
    reg.verb("trade", cmd_trade, "stock", elsewhere="players trade minors and privates in a stock round (§10.4)",
             when=trade_bars, bars=one_stock_action, candidates={"item": tradable, "price": lambda s, rs, who, args:
                                          Bounds(0, s.cash(player_acct(who)))},
             phrase=lambda *_: "trade (buy a minor or a private from its owner)")
    reg.verb("expand", cmd_expand, "stock", elsewhere="a regional expands into a major in a stock round (§9.3)",
             when=expand_bars, bars=one_stock_action, candidates={"corp": expandable}, phrase=lambda *_: "expand a regional")
    reg.verb("repar", cmd_repar, "stock", elsewhere="BBBT re-pars a railroad in a stock round (§14.4)",
             bars=bankers_bars, candidates={"private": bankers, "corp": presided_railroads, "price": bankers_pars},
             phrase=lambda *_: "BBBT: repar")
    reg.verb("protect", cmd_protect, "stock", elsewhere="BBBT protects a share value in a stock round (§14.4)",
             who=bankers_owner, bars=bankers_bars, candidates={"private": bankers, "corp": priced_railroads},
             phrase=lambda *_: "BBBT: protect", not_actor=not_bankers_owner)
    reg.verb("custody", cmd_custody, "stock", elsewhere="BBBT keeps a treasury share in a stock round (§14.4)",
             who=bankers_owner, bars=bankers_bars, candidates={"private": bankers, "corp": presided_railroads},
             phrase=lambda *_: "BBBT: custody", not_actor=not_bankers_owner)
    reg.on("sr_ending", protection_ends)
    reg.verb("merge", cmd_merge, "stock", elsewhere="a minor merges into a major in a stock round (§10.5)",
             when=merge_bars, bars=one_stock_action, candidates={"minor": own_floated_minors, "corp": majors_and_nationals},
             phrase=lambda *_: "merge a minor into a major")
    reg.verb("abandon", cmd_abandon, "stock", elsewhere="a minor is abandoned in the Consolidation round (§10.6)",
             when=abandon_bars, bars=one_stock_action, candidates={"minor": own_floated_minors, "no_offers": lambda *_: [None, True]},
             fill=("no_offers",), phrase=lambda *_: "abandon a minor")
    reg.on("phase_changed", consolidation_due)
    reg.on("stock_round_started", consolidation_begins)
    # ---- operating rounds (§11-§13)
    reg.verb("buy-minor", cmd_buy_minor, "operating",
             elsewhere="a major buys an abandoned minor in its operating turn (§9.5, §11.7)",
             candidates={"minor": abandoned_minors}, phrase=lambda *_: f"buy-minor (£{ABANDONED_PRICE})")
    reg.rework("operating", "tile", handler=cmd_tile)
    reg.rework("operating", "token", handler=cmd_token)
    reg.rework("operating", "train", handler=cmd_train, phrase=train_phrase)
    reg.rework("operating", "done", handler=cmd_done, phrase=done_phrase)
    never = {"who": lambda s, rs: list(s.players), "offered": False}
    reg.rework("operating", "buy-private", handler=cmd_no_private_sale, offered=False,
               when=lambda *_: ["railroads never buy privates in 1801; players trade them with trade PLAYER PRIVATE "
                                "PRICE (§7.1, §10.4)"])
    reg.rework("operating", "sell", handler=cmd_no_emergency_sale, **never,
               when=lambda *_: ["in 1801 a president never sells shares to pay for a train: he pays what he can and the "
                                "major becomes a national if that is not enough (§11.6.4)"])
    reg.rework("operating", "bankrupt", handler=cmd_no_bankruptcy, **never,
               when=lambda *_: ["1801 has no player bankruptcy: a major whose president cannot pay for its train "
                                "becomes a national (§11.6.4)"])
    reg.rework("operating", "issue", handler=cmd_issue)
    reg.rework("operating", "redeem", handler=cmd_redeem)
    reg.verb("port-authority", cmd_port, "operating",
             elsewhere="a major buys a port authority in its operating turn (§11.3.5)",
             candidates={"sea": lambda *_: ["north", "med"]}, phrase=lambda *_: f"port-authority (£{PORT_PRICE})")
    reg.verb("transfer", cmd_transfer, "operating", elsewhere="a major transfers tokens in its operating turn (§11.5)",
             candidates={"seller": same_president_majors}, phrase=lambda *_: "transfer a token")
    reg.choice("minor_c_order", order_chosen)
    reg.rule("rusting", rusting)
    reg.rule("bank_can_break", bank_can_break)
    reg.rule("privates_pay", privates_pay)
    reg.rule("unpriced_share_value", unpriced_share_value)
    reg.verb("convert", cmd_convert, "operating",
             elsewhere="majors become nationals as the first train of Train Phase 4, 6 or 8 is bought (§9.4)",
             who=window_players, candidates={"corp": presided_majors}, phrase=convert_phrase,
             not_actor=convert_not_actor)
    reg.answer("discard", "convert", cmd_convert, who=window_players, candidates={"corp": presided_majors},
               phrase=convert_phrase, not_actor=convert_not_actor)
    reg.verb("claim", cmd_claim, "operating", elsewhere="rusted trains are claimed in an operating turn (§11.6.6)",
             candidates={"type": rusted_types}, phrase=claim_phrase)
    reg.verb("flip", cmd_flip, "operating", elsewhere="a national flips its rusted trains in its operating turn "
             "(§11.6.6)", candidates={"type": lambda s, rs, corp, args: sorted({trains.train_type(t) for t in
                                                                               s.corp_trains(corp)})})
    reg.verb("run", cmd_run, "operating", elsewhere="a national runs in its operating turn (§11.3.10)",
             phrase=lambda *_: "run (its revenue by capacity)")
    reg.verb("pullman", cmd_pullman, "operating", elsewhere="Pullmans are bought in a buy-trains step (§11.6.2)",
             phrase=lambda s, rs, corps: f"pullman ({rs.money(rules(rs, 'pullman_price'))})")
    for how, handler in (("pay", cmd_pay), ("half", cmd_half), ("withhold", cmd_withhold)):
        reg.rework("operating", how, handler=handler, candidates={"revenue": repeat_revenue(how)},
                   phrase=repeat_phrase(how))
    reg.rework("operating", "discard", handler=cmd_discard)
    reg.answer("discard", "discard", cmd_discard, who=train_step.owing_discard, phrase=train_step.discard_phrase)
    reg.choice("oe_bonus", oe_bonus)
    reg.on("phase_changed", nationals_keep_rusted)
    reg.on("phase_changed", open_conversion_window)
    reg.on("phase_changed", free_pullman)
    reg.on("phase_changed", final_sequence)
    reg.on("bank_broke", bank_broke)
    reg.on("or_ended", final_or_ended)
    reg.on("train_bought", train_in_final_or)
    reg.on("or_started", first_or)
    reg.on("or_started", pay_mail)
    reg.on("or_started", ask_order)
    reg.on("phase_changed", phase_began)


# --------------------------------------------------------------------------- what each verb may name now
# The values worth trying for an argument (legal.completions keeps those the rule accepts), and the
# bars that say at once why a verb is not played now.

def own_unfloated_minors(s, rs, player, args) -> list[str]:
    return unfloated_minors(s, player)


def own_floated_minors(s, rs, player, args) -> list[str]:
    return [c for c, corp in s.corps.items() if corp.kind == "minor" and corp.floated
            and holder_of(s, c) == player_acct(player)]


def open_regionals(s, rs, player, args) -> list[str]:
    """Regionals not floated, parred or removed (§9.2), for a concession or a stock action."""
    return [c for c, corp in s.corps.items() if corp.kind == "regional" and not corp.floated and corp.par is None
            and c not in removed(s)]


def regional_pars(s, rs, player, args) -> list[str]:
    due = s.pending[0] if s.pending and s.pending[0]["kind"] == "par" else None
    if due:
        return [str(p) for p in stock.allowed_pars(s, rs, due.get("colours"))]
    pars = rules(rs, "regional_pars")
    if args.get("open_market") is None and s.round.get("kind") != "concessions":
        pars = [p for p in pars if 2 * p <= s.cash(player_acct(player))]   # 2 x par from his own cash (§9.2)
    return [str(p) for p in pars]


def one_stock_action(s, rs, player) -> list[str]:
    """§8.2, §10: one stock action a turn; once taken, what is left is to pass (or to buy one share
    after selling, in the Major phase: the rule says)."""
    if s.round.get("kind") == "stock" and s.round.get("acted") and player == stock.current(s):
        return [f"{player} has taken his stock action this turn (one a turn, §8.2, §10)"]
    return []


def par_phrase(s, rs, players) -> str:
    who = players[0]
    if s.round.get("kind") == "concessions":
        return (f"float a regional (par {who} REGIONAL PRICE) or, only if he can do neither, par one into the Open "
                f"Market (--open-market)")
    return "float a regional (par PLAYER REGIONAL PRICE)"


def removable(s, rs, player, args) -> list[str]:
    return open_regionals(s, rs, player, args) + own_privates(s, rs, player, args)


def own_privates(s, rs, player, args) -> list[str]:
    return [sym for sym, a in s.privates.items() if a.owner == player_acct(player)]


def floated_regionals(s, rs, player, args) -> list[str]:
    return [c for c, corp in s.corps.items() if corp.kind == "regional" and corp.floated]


def reserve_bars(s, rs) -> list[str]:
    if s.round.get("number") != 1:
        return ["secondary shares are reserved only in the initial stock round (§8.4)"]
    return []


def trade_bars(s, rs) -> list[str]:
    if not major_phase(s) and not rules(rs, "early_trades"):
        return ["players trade minors and privates in the Major railroad phase (§10, §10.4; D18 #41)"]
    return []


def tradable(s, rs, player, args) -> list[str]:
    """Minors and face-up privates another player holds (§10.4)."""
    minors = [c for c, corp in s.corps.items() if corp.kind == "minor"
              and str(holder_of(s, c)).startswith("player:") and holder_of(s, c) != player_acct(player)]
    privates_ = [sym for sym, a in s.privates.items() if not a.closed and str(a.owner).startswith("player:")
                 and a.owner != player_acct(player)]
    return minors + privates_


def expand_bars(s, rs) -> list[str]:
    return [] if major_phase(s) else ["majors float only in the Major railroad phase (§8.2, §8.3)"]


def expandable(s, rs, player, args) -> list[str]:
    """Floated regionals the player presides, or whose two secondaries he holds (§9.3)."""
    return [c for c, corp in s.corps.items() if corp.kind == "regional" and corp.floated
            and (s.president(c) == player or len([x for x in s.certs_of(player_acct(player), c)
                                                  if x != s.presidents.get(c)]) >= 2)]


def bankers_owner(s, rs) -> list[str]:
    owner = s.privates[BANKERS].owner if BANKERS in s.privates else None
    return [acct_name(owner)] if owner and owner.startswith("player:") and not s.privates[BANKERS].closed else []


def not_bankers_owner(s, rs, player) -> tuple[str, None]:
    return f"{player} does not own a face-up {BANKERS} (§14.4)", None


def bankers_bars(s, rs, player) -> list[str]:
    if player not in bankers_owner(s, rs):
        return [f"{player} does not own a face-up {BANKERS} (§14.4)"]
    if protected(s):
        return [f"{BANKERS}'s power is used this round (one of its three, once, §14.4)"]
    return []


def bankers(s, rs, player, args) -> list[str]:
    return [BANKERS]


def presided_railroads(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("regional", "major") and s.president(c) == player]


def priced_railroads(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("major", "national")]


def bankers_pars(s, rs, player, args) -> list[str]:
    corp = args.get("corp")
    pars = rules(rs, "regional_pars") if corp in s.corps and kind_of(s, corp) == "regional" else \
        rs.k("company", "par_prices")
    return [str(p) for p in pars]


def merge_bars(s, rs) -> list[str]:
    return [] if major_phase(s) else ["minors merge into majors in the Major railroad phase (§10.5)"]


def majors_and_nationals(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("major", "national")]


def abandon_bars(s, rs) -> list[str]:
    if not s.round.get("consolidation"):
        return ["a minor is abandoned in the Consolidation round, when it cannot be merged (§9.5, §10.6)"]
    return []


def player_majors_held(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("major", "national") and s.percent_of(player_acct(player), c)]


def one_share(s, rs, player, args):
    corp = args.get("corp")
    n = shares.shares_of(s, rs, player_acct(player), corp) if corp in s.corps else 1
    return Bounds(1, max(1, n))


def abandoned_minors(s, rs, corp, args) -> list[str]:
    return [c for c, x in s.corps.items() if x.kind == "minor" and holder_of(s, c) == POOL
            and c not in s.own.insolvent]


def same_president_majors(s, rs, corp, args) -> list[str]:
    return [c for c in s.corps if c != corp and kind_of(s, c) == "major" and s.president(c) == s.president(corp)]


def window_players(s, rs) -> list[str]:
    """The players who may still convert in the open window, in order from the buyer (§9.4)."""
    window = conversion_window(s)
    return list(window["order"][window["next"]:]) if window else []


def presided_majors(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) == "major" and s.president(c) == player]


def convert_phrase(s, rs, players) -> str:
    return f"{', '.join(players)} may convert majors into nationals now (convert PLAYER MAJOR, §9.4)"


def convert_not_actor(s, rs, player) -> tuple[str, None]:
    window = conversion_window(s)
    if not window:
        return ("majors become nationals only as the first train of Train Phase 4, 6 or 8 is bought (§9.4), or when "
                "a president cannot pay for a forced train (§11.6.4)", None)
    order = window["order"]
    return (f"conversions go in player order from {order[0]}; {order[window['next']]} has converted already, so "
            f"{player}'s turn in this window is over (§9.4)", None)


def rusted_types(s, rs, corp, args) -> list[str]:
    return sorted({trains.train_type(t) for t, h in s.trains.items() if h == RUSTED}, key=int)


def claim_phrase(s, rs, corps) -> str:
    return f"claim TYPE (rusted trains: {', '.join(rusted_types(s, rs, corps[0], {})) or 'none'})"


def train_phrase(s, rs, corps, types: list) -> str:
    """The reserved 2+2 while owed (§11.6.1): never on general offer; else the shared words."""
    corp = corps[0]
    if owes(s, corp):
        side = rs.train(rules(rs, "reserved_train")).sides[0]
        return f"train {corp} {side.name} (its reserved train, {rs.money(side.price)})"
    return operating.train_phrase(s, rs, corps, types)


def done_phrase(s, rs, corps) -> str:
    """§11.6.4: a major whose president cannot pay for its forced train becomes a national at done."""
    corp = corps[0]
    if kind_of(s, corp) == "major" and not repeat_or(s) and not trains.working(s, corp):
        short = operating.shortfall(s, rs, corp)
        if short > 0:
            pres = s.president(corp)
            return (f"{pres} is {rs.money(short)} short of the cheapest train and sells no share for it: done {corp} "
                    f"hands his cash to the bank and makes {corp} a national (§11.6.4, §9.4)")
    return operating.done_phrase(s, rs, corps)


def repeat_revenue(how: str):
    """The repeat OR pays what the OR before paid, the same way (§13); otherwise the shared bounds."""
    shared = operating.revenues(how)

    def found(s, rs, corp, args):
        rec = (s.own.final or {}).get("runs", {}).get(corp) if repeat_or(s) else None
        if rec and repeat_as_before(s, corp) and s.corp_trains(corp):
            return [str(rec["revenue"])] if rec["how"] == how else []
        if kind_of(s, corp) == "national":
            return ["0"] if not s.corp_trains(corp) and how == "withhold" else []
        return shared(s, rs, corp, args)
    return found


def repeat_phrase(how: str):
    shared = operating.run_phrase(how)

    def phrase(s, rs, corps) -> str:
        corp = corps[0]
        rec = (s.own.final or {}).get("runs", {}).get(corp) if repeat_or(s) else None
        if rec and repeat_as_before(s, corp) and s.corp_trains(corp):
            return f"{rec['how']} {corp} {rec['revenue']} (as in the OR before, §13)" if rec["how"] == how else ""
        return shared(s, rs, corps)
    return phrase


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("float", "stock", "Float a minor the player owns: take a track-rights chit of ZONE (UK PHS FB AH IT SP "
             "SND RU); the minor pays its home token (1801 §9.1).", "bank float Ann K RU --patronage 20",
             (Arg("player", "player"), Arg("corp", "company"),
              Arg("zone", "choice", help="the track-rights zone", choices=ZONE_CODES)),
             (Opt("--city", "city", help="the home city, as printed"),
              Opt("--patronage", "patronage", kind="amount", help="the lowest amount on the home city's patronage "
                  "tile, paid into the minor's treasury"))),
        Verb("remove", "stock", "Remove an unfloated regional from the game (a stock action), or remove a private "
             "(a free action) (1801 §8.2, §10).", "bank remove Ann GSWR",
             (Arg("player", "player"), Arg("item", "item"))),
        Verb("close", "stock", "Turn a private face down before the stock action: no income, no limit, no score "
             "(1801 §6.1, §10).", "bank close Ann RSC", (Arg("player", "player"), Arg("private", "private"))),
        Verb("reserve", "stock", "In the initial stock round, reserve a regional's secondary shares until the "
             "second stock round (1801 §8.4).", "bank reserve Ben GWR",
             (Arg("player", "player"), Arg("corp", "company"))),
        Verb("expand", "stock", "A regional's president, or the holder of both its secondaries, floats it as a "
             "major: 20 % + 8 x 10 %, the major's par, on the market (1801 §9.3).", "bank expand Ann KSS",
             (Arg("player", "player"), Arg("corp", "company")),
             (Opt("--secondary", "secondary", True, help="the president first buys a 25 % left in its treasury at "
                  "the regional par"),
              Opt("--sell", "sell", help="shares of other railroads sold in the expansion (§9.3 step 4): WW=2,GWR=1"))),
        Verb("merge", "stock", "Merge a minor into a major: a share from its treasury or the Open Market (or none "
             "with a connection), the minor's cash, trains, chit and ability to the major (1801 §10.5).",
             "bank merge Ann K WW", (Arg("player", "player"), Arg("minor", "company"), Arg("corp", "company")),
             (Opt("--connected", "connected", True, help="no share is left: the minor's token connects to the "
                  "major's"),
              Opt("--cash", "cash", kind="amount", help="personal cash the major's president pays the minor's "
                  "owner, as agreed"),
              Opt("--cash-back", "cash_back", kind="amount", help="personal cash the minor's owner pays the major's "
                  "president, as agreed"))),
        Verb("abandon", "stock", "In the Consolidation round, abandon a minor that cannot merge: charter and "
             "trains to the Open Market, cash to the bank (1801 §9.5, §10.6).", "bank abandon Ann G",
             (Arg("player", "player"), Arg("minor", "company")),
             (Opt("--no-offers", "no_offers", True, help="the other players' majors that could take it were "
                  "invited and none offered"),)),
        Verb("buy-minor", "operating", "A major buys an abandoned minor from the Open Market for £60 (1801 §9.5).",
             "bank buy-minor WW G", (Arg("corp", "company"), Arg("minor", "company"))),
        Verb("port-authority", "operating", "The operating major buys a port authority (north or med) for £125 "
             "from the bank, or --from another major (1801 §11.3.5).", "bank port-authority WW north",
             (Arg("corp", "company"), Arg("sea", "choice", choices=("north", "med"))),
             (Opt("--from", "source", kind="company", help="the major selling its port authority"),)),
        Verb("transfer", "operating", "The operating major takes over another major's token (same president): its "
             "slot's cost to the bank, £20/40/60 to the seller for a city/grand/metropolis (1801 §11.5).",
             "bank transfer WW KSS --city Warszawa --kind grand",
             (Arg("corp", "company"), Arg("seller", "company")),
             (Opt("--city", "city", help="the token's city (default: the seller's last placed)"),
              Opt("--kind", "kind", help="city (£20), grand (£40) or metropolis (£60)"),
              Opt("--slot", "slot", help="the buyer's charter slot it uses"))),
        Verb("repar", "stock", "Barclay, Bevan, Barclay & Tritton: re-par a regional or a major the player controls "
             "that still has its par marker, to another par of its kind (1801 §14.4).", "bank repar Ann BBBT WW 80",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company"), Arg("price", "amount"))),
        Verb("protect", "stock", "Barclay, Bevan, Barclay & Tritton: no sale moves the company's share value down "
             "for the rest of this stock round, even during another's sale (1801 §14.4).",
             "bank protect Ann BBBT WW", (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company"))),
        Verb("custody", "stock", "Barclay, Bevan, Barclay & Tritton: one of the company's treasury shares is kept "
             "for the player (1801 §14.4).", "bank custody Ann BBBT KSS",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company"))),
        Verb("convert", "operating", "As the first train of Train Phase 4, 6 or 8 is bought, the player turns a "
             "major of his into a national, in player order from the buyer (1801 §9.4).", "bank convert Ann WW",
             (Arg("player", "player"), Arg("corp", "company"))),
        Verb("claim", "operating", "A national takes an unclaimed rusted train free (--for OLD: in exchange for a "
             "lower one; --from MAJOR: its owner's major's un-rusted train, the bank paying it half) (1801 §11.6.6); "
             "--using SML gives a railroad a permanent 2+2 (§14.10).", "bank claim WW 3 --for 2",
             (Arg("corp", "company"), Arg("type", "side")),
             (Opt("--for", "swap", kind="side", help="the national's rusted train given back"),
              Opt("--from", "source", kind="company", help="the major (same president) whose train it takes"),
              Opt("--using", "using", kind="private", help="SML: the Swift Metropolitan Line's permanent 2+2"))),
        Verb("flip", "operating", "A national turns a rusted train from its express side to its local side, free "
             "(1801 §11.6.6).", "bank flip WW 3", (Arg("corp", "company"), Arg("type", "side"))),
        Verb("run", "operating", "A national's revenue by capacity, paid out in full: its home zone's linked "
             "cities and towns, the unlinked ones counted (1801 §11.3.10).",
             "bank run WW --cities 80,60 --towns 20 --unlinked-cities 1",
             (Arg("corp", "company"),),
             (Opt("--cities", "cities", help="values of the linked cities and red zones in its home zone: 80,60,60"),
              Opt("--towns", "towns", help="values of the linked towns in its home zone: 20,10"),
              Opt("--unlinked-cities", "unlinked_cities", kind="amount", help="how many cities are not linked"),
              Opt("--unlinked-towns", "unlinked_towns", kind="amount", help="how many towns are not linked"))),
        Verb("pullman", "operating", "Buy a Pullman car in the buy-trains step from Minor M's stock (£150, £15 "
             "royalty to M), --from pool, or --from another railroad (£75); --discard gives it up (1801 §11.6.2).",
             "bank pullman WW", (Arg("corp", "company"),),
             (Opt("--from", "source", help="pool, or the railroad selling its Pullman"),
              Opt("--discard", "discard", True, help="put the railroad's Pullman in the Open Market, no refund"))),
        Verb("trade", "stock", "The player buys a minor or a face-up private from its owner for an agreed price "
             "(1801 §10.4).", "bank trade Cy K 200",
             (Arg("player", "player"), Arg("item", "item"), Arg("price", "amount"))),
    ),
    options={
        "par": (Opt("--open-market", "open_market", True, help="1801 concession: par the regional into the Open "
                    "Market (only when the player can float nothing)"),),
        "tile": (Opt("--patronage", "patronage", kind="amount", help="1801: the patronage tile's amount for this "
                     "train phase, paid into the treasury"),),
        "token": (Opt("--using", "using", kind="private", help="1801: SHTC or CCTC's free token, WCF's at Lille, "
                      "HML's town"),),
        "pay": (Opt("--pullman", "pullman", kind="side", help="1801: the train its Pullman rides (+£10 a level)"),
                Opt("--oe", "oe", kind="amount", help="1801: the Orient Express train's part of the revenue; the bank "
                    "adds the OE extra"),
                Opt("--pullman-on-oe", "pullman_on_oe", True, help="1801: the Pullman rides the Orient Express train")),
        "half": (Opt("--pullman", "pullman", kind="side", help="1801: the train its Pullman rides (+£10 a level)"),
                Opt("--oe", "oe", kind="amount", help="1801: the Orient Express train's part of the revenue; the bank "
                    "adds the OE extra"),
                Opt("--pullman-on-oe", "pullman_on_oe", True, help="1801: the Pullman rides the Orient Express train")),
        "withhold": (Opt("--pullman", "pullman", kind="side", help="1801: the train its Pullman rides (+£10 a level)"),
                Opt("--oe", "oe", kind="amount", help="1801: the Orient Express train's part of the revenue; the bank "
                    "adds the OE extra"),
                Opt("--pullman-on-oe", "pullman_on_oe", True, help="1801: the Pullman rides the Orient Express train")),
    },
)


# =========================================================================== events

def round_update(s, e) -> None:
    s.round = {**s.round, **e["update"]}
    if "turn" in e["update"]:   # §7: the priority deal passes after every action of the auction
        s.priority = e["update"]["turn"]


@event
class PacketSold:
    """A packet item changes hands: bought from the top row, on a sole bid, in an auction, or taken
    free at £0 (§7)."""
    player: str
    item: str
    price: int
    how: str
    update: dict

    apply = round_update

    def describe(e, rs):
        return f"{e['player']} takes {e['item']} for {rs.money(e['price'])} ({e['how']})"


@event
class PacketBid:
    player: str
    item: str
    amount: int
    update: dict

    apply = round_update

    def describe(e, rs):
        return f"{e['player']} bids {rs.money(e['amount'])} on {e['item']}"


@event
class PacketAuction:
    """An item goes to auction among `bidders` in order, `leader` holding the high bid."""
    item: str
    bidders: list
    high: int
    leader: str
    open: bool
    update: dict

    apply = round_update

    def describe(e, rs):
        return (f"auction of {e['item']}: {', '.join(e['bidders'])} (high {e['leader']} {rs.money(e['high'])}"
                f"{'; open to all' if e['open'] else ''})")


@event
class PacketAuctionOver:
    item: str
    update: dict

    apply = round_update


@event
class PacketPass:
    player: str
    update: dict
    item: str = None

    apply = round_update

    def describe(e, rs):
        return f"{e['player']} passes" + (f" on {e['item']}" if e.get("item") else "")


@event
class PacketCut:
    """Everyone passed: the top row's items drop (§7)."""
    items: list
    cut: int
    update: dict

    apply = round_update

    def describe(e, rs):
        return f"all pass: {', '.join(e['items'])} drop {rs.money(e['cut'])}"


@event
class PacketTurn:
    update: dict
    priority: int = None

    def apply(s, e):
        round_update(s, e)
        if e.get("priority") is not None:
            s.priority = e["priority"]


@event
class PacketRow:
    update: dict

    apply = round_update


@event
class PacketOver:
    priority: int

    def apply(s, e):
        s.priority = e["priority"]

    def describe(e, rs):
        return "-- the opening packet is sold --"


@event
class ConcessionExecuted:
    concession: str

    def apply(s, e):
        s.assets[e["concession"]].closed = True

    def describe(e, rs):
        return f"concession {e['concession']} executed"


def home_placed(corp, cost: int, city) -> None:
    from ledger.core.state import Station
    corp.stations = (Station(city, 1, cost, home=True),)
    corp.tokens_used = 1


@event
class MinorFloated:
    """§9.1: a minor floats with a chit of `zone`, paying its home token; `closed_chits` leave the
    game (the fourth asterisked chit taken)."""
    player: str
    corp: str
    zone: str
    chit: str
    cost: int
    patronage: int = 0
    city: str = None
    closed_chits: list = None
    owner_paid: int = 0   # what the owner paid toward the home token (D18 #45)

    def apply(s, e):
        c = s.corps[e["corp"]]
        s.seq += 1
        c.floated, c.arrival = True, s.seq
        home_placed(c, e["cost"], e.get("city"))
        for sym in e.get("closed_chits") or ():
            s.assets[sym].closed = True

    def describe(e, rs):
        more = f"; patronage {rs.money(e['patronage'])}" if e.get("patronage") else ""
        gone = f"; chits {', '.join(e['closed_chits'])} leave the game" if e.get("closed_chits") else ""
        return (f"{e['player']} floats Minor {e['corp']} in {e['zone']} (chit {e['chit']}), home token "
                f"{rs.money(e['cost'])}{more}{gone}")


@event
class RegionalParred:
    """§8.1: a regional parred into the Open Market with a concession; it takes its track place."""
    player: str
    corp: str
    par: int

    def apply(s, e):
        c = s.corps[e["corp"]]
        s.seq += 1
        c.par, c.arrival = e["par"], s.seq

    def describe(e, rs):
        return f"{e['player']} pars {e['corp']} at {rs.money(e['par'])} into the Open Market"


@event
class RegionalFloated:
    """§9.2: the president pays 2 x par into the treasury, which pays the home token."""
    player: str
    corp: str
    par: int
    zone: str
    home_cost: int
    how: str = "floated"

    def apply(s, e):
        c = s.corps[e["corp"]]
        if c.par is None:  # a regional parred earlier keeps the place it took then (§8.1)
            s.seq += 1
            c.arrival = s.seq
        c.par, c.floated = e["par"], True
        home_placed(c, e["home_cost"], None)

    def describe(e, rs):
        return (f"{e['player']} floats {e['corp']} at {rs.money(e['par'])} ({e['how']}): pays "
                f"{rs.money(2 * e['par'])}, home token {rs.money(e['home_cost'])}")


@event
class TrainOwed:
    """Companies owing their reserved 2+2 (§11.6.1)."""
    corp: str
    owes: list

    def apply(s, e):
        s.own.owes_train = list(e["owes"])


@event
class RegionalsRemoved:
    corps: list
    removed: list
    reason: str
    player: str = None
    by_players: list = None

    def apply(s, e):
        s.own.removed = list(e["removed"])
        for corp in e["corps"]:
            if not s.corps[corp].floated:
                s.corps[corp].par = None   # a parred one leaves the track too (D18 #17)
        if e.get("by_players") is not None:
            s.own.removed_by_players = list(e["by_players"])

    def describe(e, rs):
        return f"{', '.join(e['corps'])} removed from the game: {e['reason']}"


@event
class PrivatePutDown:
    """§6.1, §10: a private closed (face down), removed, or used up."""
    player: str
    private: str
    how: str

    def apply(s, e):
        s.assets[e["private"]].closed = True
        if s.round.get("kind") == "stock":
            s.round = {**s.round, "free_action": True}

    def describe(e, rs):
        return f"{e['player']}'s {e['private']} is {e['how']}"


@event
class SharesReserved:
    player: str
    corp: str
    reserved: dict

    def apply(s, e):
        s.own.reserved = dict(e["reserved"])

    def describe(e, rs):
        return f"{e['player']} reserves {e['corp']}'s secondary shares until SR 2 (§8.4)"


@event
class InsolventBought:
    player: str
    corp: str
    price: int
    debt: int
    insolvent: dict

    def apply(s, e):
        s.own.insolvent = dict(e["insolvent"])

    def describe(e, rs):
        return f"{e['player']} buys insolvent {e['corp']} for {rs.money(e['price'])} (unpaid {rs.money(e['debt'])})"


@event
class Traded:
    buyer: str
    seller: str
    item: str
    price: int

    def describe(e, rs):
        return f"{e['buyer']} buys {e['item']} from {e['seller']} for {rs.money(e['price'])}"


@event
class MailPaid:
    corp: str
    amount: int

    def describe(e, rs):
        return f"Minor K's mail to {e['corp']}: {rs.money(e['amount'])}"


@event
class PatronagePaid:
    corp: str
    amount: int

    def describe(e, rs):
        return f"{e['corp']} fulfils a patronage tile: {rs.money(e['amount'])}"


@event
class TokenRefunded:
    """§11.6.5: the token placed this OR comes back to the charter with its cost."""
    corp: str
    cost: int
    city: str = None

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.stations = c.stations[:-1]
        c.tokens_used -= 1
        s.round = {**s.round, "token": False}

    def describe(e, rs):
        return f"{e['corp']}'s token{' in ' + e['city'] if e.get('city') else ''} comes back: {rs.money(e['cost'])} refunded"


@event
class TileRefunded:
    """§11.6.5: a tile laid this OR that cost money is taken up and its cost refunded."""
    corp: str
    cost: int
    hex: str = None

    def apply(s, e):
        paid = list(s.round.get("paid_tiles", []))
        if paid:
            paid.pop()
        s.round = {**s.round, "paid_tiles": paid}

    def describe(e, rs):
        return f"{e['corp']}'s tile{' in ' + e['hex'] if e.get('hex') else ''} is taken up: {rs.money(e['cost'])} refunded"


@event
class Insolvent:
    """§11.6.5: first-round insolvency."""
    corp: str
    president: str
    debt: int
    face: int
    train: str
    insolvent: dict
    owes: list

    def apply(s, e):
        s.own.insolvent, s.own.owes_train = dict(e["insolvent"]), list(e["owes"])

    def describe(e, rs):
        return (f"{e['corp']} is insolvent: it gets its 2+2 with {rs.money(e['debt'])} unpaid; its certificate goes to "
                f"the Open Market and {e['president']} receives {rs.money(e['face'])}")


@event
class TilePointGranted:
    """One more tile point this turn (§15.5, §15.6)."""
    corp: str
    reason: str

    def apply(s, e):
        s.round = {**s.round, "bonus_points": 1}

    def describe(e, rs):
        return f"{e['corp']} has one more tile point this turn: {e['reason']}"


@event
class MinorMerged:
    """§10.5: a minor merges into a major (`source` of the owner's share: treasury, open market, none)."""
    player: str
    minor: str
    corp: str
    source: str
    cash: int
    absorbed: dict
    tile_point_bonus: dict
    a_bonus: int = 0
    side_cash: int = 0

    def apply(s, e):
        m = s.corps[e["minor"]]
        m.floated, m.stations, m.tokens_used = False, (), 0
        s.own.absorbed = dict(e["absorbed"])
        tile_points_moved(s, e["tile_point_bonus"])
        if e.get("a_bonus"):
            s.own.a_bonus_paid = True
        note_minor_chit(s, e)
        if s.round.get("kind") == "stock":
            s.round = {**s.round, "merged_into": [*s.round.get("merged_into", []), e["corp"]]}

    def describe(e, rs):
        where = {"treasury": f"a share from {e['corp']}'s treasury, its {rs.money(e['cash'])} to {e['corp']}",
                 "open market": f"a share from the Open Market, its {rs.money(e['cash'])} to the bank",
                 "none": f"no share (connected), its {rs.money(e['cash'])} to the bank"}[e["source"]]
        bonus = f"; the bank pays {e['corp']} {rs.money(e['a_bonus'])} for Minor A" if e.get("a_bonus") else ""
        return f"{e['player']} merges Minor {e['minor']} into {e['corp']}: {where}{bonus}"


@event
class MinorAbandoned:
    """§9.5: a minor leaves play: charter and trains to the Open Market, cash to the bank."""
    minor: str
    cash: int
    reason: str

    def apply(s, e):
        m = s.corps[e["minor"]]
        m.stations, m.tokens_used = (), 0

    def describe(e, rs):
        return f"Minor {e['minor']} is abandoned ({e['reason']}): {rs.money(e['cash'])} to the bank"


@event
class AbandonedMinorBought:
    corp: str
    minor: str
    price: int
    absorbed: dict
    tile_point_bonus: dict

    def apply(s, e):
        s.corps[e["minor"]].floated = False
        s.own.absorbed = dict(e["absorbed"])
        tile_points_moved(s, e["tile_point_bonus"])
        s.round = {**s.round, "bought_minor": True}
        note_minor_chit(s, e)

    def describe(e, rs):
        return f"{e['corp']} buys abandoned Minor {e['minor']} for {rs.money(e['price'])}"


@event
class ConsolidationDue:
    due: bool

    def apply(s, e):
        s.own.consolidation_due = e["due"]

    def describe(e, rs):
        return "the next stock round is the Consolidation round (§5.1.5)"


@event
class ConsolidationStarted:
    number: int

    def apply(s, e):
        s.round = {**s.round, "consolidation": True}
        s.own.consolidation_due = False

    def describe(e, rs):
        return f"-- SR {e['number']} is the Consolidation round: every minor and regional leaves play (§10.6) --"


@event
class PortBought:
    corp: str
    port: str
    seller: str
    price: int

    def describe(e, rs):
        return f"{e['corp']} buys port authority {e['port']} from {e['seller']} for {rs.money(e['price'])}"


@event
class TokenTransferred:
    """§11.5: the buyer's token replaces the seller's, which returns to the seller's charter slot `back_to`."""
    corp: str
    seller: str
    slot: int
    cost: int
    fee: int
    back_to: int
    city: str = None

    def apply(s, e):
        from ledger.core.state import Station
        seller, buyer = s.corps[e["seller"]], s.corps[e["corp"]]
        gone = next(i for i in range(len(seller.stations) - 1, -1, -1)
                    if not seller.stations[i].home and seller.stations[i].city == e.get("city"))
        left = seller.stations[gone].slot
        kept = seller.stations[:gone] + seller.stations[gone + 1:]
        # the token fills its dearest open slot: a token still on the map from that slot now
        # counts as from the one the transferred token left
        seller.stations = tuple(Station(st.city, left, st.cost, st.home) if st.slot == e["back_to"] and left != e["back_to"]
                                else st for st in kept)
        seller.tokens_used -= 1
        buyer.stations = buyer.stations + (Station(e.get("city"), e["slot"], e["cost"]),)
        buyer.tokens_used += 1

    def describe(e, rs):
        where = f" in {e['city']}" if e.get("city") else ""
        return (f"{e['corp']} takes over {e['seller']}'s token{where}: {rs.money(e['cost'])} to the bank, "
                f"{rs.money(e['fee'])} to {e['seller']}")


@event
class BankersReparred:
    """§14.4 (1): BBBT re-pars a railroad."""
    player: str
    corp: str
    price: int

    def apply(s, e):
        s.corps[e["corp"]].par = e["price"]

    def describe(e, rs):
        return f"{e['player']} re-pars {e['corp']} at {rs.money(e['price'])} with BBBT, which leaves the game"


@event
class PriceProtected:
    """§14.4 (3): the companies whose share value no sale moves down in this stock round."""
    player: str
    corp: str
    protected: list

    def apply(s, e):
        for sym, corp in s.corps.items():
            corp.price_held = sym in e["protected"]

    def describe(e, rs):
        if not e["corp"]:
            return "BBBT's protection ends with the stock round"
        return f"{e['player']} protects {e['corp']}'s share value with BBBT for the rest of this stock round"


@event
class ShareKept:
    """§14.4 (2): a treasury share kept for BBBT's owner (custody maps company -> player)."""
    player: str
    corp: str
    custody: dict

    def apply(s, e):
        s.own.custody = dict(e["custody"])

    def describe(e, rs):
        kept = e["corp"] in e["custody"]
        return (f"one {e['corp']} treasury share is kept for {e['player']} (BBBT)" if kept
                else f"{e['player']} takes the {e['corp']} share kept for him")


@event
class PrivateToken:
    """A private's token on the map for a railroad (§14.5, §14.6, §14.8): no token position, no cost."""
    corp: str
    private: str
    cost: int
    city: str = None

    def apply(s, e):
        s.own.private_tokens = [*s.own.private_tokens, [e["private"], e["corp"], e.get("city")]]

    def describe(e, rs):
        return f"{e['corp']} places {e['private']}'s token" + (f" in {e['city']}" if e.get("city") else "")


@event
class EngineersUsed:
    """Brandt & Brandau's tokens laid: in all, and in this OR (§14.9)."""
    corp: str
    laid: int
    this_or: list
    count: int

    def apply(s, e):
        s.own.engineers = {"laid": e["laid"], "or": list(e["this_or"]), "this_or": e["count"]}

    def describe(e, rs):
        return f"Brandt & Brandau has laid {e['laid']} of its 4 tiles ({e['count']} this OR)"


@event
class NationalFormed:
    """§9.4: a major becomes a national (forced: §11.6.4, its president's cash to the bank too)."""
    corp: str
    president: str
    president_cash: int
    cash: int
    forced: bool = False
    kept: list = None   # the trains rusting as it formed, which it keeps (E28)

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.stations, c.tokens_used = (), 0
        for sym, _was, now in e.get("assets") or ():   # track rights and port authority: out of play
            if now is None:
                s.assets[sym].closed = True

    def describe(e, rs):
        why = (f"{e['president']} cannot pay for its train and hands the bank his {rs.money(e['president_cash'])}; "
               if e.get("forced") else "")
        return (f"{why}{e['corp']} becomes a national: its {rs.money(e['cash'])} to the bank, its treasury shares to the "
                f"Open Market, its tokens off the map")


@event
class RustedInStep:
    """§11.6.3: how many of the operating company's trains rusted in this buy step (they count
    toward its limit until the step ends)."""
    corp: str
    count: int

    def apply(s, e):
        s.round = {**s.round, "rusted_in_step": e["count"]}

    def describe(e, rs):
        return f"{e['corp']}'s {e['count']} rusted train(s) leave at the end of its buy step (§11.6.3)"


@event
class FerryWindow:
    """§11.2.2: Train Phase 5 began in this company turn ([set, index, position]): WCF may be used now."""
    window: list

    def apply(s, e):
        s.own.ferry_window = list(e["window"])

    def describe(e, rs):
        return "Train Phase 5: White Cliffs Ferry's owner may now place a token of any railroad he controls at Lille"


@event
class FerryToken:
    """§11.2.2, §14.7: a token on Lille's ferry position, placed as Train Phase 5 begins."""
    corp: str
    slot: int
    cost: int
    city: str = None

    def apply(s, e):
        from ledger.core.state import Station
        c = s.corps[e["corp"]]
        c.stations = c.stations + (Station(e.get("city"), e["slot"], e["cost"]),)
        c.tokens_used += 1

    def describe(e, rs):
        return f"{e['corp']} places a token at Lille's ferry position with White Cliffs Ferry for {rs.money(e['cost'])}"


@event
class ConversionWindow:
    """§9.4: the moment the first train of Train Phase 4, 6 or 8 is bought, players from the buyer
    may convert majors into nationals (`window` None: the moment has passed)."""
    window: dict = None

    def apply(s, e):
        s.round = {**s.round, "conversion": e["window"]}

    def describe(e, rs):
        w = e.get("window")
        if w and w.get("opened"):
            return (f"majors may become nationals now (§9.4): {', '.join(w['order'])} in turn "
                    f"(convert PLAYER MAJOR)")
        return None


@event
class NationalsKeepRusted:
    """§9.4, §11.6.6: nationals keep their trains as they rust (turned to their local side)."""
    trains_kept: list

    def describe(e, rs):
        return f"nationals keep their rusted trains: {', '.join(e['trains_kept'])}"


@event
class TrainClaimed:
    """§11.6.6: a national takes a rusted train (giving one back), or a major's train for half."""
    corp: str
    train: str
    gave: str = None
    source: str = None
    paid: int = 0

    def describe(e, rs):
        what = f"{e['corp']} claims the rusted {e['train']}" if not e.get("source") else \
            f"{e['corp']} takes {e['source']}'s {e['train']}; the bank pays {e['source']} {rs.money(e['paid'])}"
        return what + (f", giving back {e['gave']}" if e.get("gave") else "") + " (§11.6.6)"


@event
class PermanentTrain:
    """§14.10: the Swift Metropolitan Line gives a railroad a rusted 2+2 that runs for good."""
    corp: str
    player: str
    private: str
    train: str

    def apply(s, e):
        s.assets[e["private"]].closed = True

    def describe(e, rs):
        return f"{e['player']}'s Swift Metropolitan Line gives {e['corp']} the rusted {e['train']} for good (§14.10)"


@event
class NationalRevenue:
    """§11.3.10: how a national's revenue was counted."""
    corp: str
    revenue: int
    cities: int
    towns: int
    left_cities: int
    left_towns: int
    pullman: int
    capacity: list

    def describe(e, rs):
        cap_c, cap_d, cap_t = e["capacity"]
        return (f"{e['corp']} (capacity {cap_c} cities, {cap_d} doubled, {cap_t} towns): cities {rs.money(e['cities'])}, "
                f"towns {rs.money(e['towns'])}, {e['left_cities']} unused city and {e['left_towns']} town places, "
                f"Pullman {rs.money(e['pullman'])}: {rs.money(e['revenue'])} (§11.3.10)")


@event
class PullmanBought:
    corp: str
    pullman: str
    price: int
    royalty: int = 0
    royalty_to: str = None
    source: str = None

    def describe(e, rs):
        royalty = f"; royalty {rs.money(e['royalty'])} to {e['royalty_to']}" if e.get("royalty") else ""
        return f"{e['corp']} buys a Pullman from {e['source']} for {rs.money(e['price'])}{royalty} (§11.6.2)"


def note_minor_chit(s, e) -> None:
    """Which chit came into a major with which minor (§9.5 step 6: it goes back with the charter)."""
    chits = {e["minor"]: sym for sym, _src, _dst in e.get("assets") or () if s.assets[sym].kind == "chit"}
    if chits:
        s.own.minor_chits = {**s.own.minor_chits, **chits}


@event
class PullmanGranted:
    corp: str
    pullman: str

    def apply(s, e):
        s.own.m_pullman = e["pullman"]

    def describe(e, rs):
        return f"{e['corp']} receives Minor M's free Pullman as Train Phase 4 begins (§11.6.2)"


@event
class PullmanDiscarded:
    corp: str
    pullman: str

    def describe(e, rs):
        return f"{e['corp']} discards its Pullman to the Open Market (§11.6.2)"


@event
class RunExtras:
    """The bank's additions to an announced revenue: the Pullman and the Orient Express extra."""
    corp: str
    announced: int
    pullman: int
    oe: int

    def describe(e, rs):
        parts = [f"Pullman {rs.money(e['pullman'])}"] * bool(e["pullman"]) + \
            [f"Orient Express {rs.money(e['oe'])}"] * bool(e["oe"])
        return f"{e['corp']}: {rs.money(e['announced'])} announced + {' + '.join(parts)} (§11.3.9, §12)"


@event
class OeMarker:
    """§12: a major's first Orient Express run earns its marker (once a game)."""
    corp: str

    def apply(s, e):
        s.own.oe_markers = [*s.own.oe_markers, e["corp"]]

    def describe(e, rs):
        return f"{e['corp']} runs the Orient Express for the first time (§12)"


@event
class OeBonus:
    corp: str
    option: str
    amount: int = 0

    def describe(e, rs):
        if e["option"] == "cash":
            return f"the bank pays {e['corp']} its Orient Express train's {rs.money(e['amount'])} (§12)"
        return f"{e['corp']}'s share value moves right three times for the Orient Express (§12)"


@event
class RemainderPaid:
    amount: int
    why: str

    def describe(e, rs):
        return f"-- {e['why']}: the remainder cash of {rs.money(e['amount'])} goes into the bank (§13) --"


@event
class FinalSequence:
    """§13: the first level 8 train: the OR `repeat` ([set, index]) repeats the one before and ends
    the game; `runs` records that OR's payouts."""
    final: dict

    def apply(s, e):
        s.own.final = e["final"]

    def describe(e, rs):
        rep = e["final"]["repeat"]
        return (f"-- the first level 8 train: the game ends after OR {rep[0]}.{rep[1]}, which repeats OR "
                f"{rep[0]}.{rep[1] - 1}'s payouts (§13) --")


@event
class FinalRun:
    """§13: a payout of the last full OR (or a train acquired in it), for the repeat OR."""
    corp: str
    revenue: int = None
    how: str = None
    new_train: bool = False

    def apply(s, e):
        fin = s.own.final
        rec = dict(fin["runs"].get(e["corp"], {}))
        if e.get("new_train"):
            rec["new_train"] = True
        else:
            rec.update(revenue=e["revenue"], how=e["how"])
        s.own.final = {**fin, "runs": {**fin["runs"], e["corp"]: rec}}


@event
class NationalTrainFlipped:
    corp: str
    train: str
    side: str

    def describe(e, rs):
        return f"{e['corp']} turns its rusted {e['train']} to its {e['side']} side (§11.6.6)"
