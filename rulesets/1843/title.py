"""1843 (J C Lawrence's 18FR-RCE): what only 1843 has, registered into the shared engine.

Numbers live in ruleset.toml beside this file; this module holds the rules no other title shares,
each registered in `register` at a named point of the shared engine (ledger.core.registry):

* **Ports** (RULES §8.5.3, §8.1, §8.9): `port CORP NAME` claims a port in the station step; each
  pays its holder at the start of every OR; `port CORP NAME --from OTHER` buys one after the run.
* **The brief OR** of the auction (§6.2): when everyone passes with privates unsold, owned privates
  pay, one yellow train leaves the supply (the last one ends the game), the cheapest private drops.
* **The foreigners** (§5, §8.1): after the last OR of each set the bank takes the next train (and
  the next colour's first, when it took a colour's last), which may start a phase.
* **Rusted certificates** (§15.6, relics): in gray the single certificates of earlier colours
  return for sale, one per company, paid from the treasury alone; a company may throw one away.
* **Flips** (§8.8.2): a x2 certificate turned to its single side to get within the train limit.
* **Station moves** (§8.5.2): in gray, `token CORP --move` moves one station once per game.
* **The owned-train end** (§8.10.1 #4): the game ends after the Nth set in which a company owned
  a gray train.
* **Cie du Val de Loire** (§10.2, digest D3.3): `exchange PLAYER VDL CORP [--par PRICE]` for any
  IPO certificate or an unstarted company's director's half; `use CORP VDL TRAIN` (Engineers: the
  train goes obsolete instead of rusting, runs once more, then leaves); `buy-private CORP VDL
  PRICE --as-train` in 5-6 player games before blue, the private becomes a yellow "2" train.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.core import events, names
from ledger.core.errors import LedgerCorrupt, RuleViolation, refuse, unknown
from ledger.core.events import event
from ledger.core.grammar import Arg, Kind, Opt, TitleGrammar, Verb
from ledger.core.rounds import auction, operating, stock
from ledger.core.rules import privates, shares, track, train_step, trains, turn
from ledger.core.rules.market import par_cell
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob, need
from ledger.core.state import BANK, DEPOT, POOL, RUSTED, acct_name, company_acct, player_acct, train_type

# =========================================================================== 1843's own data

# The knobs of 1843's own rules ([title_rules] in ruleset.toml), read with rs.k("title_rules", ...).
KNOBS = {"title_rules": {
    "brief_or_discards": Knob(str, None, ""),      # the train type a brief OR of the auction discards
    "brief_or_ends_game": Knob(bool, None, False),  # discarding its last train ends the game
    "station_move_cost": Knob(int, None, 0),       # what moving a station costs
    "station_move_phase": Knob(str, None, ""),     # the phase from which a station may be moved
    "relic_limit": Knob(int, None, 0),             # rusted certificates a company may own
    "owned_train_sets": Knob(int, None, 0),        # the game ends after the Nth set ...
    "owned_train_type": Knob(str, None, ""),       # ... in which a company owned this train type
}}

# Where games stored before these were 1843's own kept them (the shared sections).
LEGACY_KNOBS = {
    ("auction", "brief_or_discards"): ("title_rules", "brief_or_discards"),
    ("endgame", "auction_discards_end"): ("title_rules", "brief_or_ends_game"),
    ("operating", "station_move_cost"): ("title_rules", "station_move_cost"),
    ("operating", "station_move_phase"): ("title_rules", "station_move_phase"),
    ("operating", "relic_limit"): ("title_rules", "relic_limit"),
    ("endgame", "owned_train_sets"): ("title_rules", "owned_train_sets"),
    ("endgame", "owned_train_type"): ("title_rules", "owned_train_type"),
}

# The abilities of Val de Loire that only this module reads.
PRIVATE_ABILITIES = {
    "exchange_any": bool,          # for any IPO certificate, or an unstarted company's director's half
    "engineers": bool,             # a train goes obsolete instead of rusting
    "converts_to_train": str,      # bought by a company, it becomes this train
    "convert_players": list,       # ... in games of these player counts
    "convert_before_phase": str,   # ... before this phase
}


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


@events.upgrades
def upgrade_event(e: dict) -> None:
    """Events stored before engine version 5 flag a rusted certificate bought again `relic`; those of
    version 1 keep a port claimed in the turn's bookkeeping (today's claim marks the station step)."""
    if e["kind"] == "round_update" and "port" in e["set"]:
        e["set"] = {k: v for k, v in e["set"].items() if k != "port"}
    if "relic" in e:
        e["rusted"] = e.pop("relic")
    for flags in e.get("flags", {}).values():
        if "relic" in flags:
            flags["bought_rusted"] = flags.pop("relic")


def read_ports(table: dict, problems: list[str]) -> dict:
    """[ports]: the port markers' names, the income each pays an OR and their price between companies."""
    names_ = need(table, "names", list, "ports", problems, [])
    return {"income": need(table, "income", int, "ports", problems, 0),
            "sale_price": need(table, "sale_price", int, "ports", problems, 0),
            "names": tuple(str(n).lower() for n in names_)}


DATA_SECTIONS = {"ports": read_ports}


def check(rs, problems: list[str]) -> None:
    """The knobs that name a phase or a train name one the title has."""
    phases, train_types = {p.name for p in rs.phases}, {t.name for t in rs.trains}
    for knob, known, what in (("station_move_phase", phases, "phase"), ("brief_or_discards", train_types, "train"),
                              ("owned_train_type", train_types, "train")):
        value = rs.k("title_rules", knob)
        if value and value not in known:
            problems.append(f"title_rules.{knob}: no {what} '{value}'")


@dataclass
class State:
    """What 1843's own rules keep (GameState.own): the companies that moved a station (once a
    game, §8.5.2), the sets in which a company owned the end's trigger train (§8.10.1 #4), and
    whether one bought it in the set under way."""
    stations_moved: list = field(default_factory=list)
    owned_sets: int = 0
    owned_this_set: bool = False


STATE = State


def initial_assets(rs) -> dict:
    """The port markers, assets on the map (no holder) until a company claims one."""
    return {name: "port" for name in rs.own["ports"]["names"]}


def engineers_of(s, rs, corp, args) -> list[str]:
    return [p.sym for p in rs.privates if p.ability("engineers") and s.privates[p.sym].owner == company_acct(corp)
            and not s.privates[p.sym].closed]


def own_sides(s, rs, corp) -> list[str]:
    """The company's trains as the table names them: each certificate by the side it lies on."""
    return sorted({trains.side_name(s, rs, t) for t in s.corp_trains(corp)})


def exchange_bars_1843(s, rs, player) -> list[str]:
    """A player exchanges a private he holds that turns into a share, Val de Loire too."""
    from ledger.core.rounds.stock import held_by
    if any((p.ability("exchange_for") or p.ability("exchange_any")) and held_by(s, p.sym) == player
           for p in rs.privates):
        return []
    return [f"{player} does not own an open private that is exchanged for a share"]


def relic_discard_bars(s, rs, corp) -> list[str]:
    """Within its limit, a company throws away only a rusted certificate, in its own train step (§8.8.1)."""
    if not any(trains.is_rusted(s, t) for t in s.corp_trains(corp)):
        return [f"{corp} is not over its train limit: trains are discarded only when the limit drops"]
    return []


def port_holder(s, port: str) -> str | None:
    """The company holding a port marker, or None while it is on the map."""
    owner = s.assets[port].owner
    return acct_name(owner) if owner else None


def ports_held(s) -> dict:
    """Every port marker and the company holding it (None: on the map)."""
    return {p: port_holder(s, p) for p, a in s.assets.items() if a.kind == "port"}


def company_holdings(s, sym: str) -> dict:
    return {"ports": [p for p, a in s.assets.items() if a.kind == "port" and a.owner == company_acct(sym)]}


def info_lines(rs) -> list[str]:
    ports = rs.own["ports"]
    return [f"Ports: {', '.join(ports['names'])}; each pays {rs.money(ports['income'])} an OR, "
            f"sold between companies for {rs.money(ports['sale_price'])}"]


def register(reg) -> None:
    """What 1843 adds to (or replaces in) the shared rounds."""
    reg.rule("initial_assets", initial_assets)
    reg.rule("company_holdings", company_holdings)
    reg.rule("info_lines", info_lines)
    reg.verb("port", cmd_port, "operating", candidates={"port": lambda s, rs, corp, args: list(rs.own["ports"]["names"])},
             phrase=lambda *_: "port (claim a port)")
    reg.verb("use", cmd_use, "operating", candidates={"private": engineers_of,
                                                      "target": lambda s, rs, corp, args: own_sides(s, rs, corp)},
             fill=("target",), phrase=lambda s, rs, corps: f"use {corps[0]} VDL TRAIN (Engineers)")
    reg.rework("stock", "exchange", handler=exchange_in_sr, bars=exchange_bars_1843,
               candidates={"corp": lambda s, rs, p, args: list(s.corps)}, fill=("corp",))
    reg.rework("operating", "exchange", handler=exchange_in_or, bars=exchange_bars_1843,
               candidates={"corp": lambda s, rs, p, args: list(s.corps)}, fill=("corp",))
    reg.rework("operating", "buy-private", handler=cmd_buy_private)
    reg.rework("operating", "token", handler=cmd_token)
    reg.rework("operating", "discard", handler=cmd_discard, bars=relic_discard_bars,
               candidates={"type": lambda s, rs, corp, args: own_sides(s, rs, corp)},
               phrase=lambda s, rs, corps: f"discard a rusted certificate to make room (discard {corps[0]} TYPE)")
    # refused unless a company is over its limit: then it answers the discard it owes
    reg.verb("flip", cmd_flip, offered=False,
             bars=lambda s, rs, corp: [f"{corp} is within its train limit: a certificate is flipped only to get "
                                       f"within it"])
    reg.answer("discard", "flip", cmd_flip, who=train_step.owing_discard,
               candidates={"type": lambda s, rs, corp, args: own_sides(s, rs, corp)},
               phrase=lambda s, rs, corps: f"flip {corps[0]} TYPE")
    reg.owner_flags.add("engineers")
    reg.rule("auction_all_passed", brief_or)
    reg.protecting_flags.add("engineers")
    reg.train_marks["engineers"] = "engineers"
    reg.rule("supply_fallback", buy_relic)
    reg.rule("train_offers", relic_offers)
    reg.on("or_started", or_started)
    reg.on("or_set_ended", count_owned_set)
    reg.on("or_set_ended", foreigners_buy)
    reg.on("train_bought", saw_train)
    reg.on("phase_changed", return_relics)


# What 1843 adds to the command grammar (ledger.core.grammar): its verbs, options of shared verbs,
# and its ports as a kind of argument.
GRAMMAR = TitleGrammar(
    verbs=(
        Verb("port", "operating", "Claim a port for the company, or buy one from another company (1843).",
             "bank port MID bordeaux", (Arg("corp", "company"), Arg("port", "port")),
             (Opt("--from", "source", kind="company", help="buy it from this company"),)),
        Verb("flip", "operating", "Turn a double-sided train certificate to its single side to meet the train "
             "limit (1843).", "bank flip PLM 5/7x2", (Arg("corp", "company"), Arg("type", "side"))),
        Verb("use", "operating", "The company uses a private's power on TARGET (1843: VDL's Engineers on a "
             "train).", "bank use EST VDL 2+1",
             (Arg("corp", "company"), Arg("private", "private"), Arg("target", "side", optional=True))),
    ),
    options={
        "exchange": (Opt("--par", "par", kind="amount", offer="par_prices",
                         help="par of an unstarted company (1843 VDL)"),),
        "tile": (Opt("--hex", "hex", kind="hex", help="a hex with a fee (1843: paris)"),),
        "token": (Opt("--using", "using", kind="private", help="a private's station power (1843: HAV, BA)"),
                  Opt("--move", "move", True, help="move a station (1843 gray phase)")),
        "buy-private": (Opt("--as-train", "as_train", True, help="1843: Val de Loire becomes a 2 train"),),
    },
    kinds={"port": Kind("a port's name", resolve=lambda state, rs, raw: port_name(rs, raw),
                        complete=lambda state, rs: list(rs.own["ports"]["names"]))},
)


def or_started(ctx) -> None:
    """A company holding a gray train as a set begins makes the set count (§8.10.1 #4); ports pay."""
    s, rs = ctx.state, ctx.rs
    owned = rs.k("title_rules", "owned_train_type")
    if owned and s.round["index"] == 1:
        holder = next((sym for sym in s.corps if any(t.startswith(owned + ".") for t in s.corp_trains(sym))), None)
        if holder:
            saw_train(ctx, holder, owned)
    pay_port_income(ctx)


# =========================================================================== ports (§8.5.3, §8.1, §8.9)

def cmd_port(ctx, cmd) -> None:
    rs = ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "port")
    port = port_name(rs, cmd.get("port"))
    if cmd.get("source"):
        buy_port(ctx, corp, port, cmd.get("source"))
    else:
        claim_port(ctx, corp, port)


def port_name(rs, raw: str) -> str:
    known = rs.own["ports"]["names"]
    if not known:
        raise RuleViolation(f"{rs.title} has no ports")
    text = str(raw).strip().lower()
    matches = [n for n in known if n == text] or [n for n in known if n.startswith(text)]
    if len(matches) != 1:
        raise unknown("port", raw, list(known))
    return matches[0]


def income_transfers(s, rs) -> list[list]:
    income = rs.own["ports"]["income"]
    held: dict[str, int] = {}
    for port, corp in ports_held(s).items():
        if corp:
            held[corp] = held.get(corp, 0) + 1
    return [[BANK, company_acct(corp), income * n] for corp, n in sorted(held.items()) if income]


def pay_port_income(ctx) -> None:
    transfers = income_transfers(ctx.state, ctx.rs)
    if transfers:
        ctx.emit("port_income", transfers=transfers)


def claim_port(ctx, corp: str, port: str) -> None:
    """Claim an unclaimed port: the company owned a train at the start of the OR, places no station
    this OR, and claims one port an OR (digest A24)."""
    s = ctx.state
    holder = port_holder(s, port)
    if holder:
        raise RuleViolation(f"the {port} port belongs to {holder}", f"buy it: port {corp} {port} --from {holder}")
    turn.before_revenue(s, corp, "claiming a port")
    if corp not in s.round.get("had_trains", []):
        refuse(f"{corp} owned no train at the start of this operating round: it cannot claim a port")
    if s.round["token"] or s.round.get("special"):
        refuse(f"{corp} placed a station this operating round: it cannot also claim a port")
    if s.round.get("station_step"):
        refuse(f"{corp} has claimed a port this turn (one claim an operating round)")
    ctx.emit("port_claimed", corp=corp, port=port, ports=[[port, None, corp]])


def buy_port(ctx, corp: str, port: str, raw_seller: str) -> None:
    s, rs = ctx.state, ctx.rs
    seller = names.corp(rs, raw_seller)
    holder = port_holder(s, port)
    if holder != seller:
        raise RuleViolation(f"{seller} does not hold the {port} port (held by {holder or 'nobody'})")
    if seller == corp:
        raise RuleViolation(f"{corp} already holds the {port} port")
    if s.round["revenue"] is None:
        refuse(f"{corp} buys ports after running its trains (RULES §8.9)", "pay or withhold first")
    price = rs.own["ports"]["sale_price"]
    turn.pay_from(ctx, corp, price, f"the {port} port")
    ctx.emit("port_sold", corp=corp, seller=seller, port=port, price=price, ports=[[port, seller, corp]],
             transfers=[[company_acct(corp), company_acct(seller), price]])


# =========================================================================== the auction's brief OR (§6.2)

def brief_or(ctx, cheapest: str) -> None:
    """Everyone passed with privates unsold: owned privates pay; one train of the ruleset's type is
    discarded (the last one ends the game); the cheapest private drops; at zero the next player must
    take it."""
    s, rs = ctx.state, ctx.rs
    privates.pay_revenue(ctx)
    kind = rs.k("title_rules", "brief_or_discards")
    if kind:
        take_from_supply(ctx, "the brief operating round", kind)
        if not trains.depot_left(s, kind) and rs.k("title_rules", "brief_or_ends_game"):
            ctx.emit("game_over", reason=f"every {kind} train was discarded in the auction")
            return
    auction.discount(ctx, cheapest)


# =========================================================================== the foreigners (§5, §8.1)

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
        train_step.new_phase_or_rust(ctx, name)
    return name


def foreigners_buy(ctx) -> bool:
    """After the last OR of a set: the next supply train, and if it was the last of its colour the
    next colour's first too (RULES §5, §8.1)."""
    s, rs = ctx.state, ctx.rs
    name = take_from_supply(ctx, "the foreigners")
    if name and not trains.depot_left(s, name):
        nxt = trains.depot_offer(s, rs)
        if nxt:
            take_from_supply(ctx, "the foreigners", nxt[0])
    train_step.check_limits(ctx)
    return False


# =========================================================================== the owned-train end (§8.10.1 #4)

def saw_train(ctx, corp: str, name: str) -> None:
    """The set counts toward the end when a company owns the title's trigger train (gray)."""
    s, rs = ctx.state, ctx.rs
    if rs.k("title_rules", "owned_train_sets") and name == rs.k("title_rules", "owned_train_type") \
            and not s.own.owned_this_set:
        ctx.emit("owned_type_seen", corp=corp, type=name)


def count_owned_set(ctx) -> bool:
    """The game ends after the Nth set in which a company owned the trigger train at some point:
    one bought it in the set, or one holds it as the set ends (a gray train never leaves a company;
    the foreigners' trains are no company's, E16)."""
    s, rs = ctx.state, ctx.rs
    needed = rs.k("title_rules", "owned_train_sets")
    kind = rs.k("title_rules", "owned_train_type")
    owned = any(train_type(t) == kind and h.startswith("company:") for t, h in s.trains.items())
    if not needed or not (s.own.owned_this_set or owned):
        return False
    ctx.emit("owned_set_counted", sets=s.own.owned_sets + 1, type=kind)
    if s.own.owned_sets >= needed:
        ctx.emit("game_over", reason=f"the end of set {s.round['set']}, set {needed} in which a company "
                                     f"owned a {rs.k('title_rules', 'owned_train_type')} train")
        return True
    return False


# =========================================================================== rusted certificates (§15.6)

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
    held = [x for x in s.corp_trains(corp) if trains.is_rusted(s, x)]
    cap = rs.k("title_rules", "relic_limit")
    if len(held) >= cap:
        refuse(f"{corp} already owns {len(held)} rusted certificate(s): at most {cap} per company")
    if s.cash(company_acct(corp)) < side.price:
        raise RuleViolation(f"{corp} has {rs.money(s.cash(company_acct(corp)))}: a rusted certificate is paid "
                            f"from the treasury alone ({rs.money(side.price)})")
    return relics_left(s, name)[0], BANK, side, True


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


# =========================================================================== flips (§8.8.2)

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


# =========================================================================== station moves (§8.5.2)

def cmd_token(ctx, cmd) -> None:
    """`token CORP --move` moves a station; any other token is the shared rule's."""
    if not cmd.get("move"):
        track.cmd_token(ctx, cmd)
        return
    s = ctx.state
    corp = operating_corp(ctx, cmd.get("corp"), "token")
    for why in track.station_bars(s, corp):
        refuse(why)
    move_station(ctx, corp, cmd.get("cost"))


def move_station(ctx, corp: str, given) -> None:
    """From the gray phase a company may move one station once per game."""
    s, rs = ctx.state, ctx.rs
    cost = rs.k("title_rules", "station_move_cost")
    phase = rs.k("title_rules", "station_move_phase")
    if not trains.phase_reached(s, rs, phase):
        refuse(f"stations may be moved from {trains.phase_label(phase)} (now {trains.phase_label(s.phase)})")
    if corp in s.own.stations_moved:
        refuse(f"{corp} has already moved a station (once per game)")
    if given is not None and names.amount(given, "cost") != cost:
        refuse(f"moving a station costs {rs.money(cost)}, not {given}")
    turn.pay_from(ctx, corp, cost, "moving a station")
    ctx.emit("station_moved", corp=corp, cost=cost, transfers=[[company_acct(corp), BANK, cost]])


# =========================================================================== Cie du Val de Loire (§10.2)

def exchange_in_sr(ctx, cmd) -> None:
    exchange(ctx, cmd, in_stock_round=True)


def exchange_in_or(ctx, cmd) -> None:
    exchange(ctx, cmd, in_stock_round=False)


def exchange(ctx, cmd, in_stock_round: bool) -> None:
    """Val de Loire for a certificate; any other private as the shared rule says."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, cmd.get("private"))
    if not rs.private(sym).ability("exchange_any"):
        stock.cmd_exchange(ctx, cmd)
        return
    player = names.player(s, cmd.get("player"))
    if not cmd.get("corp"):
        raise RuleViolation(f"name the company whose certificate {sym} is exchanged for",
                            f"exchange {player} {sym} CORP [--par PRICE]")
    corp = names.corp(rs, cmd.get("corp"))
    held = s.privates[sym]
    if held.owner != player_acct(player) or held.closed:
        raise RuleViolation(f"{player} does not own an open {sym}")
    started = s.corps[corp].par is not None
    if in_stock_round:
        stock.take_turn(ctx, player)
        stock.check_may_buy(ctx, player, corp, "ipo" if started else "par")
    if started:
        take_ipo_share(ctx, player, sym, corp)
    else:
        take_director(ctx, player, sym, corp, cmd.get("par"))
    if in_stock_round:
        stock.acted(ctx, player, bought=[corp, "ipo" if started else "par"])
    stock.check_float(ctx, corp)


def take_ipo_share(ctx, player: str, sym: str, corp: str) -> None:
    s, rs = ctx.state, ctx.rs
    cert = shares.next_ipo_cert(s, rs, corp)
    if cert is None:
        raise RuleViolation(f"the IPO has no {corp} certificate for {sym}")
    shares.check_holding(s, rs, player, corp, s.cert_percent[cert])
    ctx.emit("exchange", player=player, private=sym, corp=corp, source="ipo",
             certs=[[cert, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    stock.check_president(ctx, corp)


def take_director(ctx, player: str, sym: str, corp: str, raw_par) -> None:
    """The private is one 10 % half of the director's certificate; the player pays the other."""
    s, rs = ctx.state, ctx.rs
    if raw_par is None:
        raise RuleViolation(f"{corp} is not started: exchanging {sym} for its director's certificate sets "
                            f"its par", f"exchange {player} {sym} {corp} --par PRICE")
    price = names.amount(raw_par, "par price")
    stock.check_par_colour(s, rs, price)
    pres = f"{corp}.0"
    cost = price * (s.cert_percent[pres] - shares.unit(s, rs, corp)) // shares.unit(s, rs, corp)
    cash = s.cash(player_acct(player))
    if cash < cost:
        raise RuleViolation(f"{player} has {rs.money(cash)}; the other half of {corp}'s director's certificate "
                            f"at par {rs.money(price)} costs {rs.money(cost)}")
    ctx.emit("exchange", player=player, private=sym, corp=corp, source="director", price=cost,
             transfers=[[player_acct(player), BANK, cost]] if cost else [],
             certs=[[pres, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    ctx.emit("par", player=player, corp=corp, price=price, cost=0, moves=[[corp, None, list(par_cell(rs, price))]])


def cmd_use(ctx, cmd) -> None:
    """Engineers: in its train step, the company names one of its certificates; it will go obsolete
    instead of rusting (run once more, then be discarded before the next train step)."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "use")
    sym = names.private(rs, cmd.get("private"))
    if not rs.private(sym).ability("engineers"):
        raise RuleViolation(f"{sym} has no power a company uses with 'use'")
    held = s.privates[sym]
    if held.owner != company_acct(corp) or held.closed:
        raise RuleViolation(f"{corp} does not own an open {sym}")
    if s.round["revenue"] is None:
        refuse(f"{sym}'s Engineers are used in {corp}'s train step, after it runs", "pay or withhold first")
    if not cmd.get("target"):
        raise RuleViolation(f"name the train {sym}'s Engineers protect", f"use {corp} {sym} TRAIN")
    train_id = owned_train(s, rs, corp, cmd.get("target"))
    if trains.is_obsolete(s, train_id) or trains.is_rusted(s, train_id):
        raise RuleViolation(f"{train_id} is already obsolete or rusted")
    ctx.emit("train_protected", corp=corp, private=sym, train=train_id, flags={train_id: {"engineers": True}})
    ctx.emit("privates_closed", privates=[sym], reason=f"{corp} used its Engineers")


def owned_train(s, rs, corp: str, raw: str) -> str:
    if raw in s.trains:
        if s.trains[raw] != company_acct(corp):
            raise RuleViolation(f"{corp} does not own {raw}")
        return raw
    name, side = names.side(rs, raw)
    train_id = trains.owned_side(s, rs, corp, name, side)
    if train_id is None:
        raise RuleViolation(f"{corp} has no {side or name} train")
    return train_id


def cmd_buy_private(ctx, cmd) -> None:
    if not cmd.get("as_train"):
        operating.cmd_buy_private(ctx, cmd)
        return
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "buy-private")
    sym = names.private(rs, cmd.get("private"))
    price = names.amount(cmd.get("price"), "price")
    p = rs.private(sym)
    kind = p.ability("converts_to_train")
    if not kind:
        raise RuleViolation(f"{sym} does not become a train")
    counts = p.ability("convert_players", [])
    if len(s.players) not in counts:
        refuse(f"{sym} becomes a train only in {' or '.join(map(str, counts))}-player games")
    before = p.ability("convert_before_phase")
    if before and trains.phase_reached(s, rs, before):
        refuse(f"{sym} becomes a train only until {trains.phase_label(before)} (now {trains.phase_label(s.phase)})")
    held = s.privates[sym]
    if held.closed or not held.owner or not held.owner.startswith("player:"):
        raise RuleViolation(f"{sym} is not an open private owned by a player")
    low, high = operating.private_price_range(s, rs, sym)
    if not low <= price <= high:
        span = rs.money(low) if low == high else f"{rs.money(low)} to {rs.money(high)}"
        refuse(f"{sym} sells to a company for {span} now, not {rs.money(price)}")
    side = rs.train(kind).sides[0]
    if not trains.within_limit(s, rs, corp, side):
        refuse(f"train limit: {corp} cannot take {sym}'s {side.name} train ({trains.limit_text(s, rs, corp)})")
    left = trains.depot_left(s, kind)
    if not left:
        raise RuleViolation(f"{sym}'s {kind} train is already in play")
    operating.sell_private(ctx, corp, sym, price)
    ctx.emit("private_converted", corp=corp, private=sym, train=left[0], trains=[[left[0], DEPOT, company_acct(corp)]])
    ctx.emit("privates_closed", privates=[sym], reason=f"{corp} turned it into a train")
    train_step.acquired(ctx, corp)
    train_step.check_limits(ctx)


# =========================================================================== 1843's event kinds

def move_ports(s, e: dict) -> None:
    """[port, from company, to company] moves (None: the map): a port marker is an asset with one
    holder."""
    for port, source, dest in e["ports"]:
        if port not in s.assets or port_holder(s, port) != source:
            raise LedgerCorrupt(f"event {e['kind']}: port {port} is held by {port_holder(s, port)}, not {source}")
        s.assets[port].owner = company_acct(dest) if dest else None


@event
class PortClaimed:
    """A company claims a port marker from the map (RULES §8.5.3); `ports` moves it."""
    corp: str
    port: str
    ports: list

    def apply(s, e):
        move_ports(s, e)
        if s.round.get("kind") == "operating":   # the claim is the turn's station step (§8.5.3)
            s.round = {**s.round, "station_step": "claimed a port"}

    def describe(e, rs):
        return f"{e['corp']} claims the {e['port']} port"


@event
class PortSold:
    corp: str
    seller: str
    port: str
    price: int
    ports: list

    def apply(s, e):
        move_ports(s, e)

    def describe(e, rs):
        return f"{e['corp']} buys the {e['port']} port from {e['seller']} for {rs.money(e['price'])}"


@event
class PortIncome:
    """Every port pays its holder at the start of an OR (RULES §8.1)."""

    def describe(e, rs):
        return "ports pay: " + ", ".join(f"{acct_name(t[1])} {rs.money(t[2])}" for t in e["transfers"])


@event
class TrainTaken:
    """The bank takes a train out of the supply: the foreigners, or the auction's brief OR."""
    by: str
    train: str
    type: str

    def describe(e, rs):
        return f"{e['by']} take a {e['type']} train from the supply ({e['train']})"


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
        return f"{e['corp']} flips {e['train']} to its {e['side']} side"


@event
class TrainProtected:
    corp: str
    private: str
    train: str

    def describe(e, rs):
        return f"{e['corp']} uses {e['private']}'s Engineers on {e['train']}: it will go obsolete instead of rusting"


@event
class PrivateConverted:
    corp: str
    private: str
    train: str

    def describe(e, rs):
        return f"{e['private']} becomes {e['corp']}'s train {e['train']}"


@event
class StationMoved:
    """Gray phase: a company moves one station, once per game (§8.5.2); it is the turn's station."""
    corp: str
    cost: int

    def apply(s, e):
        s.own.stations_moved = s.own.stations_moved + [e["corp"]]
        if "token" in s.round:
            s.round = {**s.round, "token": True}

    def describe(e, rs):
        return f"{e['corp']} moves a station for {rs.money(e['cost'])}"


@event
class OwnedTypeSeen:
    """A company owns the end-trigger train in this set (§8.10.1 #4)."""
    corp: str
    type: str

    def apply(s, e):
        s.own.owned_this_set = True


@event
class OwnedSetCounted:
    sets: int
    type: str

    def apply(s, e):
        s.own.owned_sets = e["sets"]
        s.own.owned_this_set = False

    def describe(e, rs):
        return f"-- set {e['sets']} with a company-owned {e['type']} train --"
