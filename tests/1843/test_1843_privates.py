"""1843's other privates (RULES §10.1, §10.2, §15.4): companies buy them from players only, for 1fr to twice
face, from green (A10); a company's private pays the treasury; Saint-Germain's and Havre's once-only
tiles, Toulouse-Barcelone's in the track step only; Lyon-Mediterranee closing with PLM's first train and
every private closing at brown (I8).
The digest's worked cases E22 and A15 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

import pytest
from conftest import Table
from openings_1843 import (FORCE, cash, chain, closed, corp_now, end_sr, green_after_set_one, idle, owner, phase,
                           play_or, refused, standard_auction, supply_left, table as game, train_sides, turns,
                           until_turn, value)


def test_private_price_between_1_and_twice_face():
    """§10.1: from green a company buys a private from a player for 1fr to 2 x face, paid to the
    player."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "done PLM"]})
    refused(g, "buy-private ETA VDL 221", match="220")
    refused(g, "buy-private ETA VDL 0")
    had = cash(g, "P2")
    g.do("buy-private ETA CEI 40")
    assert cash(g, "P2") == had + 40 and owner(g, "CEI") == "ETA"


def test_company_owned_private_pays_the_company():
    """§10.1: a private bought by a company pays its revenue to the treasury from the next OR start."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "done PLM"]})
    g.do("buy-private ETA CEI 40", "withhold ETA 0", "done ETA")
    eta = cash(g, "ETA")
    play_or(g)   # the rest of OR 2.1; OR 2.2 starts with CEI paying ETA 5 (§8.1, §10.1)
    assert cash(g, "ETA") - eta == 5


def test_lm_closes_when_plm_buys_a_train_from_another_company():
    """§10.2: LM is never bought by a company, and closes when PLM acquires a train, from another
    company too (any price of at least 1fr, §8.8.1)."""
    g = chain("sr2")
    until_turn(g, "PLM")
    refused(g, "buy-private PLM LM 210")
    g.do("withhold PLM 0")
    refused(g, "train PLM 2+1 --from OU --price 0")
    g.do("train PLM 2+1 --from OU --price 1")
    assert closed(g, "LM")


def test_saint_germain_and_havre_tiles_only_once():
    """§10.2: Saint-Germain lays E14 "if one has not already been placed there"; Havre's power "is not
    available if a track tile has already been placed at Le Havre (C14)"."""
    g = chain("sr2")
    until_turn(g, "PLM")
    g.do("buy-private PLM SG 40", "buy-private PLM HAV 60", "tile PLM 0 --using SG", "withhold PLM 0",
         "train PLM 4+1", "done PLM")
    play_or(g)
    until_turn(g, "PLM")
    g.do("token PLM --using HAV", "withhold PLM 0", "done PLM")
    play_or(g)
    until_turn(g, "PLM")
    refused(g, "tile PLM 0 --using SG", match="used")
    refused(g, "token PLM --using HAV", match="used")


def test_saint_germain_tile_after_havre_in_the_same_turn():
    """§10.2: Havre's tile and station are the company's "entire track build and station marker placement";
    Saint-Germain's E14 tile may be laid "at any time in its operations" and "is in addition to the
    company's normal track build". PLM (940) buys SG (40), HAV (60) and TB (15): 825; Havre 80: 745;
    then E14 (no fee, no terrain): still 745, SG stays open."""
    g = chain("sr2")
    until_turn(g, "PLM")
    g.do("buy-private PLM SG 40", "buy-private PLM HAV 60", "buy-private PLM TB 15", "token PLM --using HAV")
    assert cash(g, "PLM") == 745
    # Toulouse's tile belongs to the track step, which Havre's power took (RULES §10.2 "Use")
    refused(g, "tile PLM 0 --using TB", match="track")
    g.do("tile PLM 0 --using SG")
    assert cash(g, "PLM") == 745 and not closed(g, "SG")
    # and the other way round: E14 first, then Havre's tile and station
    other = chain("sr2")
    until_turn(other, "PLM")
    other.do("buy-private PLM SG 40", "buy-private PLM HAV 60", "tile PLM 0 --using SG", "token PLM --using HAV")
    assert cash(other, "PLM") == 760


def test_no_private_changes_hands_between_companies():
    """§10.1, A10: companies buy privates from players only. ETA buys Ceinture from P2 (OR 2.1, green);
    OU may not buy it from ETA."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "done PLM"]})
    g.do("buy-private ETA CEI 40", "withhold ETA 0", "done ETA")
    until_turn(g, "OU")
    refused(g, "buy-private OU CEI 10", match="player")
    assert owner(g, "CEI") == "ETA"


def test_a_company_owned_private_closes_at_brown_and_stops_paying():
    """§10.1, §15.4: "All the private companies close immediately at the start of brown phase", a company's
    too. OR 4.1 (blue): MID buys Ceinture from P2 for 40 (595 - 40 = 555 after its 5+2). OR 4.2 starts
    with Ceinture's 5 to MID (560) and Boulogne-Amiens' 25 to P2; NOR buys the first brown: Ceinture closes. OR 5.1 pays MID nothing."""
    g = chain("sr4")
    p2 = cash(g, "P2")
    play_or(g, {
        "SO": ["withhold SO 0", "train SO 4/6x2", "train SO 5+2", "done SO"],
        "NOR": ["withhold NOR 0", "train NOR 4/6x2", "done NOR"],
        "MID": ["buy-private MID CEI 40", "withhold MID 0", "train MID 5+2", "done MID"],
    })
    # the end of OR 4.1 starts OR 4.2, whose first step pays Ceinture's 5 to MID (§8.1): 555 + 5; P2 has
    # the 40 and Boulogne-Amiens' 25, no longer Ceinture's 5
    assert owner(g, "CEI") == "MID" and cash(g, "MID") == 560 and cash(g, "P2") - p2 == 40 + 25
    until_turn(g, "SO")
    g.do("withhold SO 0", "done SO")
    until_turn(g, "NOR")
    g.do(f"withhold NOR 1000 {FORCE}", "train NOR 5E")
    assert phase(g) == "brown" and closed(g, "CEI")
    g.do("done NOR")
    until_turn(g, "MID")
    assert (g.state.round["set"], g.state.round["index"]) == (4, 2)
    g.do("withhold MID 0", "done MID")
    until_turn(g, "MID")
    assert (g.state.round["set"], g.state.round["index"]) == (5, 1) and cash(g, "MID") == 560


@pytest.mark.parametrize("survives", [False, True])
def test_lyon_mediterranee_closes_at_brown_although_plm_never_bought_a_train(survives):
    """I8 (§10.1, §15.4 over §10.2's "when PLM acquires a train"): every private closes at the start
    of brown, Lyon-Mediterranee too; the option lm_survives_brown plays §10.2 alone. Nobody floats a
    company: PLM is parred through LM (67) and never floats, so it never acquires a train. The
    foreigners alone empty the supply (§5): one certificate after each set, two when it was the last
    of its colour. Yellow 6: sets 1-5 take five, set 6 the last yellow and the first green (green);
    green 6 left: sets 7-11 take five, set 12 the last green and the first blue (blue); blue 6 left:
    sets 13-17 five, set 18 the last blue and the first brown. Sets 1-6 are yellow sets of 1 OR (the
    length is the phase at the end of the SR, T2), sets 7-18 green or blue sets of 2 ORs: 6 + 24 = 30
    ORs in which P3's SG 10 and LM 30 pay him 40: 350 + 1200 = 1550. Set 19 (brown) has 3 ORs."""
    g = game(lm_survives_brown=True) if survives else game()
    standard_auction(g, plm_par=67)
    assert cash(g, "P3") == 350
    for _ in range(18):
        assert phase(g) != "brown" and not closed(g, "LM")
        end_sr(g)
    assert phase(g) == "brown" and supply_left(g, "brown") == 5
    assert not g.state.corps["PLM"].floated and not train_sides(g, "PLM")
    assert closed(g, "SG") and closed(g, "LM") != survives
    assert cash(g, "P3") == 1550
    end_sr(g)
    if survives:
        # LM pays 30 in each of set 19's 3 ORs and scores its face (§8.10.2): 1640 + 210 + PLM 2 x 67
        assert cash(g, "P3") == 1550 + 3 * 30 and value(g, "P3") == 1640 + 210 + 134
        return
    # no private pays any more; a closed private scores nothing, the PLM director certificate 2 x 67 does
    assert cash(g, "P3") == 1550
    assert value(g, "P3") == 1550 + 134


# --------------------------------------------------------------------------- §10.2: Toulouse-Barcelone in the track step, Saint-Germain at any time

def eta_owns_tb() -> Table:
    """OR 2.1 (green: companies may buy privates, §10.1). ETA (245fr) buys TB from P1 for 15fr: 230fr."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"]})
    assert cash(g, "ETA") == 245
    g.do("buy-private ETA TB 15")
    assert owner(g, "TB") == "ETA" and cash(g, "ETA") == 230
    return g


def test_toulouse_barcelone_tile_only_in_the_track_step():
    """RULES §10.2: TB's extra yellow tile "may be used during the track-building step", immediately
    before or after the normal build, for 20fr plus terrain; the private then closes. Not after the
    company has run, nor once its station step (§8.1, step 3) has begun."""
    ran = eta_owns_tb()
    ran.do("withhold ETA 100")
    refused(ran, "tile ETA 0 --using TB", match="§10.2")
    stationed = eta_owns_tb()
    stationed.do("token ETA")  # ETA's second station, 40fr: the station step follows the track step
    refused(stationed, "tile ETA 0 --using TB", match="§10.2")
    g = eta_owns_tb()
    g.do("tile ETA 0 --using TB")  # 20fr and no terrain, before the normal build: 230 - 20
    assert cash(g, "ETA") == 210 and closed(g, "TB")
    g.do("tile ETA 0", "withhold ETA 0")


def test_saint_germain_tile_any_time_in_the_operation():
    """RULES §10.2: Saint-Germain's E14 tile "may be used at any time during a company's operation"; it
    has no fee (terrain only, A9). PLM (940fr: it ran for 0 in OR 1.1) buys SG from P3 for 40fr, runs,
    then lays the E14 tile: 900fr."""
    g = chain("sr2")
    until_turn(g, "PLM")
    assert cash(g, "PLM") == 940
    g.do("buy-private PLM SG 40", "withhold PLM 0", "tile PLM 0 --using SG")
    assert cash(g, "PLM") == 900 and not closed(g, "SG")


# --------------------------------------------------------------------------- A15, E22: privates in yellow, Havre

def test_a15_no_private_sales_to_companies_in_yellow_with_four_players():
    """A15 / rules §8.3, §10.1: in yellow phase only 5- and 6-player games let a company buy Val de Loire;
    with 4 players companies buy privates from green on."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 79", "buy P2 MID", "buy P3 MID", "buy P1 MID", "buy P2 MID")
    end_sr(g)
    assert corp_now(g) == "MID"
    refused(g, "buy-private MID VDL 110", match="green|5|6")
    refused(g, "buy-private MID VDL 110 --as-train", match="green|5|6")


def test_e22_havre_and_the_next_station():
    """E22: "OU using Havre (80, tile + station at C14): 80. OU's next station: probably 100, since
    Havre's station was OU's first placed marker (A5)." Havre replaces the whole track and station step.
    Companies buy privates from green on, so OU (floated in SR 1) buys HAV from P4 in OR 2.1 (green)."""
    g = game()
    green_after_set_one(g)
    turns(g, "par P4 OU 67", "buy P1 OU", "buy P2 OU", "buy P3 OU", "buy P4 OU")
    play_or(g, {"OU": ["withhold OU 0", "done OU --no-route"]})
    assert phase(g) == "green"
    until_turn(g, "OU")
    p4 = cash(g, "P4")
    g.do("buy-private OU HAV 60")
    assert cash(g, "OU") == 610 and cash(g, "P4") == p4 + 60
    laid = g.copy()  # a tile already laid this turn: Havre's tile and station replace the whole step
    laid.do("tile OU 0")
    refused(laid, "token OU --using HAV", match="HAV|Havre|track|tile")
    g.do("token OU --using HAV")
    assert cash(g, "OU") == 530
    refused(g, "tile OU 0", match="HAV|Havre|track|tile")
    refused(g, "token OU", match="one|already|this|station")
    g.do("withhold OU 0", "done OU --no-route")
    until_turn(g, "OU")
    assert (g.state.round["set"], g.state.round["index"]) == (2, 2)
    assert cash(g, "OU") == 530 + 15, "HAV now pays its 15 to OU"
    g.do("token OU")
    assert cash(g, "OU") == 545 - 100
    idle(g, "OU")
    until_turn(g, "OU")
    refused(g, "token OU", match="station|token|left")
