"""`bank explain N`: how command N's money was computed, from the state at that moment."""

from __future__ import annotations

from fractions import Fraction

from ledger.books.history import state_before
from ledger.core.rules import market, shares
from ledger.core.rules.revenue import dividends
from ledger.core.state import POOL, acct_name


def explain(session, command_id: int) -> list[str]:
    row = next((r for r in session.store.commands() if r["id"] == command_id), None)
    if row is None:
        from ledger.core.errors import CommandError
        raise CommandError(f"no command {command_id}", "see 'bank log' for the numbers")
    events = session.store.events_of(command_id)
    state = state_before(session, command_id)
    rs = session.rs
    out = [f"command {command_id}: {row['text']}" + ("" if row["status"] == "active" else f" [{row['status']}]")]
    from ledger.core.events import apply
    for e in events:
        out += explain_event(state, rs, e)
        apply(state, e)
    if len(out) == 1:
        out.append("  no money moved")
    return out


def explain_event(s, rs, e: dict) -> list[str]:
    k = e["kind"]
    if k == "revenue" and e["how"] == "pay":
        return explain_payout(s, rs, e)
    if k == "revenue":
        return [f"  {e['corp']} withholds {rs.money(e['revenue'])}: the bank pays it all to the treasury"] + move_lines(rs, e, "withhold")
    if k == "shares_sold":
        return ([f"  {e['player']} sells {e['count']} {e['corp']} share(s) at the current price {rs.money(e['price'])} = "
                 f"{rs.money(e['amount'])}, paid by the bank"] + move_lines(rs, e, "sell"))
    if k == "share_bought":
        where = "IPO shares are bought at par" if e["source"] == "ipo" else "pool shares at the market price"
        return [f"  {e['player']} pays the bank {rs.money(e['price'])} for {e['percent']}% of {e['corp']} ({where})"]
    if k == "floated":
        kind = shares.kind(s, rs, e["corp"])
        if not e["capital"]:
            return [f"  {e['corp']} floats ({kind.float_percent}% sold); its shares' money went to it as they sold"]
        return [f"  {e['corp']} floats ({kind.float_percent}% sold): the bank pays {kind.capital_shares} × par "
                f"{rs.money(s.corps[e['corp']].par)} = {rs.money(e['capital'])}"]
    lines = [f"  {acct_name(a)} pays {acct_name(b)} {rs.money(n)}" for a, b, n in e.get("transfers", ()) if a != "mint"]
    lines += move_lines(rs, e, None)
    return lines


def explain_payout(s, rs, e: dict) -> list[str]:
    corp, revenue = e["corp"], e["revenue"]
    per_share = Fraction(revenue * shares.unit(s, rs, corp), 100)
    rounding = rs.k("company", "dividend_rounding").replace("_", " ")
    lines = [f"  {corp} pays out {rs.money(revenue)}: {rs.money(per_share)} per {shares.unit(s, rs, corp)}% share "
             f"(each holder's total rounded {rounding.replace('ceil', 'up').replace('floor', 'down')})"]
    recomputed = {acct: amount for acct, _n, amount in dividends(s, rs, corp, revenue)}
    for p in s.players:
        n = shares.shares_of(s, rs, f"player:{p}", corp)
        if n:
            exact = per_share * n
            lines.append(f"    {p}: {n} share(s) × {rs.money(per_share)} = {rs.money(exact)} → {rs.money(recomputed.get(f'player:{p}', 0))}")
    pool = shares.shares_of(s, rs, POOL, corp)
    if pool:
        who = corp if rs.k("company", "pool_pays") == "company" else "nobody"
        lines.append(f"    pool: {pool} share(s) → {rs.money(per_share * pool)} to {who}")
    ipo = shares.shares_of(s, rs, shares.unsold_acct(s, rs, corp), corp)
    if ipo:
        who = corp if rs.k("company", "ipo_pays") == "company" else "nobody (the bank keeps it)"
        lines.append(f"    IPO: {ipo} share(s) → {who}")
    stored = {acct: amount for acct, _n, amount in e["payees"]}
    if stored != recomputed:
        lines.append(f"    WARNING: the ledger paid {stored}, the rules give {recomputed}")
    return lines + move_lines(rs, e, "pay")


RULE = {"pay": "a payout moves the marker one cell right (up at the end of a row)",
        "withhold": "withholding moves it one cell left (down at the start of a row)",
        "sell": "each share sold moves it one cell down (it stays on the bottom cell)",
        None: "price move"}


def move_lines(rs, e: dict, cause) -> list[str]:
    out = []
    for corp, old, new in e.get("moves", ()):
        if old is None:
            out.append(f"    {corp}'s marker is placed at {rs.money(market.price(rs, tuple(new)))}")
            continue
        a, b = market.price(rs, tuple(old)), market.price(rs, tuple(new))
        blocked = " (blocked: it stays)" if list(old) == list(new) else ""
        out.append(f"    {corp} {rs.money(a)} → {rs.money(b)}{blocked}: {RULE[cause]}")
    return out
