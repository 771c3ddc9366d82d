"""1801 (18OE): the stock market's edges (§4.4, E4, E5, E6, D18 #23) moved by the title's own grid and
rules.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

import pytest

from ledger import catalog
from ledger.core.rules import market


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
