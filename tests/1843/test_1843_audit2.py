"""1843 second audit: the title's own machinery, section by section of the digest, each figure worked by
hand from the rulebook (seed 000, the June 2016 LyX; section numbers of seed 001). It adds to the first
audit (test_1843_audit.py) and the digest's worked cases (test_1843_edge_cases.py) what they leave out:
the auction's bidding war of three, the free take before anyone bought, a raised own bid, the reduction
on the last private; the pars of each phase; the market's remaining edges; the station move's limits;
Val de Loire's conversion against the limit and the Engineers' step; an obsolete last train; rusted
certificates between companies; privates never between companies; a tie at the top of the score.
Openings and readers: openings_1843.py.
"""

from __future__ import annotations

import importlib

import pytest

from ledger.core.rules import market
from openings_1843 import (P4, P5, cash, cell, chain, closed, corp_now, end_sr, owner, pct, phase, play_or,
                           refused, round_kind, standard_auction, supply_left, to_turn, train_sides, turn, turns,
                           until_turn)
from openings_1843 import table as game

relics = importlib.import_module("rulesets.1843.relics")  # the title's package name starts with a digit

FORCE = "--force --reason 'test position'"


# =========================================================================== §6: the private auction


def test_three_bidders_raise_in_the_order_of_increasing_bids():
    """§6.2: "Each player, in rotating order of increasing bids and starting with the player with the lowest
    bid, either raises ... or passes". P1 45, P2 50, P3 55 on Saint-Germain; P4 buys Toulouse (15), P1
    Ceinture (20): the war. P1 (45, lowest) raises to 60; P2 (50) to 70; P3 (55) passes; P1 (60) passes:
    P2 pays 70. Havre has no bid: P2, after P1 the last face buyer, is next (§6.2)."""
    g = game()
    g.do("bid P1 SG 45", "bid P2 SG 50", "bid P3 SG 55", "buy P4 TB", "buy P1 CEI")
    assert turn(g) == "P1"
    refused(g, "bid P2 SG 60", match="lowest")
    g.do("bid P1 SG 60")
    assert turn(g) == "P2"
    refused(g, "bid P2 SG 62", match="5")
    g.do("bid P2 SG 70")
    assert turn(g) == "P3"
    g.do("pass P3")
    assert turn(g) == "P1"
    g.do("pass P1")
    assert owner(g, "SG") == "P2"
    assert {p: cash(g, p) for p in P4} == {"P1": 580, "P2": 530, "P3": 600, "P4": 585}
    assert round_kind(g) == "auction" and turn(g) == "P2"


def test_a_free_take_before_anyone_bought_goes_to_card_one():
    """§6.2: three all-pass rounds take Toulouse 15 -> 10 -> 5 -> 0 and discard three yellows; at 0fr "the
    next player must buy it at no cost". Nobody has bought yet, so the rotation carries on from card #1
    (D4.5): P1 takes it free, and P2, after him, is next. Toulouse pays 0: nobody's cash moved."""
    g = game()
    for _ in range(8):
        g.do(f"pass {turn(g)}")
    assert g.state.privates["TB"].price == 5 and supply_left(g, "yellow") == 4
    for _ in range(4):
        g.do(f"pass {turn(g)}")
    assert owner(g, "TB") == "P1" and supply_left(g, "yellow") == 3
    assert {p: cash(g, p) for p in P4} == {p: 600 for p in P4}
    assert turn(g) == "P2"


def test_a_raised_own_bid_replaces_the_old_one():
    """A2: a player may raise his own live bid; the new bid replaces the old. P1 bids 65 then 70 on Havre
    (§6.1: a multiple of 5 above the top bid, his own included); when Saint-Germain is bought Havre's one
    bid resolves: P1 pays 70, not 135."""
    g = game()
    g.do("bid P1 HAV 65", "pass P2", "pass P3", "pass P4")
    refused(g, "bid P1 HAV 65", match="70")
    g.do("bid P1 HAV 70", "buy P2 TB", "buy P3 CEI", "buy P4 SG")
    assert owner(g, "HAV") == "P1" and cash(g, "P1") == 530


def test_the_reduction_falls_on_the_last_private_and_its_buyer_opens_the_first_stock_round():
    """§6.2: with only Lyon-Mediterranee left, two all-pass rounds are two brief ORs: every owned private
    pays its owner (P1 TB 0 + VDL 20, P2 CEI 5 + BA 25, P3 SG 10, P4 HAV 15, each time), a yellow goes
    (4 left) and "the lowest un-bought private" drops 5fr twice: 210 -> 200. It is never bid on, only
    bought (the cheapest). P3, after P2 the last buyer, buys it for 200 and must set PLM's par first
    (§6.3); then the stock round opens with P4, the player after him (§6.2).
    Cash: P1 600 - 15 - 110 + 40 = 515; P2 600 - 20 - 150 + 60 = 490; P3 600 - 40 + 20 - 200 = 380;
    P4 600 - 60 + 30 = 570."""
    g = game()
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P1 VDL", "buy P2 BA")
    for _ in range(8):
        g.do(f"pass {turn(g)}")
    assert g.state.privates["LM"].price == 200 and supply_left(g, "yellow") == 4
    assert turn(g) == "P3"
    refused(g, "bid P3 LM 215", match="cheapest")
    g.do("buy P3 LM")
    assert {p: cash(g, p) for p in P4} == {"P1": 515, "P2": 490, "P3": 380, "P4": 570}
    refused(g, "pass P4", match="par")
    g.do("par P3 PLM 94")
    assert cell(g, "PLM") == (5, 3) and pct(g, "P3", "PLM") == 20
    assert round_kind(g) == "stock" and turn(g) == "P4"


# =========================================================================== §7.4, T2: pars and the director


def test_the_pars_each_phase_opens():
    """T2, §7.4: yellow pars in yellow; green adds 86/94; blue adds 105; brown adds 120 (no gray pars). The
    director's certificate comes first (§7.3) and costs 2 x par. Green (SR 2 of the train era): 105 and
    120 refused; blue (SR 4): 105 taken, 120 refused; brown (SR 5): 120 for 240 on its box (1,1)."""
    green = chain("or1")
    assert phase(green) == "green" and turn(green) == "P4"
    refused(green, "par P4 PO 105", match="blue par")
    refused(green, "par P4 PO 120", match="brown par")
    refused(green, "buy P4 PO", match="not been started")
    # a price that is no par at all: the hint lists the pars open now (yellow and green's)
    assert refused(green, "par P4 PO 70", match="not a par price").hint == "pars open now: 67, 73, 79, 86, 94"
    blue = chain("set3")
    assert phase(blue) == "blue" and turn(blue) == "P1"
    refused(blue, "par P1 PO 120", match="brown par")
    had = cash(blue, "P1")
    blue.do("par P1 PO 105")
    assert had - cash(blue, "P1") == 210 and cell(blue, "PO") == (3, 2)
    brown = chain("or4.2")
    assert phase(brown) == "brown" and round_kind(brown) == "stock" and turn(brown) == "P3"
    brown.do("par P3 PO 120")
    assert cash(brown, "P3") == 1670 - 240 and cell(brown, "PO") == (1, 1)


# =========================================================================== §7.7: the grid's remaining edges


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


# =========================================================================== §8.5.2: moving a station


def test_a_station_move_is_gray_only_costs_100_and_is_the_turns_station():
    """§8.5.2: "In gray phase, each company, once per game, may move one of its ... station markers ... for
    a cost of 100fr"; §8.3 step 3: place OR move a station OR claim a port, before the run. ETA cannot in
    red (OR 6.2); it buys the first Electric (gray). MID (350): the move costs exactly 100 (250 left), and
    then neither a station nor a port claim; a station first bars the move; after the run, no move."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    refused(g, "token ETA --move", match="gray")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    until_turn(g, "MID")
    assert phase(g) == "gray" and cash(g, "MID") == 350
    refused(g, "token MID --move 90", match="100")
    moved = g.copy()
    moved.do("token MID --move")
    assert cash(moved, "MID") == 250
    refused(moved, "token MID", match="station")
    refused(moved, "port MID bordeaux", match="station")
    placed = g.copy()
    placed.do("token MID")
    refused(placed, "token MID --move", match="station")
    g.do("withhold MID 0")
    refused(g, "token MID --move", match="before running")


# =========================================================================== §10: privates


def five_player_plm_operating():
    """5 players (480 each): P1 TB, P2 CEI, P3 SG, P4 HAV, P5 VDL, P1 BA, P2 LM (PLM par 67); SR 1: P3, P4,
    P5, P1 buy PLM (floats 670); OR 1.1, yellow, PLM's turn."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM" and cash(g, "PLM") == 670
    return g


def test_val_de_loire_made_a_2_train_obeys_the_train_limit():
    """A15: the conversion "obeys the train limit". PLM (5 players, yellow 4/4) buys four 2+1 (170 left):
    Val de Loire may not become a fifth train; it stays with P5."""
    g = five_player_plm_operating()
    g.do("withhold PLM 0", "train PLM 2+1", "train PLM 2+1", "train PLM 2+1", "train PLM 2+1")
    assert cash(g, "PLM") == 170
    error = refused(g, "buy-private PLM VDL 110 --as-train", match="limit")
    assert "4 trains on 4 certificates" in error.message and "yellow" in error.message, error.message
    assert owner(g, "VDL") == "P5" and not closed(g, "VDL")


def test_no_private_changes_hands_between_companies():
    """§10.1, A10: companies buy privates from players only. ETA buys Ceinture from P2 (OR 2.1, green);
    OU may not buy it from ETA."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "done PLM"]})
    g.do("buy-private ETA CEI 40", "withhold ETA 0", "done ETA")
    until_turn(g, "OU")
    refused(g, "buy-private OU CEI 10", match="player")
    assert owner(g, "CEI") == "ETA"


def mid_with_val_de_loire():
    """OR 2.1 of the train era (green), MID's turn: MID (545, one 2+1) buys Val de Loire from P1 for 110."""
    g = chain("sr2")
    until_turn(g, "MID", {"PLM": ["withhold PLM 0", "done PLM --no-route"]})
    g.do("buy-private MID VDL 110")
    assert cash(g, "MID") == 435 and train_sides(g, "MID") == ["2+1"]
    return g


def test_the_engineers_are_named_in_the_train_step():
    """§10.2 Val de Loire, Use: "may preserve a train during the train-buying step": not before the run;
    after it, on a train bought in that step too (a 4+1 for 300: 135 left)."""
    g = mid_with_val_de_loire()
    refused(g, "use MID VDL 2+1", match="train step")
    g.do("withhold MID 0", "train MID 4+1", "use MID VDL 4+1")
    assert closed(g, "VDL") and cash(g, "MID") == 135


def test_an_obsolete_last_train_leaves_the_company_owing_a_train():
    """§10.2, A27: an obsolete certificate runs once more and is "discarded immediately before the
    train-buying step"; it never meets the must-own-a-train rule (§8.8.1). OR 2.1: PLM and ETA withhold
    1000 and buy two 4+1 each (one green left), MID marks its only train, its 2+1. OR 2.2: PLM buys the
    last 4+1 and the first 5+2 (blue: the yellows rust, MID's 2+1 goes obsolete) and puts a 4+1 in the
    pool (3/3). MID runs the 2+1 for 60 (P2 40 % 24, P1 and P4 10 % 6 each), then has no train: it must
    buy the pool's 4+1 (300 of its 435)."""
    g = chain("sr2")
    play_or(g, {
        "PLM": [f"withhold PLM 1000 {FORCE}", "train PLM 4+1", "train PLM 4+1", "done PLM"],
        "ETA": [f"withhold ETA 1000 {FORCE}", "train ETA 4+1", "train ETA 4+1", "done ETA"],
        "MID": ["buy-private MID VDL 110", "withhold MID 0", "use MID VDL 2+1", "done MID"],
    })
    assert supply_left(g, "green") == 1 and corp_now(g) == "PLM"
    g.do("withhold PLM 0", "train PLM 4+1", "train PLM 5+2", "discard PLM 4+1", "done PLM")
    assert phase(g) == "blue" and corp_now(g) == "MID" and train_sides(g, "MID") == ["2+1"]
    before = {p: cash(g, p) for p in P4}
    g.do("pay MID 60")
    assert {p: cash(g, p) - before[p] for p in P4} == {"P1": 6, "P2": 24, "P3": 0, "P4": 6}
    assert train_sides(g, "MID") == [] and cash(g, "MID") == 435
    refused(g, "done MID", match="must buy")
    g.do("train MID 4+1 --from pool", "done MID")
    assert cash(g, "MID") == 135 and train_sides(g, "MID") == ["4+1"]


# =========================================================================== §15.6, §8.8.1: rusted certificates


def gray_mid_turn():
    """OR 6.2 of the train era: ETA buys the first Electric (gray); SO buys a
    rusted 2+1 (125) and an Electric (900). MID (350, no train) is next."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    until_turn(g, "SO")
    g.do("withhold SO 0", "train SO 2+1", "train SO TGV", "done SO")
    until_turn(g, "MID")
    assert phase(g) == "gray" and cash(g, "MID") == 350 and train_sides(g, "SO") == ["2+1", "TGV"]
    return g


def test_at_gray_every_single_certificate_returns():
    """§15.6: "All yellow, blue, green, red and brown single trains are returned to the supply" -- every one,
    those the foreigners and the companies' rusting took too: yellow 6, green 7, blue 7, brown 6, red 6 (32);
    not Val de Loire's "2" (no supply train) and no Electric. ETA buys the first Electric in OR 6.2."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV")
    assert phase(g) == "gray"
    left = {name: len(relics.relics_left(g.state, name)) for name in ("yellow", "green", "blue", "brown", "red",
                                                                      "gray", "2")}
    assert left == {"yellow": 6, "green": 7, "blue": 7, "brown": 6, "red": 6, "gray": 0, "2": 0}
    assert supply_left(g, "gray") == 17


def test_a_second_rusted_certificate_is_refused_from_another_company_too():
    """§8.8.1: "A company cannot own more than one rusted train certificate" -- they "may be bought between
    companies in the normal manner", so the cap holds there too. MID (withholding 600: 950) buys a rusted
    5+2 from the supply (350: 600 left); SO's rusted 2+1 is then refused at any price."""
    g = gray_mid_turn()
    g.do(f"withhold MID 600 {FORCE}", "train MID 5+2")
    assert cash(g, "MID") == 600
    refused(g, "train MID 2+1 --from SO --price 1", match="at most 1")
    assert train_sides(g, "MID") == ["5+2"] and train_sides(g, "SO") == ["2+1", "TGV"]


def test_a_rusted_certificate_from_another_company_counts_as_the_one():
    """§8.8.1: SO's rusted 2+1 bought by MID for 100 (its treasury alone) is MID's one rusted certificate:
    no rusted 5+2 from the supply after it, and it does not meet the must-own-a-train rule."""
    g = gray_mid_turn()
    g.do("withhold MID 0")
    refused(g, "train MID 2+1 --from SO --price 400", match="treasury alone")
    g.do("train MID 2+1 --from SO --price 100")
    assert cash(g, "MID") == 250 and train_sides(g, "MID") == ["2+1"]
    refused(g, "train MID 5+2", match="at most 1")
    refused(g, "done MID", match="must buy")


# =========================================================================== §8.10.2: the score


def test_a_tie_at_the_top_stands():
    """§8.10.2: "There is no tie-breaker." 3 players (800): three all-pass rounds give P1 Toulouse free
    (3 yellows gone); two more take Ceinture to 10 (5 gone); P2, after P1, buys it for 10; a sixth brief OR
    pays P2 Ceinture's 5 and discards the last yellow: the game ends (§8.10.1 #2). P1 800 + 15 = 815,
    P2 795 + 20 = 815, P3 800: P1 and P2 share first place."""
    g = game(["P1", "P2", "P3"])
    for _ in range(15):
        g.do(f"pass {turn(g)}")
    assert owner(g, "TB") == "P1" and g.state.privates["CEI"].price == 10 and supply_left(g, "yellow") == 1
    assert turn(g) == "P2"
    g.do("buy P2 CEI", "pass P3", "pass P1", "pass P2")
    assert g.state.game_over
    score = g.score()
    assert {p: (score[p]["cash"], score[p]["value"], score[p]["rank"]) for p in score} == {
        "P1": (800, 815, 1), "P2": (795, 815, 1), "P3": (800, 800, 3)}


# =========================================================================== A13: Val de Loire in a stock round


def test_val_de_loire_is_not_exchanged_for_a_company_sold_this_round():
    """A13: the exchange is the turn's purchase, so "a player who sold ... cannot buy that company again in
    this SR" holds; a director half takes a par open in the phase (yellow: 67, 73, 79) and costs 1 x par.
    SR 2 of a game where P1 holds 10 % of MID (par 67): P1 sells it, then VDL for MID is refused; VDL for
    EST at 86 (green) is refused; at 67 P1 pays 67 (428 -> 361) and holds EST's 20 %."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P2 MID", "buy P3 MID", "buy P4 MID")
    end_sr(g)
    play_or(g)
    to_turn(g, "P1")
    assert cash(g, "P1") == 428
    sold = g.copy()
    sold.do("sell P1 MID 1")
    refused(sold, "exchange P1 VDL MID", match="sold MID")
    refused(g, "exchange P1 VDL EST --par 86", match="green par")
    g.do("exchange P1 VDL EST --par 67")
    assert cash(g, "P1") == 361 and pct(g, "P1", "EST") == 20 and closed(g, "VDL")


# =========================================================================== §10.1, §15.4: privates close at brown


def test_a_company_owned_private_closes_at_brown_and_stops_paying():
    """§10.1, §15.4: "All the private companies close immediately at the start of brown phase", a company's
    too. OR 4.1 (blue): MID buys Ceinture from P2 for 40 (595 - 40 = 555 after its 5+2). OR 4.2 starts
    with Ceinture's 5 to MID (560) and Boulogne-Amiens' 25 to P2; NOR buys the first brown: Ceinture closes. OR 5.1 pays MID nothing."""
    g = chain("sr4")
    p2 = cash(g, "P2")
    play_or(g, {
        "SO": ["withhold SO 0", "train SO 4/6x2", "train SO 5+2", "done SO"],
        "NOR": ["withhold NOR 0", "train NOR 4/6x2", "done NOR"],
        "MID": ["buy-private MID CEI 40", "withhold MID 0", "train MID 5+2", "done MID"],
    })
    # the end of OR 4.1 starts OR 4.2, whose first step pays Ceinture's 5 to MID (§8.1): 555 + 5; P2 has
    # the 40 and Boulogne-Amiens' 25, no longer Ceinture's 5
    assert owner(g, "CEI") == "MID" and cash(g, "MID") == 560 and cash(g, "P2") - p2 == 40 + 25
    until_turn(g, "SO")
    g.do("withhold SO 0", "done SO")
    until_turn(g, "NOR")
    g.do(f"withhold NOR 1000 {FORCE}", "train NOR 5E")
    assert phase(g) == "brown" and closed(g, "CEI")
    g.do("done NOR")
    until_turn(g, "MID")
    assert (g.state.round["set"], g.state.round["index"]) == (4, 2)
    g.do("withhold MID 0", "done MID")
    until_turn(g, "MID")
    assert (g.state.round["set"], g.state.round["index"]) == (5, 1) and cash(g, "MID") == 560
