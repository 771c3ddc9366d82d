"""1843's private auction (RULES §6, digest D4; rulesets/1843/brief_or.py for the all-pass brief ORs): the
waterfall of bids and the order of a bidding war, raised bids, the free take at 0fr, the reduction on
the last private and who opens the first stock round, and Lyon-Mediterranee's par for PLM (§6.3).
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import P4, cash, cell, owner, pct, price, refused, round_kind, supply_left, turn
from openings_1843 import table as game


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
