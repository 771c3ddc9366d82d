"""1843's stock market (RULES §7.7 on the draft grid of digest D7.4): a payout of 0fr moves left, the grid's
edges the digest's worked cases leave out, sinking in a stack at a column's foot, and sold-out markers of
one stack rising in operating order (A8).
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

import pytest
from openings_1843 import P4, cash, cell, corp_now, end_sr, mid_floated, pct, play_or, standard_auction, turns
from openings_1843 import table as game

from ledger.core.rules import market


def test_paying_zero_moves_left():
    """§7.7: a payout of 0fr is no dividend (more than 0fr per share is): the marker moves left, as
    a withhold of 0fr (which is how it is typed: `pay MID 0` is refused)."""
    g = mid_floated()
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    play_or(g, {"MID": ["withhold MID 0", "done MID"]})
    # (13,7) 67 -> withheld (13,6) 64 -> "no dividend" (more than 0fr per share, §7.7) -> (13,5) 60
    assert cell(g, "MID") == (13, 5)


@pytest.mark.parametrize("start, cause, times, end", [
    ((0, 0), "withhold", 1, (1, 0)),      # 122, left end of the top row: down to 112
    ((12, 0), "withhold", 1, (13, 0)),    # 51, left end: down to 47 (a bottom-left corner)
    ((13, 8), "pay", 1, (12, 8)),         # 74, right end of row 13: up to 79
    ((17, 6), "pay", 1, (16, 6)),         # 48, right end of the bottom row: up to 52
    ((17, 2), "pay", 1, (17, 3)),         # 40, the lowest price: right to 42
    ((10, 9), "pay", 1, (9, 9)),          # 101, right end: up to 108
    ((9, 9), "pay", 1, (8, 9)),           # 108, right end: up to 115
    ((7, 11), "pay", 1, (6, 11)),         # 156, right end: up to 167
    ((4, 14), "pay", 1, (3, 14)),         # 291, foot of the last column: up to 337
    ((0, 14), "pay", 1, (0, 14)),         # 500, the top right corner: nowhere further
    ((5, 13), "sell", 1, (5, 13)),        # 234, foot of column 13: the sale cannot move it down
    ((13, 0), "sell", 2, (13, 0)),        # 47, foot of column 0
    ((16, 6), "sell", 2, (17, 6)),        # 52: one row to the foot (48), the second move is lost
    ((0, 0), "sold_out", 1, (1, 1)),      # 122 on the top row: down-right to 120
    ((0, 13), "sold_out", 1, (1, 14)),    # 420 on the top row: down-right to 454
])
def test_the_grids_remaining_edges(start, cause, times, end):
    """§7.7 on the draft grid (D7.4), at the edges the digest's E7/E9/E10/E11 leave out."""
    g = game()
    assert market.move(g.rs, start, cause, times) == end


def test_a_sale_at_a_columns_foot_sinks_one_place_per_share():
    """§7.7: at the foot of its column, "moved down in the stack ... once per 10% certificate sold", and no
    further than the bottom: the top of a stack of three sells one (one place down) or five (the bottom)."""
    assert market.sink_in_stack(["A", "B", "C"], "A", 1) == ["B", "A", "C"]
    assert market.sink_in_stack(["A", "B", "C"], "A", 5) == ["B", "C", "A"]


def test_two_sold_out_markers_of_one_stack_rise_in_their_operating_order():
    """§7.7: a company 100 % owned by players at the end of an SR moves up one row, placed under any
    marker already there; A8: several are moved in operating order, so a stack keeps its order. PLM (par 67
    through LM) lies on EST (par 67, P1) in (13,7) = 67; SR 1 sells out both (P1 475 - 134 - 3 x 67 = 140,
    P2 430 - 4 x 67 = 162, P3 350 - 4 x 67 = 82, P4 540 - 5 x 67 = 205); both rise to (12,7) = 72 and PLM
    still operates first."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "buy P4 PLM", "par P1 EST 67", "buy P2 PLM", "buy P3 EST",
          "buy P4 PLM", "buy P1 EST", "buy P2 PLM", "buy P3 EST",
          "buy P4 PLM", "buy P1 EST", "buy P2 PLM", "buy P3 EST",
          "buy P4 PLM", "buy P1 EST", "buy P2 EST", "buy P3 PLM", "buy P4 EST")
    assert {p: cash(g, p) for p in P4} == {"P1": 140, "P2": 162, "P3": 82, "P4": 205}
    assert pct(g, "ipo", "PLM") == pct(g, "ipo", "EST") == 0
    assert cell(g, "PLM") == cell(g, "EST") == (13, 7)
    end_sr(g)
    assert cell(g, "PLM") == cell(g, "EST") == (12, 7)
    assert corp_now(g) == "PLM"
