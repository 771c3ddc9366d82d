"""1839's privates' powers in an operating round (§12.2-§12.5; rules: shared/seeds/003_aa544c940024c360.txt
"§x"; digest shared/rules/1839.md "D x", its best readings "B n"): several tiles as the whole track lay
(`lay`), stations at a private's cost (`token --using`), Regiment Genietroepen's terrain (`tile --with
rg`), Credit Mobilier's discount and Beijnes' exchange (`train --using`), Nederlandsche Fabriek's early
trains, SAVED markers (`save`), the incomes the table announces (`income`) and Rotterdamsche Bank's
charge (`charge`). Each power is an ability of the private in ruleset.toml."""

from __future__ import annotations

from ledger.core.plays import join_words

from ledger.core import fees, names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import counted, event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.plays import Bounds
from ledger.core.rounds import operating
from ledger.core.rules import privates, shares, track, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, acct_name, company_acct, player_acct, train_type

from . import markers, obsolescence
from .common import country, owned_by, split
from .publics import marker_money_cap, station_bars

# The powers a private may have in the data (its colour is the draws')
PRIVATE_ABILITIES = {
    "tiles_max": int,            # lays up to so many tiles as the company's whole track lay (`lay`)
    "tile_each": int,            # ... for this fee a tile
    "lay_fee": int,              # ... or for this fee in all
    "station_fees": list,        # a station marker for one of these costs (`token --using`)
    "station_half": bool,        # a station marker at half its cost, rounded up
    "train_discounts": dict,     # so much off a train from the supply, by its colour (`train --using`)
    "discount_by": str,          # "train" (its colour) or "phase" (the phase's colour)
    "becomes_train": str,        # exchanged for a train the supply sells now, before this phase
    "converts_at_brown": str,    # a company's becomes this train as brown begins
    "early_trains": bool,        # its company may buy trains at any point of its turn
    "saved_markers": int,        # SAVED markers (`save`)
    "saved_price": int,          # ... sold to other companies for this
    "saved_owner_share": int,    # ... of which the owning company gets this
    "typed_income": bool,        # a player owner earns what the table announces each OR (`income`)
    "counts_abroad": bool,       # ... counted twice toward a foreign company's income it reaches
    "paid_per_company": bool,    # ... paid as each of its owner's companies operates (MEVS, D0.1 #5)
    "forced_float": int,         # its owner floats a company with this percent bought (`force-float`)
    "repar": bool,               # its owner re-pars a company he floated this SR (`repar`)
    "charges_director": bool,    # its company charges its director for costs (`charge`)
    "charge_for_costs": bool,    # ... money spent on station, track or train costs in that turn
    "station_after_second_tile": bool,   # its marker may follow a second tile (§12.2-12.3)
    "tile_beside_lay": bool,     # its tile is besides the normal lay, which stays open (§12.2)
    "tile_as_lay": bool,         # its tile is one of the company's tile lays, the other stays open (§12.3)
}


# How `bank info` says these abilities (ledger.interface.powers reads them through the title's parts).
ABILITY_WORDS = {
    "tiles_max": lambda v, rs: f"up to {v} tiles as the company's track lay",
    "tile_each": lambda v, rs: f"{rs.money(v)} a tile",
    "lay_fee": lambda v, rs: f"or {rs.money(v)} in all",
    "station_fees": lambda v, rs: f"a station for {join_words([rs.money(x) for x in v])}",
    "station_half": lambda v, rs: "a station at half its cost, rounded up",
    "train_discounts": lambda v, rs: "off a train: " + ", ".join(f"{k} {rs.money(x)}" for k, x in v.items()),
    "discount_by": lambda v, rs: f"by the {v}'s colour",
    "becomes_train": lambda v, rs: f"exchanged for a train before {v}",
    "converts_at_brown": lambda v, rs: f"a company's becomes a {v} as brown begins",
    "early_trains": lambda v, rs: "its company buys trains at any point of its turn",
    "saved_markers": lambda v, rs: f"{v} SAVED marker{'s' if v != 1 else ''}",
    "saved_price": lambda v, rs: f"sold to companies for {rs.money(v)}",
    "saved_owner_share": lambda v, rs: f"of which its company gets {rs.money(v)}",
    "typed_income": lambda v, rs: "a player owner earns what the table announces each OR",
    "counts_abroad": lambda v, rs: "counted twice toward a foreign company's income it reaches",
    "paid_per_company": lambda v, rs: "paid as each of its owner's companies operates",
    "forced_float": lambda v, rs: f"its owner floats a company with {v}% bought",
    "repar": lambda v, rs: "its owner re-pars a company he floated this stock round",
    "charges_director": lambda v, rs: "its company charges its director for costs",
    "tile_as_lay": lambda v, rs: "its tile is one of the company's tile lays",
}
# a company's turn: a private's tiles laid (§12.3), what it drew from its director (§12.5)
ROUND_FIELDS = {"operating": {"private_lay": "bool", "charged": "int"}}
KNOBS = {"powers": {
    # §12.4: the private whose fee modifier (ruleset.toml [[fees.tile]]) a company names with --with
    "terrain_privates": Knob(dict, None, {"RG": "rg"}),
}}


def power_of(ctx, corp: str, raw, ability: str) -> tuple[str, object]:
    """The private named, owned and open, with the ability asked for."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, raw)
    value = rs.private(sym).ability(ability)
    if value is None:
        raise RuleViolation(f"{sym} has no such power")
    if not owned_by(s, sym, corp):
        raise RuleViolation(privates.not_held(s, sym, company_acct(corp)))
    return sym, value


def used(ctx, corp: str, sym: str, ability: str) -> None:
    ctx.emit("ability_used", private=sym, ability=ability)
    if ctx.rs.private(sym).ability("closes_on_use"):
        privates.close(ctx, [sym], reason=f"{corp} used its power")


def cmd_lay(ctx, cmd) -> None:
    """§12.2, §12.5: Staatslijnen C/D/E/K and Van Vlissingen (up to 4 tiles at ƒ10 each) and De
    Ambachtsschool (two upgrades for ƒ20 in all) lay several tiles as the company's whole track lay,
    plus the terrain the table announces."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "lay")
    sym, most = power_of(ctx, corp, cmd.get("private"), "tiles_max")
    count = names.whole_number(cmd.get("count"), "the number of tiles")
    if not 1 <= count <= most:
        refuse(f"{sym} lays 1 to {most} tiles, not {count}")
    if s.round["tiles"]:
        refuse(f"{sym}'s tiles are {corp}'s whole track lay, and {corp} has laid a tile this turn")
    terrain = names.amount(cmd.get("terrain") or 0, "terrain")
    p = rs.private(sym)
    fee = p.ability("lay_fee") if p.ability("lay_fee") is not None else p.ability("tile_each", 0) * count
    cost = fee + terrain
    turn_pay(ctx, corp, cost)
    ctx.emit("tiles_laid_with_private", corp=corp, private=sym, count=count, fee=fee, terrain=terrain,
             lays=rs.k("operating", "tile_lays"),
             transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    used(ctx, corp, sym, "tile")


def turn_pay(ctx, corp: str, cost: int) -> None:
    s, rs = ctx.state, ctx.rs
    cash = s.cash(company_acct(corp))
    if cash < cost:
        raise RuleViolation(f"{corp} has {rs.money(cash)}, not {rs.money(cost)}")


def cmd_token(ctx, cmd) -> None:
    """`token CORP VALUE --using PRIVATE`: Cornelis Outshoorn (free), Zevenaar-Kleef (ƒ80 with its
    tile), Schielands Hoge Zeedijk (ƒ80 at Venlo, free at Middelburg), Spoorwegwerken Oost (half the
    cost, rounded up: B9); otherwise the shared station rule. `--exchange`: the marker is the
    company's exchange marker, atop one of its stations (§8.2.4, markers.py)."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, cmd.get("using")) if cmd.get("using") else None
    # §12.2-12.3: ZK's and SHZ's marker may follow a second tile
    if not (sym and rs.private(sym).ability("station_after_second_tile")):
        for why in station_bars(s, rs, s.round.get("corp")):
            refuse(why)
    if not sym and not cmd.get("exchange"):
        track.cmd_token(ctx, cmd)
        return
    corp = operating_corp(ctx, cmd.get("corp"), "token")
    if sym and not owned_by(s, sym, corp):
        raise RuleViolation(privates.not_held(s, sym, company_acct(corp)))
    for why in track.station_bars(s, corp):   # a private's marker is still the turn's one marker (§8.2.4)
        refuse(why)
    if track.markers_left(s, rs, corp) <= 0:
        raise RuleViolation(f"{corp} has no station markers left")
    if sym and rs.private(sym).ability("tile_as_lay"):
        lay_left(s, rs, corp, sym)
    city = (markers.exchange_city(s, rs, corp, cmd.get("city")) if cmd.get("exchange")
            else track.station_city(s, corp, cmd.get("city")))
    slot = track.free_slots(s, rs, corp)[0]
    cost, steps = station_cost(ctx, corp, sym, slot, cmd)
    turn_pay(ctx, corp, cost)
    ctx.emit("token_placed", corp=corp, cost=cost, city=city, slot=slot, steps=steps,
             transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    if cmd.get("exchange"):
        markers.stacked(ctx, corp, city)
    if sym:
        if rs.private(sym).ability("tile_beside_lay"):
            ctx.emit("track_left_open", corp=corp, private=sym)
        if rs.private(sym).ability("tile_as_lay"):
            ctx.emit("private_tile_lay", corp=corp, private=sym)
        used(ctx, corp, sym, "station")


def station_values(shared):
    """The location's value a token command may give: with a private's fixed cost any value (it is
    not what is paid), with Spoorwegwerken Oost's half up to twice what the company can pay, else
    the shared rule's."""
    def found(s, rs, corp, args):
        sym = str(args.get("using") or "").upper()
        p = rs.private(sym) if sym in s.privates else None
        if p is not None and p.ability("station_fees") is not None:
            fees_ = list(p.ability("station_fees"))
            return Bounds(1) if len(fees_) == 1 else [str(f) for f in fees_]
        if p is not None and p.ability("station_half"):
            return Bounds(1, 2 * s.cash(company_acct(corp)) + 1)
        return shared(s, rs, corp, args)
    return found


def lay_left(s, rs, corp: str, sym: str) -> None:
    """§12.3: Schielands Hoge Zeedijk's tile and station go down in the track-building step "as one
    of the company's track lays": the shared reasons bar it as they bar an ordinary tile (the track step
    is over, or no lay is left: §8.2.3, two a turn); the words add the lays already made."""
    laid = f"{counted(s.round['tiles'], 'tile')} of its {track.tile_lays(rs, corp)} laid this turn"
    for why in track.tile_bars(s, rs, corp):
        refuse(f"{sym}'s tile is one of {corp}'s track lays (§12.3), {laid}: {why}")


def station_cost(ctx, corp: str, sym: str | None, slot: int, cmd) -> tuple[int, list]:
    """The marker's cost and how it was made: the shared rule's (the location's value x the
    locations), half of it (SWO), or the private's fixed cost (CO, ZK, SHZ)."""
    s, rs = ctx.state, ctx.rs
    given = cmd.get("cost")
    if sym is None:
        if given is None:
            raise RuleViolation("give the location's value as COST")
        return track.station_price(s, rs, corp, slot, given, fees.parse_asked(cmd.get("modifiers")))
    p = rs.private(sym)
    if p.ability("station_half"):
        if given is None:
            raise RuleViolation("give the location's value as COST")
        full, _steps = track.station_price(s, rs, corp, slot, given, fees.parse_asked(cmd.get("modifiers")))
        cost = -(-full // 2)
        return cost, [[f"half of {rs.money(full)}, rounded up ({sym})", cost, cost, None]]
    if p.ability("station_fees") is not None:
        allowed = list(p.ability("station_fees"))
        # one fixed cost (CO free, ZK ƒ80): a COST typed is the location's value, not asked for (a value);
        # several (SHZ: ƒ80 at Venlo, free at Middelburg): it says which
        if given is not None and len(allowed) == 1 and names.amount(given, "the location's value") < 1:
            refuse(f"a location's revenue value is at least {rs.money(1)}, not {given}")
        cost = allowed[0] if given is None or len(allowed) == 1 else names.amount(given, "the station's cost")
        if cost not in allowed:
            refuse(f"{sym}'s station costs {' or '.join(rs.money(a) for a in allowed)}, not {rs.money(cost)}")
        return cost, [[f"{sym}'s fixed cost", cost, cost, None]]
    raise RuleViolation(f"{sym} has no station power")


def cmd_tile(ctx, cmd) -> None:
    """Regiment Genietroepen's ƒ40 off terrain (`tile CORP 80 --with rg`) needs the company to own it."""
    s = ctx.state
    asked = fees.parse_asked(cmd.get("modifiers"))
    corp = names.corp(ctx.rs, cmd.get("corp"))
    for sym, name in ctx.rs.k("powers", "terrain_privates").items():
        if name in asked and not owned_by(s, sym, corp):
            refuse(f"--with {name} is {sym}'s power: {privates.not_held(s, sym, company_acct(corp))}")
    track.cmd_tile(ctx, cmd)


def train_discount(ctx, corp: str, name: str, seller: str, cmd) -> int:
    """`train CORP TYPE --using CM`: Credit Mobilier takes ƒ100/150/250 off a green/blue/brown
    train from the supply (B21, D0.1 #4: by the train's colour; option: the phase's). `--using JJB`:
    Beijnes is exchanged for a train the supply sells now, before brown (B15)."""
    s, rs = ctx.state, ctx.rs
    marker_money_cap(ctx, corp, name, seller, cmd)
    if not cmd.get("using"):
        return 0
    sym = names.private(rs, cmd.get("using"))
    p = rs.private(sym)
    if not owned_by(s, sym, corp):
        raise RuleViolation(privates.not_held(s, sym, company_acct(corp)))
    if seller != BANK:
        refuse(f"{sym}'s power is for a train from the supply (B21, B15)")
    if p.ability("becomes_train"):
        before = p.ability("becomes_train")
        if trains.phase_reached(s, rs, before):
            refuse(f"{sym} is exchanged for a train before {before} (§12.5)")
        ctx.emit("ability_used", private=sym, ability="train")
        privates.close(ctx, [sym], reason=f"{corp} exchanged it for a {name}")
        return rs.train(name).price
    discounts = p.ability("train_discounts")
    if discounts is None:
        raise RuleViolation(f"{sym} has no power over trains")
    colour = (s.phase if p.ability("discount_by") == "phase"
              else next((ph.name for ph in rs.phases if ph.on_train == name), ""))
    amount = discounts.get(colour, 0)
    if not amount:
        refuse(f"{sym} takes {', '.join(f'{rs.money(v)} off a {k}' for k, v in discounts.items())} train, "
               f"not off a {name} ({colour})")
    used(ctx, corp, sym, "train")
    return amount


def train_before_run(s, rs, corp: str) -> bool:
    """§12.5: a company owning Nederlandsche Fabriek may buy trains at any point of its turn."""
    return any(owned_by(s, p.sym, corp) for p in rs.privates if p.ability("early_trains"))


def save_bars(s, rs, corp) -> list[str]:
    """§12.5 (Verveers' and Beyer Peacock's cards): a SAVED marker is used in the train-buying step."""
    if s.round.get("revenue") is None:
        return [f"a SAVED marker is placed in {corp}'s train-buying step, after its run (§12.5): pay, half or "
                f"withhold its revenue first"]
    return []


def cmd_save(ctx, cmd) -> None:
    """§12.5 (D7.3): a SAVED marker on one of the company's trains in its turn: Verveers' own, or
    one of Beyer Peacock's three, bought from the company that owns it for ƒ200 (ƒ50 to that
    company, ƒ150 to the bank). The train outlives its rusting once."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "save")
    sym = names.private(rs, cmd.get("private"))
    p = rs.private(sym)
    if not p.ability("saved_markers"):
        raise RuleViolation(f"{sym} has no SAVED markers")
    held = s.privates[sym]
    if held.closed:
        raise RuleViolation(f"{sym} is closed: its unused SAVED markers left the game with it (§12.5)")
    if not str(held.owner).startswith("company:"):
        raise RuleViolation(f"{sym} is {acct_name(held.owner)}'s: its SAVED markers are used by the company "
                            f"that owns it (§12.5)")
    owner = acct_name(held.owner)
    left = p.ability("saved_markers") - s.own.saved.get(sym, 0)
    if left <= 0:
        refuse(f"{sym}'s SAVED markers are all used")
    price = p.ability("saved_price", 0)
    if price and owner == corp:
        refuse(f"{sym}'s markers are sold to other companies (§12.5)")
    if not price and owner != corp:
        refuse(f"{sym}'s marker is for {owner}'s own trains")
    name = names.train(rs, cmd.get("type"))
    held = [t for t in sorted(s.corp_trains(corp)) if train_type(t) == name]
    if not held:
        raise RuleViolation(f"{corp} has no {name} train")
    train = next((t for t in held if not trains.flags(s, t).get("saved")), None)
    if train is None:
        refuse(f"every {name} of {corp} already carries a SAVED marker")
    transfers = []
    if price:
        turn_pay(ctx, corp, price)
        share = p.ability("saved_owner_share", 0)
        transfers = [[company_acct(corp), company_acct(owner), share], [company_acct(corp), BANK, price - share]]
    ctx.emit("train_saved", corp=corp, private=sym, train=train, price=price, transfers=[t for t in transfers if t[2]],
             flags={train: {"saved": True}})
    if p.ability("closes_on_use") and left <= 1:   # Verveers closes once its marker is used (§12.5)
        privates.close(ctx, [sym], reason=f"{corp} used its power")


def cmd_income(ctx, cmd) -> None:
    """§12.4, §12.5: what a player's NFLM earns on its own route this OR (counted twice toward a
    foreign company's income when it reaches that country, B30) or MEVS's new connections; paid by
    the bank to the owner."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, cmd.get("private"))
    p = rs.private(sym)
    if not p.ability("typed_income"):
        raise RuleViolation(f"{sym} pays its fixed revenue; only {', '.join(x.sym for x in rs.privates if x.ability('typed_income'))} "
                            f"earn what the table announces")
    held = s.privates[sym]
    if held.closed:
        refuse(f"{sym} is closed: it earns nothing more (§12.1)")
    if not str(held.owner).startswith("player:"):
        refuse(f"{sym} earns this way only for a player owner (B19)")
    amount = names.amount(cmd.get("amount"), "the income")
    abroad = [country(rs, w) for w in split(cmd.get("abroad"))] if cmd.get("abroad") else []
    if abroad and not p.ability("counts_abroad"):
        refuse(f"{sym}'s income does not count toward a foreign company's")
    key = f"{sym}:{s.round.get('set')}.{s.round.get('index')}"
    if p.ability("paid_per_company"):
        # MEVS (D0.1 #5): paid as each of its owner's companies operates, for that company's new connections
        corp = s.round.get("corp")
        if not corp or s.president(corp) != acct_name(held.owner):
            refuse(f"{sym} is paid while one of {acct_name(held.owner)}'s companies operates; "
                   f"{corp or 'no company'} is operating")
        key += f":{corp}"
    if key in s.own.incomes:
        refuse(f"{sym} has been paid this OR" + (f" for {s.round.get('corp')}" if p.ability("paid_per_company") else ""))
    ctx.emit("private_income", private=sym, amount=amount, abroad=abroad, key=key,
             transfers=[[BANK, held.owner, amount]] if amount else [])
    obsolescence.run_recorded(ctx, sym)


def cmd_charge(ctx, cmd) -> None:
    """Rotterdamsche Bank (§12.5): the company owning it charges its director for a station, track
    or train cost in its turn: the director pays the company that much, and (`charge_for_costs`)
    the company spends it on such costs in this turn (`spends`, `charge_unspent`: extensions of those verbs)."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "charge")
    owns = [p.sym for p in rs.privates if p.ability("charges_director") and owned_by(s, p.sym, corp)]
    if not owns:
        raise RuleViolation(f"{corp} owns no private that charges its director (Rotterdamsche Bank)")
    amount = names.amount(cmd.get("amount"), "the charge")
    if amount < 1:
        refuse(f"a charge moves at least {rs.money(1)} from the director to {corp}")
    director = s.president(corp)
    have = s.cash(player_acct(director))
    if have < amount:
        raise RuleViolation(f"{director} has {rs.money(have)}, not {rs.money(amount)}",
                            f"{director} sells shares first (sell {director} CORP N --charge {amount})")
    ctx.emit("director_charged", corp=corp, player=director, amount=amount, private=owns[0],
             transfers=[[player_acct(director), company_acct(corp), amount]])


def charged_privates(s, rs, corp: str) -> list[str]:
    return [p.sym for p in rs.privates if p.ability("charges_director") and owned_by(s, p.sym, corp)]


def charge_tied(s, rs, corp: str) -> bool:
    """The draw is tied to the turn's costs (a game begun before it was kept the charge alone)."""
    return any(rs.private(p).ability("charge_for_costs") for p in charged_privates(s, rs, corp))


def spends(ctx, cmd, inner) -> None:
    """Around a station, track or train command: what the company pays with it spends first what it
    drew from its director (Rotterdamsche Bank, §12.5)."""
    s = ctx.state
    corp = s.round.get("corp")
    before = s.cash(company_acct(corp)) if corp else 0
    inner(ctx, cmd)
    owed = s.round.get("charged", 0)
    paid = before - s.cash(company_acct(corp)) if corp else 0
    if owed and paid > 0 and charge_tied(s, ctx.rs, corp):
        ctx.emit("charge_spent", corp=corp, amount=min(owed, paid))


def charge_unspent(ctx, cmd) -> None:
    """`done`: the director's money drawn this turn must have gone to station, track or train costs."""
    s, rs = ctx.state, ctx.rs
    corp = s.round.get("corp")
    owed = s.round.get("charged", 0)
    if owed and charge_tied(s, rs, corp):
        refuse(f"{corp} drew {rs.money(owed)} from its director that it has not spent: Rotterdamsche Bank's draw is "
               f"for station, track or train costs (§12.5)", "spend it, or undo the charge")


def sale_for_charge(ctx, cmd, inner) -> None:
    """Around an operating round's sale: `sell PLAYER CORP N --charge AMOUNT` (§12.5), the director
    of a company owning Rotterdamsche Bank sells shares to fund a draw he cannot pay, as in an
    emergency train purchase (§8.2.7.3): the normal selling rules, only as many as needed, and he
    stays director of the operating company. Without --charge, the sale inside (the shared
    emergency sale)."""
    if cmd.get("charge") is None:
        inner(ctx, cmd)
        return
    s, rs = ctx.state, ctx.rs
    op = s.round.get("corp")
    player = names.player(s, cmd.get("player"))
    if not op or not charge_tied(s, rs, op) or s.president(op) != player:
        refuse(f"a sale for a draw is made by the director of the operating company when it owns Rotterdamsche "
               f"Bank (§12.5){'' if not op else f': {op} is directed by {s.president(op)}'}")
    corp = names.corp(rs, cmd.get("corp"))
    want = names.amount(cmd.get("charge"), "the draw")
    need = want - s.cash(player_acct(player))
    if need <= 0:
        refuse(f"{player} is not short: {player} has {rs.money(s.cash(player_acct(player)))} for the draw of "
               f"{rs.money(want)}")
    n = cmd.get("count") or 1
    price = shares.price(s, rs, corp)
    if (n - 1) * price >= need:
        refuse(f"{player} needs {rs.money(need)}: selling {counted(n, corp + ' share')} at {rs.money(price)} is more than "
               f"needed (§8.2.7.3)", f"sell {counted(max(1, -(-need // price)), 'share')}")
    shares.sell(ctx, player, corp, n, keep_president=corp == op)
    operating.reorder_after_sale(ctx)


def tiles_spent(ctx, corp: str) -> None:
    """IJzeren Rijn: its one use (any or all of its hexes) is over with the turn (§12.2)."""
    s = ctx.state
    spent = [p for p, a in s.privates.items() if a.owner == company_acct(corp) and not a.closed
             and "tile" in a.used and ctx.rs.private(p).ability("several_tiles")]
    if spent:
        privates.close(ctx, spent, reason=f"{corp} used its power")


# --------------------------------------------------------------------------- what the powers allow now

def powers_of(ability: str):
    """The open privates the operating company owns with this power."""
    def found(s, rs, corp, args) -> list[str]:
        return [p.sym for p in rs.privates if p.ability(ability) is not None and owned_by(s, p.sym, corp)]
    return found


def lay_bars(s, rs, corp) -> list[str]:
    if not powers_of("tiles_max")(s, rs, corp, {}):
        return [f"{corp} owns no private that lays several tiles"]
    if s.round["tiles"]:
        return [f"a private's tiles are {corp}'s whole track lay, and {corp} has laid a tile this turn"]
    return track.track_step_over(s, corp)


def lay_counts(s, rs, corp, args) -> list[int]:
    sym = args.get("private")
    most = rs.private(sym).ability("tiles_max") if sym in s.privates else 1
    return list(range(1, (most or 1) + 1))


def saving_privates(s, rs, corp, args) -> list[str]:
    return [p.sym for p in rs.privates if p.ability("saved_markers") and not s.privates[p.sym].closed
            and str(s.privates[p.sym].owner).startswith("company:")]


def charge_bars(s, rs, corp) -> list[str]:
    if not [p.sym for p in rs.privates if p.ability("charges_director") and owned_by(s, p.sym, corp)]:
        return [f"{corp} owns no private that charges its director (Rotterdamsche Bank)"]
    return []


def charge_amounts(s, rs, corp, args):
    return Bounds(1, s.cash(player_acct(s.president(corp))) if s.president(corp) else 0)


def draw_amounts(s, rs, player, args):
    """A sale for a draw (--charge): more than the director has, at most what the shares sold
    bring on top (the rule keeps the sale to what is needed)."""
    corp = args.get("corp")
    if corp not in s.corps or s.corps[corp].cell is None:
        return []
    cash, n = s.cash(player_acct(player)), int(args.get("count") or 1)
    return Bounds(cash + 1, cash + n * shares.price(s, rs, corp))


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("lay", "operating", "A private lays several tiles as the company's whole track lay (1839: the "
             "Staatslijnen and VVD up to 4 at ƒ10 each, AMB two upgrades for ƒ20), plus the terrain.",
             "bank lay SS SLC 3 --terrain 80",
             (Arg("corp", "company"), Arg("private", "private"), Arg("count", "count")),
             (Opt("--terrain", "terrain", kind="amount", help="the terrain costs of those tiles"),), label="Lay a private's tiles"),
        Verb("save", "operating", "Put a SAVED marker on one of the company's trains: Verveers' own, or one of "
             "Beyer Peacock's bought for ƒ200 (1839 §12.5).", "bank save NCS BP 2",
             (Arg("corp", "company"), Arg("private", "private"), Arg("type", "train")), label="Save a train"),
        Verb("income", "operating", "A player's NFLM or MEVS earns what the table announces this OR, paid by the "
             "bank (1839 §12.4-12.5).", "bank income NFLM 60 --abroad DUI",
             (Arg("private", "private"), Arg("amount", "amount")),
             (Opt("--abroad", "abroad", help="the foreign country NFLM's route reached"),), label="A private's income"),
        Verb("charge", "operating", "Rotterdamsche Bank: the company charges its director for a station, track "
             "or train cost (1839 §12.5).", "bank charge NCS 100",
             (Arg("corp", "company"), Arg("amount", "amount")), label="Charge the director"),
    ),
    options={"train": (Opt("--using", "using", kind="private", help="1839: Credit Mobilier's discount, or Beijnes "
                           "exchanged for the train"),),
             "token": (Opt("--using", "using", kind="private", help="1839: CO, ZK, SHZ or SWO's station power"),),
             "sell": (Opt("--charge", "charge", kind="amount", help="1839: in an operating round, the Rotterdamsche "
                          "Bank draw the director sells to fund"),)},
)


def register(reg) -> None:
    reg.verb("lay", cmd_lay, "operating", elsewhere="a private's tiles are laid in its company's turn",
             bars=lay_bars, candidates={"private": powers_of("tiles_max"), "count": lay_counts,
                                        "terrain": lambda s, rs, corp, args: Bounds(0, s.cash(company_acct(corp)))},
             phrase=lambda s, rs, corps: "lay a private's tiles ({command})")
    shared_token = reg.play_for("operating", "token")
    # a private's station goes in a city the table names (SWO's Tilburg): the two are given together
    reg.rework("operating", "token", handler=cmd_token,
               candidates={**shared_token.candidates, "cost": station_values(shared_token.candidates["cost"])},
               together=shared_token.together + (("using", "city"),))
    reg.rework("operating", "tile", handler=cmd_tile)
    # the director's draw is spent first on station, track and train costs (§12.5)
    for verb in ("lay", "token", "tile", "train"):
        reg.extend("operating", verb, around=spends, name="a Rotterdamsche Bank draw spent first (§12.5)")
    shared_sale = reg.play_for("operating", "sell")
    reg.rework("operating", "sell", candidates={**shared_sale.candidates, "charge": draw_amounts})
    reg.extend("operating", "sell", around=sale_for_charge, name="a sale to fund a draw (§12.5)")
    reg.extend("operating", "done", before=charge_unspent, name="a draw must be spent (§12.5)")
    reg.verb("save", cmd_save, "operating", elsewhere="a SAVED marker is placed in its company's turn (§12.5)",
             bars=save_bars, candidates={"private": saving_privates,
                         "type": lambda s, rs, corp, args: sorted({train_type(t) for t in s.corp_trains(corp)})},
             phrase=lambda s, rs, corps: "save a train ({command})")
    reg.verb("income", cmd_income, "operating", elsewhere="NFLM and MEVS earn in an operating round", offered=False)
    reg.rule("train_discount", train_discount)
    reg.rule("train_before_run", train_before_run)
    reg.protecting_flags.add("saved")
    reg.owner_flags.add("saved")
    reg.verb("charge", cmd_charge, "operating", elsewhere="a company charges its director in its turn",
             bars=charge_bars, candidates={"amount": charge_amounts},
             phrase=lambda s, rs, corps: "charge the director ({command})")
    reg.on("corp_turn_ended", tiles_spent)


# =========================================================================== events

@event
class TilesLaidWithPrivate:
    corp: str
    private: str
    count: int
    fee: int
    terrain: int
    lays: int = 1

    def apply(s, e):
        # the turn's whole lay: no other tile, and (two or more tiles) no station (§8.2.3-8.2.4)
        # (§12.2: the power does not keep the company from placing a station marker)
        s.round = s.round.but(tiles=max(s.round.get("tiles", 0) + 1, e.get("lays", 1)), private_lay=True)

    def describe(e, rs):
        return (f"{e['corp']} lays {counted(e['count'], 'tile')} with {e['private']} for {rs.money(e['fee'])}"
                + (f" + {rs.money(e['terrain'])} terrain" if e["terrain"] else ""))


@event
class TrackLeftOpen:
    """§12.2: the private's tile came with its station, besides the normal track lay: the company may
    still lay its tiles this turn."""
    corp: str
    private: str

    def apply(s, e):
        s.round = s.round.but(track_open=True)


@event
class PrivateTileLay:
    """§12.3: the private's tile, laid with its station, was one of the company's tile lays; the
    other stays open."""
    corp: str
    private: str

    def apply(s, e):
        s.round = s.round.but(tiles=s.round.get("tiles", 0) + 1, track_open=True)


@event
class TrainSaved:
    corp: str
    private: str
    train: str
    price: int = 0

    def apply(s, e):
        saved = dict(s.own.saved)
        saved[e["private"]] = saved.get(e["private"], 0) + 1
        s.own.saved = saved

    def describe(e, rs):
        paid = f" for {rs.money(e['price'])}" if e["price"] else ""
        return f"{e['corp']} puts {e['private']}'s SAVED marker on its {e['train'].rsplit('.', 1)[0]}{paid}"


@event
class PrivateIncome:
    private: str
    amount: int
    abroad: list[str]
    key: str

    def apply(s, e):
        s.own.incomes = [*s.own.incomes, e["key"]]
        s.own.private_runs = {**s.own.private_runs, e["private"]: {"revenue": e["amount"], "abroad": list(e["abroad"])}}

    def describe(e, rs):
        return (f"{e['private']} earns {rs.money(e['amount'])}"
                + (f", reaching {', '.join(e['abroad'])}" if e["abroad"] else ""))


@event
class DirectorCharged:
    corp: str
    player: str
    amount: int
    private: str

    def apply(s, e):
        if s.round.get("kind") == "operating":
            s.round = s.round.but(charged=s.round.get("charged", 0) + e["amount"])

    def describe(e, rs):
        return f"{e['corp']} charges its director {e['player']} {rs.money(e['amount'])} ({e['private']})"


@event
class ChargeSpent:
    """So much of the money drawn from the director went to a station, track or train cost."""
    corp: str
    amount: int

    def apply(s, e):
        s.round = s.round.but(charged=max(0, s.round.get("charged", 0) - e["amount"]))
