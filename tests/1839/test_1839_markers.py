"""1839's station markers beyond the shared rule (rulesets/1839/markers.py): the homes a company with several
keeps, chosen in its first OR before its station step (§8.2.2, `drop-home`), the exchange marker atop one of
the company's own stations, one a company and a city one company's (§8.2.4, `token ... --exchange`), and
Westlandsche Stoomtram's move of a placed marker (§12.4). The HIJSM and NRS table: openings_1839.HOMES_OPENING.
Rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x", its corrections D0.1
and best readings "B n". Every figure is worked by hand in the comments; engine only (tests/conftest.py's
Table); openings and positions: openings_1839.py.
"""

from __future__ import annotations

from conftest import next_turn_of
from openings_1839 import tokens_left
from openings_1839 import green, hijsm, homes_master, nrs  # noqa: F401  (fixtures, used by name)


# --------------------------------------------------------------------------- §8.2.2 homes kept

def test_a_company_with_two_homes_keeps_one_and_its_stations_cost_less(hijsm):
    # §8.2.2: "the director may freely decide which to keep in the first operating round the
    # company operates, may keep all of them, but must keep at least one." HIJSM keeps Leeuwarden:
    # the Hoorn marker goes back to the charter (5 - 1 = 4 left), and a station at a ƒ20 location
    # then costs 20 x 1 location = ƒ20 (§8.2.4), not 20 x 2 = ƒ40: 690 - 20 = 670.
    assert tokens_left(hijsm, "HIJSM") == 3
    hijsm.do("drop-home HIJSM Hoorn")
    assert tokens_left(hijsm, "HIJSM") == 4
    hijsm.do("token HIJSM 20 --city Zwolle")
    assert hijsm.cash("HIJSM") == 670
    assert tokens_left(hijsm, "HIJSM") == 3


def test_a_company_keeps_at_least_one_home(hijsm):
    hijsm.refused("drop-home HIJSM Zwolle", "no home marker in Zwolle", "Leeuwarden, Hoorn")
    hijsm.do("drop-home HIJSM Hoorn")
    hijsm.refused("drop-home HIJSM Leeuwarden", "at least one", "§8.2.2")


def test_homes_are_kept_or_dropped_before_the_station_step(hijsm):
    # the station's cost counted both homes (20 x 2 = ƒ40): dropping one afterwards would change it
    hijsm.do("token HIJSM 20 --city Zwolle")
    assert hijsm.cash("HIJSM") == 650
    hijsm.refused("drop-home HIJSM Hoorn", "before")


def test_homes_are_chosen_only_in_the_companys_first_operating_round(nrs):
    # NRS's first turn; HIJSM has finished its own: its homes are kept
    nrs.refused("drop-home HIJSM Hoorn", "HIJSM")
    nrs.do("withhold NRS 0", "train NRS 2", "train NRS 2", "train NRS 2", "train NRS 3+", "done NRS")
    next_turn_of(nrs, "HIJSM")                        # OR 2.1
    nrs.refused("drop-home HIJSM Hoorn", "first operating round", "§8.2.2")


# --------------------------------------------------------------------------- §8.2.4 exchange markers

def test_an_exchange_marker_goes_atop_a_station_and_adds_no_location(nrs):
    # §8.2.4: an exchange marker is "a station marker atop one of the company's already placed station
    # markers"; it costs the location's value x the locations where the company has markers:
    # 30 x 1 (Utrecht) = ƒ30. It takes a marker from the charter (5 - 2 = 3) but is no new location
    # (D15 B9), so the next station at a ƒ20 location costs 20 x 1 = ƒ20.
    nrs.do("token NRS 30 --city Utrecht --exchange")
    assert nrs.cash("NRS") == 640
    assert tokens_left(nrs, "NRS") == 3
    nrs.do("withhold NRS 0", "train NRS 2", "train NRS 2", "train NRS 2", "train NRS 3+", "done NRS")
    next_turn_of(nrs, "NRS")                          # OR 2.1
    cash = nrs.cash("NRS")
    nrs.do("token NRS 20 --city Gouda")
    assert nrs.cash("NRS") == cash - 20


def test_an_exchange_marker_needs_the_companys_own_station_there(nrs):
    nrs.refused("token NRS 30 --city Gouda --exchange", "atop", "Gouda")


def test_a_company_has_one_exchange_marker_and_a_city_one_companys(hijsm):
    # §8.2.4: no exchange marker "if it already has one on the map", nor "on a hexagon which already
    # contains another company's exchange marker". HIJSM: a station in Utrecht (20 x 2 = ƒ40) ...
    hijsm.do("token HIJSM 20 --city Utrecht")
    hijsm.do("withhold HIJSM 0", "train HIJSM 2", "train HIJSM 2", "train HIJSM 2", "train HIJSM 2", "done HIJSM")
    # ... NRS an exchange marker atop its home in Utrecht (30 x 1 = ƒ30)
    hijsm.do("token NRS 30 --city Utrecht --exchange")
    hijsm.do("withhold NRS 0", "train NRS 2", "train NRS 2", "train NRS 2", "train NRS 3+", "done NRS")
    next_turn_of(hijsm, "HIJSM")                      # OR 2.1
    hijsm.refused("token HIJSM 30 --city Utrecht --exchange", "NRS", "exchange marker")
    hijsm.do("token HIJSM 40 --city Hoorn --exchange")    # atop its own home: 40 x 3 locations = ƒ120
    next_turn_of(hijsm, "NRS")
    hijsm.refused("token NRS 30 --city Utrecht --exchange", "already has an exchange marker")


# --------------------------------------------------------------------------- §12.4 Westlandsche Stoomtram

def test_westlandsche_moves_a_station_to_a_new_location(green):
    # OR 2.1: WSM bought for ƒ1 (120 - 1 = 119) and a station at Gouda, 20 x 1 location = ƒ20 (99).
    # The power is used "if the company is not already prohibited from placing" a marker: NRS has
    # placed this turn's (one a turn, §8.2.4).
    t = green
    t.do("buy-private NRS WSM 1", "token NRS 20 --city Gouda")
    assert t.cash("NRS") == 99
    t.refused("move-marker NRS Gouda Delft --using WSM", "one a turn")
    t.do("withhold NRS 100", "done NRS")              # 199
    # OR 2.2: WSM moves the Gouda marker to Delft, free (§12.4 gives no cost); it closes on use.
    # Still two locations and three markers left: at OR 3.1 a ƒ20 station costs 20 x 2 = ƒ40.
    next_turn_of(t, "NRS")                            # OR 2.2
    t.do("move-marker NRS Gouda Delft --using WSM")
    assert t.cash("NRS") == 199
    assert t.private("WSM")["closed"]
    assert tokens_left(t, "NRS") == 3
    next_turn_of(t, "NRS")                            # OR 3.1
    t.do("token NRS 20 --city Arnhem")
    assert t.cash("NRS") == 199 - 40


def test_westlandsche_turns_a_station_into_an_exchange_marker(green):
    # As above to OR 2.2; WSM moves the Gouda marker atop the home in Utrecht: it becomes the
    # exchange marker ("converting ... a station marker [into an exchange marker]", §12.4), so NRS has
    # one location: at OR 3.1 a ƒ20 station costs 20 x 1 = ƒ20.
    t = green
    t.do("buy-private NRS WSM 1", "token NRS 20 --city Gouda", "withhold NRS 100", "done NRS")
    next_turn_of(t, "NRS")                            # OR 2.2
    t.do("move-marker NRS Gouda Utrecht --using WSM")
    assert tokens_left(t, "NRS") == 3
    t.refused("token NRS 30 --city Utrecht --exchange", "one a turn")
    next_turn_of(t, "NRS")                            # OR 3.1
    t.refused("token NRS 30 --city Utrecht --exchange", "already has an exchange marker")
    t.do("token NRS 20 --city Arnhem")
    assert t.cash("NRS") == 199 - 20


def test_westlandsche_turns_the_exchange_marker_into_a_station(green):
    # OR 2.1: an exchange marker atop Utrecht (30 x 1 = ƒ30: 119 - 30 = 89). OR 2.2: WSM moves it
    # to Gouda, where it is a station: two locations, so at OR 3.1 a ƒ20 station costs 20 x 2 = ƒ40.
    t = green
    t.do("buy-private NRS WSM 1", "token NRS 30 --city Utrecht --exchange", "withhold NRS 100", "done NRS")
    assert t.cash("NRS") == 189
    next_turn_of(t, "NRS")                            # OR 2.2
    t.do("move-marker NRS Utrecht Gouda --using WSM")
    next_turn_of(t, "NRS")                            # OR 3.1
    t.do("token NRS 20 --city Arnhem")
    assert t.cash("NRS") == 189 - 40
