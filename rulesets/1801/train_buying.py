"""1801 / 18OE: the buy-trains step (§11.6): the reserved 2+2 in the first OR with the president's
help, refunds and first-round insolvency (§11.6.5), level 3 only in the Major phase and never in
the first OR, Minor J's discount (§15.9), level 8 early (§5.2), forced purchases that make a
national (§11.6.4), and the trains that rust in the buyer's own step (§11.6.3)."""

from __future__ import annotations

from dataclasses import replace

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import counted, event
from ledger.core.grammar import DEPOT_WORDS, SUPPLY_WORDS
from ledger.core.plays import Bounds
from ledger.core.rounds import operating
from ledger.core.rules import revenue, train_step, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, DEPOT, POOL, RUSTED, company_acct, player_acct

from .common import (is_minor, is_rusted, kind_of, locomotive_discount, major_phase, owes, repeat_or,
                     reserved_side, rules)
from .nationals import form_national
from .tiles_tokens import FERRY_TOKEN

# the trains rusted in this train-buying step, counted toward the limit until it ends
ROUND_FIELDS = {"operating": {"rusted_in_step": "int"}}
KNOBS = {"title_rules": {
    "j_discount_on_deals": Knob(bool, None, False),                       # D18 #28
    # §5.2, §11.6: level 8 is on sale once four level 7 trains are bought (the default: games stored
    # before the number moved to ruleset.toml)
    "early_levels": Knob(dict, None, {"8": {"after": "7", "bought": 4}}),
}}

# the words of --from that name the Locomotive Works: the bank's own trains
WORKS_WORDS = DEPOT_WORDS


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
    if s.round.get("treasury"):
        refuse(f"{corp} has bought or sold its own shares: its train step is over (§11 steps 6-7)")
    if kind_of(s, corp) == "national":
        refuse(f"{corp} is a national: nationals claim rusted trains and swap with their owner's majors instead of "
               f"buying (§11.6.6)", f"claim {corp} TYPE")
    if owes(s, corp) and name != reserved:
        refuse(f"{corp} must first buy its reserved {reserved_side(rs).name} (§11.6.1)",
               f"train {corp} {reserved_side(rs).name}")
    # the limit before the seller: no seller or price changes it (and no 1801 train is bought by a trade-in)
    train_step.at_limit(s, rs, corp, name, side)
    source = (cmd.get("source") or "depot").lower()
    from_works, from_railroad = source in WORKS_WORDS, source not in SUPPLY_WORDS
    if from_railroad:
        check_seller(s, rs, names.corp(rs, cmd.get("source")), name)
        treasury_pays_alone(ctx, corp, cmd)
    if name == reserved and from_railroad and major_phase(s):
        train_step.cmd_train(ctx, cmd)   # §11.6: any train changes hands between railroads in the Major phase
        return
    if name == reserved and not (source == "pool" and not owes(s, corp)):
        # §11.6.3: a discarded un-rusted 2+2 is for sale to any railroad in the Open Market at face
        # value (and so the cheapest train of a forced purchase, §11.6.4); the Locomotive Works sells
        # its 2+2s only as reserved trains (§11.6.1, D18 #46)
        if not owes(s, corp) or not from_works:
            what = reserved_side(rs).name
            refuse(f"the Locomotive Works sells {what} trains only as a company's reserved train, in its first OR "
                   f"(§11.6.1, D18 #46); a discarded {what} is bought from the Open Market (§11.6.3), and not "
                   f"before the reserved one", f"train {corp} {what}" if owes(s, corp)
                   else f"train {corp} {what} --from pool" if pool_train(s, name) else None)
        buy_reserved(ctx, corp)
        return
    if from_railroad and not major_phase(s):
        refuse("trains are bought from other railroads only in the Major railroad phase (§8.2, §8.3)")
    if from_works:
        level_order_check(s, rs, name)
    if name == "3" and not from_railroad:
        if first_or_of_game(s):
            refuse("no level 3 train is bought in the first OR of the game (§8.3, §11.6)")
        if not major_phase(s):
            refuse("level 3 trains are bought only in the Major railroad phase (§8.2)")
    rusting = s.round.get("rusted_in_step", 0)
    if rusting and trains.load(s, rs, corp)[0] + rusting >= trains.limit(s, rs, corp):
        refuse(f"{corp} holds {counted(trains.load(s, rs, corp)[0], 'train')} and {rusting} rusted this step, which leave only "
               f"at its end: it is at the limit of {trains.limit(s, rs, corp)} and buys no more now (§11.6, §11.6.3)")
    if kind_of(s, corp) == "major" and not from_railroad:
        forced_purchase_check(s, rs, corp, name, side)
    if kind_of(s, corp) in ("minor", "regional") and not from_railroad:
        price = rs.train(name).side(side).price
        price -= locomotive_discount(s, corp, price)
        cash = s.cash(company_acct(corp))
        if cash < price:
            refuse(f"{corp} has {rs.money(cash)}, a {side or rs.train(name).sides[0].name} costs {rs.money(price)}: a "
                   f"{kind_of(s, corp)} pays from its treasury alone (§11.6)")
    train_step.cmd_train(ctx, cmd)


def pool_train(s, name: str) -> str | None:
    """An un-rusted train of this level in the Open Market (§11.6.3)."""
    return next((t for t in s.pool_trains() if trains.train_type(t) == name and not is_rusted(s, t)), None)


def sellers(s, rs, corp, args) -> list[str]:
    """Who a railroad may buy a train from (--from): the Open Market when it holds one; other
    railroads only in the Major railroad phase (§8.2, §8.3), never a national (§11.6.6)."""
    pool = ["pool"] if s.pool_trains() else []
    if not major_phase(s):
        return pool
    return pool + [c for c in s.corps if c != corp and kind_of(s, c) != "national" and s.corp_trains(c)]


def check_seller(s, rs, seller: str, name: str) -> None:
    """§11.6, §11.6.6: nationals never sell trains; a rusted train is only a national's (§11.6.3);
    the Swift Metropolitan Line's 2+2 can never be sold (§14.10)."""
    if seller in s.corps and kind_of(s, seller) == "national":
        refuse(f"{seller} is a national: nationals never sell trains (§11.6, §11.6.6)")
    held = [t for t in s.corp_trains(seller) if trains.train_type(t) == name] if seller in s.corps else []
    if held and all(is_rusted(s, t) or trains.flags(s, t).get("outside_limit") for t in held):
        refuse(f"{seller}'s level {name} train is rusted or the Swift Metropolitan Line's: it is never sold "
               f"(§11.6.3, §14.10)")


def early_sale(s, rs, name: str) -> dict | None:
    """§5.2: the early_levels entry of level `name` (8: once four level 7 trains are bought) while the
    level it follows is still in the Locomotive Works: then that count alone decides its sale."""
    early = rules(rs, "early_levels").get(name)
    return early if early and trains.depot_left(s, early["after"]) else None


def not_yet(s, rs, name: str) -> str:
    """Why the Locomotive Works does not sell level `name` yet, or "" (§11.6): every un-rusted train of
    a level is sold before the first of the next (the reserved 2+2s aside: they are never on offer,
    §11.6.1), except a level sold early (§5.2). The refusal, the supply's fallback and the offer all
    ask it; the refusal names the rule and the count rather than only "not for sale"."""
    early = early_sale(s, rs, name)
    if early:
        bought = trains.sold_count(s, early["after"])
        return "" if bought >= early["bought"] else (
            f"level {name} trains are sold once {early['bought']} level {early['after']} trains have been bought "
            f"from the Locomotive Works (§11.6, §5.2): {bought} so far")
    first = next(iter(trains.left_before(s, rs, name, aside=(rules(rs, "reserved_train"),))), None)
    return (f"every level {first[0]} train in the Locomotive Works is sold before the first level {name} "
            f"(§11.6): {first[1]} left") if first else ""


def early_open(s, rs, name: str) -> bool:
    """Level `name` is on sale early, beside the level it follows (§5.2)."""
    return early_sale(s, rs, name) is not None and not not_yet(s, rs, name)


def level_order_check(s, rs, name: str) -> None:
    why = not_yet(s, rs, name)
    if why:
        refuse(why)


def treasury_pays_alone(ctx, corp: str, cmd) -> None:
    """§11.6: a train bought from another railroad costs £1 up to the buyer's whole treasury, and
    only treasury cash may be used: a president adds his own cash only to a forced purchase from
    the bank (§11.6.4), never to a price agreed between railroads. The price is the one the shared
    train step decides the purchase at (the agreed price as it reads it, less the train_discount)."""
    s, rs = ctx.state, ctx.rs
    name, side_name = names.side(rs, cmd.get("type"))
    try:
        _train, seller, _side, agreed = train_step.from_company(ctx, corp, cmd.get("source"), name, side_name,
                                                                cmd.get("price"))
    except RuleViolation:
        return   # no agreed price, or no such train: the shared train step refuses it in its turn
    price = train_step.discounted(ctx, corp, name, seller, agreed, cmd)
    cash = s.cash(company_acct(corp))
    if price > cash:
        refuse(f"{corp} has {rs.money(cash)}: a train from another railroad costs from {rs.money(1)} up to the "
               f"buyer's whole treasury and only treasury cash may be used (§11.6), not {rs.money(price)}",
               f"--price {cash}" if cash >= 1 else None)


def agreed_prices(shared):
    """§11.6: a price agreed with another railroad is paid from the buyer's treasury alone, so it
    runs from £1 to the treasury (the president's cash never counts: the shared range allows it to
    a trainless company); with a private's discount (--using) the shared range, which the rule
    narrows (so too with Minor J's discount on deals)."""
    def prices(s, rs, corp, args):
        found = shared(s, rs, corp, args)
        # Minor J's discount off an agreed price (the option j_discount_on_deals, D18 #28) lets the
        # price exceed the treasury: the shared range, which the rule narrows
        discounted = rules(rs, "j_discount_on_deals") and locomotive_discount(s, corp, 10) > 0
        if not isinstance(found, Bounds) or args.get("using") or discounted:
            return found
        return replace(found, high=max(1, s.cash(company_acct(corp))))
    return prices


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
    """What the shared supply does not offer (it sells the lowest level left) but the Locomotive
    Works sells: level 8 once the fourth level 7 has been bought (§5.2, not_yet)."""
    s, rs = ctx.state, ctx.rs
    if not_yet(s, rs, name) or not trains.depot_left(s, name):
        return None
    return trains.next_depot_train(s, rs, name), BANK, side, False


def buy_reserved(ctx, corp: str) -> None:
    """§11.6.1, §11.6.5: the reserved 2+2; short of cash the president pays the difference; if he
    cannot, this OR's token and then its paid tiles are refunded; failing that, insolvency."""
    s, rs = ctx.state, ctx.rs
    revenue.ensure_ran(ctx, corp, "train")
    side = reserved_side(rs)
    train_id = trains.next_depot_train(s, rs, rules(rs, "reserved_train"))
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
        refuse(f"{corp} must buy its reserved {reserved_side(rs).name} in its first OR (§11.6.1)",
               f"train {corp} {reserved_side(rs).name}")
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
    if phase == rules(rs, "ferry_phase") and corp and s.privates[FERRY_TOKEN].owner and not s.privates[FERRY_TOKEN].closed:
        ctx.emit("ferry_window", window=[s.round.get("set"), s.round.get("index"), s.round.get("pos")])
    change = next((e for e in reversed(ctx.events) if e["kind"] == "phase_changed"), None)
    if corp and change:
        rusted = sum(1 for _t, holder, _to in change.get("trains") or () if holder == company_acct(corp))
        if rusted:
            ctx.emit("rusted_in_step", corp=corp, count=s.round.get("rusted_in_step", 0) + rusted)


def train_phrase(s, rs, corps, types: list) -> str:
    """The reserved 2+2 while owed (§11.6.1): never on general offer; else the shared words."""
    corp = corps[0]
    if owes(s, corp):
        side = reserved_side(rs)
        return f"{{command}} (its reserved train, {rs.money(side.price)})"
    return operating.train_phrase(s, rs, corps, types)


def done_phrase(s, rs, corps) -> str:
    """§11.6.4: a major whose president cannot pay for its forced train becomes a national at done."""
    corp = corps[0]
    if kind_of(s, corp) == "major" and not repeat_or(s) and not trains.working(s, corp):
        short = operating.shortfall(s, rs, corp)
        if short > 0:
            pres = s.president(corp)
            return (f"{{command}} ({pres} is {rs.money(short)} short of the cheapest train and sells no share for "
                    f"it: his cash goes to the bank and {corp} becomes a national, §11.6.4, §9.4)")
    return operating.done_phrase(s, rs, corps)


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
        s.round = s.round.but(token=False)

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
        s.round = s.round.but(paid_tiles=paid)

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
    insolvent: dict[str, int]
    owes: list[str]

    def apply(s, e):
        s.own.insolvent, s.own.owes_train = dict(e["insolvent"]), list(e["owes"])

    def describe(e, rs):
        return (f"{e['corp']} is insolvent: it gets its 2+2 with {rs.money(e['debt'])} unpaid; its certificate goes to "
                f"the Open Market and {e['president']} receives {rs.money(e['face'])}")


@event
class RustedInStep:
    """§11.6.3: how many of the operating company's trains rusted in this buy step (they count
    toward its limit until the step ends)."""
    corp: str
    count: int

    def apply(s, e):
        s.round = s.round.but(rusted_in_step=e["count"])

    def describe(e, rs):
        trains = "rusted train leaves" if e["count"] == 1 else f"{e['count']} rusted trains leave"
        return f"{e['corp']}'s {trains} at the end of its buy step (§11.6.3)"


@event
class FerryWindow:
    """§11.2.2: Train Phase 5 began in this company turn ([set, index, position]): WCF may be used now."""
    window: list[int]

    def apply(s, e):
        s.own.ferry_window = list(e["window"])

    def describe(e, rs):
        return "Train Phase 5: White Cliffs Ferry's owner may now place a token of any railroad he controls at Lille"


def early_offers(s, rs) -> list[str]:
    """What the Locomotive Works sells early (§11.6, §5.2): level 8 once the fourth level 7 is bought,
    while level 7 trains are still for sale (the supply's own offer lists only the lowest level)."""
    out = []
    for name, early in rules(rs, "early_levels").items():
        if early_open(s, rs, name) and trains.depot_left(s, name):
            out.append(" / ".join(f"{sd.name} at {rs.money(sd.price)}" for sd in rs.train(name).sides)
                       + f" (early: {early['bought']} level {early['after']} trains bought, §11.6)")
    return out


def supply_types(s, rs, corp) -> list[str]:
    """What the Locomotive Works sells a railroad besides the lowest level: its reserved 2+2 while
    owed (§11.6.1), level 8 early (§5.2)."""
    early = [n for n in rules(rs, "early_levels") if early_open(s, rs, n) and trains.depot_left(s, n)]
    return ([rules(rs, "reserved_train")] if owes(s, corp) else []) + early


def register(reg) -> None:
    reg.rule("supply_fallback", supply_fallback)
    reg.rule("train_offers", early_offers)
    reg.rule("supply_types", supply_types)
    reg.rule("train_discount", train_discount)
    shared_train = reg.play_for("operating", "train")
    reg.rework("operating", "train", handler=cmd_train, phrase=train_phrase,
               candidates={**shared_train.candidates, "price": agreed_prices(shared_train.candidates["price"]),
                           "source": sellers})
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
    reg.on("phase_changed", phase_began)
