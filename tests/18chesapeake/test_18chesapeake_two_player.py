"""18Chesapeake's two-player variant on the engine (no CLI), played by itself with 2 players (digest
shared/rules/18chesapeake.md D13; worked cases D16 #14 and #15): 30 % president's certificates but
Cornelius Vanderbilt's company's, each such company's last share out of the game, the IPO's shares
to the pool on floating, a non-president's purchase taking the pool's last share out, sold out with
an empty pool, dividends on the shares left.
"""

from __future__ import annotations

import pytest
from conftest import Table

from ledger.core.state import POOL, REMOVED

AUCTION = ("buy Ann DnR", "buy Bob C-P", "buy Ann BnS", "buy Bob CnOC", "buy Ann BnOR", "buy Bob CV")


def two(vanderbilt: str = "NnW") -> Table:
    """Ann and Bob buy the six privates at face in turn; Bob's Cornelius Vanderbilt brings the
    president's certificate of the company named (he pars it at $70)."""
    g = Table(title="18chesapeake", players=["Ann", "Bob"], options={"vanderbilt": vanderbilt})
    g.do(*AUCTION, f"par Bob {vanderbilt} 70")
    return g


def holders(g: Table, corp: str) -> dict[str, str]:
    return {c: h for c, h in g.state.certs.items() if c.split(".")[0] == corp}


def floated_prr() -> Table:
    """D16 #14: PRR parred at $80 by Ann (30 %), 60 % sold in SR 1: it floats."""
    g = two()
    g.do("par Ann PRR 80", "buy Bob PRR", "buy Ann PRR", "buy Bob PRR")
    return g


def test_thirty_percent_presidents_but_vanderbilt_s_company():
    """D13 setup: 30 % + seven 10 % for every company but the CV company (20 % + eight 10 %); the
    last 10 % (SYM_8) is out of the game."""
    g = two("NnW")
    pct = g.state.cert_percent
    for corp in ("PRR", "PLE", "SRR", "B&O", "C&O", "LV", "C&A"):
        assert pct[f"{corp}.0"] == 30
        assert g.state.certs[f"{corp}.8"] == REMOVED
        assert sum(pct[c] for c, h in holders(g, corp).items() if h != REMOVED) == 100
    assert pct["N&W.0"] == 20 and g.state.certs["N&W.8"] == "ipo:N&W"
    assert g.state.certs["N&W.0"] == "player:Bob"


def test_starting_a_company_costs_three_times_par():
    """D16 #15: 3 x par for the 30 % certificate (par $80: $240; par $95: $285); CV's company's 20 %
    came free with the private."""
    g = two()
    ann = g.cash("Ann")
    assert ann == 1200 - 20 - 50 - 100
    assert g.cash("Bob") == 1200 - 40 - 80 - 200
    g.do("par Ann PRR 80")
    assert g.cash("Ann") == ann - 240
    g2 = two()
    g2.do("par Ann SRR 95")
    assert g2.cash("Ann") == ann - 285


def test_the_ipo_goes_to_the_pool_on_floating():
    """D13 floatation, D16 #14: 30 % + three shares sold float PRR ($800 at par $80); PRR_4-PRR_7 go to
    the pool."""
    g = floated_prr()
    assert g.state.corps["PRR"].floated
    assert g.cash("PRR") == 800
    assert [c for c, h in holders(g, "PRR").items() if h == POOL] == ["PRR.4", "PRR.5", "PRR.6", "PRR.7"]
    assert g.state.percent_of("ipo:PRR", "PRR") == 0


def test_a_non_president_s_purchase_removes_the_pool_s_last_share_and_sold_out_rises():
    """D16 #14: Ann (president) buys PRR_4 for $80, no removal; Bob buys PRR_5 for $80: PRR_7 leaves the
    game first; Ann buys PRR_6. The pool is empty: PRR is sold out at the end of the SR and rises
    from $80 (3,3) to $85 (2,3)."""
    g = floated_prr()
    ann, bob, bank = g.cash("Ann"), g.cash("Bob"), g.bank()
    g.do("buy Ann PRR")
    assert g.state.certs["PRR.4"] == "player:Ann" and g.state.certs["PRR.7"] == POOL
    g.do("buy Bob PRR")
    assert g.state.certs["PRR.5"] == "player:Bob" and g.state.certs["PRR.7"] == REMOVED
    assert any(e["kind"] == "share_removed" and e["cert"] == "PRR.7" for e in g.events)
    g.do("buy Ann PRR")
    assert [c for c, h in holders(g, "PRR").items() if h == POOL] == []
    assert (g.cash("Ann"), g.cash("Bob"), g.bank()) == (ann - 160, bob - 80, bank + 240)
    g.do("pass Bob", "pass Ann")
    assert g.state.round["kind"] == "operating"
    assert g.state.corps["PRR"].cell == (2, 3)


def test_a_non_president_may_not_buy_the_pool_s_only_share():
    """D13, D17 #4: the pool's only share would leave the game before the purchase: refused."""
    g = floated_prr()
    g.do("buy Ann PRR", "buy Bob PRR")   # Ann 50 %, Bob 30 %; PRR_7 out, the pool holds PRR_6
    assert [c for c, h in holders(g, "PRR").items() if h == POOL] == ["PRR.6"]
    g.do("pass Ann")
    g.refusal("buy Bob PRR", "leaves the game")


def ann_alone() -> Table:
    """Ann pars SRR at $70 and buys three more shares while Bob passes: 60 % hers, SRR floats ($700)
    and the pool takes the other 40 %; OR 1 begins."""
    g = two()
    g.do("par Ann SRR 70", "pass Bob", "buy Ann SRR", "pass Bob", "buy Ann SRR", "pass Bob", "buy Ann SRR",
         "pass Bob", "pass Ann")
    return g


def test_dividends_on_the_shares_left():
    """D13 dividends: revenue / 10 a share, pool shares paying the company, removed shares nobody:
    SRR pays out $30 with Ann holding 30 % + 3 x 10 % and the pool 40 %: Ann $18, SRR $12."""
    g = ann_alone()
    assert g.state.round["kind"] == "operating"
    assert g.cash("SRR") == 700
    assert g.state.percent_of(POOL, "SRR") == 40
    from ledger.core.rules import revenue
    assert revenue.dividends(g.state, g.rs, "SRR", 30) == [["player:Ann", 6, 18], ["company:SRR", 4, 12]]


def test_a_thirty_percent_president_stays_unless_another_holds_thirty():
    """D13: dumping a 30 % presidency needs another player holding 30 %. Ann 60 % of PRR, Bob 20 %,
    the pool 10 %: in SR 2 Ann may not sell four shares (Bob cannot take the 30 % certificate);
    three she may."""
    g = two()
    g.do("par Ann PRR 80", "buy Bob PRR", "buy Ann PRR", "pass Bob", "buy Ann PRR",   # floats: pool PRR_4-7
         "buy Bob PRR", "buy Ann PRR", "pass Bob", "pass Ann")                        # PRR_7 out; pool PRR_6
    assert [g.state.percent_of(h, "PRR") for h in ("player:Ann", "player:Bob", POOL)] == [60, 20, 10]
    g.do("withhold PRR 0", "train PRR 2", "done PRR")
    assert g.state.round["kind"] == "stock"
    g.do("pass Bob")
    g.refusal("sell Ann PRR 4", "nobody else holds 30%")
    g.do("sell Ann PRR 3")
    assert g.state.percent_of("player:Ann", "PRR") == 30 and g.state.president("PRR") == "Ann"


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_more_players_play_the_standard_game(n):
    """The variant is for 2 players only: 20 % presidents, nine certificates, nothing removed."""
    g = Table(title="18chesapeake", players=["A", "B", "C", "D", "E", "F"][:n])
    assert g.state.cert_percent["PRR.0"] == 20
    assert REMOVED not in g.state.certs.values()
    assert not any(e["kind"] == "two_player_setup" for e in g.events)
