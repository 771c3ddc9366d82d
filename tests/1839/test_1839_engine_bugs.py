"""Tests of engine bugs found while writing test_1839_rules.py (reported to the maintainers with the
rule references; they pass since the fixes). Each is worked by hand from the
rules (shared/seeds/003_aa544c940024c360.txt "§", shared/rules/1839.md "D")."""

from __future__ import annotations

from openings_1839 import (F_AUCTION_1, F_AUCTION_2, F_CHIPS_1, F_CHIPS_2, F_DRAWS, F_SR1_A, F_SR1_B, F_SR1_C, F_SR1_D,
                           new_table)

# Kabinet-Rochussen instead of Verveers: neither Beijnes nor Verveers + Credit Mobilier are drawn,
# so the sixth 5+ leaves the game at the draws (§4) and five 5+ remain.
OPENING = """
deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80 --order Ann,Ben,Cy,Dee
discount Ann LVG 60
discount Ben SWO 60
discount Cy CO 60
discount Dee SWO 40
discount Ann KR 40
discount Ben VVD 40
deal --order Ann,Ben,Cy,Dee
buy Ann LVG
buy Ben RWS
buy Cy SWO
buy Dee VVD
buy Ann CO
discount Ben LSW
discount Cy LSW
buy Dee LSW
discount Ann CM
buy Ben KR
buy Cy SHZ
discount Dee CM
buy Ann CM
buy Ben NBDS 2
buy Cy NBDS
par Ann ZHESM 72
buy Ann ZHESM
par Dee AMS 67
buy Dee AMS
pass Ben
buy Cy NBDS
buy Ann ZHESM 2
buy Dee AMS 3
pass Ben
buy Cy ZHESM
pass Ann
pass Dee
pass Ben
pass Cy
withhold NBDS 0
train NBDS 2
train NBDS 2
train NBDS 2
done NBDS
withhold ZHESM 0
train ZHESM 2
train ZHESM 2
done ZHESM
withhold AMS 0
train AMS 2
train AMS 2
done AMS
pass Ben
pass Ann
pass Dee
pass Cy
withhold NBDS 600
train NBDS 3+
done NBDS
withhold ZHESM 600
done ZHESM
withhold AMS 600
train AMS 3+
train AMS 3+
done AMS
pass Ben
pass Ann
par Dee NCS 67
buy Cy NCS
buy Ben NCS
buy Ann NCS
pass Dee
pass Cy
pass Ben
pass Ann
withhold NCS 0
train NCS 3+
train NCS 3+
done NCS
withhold NBDS 900
done NBDS
withhold AMS 900
done AMS
withhold ZHESM 600
done ZHESM
withhold NBDS 900
done NBDS
withhold NCS 330
train NCS 3+
train NCS 3+
done NCS
withhold AMS 900
done AMS
withhold ZHESM 600
"""


def test_the_first_5_plus_starts_blue_when_the_sixth_5_plus_left_the_game():
    """§4: the sixth 5+ leaves the game unless Beijnes, or Verveers and Credit Mobilier, are drawn.
    §3 ("Game phases change immediately when the first train of a new type is bought"), §5, §17: the
    first 5+ bought starts blue phase and every 2-train rusts at once. Here all seven 3+ are sold and
    ZHESM buys the first 5+: the phase must be blue and the 2-trains (NBDS 3, ZHESM 2, AMS 2) gone."""
    t = new_table("Ann Ben Cy Dee")
    t.play(OPENING)
    s = t.status()
    assert s["phase"] == "green"
    five = next(r for r in s["train_roster"] if r["type"] == "5+")
    assert five["left"] == 5                        # the sixth left the game at the draws
    t.play("train ZHESM 5+")
    s = t.status()
    trains = {c["sym"]: sorted(c["trains"]) for c in s["companies"] if c["floated"]}
    assert s["phase"] == "blue"
    assert trains == {"NBDS": ["3+"], "ZHESM": ["5+"], "AMS": ["3+", "3+"], "NCS": ["3+"] * 4}


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
