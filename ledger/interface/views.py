"""Read-only views of a game: the status board, the market, scores, the log lines of events.

Pure functions of (state, ruleset) returning text or JSON-ready data; the CLI prints them.
"""

from __future__ import annotations


from ledger.core import events, legal, titles
from ledger.core.rounds import operating
from ledger.core.rules import market, privates, shares, track, trains
from ledger.core.scoring import private_value, score_rows, share_value, snapshot_rows, value  # noqa: F401 (views' API)
from ledger.core.state import BANK, POOL, acct_name, company_acct, player_acct, round_label
from ledger.interface.fit import GAP, fit_table, fit_text, kept, natural, screen_width, wrap_line  # noqa: F401 (views' API)


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


def next_line(s, rs) -> str:
    """'Next: ...' with each command it prints kept whole where the line wraps: a command copied
    off the screen pastes as it is printed."""
    turn = legal.turn(s, rs)
    text = turn.line
    for command in sorted(set(turn.commands), key=len, reverse=True):
        text = text.replace(command, kept(command))
    return f"Next: {text}"


def for_sale(s, rs) -> list[str]:
    return trains.for_sale(s, rs, titles.for_ruleset(rs))


# --------------------------------------------------------------------------- status

def train_label(s, rs, train_id: str) -> str:
    """A train as the table names it: its type (1830 '4') or its side (1843 '3/5x2'), marked when
    obsolete or a rusted certificate bought back."""
    label = trains.side_name(s, rs, train_id)
    flags = trains.flags(s, train_id)
    mark = next((m for flag, m in titles.for_ruleset(rs).train_marks.items() if flags.get(flag)), None)
    return f"{label} ({mark})" if mark else label


def status_json(s, rs, next_line: bool = True) -> dict:
    """`status --json`. `next_line=False` leaves out "turn" and "actions": they ask every rule what
    may be typed now (ledger.core.legal.turn), most of what a status costs, and a reader of the
    figures alone (the rules tests) need not pay for them."""
    figures = figures_json(s, rs)
    if not next_line:
        return figures
    keys = list(figures)
    at = keys.index("priority") + 1   # the Next line comes after the priority, as it always has
    return {**{k: figures[k] for k in keys[:at]}, **next_json(s, rs), **{k: figures[k] for k in keys[at:]}}


def next_json(s, rs) -> dict:
    turn = legal.turn(s, rs)
    return {"turn": turn.line,
            # what may happen now, as the core offers it (ledger.core.legal): each verb, who may type it
            "actions": [{"verb": a.verb, "actor": a.args[0] if a.args else None, "text": a.text}
                        for a in turn.actions]}


def figures_json(s, rs) -> dict:
    return {
        "title": rs.title,
        "round": round_label(s),
        "phase": s.phase,
        "bank": s.cash(BANK),
        "bank_broken": s.bank_broken,
        "game_over": s.game_over,
        "end_reason": s.end_reason,
        "priority": s.players[s.priority],
        "pending": legal.pending_queue(s, rs),
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
        "companies": [{**company_json(s, rs, c.sym), **company_standing(s, rs, c.sym), **par_marker(s, rs, c.sym)}
                      for c in rs.corporations],
        "company_kinds": kinds_json(rs),
        "privates": [{"sym": p.sym, "owner": acct_name(s.privates[p.sym].owner) if s.privates[p.sym].owner else None,
                      "closed": s.privates[p.sym].closed, "face": p.face,
                      # the auction price matters only while the private is unsold
                      "price": s.privates[p.sym].price if s.privates[p.sym].owner is None else None}
                     for p in rs.privates],
        **standing_bids(s),
        **title_status(s, rs, "status_data", {}),
    }


def standing_bids(s) -> dict:
    """An auction's open bids (a round that keeps them under "bids": item -> player -> amount), the
    highest first, with the high bidder of each item."""
    bids = s.round.get("bids")
    if not isinstance(bids, dict) or not any(bids.values()):
        return {}
    return {"bids": [{"item": item, "high": max(offers.values()),
                      "bidder": max(offers, key=lambda p: (offers[p], -s.players.index(p) if p in s.players else 0)),
                      "bids": dict(sorted(offers.items(), key=lambda kv: -kv[1]))}
                     for item, offers in bids.items() if offers]}


def par_marker(s, rs, sym: str) -> dict:
    """The par as long as its marker stands (ledger.core.rules.shares.par_marker_stands)."""
    return {} if shares.par_marker_stands(s, rs, sym) else {"par": None}


def title_status(s, rs, rule: str, empty):
    """What the title's module adds to the status about its own state (1839: the draws)."""
    own = titles.for_ruleset(rs).rules.get(rule)
    return own(s, rs) if own else empty


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
            "tokens_left": track.markers_left(s, rs, sym),
            "privates": owned_privates(s, company_acct(sym)), **held_assets(s, rs, company_acct(sym)),
            **title_holdings(s, rs, sym)}


def company_standing(s, rs, sym: str) -> dict:
    """What the board page shows of a company besides its figures: where it stands in its life (as
    the state says, whatever its kind), whether it takes turns of its own, its box's zone, the price
    each primitive market move would take it to, and how many percent one of its shares is."""
    c = s.corps[sym]
    kind = rs.company_kind(c.kind)
    moves = {}
    if c.cell:
        for name in rs.market_rules["edges"]:
            to = market.primitive(rs, c.cell, name)
            moves[name] = market.price(rs, to) if to != c.cell else None
    return {"standing": shares.standing(s, sym), "operates": kind.operates, "unit": kind.unit,
            "zone": market.zone(rs, c.cell) if c.cell else None, "moves": moves}


def kinds_json(rs) -> list[dict]:
    """The title's kinds of company in its data's order (the board groups its cards by them)."""
    return [{"name": k.name, "market": k.market, "operates": k.operates, "president": k.president, "unit": k.unit}
            for k in rs.kinds.values()]


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


def joined(parts: list[str], width: int, sep: str = " · ") -> list[str]:
    """Parts on as few lines as fit the width, never splitting a part."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def wrapped(text: str, width: int, indent: str = "  ") -> str:
    """Prose in the width, cut only between items ("NYNH 20%" and "BHB £120" stay whole: fit.items)."""
    return "\n".join(wrap_line(text.replace("\n", " "), width, indent=indent)) if text else text


def status_text(s, rs, width: int | None = None) -> str:
    """The board in the terminal's width (80 columns unless it is wider): the round and the bank,
    the players, the companies, the train roster, what the pool holds, and who is next."""
    width = width or screen_width()
    bank = f"{rs.money(s.cash(BANK))}" + (" (BROKEN)" if s.bank_broken else "")
    head = [rs.title, round_label(s), f"phase {s.phase}", f"train limit {trains.limit_text(s, rs)}", f"bank {bank}",
            f"priority {s.players[s.priority]}", f"cert limit {s.cert_limit}"]
    out = joined(head, width)
    out += ["", players_table(s, rs, width)]
    started = [c.sym for c in rs.corporations if s.corps[c.sym].par is not None or s.corps[c.sym].floated]
    if started:
        out += ["", companies_table(s, rs, started, width)]
    unsold = privates.unsold(s, rs)
    if "bids" in s.round and unsold:  # an auction is under way
        rows = [[sym, f"{rs.money(s.privates[sym].price)}",
                 ", ".join(f"{p} {rs.money(a)}" for p, a in s.round["bids"].get(sym, {}).items()) or "-"] for sym in unsold]
        out += ["", fit_table(rows, ["private", "price", "bids"], width)]
    own = title_status(s, rs, "status_lines", [])
    if own:
        out += [""] + [wrapped(line, width) for line in own]
    out += ["", wrapped(roster_line(s, rs), width)]
    pool = pool_text(s, rs)
    if pool:
        out.append(wrapped(pool, width))
    out.append(wrapped(next_line(s, rs), width))
    return fit_text("\n".join(out), width)


def players_table(s, rs, width: int) -> str:
    rows = [[p, rs.money(s.cash(player_acct(p))), f"{shares.cert_count(s, rs, p)}/{shares.cert_limit(s, rs, p)}",
             " ".join(f"{c} {pct}%" for c, pct in holdings(s, rs, p).items()) or "-",
             " ".join(owned_privates(s, player_acct(p)) + [x for v in held_assets(s, rs, player_acct(p)).values()
                                                           for x in v]) or "-",
             rs.money(value(s, rs, p))] for p in s.players]
    # the shares and privates columns wrap to what the fixed columns leave of the width
    held = "privates" if not rs.assets else "holds"
    return fit_table(rows, ["player", "cash", "certs", "shares", held, "worth"], width, floors={3: 12})


def companies_table(s, rs, started: list[str], width: int) -> str:
    """One row a started company: price and par, cash, trains, station markers left (next cost),
    unsold and pool percent, president, what it holds; '*' marks one not yet floated. What the
    companies hold moves under the table when the row would not fit the width."""
    rows, held = [], []
    for sym in started:
        j = company_json(s, rs, sym)
        stations = f"{j['tokens_left']}" + (f" {rs.money(j['next_token_cost'])}" if j["next_token_cost"] else "")
        holds = " ".join(j["privates"] + [x for v in held_assets(s, rs, company_acct(sym)).values() for x in v]
                         + [x for v in title_holdings(s, rs, sym).values() for x in v])
        price = rs.money(j["price"]) if j["price"] is not None else "-"
        par = f" ({rs.money(j['par'])})" if j["par"] is not None else ""
        rows.append([sym + ("" if j["floated"] else "*"), f"{price}{par}", rs.money(j["cash"]),
                     " ".join(j["trains"]) or "-", stations, f"{j['ipo']}/{j['pool']}", j["president"] or "-",
                     holds or "-"])
        if holds:
            held.append(f"{sym} {holds}")
    unsold = "unsold" if any(k.unsold == "treasury" for k in rs.kinds.values()) else "IPO"
    headers = ["company", "price (par)", "cash", "trains", "tokens", f"{unsold}/pool", "president", "holds"]
    notes = []
    cols = natural([[str(c) for c in r] for r in rows], headers)
    if sum(cols[:-1]) + min(cols[-1], 12) + GAP * (len(cols) - 1) <= width:
        table = fit_table(rows, headers, width, floors={3: 9, 6: 8})
    else:   # what the companies hold goes under the table (the players' privates are in theirs)
        table = fit_table([r[:-1] for r in rows], headers[:-1], width, floors={3: 9, 6: 8})
        if held:
            first, *rest = joined(["Held by companies: " + held[0], *held[1:]], width - 2)
            notes += [first, *("  " + line for line in rest)]
    if any(r[0].endswith("*") for r in rows):
        notes.append("* not floated yet")
    return "\n".join([table, *notes])


def roster_line(s, rs) -> str:
    """The trains: each type's price and how many are left (or unlimited), what is for sale, and
    what the next phase's first train rusts."""
    parts = []
    for t in trains.roster(s, rs):
        price = " / ".join(f"{sd['name']} {rs.money(sd['price'])}" for sd in t["sides"])
        left = "unlimited" if t["left"] is None else f"{t['left']} left"
        parts.append(f"{price} ({left}{', for sale' if t['for_sale'] else ''})")
    line = "Trains: " + ", ".join(parts)
    nxt = trains.next_phase(s, rs)
    if nxt:
        rusts = f", rusting {', '.join(nxt['rusts'])}" if nxt["rusts"] else ""
        start = f"The first {nxt['on_train']} starts" if nxt["on_train"] else "Then comes"
        line += f". {start} phase {nxt['name']} (limit {nxt['train_limit']}{rusts})"
    extra = [x for x in for_sale(s, rs) if "(" in x and "pool" not in x]
    return line + (". Also: " + ", ".join(extra) if extra else "")


def pool_text(s, rs) -> str:
    pool = [f"{c} {s.percent_of(POOL, c)}%" for c in s.corps if s.percent_of(POOL, c)]
    pool_trains = sorted(train_label(s, rs, t) for t in s.pool_trains())
    parts = (["shares " + ", ".join(pool)] if pool else []) + (["trains " + ", ".join(pool_trains)] if pool_trains else [])
    return ("Pool: " + "; ".join(parts)) if parts else ""


def pool_line(s, rs) -> str:
    pool = [f"{c} {s.percent_of(POOL, c)}%" for c in s.corps if s.percent_of(POOL, c)]
    return ("; pool shares " + ", ".join(pool)) if pool else ""


# --------------------------------------------------------------------------- market

def market_text(s, rs, width: int | None = None) -> str:
    """The market in the terminal's width: each box's price with its mark (y/o/b zone, p par, e
    end), a space between any two boxes (a column as wide as its widest box), the companies'
    markers on the lines under their row (a stack reads top down, first arrived first; a symbol
    wider than its column that would touch its neighbour's goes to a line of its own), then what
    the zones mean and the operating order. A market wider than the screen is shown in blocks of
    columns, the next block under the first (its rows in the same order)."""
    width = width or screen_width()
    rows = max(r for r, _ in rs.market) + 1
    cols = max(c for _, c in rs.market) + 1
    # each column's widest price, and a place for a mark when one of its boxes has one
    digits = [max([len(str(rs.market[r, c].price)) for r in range(rows) if (r, c) in rs.market] + [1])
              for c in range(cols)]
    marks = [max([len(box_mark(rs.market[r, c])) for r in range(rows) if (r, c) in rs.market] + [0])
             for c in range(cols)]
    col_w = [d + m for d, m in zip(digits, marks)]
    blocks: list[list[int]] = [[]]
    for c in range(cols):   # each block as many columns as fit the width, a space between two
        if blocks[-1] and sum(col_w[k] + 1 for k in blocks[-1]) + col_w[c] > width:
            blocks.append([])
        blocks[-1].append(c)
    here: dict[tuple, list[str]] = {}
    for sym in sorted(s.corps, key=lambda x: s.corps[x].arrival):
        if s.corps[sym].cell:
            here.setdefault(tuple(s.corps[sym].cell), []).append(sym)
    out = []
    for n, span in enumerate(blocks):
        if n:
            out.append(f"(columns {span[0] + 1}-{span[-1] + 1} of {cols}, to the right of the above)")
        starts = [sum(col_w[k] + 1 for k in span[:i]) for i in range(len(span))]
        for r in range(rows):
            line = "".join(box_text(rs.market.get((r, c)), digits[c], marks[c]) + " " for c in span).rstrip()
            if not line and not any(here.get((r, c)) for c in span):
                continue
            out.append(line)
            depth = max((len(here.get((r, c), ())) for c in span), default=0)
            for level in range(depth):
                # a symbol starts where its box's price does
                out += marker_lines([(starts[i] + digits[c] - len(str(rs.market[r, c].price)),
                                      (here.get((r, c), [])[level:level + 1] or [""])[0])
                                     for i, c in enumerate(span) if (r, c) in rs.market], width)
    out += joined(zone_legend(rs).split(" · "), width)
    order = operating.operating_order(s, rs)
    if order:
        # a company without a place on the market (1801's minors) has no share price to show
        out.append(wrapped("Operating order: " + ", ".join(
            f"{c} {rs.money(shares.price(s, rs, c))}" if s.corps[c].cell else c for c in order), width))
    return fit_text("\n".join(out), width)


def marker_lines(tags: list[tuple[int, str]], width: int) -> list[str]:
    """Company symbols at their boxes' columns (start, symbol), whole: a symbol that would touch
    the one before it on the line goes on a line of its own under it."""
    lines: list[str] = []
    for start, tag in tags:
        if not tag:
            continue
        for k, line in enumerate(lines):
            if len(line) <= start:   # a space at least between it and the symbol before it
                break
        else:
            lines.append("")
            k = len(lines) - 1
        lines[k] = lines[k].ljust(start) + tag + " "
    return [line.rstrip()[:width] for line in lines]


ZONE_MARK = {"yellow": "y", "orange": "o", "brown": "b"}


def box_mark(cell) -> str:
    """A box's mark: e the end, p a par box, else its zone's letter (none for a box of no zone)."""
    return "e" if cell.end else "p" if cell.par else ZONE_MARK.get(cell.zone, "")


def box_text(cell, digits: int, marks: int) -> str:
    """A box in its column: the price right-aligned in the column's digits, then its mark."""
    if not cell:
        return " " * (digits + marks)
    return f"{cell.price:>{digits}}{box_mark(cell):<{marks}}"


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
    """What the marks mean in this title: its zones (only if its market has any) and what the
    stock-round knobs make of them; its par boxes and end box."""
    k = lambda knob: "/".join(z[0] for z in rs.k("stock", knob)) or "none"  # noqa: E731
    ends = " · e end of the game" if any(c.end for c in rs.market.values()) else ""
    parts = []
    if any(c.zone in ZONE_MARK for c in rs.market.values()):
        parts.append("y yellow, o orange, b brown zone")
    parts.append(f"p par{ends} · markers under their box")
    if parts[0].startswith("y "):
        parts.append(f"not counted for the cert limit: {k('cert_free_zones')} · "
                     f"over {rs.k('stock', 'holding_limit')}% allowed: {k('unlimited_holding_zones')} · "
                     f"several a turn: {k('multi_buy_zones')}")
    return " · ".join(parts)


# --------------------------------------------------------------------------- score

def score_json(s, rs) -> dict:
    return {"game_over": s.game_over, "end_reason": s.end_reason,
            "players": [{k: r[k] for k in ("name", "cash", "value", "rank", "shares", "privates")}
                        for r in score_rows(s, rs)]}


def score_text(s, rs, width: int | None = None) -> str:
    width = width or screen_width()
    rows = sorted(score_rows(s, rs), key=lambda r: r["rank"])
    table = fit_table([[r["rank"], r["name"], f"{rs.money(r['cash'])}", f"{rs.money(r['shares'])}",
                        f"{rs.money(r['privates'])}", f"{rs.money(r['value'])}"] for r in rows],
                      ["rank", "player", "cash", "shares", "privates", "net worth"], width)
    head = f"Final scores ({s.end_reason})" if s.game_over else "Scores if the game ended now"
    return fit_text(head, width) + "\n" + table


# --------------------------------------------------------------------------- event descriptions

def describe(e: dict, rs) -> str | None:
    """One log line for an event (each event kind says its own, ledger.core.events)."""
    return events.describe(e, rs)
