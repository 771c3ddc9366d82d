"""1843's train buying (RULES §8.8): colours in order and the train limit of the phase, trains between
companies at any agreed price, the director's money in a forced purchase only up to the shortfall
(§8.8.3, A22), the side a pool certificate is sold on (A11), and a certificate sold, capped and discarded on
the side it is held on (§8.8.1, §8.8.3).
The digest's worked cases E12, E14, E15 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

import pytest
from conftest import Table
from openings_1843 import (CHAIN, P4, PRIVATES, cash, cell, chain, closed, owner, pending_corps, phase, pool_sides,
                           president, price, refused, supply_left, table as game, train_sides, until_turn)


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


def test_train_between_companies_at_any_agreed_price():
    """§8.8.1: between companies any agreed price (minimum 1fr), above face when no director money
    is in it."""
    g = chain("sr2")
    until_turn(g, "PLM")
    g.do("withhold PLM 1000 --force --reason 'test position'")
    plm, ou = cash(g, "PLM"), cash(g, "OU")
    g.do("train PLM 2+1 --from OU --price 400")   # above face: no director money, any agreed price (§8.8.1)
    assert plm - cash(g, "PLM") == 400 and cash(g, "OU") - ou == 400


def test_emergency_stops_raising_once_the_shortfall_is_covered():
    """§8.8.3, A22: the director raises money only until the shortfall (180) is covered."""
    g = chain("first-blue")
    g.do("discard PLM 4+1", "done PLM")
    until_turn(g, "OU", {"ETA": ["withhold ETA 100", "done ETA"]})
    g.do("withhold OU 0", "sell P4 PLM 2")
    # 62 + 2 x 81 = 224 >= 180: HAV may not be discarded as well (A22)
    refused(g, "sell P4 HAV")


@pytest.mark.parametrize("as_discarded", [False, True])
def test_a_pool_certificate_discarded_on_its_x2_side_is_bought_on_the_side_the_buyer_takes(as_discarded):
    """A11 (§8.8.1, §8.8.3): a double-sided certificate in the pool is sold at the face of the side the
    buyer takes (default), so it is the cheapest train of a forced purchase on its cheap side; the
    option pool_train_side_as_discarded sells it only on the side it was discarded on.
    Train era, OR 2.2 after the first blue (blue, 3/3): PLM holds 3/5x2, 4+1, 5+2 (4 trains) and
    discards the 3/5x2 to the pool. OU (120, no train; director P4 62) must buy the cheapest train:
    the pool certificate as a 4+1 at 300 (not the supply's 5+2 at 350): short 180; P4 hands in HAV
    (60: 122) and sells a PLM share at 81 (203), pays 180 and keeps 23. Read as discarded, the pool
    certificate is a 3/5x2 at 500 and the supply's 5+2 at 350 is the cheapest: short 230."""
    g = game(pool_train_side_as_discarded=True) if as_discarded else game()
    for _label, step in CHAIN[:5]:   # up to and including the first blue
        step(g)
    assert train_sides(g, "PLM") == ["3/5x2", "4+1", "5+2"] and phase(g) == "blue"
    g.do("discard PLM 3/5x2", "done PLM")
    assert pool_sides(g) == ["3/5x2"]
    until_turn(g, "OU", {"ETA": ["withhold ETA 100", "done ETA"]})
    assert cash(g, "OU") == 120 and cash(g, "P4") == 62
    g.do("withhold OU 0")
    if as_discarded:
        refused(g, "train OU 4+1 --from pool", match="3/5x2")
        refused(g, "train OU 3/5x2 --from pool", match="5\\+2")
        refused(g, "train OU 5+2", match="230")
        return
    refused(g, "train OU 5+2", match="300")
    refused(g, "train OU 3/5x2 --from pool", match="300")
    g.do("sell P4 HAV", "sell P4 PLM 1")
    assert cash(g, "P4") == 203
    g.do("train OU 4+1 --from pool")
    assert cash(g, "P4") == 23 and cash(g, "OU") == 0 and train_sides(g, "OU") == ["4+1"]
    assert pool_sides(g) == []


# --------------------------------------------------------------------------- §8.8.3: the face value of the side held, a side is a train

def ou_in_emergency(plm_keeps: str) -> Table:
    """E14's position: blue phase, OU (120fr, no train, a route) operates after ETA; its director P4 has
    62fr, Havre, two PLM shares at 81 and 30 % of OU. PLM bought the first blue holding a 4+1 and a 3/5x2
    and got within 3/3 either by discarding the 4+1 to the pool ('discard') or by turning the 3/5x2 to
    its 4+1 side ('flip'). P4 then hands Havre to the bank (60) and sells a PLM share (81): 62 + 60 + 81
    = 203fr."""
    g = chain("first-blue")
    g.do("discard PLM 4+1" if plm_keeps == "x2" else "flip PLM 3/5x2", "done PLM")
    until_turn(g, "OU", {"ETA": ["withhold ETA 100", "done ETA"]})
    assert cash(g, "OU") == 120 and cash(g, "P4") == 62 and train_sides(g, "OU") == []
    g.do("withhold OU 0", "sell P4 HAV", "sell P4 PLM 1")
    assert cash(g, "P4") == 203
    return g


def test_x2_side_bought_from_a_company_is_capped_at_the_x2_face():
    """RULES §8.8.3: with the director's money a train from another company costs at most its face
    value; §8.8.1: a double-sided certificate's face is the price of the side it is on. PLM holds its
    green certificate on the 3/5x2 side, face 500fr (not the 4+1's 300fr). OU may pay 320fr: OU's 120fr
    and 200fr from P4, who keeps 3fr; PLM (790fr after buying its 5+2) receives 320fr."""
    g = ou_in_emergency("x2")
    assert train_sides(g, "PLM") == ["3/5x2", "5+2"] and cash(g, "PLM") == 790
    refused(g, "train OU 3/5x2 --from PLM --price 501", match="500fr")
    events = g.do("train OU 3/5x2 --from PLM --price 320")
    bought = next(e for e in events if e["kind"] == "train_bought")
    assert (bought["side"], bought["price"], bought["contribution"]) == ("3/5x2", 320, 200)
    assert train_sides(g, "OU") == ["3/5x2"] and train_sides(g, "PLM") == ["5+2"]
    assert cash(g, "OU") == 0 and cash(g, "P4") == 3 and cash(g, "PLM") == 790 + 320


def test_a_certificate_is_sold_on_the_side_it_is_held_on():
    """What is sold is the certificate as it lies: asking for PLM's 4+1 when PLM's green certificate is
    on its 3/5x2 side (two trains, face 500fr) must not hand OU both trains at a 4+1's price; asking for
    a 3/5x2 when PLM's greens are on their 4+1 sides must not pass off a 4+1."""
    g = ou_in_emergency("x2")
    refused(g, "train OU 4+1 --from PLM --price 250", match="3/5x2")
    flipped = ou_in_emergency("single")
    assert train_sides(flipped, "PLM") == ["4+1", "4+1", "5+2"]
    refused(flipped, "train OU 3/5x2 --from PLM --price 250", match="4\\+1")
    refused(flipped, "train OU 4+1 --from PLM --price 301", match="300fr")
    flipped.do("train OU 4+1 --from PLM --price 300")
    assert train_sides(flipped, "OU") == ["4+1"] and cash(flipped, "P4") == 203 - 180


def test_a_discard_names_the_side_the_certificate_is_on():
    """PLM's blue certificate lies on its 5+2 side: `discard PLM 4/6x2` names a train PLM does not
    have and is refused (before, it threw the 5+2 away), saying which side the blue certificate is on."""
    g = chain("first-blue")
    assert sorted(train_sides(g, "PLM")) == ["3/5x2", "4+1", "5+2"]
    refused(g, "discard PLM 4/6x2", match="on the 5\\+2 side")


# --------------------------------------------------------------------------- the train era: E12, E14, E15

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
