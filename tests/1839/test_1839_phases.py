"""1839's phases (§5 table, §17): each phase's trains rust a colour and set the train limit, a set of ORs keeps
the length fixed when its stock round ended, gray's sets have 3 ORs, and the privates go obsolete and
close at their points on the way (§12.1, D7.5, B20); the first 5+ starts blue when the sixth 5+ left the
game at the draws (§4, §3). The tiny train roster (tests/data/1839/tiny-roster.toml,
a table's `--rules` override) brings a short game to red and gray; revenues above what the map could give
are typed with --force.
Rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x", its corrections D0.1
and best readings "B n". Every figure is worked by hand in the comments; engine only (tests/conftest.py's
Table); openings and positions: openings_1839.py.
"""

from __future__ import annotations

from openings_1839 import FORCE, audit, closed, new_table, orun
from openings_1839 import tiny_brown  # noqa: F401  (fixtures, used by name)


def test_each_phase_rusts_its_colour_sets_its_limit_and_the_set_keeps_its_length(tiny_brown):
    """§5 table, §17: brown removes the 3+ and the limit becomes 3, red removes the 5+ (limit 2),
    gray the 7+ (limit 2); the set of ORs fixed when the SR ended keeps its length (§7.1: green's
    2, though brown has 3); gray's sets have 3 ORs (the table; A4). §12.1 (D7.5, B20): the privates go
    obsolete as ZHESM finishes; AMS, whose turn began later, closes its own as it finishes; the
    players' pay once more in OR 2.2's private step and close; the yellow privates of companies that
    do not operate still pay their charters in OR 2.2 and close as SR 3 begins."""
    t = tiny_brown.copy()
    s = t.status()
    assert (s["phase"], s["train_limit"], t.trains("ZHESM"), t.cash("ZHESM")) == ("brown", 3, ["5+", "7+"], 150)
    t.do("done ZHESM")
    # AMS (no train) withholds 0: 62 -> 55, three boxes stopped by the floor (59, 56, 55); it buys
    # the last 7+ (700): AMS's 660 and Ann's 40 (§8.2.7.3)
    t.do("withhold AMS 0", "train AMS 7+")
    assert (t.price("AMS"), t.cash("AMS"), t.cash("Ann"), t.trains("AMS")) == (55, 0, 200, ["7+"])
    assert not {"SLE", "IJR"} & closed(t)
    t.do("done AMS")
    assert {"SLE", "IJR"} <= closed(t)
    # OR 2.2 (begun at once), the set's second: the players' privates paid and closed: Ann LVG 5 + SHZ 20 + SWO 25 +
    # VVD 15 + JJB 0 = 65 (265); Ben CO 20 + RWS 35 + LSW 15 + NF 20 = 90 (430); the charters of SS,
    # NWS, HIJSM (unfloated) get their Staatslijn's 20: 40 -> 60 each
    assert t.round() == "OR 2.2"
    assert (t.cash("Ann"), t.cash("Ben")) == (265, 430)
    assert (t.cash("SS"), t.cash("NWS"), t.cash("HIJSM")) == (60, 60, 60)
    assert {"LVG", "SHZ", "SWO", "VVD", "JJB", "CO", "RWS", "LSW", "NF"} <= closed(t)
    assert not {"SLC", "SLD", "SLK", "ZK"} & closed(t)
    # ZHESM (56, above AMS at 55) withholds 1500 (1650; 56 -> 55) and buys the 5D+ (400): red
    t.do(f"withhold ZHESM 1500 {FORCE}", "train ZHESM 5D+")
    s = t.status()
    assert (s["phase"], s["train_limit"], t.trains("ZHESM"), t.cash("ZHESM")) == ("red", 2, ["5D+", "7+"], 400)
    t.do("done ZHESM")
    # AMS withholds 2300 and buys the first FLOOD (300): gray; every 7+ leaves the game
    t.do(f"withhold AMS 2300 {FORCE}", "train AMS FLOOD")
    s = t.status()
    assert (s["phase"], s["train_limit"], t.trains("AMS"), t.trains("ZHESM"), t.cash("AMS")) == \
        ("gray", 2, ["FLOOD"], ["5D+"], 300)
    t.do("done AMS")
    assert t.round() == "SR 3"                          # the set of 2 is over
    assert {"SLC", "SLD", "SLK", "ZK"} <= closed(t)       # §12.1: "a stock round starts"
    t.do("pass Ann", "pass Ben")
    seen = []
    while t.round().startswith("OR"):
        seen.append(t.round())
        orun(t)
    assert (seen, t.round()) == (["OR 3.1", "OR 3.2", "OR 3.3"], "SR 4")
    audit(t)


# --------------------------------------------------------------------------- §4, §17: the sixth 5+ left at the draws

# Kabinet-Rochussen instead of Verveers: neither Beijnes nor Verveers + Credit Mobilier are drawn,
# so the sixth 5+ leaves the game at the draws (§4) and five 5+ remain.
NO_SIXTH_5_OPENING = """
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
    t.play(NO_SIXTH_5_OPENING)
    s = t.status()
    assert s["phase"] == "green"
    five = next(r for r in s["train_roster"] if r["type"] == "5+")
    assert five["left"] == 5                        # the sixth left the game at the draws
    t.play("train ZHESM 5+")
    s = t.status()
    trains = {c["sym"]: sorted(c["trains"]) for c in s["companies"] if c["floated"]}
    assert s["phase"] == "blue"
    assert trains == {"NBDS": ["3+"], "ZHESM": ["5+"], "AMS": ["3+", "3+"], "NCS": ["3+"] * 4}
