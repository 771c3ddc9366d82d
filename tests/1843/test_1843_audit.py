"""1843 audit: scenarios written from the rulebook (seed 000, the June 2016 LyX; seed 001 for section
numbers) against the engine, each figure worked by hand from the rule it cites. They add to the
digest's worked cases (test_1843_edge_cases.py) what those leave out: par colours, float, director
changes on a buy and on a refused sale, the pool and holding limits by zone, dividends to the pool,
private incomes and prices, Val de Loire in an OR, the Engineers' card, relics in gray, and the
privates' once-only powers. Openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import (P4, P5, cash, cell, certs, chain, closed, corp_now, e19_position, end_sr, idle, order,
                           owner, pct, phase, play_or, president, price, refused, round_kind, standard_auction,
                           supply_left, to_turn, train_sides, turn, turns, until_turn, value)
from openings_1843 import table as game


def opened(plm_par=67):
    g = game()
    standard_auction(g, plm_par=plm_par)
    return g


# ---- stock round

def test_par_only_yellow_in_yellow_phase():
    """§7.4, T2: only yellow pars in yellow (67, 73, 79); the director's certificate costs 2 x par."""
    g = opened()
    to_turn(g, "P4")
    refused(g, "par P4 MID 86", match="86")
    refused(g, "par P4 MID 105", match="105")
    g.do("par P4 MID 79")
    assert cash(g, "P4") == 540 - 158


def test_lm_par_must_be_yellow_or_green():
    """§6.3: Lyon-Mediterranee's buyer sets PLM's par to a yellow or green par, even in yellow."""
    g = game()
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P1 VDL", "buy P2 BA", "buy P3 LM")
    refused(g, "par P3 PLM 105", match="105")
    g.do("par P3 PLM 94")
    assert price(g, "PLM") == 94


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


def test_sixty_percent_cap():
    """§7.3: at most 60 % of a company (white zone, here its par box)."""
    g = opened()
    turns(g, "par P4 MID 67", "buy P4 MID", "buy P4 MID", "buy P4 MID", "buy P4 MID")
    assert pct(g, "P4", "MID") == 60
    to_turn(g, "P4")
    refused(g, "buy P4 MID", match="60")


def test_end_of_sr_order_by_descending_cash():
    """§7.1: the cards are re-dealt by descending cash at the end of the SR."""
    g = opened()
    # cash P1 475, P2 430, P3 350, P4 540 -> P4, P1, P2, P3
    end_sr(g)
    assert order(g) == ["P4", "P1", "P2", "P3"]


def mid_floated():
    """SR1: P4 par MID 67 and buys one more (30 %), P1 P2 P3 one each: MID floats with 670."""
    g = opened()
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P2 MID", "buy P3 MID", "buy P4 MID")
    end_sr(g)
    return g


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


def test_values_after_the_auction():
    """§8.10.2: cash + privates at face + shares at their price (A20: the unparred ETA share has
    none)."""
    g = opened()
    # P2: 430 cash + CEI 20 + BA 150 + unparred ETA 10 % (no price: 0) = 600
    assert value(g, "P2") == 600
    # P3: 350 + SG 40 + LM 210 + PLM director 20 % at 67 = 134 -> 734
    assert value(g, "P3") == 734


def test_private_income_at_or_start_and_pool_dividend():
    """§8.1: privates pay at the start of each OR; §8.7: players and the pool (to the company) are
    paid, the IPO not; §7.7 moves."""
    g = mid_floated()
    # cash after SR1: P1 408, P2 363, P3 283, P4 339; OR1 incomes P1 20, P2 30, P3 40, P4 15
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    assert {p: cash(g, p) for p in P4} == {"P1": 428, "P2": 393, "P3": 323, "P4": 354}
    assert cash(g, "MID") == 545 and cell(g, "MID") == (13, 6)
    # SR2: P1 sells his MID share at 64 (pool 10 %), marker down to (14,6) = 59
    turns(g, "sell P1 MID 1")
    assert cash(g, "P1") == 428 + 64 and cell(g, "MID") == (14, 6)
    before = {p: cash(g, p) for p in P4}
    # OR2 (yellow, 1 OR): incomes again, then MID pays 100: P4 30, P2 10, P3 10, pool 10 -> MID; IPO 40 to nobody
    play_or(g, {"MID": ["pay MID 100", "done MID"]})
    income = {"P1": 20, "P2": 30, "P3": 40, "P4": 15}
    div = {"P1": 0, "P2": 10, "P3": 10, "P4": 30}
    assert {p: cash(g, p) - before[p] for p in P4} == {p: income[p] + div[p] for p in P4}
    assert cash(g, "MID") == 545 + 10
    # right end of row 14 (c1-c6): up one row to (13,6) = 64
    assert cell(g, "MID") == (13, 6)


def test_paying_zero_moves_left():
    """§7.7: a payout of 0fr is no dividend (more than 0fr per share is): the marker moves left, as
    a withhold of 0fr (which is how it is typed: `pay MID 0` is refused)."""
    g = mid_floated()
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    play_or(g, {"MID": ["withhold MID 0", "done MID"]})
    # (13,7) 67 -> withheld (13,6) 64 -> "no dividend" (more than 0fr per share, §7.7) -> (13,5) 60
    assert cell(g, "MID") == (13, 5)


def test_lm_closes_when_plm_buys_a_train_from_another_company():
    """§10.2: LM is never bought by a company, and closes when PLM acquires a train, from another
    company too (any price of at least 1fr, §8.8.1)."""
    g = chain("sr2")
    until_turn(g, "PLM")
    refused(g, "buy-private PLM LM 210")
    g.do("withhold PLM 0")
    refused(g, "train PLM 2+1 --from OU --price 0")
    g.do("train PLM 2+1 --from OU --price 1")
    assert closed(g, "LM")


def test_private_price_between_1_and_twice_face():
    """§10.1: from green a company buys a private from a player for 1fr to 2 x face, paid to the
    player."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "done PLM"]})
    refused(g, "buy-private ETA VDL 221", match="220")
    refused(g, "buy-private ETA VDL 0")
    had = cash(g, "P2")
    g.do("buy-private ETA CEI 40")
    assert cash(g, "P2") == had + 40 and owner(g, "CEI") == "ETA"


def test_yellow_before_green_and_the_yellow_limit():
    """§8.8.1: colours strictly in order; §8.8.2: 4 trains on 4 certificates in yellow (2x2 read as
    a 3+1)."""
    g = chain("sr1")
    until_turn(g, "MID", {"PLM": ["withhold PLM 0", "done PLM --no-route"]})
    g.do("withhold MID 0")
    refused(g, "train MID 4+1")
    g.do("train MID 2+1", "done MID")
    until_turn(g, "OU")
    g.do("withhold OU 0", "train OU 2+1", "train OU 2+1", "train OU 2+1", "train OU 2x2")
    refused(g, "train OU 2+1", match="4")


def test_emergency_stops_raising_once_the_shortfall_is_covered():
    """§8.8.3, A22: the director raises money only until the shortfall (180) is covered."""
    g = chain("first-blue")
    g.do("discard PLM 4+1", "done PLM")
    until_turn(g, "OU", {"ETA": ["withhold ETA 100", "done ETA"]})
    g.do("withhold OU 0", "sell P4 PLM 2")
    # 62 + 2 x 81 = 224 >= 180: HAV may not be discarded as well (A22)
    refused(g, "sell P4 HAV")


def gray_so_turn():
    g = chain("or6.1")
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    until_turn(g, "SO")
    g.do("withhold SO 0")
    return g


def test_gray_relics_one_per_company_single_sides_only():
    """§15.6, §8.8.1: in gray the single sides return (yellow 2+1 125 / 3+1 200); one per company; a
    relic may be thrown away to make room."""
    g = gray_so_turn()
    so = cash(g, "SO")
    refused(g, "train SO 4/6x2")          # x2 sides never return (§15.6 "single trains")
    g.do("train SO 3+1")                   # the yellow B side read as a 3+1 at 200 (§8.8.1)
    assert cash(g, "SO") == so - 200
    refused(g, "train SO 5+2", match="one|1")   # at most one rusted certificate (§8.8.1)
    g.do("train SO TGV")
    assert cash(g, "SO") == so - 200 - 900
    # 2/2 now; a second TGV only after discarding the relic without recompense (§8.8.1)
    refused(g, "train SO TGV", match="limit|2")
    g.do("discard SO 3+1", "train SO TGV")
    assert train_sides(g, "SO") == ["TGV", "TGV"] and cash(g, "SO") == so - 200 - 1800


def test_first_sr_starts_after_the_last_face_buyer_not_the_bid_winner():
    g = game()
    g.do("bid P1 LM 215")
    refused(g, "bid P2 TB 20")  # the cheapest is bought, never bid on (§6.1)
    g.do("buy P2 TB", "buy P3 CEI", "buy P4 SG", "buy P1 HAV", "buy P2 VDL", "buy P3 BA")
    assert owner(g, "LM") == "P1" and cash(g, "P1") == 600 - 60 - 215
    g.do("par P1 PLM 67")
    assert round_kind(g) == "stock" and turn(g) == "P4"   # after P3, the last face-value buyer (§6.2)


def test_pool_purchase_at_the_current_price():
    """§7.3: a pool certificate costs the current price (59 after the sale), not par."""
    g = mid_floated()
    play_or(g, {"MID": ["withhold MID 0", "train MID 2+1", "done MID"]})
    turns(g, "sell P1 MID 1")         # 64 -> (14,6) = 59
    had = cash(g, "P2")
    turns(g, "buy P2 MID --pool")
    assert cash(g, "P2") == had - 59


def test_vdl_exchange_is_the_turns_purchase():
    """§10.2, A13: exchanging VDL for an IPO share is the turn's one purchase."""
    g = opened()
    to_turn(g, "P1")
    g.do("par P1 MID 67")
    to_turn(g, "P1")
    g.do("exchange P1 VDL MID")
    assert closed(g, "VDL") and pct(g, "P1", "MID") == 30
    refused(g, "buy P1 MID")


def test_company_owned_private_pays_the_company():
    """§10.1: a private bought by a company pays its revenue to the treasury from the next OR start."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "done PLM"]})
    g.do("buy-private ETA CEI 40", "withhold ETA 0", "done ETA")
    eta = cash(g, "ETA")
    play_or(g)   # the rest of OR 2.1; OR 2.2 starts with CEI paying ETA 5 (§8.1, §10.1)
    assert cash(g, "ETA") - eta == 5


def test_train_between_companies_at_any_agreed_price():
    """§8.8.1: between companies any agreed price (minimum 1fr), above face when no director money
    is in it."""
    g = chain("sr2")
    until_turn(g, "PLM")
    g.do("withhold PLM 1000 --force --reason 'test position'")
    plm, ou = cash(g, "PLM"), cash(g, "OU")
    g.do("train PLM 2+1 --from OU --price 400")   # above face: no director money, any agreed price (§8.8.1)
    assert plm - cash(g, "PLM") == 400 and cash(g, "OU") - ou == 400


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


def test_par_is_the_turns_one_purchase():
    """§7.3: parring is buying the director's certificate: the turn's one certificate."""
    g = opened()
    to_turn(g, "P4")
    g.do("par P4 MID 67")
    refused(g, "buy P4 MID")


def test_no_company_buys_a_private_in_yellow_with_five_players_except_vdl():
    """§8.3, §10.1: in yellow only VDL, 5-6 players, for exactly face (110)."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM"
    refused(g, "buy-private PLM VDL 111", match="110")
    refused(g, "buy-private PLM CEI 20")
    g.do("buy-private PLM VDL 110")       # bought, not converted (A15: optional)
    assert owner(g, "VDL") == "PLM" and not closed(g, "VDL") and not closed(g, "LM")


def test_vdl_conversion_in_green_at_any_price_and_never_from_blue():
    """§10.2: from yellow until the first blue train a company may buy VDL and make it a "2" train
    (5-6 players), in green within the normal 1fr-220fr; from blue it is a plain purchase only."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    seen = {}
    for _ in range(400):
        if round_kind(g) == "stock":
            end_sr(g)
            continue
        if phase(g) not in seen:
            seen[phase(g)] = g.copy()
        if phase(g) == "blue":
            break
        idle(g)
    green = seen["green"]
    assert corp_now(green) == "PLM"
    had = cash(green, "P5")
    green.do("buy-private PLM VDL 150 --as-train")
    assert cash(green, "P5") == had + 150 and train_sides(green, "PLM") == ["2"]
    blue = seen["blue"]
    assert corp_now(blue) == "PLM" and owner(blue, "VDL") == "P5"
    refused(blue, "buy-private PLM VDL 110 --as-train", match="blue")
    blue.do("buy-private PLM VDL 110")
    assert owner(blue, "VDL") == "PLM"


def test_a_sale_may_not_take_the_pool_past_half():
    """§7.2: never more than 50 % of a company in the pool."""
    g = e19_position()          # MID: pool 50 %, P1 20 %
    to_turn(g, "P1")
    refused(g, "sell P1 MID 1", match="50")


def test_engineers_card_lost_when_the_marked_train_is_sold():
    """§10.2: "If a train certificate marked with the Engineer's card is bought by another company before
    it becomes obsolete, it loses the Engineer's card and will rust in the normal manner." ETA marks its
    2+1 in OR 2.1 and sells it to MID for 1fr; at the first blue MID's 2+1 rusts."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"]})
    g.do("buy-private ETA VDL 220", "withhold ETA 1000 --force --reason 'test position'", "use ETA VDL 2+1",
         "train ETA 3/5x2", "done ETA")
    until_turn(g, "MID", {"OU": ["withhold OU 25", "done OU"]})
    g.do("withhold MID 1000 --force --reason 'test position'", "train MID 2+1 --from ETA --price 1",
         "train MID 4+1", "train MID 4+1", "done MID")
    assert train_sides(g, "MID") == ["2+1", "2+1", "4+1", "4+1"]
    until_turn(g, "PLM")
    g.do("withhold PLM 1000 --force --reason 'test position'", "train PLM 5+2")
    assert phase(g) == "blue"
    assert train_sides(g, "MID") == ["4+1", "4+1"]


def test_an_obsolete_train_is_not_sold_between_companies():
    """§10.2: obsolete certificates may not be bought between companies."""
    g = chain("first-blue")      # ETA's marked 2+1 is obsolete now (E21)
    g.do("discard PLM 4+1")
    refused(g, "train PLM 2+1 --from ETA --price 1")


def test_saint_germain_and_havre_tiles_only_once():
    """§10.2: Saint-Germain lays E14 "if one has not already been placed there"; Havre's power "is not
    available if a track tile has already been placed at Le Havre (C14)"."""
    g = chain("sr2")
    until_turn(g, "PLM")
    g.do("buy-private PLM SG 40", "buy-private PLM HAV 60", "tile PLM 0 --using SG", "withhold PLM 0",
         "train PLM 4+1", "done PLM")
    play_or(g)
    until_turn(g, "PLM")
    g.do("token PLM --using HAV", "withhold PLM 0", "done PLM")
    play_or(g)
    until_turn(g, "PLM")
    refused(g, "tile PLM 0 --using SG", match="used")
    refused(g, "token PLM --using HAV", match="used")


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


def test_obsolete_train_runs_in_the_next_operation_when_its_company_bought_the_rusting_train():
    """§10.2 Engineers: an obsolete certificate "run[s] one more time after [it] would normally rust" and
    is discarded "immediately before the train-buying step". ETA marks its 2+1 in OR 2.1 and itself buys
    the first blue in OR 2.2, after its run: the 2+1 stays until its next operation's train step, and
    does not count toward the 3/3 limit meanwhile."""
    g = chain("sr2")
    play_or(g, {
        "PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"],
        "ETA": ["buy-private ETA VDL 220", "withhold ETA 1000 --force --reason 'test position'",
                "use ETA VDL 2+1", "done ETA"],
        "OU": ["withhold OU 25", "done OU"],
        "MID": ["withhold MID 1000 --force --reason 'test position'", "train MID 4+1", "train MID 4+1",
                "done MID"],
    })
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA 4+1", "train ETA 5+2")
    assert phase(g) == "blue"
    assert train_sides(g, "ETA") == ["2+1", "4+1", "4+1", "5+2"]
    assert not [p for p in g.state.pending if p.get("corp") == "ETA"]
    g.do("done ETA")
    until_turn(g, "ETA")
    assert "2+1" in train_sides(g, "ETA")      # it runs once more ...
    g.do("withhold ETA 0")
    assert train_sides(g, "ETA") == ["4+1", "4+1", "5+2"]   # ... and leaves before the train step


def test_vdl_exchange_in_an_or_floats_a_company_that_operates_from_the_next_or():
    """§10.2: VDL "at any time during an operating round, may be exchanged for any 10% share from the
    IPO"; §7.4: floated at 40 % left in the IPO (capital 10 x par at once) and operating in "future"
    ORs (A13, A25). MID (par 67) at 50 % in the IPO; during PLM's turn P1 exchanges VDL for a MID share."""
    g = opened()
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P2 MID", "buy P3 MID",
          "buy P4 PLM", "buy P1 PLM", "buy P2 PLM", "buy P3 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM" and not g.state.corps["MID"].floated
    g.do("exchange P1 VDL MID")
    assert g.state.corps["MID"].floated and cash(g, "MID") == 670
    assert pct(g, "P1", "MID") == 20 and closed(g, "VDL")
    g.do("withhold PLM 0", "done PLM --no-route")
    assert round_kind(g) == "stock", "MID first operates in the next OR"


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


def test_a_set_keeps_the_length_of_the_phase_at_the_end_of_its_stock_round():
    """§5, T2: a set's OR count is the phase's at the end of the SR. Set 4 began blue (2 ORs); NOR's first
    brown in OR 4.2 (brown: 3 ORs) does not add an OR 4.3: the next round is SR 5, then 3 ORs."""
    g = chain("or4.2")
    assert phase(g) == "brown" and round_kind(g) == "stock" and g.state.round["number"] == 5
    end_sr(g)
    assert g.state.round["count"] == 3


def test_saint_germain_tile_after_havre_in_the_same_turn():
    """§10.2: Havre's tile and station are the company's "entire track build and station marker placement";
    Saint-Germain's E14 tile may be laid "at any time in its operations" and "is in addition to the
    company's normal track build". PLM (940) buys SG (40), HAV (60) and TB (15): 825; Havre 80: 745;
    then E14 (no fee, no terrain): still 745, SG stays open."""
    g = chain("sr2")
    until_turn(g, "PLM")
    g.do("buy-private PLM SG 40", "buy-private PLM HAV 60", "buy-private PLM TB 15", "token PLM --using HAV")
    assert cash(g, "PLM") == 745
    # Toulouse's tile belongs to the track step, which Havre's power took (RULES §10.2 "Use")
    refused(g, "tile PLM 0 --using TB", match="track")
    g.do("tile PLM 0 --using SG")
    assert cash(g, "PLM") == 745 and not closed(g, "SG")
    # and the other way round: E14 first, then Havre's tile and station
    other = chain("sr2")
    until_turn(other, "PLM")
    other.do("buy-private PLM SG 40", "buy-private PLM HAV 60", "tile PLM 0 --using SG", "token PLM --using HAV")
    assert cash(other, "PLM") == 760
