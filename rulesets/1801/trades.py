"""1801 / 18OE: trades between players (§10.4): a minor or a face-up private bought from its owner for
an agreed sum of personal cash, a stock action of the Major railroad phase (D18 #41; option
early_trades: from the first stock round)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, TitleGrammar, Verb
from ledger.core.plays import Bounds
from ledger.core.rounds import stock
from ledger.core.rules import shares
from ledger.core.ruleset import Knob
from ledger.core.state import acct_name, player_acct

from .common import holder_of, is_minor, kind_of, major_phase, rules
from .minors_regionals import begin_action, one_stock_action

KNOBS = {"title_rules": {
    "early_trades": Knob(bool, None, False),
    "trade_over_limit": Knob(bool, None, False),   # §4.1 read the other way (the option trade_over_limit)
}}


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
    check_trade_limit(s, rs, buyer)
    ctx.emit("traded", buyer=buyer, seller=seller, item=sym, price=price,
             transfers=[[player_acct(buyer), player_acct(seller), price]] if price else [], **moves)
    stock.acted(ctx, buyer, bought=[sym, "trade"])


def check_trade_limit(s, rs, buyer: str) -> None:
    """§4.1: the limit is what a player 'may own' (D18 #42: a trade past it is refused); read the
    other way (option trade_over_limit) a trade may take him past it, but not one made while over."""
    count, limit = shares.cert_count(s, rs, buyer), shares.cert_limit(s, rs, buyer)
    if count > limit or (count == limit and not rules(rs, "trade_over_limit")):
        refuse(f"certificate limit {limit} reached: {buyer} holds {count} (§4.1)")


def over_limit_bars(s, rs, player: str) -> list[str]:
    """§4.1: 'A player who has more certificates than the limit allows must correct this at the first
    possible opportunity during a SR', by selling stock or putting a private down: until he has, he
    may not pass (only under the option trade_over_limit can a player be over it)."""
    if not rules(rs, "trade_over_limit") or not shares.over_cert_limit(s, rs, player):
        return []
    sellable = [c for c, n in shares.sellable_value(s, rs, player, keep_president_of=None)[1] if n]
    privates_ = [sym for sym, a in s.privates.items() if a.owner == player_acct(player) and not a.closed]
    if not sellable and not privates_:
        return []
    hint = f"sell {player} {sellable[0]} 1" if sellable else f"close {player} {privates_[0]}"
    return [f"{player} holds {shares.cert_count(s, rs, player)} certificates, over the limit "
            f"{shares.cert_limit(s, rs, player)}: he must come back under it first (§4.1; {hint})"]


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


@event
class Traded:
    buyer: str
    seller: str
    item: str
    price: int

    def describe(e, rs):
        return f"{e['buyer']} buys {e['item']} from {e['seller']} for {rs.money(e['price'])}"


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("trade", "stock", "The player buys a minor or a face-up private from its owner for an agreed price "
             "(1801 §10.4).", "bank trade Cy K 200",
             (Arg("player", "player"), Arg("item", "item"), Arg("price", "amount")), label="Buy from another player"),
    ),
)


def register(reg) -> None:
    reg.verb("trade", cmd_trade, "stock", elsewhere="players trade minors and privates in a stock round (§10.4)",
             when=trade_bars, bars=one_stock_action, candidates={"item": tradable, "price": lambda s, rs, who, args:
                                          Bounds(0, s.cash(player_acct(who)))},
             phrase=lambda *_: "trade (buy a minor or a private from its owner)")
