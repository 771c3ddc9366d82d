"""Property tests: random sequences of legal commands keep the books straight.

At each step the test lists candidate commands for whoever may act (auction: pass, buy the cheapest,
minimum bids; stock round: pass, par, buy from IPO or pool, sell, exchange; operating round: tile,
token, pay/withhold, train, buy-private, done, discards, emergency sales, bankruptcy), lets
hypothesis pick candidates until `decide` accepts one, and applies it. After every step:

* money sums to the bank's $12,000, no player (or company) balance is negative;
* every certificate is held exactly once by a known holder, each company's certificates sum to 100 %,
  and no president's certificate lies in the pool or with a company;
* each player is within the holding rules the engine promises to enforce on purchases.

At the end: `replay` of all events equals the state reached step by step, and in a SQLite session
the same commands give the same state, and undo then redo of the last command restores it.

The suite tries a few examples of each; BANK_LONG_TESTS=1 tries as many as it did before (25 and 10
hypothesis examples, 6 long seeded games).
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from budget import runs
from conftest import Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import catalog
from ledger.books.session import Session
from ledger.core import engine
from ledger.core.errors import CommandError, RuleViolation
from ledger.core.events import apply
from ledger.core.rounds import auction
from ledger.core.rules import privates, trains
from ledger.core.state import BANK, POOL, company_acct, ipo_acct, player_acct, train_type

NAMES = ["Ann", "Ben", "Cy", "Di", "Ed"]
PARS = [100, 90, 82, 76, 71, 67]
REVENUES = [0, 20, 40, 70, 100, 150]


def candidates(g: Table) -> list[str]:
    s, rs = g.state, g.rs
    out: list[str] = []
    for p in s.pending:
        if p["kind"] == "par":
            out += [f"par {p['player']} {p['corp']} {price}" for price in PARS]
        elif p["kind"] == "discard":
            out += [f"discard {p['corp']} {train_type(t)}" for t in s.corp_trains(p["corp"])]
    if s.pending:
        return out
    kind = s.round["kind"]
    if kind == "auction":
        who = auction.actor(s)
        out.append(f"pass {who}")
        unsold = privates.unsold(s, rs)
        war = s.round.get("war")
        if war:
            least = auction.min_bid(s, rs, war)
            out += [f"bid {who} {war} {least}", f"bid {who} {war} {least + 10}"]
        else:
            out.append(f"buy {who} {unsold[0]}")
            for sym in unsold[1:]:
                out.append(f"bid {who} {sym} {auction.min_bid(s, rs, sym)}")
    elif kind == "stock":
        turn = s.round["turn"]
        who = [s.players[turn]]
        if s.round["acted"]:
            who.append(s.players[(turn + 1) % len(s.players)])
        for p in who:
            out.append(f"pass {p}")
            for corp, c in s.corps.items():
                q = f'"{corp}"'
                if c.par is None:
                    out.append(f"par {p} {q} {PARS[sum(map(ord, corp + p)) % len(PARS)]}")  # deterministic spread
                    out.append(f"par {p} {q} 67")
                else:
                    out += [f"buy {p} {q}", f"buy {p} {q} --pool", f"buy {p} {q} 2 --pool",
                            f"sell {p} {q} 1", f"sell {p} {q} 2"]
        out += mh_exchanges(g)
    elif kind == "operating":
        corp = s.round["corp"]
        q = f'"{corp}"'
        pres = s.president(corp)
        out += [f"tile {q} 0", f"tile {q} 80", f"tile {q} 120", f"token {q}"]
        out += [f"pay {q} {r}" for r in REVENUES] + [f"withhold {q} {r}" for r in REVENUES]
        offer = trains.depot_offer(s, rs)
        out += [f"train {q} {t}" for t in offer]
        out += [f"train {q} {t} --trade-in {train_type(x)}" for t in offer for x in s.corp_trains(corp)]
        out += [f"train {q} {train_type(t)} --from pool" for t in s.pool_trains()]
        for other in s.corps:
            for t in s.corp_trains(other):
                if other != corp:
                    out.append(f'train {q} {train_type(t)} --from "{other}" --price {rs.train(train_type(t)).price // 2 or 1}')
        for sym, priv in s.privates.items():
            if priv.owner and priv.owner.startswith("player:") and not priv.closed:
                face = rs.private(sym).face
                out.append(f"buy-private {q} {sym} {face}")
        out += [f"done {q}", f"done {q} --no-route"]
        if pres:
            for other, c in s.corps.items():
                if c.cell and s.percent_of(player_acct(pres), other):
                    out += [f'sell {pres} "{other}" 1', f'sell {pres} "{other}" 2']
            out.append(f"bankrupt {pres}")
        out += mh_exchanges(g)
    return out


def mh_exchanges(g: Table) -> list[str]:
    mh = g.state.privates.get("MH")
    if mh and mh.owner and mh.owner.startswith("player:") and not mh.closed:
        who = mh.owner.split(":", 1)[1]
        return [f"exchange {who} MH", f"exchange {who} MH --pool"]
    return []


def check_books(g: Table) -> None:
    s, rs = g.state, g.rs
    # the $12,000 of the bank and everyone it paid (the engine may book the bank's issue from a 'mint')
    assert sum(v for k, v in s.balances.items() if k != "mint") == 12000
    assert s.balances.get("mint", -12000) == -12000
    for acct, amount in s.balances.items():
        if acct not in (BANK, "mint"):
            assert amount >= 0, f"{acct} is negative: {amount}"
    valid = {POOL} | {player_acct(p) for p in s.players} | {ipo_acct(c) for c in s.corps}
    by_corp: dict[str, int] = {c: 0 for c in s.corps}
    assert set(s.certs) == set(g._all_certs)
    for cert, holder in s.certs.items():
        assert holder in valid, f"{cert} held by {holder}"
        by_corp[cert.rsplit(".", 1)[0]] += s.cert_percent[cert]
    assert all(v == 100 for v in by_corp.values()), by_corp
    for corp in s.corps:
        assert s.certs[f"{corp}.0"] != POOL, f"the president's certificate of {corp} is in the pool"
        assert s.percent_of(POOL, corp) <= 50, f"pool holds {s.percent_of(POOL, corp)}% of {corp}"
        if s.corps[corp].par is not None:
            assert s.certs[f"{corp}.0"] != ipo_acct(corp), f"{corp} started but its president's cert is in the IPO"
            pres = s.president(corp)
            best = max(s.percent_of(player_acct(p), corp) for p in s.players)
            assert s.percent_of(player_acct(pres), corp) == best, f"{pres} is president of {corp} without the most shares"
    for sym, p in s.privates.items():
        if p.owner:
            assert p.owner in {player_acct(x) for x in s.players} | {company_acct(c) for c in s.corps}
    for t, holder in s.trains.items():
        assert holder in {"depot", "pool", "rusted"} | {company_acct(c) for c in s.corps}
    for corp in s.corps:
        assert len(s.corp_trains(corp)) <= trains.limit(s, rs) or any(
            p["kind"] == "discard" and p["corp"] == corp for p in s.pending)


def play_random(choose, n_players: int, steps: int) -> Table:
    """Play up to `steps` legal commands; `choose(options)` picks a candidate line to try."""
    g = Table(title="1830", players=NAMES[:n_players])
    g._all_certs = set(g.state.certs)
    g.commands = []
    for _ in range(steps):
        if g.state.game_over:
            break
        options = candidates(g)
        events = None
        while options:
            line = choose(options)
            try:
                events = engine.decide(g.state, g.rs, catalog.parse_line(line))
                break
            except (RuleViolation, CommandError):
                options.remove(line)
        assert events is not None, f"no legal command among the candidates in {g.state.round}"
        for e in events:
            apply(g.state, e)
            g.events.append(e)
        g.commands.append(line)
        check_books(g)
    return g


def hypothesis_choice(data):
    return lambda options: data.draw(st.sampled_from(options))


SETTINGS = settings(max_examples=runs(6, 25), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.data_too_large])


@SETTINGS
@given(data=st.data(), n_players=st.integers(3, 5), steps=st.integers(40, 150))
def test_random_legal_games_keep_the_books(data, n_players, steps):
    g = play_random(hypothesis_choice(data), n_players, steps)
    assert g.replayed() == g.state, "replay of the events differs from the state reached step by step"


@settings(max_examples=runs(3, 10), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), n_players=st.integers(3, 5), steps=st.integers(40, 120))
def test_sqlite_session_matches_and_undo_redo_restores(data, n_players, steps):
    g = play_random(hypothesis_choice(data), n_players, steps)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.db"
        session = Session.new(path, "1830", g.players, {})
        previous = None
        for line in g.commands:
            previous = session.state.clone()
            session.execute(catalog.parse_line(line), line)
        assert session.state == g.state, "the SQLite session reached a different state"
        reopened = Session.open(path)
        assert reopened.state == g.state, "reopening the game file gives a different state"
        reopened.close()
        if previous is not None:
            session.undo()
            assert session.state == previous, "undo did not restore the state before the last command"
            session.redo()
            assert session.state == g.state, "redo did not restore the state after the last command"
        session.close()


@pytest.mark.parametrize("seed", range(runs(2, 6)))
def test_long_seeded_games_reach_trains_and_later_phases(seed):
    """Longer games than hypothesis runs, with a bias against passing, so that operating rounds,
    train purchases and phase changes are exercised under the same checks."""
    rng = random.Random(seed)

    def choose(options):
        active = [o for o in options if not o.startswith(("pass", "done", "bankrupt"))]
        if active and rng.random() < 0.8:
            return rng.choice(active)
        return rng.choice(options)

    g = play_random(choose, 3 + seed % 3, 600)
    kinds = {e["kind"] for e in g.events}
    assert "corp_turn_started" in kinds, "the generator never reached a company's turn"
    assert "train_bought" in kinds
    assert g.replayed() == g.state
