"""Certificates: limits, prices, presidency and the certificate moves of a sale or a purchase.

Shared by the stock round and by emergency sales in operating rounds. Everything here works in
percent and asks the company's kind (ruleset.CompanyKind, which may change in the game) what a unit
is, where its unsold certificates are and whether it has a president.
"""

from __future__ import annotations

from ledger.core.events import counted
from ledger.core.errors import RuleViolation, refuse
from ledger.core.rules import market
from ledger.core.ruleset import Ruleset
from ledger.core.state import BANK, POOL, GameState, cert_corp, company_acct, ipo_acct, player_acct


def kind(s: GameState, rs: Ruleset, corp: str):
    """The company's kind now."""
    return rs.company_kind(s.corps[corp].kind)


def unsold_holder(k, corp: str) -> str:
    """Where a company of kind `k` keeps its unsold certificates: the bank's IPO, or its own treasury."""
    return f"treasury:{corp}" if k.unsold == "treasury" else ipo_acct(corp)


def unsold_acct(s: GameState, rs: Ruleset, corp: str) -> str:
    return unsold_holder(kind(s, rs, corp), corp)


def share_money_to(s: GameState, rs: Ruleset, corp: str) -> str:
    """Who receives the price of an unsold share: the company when it is capitalised share by
    share, else the bank."""
    return company_acct(corp) if kind(s, rs, corp).capitalization == "incremental" else BANK


def price(s: GameState, rs: Ruleset, corp: str) -> int:
    return market.price(rs, s.corps[corp].cell)


def zone(s: GameState, rs: Ruleset, corp: str) -> str:
    return market.zone(rs, s.corps[corp].cell)


def unit(s: GameState, rs: Ruleset, corp: str) -> int:
    """The percent one share of the company is (10 for 1830; 2 for a unit of an 1839 foreign)."""
    return kind(s, rs, corp).unit


def shares_of(s: GameState, rs: Ruleset, holder: str, corp: str) -> int:
    return s.percent_of(holder, corp) // unit(s, rs, corp)


def cert_count(s: GameState, rs: Ruleset, player: str) -> int:
    """Certificates that count toward the limit: open privates, and shares of companies whose
    price is outside the exempt zones (a never-parred company's share counts)."""
    acct = player_acct(player)
    free = set(rs.k("stock", "cert_free_zones"))
    n = sum(1 for p in s.assets.values() if p.kind == "private" and p.owner == acct and not p.closed)
    counts: dict = {}
    for cert in s.certs_of(acct):
        corp = cert_corp(cert)
        if corp not in counts:
            counts[corp] = kind(s, rs, corp).counts and zone(s, rs, corp) not in free
        n += counts[corp]
    return n


def over_cert_limit(s: GameState, rs: Ruleset, player: str) -> bool:
    return cert_count(s, rs, player) > cert_limit(s, rs, player)


def cert_limit(s: GameState, rs: Ruleset, player: str) -> int:
    """The player's certificate limit: the table's for the number of players, plus the title's
    bonus for each company of a counting kind he holds enough of (1839 §7.6: +2 at 80 %)."""
    bonus = rs.k("stock", "cert_limit_bonus")
    if not bonus:
        return s.cert_limit
    at = rs.k("stock", "cert_limit_bonus_at")
    held: dict = {}
    for cert in s.certs_of(player_acct(player)):
        held[cert_corp(cert)] = held.get(cert_corp(cert), 0) + s.cert_percent[cert]
    big = sum(1 for corp, pct in held.items() if pct >= at and kind(s, rs, corp).counts)
    return s.cert_limit + bonus * big


def holding_limit(s: GameState, rs: Ruleset, corp: str) -> int:
    """The percent of the company one player may hold now (0: no limit), by its kind and zone."""
    if zone(s, rs, corp) in rs.k("stock", "unlimited_holding_zones"):
        return 0
    return kind(s, rs, corp).holding_limit


def over_holding(s: GameState, rs: Ruleset, player: str) -> list[str]:
    """Companies the player holds more of than the holding limit allows (none where the limit only
    caps IPO buys: 1839 lets a player own more from the pool)."""
    if rs.k("stock", "holding_limit_ipo_only"):
        return []
    return [c for c in s.corps
            if holding_limit(s, rs, c) and s.percent_of(player_acct(player), c) > holding_limit(s, rs, c)]


def check_can_take_cert(s: GameState, rs: Ruleset, player: str, corp: str, pct: int, source: str = "ipo") -> None:
    """Certificate limit and holding limit for one more certificate of `corp`."""
    free = set(rs.k("stock", "cert_free_zones"))
    count = cert_count(s, rs, player)
    limit = cert_limit(s, rs, player)
    if count >= limit and kind(s, rs, corp).counts and zone(s, rs, corp) not in free:
        order = list(rs.k("stock", "cert_free_zones"))
        named = ", ".join(order[:-1]) + " or " + order[-1] if len(order) > 1 else "".join(order)
        zones = f", or buy a company priced in the {named} zone" if order else ""
        refuse(f"certificate limit {limit} reached: {player} holds {count}", f"sell a certificate first{zones}")
    if source == "pool" and rs.k("stock", "holding_limit_ipo_only"):
        return  # 1839 D9.2: the 60 % cap is on IPO buys only
    check_holding(s, rs, player, corp, pct)


def check_holding(s: GameState, rs: Ruleset, player: str, corp: str, pct: int) -> None:
    """The holding limit (60 %) for `pct` more of `corp`, outside the zones that lift it."""
    limit = holding_limit(s, rs, corp)
    after = s.percent_of(player_acct(player), corp) + pct
    if limit and after > limit:
        refuse(f"holding limit: {player} would hold {after}% of {corp}, the limit is {limit}%")


def president_after(s: GameState, corp: str, percents: dict[str, int]) -> str | None:
    """Who is president given players' percentages: the sitting president keeps the chair on a tie;
    otherwise the most shares, ties going to the first player clockwise after the old president."""
    old = s.president(corp)
    best = max(percents.values(), default=0)
    if old and percents.get(old, 0) >= best:
        return old
    start = s.player_index(old) if old else -1
    for step in range(1, len(s.players) + 1):
        p = s.players[(start + step) % len(s.players)]
        if percents.get(p, 0) == best and best > 0:
            return p
    return None


def player_percents(s: GameState, corp: str) -> dict[str, int]:
    return {p: s.percent_of(player_acct(p), corp) for p in s.players}


def ordinary_certs(s: GameState, holder: str, corp: str) -> list[str]:
    """The holder's certificates of the company other than the president's, in issue order."""
    pres = s.presidents.get(corp)
    return sorted((c for c in s.certs_of(holder, corp) if c != pres), key=_cert_key)


def _cert_key(cert: str) -> int:
    return int(cert.rsplit(".", 1)[1])


def swap_moves(s: GameState, rs: Ruleset, corp: str, old: str, new: str) -> list[list[str]]:
    """The new president hands over certificates worth the president's certificate and takes it."""
    pres = s.presidents[corp]
    pres_pct = s.cert_percent[pres]
    give, total = [], 0
    for cert in ordinary_certs(s, player_acct(new), corp):
        if total >= pres_pct:
            break
        give.append(cert)
        total += s.cert_percent[cert]
    moves = [[pres, player_acct(old), player_acct(new)]]
    moves += [[c, player_acct(new), player_acct(old)] for c in give]
    return moves


def sale_moves(s: GameState, rs: Ruleset, player: str, corp: str, n: int, *, keep_president: bool = False
               ) -> tuple[list[list[str]], str | None]:
    """Certificate moves for `player` selling `n` shares of `corp` to the pool, and the new president
    (None when unchanged). Raises RuleViolation when the sale is illegal."""
    u = unit(s, rs, corp)
    acct = player_acct(player)
    held = s.percent_of(acct, corp)
    if n < 1:
        raise RuleViolation("sell at least 1 share")
    if held < n * u:
        raise RuleViolation(f"{player} holds {held}% of {corp}, cannot sell {counted(n, 'share')} ({n * u}%)")
    pool_after = s.percent_of(POOL, corp) + n * u
    limit = rs.k("stock", "pool_limit")
    if pool_after > limit:
        can = (limit - s.percent_of(POOL, corp)) // u
        refuse(f"pool limit {limit}%: the pool holds {s.percent_of(POOL, corp)}% of {corp}, "
                            f"selling {n} would make {pool_after}%", f"at most {counted(max(can, 0), 'share')} can be sold")
    percents = player_percents(s, corp)
    percents[player] = held - n * u
    is_pres = s.president(corp) == player
    pres_pct = s.cert_percent.get(s.presidents.get(corp, ""), 0)
    new_pres = None
    moves: list[list[str]] = []
    if is_pres:
        if percents[player] < pres_pct:
            # the president's certificate itself is part of the sale: someone else must take it
            others = {p: v for p, v in percents.items() if p != player}
            new_pres = president_after(s, corp, {**others, player: -1})
            if new_pres is None or others.get(new_pres, 0) < pres_pct:
                refuse(f"{player} is president of {corp} and nobody else holds {pres_pct}%: the president's "
                       f"certificate cannot go to the pool",
                       f"{player} may sell at most {counted((held - pres_pct) // u, 'share')} of {corp}")
                raise RuleViolation(f"no one can take {corp}'s president's certificate")
        else:
            new_pres = president_after(s, corp, percents)
        if new_pres == player:
            new_pres = None
        if new_pres:
            if keep_president:
                refuse(f"selling {counted(n, corp + ' share')} would make {new_pres} president of the operating "
                       f"company {corp}, which an emergency sale may not do")
                raise RuleViolation(f"{corp}'s presidency cannot change in an emergency sale")
            moves = swap_moves(s, rs, corp, player, new_pres)
    # After any swap the seller holds only ordinary certificates beyond what he keeps.
    after = dict(s.certs)
    for cert, _src, dest in moves:
        after[cert] = dest
    mine = sorted((c for c, h in after.items() if h == acct and cert_corp(c) == corp and c != s.presidents.get(corp)),
                  key=_cert_key, reverse=True)
    sold, total = [], 0
    for cert in sorted(mine, key=lambda c: -s.cert_percent[c]):
        if total + s.cert_percent[cert] <= n * u:
            sold.append(cert)
            total += s.cert_percent[cert]
    moves += [[c, acct, POOL] for c in sold]
    if total != n * u:
        broken = kind(s, rs, corp).breaks_certificates and break_certificate(s, rs, corp, acct, [c for c in mine if c not in sold], n * u - total)
        if not broken:
            held = ", ".join(f"{s.cert_percent[c]}%" for c in sorted(mine, key=_cert_key))
            raise RuleViolation(f"{player} cannot sell exactly {counted(n, 'share')} of {corp} ({n * u}%) with the certificates "
                                f"held ({held or 'none to sell'}; one share is {u}%)")
        moves += broken
    return moves, new_pres


def break_certificate(s: GameState, rs: Ruleset, corp: str, seller: str, left: list[str], wanted: int):
    """Moves that sell `wanted` percent out of one larger certificate by exchanging it for single
    units (1839 D6.1: a 4 % for two 2 %s): with the pool, which takes the large one and gives back
    the units the seller keeps; or with the unsold certificates, which take it and give the units
    sold and kept. None when no such exchange is possible."""
    u = unit(s, rs, corp)
    big = next((c for c in sorted(left, key=lambda c: s.cert_percent[c]) if s.cert_percent[c] > wanted), None)
    if big is None:
        return None
    keep = (s.cert_percent[big] - wanted) // u
    singles = lambda holder: [c for c in ordinary_certs(s, holder, corp) if s.cert_percent[c] == u]  # noqa: E731
    pool = singles(POOL)
    if len(pool) >= keep:
        return [[big, seller, POOL]] + [[c, POOL, seller] for c in pool[:keep]]
    stock, sell = unsold_acct(s, rs, corp), wanted // u
    spare = singles(stock)
    if len(spare) >= keep + sell:
        return ([[big, seller, stock]] + [[c, stock, POOL] for c in spare[:sell]]
                + [[c, stock, seller] for c in spare[sell:sell + keep]])
    return None


def ipo_percent(s: GameState, rs: Ruleset, corp: str) -> int:
    """The percent still unsold (in the IPO, or in the company's treasury)."""
    return s.percent_of(unsold_acct(s, rs, corp), corp)


def next_ipo_cert(s: GameState, rs: Ruleset, corp: str, percent: int | None = None) -> str | None:
    """The next unsold certificate (other than the president's) a player may buy; of `percent`
    where a company has certificates of several sizes (1839's foreign 4 % and 2 %)."""
    certs = [c for c in ordinary_certs(s, unsold_acct(s, rs, corp), corp) if percent in (None, s.cert_percent[c])]
    return certs[0] if certs else None


def certificates_for_sale(s: GameState, rs: Ruleset, corp: str, source: str, percent: int | None) -> list[str]:
    """What one purchase from the IPO (or treasury) or the pool takes: the next certificate (of
    `percent`, when asked); where none of that size is left but single units are and the kind
    exchanges certificates (1839 D6.1: a 4 % for two 2 %s), those units."""
    cert = next_ipo_cert(s, rs, corp, percent) if source == "ipo" else next_pool_cert(s, corp, percent)
    if cert:
        return [cert]
    k = kind(s, rs, corp)
    if not percent or not k.breaks_certificates:
        return []
    holder = unsold_acct(s, rs, corp) if source == "ipo" else POOL
    singles = [c for c in ordinary_certs(s, holder, corp) if s.cert_percent[c] == k.unit]
    return singles[:percent // k.unit] if len(singles) * k.unit >= percent else []


def next_pool_cert(s: GameState, corp: str, percent: int | None = None) -> str | None:
    certs = [c for c in ordinary_certs(s, POOL, corp) if percent in (None, s.cert_percent[c])]
    return certs[0] if certs else None


def sellable_value(s: GameState, rs: Ruleset, player: str, keep_president_of: str | None) -> tuple[int, list]:
    """What `player` could raise by selling every share the rules let him sell right now, company
    by company (each company's shares sold in one action at its current price)."""
    total, plan = 0, []
    for corp in s.corps:
        if s.corps[corp].cell is None or sale_bar(s, rs, corp):
            continue
        held = shares_of(s, rs, player_acct(player), corp)
        for n in range(held, 0, -1):
            try:
                sale_moves(s, rs, player, corp, n, keep_president=(corp == keep_president_of))
            except RuleViolation:
                continue
            total += n * sale_price(s, rs, corp)
            plan.append((corp, n))
            break
    return total, plan


def sale_bar(s: GameState, rs: Ruleset, corp: str) -> str:
    """Why the company's shares may not be sold now ("" when they may): a title whose companies'
    shares sell only once the company has operated (1839 §7.2), in stock and operating rounds."""
    if rs.k("stock", "sell_after_operating") and kind(s, rs, corp).president and not s.corps[corp].operated:
        return f"{corp} has not operated yet: its shares may be sold once it has operated (§7.2)"
    return ""


def sale_price(s: GameState, rs: Ruleset, corp: str) -> int:
    """What one share sells for: the market price, or the box below it (1839 D6.3, B6: the floor's own)."""
    if kind(s, rs, corp).sale_price == "box_below":
        return market.price(rs, market.move(rs, s.corps[corp].cell, "down"))
    return price(s, rs, corp)


def sell(ctx, player: str, corp: str, n: int, keep_president: bool = False) -> dict:
    """Sell n shares to the pool at the current price, then move the marker down once per share (a
    sale in a stock round, or an emergency sale in an operating round)."""
    s, rs = ctx.state, ctx.rs
    c = s.corps[corp]
    if c.cell is None:
        raise RuleViolation(f"{corp} has no share price yet: its shares cannot be sold")
    if sale_bar(s, rs, corp):
        refuse(sale_bar(s, rs, corp))
    moves, new_pres = sale_moves(s, rs, player, corp, n, keep_president=keep_president)
    at = sale_price(s, rs, corp)
    held = {}
    if rs.k("stock", "sale_price") == "turn_start" and s.round.get("kind") == "stock":
        # 1801 §10.1: a stock action's sales, typed as one command or several, at its starting value
        at = s.round.get("sale_at", {}).get(corp, at)
        held = {"held_price": True}
    # a company's price may be held against sales for a while (1801 §14.4: BBBT's protection)
    held_by_title = ctx.reg.rules.get("price_held")
    to = c.cell if held_by_title and held_by_title(s, corp) else market.after_sale(rs, c.cell, n)
    amount = at * n
    if rs.k("stock", "sale_price") == "stepwise":
        amount = sum(market.price(rs, market.after_sale(rs, c.cell, i)) for i in range(n))
    extra = {}
    if market.sale_sinks_in_stack(rs, c.cell):
        stack = sorted((x for x, o in s.corps.items() if o.cell == c.cell), key=lambda x: s.corps[x].arrival)
        if len(stack) > 1:
            extra["restack"] = [market.sink_in_stack(stack, corp, n)]
    return ctx.emit("shares_sold", player=player, corp=corp, count=n, price=at, amount=amount,
                    president=new_pres, transfers=[[BANK, player_acct(player), amount]], certs=moves,
                    moves=[[corp, list(c.cell), list(to)]], **extra, **held)


# --------------------------------------------------------------------------- a company changes kind

def conversion(s: GameState, rs: Ruleset, corp: str, to_kind: str) -> dict:
    """The fields of a `company_converted` event turning `corp` into a company of `to_kind`: its
    certificates keep their holders and take, in issue order, the new kind's percents (1801: the
    50 % president's becomes 20 %, each 25 % becomes 10 %); the new kind's further certificates are
    issued where it keeps its unsold ones (its treasury), and unsold ones move there."""
    new = rs.company_kind(to_kind)
    held = sorted((c for c in s.cert_percent if cert_corp(c) == corp), key=_cert_key)
    if len(held) > len(new.certificates):
        raise RuleViolation(f"{corp} has {len(held)} certificates; a {to_kind} has {len(new.certificates)}")
    percents = {cert: new.certificates[i] for i, cert in enumerate(held)}
    unsold_now, unsold_then = unsold_acct(s, rs, corp), unsold_holder(new, corp)
    moves = [[c, unsold_now, unsold_then] for c in held if s.certs.get(c) == unsold_now and unsold_now != unsold_then]
    for i in range(len(held), len(new.certificates)):
        cert = f"{corp}.{i}"
        percents[cert] = new.certificates[i]
        moves.append([cert, None, unsold_then])
    return {"corp": corp, "becomes": to_kind, "percents": percents, "certs": moves,
            "president": f"{corp}.0" if new.president else None}


# --------------------------------------------------------------------------- treasury shares

def treasury_trade(ctx, corp: str, n: int, redeem: bool) -> None:
    """A company sells `n` of its treasury shares to the pool at the market price, the price
    moving as for a sale (1801 §11.7), or buys `n` back from the pool. The pool limit holds."""
    s, rs = ctx.state, ctx.rs
    k = kind(s, rs, corp)
    if not k.issues:
        raise RuleViolation(f"{corp} ({k.name}) does not issue or redeem its shares")
    source, dest = (POOL, unsold_acct(s, rs, corp)) if redeem else (unsold_acct(s, rs, corp), POOL)
    certs = ordinary_certs(s, source, corp)[:n]
    if n < 1 or len(certs) < n:
        where = "the pool" if redeem else f"{corp}'s treasury"
        raise RuleViolation(f"{where} holds {counted(len(ordinary_certs(s, source, corp)), corp + ' share')}, not {n}")
    at = price(s, rs, corp)
    amount = at * sum(s.cert_percent[c] for c in certs) // k.unit
    if redeem:
        if s.cash(company_acct(corp)) < amount:
            raise RuleViolation(f"{corp} has {rs.money(s.cash(company_acct(corp)))}, buying back {counted(n, 'share')} costs "
                                f"{rs.money(amount)}")
        ctx.emit("shares_issued", corp=corp, count=n, price=at, amount=amount, redeem=True,
                 transfers=[[company_acct(corp), BANK, amount]], certs=[[c, POOL, dest] for c in certs])
        return
    pool_after = s.percent_of(POOL, corp) + sum(s.cert_percent[c] for c in certs)
    if pool_after > rs.k("stock", "pool_limit"):
        refuse(f"pool limit {rs.k('stock', 'pool_limit')}%: issuing {n} would put {pool_after}% of {corp} in the pool")
    to = market.after_sale(rs, s.corps[corp].cell, n) if s.corps[corp].cell else None
    ctx.emit("shares_issued", corp=corp, count=n, price=at, amount=amount,
             transfers=[[BANK, company_acct(corp), amount]], certs=[[c, source, POOL] for c in certs],
             **({"moves": [[corp, list(s.corps[corp].cell), list(to)]]} if to else {}))


def par_marker_stands(s, rs, sym: str) -> bool:
    """Whether a company's par marker is on the market: a kind whose unsold shares sell at par only
    in the stock round it was parred in (ipo_price par_then_market; 1801 §9.3, §10.7) loses it
    after that round; every other kind keeps its par."""
    if s.corps[sym].par is None or kind(s, rs, sym).ipo_price != "par_then_market":
        return s.corps[sym].par is not None
    return sym in s.round.get("at_par", ())


def standing(s, sym: str) -> str:
    """Where a company stands in its life, whatever its kind: 'floated'; 'started' (parred, or its
    charter bought, not floated yet); 'closed' (it has run and is no longer floated: merged,
    absorbed, closed); or 'not started'."""
    c = s.corps[sym]
    if c.floated:
        return "floated"
    if c.par is not None or s.president(sym):
        return "started"
    if c.operated or c.last_run:
        return "closed"
    return "not started"
