"""1839's public companies' own rules in an operating turn (rulesets/1839/publics.py): two tiles an OR (§8.2.3),
no station marker after the second (§8.2.4), and a train bought from a company holding marker-sale money
at most at face (§8.2.7.3).
Rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x", its corrections D0.1
and best readings "B n". Every figure is worked by hand in the comments; engine only (tests/conftest.py's
Table); openings and positions: openings_1839.py.
"""

from __future__ import annotations

from openings_1839 import (F_AUCTION_1, F_AUCTION_2, F_CHIPS_1, F_CHIPS_2, F_DRAWS, F_SR1_A, F_SR1_B, F_SR1_C,
                           F_SR1_D, new_table)
from openings_1839 import homes_master, nrs  # noqa: F401  (fixtures, used by name)


# --------------------------------------------------------------------------- §8.2.3 two tiles an OR, §8.2.4 no station after the second

def at_or1():
    """GAME F (openings_1839.py) up to its OR 1.1 (NBDS, Ben's, operating first)."""
    t = new_table("Ann Ben Cy Dee")
    for part in (F_DRAWS, F_CHIPS_1, F_CHIPS_2, F_AUCTION_1, F_AUCTION_2, F_SR1_A, F_SR1_B, F_SR1_C, F_SR1_D):
        t.play(part)
    return t


def test_a_company_may_lay_two_tiles_an_or():
    """§8.2.3 ("A public company may place zero, one or two track tiles in each operating round"):
    NBDS (ƒ1,010) lays a tile with no terrain cost, then a second on a river hex (ƒ80, §8.2.3 and
    §10 terrain): both are recorded and NBDS pays 80."""
    t = at_or1()
    assert t.company("NBDS")["cash"] == 1010
    t.play("tile NBDS 0")
    t.play("tile NBDS 80")
    assert t.company("NBDS")["cash"] == 930


def test_no_station_after_a_second_tile():
    """§8.2.4: a company cannot place an exchange or station marker in an OR in which it placed or
    upgraded a second track tile."""
    t = at_or1()
    t.play("tile NBDS 0")
    t.play("tile NBDS 0")
    t.refused("token NBDS 20 --city Tilburg")


# --------------------------------------------------------------------------- §8.2.7.3 marker-sale money

def test_a_train_bought_from_a_company_with_marker_sale_money_costs_at_most_face(nrs):
    # §8.2.7.3: "A train bought from another company with director's contributions or money raised
    # by selling stations cannot be bought for more than face value." NRS: a ƒ515 tile leaves ƒ155;
    # a station at a ƒ60 location (60 x 1) leaves ƒ95, short of a 2 (ƒ100) with no train, so it sells
    # that marker back for ƒ60: ƒ155. HIJSM's 2 then costs NRS at most its face, ƒ100.
    nrs.do("tile NRS 515", "token NRS 60 --city Gouda", "withhold NRS 0", "sell-token NRS 60 --city Gouda")
    assert nrs.cash("NRS") == 155
    nrs.refused("train NRS 2 --from HIJSM --price 150", "face", "§8.2.7.3")
    nrs.do("train NRS 2 --from HIJSM --price 100")
    assert nrs.cash("NRS") == 55
