"""The 1830 stock market, table-driven: every cell and every cause against the digest's Appendix A
(tests/1830/data/1830_market_moves.md, copied from shared/rules/1830.md), plus multi-share sales (§15 #2, #3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger import catalog
from ledger.core.rules import market

TABLE = Path(__file__).parent / "data" / "1830_market_moves.md"
CAUSES = ["pay", "withhold", "sell", "sold_out"]  # the table's columns, in order

ROW = re.compile(r"^\|\s*\((\d+),(\d+)\)\s*\|\s*(\d+)\s*\|\s*([a-z ()]+?)\s*\|(.*)\|\s*$")
TARGET = re.compile(r"^\s*(\d+)\s+\((\d+),(\d+)\)\s*(\(stays\))?\s*$")


def parse_table() -> dict[tuple[int, int], dict]:
    cells = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if not m:
            continue
        r, c, price, zone, rest = int(m[1]), int(m[2]), int(m[3]), m[4], m[5]
        targets = [t.strip() for t in rest.split("|")]
        assert len(targets) == 4, line
        moves = {}
        for cause, text in zip(CAUSES, targets):
            t = TARGET.match(text)
            assert t, f"cannot read {text!r} in {line!r}"
            to = (int(t[2]), int(t[3]))
            stays = bool(t[4])
            assert stays == (to == (r, c)), f"'(stays)' marker inconsistent in {line!r}"
            moves[cause] = (int(t[1]), to)
        cells[(r, c)] = {"price": price, "zone": zone.replace("(par)", "").strip(), "par": "(par)" in zone,
                         "moves": moves}
    return cells


CELLS = parse_table()
RS = catalog.load("1830")


def test_table_has_every_cell_of_the_grid():
    # digest §6.1: 120 cells (RAILS StockMarket.xml has the identical 120)
    assert len(CELLS) == 120
    assert set(RS.market) == set(CELLS)


def test_zone_counts_match_digest():
    # digest §6.2: 19 yellow, 11 orange, 15 brown, 75 white (incl. par cells)
    zones = [c["zone"] for c in CELLS.values()]
    assert (zones.count("yellow"), zones.count("orange"), zones.count("brown"), zones.count("white")) == (19, 11, 15, 75)


# Every cell is checked in one test per cause (a test item per cell and cause cost more than the
# checks); each names every cell that disagrees.

def test_cell_price_zone_par():
    wrong = []
    for pos in sorted(CELLS):
        want, cell = CELLS[pos], RS.market[pos]
        if ((cell.price, cell.zone, cell.par) != (want["price"], want["zone"], want["par"])
                or market.price(RS, pos) != want["price"] or market.zone(RS, pos) != want["zone"]):
            wrong.append(f"{pos}: engine {(cell.price, cell.zone, cell.par)}, "
                         f"{market.price(RS, pos)}, {market.zone(RS, pos)}; table {want}")
    assert not wrong, wrong


@pytest.mark.parametrize("cause", CAUSES)
def test_move_every_cell_every_cause(cause):
    wrong = []
    for pos in sorted(CELLS):
        price, to = CELLS[pos]["moves"][cause]
        got = market.move(RS, pos, cause)
        if tuple(got) != to or market.price(RS, got) != price:
            wrong.append(f"{cause} from {pos}: expected {to} ${price}, engine {got} ${market.price(RS, got)}")
    assert not wrong, wrong


def test_par_cells_are_column_six():
    # digest §6.3
    assert {pos: c["price"] for pos, c in CELLS.items() if c["par"]} == {
        (0, 6): 100, (1, 6): 90, (2, 6): 82, (3, 6): 76, (4, 6): 71, (5, 6): 67}
    for price in (100, 90, 82, 76, 71, 67):
        pos = market.par_cell(RS, price)
        assert pos[1] == 6 and CELLS[tuple(pos)]["price"] == price and CELLS[tuple(pos)]["par"]


# --------------------------------------------------------------------------- several shares sold

def walk(pos, cause, n):
    """Apply the table's single move n times (Appendix A: 'apply the sold column n times')."""
    for _ in range(n):
        pos = CELLS[pos]["moves"][cause][1]
    return pos


@pytest.mark.parametrize("n", range(1, 11))
def test_selling_n_shares_walks_the_column(n):
    wrong = []
    for pos in sorted(CELLS):
        got = tuple(market.move(RS, pos, "sell", n))
        if got != walk(pos, "sell", n):
            wrong.append(f"{n} sold from {pos}: expected {walk(pos, 'sell', n)}, engine {got}")
        if got[1] != pos[1]:
            wrong.append(f"{n} sold from {pos}: sales only ever move straight down a column, engine {got}")
    assert not wrong, wrong


def test_selling_three_at_par_67():
    # digest §15 #2: (5,6) $67, 3 shares -> (6,6) 67 -> (7,6) 67 -> (8,6) $60 yellow
    assert tuple(market.move(RS, (5, 6), "sell", 1)) == (6, 6)
    assert tuple(market.move(RS, (5, 6), "sell", 2)) == (7, 6)
    end = tuple(market.move(RS, (5, 6), "sell", 3))
    assert end == (8, 6)
    assert market.price(RS, end) == 60 and market.zone(RS, end) == "yellow"
    for n in (1, 2):
        assert market.price(RS, market.move(RS, (5, 6), "sell", n)) == 67


def test_selling_at_the_bottom_of_a_column():
    # digest §15 #3
    assert tuple(market.move(RS, (7, 1), "sell", 3)) == (8, 1)
    assert market.price(RS, (8, 1)) == 10
    for n in (1, 2, 5, 9):
        assert tuple(market.move(RS, (10, 4), "sell", n)) == (10, 4)
        assert tuple(market.move(RS, (7, 0), "sell", n)) == (7, 0)


def test_edges_from_the_digest():
    # §15 #4 withhold at the left edge
    assert tuple(market.move(RS, (0, 0), "withhold")) == (1, 0)
    assert tuple(market.move(RS, (7, 0), "withhold")) == (7, 0)
    assert tuple(market.move(RS, (8, 1), "withhold")) == (8, 1)
    # §15 #5 payout at the right edge
    for start, end in [((1, 18), (0, 18)), ((0, 18), (0, 18)), ((2, 15), (1, 15)), ((4, 10), (3, 10)),
                       ((7, 7), (6, 7)), ((9, 6), (8, 6))]:
        assert tuple(market.move(RS, start, "pay")) == end
    # §15 #6 sold out
    assert tuple(market.move(RS, (3, 5), "sold_out")) == (2, 5)
    assert market.price(RS, (2, 5)) == 76
    assert tuple(market.move(RS, (0, 12), "sold_out")) == (0, 12)


def test_moves_never_leave_the_grid():
    for pos in CELLS:
        for cause in CAUSES:
            for n in (1, 3, 12):
                assert tuple(market.move(RS, pos, cause, n)) in CELLS
