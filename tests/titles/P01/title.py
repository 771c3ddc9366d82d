"""P01, a test title: regionals that expand into majors (the shape of 1801's §9.3, not its numbers).

What it adds to the shared engine, each through a seam a real title would use:

* a second phase axis, `railroad`, whose "major" phase begins with the first `expansion_train`
  bought (a `train_bought` hook);
* `expand PLAYER CORP` in a stock round, played only in the major railroad phase: the president
  turns a floated regional into a major (`company_converted`: 50 % -> 20 %, 25 % -> 10 %, six new
  10 % certificates in its treasury);
* the expansion window: each player in turn from the president is asked (the decision queue) to
  buy one of the new major's treasury shares at the market price, or pass;
* `pullman CORP`: the operating company buys a Pullman car (an asset) from the bank, one each.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, TitleGrammar, Verb
from ledger.core.rounds import stock
from ledger.core.rules import decisions, shares
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, company_acct, player_acct

KNOBS = {"title_rules": {
    "pullman_price": Knob(int, None, 100),
    "expansion_train": Knob(str, None, ""),
}}

AXIS = "railroad"


def register(reg) -> None:
    reg.verb("expand", cmd_expand, "stock", phases={AXIS: ("major",)},
             elsewhere="a regional expands in a stock round", candidates={"corp": presided_regionals},
             phrase=lambda s, rs, players: " or ".join(f"expand {p} {sym}" for p in players
                                                       for sym in presided_regionals(s, rs, p, {})))
    reg.verb("pullman", cmd_pullman, "operating", elsewhere="a company buys a Pullman in its operating turn",
             phrase=lambda s, rs, corps: f"pullman {corps[0]} ({rs.money(rs.k('title_rules', 'pullman_price'))})")
    reg.choice("window", window_choice)
    reg.on("train_bought", start_major_phase)
    reg.rule("info_lines", lambda rs: [f"Pullman cars {rs.money(rs.k('title_rules', 'pullman_price'))} each; "
                                       f"regionals expand from the first {rs.k('title_rules', 'expansion_train')} train"])


GRAMMAR = TitleGrammar(verbs=(
    Verb("expand", "stock", "A regional's president expands it into a major (P01, a test title).",
         "bank expand Ann NR", (Arg("player", "player"), Arg("corp", "company"))),
    Verb("pullman", "operating", "The operating company buys a Pullman car from the bank (P01).",
         "bank pullman NR", (Arg("corp", "company"),)),
))


def start_major_phase(ctx, corp: str, name: str) -> None:
    s, rs = ctx.state, ctx.rs
    if name == rs.k("title_rules", "expansion_train") and s.axes.get(AXIS) != "major":
        ctx.emit("axis_phase_changed", axis=AXIS, phase="major")


def presided_regionals(s, rs, player, args) -> list[str]:
    """The floated regionals a player presides: the ones he may expand."""
    return [sym for sym, c in s.corps.items() if c.kind == "regional" and c.floated and s.president(sym) == player]


def cmd_expand(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    stock.take_turn(ctx, player)
    if s.corps[corp].kind != "regional" or not s.corps[corp].floated:
        refuse(f"only a floated regional expands: {corp} is a {'' if s.corps[corp].floated else 'unfloated '}"
               f"{s.corps[corp].kind}")
    if s.president(corp) != player:
        refuse(f"{corp}'s president ({s.president(corp)}) decides its expansion, not {player}")
    if s.round.get("acted"):
        refuse(f"{player} has acted this turn: an expansion is a whole turn")
    ctx.emit("company_converted", **shares.conversion(s, rs, corp, "major"))
    # the major's par is its price now: its treasury shares sell at it for the rest of this round
    ctx.emit("par", player=player, corp=corp, price=shares.price(s, rs, corp), par_round=True)
    stock.acted(ctx, player)
    seat = s.player_index(player)
    order = [s.players[(seat + i) % len(s.players)] for i in range(len(s.players))]
    ask_window(ctx, corp, order)


def ask_window(ctx, corp: str, left: list[str]) -> None:
    s, rs = ctx.state, ctx.rs
    if not left or not shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp):
        return
    price = stock.share_price(s, rs, corp, "ipo")
    decisions.ask(ctx, left[0], f"buy a {corp} treasury share for {rs.money(price)}?", ["buy", "pass"], "window",
                  corp=corp, left=left[1:])


def window_choice(ctx, due: dict, option: str) -> None:
    s, rs = ctx.state, ctx.rs
    corp, player = due["data"]["corp"], due["who"]
    if option == "buy":
        cert = shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)[0]
        pct = s.cert_percent[cert]
        price = stock.share_price(s, rs, corp, "ipo") * pct // shares.unit(s, rs, corp)
        if s.cash(player_acct(player)) < price:
            raise RuleViolation(f"{player} has {rs.money(s.cash(player_acct(player)))}, a {corp} share costs "
                                f"{rs.money(price)}", f"choose {player} pass")
        shares.check_can_take_cert(s, rs, player, corp, pct)
        ctx.emit("share_bought", player=player, corp=corp, source="ipo", price=price, percent=pct,
                 transfers=[[player_acct(player), company_acct(corp), price]],
                 certs=[[cert, shares.unsold_acct(s, rs, corp), player_acct(player)]])
        stock.check_president(ctx, corp)
    ask_window(ctx, corp, due["data"]["left"])


@event
class PullmanCarBought:
    """A company buys a Pullman car from the bank (P01)."""
    corp: str
    pullman: str
    price: int

    def describe(e, rs):
        return f"{e['corp']} buys Pullman {e['pullman']} for {rs.money(e['price'])}"


def cmd_pullman(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "pullman")
    cars = [sym for sym, a in s.assets.items() if a.kind == "pullman"]
    if any(s.assets[sym].owner == company_acct(corp) for sym in cars):
        refuse(f"{corp} already has a Pullman (one each)")
    free = [sym for sym in cars if s.assets[sym].owner is None]
    if not free:
        refuse(f"the bank has no Pullman left ({len(cars)} in the game)")
    price = rs.k("title_rules", "pullman_price")
    if s.cash(company_acct(corp)) < price:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}, a Pullman costs {rs.money(price)}")
    ctx.emit("pullman_car_bought", corp=corp, pullman=free[0], price=price,
             transfers=[[company_acct(corp), BANK, price]], assets=[[free[0], None, company_acct(corp)]])
