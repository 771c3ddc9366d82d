"""Stock rounds: sell, buy one certificate, sell; pars; floats; the end-of-round moves.

Rules: SEED "Stock Dealing Rounds", digest §7 and §11. A player's turn ends when he passes, or
implicitly when the next player in order acts after he has bought or sold.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.round_kind import RoundKind, known_round
from ledger.core.rules import market, privates, shares, trains
from ledger.core.rules.market import operating_order
from ledger.core.plays import Bounds
from ledger.core.state import BANK, POOL, company_acct, ipo_acct, player_acct


def register(reg) -> None:
    reg.round(STOCK)
    reg.verb("par", cmd_par, "stock", bars=buy_bars, candidates={"corp": unstarted, "price": par_prices},
             phrase=par_phrase, listing="price")
    reg.verb("buy", cmd_buy, "stock", bars=buy_bars, candidates={"item": started, "count": buy_counts,
                                                                  "source": buy_sources, "percent": buy_sizes})
    reg.verb("sell", cmd_sell, "stock", when=sell_bars, candidates={"corp": held, "count": sell_counts},
             reads=("corp", "count"))
    reg.verb("pass", cmd_pass, "stock", bars=pass_bars, phrase=pass_phrase)
    reg.verb("exchange", cmd_exchange, "stock", who=anyone, bars=exchange_bars, phrase=exchange_phrase,
             candidates=EXCHANGE_WORDS)
    reg.answer("par", "par", cmd_par, candidates={"corp": lambda s, rs, who, args: [s.pending[0]["corp"]],
                                                  "price": par_prices}, phrase=par_pending_phrase)
    reg.pending("par", par_pending_text, par_pending_heading)


def new_round(number: int, turn: int) -> dict:
    return {"kind": "stock", "number": number, "turn": turn, "passes": 0, "acted": False,
            "buys": [], "sold": {}, "last_actor": None}


def start(ctx, priority: int | None = None, **_carry) -> None:
    """A stock round follows the last set of ORs; `priority` when the round before deals it anew."""
    s = ctx.state
    turn = s.priority if priority is None else priority
    fields = {} if priority is None else {"priority": priority}
    r = new_round(s.sets_played + 1, turn)
    if ctx.rs.k("stock", "priority") == "pass_order":
        r["passers"] = []  # the passing cards taken, in order (1839 D9.3)
    ctx.emit("round_started", round=r, **fields)
    ctx.reg.call("stock_round_started", ctx)


def par_pending_heading(s, rs, due: dict, reg) -> tuple[str, str]:
    """A private came with a president's certificate: its buyer must set the par first."""
    return due["player"], f"{due['player']} must set the par price of {due['corp']}"


def par_pending_phrase(s, rs, players) -> str:
    due = s.pending[0]
    pars = ", ".join(map(str, allowed_pars(s, rs, due.get("colours"))))
    return f"{{command}} (pars {pars})"


def par_phrase(s, rs, players, prices: list) -> str:
    """A par as a command, the par prices open in words ("par Alice PRR 100 (pars 67 to 100)")."""
    numbers = sorted(int(p) for p in prices if str(p).isdigit())
    if len(numbers) < 2:
        return "{command}"
    return f"{{command}} (pars {rs.money(numbers[0])} to {rs.money(numbers[-1])})"


def actors(s, rs) -> list[str]:
    """The player whose turn it is; once he has acted, also the next player, whose first action
    ends his turn (unless he may not end it yet)."""
    cur = current(s)
    if not s.round["acted"]:
        return [cur]
    nxt = s.players[s.next_player(s.round["turn"])]
    return [cur] + ([nxt] if nxt != cur and not end_turn_bars(s, rs, cur) else [])


def not_turn(s, rs, player: str, actors_: list, verb: str) -> tuple[str, str]:
    cur = current(s)
    nxt = s.players[s.next_player(s.round["turn"])]
    if s.round["acted"] and player == nxt and end_turn_bars(s, rs, cur):
        return end_turn_bars(s, rs, cur)[0], f"{cur} must act first"
    hint = f"{cur} may still act, then {nxt} is next" if s.round["acted"] else f"{cur} must act or pass first"
    return f"it is {cur}'s turn in SR {s.round['number']}, not {player}'s", hint


def heading(s, rs) -> str:
    cur, n = current(s), s.round["number"]
    if s.round["acted"]:   # he has acted and may still act (sell, buy) until he passes
        nxt = s.players[s.next_player(s.round["turn"])]
        return f"SR {n}: {cur}'s turn, after acting ({nxt} is next)"
    return f"SR {n}: {cur}'s turn"


def done_heading(s, rs, nxt: str) -> str:
    """The one whose turn it is has acted and may only pass: the next player acts."""
    return f"SR {s.round['number']}: {nxt}'s turn ({current(s)} is done)"


def must_sell_first(s, rs, player) -> list[str]:
    """Over a limit, a player sells first while he legally can (digest 1830 §7.6, R18 must_sell?); one
    who can sell nothing buys as the limits allow."""
    if not rs.k("stock", "over_limit_must_sell"):
        return []
    sales = sales_toward_holding(s, rs, player)
    if sales:
        return [f"{player} holds {s.percent_of(player_acct(player), sales[0])}% of {sales[0]}, over the "
                f"{shares.holding_limit(s, rs, sales[0])}% limit: must sell before buying (sell {player} {sales[0]} 1)"]
    sales = sales_toward_cert_limit(s, rs, player)
    if sales:
        return [f"{player} holds {shares.cert_count(s, rs, player)} certificates, over the limit "
                f"{shares.cert_limit(s, rs, player)}: must sell before buying (sell {player} {sales[0]} 1)"]
    return []


def buy_bars(s, rs, player) -> list[str]:
    """Over a limit he can sell toward, a player sells first; one purchase a turn, where the title
    allows no more (a brown company's several shares, a director's several of his own company: the
    command's company decides)."""
    if player != current(s):
        return []
    first = must_sell_first(s, rs, player)
    if first or not s.round["buys"]:
        return first
    if rs.k("stock", "multi_buy_zones") or rs.k("stock", "director_buy_percent"):
        return []
    return [f"{player} has already bought this turn: one certificate per turn"]


def sell_bars(s, rs) -> list[str]:
    if first_round_without_sales(s, rs):
        return ["no selling in the first stock round"]
    return []


def pass_bars(s, rs, player) -> list[str]:
    return end_turn_bars(s, rs, player) if player == current(s) else []


def pass_phrase(s, rs, players) -> str:
    """The one whose turn it is ends it; the next one, once it is handed on to him, passes."""
    return "{command} (ends the turn)" if s.round["acted"] and current(s) in players else "{command}"


def unstarted(s, rs, player, args) -> list[str]:
    """Companies a player may start: a president's certificate, no par yet."""
    return [c for c in s.corps if s.presidents.get(c) and s.corps[c].par is None]


def par_prices(s, rs, player, args) -> list[str]:
    due = s.pending[0] if s.pending and s.pending[0]["kind"] == "par" else {}
    return [str(p) for p in allowed_pars(s, rs, due.get("colours"))]


def started(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if s.corps[c].par is not None]


def buy_counts(s, rs, player, args):
    """How many certificates one purchase may take: one, or where the title lets a turn buy several
    (a company in a multi-buy zone, a director's own company) up to what the IPO and the pool hold
    (the rule says how many a turn allows)."""
    corp = args.get("item")
    if corp not in s.corps or s.corps[corp].cell is None:
        return [1]
    several = shares.zone(s, rs, corp) in rs.k("stock", "multi_buy_zones") or \
        (rs.k("stock", "director_buy_percent") and s.president(corp) in (player, None))
    if not several:
        return [1]
    left = len(s.certs_of(ipo_acct(corp), corp)) + len(s.certs_of(POOL, corp)) + \
        len(s.certs_of(company_acct(corp), corp))
    return Bounds(1, max(1, left))   # buying fewer is allowed whenever buying more is: a range


def buy_sources(s, rs, player, args) -> list[str]:
    """Where a share of the company may come from: the IPO (or treasury) and the pool, those holding one."""
    corp = args.get("item")
    if corp not in s.corps:
        return []
    return [where for where, holder in (("ipo", shares.unsold_acct(s, rs, corp)), ("pool", POOL))
            if shares.ordinary_certs(s, holder, corp)]


def buy_sizes(s, rs, player, args) -> list[int]:
    """The certificate sizes a purchase may name (--percent): those of the company bought one at a
    time, the president's aside."""
    corp = args.get("item")
    if corp not in s.corps:
        return []
    return sorted(set(shares.kind(s, rs, corp).certificates[1 if s.presidents.get(corp) else 0:]))


def held(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if s.corps[c].cell is not None and s.percent_of(player_acct(player), c)]


def sell_counts(s, rs, player, args) -> Bounds:
    """From one to every share held (selling fewer is allowed whenever selling more is: a range, its
    top narrowed to what the rule accepts)."""
    corp = args.get("corp")
    n = shares.shares_of(s, rs, player_acct(player), corp) if corp in s.corps else 1
    return Bounds(1, max(1, n))


def anyone(s, rs) -> None:
    return None


def exchangers(s, rs) -> list[str]:
    """Players holding an open private that turns into a share."""
    return [p for p in s.players
            if any(rs.private(sym).ability("exchange_for") and held_by(s, sym) == p for sym in s.privates
                   if any(x.sym == sym for x in rs.privates))]


def exchangeable(s, rs, player, args) -> list[str]:
    """The open privates the player holds that turn into a share."""
    return [p.sym for p in rs.privates if (p.ability("exchange_for") or p.ability("exchange_any"))
            and held_by(s, p.sym) == player]


def exchange_targets(s, rs, player, args) -> list[str]:
    """The companies a private may be exchanged for: the one its power names, or any."""
    sym = args.get("private")
    if sym not in s.privates:
        return []
    named = rs.private(sym).ability("exchange_for")
    return [named] if named else [c.sym for c in rs.corporations]


EXCHANGE_WORDS = {"private": exchangeable, "corp": exchange_targets}


def exchange_bars(s, rs, player) -> list[str]:
    if player not in exchangers(s, rs):
        return [f"{player} does not own an open private that is exchanged for a share"]
    return []


def held_by(s, sym: str) -> str | None:
    owner = s.privates[sym].owner
    return owner.split(":", 1)[1] if owner and owner.startswith("player:") and not s.privates[sym].closed else None


def exchange_phrase(s, rs, players) -> str:
    return "{commands}"


def par_pending_text(s, rs, due: dict, reg) -> tuple[str, str]:
    return (f"{due['player']} must first choose the par price of {due['corp']}",
            f"par {due['player']} {due['corp']} PRICE")


def current(s) -> str:
    return s.players[s.round["turn"]]


def take_turn(ctx, player: str) -> None:
    """Make sure it is `player`'s turn, ending the previous player's turn if he has acted."""
    s = ctx.state
    cur = current(s)
    if player == cur:
        return
    nxt = s.players[s.next_player(s.round["turn"])]
    if s.round["acted"] and player == nxt:
        check_may_end_turn(s, ctx.rs, cur)
        end_turn(ctx, passed=False)
        return
    hint = f"{cur} may still act, then {nxt} is next" if s.round["acted"] else f"{cur} must act or pass first"
    refuse(f"it is {cur}'s turn in SR {s.round['number']}, not {player}'s", hint)


def end_turn(ctx, passed: bool) -> None:
    s = ctx.state
    ctx.emit("sr_turn", turn=s.next_player(s.round["turn"]), passes=s.round["passes"] + 1 if passed else 0)


def acted(ctx, player: str, bought: list | None = None, sold: str | None = None) -> None:
    """The player whose turn it is bought ([company, source]) or sold (a company)."""
    s = ctx.state
    counted = sold and (ctx.rs.k("stock", "sell_in_blocks") or ctx.rs.k("stock", "order") != "sell_buy_sell")
    ctx.emit("sr_acted", player=player, index=s.player_index(player),
             **({"bought": bought} if bought else {}), **({"sold": sold} if sold else {}),
             **({"turn_sales": True} if counted else {}))


# --------------------------------------------------------------------------- par and buy

def cmd_par(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    price = names.amount(cmd.get("price"), "par price")
    pars = rs.k("company", "par_prices")
    pending = next((p for p in s.pending if p["kind"] == "par"), None)
    if price not in pars:
        now = allowed_pars(s, rs, pending.get("colours") if pending else None)
        raise RuleViolation(f"{rs.money(price)} is not a par price in {rs.title}",
                            f"pars open now: {', '.join(map(str, now))}" if now != pars else
                            f"par prices: {', '.join(map(str, pars))}")
    if pending:
        if (pending["player"], pending["corp"]) != (player, corp):
            raise RuleViolation(f"{pending['player']} must first choose the par price of {pending['corp']}")
        check_par_colour(s, rs, price, pending.get("colours"))
        ctx.emit("par", player=player, corp=corp, price=price, moves=[[corp, None, list(market.par_cell(rs, price))]])
        ctx.emit("pending", pending=[p for p in s.pending if p is not pending])
        return
    take_turn(ctx, player)
    pres = s.presidents.get(corp)
    if pres is None:
        raise RuleViolation(f"{corp} ({s.corps[corp].kind}) has no president's certificate: a player does not start it",
                            f"buy {player} {corp}")
    if s.corps[corp].par is not None:
        raise RuleViolation(f"{corp} is already started (par {rs.money(s.corps[corp].par)})", f"buy {player} {corp}")
    check_par_colour(s, rs, price)
    check_may_buy(ctx, player, corp, "par", s.cert_percent[pres])
    cost = price * s.cert_percent[pres] // shares.unit(s, rs, corp)
    if s.cash(player_acct(player)) < cost:
        raise RuleViolation(f"{player} has {rs.money(s.cash(player_acct(player)))}, starting {corp} at {rs.money(price)} costs {rs.money(cost)}")
    shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[pres])
    at_par = {"par_round": True} if shares.kind(s, rs, corp).ipo_price == "par_then_market" else {}
    ctx.emit("par", player=player, corp=corp, price=price, cost=cost, moves=[[corp, None, list(market.par_cell(rs, price))]],
             **at_par,
             transfers=[[player_acct(player), shares.share_money_to(s, rs, corp), cost]],
             certs=[[pres, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    acted(ctx, player, bought=[corp, "par"])
    check_float(ctx, corp)


def allowed_pars(s, rs, colours=None) -> list[int]:
    """Par prices open now: every par box, or (titles with par colours) the boxes whose colour the
    phase allows (1843 T2), or a private's own colours (1843 Lyon-Mediterranee)."""
    colours = colours or rs.phase(s.phase).par_colours
    pars = rs.k("company", "par_prices")
    if not colours:
        return list(pars)
    cells = rs.par_cells()
    return [p for p in pars if p in cells and cells[p].colour in colours]


def check_par_colour(s, rs, price: int, colours=None) -> None:
    allowed = allowed_pars(s, rs, colours)
    if price not in allowed:
        cell = rs.par_cells().get(price)
        what = f"a {cell.colour} par" if cell and cell.colour else "not a par"
        refuse(f"{rs.money(price)} is {what}; pars open now (in {trains.phase_label(s.phase)}): "
               f"{', '.join(rs.money(p) for p in allowed)}")


def cmd_buy(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, corp = names.item(rs, cmd.get("item"))
    if kind != "corp":
        raise RuleViolation(f"{corp} is a private; privates change hands in the auction or with buy-private")
    count = cmd.get("count") or 1
    take_turn(ctx, player)
    note_directorships(ctx, player)
    percent = names.whole_number(cmd.get("percent"), "the certificate's percent") if cmd.get("percent") else None
    sizes = sorted(set(shares.kind(s, rs, corp).certificates[1 if s.presidents.get(corp) else 0:]), reverse=True)
    if percent is not None and percent not in sizes:
        raise RuleViolation(f"a {corp} certificate is {' or '.join(f'{p}%' for p in sizes)}, not {percent}%: one "
                            f"certificate a purchase")
    if count > 1 and corp in s.corps and s.corps[corp].par is not None:
        several_bars(s, rs, player, corp, cmd.get("source"), count)
    for i in range(count):
        try:
            buy_one(ctx, player, corp, cmd.get("source"), percent)
        except RuleViolation as exc:
            if i == 0:
                raise
            # the first certificate was legal: the request for more is what the rules refuse
            raise RuleViolation(f"{player} may buy {i} {corp} certificate{'s' if i > 1 else ''} now, not {count}: "
                                f"{exc.message}", exc.hint) from None


def several_bars(s, rs, player: str, corp: str, source: str | None, count: int) -> None:
    """A purchase of several certificates at once, refused by the rule that allows one a turn (not
    by the words of the second purchase it would simulate): where the title lets a turn buy several
    only of one company in a zone (1830, 1843: brown), or a director several of his own (1839), the
    purchases decide; elsewhere one certificate a turn."""
    if rs.k("stock", "director_buy_percent") and s.president(corp) == player:
        return
    multi = rs.k("stock", "multi_buy_zones")
    zone = shares.zone(s, rs, corp) if s.corps[corp].cell is not None else None
    from_ipo = rs.k("stock", "multi_buy_from_ipo")
    bought = ", having bought this turn" if s.round["buys"] else ""
    source = source or ("ipo" if shares.certificates_for_sale(s, rs, corp, "ipo", None) else "pool")
    if multi and zone in multi and (from_ipo or source == "pool"):
        return
    if not multi:
        refuse(f"{player} may buy one {corp} certificate in a turn, not {count}{bought}: one certificate per turn "
               f"in {rs.title}", f"buy {player} {corp}")
    where = f"at {rs.money(shares.price(s, rs, corp))}, in the {zone} zone" if zone else "not yet on the market"
    if zone in multi:   # the zone allows several, but from the pool only
        refuse(f"{player} may buy one {corp} certificate from the IPO in a turn, not {count}: several certificates "
               f"of one company in the {' or '.join(multi)} zone come from the pool only", f"buy {player} {corp} --pool")
    refuse(f"{player} may buy one {corp} certificate in a turn, not {count}: several in one turn only of one company "
           f"in the {' or '.join(multi)} zone, and {corp} is {where}", f"buy {player} {corp}")


def buy_one(ctx, player: str, corp: str, source: str | None, percent: int | None = None) -> None:
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    if c.par is None:
        raise RuleViolation(f"{corp} has not been started", f"par {player} {corp} PRICE")
    k = shares.kind(s, rs, corp)
    if k.buyable_from_phase and not trains.phase_reached(s, rs, k.buyable_from_phase):
        refuse(f"{corp}'s shares are on sale from {trains.phase_label(k.buyable_from_phase)}; it is "
               f"{trains.phase_label(s.phase)}")
    source = source or ("ipo" if shares.certificates_for_sale(s, rs, corp, "ipo", percent) else "pool")
    certs = shares.certificates_for_sale(s, rs, corp, source, percent)
    if not certs:
        where = "the IPO" if source == "ipo" else "the pool"
        size = f"{percent}% " if percent else ""
        raise RuleViolation(f"{where} has no {size}{corp} share for sale")
    pct = sum(s.cert_percent[c] for c in certs)
    check_may_buy(ctx, player, corp, source, pct)
    price = share_price(s, rs, corp, source) * pct // shares.unit(s, rs, corp)
    cash = s.cash(player_acct(player))
    if cash < price:
        raise RuleViolation(f"{player} has {rs.money(cash)}, a {corp} share from the {source.upper() if source == 'ipo' else source} costs {rs.money(price)}")
    shares.check_can_take_cert(s, rs, player, corp, pct, source)
    holder, payee = (shares.unsold_acct(s, rs, corp), shares.share_money_to(s, rs, corp)) if source == "ipo" else (POOL, BANK)
    # a title may split an unsold share's price (1839 D6.3: half to a foreign company until brown)
    split = ctx.reg.rules.get("unsold_share_payees") if source == "ipo" else None
    payees = (split(s, rs, corp, price) if split else None) or [[payee, price]]
    ctx.emit("share_bought", player=player, corp=corp, source=source, price=price, percent=pct,
             transfers=[[player_acct(player), to, amount] for to, amount in payees if amount],
             certs=[[c, holder, player_acct(player)] for c in certs])
    for c in certs:
        ctx.reg.call("share_bought", ctx, player, corp, source, c)
    check_president(ctx, corp)
    acted(ctx, player, bought=[corp, source])
    check_float(ctx, corp)


def share_price(s, rs, corp: str, source: str) -> int:
    """A unit's price: unsold shares at par or at the market price (as the company's kind says),
    pool shares at the market price."""
    how = shares.kind(s, rs, corp).ipo_price
    if source == "ipo" and (how == "par" or (how == "par_then_market" and corp in s.round.get("at_par", ()))):
        return s.corps[corp].par
    return shares.price(s, rs, corp)


def check_may_buy(ctx, player: str, corp: str, source: str, pct: int = 0) -> None:
    """One purchase a turn (several of one brown company, or a director's several of his own
    company), not a company sold this round, not over the limit."""
    s, rs = ctx.state, ctx.rs
    if rs.k("stock", "no_buy_after_sell") and corp in s.round["sold"].get(player, []):
        refuse(f"{player} sold {corp} earlier in this stock round and may not buy it again until the next")
    for why in must_sell_first(s, rs, player):
        refuse(why)
    buys = s.round["buys"]
    if not buys:
        return
    if director_may_buy_more(s, rs, player, corp, pct):
        return
    multi = rs.k("stock", "multi_buy_zones")
    from_ipo_ok = rs.k("stock", "multi_buy_from_ipo")
    same = all(b[0] == corp for b in buys)
    zone_ok = shares.zone(s, rs, corp) in multi and source != "par"
    sources_ok = from_ipo_ok or (source == "pool" and all(b[1] == "pool" for b in buys))
    if not (same and zone_ok and sources_ok and all(b[1] != "par" for b in buys)):
        several = f" (several only of one company in the {' or '.join(multi)} zone)" if multi else ""
        refuse(f"{player} has already bought this turn: one certificate per turn{several}")


def note_directorships(ctx, player: str) -> None:
    """Where a director may buy several certificates of his company in a turn (1839 §7.3): the
    companies the player directs as his turn's buying begins (one who takes the chair with his
    first purchase is not yet its director)."""
    s, rs = ctx.state, ctx.rs
    if rs.k("stock", "director_buy_percent") and not s.round["buys"]:
        ctx.emit("directors_noted", player=player, corps=[c for c in s.corps if s.president(c) == player])


def director_may_buy_more(s, rs, player: str, corp: str, pct: int) -> bool:
    """1839 §7.3: the director of a company may buy up to the title's percent of it in one action
    (the par certificate included), from the IPO, the pool or both: its director as the turn's
    buying began, or the player who started it with this turn's par."""
    most = rs.k("stock", "director_buy_percent")
    if not most or s.president(corp) != player or any(b[0] != corp for b in s.round["buys"]):
        return False
    if corp not in s.round.get("directs", []) and s.round["buys"][0][1] != "par":
        return False
    ordinary = shares.kind(s, rs, corp).certificates[-1]
    bought = sum(s.cert_percent[s.presidents[corp]] if b[1] == "par" else ordinary for b in s.round["buys"])
    if bought + pct > most:
        refuse(f"a director buys at most {most}% of his company in one turn: {pct}% more of {corp} would make "
               f"{player}'s {bought + pct}%")
    return True


def check_president(ctx, corp: str) -> None:
    """After a purchase: a player holding more than the president takes the chair."""
    s, rs = ctx.state, ctx.rs
    old = s.president(corp)
    if old is None:
        return
    new = shares.president_after(s, corp, shares.player_percents(s, corp))
    if new and new != old:
        ctx.emit("president_changed", corp=corp, old=old, new=new, certs=shares.swap_moves(s, rs, corp, old, new))


def check_float(ctx, corp: str) -> None:
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    if c.floated or c.par is None:
        return
    k = shares.kind(s, rs, corp)
    sold = 100 - shares.ipo_percent(s, rs, corp)
    if sold >= k.float_percent:
        # full capitalisation: the bank pays the whole capital now; a company paid share by share
        # (incremental) or never (none) receives nothing more at its float
        capital = c.par * k.capital_shares if k.capitalization == "full" else 0
        ctx.emit("floated", corp=corp, capital=capital,
                 transfers=[[BANK, company_acct(corp), capital]] if capital else [])
        ctx.reg.call("floated", ctx, corp)


# --------------------------------------------------------------------------- sell and pass

def cmd_sell(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    n = cmd.get("count") or 1
    take_turn(ctx, player)
    if rs.k("stock", "no_sell_in_first_round") and s.round["number"] == 1:
        refuse("no selling in the first stock round")
    for why in turn_sale_bars(s, rs, player, corp):
        refuse(*why)
    shares.sell(ctx, player, corp, n)
    acted(ctx, player, sold=corp)


def turn_sale_bars(s, rs, player: str, corp: str) -> list[tuple[str, str]]:
    """What the title's turn order refuses of a sale now: a second sale of one company in a turn
    (stock.sell_in_blocks), or a sale after a purchase that followed sales (stock.order
    sell_buy_or_buy_sell: sales before the purchase or after it, not on both sides; sell_buy: no sale
    after the purchase)."""
    if s.round.get("kind") != "stock" or current(s) != player or not s.round.get("acted"):
        return []
    bars = []
    if rs.k("stock", "sell_in_blocks") and corp in s.round.get("turn_sold", ()):
        bars.append((f"{player} has sold {corp} this turn: a company's shares sold in a turn go in one sale",
                     f"sell them together (sell {player} {corp} N) in a later turn"))
    if rs.k("stock", "order") == "sell_buy" and s.round.get("buys"):
        bars.append((f"{player} has bought this turn: sales come before the purchase, never after it",
                     f"the turn is over: the next player acts"))
    if rs.k("stock", "order") == "sell_buy_or_buy_sell" and s.round.get("buys") and s.round.get("sold_first"):
        bars.append((f"{player} sold and then bought this turn: sales come before the purchase or after it, "
                     f"not both", f"the turn is over: the next player acts"))
    return bars


def end_turn_bars(s, rs, player: str) -> list[str]:
    """Over the certificate limit, a player must sell at his next opportunity (1843 §7.6): he may not
    end his turn while a legal sale remains; where the title says so, over the holding limit too."""
    return over_holding_bars(s, rs, player) + over_cert_limit_bars(s, rs, player)


def over_holding_bars(s, rs, player: str) -> list[str]:
    """Over the holding limit in a company (its price left a zone that lifts it), a player sells some
    of it before ending his turn, while he legally can."""
    if not rs.k("stock", "over_holding_blocks_pass"):
        return []
    sellable = sales_toward_holding(s, rs, player)
    if not sellable:
        return []
    corp = sellable[0]
    return [f"{player} holds {s.percent_of(player_acct(player), corp)}% of {corp}, over the "
            f"{shares.holding_limit(s, rs, corp)}% limit: must sell down before ending the turn "
            f"(sell {player} {corp} 1)"]


def first_round_without_sales(s, rs) -> bool:
    return rs.k("stock", "no_sell_in_first_round") and s.round["number"] == 1


def sales_toward_holding(s, rs, player: str) -> list[str]:
    """The companies a player over the holding limit in them may legally sell some of now."""
    over = shares.over_holding(s, rs, player)
    if not over or first_round_without_sales(s, rs):
        return []
    _can, plan = shares.sellable_value(s, rs, player, keep_president_of=None)
    return [corp for corp, _n in plan if corp in over]


def sales_toward_cert_limit(s, rs, player: str) -> list[str]:
    """The companies whose sale brings a player over the certificate limit nearer to it (a certificate
    that counts), that he may legally sell now; none when he is within it."""
    if not shares.over_cert_limit(s, rs, player) or first_round_without_sales(s, rs):
        return []
    free = rs.k("stock", "cert_free_zones")
    _can, plan = shares.sellable_value(s, rs, player, keep_president_of=None)
    return [corp for corp, _n in plan if shares.zone(s, rs, corp) not in free]


def over_cert_limit_bars(s, rs, player: str) -> list[str]:
    if not rs.k("stock", "over_limit_blocks_pass"):
        return []
    sellable = sales_toward_cert_limit(s, rs, player)
    if sellable:
        return [f"{player} holds {shares.cert_count(s, rs, player)} certificates, over the limit "
                f"{shares.cert_limit(s, rs, player)}: must sell down before ending the turn (sell {player} "
                f"{sellable[0]} 1)"]
    return []


def check_may_end_turn(s, rs, player: str) -> None:
    for why in end_turn_bars(s, rs, player):
        refuse(why)


def cmd_pass(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    take_turn(ctx, player)
    check_may_end_turn(s, rs, player)
    if s.round["acted"]:
        end_turn(ctx, passed=False)
    else:
        ctx.emit("stock_pass", player=player)
        end_turn(ctx, passed=True)


def cmd_exchange(ctx, cmd) -> None:
    """A player's private for a share (1830: M&H for an NYC share), in stock and operating rounds."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    sym = names.private(rs, cmd.get("private"))
    p = rs.private(sym)
    target = p.ability("exchange_for")
    if not target:
        raise RuleViolation(f"{sym} cannot be exchanged for a share")
    if cmd.get("corp") and names.corp(rs, cmd.get("corp")) != target:
        raise RuleViolation(f"{sym} is exchanged for a {target} share only")
    why = privates.not_held(s, sym, player_acct(player))
    if why:
        raise RuleViolation(why)
    allowed = p.ability("exchange_from", ["ipo", "pool"])
    source = cmd.get("source") or next((w for w in allowed if
                                        (shares.next_ipo_cert(s, rs, target) if w == "ipo" else shares.next_pool_cert(s, target))), None)
    cert = None
    if source in allowed:
        cert = shares.next_ipo_cert(s, rs, target) if source == "ipo" else shares.next_pool_cert(s, target)
    if cert is None:
        raise RuleViolation(f"no {target} share is available for the exchange ({' or '.join(allowed)})")
    shares.check_holding(s, rs, player, target, s.cert_percent[cert])
    holder = shares.unsold_acct(s, rs, target) if source == "ipo" else POOL
    ctx.emit("exchange", player=player, private=sym, corp=target, source=source,
             certs=[[cert, holder, player_acct(player)]])
    check_president(ctx, target)
    check_float(ctx, target)


# --------------------------------------------------------------------------- end of round

def progress(ctx) -> bool:
    s = ctx.state
    if s.round["passes"] < len(s.players):
        return False
    finish(ctx)
    return True


def finish(ctx) -> None:
    """The title's end-of-SR price moves (1830: sold-out companies rise), the priority deal passes,
    the set of operating rounds begins."""
    s, rs = ctx.state, ctx.rs
    ctx.reg.call("sr_ending", ctx)   # a title's step before the price moves (1839: Kabinet-Rochussen)
    for step in market.end_of_sr_steps(rs):  # the title's market.end_of_sr, in order
        for corp in operating_order(s, rs, every_kind=True):
            c = s.corps[corp]
            if c.cell is None:  # off the market (1801's minors and regionals): no marker to move
                continue
            steps = shares.kind(s, rs, corp).end_of_sr
            if steps is not None and step not in steps:  # a kind moved by some steps only (1839)
                continue
            pool = shares.shares_of(s, rs, POOL, corp)
            to = market.at_end_of_sr(rs, c.cell, step, pool_shares=pool,
                                     sold_out=shares.ipo_percent(s, rs, corp) == 0 and s.percent_of(POOL, corp) == 0)
            if to is None:
                continue
            ctx.emit(market.END_OF_SR_EVENTS[step], corp=corp, moves=[[corp, list(c.cell), list(to)]],
                     **({"shares": pool} if step in ("down_per_pool_share", "down_if_pool") else {}))
            if market.cell(rs, to).end and rs.k("endgame", "end_cell_in_sr") == "immediate":
                ctx.emit("game_over", reason=f"{corp}'s share price reached {rs.money(market.price(rs, to))}")
                return
    last = s.round["last_actor"]
    priority = s.next_player(last) if last is not None else s.priority
    if rs.k("stock", "priority") == "cash_descending":
        # 1843 §7.1: the cards are re-dealt by descending cash, ties keeping their order; #1 starts
        order = sorted(s.players, key=lambda p: -s.cash(player_acct(p)))
        if order != s.players:
            ctx.emit("seating", players=order, cash={p: s.cash(player_acct(p)) for p in order})
        priority = 0
    elif rs.k("stock", "priority") == "pass_order":
        # 1839 D9.3: the passing cards give the next round's order, the first to pass first
        order = list(s.round["passers"]) + [p for p in s.players if p not in s.round["passers"]]
        if order != s.players:
            ctx.emit("seating", players=order, cash={p: s.cash(player_acct(p)) for p in order},
                     by="as the passes began")
        priority = 0
    ctx.emit("stock_round_ended", number=s.round["number"], priority=priority)
    ctx.next_round(priority=priority)


STOCK = known_round(RoundKind(
    name="stock", start=start, progress=progress, actor=lambda s: s.players[s.round["turn"]], heading=heading,
    actors=actors, not_turn=not_turn, done_heading=done_heading,
    label=lambda r: f"SR {r['number']}", title=lambda r: f"Stock Round {r['number']}",
    breaks_bank=lambda s: s.round["number"]))
