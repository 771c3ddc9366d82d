"""1843's stock market (RULES §7.7 on the draft grid of digest D7.4): a payout of 0fr moves left, the grid's
edges the digest's worked cases leave out, sinking in a stack at a column's foot, and sold-out markers of
one stack rising in operating order (A8).
The digest's worked cases E7-E11 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

import pytest
from conftest import Table
from openings_1843 import (P4, cash, cell, corp_now, end_sr, idle, mid_floated, order, pct, play_or, president, price,
                           round_kind, standard_auction, table as game, turns)

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


# --------------------------------------------------------------------------- E7-E11: the digest's market cases

def test_e7_sale_of_three_shares_at_86():
    """E7: "A company sits at (7,4) = 86. A player sells 3 shares: receives 3 x 86 = 258 (A4). The marker
    goes to (10,4) = 71." and "If another marker was already at (10,4), this one goes under it."
    PLM is parred at 86 through LM and stays unfloated (so it does not move) while P3 holds 50 %.
    MID (par 79) withholds in OR 1 to (9,4) = 76 and a sale in SR 2 takes it to (10,4) = 71 first.
    SR 1 (P4 first): P4 par MID 79; P1, P2 MID; P3 PLM; P4, P1 MID (MID floats); P3 PLM twice.
    Cash: P1 317, P2 351, P3 92, P4 303 -> order P2, P1, P4, P3; OR 1 privates: P3 132."""
    g = game()
    standard_auction(g, plm_par=86)
    assert cell(g, "PLM") == (7, 4)
    turns(g, "par P4 MID 79", "buy P1 MID", "buy P2 MID", "buy P3 PLM", "buy P4 MID", "buy P1 MID",
          "buy P3 PLM", "buy P3 PLM")
    assert g.state.corps["MID"].floated and not g.state.corps["PLM"].floated
    assert pct(g, "P3", "PLM") == 50
    end_sr(g)
    assert order(g) == ["P2", "P1", "P4", "P3"]
    play_or(g, {"MID": ["withhold MID 0", "done MID --no-route"]})
    assert cell(g, "MID") == (9, 4) and cell(g, "PLM") == (7, 4)
    assert cash(g, "P3") == 132
    turns(g, "sell P2 MID 1")
    assert cell(g, "MID") == (10, 4)
    turns(g, "buy P1 PLM")  # PLM floats with P3's 50 % + P1's 10 %
    assert g.state.corps["PLM"].floated
    turns(g, "sell P3 PLM 3")
    assert cash(g, "P3") == 132 + 258
    assert cell(g, "PLM") == (10, 4) and price(g, "PLM") == 71
    assert pct(g, "pool", "PLM") == 30 and president(g, "PLM") == "P3"
    end_sr(g)
    # both at 71 in (10,4): MID was there first, PLM went under it
    assert corp_now(g) == "MID"
    idle(g)
    assert corp_now(g) == "PLM"


@pytest.mark.parametrize("start, sold, end", [
    ((7, 4), 3, (10, 4)),    # 86 -> 71
    ((9, 9), 3, (10, 9)),    # 108: column 9 ends at row 10, the other two row-moves are lost (101)
])
def test_e7_sale_moves_on_the_grid(start, sold, end):
    """E7: "A company at (9,9) = 108 sells 3 shares. Column 9 ends at row 10, so the marker stops at
    (10,9) = 101; the other two row-moves are lost." """
    g = game()
    assert market.move(g.rs, start, "sell", sold) == end


def e7_stack_position(sell: bool) -> Table:
    """PLM (par 67 through LM) and EST (par 67 in SR 1) share (13,7), the foot of column 7; PLM was there
    first, so it is on top (EST went under it, A7). Neither floats in SR 1 (PLM 50 %, EST 40 % sold).
    SR 1 (P4 first): P4 PLM, P1 par EST, P2 PLM, P3 EST, P4 PLM, P1 EST. Cash P1 274, P2 363, P3 283,
    P4 406 -> order P4, P2, P3, P1; OR 1 (nobody operates) pays the privates. SR 2: P4 sells his two
    PLM shares (or not), P2 buys PLM (floats), P3 and P1 buy EST (floats)."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "buy P4 PLM", "par P1 EST 67", "buy P2 PLM", "buy P3 EST", "buy P4 PLM", "buy P1 EST")
    end_sr(g)
    assert round_kind(g) == "stock" and order(g) == ["P4", "P2", "P3", "P1"]
    assert cell(g, "PLM") == cell(g, "EST") == (13, 7)
    if sell:
        turns(g, "sell P4 PLM 2")
        assert cash(g, "P4") == 421 + 2 * 67
        assert cell(g, "PLM") == (13, 7) and price(g, "PLM") == 67, "no cell below: the price stays"
    turns(g, "buy P2 PLM", "buy P3 EST", "buy P1 EST")
    assert g.state.corps["PLM"].floated and g.state.corps["EST"].floated
    end_sr(g)
    return g


def test_e7_sale_at_the_foot_of_a_column_moves_down_the_stack():
    """E7: "A company already at the foot of its column and on top of a 2-marker stack sells 2: it moves
    down the stack once, to the bottom, and stops. The price stays, but it now operates after the other
    company." (the digest's (10,9) = 101; here (13,7) = 67, the foot of column 7)."""
    g = e7_stack_position(sell=True)
    assert corp_now(g) == "EST"
    idle(g)
    assert corp_now(g) == "PLM"


def test_e7_without_the_sale_the_stack_order_stands():
    """Control for the test above: without P4's sale, PLM (on top) operates first."""
    g = e7_stack_position(sell=False)
    assert corp_now(g) == "PLM"
    idle(g)
    assert corp_now(g) == "EST"


def e8_position() -> Table:
    """PLM (par 67 through LM, on top) and EST (par 67 in SR 1, under it) at (13,7); MID brought to
    (10,3) = 67 (yellow zone): par 79, OR 1 withhold (9,4) 76, SR 2 sale (10,4) 71, OR 2 withhold (10,3) 67.
    PLM and EST float only in SR 3, so they stay put until then.
    SR 1 (P4 first): P4 par MID 79; P1, P2 MID; P3 par EST 67; P4, P1 MID (MID floats).
    Cash P1 317, P2 351, P3 216, P4 303 -> P2, P1, P4, P3; after OR 1 and P2's sale (76) still that order.
    SR 3: P2, P1, P4 PLM; P3 EST; P2 PLM (floats); P1, P4, P3 EST (floats)."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P4 MID 79", "buy P1 MID", "buy P2 MID", "par P3 EST 67", "buy P4 MID", "buy P1 MID")
    end_sr(g)
    play_or(g, {"MID": ["withhold MID 0", "done MID --no-route"]})
    turns(g, "sell P2 MID 1")
    play_or(g, {"MID": ["withhold MID 0", "done MID --no-route"]})
    assert cell(g, "MID") == (10, 3) and price(g, "MID") == 67
    turns(g, "buy P2 PLM", "buy P1 PLM", "buy P4 PLM", "buy P3 EST", "buy P2 PLM", "buy P1 EST", "buy P4 EST",
          "buy P3 EST")
    assert all(g.state.corps[c].floated for c in ("PLM", "EST", "MID"))
    end_sr(g)
    return g


def test_e8_equal_prices_further_right_then_stack_order():
    """E8: "A at (4,3) = 101, B at (7,7) = 101, C at (10,9) = 101 all operate C, B, A (further right
    first). If D sits on top of C in the same cell, the order is D, C, B, A." Here at 67: PLM on top of
    EST in (13,7) (column 7), MID in (10,3) (column 3): PLM, EST, MID."""
    g = e8_position()
    assert [cell(g, c) for c in ("PLM", "EST", "MID")] == [(13, 7), (13, 7), (10, 3)]
    seen = []
    for _ in range(3):
        seen.append(corp_now(g))
        idle(g)
    assert seen == ["PLM", "EST", "MID"]


def test_e8_markers_moved_this_or_go_over_earlier_moved_ones():
    """E8 / rules §8.2: a marker that moves in an OR is placed "under other face-up stock price markers
    and on top of other face-down stock price markers". In OR 3.1 PLM, then EST, withhold from (13,7)
    to (13,6) = 64: EST lands on top of the face-down PLM. MID goes to (10,2) = 64. OR 4.1 order:
    (13,6) before (10,2) (further right), and in (13,6) EST before PLM."""
    g = e8_position()
    play_or(g)
    assert cell(g, "PLM") == cell(g, "EST") == (13, 6) and cell(g, "MID") == (10, 2)
    end_sr(g)
    seen = []
    for _ in range(3):
        seen.append(corp_now(g))
        idle(g)
    assert seen == ["EST", "PLM", "MID"]


def test_e8_a_moving_marker_lands_under_face_up_markers():
    """E8: "if B pays and moves to (7,8) = 111, it lands face-down under any face-up markers there."
    Here MID (par 73) withholds in OR 1 to (11,5) = 69 and buys a 2+1, then pays in OR 2 back to
    (11,6) = 73, where OU (par 73 in SR 1, not floated: its marker is face up) sits: MID goes under OU.
    OU floats in SR 3; in OR 3.1 OU operates before MID.
    SR 1 (P4 first): P4 par MID 73; P1, P2 MID; P3 par OU 73; P4, P1 MID (floats 730). Order P2, P1, P4, P3.
    SR 3: P2, P1, P4, P3 buy OU (floats)."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P4 MID 73", "buy P1 MID", "buy P2 MID", "par P3 OU 73", "buy P4 MID", "buy P1 MID")
    end_sr(g)
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    assert cell(g, "MID") == (11, 5) and cell(g, "OU") == (11, 6)
    play_or(g, {"MID": ["pay MID 100", "done MID"]})
    assert cell(g, "MID") == (11, 6)
    turns(g, "buy P2 OU", "buy P1 OU", "buy P4 OU", "buy P3 OU")
    assert g.state.corps["OU"].floated
    end_sr(g)
    assert corp_now(g) == "OU"
    idle(g)
    assert corp_now(g) == "MID"


@pytest.mark.parametrize("start, end", [
    ((4, 0), (5, 0)),      # 87, left end -> 81
    ((13, 0), (13, 0)),    # 47, corner: no move
    ((14, 1), (15, 1)),    # 47, left end -> 43
    ((15, 1), (15, 1)),    # 43, corner
    ((16, 2), (17, 2)),    # 43 -> 40
    ((17, 2), (17, 2)),    # 40, corner
])
def test_e9_withholding_at_the_edges(start, end):
    """E9: withholding at the left end of a row moves down; at a bottom-left corner it does not move."""
    g = game()
    assert market.move(g.rs, start, "withhold") == end


@pytest.mark.parametrize("start, end", [
    ((5, 13), (4, 13)),    # 234 -> 251
    ((8, 10), (7, 10)),    # 138 -> 138 (draft anomaly)
    ((1, 14), (0, 14)),    # 454 -> 500
    ((0, 13), (0, 14)),    # 420 -> 500
])
def test_e10_paying_at_the_right_edge(start, end):
    """E10: paying at the right end of a row moves up one row."""
    g = game()
    assert market.move(g.rs, start, "pay") == end
    if end == (0, 14):
        assert g.rs.market[end].price == 500


@pytest.mark.parametrize("start, end", [
    ((3, 5), (2, 5)),      # 124 -> 133
    ((0, 5), (1, 6)),      # 167, top row: down-right to 164
    ((1, 14), (0, 14)),    # 454 -> 500
])
def test_e11_sold_out_moves(start, end):
    """E11: sold out at the end of an SR: up one row; on the top row one row down and one column right."""
    g = game()
    assert market.move(g.rs, start, "sold_out") == end


def test_e11_sold_out_at_the_end_of_a_stock_round():
    """E11 / rules §7.7: a company 100 % owned by players at the end of an SR moves up one row:
    PLM (par 67 through LM, (13,7)) with all eight 10 % certificates bought in SR 1 goes to (12,7) = 72."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "buy P4 PLM", "buy P1 PLM", "buy P2 PLM", "buy P3 PLM", "buy P4 PLM", "buy P1 PLM", "buy P2 PLM",
          "buy P3 PLM")
    assert pct(g, "ipo", "PLM") == 0 and pct(g, "pool", "PLM") == 0
    assert cell(g, "PLM") == (13, 7)
    end_sr(g)
    assert cell(g, "PLM") == (12, 7) and price(g, "PLM") == 72
