"""1801 / 18OE: tiles and tokens in an operating turn: fees through the ruleset's modifiers checked
against the company's track rights (§11.1.4), the E/F terrain discounts (§15.5, §15.6), and the
privates' powers on the map (§14.5-§14.9: free tokens, the ferry at Lille, a town token, the
engineers' free tiles)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.command import changed
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Opt, TitleGrammar
from ledger.core.plays import Bounds
from ledger.core.rules import track, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, company_acct, player_acct

from .common import kind_of, patronage_amounts, patronage_paid, port_of, rights, rules, uses, zones

DISCOUNT_CORPS = ("E", "F")  # §15.5, §15.6

# defaults: what games stored before these numbers moved to ruleset.toml played with
# a tile point granted for this turn only (§15.5-6: E/F's yellow tile on its terrain)
ROUND_FIELDS = {"operating": {"bonus_points": "int"}}
KNOBS = {"title_rules": {
    "engineers": Knob(dict, None, {"tiles": 4, "per_or": 2}),   # §14.9: four free tiles, two an OR
    "ferry_phase": Knob(str, None, "5"),   # §14.7, §11.2.2: WCF's Lille token from Train Phase 5
}}


def rights_text(s, rs, corp: str) -> str:
    held = sorted(rights(s, rs, corp))
    return ", ".join(zones(rs)[z]["name"] for z in held) or "none"


def check_modifiers(s, rs, corp: str, raw) -> None:
    """The fee modifiers the table names must be the company's to use (§11.1.5, §11.1.6, §15.5-6)."""
    from ledger.core import fees
    asked = fees.parse_asked(raw)
    if "zone" in asked and not any(zones(rs)[z]["discount"] for z in rights(s, rs, corp)):
        refuse(f"{corp} has track rights only in {rights_text(s, rs, corp)}: the 20 % discount needs rights in "
               f"Spain/Portugal, Italy, Sweden/Norway/Denmark or Russia (§11.1.5)")
    if "ef_zone" in asked:
        asked = {**asked, "ef": None, "zone": None}
    if "zone" in asked and not any(zones(rs)[z]["discount"] for z in rights(s, rs, corp)):
        refuse(f"{corp} has track rights only in {rights_text(s, rs, corp)}: the 20 % discount needs rights in "
               f"Spain/Portugal, Italy, Sweden/Norway/Denmark or Russia (§11.1.5)")
    if "ef" in asked and not uses(s, corp, DISCOUNT_CORPS):
        refuse(f"{corp} is not Minor E or F: only their ability (or a major owning them) takes a third off (§15.5, §15.6)")
    if "port" in asked and not port_of(s, corp):
        refuse(f"{corp} holds no port authority: only a major that bought one counts two fewer (§11.3.5)")
    if "wien" in asked:
        owner = s.privates["WSB"].owner
        if owner != player_acct(s.president(corp) or "") or s.privates["WSB"].closed:
            refuse("Wien Suedbahnhof waives a slot only for a railroad its owner controls (§14.3)")


def cmd_tile(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "tile")
    for why in track.track_step_over(s, corp):   # every lay of 1801 keeps to the step (§11.1), the engineers' too
        refuse(why)
    check_modifiers(s, rs, corp, cmd.get("modifiers"))
    patronage = patronage_paid(cmd)
    if cmd.get("using"):
        engineers_tile(ctx, corp, cmd)
    else:
        terrain_point(ctx, corp, cmd)
        track.cmd_tile(ctx, cmd)
    if patronage:
        ctx.emit("patronage_paid", corp=corp, amount=patronage, transfers=[[BANK, company_acct(corp), patronage]])


def terrain_point(ctx, corp: str, cmd) -> None:
    """§15.5, §15.6: each OR Minor E (F) may spend one more tile point, on a yellow tile in a hex
    with a blue (green) terrain cost: the table names its discount (`--with ef`) on a 1-point tile."""
    from ledger.core import fees
    s = ctx.state
    if not uses(s, corp, DISCOUNT_CORPS) or "ef" not in fees.parse_asked(cmd.get("modifiers")):
        return
    if (cmd.get("points") or 1) != 1 or s.round.get("bonus_points") or not cmd.get("cost"):
        return
    ctx.emit("tile_point_granted", corp=corp, reason="Minor E/F's yellow tile on its terrain (§15.5, §15.6)")


def cmd_token(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    if ferry_window_open(s) and cmd.get("using") and names.private(rs, cmd.get("using")) == FERRY_TOKEN \
            and names.corp(rs, cmd.get("corp")) != s.round.get("corp"):
        ferry_token_at_once(ctx, cmd)
        return
    corp = operating_corp(ctx, cmd.get("corp"), "token")
    if kind_of(s, corp) == "national":
        refuse(f"{corp} is a national: nationals never have tokens on the map (§11.2)")
    if not cmd.get("using"):   # the turn's bars before the station's words (track.cmd_token's order)
        for why in track.station_bars(s, corp):
            refuse(why)
    check_modifiers(s, rs, corp, cmd.get("modifiers"))
    if cmd.get("using"):
        private_token(ctx, corp, cmd)
        return
    from ledger.core import fees
    wien = "wien" in fees.parse_asked(cmd.get("modifiers"))
    track.cmd_token(ctx, cmd)
    if wien:
        ctx.emit("private_put_down", player=s.president(corp), private="WSB", how="used",
                 assets=[["WSB", s.privates["WSB"].owner, None]])


# --------------------------------------------------------------------------- privates' powers in an OR (§14)

FREE_TOKENS = ("SHTC", "CCTC")   # §14.5, §14.6: a free token that takes no token position


FERRY_TOKEN = "WCF"              # §14.7, §11.2.2: Lille's ferry position, from Train Phase 5, at the slot's cost


TOWN_TOKEN = "HML"               # §14.8: a token that counts as a town; the certificate turns face down


ENGINEERS = "BB"                 # §14.9: four free yellow tiles on rough terrain, two an OR




def owned_power(ctx, corp: str, raw) -> str:
    """A private whose power the operating railroad uses: its president owns it face up (§6.1)."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, raw)
    if s.privates[sym].owner != player_acct(s.president(corp) or "") or s.privates[sym].closed:
        refuse(f"{corp}'s president does not own a face-up {sym}: a private's power serves its owner's railroads "
               f"(§6.1)")
    return sym


def private_token(ctx, corp: str, cmd) -> None:
    """`token CORP --using SHTC|CCTC|WCF|HML`: Star Harbor's or Central Circle's free token (no
    token position, §14.5-6), White Cliffs Ferry's token at Lille from Train Phase 5 for the slot's
    cost (§14.7), Hochberg's town token (§14.8, its certificate then face down)."""
    s, rs = ctx.state, ctx.rs
    sym = owned_power(ctx, corp, cmd.get("using"))
    city = cmd.get("city")
    if sym in FREE_TOKENS + (TOWN_TOKEN,):
        given = [flag for key, flag in (("modifiers", "--with"), ("slot", "--slot")) if cmd.get(key) is not None]
        if given or cmd.get("cost") not in (None, "0"):
            refuse(f"{sym}'s token is free and takes no token position: no cost, {' or '.join(given) or '--with or --slot'}"
                   f" (§14.5-14.8)", f"token {corp} --using {sym}")
    if sym in FREE_TOKENS:
        if s.round.get("revenue") is not None:
            refuse(f"{corp} has run: {sym}'s token is placed before (§11)")
        ctx.emit("private_token", corp=corp, private=sym, city=city, cost=0)
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="used",
                 assets=[[sym, s.privates[sym].owner, None]])
        return
    if sym == FERRY_TOKEN:
        if not trains.phase_reached(s, rs, rules(rs, "ferry_phase")):
            refuse(f"White Cliffs Ferry's token goes to Lille from Train Phase {rules(rs, 'ferry_phase')}; it is Train "
                   f"Phase {s.phase} (§11.2.2)")
        track.cmd_token(ctx, cmd.__class__(cmd.verb, changed(cmd.args, using=None, city=city or "Lille")))
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="used",
                 assets=[[sym, s.privates[sym].owner, None]])
        return
    if sym == TOWN_TOKEN:
        if s.round.get("revenue") is not None or s.round.get("token"):
            refuse(f"Hochberg's token is placed in {corp}'s lay-track step (§14.8)")
        ctx.emit("private_token", corp=corp, private=sym, city=city, cost=0)
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="face down")
        return
    refuse(f"{sym} places no token (§14)")


def ferry_window_open(s) -> bool:
    """§11.2.2: at the moment Train Phase 5 begins (the rest of that buy step) WCF may be used for
    any railroad its owner controls, not only one operating."""
    w = s.own.ferry_window
    return bool(w) and s.round.get("kind") == "operating" and w == [s.round.get("set"), s.round.get("index"),
                                                                     s.round.get("pos")]


def ferry_token_at_once(ctx, cmd) -> None:
    """`token CORP --using WCF` as Train Phase 5 begins: CORP (its owner's, any) places its token on
    Lille's ferry position for the slot's cost from its treasury (Wien Suedbahnhof may pay it:
    --with wien), no connection needed (§11.2.2, §14.7)."""
    s, rs = ctx.state, ctx.rs
    from ledger.core import fees
    corp = names.corp(rs, cmd.get("corp"))
    owner = s.privates[FERRY_TOKEN].owner
    if s.privates[FERRY_TOKEN].closed or owner != player_acct(s.president(corp) or ""):
        refuse(f"{corp}'s president does not own a face-up White Cliffs Ferry (§14.7)")
    if kind_of(s, corp) not in ("minor", "regional", "major"):
        refuse(f"{corp} places no token (§11.2)")
    check_modifiers(s, rs, corp, cmd.get("modifiers"))
    if track.markers_left(s, rs, corp) <= 0:
        refuse(f"{corp} has no token left on its charter")
    slot = track.station_slot(s, rs, corp, cmd.get("slot"))
    wien = "wien" in fees.parse_asked(cmd.get("modifiers"))
    cost = 0 if wien else rs.corporation(corp).tokens[slot - 1]
    if s.cash(company_acct(corp)) < cost:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; its slot {slot} costs {rs.money(cost)}")
    ctx.emit("ferry_token", corp=corp, slot=slot, cost=cost, city=cmd.get("city") or "Lille",
             transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    ctx.emit("private_put_down", player=s.president(corp), private=FERRY_TOKEN, how="used",
             assets=[[FERRY_TOKEN, owner, None]])
    if wien:
        ctx.emit("private_put_down", player=s.president(corp), private="WSB", how="used",
                 assets=[["WSB", s.privates["WSB"].owner, None]])


def engineers_or(terrain_costs):
    """A tile's COST: with Brandt & Brandau any rough hex's terrain (none is paid, §14.9), else what
    the company can pay through the fees."""
    def found(s, rs, corp, args):
        if args.get("using") and str(args["using"]).upper() == ENGINEERS:
            return Bounds(1)
        return terrain_costs(s, rs, corp, args)
    return found


def tokens_held(s, rs, corp, args) -> list[str]:
    """The privates that place a token (§14.5-8) whose owner is the railroad's president, face up
    (§6.1): what `token --using` may name (the rule decides the rest: the phase, the step)."""
    pres = s.president(corp) if corp in s.corps else None
    return [sym for sym in (*FREE_TOKENS, FERRY_TOKEN, TOWN_TOKEN)
            if sym in s.privates and not s.privates[sym].closed and pres and s.privates[sym].owner == player_acct(pres)]


def engineers_held(s, rs, corp, args) -> list[str]:
    """The one private that lays a tile (§14.9), where the operating railroad's president holds
    it face up (§6.1): what `tile --using` may name (the rule decides the rest: tiles left, two an OR)."""
    bb = s.privates.get(ENGINEERS)
    pres = s.president(corp) if corp in s.corps else None
    return [ENGINEERS] if bb is not None and not bb.closed and pres and bb.owner == player_acct(pres) else []


def engineers_tile(ctx, corp: str, cmd) -> None:
    """`tile CORP COST --using BB`: Brandt & Brandau lays a yellow tile on rough terrain with no
    terrain fee (tile points as usual); four in all, at most two an OR; the certificate turns face
    down after the last (§14.9)."""
    s, rs = ctx.state, ctx.rs
    sym = owned_power(ctx, corp, cmd.get("using"))
    if sym != ENGINEERS:
        refuse(f"{sym} lays no tile (§14)")
    used = s.own.engineers
    this_or = (s.round.get("set"), s.round.get("index"))
    count = used["this_or"] if tuple(used.get("or") or ()) == this_or else 0
    per_or, tiles = rules(rs, "engineers")["per_or"], rules(rs, "engineers")["tiles"]
    if count >= per_or:
        refuse(f"{sym} has laid {per_or} tiles this OR: two an OR (§14.9)")
    if used["laid"] >= tiles:
        refuse(f"{sym}'s {tiles} tokens are all placed (§14.9)")
    points = track.tile_points(s, rs, corp, cmd)
    for why in track.tile_bars(s, rs, corp, points):
        refuse(why)
    if cmd.get("modifiers"):
        refuse(f"{sym}'s tile pays no terrain fee: no fee modifier applies (leave --with out) (§14.9)")
    terrain = names.amount(cmd.get("cost"), "the terrain cost")
    if terrain < 1:
        refuse(f"{sym} lays on rough terrain: the hex's terrain cost is more than £0 (§14.9)")
    laid = used["laid"] + 1
    ctx.emit("tile_laid", corp=corp, cost=0, terrain=terrain, fee=-terrain, hex_fee=0, private=sym,
             steps=[["terrain", None, terrain, None], [f"− {rs.money(terrain)} {sym}: no terrain fee (§14.9)", terrain, 0,
                                                       None]], points=points)
    ctx.emit("engineers_used", corp=corp, laid=laid, this_or=list(this_or), count=count + 1)
    if laid >= tiles:
        ctx.emit("private_put_down", player=s.president(corp), private=sym, how="face down")


@event
class PatronagePaid:
    corp: str
    amount: int

    def describe(e, rs):
        return f"{e['corp']} fulfils a patronage tile: {rs.money(e['amount'])}"


@event
class TilePointGranted:
    """One more tile point this turn (§15.5, §15.6)."""
    corp: str
    reason: str

    def apply(s, e):
        s.round = s.round.but(bonus_points=1)

    def describe(e, rs):
        return f"{e['corp']} has one more tile point this turn: {e['reason']}"


@event
class PrivateToken:
    """A private's token on the map for a railroad (§14.5, §14.6, §14.8): no token position, no cost."""
    corp: str
    private: str
    cost: int
    city: str = None

    def apply(s, e):
        s.own.private_tokens = [*s.own.private_tokens, [e["private"], e["corp"], e.get("city")]]

    def describe(e, rs):
        return f"{e['corp']} places {e['private']}'s token" + (f" in {e['city']}" if e.get("city") else "")


@event
class EngineersUsed:
    """Brandt & Brandau's tokens laid: in all, and in this OR (§14.9)."""
    corp: str
    laid: int
    this_or: list[int]
    count: int

    def apply(s, e):
        s.own.engineers = {"laid": e["laid"], "or": list(e["this_or"]), "this_or": e["count"]}

    def describe(e, rs):
        return f"Brandt & Brandau has laid {e['laid']} of its 4 tiles ({e['count']} this OR)"


@event
class FerryToken:
    """§11.2.2, §14.7: a token on Lille's ferry position, placed as Train Phase 5 begins."""
    corp: str
    slot: int
    cost: int
    city: str = None

    def apply(s, e):
        from ledger.core.state import Station
        c = s.corps[e["corp"]]
        c.stations = c.stations + (Station(e.get("city"), e["slot"], e["cost"]),)
        c.tokens_used += 1

    def describe(e, rs):
        return f"{e['corp']} places a token at Lille's ferry position with White Cliffs Ferry for {rs.money(e['cost'])}"


GRAMMAR = TitleGrammar(
    options={
        "tile": (Opt("--patronage", "patronage", kind="amount", help="1801: the patronage tile's amount for this "
                     "train phase, paid into the treasury"),),
        "token": (Opt("--using", "using", kind="private", help="1801: SHTC or CCTC's free token, WCF's at Lille, "
                      "HML's town"),),
    },
)


def register(reg) -> None:
    shared_tile = reg.play_for("operating", "tile")
    reg.rework("operating", "tile", handler=cmd_tile,
               candidates={**shared_tile.candidates, "patronage": patronage_amounts,
                           "cost": engineers_or(shared_tile.candidates["cost"]), "using": engineers_held})
    shared_token = reg.play_for("operating", "token")
    reg.rework("operating", "token", handler=cmd_token, candidates={**shared_token.candidates, "using": tokens_held})
