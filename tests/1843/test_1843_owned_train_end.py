"""1843's owned-train end (RULES §8.10.1 #4; rulesets/1843/owned_train_end.py): the game ends after the set in
which a company owned the first Electric; the foreigners' first Electric does not count (E16).
The digest's worked cases E16 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import cash, chain, end_sr, idle, phase, refused, round_kind, supply_left, train_sides, until_turn


def test_e16_gray_end_trigger_company_buys_first_electric():
    """E16, first case: "The set after the SR is red phase: 3 ORs. In OR2 a company buys the first
    Electric, so gray phase starts. This is set 1 with a gray train. The foreigners then discard one
    Electric. SR. The next set has 4 ORs (gray) and is set 2: the game ends after its OR4."
    Also E22: "Moving a station in gray phase: 100, once per company"."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    assert (g.state.round["set"], g.state.round["index"]) == (6, 2)
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    until_turn(g, "MID")
    g.do("withhold MID 0", "train MID TGV", "done MID")
    while round_kind(g) == "operating":
        idle(g)
    assert not g.state.game_over and round_kind(g) == "stock"
    assert supply_left(g, "gray") == 18 - 3, "ETA's, MID's and the foreigners' Electric"
    end_sr(g)
    assert (g.state.round["set"], g.state.round["index"]) == (7, 1)
    until_turn(g, "ETA")
    eta = cash(g, "ETA")
    g.do("token ETA --move")
    assert eta - cash(g, "ETA") == 100
    idle(g)
    until_turn(g, "ETA")
    assert (g.state.round["set"], g.state.round["index"]) == (7, 2)
    refused(g, "token ETA --move", match="once")
    for index in (2, 3, 4):
        while round_kind(g) == "operating" and g.state.round["index"] == index:
            assert not g.state.game_over
            idle(g)
        if index < 4:
            assert not g.state.game_over and g.state.round["index"] == index + 1
    assert g.state.game_over


def test_e16_foreigners_first_electric_does_not_count():
    """E16, second case: "The foreigners bought the first gray train at the end of a set. That set does
    not count. The next (4-OR) set counts only if some company owns a gray train during it." Nobody buys
    an Electric in set 6: the foreigners take the first one. ETA buys one in OR 7.1: set 7 is the first
    counted set, set 8 the second."""
    g = chain("or6.1")
    while round_kind(g) == "operating":
        idle(g)
    assert phase(g) == "gray" and supply_left(g, "gray") == 17
    assert all(train_sides(g, c) == [] for c in ("PLM", "MID", "SO", "NOR", "OU", "ETA"))
    end_sr(g)
    assert (g.state.round["set"], g.state.round["count"]) == (7, 4)
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    while round_kind(g) == "operating":
        idle(g)
    assert not g.state.game_over, "set 7 is only the first set with a company-owned gray train"
    end_sr(g)
    assert g.state.round["set"] == 8
    while not g.state.game_over and round_kind(g) == "operating":
        idle(g)
    assert g.state.game_over
