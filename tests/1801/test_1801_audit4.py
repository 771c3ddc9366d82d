"""1801 (18OE): a fourth audit of the bank against the rulebook, on what three audits left: the
market's edges (E4, E5, E6, D18 #23) moved by the title's own grid and rules, Minor J's discount on an
Open Market Pullman, the Pullmans once Minor M is abandoned (§9.5 step 5, D18 #27), and the bank
once the first level 8 train has put the remainder cash in it (§13).

Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings).
"""

from __future__ import annotations

import pytest
from book_tables_1801 import example_lines, or31_first_4
from conftest import Table as EngineTable
from test_1801_audit3 import idle_until
from test_1801_merges_rules import Table, changes, cons_path, or21_path, or41_path, p3_path, p3m_path, s2_path, s2x_path  # noqa: F401  (fixtures are used by name)

from ledger import catalog
from ledger.core.rules import market


@pytest.fixture
def or41(or41_path, tmp_path) -> Table:  # noqa: F811 (a fixture of test_1801_merges_rules)
    return Table(or41_path).copy_to(tmp_path / "t.db")


# =========================================================================== §4.4: the edges

RS = catalog.load("1801")


def price(pos) -> int:
    return RS.market[pos].price


# (from, what happens, to, its price), each worked from §4.4 on the grid of D 5.1 (rows from the top):
EDGES = [
    # E4: a withhold moves LEFT; in column 0 DOWN; at (7,0), the £50 corner, nowhere.
    ((2, 2), "withhold", (2, 1), 90),
    ((3, 0), "withhold", (4, 0), 70),
    ((7, 0), "withhold", (7, 0), 50),
    # E6: a dividend >= the value moves RIGHT; at a row's end UP: (4,8) £150 -> (3,8) £165.
    ((4, 8), "pay", (3, 8), 165),
    ((0, 16), "pay", (0, 16), 550),
    # E6: sold out moves UP; on the top row RIGHT: (0,5) £165 -> (0,6) £180; at £550 nowhere.
    ((0, 5), "sold_out", (0, 6), 180),
    ((0, 16), "sold_out", (0, 16), 550),
    # D18 #23: UP from (1,0) £90 (no box above): RIGHT to (1,1) £100.
    ((1, 0), "sold_out", (1, 1), 100),
]


@pytest.mark.parametrize("start, cause, end, value", EDGES)
def test_e4_e6_the_markers_moves_at_the_edges_of_the_grid(start, cause, end, value):
    """§4.4 / E4 / E6 / D18 #23: each move from an edge square lands where the rule says, at the
    worked value. A run's move goes through the title's own run rule (a full pay of at least the
    value: RIGHT; nothing paid: LEFT)."""
    if cause == "sold_out":
        to = market.move(RS, start, "sold_out")
    else:
        paid = price(start) if cause == "pay" else 0
        to = market.after_run(RS, start, cause, distributed=paid, price=price(start), has_trains=True, revenue=paid)
    assert (to, price(to)) == (end, value)


@pytest.mark.parametrize("start, shares, end, value", [
    # E5: P sells 3 at (2,2) £100: DOWN x 3 -> (5,2) £75; Q then sells 3 at £75: (6,2) £70, (7,2)
    # £65, then no box below: it stays at £65.
    ((2, 2), 3, (5, 2), 75),
    ((5, 2), 3, (7, 2), 65),
    # E5: at (1,14) £390 sales never move the marker: (2,14) does not exist.
    ((1, 14), 4, (1, 14), 390),
])
def test_e5_sales_at_the_foot_of_a_column_stop_there(start, shares, end, value):
    to = market.after_sale(RS, start, shares)
    assert (to, price(to)) == (end, value)


# =========================================================================== §11.6.2, §15.9: Pullmans

def test_minor_js_discount_applies_to_an_open_market_pullman_with_no_royalty():
    """§11.6.2: "Pullmans purchased from the Open Market cost face value, £150, but do not pay a
    royalty to Minor M. Minor J's 10% discount (see 15.9) applies to Pullman purchases"; D18 #28: it
    applies to purchases from the bank, the Open Market's included, rounded down. or31_first_4: KSS
    (Ben's, J merged into it) has bought the first 4 (Train Phase 4; Minor M, Ann's, got its free
    Pullman). Nobody converts; OR 3.2: M (no train) runs nothing and discards its Pullman to the Open
    Market, with no refund (no money moves). KSS withholds £0 and buys that Pullman from the Open
    Market: 150 - 15 = £135, all to the bank; M receives nothing."""
    t = or31_first_4()
    t.do("decline Ben", "decline Cy", "decline Ann", "done KSS")
    idle_until(t, lambda: t.round() == "OR 3.2" and t.status()["operating"] == "M")
    t.do("withhold M 0")
    before = t.cash()
    t.do("pullman M --discard")
    assert changes(before, t.cash()) == {}
    t.do("done M")
    idle_until(t, lambda: t.status()["operating"] == "KSS")
    t.do("withhold KSS 0")
    before = t.cash()
    t.do("pullman KSS --from pool")
    assert changes(before, t.cash()) == {"KSS": -135, "bank": 135}
    assert sum(t.state.balances.values()) == t.money_at_start


def test_after_minor_m_is_abandoned_its_stock_sells_with_no_royalty_and_its_own_pullman_is_not_for_sale(or41):
    """§9.5 step 5: when a minor is abandoned "The M minor's Pullman is placed with its charter (and
    may not be purchased by another RR, although any other remaining Pullmans are still available for
    purchase)"; step 6: an abandoned minor's treasury goes to the bank. D18 #27: the stock stays on
    sale and the royalty is kept by the bank. or41 (OR 4.1, Train Phase 5): Ann abandoned Minor M in
    the Consolidation round; its free Pullman PM1 stays with its charter in the Open Market.
    (Found: the engine sold PM1 to WW for £75, paid into the abandoned M's treasury.)
    WW (£910) withholds £0; buying M's own Pullman is refused, naming the rule; nothing is in the
    Open Market to buy. From M's stock: £150 to the bank, no £15 royalty (nobody uses M's ability).
    KSS (J merged into it) then buys one for 150 - 15 = £135, no royalty either."""
    assert or41.company("M")["pullman"] == ["PM1"] and or41.holdings("M")["pool"] == 100
    or41.bank.line("withhold WW 0")
    line = or41.refused("pullman WW --from M")
    assert "abandoned" in line and "§9.5" in line
    or41.refused("pullman WW --from pool")
    before = or41.cash()
    or41.bank.line("pullman WW")
    assert changes(before, or41.cash()) == {"WW": -150, "bank": 150}
    assert or41.company("M")["pullman"] == ["PM1"] and or41.company("M")["cash"] == 0
    or41.bank.line("done WW")
    while or41.status()["operating"] != "KSS":
        corp = or41.status()["operating"]
        or41.bank.line(f"withhold {corp} 0")
        or41.bank.line(f"done {corp}")
    or41.bank.line("withhold KSS 0")
    before = or41.cash()
    or41.bank.line("pullman KSS")
    assert changes(before, or41.cash()) == {"KSS": -135, "bank": 135}
    or41.conserved()


# =========================================================================== §13: the end

def test_once_the_first_level_8_is_bought_the_bank_no_longer_breaks():
    """§13: "if the bank runs out of money during an OR prior to the purchase of the first level 8
    train, finish only the current OR"; once it is bought, all the remainder cash is in the bank and
    the final sequence (E27) alone ends the game. examples/1801-game.txt: BEL buys the first 8+8 in
    OR 8.2 (the second of its set): OR 8.2 is finished, SR 9, then three ORs. SFR withholds £1,000
    more than the bank holds (the table's figure, --force): the bank does not break, the game is not
    ended with OR 8.2, and SR 9 follows it."""
    lines = example_lines()
    at = lines.index("train BEL 8+8")
    t = EngineTable("\n".join(lines[:at + 2]))
    assert (t.round(), t.status()["operating"]) == ("OR 8.2", "SFR")
    t.do(f"withhold SFR {t.bank() + 1000} --force --reason table-figure")
    assert not t.status()["bank_broken"] and not t.status()["game_over"]
    t.do("done SFR")
    idle_until(t, lambda: not t.round().startswith("OR 8"))
    assert t.round() == "SR 9" and not t.status()["game_over"]
