"""What an operating round did, in a few lines: printed after each company's turn and at the end of
each operating round, so the table sees the money without reading every event.

Built only from the recorded events (what the rules decided), never from rules of its own.
"""

from __future__ import annotations

from tabulate import tabulate

from ledger.core.money import format_money
from ledger.core.state import acct_name, train_type


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


def per_share(e: dict, rs) -> str:
    return format_money(e.get("per_share") or 0, rs.currency)


def run_words(e: dict, rs) -> str:
    if e["how"] == "withhold":
        return f"ran {rs.money(e['revenue'])}, withheld"
    if e["how"] == "half":
        return f"ran {rs.money(e['revenue'])}, paid half ({per_share(e, rs)}/share), kept {rs.money(e.get('kept') or 0)}"
    return f"ran {rs.money(e['revenue'])}, paid {per_share(e, rs)}/share"


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


def or_summary(events: list[dict], rs) -> str | None:
    """A table of the operating round the events end with (from its round_started): each company's
    run, payout per share, price move and trains bought; then what rusted."""
    ends = [i for i, e in enumerate(events) if e["kind"] == "operating_round_ended"]
    if not ends:
        return None
    starts = [i for i, e in enumerate(events[:ends[-1]])
              if e["kind"] == "round_started" and e["round"].get("kind") == "operating"]
    ors = events[starts[-1] if starts else 0:ends[-1] + 1]
    end = events[ends[-1]]
    order = [e["corp"] for e in ors if e["kind"] == "corp_turn_started"]
    moves = price_moves(ors, rs)
    rows = []
    for corp in dict.fromkeys(order):
        runs = [e for e in ors if e["kind"] == "revenue" and e["corp"] == corp]
        run = runs[-1] if runs else None
        before, after = moves.get(corp, (None, None))
        bought = [e.get("side") or e["type"] for e in ors if e["kind"] == "train_bought" and e["corp"] == corp]
        rows.append([corp, rs.money(run["revenue"]) if run else "-",
                     {"pay": per_share(run, rs) if run else "", "half": f"½ {per_share(run, rs)}" if run else "",
                      "withhold": "withheld"}.get(run["how"] if run else "", "-"),
                     f"{rs.money(before)}→{rs.money(after)}" if before != after and before is not None else "-",
                     " ".join(bought) or "-"])
    lines = [f"OR {end['set']}.{end['index']} summary",
             tabulate(rows, headers=["company", "ran", "per share", "price", "bought"])]
    rusted = [f"{train_type(t)} ({acct_name(h)})" if isinstance(t, str) and h else str(t)
              for e in ors if e["kind"] == "trains_rusted" for t, h in rusted_with_owner(e, ors)]
    if rusted:
        lines.append("rusted: " + ", ".join(rusted))
    return "\n".join(lines)


def rusted_with_owner(e: dict, events: list[dict]) -> list[tuple[str, str | None]]:
    """The rusted trains of a trains_rusted event with their last holders, from its train moves."""
    owners = {train: source for train, source, _dest in e.get("trains", ())}
    return [(t, owners.get(t)) for t in e["rusted"]]
