"""The track and station steps of a company's turn: tiles and their fees, private companies' track
and station powers, station markers, moving a station.

Rules: 1830 SEED "Operating Rounds" (digest §8.3); 1843 RULES §8.4, §8.5, §10.2 (digest D5.3).
The map is out of scope: the players announce terrain costs (and, with --with, which of the title's
fee modifiers apply) and the bank prices the tile through the title's modifiers (core/fees.py: by
default a company's second yellow tile, a private's fee, a hex's fee). A station marker is a record
(city, charter slot, cost: state.Station); its price is the slot's on the charter, or the base the
table announces (1839 D5.3), through the title's token modifiers (1801 §12.4).
"""

from __future__ import annotations

from ledger.core.events import counted
from ledger.core import fees, names, registry
from ledger.core.errors import RuleViolation, refuse
from ledger.core.plays import Bounds, Picks, Quoted, Text
from ledger.core.rules import privates, turn
from ledger.core.state import BANK, company_acct


def cmd_tile(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = turn.operating_corp(ctx, cmd.get("corp"), "tile")
    using = cmd.get("using")
    if not using:   # the step's order first: then no word of the lay matters (nor is read) when it is over
        for why in track_step_over(s, corp):
            refuse(why)
    terrain = names.amount(cmd.get("cost"), "tile cost")
    hex_fee = hex_fee_of(rs, cmd.get("hex"))
    asked = fees.parse_asked(cmd.get("modifiers"))
    if using:  # a private's lay: an extra one may come at any time in the turn (R18)
        tile_with_private(ctx, corp, names.private(rs, using), terrain, hex_fee, asked, cmd.get("hex"))
        return
    points = tile_points(s, rs, corp, cmd)
    for why in tile_bars(s, rs, corp, points):
        refuse(why)
    allowed = rs.k("operating", "tile_costs")
    if allowed and terrain not in allowed:
        refuse(f"no tile in {rs.title} costs {rs.money(terrain)}", f"terrain costs: {', '.join(map(str, allowed))}")
    sources = {"second_tile": next_tile_fee(s, rs, corp), "hex": hex_fee}
    cost, steps = tile_price(s, rs, corp, terrain, sources, asked, cmd.get("hex"))
    turn.pay_from(ctx, corp, cost, "the tile")
    more = {"points": points} if rs.company_kind(s.corps[corp].kind).tile_points else {}
    emit_tile(ctx, corp, cost, terrain, hex_charged(rs, hex_fee), steps, hex=cmd.get("hex"), **more)


def tile_price(s, rs, corp: str, terrain: int, sources: dict, asked: dict, hex_name=None) -> tuple[int, list]:
    """A tile's cost: the announced terrain through the title's tile modifiers (fees.py)."""
    steps = fees.resolve(rs.fees["tile"], asked, sources, s.corps[corp].kind, rs.money, {"hex": hex_name})
    return fees.price(terrain, steps, "terrain")


def hex_charged(rs, hex_fee: int) -> int:
    """The hex's fee when the title's tile modifiers charge it (every title that has hex fees)."""
    return hex_fee if any(m.source == "hex" for m in rs.fees["tile"]) else 0


def emit_tile(ctx, corp: str, cost: int, terrain: int, hex_fee: int, steps: list, **more) -> None:
    """The tile event: `fee` is whatever the cost holds besides terrain and the hex's fee (1843: a
    second tile's or a private's fee), so cost = terrain + fee + hex_fee always holds."""
    ctx.emit("tile_laid", corp=corp, cost=cost, terrain=terrain, fee=cost - terrain - hex_fee, hex_fee=hex_fee,
             steps=steps, transfers=[[company_acct(corp), BANK, cost]] if cost else [], **more)


# --------------------------------------------------------------------------- what the turn allows
# One statement of when track and stations may be laid: the commands refuse with these reasons and
# the turn hint (views.turn_steps) offers a step only when there are none.

def tile_lays(rs, corp: str) -> int:
    """Ordinary tile lays a turn: the title's, and one more where the charter sets a fee for it
    (1843 §8.4.1: EST, MID, OU, PRO and SO may lay a second yellow tile)."""
    extra = rs.corporation(corp).extra_tile_fee
    return rs.k("operating", "tile_lays") + (0 if extra is None else 1)


def next_tile_fee(s, rs, corp: str) -> int:
    """The fee on the company's next ordinary tile: none within the title's lays, the charter's after."""
    return rs.corporation(corp).extra_tile_fee if s.round["tiles"] >= rs.k("operating", "tile_lays") else 0


def track_step_over(s, corp: str) -> list[str]:
    """Why the operating company's track step is over (none while it is open): track is laid before
    the station or port, and both before the trains run (1830 SEED "Operating Rounds", 1843 §8.1)."""
    r, out = s.round, []
    if r["revenue"] is not None:
        out.append(f"{corp} has already run this turn: laying track comes before running trains")
    # (a station that came with its own tile may leave the normal lay open: `track_open`)
    if (r["token"] and not r.get("track_open")) or r.get("special"):
        out.append(f"{corp} has placed its station token: track is laid before the token")
    if r.get("station_step"):   # the station step taken otherwise (TURN_RESET: 1843's port claim)
        out.append(f"{corp} has {r['station_step']}: track is laid before the station step")
    return out


def tile_points(s, rs, corp: str, cmd) -> int:
    """The tile points a lay costs (--points, 1 when left out), as the title prices a tile."""
    points = int(cmd.get("points") or 1)
    if cmd.get("points") is not None and not rs.company_kind(s.corps[corp].kind).tile_points:
        refuse(f"{corp} ({s.corps[corp].kind}) does not count tile points: leave --points out")
    costs = rs.k("operating", "tile_point_costs")
    if costs and points not in costs:
        refuse(f"a tile costs {', '.join(map(str, costs[:-1]))} or {costs[-1]} tile points in {rs.title}, not {points}")
    return points


def point_costs(s, rs, corp, args) -> list[int]:
    """What --points may say: the title's tile prices in points, where the company's kind counts them."""
    if not rs.company_kind(s.corps[corp].kind).tile_points:
        return []
    return list(rs.k("operating", "tile_point_costs") or (1, 2))


def tile_bars(s, rs, corp: str, points: int = 1) -> list[str]:
    """Why the company may not lay an ordinary tile now (none: it may). A kind with tile points
    lays while its points last (1801 §11.1: minors and regionals 3, majors 6, each tile 1 or 2);
    else the title counts lays."""
    out = track_step_over(s, corp)
    budget = rs.company_kind(s.corps[corp].kind).tile_points
    if budget:
        # the points a title's own rules add (1801 §15.7: Minor G's, §15.5-6: E/F's for this turn)
        extra = registry.of(rs).rules.get("extra_tile_points")
        budget += extra(s, rs, corp) if extra else 0
        spent = s.round.get("points", 0)
        if spent + points > budget:
            out.append(f"tile points: {corp} has {budget - spent} of its {budget} left this turn, "
                       f"this tile costs {points}")
        return out
    lays = tile_lays(rs, corp)
    if s.round["tiles"] >= lays:
        out.append(f"{corp} has laid its tile{'s' if lays > 1 else ''} this turn ({counted(lays, 'lay')} a turn)")
    return out


def can_lay_tile(s, rs, corp: str) -> bool:
    return not tile_bars(s, rs, corp)


def station_bars(s, corp: str) -> list[str]:
    """Why the company may not place a station now (none: it may): one a turn, none after a title's
    use of the station step (1843 §8.5: a port claim) or a private's station power, and none once the
    trains have run."""
    r, out = s.round, []
    if r["revenue"] is not None:
        out.append(f"{corp} has already run this turn: placing a station comes before running trains")
    if r["token"]:
        out.append(f"{corp} has placed a station this turn (one a turn)")
    if r.get("station_step"):
        out.append(f"{corp} has {r['station_step']} this turn: that was its station step")
    if r.get("special"):
        out.append(f"{corp} used a private's station power this turn: that was its station")
    return out


def charter_slots(s, rs, corp: str) -> int:
    """The charter slots the company has now: all of them, or its kind's first few (1801: a
    regional's two; the major it becomes has all eight)."""
    printed = len(rs.corporation(corp).tokens)
    own = rs.company_kind(s.corps[corp].kind).token_slots
    return min(own, printed) if own else printed


def markers_left(s, rs, corp: str) -> int:
    """The charter's markers less those placed, the home one included."""
    return charter_slots(s, rs, corp) - s.corps[corp].tokens_used


def free_slots(s, rs, corp: str) -> list[int]:
    """The charter slots (numbered from 1) no placed marker came from."""
    taken = {st.slot for st in s.corps[corp].stations}
    return [n for n in range(1, charter_slots(s, rs, corp) + 1) if n not in taken]


def hex_fee_of(rs, raw) -> int:
    if raw is None:
        return 0
    fee = rs.hex_fees.get(str(raw).lower())
    if fee is None:
        known = ", ".join(rs.hex_fees) or "none in this title"
        raise RuleViolation(f"no fee is set for the hex '{raw}'", f"hexes with fees: {known}")
    return fee


def own_open_private(s, corp: str, sym: str) -> None:
    why = privates.not_held(s, sym, company_acct(corp))
    if why:
        raise RuleViolation(why)


def tile_with_private(ctx, corp: str, sym: str, terrain: int, hex_fee: int, asked: dict, hex_name=None) -> None:
    """A company-owned private's track power: an extra lay (1830 CS, 1843 TB/SG) or the special hex
    lay that is the turn's lay (1830 DH)."""
    s, rs = ctx.state, ctx.rs
    p, held = rs.private(sym), s.privates[sym]
    own_open_private(s, corp, sym)
    if "tile" in held.used and not p.ability("several_tiles"):
        refuse(f"{sym}'s track ability has been used")
    if p.ability("special_tile_cost") is not None:
        for why in track_step_over(s, corp):
            refuse(f"{sym}'s tile is the turn's track lay: {why}")
        if terrain != p.ability("special_tile_cost"):
            refuse(f"{sym}'s tile costs {rs.money(p.ability('special_tile_cost'))}, not {rs.money(terrain)}")
        if s.round["tiles"] >= rs.k("operating", "tile_lays"):
            refuse(f"{sym}'s tile is the turn's tile lay and {corp} has already laid one")
        if asked:
            refuse(f"{sym}'s tile has its fixed cost: no fee modifiers apply")
        lay = {"free_token": True} if p.ability("free_token_after_tile") else {}
        (cost, steps), hex_fee = fees.price(terrain, [], f"{sym}'s tile (fixed)"), 0
    elif p.ability("extra_tile_lay"):
        if p.ability("track_step_only"):
            for why in track_step_over(s, corp):
                refuse(f"{sym}'s extra tile is laid in the track-building step ({p.ability('track_step_only')}): {why}")
        fixed = p.ability("extra_tile_cost")
        if fixed is not None and terrain != fixed:
            refuse(f"{sym}'s extra tile costs {rs.money(fixed)}, not {rs.money(terrain)}")
        # A station power that replaces the turn's track step (track_step_over) stops only the lays tied
        # to that step; a lay allowed at any time of the turn is beside it (1843 §10.2 Saint-Germain).
        lay = {"extra": True}
        cost, steps = tile_price(s, rs, corp, terrain, {"private": p.ability("tile_fee", 0), "hex": hex_fee}, asked,
                                 hex_name)
        hex_fee = hex_charged(rs, hex_fee)
    else:
        raise RuleViolation(f"{sym} has no track ability")
    turn.pay_from(ctx, corp, cost, "the tile")
    emit_tile(ctx, corp, cost, terrain, hex_fee, steps, private=sym, **lay)
    ctx.emit("ability_used", private=sym, ability="tile")
    if p.ability("closes_on_use"):
        privates.close(ctx, [sym], reason=f"{corp} used its power")


# --------------------------------------------------------------------------- stations

def cmd_token(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = turn.operating_corp(ctx, cmd.get("corp"), "token")
    using = cmd.get("using")
    if using:
        turn.before_revenue(s, corp, "placing a station")
    else:   # the turn's bars before the station's words: none of them is read when the step is over
        for why in station_bars(s, corp):
            refuse(why)
    city = station_city(s, corp, cmd.get("city"))
    if using:
        station_with_private(ctx, corp, names.private(rs, using), cmd.get("cost"), city)
        return
    if markers_left(s, rs, corp) <= 0:
        n = charter_slots(s, rs, corp)
        raise RuleViolation(f"{corp} has no station tokens left (all {n} placed)")
    slot = station_slot(s, rs, corp, cmd.get("slot"))
    asked = fees.parse_asked(cmd.get("modifiers"))
    cost, steps = station_price(s, rs, corp, slot, cmd.get("cost"), asked)
    cost, steps = quoted_cost(s, rs, corp, cost, steps, cmd.get("cost"))
    turn.pay_from(ctx, corp, cost, "the station")
    ctx.emit("token_placed", corp=corp, cost=cost, city=city, slot=slot, steps=steps,
             transfers=[[company_acct(corp), BANK, cost]] if cost else [])


def token_costs(s, rs, corp, args):
    """A station's COST as a command may give it: where the title prices a station from its
    location, the location's value (as much as the company could pay); else the charter's price,
    which the rule quotes."""
    if rs.stations["price"] == "announced":
        step = rs.k("operating", "revenue_multiple")
        return Bounds(step, max(step, s.cash(company_acct(corp))), step)
    return Quoted()


# What a token command's words may be, as the answer tries them (ledger.core.legal): the quoted or
# announced cost, a free slot of the charter, the fee modifiers the table may name, a city as printed.
TOKEN_WORDS = {
    "cost": token_costs,
    "slot": lambda s, rs, corp, args: [str(n) for n in free_slots(s, rs, corp)],
    "modifiers": lambda s, rs, corp, args: fee_picks(rs, "token"),
    "city": lambda s, rs, corp, args: Text("a city, as printed on the map", probe="CITY"),
}


def fee_picks(rs, kind: str):
    """The fee modifiers of a kind the table may name (--with), as the answer offers them."""
    alone, counted = fees.askable(rs.fees[kind])
    labels = tuple((m.name, m.label) for m in rs.fees[kind] if m.label)
    return Picks(alone, counted, labels=labels) if alone or counted else []


def station_city(s, corp: str, raw) -> str | None:
    """Where the marker goes, as typed; a company has one marker in a city."""
    if raw is None:
        return None
    city = str(raw).strip()
    if any(st.city and st.city.lower() == city.lower() for st in s.corps[corp].stations):
        refuse(f"{corp} already has a station in {city}")
    return city


def station_slot(s, rs, corp: str, raw) -> int:
    """The charter slot the marker comes from: the next one, or the one named (--slot N) where the
    title lets a company take any free slot (1801 §12.4); in charter order otherwise (1830, 1843)."""
    free = free_slots(s, rs, corp)
    if not free:
        raise RuleViolation(f"{corp} has no free slot on its charter")
    if raw is None:
        return free[0]
    n, count = names.whole_number(raw, "the slot"), charter_slots(s, rs, corp)
    if not 1 <= n <= count:
        raise RuleViolation(f"{corp}'s charter has slots 1 to {count}, not {n}")
    if n not in free:
        raise RuleViolation(f"{corp}'s slot {n} holds no marker now (placed, or given up to another company): "
                            f"a station comes from a free slot", f"free slots: {free}")
    if rs.stations["slots"] == "in_order" and n != free[0]:
        refuse(f"{corp}'s markers go down in charter order: the next is slot {free[0]}")
    return n


def station_price(s, rs, corp: str, slot: int, given, asked: dict) -> tuple[int, list]:
    """A station's cost: the slot's charter price (1830, 1843 §8.5.1; 1801 §12.4), or the base the
    table announces (1839 D5.3: the location's value), through the title's token modifiers; free
    after the private's tile (1830 D&H)."""
    if rs.stations["price"] == "announced":
        if given is None:
            raise RuleViolation(f"{rs.title} prices a station from the location's value: give it as COST")
        base, label = names.amount(given, "the location's value"), "the location's value"
        step = rs.k("operating", "revenue_multiple")
        if base < step or base % step:
            refuse(f"a location's revenue value is a multiple of {rs.money(step)} from {rs.money(step)}, not {given}")
    else:
        base, label = rs.corporation(corp).tokens[slot - 1], f"slot {slot} on the charter"
    steps = fees.resolve(rs.fees["token"], asked, {"locations": locations(s, rs, corp)}, s.corps[corp].kind,
                         rs.money)
    if s.round["free_token"]:
        # the label is recorded in the event (and audited against recorded games): kept as first written
        steps = [fees.Step("× 0 free after the private's tile (1830 D&H)", "times", 0)] + steps
    return fees.price(base, steps, label)


def locations(s, rs, corp: str) -> int:
    """The map locations where the company has markers (1839 D5.3): before this one (the seed), or
    with it ([stations] count_new, D15 B9). A marker whose city is not named counts as its own; one
    atop another of the company's (an exchange marker) adds none."""
    stations = [st for st in s.corps[corp].stations if not st.atop]
    named = {st.city.lower() for st in stations if st.city}
    return len(named) + sum(1 for st in stations if not st.city) + (1 if rs.stations["count_new"] else 0)


def quoted_cost(s, rs, corp: str, cost: int, steps: list, given) -> tuple[int, list]:
    """The COST the table typed must be the rules' (a charter-priced title); a banker who forces
    another records it as the last step."""
    if given is None or rs.stations["price"] == "announced" or names.amount(given, "token cost") == cost:
        return cost, steps
    why = "free after the private's tile" if s.round["free_token"] else "on the charter"
    refuse(f"{corp}'s next station costs {rs.money(cost)} ({why}), not {given}")
    forced = names.amount(given, "token cost")  # reached only when the banker forced this cost
    return forced, steps + [["as the banker forced it", cost, forced, None]]


def station_with_private(ctx, corp: str, sym: str, given, city: str | None = None) -> None:
    """1843 Havre / Boulogne-Amiens: tile and station at the private's hex for a fixed fee, in place
    of the turn's whole track and station step. The station is the charter's next marker (A5)."""
    s, rs = ctx.state, ctx.rs
    p = rs.private(sym)
    fee = p.ability("station_tile_fee")
    if fee is None:
        raise RuleViolation(f"{sym} has no station power")
    own_open_private(s, corp, sym)
    if "station" in s.privates[sym].used:
        refuse(f"{sym}'s station power has been used")
    if s.round["tiles"] or s.round["token"] or s.round.get("station_step"):
        refuse(f"{sym}'s power replaces {corp}'s whole track and station step, and {corp} has already "
               f"laid track or placed a station this turn")
    if markers_left(s, rs, corp) <= 0:
        raise RuleViolation(f"{corp} has no station markers left")
    if given is not None and names.amount(given, "cost") != fee:
        refuse(f"{sym}'s tile and station cost {rs.money(fee)}, not {given}")
    turn.pay_from(ctx, corp, fee, f"{sym}'s tile and station")
    _cost, steps = fees.price(fee, [], f"{sym}'s tile and station (fixed)")
    ctx.emit("token_placed", corp=corp, cost=fee, private=sym, city=city, slot=free_slots(s, rs, corp)[0],
             steps=steps, transfers=[[company_acct(corp), BANK, fee]])
    ctx.emit("ability_used", private=sym, ability="station")
