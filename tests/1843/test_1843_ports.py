"""1843's ports (RULES §8.5.3, §8.1, §8.9; rulesets/1843/ports.py): a port claimed in the station step ends
the track step. (Claims paying from the next OR and sales between companies: test_1843_opening_rounds.py.)
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import chain, offers_tile, refused, until_turn


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
