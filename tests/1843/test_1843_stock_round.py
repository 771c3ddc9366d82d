"""1843's stock rounds (RULES §7): the pars each phase opens (T2, §7.4), the turn's one certificate, no sale
in the first round, the float at 60 % sold, the director's certificate on a buy and on a sale, the 60 %
holding limit by zone, the pool's 50 % and its prices, and the seats re-dealt by cash (§7.1).
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import (cash, cell, certs, chain, e19_position, end_sr, mid_floated, opened, order, pct, phase,
                           play_or, president, refused, round_kind, standard_auction, to_turn, turn, turns)
from openings_1843 import table as game


def test_par_only_yellow_in_yellow_phase():
    """§7.4, T2: only yellow pars in yellow (67, 73, 79); the director's certificate costs 2 x par."""
    g = opened()
    to_turn(g, "P4")
    refused(g, "par P4 MID 86", match="86")
    refused(g, "par P4 MID 105", match="105")
    g.do("par P4 MID 79")
    assert cash(g, "P4") == 540 - 158


def test_par_is_the_turns_one_purchase():
    """§7.3: parring is buying the director's certificate: the turn's one certificate."""
    g = opened()
    to_turn(g, "P4")
    g.do("par P4 MID 67")
    refused(g, "buy P4 MID")


def test_no_sale_in_first_sr():
    """§7.2: no selling in the first stock round after the auction."""
    g = opened()
    to_turn(g, "P3")
    refused(g, "sell P3 PLM 1")


def test_float_at_60_percent_sold():
    """§7.4: a company floats when no more than 40 % is left in the IPO, with 10 x par from the
    bank."""
    g = opened()
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P2 MID", "buy P3 MID")
    assert not g.state.corps["MID"].floated
    turns(g, "buy P4 MID")
    assert g.state.corps["MID"].floated
    assert cash(g, "MID") == 670


def test_director_change_on_buy_strictly_more():
    """§7.5: a buyer becomes director only with strictly more than the director; two 10 %s for the
    20 %."""
    g = opened()
    # P4 par MID 67 (20%); P1 buys 10, 10: equal 20 -> no change; P1 30 -> P1 director
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P1 MID")
    assert president(g, "MID") == "P4"
    turns(g, "buy P1 MID")
    assert president(g, "MID") == "P1"
    assert certs(g, "P1", "MID") == [20, 10] and certs(g, "P4", "MID") == [10, 10]


def test_director_cannot_sell_into_a_tie():
    """§7.5: the director's certificate never goes to the pool; it passes only to a player holding
    strictly more."""
    g = mid_floated()
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    assert round_kind(g) == "stock"
    to_turn(g, "P4")
    had = cash(g, "P4")
    g.do("sell P4 MID 1")   # 30 -> 20, others 10: keeps the director certificate
    assert cash(g, "P4") == had + 64 and president(g, "MID") == "P4"
    refused(g, "sell P4 MID 1")  # 20 -> 10 would tie P1/P2/P3 at 10: nobody holds strictly more


def test_sixty_percent_cap():
    """§7.3: at most 60 % of a company (white zone, here its par box)."""
    g = opened()
    turns(g, "par P4 MID 67", "buy P4 MID", "buy P4 MID", "buy P4 MID", "buy P4 MID")
    assert pct(g, "P4", "MID") == 60
    to_turn(g, "P4")
    refused(g, "buy P4 MID", match="60")


def test_past_sixty_percent_in_the_orange_zone_one_certificate_a_turn():
    """§7.3: more than 60 % of a company whose marker is in the orange section, but one certificate per
    turn (several only in brown). MID at (17,4) = 44o in SR 4 (the E19 path): P1 (20 %) buys four pool
    shares at 44 on four turns, then a fifth (IPO, par 67): 70 %."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 67", "buy P2 MID", "buy P3 MID", "buy P4 MID", "buy P1 MID", "buy P2 MID")
    end_sr(g)
    play_or(g)
    turns(g, "sell P2 MID 1", "sell P3 MID 1")
    play_or(g)
    turns(g, "sell P4 MID 1", "sell P1 MID 1")
    play_or(g)
    assert cell(g, "MID") == (17, 4) and pct(g, "P1", "MID") == 20
    had = cash(g, "P1")
    to_turn(g, "P1")
    g.do("buy P1 MID --pool")
    refused(g, "buy P1 MID --pool", match="one certificate per turn")
    turns(g, "buy P1 MID --pool", "buy P1 MID --pool", "buy P1 MID --pool", "buy P1 MID")
    assert pct(g, "P1", "MID") == 70 and had - cash(g, "P1") == 4 * 44 + 67


def test_sixty_percent_still_holds_in_the_yellow_zone():
    """§7.3 lifts the 60 % cap only in orange and brown; §7.6 frees yellow from the certificate limit
    only. MID at (15,5) = 53y in SR 3 (the E19 path): P1 (30 %) buys three, then no fourth."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 67", "buy P2 MID", "buy P3 MID", "buy P4 MID", "buy P1 MID", "buy P2 MID")
    end_sr(g)
    play_or(g)
    turns(g, "sell P2 MID 1", "sell P3 MID 1")
    play_or(g)
    assert cell(g, "MID") == (15, 5) and pct(g, "P1", "MID") == 30
    turns(g, "buy P1 MID --pool", "buy P1 MID --pool", "buy P1 MID")
    assert pct(g, "P1", "MID") == 60
    to_turn(g, "P1")
    refused(g, "buy P1 MID", match="60%")


def test_a_sale_may_not_take_the_pool_past_half():
    """§7.2: never more than 50 % of a company in the pool."""
    g = e19_position()          # MID: pool 50 %, P1 20 %
    to_turn(g, "P1")
    refused(g, "sell P1 MID 1", match="50")


def test_pool_purchase_at_the_current_price():
    """§7.3: a pool certificate costs the current price (59 after the sale), not par."""
    g = mid_floated()
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    turns(g, "sell P1 MID 1")         # 64 -> (14,6) = 59
    had = cash(g, "P2")
    turns(g, "buy P2 MID --pool")
    assert cash(g, "P2") == had - 59


def test_sell_after_buying_in_the_same_turn():
    """§7.1: sell, buy one certificate, sell again in one turn; §7.3: no buying back what was sold."""
    g = mid_floated()
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    to_turn(g, "P2")
    had = cash(g, "P2")
    g.do("buy P2 MID")                 # IPO at par 67
    g.do("sell P2 MID 2")              # sell, buy, sell (§7.1): 2 x 64 at the pre-sale price (A4)
    assert cash(g, "P2") == had - 67 + 128
    refused(g, "buy P2 MID")           # one certificate per turn, and sold this round (§7.3)


def test_end_of_sr_order_by_descending_cash():
    """§7.1: the cards are re-dealt by descending cash at the end of the SR."""
    g = opened()
    # cash P1 475, P2 430, P3 350, P4 540 -> P4, P1, P2, P3
    end_sr(g)
    assert order(g) == ["P4", "P1", "P2", "P3"]


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
