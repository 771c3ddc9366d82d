"""A company's train step: buying from the supply, the pool or another company, the director's
emergency money, phase changes and rusting, limits (flip or discard), and the trains the bank
takes out of play (the foreigners after a set, the 1843 auction's brief OR).

Rules: 1830 SEED "Trains", 1843 RULES §8.8 (digest D9). Sides, limits and relics: see trains.py.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.rules import privates, trains
from ledger.core.errors import RuleViolation, refuse
from ledger.core.ruleset import Side
from ledger.core.state import BANK, DEPOT, POOL, RUSTED, company_acct, player_acct, train_type


def cmd_train(ctx, cmd) -> None:
    from ledger.core.rounds.operating import ensure_ran, operating_corp
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "train")
    name, side_name = names.side(rs, cmd.get("type"))
    ensure_ran(ctx, corp, "train")
    source = (cmd.get("source") or "depot")
    trade = cmd.get("trade_in")
    given = cmd.get("price")
    relic = False
    if source.lower() in ("depot", "bank", "supply"):
        train_id, seller, side, relic = from_supply(s, rs, corp, name, side_name, trade)
        price = side.price
        if trade:
            price = rs.train(name).trade_in_price
    elif source.lower() == "pool":
        train_id, side = from_pool(s, rs, name, side_name)
        seller, price = POOL, side.price
    else:
        train_id, seller, side, price = from_company(ctx, corp, source, name, side_name, given)
        relic = trains.is_relic(s, train_id)
    if trade and seller != BANK:
        raise RuleViolation(f"a train is traded in only when buying a "
                            f"{' or '.join(t.name for t in rs.trains if t.trade_in)} from the bank")
    if given is not None and seller in (BANK, POOL) and names.amount(given, "price") != price:
        refuse(f"the {side.name} from the {'bank' if seller == BANK else 'pool'} costs {rs.money(price)}, not {given}")
    if relic:
        check_relic(s, rs, corp)
    if trade is None and not trains.within_limit(s, rs, corp, side):
        n_trains, n_certs = trains.load(s, rs, corp)
        refuse(f"train limit: {corp} holds {n_trains} train(s) on {n_certs} certificate(s); a {side.name} "
               f"would exceed the limit of {trains.limit_text(s, rs)} in {trains.phase_label(s.phase)}")
    contribution = 0 if relic else funding(ctx, corp, side, seller, price, trade)
    if relic and s.cash(company_acct(corp)) < price:
        raise RuleViolation(f"{corp} has {rs.money(s.cash(company_acct(corp)))}: a rusted certificate is paid "
                            f"from the treasury alone ({rs.money(price)})")
    buy_train(ctx, corp, train_id, seller, price, contribution, trade, side.name, relic)


def from_supply(s, rs, corp: str, name: str, side_name: str | None, trade: str | None):
    """(train id, seller, side, relic?) for a purchase from the bank's supply."""
    t = rs.train(name)
    side = t.side(side_name)
    if name in trains.depot_offer(s, rs):
        if trade:
            trade = names.train(rs, trade)
            if trade not in t.trade_in:
                raise RuleViolation(f"a {name} can be bought by trading in a {' or '.join(t.trade_in) or 'nothing'}, "
                                    f"not a {trade}")
            if trains.holder_train(s, corp, trade) is None:
                raise RuleViolation(f"{corp} has no {trade} train to trade in")
        return trains.next_depot_train(s, rs, name), BANK, side, False
    if name in trains.relic_offer(s, rs):
        if not side.relic:
            singles = ", ".join(sd.name for sd in t.sides if sd.relic)
            raise RuleViolation(f"a rusted {name} certificate is sold only as {singles}, not {side.name}")
        return trains.relics_left(s, name)[0], BANK, side, True
    offer = [sd.name for n in trains.depot_offer(s, rs) for sd in rs.train(n).sides]
    offer += [f"{sd.name} (rusted)" for n in trains.relic_offer(s, rs) for sd in rs.train(n).sides if sd.relic]
    raise RuleViolation(f"the bank does not sell {name} trains now", f"for sale: {', '.join(offer) or 'none'}")


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
    held = trains.side(s, rs, train_id)
    if trains.is_obsolete(s, train_id):
        raise RuleViolation(f"{other}'s {name} is obsolete: obsolete trains cannot be sold between companies")
    if given is None:
        raise RuleViolation(f"a train bought from {other} needs the agreed price", "--price N (at least 1)")
    price = names.amount(given, "price")
    if price < 1:
        raise RuleViolation(f"a train between companies costs at least {rs.money(1)}")
    return train_id, company_acct(other), held, price


def check_relic(s, rs, corp: str) -> None:
    held = [t for t in s.corp_trains(corp) if trains.is_relic(s, t)]
    cap = rs.k("operating", "relic_limit")
    if len(held) >= cap:
        refuse(f"{corp} already owns {len(held)} rusted certificate(s): at most {cap} per company")


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
    if seller in (BANK, POOL):
        if rs.k("operating", "emergency_cheapest_only") and cheapest and price > cheapest[0]:
            refuse(f"{corp} has {rs.money(cash)}: with the president's help it may only buy the cheapest train, "
                   f"{cheapest[1]} for {rs.money(cheapest[0])}")
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
              side: str, relic: bool = False) -> None:
    s, rs = ctx.state, ctx.rs
    name = train_type(train_id)
    first_of_type = seller == BANK and not relic and trains.sold_count(s, name) == 0
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
    flags = {"side": None if side == first_side else side, "engineers": None}
    event = dict(corp=corp, train=train_id, type=name, side=side, seller=source, price=price,
                 contribution=contribution, president=s.president(corp), trade_in=trade,
                 transfers=transfers, trains=moves, flags={train_id: flags})
    if relic:
        event["relic"] = True
    ctx.emit("train_bought", **event)
    if first_of_type:
        new_phase_or_rust(ctx, name)
    acquired(ctx, corp)
    saw_train(ctx, corp, name)
    check_limits(ctx)


def acquired(ctx, corp: str) -> None:
    """A company acquired a train: privates that close on its first train close (1830 BO, 1843 LM)."""
    rs = ctx.rs
    closing = [p.sym for p in rs.privates if p.ability("closes_on_first_train_of") == corp]
    privates.close(ctx, closing, reason=f"{corp} acquired a train")


def saw_train(ctx, corp: str, name: str) -> None:
    """The set counts toward the end when a company owns the title's trigger train (1843 gray)."""
    s, rs = ctx.state, ctx.rs
    if rs.k("endgame", "owned_train_sets") and name == rs.k("endgame", "owned_train_type") and not s.owned_this_set:
        ctx.emit("owned_type_seen", corp=corp, type=name)


def check_limit_met(s, rs) -> None:
    """Play waits while a company owes a flip or a discard over the train limit (§8.8.2 in 1843,
    'excess trains are discarded at once' in 1830)."""
    due = next((p for p in s.pending if p["kind"] == "discard"), None)
    if due is None:
        return
    corp = due["corp"]
    flip = f"flip {corp} TYPE or " if any(len(t.sides) > 1 for t in rs.trains) else ""
    raise RuleViolation(f"{corp} is over the train limit of {trains.limit_text(s, rs)}: it must first discard "
                        f"{due['count']} train(s){' or flip a certificate' if flip else ''}",
                        f"{flip}discard {corp} TYPE")


def check_limits(ctx) -> None:
    """Companies over the limit owe a flip or a discard before play goes on."""
    s = ctx.state
    pending = [p for p in s.pending if p["kind"] != "discard"] + trains.over_limit(s, ctx.rs)
    if pending != s.pending:
        ctx.emit("pending", pending=pending)


def new_phase_or_rust(ctx, name: str) -> None:
    s, rs = ctx.state, ctx.rs
    phase = trains.phase_for_train(s, rs, name)
    rusted, obsolete = trains.rusting(s, rs, name)
    flags = {t: {"obsolete": True, "engineers": None} for t in obsolete}
    if phase:
        ctx.emit("phase_changed", phase=phase, train=name, limit=rs.phase(phase).train_limit,
                 certificate_limit=rs.phase(phase).certificate_limit,
                 trains=rusted, rusted=[t for t, _h, _d in rusted], obsolete=obsolete, flags=flags)
        if phase == rs.k("privates_rules", "close_on_phase"):
            closing = [p.sym for p in rs.privates if not p.ability("survives_phase_close")]
            privates.close(ctx, closing, reason=f"{trains.phase_label(phase)} began")
        if rs.phase(phase).relics:
            return_relics(ctx, phase)
    elif rusted or obsolete:
        ctx.emit("trains_rusted", train=name, trains=rusted, rusted=[t for t, _h, _d in rusted],
                 obsolete=obsolete, flags=flags)


def return_relics(ctx, phase: str) -> None:
    """1843 §15.6: every single certificate of the earlier colours returns to the supply, on its
    single side, for sale as a rusted certificate. Gray trains and a private's train do not."""
    s, rs = ctx.state, ctx.rs
    keep = rs.phase(phase).on_train
    moves, flags = [], {}
    for t, h in sorted(s.trains.items()):
        kind = rs.train(train_type(t))
        if kind.name == keep or not kind.supply or h.startswith("company:") or h == POOL:
            continue
        if h == DEPOT and trains.is_relic(s, t):
            continue
        moves.append([t, h, DEPOT])
        flags[t] = {"relic": True, "side": None, "obsolete": None, "engineers": None}
    if moves:
        ctx.emit("relics_returned", phase=phase, trains=moves, flags=flags)


def drop_obsolete(ctx, corp: str) -> None:
    """An obsolete certificate runs once more, then goes just before the company's next train step."""
    s = ctx.state
    gone = [t for t in s.corp_trains(corp) if trains.is_obsolete(s, t)]
    if gone:
        ctx.emit("obsolete_discarded", corp=corp, trains=[[t, company_acct(corp), RUSTED] for t in gone],
                 flags={t: {"obsolete": None} for t in gone})


def cmd_discard(ctx, cmd) -> None:
    """A certificate over the limit goes to the pool; in its own train step a company may also
    throw away a rusted certificate (a relic) to make room."""
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, cmd.get("corp"))
    name, side_name = names.side(rs, cmd.get("type"))
    due = next((p for p in s.pending if p["kind"] == "discard" and p["corp"] == corp), None)
    own_turn = s.round.get("kind") == "operating" and s.round.get("corp") == corp
    relics = [t for t in s.corp_trains(corp) if trains.is_relic(s, t)]
    if due is None and not (own_turn and relics):
        raise RuleViolation(f"{corp} is not over its train limit: trains are discarded only when the limit drops")
    train_id = trains.owned_side(s, rs, corp, name, side_name)
    if train_id is None:
        held = ", ".join(trains.side_name(s, rs, t) for t in s.corp_trains(corp)) or "none"
        raise RuleViolation(trains.not_held(s, rs, corp, name, side_name), f"it has {held}")
    if due is None:
        if train_id not in relics:
            raise RuleViolation(f"{corp} is within its train limit: only a rusted certificate may be thrown away "
                                f"to make room")
        ctx.emit("train_discarded", corp=corp, train=train_id, relic=True,
                 trains=[[train_id, company_acct(corp), RUSTED]], flags={train_id: {"relic": None}})
        return
    ctx.emit("train_discarded", corp=corp, train=train_id, trains=[[train_id, company_acct(corp), POOL]],
             flags={train_id: {"engineers": None}})
    check_limits(ctx)


def cmd_flip(ctx, cmd) -> None:
    """Turn a x2 certificate to its single-train side to get within the train limit (1843 §8.8.2)."""
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, cmd.get("corp"))
    name, side_name = names.side(rs, cmd.get("type"))
    t = rs.train(name)
    if len(t.sides) < 2:
        raise RuleViolation(f"a {name} certificate has one side only")
    single = t.sides[0]
    candidates = [tid for tid in s.corp_trains(corp) if train_type(tid) == name
                  and trains.side(s, rs, tid) != single and not trains.is_obsolete(s, tid)]
    if not candidates:
        raise RuleViolation(f"{corp} has no {name} certificate on a x2 side to flip")
    if not any(p["kind"] == "discard" and p["corp"] == corp for p in s.pending):
        refuse(f"{corp} is within its train limit: a certificate is flipped only to get within it")
    tid = sorted(candidates, key=trains.train_number)[0]
    ctx.emit("train_flipped", corp=corp, train=tid, side=single.name, flags={tid: {"side": None}})
    check_limits(ctx)


# --------------------------------------------------------------------------- trains leaving play

def take_from_supply(ctx, who: str, name: str | None = None) -> str | None:
    """The bank discards the next supply train (of a type, or the next on sale): the foreigners'
    purchase (which may start a phase) or the auction's brief OR. Returns the train's type."""
    s, rs = ctx.state, ctx.rs
    if name is None:
        offer = trains.depot_offer(s, rs)
        if not offer:
            return None
        name = offer[0]
    left = trains.depot_left(s, name)
    if not left:
        return None
    first = trains.sold_count(s, name) == 0
    ctx.emit("train_taken", by=who, train=left[0], type=name, trains=[[left[0], DEPOT, RUSTED]])
    if first:
        new_phase_or_rust(ctx, name)
    return name


def foreigners_buy(ctx) -> None:
    """After the last OR of a set: the next supply train, and if it was the last of its colour the
    next colour's first too (1843 RULES §5, §8.1)."""
    s, rs = ctx.state, ctx.rs
    name = take_from_supply(ctx, "the foreigners")
    if name and not trains.depot_left(s, name):
        nxt = trains.depot_offer(s, rs)
        if nxt:
            take_from_supply(ctx, "the foreigners", nxt[0])
    check_limits(ctx)
