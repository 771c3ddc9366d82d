"""What an operating round did, in a few lines: printed after each company's turn and at the end of
each operating round, so the table sees the money without reading every event.

Built only from the recorded events (what the rules decided), never from rules of its own.
"""

from __future__ import annotations

from fractions import Fraction

from ledger.core.money import format_money
from ledger.core.state import acct_name, train_type
from ledger.interface.fit import fit_table, fit_text


def price_at(rs, cell) -> int | None:
    return rs.market[tuple(cell)].price if cell else None


def price_moves(events: list[dict], rs) -> dict[str, tuple[int | None, int | None]]:
    """Each company's price before the first and after the last marker move among the events."""
    out: dict[str, list] = {}
    for e in events:
        for sym, before, after in e.get("moves", ()):
            if sym in out:
                out[sym][1] = price_at(rs, after)
            else:
                out[sym] = [price_at(rs, before), price_at(rs, after)]
    return {sym: (a, b) for sym, (a, b) in out.items()}


def paid(e: dict, rs) -> str:
    """What a payout gave, in whole money: its figure a share when that is whole, else what it paid
    out in all (the rules round each holder's whole payout, not a share's: 1830 digest #1, 1801
    §11.4), never a fraction such as "£12.5"."""
    share = Fraction(e.get("per_share") or 0)
    if share.denominator == 1:
        return f"{format_money(share, rs.currency)} a share"
    return f"{rs.money(sum(amount for *_holder, amount in e.get('payees') or ()))} in all"


def run_words(e: dict, rs) -> str:
    if e["how"] == "withhold":
        return f"ran {rs.money(e['revenue'])}, withheld"
    if e["how"] == "half":
        return f"ran {rs.money(e['revenue'])}, paid half ({paid(e, rs)}), kept {rs.money(e.get('kept') or 0)}"
    return f"ran {rs.money(e['revenue'])}, paid {paid(e, rs)}"


def turn_summary(events: list[dict], rs) -> str | None:
    """One line for the company turn the events end with: its track and station costs, its run and
    payout, its price move, the trains it bought and what rusted."""
    ends = [i for i, e in enumerate(events) if e["kind"] == "corp_turn_ended"]
    if not ends:
        return None
    starts = [i for i, e in enumerate(events[:ends[-1]]) if e["kind"] == "corp_turn_started"]
    turn = events[starts[-1] if starts else 0:ends[-1] + 1]
    corp = events[ends[-1]]["corp"]
    parts = []
    # a refund (1801 §11.6.5: a first-round insolvency undoes the turn's token and paid tiles) nets out
    track = sum(e["cost"] for e in turn if e["kind"] == "tile_laid" and e["corp"] == corp)
    track -= sum(e["cost"] for e in turn if e["kind"] == "tile_refunded" and e["corp"] == corp)
    tiles = sum(1 for e in turn if e["kind"] == "tile_laid" and e["corp"] == corp)
    refunded = sum(1 for e in turn if e["kind"] == "tile_refunded" and e["corp"] == corp)
    if tiles:
        parts.append(f"{tiles} tile{'s' if tiles > 1 else ''} {rs.money(track)}"
                     + (f" ({refunded} refunded)" if refunded else ""))
    stations = [e for e in turn if e["kind"] == "token_placed" and e["corp"] == corp]
    if any(e["kind"] == "token_refunded" and e["corp"] == corp for e in turn):
        stations = stations[:-1]
        parts.append("station refunded")
    for e in turn:
        if e in stations:
            parts.append(f"station {rs.money(e['cost'])}")
        elif e["kind"] == "revenue" and e["corp"] == corp:
            parts.append(run_words(e, rs))
    move = price_moves(turn, rs).get(corp)
    if move and move[0] != move[1]:
        parts.append(f"{rs.money(move[0])} → {rs.money(move[1])}")
    bought = [e for e in turn if e["kind"] == "train_bought" and e["corp"] == corp]
    if bought:
        parts.append("bought " + ", ".join(f"{e.get('side') or e['type']} ({rs.money(e['price'])})" for e in bought))
    if any(e["kind"] == "insolvent" and e["corp"] == corp for e in turn):
        parts.append("insolvent")
    rusted = [t for e in turn if e["kind"] == "trains_rusted" for t in e["rusted"]]
    if rusted:
        parts.append("rusted: " + ", ".join(rusted))
    return f"{corp}'s turn: " + ("; ".join(parts) if parts else "nothing")


def or_summary(events: list[dict], rs, width: int | None = None) -> str | None:
    """A table of the operating round the events end with (from its round_started): each company's
    run, payout per share, price move and trains bought; then what rusted."""
    ends = [i for i, e in enumerate(events) if e["kind"] == "operating_round_ended"]
    if not ends:
        return None
    starts = [i for i, e in enumerate(events[:ends[-1]])
              if e["kind"] == "round_started" and e["round"].get("kind") == "operating"]
    end = events[ends[-1]]
    return or_table(events[starts[-1] if starts else 0:ends[-1] + 1], rs, f"OR {end['set']}.{end['index']}", width)


def or_summary_of(events: list[dict], rs, set_no: int, index: int, width: int | None = None) -> str | None:
    """`bank log --or 4.1`: the table of that operating round again, from the game's events (so far,
    when it is under way); None when the game has not reached it."""
    starts = [i for i, e in enumerate(events) if e["kind"] == "round_started"
              and e["round"].get("kind") == "operating" and (e["round"].get("set"), e["round"].get("index")) == (set_no, index)]
    if not starts:
        return None
    ors = events[starts[-1]:]
    ends = [i for i, e in enumerate(ors) if e["kind"] == "operating_round_ended"]
    over = bool(ends)
    ors = ors[:ends[0] + 1] if ends else ors
    return or_table(ors, rs, f"OR {set_no}.{index}" + ("" if over else " (under way)"), width)


def or_table(ors: list[dict], rs, name: str, width: int | None = None) -> str:
    """The round's table under its name; a round in which no company operated says so."""
    order = [e["corp"] for e in ors if e["kind"] == "corp_turn_started"]
    moves = price_moves(ors, rs)
    rows = []
    for corp in dict.fromkeys(order):
        runs = [e for e in ors if e["kind"] == "revenue" and e["corp"] == corp]
        run = runs[-1] if runs else None
        before, after = moves.get(corp, (None, None))
        bought = [e.get("side") or e["type"] for e in ors if e["kind"] == "train_bought" and e["corp"] == corp]
        rows.append([corp, rs.money(run["revenue"]) if run else "-",
                     {"pay": paid(run, rs) if run else "", "half": f"half, {paid(run, rs)}" if run else "",
                      "withhold": "withheld"}.get(run["how"] if run else "", "-"),
                     f"{rs.money(before)}→{rs.money(after)}" if before != after and before is not None else "-",
                     " ".join(bought) or "-"])
    if not rows:
        lines = [f"OR {name.removeprefix('OR ')} summary: no company operated"]
    else:
        lines = [f"{name} summary", fit_table(rows, ["company", "ran", "paid", "price", "bought"], width)]
    rusted = [f"{train_type(t)} ({acct_name(h)})" if isinstance(t, str) and h else str(t)
              for e in ors if e["kind"] == "trains_rusted" for t, h in rusted_with_owner(e, ors)]
    if rusted:
        lines.append(fit_text("rusted: " + ", ".join(rusted), width))
    return "\n".join(lines)


def rusted_with_owner(e: dict, events: list[dict]) -> list[tuple[str, str | None]]:
    """The rusted trains of a trains_rusted event with their last holders, from its train moves."""
    owners = {train: source for train, source, _dest in e.get("trains", ())}
    return [(t, owners.get(t)) for t in e["rusted"]]
