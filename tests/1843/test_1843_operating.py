"""1843's operating rounds (RULES §5, §8.1-§8.7): private income at the start of an OR, dividends to the
players and the pool, a set's length fixed at the end of its stock round (T2), and the operating order
re-sorted when an emergency sale moves a waiting company's marker (A6), and the Next line offering the turn's
steps in the rules' order (§8.1, §8.4.1: a second yellow tile, no track after the station or the run, no
station when no marker is left; 1830's PRR for one tile and its four markers).
The digest's worked cases E6, E22 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from conftest import next_turn_of, opening_1830
from conftest import Table
from openings_1843 import (P4, bank_cash, cash, cell, chain, corp_now, end_sr, idle, mid_floated, offers_tile, order,
                           pct, phase, play_or, price, refused, round_kind, standard_auction, steps, table as game,
                           train_sides, turns, until_turn)

from ledger.interface import views


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


def test_a_set_keeps_the_length_of_the_phase_at_the_end_of_its_stock_round():
    """§5, T2: a set's OR count is the phase's at the end of the SR. Set 4 began blue (2 ORs); NOR's first
    brown in OR 4.2 (brown: 3 ORs) does not add an OR 4.3: the next round is SR 5, then 3 ORs."""
    g = chain("or4.2")
    assert phase(g) == "brown" and round_kind(g) == "stock" and g.state.round["number"] == 5
    end_sr(g)
    assert g.state.round["count"] == 3


def test_a_waiting_marker_moved_by_an_emergency_sale_operates_later_in_the_same_or():
    """A6, D7.3 (§7.7, §8.2, §8.8.3): a sale in a forced train purchase moves another company's marker
    mid-OR; the companies that have not operated are re-sorted at once, and the moved one still
    operates in this OR, at its new place.
    SR 1 (P4 first; PLM par 94 through LM at (5,3)): EST (P1), MID (P3), OU (P4) are parred at 67 in
    that order, new markers under the old (A7): (13,7) holds EST, MID, OU top first. Buys: PLM P4, P1,
    P3, P3 (floats 940); MID P2, P1, P2, P4; OU P4, P4, P1, P2; EST P2, P2, P4, P2: all float with 670.
    Cash: P1 475-134-94-67-67 = 113, P2 430-6x67 = 28, P3 350-134-188 = 28, P4 540-94-134-4x67 = 44.
    OR 1.1 (incomes P1 20, P2 30, P3 40, P4 15): PLM withholds ((5,3) -> (5,2) = 90) and buys a 2+1
    (LM closes, §10.2); EST, MID, OU withhold to (13,6) = 64, each face-down over the ones moved before
    (§8.2): OU, MID, EST top first. OU buys PLM's 2+1 for 660 (any agreed price, §8.8.1): OU 10.
    OR 2.1 (P3 now only SG's 10): P4 59 + 15 = 74. PLM buys the 2+1 back for 1fr: OU 11, no train.
    OU withholds to (13,5) and must buy the supply's 2+1 at 125: short 125 - 11 - 74 = 40 (§8.8.3).
    P4 sells one MID share at 64 (P4 138): MID (13,6) -> (14,6) = 59 (§7.7). EST (64) now operates
    before MID (59). OU pays 11 and P4 114: P4 24, OU 0."""
    g = game()
    standard_auction(g, plm_par=94)
    turns(g, "buy P4 PLM", "par P1 EST 67", "par P3 MID 67", "par P4 OU 67",
          "buy P1 PLM", "buy P2 MID", "buy P3 PLM", "buy P4 OU", "buy P1 MID", "buy P2 MID", "buy P3 PLM",
          "buy P4 OU", "buy P1 OU", "buy P2 EST", "buy P4 MID", "buy P2 EST", "buy P4 EST", "buy P2 EST",
          "buy P2 OU")
    assert {p: cash(g, p) for p in P4} == {"P1": 113, "P2": 28, "P3": 28, "P4": 44}
    assert all(g.state.corps[c].floated for c in ("PLM", "EST", "MID", "OU"))
    end_sr(g)
    assert g.state.round["order"] == ["PLM", "EST", "MID", "OU"]
    play_or(g, {"PLM": ["withhold PLM 0", "train PLM 2+1", "done PLM"],
                "OU": ["withhold OU 0", "train OU 2+1 --from PLM --price 660", "done OU"]})
    assert cell(g, "OU") == cell(g, "MID") == cell(g, "EST") == (13, 6) and cash(g, "OU") == 10
    end_sr(g)
    assert g.state.round["order"] == ["PLM", "OU", "MID", "EST"]
    assert cash(g, "P4") == 74
    g.do("withhold PLM 0", "train PLM 2+1 --from OU --price 1", "done PLM")
    assert corp_now(g) == "OU" and cash(g, "OU") == 11 and not train_sides(g, "OU")
    g.do("withhold OU 0")
    refused(g, "train OU 2+1", match="114")
    g.do("sell P4 MID 1")
    assert cash(g, "P4") == 138 and cell(g, "MID") == (14, 6) and price(g, "MID") == 59
    g.do("train OU 2+1", "done OU")
    assert cash(g, "P4") == 24 and cash(g, "OU") == 0
    seen = []
    for _ in range(2):
        seen.append(corp_now(g))
        idle(g)
    assert seen == ["EST", "MID"]
    assert round_kind(g) == "stock"


# --------------------------------------------------------------------------- the Next hint follows the turn's steps (§8.1, §8.4.1)


def test_next_hint_offers_the_second_yellow_tile():
    """RULES §8.4.1: MID may lay a second yellow tile (20fr); PLM and 1830's PRR lay one."""
    g = chain("sr1")
    assert g.state.round["corp"] == "PLM" and offers_tile(g)
    g.do("tile PLM 0")
    assert not offers_tile(g)
    g.do("withhold PLM 0", "done PLM --no-route")
    assert g.state.round["corp"] == "MID" and cash(g, "MID") == 670
    g.do("tile MID 0")
    assert offers_tile(g), views.whose_turn(g.state, g.rs)
    g.do("tile MID 0")
    assert cash(g, "MID") == 650 and not offers_tile(g)
    prr = opening_1830()
    assert offers_tile(prr)
    prr.do("tile PRR 0")
    assert not offers_tile(prr)


def test_next_hint_after_the_station_and_after_the_run():
    """Track comes before the station, both before the run (§8.1): the hint follows the same rule."""
    g = chain("sr1")
    g.do("token PLM")  # PLM's second station, 40fr
    assert not offers_tile(g) and "token" not in steps(g)
    ran = chain("sr1")
    ran.do("withhold PLM 0")
    assert not offers_tile(ran) and "token" not in steps(ran)


def test_next_hint_does_not_offer_a_station_when_no_marker_is_left():
    """PRR's charter holds four markers ($0 home, $40, $100, $100): once all are placed the hint stops
    offering `token`, and `token` is refused with the count."""
    g = opening_1830()
    for cost in ("40", "100", "100"):
        assert "token" in steps(g)
        g.do(f"token PRR {cost}", "done PRR --no-route")
        next_turn_of(g, "PRR")
    assert cash(g, "PRR") == 760 - 240
    assert "token" not in steps(g), views.whose_turn(g.state, g.rs)
    refused(g, "token PRR", match="no station tokens left")


# --------------------------------------------------------------------------- E6: dividends

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


# --------------------------------------------------------------------------- E22: stations, the second yellow tile, Paris (§8.4.1, §8.4.3, §8.5.1)

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
