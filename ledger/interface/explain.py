"""`bank explain N`: how command N's money was computed, from the state at that moment."""

from __future__ import annotations

from fractions import Fraction

from ledger.books.history import state_before
from ledger.core.events import counted, kind_of
from ledger.core.rules import market, shares
from ledger.core.rules.revenue import dividends
from ledger.core.state import POOL, acct_name


def explain(session, command_id: int) -> list[str]:
    row = next((r for r in session.store.commands() if r["id"] == command_id), None)
    if row is None:
        from ledger.core.errors import CommandError
        raise CommandError(f"no command {command_id}", "see 'bank log' for the numbers")
    if row["status"] == "superseded":
        # its events were decided before an insert changed the past: explain the command that
        # re-recorded it, on the game as it is now
        now, by = session.renumbered().get(command_id, (None, ""))
        if now is not None:
            return ([f"command {command_id}: {row['text']} [superseded: re-recorded as command {now} after {by}]"]
                    + explain(session, now))
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
    if k == "revenue" and e["how"] in ("pay", "half"):
        return explain_payout(s, rs, e)
    if k == "revenue":
        return [f"  {e['corp']} withholds {rs.money(e['revenue'])}: the bank pays it all to the treasury"] + move_lines(rs, e, "withhold")
    if k == "shares_sold":
        return ([f"  {e['player']} sells {counted(e['count'], e['corp'] + ' share')} at the current price {rs.money(e['price'])} = "
                 f"{rs.money(e['amount'])}, paid by the bank"] + move_lines(rs, e, "sell"))
    if k == "share_bought":
        at_par = shares.kind(s, rs, e["corp"]).ipo_price == "par"
        where = (("IPO shares are bought at par" if at_par else "unsold shares at the market price")
                 if e["source"] == "ipo" else "pool shares at the market price")
        payees = [acct_name(b) for _a, b, _n in e.get("transfers", ())]
        if payees == ["bank"]:
            return [f"  {e['player']} pays the bank {rs.money(e['price'])} for {e['percent']}% of {e['corp']} ({where})"]
        return ([f"  {e['player']} pays {rs.money(e['price'])} for {e['percent']}% of {e['corp']} ({where})"]
                + transfer_lines(rs, e))
    if k in ("tile_laid", "token_placed"):
        return fee_lines(rs, e) + transfer_lines(rs, e)
    if k == "floated":
        kind = shares.kind(s, rs, e["corp"])
        if not e["capital"]:
            return [f"  {e['corp']} floats ({kind.float_percent}% sold); its shares' money went to it as they sold"]
        return [f"  {e['corp']} floats ({kind.float_percent}% sold): the bank pays {kind.capital_shares} × par "
                f"{rs.money(s.corps[e['corp']].par)} = {rs.money(e['capital'])}"]
    declared = kind_of(k, rs.title)
    said = declared.describe(e, rs) if declared and declared.describe else ""
    return ([f"  {said}"] if said and (e.get("transfers") or e.get("moves")) else []) + transfer_lines(rs, e) \
        + move_lines(rs, e, None)


def transfer_lines(rs, e: dict) -> list[str]:
    return [f"  {acct_name(a)} pays {acct_name(b)} {rs.money(n)}" for a, b, n in e.get("transfers", ()) if a != "mint"]


# --------------------------------------------------------------------------- fees, step by step

def fee_lines(rs, e: dict) -> list[str]:
    """A tile's or a station's cost as the event made it: the base, each modifier with the amount
    before and after it and its rounding (core/fees.py), the total."""
    if e["kind"] == "tile_laid":
        head = f"{e['corp']} lays a tile" + (f" using {e['private']}" if e.get("private") else "")
    else:
        where = f" at {e['city']}" if e.get("city") else ""
        slot = f" (charter slot {e['slot']})" if e.get("slot") else ""
        head = f"{e['corp']} places a station{where}{slot}"
    steps = e.get("steps") or recorded_steps(rs, e)
    if len(steps) == 1 and not e["cost"]:
        return []  # nothing to pay and nothing to explain
    out = [f"  {head}: {rs.money(e['cost'])}"]
    for what, before, after, rounding in steps:
        if before is None:
            out.append(f"    {what}: {rs.money(after)}")
            continue
        how = "" if not rounding else f" ({rs.money(Fraction(rounding[1]))} rounded {rounding[0]})"
        out.append(f"    {what}: {rs.money(before)} → {rs.money(after)}{how}")
    out.append(f"    = {rs.money(e['cost'])}")
    return out


def recorded_steps(rs, e: dict) -> list[list]:
    """The steps of an event recorded before fees kept them: 1830/1843's fixed sums."""
    if e["kind"] == "token_placed":
        label = f"{e['private']}'s tile and station (fixed)" if e.get("private") else "the charter's price"
        return [[label, None, e["cost"], None]]
    steps, amount = [["terrain", None, e["terrain"], None]], e["terrain"]
    fee_label = "the private's tile fee" if e.get("private") else "a second tile's fee on the charter"
    hex_label = "the hex's fee" + (f", {e['hex']}" if e.get("hex") else "")
    for label, fee in ((fee_label, e.get("fee", 0)), (hex_label, e.get("hex_fee", 0))):
        if fee:
            steps.append([f"+ {rs.money(fee)} {label}", amount, amount + fee, None])
            amount += fee
    return steps


def explain_payout(s, rs, e: dict) -> list[str]:
    corp, revenue = e["corp"], e["revenue"]
    paid = Fraction(revenue, 2) if e["how"] == "half" else Fraction(revenue)
    per_share = paid * shares.unit(s, rs, corp) / 100
    rounding = {"ceil_per_holder": "each holder's total rounded up", "floor_per_holder": "each holder's total rounded down",
                "ceil_players_floor_company": "each player's total rounded up, the company's own down"
                }.get(rs.k("company", "dividend_rounding"), rs.k("company", "dividend_rounding"))
    lines = []
    if e["how"] == "half":
        lines.append(f"  {corp} runs for {rs.money(revenue)} and pays half: it keeps {rs.money(revenue)} / 2 rounded "
                     f"down = {rs.money(e.get('kept', revenue // 2))}, the bank pays it")
    lines.append(f"  {corp} pays out {rs.money(paid)}: {rs.money(per_share)} per {shares.unit(s, rs, corp)}% share "
                 f"({rounding})")
    recomputed = {acct: amount for acct, _n, amount in dividends(s, rs, corp, paid)}
    for p in s.players:
        n = shares.shares_of(s, rs, f"player:{p}", corp)
        if n:
            exact = per_share * n
            lines.append(f"    {p}: {counted(n, 'share')} × {rs.money(per_share)} = {rs.money(exact)} → {rs.money(recomputed.get(f'player:{p}', 0))}")
    pool = shares.shares_of(s, rs, POOL, corp)
    if pool:
        if shares.kind(s, rs, corp).pool_pays == "company":
            exact = per_share * pool
            got = recomputed.get(f"company:{corp}", exact)
            note = f" ({rs.money(exact)} rounded)" if got != exact else ""
            lines.append(f"    pool: {counted(pool, 'share')} → {rs.money(got)} to {corp}{note}")
        else:
            lines.append(f"    pool: {counted(pool, 'share')} → nobody")
    ipo = shares.shares_of(s, rs, shares.unsold_acct(s, rs, corp), corp)
    if ipo:
        who = corp if rs.k("company", "ipo_pays") == "company" else "nobody (the bank keeps it)"
        lines.append(f"    IPO: {counted(ipo, 'share')} → {who}")
    stored = {acct: amount for acct, _n, amount in e["payees"]}
    if stored != recomputed:
        lines.append(f"    WARNING: the ledger paid {stored}, the rules give {recomputed}")
    return lines + move_lines(rs, e, "pay" if e["how"] == "pay" else None)


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
