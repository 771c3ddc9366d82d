"""1843: every worked edge case E1-E23 of the rules digest (shared/rules/1843.md §12), as scenarios.

Each test drives a game on the engine through transcript lines (tests/conftest.py `Table`, with the
openings and readers of openings_1843.py, where the numbers used throughout are listed) to the
situation of one edge case, then checks what the digest says happens. Where the digest's exact
position cannot be reached quickly with the table's commands, the test reaches an equivalent one and
says so; every expected figure is worked out by hand from the rules (seed 000, the June 2016 LyX) and
the provisional market grid of the ruleset (digest D7.4), never read back from the engine.
"""

from __future__ import annotations

import pytest
from conftest import Table
from openings_1843 import (OU_EMERGENCY, P4, P5, P6, PRIVATES, bank_cash, cash, cell, certs, certs_held, chain,
                           closed, corp_now, e19_position, end_sr, first_blue, idle, order, owner, pct, pending_corps,
                           phase, play_or, pool_sides, port_owner, president, price, refused, round_kind,
                           sr1_train_era, standard_auction, supply_left, to_turn, train_sides, turn, turns,
                           until_turn, value)
from openings_1843 import table as game

from ledger.core.rules import market

# =========================================================================== E1-E5: the auction


def test_e1_chained_bid_resolution():
    """E1: P1 bids 45 on SG, P2 65 on HAV, P3 50 on SG, P4 buys TB for 15 (CEI has no bids: stop);
    P1 buys CEI for 20 -> SG war: P1 raises to 55, P3 to 60, P1 drops; P3 pays 60. HAV: P2 pays 65.
    VDL has no bids: stop. "Cash afterwards: P1 580, P2 535, P3 540, P4 585. The next turn goes to P2"."""
    g = game()
    g.do("bid P1 SG 45")
    g.do("bid P2 HAV 65")
    g.do("bid P3 SG 50")
    g.do("buy P4 TB")
    assert owner(g, "TB") == "P4" and owner(g, "CEI") is None and owner(g, "SG") is None
    assert cash(g, "P4") == 585
    assert turn(g) == "P1"
    g.do("buy P1 CEI")
    # Saint-Germain has two bids: the lowest bidder acts first
    assert owner(g, "SG") is None
    assert turn(g) == "P1"
    refused(g, "bid P1 SG 52", match="55")  # a raise is a multiple of 5 over the top bid
    g.do("bid P1 SG 55")
    assert turn(g) == "P3"
    g.do("bid P3 SG 60")
    assert turn(g) == "P1"
    g.do("pass P1")
    assert owner(g, "SG") == "P3"
    assert owner(g, "HAV") == "P2"
    assert owner(g, "VDL") is None
    assert {p: cash(g, p) for p in P4} == {"P1": 580, "P2": 535, "P3": 540, "P4": 585}
    assert round_kind(g) == "auction"
    assert turn(g) == "P2"


def test_e1_a_bid_is_allocated_from_cash():
    """E1: "P1 bids 45 on Saint-Germain (minimum 40 + 5). P1 now has 555fr free." """
    g = game()
    g.do("bid P1 SG 45", "pass P2", "pass P3", "pass P4")
    refused(g, "bid P1 LM 560", match="555")
    g.do("bid P1 LM 555")


def test_e2_bid_legality_and_earmarking():
    """E2: "Havre with no bids: 65, 70, ... are legal; 62 is not. With a top bid of 75, the next bid must
    be 80 or more, in steps of 5. Val de Loire's opening minimum is 115." """
    g = game()
    refused(g, "bid P1 HAV 62", match="65")
    g.copy().do("bid P1 HAV 70")
    g.do("bid P1 HAV 65")
    g.do("bid P2 HAV 75")
    refused(g, "bid P3 HAV 78", match="80")
    refused(g, "bid P3 HAV 82", match="5")  # steps of 5 over the top bid
    g.copy().do("bid P3 HAV 85")
    g.do("bid P3 HAV 80")
    refused(g, "bid P4 VDL 110", match="115")
    g.do("bid P4 VDL 115")
    assert cash(g, "P4") == 600, "a bid is paid only when won"


def test_e2_open_bids_are_earmarked():
    """E2 (A2, earmarked bids): "A player with 100fr and a live 65 bid has 35 free. They cannot open 45 on
    Saint-Germain, but can buy Toulouse for 15." Here P1 has 600 with live bids of 500 (LM) and 65 (HAV):
    the same 35 free."""
    g = game()
    g.do("bid P1 LM 500", "pass P2", "pass P3", "pass P4", "bid P1 HAV 65", "pass P2", "pass P3", "pass P4")
    refused(g, "bid P1 SG 45", match="35")
    g.do("buy P1 TB")
    assert owner(g, "TB") == "P1" and cash(g, "P1") == 585
    assert owner(g, "HAV") is None and owner(g, "LM") is None


def test_e3_endless_passing_ends_the_game():
    """E3 (3 players, 800 each): P1 buys TB for 15; three all-pass rounds (yellow 5, 4, 3 left; Ceinture
    15, 10, 5); a fourth: yellow 2, Ceinture 0 -> P2 takes it free. Two more all-passes: Ceinture pays P2 5,
    one yellow left, Saint-Germain 35; then Ceinture pays P2 5 and the 6th yellow is discarded: the game
    ends at once. Net worth P1 785 + 15 = 800, P2 810 + 20 = 830, P3 800."""
    g = game(["P1", "P2", "P3"])
    g.do("buy P1 TB")
    assert cash(g, "P1") == 785 and supply_left(g, "yellow") == 6
    for yellow, ceinture in [(5, 15), (4, 10), (3, 5)]:
        g.do("pass P2", "pass P3", "pass P1")
        assert supply_left(g, "yellow") == yellow
        assert g.state.privates["CEI"].price == ceinture
        assert cash(g, "P1") == 785, "Toulouse pays 0"
        assert turn(g) == "P2", "the player after the last buyer (P1) acts next"
    g.do("pass P2", "pass P3", "pass P1")
    assert supply_left(g, "yellow") == 2
    assert owner(g, "CEI") == "P2" and cash(g, "P2") == 800, "P2 must take Ceinture for free"
    assert turn(g) == "P3"
    g.do("pass P3", "pass P1", "pass P2")
    assert cash(g, "P2") == 805
    assert supply_left(g, "yellow") == 1
    assert g.state.privates["SG"].price == 35
    assert not g.state.game_over
    assert turn(g) == "P3"
    g.do("pass P3", "pass P1", "pass P2")
    assert g.state.game_over
    assert supply_left(g, "yellow") == 0
    assert {p: cash(g, p) for p in ["P1", "P2", "P3"]} == {"P1": 785, "P2": 810, "P3": 800}
    assert {p: value(g, p) for p in ["P1", "P2", "P3"]} == {"P1": 800, "P2": 830, "P3": 800}
    refused(g, "pass P3")


def test_e4_lyon_mediterranee():
    """E4: "P3 wins Lyon-Mediterranee with a bid of 230. P3 pays 230 and receives the private plus the PLM
    20% director certificate: 2 certificates. P3 must fix PLM's par now at a yellow or green par. PLM floats
    once four more 10%s leave the IPO. It then gets 10 x p from the bank. P3 collects 30 per OR until PLM
    acquires its first train. The private then closes with no compensation." """
    g = game()
    g.do("buy P1 TB", "buy P2 CEI", "bid P3 LM 230", "buy P4 SG", "buy P1 HAV", "buy P2 VDL", "pass P3")
    g.do("buy P4 BA")  # the cheapest is bought: LM's single bid resolves
    assert owner(g, "LM") == "P3" and cash(g, "P3") == 600 - 230
    assert certs(g, "P3", "PLM") == [20]
    assert certs_held(g, "P3") == 2
    refused(g, "pass P1", match="par")  # "P3 must fix PLM's par now"
    refused(g, "par P3 PLM 105", match="105|yellow|green")  # 105 is a blue par
    g.do("par P3 PLM 94")  # green, allowed for PLM in yellow phase
    assert g.state.corps["PLM"].par == 94 and cell(g, "PLM") == (5, 3)
    assert cash(g, "P3") == 370, "the director certificate comes with the private"
    # cash P1 525, P2 470, P3 370, P4 410; SR 1 starts with P1 (after P4, the last buyer)
    assert round_kind(g) == "stock" and turn(g) == "P1"
    turns(g, "buy P1 PLM", "buy P2 PLM", "buy P3 PLM")
    assert not g.state.corps["PLM"].floated and cash(g, "PLM") == 0
    turns(g, "buy P4 PLM")
    assert g.state.corps["PLM"].floated and cash(g, "PLM") == 940
    end_sr(g)
    # OR 1.1: LM pays 30 to P3 (370 - 94 + 30)
    assert cash(g, "P3") == 306
    assert corp_now(g) == "PLM"
    g.do("withhold PLM 0", "train PLM 2+1")
    assert closed(g, "LM"), "PLM acquired a train"
    g.do("done PLM")
    end_sr(g)
    assert round_kind(g) == "operating" and cash(g, "P3") == 306, "LM is closed: no more 30"


def test_e5_eta_with_the_boulogne_amiens_share():
    """E5: "P4 owns Boulogne-Amiens, so P4 has ETA 10%. P1 pars ETA: pays 2p. P2, P1 and P3 each buy one
    IPO 10% at p. The IPO is down to 40%, so ETA floats and receives 10p. The bank took in 5p for 10p of
    capital. If P4 had sold the ETA share before step 2, the sale would have been illegal (unparred)." p = 79.
    Auction: P1 TB, P2 CEI, P3 SG, P4 HAV, P1 VDL, P4 BA, P1 LM (PLM par 67): P1 265, P2 580, P3 560, P4 390.
    SR 1 all pass; OR 1 pays the privates (P1 +50, P2 +5, P3 +10, P4 +40); SR 2 order P2, P3, P4, P1."""
    g = game()
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P1 VDL", "pass P2", "pass P3", "buy P4 BA",
         "buy P1 LM", "par P1 PLM 67")
    assert pct(g, "P4", "ETA") == 10 and pct(g, "ipo", "ETA") == 90
    end_sr(g)  # SR 1; in OR 1 no company operates; SR 2 follows
    assert round_kind(g) == "stock" and g.state.round["number"] == 2
    assert order(g) == ["P2", "P3", "P4", "P1"]
    assert {p: cash(g, p) for p in P4} == {"P1": 315, "P2": 585, "P3": 570, "P4": 430}
    to_turn(g, "P4")
    refused(g, "sell P4 ETA 1", match="par|price")
    bank = bank_cash(g)
    turns(g, "par P1 ETA 79")
    assert cash(g, "P1") == 315 - 158 and pct(g, "ipo", "ETA") == 70
    turns(g, "buy P2 ETA", "buy P3 ETA")
    assert not g.state.corps["ETA"].floated
    turns(g, "buy P1 ETA")
    assert pct(g, "ipo", "ETA") == 40
    assert g.state.corps["ETA"].floated and cash(g, "ETA") == 790
    assert bank_cash(g) - bank == 5 * 79 - 10 * 79
    assert president(g, "ETA") == "P1" and pct(g, "P1", "ETA") == 30 and pct(g, "P4", "ETA") == 10


# =========================================================================== E6: dividends


def e6_position() -> Table:
    """MID par 79: P1 30 % (director), P2 20 %, P3 10 % sold to the pool in SR 2, IPO 40 %; OR 2.1 about
    to start MID's turn. SR 1 (P4 first): P1 par MID 79, P2, P3, P1, P2 buy -> floats (790).
    Cash after SR 1: P1 238, P2 272, P3 271, P4 540 -> order P4, P2, P3, P1. OR 1.1 (privates paid):
    MID withholds 0 ((9,5) -> (9,4) = 76) and buys a 2+1 (665). SR 2: P3 sells his share at 76
    ((9,4) -> (10,4) = 71). OR 2.1: privates again -> P1 278, P2 332, P3 427, P4 570."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 79", "buy P2 MID", "buy P3 MID", "buy P1 MID", "buy P2 MID")
    assert g.state.corps["MID"].floated
    end_sr(g)
    assert order(g) == ["P4", "P2", "P3", "P1"]
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    turns(g, "sell P3 MID 1")
    assert cash(g, "P3") == 311 + 76 and cell(g, "MID") == (10, 4)
    until_turn(g, "MID")
    assert {p: cash(g, p) for p in P4} == {"P1": 278, "P2": 332, "P3": 427, "P4": 570}
    assert (pct(g, "P1", "MID"), pct(g, "P2", "MID"), pct(g, "pool", "MID"), pct(g, "ipo", "MID")) == (30, 20, 10, 40)
    assert cash(g, "MID") == 665
    return g


def test_e6_dividend_split():
    """E6: "Holdings: P1 30%, P2 20%, pool 10%, IPO 40%. Paid out (revenue 270): P1 gets 81, P2 54, the
    company 27 for the pool share. The IPO's 108 is never paid. The marker moves one column right." """
    g = e6_position()
    bank = bank_cash(g)
    g.do("pay MID 270")
    assert {p: cash(g, p) for p in P4} == {"P1": 278 + 81, "P2": 332 + 54, "P3": 427, "P4": 570}
    assert cash(g, "MID") == 665 + 27
    assert bank - bank_cash(g) == 81 + 54 + 27, "the IPO's 108 stays in the bank"
    assert cell(g, "MID") == (10, 5) and price(g, "MID") == 74


def test_e6_withheld():
    """E6: "Withheld instead: the company gets 270 and the marker moves left." """
    g = e6_position()
    g.do("withhold MID 270")
    assert cash(g, "MID") == 665 + 270
    assert {p: cash(g, p) for p in P4} == {"P1": 278, "P2": 332, "P3": 427, "P4": 570}
    assert cell(g, "MID") == (10, 3) and price(g, "MID") == 67


def test_e6_fractional_dividend_rounds_each_payee_down():
    """E6/A1: "At 275 revenue, 10% would be 27.5fr: no rounding rule exists." The bank's default reading
    (A1): each payee's amount rounded down, the rest stays in the bank: P1 82 (82.5), P2 55, MID 27."""
    g = e6_position()
    g.do("pay MID 275")
    assert (cash(g, "P1") - 278, cash(g, "P2") - 332, cash(g, "MID") - 665) == (82, 55, 27)


# =========================================================================== E7-E11: the market


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


def plm_towards_500(stop) -> tuple[Table, int]:
    """E10/E11 game: PLM (par 94 through LM) floats in SR 1 with MID (par 67); PLM pays 100 every OR
    (after a first withhold and a 2+1; a 4+1 in its first green OR) and MID withholds, until
    `stop(g)` holds while PLM sits at (1,14) = 454. Returns the game and PLM's number of payouts."""
    g = game()
    standard_auction(g, plm_par=94)
    turns(g, "buy P4 PLM", "par P1 MID 67", "buy P2 PLM", "buy P3 MID", "buy P4 PLM", "buy P1 PLM",
          "buy P2 MID", "buy P4 MID", "buy P1 MID")
    assert g.state.corps["PLM"].floated and g.state.corps["MID"].floated
    pays = 0
    for _ in range(500):
        if cell(g, "PLM") == (1, 14) and stop(g):
            return g, pays
        if round_kind(g) == "stock":
            end_sr(g)
            continue
        if corp_now(g) != "PLM":
            idle(g)
            continue
        held = train_sides(g, "PLM")
        if not held:
            assert pays == 0
            g.do("withhold PLM 0", "train PLM 2+1", "done PLM")
            continue
        g.do("pay PLM 100")
        pays += 1
        if phase(g) == "green" and "4+1" not in held:
            g.do("train PLM 4+1")
        g.do("done PLM")
    raise AssertionError("PLM never reached 454")


def test_e10_dividend_to_500_ends_the_game_at_the_end_of_that_or():
    """E10: "(1,14) = 454: up to (0,14) = 500: the game ends at the end of this OR, and the remaining
    companies still operate in it" (rules §8.10.1 #3b; A28: no further OR of the set).
    PLM (par 94 through LM) floats in SR 1 with MID (par 67). OR 1.1: PLM withholds ((5,3) -> (5,2) = 90)
    and buys a 2+1; from then on it pays every OR. From (5,2): 11 pays to (5,13), then (4,13), (4,14),
    (3,14), (2,14), (1,14) = 16 pays, the 17th reaches 500.
    Trains: 5 yellows left; the foreigners take one per set, the last with the first green at the end of
    set 5; PLM buys a 4+1 in set 6; the last green and the first blue go at the end of set 10 (yellow
    rusts, PLM keeps its 4+1). Pays: sets 2-5 one each, sets 6-10 two each (14), set 11 two (16):
    PLM is at 454 when its turn in OR 12.1 comes. MID (no train) withholds every OR."""
    g, pays = plm_towards_500(lambda g: round_kind(g) == "operating" and corp_now(g) == "PLM")
    assert pays == 16 and price(g, "PLM") == 454
    assert (g.state.round["set"], g.state.round["index"]) == (12, 1)
    assert phase(g) == "blue" and train_sides(g, "PLM") == ["4+1"]
    g.do("pay PLM 100")
    assert cell(g, "PLM") == (0, 14) and price(g, "PLM") == 500
    assert not g.state.game_over, "the OR is finished first"
    g.do("done PLM")
    assert not g.state.game_over and corp_now(g) == "MID", "the remaining companies still operate"
    idle(g)
    assert g.state.game_over
    assert "500" in (g.state.end_reason or "")


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


def test_e11_sold_out_to_500_ends_the_game_at_once():
    """E11: "(1,14) = 454: up to 500: game ends immediately, so the OR set is not played" (rules
    §8.10.1 #3a). The E10 game at SR 12, PLM at 454: the players buy PLM's last four IPO certificates."""
    g, pays = plm_towards_500(lambda g: round_kind(g) == "stock")
    assert pays == 16 and g.state.round["number"] == 12
    turns(g, "buy P1 PLM", "buy P2 PLM", "buy P3 PLM", "buy P4 PLM")
    assert pct(g, "ipo", "PLM") == 0 and pct(g, "pool", "PLM") == 0
    end_sr(g)
    assert g.state.game_over
    assert cell(g, "PLM") == (0, 14) and price(g, "PLM") == 500
    assert g.state.round["after"]["kind"] == "stock", "no operating round was started"


# =========================================================================== the train era (E12-E16, E21)
# openings_1843.chain(label): one 4-player game from the auction into gray, in labelled steps.


def test_train_era_opening_position():
    """The chain's own figures (worked out in the comment above)."""
    g = chain("sr1")  # ends with OR 1.1 open: the privates have paid (P1 +20, P2 +30, P3 +40, P4 +15)
    assert {p: cash(g, p) for p in P4} == {"P1": 46 + 20, "P2": 68 + 30, "P3": 55 + 40, "P4": 111 + 15}
    assert all(g.state.corps[c].floated for c in ("PLM", "MID", "OU", "ETA"))
    assert [president(g, c) for c in ("OU", "MID", "ETA", "PLM")] == ["P4", "P2", "P1", "P3"]
    assert [cash(g, c) for c in ("PLM", "MID", "OU", "ETA")] == [940, 670, 670, 670]
    g = chain("or1")
    assert phase(g) == "green"
    assert [cash(g, c) for c in ("PLM", "MID", "OU", "ETA")] == [940, 545, 95, 245]
    assert supply_left(g, "yellow") == 0 and supply_left(g, "green") == 5
    g = chain("or2.1")
    assert [cash(g, c) for c in ("PLM", "MID", "OU", "ETA")] == [140, 945, 120, 525]
    assert supply_left(g, "green") == 0 and supply_left(g, "blue") == 7
    assert closed(g, "LM") and closed(g, "VDL")


def test_e12_first_blue_bought_against_the_green_limit_then_flip():
    """E12: "Green phase. The company holds a 4+1 and a 3/5x2: 3 trains, 2 certificates. It buys the first
    blue 5+2 for 350. Checked against the green limit 4/4: 4 trains, 3 certificates, OK. Blue phase starts
    and the limit becomes 3/3, so it is now over. The director either flips the 3/5x2 to its 4+1 side
    (3 trains, 3 certificates) or discards one certificate to the pool. Every yellow train in the game
    rusts at the same moment." """
    g = chain("or2.1")
    until_turn(g, "PLM")
    assert train_sides(g, "PLM") == ["3/5x2", "4+1"]
    g.do("withhold PLM 1000 --force --reason 'test position'")
    assert cash(g, "PLM") == 1140
    g.do("train PLM 5+2")
    assert phase(g) == "blue"
    assert cash(g, "PLM") == 790
    assert train_sides(g, "PLM") == ["3/5x2", "4+1", "5+2"]
    assert supply_left(g, "blue") == 6
    assert train_sides(g, "OU") == [] and train_sides(g, "MID") == ["4+1", "4+1"]
    assert pending_corps(g) == ["PLM"], "PLM is over 3/3; no one else is"
    refused(g, "done PLM", match="limit|discard|flip")
    flipped = g.copy()
    flipped.do("flip PLM 3/5x2")
    assert train_sides(flipped, "PLM") == ["4+1", "4+1", "5+2"]
    assert pending_corps(flipped) == []
    flipped.do("done PLM")
    g.do("discard PLM 4+1")
    assert train_sides(g, "PLM") == ["3/5x2", "5+2"] and pool_sides(g) == ["4+1"]
    assert pending_corps(g) == []
    g.do("done PLM")


def test_e21_engineers_timing():
    """E21: "In green phase MID owns Val de Loire. During its train-buying step it marks its yellow 2+1;
    Val de Loire closes. The first blue train is bought later. Every other yellow train rusts, but MID's
    marked train is obsolete. It runs in MID's next operation, is discarded just before that operation's
    train-buying step, and never counted toward the 3/3 limit in the meantime." Here the company is ETA:
    2+1 (marked), 4+1, 3/5x2 = 4 trains; at blue 3 trains on 2 certificates plus the obsolete one."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"]})
    g.do("buy-private ETA VDL 220")
    assert owner(g, "VDL") == "ETA" and cash(g, "P1") == 86 + 220
    g.do("withhold ETA 1000 --force --reason 'test position'", "use ETA VDL 2+1")
    assert closed(g, "VDL")
    g.do("train ETA 3/5x2", "done ETA")
    assert train_sides(g, "ETA") == ["2+1", "3/5x2", "4+1"]
    play_or(g, {"MID": ["withhold MID 1000 --force --reason 'test position'", "train MID 4+1", "train MID 4+1",
                        "done MID"],
                "OU": ["withhold OU 25", "done OU"]})
    first_blue(g)
    assert phase(g) == "blue"
    assert train_sides(g, "ETA") == ["2+1", "3/5x2", "4+1"], "the marked 2+1 is obsolete, not rusted"
    assert train_sides(g, "MID") == ["4+1", "4+1"] and train_sides(g, "OU") == [], "every other yellow rusted"
    assert "ETA" not in pending_corps(g), "the obsolete train does not count toward 3/3"
    g.do("discard PLM 4+1", "done PLM")
    until_turn(g, "ETA", {"OU": OU_EMERGENCY})
    assert train_sides(g, "ETA") == ["2+1", "3/5x2", "4+1"]
    g.do("withhold ETA 100")  # it runs once more
    assert cash(g, "ETA") == 625
    g.do("done ETA")
    assert train_sides(g, "ETA") == ["3/5x2", "4+1"]
    assert "2+1" not in pool_sides(g), "the obsolete train left the game"


def test_e14_emergency_train_buying():
    """E14: "Blue phase. The company has a route, no train and 120 in its treasury. The supply's cheapest
    is a 5+2 at 350. The pool holds a green 4+1 at 300. The company must buy the 300 pool train.
    Shortfall: 300 - 120 = 180, to be paid by the director. The director discards Havre for 60, then sells
    one share of another company (the sale moves that company down one row). The director contributes 180.
    The company ends with 0 and owns the 4+1. Forbidden: selling its own company's shares in a way that
    hands the directorship to someone else."
    OU (120; its yellows rusted) is directed by P4, who has 62 (111 + 15 - 94 + 15 + 15) and holds HAV,
    two PLM shares (PLM at (5,0) = 81 after withholding in OR 2.2) and 30 % of OU (P3 also 30 %)."""
    g = chain("first-blue")
    g.do("discard PLM 4+1", "done PLM")
    until_turn(g, "OU", {"ETA": ["withhold ETA 100", "done ETA"]})
    assert train_sides(g, "OU") == [] and cash(g, "OU") == 120
    assert cash(g, "P4") == 62 and owner(g, "HAV") == "P4"
    assert cell(g, "PLM") == (5, 0) and price(g, "PLM") == 81
    assert pool_sides(g) == ["4+1"]
    g.do("withhold OU 0")
    refused(g, "train OU 5+2", match="300")
    refused(g, "train OU 4+1 --from pool", match="180")
    refused(g, "sell P4 OU 1", match="president|director")
    g.do("sell P4 HAV")
    assert cash(g, "P4") == 122 and (owner(g, "HAV") is None or closed(g, "HAV"))
    g.do("sell P4 PLM 1")
    assert cash(g, "P4") == 203
    assert cell(g, "PLM") == (6, 0) and price(g, "PLM") == 76
    g.do("train OU 4+1 --from pool")
    assert train_sides(g, "OU") == ["4+1"] and pool_sides(g) == []
    assert cash(g, "OU") == 0 and cash(g, "P4") == 23
    g.do("done OU")


def test_e12_first_brown_and_the_blue_limit():
    """E12: "Blue phase. A company with a 4/6x2 plus a 5+2 (3 trains, 2 certificates) wants the first
    brown train. Checked against blue 3/3, any new certificate makes 4 or more trains, so it cannot buy
    one. A company holding only the 4/6x2 may buy the 5E for 400: 3 trains, 2 certificates under 3/3. In
    brown (3/2) it is still legal. Green trains rust and all privates close." SO (par 105) holds
    4/6x2 + 5+2, NOR (par 67) only a 4/6x2; SO (100) operates before NOR (64) in OR 4.2."""
    g = chain("or4.1")
    assert supply_left(g, "blue") == 0 and phase(g) == "blue"
    until_turn(g, "SO")
    assert train_sides(g, "SO") == ["4/6x2", "5+2"]
    g.do("withhold SO 0")
    refused(g, "train SO 5E", match="limit|3")
    g.do("done SO")
    until_turn(g, "NOR")
    assert train_sides(g, "NOR") == ["4/6x2"] and phase(g) == "blue"
    g.do("withhold NOR 1000 --force --reason 'test position'", "train NOR 5E")
    assert phase(g) == "brown" and cash(g, "NOR") == 670
    assert train_sides(g, "NOR") == ["4/6x2", "5E"]
    assert pending_corps(g) == []
    assert train_sides(g, "PLM") == ["5+2"] and train_sides(g, "ETA") == [] and train_sides(g, "OU") == []
    assert train_sides(g, "MID") == ["5+2"]
    assert all(closed(g, p) or owner(g, p) is None for p in PRIVATES)
    assert all(closed(g, p) for p in ("TB", "CEI", "SG", "BA"))


def test_e15_emergency_buying_in_gray():
    """E15: "Treasury 350, no train, route. Buying a rusted 5+2 for 350 would not satisfy the rule. The
    only qualifying train is the Electric at 900. The director contributes 550. Rusted certificates can
    never be financed by the director." ETA buys the first TGV in OR 6.2 (gray: every other train leaves
    the companies); MID (350, director P2) then has no train."""
    g = chain("or6.1")
    assert phase(g) == "red" and supply_left(g, "red") == 0
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV")
    assert phase(g) == "gray"
    assert train_sides(g, "ETA") == ["TGV"]
    assert all(train_sides(g, c) == [] for c in ("PLM", "MID", "SO", "NOR", "OU"))
    g.do("done ETA")
    until_turn(g, "MID")
    assert train_sides(g, "MID") == [] and cash(g, "MID") == 350
    g.do("withhold MID 0")
    refused(g, "train MID 8E", match="treasury")  # a rusted 8E (500): no help from the director
    relic = g.copy()
    relic.do("train MID 5+2")  # a rusted 5+2 from the treasury alone ...
    assert cash(relic, "MID") == 0
    refused(relic, "done MID", match="train")  # ... does not satisfy the must-own-a-train rule
    p2 = cash(g, "P2")
    g.do("train MID TGV")
    assert train_sides(g, "MID") == ["TGV"]
    assert cash(g, "MID") == 0 and p2 - cash(g, "P2") == 550
    g.do("done MID")


def test_e16_gray_end_trigger_company_buys_first_electric():
    """E16, first case: "The set after the SR is red phase: 3 ORs. In OR2 a company buys the first
    Electric, so gray phase starts. This is set 1 with a gray train. The foreigners then discard one
    Electric. SR. The next set has 4 ORs (gray) and is set 2: the game ends after its OR4."
    Also E22: "Moving a station in gray phase: 100, once per company"."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    assert (g.state.round["set"], g.state.round["index"]) == (6, 2)
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    until_turn(g, "MID")
    g.do("withhold MID 0", "train MID TGV", "done MID")
    while round_kind(g) == "operating":
        idle(g)
    assert not g.state.game_over and round_kind(g) == "stock"
    assert supply_left(g, "gray") == 18 - 3, "ETA's, MID's and the foreigners' Electric"
    end_sr(g)
    assert (g.state.round["set"], g.state.round["index"]) == (7, 1)
    until_turn(g, "ETA")
    eta = cash(g, "ETA")
    g.do("token ETA --move")
    assert eta - cash(g, "ETA") == 100
    idle(g)
    until_turn(g, "ETA")
    assert (g.state.round["set"], g.state.round["index"]) == (7, 2)
    refused(g, "token ETA --move", match="once")
    for index in (2, 3, 4):
        while round_kind(g) == "operating" and g.state.round["index"] == index:
            assert not g.state.game_over
            idle(g)
        if index < 4:
            assert not g.state.game_over and g.state.round["index"] == index + 1
    assert g.state.game_over


def test_e16_foreigners_first_electric_does_not_count():
    """E16, second case: "The foreigners bought the first gray train at the end of a set. That set does
    not count. The next (4-OR) set counts only if some company owns a gray train during it." Nobody buys
    an Electric in set 6: the foreigners take the first one. ETA buys one in OR 7.1: set 7 is the first
    counted set, set 8 the second."""
    g = chain("or6.1")
    while round_kind(g) == "operating":
        idle(g)
    assert phase(g) == "gray" and supply_left(g, "gray") == 17
    assert all(train_sides(g, c) == [] for c in ("PLM", "MID", "SO", "NOR", "OU", "ETA"))
    end_sr(g)
    assert (g.state.round["set"], g.state.round["count"]) == (7, 4)
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    while round_kind(g) == "operating":
        idle(g)
    assert not g.state.game_over, "set 7 is only the first set with a company-owned gray train"
    end_sr(g)
    assert g.state.round["set"] == 8
    while not g.state.game_over and round_kind(g) == "operating":
        idle(g)
    assert g.state.game_over


def test_e13_foreigners_start_blue():
    """E13: "End of a set in green phase with one green certificate left in the supply. The foreigners
    take it. It was the last green, so they also take the first blue. Blue phase begins before the SR:
    all yellow trains rust; the 3/3 limit is enforced (excess goes to the pool); 6 blue certificates
    remain. The next set has 2 ORs, because the phase at the end of that SR is blue."
    The train-era SR 1, then: OR 1.1 MID two 2+1, OU three 2+1 and a 2x2, ETA the first green (370);
    foreigners: green 2. OR 2.1: PLM a 4+1 and a 3/5x2; ETA withholds 1000 and buys a 3/5x2 and a 4+1
    (4 trains on 3 certificates). One green is left through OR 2.2."""
    g = game()
    sr1_train_era(g)
    play_or(g, {
        "PLM": ["withhold PLM 0", "done PLM --no-route"],
        "MID": ["withhold MID 0", "train MID 2+1", "train MID 2+1", "done MID"],
        "OU": ["withhold OU 0", "train OU 2+1", "train OU 2+1", "train OU 2+1", "train OU 2x2", "done OU"],
        "ETA": ["withhold ETA 0", "train ETA 4+1", "done ETA"],
    })
    assert phase(g) == "green" and supply_left(g, "green") == 5
    play_or(g, {
        "PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"],
        "ETA": ["withhold ETA 1000 --force --reason 'test position'", "train ETA 3/5x2", "train ETA 4+1", "done ETA"],
    })
    assert supply_left(g, "green") == 1 and phase(g) == "green"
    play_or(g)  # OR 2.2: nobody buys; at its end the foreigners buy
    assert phase(g) == "blue"
    assert supply_left(g, "green") == 0 and supply_left(g, "blue") == 6
    assert train_sides(g, "MID") == [] and train_sides(g, "OU") == []
    assert train_sides(g, "PLM") == ["3/5x2", "4+1"]
    assert pending_corps(g) == ["ETA"], "ETA holds 4 trains on 3 certificates, over 3/3"
    g.do("discard ETA 4+1")
    assert train_sides(g, "ETA") == ["3/5x2", "4+1"] and pool_sides(g) == ["4+1"]
    assert round_kind(g) == "stock"
    end_sr(g)
    assert (g.state.round["set"], g.state.round["index"], g.state.round["count"]) == (3, 1, 2)
    play_or(g)
    assert round_kind(g) == "operating" and (g.state.round["set"], g.state.round["index"]) == (3, 2)


# =========================================================================== E17-E19: stock rounds


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


# =========================================================================== E20: Val de Loire


def green_after_set_one(g: Table) -> None:
    """Five all-pass rounds in the auction: five yellows discarded; Toulouse reaches 0 in the third and
    P1 takes it free, Ceinture then drops to 10. P2 buys CEI for 10, P3 SG, P4 HAV, P1 VDL, P2 BA,
    P3 LM (PLM par 67): P1 490, P2 440, P3 350, P4 540. The foreigners' purchase after set 1 takes the
    last yellow and with it the first green: set 2 is green."""
    for _ in range(3):
        g.do("pass P1", "pass P2", "pass P3", "pass P4")
    assert owner(g, "TB") == "P1" and cash(g, "P1") == 600
    for _ in range(2):
        g.do("pass P2", "pass P3", "pass P4", "pass P1")
    assert supply_left(g, "yellow") == 1 and g.state.privates["CEI"].price == 10
    g.do("buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P1 VDL", "buy P2 BA", "buy P3 LM", "par P3 PLM 67")
    assert {p: cash(g, p) for p in P4} == {"P1": 490, "P2": 440, "P3": 350, "P4": 540}


def test_e20_val_de_loire_exchanged_for_a_director_half():
    """E20: "In green phase a player exchanges Val de Loire for the director certificate of an unstarted
    company at the green par 94. The player pays 94 and the company is parred. The private closes and the
    player's certificate count is unchanged." SR 1 all pass; OR 1 (no company) pays VDL's 20 to P1 (510);
    the foreigners start green; SR 2 (order P4, P1, P2, P3)."""
    g = game()
    green_after_set_one(g)
    end_sr(g)
    assert phase(g) == "green" and round_kind(g) == "stock" and g.state.round["number"] == 2
    to_turn(g, "P1")
    assert cash(g, "P1") == 510 and certs_held(g, "P1") == 2
    refused(g, "exchange P1 VDL NOR --par 105", match="105|par")
    bank = bank_cash(g)
    g.do("exchange P1 VDL NOR --par 94")
    assert cash(g, "P1") == 510 - 94 and bank_cash(g) - bank == 94
    assert g.state.corps["NOR"].par == 94 and cell(g, "NOR") == (5, 3)
    assert president(g, "NOR") == "P1" and certs(g, "P1", "NOR") == [20]
    assert closed(g, "VDL")
    assert certs_held(g, "P1") == 2


def test_e20_val_de_loire_becomes_a_2_train_and_rusts_at_blue():
    """E20: "Conversion (5-player game, yellow phase). A company buys Val de Loire for exactly 110 and it
    becomes a '2' train. It still counts toward the 4/4 limit and rusts at blue. If the PLM does this,
    the PLM has acquired a train, so Lyon-Mediterranee closes." (E13: at blue "all yellow trains rust,
    including a Val de Loire '2'".)
    Auction (480 each): P1 TB, P2 CEI, P3 SG, P4 HAV, P5 VDL, P1 BA, P2 LM (PLM par 67); SR 1 (P3 first):
    P3, P4, P5, P1 buy PLM (floats 670). OR 1.1: P5 has 480 - 110 - 67 + 20 = 323."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM" and cash(g, "P5") == 323
    refused(g, "buy-private PLM VDL 100 --as-train", match="110")
    refused(g, "buy-private PLM HAV 60", match="green")
    g.do("buy-private PLM VDL 110 --as-train")
    assert cash(g, "PLM") == 560 and cash(g, "P5") == 433
    assert closed(g, "VDL") and train_sides(g, "PLM") == ["2"]
    assert closed(g, "LM"), "PLM acquired a train"
    g.do("withhold PLM 0", "train PLM 2+1", "train PLM 2+1", "train PLM 2+1")
    assert cash(g, "PLM") == 185 and len(train_sides(g, "PLM")) == 4
    refused(g, "train PLM 2+1", match="limit|4")
    g.do("done PLM")
    for _ in range(400):
        if phase(g) == "blue":
            break
        if round_kind(g) == "stock":
            end_sr(g)
        else:
            idle(g)
    assert phase(g) == "blue"
    assert train_sides(g, "PLM") == []


def test_a15_no_private_sales_to_companies_in_yellow_with_four_players():
    """A15 / rules §8.3, §10.1: in yellow phase only 5- and 6-player games let a company buy Val de Loire;
    with 4 players companies buy privates from green on."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 79", "buy P2 MID", "buy P3 MID", "buy P1 MID", "buy P2 MID")
    end_sr(g)
    assert corp_now(g) == "MID"
    refused(g, "buy-private MID VDL 110", match="green|5|6")
    refused(g, "buy-private MID VDL 110 --as-train", match="green|5|6")


# =========================================================================== E22: stations and special powers


def _float_two(g: Table, first: str, second: str) -> None:
    """SR 1 (P4 first): P4 par FIRST 67, P1 par SECOND 67, then P2, P3 FIRST; P4 SECOND; P1 FIRST;
    P2, P3 SECOND; P4 FIRST (floats); P1 SECOND (floats)."""
    standard_auction(g, plm_par=67)
    turns(g, f"par P4 {first} 67", f"par P1 {second} 67", f"buy P2 {first}", f"buy P3 {first}",
          f"buy P4 {second}", f"buy P1 {first}", f"buy P2 {second}", f"buy P3 {second}", f"buy P4 {first}",
          f"buy P1 {second}")
    assert g.state.corps[first].floated and g.state.corps[second].floated
    end_sr(g)


def test_e22_station_costs():
    """E22: "NOR's stations: home free + 40 = 40 total. EST placing all its stations: 0 + 40 + 100 + 100
    = 240." One station per OR (rules §8.5.1)."""
    g = game()
    _float_two(g, "EST", "NOR")

    def est_first(g):
        g.do("token EST")
        refused(g, "token EST", match="one|already|this")
        g.do("withhold EST 0", "done EST --no-route")

    play_or(g, {"EST": est_first, "NOR": ["token NOR", "withhold NOR 0", "done NOR --no-route"]})
    assert (cash(g, "EST"), cash(g, "NOR")) == (670 - 40, 670 - 40)

    def nor_full(g):
        refused(g, "token NOR", match="station|token|left")
        idle(g, "NOR")

    play_or(g, {"EST": ["token EST", "withhold EST 0", "done EST --no-route"], "NOR": nor_full})
    assert cash(g, "EST") == 670 - 140
    play_or(g, {"EST": ["token EST", "withhold EST 0", "done EST --no-route"]})
    assert cash(g, "EST") == 670 - 240 and cash(g, "NOR") == 630

    def est_full(g):
        refused(g, "token EST", match="station|token|left")
        idle(g, "EST")

    play_or(g, {"EST": est_full})


def test_e22_second_yellow_tile_and_paris():
    """E22: "PRO laying two yellow tiles, the second on a river hex with a 40 terrain cost: 20 (second
    tile) + 40 (terrain) = 60. Anyone upgrading Paris: 40 every time." NOR has no second tile."""
    g = game()
    _float_two(g, "PRO", "NOR")

    def pro(g):
        g.do("tile PRO 0", "tile PRO 40")
        assert cash(g, "PRO") == 670 - 60
        refused(g, "tile PRO 0", match="tile|lay")
        g.do("withhold PRO 0", "done PRO --no-route")

    def nor(g):
        g.do("tile NOR 0 --hex paris")
        assert cash(g, "NOR") == 670 - 40
        refused(g, "tile NOR 0", match="tile|lay")
        g.do("withhold NOR 0", "done NOR --no-route")

    play_or(g, {"PRO": pro, "NOR": nor})
    play_or(g, {"PRO": ["tile PRO 0 --hex paris", "withhold PRO 0", "done PRO --no-route"],
                "NOR": ["tile NOR 0 --hex paris", "withhold NOR 0", "done NOR --no-route"]})
    assert (cash(g, "PRO"), cash(g, "NOR")) == (670 - 60 - 40, 670 - 40 - 40)


def test_e22_havre_and_the_next_station():
    """E22: "OU using Havre (80, tile + station at C14): 80. OU's next station: probably 100, since
    Havre's station was OU's first placed marker (A5)." Havre replaces the whole track and station step.
    Companies buy privates from green on, so OU (floated in SR 1) buys HAV from P4 in OR 2.1 (green)."""
    g = game()
    green_after_set_one(g)
    turns(g, "par P4 OU 67", "buy P1 OU", "buy P2 OU", "buy P3 OU", "buy P4 OU")
    play_or(g, {"OU": ["withhold OU 0", "done OU --no-route"]})
    assert phase(g) == "green"
    until_turn(g, "OU")
    p4 = cash(g, "P4")
    g.do("buy-private OU HAV 60")
    assert cash(g, "OU") == 610 and cash(g, "P4") == p4 + 60
    laid = g.copy()  # a tile already laid this turn: Havre's tile and station replace the whole step
    laid.do("tile OU 0")
    refused(laid, "token OU --using HAV", match="HAV|Havre|track|tile")
    g.do("token OU --using HAV")
    assert cash(g, "OU") == 530
    refused(g, "tile OU 0", match="HAV|Havre|track|tile")
    refused(g, "token OU", match="one|already|this|station")
    g.do("withhold OU 0", "done OU --no-route")
    until_turn(g, "OU")
    assert (g.state.round["set"], g.state.round["index"]) == (2, 2)
    assert cash(g, "OU") == 530 + 15, "HAV now pays its 15 to OU"
    g.do("token OU")
    assert cash(g, "OU") == 545 - 100
    idle(g, "OU")
    until_turn(g, "OU")
    refused(g, "token OU", match="station|token|left")


# =========================================================================== E23: ports


def test_e23_ports():
    """E23: "A company owning Bordeaux and Marseille ports gets 40 at the start of every OR, before any
    company operates. If it sells one to another company, the buyer pays it exactly 20 and, from the next
    OR, each company collects 20. A port claimed in OR n pays from OR n+1." Claim conditions (§8.5.3):
    a train at the start of the OR, no station placed this OR, one claim an OR.
    SR 1 (P4 first): P4 par MID 67, P1 par SO 67; P2, P3, P4 MID; P1, P2, P3 SO; P4 MID; P1 SO.
    OR 1: both buy a 2+1 (545). OR 2: MID claims Bordeaux; SO places a station (505). OR 3: MID +20,
    claims Marseille. OR 4: MID +40; SO buys Marseille from MID (SO 485, MID 625). OR 5.1: 20 each."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P4 MID 67", "par P1 SO 67", "buy P2 MID", "buy P3 MID", "buy P4 MID", "buy P1 SO", "buy P2 SO",
          "buy P3 SO", "buy P4 MID", "buy P1 SO")
    end_sr(g)

    def mid1(g):
        refused(g, "port MID bordeaux", match="train")
        g.do("withhold MID 0", "train MID 2+1", "done MID")

    play_or(g, {"MID": mid1, "SO": ["withhold SO 0", "train SO 2+1", "done SO"]})
    assert (cash(g, "MID"), cash(g, "SO")) == (545, 545)

    def mid2(g):
        g.do("port MID bordeaux")
        refused(g, "port MID marseille", match="one|already|claim")
        g.do("withhold MID 0", "done MID")

    def so2(g):
        g.do("token SO")
        refused(g, "port SO marseille", match="station")
        g.do("withhold SO 0", "done SO")

    play_or(g, {"MID": mid2, "SO": so2})
    assert port_owner(g, "bordeaux") in ("MID", "company:MID")
    assert (cash(g, "MID"), cash(g, "SO")) == (545, 505), "a port claimed in OR n pays from OR n+1"
    end_sr(g)
    assert cash(g, "MID") == 565, "Bordeaux pays 20 at the start of OR 3"
    play_or(g, {"MID": ["port MID marseille", "withhold MID 0", "done MID"]})
    end_sr(g)
    assert cash(g, "MID") == 605 and cash(g, "SO") == 505, "two ports: 40 before anyone operates"
    play_or(g, {"SO": ["withhold SO 0", "port SO marseille --from MID", "done SO"]})
    assert port_owner(g, "marseille") in ("SO", "company:SO")
    assert (cash(g, "MID"), cash(g, "SO")) == (625, 485)
    end_sr(g)
    assert (cash(g, "MID"), cash(g, "SO")) == (645, 505)
