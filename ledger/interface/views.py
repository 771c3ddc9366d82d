"""Read-only views of a game: the status board, the market, scores, the log lines of events.

Pure functions of (state, ruleset) returning text or JSON-ready data; the CLI prints them.
"""

from __future__ import annotations

from tabulate import tabulate

from ledger.core import events, legal, titles
from ledger.core.rounds import operating
from ledger.core.rules import decisions, privates, shares, track, trains
from ledger.core.scoring import private_value, score_rows, share_value, snapshot_rows, value  # noqa: F401 (views' API)
from ledger.core.state import BANK, POOL, acct_name, company_acct, player_acct, round_label


def holdings(s, rs, player: str) -> dict[str, int]:
    out = {}
    for corp in s.corps:
        pct = s.percent_of(player_acct(player), corp)
        if pct:
            out[corp] = pct
    return out


def owned_privates(s, player_or_corp_acct: str) -> list[str]:
    return [sym for sym, p in s.privates.items() if p.owner == player_or_corp_acct and not p.closed]


def held_assets(s, rs, acct: str) -> dict[str, list[str]]:
    """The pieces of each kind the title's data adds ([[assets]]: Pullmans, chits ...) that `acct` holds."""
    return {kind: held for kind, syms in rs.assets.items()
            if (held := [x for x in syms if s.assets[x].owner == acct and not s.assets[x].closed])}


def whose_turn(s, rs) -> str:
    """One line: who acts now and what they may do (the core says; ledger.core.legal)."""
    return legal.hint(s, rs)


def for_sale(s, rs) -> list[str]:
    return trains.for_sale(s, rs, titles.for_ruleset(rs))


# --------------------------------------------------------------------------- status

def train_label(s, rs, train_id: str) -> str:
    """A train as the table names it: its type (1830 '4') or its side (1843 '3/5x2'), marked when
    obsolete or a rusted certificate bought back."""
    label = trains.side_name(s, rs, train_id)
    if trains.is_obsolete(s, train_id):
        label += " (obsolete)"
    elif trains.is_relic(s, train_id):
        label += " (rusted)"
    elif trains.flags(s, train_id).get("engineers"):
        label += " (engineers)"
    return label


def status_json(s, rs) -> dict:
    return {
        "title": rs.title,
        "round": round_label(s),
        "phase": s.phase,
        "bank": s.cash(BANK),
        "bank_broken": s.bank_broken,
        "game_over": s.game_over,
        "end_reason": s.end_reason,
        "priority": s.players[s.priority],
        "turn": whose_turn(s, rs),
        "pending": decisions.queue(s, rs, titles.for_ruleset(rs)),
        "phases": {"train": s.phase, **s.axes},
        "operating": s.round.get("corp"),
        "cert_limit": s.cert_limit,
        "train_limit": trains.limit(s, rs),
        "train_certificate_limit": trains.cert_limit(s, rs),
        "trains_for_sale": for_sale(s, rs),
        "train_roster": trains.roster(s, rs),
        "pool_trains": sorted(train_label(s, rs, t) for t in s.pool_trains()),
        "next_phase": trains.next_phase(s, rs),
        "operating_order": operating.operating_order(s, rs),
        "operated_this_or": operating.operated_this_or(s),
        "players": [{"name": p, "cash": s.cash(player_acct(p)), "certificates": shares.cert_count(s, rs, p),
                     "cert_limit": shares.cert_limit(s, rs, p),
                     "shares": holdings(s, rs, p), "privates": owned_privates(s, player_acct(p)),
                     "value": value(s, rs, p), **held_assets(s, rs, player_acct(p))} for p in s.players],
        "companies": [company_json(s, rs, c.sym) for c in rs.corporations],
        "privates": [{"sym": p.sym, "owner": acct_name(s.privates[p.sym].owner) if s.privates[p.sym].owner else None,
                      "closed": s.privates[p.sym].closed, "face": p.face,
                      # the auction price matters only while the private is unsold
                      "price": s.privates[p.sym].price if s.privates[p.sym].owner is None else None}
                     for p in rs.privates],
    }


def company_json(s, rs, sym: str) -> dict:
    c = s.corps[sym]
    return {"sym": sym, "name": rs.corporation(sym).name, "colour": colour(rs, sym),
            "cash": s.cash(company_acct(sym)), "par": c.par,
            "price": shares.price(s, rs, sym) if c.cell else None, "cell": list(c.cell) if c.cell else None,
            "president": s.president(sym),
            "next_token_cost": next_token_cost(s, rs, sym),
            "last_run": {"revenue": c.last_run[0], "how": c.last_run[1]} if c.last_run else None,
            "kind": c.kind, "ipo": shares.ipo_percent(s, rs, sym), "pool": s.percent_of(POOL, sym),
            "trains": [train_label(s, rs, t) for t in sorted(s.corp_trains(sym))], "floated": c.floated,
            "tokens_left": len(rs.corporation(sym).tokens) - c.tokens_used,
            "privates": owned_privates(s, company_acct(sym)), **held_assets(s, rs, company_acct(sym)),
            **title_holdings(s, rs, sym)}


# Colours for companies whose title prints none (a qualitative palette, distinct side by side).
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf", "#393b79", "#637939")


def colour(rs, sym: str) -> str:
    """The company's colour: its ruleset's, else one of the palette by its place in the title."""
    own = rs.corporation(sym).colour
    return own or PALETTE[[c.sym for c in rs.corporations].index(sym) % len(PALETTE)]


def next_token_cost(s, rs, sym: str) -> int | None:
    """The next station marker's charter price (None: no marker left, or priced by its location)."""
    free = track.free_slots(s, rs, sym)
    if not free or rs.stations["price"] != "charter":
        return None
    return rs.corporation(sym).tokens[free[0] - 1]


def title_holdings(s, rs, sym: str) -> dict:
    """What a company holds under the title's own rules (1843: ports), as its module says."""
    holdings = titles.for_ruleset(rs).rules.get("company_holdings")
    return holdings(s, sym) if holdings else {}


def status_text(s, rs) -> str:
    bank = f"{rs.money(s.cash(BANK))}" + (" (BROKEN)" if s.bank_broken else "")
    head = (f"{rs.title} · {round_label(s)} · phase {s.phase} (train limit {trains.limit_text(s, rs)}) · bank {bank} · "
            f"priority {s.players[s.priority]} · cert limit {s.cert_limit}")
    players = [[p, f"{rs.money(s.cash(player_acct(p)))}", f"{shares.cert_count(s, rs, p)}/{shares.cert_limit(s, rs, p)}",
                " ".join(f"{c} {pct}%" for c, pct in holdings(s, rs, p).items()) or "-",
                " ".join(owned_privates(s, player_acct(p)) + [x for v in held_assets(s, rs, player_acct(p)).values()
                                                              for x in v]) or "-",
                f"{rs.money(value(s, rs, p))}"] for p in s.players]
    out = [head, "", tabulate(players, headers=["player", "cash", "certs", "shares", "privates", "worth"])]
    started = [c.sym for c in rs.corporations if s.corps[c.sym].par is not None]
    if started:
        rows = []
        for sym in started:
            j = company_json(s, rs, sym)
            rows.append([sym, f"{rs.money(j['price'])} / {rs.money(j['par'])}", f"{rs.money(j['cash'])}", " ".join(j["trains"]) or "-",
                         j["tokens_left"], f"{j['ipo']}%", f"{j['pool']}%", j["president"] or "-",
                         "yes" if j["floated"] else "no",
                         " ".join(j["privates"] + [x for v in held_assets(s, rs, company_acct(sym)).values() for x in v]
                                  + [x for v in title_holdings(s, rs, sym).values() for x in v]) or "-"])
        unsold = "unsold" if any(k.unsold == "treasury" for k in rs.kinds.values()) else "IPO"
        out += ["", tabulate(rows, headers=["company", "price/par", "cash", "trains", "tokens", unsold, "pool",
                                            "president", "floated",
                                            "/".join(["privates", *rs.assets, *title_holdings(s, rs, started[0])])])]
    unsold = privates.unsold(s, rs)
    if "bids" in s.round and unsold:  # an auction is under way
        rows = [[sym, f"{rs.money(s.privates[sym].price)}",
                 ", ".join(f"{p} {rs.money(a)}" for p, a in s.round["bids"].get(sym, {}).items()) or "-"] for sym in unsold]
        out += ["", tabulate(rows, headers=["private", "price", "bids"])]
    out += ["", "For sale: trains " + (", ".join(for_sale(s, rs)) or "none") + pool_line(s, rs)]
    out += [f"Next: {whose_turn(s, rs)}"]
    return "\n".join(out)


def pool_line(s, rs) -> str:
    pool = [f"{c} {s.percent_of(POOL, c)}%" for c in s.corps if s.percent_of(POOL, c)]
    return ("; pool shares " + ", ".join(pool)) if pool else ""


# --------------------------------------------------------------------------- market

def market_text(s, rs) -> str:
    rows = max(r for r, _ in rs.market) + 1
    cols = max(c for _, c in rs.market) + 1
    here: dict[tuple, list[str]] = {}
    for sym in sorted(s.corps, key=lambda x: s.corps[x].arrival):
        if s.corps[sym].cell:
            here.setdefault(tuple(s.corps[sym].cell), []).append(sym)
    mark = {"yellow": "y", "orange": "o", "brown": "b", "white": ""}
    grid = []
    for r in range(rows):
        line = []
        for c in range(cols):
            cell = rs.market.get((r, c))
            if not cell:
                line.append("")
                continue
            text = f"{cell.price}{mark[cell.zone]}{'p' if cell.par else ''}"
            if (r, c) in here:
                text += " " + ",".join(here[(r, c)])
            line.append(text)
        grid.append(line)
    out = [tabulate(grid, tablefmt="simple_grid")]
    out.append(zone_legend(rs))
    order = operating.operating_order(s, rs)
    if order:
        out.append("Operating order: " + ", ".join(f"{c} {rs.money(shares.price(s, rs, c))}" for c in order))
    return "\n".join(out)


def market_json(s, rs) -> dict:
    """The market as data: every cell (row, column, price, zone, par, end), each company's marker
    (its cell and its place in the stack there, first arrived first) and the operating order."""
    cells = [{"row": r, "col": c, "price": cell.price, "zone": cell.zone, "par": bool(cell.par),
              "end": cell.end, "colour": cell.colour or None}
             for (r, c), cell in sorted(rs.market.items())]
    stacked = sorted((sym for sym in s.corps if s.corps[sym].cell), key=lambda x: s.corps[x].arrival)
    markers = []
    for sym in stacked:
        cell = s.corps[sym].cell
        below = [x for x in stacked if s.corps[x].cell == cell]
        markers.append({"sym": sym, "colour": colour(rs, sym), "row": cell[0], "col": cell[1],
                        "price": shares.price(s, rs, sym), "stack": below.index(sym)})
    return {"shape": rs.market_rules.get("shape", "grid"), "rows": max(r for r, _ in rs.market) + 1,
            "cols": max(c for _, c in rs.market) + 1, "cells": cells, "markers": markers,
            "operating_order": operating.operating_order(s, rs)}


def zone_legend(rs) -> str:
    """What the zones mean in this title, from its stock-round knobs."""
    k = lambda knob: "/".join(z[0] for z in rs.k("stock", knob)) or "none"  # noqa: E731
    return (f"zones: y yellow, o orange, b brown, p par · not counted for the cert limit: {k('cert_free_zones')} · "
            f"over {rs.k('stock', 'holding_limit')}% allowed: {k('unlimited_holding_zones')} · "
            f"several a turn: {k('multi_buy_zones')}")


# --------------------------------------------------------------------------- score

def score_json(s, rs) -> dict:
    return {"game_over": s.game_over, "end_reason": s.end_reason,
            "players": [{k: r[k] for k in ("name", "cash", "value", "rank", "shares", "privates")}
                        for r in score_rows(s, rs)]}


def score_text(s, rs) -> str:
    rows = sorted(score_rows(s, rs), key=lambda r: r["rank"])
    table = tabulate([[r["rank"], r["name"], f"{rs.money(r['cash'])}", f"{rs.money(r['shares'])}", f"{rs.money(r['privates'])}",
                       f"{rs.money(r['value'])}"] for r in rows],
                     headers=["rank", "player", "cash", "shares", "privates", "net worth"])
    head = f"Final scores ({s.end_reason})" if s.game_over else "Scores if the game ended now"
    return head + "\n" + table


# --------------------------------------------------------------------------- event descriptions

def describe(e: dict, rs) -> str | None:
    """One log line for an event (each event kind says its own, ledger.core.events)."""
    return events.describe(e, rs)
