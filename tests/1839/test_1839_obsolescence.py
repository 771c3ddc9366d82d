"""1839 on the way to brown, with a short train roster (tests/data/1839/short-roster.toml, the
table-side `--rules` override) so that brown comes after five trains: Nederlandsche Fabriek's
trains before the run, Beijnes exchanged for a train, the first 7+ making every private obsolete
once its buyer finishes its turn, and the privates closing at their points (§12.1, §12.5, D7.5,
D14.17, D0.1 #6)."""

from __future__ import annotations

import pytest

from openings_1839 import GREEN_SHORT, SHORT_ROSTER, audit, new_table

ROSTER, SETUP = SHORT_ROSTER, GREEN_SHORT


@pytest.fixture
def game():
    assert ROSTER.is_file(), f"missing {ROSTER}"
    b = new_table("Ann Ben", rules=ROSTER)      # new 1839 Ann Ben --rules short-roster.toml
    b.play(SETUP)
    s = b.status()
    assert (s["round"], s["phase"], s["operating"]) == ("OR 2.1", "green", "ZHESM")
    return b


def company(b, sym):
    return next(c for c in b.status()["companies"] if c["sym"] == sym)


def closed(b) -> set:
    return {p["sym"] for p in b.status()["privates"] if p["closed"]}


def test_nederlandsche_fabriek_buys_a_train_before_the_run(game):
    assert "must run first" in game.refused("train ZHESM 3+")
    game.do("buy-private ZHESM NF 1")
    game.do("train ZHESM 3+")                          # before its run (§12.5)
    assert company(game, "ZHESM")["trains"] == ["3+", "3+"]


def test_beijnes_is_exchanged_for_a_train_and_the_phase_follows(game):
    game.do("pay ZHESM 100", "done ZHESM", "buy-private AMS JJB 1", "pay AMS 100")
    cash = company(game, "AMS")["cash"]
    game.do("train AMS 3+ --using JJB")                # the last 3+, for nothing (B15)
    assert company(game, "AMS")["cash"] == cash
    assert "JJB" in closed(game)
    game.do("done AMS")


def test_the_first_7_plus_makes_the_privates_obsolete_after_its_buyers_turn(game):
    game.do("buy-private ZHESM NF 1", "train ZHESM 3+", "pay ZHESM 100", "done ZHESM")
    game.do("buy-private AMS JJB 1", "pay AMS 100", "train AMS 5+ --using JJB")   # blue: the 2s rust
    assert company(game, "AMS")["trains"] == ["5+"]
    game.do("done AMS")
    # OR 2.2: AMS (ƒ67) above ZHESM; ZHESM buys the first 7+
    game.do("pay AMS 50", "done AMS", "withhold ZHESM 500", "train ZHESM 7+")
    s = game.status()
    assert s["phase"] == "brown"
    # D0.1 #6: until ZHESM finishes, a company may still buy a private
    game.do("buy-private ZHESM CO 1")
    game.do("done ZHESM")
    # the next SR began: every obsolete private closed (D7.5)
    assert game.status()["round"] == "SR 3"
    owned_before = {"SLC", "SLD", "SLE", "SLK", "IJR", "ZK", "LVG", "SHZ", "CO", "RWS", "SWO", "VVD", "LSW", "NF"}
    assert owned_before <= closed(game)
    audit(game)

