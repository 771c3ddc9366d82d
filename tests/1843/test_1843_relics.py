"""1843's rusted certificates in gray (RULES §15.6, §8.8.1; rulesets/1843/relics.py): every single
certificate returns to the supply, on its single side only, one per company, from the treasury alone,
bought between companies too, and thrown away to make room.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

import importlib

from openings_1843 import FORCE, cash, chain, phase, refused, supply_left, train_sides, until_turn

relics = importlib.import_module("rulesets.1843.relics")  # the title's package name starts with a digit


def gray_so_turn():
    """OR 6.2 of the train era: ETA buys the first Electric (gray); SO, next, has withheld 0."""
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


def test_at_gray_every_single_certificate_returns():
    """§15.6: "All yellow, blue, green, red and brown single trains are returned to the supply" -- every one,
    those the foreigners and the companies' rusting took too: yellow 6, green 7, blue 7, brown 6, red 6 (32);
    not Val de Loire's "2" (no supply train) and no Electric. ETA buys the first Electric in OR 6.2."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV")
    assert phase(g) == "gray"
    left = {name: len(relics.relics_left(g.state, name)) for name in ("yellow", "green", "blue", "brown", "red",
                                                                      "gray", "2")}
    assert left == {"yellow": 6, "green": 7, "blue": 7, "brown": 6, "red": 6, "gray": 0, "2": 0}
    assert supply_left(g, "gray") == 17


def gray_mid_turn():
    """OR 6.2 of the train era: ETA buys the first Electric (gray); SO buys a
    rusted 2+1 (125) and an Electric (900). MID (350, no train) is next."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    until_turn(g, "SO")
    g.do("withhold SO 0", "train SO 2+1", "train SO TGV", "done SO")
    until_turn(g, "MID")
    assert phase(g) == "gray" and cash(g, "MID") == 350 and train_sides(g, "SO") == ["2+1", "TGV"]
    return g


def test_a_second_rusted_certificate_is_refused_from_another_company_too():
    """§8.8.1: "A company cannot own more than one rusted train certificate" -- they "may be bought between
    companies in the normal manner", so the cap holds there too. MID (withholding 600: 950) buys a rusted
    5+2 from the supply (350: 600 left); SO's rusted 2+1 is then refused at any price."""
    g = gray_mid_turn()
    g.do(f"withhold MID 600 {FORCE}", "train MID 5+2")
    assert cash(g, "MID") == 600
    refused(g, "train MID 2+1 --from SO --price 1", match="at most 1")
    assert train_sides(g, "MID") == ["5+2"] and train_sides(g, "SO") == ["2+1", "TGV"]


def test_a_rusted_certificate_from_another_company_counts_as_the_one():
    """§8.8.1: SO's rusted 2+1 bought by MID for 100 (its treasury alone) is MID's one rusted certificate:
    no rusted 5+2 from the supply after it, and it does not meet the must-own-a-train rule."""
    g = gray_mid_turn()
    g.do("withhold MID 0")
    refused(g, "train MID 2+1 --from SO --price 400", match="treasury alone")
    g.do("train MID 2+1 --from SO --price 100")
    assert cash(g, "MID") == 250 and train_sides(g, "MID") == ["2+1"]
    refused(g, "train MID 5+2", match="at most 1")
    refused(g, "done MID", match="must buy")
