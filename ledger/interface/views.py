"""Read-only views of a game: the status board, the market, scores, the log lines of events.

Pure functions of (state, ruleset) returning text or JSON-ready data; the CLI prints them.
"""

from __future__ import annotations

import re

from tabulate import tabulate

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
    out = [" / ".join(f"{sd.name} {rs.money(sd.price)}" for sd in rs.train(n).sides) for n in trains.depot_offer(s, rs)]
    out += [" / ".join(f"{sd.name} {rs.money(sd.price)}" for sd in trains.pool_sides(s, rs, t)) + " (pool)"
            for t in sorted(s.pool_trains())]
    relics = [f"{sd.name} {rs.money(sd.price)}" for n in trains.relic_offer(s, rs) for sd in rs.train(n).sides if sd.relic]
    if relics:
        out.append("rusted: " + ", ".join(relics))
    return out


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


def describe(e: dict, rs=None) -> str | None:
    """One log line for an event, or None for pure bookkeeping."""
    k = e["kind"]
    f = DESCRIBE.get(k)
    return localize(f(e), rs) if f else None


def _payees(e):
    return ", ".join(f"{acct_name(a)} ${amt}" for a, _n, amt in e["payees"] if amt) or "nobody"


DESCRIBE = {
    "game_started": lambda e: "game started: " + ", ".join(f"{acct_name(t[1])} ${t[2]}" for t in e["transfers"]
                                                           if t[0] != "mint"),
    "bid": lambda e: f"{e['player']} bids ${e['amount']} on {e['private']}",
    "bid_dropped": lambda e: f"{e['player']} drops out of the bidding for {e['private']} (bid ${e['amount']})",
    "auction_pass": lambda e: f"{e['player']} passes",
    "private_bought": lambda e: f"{e['player']} buys {e['private']} for ${e['price']}"
    + ("".join(f"; receives {c[0]}" for c in e.get("certs", ()))),
    "private_discounted": lambda e: f"nobody bought: {e['private']} now costs ${e['price']}",
    "private_revenue": lambda e: "privates pay: " + ", ".join(f"{sym} ${amt} to {acct_name(o)}" for sym, o, amt in e["privates"]),
    "par": lambda e: f"{e['player']} pars {e['corp']} at ${e['price']}" + (f" (pays ${e['cost']})" if e.get("cost") else ""),
    "share_bought": lambda e: f"{e['player']} buys {e['percent']}% of {e['corp']} from the {e['source'].upper() if e['source'] == 'ipo' else 'pool'} for ${e['price']}",
    "president_changed": lambda e: f"{e['new']} becomes president of {e['corp']} (was {e['old']})",
    "floated": lambda e: f"{e['corp']} floats: receives ${e['capital']}",
    "stock_pass": lambda e: f"{e['player']} passes",
    "exchange": lambda e: (f"{e['player']} exchanges {e['private']} for {e['corp']}'s director's certificate, paying ${e['price']}"
                           if e["source"] == "director" else
                           f"{e['player']} exchanges {e['private']} for a {e['corp']} share from the {e['source']}"),
    "sold_out": lambda e: f"{e['corp']} is sold out: price rises",
    "stock_round_ended": lambda e: f"stock round {e['number']} ends",
    "round_started": lambda e: f"-- {_round_title(e['round'])} --",
    "corp_turn_started": lambda e: f"{e['corp']} operates ({e['president']})" + (" and places its home token" if e.get("home_token") else ""),
    "tile_laid": lambda e: f"{e['corp']} lays a tile" + (f" using {e['private']}" if e.get("private") else "") + (f" for ${e['cost']}" if e['cost'] else ""),
    "token_placed": lambda e: f"{e['corp']} places a token for ${e['cost']}",
    "revenue": lambda e: (f"{e['corp']} pays out ${e['revenue']} (${e['per_share']}/share): {_payees(e)}" if e["how"] == "pay"
                          else f"{e['corp']} withholds ${e['revenue']}"),
    "train_bought": lambda e: f"{e['corp']} buys a {e.get('side') or e['type']} train from {acct_name(e['seller'])} for ${e['price']}"
    + (" (a rusted certificate)" if e.get("relic") else "")
    + (f" trading in a {e['trade_in']}" if e.get("trade_in") else "")
    + (f" ({e['president']} contributes ${e['contribution']})" if e.get("contribution") else ""),
    "phase_changed": lambda e: f"-- phase {e['phase']} (train limit {e['limit']}"
    + (f" trains / {e['certificate_limit']} certificates" if e.get("certificate_limit", e["limit"]) != e["limit"] else "")
    + ") --" + (f" rusted: {', '.join(e['rusted'])}" if e.get("rusted") else ""),
    "trains_rusted": lambda e: f"trains rust: {', '.join(e['rusted'])}",
    "privates_closed": lambda e: f"privates close ({e['reason']}): {', '.join(e['privates'])}",
    "train_discarded": lambda e: f"{e['corp']} discards {e['train']} to the pool",
    "private_sold": lambda e: f"{e['corp']} buys {e['private']} from {e['seller']} for ${e['price']}",
    "corp_turn_ended": lambda e: None,
    "bank_broke": lambda e: f"-- the bank has broken (${e['bank']}); the game ends after set {e['end_after_set']} --",
    "bankrupt": lambda e: _bankrupt_line(e),
    "game_over": lambda e: f"-- game over: {e['reason']} --",
    "rules_waived": lambda e: f"FORCED ({e['reason']}): waived " + ("; ".join(e["rules"]) or "nothing"),
    "adjustment": lambda e: f"ADJUSTMENT ({e['reason']}): ${e['amount']} from {acct_name(e['from'])} to {acct_name(e['to'])}",
    "port_claimed": lambda e: f"{e['corp']} claims the {e['port']} port",
    "port_sold": lambda e: f"{e['corp']} buys the {e['port']} port from {e['seller']} for ${e['price']}",
    "port_income": lambda e: "ports pay: " + ", ".join(f"{acct_name(t[1])} ${t[2]}" for t in e["transfers"]),
    "train_taken": lambda e: f"{e['by']} take a {e['type']} train from the supply ({e['train']})",
    "relics_returned": lambda e: f"{len(e['trains'])} rusted certificates return to the supply for sale",
    "obsolete_discarded": lambda e: f"{e['corp']}'s obsolete train(s) leave play: {', '.join(t[0] for t in e['trains'])}",
    "train_flipped": lambda e: f"{e['corp']} flips {e['train']} to its {e['side']} side",
    "train_protected": lambda e: f"{e['corp']} uses {e['private']}'s Engineers on {e['train']}: it will go obsolete instead of rusting",
    "private_converted": lambda e: f"{e['private']} becomes {e['corp']}'s train {e['train']}",
    "private_discarded": lambda e: f"{e['player']} hands {e['private']} to the bank for ${e['price']}",
    "station_moved": lambda e: f"{e['corp']} moves a station for ${e['cost']}",
    "seating": lambda e: "new player order by cash: " + ", ".join(f"{p} ${e['cash'][p]}" for p in e["players"]),
    "end_due": lambda e: f"-- {e['corp']} reaches ${e['price']}: the game ends after this operating round --",
    "owned_set_counted": lambda e: f"-- set {e['sets']} with a company-owned {e['type']} train --",
    "count": lambda e: (f"count: {e['player']} has ${e['counted']} on the table, the ledger says ${e['ledger']}"
                        + (" — they agree" if e["difference"] == 0 else f" — difference ${e['difference']:+d}")),
}


def _round_title(r: dict) -> str:
    if r["kind"] == "stock":
        return f"Stock Round {r['number']}"
    if r["kind"] == "operating":
        return f"Operating Round {r['set']}.{r['index']} (of {r['count']})"
    return "Private auction"


def _bankrupt_line(e):
    """The money that moves: his cash to the bank, or none where the game ends as things stand (1843 A21)."""
    line = f"{e['player']} is bankrupt ({e['corp']} cannot buy a train): "
    if e.get("transfers"):
        return line + f"${sum(amount for _payer, _payee, amount in e['transfers'])} to the bank"
    return line + "no money moves" + (f" ({e['player']} keeps ${e['cash']})" if e["cash"] else "")


def _sold_line(e):
    line = f"{e['player']} sells {e['count']} {e['corp']} share(s) at ${e['price']} for ${e['amount']}"
    if e.get("president"):
        line += f"; {e['president']} becomes president of {e['corp']}"
    return line


DESCRIBE["shares_sold"] = _sold_line
