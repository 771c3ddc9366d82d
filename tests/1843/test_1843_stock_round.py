"""1843's stock rounds (RULES §7): the pars each phase opens (T2, §7.4), the turn's one certificate, no sale
in the first round, the float at 60 % sold, the director's certificate on a buy and on a sale, the 60 %
holding limit by zone, the pool's 50 % and its prices, and the seats re-dealt by cash (§7.1).
The digest's worked cases E17-E19 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from conftest import Table
from openings_1843 import (P6, cash, cell, certs, certs_held, chain, e19_position, end_sr, mid_floated, opened, order,
                           pct, phase, play_or, president, price, refused, round_kind, standard_auction,
                           table as game, to_turn, turn, turns)


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


# --------------------------------------------------------------------------- E17-E19: the digest's stock-round cases

def test_e17_directorship_change_on_a_sale_with_a_tie():
    """E17: "P1 (card #3) holds 30%: the director certificate plus 10%. P2 and P3 (card #4) hold 20%.
    P1 sells 20%. P2 and P3 would tie with 20%, and the next card after #3 is #4, so P3 becomes director:
    P3 hands over two 10%s and takes the director certificate; P1 sells those two 10%s, which go to the
    pool; the price drops 2 rows." (Here P2 holds card #2 rather than #1: the point is that #4 comes
    before #2 after #3.) SR 1 (P4 first): P1 par MID 67, P2, P3, P1, P2, P3 buy. Cash P1 274, P2 296,
    P3 216, P4 540 -> cards P4, P2, P1, P3. OR 1: MID withholds to (13,6) = 64."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 67", "buy P2 MID", "buy P3 MID", "buy P1 MID", "buy P2 MID", "buy P3 MID")
    end_sr(g)
    assert order(g) == ["P4", "P2", "P1", "P3"]
    play_or(g, {"MID": ["withhold MID 0", "done MID --no-route"]})
    assert cell(g, "MID") == (13, 6) and cash(g, "P1") == 294
    turns(g, "sell P1 MID 2")
    assert president(g, "MID") == "P3"
    assert certs(g, "P3", "MID") == [20]
    assert certs(g, "P2", "MID") == [10, 10]
    assert certs(g, "P1", "MID") == [10]
    assert pct(g, "pool", "MID") == 20
    assert cash(g, "P1") == 294 + 2 * 64
    assert cell(g, "MID") == (15, 6) and price(g, "MID") == 55


def test_e17_the_swapped_shares_go_to_the_pool_within_its_limit():
    """E17: "P1 sells those two 10%s, which go to the pool (pool limit checked)" (A26). MID: P1 30 %
    (director), P2, P3, P4 20 % each; in SR 2 P4 and P3 sell two each (pool 40 %). P1 selling 20 % would
    hand MID to P2 and put 60 % in the pool: refused. Selling 10 % (pool 50 %, P1 and P2 tie) is fine."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 67", "buy P2 MID", "buy P3 MID", "buy P4 MID", "buy P1 MID", "buy P2 MID", "buy P3 MID",
          "buy P4 MID")
    end_sr(g)
    assert order(g) == ["P4", "P2", "P1", "P3"]
    play_or(g)
    turns(g, "sell P4 MID 2", "sell P3 MID 2")
    assert pct(g, "pool", "MID") == 40
    to_turn(g, "P1")
    refused(g, "sell P1 MID 2", match="50|pool")
    g.do("sell P1 MID 1")
    assert president(g, "MID") == "P1" and pct(g, "pool", "MID") == 50


def e18_position() -> Table:
    """E18 (6 players, limit 12): "A player with 12 certificates can still buy the company at (8,2) = 73y,
    which is in the yellow zone, from the pool at 73 or from the IPO at par. Those certificates don't
    count. If that company later pays and moves to (8,3) = 77 (white), the player may now be over 12. They
    must sell down at their next opportunity. A company on the yellow par box (9,5) = 79 is not exempt."
    Auction: P2 buys TB, CEI, SG, HAV (265 left); P3 VDL, P4 BA, P5 LM (PLM par 86).
    SR 1 (P6 first): P6, P1 PLM; P2 par SO 67; P3, P4 PLM (PLM floats); P6 par MID 79 (not floated);
    P1, P2, P3 SO; P6 SO (SO floats). Cash P1 247, P2 64, P3 137, P4 164, P5 190, P6 89.
    OR 1: PLM withholds to (7,3) = 82 and buys a 2+1; SO withholds and buys a 2+1. SR 2: P1 sells a PLM
    share: (8,3) = 77. OR 2: PLM withholds to (8,2) = 73 (yellow zone); SO pays 10000 (P2: 3000).
    SR 3: P2 (4 privates + SO director + 10 %) buys three SO, two MID and pars OU: 12 certificates;
    at the limit he cannot buy MID (par box) but buys PLM from the pool (73) and the IPO (86).
    OR 3: PLM pays to (8,3) = 77. Returns the game at P2's turn in SR 4, P2 holding 14 certificates."""
    g = game(P6)
    g.do("pass P1", "buy P2 TB")
    for private in ("CEI", "SG", "HAV"):
        g.do("pass P3", "pass P4", "pass P5", "pass P6", "pass P1", f"buy P2 {private}")
    g.do("buy P3 VDL", "buy P4 BA", "buy P5 LM", "par P5 PLM 86")
    assert cash(g, "P2") == 265
    turns(g, "buy P6 PLM", "buy P1 PLM", "par P2 SO 67", "buy P3 PLM", "buy P4 PLM", "par P6 MID 79",
          "buy P1 SO", "buy P2 SO", "buy P3 SO", "buy P6 SO")
    assert g.state.corps["PLM"].floated and g.state.corps["SO"].floated and not g.state.corps["MID"].floated
    end_sr(g)
    assert order(g) == ["P1", "P5", "P4", "P3", "P6", "P2"]
    play_or(g, {"PLM": ["withhold PLM 0", "train PLM 2+1", "done PLM"],
                "SO": ["withhold SO 0", "train SO 2+1", "done SO"]})
    turns(g, "sell P1 PLM 1")
    assert cell(g, "PLM") == (8, 3)
    play_or(g, {"PLM": ["withhold PLM 0", "done PLM"],
                "SO": ["pay SO 10000 --force --reason 'test position'", "done SO"]})
    assert cell(g, "PLM") == (8, 2) and price(g, "PLM") == 73
    assert cell(g, "SO") == (13, 7) and cash(g, "P2") == 64 + 30 + 30 + 3000
    turns(g, "buy P2 SO", "buy P2 SO", "buy P2 SO", "buy P2 MID", "buy P2 MID", "par P2 OU 67")
    assert certs_held(g, "P2") == 12
    to_turn(g, "P2")
    refused(g, "buy P2 MID", match="12|limit|certificate")  # MID on the par box (9,5) counts
    had = cash(g, "P2")
    g.do("buy P2 PLM --pool")
    assert had - cash(g, "P2") == 73
    turns(g, "buy P2 PLM --ipo")
    assert had - cash(g, "P2") == 73 + 86
    assert certs_held(g, "P2") == 14 and pct(g, "P2", "PLM") == 20
    end_sr(g)
    play_or(g, {"PLM": ["pay PLM 100", "done PLM"]})
    assert cell(g, "PLM") == (8, 3) and price(g, "PLM") == 77
    to_turn(g, "P2")
    return g


def test_e18_certificate_limit_and_exempt_zones():
    """E18, up to the price rise: P2 at 12 counted certificates buys PLM at (8,2) = 73y from the pool
    (73) and from the IPO (86) but not MID on its par box; after PLM pays to (8,3) = 77 he holds 14 and may
    not buy; selling the two PLM shares (2 x 77) brings him back to 12. (Position: see e18_position.)"""
    g = e18_position()
    refused(g, "buy P2 MID", match="12|limit|certificate")
    had = cash(g, "P2")
    g.do("sell P2 PLM 2")
    assert cash(g, "P2") - had == 2 * 77
    assert certs_held(g, "P2") == 12
    g.do("pass P2")


def test_e18_over_the_limit_must_sell_at_the_next_opportunity():
    """E18: "the player may now be over 12. They must sell down at their next opportunity" (rules §7.6:
    "they must sell sufficient certificates in their next opportunity"): P2, at 14 of 12, may not pass
    his turn without selling."""
    g = e18_position()
    refused(g, "pass P2", match="12|limit|certificate|sell")


def test_e19_no_buying_after_selling_in_the_same_round():
    """E19: "If the player sold any of this company earlier in the SR, they cannot buy any of it." """
    g = e19_position()
    refused(g, "buy P2 MID", match="sold")
    refused(g, "buy P2 MID 2 --pool", match="sold")


def test_e19_several_pool_certificates_past_60_percent():
    """E19: in the brown zone one action buys as many certificates as the player can afford, and "the
    player may go past 60%": P1 (20 %) takes the pool's five at 42 = 210 and holds 70 %."""
    g = e19_position()
    had = cash(g, "P1")
    turns(g, "buy P1 MID 5 --pool")
    assert had - cash(g, "P1") == 5 * 42
    assert pct(g, "P1", "MID") == 70 and pct(g, "pool", "MID") == 0


def test_e19_pool_and_ipo_certificates_in_one_action():
    """E19: "One action: 3 certificates from the pool at 42 each (126) plus 3 from the IPO at par
    (here 67: 201) = 327" (rules §7.3: "from the bank pool or IPO or both ... in a single action")."""
    g = e19_position()
    had = cash(g, "P1")
    turns(g, "buy P1 MID 3 --pool", "+buy P1 MID 3 --ipo")
    assert had - cash(g, "P1") == 3 * 42 + 3 * 67
    assert pct(g, "P1", "MID") == 80 and pct(g, "ipo", "MID") == 0 and pct(g, "pool", "MID") == 20
