"""1801 / 18OE: minors and regionals, their floats and the Regional/Minor stock rounds.

* Floats (§9.1, §9.2): a minor takes a track-rights chit of a zone and pays its home token (only
  four of the six asterisked chits are ever taken), with the patronage tile's lowest amount; a
  regional's president pays 2 x par into its treasury, which pays the zone's home token. The Major
  railroad phase begins the moment 12 minors and 18 regionals have floated (§8.2).
* Regional/Minor stock rounds (§8.2, §8.4): floats, a parred presidency bought from the Open
  Market, removing regionals, reserving secondaries, closing privates."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event, stock_turn_keys
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.plays import Text
from ledger.core.rounds import stock
from ledger.core.rules import shares, trains
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, POOL, company_acct, player_acct

from .common import (
    AXIS,
    patronage_amounts,
    patronage_paid,
    ZONE_CODES,
    chit_zone,
    free_action_turn,
    holder_of,
    is_minor,
    kind_of,
    major_phase,
    removed,
    rules,
    zone_of,
    zones,
)
from .concessions import concession_turn, executed

# a stock-round turn's one free action (§10), used
ROUND_FIELDS = {"stock": {"free_action": "bool"}}
KNOBS = {"title_rules": {
    "reserved_train": Knob(str, None, REQUIRED),
    "regional_pars": Knob(list, None, REQUIRED),
    "regionals_in_play": Knob(int, None, REQUIRED),
    "minors_in_play": Knob(int, None, REQUIRED),
    "removals": Knob(int, None, REQUIRED),
    "limited_chits": Knob(int, None, REQUIRED),
}}


# =========================================================================== floats (§9.1, §9.2)

def chits_left(s, rs, zone: str) -> list[str]:
    """The zone's chits still to take (§9.1 Table 1: of the asterisked zones' six, four are taken)."""
    return sorted(sym for sym, a in s.assets.items()
                  if a.kind == "chit" and chit_zone(sym) == zone and a.owner is None and not a.closed)


def zone_code(rs, raw) -> str:
    text = str(raw or "").strip().upper()
    for code, z in zones(rs).items():
        if text == code or text == z["name"].upper():
            return code
    raise RuleViolation(f"no track-rights zone {raw!r} in 1801",
                        "zones: " + ", ".join(f"{c} ({z['name']})" for c, z in zones(rs).items()))


def cmd_float(ctx, cmd) -> None:
    """Float a minor the player owns with a chit of a zone (§9.1); in the concession round or an SR."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    concession = begin_action(ctx, player)
    if not is_minor(s, corp):
        refuse(f"{corp} is a {kind_of(s, corp)}: a regional floats with par {player} {corp} PRICE (§9.2)",
               f"par {player} {corp} {rules(rs, 'regional_pars')[0]}")
    if holder_of(s, corp) != player_acct(player):
        refuse(f"{player} does not own Minor {corp}: a player floats only the minors he owns (§9.1)")
    if s.corps[corp].floated:
        refuse(f"Minor {corp} has already floated")
    zone = zone_code(rs, cmd.get("zone"))
    left = chits_left(s, rs, zone)
    if not left:
        refuse(f"no {zones(rs)[zone]['name']} track-rights chit is left (§9.1)",
               "zones with chits: " + ", ".join(c for c in zones(rs) if chits_left(s, rs, c)))
    cost = zones(rs)[zone]["home_cost"]
    help_ = home_help(s, rs, player, corp, zone)
    patronage = patronage_paid(cmd)
    chit = left[0]
    closing = limited_chits_closing(s, rs, zone)
    transfers = [[player_acct(player), company_acct(corp), help_]] if help_ else []
    transfers += [[company_acct(corp), BANK, cost]] if cost else []
    if patronage:
        transfers.append([BANK, company_acct(corp), patronage])
    ctx.emit("minor_floated", player=player, corp=corp, zone=zone, chit=chit, cost=cost, city=cmd.get("city"),
             patronage=patronage, closed_chits=closing, **({"owner_paid": help_} if help_ else {}), transfers=transfers, assets=[[chit, None, company_acct(corp)]])
    owes_train(ctx, corp)
    finish_action(ctx, player, corp, concession)


def cheapest_home(s, rs) -> int | None:
    """The cheapest home token among the chits left (None: no chit is left)."""
    costs = [z["home_cost"] for code, z in zones(rs).items() if chits_left(s, rs, code)]
    return min(costs) if costs else None


def home_help(s, rs, player: str, corp: str, zone: str) -> int:
    """What the owner pays toward a minor's home token. §9.1 has the minor pay it; D18 #45 (a minor
    bought for £0 after the price cuts) needs a ruling: a treasury short of the chosen chit picks
    a chit it can pay; when it can pay none, the owner pays the difference, as a president does for
    the reserved 2+2 (§11.6.1), so the minor is not stranded unfloated."""
    cost, cash = zones(rs)[zone]["home_cost"], s.cash(company_acct(corp))
    if cash >= cost:
        return 0
    cheapest = cheapest_home(s, rs)
    if cheapest is not None and cash >= cheapest:
        refuse(f"Minor {corp} has {rs.money(cash)}; a home token in {zones(rs)[zone]['name']} costs {rs.money(cost)}: "
               f"choose a zone whose home token it can pay ({rs.money(cheapest)}) (§9.1, D18 #45)")
    if cost != cheapest:
        refuse(f"Minor {corp} has {rs.money(cash)}: its owner helps only with the cheapest home token left, "
               f"{rs.money(cheapest)} (D18 #45)")
    own = s.cash(player_acct(player))
    if cash + own < cost:
        refuse(f"Minor {corp} has {rs.money(cash)} and {player} {rs.money(own)}: the home token costs {rs.money(cost)}")
    return cost - cash


def limited_chits_closing(s, rs, zone: str) -> list[str]:
    """§9.1: when the fourth of the asterisked zones' chits is taken, the others leave the game."""
    if not zones(rs)[zone]["limited"]:
        return []
    limited = [sym for sym, a in s.assets.items() if a.kind == "chit" and zones(rs)[chit_zone(sym)]["limited"]]
    taken = [sym for sym in limited if s.assets[sym].owner]
    if len(taken) + 1 < rules(rs, "limited_chits"):
        return []
    chosen = chits_left(s, rs, zone)[0]
    return [sym for sym in limited if not s.assets[sym].owner and not s.assets[sym].closed and sym != chosen]


def cmd_par(ctx, cmd) -> None:
    """Float a regional at a par (§9.2), or in the concession round par one into the Open Market
    (§8.1: only when the player can neither float a regional nor a minor)."""
    s, rs = ctx.state, ctx.rs
    if s.pending:
        stock.cmd_par(ctx, cmd)
        return
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    concession = begin_action(ctx, player)
    price = names.amount(cmd.get("price"), "par value")
    check_regional_open(s, rs, corp)
    pars = rules(rs, "regional_pars")
    if price not in pars:
        refuse(f"{rs.money(price)} is not a regional par value: {', '.join(rs.money(p) for p in pars)} (§2.2.5)")
    cost = 2 * price
    cash = s.cash(player_acct(player))
    if cmd.get("open_market"):
        if concession is None:
            refuse("a regional is parred into the Open Market only with a concession (§8.1)", f"par {player} {corp} {price}")
        if floatable_minors(s, rs, player) or cash >= 2 * min(pars):
            can = (f"float Minor {floatable_minors(s, rs, player)[0]}" if floatable_minors(s, rs, player)
                   else f"float a regional ({rs.money(cash)} covers 2 x {rs.money(min(pars))})")
            refuse(f"{player} can {can}: a regional is parred into the Open Market only by a player who can do "
                   f"neither (§8.1)")
        ctx.emit("regional_parred", player=player, corp=corp, par=price,
                 certs=[[s.presidents[corp], shares.unsold_acct(s, rs, corp), POOL]])
        finish_action(ctx, player, corp, concession)
        return
    if cash < cost:
        refuse(f"{player} has {rs.money(cash)}; floating {corp} at {rs.money(price)} costs 2 x par = {rs.money(cost)} "
               f"(§9.2)")
    shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[s.presidents[corp]])
    float_regional(ctx, player, corp, price, shares.unsold_acct(s, rs, corp), "floated", cmd.get("city"))
    finish_action(ctx, player, corp, concession)


def check_regional_open(s, rs, corp: str) -> None:
    k = kind_of(s, corp)
    if k != "regional":
        refuse(f"{corp} is a {k}: only a regional is parred (§9.2)" + (" — a minor floats with float PLAYER MINOR ZONE"
                                                                          if k == "minor" else ""))
    if corp in removed(s):
        refuse(f"{corp} has been removed from the game")
    if s.corps[corp].floated or s.corps[corp].par is not None:
        refuse(f"{corp} is already {'floated' if s.corps[corp].floated else 'parred'}")


def unfloated_minors(s, player: str) -> list[str]:
    return [c for c, corp in s.corps.items() if corp.kind == "minor" and not corp.floated
            and s.certs.get(s.presidents.get(c, "")) == player_acct(player)]


def floatable_minors(s, rs, player: str) -> list[str]:
    """The player's unfloated minors that can float now: a chit is left, and the minor (with its
    owner's help for the cheapest, D18 #45) can pay its home token."""
    cheapest = cheapest_home(s, rs)
    if cheapest is None:
        return []
    return [c for c in unfloated_minors(s, player)
            if s.cash(company_acct(c)) >= cheapest or s.cash(company_acct(c)) + s.cash(player_acct(player)) >= cheapest]


def float_regional(ctx, player: str, corp: str, par: int, source: str, how: str, city: str | None = None) -> None:
    """§9.2: the president pays 2 x par into the treasury, which pays the zone's home token, in its
    home city as printed on the map (named by the table when it wants the bank to know it, §11.5)."""
    s, rs = ctx.state, ctx.rs
    zone = zone_of(rs, corp)
    home = zones(rs)[zone]["home_cost"]
    transfers = [[player_acct(player), company_acct(corp), 2 * par]]
    if home:
        transfers.append([company_acct(corp), BANK, home])
    named = {"city": str(city)} if city else {}
    ctx.emit("regional_floated", player=player, corp=corp, par=par, zone=zone, home_cost=home, how=how, **named,
             transfers=transfers, certs=[[s.presidents[corp], source, player_acct(player)]])
    owes_train(ctx, corp)


def owes_train(ctx, corp: str) -> None:
    """§11.6.1: a new company buys its reserved 2+2 in its first OR (unless level 2 has rusted)."""
    s, rs = ctx.state, ctx.rs
    if not trains.phase_reached(s, rs, rs.train(rules(rs, "reserved_train")).rusts_on or "9"):
        ctx.emit("train_owed", corp=corp, owes=[*s.own.owes_train, corp])


def begin_action(ctx, player: str) -> str | None:
    """A concession's action, or a stock action (one a turn): the concession it executes, if any."""
    s = ctx.state
    if s.round.get("kind") == "concessions":
        return concession_turn(ctx, player)
    stock.take_turn(ctx, player)
    if s.round.get("acted"):
        refuse(f"{player} has taken his stock action this turn (one a turn, §8.2, §10)", f"pass {player}")
    return None


def finish_action(ctx, player: str, corp: str, concession: str | None) -> None:
    if concession:
        executed(ctx, concession)
    else:
        stock.acted(ctx, player, bought=[corp, "float"])
    check_major_phase(ctx)


def check_major_phase(ctx) -> None:
    """§8.2: when the 18th regional floats the others (parred ones too, D18 #17) leave the game;
    the Major railroad phase begins the moment all 12 minors and 18 regionals have floated."""
    s, rs = ctx.state, ctx.rs
    if major_phase(s):
        return
    floated = [c for c, corp in s.corps.items() if corp.floated]
    minors = [c for c in floated if kind_of(s, c) == "minor"]
    regionals = [c for c in floated if kind_of(s, c) == "regional"]
    if len(regionals) >= rules(rs, "regionals_in_play"):
        out = [c for c, corp in s.corps.items() if corp.kind == "regional" and not corp.floated and c not in removed(s)]
        if out:
            back = [[s.presidents[c], POOL, shares.unsold_acct(s, rs, c)] for c in out
                    if s.certs[s.presidents[c]] == POOL]
            ctx.emit("regionals_removed", corps=out, removed=[*removed(s), *out],
                     reason=f"the {rules(rs, 'regionals_in_play')}th regional floated (§8.2)", certs=back)
    if len(minors) >= rules(rs, "minors_in_play") and len(regionals) >= rules(rs, "regionals_in_play"):
        ctx.emit("axis_phase_changed", axis=AXIS, phase="major")


# =========================================================================== Regional/Minor stock rounds

def cmd_remove(ctx, cmd) -> None:
    """`remove PLAYER PRIVATE` (a free action, §10) or `remove PLAYER REGIONAL` (a stock action,
    §8.2: at most six, each from a different zone, never a floated or parred one)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    if kind == "private":
        private_down(ctx, player, sym, "removed")
        return
    begin_action(ctx, player)
    if kind_of(s, sym) != "regional":
        refuse(f"{sym} is a {kind_of(s, sym)}: only an unfloated, unparred regional (or a player's private) is removed "
               f"(§8.2, §10)")
    check_regional_open(s, rs, sym)
    if major_phase(s):
        refuse("regionals are removed only in the Regional/Minor railroad phase (§8.2)")
    by_players = [c for c in removed(s) if c in s.own.removed_by_players]
    if len(by_players) >= rules(rs, "removals"):
        refuse(f"{len(by_players)} regionals have been removed: at most {rules(rs, 'removals')} (§8.2)")
    zone = zone_of(rs, sym)
    same = [c for c in by_players if zone_of(rs, c) == zone]
    if same:
        refuse(f"{same[0]} was removed from {zones(rs)[zone]['name']}: each removed regional comes from a "
               f"different zone (§8.2)")
    ctx.emit("regionals_removed", corps=[sym], removed=[*removed(s), sym], player=player,
             by_players=[*s.own.removed_by_players, sym], reason=f"removed by {player} (§8.2)")
    stock.acted(ctx, player, bought=[sym, "remove"])


def cmd_close(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    private_down(ctx, player, names.private(rs, cmd.get("private")), "closed")


def private_down(ctx, player: str, sym: str, how: str) -> None:
    """§10, §6.1: before his stock action a player may close a private (face down: no income, no
    limit, no score) or remove it from the game; one such free action a turn."""
    s = ctx.state
    free_action_turn(ctx, player)
    if s.privates[sym].owner != player_acct(player):
        refuse(f"{player} does not own {sym}")
    if s.privates[sym].closed and how == "closed":
        refuse(f"{sym} is already face down")
    ctx.emit("private_put_down", player=player, private=sym, how=how,
             assets=[[sym, player_acct(player), None]] if how == "removed" else [])


def cmd_reserve(ctx, cmd) -> None:
    """§8.4: in the initial SR a player reserves one regional's secondaries for himself until SR 2."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    if s.round.get("kind") != "stock" or s.round.get("number") != 1:
        refuse("secondary shares are reserved only in the initial stock round (§8.4)")
    if kind_of(s, corp) != "regional" or not s.corps[corp].floated:
        refuse(f"{corp} is not a floated regional: only a regional's secondary shares are reserved (§8.4)")
    reserved = s.own.reserved
    if player in reserved.values():
        mine = next(c for c, p in reserved.items() if p == player)
        refuse(f"{player} has reserved {mine}'s secondaries: one regional each, never moved (§8.4)")
    if corp in reserved:
        refuse(f"{corp}'s secondaries are reserved by {reserved[corp]}")
    if len(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)) < 2:
        refuse(f"a secondary of {corp} has been bought: the other may not be reserved (§8.4)")
    ctx.emit("shares_reserved", player=player, corp=corp, reserved={**reserved, corp: player})


def sr_heading(s, rs) -> str:
    """§8.2: a player who can float a minor he owns must (he may not pass); the rest is the shared
    round's heading."""
    who = stock.current(s)
    minors = floatable_minors(s, rs, who) if not s.round["acted"] and not major_phase(s) else []
    if minors:
        return f"SR {s.round['number']}: {who} must float Minor {minors[0]} (or act otherwise; he may not pass)"
    return stock.heading(s, rs)


# --------------------------------------------------------------------------- what each verb may name now
# The values worth trying for an argument (legal.completions keeps those the rule accepts), and the
# bars that say at once why a verb is not played now.

def own_unfloated_minors(s, rs, player, args) -> list[str]:
    return unfloated_minors(s, player)


def own_floated_minors(s, rs, player, args) -> list[str]:
    return [c for c, corp in s.corps.items() if corp.kind == "minor" and corp.floated
            and holder_of(s, c) == player_acct(player)]


def open_regionals(s, rs, player, args) -> list[str]:
    """Regionals not floated, parred or removed (§9.2), for a concession or a stock action."""
    return [c for c, corp in s.corps.items() if corp.kind == "regional" and not corp.floated and corp.par is None
            and c not in removed(s)]


def regional_pars(s, rs, player, args) -> list[str]:
    due = s.pending[0] if s.pending and s.pending[0]["kind"] == "par" else None
    if due:
        return [str(p) for p in stock.allowed_pars(s, rs, due.get("colours"))]
    pars = rules(rs, "regional_pars")
    if args.get("open_market") is None and s.round.get("kind") != "concessions":
        pars = [p for p in pars if 2 * p <= s.cash(player_acct(player))]   # 2 x par from his own cash (§9.2)
    return [str(p) for p in pars]


def one_stock_action(s, rs, player) -> list[str]:
    """§8.2, §10: one stock action a turn; once taken, what is left is to pass (or to buy one share
    after selling, in the Major phase: the rule says)."""
    if s.round.get("kind") == "stock" and s.round.get("acted") and player == stock.current(s):
        return [f"{player} has taken his stock action this turn (one a turn, §8.2, §10)"]
    return []


def par_phrase(s, rs, players) -> str:
    who = players[0]
    if s.round.get("kind") == "concessions":
        return "{command} (float a regional; only if he can do neither, par one into the Open Market)"
    return "float a regional ({command})"


def removable(s, rs, player, args) -> list[str]:
    return open_regionals(s, rs, player, args) + own_privates(s, rs, player, args)


def own_privates(s, rs, player, args) -> list[str]:
    return [sym for sym, a in s.privates.items() if a.owner == player_acct(player)]


def floated_regionals(s, rs, player, args) -> list[str]:
    return [c for c, corp in s.corps.items() if corp.kind == "regional" and corp.floated]


def reserve_bars(s, rs) -> list[str]:
    if s.round.get("number") != 1:
        return ["secondary shares are reserved only in the initial stock round (§8.4)"]
    return []


def home_placed(corp, cost: int, city) -> None:
    from ledger.core.state import Station
    corp.stations = (Station(city, 1, cost, home=True),)
    corp.tokens_used = 1


@event
class MinorFloated:
    """§9.1: a minor floats with a chit of `zone`, paying its home token; `closed_chits` leave the
    game (the fourth asterisked chit taken)."""
    player: str
    corp: str
    zone: str
    chit: str
    cost: int
    patronage: int = 0
    city: str = None
    closed_chits: list[str] = None
    owner_paid: int = 0   # what the owner paid toward the home token (D18 #45)

    def apply(s, e):
        c = s.corps[e["corp"]]
        s.seq += 1
        c.floated, c.arrival = True, s.seq
        home_placed(c, e["cost"], e.get("city"))
        for sym in e.get("closed_chits") or ():
            s.assets[sym].closed = True

    def describe(e, rs):
        more = f"; patronage {rs.money(e['patronage'])}" if e.get("patronage") else ""
        gone = f"; chits {', '.join(e['closed_chits'])} leave the game" if e.get("closed_chits") else ""
        return (f"{e['player']} floats Minor {e['corp']} in {e['zone']} (chit {e['chit']}), home token "
                f"{rs.money(e['cost'])}{more}{gone}")


@event
class RegionalParred:
    """§8.1: a regional parred into the Open Market with a concession; it takes its track place."""
    player: str
    corp: str
    par: int

    def apply(s, e):
        c = s.corps[e["corp"]]
        s.seq += 1
        c.par, c.arrival = e["par"], s.seq

    def describe(e, rs):
        return f"{e['player']} pars {e['corp']} at {rs.money(e['par'])} into the Open Market"


@event
class RegionalFloated:
    """§9.2: the president pays 2 x par into the treasury, which pays the home token."""
    player: str
    corp: str
    par: int
    zone: str
    home_cost: int
    how: str = "floated"
    city: str = None      # the home city as the table named it (older games: not named)

    def apply(s, e):
        c = s.corps[e["corp"]]
        if c.par is None:  # a regional parred earlier keeps the place it took then (§8.1)
            s.seq += 1
            c.arrival = s.seq
        c.par, c.floated = e["par"], True
        home_placed(c, e["home_cost"], e.get("city"))

    def describe(e, rs):
        how = "" if e["how"] == "floated" else f", {e['how']}"   # its president's certificate from the Open Market
        token = f", home token {rs.money(e['home_cost'])}" if e["home_cost"] else ""
        return (f"{e['player']} floats {e['corp']} at {rs.money(e['par'])}{how}: pays {rs.money(2 * e['par'])} into its "
                f"treasury{token}")


@event
class TrainOwed:
    """Companies owing their reserved 2+2 (§11.6.1)."""
    corp: str
    owes: list[str]

    def apply(s, e):
        s.own.owes_train = list(e["owes"])


@event
class RegionalsRemoved:
    corps: list[str]
    removed: list[str]
    reason: str
    player: str = None
    by_players: list[str] = None

    def apply(s, e):
        s.own.removed = list(e["removed"])
        for corp in e["corps"]:
            if not s.corps[corp].floated:
                s.corps[corp].par = None   # a parred one leaves the track too (D18 #17)
        if e.get("by_players") is not None:
            s.own.removed_by_players = list(e["by_players"])

    def describe(e, rs):
        verb = "is" if len(e["corps"]) == 1 else "are"
        if e["reason"].startswith("removed"):   # "removed by Ann (§8.2)"
            return f"{', '.join(e['corps'])} {verb} {e['reason'].replace('removed', 'removed from the game', 1)}"
        return f"{', '.join(e['corps'])} {verb} removed from the game: {e['reason']}"


# §10: a private closed or removed is the turn's one free action (free_action), for this turn only
stock_turn_keys(__name__, "free_action")


@event
class PrivatePutDown:
    """§6.1, §10: a private closed (face down), removed, or used up."""
    player: str
    private: str
    how: str

    def apply(s, e):
        s.assets[e["private"]].closed = True
        if s.round.get("kind") == "stock":
            s.round = s.round.but(free_action=True)

    def describe(e, rs):
        return f"{e['player']}'s {e['private']} is {e['how']}"


@event
class SharesReserved:
    player: str
    corp: str
    reserved: dict[str, str]

    def apply(s, e):
        s.own.reserved = dict(e["reserved"])

    def describe(e, rs):
        return f"{e['player']} reserves {e['corp']}'s secondary shares until SR 2 (§8.4)"


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("float", "stock", "Float a minor the player owns: take a track-rights chit of ZONE (UK PHS FB AH IT SP "
             "SND RU); the minor pays its home token (1801 §9.1).", "bank float Ann K RU --patronage 20",
             (Arg("player", "player"), Arg("corp", "company"),
              Arg("zone", "choice", help="the track-rights zone", choices=ZONE_CODES)),
             (Opt("--city", "city", help="the home city, as printed"),
              Opt("--patronage", "patronage", kind="amount", help="the lowest amount on the home city's patronage "
                  "tile, paid into the minor's treasury")), label="Float a minor"),
        Verb("remove", "stock", "Remove an unfloated regional from the game (a stock action), or remove a private "
             "(a free action) (1801 §8.2, §10).", "bank remove Ann GSWR",
             (Arg("player", "player"), Arg("item", "item")), label="Remove from the game"),
        Verb("close", "stock", "Turn a private face down before the stock action: no income, no limit, no score "
             "(1801 §6.1, §10).", "bank close Ann RSC", (Arg("player", "player"), Arg("private", "private")), label="Turn a private face down"),
        Verb("reserve", "stock", "In the initial stock round, reserve a regional's secondary shares until the "
             "second stock round (1801 §8.4).", "bank reserve Ben GWR",
             (Arg("player", "player"), Arg("corp", "company")), label="Reserve the secondaries"),
    ),
    options={
        "par": (Opt("--open-market", "open_market", True, help="1801 concession: par the regional into the Open "
                    "Market (only when the player can float nothing)"),
                Opt("--city", "city", help="1801: the regional's home city, as printed on the map")),
    },
)


def register(reg) -> None:
    from dataclasses import replace
    reg.round(replace(stock.STOCK, heading=sr_heading))
    reg.verb("float", cmd_float, "concessions", "stock", elsewhere="a minor floats in the concession round or a "
             "stock round (§8.1, §8.2)", bars=one_stock_action,
             candidates={"corp": own_unfloated_minors, "patronage": patronage_amounts,
                         "city": lambda *_: Text("the home city, as printed", probe="CITY")},
             phrase=lambda s, rs, who: "float a minor ({command})")
    reg.verb("par", cmd_par, "concessions", "stock", bars=one_stock_action,
             candidates={"corp": open_regionals, "price": regional_pars, "open_market": lambda *_: [None, True]}, phrase=par_phrase)
    reg.verb("remove", cmd_remove, "stock", elsewhere="regionals and privates are removed in a stock round (§8.2, §10)",
             candidates={"item": removable}, phrase=lambda *_: "remove a regional or a private")
    reg.verb("close", cmd_close, "stock", elsewhere="a private is closed in a stock round (§10)",
             candidates={"private": own_privates}, phrase=lambda *_: "close a private")
    reg.verb("reserve", cmd_reserve, "stock", elsewhere="secondary shares are reserved in the initial SR (§8.4)",
             when=reserve_bars, candidates={"corp": floated_regionals},
             phrase=lambda *_: "reserve a regional's secondaries")
