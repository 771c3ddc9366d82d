"""1801 / 18OE: Pullmans (§11.6.2, §15.12): bought from Minor M's stock, the Open Market or another
railroad, Minor M's free one, and what a Pullman adds to a run."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.rules import revenue, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, POOL, acct_name, company_acct

from .common import (
    ability_user,
    holder_of,
    is_minor,
    is_rusted,
    kind_of,
    level,
    locomotive_discount,
    pullmans_of,
    rules,
)

KNOBS = {"title_rules": {
    "pullman_phase": Knob(str, None, REQUIRED),
    "pullman_price": Knob(int, None, REQUIRED),
    "pullman_royalty": Knob(int, None, REQUIRED),
    "pullman_transfer": Knob(int, None, REQUIRED),
    "pullman_per_level": Knob(int, None, REQUIRED),
    "pullman_side_bonus": Knob(dict, None, REQUIRED),
}}


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
        if is_minor(s, other) and holder_of(s, other) == POOL:
            # §9.5 step 5 names Minor M's own Pullman; any abandoned minor has no treasury to sell from
            why = ("its Pullman stays with its charter in the Open Market and may not be bought by another "
                   "railroad (§9.5 step 5)" if other == PULLMAN_CORP else
                   "an abandoned minor sells nothing: its charter is in the Open Market (§9.5)")
            refuse(f"Minor {other} is abandoned: {why}")
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


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("pullman", "operating", "Buy a Pullman car in the buy-trains step from Minor M's stock (£150, £15 "
             "royalty to M), --from pool, or --from another railroad (£75); --discard gives it up (1801 §11.6.2).",
             "bank pullman WW", (Arg("corp", "company"),),
             (Opt("--from", "source", help="pool, or the railroad selling its Pullman"),
              Opt("--discard", "discard", True, help="put the railroad's Pullman in the Open Market, no refund")), label="Buy a Pullman"),
    ),
)


def register(reg) -> None:
    reg.verb("pullman", cmd_pullman, "operating", elsewhere="Pullmans are bought in a buy-trains step (§11.6.2)",
             phrase=lambda s, rs, corps: f"pullman (for {rs.money(rules(rs, 'pullman_price'))})")
    reg.on("phase_changed", free_pullman)
