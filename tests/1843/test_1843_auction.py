"""1843's private auction (RULES §6, digest D4; rulesets/1843/brief_or.py for the all-pass brief ORs): the
waterfall of bids and the order of a bidding war, raised bids, the free take at 0fr, the reduction on
the last private and who opens the first stock round, and Lyon-Mediterranee's par for PLM (§6.3).
The digest's worked cases E1-E5 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import (P4, bank_cash, cash, cell, certs, certs_held, closed, corp_now, end_sr, order, owner, pct,
                           president, price, refused, round_kind, supply_left, table as game, to_turn, turn, turns,
                           value)


def test_lm_par_must_be_yellow_or_green():
    """§6.3: Lyon-Mediterranee's buyer sets PLM's par to a yellow or green par, even in yellow."""
    g = game()
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P1 VDL", "buy P2 BA", "buy P3 LM")
    refused(g, "par P3 PLM 105", match="105")
    g.do("par P3 PLM 94")
    assert price(g, "PLM") == 94


def test_first_sr_starts_after_the_last_face_buyer_not_the_bid_winner():
    g = game()
    g.do("bid P1 LM 215")
    refused(g, "bid P2 TB 20")  # the cheapest is bought, never bid on (§6.1)
    g.do("buy P2 TB", "buy P3 CEI", "buy P4 SG", "buy P1 HAV", "buy P2 VDL", "buy P3 BA")
    assert owner(g, "LM") == "P1" and cash(g, "P1") == 600 - 60 - 215
    g.do("par P1 PLM 67")
    assert round_kind(g) == "stock" and turn(g) == "P4"   # after P3, the last face-value buyer (§6.2)


def test_a_forced_free_take_resolves_the_bids_on_the_next_private():
    """§6.2: four all-pass rounds take Ceinture from 20 to 0 (one yellow discarded each); P2, after P1 the
    last buyer, must take it free; that purchase of the cheapest checks Saint-Germain, where P2's 45 is
    the only bid: P2 pays 45. Havre has no bid: P3 (after P2) is next."""
    g = game()
    g.do("buy P1 TB", "bid P2 SG 45")
    for _ in range(16):
        if owner(g, "CEI"):
            break
        g.do(f"pass {turn(g)}")
    assert supply_left(g, "yellow") == 2
    assert owner(g, "CEI") == "P2" and owner(g, "SG") == "P2"
    assert cash(g, "P2") == 600 - 45 and cash(g, "P1") == 585
    assert turn(g) == "P3"


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


# --------------------------------------------------------------------------- the digest's worked cases E1-E5

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
