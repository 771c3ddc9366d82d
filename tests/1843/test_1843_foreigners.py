"""1843's foreigners (RULES §5, §8.1; rulesets/1843/foreigners.py): after the last OR of each set the bank takes
the next supply train, and a first train of its colour starts a phase: the foreigners start blue (E13).
The digest's worked cases E13 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import (end_sr, pending_corps, phase, play_or, pool_sides, round_kind, sr1_train_era, supply_left,
                           table as game, train_sides)


def test_e13_foreigners_start_blue():
    """E13: "End of a set in green phase with one green certificate left in the supply. The foreigners
    take it. It was the last green, so they also take the first blue. Blue phase begins before the SR:
    all yellow trains rust; the 3/3 limit is enforced (excess goes to the pool); 6 blue certificates
    remain. The next set has 2 ORs, because the phase at the end of that SR is blue."
    The train-era SR 1, then: OR 1.1 MID two 2+1, OU three 2+1 and a 2x2, ETA the first green (370);
    foreigners: green 2. OR 2.1: PLM a 4+1 and a 3/5x2; ETA withholds 1000 and buys a 3/5x2 and a 4+1
    (4 trains on 3 certificates). One green is left through OR 2.2."""
    g = game()
    sr1_train_era(g)
    play_or(g, {
        "PLM": ["withhold PLM 0", "done PLM --no-route"],
        "MID": ["withhold MID 0", "train MID 2+1", "train MID 2+1", "done MID"],
        "OU": ["withhold OU 0", "train OU 2+1", "train OU 2+1", "train OU 2+1", "train OU 2x2", "done OU"],
        "ETA": ["withhold ETA 0", "train ETA 4+1", "done ETA"],
    })
    assert phase(g) == "green" and supply_left(g, "green") == 5
    play_or(g, {
        "PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"],
        "ETA": ["withhold ETA 1000 --force --reason 'test position'", "train ETA 3/5x2", "train ETA 4+1", "done ETA"],
    })
    assert supply_left(g, "green") == 1 and phase(g) == "green"
    play_or(g)  # OR 2.2: nobody buys; at its end the foreigners buy
    assert phase(g) == "blue"
    assert supply_left(g, "green") == 0 and supply_left(g, "blue") == 6
    assert train_sides(g, "MID") == [] and train_sides(g, "OU") == []
    assert train_sides(g, "PLM") == ["3/5x2", "4+1"]
    assert pending_corps(g) == ["ETA"], "ETA holds 4 trains on 3 certificates, over 3/3"
    g.do("discard ETA 4+1")
    assert train_sides(g, "ETA") == ["3/5x2", "4+1"] and pool_sides(g) == ["4+1"]
    assert round_kind(g) == "stock"
    end_sr(g)
    assert (g.state.round["set"], g.state.round["index"], g.state.round["count"]) == (3, 1, 2)
    play_or(g)
    assert round_kind(g) == "operating" and (g.state.round["set"], g.state.round["index"]) == (3, 2)
