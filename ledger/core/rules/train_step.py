"""A company's train step: buying from the supply, the pool or another company, the director's
emergency money, phase changes and rusting, and the discard a lower train limit forces.

Rules: 1830 SEED "Trains", 1843 RULES §8.8 (digest D9). Sides and limits: see trains.py. What a
title adds (1843: rusted certificates for sale, flips, engineers) it registers in its own module.
"""

from __future__ import annotations

from ledger.core.events import counted
from ledger.core import grammar, names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.rules import privates, trains
from ledger.core.rules.revenue import ensure_ran
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Side
from ledger.core.state import BANK, POOL, REMOVED, company_acct, player_acct, train_type


def cmd_train(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "train")
    name, side_name = names.side(rs, cmd.get("type"))
    early = ctx.reg.rules.get("train_before_run")   # 1839 Nederlandsche Fabriek: at any point of the turn
    if not (early and early(s, rs, corp)):
        ensure_ran(ctx, corp, "train")
    if cmd.get("trade_in") is None and cmd.get("using") is None:   # a named private is checked first, as it is read
        at_limit(s, rs, corp, name, side_name)
    source = (cmd.get("source") or "depot")
    trade = traded(s, rs, corp, name, cmd.get("trade_in"))
    given = cmd.get("price")
    rusted = False
    if source.lower() in grammar.DEPOT_WORDS:
        train_id, seller, side, rusted = from_supply(ctx, corp, name, side_name, trade)
        price = side.price
        if trade:
            price = rs.train(name).trade_in_price
    elif source.lower() == "pool":
        train_id, side = from_pool(s, rs, name, side_name)
        seller, price = POOL, side.price
    else:
        train_id, seller, side, price = from_company(ctx, corp, source, name, side_name, given)
        rusted = trains.is_rusted(s, train_id)
    if trade and seller != BANK:
        raise RuleViolation(f"a train is traded in only when buying a "
                            f"{' or '.join(t.name for t in rs.trains if t.trade_in)} from the bank")
    if given is not None and seller in (BANK, POOL):
        refuse(f"the {side.name} from the {'bank' if seller == BANK else 'pool'} costs {rs.money(price)}: "
               f"--price is the price agreed with another company", f"train {corp} {side.name}"
               + (" --from pool" if seller == POOL else ""))
    price = discounted(ctx, corp, name, seller, price, cmd)
    if trade is None and not trains.within_limit(s, rs, corp, side):
        refuse(trains.limit_refusal(s, rs, corp, f"a {side.name}"))
    contribution = 0 if rusted else funding(ctx, corp, side, seller, price, trade)
    if rusted and s.cash(company_acct(corp)) < price:
        raise RuleViolation(f"{corp} has {rs.money(s.cash(company_acct(corp)))}: a rusted certificate is paid "
                            f"from the treasury alone ({rs.money(price)})")
    buy_train(ctx, corp, train_id, seller, price, contribution, trade, side.name, rusted)


def at_limit(s, rs, corp: str, name: str, side_name: str | None) -> None:
    """Refuses a purchase without a trade-in that no side of the type could make within the train
    limit, before the seller and the price are read: no source or price changes that."""
    sides = [rs.train(name).side(side_name)] if side_name else list(rs.train(name).sides)
    n_trains, n_certs = trains.load(s, rs, corp)   # trains.within_limit's count, made once for every side
    lightest = min(side.trains for side in sides)
    if n_trains + lightest > trains.limit(s, rs, corp) or n_certs + 1 > trains.cert_limit(s, rs, corp):
        refuse(trains.limit_refusal(s, rs, corp, f"a {sides[0].name}"))


def discounted(ctx, corp: str, name: str, seller: str, price: int, cmd) -> int:
    """The price a purchase is decided at: less the title's discounts (1839 Credit Mobilier,
    Beijnes, a private named --using; 1801 Minor J)."""
    discount = ctx.reg.rules.get("train_discount")
    return max(0, price - discount(ctx, corp, name, seller, cmd)) if discount else price


def from_supply(ctx, corp: str, name: str, side_name: str | None, trade: str | None):
    """(train id, seller, side, rusted?) for a purchase from the bank's supply; a train the supply
    does not sell now may still be sold by the title's own rule (1843: rusted certificates)."""
    s, rs = ctx.state, ctx.rs
    t = rs.train(name)
    side = t.side(side_name)
    if name in trains.depot_offer(s, rs):
        return trains.next_depot_train(s, rs, name), BANK, side, False
    fallback = ctx.reg.rules.get("supply_fallback")
    bought = fallback(ctx, corp, name, side) if fallback else None
    if bought and trade:
        raise RuleViolation(f"a train is traded in only for a new {name} from the bank's supply")
    if bought:
        return bought
    offer = trains.for_sale(s, rs, ctx.reg)
    raise RuleViolation(f"the bank does not sell {name} trains now{sold_first(s, rs, name)}",
                        f"for sale: {', '.join(offer) or 'none'}")


def traded(s, rs, corp: str, name: str, raw) -> str | None:
    """The train traded in for this purchase (--trade-in), as the title's data allows: a type the
    bought train names, one the company holds (None: no trade-in)."""
    if raw is None:
        return None
    trade = names.train(rs, raw)
    allowed = rs.train(name).trade_in
    if trade not in allowed or rs.train(name).trade_in_price is None:
        raise RuleViolation(f"a {name} can be bought by trading in a {' or '.join(allowed) or 'nothing'}, "
                            f"not a {trade}")
    if trains.holder_train(s, corp, trade) is None:
        raise RuleViolation(f"{corp} has no {trade} train to trade in")
    return trade


def sold_first(s, rs, name: str) -> str:
    """Why a later train is not for sale yet: the supply sells its trains in order, each type's
    last one before the next type's first."""
    earlier = [f"its {t}s ({left} left)" for t, left in trains.left_before(s, rs, name)]
    if not earlier:
        return ""
    return f": the bank sells its trains in order, and {' and '.join(earlier)} come first"


def from_pool(s, rs, name: str, side_name: str | None):
    train_id = trains.in_pool(s, name)
    if train_id is None:
        raise RuleViolation(f"there is no {name} train in the pool")
    allowed = trains.pool_sides(s, rs, train_id)
    side = rs.train(name).side(side_name) if side_name else allowed[0]
    if side not in allowed:
        raise RuleViolation(f"the pool's {name} certificate is sold on its {allowed[0].name} side, not {side.name}")
    return train_id, side


def from_company(ctx, corp: str, source: str, name: str, side_name: str | None, given):
    s, rs = ctx.state, ctx.rs
    other = names.corp(rs, source)
    if other == corp:
        raise RuleViolation(f"{corp} cannot buy a train from itself")
    # the certificate changes hands as it lies: its side sets the trains it counts and its face
    train_id = trains.owned_side(s, rs, other, name, side_name)
    if train_id is None:
        raise RuleViolation(trains.not_held(s, rs, other, name, side_name))
    bar = ctx.reg.rules.get("company_train_bar")   # 1843 §8.8.1: a rusted certificate counts toward the cap
    why = bar(s, rs, corp, other, train_id) if bar else ""
    if why:
        refuse(why)
    held = trains.side(s, rs, train_id)
    if trains.is_obsolete(s, train_id):
        raise RuleViolation(f"{other}'s {name} is obsolete: obsolete trains cannot be sold between companies")
    if given is None:
        raise RuleViolation(f"a train bought from {other} needs the agreed price", "--price N (at least 1)")
    price = names.amount(given, "price")
    if price < 1:
        raise RuleViolation(f"a train between companies costs at least {rs.money(1)}")
    return train_id, company_acct(other), held, price


def funding(ctx, corp: str, side: Side, seller: str, price: int, trade: str | None) -> int:
    """The director's contribution: only for a company that has no train and must buy one, and
    only for the cheapest supply/pool train or another company's train at no more than face value,
    which for a double-sided certificate is the price of the side it is on (1843 §8.8.1, §8.8.3)."""
    s, rs = ctx.state, ctx.rs
    what = side.name
    cash = s.cash(company_acct(corp))
    if cash >= price:
        return 0
    if trains.working(s, corp):
        refuse(f"{corp} has {rs.money(cash)}, the {what} costs {rs.money(price)}; a company that owns a train "
               f"gets no help from its president")
    if trade:
        refuse(f"{corp} has {rs.money(cash)}, the traded-in {what} costs {rs.money(price)}; the president cannot "
               f"contribute to a trade-in")
    cheapest = trains.cheapest_available(s, rs)
    if (rs.k("operating", "emergency_help_only_when_short") and seller not in (BANK, POOL) and cheapest
            and cash >= cheapest[0]):
        # the rulebook's reading (1830 SEED "Forced Train Purchases"): he helps only a company that
        # cannot pay for the cheapest train, not one choosing a dearer train of another company
        refuse(f"{corp} has {rs.money(cash)}, enough for the cheapest train ({cheapest[1]} for "
               f"{rs.money(cheapest[0])}): its president helps only a company that cannot pay for that, so a "
               f"train for {rs.money(price)} is paid from its treasury alone")
    if seller in (BANK, POOL):
        if rs.k("operating", "emergency_cheapest_only") and cheapest and price > cheapest[0]:
            ref = rs.k("operating", "emergency_rule")
            refuse(f"{corp} has {rs.money(cash)}: with the president's help it may only buy the cheapest train"
                   f"{f' ({ref})' if ref else ''}, {cheapest[1]} for {rs.money(cheapest[0])}, not one for "
                   f"{rs.money(price)}")
    elif rs.k("operating", "emergency_from_company_max") == "never":
        ref = rs.k("operating", "emergency_rule")
        refuse(f"{corp} has {rs.money(cash)}, the {what} costs {rs.money(price)}: with the president's help a "
               f"company buys only from the bank or the pool, never from another company"
               f"{f' ({ref})' if ref else ''}")
    elif rs.k("operating", "emergency_from_company_max") == "face" and price > side.price:
        refuse(f"with the president's help a train from another company costs at most its face value, "
               f"{rs.money(side.price)} for a {side.name}, not {rs.money(price)}")
    pres = s.president(corp)
    need = price - cash
    have = s.cash(player_acct(pres))
    if have < need:
        hint = f"{pres} must sell shares first (sell {pres} CORP N)"
        if rs.k("operating", "emergency_private_discard") != "none":
            hint += " or hand privates to the bank (sell PLAYER PRIVATE)"
        raise RuleViolation(f"{corp} has {rs.money(cash)} and needs {rs.money(need)} more for the {what}; "
                            f"{pres} has {rs.money(have)}", f"{hint}, or 'bankrupt {pres}'")
    return need


def buy_train(ctx, corp: str, train_id: str, seller: str, price: int, contribution: int, trade: str | None,
              side: str, rusted: bool = False) -> None:
    s, rs = ctx.state, ctx.rs
    name = train_type(train_id)
    first_of_type = seller == BANK and not rusted and trains.sold_count(s, name) == 0
    source = "depot" if seller == BANK else seller
    moves = [[train_id, "depot" if seller == BANK else seller, company_acct(corp)]]
    if trade:
        moves.insert(0, [trains.holder_train(s, corp, trade), company_acct(corp), POOL])
    transfers = []
    if contribution:
        transfers.append([player_acct(s.president(corp)), company_acct(corp), contribution])
    if price:
        transfers.append([company_acct(corp), BANK if seller in (BANK, POOL) else seller, price])
    first_side = rs.train(name).sides[0].name
    flags = {"side": None if side == first_side else side, **cleared(ctx)}
    event = dict(corp=corp, train=train_id, type=name, side=side, seller=source, price=price,
                 contribution=contribution, president=s.president(corp), trade_in=trade,
                 transfers=transfers, trains=moves, flags={train_id: flags})
    if rusted:
        event["rusted"] = True
    ctx.emit("train_bought", **event)
    if first_of_type:
        new_phase_or_rust(ctx, name)
    acquired(ctx, corp)
    ctx.reg.call("train_bought", ctx, corp, name)
    # a phase change may lower every company's limit; otherwise only the buyer holds more
    check_limits(ctx, None if first_of_type else [corp])


def cleared(ctx) -> dict:
    """Train flags that belong to the owning company (1843: engineers), cleared when a train
    changes hands."""
    return {flag: None for flag in ctx.reg.owner_flags}


def acquired(ctx, corp: str) -> None:
    """A company acquired a train: privates that close on its first train close (1830 BO, 1843 LM)."""
    rs = ctx.rs
    closing = [p.sym for p in rs.privates if p.ability("closes_on_first_train_of") == corp]
    privates.close(ctx, closing, reason=f"{corp} acquired a train")


def limit_text_pending(s, rs, due: dict, reg) -> tuple[str, str]:
    """Play waits while a company owes a discard (or, where the title allows, a flip) over the
    train limit (1843 §8.8.2; 1830: 'excess trains are discarded at once')."""
    corp = due["corp"]
    ways = list(reg.answers.get("discard", {"discard": None}))
    others = [w for w in ways if w != "discard"]
    extra = "".join(f" or {w} a certificate" for w in others)
    return (f"{corp} is over the train limit of {trains.limit_text(s, rs, corp)}: it must first discard "
            f"{counted(due['count'], 'train')}{extra}",
            "".join(f"{w} {corp} TYPE or " for w in others) + f"discard {corp} TYPE")


def limit_heading(s, rs, due: dict, reg) -> tuple[str, str]:
    """A company over the train limit must discard (or flip, where the title allows) first."""
    corp = due["corp"]
    return corp, f"{corp} is over the train limit of {trains.limit_text(s, rs, corp)} by {due['count']}"


def owing_discard(s, rs) -> list[str]:
    """Every company over its train limit (several may owe after one phase change)."""
    return list(dict.fromkeys(p["corp"] for p in s.pending if p["kind"] == "discard"))


def not_owing(s, rs, corp) -> tuple[str, None]:
    return f"{corp} is not over its train limit: trains are discarded only when the limit drops", None


def discard_phrase(s, rs, corps) -> str:
    return "discard a train ({commands})"


def check_limits(ctx, corps: list | None = None) -> None:
    """Companies over the limit owe a flip or a discard before play goes on (of `corps` only, when
    only their trains changed)."""
    s = ctx.state
    pending = [p for p in s.pending if p["kind"] != "discard" or corps is not None and p["corp"] not in corps] + \
        trains.over_limit(s, ctx.rs, corps)
    if pending != s.pending:
        ctx.emit("pending", pending=pending)


def new_phase_or_rust(ctx, name: str) -> None:
    """The first train of a type: a new phase (with its train limit and the privates that close),
    the trains that rust (the title may protect some: they go obsolete instead)."""
    s, rs = ctx.state, ctx.rs
    phase = trains.phase_for_train(s, rs, name)
    rusted, obsolete = ctx.reg.rules["rusting"](s, rs, name, ctx.reg.protecting_flags)
    flags = {t: {"obsolete": True, **cleared(ctx)} for t in obsolete}
    if phase:
        ctx.emit("phase_changed", phase=phase, train=name, limit=rs.phase(phase).train_limit,
                 certificate_limit=rs.phase(phase).certificate_limit,
                 trains=rusted, rusted=[t for t, _h, _d in rusted], obsolete=obsolete, flags=flags)
        if phase == rs.k("privates_rules", "close_on_phase"):
            closing = [p.sym for p in rs.privates if not privates.survives_phase_close(s, rs, p.sym)]
            privates.close(ctx, closing, reason=f"{trains.phase_label(phase)} began")
        ctx.reg.call("phase_changed", ctx, phase)
    elif rusted or obsolete:
        ctx.emit("trains_rusted", train=name, trains=rusted, rusted=[t for t, _h, _d in rusted],
                 obsolete=obsolete, flags=flags)


def cmd_discard(ctx, cmd) -> None:
    """A certificate over the limit goes to the pool."""
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, cmd.get("corp"))
    name, side_name = names.side(rs, cmd.get("type"))
    due = next((p for p in s.pending if p["kind"] == "discard" and p["corp"] == corp), None)
    if due is None:
        raise RuleViolation(f"{corp} is not over its train limit: trains are discarded only when the limit drops")
    train_id = owned(s, rs, corp, name, side_name)
    clear = cleared(ctx)
    to = REMOVED if rs.k("operating", "discard_to") == "removed" else POOL
    ctx.emit("train_discarded", corp=corp, train=train_id, trains=[[train_id, company_acct(corp), to]],
             **({"flags": {train_id: clear}} if clear else {}))
    check_limits(ctx)


def owned(s, rs, corp: str, name: str, side_name: str | None) -> str:
    """The company's certificate of that type (on that side), or a refusal naming what it holds."""
    train_id = trains.owned_side(s, rs, corp, name, side_name)
    if train_id is None:
        held = ", ".join(trains.side_name(s, rs, t) for t in s.corp_trains(corp)) or "none"
        raise RuleViolation(trains.not_held(s, rs, corp, name, side_name), f"it has {held}")
    return train_id
