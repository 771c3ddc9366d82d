"""1843's game end and score (RULES §8.10): a player's value after the auction, a dividend to 500 in the
last OR of a set (§8.10.1 #3b, A28: no foreigners' discard), a tie at the top, which stands, and a bankruptcy
refused while the director can still sell (§8.8.3, A21).
The digest's worked cases E10, E11 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from conftest import Table
from openings_1843 import (bank_cash, cash, cell, chain, corp_now, end_sr, idle, opened, owner, pct, phase, price,
                           refused, round_kind, standard_auction, supply_left, table as game, train_sides, turn,
                           turns, until_turn, value)

from ledger.interface import views


def test_values_after_the_auction():
    """§8.10.2: cash + privates at face + shares at their price (A20: the unparred ETA share has
    none)."""
    g = opened()
    # P2: 430 cash + CEI 20 + BA 150 + unparred ETA 10 % (no price: 0) = 600
    assert value(g, "P2") == 600
    # P3: 350 + SG 40 + LM 210 + PLM director 20 % at 67 = 134 -> 734
    assert value(g, "P3") == 734


def test_a_tie_at_the_top_stands():
    """§8.10.2: "There is no tie-breaker." 3 players (800): three all-pass rounds give P1 Toulouse free
    (3 yellows gone); two more take Ceinture to 10 (5 gone); P2, after P1, buys it for 10; a sixth brief OR
    pays P2 Ceinture's 5 and discards the last yellow: the game ends (§8.10.1 #2). P1 800 + 15 = 815,
    P2 795 + 20 = 815, P3 800: P1 and P2 share first place."""
    g = game(["P1", "P2", "P3"])
    for _ in range(15):
        g.do(f"pass {turn(g)}")
    assert owner(g, "TB") == "P1" and g.state.privates["CEI"].price == 10 and supply_left(g, "yellow") == 1
    assert turn(g) == "P2"
    g.do("buy P2 CEI", "pass P3", "pass P1", "pass P2")
    assert g.state.game_over
    score = g.score()
    assert {p: (score[p]["cash"], score[p]["value"], score[p]["rank"]) for p in score} == {
        "P1": (800, 815, 1), "P2": (795, 815, 1), "P3": (800, 800, 3)}


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


# --------------------------------------------------------------------------- §8.8.3: bankrupt only when sold out

def ou_in_gray() -> Table:
    """ETA bought the first TGV in OR 6.2: gray, every other train gone. OU (0fr, director P4 with 384fr)
    must buy the cheapest train its director may pay for, a TGV at 900fr (relics never qualify). P4 may
    not sell OU (P3 also holds 30 %) but can sell ETA 1 x 47, MID 1 x 47, NOR 2 x 47, PLM 1 x 54 and
    SO 1 x 66 = 308fr: 384 + 308 = 692 < 900, so he is bankrupt once he has sold them all."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    assert g.state.round["corp"] == "OU" and cash(g, "OU") == 0 and cash(g, "P4") == 384
    assert [price(g, c) for c in ("ETA", "MID", "NOR", "PLM", "SO")] == [47, 47, 47, 54, 66]
    g.do("withhold OU 0")
    return g


def test_bankrupt_is_refused_while_the_director_can_still_sell():
    g = ou_in_gray()
    error = refused(g, "bankrupt P4", match="not bankrupt")
    for part in ("ETA 1", "MID 1", "NOR 2", "PLM 1", "SO 1", "308fr"):
        assert part in error.message, (part, error.message)
    refused(g, "sell P4 OU 1", match="president|director")
    g.do("sell P4 ETA 1", "sell P4 MID 1", "sell P4 NOR 2", "sell P4 PLM 1")
    assert cash(g, "P4") == 384 + 47 + 47 + 94 + 54
    error = refused(g, "bankrupt P4", match="SO 1")
    assert "66fr" in error.message
    g.do("sell P4 SO 1")
    assert cash(g, "P4") == 692
    bank = bank_cash(g)
    events = g.do("bankrupt P4")
    assert g.state.game_over and g.state.end_reason == "bankruptcy"
    assert cash(g, "P4") == 692 and bank_cash(g) == bank, "A21: the game ends as things stand; no money moves"
    line = views.describe(next(e for e in events if e["kind"] == "bankrupt"), g.rs)
    assert "to the bank" not in line and "692fr" in line and "keeps" in line, line


# --------------------------------------------------------------------------- E10, E11: 500 ends the game

def plm_towards_500(stop) -> tuple[Table, int]:
    """E10/E11 game: PLM (par 94 through LM) floats in SR 1 with MID (par 67); PLM pays 100 every OR
    (after a first withhold and a 2+1; a 4+1 in its first green OR) and MID withholds, until
    `stop(g)` holds while PLM sits at (1,14) = 454. Returns the game and PLM's number of payouts."""
    g = game()
    standard_auction(g, plm_par=94)
    turns(g, "buy P4 PLM", "par P1 MID 67", "buy P2 PLM", "buy P3 MID", "buy P4 PLM", "buy P1 PLM",
          "buy P2 MID", "buy P4 MID", "buy P1 MID")
    assert g.state.corps["PLM"].floated and g.state.corps["MID"].floated
    pays = 0
    for _ in range(500):
        if cell(g, "PLM") == (1, 14) and stop(g):
            return g, pays
        if round_kind(g) == "stock":
            end_sr(g)
            continue
        if corp_now(g) != "PLM":
            idle(g)
            continue
        held = train_sides(g, "PLM")
        if not held:
            assert pays == 0
            g.do("withhold PLM 0", "train PLM 2+1", "done PLM")
            continue
        g.do("pay PLM 100")
        pays += 1
        if phase(g) == "green" and "4+1" not in held:
            g.do("train PLM 4+1")
        g.do("done PLM")
    raise AssertionError("PLM never reached 454")


def test_e10_dividend_to_500_ends_the_game_at_the_end_of_that_or():
    """E10: "(1,14) = 454: up to (0,14) = 500: the game ends at the end of this OR, and the remaining
    companies still operate in it" (rules §8.10.1 #3b; A28: no further OR of the set).
    PLM (par 94 through LM) floats in SR 1 with MID (par 67). OR 1.1: PLM withholds ((5,3) -> (5,2) = 90)
    and buys a 2+1; from then on it pays every OR. From (5,2): 11 pays to (5,13), then (4,13), (4,14),
    (3,14), (2,14), (1,14) = 16 pays, the 17th reaches 500.
    Trains: 5 yellows left; the foreigners take one per set, the last with the first green at the end of
    set 5; PLM buys a 4+1 in set 6; the last green and the first blue go at the end of set 10 (yellow
    rusts, PLM keeps its 4+1). Pays: sets 2-5 one each, sets 6-10 two each (14), set 11 two (16):
    PLM is at 454 when its turn in OR 12.1 comes. MID (no train) withholds every OR."""
    g, pays = plm_towards_500(lambda g: round_kind(g) == "operating" and corp_now(g) == "PLM")
    assert pays == 16 and price(g, "PLM") == 454
    assert (g.state.round["set"], g.state.round["index"]) == (12, 1)
    assert phase(g) == "blue" and train_sides(g, "PLM") == ["4+1"]
    g.do("pay PLM 100")
    assert cell(g, "PLM") == (0, 14) and price(g, "PLM") == 500
    assert not g.state.game_over, "the OR is finished first"
    g.do("done PLM")
    assert not g.state.game_over and corp_now(g) == "MID", "the remaining companies still operate"
    idle(g)
    assert g.state.game_over
    assert "500" in (g.state.end_reason or "")


def test_e11_sold_out_to_500_ends_the_game_at_once():
    """E11: "(1,14) = 454: up to 500: game ends immediately, so the OR set is not played" (rules
    §8.10.1 #3a). The E10 game at SR 12, PLM at 454: the players buy PLM's last four IPO certificates."""
    g, pays = plm_towards_500(lambda g: round_kind(g) == "stock")
    assert pays == 16 and g.state.round["number"] == 12
    turns(g, "buy P1 PLM", "buy P2 PLM", "buy P3 PLM", "buy P4 PLM")
    assert pct(g, "ipo", "PLM") == 0 and pct(g, "pool", "PLM") == 0
    end_sr(g)
    assert g.state.game_over
    assert cell(g, "PLM") == (0, 14) and price(g, "PLM") == 500
    assert g.state.round["after"]["kind"] == "stock", "no operating round was started"
