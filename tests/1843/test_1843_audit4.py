"""1843, a fourth audit: the cases the earlier audits left, each figure worked by hand from the rule
it cites (seed 000, the June 2016 LyX; section numbers of seed 001; digest /work/shared/rules/1843.md):
I8 (Lyon-Mediterranee closes at brown although PLM never bought a train), A28 (a dividend to 500 in the
last OR of a set: no foreigners' discard, straight to scoring), A6 (a marker moved by an emergency
sale re-sorts the companies still to operate, and the moved one operates in this OR), A11 (a pool
certificate discarded on its x2 side, and the option that keeps it so). Openings and readers:
openings_1843.py.
"""

from __future__ import annotations

import pytest
from openings_1843 import (CHAIN, P4, cash, cell, closed, corp_now, end_sr, idle, phase, play_or, pool_sides, price,
                           refused, round_kind, standard_auction, supply_left, train_sides, turns, until_turn, value)
from openings_1843 import table as game


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


def test_a_dividend_to_500_in_the_last_or_of_a_set_ends_the_game_without_the_foreigners():
    """§8.10.1 #3b, A28: reaching 500 by a paid dividend ends the game at the end of that OR; the
    companies after it still operate, then straight to scoring: no foreigners' discard although that
    OR ends the set (§5 only discards "before the next stock round").
    PLM (par 94 through LM) and MID (par 67) float in SR 1. OR 1.1 PLM withholds ((5,3) -> (5,2)) and
    buys a 2+1, then pays 100 every OR (a 4+1 in its first green OR); MID idles. PLM is at (3,14) =
    337 at SR 11 (blue: one 5+2 gone with the last green). There P4 sells one PLM share: down one
    row to (4,14) = 291 (§7.7). Set 11 (2 ORs): up the right edge to (3,14), (2,14); set 12: OR 12.1
    (1,14) = 454, OR 12.2 the last of the set: (0,14) = 500."""
    g = game()
    standard_auction(g, plm_par=94)
    turns(g, "buy P4 PLM", "par P1 MID 67", "buy P2 PLM", "buy P3 MID", "buy P4 PLM", "buy P1 PLM",
          "buy P2 MID", "buy P4 MID", "buy P1 MID")
    sold = False
    for _ in range(200):
        if round_kind(g) == "stock":
            if g.state.round["number"] == 11 and not sold:
                assert cell(g, "PLM") == (3, 14) and phase(g) == "blue"
                turns(g, "sell P4 PLM 1")
                assert cell(g, "PLM") == (4, 14) and price(g, "PLM") == 291
                sold = True
            end_sr(g)
            continue
        if corp_now(g) != "PLM":
            idle(g)
            continue
        if cell(g, "PLM") == (1, 14):
            break
        if not train_sides(g, "PLM"):
            g.do("withhold PLM 0", "train PLM 2+1", "done PLM")
            continue
        g.do("pay PLM 100")
        if phase(g) == "green" and "4+1" not in train_sides(g, "PLM"):
            g.do("train PLM 4+1")
        g.do("done PLM")
    r = g.state.round
    assert (r["set"], r["index"], r["count"]) == (12, 2, 2), "PLM's turn in the last OR of set 12"
    blues = supply_left(g, "blue")
    g.do("pay PLM 100")
    assert cell(g, "PLM") == (0, 14) and price(g, "PLM") == 500
    g.do("done PLM")
    assert not g.state.game_over and corp_now(g) == "MID", "the rest of the OR is played"
    idle(g)
    assert g.state.game_over and "500" in (g.state.end_reason or "")
    assert supply_left(g, "blue") == blues, "no foreigners' discard after the game-ending OR"


def test_a_waiting_marker_moved_by_an_emergency_sale_operates_later_in_the_same_or():
    """A6, D7.3 (§7.7, §8.2, §8.8.3): a sale in a forced train purchase moves another company's marker
    mid-OR; the companies that have not operated are re-sorted at once, and the moved one still
    operates in this OR, at its new place.
    SR 1 (P4 first; PLM par 94 through LM at (5,3)): EST (P1), MID (P3), OU (P4) are parred at 67 in
    that order, new markers under the old (A7): (13,7) holds EST, MID, OU top first. Buys: PLM P4, P1,
    P3, P3 (floats 940); MID P2, P1, P2, P4; OU P4, P4, P1, P2; EST P2, P2, P4, P2: all float with 670.
    Cash: P1 475-134-94-67-67 = 113, P2 430-6x67 = 28, P3 350-134-188 = 28, P4 540-94-134-4x67 = 44.
    OR 1.1 (incomes P1 20, P2 30, P3 40, P4 15): PLM withholds ((5,3) -> (5,2) = 90) and buys a 2+1
    (LM closes, §10.2); EST, MID, OU withhold to (13,6) = 64, each face-down over the ones moved before
    (§8.2): OU, MID, EST top first. OU buys PLM's 2+1 for 660 (any agreed price, §8.8.1): OU 10.
    OR 2.1 (P3 now only SG's 10): P4 59 + 15 = 74. PLM buys the 2+1 back for 1fr: OU 11, no train.
    OU withholds to (13,5) and must buy the supply's 2+1 at 125: short 125 - 11 - 74 = 40 (§8.8.3).
    P4 sells one MID share at 64 (P4 138): MID (13,6) -> (14,6) = 59 (§7.7). EST (64) now operates
    before MID (59). OU pays 11 and P4 114: P4 24, OU 0."""
    g = game()
    standard_auction(g, plm_par=94)
    turns(g, "buy P4 PLM", "par P1 EST 67", "par P3 MID 67", "par P4 OU 67",
          "buy P1 PLM", "buy P2 MID", "buy P3 PLM", "buy P4 OU", "buy P1 MID", "buy P2 MID", "buy P3 PLM",
          "buy P4 OU", "buy P1 OU", "buy P2 EST", "buy P4 MID", "buy P2 EST", "buy P4 EST", "buy P2 EST",
          "buy P2 OU")
    assert {p: cash(g, p) for p in P4} == {"P1": 113, "P2": 28, "P3": 28, "P4": 44}
    assert all(g.state.corps[c].floated for c in ("PLM", "EST", "MID", "OU"))
    end_sr(g)
    assert g.state.round["order"] == ["PLM", "EST", "MID", "OU"]
    play_or(g, {"PLM": ["withhold PLM 0", "train PLM 2+1", "done PLM"],
                "OU": ["withhold OU 0", "train OU 2+1 --from PLM --price 660", "done OU"]})
    assert cell(g, "OU") == cell(g, "MID") == cell(g, "EST") == (13, 6) and cash(g, "OU") == 10
    end_sr(g)
    assert g.state.round["order"] == ["PLM", "OU", "MID", "EST"]
    assert cash(g, "P4") == 74
    g.do("withhold PLM 0", "train PLM 2+1 --from OU --price 1", "done PLM")
    assert corp_now(g) == "OU" and cash(g, "OU") == 11 and not train_sides(g, "OU")
    g.do("withhold OU 0")
    refused(g, "train OU 2+1", match="114")
    g.do("sell P4 MID 1")
    assert cash(g, "P4") == 138 and cell(g, "MID") == (14, 6) and price(g, "MID") == 59
    g.do("train OU 2+1", "done OU")
    assert cash(g, "P4") == 24 and cash(g, "OU") == 0
    seen = []
    for _ in range(2):
        seen.append(corp_now(g))
        idle(g)
    assert seen == ["EST", "MID"]
    assert round_kind(g) == "stock"


@pytest.mark.parametrize("as_discarded", [False, True])
def test_a_pool_certificate_discarded_on_its_x2_side_is_bought_on_the_side_the_buyer_takes(as_discarded):
    """A11 (§8.8.1, §8.8.3): a double-sided certificate in the pool is sold at the face of the side the
    buyer takes (default), so it is the cheapest train of a forced purchase on its cheap side; the
    option pool_train_side_as_discarded sells it only on the side it was discarded on.
    Train era, OR 2.2 after the first blue (blue, 3/3): PLM holds 3/5x2, 4+1, 5+2 (4 trains) and
    discards the 3/5x2 to the pool. OU (120, no train; director P4 62) must buy the cheapest train:
    the pool certificate as a 4+1 at 300 (not the supply's 5+2 at 350): short 180; P4 hands in HAV
    (60: 122) and sells a PLM share at 81 (203), pays 180 and keeps 23. Read as discarded, the pool
    certificate is a 3/5x2 at 500 and the supply's 5+2 at 350 is the cheapest: short 230."""
    g = game(pool_train_side_as_discarded=True) if as_discarded else game()
    for _label, step in CHAIN[:5]:   # up to and including the first blue
        step(g)
    assert train_sides(g, "PLM") == ["3/5x2", "4+1", "5+2"] and phase(g) == "blue"
    g.do("discard PLM 3/5x2", "done PLM")
    assert pool_sides(g) == ["3/5x2"]
    until_turn(g, "OU", {"ETA": ["withhold ETA 100", "done ETA"]})
    assert cash(g, "OU") == 120 and cash(g, "P4") == 62
    g.do("withhold OU 0")
    if as_discarded:
        refused(g, "train OU 4+1 --from pool", match="3/5x2")
        refused(g, "train OU 3/5x2 --from pool", match="5\\+2")
        refused(g, "train OU 5+2", match="230")
        return
    refused(g, "train OU 5+2", match="300")
    refused(g, "train OU 3/5x2 --from pool", match="300")
    g.do("sell P4 HAV", "sell P4 PLM 1")
    assert cash(g, "P4") == 203
    g.do("train OU 4+1 --from pool")
    assert cash(g, "P4") == 23 and cash(g, "OU") == 0 and train_sides(g, "OU") == ["4+1"]
    assert pool_sides(g) == []
