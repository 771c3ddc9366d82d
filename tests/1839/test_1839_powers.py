"""1839's private companies' powers on the engine (tests/conftest.py's Table; §12; digest D7, D11.4,
D14), each figure worked from the rules in the comments."""

from __future__ import annotations

import pytest

from openings_1839 import POWERS_GREEN as SETUP, new_table


# The table's own limit for this test (README "A table's own market"): five trains in yellow and
# green instead of four, so that a company holding four can still buy with a private's power.
RULES = """
[[phases]]
name = "yellow"
on_train = "2"
train_limit = 5
ors = 1
tiles = ["yellow"]
par_colours = ["yellow"]
[[phases]]
name = "green"
on_train = "3+"
train_limit = 5
ors = 2
tiles = ["yellow", "green"]
par_colours = ["yellow", "green"]
[[phases]]
name = "blue"
on_train = "5+"
train_limit = 4
ors = 2
tiles = ["yellow", "green"]
par_colours = ["yellow", "green", "blue"]
[[phases]]
name = "brown"
on_train = "7+"
train_limit = 3
ors = 3
tiles = ["yellow", "green", "brown"]
par_colours = ["yellow", "green", "blue", "brown"]
[[phases]]
name = "red"
on_train = "5D+"
train_limit = 2
ors = 3
tiles = ["yellow", "green", "brown"]
par_colours = ["yellow", "green", "blue", "brown"]
[[phases]]
name = "gray"
on_train = "FLOOD"
train_limit = 2
ors = 3
tiles = ["yellow", "green", "brown", "gray"]
par_colours = ["yellow", "green", "blue", "brown"]
"""


@pytest.fixture(scope="module")
def green_master(tmp_path_factory):
    """OR 2.1 in green: AMS (ƒ150 + ƒ30 from SLE and IJR; SLE, IJR on its charter) operates first,
    then ZHESM (ƒ270)."""
    rules = tmp_path_factory.mktemp("powers") / "limit5.toml"
    rules.write_text(RULES)
    b = new_table("Ann Ben", rules=rules)       # new 1839 Ann Ben --rules limit5.toml
    b.play(SETUP)
    s = b.status()
    assert s["round"] == "OR 2.1" and s["operating"] == "AMS" and s["phase"] == "green"
    return b


@pytest.fixture
def game(green_master):
    return green_master.copy()


def company(b, sym):
    return next(c for c in b.status()["companies"] if c["sym"] == sym)


def private(b, sym):
    return next(p for p in b.status()["privates"] if p["sym"] == sym)


def cash(b, who):
    return next(p for p in b.status()["players"] if p["name"] == who)["cash"]


def test_a_staatslijn_lays_several_tiles_at_10_each_as_the_whole_lay(game):
    before = company(game, "AMS")["cash"]
    game.do("lay AMS SLE 3 --terrain 80")            # 3 x ƒ10 + ƒ80 terrain (§12.2)
    assert company(game, "AMS")["cash"] == before - 110
    assert private(game, "SLE")["closed"]               # closes on use
    # the private's tiles were the turn's lay: no normal tile now; only IJzeren Rijn's extra tiles,
    # which come on top of the lay (digest Y5), are still offered
    from ledger.core import legal
    assert {o.values for o in legal.offers(game.state, game.rs, "tile")} == {(("using", "IJR"),)}
    assert "has laid" in game.refused("tile AMS 0")


def test_a_staatslijn_lays_at_most_four(game):
    assert "1 to 4 tiles" in game.refused("lay AMS SLE 5")


def test_ijzeren_rijn_lays_extra_tiles_for_their_terrain_only_in_one_turn(game):
    before = company(game, "AMS")["cash"]
    game.do("tile AMS 80")                           # the normal lay: ƒ80 terrain
    game.do("tile AMS 80 --using IJR")               # extra tiles, terrain only (§12.2) ...
    game.do("tile AMS 0 --using IJR")                # ... in any or all of L11-L17 in that use
    assert company(game, "AMS")["cash"] == before - 160
    assert not private(game, "IJR")["closed"]
    game.do("pay AMS 60", "done AMS")               # the use is over with the turn: it closes
    assert private(game, "IJR")["closed"]


def test_spoorwegwerken_oost_halves_a_station_rounded_up(game):
    game.do("buy-private AMS SWO 150")                # green: ƒ1 to face (ƒ300)
    before = company(game, "AMS")["cash"]
    # location ƒ25 x 1 location (AMS's home) = ƒ25; half, rounded up (B9): ƒ13
    game.do("token AMS 25 --using SWO --city Utrecht")
    assert company(game, "AMS")["cash"] == before - 13
    assert private(game, "SWO")["closed"]


def test_cornelis_outshoorn_places_a_free_station(game):
    game.do("pay AMS 60", "done AMS")
    game.do("buy-private ZHESM CO 100")
    before = company(game, "ZHESM")["cash"]
    game.do("token ZHESM 40 --using CO --city Delft")
    assert company(game, "ZHESM")["cash"] == before
    assert company(game, "ZHESM")["tokens_left"] == 3


def test_a_company_buys_a_private_for_at_most_its_face(game):
    assert "ƒ1 to ƒ300" in game.refused("buy-private AMS SWO 301")
    assert "never be bought" in game.refused("buy-private AMS RWS 100")


def test_credit_mobilier_takes_100_off_a_green_train_once(game):
    game.do("buy-private AMS CM 1")                   # Ben gets ƒ1
    game.do("pay AMS 60")
    before = company(game, "AMS")["cash"]
    game.do("train AMS 3+ --using CM")                # ƒ250 - ƒ100 (green, §12.5)
    assert company(game, "AMS")["cash"] == before - 150
    assert private(game, "CM")["closed"]                # single use (B21)
    assert "CM is closed" in game.refused("train AMS 3+ --using CM")


def test_credit_mobilier_is_for_a_supply_train(game):
    game.do("buy-private AMS CM 1")
    game.do("pay AMS 60")
    assert "from the supply" in game.refused("train AMS 2 --from ZHESM --price 50 --using CM")


def test_beyer_peacock_sells_saved_markers_for_200(game):
    game.do("buy-private AMS BP 1")
    game.do("pay AMS 60", "done AMS")
    zhesm = company(game, "ZHESM")["cash"]
    ams = company(game, "AMS")["cash"]
    game.do("withhold ZHESM 0")
    game.do("save ZHESM BP 2")                        # ƒ200: ƒ50 to AMS, ƒ150 to the bank
    assert company(game, "ZHESM")["cash"] == zhesm - 200
    assert company(game, "AMS")["cash"] == ams + 50
    # a second marker costs another ƒ200, more than ZHESM's ƒ70 left
    assert "has ƒ70, not ƒ200" in game.refused("save ZHESM BP 2")
    assert sum(1 for e in game.events if e["kind"] == "train_saved") == 1   # one recorded


def test_a_private_without_saved_markers_has_no_such_power(game):
    game.do("pay AMS 60")                             # a SAVED marker is placed after the run (§12.5)
    assert "no SAVED markers" in game.refused("save AMS SLE 2")


def test_beyer_peacocks_owner_does_not_buy_its_own_markers(game):
    game.do("buy-private AMS BP 1", "pay AMS 60")
    assert "sold to other companies" in game.refused("save AMS BP 2")


def test_nflm_income_is_paid_and_counts_twice_abroad(game):
    ann = cash(game, "Ann")
    game.do("income NFLM 60 --abroad DUI")
    assert cash(game, "Ann") == ann + 60
    assert "paid this OR" in game.refused("income NFLM 60")
    # a public route pars DUI (80) this OR: DUI's income is half of (100 + 2 x 60), rounded up to 200
    game.do("pay AMS 100 --abroad DUI")
    assert game.status()["revenue_track"]["AMS"] == {"revenue": 100, "abroad": ["DUI"]}
    game.do("done AMS")
    game.do("withhold ZHESM 0")
    game.do("done ZHESM")
    dui = company(game, "DUI")
    assert dui["cash"] == 100 + 100                     # half of 200 to its charter, 2 x 50 units x ƒ2
    assert dui["price"] == 89
    # status shows the foreign company and the track; JSON gives the track of the OR just played
    out = game.status_text()
    assert "DUI: ƒ89, charter ƒ200, 50 units unsold, 0 in the pool" in out
    # OR 2.2 has begun: the track starts from nothing again (§8.1)
    assert game.status()["revenue_track"] == {}


def test_regiment_genietroepen_needs_its_company(game):
    assert "--with rg is RG's power: RG is closed" in game.refused("tile AMS 80 --with rg")   # not drawn


def test_a_staatslijn_lay_does_not_keep_the_company_from_placing_a_marker(game):
    game.do("lay AMS SLE 2")                          # §12.2: "does not preclude" a station marker
    before = company(game, "AMS")["cash"]
    game.do("token AMS 20 --city Venlo")              # ƒ20 x 1 location
    assert company(game, "AMS")["cash"] == before - 20


def test_no_company_ends_its_turn_without_a_train_by_pleading_no_route(game):
    game.do("pay AMS 60")
    assert "must own a train after its turn" in game.refused("done AMS --no-route")


def test_a_private_station_is_still_the_turns_one_marker(game):
    game.do("buy-private AMS SWO 100")
    game.do("token AMS 20 --city Venlo")               # the turn's marker
    assert "one a turn" in game.refused("token AMS 30 --using SWO --city Utrecht")
