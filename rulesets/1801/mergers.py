"""1801 / 18OE: minors merging into majors (§10.5), abandoned minors (§9.5) and the Consolidation
round (§5.1.5, §10.6): every regional expanded, every minor merged or abandoned."""

from __future__ import annotations

from ledger.core import names
from ledger.core.plays import Bounds
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.rounds import stock
from ledger.core.rules import shares, train_step, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, POOL, RUSTED, company_acct, player_acct

from .common import holder_of, is_minor, kind_of, major_phase, pullmans_of, rules, tile_points_moved
from .minors_regionals import begin_action, floatable_minors, one_stock_action, own_floated_minors
from .trades import over_limit_bars

# defaults: what games stored before these numbers moved to ruleset.toml played with
# the Consolidation round (§10.6) and the nationals that absorbed a minor this stock round (§10.5)
ROUND_FIELDS = {"stock": {"consolidation": "bool", "merged_into": "list[str]"}, "operating": {"bought_minor": "bool"}}
KNOBS = {"title_rules": {
    "merge_from_phase": Knob(str, None, "3"),   # §5.2, §10.5: minors merge into majors from Train Phase 3
    "abandoned_price": Knob(int, None, 60),     # §9.5: a major buys an abandoned minor for £60
    "consolidation_phase": Knob(str, None, "5"),   # §5.1.5: the SR after the OR Train Phase 5 began in
    "minor_a_paid_again": Knob(bool, None, False),   # D18 #36: A's bonus for every major it joins
}}


def cmd_pass(ctx, cmd) -> None:
    """Pass, or end a turn after acting. §8.2: not while the player owns a minor that can float;
    §10.6: in the Consolidation round not while he holds a minor or a regional."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    ending_his_turn = s.round.get("acted") and stock.current(s) == player
    stock.take_turn(ctx, player)   # a player out of turn is told so first
    if not ending_his_turn:
        left = consolidation_holdings(s, player) if s.round.get("consolidation") else []
        if left:
            refuse(f"{player} still holds {', '.join(left)}: in the Consolidation round a player with a minor or a "
                   f"regional may not pass (§10.6)", f"expand {player} REGIONAL / merge {player} MINOR MAJOR")
        for why in over_limit_bars(s, rs, player):
            refuse(why)
        unfloated = floatable_minors(s, rs, player)
        if unfloated:
            refuse(f"{player} must float Minor {unfloated[0]} before passing: a player who can float a minor he owns "
                   f"may not pass (§8.2)",
                   f"float {player} {unfloated[0]} ZONE")
    stock.cmd_pass(ctx, cmd)


# =========================================================================== merging and abandoning minors



MINOR_A = "A"            # §15.1: the bank pays the major its share value when A merges into it


def minor_a_bonus(s, rs, minor: str, major: str) -> int:
    """§15.1: as Minor A joins a major (merged, or bought abandoned 'as if it was merged', §11.7) the
    bank pays the major its current share value, even with no share to give. Once a game (D18 #36),
    unless the table reads it as paid to every major A joins (option minor_a_paid_again)."""
    if minor != MINOR_A or (s.own.a_bonus_paid and not rules(rs, "minor_a_paid_again")):
        return 0
    return shares.price(s, rs, major)


def cmd_merge(ctx, cmd) -> None:
    """§10.5 (D11.5): a stock action: a minor merges into a major. Its owner receives a 10 % share from
    the major's treasury (the minor's cash to the major), else from the Open Market (its cash to the
    bank), else none (legal only with a track connection, `--connected`; cash to the bank). The
    share ignores the 60 % rule. Trains, chit and ability go to the major (over its limit it
    discards); Minor A's bonus is paid. One minor per major a stock round. Owners who differ agree,
    and may pay each other personal cash (`--cash N` the major's president to the minor's owner)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    minor = names.corp(rs, cmd.get("minor"))
    major = names.corp(rs, cmd.get("corp"))
    begin_action(ctx, player)
    if not is_minor(s, minor) or holder_of(s, minor) != player_acct(player) or not s.corps[minor].floated:
        refuse(f"{player} owns no floated minor {minor}: a player merges his own floated minor (§10.5)")
    if kind_of(s, major) == "national":
        merge_into_national(ctx, player, minor, major)
        return
    if kind_of(s, major) != "major":
        refuse(f"{major} is a {kind_of(s, major)}: minors merge into majors (§10.5)")
    if not trains.phase_reached(s, rs, rules(rs, "merge_from_phase")):
        refuse(f"minors merge into majors from Train Phase {rules(rs, 'merge_from_phase')}; it is Train Phase {s.phase} (§5.2)")
    if major in s.round.get("merged_into", []):
        refuse(f"{major} has absorbed a minor in this stock round: one a stock round (§10.5)")
    source, cert = merger_share(s, rs, major)
    if cert is None and not cmd.get("connected"):
        refuse(f"{major} has no share in its treasury or the Open Market: the merger needs a track connection from "
               f"{minor}'s token to {major}'s (§10.5)", f"merge {player} {minor} {major} --connected")
    cash = s.cash(company_acct(minor))
    to = company_acct(major) if source == "treasury" else BANK
    transfers = [[company_acct(minor), to, cash]] if cash else []
    bonus = minor_a_bonus(s, rs, minor, major)
    if bonus:
        transfers.append([BANK, company_acct(major), bonus])
    side, back = (names.amount(cmd.get(k), "the cash between the players") if cmd.get(k) is not None else None
                  for k in ("cash", "cash_back"))
    if 0 in (side, back):
        refuse("cash between the players is at least £1: leave --cash or --cash-back out when none changes hands")
    side, back = side or 0, back or 0
    president = s.president(major)
    for amount, payer, payee in ((side, president, player), (back, player, president)):
        if not amount:
            continue
        if president == player:
            refuse(f"{player} presides {major}: no cash changes hands with himself")
        if s.cash(player_acct(payer)) < amount:
            refuse(f"{payer} has {rs.money(s.cash(player_acct(payer)))}, not {rs.money(amount)}")
        transfers.append([player_acct(payer), player_acct(payee), amount])
    side -= back
    certs = [[s.presidents[minor], player_acct(player), company_acct(major)]]
    if cert:
        certs.append([cert, shares.unsold_acct(s, rs, major) if source == "treasury" else POOL, player_acct(player)])
    moved = [[t, company_acct(minor), company_acct(major)] for t in s.corp_trains(minor)]
    # §11.6.2: Minor M's own Pullman goes with it; if the major has one already, M's goes to the Open Market
    chits = [[sym, company_acct(minor), POOL if a.kind == "pullman" and pullmans_of(s, major) else company_acct(major)]
             for sym, a in s.assets.items() if a.kind in ("chit", "pullman") and a.owner == company_acct(minor)]
    bonus_points = dict(s.own.tile_points)
    if minor in bonus_points:
        bonus_points[major] = bonus_points.get(major, 0) + bonus_points.pop(minor)
    ctx.emit("minor_merged", player=player, minor=minor, corp=major, source=source or "none", cash=cash,
             a_bonus=bonus, side_cash=side, absorbed={**s.own.absorbed, minor: major},
             tile_point_bonus=bonus_points, transfers=transfers, certs=certs, trains=moved, assets=chits)
    stock.acted(ctx, player, bought=[major, "merge"])
    stock.check_president(ctx, major)
    train_step.check_limits(ctx)


def merge_into_national(ctx, player: str, minor: str, national: str) -> None:
    """§10.5, §9.5 (E11): a minor merging into a national (from Train Phase 4): its owner receives an
    Open Market share, the minor's cash goes to the bank, its trains to the national, and the minor is
    abandoned at once (charter and chit to the Open Market, its ability lost)."""
    s, rs = ctx.state, ctx.rs
    if not trains.phase_reached(s, rs, rules(rs, "pullman_phase")):
        refuse(f"minors merge into nationals from Train Phase {rules(rs, 'pullman_phase')} (§10.5)")
    if national in s.round.get("merged_into", []):
        refuse(f"{national} has absorbed a minor in this stock round: one a stock round (§10.5)")
    cert = shares.next_pool_cert(s, national)
    if cert is None:
        refuse(f"{national} has no share in the Open Market, and a national has no token to connect to: {minor} "
               f"cannot merge into it (§10.5)")
    cash = s.cash(company_acct(minor))
    ctx.emit("minor_merged", player=player, minor=minor, corp=national, source="open market", cash=cash, a_bonus=0,
             side_cash=0, absorbed=dict(s.own.absorbed),
             tile_point_bonus=dict(s.own.tile_points),
             transfers=[[company_acct(minor), BANK, cash]] if cash else [], certs=[[cert, POOL, player_acct(player)]],
             trains=[[t, company_acct(minor), company_acct(national)] for t in s.corp_trains(minor)])
    abandon(ctx, minor, f"it merged into the national {national} (§10.5)")
    stock.acted(ctx, player, bought=[national, "merge"])
    stock.check_president(ctx, national)
    train_step.check_limits(ctx)


def merger_share(s, rs, major: str) -> tuple[str | None, str | None]:
    """The share a merger hands the minor's owner: from the major's treasury, else the Open Market."""
    cert = next(iter(shares.ordinary_certs(s, shares.unsold_acct(s, rs, major), major)), None)
    if cert:
        return "treasury", cert
    cert = shares.next_pool_cert(s, major)
    return ("open market", cert) if cert else (None, None)


def cmd_abandon(ctx, cmd) -> None:
    """§9.5, §10.6: in the Consolidation round a minor its owner cannot place is abandoned: its
    charter goes to the Open Market (its chit with it), its trains to the Open Market (rusted ones
    to the Locomotive Works), its tokens off the map, its cash to the bank."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    minor = names.corp(rs, cmd.get("minor"))
    begin_action(ctx, player)
    if not is_minor(s, minor) or holder_of(s, minor) != player_acct(player):
        refuse(f"{player} owns no minor {minor}")
    if not s.round.get("consolidation"):
        refuse("a minor is abandoned in the Consolidation round, when it cannot be merged (§9.5, §10.6)")
    kept = kept_by_owner(s, rs, player, minor)
    if kept:
        refuse(*kept)
    bidders = [c for c in s.corps if kind_of(s, c) in ("major", "national") and s.president(c) not in (None, player)
               and c not in s.round.get("merged_into", []) and shares.ordinary_certs(s, shares.unsold_acct(s, rs, c), c)]
    declined = bool(cmd.get("no_offers"))   # said by the table; vacuous when nobody could offer
    if bidders and not declined:
        refuse(f"{player} first invites offers for {minor} (§10.6): {', '.join(bidders)} may take it (one offer must be "
               f"accepted: merge {player} {minor} CORP); with no offer, abandon {player} {minor} --no-offers")

    abandon(ctx, minor, f"abandoned by {player} (§10.6)")
    stock.acted(ctx, player, bought=[minor, "abandon"])


def kept_by_owner(s, rs, player: str, minor: str) -> tuple[str, str] | None:
    """Why `player` must place `minor` himself rather than abandon it (§10.6), as (reason, hint):
    he still holds a regional (the Designer's Note: he expands it first, and the major it becomes can
    take the minor), or one of his majors or nationals can take it this round; None when neither."""
    regionals = [c for c in s.corps if kind_of(s, c) == "regional" and s.president(c) == player]
    if regionals:
        return (f"{player} still holds the regional {regionals[0]}: expanded, it can take {minor}, so {minor} is not "
                f"abandoned (§10.6)", f"expand {player} {regionals[0]}")
    own = [c for c in s.corps if kind_of(s, c) in ("major", "national") and s.president(c) == player
           and c not in s.round.get("merged_into", []) and merger_share(s, rs, c)[1]]
    if own:
        return f"{minor} can merge into {player}'s {own[0]} (§10.6)", f"merge {player} {minor} {own[0]}"
    return None


def abandonable_minors(s, rs, player, args) -> list[str]:
    """The minors the Next line and completion offer to abandon: the player's, none of his own can take."""
    return [m for m in own_floated_minors(s, rs, player, args) if not kept_by_owner(s, rs, player, m)]


def abandon(ctx, minor: str, reason: str) -> None:
    s = ctx.state
    cash = s.cash(company_acct(minor))
    moved = [[t, company_acct(minor), RUSTED if trains.flags(s, t).get("rusted") else POOL] for t in s.corp_trains(minor)]
    ctx.emit("minor_abandoned", minor=minor, cash=cash, reason=reason,
             transfers=[[company_acct(minor), BANK, cash]] if cash else [],
             certs=[[s.presidents[minor], holder_of(s, minor), POOL]], trains=moved)


def cmd_buy_minor(ctx, cmd) -> None:
    """§9.5 #7, §11.7: in its buy-or-sell-shares step a major buys one abandoned minor from the Open
    Market for £60 paid to the bank, taking its charter, chit and ability as if merged (Minor A's
    bonus too, §15.1); no share."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "buy-minor")
    minor = names.corp(rs, cmd.get("minor"))
    if kind_of(s, corp) != "major":
        refuse(f"{corp} is a {kind_of(s, corp)}: only a major buys an abandoned minor (§9.5)")
    if not is_minor(s, minor) or holder_of(s, minor) != POOL or minor in s.own.insolvent:
        refuse(f"Minor {minor} is not an abandoned minor in the Open Market (§9.5)")
    if s.round.get("bought_minor"):
        refuse(f"{corp} has bought an abandoned minor this OR: one a turn (§11.7)")
    if s.round.get("revenue") is None:
        refuse(f"{corp} buys an abandoned minor in its last step, after it runs (§9.5 #7, §11 step 7)")
    price = rules(rs, "abandoned_price")
    if s.cash(company_acct(corp)) < price:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; an abandoned minor costs {rs.money(price)}")
    chits = [[sym, a.owner, company_acct(corp)] for sym, a in s.assets.items()
             if a.kind == "chit" and a.owner == company_acct(minor)]
    bonus_points = dict(s.own.tile_points)
    if minor in bonus_points:
        bonus_points[corp] = bonus_points.get(corp, 0) + bonus_points.pop(minor)
    bonus = minor_a_bonus(s, rs, minor, corp)
    ctx.emit("abandoned_minor_bought", corp=corp, minor=minor, price=price, a_bonus=bonus,
             absorbed={**s.own.absorbed, minor: corp}, tile_point_bonus=bonus_points,
             transfers=[[company_acct(corp), BANK, price]] + ([[BANK, company_acct(corp), bonus]] if bonus else []),
             certs=[[s.presidents[minor], POOL, company_acct(corp)]], assets=chits)


def consolidation_due(ctx, phase: str) -> None:
    """§5.1.5: the first SR after the OR in which Train Phase 5 began is the Consolidation round."""
    if phase == rules(ctx.rs, "consolidation_phase"):
        ctx.emit("consolidation_due", due=True)


def consolidation_begins(ctx) -> None:
    s = ctx.state
    if s.own.consolidation_due and s.round.get("kind") == "stock":
        ctx.emit("consolidation_started", number=s.round["number"])


def consolidation_holdings(s, player: str) -> list[str]:
    """The minors and unexpanded regionals a player still holds (§10.6: he may not pass)."""
    return [c for c, corp in s.corps.items() if corp.kind in ("minor", "regional")
            and s.certs.get(s.presidents.get(c, "")) == player_acct(player) and corp.floated]


def merge_bars(s, rs) -> list[str]:
    return [] if major_phase(s) else ["minors merge into majors in the Major railroad phase (§10.5)"]


def majors_and_nationals(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("major", "national")]


def abandon_bars(s, rs) -> list[str]:
    if not s.round.get("consolidation"):
        return ["a minor is abandoned in the Consolidation round, when it cannot be merged (§9.5, §10.6)"]
    return []


def abandoned_minors(s, rs, corp, args) -> list[str]:
    return [c for c, x in s.corps.items() if x.kind == "minor" and holder_of(s, c) == POOL
            and c not in s.own.insolvent]


@event
class MinorMerged:
    """§10.5: a minor merges into a major (`source` of the owner's share: treasury, open market, none)."""
    player: str
    minor: str
    corp: str
    source: str
    cash: int
    absorbed: dict[str, str]
    tile_point_bonus: dict[str, int]
    a_bonus: int = 0
    side_cash: int = 0

    def apply(s, e):
        m = s.corps[e["minor"]]
        m.floated, m.stations, m.tokens_used = False, (), 0
        s.own.absorbed = dict(e["absorbed"])
        tile_points_moved(s, e["tile_point_bonus"])
        if e.get("a_bonus"):
            s.own.a_bonus_paid = True
        note_minor_chit(s, e)
        if s.round.get("kind") == "stock":
            s.round = s.round.but(merged_into=[*s.round.get("merged_into", []), e["corp"]])

    def describe(e, rs):
        where = {"treasury": f"a share from {e['corp']}'s treasury, its {rs.money(e['cash'])} to {e['corp']}",
                 "open market": f"a share from the Open Market, its {rs.money(e['cash'])} to the bank",
                 "none": f"no share (connected), its {rs.money(e['cash'])} to the bank"}[e["source"]]
        bonus = f"; the bank pays {e['corp']} {rs.money(e['a_bonus'])} for Minor A" if e.get("a_bonus") else ""
        return f"{e['player']} merges Minor {e['minor']} into {e['corp']}: {where}{bonus}"


@event
class MinorAbandoned:
    """§9.5: a minor leaves play: charter and trains to the Open Market, cash to the bank."""
    minor: str
    cash: int
    reason: str

    def apply(s, e):
        m = s.corps[e["minor"]]
        m.stations, m.tokens_used = (), 0

    def describe(e, rs):
        reason = e["reason"]   # "abandoned by Ann (§10.6)", or why it is
        said = f"Minor {e['minor']} is {reason}" if reason.startswith("abandoned") else \
            f"Minor {e['minor']} is abandoned: {reason}"
        return said + (f"; its {rs.money(e['cash'])} go to the bank" if e["cash"] else "")


@event
class AbandonedMinorBought:
    corp: str
    minor: str
    price: int
    absorbed: dict[str, str]
    tile_point_bonus: dict[str, int]
    a_bonus: int = 0        # §15.1: Minor A's bonus, paid as if it merged (§11.7)

    def apply(s, e):
        s.corps[e["minor"]].floated = False
        s.own.absorbed = dict(e["absorbed"])
        tile_points_moved(s, e["tile_point_bonus"])
        s.round = s.round.but(bought_minor=True)
        if e.get("a_bonus"):
            s.own.a_bonus_paid = True
        note_minor_chit(s, e)

    def describe(e, rs):
        bonus = f"; the bank pays {e['corp']} {rs.money(e['a_bonus'])} for Minor A (§15.1)" if e.get("a_bonus") else ""
        return f"{e['corp']} buys the abandoned Minor {e['minor']} for {rs.money(e['price'])}{bonus}"


@event
class ConsolidationDue:
    due: bool

    def apply(s, e):
        s.own.consolidation_due = e["due"]

    def describe(e, rs):
        return "the next stock round is the Consolidation round (§5.1.5)"


@event
class ConsolidationStarted:
    number: int

    def apply(s, e):
        s.round = s.round.but(consolidation=True)
        s.own.consolidation_due = False

    def describe(e, rs):
        return f"-- SR {e['number']} is the Consolidation round: every minor and regional leaves play (§10.6) --"


def note_minor_chit(s, e) -> None:
    """Which chit came into a major with which minor (§9.5 step 6: it goes back with the charter)."""
    chits = {e["minor"]: sym for sym, _src, _dst in e.get("assets") or () if s.assets[sym].kind == "chit"}
    if chits:
        s.own.minor_chits = {**s.own.minor_chits, **chits}


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("merge", "stock", "Merge a minor into a major: a share from its treasury or the Open Market (or none "
             "with a connection), the minor's cash, trains, chit and ability to the major (1801 §10.5).",
             "bank merge Ann K WW", (Arg("player", "player"), Arg("minor", "company"), Arg("corp", "company")),
             (Opt("--connected", "connected", True, help="no share is left: the minor's token connects to the "
                  "major's"),
              Opt("--cash", "cash", kind="amount", help="personal cash the major's president pays the minor's "
                  "owner, as agreed"),
              Opt("--cash-back", "cash_back", kind="amount", help="personal cash the minor's owner pays the major's "
                  "president, as agreed")), label="Merge a minor"),
        Verb("abandon", "stock", "In the Consolidation round, abandon a minor that cannot merge: charter and "
             "trains to the Open Market, cash to the bank (1801 §9.5, §10.6).", "bank abandon Ann G",
             (Arg("player", "player"), Arg("minor", "company")),
             (Opt("--no-offers", "no_offers", True, help="the other players' majors that could take it were "
                  "invited and none offered"),), label="Abandon a minor"),
        Verb("buy-minor", "operating", "A major buys an abandoned minor from the Open Market for £60 (1801 §9.5).",
             "bank buy-minor WW G", (Arg("corp", "company"), Arg("minor", "company")), label="Buy an abandoned minor"),
    ),
)


def merger_cash(key: str):
    """What --cash (the major's president pays the minor's owner) or --cash-back (the other way)
    may be: from £1 to what the payer has, when they are two players."""
    def found(s, rs, player, args):
        major = args.get("corp")
        president = s.president(major) if major in s.corps else None
        if president is None or president == player:
            return []
        payer = president if key == "cash" else player
        return Bounds(1, max(1, s.cash(player_acct(payer))))
    return found


def register(reg) -> None:
    reg.rework("stock", "pass", handler=cmd_pass)
    reg.verb("merge", cmd_merge, "stock", elsewhere="a minor merges into a major in a stock round (§10.5)",
             when=merge_bars, bars=one_stock_action,
             candidates={"minor": own_floated_minors, "corp": majors_and_nationals, "cash": merger_cash("cash"),
                         "cash_back": merger_cash("cash_back")},
             phrase=lambda *_: "merge a minor into a major")
    reg.verb("abandon", cmd_abandon, "stock", elsewhere="a minor is abandoned in the Consolidation round (§10.6)",
             when=abandon_bars, bars=one_stock_action, candidates={"minor": abandonable_minors, "no_offers": lambda *_: [None, True]}, phrase=lambda *_: "abandon a minor")
    reg.on("phase_changed", consolidation_due)
    reg.on("stock_round_started", consolidation_begins)
    reg.verb("buy-minor", cmd_buy_minor, "operating",
             elsewhere="a major buys an abandoned minor in its operating turn (§9.5, §11.7)",
             candidates={"minor": abandoned_minors}, phrase=lambda s, rs, *_: f"buy-minor (for {rs.money(rules(rs, 'abandoned_price'))})")
