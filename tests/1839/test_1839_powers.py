"""1839's private companies' powers on the engine (tests/conftest.py's Table; §12; digest D7, D11.4,
D14), each figure worked from the rules in the comments: the Staatslijnen and IJzeren Rijn's tiles, the
station privates, Schielands Hoge Zeedijk's tile and station as one of the two lays (§12.3), Credit Mobilier
by the train's or the phase's colour (B21, D0.1 #4), Beyer Peacock's and Verveers' SAVED markers toward
the limit and sold (B16), Beijnes within the train limit (B15), Rijkswaterstaat closing on a company's
train (B17), MEVS owned by a company (B19) and NFLM, Zevenaar-Kleef's station after a second tile (§12.2),
Rotterdamsche Bank's draw on its director (§12.5). Positions: openings_1839.py."""

from __future__ import annotations

import pytest

from openings_1839 import (FORCE, GREEN_SHORT, TINY, VV_CM, audit, balanced, closed, new_table, one_3_roster,
                           operating_ams, tokens_left, POWERS_GREEN as SETUP)
from openings_1839 import green, homes_master, nrs, vv_cm  # noqa: F401  (fixtures, used by name)


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


# --------------------------------------------------------------------------- §12.3 Schielands Hoge Zeedijk

@pytest.fixture(scope="module")
def shz_green():
    """OR 2.1 in green: AMS (ƒ180: 150 + SLE's 20 + IJR's 10) to operate; Ann directs it and owns
    Schielands Hoge Zeedijk (SHZ, face ƒ160)."""
    t = new_table("Ann Ben")
    t.play(SETUP)
    assert t.status()["operating"] == "AMS" and t.status()["phase"] == "green"
    return t


@pytest.fixture
def shz(shz_green):
    """AMS buys SHZ from Ann for ƒ60 (§12.1: green, ƒ1 to face): AMS keeps ƒ120."""
    t = shz_green.copy()
    t.do("buy-private AMS SHZ 60")
    return t


def test_schielands_tile_is_one_of_the_companys_two_tile_lays(shz):
    """§12.3: SHZ places a tile and a station together "as their yellow or upgrade track lay ... as
    one of the company's track lays" (§8.2.3: at most two tiles a turn). Its tile and station at
    Venlo cost ƒ80 in all; the company may then lay one tile more, not two."""
    before = shz.cash("AMS")
    shz.do("token AMS 80 --using SHZ --city Venlo")
    assert shz.cash("AMS") == before - 80
    shz.do("tile AMS 0")                                   # the turn's second lay
    shz.refused("tile AMS 0", "2 lays a turn")              # a third tile: none left
    balanced(shz)


def test_schielands_tile_needs_a_lay_left(shz):
    """§12.3: after two ordinary tiles the company has no track lay left for SHZ's tile (its station
    may follow a second tile, but its tile is still a lay)."""
    shz.do("tile AMS 0", "tile AMS 0")
    shz.refused("token AMS 0 --using SHZ --city Middelburg", "§12.3", "2 tiles of its 2")


def test_schielands_station_may_follow_the_first_tile(shz):
    """§12.3: "The power may be used to place an exchange or station marker even if the owning company
    places a second track tile": one ordinary tile, then SHZ's tile and station (free at Middelburg)
    as the second lay; no third tile."""
    before = shz.cash("AMS")
    shz.do("tile AMS 0", "token AMS 0 --using SHZ --city Middelburg")
    assert shz.cash("AMS") == before
    shz.refused("tile AMS 0")


# --------------------------------------------------------------------------- §12.3 Rijkswaterstaat (B17), §8.2.7.2 Beijnes (B15)

def test_b17_rijkswaterstaat_closes_when_its_company_buys_another_companys_train():
    """§12.3 (B17): Rijkswaterstaat closes when its company buys a train, a company's train too.
    openings_1839.operating_ams: AMS buys two 2s; SR 2: Ben and Ann buy NBDS at 101 until 40 % is
    left in the IPO: NBDS floats with 1010 (D14.4). OR 2.1: NBDS buys AMS's 2 for ƒ50 (§8.2.7.1:
    any price from ƒ1); Ben's Rijkswaterstaat closes."""
    t = operating_ams()
    t.do("train AMS 2", "train AMS 2", "done AMS")
    t.do("buy Ben NBDS", "buy Ben NBDS", "buy Ann NBDS", "pass Ben", "pass Ann")
    assert (t.status()["operating"], t.cash("NBDS")) == ("NBDS", 1010)
    t.do("withhold NBDS 0")
    ams = t.cash("AMS")
    assert "RWS" not in closed(t)
    t.do("train NBDS 2 --from AMS --price 50")
    assert (t.cash("NBDS"), t.cash("AMS"), t.trains("AMS")) == (960, ams + 50, ["2"])
    assert "RWS" in closed(t)
    audit(t)


def test_b15_beijnes_is_exchanged_only_within_the_train_limit(tmp_path):
    """§8.2.7.2, B15: a Beijnes exchange is a train bought, so it is held to the train limit. A
    roster with four 3+ (else the tiny one). OR 2.1 in green: AMS (ƒ660, two 2s) buys Beijnes from
    Ann for 1 and two 3+ (500): four trains, the limit; a third 3+ by exchange is refused."""
    roster = tmp_path / "four-3plus.toml"
    roster.write_text(TINY.read_text().replace('price = 250\ncount = 2', 'price = 250\ncount = 4'))
    t = new_table("Ann Ben", rules=roster)
    t.play(GREEN_SHORT)
    t.do("withhold ZHESM 0", "done ZHESM")
    t.do("buy-private AMS JJB 1", "withhold AMS 0", "train AMS 3+", "train AMS 3+")
    assert (t.trains("AMS"), t.cash("AMS")) == (["2", "2", "3+", "3+"], 660 - 1 - 500)
    t.refused("train AMS 3+ --using JJB", "limit of 4")
    assert "JJB" not in closed(t)


# --------------------------------------------------------------------------- §12.5 SAVED markers (B16)

def discards(t) -> dict:
    return {p["corp"]: p["count"] for p in t.state.pending if p["kind"] == "discard"}


def test_b16_a_saved_train_counts_toward_the_limit_once_its_type_rusts(vv_cm):
    """§12.5, D7.3, B16 (best reading: a saved train counts toward the limit until it is removed).
    OR 2.1: AMS buys Verveers from Ann for 1 (609; green: §12.1), withholds 3000 (3609; 62 -> 56, two
    boxes: no dividend, trains), puts VV's marker on its 3+ (VV closes: used), buys the three 5+
    (1350: 2259): blue at the first (ZHESM's 2s leave the game); AMS holds four, the limit.
    ZHESM (no train, 600) withholds 0 (62 -> 55: three boxes, stopped by the floor) and buys the
    first 7+ (700: its 600 and 100 of Ben's, 330 -> 230): brown, the limit is 3 and every 3+ leaves
    the game but AMS's SAVED one, which runs once more. AMS then holds four trains toward a limit of
    3 (§8.2.7.2): it discards one, out of the game, unpaid: it may be the SAVED 3+ itself."""
    t = vv_cm.copy()
    # §12.5 Verveers: "Use: ... during the train-purchasing step": after the run
    t.refused("save AMS VV 3+", "train-buying step", "§12.5")
    t.do(f"withhold AMS 3000 {FORCE}")
    t.refused("save AMS VV 3+", "VV is Ann's", "company that owns it", "§12.5")
    t.do("buy-private AMS VV 1", "save AMS VV 3+")
    assert "VV" in closed(t) and t.cash("AMS") == 3609
    t.refused("save AMS VV 3+", "VV is closed", "§12.5")
    t.do("train AMS 5+")
    assert (t.status()["phase"], t.trains("ZHESM")) == ("blue", [])
    t.do("train AMS 5+", "train AMS 5+", "done AMS")
    assert (t.trains("AMS"), t.cash("AMS")) == (["3+", "5+", "5+", "5+"], 2259)
    t.do("withhold ZHESM 0", "train ZHESM 7+")
    s = t.status()
    assert (s["phase"], s["train_limit"], t.cash("Ben"), t.price("ZHESM")) == ("brown", 3, 230, 55)
    assert t.trains("AMS") == ["3+ (obsolete)", "5+", "5+", "5+"]
    assert discards(t) == {"AMS": 1}
    t.do("discard AMS 3+")
    assert (t.trains("AMS"), discards(t)) == (["5+", "5+", "5+"], {})
    audit(t)


def test_b16_a_saved_train_sold_to_another_company_loses_its_marker(vv_cm):
    """§12.5 (Verveers): "the marker is discarded from the game and the protection removed from the
    train if the marked train is sold to another company". OR 2.1: AMS saves its 3+ as above and
    buys the three 5+ (blue: ZHESM's 2s leave). ZHESM (no train) withholds 1000 (1600; 62 -> 56)
    and buys AMS's SAVED 3+ for 1 (§8.2.7.1: any price from ƒ1) and the first 7+ (899): brown, and
    the 3+ it bought leaves the game like every other 3+."""
    t = vv_cm.copy()
    t.do("buy-private AMS VV 1", f"withhold AMS 3000 {FORCE}", "save AMS VV 3+")
    t.do("train AMS 5+", "train AMS 5+", "train AMS 5+", "done AMS")
    t.do(f"withhold ZHESM 1000 {FORCE}", "train ZHESM 3+ --from AMS --price 1")
    assert (t.trains("ZHESM"), t.trains("AMS"), t.cash("ZHESM")) == (["3+"], ["5+", "5+", "5+"], 1599)
    t.do("train ZHESM 7+")
    assert (t.status()["phase"], t.trains("ZHESM"), t.cash("ZHESM")) == ("brown", ["7+"], 899)
    assert discards(t) == {}
    audit(t)


# --------------------------------------------------------------------------- §12.5 Credit Mobilier (B21, D0.1 #4)

@pytest.mark.parametrize("option, price", [(None, 450 - 150), ("credit_mobilier_by_phase", 450 - 100)])
def test_b21_credit_mobilier_on_the_first_blue_train_bought_in_green(tmp_path, option, price):
    """§12.5 (Credit Mobilier: "Green: ƒ100, Blue: ƒ150, Brown: ƒ250"), D0.1 #4: by the train's
    colour (best reading) the first 5+, bought in green, is a blue train: 450 - 150 = 300; by the
    phase's colour (option credit_mobilier_by_phase) it is bought in green: 450 - 100 = 350. OR 2.1:
    AMS withholds 10 and passes; ZHESM buys CM from Ben for 1 (599), withholds 0 (its 2s: 62 -> 56)
    and buys the 5+ with it; CM closes (used, B21: once)."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM)
    t.do("withhold AMS 10", "done AMS", "buy-private ZHESM CM 1", "withhold ZHESM 0")
    bank = t.cash("bank")
    t.do("train ZHESM 5+ --using CM")
    assert (t.cash("ZHESM"), t.cash("bank"), t.status()["phase"]) == (599 - price, bank + price, "blue")
    assert "CM" in closed(t)
    assert "CM" in t.refused("train ZHESM 5+ --using CM")
    audit(t)


@pytest.mark.parametrize("option, train, discount", [
    (None, "5+", 150),                          # a blue train bought in blue: 150 by either reading
    ("credit_mobilier_by_phase", "5+", 150),
    (None, "7+", 250),                          # the first brown train, bought in blue: by its colour 250
    ("credit_mobilier_by_phase", "7+", 150),    # ... by the phase it is bought in (blue) 150
])
def test_b21_credit_mobilier_on_a_blue_train_in_blue_and_the_first_brown(tmp_path, option, train, discount):
    """§12.5: Crédit Mobilier takes "Green ƒ100, Blue ƒ150, Brown ƒ250" off one supply train bought by
    its owning company, once (B21); D0.1 #4: the colour is the train's (best reading) or, as an
    option, the phase's. The green table of the B21 test above (AMS 610, ZHESM 600, three 5+ and two
    7+ in the supply), OR 2.1:
    - a blue train in blue: AMS withholds 1000 (1,610) and buys the first 5+ (blue, 1,160); ZHESM
      buys CM from Ben for 1 (599), withholds 0 and buys the second 5+ for 450 - 150 = 300: 299;
    - the first brown in blue: AMS buys two 5+ (710); ZHESM buys CM for 1, withholds 1,000 (1,599),
      buys the last 5+ (1,149) and the first 7+ for 700 - 250 = 450 (699) by the train's colour, or
      700 - 150 = 550 (599) by the phase's; brown begins either way.
    The discount stays with the bank (it is paid less), and CM closes on use."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM)
    t.do(f"withhold AMS 1000 {FORCE}", "train AMS 5+")
    if train == "7+":
        t.do("train AMS 5+")
    t.do("done AMS")
    assert (t.status()["phase"], t.cash("AMS")) == ("blue", 1160 if train == "5+" else 710)
    # the power is the owning company's: ZHESM cannot use a CM its director holds (§12.5)
    t.refused("train ZHESM 5+ --using CM", "CM is Ben's, not ZHESM's")
    t.do("buy-private ZHESM CM 1", f"withhold ZHESM {1000 if train == '7+' else 0} {FORCE}")
    if train == "7+":
        t.do("train ZHESM 5+")
    before, bank = t.cash("ZHESM"), t.cash("bank")
    assert before == (299 + 300 if train == "5+" else 1149)
    t.do(f"train ZHESM {train} --using CM")
    price = {"5+": 450, "7+": 700}[train]
    assert (t.cash("ZHESM"), t.cash("bank")) == (before - (price - discount), bank + price - discount)
    assert t.status()["phase"] == ("blue" if train == "5+" else "brown")
    assert next(p for p in t.status()["privates"] if p["sym"] == "CM")["closed"]
    audit(t)


# --------------------------------------------------------------------------- §12.5 MEVS owned by a company (B19)

def test_b19_mevs_owned_by_a_company_earns_nothing(tmp_path):
    """§12.5, B19: MEVS's power is its player owner's ("Owning player is paid ..."); its revenue to a
    company owner is ƒ0 (§6: "? / 0"). VV_CM with MEVS drawn in Verveers' place (same face, ƒ180; it
    pays Ann nothing in the private steps: 360 - 2 x 20 = 320). OR 2.1: AMS buys MEVS from Ann for
    1 (321); the table cannot pay MEVS anything now, and OR 2.2's private step pays AMS only its
    yellow privates' 30."""
    mevs = VV_CM.replace("VVD,LSW,VV,CM", "VVD,LSW,MEVS,CM").replace("buy Ann VV\n", "buy Ann MEVS\n")
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path))
    t.play(mevs)
    assert (t.round(), t.cash("Ann"), t.status()["operating"]) == ("OR 2.1", 320, "AMS")
    anns = t.copy()
    anns.do("income MEVS 30")                  # Ann's: paid as her AMS operates (D0.1 #5)
    assert anns.cash("Ann") == 350
    t.do("buy-private AMS MEVS 1")
    assert (t.cash("Ann"), t.cash("AMS")) == (321, 609)
    t.refused("income MEVS 30", "MEVS", "player owner", "B19")
    t.do("withhold AMS 10", "done AMS", "withhold ZHESM 10", "done ZHESM")
    assert (t.round(), t.cash("AMS")) == ("OR 2.2", 609 + 10 + 30)
    audit(t)


# --------------------------------------------------------------------------- §12.2 Zevenaar-Kleef

def test_zevenaar_kleef_places_its_marker_after_a_second_tile(nrs):
    # §12.2: "The power may be used to place an exchange or station marker even if the owning
    # company places a second track tile". Two tiles (no terrain), then ZK's tile and station at
    # Nijmegen for ƒ80 in all: 670 - 80 = 590; markers: 5 - home - Nijmegen = 3.
    nrs.do("tile NRS 0", "tile NRS 0")
    nrs.do("token NRS --using ZK --city Nijmegen")
    assert nrs.cash("NRS") == 590
    assert tokens_left(nrs, "NRS") == 3


def test_without_zevenaar_kleef_a_second_tile_still_bars_the_marker(nrs):
    # §8.2.4: no exchange or station marker after a second tile (the rule ZK is an exception to)
    nrs.do("tile NRS 0", "tile NRS 0")
    nrs.refused("token NRS 20 --city Arnhem", "second tile", "§8.2.4")


def test_zevenaar_kleefs_tile_leaves_the_normal_track_lay(nrs):
    # §12.2: ZK's tile is "in addition to its normal track lay": with its station placed first, NRS
    # still lays its two tiles (ƒ20 terrain on the second): 670 - 80 - 20 = 570. The station was
    # "its normal station marker placement": no second marker this turn.
    nrs.do("token NRS --using ZK --city Venlo")
    nrs.do("tile NRS 0")
    assert "one a turn" in nrs.refused("token NRS 20 --city Arnhem")
    nrs.do("tile NRS 20")
    assert nrs.cash("NRS") == 570
    nrs.refused("tile NRS 0", "laid its tile")


# --------------------------------------------------------------------------- §12.5 Rotterdamsche Bank

def test_rotterdamsche_banks_draw_is_for_station_track_and_train_costs(green):
    # §12.5: the company "may draw freely on their director's assets for station, track and train
    # expenses". NRS (ƒ120) buys RB from Ann for ƒ1 (119) and draws ƒ150 from Ann (269): that money
    # is spent on this turn's costs, or the turn does not end.
    t = green
    t.do("buy-private NRS RB 1")
    ann = t.cash("Ann")
    t.do("charge NRS 150")
    assert (t.cash("NRS"), t.cash("Ann")) == (269, ann - 150)
    t.refused("done NRS", "ƒ150", "station, track or train")
    t.do("tile NRS 100")                              # ƒ100 of it spent on track: 169
    t.do("token NRS 20 --city Gouda")                 # ƒ20 on a station (20 x 1): 149, ƒ30 unspent
    t.do("withhold NRS 0")
    t.refused("done NRS", "ƒ30")
    assert t.cash("NRS") == 149


def test_rotterdamsche_bank_makes_the_director_sell_shares_for_the_draw(green):
    # §12.5: "including causing the director to sell shares in order to fund the expense ... as if
    # the expense were an Emergency Train Purchase". Ann (director of NRS with 60 %, NRS at ƒ56)
    # sells shares only while short of the draw: the draw asked is her cash + ƒ50, so one share at
    # ƒ56 covers it and two are more than needed; she stays director (50 %).
    t = green
    t.do("buy-private NRS RB 1")
    ann, price = t.cash("Ann"), t.price("NRS")
    want = ann + 50
    t.refused(f"charge NRS {want}", "sell")
    t.refused(f"sell Ann NRS 2 --charge {want}", "more than needed")
    t.do(f"sell Ann NRS 1 --charge {want}")
    assert t.cash("Ann") == ann + price
    assert t.president("NRS") == "Ann"
    t.do(f"charge NRS {want}")
    assert t.cash("Ann") == ann + price - want
    # without the draw to fund, no sale in an operating round
    t.refused("sell Ann NRS 1 --charge 5", "not short")     # she has ƒ6 left
