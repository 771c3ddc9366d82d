"""1839 cases written from the rulebook (shared/seeds/003_aa544c940024c360.txt; issue 27, 1839 part):
Zevenaar-Kleef's station after a second tile (§12.2), homes a company does not keep (§8.2.2),
exchange markers and Westlandsche Stoomtram's move (§8.2.4, §12.4), Rotterdamsche Bank's draw on
its director (§12.5) and Kabinet-Rochussen's escrow (§12.5). The figures are worked by hand from the
rules in the comments; everything runs on the engine Table."""

from __future__ import annotations

import pytest

from conftest import next_turn_of
from openings_1839 import KR_OPENING, new_table

# Two players, ƒ1300 each (§4). Draws: WSM and LSW (blue), RB and KR (brown); every green private.
# Ben pars HIJSM (homes Leeuwarden and Hoorn, §14) and Ann NRS (home Utrecht; ZK on its charter,
# §4), both at ƒ67 with 50 % sold: each floats with 10 x ƒ67 = ƒ670; HIJSM also has SLK's ƒ20.
OPENING = """
deal --privates WSM,LSW,RB,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben RB 40
discount Ann CO 60
discount Ben WSM 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann WSM
buy Ben LSW
buy Ann RB
buy Ben KR
buy Ann SHZ
par Ben HIJSM 67
buy Ben HIJSM
par Ann NRS 67
buy Ann NRS
buy Ben HIJSM
buy Ann NRS
buy Ben HIJSM
buy Ann NRS
buy Ben HIJSM
buy Ann NRS
pass Ben
pass Ann
"""

# OR 1.1 played plainly: HIJSM buys four 2s (ƒ400), NRS three 2s and the first 3+ (ƒ550): green.
# SR 2 passes; in OR 2.1 HIJSM runs first again (same price box, parred first).
TO_GREEN = """
withhold HIJSM 0
train HIJSM 2
train HIJSM 2
train HIJSM 2
train HIJSM 2
done HIJSM
withhold NRS 0
train NRS 2
train NRS 2
train NRS 2
train NRS 3+
done NRS
"""


@pytest.fixture(scope="module")
def opening_master():
    t = new_table("Ann Ben")
    t.play(OPENING)
    s = t.status()
    assert (s["round"], s["operating"], s["phase"]) == ("OR 1.1", "HIJSM", "yellow")
    assert t.cash("HIJSM") == 690 and t.cash("NRS") == 670
    return t


@pytest.fixture
def hijsm(opening_master):
    """HIJSM's first turn: its two homes are on the map."""
    return opening_master.copy()


@pytest.fixture
def nrs(opening_master):
    """NRS's first turn (HIJSM has bought its trains)."""
    t = opening_master.copy()
    t.play("\n".join(TO_GREEN.strip().splitlines()[:6]))
    assert t.status()["operating"] == "NRS"
    return t


def tokens_left(t, sym):
    return t.company(sym)["tokens_left"]


# =========================================================================== §12.2 Zevenaar-Kleef

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


# =========================================================================== §8.2.2 homes kept

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


# =========================================================================== §8.2.4 exchange markers

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


# =========================================================================== §12.4 Westlandsche Stoomtram

@pytest.fixture
def green(opening_master):
    """OR 2.1, green: HIJSM has run; NRS (ƒ120 after its trains) withholds ƒ300 and buys WSM."""
    t = opening_master.copy()
    t.play(TO_GREEN)
    next_turn_of(t, "NRS")
    assert t.status()["round"] == "OR 2.1" and t.status()["phase"] == "green"
    assert t.cash("NRS") == 120
    return t


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


# =========================================================================== §12.5 Kabinet-Rochussen's escrow

# Two players; Ben buys RWS (NBDS 20 % at 101) and KR; SR 1 order Ben, Ann: openings_1839.KR_OPENING.


def test_kabinet_rochussens_pool_money_is_held_in_escrow_not_in_the_bank():
    # §12.5: "three shares are put in the market, each along with money equaling the company's par
    # price. That money is paid to the company treasury as those shares are bought from the bank
    # pool." ZHESM parred at 80, 30 % bought: it floats with 7 x 80 = ƒ560 from the bank, and
    # 3 x 80 = ƒ240 leaves the bank for the escrow beside the three pool shares.
    t = new_table("Ann Ben")
    t.play(KR_OPENING)
    t.do("par Ben ZHESM 80", "buy Ben ZHESM", "force-float Ben KR ZHESM")
    bank = t.bank()
    t.do("pass Ann", "pass Ben")
    # OR 1.1 begins with the privates' revenue from the bank (§8.1): the yellow ones to their
    # companies 20 + 20 + 20 + 20 + 10 + 0 = 90; the players' SWO 25, RWS 35, LVG 5, KR 10, VVD 15,
    # KV 50, CO 20, LSW 15, SHZ 20 = 195.
    assert t.bank() == bank - 560 - 240 - 90 - 195
    assert t.status()["escrow"] == {"held": 240, "certificates": 3}
    assert any("escrow" in line.lower() and "240" in line for line in t.status_text().splitlines())
    t.do("withhold ZHESM 0", "train ZHESM 2", "done ZHESM")     # OR 1.1: ZHESM 560 - 100 = 460
    # SR 2: Ann buys a pool share at 55 (the price after the drops): ƒ55 to the bank, and the
    # escrow's ƒ80 to ZHESM (460 + 80 = 540); ƒ160 stays held for the two shares left.
    bank = t.bank()
    t.do("buy Ann ZHESM --pool")
    assert t.bank() == bank + 55
    assert t.cash("ZHESM") == 540
    assert t.status()["escrow"] == {"held": 160, "certificates": 2}
    t.books_balance()


# =========================================================================== §8.2.7.3 marker-sale money

def test_a_train_bought_from_a_company_with_marker_sale_money_costs_at_most_face(nrs):
    # §8.2.7.3: "A train bought from another company with director's contributions or money raised
    # by selling stations cannot be bought for more than face value." NRS: a ƒ515 tile leaves ƒ155;
    # a station at a ƒ60 location (60 x 1) leaves ƒ95, short of a 2 (ƒ100) with no train, so it sells
    # that marker back for ƒ60: ƒ155. HIJSM's 2 then costs NRS at most its face, ƒ100.
    nrs.do("tile NRS 515", "token NRS 60 --city Gouda", "withhold NRS 0", "sell-token NRS 60 --city Gouda")
    assert nrs.cash("NRS") == 155
    nrs.refused("train NRS 2 --from HIJSM --price 150", "face", "§8.2.7.3")
    nrs.do("train NRS 2 --from HIJSM --price 100")
    assert nrs.cash("NRS") == 55


# =========================================================================== §12.5 Rotterdamsche Bank

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
