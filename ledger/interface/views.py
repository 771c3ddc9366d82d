"""Read-only views of a game: the status board, the market, scores, the log lines of events.

Pure functions of (state, ruleset) returning text or JSON-ready data; the CLI prints them.
"""

from __future__ import annotations

import re

from tabulate import tabulate

from ledger.core import events

from ledger.core.rounds import auction, operating
from ledger.core.rules import privates, shares, track, trains
from ledger.core.state import BANK, POOL, acct_name, round_label, company_acct, ipo_acct, player_acct


def share_value(s, rs, player: str) -> int:
    total = 0
    for corp in s.corps:
        n = shares.shares_of(s, rs, player_acct(player), corp)
        if n:
            total += n * shares.price(s, rs, corp)
    return total


def private_value(s, rs, player: str) -> int:
    if rs.k("endgame", "score_privates") != "face":
        return 0
    return sum(rs.private(p.sym).face for p in s.privates.values()
               if p.owner == player_acct(player) and not p.closed)


def value(s, rs, player: str) -> int:
    return s.cash(player_acct(player)) + share_value(s, rs, player) + private_value(s, rs, player)


def holdings(s, rs, player: str) -> dict[str, int]:
    out = {}
    for corp in s.corps:
        pct = s.percent_of(player_acct(player), corp)
        if pct:
            out[corp] = pct
    return out


def owned_privates(s, player_or_corp_acct: str) -> list[str]:
    return [sym for sym, p in s.privates.items() if p.owner == player_or_corp_acct and not p.closed]


def whose_turn(s, rs) -> str:
    return localize(_whose_turn(s, rs), rs)


def _whose_turn(s, rs) -> str:
    """One line: who acts now and what they may do."""
    if s.game_over:
        return f"The game is over ({s.end_reason}). See 'bank score'."
    if s.pending:
        p = s.pending[0]
        if p["kind"] == "par":
            from ledger.core.rounds.stock import allowed_pars
            pars = ", ".join(map(str, allowed_pars(s, rs, p.get("colours"))))
            return f"{p['player']} must set the par price of {p['corp']}: par {p['player']} {p['corp']} PRICE ({pars})"
        flip = f"flip {p['corp']} TYPE or " if any(len(t.sides) > 1 for t in rs.trains) else ""
        return (f"{p['corp']} is over the train limit of {trains.limit_text(s, rs)}: {flip}"
                f"discard {p['count']} (discard {p['corp']} TYPE)")
    kind = s.round["kind"]
    if kind == "auction":
        who = auction.actor(s)
        war = s.round.get("war")
        if war:
            return (f"Bidding war for {war}: {who} must bid at least ${auction.min_bid(s, rs, war)} or pass")
        unsold = privates.unsold(s, rs)
        cheapest = unsold[0]
        bids = ", ".join(f"{sym} ≥${auction.min_bid(s, rs, sym)}" for sym in unsold[1:])
        return (f"Auction: {who} to act: buy {cheapest} for ${s.privates[cheapest].price}"
                + (f", bid on {bids}" if bids else "") + ", or pass")
    if kind == "stock":
        who = s.players[s.round["turn"]]
        if s.round["acted"]:
            return f"SR {s.round['number']}: {who} may sell, buy if not yet bought, or pass (end the turn)"
        first = s.round["number"] == 1 and rs.k("stock", "no_sell_in_first_round")
        return f"SR {s.round['number']}: {who}'s turn: par, buy, sell{' (not in SR 1)' if first else ''} or pass"
    if kind == "operating":
        corp = s.round["corp"]
        steps = turn_steps(s, rs, corp)
        return f"OR {s.round['set']}.{s.round['index']}: {corp} ({s.president(corp)}) operates: {steps}"
    return kind


def turn_steps(s, rs, corp: str) -> str:
    """The steps left in the company's turn; track and station as the core rules them (track.py)."""
    r = s.round
    left = []
    if track.can_lay_tile(s, rs, corp):
        fee = track.next_tile_fee(s, rs, corp)
        left.append(f"tile (fee ${fee} + terrain)" if fee else "tile")
    if track.can_place_station(s, rs, corp):
        left.append("token")
    if r["revenue"] is None:
        left.append("pay/withhold REVENUE" if s.corp_trains(corp) else "runs nothing (withhold 0)")
    left.append(f"train (for sale: {', '.join(for_sale(s, rs))})")
    left.append("done" if s.corp_trains(corp) else "done (must buy a train unless --no-route)")
    return ", ".join(x for x in left if x)


def for_sale(s, rs) -> list[str]:
    return trains.for_sale(s, rs)


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
        "operating": s.round.get("corp") if s.round["kind"] == "operating" else None,
        "cert_limit": s.cert_limit,
        "train_limit": trains.limit(s, rs),
        "train_certificate_limit": trains.cert_limit(s, rs),
        "trains_for_sale": for_sale(s, rs),
        "players": [{"name": p, "cash": s.cash(player_acct(p)), "certificates": shares.cert_count(s, rs, p),
                     "shares": holdings(s, rs, p), "privates": owned_privates(s, player_acct(p)),
                     "value": value(s, rs, p)} for p in s.players],
        "companies": [company_json(s, rs, c.sym) for c in rs.corporations],
        "privates": [{"sym": p.sym, "owner": acct_name(s.privates[p.sym].owner) if s.privates[p.sym].owner else None,
                      "closed": s.privates[p.sym].closed, "face": p.face,
                      # the auction price matters only while the private is unsold
                      "price": s.privates[p.sym].price if s.privates[p.sym].owner is None else None}
                     for p in rs.privates],
    }


def company_json(s, rs, sym: str) -> dict:
    c = s.corps[sym]
    return {"sym": sym, "cash": s.cash(company_acct(sym)), "par": c.par,
            "price": shares.price(s, rs, sym) if c.cell else None, "president": s.president(sym),
            "ipo": s.percent_of(ipo_acct(sym), sym), "pool": s.percent_of(POOL, sym),
            "trains": [train_label(s, rs, t) for t in sorted(s.corp_trains(sym))], "floated": c.floated,
            "tokens_left": len(rs.corporation(sym).tokens) - c.tokens_used,
            "privates": owned_privates(s, company_acct(sym)),
            "ports": [p for p, holder in s.ports.items() if holder == sym]}


def status_text(s, rs) -> str:
    return localize(_status_text(s, rs), rs)


def _status_text(s, rs) -> str:
    bank = f"{rs.money(s.cash(BANK))}" + (" (BROKEN)" if s.bank_broken else "")
    head = (f"{rs.title} · {round_label(s)} · phase {s.phase} (train limit {trains.limit_text(s, rs)}) · bank {bank} · "
            f"priority {s.players[s.priority]} · cert limit {s.cert_limit}")
    players = [[p, f"{rs.money(s.cash(player_acct(p)))}", f"{shares.cert_count(s, rs, p)}/{s.cert_limit}",
                " ".join(f"{c} {pct}%" for c, pct in holdings(s, rs, p).items()) or "-",
                " ".join(owned_privates(s, player_acct(p))) or "-", f"{rs.money(value(s, rs, p))}"] for p in s.players]
    out = [head, "", tabulate(players, headers=["player", "cash", "certs", "shares", "privates", "worth"])]
    started = [c.sym for c in rs.corporations if s.corps[c.sym].par is not None]
    if started:
        rows = []
        for sym in started:
            j = company_json(s, rs, sym)
            rows.append([sym, f"{rs.money(j['price'])} / {rs.money(j['par'])}", f"{rs.money(j['cash'])}", " ".join(j["trains"]) or "-",
                         j["tokens_left"], f"{j['ipo']}%", f"{j['pool']}%", j["president"] or "-",
                         "yes" if j["floated"] else "no", " ".join(j["privates"] + j["ports"]) or "-"])
        out += ["", tabulate(rows, headers=["company", "price/par", "cash", "trains", "tokens", "IPO", "pool",
                                            "president", "floated", "privates/ports" if rs.ports else "privates"])]
    unsold = privates.unsold(s, rs)
    if s.round["kind"] == "auction" and unsold:
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
    return localize(_market_text(s, rs), rs)


def _market_text(s, rs) -> str:
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


def zone_legend(rs) -> str:
    """What the zones mean in this title, from its stock-round knobs."""
    k = lambda knob: "/".join(z[0] for z in rs.k("stock", knob)) or "none"  # noqa: E731
    return (f"zones: y yellow, o orange, b brown, p par · not counted for the cert limit: {k('cert_free_zones')} · "
            f"over {rs.k('stock', 'holding_limit')}% allowed: {k('unlimited_holding_zones')} · "
            f"several a turn: {k('multi_buy_zones')}")


# --------------------------------------------------------------------------- score

def score_rows(s, rs) -> list[dict]:
    rows = [{"name": p, "cash": s.cash(player_acct(p)), "shares": share_value(s, rs, p),
             "privates": private_value(s, rs, p), "value": value(s, rs, p)} for p in s.players]
    ordered = sorted(rows, key=lambda r: -r["value"])
    for row in rows:
        row["rank"] = 1 + sum(1 for other in ordered if other["value"] > row["value"])
    return rows


def snapshot_rows(s, rs) -> list[dict]:
    """Each player's cash and worth, for the per-round snapshots of the ledger."""
    return [{"player": r["name"], "cash": r["cash"], "shares": r["shares"], "privates": r["privates"],
             "value": r["value"]} for r in score_rows(s, rs)]


def score_json(s, rs) -> dict:
    return {"game_over": s.game_over, "end_reason": s.end_reason,
            "players": [{k: r[k] for k in ("name", "cash", "value", "rank", "shares", "privates")}
                        for r in score_rows(s, rs)]}


def score_text(s, rs) -> str:
    return localize(_score_text(s, rs), rs)


def _score_text(s, rs) -> str:
    rows = sorted(score_rows(s, rs), key=lambda r: r["rank"])
    table = tabulate([[r["rank"], r["name"], f"{rs.money(r['cash'])}", f"{rs.money(r['shares'])}", f"{rs.money(r['privates'])}",
                       f"{rs.money(r['value'])}"] for r in rows],
                     headers=["rank", "player", "cash", "shares", "privates", "net worth"])
    head = f"Final scores ({s.end_reason})" if s.game_over else "Scores if the game ended now"
    return head + "\n" + table


# --------------------------------------------------------------------------- event descriptions

def money(n: int) -> str:
    return f"${n}"


def localize(text: str, rs) -> str:
    """Amounts in the title's currency: the views and messages write '$120'; 1843 shows '120fr'."""
    if rs is None or rs.currency == "$" or not text:
        return text
    return re.sub(r"\$([+-]?\d+(?:\.\d+)?)", lambda m: f"{m.group(1)}{rs.currency}", text)


def describe(e: dict, rs) -> str | None:
    """One log line for an event (each event kind says its own, ledger.core.events)."""
    return events.describe(e, rs)
