"""1843's ports (RULES §8.5.3, §8.1, §8.9; rulesets/1843/ports.py): a port claimed in the station step ends
the track step. (Claims paying from the next OR and sales between companies: test_1843_opening_rounds.py.)
The digest's worked cases E23 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import (cash, chain, end_sr, offers_tile, play_or, port_owner, refused, standard_auction, turns,
                           until_turn, table as game)


def test_no_track_after_a_port_claim():
    """RULES §8.1: a company lays track, then places a station or claims a port, then runs. After ETA
    claims Bordeaux its track step is over: a tile is refused and the hint no longer offers one."""
    g = chain("first-blue")
    g.do("discard PLM 4+1", "done PLM")
    until_turn(g, "ETA")
    assert offers_tile(g)
    g.do("port ETA bordeaux")
    assert not offers_tile(g)
    refused(g, "tile ETA 0", match="claimed a port")


# --------------------------------------------------------------------------- E23: ports

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
