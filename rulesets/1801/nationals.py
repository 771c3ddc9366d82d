"""1801 / 18OE: nationals (§9.4, §11.6.6, §11.3.10): the conversion window as the first train of
Train Phase 4, 6 or 8 is bought, forming a national, claiming and flipping rusted trains, a
national's revenue by capacity, and a national's discards."""

from __future__ import annotations

from ledger.core import names
from ledger.core.plays import Bounds, Text
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import counted, event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.rules import revenue, shares, train_step, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, POOL, RUSTED, acct_name, company_acct, player_acct

from .common import is_rusted, kind_of, level, pullmans_of, rules, train_name
from .end import check_repeat, record_final_run
from .mergers import abandon
from .pullmans import PULLMAN_CORP, pullman_value

# a conversion into a national offered in this company turn (§9.4)
ROUND_FIELDS = {"operating": {"conversion": "dict | None"}}
KNOBS = {"title_rules": {
    "conversion_phases": Knob(list, None, REQUIRED),
    "national_leftover": Knob(dict, None, REQUIRED),
    "no_claim_after_forced": Knob(bool, None, False),                     # D18 #32
    "sml_outside_limit": Knob(bool, None, False),                         # D18 #35
}}


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
    if player in window.get("declined", ()):
        refuse(f"{player} has declined to convert: his turn in this window is over (§9.4)")
    form_national(ctx, corp, forced=False, keep=[t for t, holder in window["rusting"]
                                                 if holder == company_acct(corp) and s.trains.get(t) == RUSTED])
    ctx.emit("conversion_window", window={**window, "next": order.index(player), "opened": False})


def cmd_decline(ctx, cmd) -> None:
    """§9.4: a player in the open window converts nothing: his turn in it is over, and the players
    after him in the order keep theirs; the last one's decline closes the window."""
    s = ctx.state
    player = names.player(s, cmd.get("player"))
    window = conversion_window(s)
    if not window:
        refuse("there is no conversion to decline: majors become nationals only as the first train of Train "
               "Phase 4, 6 or 8 is bought (§9.4)")
    order = window["order"]
    if order.index(player) < window["next"] or player in window.get("declined", ()):
        refuse(f"{player}'s turn in this conversion window is over (§9.4)")
    declined = [*window.get("declined", ()), player]
    after = window["next"]
    while after < len(order) and order[after] in declined:   # the order moves on past those who declined
        after += 1
    if after >= len(order):
        close_conversion_window(ctx)
        return
    ctx.emit("conversion_window", window={**window, "next": after, "opened": False, "declined": declined})


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
    # D18 #35: the SML's 2+2 becomes an ordinary rusted train of the national (its others rust as they
    # go), or (option sml_outside_limit) stays outside its limit as §14.10 says
    held = [t for t in s.corp_trains(corp) if trains.flags(s, t).get("outside_limit")]
    sml = {"rusted": True} if rules(rs, "sml_outside_limit") else {"outside_limit": None, "rusted": True}
    flags = {t: {"rusted": True} for t in keep} | {t: dict(sml) for t in held}
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
        given = sorted((t for t in s.corp_trains(corp) if trains.train_type(t) == old_name and is_rusted(s, t)),
                       key=lambda t: bool(trains.flags(s, t).get("outside_limit")))   # the SML's 2+2 last
        old = given[0] if given else None
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
             flags={box[0]: {"rusted": True, "side": chosen},
                    **({old: {"rusted": None, "side": None, "outside_limit": None}} if old else {})})
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
    reserved = rules(rs, "reserved_train")
    if names.side(rs, cmd.get("type"))[0] != reserved or cmd.get("swap") or cmd.get("source"):
        refuse(f"the Swift Metropolitan Line gives a rusted {reserved}, nothing else: claim {corp} {reserved} "
               f"--using {sym} (§14.10)")
    owner = s.privates[sym].owner
    pres = s.president(corp)
    if s.privates[sym].closed or owner != player_acct(pres or ""):
        refuse(f"{corp}'s president {pres} does not hold the Swift Metropolitan Line face up (§14.10)")
    if int(s.phase) < int(rules(rs, "pullman_phase")):
        refuse(f"the Swift Metropolitan Line is used from Train Phase {rules(rs, 'pullman_phase')} (§14.10); it is "
               f"Phase {s.phase}")
    if kind_of(s, corp) == "national":
        refuse(f"{corp} is a national: the Swift Metropolitan Line serves a minor, regional or major (§14.10)")
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


def unlinked(cmd, key: str, what: str) -> int:
    """How many of the home zone's {what} the national's trains do not reach (--unlinked-...)."""
    raw = cmd.get(key)
    return 0 if raw is None else names.amount(raw, f"the unlinked {what}")


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
                           unlinked(cmd, "unlinked_cities", "cities"), unlinked(cmd, "unlinked_towns", "towns"))
    if not s.corp_trains(corp):
        got["revenue"] = 0
    check_repeat(s, rs, corp, got["revenue"], "pay")
    ctx.emit("national_revenue", corp=corp, **got)
    if got["revenue"]:
        revenue.pay_out(ctx, corp, got["revenue"], "pay")
    else:
        revenue.withhold(ctx, corp, 0)
    record_final_run(ctx, corp, got["revenue"], "pay")


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


def window_players(s, rs) -> list[str]:
    """The players who may still convert in the open window, in order from the buyer (§9.4)."""
    window = conversion_window(s)
    return [p for p in window["order"][window["next"]:] if p not in window.get("declined", ())] if window else []


def presided_majors(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) == "major" and s.president(c) == player]


def convert_phrase(s, rs, players) -> str:
    return "{commands} (convert a major into a national, §9.4)"


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


def sml_serves(s, rs, corp: str) -> bool:
    """The Swift Metropolitan Line may give this railroad a rusted 2+2 now (§14.10): its president
    holds it face up, from Train Phase 4, and the railroad is no national."""
    sml = s.privates.get(PERMANENT_TRAIN)
    pres = s.president(corp)
    return (sml is not None and not sml.closed and pres is not None and sml.owner == player_acct(pres)
            and int(s.phase) >= int(rules(rs, "pullman_phase")) and kind_of(s, corp) != "national")


def claim_bars(s, rs, corp) -> list[str]:
    """Only a national claims rusted trains (§11.6.6), and another railroad only through the Swift
    Metropolitan Line (§14.10)."""
    if corp is None or corp not in s.corps or kind_of(s, corp) == "national" or sml_serves(s, rs, corp):
        return []
    return [f"{corp} is a {kind_of(s, corp)}: only a national claims rusted trains (§11.6.6), and another railroad "
            f"a rusted {rules(rs, 'reserved_train')} only through the Swift Metropolitan Line its president holds face "
            f"up, from Train Phase {rules(rs, 'pullman_phase')} (§14.10); it buys with train"]


def claimable_types(s, rs, corp, args) -> list[str]:
    """The trains a claim may name: for a national, the rusted types in the Locomotive Works and the
    types the majors of its president run (a swap --from one of them); for any other railroad, the
    Swift Metropolitan Line's rusted 2+2 (§14.10)."""
    if kind_of(s, corp) != "national":
        reserved = rules(rs, "reserved_train")
        return [reserved] + [sd.name for sd in rs.train(reserved).sides]
    majors = same_president_majors(s, rs, corp, args)
    held = {trains.train_type(t) for m in majors for t in s.corp_trains(m)}
    types = sorted(set(rusted_types(s, rs, corp, args)) | held, key=int)
    return list(dict.fromkeys(w for n in types for w in [n] + [sd.name for sd in rs.train(n).sides]))


def same_president_majors(s, rs, corp, args) -> list[str]:
    if kind_of(s, corp) != "national":
        return []
    pres = s.president(corp) if corp in s.corps else None
    return [c for c in s.corps if c != corp and pres and s.president(c) == pres and kind_of(s, c) == "major"]


def rusted_held(s, rs, corp, args) -> list[str]:
    """What a national may give back in a swap (--for): its rusted trains' types."""
    if kind_of(s, corp) != "national":
        return []
    held = sorted({trains.train_type(t) for t in s.corp_trains(corp) if is_rusted(s, t)}, key=int)
    return list(dict.fromkeys(w for n in held for w in [n] + [sd.name for sd in rs.train(n).sides]))


RUN_WORDS = {
    "cities": lambda *_: Text("the linked cities' values, comma-separated (80,60,60)", probe="10"),
    "towns": lambda *_: Text("the linked towns' values, comma-separated (20,10)", probe="10"),
    "unlinked_cities": lambda *_: Bounds(0),
    "unlinked_towns": lambda *_: Bounds(0),
}


def claim_phrase(s, rs, corps) -> str:
    return f"{{command}} (rusted trains: {', '.join(rusted_types(s, rs, corps[0], {})) or 'none'})"


@event
class NationalFormed:
    """§9.4: a major becomes a national (forced: §11.6.4, its president's cash to the bank too)."""
    corp: str
    president: str
    president_cash: int
    cash: int
    forced: bool = False
    kept: list[str] = None   # the trains rusting as it formed, which it keeps (E28)

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.stations, c.tokens_used = (), 0
        for sym, _was, now in e.get("assets") or ():   # track rights and port authority: out of play
            if now is None:
                s.assets[sym].closed = True
        # §9.4 step 4: its Orient Express marker is removed from play too
        s.own.oe_markers = [m for m in s.own.oe_markers if m != e["corp"]]

    def describe(e, rs):
        why = (f"{e['president']} cannot pay for its train and hands the bank his {rs.money(e['president_cash'])}; "
               if e.get("forced") else "")
        return (f"{why}{e['corp']} becomes a national: its {rs.money(e['cash'])} to the bank, its treasury shares to the "
                f"Open Market, its tokens off the map")


@event
class ConversionWindow:
    """§9.4: the moment the first train of Train Phase 4, 6 or 8 is bought, players from the buyer
    may convert majors into nationals (`window` None: the moment has passed)."""
    window: dict = None

    def apply(s, e):
        s.round = s.round.but(conversion=e["window"])

    def describe(e, rs):
        w = e.get("window")
        if w and w.get("opened"):
            return (f"majors may become nationals now (§9.4): {', '.join(w['order'])} in turn "
                    f"(convert PLAYER MAJOR)")
        return None


@event
class NationalsKeepRusted:
    """§9.4, §11.6.6: nationals keep their trains as they rust (turned to their local side)."""
    trains_kept: list[str]

    def describe(e, rs):
        names = [train_name(rs, t) for t in e["trains_kept"]]
        kept = " and ".join(counted(names.count(n), f"rusted {n} train") for n in dict.fromkeys(names))
        return f"nationals keep {kept} (§9.4, §11.6.6)"


@event
class TrainClaimed:
    """§11.6.6: a national takes a rusted train (giving one back), or a major's train for half."""
    corp: str
    train: str
    gave: str = None
    source: str = None
    paid: int = 0

    def describe(e, rs):
        if e.get("source"):
            what = (f"{e['corp']} takes {e['source']}'s {train_name(rs, e['train'])} train, the bank paying "
                    f"{e['source']} {rs.money(e['paid'])}")
        else:   # taken on the side the table named, else its local side (§11.6.6)
            side = ((e.get("flags") or {}).get(e["train"]) or {}).get("side")
            local = rs.train(trains.train_type(e["train"])).sides[0].name
            what = f"{e['corp']} claims a rusted {train_name(rs, e['train'], side or local)}"
        return what + (f", giving back a rusted {train_name(rs, e['gave'])}" if e.get("gave") else "") + " (§11.6.6)"


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
        return (f"{e['player']}'s Swift Metropolitan Line gives {e['corp']} a rusted {train_name(rs, e['train'])} "
                f"for good (§14.10)")


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
    capacity: list[int]

    def describe(e, rs):
        cap_c, cap_d, cap_t = e["capacity"]
        capacity = ", ".join([counted(cap_c, "city", "cities")] + [f"{cap_d} doubled"] * bool(cap_d)
                             + [counted(cap_t, "town")] * bool(cap_t))
        left = rules(rs, "national_leftover")   # §11.3.10 #4: capacity left over, counted at £60 a city, £10 a town
        parts = [f"cities {rs.money(e['cities'])}"] + [f"towns {rs.money(e['towns'])}"] * bool(cap_t or e["towns"])
        parts += [f"{counted(e['left_cities'], 'more city', 'more cities')} at {rs.money(left['city'])}"] * bool(e["left_cities"])
        parts += [f"{counted(e['left_towns'], 'more town')} at {rs.money(left['town'])}"] * bool(e["left_towns"])
        parts += [f"Pullman {rs.money(e['pullman'])}"] * bool(e["pullman"])
        return f"{e['corp']} runs by capacity ({capacity}): {', '.join(parts)}: {rs.money(e['revenue'])} (§11.3.10)"


@event
class NationalTrainFlipped:
    corp: str
    train: str
    side: str

    def describe(e, rs):
        express = next((x.name for x in rs.train(trains.train_type(e["train"])).sides if x.name != e["side"]), None)
        return f"{e['corp']} turns its rusted {express or train_name(rs, e['train'])} to its {e['side']} side (§11.6.6)"


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("convert", "operating", "As the first train of Train Phase 4, 6 or 8 is bought, the player turns a "
             "major of his into a national, in player order from the buyer (1801 §9.4).", "bank convert Ann WW",
             (Arg("player", "player"), Arg("corp", "company")), label="Convert to a national"),
        Verb("decline", "operating", "In the conversion window the player converts no major: his turn in it is "
             "over (1801 §9.4).", "bank decline Ben", (Arg("player", "player"),), label="Convert no major"),
        Verb("claim", "operating", "A national takes an unclaimed rusted train free (--for OLD: in exchange for a "
             "lower one; --from MAJOR: its owner's major's un-rusted train, the bank paying it half) (1801 §11.6.6); "
             "--using SML gives a railroad a permanent 2+2 (§14.10).", "bank claim WW 3 --for 2",
             (Arg("corp", "company"), Arg("type", "side")),
             (Opt("--for", "swap", kind="side", help="the national's rusted train given back"),
              Opt("--from", "source", kind="company", help="the major (same president) whose train it takes"),
              Opt("--using", "using", kind="private", help="SML: the Swift Metropolitan Line's permanent 2+2")), label="Claim a rusted train"),
        Verb("flip", "operating", "A national turns a rusted train from its express side to its local side, free "
             "(1801 §11.6.6).", "bank flip WW 3", (Arg("corp", "company"), Arg("type", "side")), label="Flip a rusted train"),
        Verb("run", "operating", "A national's revenue by capacity, paid out in full: its home zone's linked "
             "cities and towns, the unlinked ones counted (1801 §11.3.10).",
             "bank run WW --cities 80,60 --towns 20 --unlinked-cities 1",
             (Arg("corp", "company"),),
             (Opt("--cities", "cities", help="values of the linked cities and red zones in its home zone: 80,60,60"),
              Opt("--towns", "towns", help="values of the linked towns in its home zone: 20,10"),
              Opt("--unlinked-cities", "unlinked_cities", kind="amount", help="how many cities are not linked"),
              Opt("--unlinked-towns", "unlinked_towns", kind="amount", help="how many towns are not linked")), label="Run by capacity"),
    ),
)


def register(reg) -> None:
    reg.on("before_verb", window_closes)
    reg.rule("rusting", rusting)
    reg.verb("convert", cmd_convert, "operating",
             elsewhere="majors become nationals as the first train of Train Phase 4, 6 or 8 is bought (§9.4)",
             who=window_players, candidates={"corp": presided_majors}, phrase=convert_phrase,
             not_actor=convert_not_actor)
    reg.answer("discard", "convert", cmd_convert, who=window_players, candidates={"corp": presided_majors},
               phrase=convert_phrase, not_actor=convert_not_actor)
    reg.verb("decline", cmd_decline, "operating",
             elsewhere="a conversion is declined in the window the first train of Train Phase 4, 6 or 8 opens (§9.4)",
             who=window_players, phrase=lambda *_: "decline (convert no major, §9.4)", not_actor=convert_not_actor)
    reg.verb("claim", cmd_claim, "operating", elsewhere="rusted trains are claimed in an operating turn (§11.6.6)",
             bars=claim_bars,
             candidates={"type": claimable_types, "source": same_president_majors, "swap": rusted_held,
                         "using": lambda s, rs, corp, args: [PERMANENT_TRAIN] if sml_serves(s, rs, corp) else []},
             together=(("swap", "source"),),
             phrase=claim_phrase)
    reg.verb("flip", cmd_flip, "operating", elsewhere="a national flips its rusted trains in its operating turn "
             "(§11.6.6)", candidates={"type": rusted_held})
    reg.verb("run", cmd_run, "operating", elsewhere="a national runs in its operating turn (§11.3.10)",
             phrase=lambda *_: "run (its revenue by capacity)", candidates=RUN_WORDS)
    reg.rework("operating", "discard", handler=cmd_discard)
    reg.answer("discard", "discard", cmd_discard, who=train_step.owing_discard, phrase=train_step.discard_phrase)
    reg.on("phase_changed", nationals_keep_rusted)
    reg.on("phase_changed", open_conversion_window)
