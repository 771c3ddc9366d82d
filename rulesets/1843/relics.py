"""Rusted certificates (RULES §15.6, the relics) and flips (§8.8.2).

In the phase whose data says `rusted_for_sale` (gray) the single certificates of the earlier colours
return to the supply for sale, rusted: on a single side only, at most the data's `relic_limit` per
company, paid from the treasury alone (§8.8.1). A company may throw one away in its own train step to
make room. A x2 certificate may be turned to its single side (`flip`) to get within the train limit.
The cap holds for one bought from another company too (§8.8.1 "in the normal manner").
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import a_train, counted, event
from ledger.core.grammar import Arg, TitleGrammar, Verb
from ledger.core.rules import train_step, trains
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, DEPOT, POOL, RUSTED, company_acct, train_type

from .base import own_sides

KNOBS = {"title_rules": {
    "relic_limit": Knob(int, None, 0),             # rusted certificates a company may own
}}

# Where games stored before this was 1843's own kept it (the shared section).
LEGACY_KNOBS = {("operating", "relic_limit"): ("title_rules", "relic_limit")}

GRAMMAR = TitleGrammar(verbs=(
    Verb("flip", "operating", "Turn a double-sided train certificate to its single side to meet the train "
         "limit (1843).", "bank flip PLM 5/7x2", (Arg("corp", "company"), Arg("type", "side")), label="Flip a certificate"),
))


def upgrade_data(data: dict) -> None:
    """Games begun before engine version 5 called a side sold again rusted `relic` and a phase that
    sells them `relics` (the shared mechanism's names now)."""
    for train in data.get("trains", []):
        for side in train.get("sides", []) if isinstance(train, dict) else ():
            if isinstance(side, dict) and "relic" in side:
                side["sold_rusted"] = side.pop("relic")
    for phase in data.get("phases", []):
        if isinstance(phase, dict) and "relics" in phase:
            phase["rusted_for_sale"] = phase.pop("relics")


def register(reg) -> None:
    reg.rework("operating", "discard", handler=cmd_discard, bars=relic_discard_bars,
               candidates={"type": lambda s, rs, corp, args: own_sides(s, rs, corp)},
               phrase=lambda s, rs, corps: "discard a rusted certificate to make room ({command})")
    # refused unless a company is over its limit: then it answers the discard it owes
    reg.verb("flip", cmd_flip, offered=False,
             bars=lambda s, rs, corp: [f"{corp} is within its train limit: a certificate is flipped only to get "
                                       f"within it"])
    reg.answer("discard", "flip", cmd_flip, who=train_step.owing_discard,
               candidates={"type": lambda s, rs, corp, args: own_sides(s, rs, corp)},
               phrase=lambda s, rs, corps: "flip a certificate ({commands})")
    reg.rule("supply_fallback", buy_relic)
    reg.rule("company_train_bar", rusted_from_company_bar)
    reg.rule("train_offers", relic_offers)
    reg.rule("supply_types", lambda s, rs, corp: relic_offer(s, rs))
    reg.on("phase_changed", return_relics)


# --------------------------------------------------------------------------- for sale again (§15.6)

def relics_left(s, name: str) -> list[str]:
    return sorted((t for t, h in s.trains.items() if train_type(t) == name and h == DEPOT and trains.is_rusted(s, t)),
                  key=trains.train_number)


def relic_offer(s, rs) -> list[str]:
    """Types with rusted certificates for sale again (any order), in a relic phase."""
    if not rs.phase(s.phase).rusted_for_sale:
        return []
    return [t.name for t in rs.trains if relics_left(s, t.name)]


def relic_offers(s, rs) -> list[str]:
    relics = [f"{sd.name} at {rs.money(sd.price)}" for n in relic_offer(s, rs) for sd in rs.train(n).sides if sd.sold_rusted]
    return ["rusted: " + ", ".join(relics)] if relics else []


def return_relics(ctx, phase: str) -> None:
    """Every single certificate of the earlier colours returns to the supply, on its single side,
    for sale as a rusted certificate. Gray trains and a private's train do not."""
    s, rs = ctx.state, ctx.rs
    if not rs.phase(phase).rusted_for_sale:
        return
    keep = rs.phase(phase).on_train
    moves, flags = [], {}
    for t, h in sorted(s.trains.items()):
        kind = rs.train(train_type(t))
        if kind.name == keep or not kind.supply or h.startswith("company:") or h == POOL:
            continue
        if h == DEPOT and trains.is_rusted(s, t):
            continue
        moves.append([t, h, DEPOT])
        flags[t] = {"bought_rusted": True, "side": None, "obsolete": None, "engineers": None}
    if moves:
        ctx.emit("relics_returned", phase=phase, trains=moves, flags=flags)


def buy_relic(ctx, corp: str, name: str, side):
    """A rusted certificate from the supply in gray: on a single side only, one per company, paid
    from the treasury alone (RULES §8.8.1, §15.6). None when none of the type is for sale."""
    s, rs = ctx.state, ctx.rs
    if name not in relic_offer(s, rs):
        return None
    t = rs.train(name)
    if not side.sold_rusted:
        singles = ", ".join(sd.name for sd in t.sides if sd.sold_rusted)
        raise RuleViolation(f"a rusted {name} certificate is sold only as {singles}, not {side.name}")
    if why := past_cap(s, rs, corp):
        refuse(why)
    if s.cash(company_acct(corp)) < side.price:
        raise RuleViolation(f"{corp} has {rs.money(s.cash(company_acct(corp)))}: a rusted certificate is paid "
                            f"from the treasury alone ({rs.money(side.price)})")
    return relics_left(s, name)[0], BANK, side, True


def past_cap(s, rs, corp: str) -> str:
    """Why a company may buy no more rusted certificates: it owns at most the data's number (§8.8.1);
    '' while it may."""
    held = [x for x in s.corp_trains(corp) if trains.is_rusted(s, x)]
    cap = rs.k("title_rules", "relic_limit")
    if len(held) >= cap:
        return (f"{corp} already owns {counted(len(held), 'rusted certificate')}: at most {cap} per company "
                f"(RULES §8.8.1)")
    return ""


def rusted_from_company_bar(s, rs, buyer: str, seller: str, train_id: str) -> str:
    """A rusted certificate bought from another company counts toward the cap like one from the
    supply: rusted certificates "may be bought between companies in the normal manner" (§8.8.1)."""
    return past_cap(s, rs, buyer) if trains.is_rusted(s, train_id) else ""


# --------------------------------------------------------------------------- thrown away (§8.8.1)

def relic_discard_bars(s, rs, corp) -> list[str]:
    """Within its limit, a company throws away only a rusted certificate, in its own train step (§8.8.1)."""
    if not any(trains.is_rusted(s, t) for t in s.corp_trains(corp)):
        return [f"{corp} is not over its train limit: trains are discarded only when the limit drops"]
    return []


def cmd_discard(ctx, cmd) -> None:
    """In its own train step a company within its limit may throw away a rusted certificate to make
    room (RULES §8.8.1); over the limit it discards as the shared rule says."""
    s, rs = ctx.state, ctx.rs
    corp = names.corp(rs, cmd.get("corp"))
    due = any(p["kind"] == "discard" and p["corp"] == corp for p in s.pending)
    relics = [t for t in s.corp_trains(corp) if trains.is_rusted(s, t)]
    if due or not (s.round.get("corp") == corp and relics):
        train_step.cmd_discard(ctx, cmd)
        return
    name, side_name = names.side(rs, cmd.get("type"))
    train_id = train_step.owned(s, rs, corp, name, side_name)
    if train_id not in relics:
        raise RuleViolation(f"{corp} is within its train limit: only a rusted certificate may be thrown away "
                            f"to make room")
    ctx.emit("train_discarded", corp=corp, train=train_id, rusted=True,
             trains=[[train_id, company_acct(corp), RUSTED]], flags={train_id: {"bought_rusted": None}})


# --------------------------------------------------------------------------- flips (§8.8.2)

def cmd_flip(ctx, cmd) -> None:
    """Turn a x2 certificate to its single-train side to get within the train limit."""
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
    train_step.check_limits(ctx)


# --------------------------------------------------------------------------- events

@event
class RelicsReturned:
    """Gray phase: the single certificates of earlier colours return for sale, rusted (§15.6)."""
    phase: str

    def describe(e, rs):
        return f"{len(e['trains'])} rusted certificates return to the supply for sale"


@event
class TrainFlipped:
    corp: str
    train: str
    side: str

    def describe(e, rs):
        return f"{e['corp']} flips {a_train(e['train'])} to its {e['side']} side"
