"""1843's station moves (RULES §8.5.2; rulesets/1843/station_moves.py): gray only, 100fr, once per game,
and the turn's station step.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import cash, chain, phase, refused, until_turn


def test_a_station_move_is_gray_only_costs_100_and_is_the_turns_station():
    """§8.5.2: "In gray phase, each company, once per game, may move one of its ... station markers ... for
    a cost of 100fr"; §8.3 step 3: place OR move a station OR claim a port, before the run. ETA cannot in
    red (OR 6.2); it buys the first Electric (gray). MID (350): the move costs exactly 100 (250 left), and
    then neither a station nor a port claim; a station first bars the move; after the run, no move."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    refused(g, "token ETA --move", match="gray")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    until_turn(g, "MID")
    assert phase(g) == "gray" and cash(g, "MID") == 350
    refused(g, "token MID --move 90", match="100")
    moved = g.copy()
    moved.do("token MID --move")
    assert cash(moved, "MID") == 250
    refused(moved, "token MID", match="station")
    refused(moved, "port MID bordeaux", match="station")
    placed = g.copy()
    placed.do("token MID")
    refused(placed, "token MID --move", match="station")
    g.do("withhold MID 0")
    refused(g, "token MID --move", match="before running")
