"""1839 (J C Lawrence), part 1, played on the engine (tests/conftest.py's Table, the grammar and rules the
`bank` CLI is built from): the draws, the discount auction, public companies, the one-row market,
half-pays, phases, the ƒ1,000 box and bankruptcy.

Every number asserted here is worked by hand from the rules, never read off the program:
the rulebook shared/seeds/003_aa544c940024c360.txt ("§x", the LyX of 2015-02-18, which wins where
it states a rule) and the digest shared/rules/1839.md ("D x"; its D0.1 corrections override the
rest; "B n" are its best readings). The working is in the comments beside each command.

Four tables are played, each built with the lines a table types from `bank new`:

* GAME F (four players): the opening of D14.1/D14.2, the first stock round (D14.4, refusals), three
  operating rounds (D14.10, D14.22, D14.7, D14.11, D14.8) and D14.3's passing cards in SR 3.
* GAME S (six players, certificate limit 11): D14.5 (the limit and the 60 % IPO cap in a director's
  multi-buy) and D14.6 (a director swap pushing the old director over the limit).
* GAME L (two players): D14.9's rises at and above ƒ135 and the ƒ1,000 box ending the game at the end
  of the operating round (the first of a set of two), with the final score (D14.23).
* GAME P (four players, five companies): every phase from yellow to red, rusting, the discard a
  lower limit forces (D14.19, and its brown twin), and a bankruptcy (D11.6, §9.1) on a branch of the
  same game.

Random legal games at the end (tests/random_play.py's driver) check after every accepted line, with
rules worked here, that money is conserved, each company's certificates sum to 100 %, prices move as
§7.7 says, shares cost and sell at the current price, the 60 % IPO cap and the certificate limit hold
and the private step pays what §6's table says; the engine's own invariants (one holder for every
certificate) are checked after every event (longer runs: bench/random_1839.py); one such game
replayed by `bank play` passes `bank audit` in tests/1839/test_1839_cli.py. Where a test here
checks the books, openings_1839.balanced also audits on the engine (replay, every line decided
again).

Each game is played once per test module and kept at checkpoints; every test works on a copy.
"""

from __future__ import annotations

import pytest
from conftest import Table
from openings_1839 import (BANK_TOTAL, F_AUCTION_1, F_AUCTION_2, F_CHIPS_1, F_CHIPS_2, F_DRAWS, F_OR1, F_OR2, F_OR3,
                           F_SR1_A, F_SR1_B, F_SR1_C, F_SR1_D, F_SR2, F_SR2_B, F_SR3_A, F_SR3_B, P_OPENING, P_SR4,
                           P_TO_BLUE, P_TO_BROWN, P_TO_GREEN, balanced, new_table)
from random_rules_1839 import WANTED, checked_games



def at(game: dict, name: str) -> Table:
    """A copy of the game at this checkpoint."""
    return game[name].copy()


# =========================================================================== GAME F: four players
# (its lines and the figures after each part: openings_1839.py, GAME F)

@pytest.fixture(scope="module")
def game_f() -> dict[str, Table]:
    """GAME F played once, saved at each checkpoint; each test works on its own copy."""
    t = new_table("Ann Ben Cy Dee")
    saves: dict[str, Table] = {}

    def save(name: str) -> None:
        saves[name] = t.copy()

    t.play(F_DRAWS)
    t.play(F_CHIPS_1)
    save("chips")
    t.play(F_CHIPS_2)
    t.play(F_AUCTION_1)
    save("forced")
    t.play(F_AUCTION_2)
    save("sr1")
    t.play(F_SR1_A)
    save("sr1_dee")
    t.play(F_SR1_B)
    save("sr1_floated")
    t.play(F_SR1_C)
    save("sr1_cy60")
    t.play(F_SR1_D)
    save("or1")
    t.play(F_OR1)
    save("sr2")
    t.play(F_SR2)
    save("sr2_sold")
    t.play(F_SR2_B)
    save("or2")
    t.play(F_OR2)
    save("sr3")
    t.play(F_SR3_A)
    save("sr3_sold")
    t.play(F_SR3_B)
    save("or3")
    t.play(F_OR3)
    save("after_or3")
    return saves


def test_setup_cash_limits_and_charters():
    """D1 (§4 table): the starting cash and certificate limit for every player count; the yellow
    privates start on their charters (§4)."""
    for players, cash, limit in ((2, 1300, 32), (3, 900, 21), (4, 700, 16), (5, 580, 15), (6, 500, 11)):
        names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
        t = new_table(" ".join(names))
        s = t.status()
        assert {p["name"]: p["cash"] for p in s["players"]} == {n: cash for n in names}
        assert {p["cert_limit"] for p in s["players"]} == {limit}
        assert s["bank"] == BANK_TOTAL - players * cash
    owners = {sym: t.private(sym, s)["owner"] for sym in ("SLC", "SLD", "SLE", "SLK", "IJR", "ZK")}
    assert owners == {"SLC": "SS", "SLD": "NWS", "SLE": "AMS", "SLK": "HIJSM", "IJR": "AMS", "ZK": "NRS"}


def test_the_draws_must_be_complete_and_legal():
    """§4: two blue and two brown privates are drawn; Spoorwegwerken Oost's company differs from
    Rijkswaterstaat's; the foreign companies take the three yellow pars."""
    t = new_table("Ann Ben Cy Dee")
    t.refused("deal --privates VVD,LSW,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80",
              "brown")
    t.refused("deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NBDS --foreign OZ=67,BEL=72,DUI=80",
              "differ")
    t.refused("deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=67,DUI=80",
              "yellow pars")
    t.refused("deal --privates VVD,LSW,CM,SHZ --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")


def test_d14_1_chips_must_be_the_ones_left_and_in_turn(game_f):
    """§6.1: each player in card order takes one of the chips still on the table. After Ann, Ben
    and Cy placed the three ƒ60, only ƒ40 chips are left, and it is Dee's turn."""
    t = at(game_f, "chips")
    t.refused("discount Dee SWO 60", "40")      # a wrong chip: no ƒ60 left
    t.refused("discount Dee SWO 50", "chips")    # no such chip
    t.refused("discount Ann KR 40", "Dee")       # out of turn: Dee places the fourth chip
    t.refused("buy Dee SWO", "auction")          # nothing is bought before the auction
    t.play("discount Dee SWO 40")
    assert t.status()["auction"]["discounts"]["SWO"] == 100


def test_d14_1_discounts_stack_and_the_next_player_takes_it_for_nothing(game_f):
    """D14.1: SWO with 60 + 40 sells for 300 - 100 = 200 and brings NCS's 10 %; LVG with 60 + 20 =
    80 >= 70 is taken by the next player (Dee) for ƒ0, which is her turn; nobody is paid the ƒ10."""
    t = at(game_f, "forced")
    s = t.status()
    assert t.player("Cy", s)["cash"] == 500 and t.player("Cy", s)["shares"] == {"NCS": 10}
    assert t.player("Cy", s)["certificates"] == 2          # SWO and the 10 % (D14.1: "A now holds 2")
    assert t.private("SWO", s)["owner"] == "Cy"
    assert t.private("LVG", s)["owner"] == "Dee"
    assert t.player("Dee", s)["cash"] == 700                # taken for ƒ0
    assert t.player("Ann", s)["cash"] == 700                # a discount costs its placer nothing
    assert s["bank"] == BANK_TOTAL - 4 * 700 + 200          # only Cy's ƒ200 reached the bank
    # the forced take was Dee's turn: Ben is next
    t.refused("buy Dee KR", "Ben")
    t.refused("buy Ann CM", "Ben")                # an auction turn out of order
    t.refused("discount Ben KR 40", "20")         # an auction discount is ƒ20 (§6.2)
    t.refused("buy Ben LVG", "sold")              # LVG is gone
    balanced(t)


def test_chips_reaching_the_face_give_the_private_to_card_1():
    """§6.2: once a private's discounts equal or exceed its face, the next player must take it for
    ƒ0; when the chips alone do it, that is card #1 as the auction opens, and it is #1's turn."""
    t = new_table("Ann Ben Cy")
    t.play("""
    deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80 --order Ann,Ben,Cy
    discount Ann LVG 60      # LVG 70 -> 10
    discount Ben LVG 40      # 100 >= 70: free
    discount Cy SWO 60
    discount Ann CO 60
    discount Ben SWO 40
    discount Cy KR 40
    deal --order Cy,Ann,Ben
    """)
    s = t.status()
    assert t.private("LVG", s)["owner"] == "Cy"
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Cy": 900, "Ann": 900, "Ben": 900}
    assert s["bank"] == BANK_TOTAL - 3 * 900
    t.refused("buy Cy SWO", "Ann")             # taking LVG was Cy's turn
    t.play("buy Ann SWO")                      # 300 - 100 = 200
    assert t.player("Ann")["cash"] == 700


def test_d14_2_first_stock_round_by_ascending_cash_ties_in_auction_order(game_f):
    """D14.2 / §6.2: after the auction Ben 210, Dee 400, Cy 500, Ann 500: the order is Ben, Dee, Cy,
    Ann; Cy stays ahead of Ann on the tie because Cy was ahead of her in the auction's card order."""
    t = at(game_f, "sr1")
    s = t.status()
    assert [p["name"] for p in s["players"]] == ["Ben", "Dee", "Cy", "Ann"]
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 210, "Dee": 400, "Cy": 500, "Ann": 500}
    assert s["bank"] == 98_390
    assert s["round"] == "SR 1"
    # Rijkswaterstaat brought NBDS's director's certificate, parred at ƒ101 (§12.3)
    nbds = t.company("NBDS", s)
    assert (nbds["president"], nbds["par"], nbds["price"], nbds["floated"]) == ("Ben", 101, 101, False)
    assert t.player("Ben", s)["shares"] == {"NBDS": 20}
    assert t.player("Ben", s)["certificates"] == 4         # RWS, CO, LSW and the 20 %
    assert t.player("Dee", s)["certificates"] == 4          # LVG, KR, VVD, SHZ
    t.refused("pass Dee", "Ben")                            # Ben starts (card 1)
    balanced(t)


def test_refusals_in_the_first_stock_round(game_f):
    """§7.2: nothing is sold in the first SR; §7.4/§5: a par must be open in the phase (ƒ89 is a
    green par); §7.3: no IPO buy at 60 % or more."""
    t = at(game_f, "sr1")
    t.refused("sell Ben NBDS 1", "first stock round")
    t = at(game_f, "sr1_dee")
    t.refused("par Dee ZHESM 89", "green")
    t.refused("par Dee ZHESM 101", "green")
    t.refused("par Dee ZHESM 75", "par")
    t.refused("buy Cy NCS", "Ben")                          # Ben's turn (Dee is next), not Cy's
    t.refused("buy Dee HIJSM", "started")                   # HIJSM has no par yet (§7.3)
    t.play("par Dee ZHESM 80")
    line = t.refused("buy Dee ZHESM 2", "30")               # 20 % + 20 % > a director's 30 % (§7.3)
    assert "may buy 1 ZHESM certificate now, not 2" in line and "10% more of ZHESM would make Dee's 40%" in line
    t.play("buy Dee ZHESM")
    t.refused("buy Dee NBDS", "one certificate")            # the par and its 10 % were the turn's buy
    t.play("par Cy NCS 72\nbuy Cy NCS\nbuy Ann NBDS")
    t.refused("buy Ann NBDS", "one certificate")            # one certificate a turn (§7.1)
    t = at(game_f, "sr1_cy60")
    t.refused("buy Cy NCS", "60%")                          # Cy holds 60 % of NCS
    t.refused("buy Cy NCS --pool", "pool")                  # and the pool holds none


def test_d14_4_rijkswaterstaat_company_floats_at_101(game_f):
    """D14.4: NBDS parred at ƒ101 by Rijkswaterstaat; four 10 % certificates at 101 (404 to the bank)
    leave 40 % in the IPO, NBDS floats and the bank pays 10 x 101 = 1,010 (§7.4)."""
    t = at(game_f, "sr1_floated")
    s = t.status()
    nbds = t.company("NBDS", s)
    assert nbds["floated"] and nbds["cash"] == 1010 and nbds["ipo"] == 40 and nbds["pool"] == 0
    assert {p["name"]: p["shares"].get("NBDS", 0) for p in s["players"]} == {"Ben": 40, "Dee": 10, "Cy": 0, "Ann": 10}
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 8, "Dee": 59, "Cy": 284, "Ann": 399}
    # bank: 98,390 + 404 (NBDS shares) + 240 (ZHESM) + 216 (NCS) - 1,010 (NBDS's capital) = 98,240
    assert s["bank"] == 98_240
    balanced(t)


def test_sr1_end_and_floats(game_f):
    """§7.4: floats pay 10 x par; §12.2: yellow privates pay their charters before they float; §8.2.1:
    the operating order by price."""
    t = at(game_f, "or1")
    s = t.status()
    assert s["round"] == "OR 1.1"
    cash = {c["sym"]: c["cash"] for c in s["companies"] if c["kind"] == "public"}
    # the capital (§7.4) plus the yellow privates' revenue of OR 1.1, already paid (§12.2)
    assert cash == {"NBDS": 1010, "NCS": 720, "ZHESM": 800, "AMS": 30, "SS": 20, "NWS": 20, "HIJSM": 20, "NRS": 0}
    # players after SR 1 (Ben 8, Dee 59, Cy 140, Ann 159) and OR 1.1's private step
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 78, "Dee": 109, "Cy": 165, "Ann": 169}
    assert s["bank"] == 97_104 - 155 - 90
    assert s["operating_order"] == ["NBDS", "ZHESM", "NCS"]
    # Ann 30 % of ZHESM ties Dee's 30 %: Dee keeps the chair (§7.5)
    assert t.company("ZHESM", s)["president"] == "Dee"
    assert [p["name"] for p in s["players"]] == ["Ben", "Dee", "Cy", "Ann"]
    balanced(t)


def test_d14_10_no_train_three_down_and_d14_22_station_cost(game_f):
    """D14.10 (§7.7.3.1, B4): in its first OR a company without a train pays nothing: three boxes
    down (NBDS 101 -> 72, ZHESM 80 -> 62, NCS 72 -> 59); ZHESM then buys two 2-trains, leaving 600.
    D14.22 (§8.2.4, B9 seed reading): a station costs the location's value times the locations where
    the company has markers before placing: NCS with its two homes pays 30 x 2 = 60, then 20 x 3 = 60.
    §12.3: NBDS's first train closes Rijkswaterstaat, so Ben's private step falls from 70 to 35."""
    t = at(game_f, "or1")
    t.play("withhold NBDS 0")
    assert t.prices()["NBDS"] == 72 and t.company("NBDS")["cash"] == 1010
    assert not t.private("RWS")["closed"]
    t.play("train NBDS 2")
    assert t.private("RWS")["closed"] and t.company("NBDS")["cash"] == 910
    t.play("train NBDS 2\ndone NBDS\nwithhold ZHESM 0")
    assert t.prices()["ZHESM"] == 62
    t.play("train ZHESM 2\ntrain ZHESM 2\ndone ZHESM")
    assert t.company("ZHESM")["cash"] == 600
    before = t.cash()
    t.play("token NCS 30 --city Rotterdam")
    after = t.cash()
    assert before["NCS"] - after["NCS"] == 60 and after["bank"] - before["bank"] == 60
    t.play("withhold NCS 0")
    assert t.prices()["NCS"] == 59
    t.refused("token NCS 20 --city Leiden", "run")          # a station comes before the run (§8.2.2)
    t.play("train NCS 2\ntrain NCS 2\ndone NCS")
    s = t.status()
    assert s["round"] == "SR 2" and s["bank"] == 97_519
    assert {c["sym"]: c["cash"] for c in s["companies"] if c["floated"]} == {"NBDS": 810, "ZHESM": 600, "NCS": 460}
    balanced(t)
    t2 = at(game_f, "or2")
    assert t2.player("Ben")["cash"] == 6 + 35        # CO 20 + LSW 15; RWS pays no more
    t2.play("pay NBDS 280\ndone NBDS\nwithhold ZHESM 200\ndone ZHESM")
    t2.refused("token NCS 20 --city Rotterdam", "Rotterdam")   # one marker a city
    t2.play("token NCS 20 --city Leiden")
    assert t2.company("NCS")["cash"] == 460 - 60
    t2.refused("token NCS 10 --city Delft", "one a turn")      # one station an OR (§8.2.4)


def test_selling_refusals_in_sr2(game_f):
    """§7.3: no buying back a company sold in this SR; §7.5: the director's certificate is never
    sold while nobody else could take it (Cy holds NCS 20 % + three 10 %, nobody else any)."""
    t = at(game_f, "sr2_sold")
    t.refused("buy Cy NCS", "sold")           # Cy sold NCS a moment ago in this turn
    t.refused("sell Cy NCS 4", "president")   # 40 % would need the director's certificate
    t.refused("buy Ben ZHESM", "Cy")          # still Cy's turn (Ann, next, could act and end it)
    t.play("sell Cy NCS 1")                   # selling more is fine: 50 % -> 40 %
    assert t.player("Cy")["shares"]["NCS"] == 40 and t.company("NCS")["pool"] == 20


def test_d14_11_end_of_sr_one_box_per_pool_share(game_f):
    """§7.7.2 (D14.11): at the end of SR 2, in operating order, NBDS (72, one pool share) -> 67, NCS
    (59, one pool share) -> 56; ZHESM (none) stays at 62. Sales themselves never move a price."""
    t = at(game_f, "sr2_sold")
    assert {k: v for k, v in t.prices().items() if k in ("NBDS", "ZHESM", "NCS")} == \
        {"NBDS": 72, "ZHESM": 62, "NCS": 59}              # Cy's sale moved nothing
    t = at(game_f, "or2")
    s = t.status()
    assert {c["sym"]: c["price"] for c in s["companies"] if c["floated"]} == {"NBDS": 67, "ZHESM": 62, "NCS": 56}
    assert s["operating_order"] == ["NBDS", "ZHESM", "NCS"]
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 41, "Dee": 87, "Cy": 249, "Ann": 133}
    assert s["bank"] == 97_650 - 120 - 90
    balanced(t)


def test_d14_7_full_payout_with_a_pool_share_and_d14_11_withholding(game_f):
    """D14.7 (§8.2.6): NCS pays 170 with Cy 50 %, Ann 20 %, pool 10 %, IPO 20 %: Cy 85, Ann 34, the
    pool's 17 to NCS, the IPO nothing; 170 >= 2 x 56 but < 4 x 56: two boxes up, 56 -> 62.
    D14.11: ZHESM withholds 200: all to its treasury, two boxes down (62 -> 56).
    NBDS pays 280 >= 4 x 67: three boxes up, 67 -> 89 (§7.7.3.1)."""
    t = at(game_f, "or2")
    ncs = t.company("NCS")
    assert (ncs["ipo"], ncs["pool"]) == (20, 10)
    assert t.player("Cy")["shares"]["NCS"] == 50 and t.player("Ann")["shares"]["NCS"] == 20
    b0 = t.cash()
    t.play("pay NBDS 280")
    b1 = t.cash()
    assert (b1["Ben"] - b0["Ben"], b1["Dee"] - b0["Dee"], b1["NBDS"] - b0["NBDS"]) == (140, 56, 28)
    assert t.prices()["NBDS"] == 89
    t.play("done NBDS\nwithhold ZHESM 200")
    b2 = t.cash()
    assert b2["ZHESM"] - b1["ZHESM"] == 200 and b1["bank"] - b2["bank"] == 200
    assert t.prices()["ZHESM"] == 56
    t.play("done ZHESM\ntoken NCS 20 --city Leiden")
    b3 = t.cash()
    assert b2["NCS"] - b3["NCS"] == 60 and b3["bank"] - b2["bank"] == 60
    t.play("pay NCS 170")
    b4 = t.cash()
    assert (b4["Cy"] - b3["Cy"], b4["Ann"] - b3["Ann"], b4["NCS"] - b3["NCS"]) == (85, 34, 17)
    assert b3["bank"] - b4["bank"] == 136
    assert t.prices()["NCS"] == 62
    t.play("done NCS")
    s = t.status()
    assert s["round"] == "SR 3"
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 181, "Dee": 143, "Cy": 334, "Ann": 167}
    assert {c["sym"]: (c["cash"], c["price"]) for c in s["companies"] if c["floated"]} == \
        {"NBDS": (838, 89), "ZHESM": (800, 56), "NCS": (417, 62)}
    assert s["bank"] == 96_940
    balanced(t)


def test_d14_3_passing_cards_set_the_next_order(game_f):
    """D14.3 (§7.1): A passes, B buys, C and D pass, A sells (handing card 1 back: C and D move down),
    B, C, D pass, A passes: the next SR goes C, D, B, A = Dee, Cy, Ben, Ann."""
    t = at(game_f, "sr3_sold")
    t.refused("buy Ann NCS", "sold")          # bought back in the same SR: refused (§7.3)
    t = at(game_f, "or3")
    s = t.status()
    assert s["round"] == "OR 3.1"
    assert [p["name"] for p in s["players"]] == ["Dee", "Cy", "Ben", "Ann"]
    # D14.11: NCS with 30 % in the pool drops three boxes at the end of the SR: 62 -> 55; NBDS 89 -> 80
    assert t.prices()["NCS"] == 55 and t.prices()["NBDS"] == 80 and t.prices()["ZHESM"] == 56
    assert s["operating_order"] == ["NBDS", "ZHESM", "NCS"]
    assert t.company("NCS", s)["pool"] == 30
    # privates paid at the start of OR 3.1: Ben 69 + 35, Dee 54 + 50, Cy 272 + 25, Ann 291 + 10
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Dee": 104, "Cy": 297, "Ben": 104, "Ann": 301}
    balanced(t)


def test_d14_8_half_pay_rounds_players_up_and_the_pool_down(game_f):
    """D14.8 (§8.2.6): NBDS at 80 half-pays 150 with Ben 50 %, Dee 30 %, pool 10 %, IPO 10 %: the
    treasury keeps 75 and gets the pool's 7 (82 in all), Ben 38, Dee 23; 75 < 80: one box down."""
    t = at(game_f, "or3")
    before = t.cash()
    nbds = t.company("NBDS")
    assert (nbds["ipo"], nbds["pool"]) == (10, 10)
    assert {p["name"]: p["shares"].get("NBDS", 0) for p in t.status()["players"]} == \
        {"Dee": 30, "Cy": 0, "Ben": 50, "Ann": 0}
    t.play("half NBDS 150")
    after = t.cash()
    assert after["NBDS"] - before["NBDS"] == 82
    assert after["Ben"] - before["Ben"] == 38
    assert after["Dee"] - before["Dee"] == 23
    assert before["bank"] - after["bank"] == 143
    assert t.prices()["NBDS"] == 72
    balanced(t)


def test_after_or3_stacking_and_d14_23_score(game_f):
    """§8.2.1: NCS reaching 59 during OR 3.1 goes on top of ZHESM, which moved there earlier and lies
    face down, so NCS operates first next time. D14.23 (§9.2): each player's worth is cash + face
    of privates + shares at the current price."""
    t = at(game_f, "after_or3")
    s = t.status()
    assert {c["sym"]: c["price"] for c in s["companies"] if c["floated"]} == {"NBDS": 72, "ZHESM": 59, "NCS": 59}
    assert s["operating_order"] == ["NBDS", "NCS", "ZHESM"]
    cash = {p["name"]: p["cash"] for p in s["players"]}
    # Ben 104 + 38 + 20; Dee 104 + 23 + 30; Cy 297 + 72; Ann 301 + 30
    assert cash == {"Dee": 157, "Cy": 369, "Ben": 162, "Ann": 331}
    assert {c["sym"]: c["cash"] for c in s["companies"] if c["floated"]} == {"NBDS": 920, "ZHESM": 800, "NCS": 453}
    score = t.score()
    worth = {
        # cash + privates at face (RWS closed) + shares x price
        "Ben": 162 + (160 + 140) + 5 * 72 + 2 * 59,
        "Dee": 157 + (70 + 200 + 120 + 160) + 3 * 59 + 3 * 72,
        "Cy": 369 + 300 + 6 * 59,
        "Ann": 331 + 200 + 3 * 59,
    }
    assert {n: p["value"] for n, p in score.items()} == worth == {"Ben": 940, "Dee": 1100, "Cy": 1023, "Ann": 708}
    balanced(t)


# =========================================================================== GAME L: two players
# D1: two players, ƒ1,300 each, limit 32. Spoorwegwerken Oost's 10 % is ZHESM's this time.
L_OPENING = """
deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost ZHESM --foreign OZ=67,BEL=72,DUI=80 --order Ann,Ben
discount Ann LVG 60      # LVG 70 -> 10
discount Ben SWO 60      # SWO 300 -> 240
discount Ann CO 60       # CO 160 -> 100
discount Ben KR 40       # KR 200 -> 160
discount Ann VVD 40      # VVD 120 -> 80
discount Ben LSW 40      # LSW 140 -> 100
deal --order Ann,Ben
buy Ann LVG              # 10: Ann 1,290
buy Ben RWS              # 250: Ben 1,050; NBDS's 20 % parred at ƒ101
buy Ann SWO              # 240: Ann 1,050; ZHESM's 10 %
buy Ben CO               # 100: Ben 950
buy Ann VVD              # 80: Ann 970
buy Ben KR               # 160: Ben 790
buy Ann LSW              # 100: Ann 870
buy Ben CM               # 200: Ben 590
buy Ann SHZ              # 160: Ann 710; SR 1 goes Ben (590), Ann (710)
buy Ben NBDS 3           # 3 x 101 = 303: Ben 287 (50 %)
par Ann ZHESM 80         # 160: Ann 550
buy Ann ZHESM            # 80: Ann 470 (40 % with SWO's)
buy Ben NBDS             # 101: Ben 186 (60 %); NBDS floats with 1,010
buy Ann ZHESM 2          # 160: Ann 310 (60 %); ZHESM floats with 800
pass Ben
pass Ann
"""
# Private steps: Ann LVG 5 + SWO 25 + VVD 15 + LSW 15 + SHZ 20 = 80 every OR; Ben RWS 35 + CO 20 +
# KR 10 + CM 10 = 75 in OR 1.1, then 40 (NBDS's first train closes RWS, §12.3).
L_OR1_OR2 = """
withhold NBDS 0          # OR 1.1 (Ann 390, Ben 261): no train: 101 -> 72
train NBDS 2
train NBDS 2
train NBDS 2             # NBDS 710
done NBDS
withhold ZHESM 0         # 80 -> 62
train ZHESM 2
train ZHESM 2
train ZHESM 2
train ZHESM 2            # ZHESM 400; the seven 2-trains are sold
done ZHESM
pass Ben
pass Ann
pay NBDS 290             # OR 2.1 (Ann 470, Ben 301): Ben 60 % 174 -> 475; 290 >= 4 x 72: 72 -> 101
train NBDS 3+            # 250: the first 3+ starts green (two ORs a set from the next set)
done NBDS
pay ZHESM 250            # Ann 60 % 150 -> 620; 250 >= 4 x 62: 62 -> 80
done ZHESM
"""
L_OR3 = """
pay NBDS 410             # OR 3.1 (Ann 700, Ben 515): Ben 246 -> 761; 410 >= 4 x 101 but the marker
                         # stops on reaching 135 (§7.7.3.1, B1): 101 -> 116 -> 135
done NBDS
pay ZHESM 320            # Ann 192 -> 892; 320 >= 4 x 80: 80 -> 89 -> 101 -> 116
done ZHESM
"""
L_OR3_2 = """
pay NBDS 135             # OR 3.2 (Ann 972, Ben 801): at 135 a dividend equal to the price: no move;
                         # Ben 81 -> 882
done NBDS
pay ZHESM 1000           # Ann 600 -> 1,572; 1,000 >= 4 x 116: 116 -> 135 and stop; NBDS lies face
                         # down in that box, so ZHESM goes on top of it (§8.2.1)
done ZHESM
pass Ben
pass Ann
"""
L_OR4 = """
pay ZHESM 600            # OR 4.1 (Ann 1,652, Ben 922): at 135, 600 > 135: one box only, -> 160;
                         # Ann 360 -> 2,012
done ZHESM
pay NBDS 135             # Ben 81 -> 1,003
done NBDS
pay ZHESM 1000           # OR 4.2 (Ann 2,092, Ben 1,043): 1,000 >= 4 x 160, still one box: -> 192;
                         # Ann 600 -> 2,692
done ZHESM
pay NBDS 135             # Ben 1,124
done NBDS
pass Ben
pass Ann
"""
# ZHESM then climbs one box an OR, each dividend above its price (Ann's 60 % in brackets):
L_CLIMB = """
pay ZHESM 200            # OR 5.1: 192 -> 233 (120)
done ZHESM
pay NBDS 135
done NBDS
pay ZHESM 300            # OR 5.2: 233 -> 287 (180)
done ZHESM
pay NBDS 135
done NBDS
pass Ben
pass Ann
pay ZHESM 300            # OR 6.1: 287 -> 359 (180)
done ZHESM
pay NBDS 135
done NBDS
pay ZHESM 400            # OR 6.2: 359 -> 454 (240)
done ZHESM
pay NBDS 135
done NBDS
pass Ben
pass Ann
pay ZHESM 500            # OR 7.1: 454 -> 584 (300)
done ZHESM
pay NBDS 135
done NBDS
pay ZHESM 600            # OR 7.2: 584 -> 761 (360)
done ZHESM
pay NBDS 135
done NBDS
pass Ben
pass Ann
"""
L_1000 = """
pay ZHESM 800            # OR 8.1: 800 > 761: -> 1,000 (480); the game ends at the end of this OR
"""


@pytest.fixture(scope="module")
def game_l() -> dict[str, Table]:
    t = new_table("Ann Ben")
    saves: dict[str, Table] = {}

    def save(name: str) -> None:
        saves[name] = t.copy()

    t.play(L_OPENING)
    save("or1")
    t.play(L_OR1_OR2)
    save("sr3")
    t.play("pass Ben\npass Ann")
    save("or3")
    t.play(L_OR3)
    save("or3_2")
    t.play(L_OR3_2)
    save("or4")
    t.play(L_OR4)
    t.play(L_CLIMB)
    save("or8")
    return saves


def test_game_l_opening(game_l):
    t = at(game_l, "or1")
    s = t.status()
    assert s["round"] == "OR 1.1"
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 261, "Ann": 390}
    assert t.player("Ann", s)["shares"] == {"ZHESM": 60}     # SWO's 10 % counts toward the float (B18)
    assert {c["sym"]: c["cash"] for c in s["companies"] if c["floated"]} == {"NBDS": 1010, "ZHESM": 800}
    balanced(t)


def test_par_prices_open_by_phase(game_l):
    """§5 / D2.2: in green the pars are 67, 72, 80, 89, 101; ƒ116 (blue) and ƒ135 (brown) are not."""
    t = at(game_l, "sr3")
    s = t.status()
    assert s["phase"] == "green" and s["round"] == "SR 3"
    t.refused("par Ben NCS 116", "blue")
    t.refused("par Ben NCS 135", "brown")
    t.refused("par Ben NCS 95")
    t.refused("sell Ben NBDS 5", "president")    # Ben holds 20 % + 40 %: 50 % would take the 20 %


def test_d14_9_rises_stop_at_135(game_l):
    """D14.9 / §7.7.3.1 with B1: P = 101, D = 410 (>= 4P) goes 116, 135 and stops; P = 80, D = 320:
    three boxes to 116. Then P = 135, D = 135: no move; P = 116, D = 1,000: to 135 and stop."""
    t = at(game_l, "or3")
    s = t.status()
    assert s["round"] == "OR 3.1"
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 515, "Ann": 700}
    t.play(L_OR3)
    s = t.status()
    assert s["round"] == "OR 3.2"                         # green: a second OR in the set
    assert t.prices()["NBDS"] == 135 and t.prices()["ZHESM"] == 116
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 801, "Ann": 972}
    t.play("pay NBDS 135")
    assert t.prices()["NBDS"] == 135
    assert t.player("Ben")["cash"] == 882
    t.play("done NBDS\npay ZHESM 1000")
    assert t.prices()["ZHESM"] == 135
    assert t.player("Ann")["cash"] == 1572


def test_d14_9_one_box_at_and_above_135(game_l):
    """§8.2.1: ZHESM arrived at 135 after NBDS had operated, so it lies on top and operates first in
    OR 4.1. At 135, D = 600: +1 only (160); at 160, D = 1,000 (>= 4P): still +1 (192)."""
    t = at(game_l, "or4")
    s = t.status()
    assert s["round"] == "OR 4.1"
    assert s["operating_order"] == ["ZHESM", "NBDS"]
    t.refused("pay NBDS 135", "ZHESM")                    # ZHESM operates first
    t.play("pay ZHESM 600")
    assert t.prices()["ZHESM"] == 160 and t.player("Ann")["cash"] == 2012
    t.play("done ZHESM\npay NBDS 135\ndone NBDS\npay ZHESM 1000")
    assert t.prices()["ZHESM"] == 192 and t.player("Ann")["cash"] == 2692


def test_the_1000_box_ends_the_game_at_the_end_of_the_operating_round(game_l):
    """§7.7.1, §9.1: ZHESM's dividend takes it from 761 to ƒ1,000 in OR 8.1, the first of a set of
    two; NBDS still operates in that OR, and the game ends when the OR ends (no OR 8.2)."""
    t = at(game_l, "or8")
    s = t.status()
    assert s["round"] == "OR 8.1" and t.prices()["ZHESM"] == 761
    t.play(L_1000)
    s = t.status()
    assert t.prices()["ZHESM"] == 1000 and not s["game_over"]
    t.play("done ZHESM")
    assert not t.status()["game_over"]                    # NBDS still operates this OR
    t.play("pay NBDS 135")
    t.play("done NBDS")
    s = t.status()
    assert s["game_over"]
    t.refused("pass Ben")
    # D14.23 (§9.2): cash + privates at face + shares at the final price
    # Ann: 310 after SR 1, + 80 x 13 ORs of privates, + dividends 150 + 192 + 600 + 360 + 600 + 120 +
    # 180 + 180 + 240 + 300 + 360 + 480 = 3,762 -> 5,112; privates 70 + 300 + 120 + 140 + 160 = 790;
    # ZHESM 60 % at 1,000 = 6,000.
    # Ben: 186 + 75 + 40 x 12 + dividends 174 + 246 + 10 x 81 = 1,971; privates CO 160 + KR 200 + CM 200
    # (RWS closed); NBDS 60 % at 135 = 810.
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Ben": 1971, "Ann": 5112}
    score = t.score()
    assert score["Ann"]["value"] == 5112 + 790 + 6000 == 11_902
    assert score["Ben"]["value"] == 1971 + 560 + 810 == 3341
    assert score["Ann"]["rank"] == 1
    balanced(t)


# =========================================================================== GAME S: six players
# D1: six players, ƒ500 each (bank 100,000 - 3,000 = 97,000), certificate limit 11.
S_OPENING = """
deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80 --order Ann,Ben,Cy,Dee,Eve,Fay
discount Ann LVG 60      # LVG 70 -> 10
discount Ben SWO 60      # SWO 300 -> 240
discount Cy CO 60        # CO 160 -> 100
discount Dee SWO 40      # SWO -> 200
discount Eve KR 40       # KR 200 -> 160
discount Fay VVD 40      # VVD 120 -> 80
deal --order Ann,Ben,Cy,Dee,Eve,Fay
buy Ann SWO              # 200: Ann 300, NCS's 10 %
buy Ben LVG              # 10: Ben 490
discount Cy CM           # CM 200 -> 180
buy Dee CO               # 100: Dee 400
buy Eve RWS              # 250: Eve 250, NBDS's 20 % at ƒ101
buy Fay VVD              # 80: Fay 420
discount Ann CM          # CM -> 160
buy Ben LSW              # 140: Ben 350
buy Cy CM                # 160: Cy 340
buy Dee KR               # 160: Dee 240
discount Eve SHZ         # SHZ 160 -> 140
buy Fay SHZ              # 140: Fay 280; SR 1 by cash: Dee 240, Eve 250, Fay 280, Ann 300, Cy 340, Ben 350
pass Dee
pass Eve
pass Fay
pass Ann
par Cy NWS 67
buy Cy NWS               # 201: Cy 139 (30 %)
par Ben NCS 67
buy Ben NCS              # 201: Ben 149 (30 %)
buy Dee NWS              # 67: Dee 173
buy Eve NWS              # 67: Eve 183
buy Fay NWS              # 67: Fay 213; NWS 60 % sold: floats with 670
buy Ann NCS              # 67: Ann 233 (20 % with SWO's)
pass Cy
pass Ben
pass Dee
pass Eve
pass Fay
buy Ann NCS              # 67: Ann 166; NCS 60 % sold, floats with 670; Ann 30 % ties Ben: Ben stays
pass Cy
pass Ben
pass Dee
pass Eve
pass Fay
pass Ann                 # SR 2 goes Cy, Ben, Dee, Eve, Fay, Ann
"""
# OR 1.1. Privates: Ann SWO 25 -> 191, Ben LVG 5 + LSW 15 -> 169, Cy CM 10 -> 149, Dee CO 20 + KR 10
# -> 203, Eve RWS 35 -> 218, Fay VVD 15 + SHZ 20 -> 248; NWS's SLD 20 -> 690. NWS was parred first at
# 67, so it lies on top of NCS and operates first (§7.4).
S_OR1_SR2_OR2 = """
withhold NWS 0           # 67 -> 56
train NWS 2
train NWS 2
train NWS 2
train NWS 2              # NWS 290
done NWS
withhold NCS 0           # 67 -> 56, on top of NWS (face down there)
train NCS 2
train NCS 2
train NCS 2              # NCS 370; all seven 2-trains sold
done NCS
buy Cy NWS 2             # SR 2: the director's 20 % at 56: Cy 37 (50 %)
pass Ben
pass Dee
sell Eve NWS 1           # 56: Eve 274; a NWS 10 % in the pool
pass Fay
pass Ann
pass Cy
pass Ben
pass Dee
pass Eve                 # SR 3 goes Ben, Dee, Fay, Ann, Cy, Eve; NWS's pool share: 56 -> 55
pay NCS 900              # OR 2.1: Ben 30 % 270, Ann 30 % 270; 900 >= 4 x 56: 56 -> 67
done NCS
pay NWS 1200             # Cy 50 % 600, Dee 10 % 120, Fay 10 % 120, the pool's 120 to NWS; 55 -> 62
done NWS
"""
# Cash now: Ben 189 + 270 = 459, Dee 233 + 120 = 353, Fay 283 + 120 = 403, Ann 216 + 270 = 486,
# Cy 47 + 600 = 647, Eve 309.
# SR 3: Cy's certificates: CM, NWS 20 % + three 10 % = 5; Ben's: LVG, LSW, NCS 20 % + 10 % = 4.
S_SR3_A = """
par Ben HIJSM 67
buy Ben HIJSM            # 201: Ben 258 (6 certificates)
pass Dee
pass Fay
pass Ann
"""
S_SR3_B = """
pass Eve
buy Ben HIJSM 2          # 134: Ben 124 (HIJSM 50 %, not floated; 8 certificates)
pass Dee
pass Fay
pass Ann
buy Cy NCS               # 67: Cy 456 (8 certificates; NCS 10 %)
pass Eve
pass Ben
pass Dee
pass Fay
pass Ann
buy Cy NCS               # 67: Cy 389 (9; NCS 20 %, still less than Ben's and Ann's 30 %)
pass Eve
pass Ben
pass Dee
pass Fay
pass Ann
buy Cy NBDS              # 101: Cy 288 (10 certificates)
pass Eve
pass Ben
pass Dee
pass Fay
pass Ann
"""
S_SR3_C = """
pass Eve
pass Ben
pass Dee
pass Fay
pass Ann
pass Cy                  # SR 4 goes Dee, Fay, Ann, Eve, Ben, Cy
pay NCS 900              # OR 3.1 (privates again): Ben 30 % 270 -> 414, Ann 270 -> 781, Cy 20 % 180 -> 344;
                         # 900 >= 4 x 67: 67 -> 89
done NCS
pay NWS 1200             # Cy 70 % 840 -> 1,184, Dee 120 -> 503, Fay 120 -> 558; 62 -> 80
done NWS
pass Dee
pass Fay
pass Ann
pass Eve
buy Ben ZHESM            # 67: Ben 347 (9 certificates)
pass Cy
pass Dee
pass Fay
pass Ann
pass Eve
buy Ben NWS              # the IPO's last NWS 10 % at 80: Ben 267 (10)
pass Cy
pass Dee
pass Fay
pass Ann
pass Eve
buy Ben NBDS             # 101: Ben 166 (11 = the limit)
pass Cy
pass Dee
pass Fay
"""


# The rest of SR 4 (D14.6 below), OR 4.1 and SR 5 up to Ann's turn. End of SR 4: NCS's pool share
# takes it 89 -> 80, under NWS (already at 80). OR 4.1: both withhold with trains: 80 -> 67.
S_TO_SR5 = """
buy Ann NCS
pass Eve
sell Ben NCS 1
pass Ben
pass Cy
pass Dee
pass Fay
pass Ann
pass Eve
pass Ben
withhold NWS 0
done NWS
withhold NCS 0
done NCS
pass Dee
pass Fay
pass Eve
pass Cy
"""


@pytest.fixture(scope="module")
def game_s() -> dict[str, Table]:
    t = new_table("Ann Ben Cy Dee Eve Fay")
    saves: dict[str, Table] = {}

    def save(name: str) -> None:
        saves[name] = t.copy()

    t.play(S_OPENING)
    save("or1")
    t.play(S_OR1_SR2_OR2)
    save("sr3")
    t.play(S_SR3_A)
    save("sr3_cy")
    t.play("buy Cy NWS\nbuy Cy NWS --pool")
    t.play(S_SR3_B)
    save("sr3_cy10")
    t.play("par Cy ZHESM 67")
    t.play(S_SR3_C)
    save("sr4_ann")
    t.play(S_TO_SR5)
    save("sr5")
    return saves


def test_game_s_opening_and_float_at_tie(game_s):
    t = at(game_s, "or1")
    s = t.status()
    assert s["round"] == "OR 1.1" and s["cert_limit"] == 11
    assert {p["name"]: p["cash"] for p in s["players"]} == \
        {"Cy": 149, "Ben": 169, "Dee": 203, "Eve": 218, "Fay": 248, "Ann": 191}
    assert t.company("NCS", s)["president"] == "Ben"           # 30 % each: no change on a tie
    assert s["operating_order"] == ["NWS", "NCS"]
    # 97,000 + 1,240 (auction) + 402 (NWS: 201 + 3 x 67) + 335 (NCS: 201 + 2 x 67) - 1,340 (capital)
    # - 155 (players' privates in OR 1.1: 25 + 20 + 10 + 30 + 35 + 35) - 90 (charters: AMS 30, SS, NWS,
    # HIJSM 20 each)
    assert s["bank"] == 97_000 + 1240 + 402 + 335 - 1340 - 155 - 90
    balanced(t)


def test_d14_5_sixty_percent_cap_in_a_directors_multi_buy(game_s):
    """D14.5 / §7.3: Cy, director of NWS with 50 %, buys in one action: a 10 % from the IPO (50 < 60),
    then no more from the IPO (he holds 60 %), but the pool's 10 % is fine (70 %)."""
    t = at(game_s, "sr3_cy")
    s = t.status()
    nws = t.company("NWS", s)
    assert (nws["price"], nws["ipo"], nws["pool"]) == (62, 20, 10)
    assert t.player("Cy", s)["shares"] == {"NWS": 50} and t.player("Cy", s)["cash"] == 647
    t.refused("buy Cy NWS 2", "60%")         # the second IPO certificate breaks the cap: none is bought
    t.play("buy Cy NWS")
    assert t.player("Cy")["shares"]["NWS"] == 60 and t.player("Cy")["cash"] == 585
    t.refused("buy Cy NWS", "60%")           # from the IPO at 60 %: refused
    t.play("buy Cy NWS --pool")              # from the pool: allowed past 60 %
    s = t.status()
    assert t.player("Cy", s)["shares"]["NWS"] == 70 and t.player("Cy", s)["cash"] == 523
    assert (t.company("NWS", s)["ipo"], t.company("NWS", s)["pool"]) == (10, 0)
    t.refused("buy Cy NWS --pool", "pool")   # the pool is empty now (and 30 % is the most in a turn)
    balanced(t)


def test_d14_5_certificate_limit_in_the_par_action(game_s):
    """D14.5 / §7.6: Cy holds 10 of 11 certificates (CM, NWS 20 % + five 10 %, NCS two 10 %, NBDS
    10 %). The director's certificate of a new company is fine (10 < 11); the first 10 % in the same
    action is refused (11 is not < 11), though Cy could pay for it."""
    t = at(game_s, "sr3_cy10")
    s = t.status()
    cy = t.player("Cy", s)
    assert cy["certificates"] == 10 and cy["cert_limit"] == 11 and cy["cash"] == 288
    t.play("par Cy ZHESM 67")
    cy = t.player("Cy")
    assert cy["certificates"] == 11 and cy["cash"] == 288 - 134
    t.refused("buy Cy ZHESM", "limit")
    assert t.company("ZHESM")["ipo"] == 80


def test_d14_6_director_swap_pushes_the_old_director_over_the_limit(game_s):
    """D14.6 / §7.5, §7.6: Ben (NCS 20 % + 10 %) is at 11/11; Ann buys her fourth NCS 10 % (40 % > 30 %)
    and takes the chair, handing Ben two 10 % for the 20 %: Ben now holds 12 certificates and must sell
    at his next turn; HIJSM (not yet operated) cannot be sold (§7.2), NCS can."""
    t = at(game_s, "sr4_ann")
    s = t.status()
    assert s["round"] == "SR 4"
    ben = t.player("Ben", s)
    assert ben["certificates"] == 11 and ben["cash"] == 166
    assert ben["shares"] == {"NCS": 30, "HIJSM": 50, "ZHESM": 10, "NWS": 10, "NBDS": 10}
    assert t.company("NCS", s)["price"] == 89 and t.company("NCS", s)["president"] == "Ben"
    t.play("buy Ann NCS")                     # 89: Ann 781 - 89 = 692
    s = t.status()
    assert t.company("NCS", s)["president"] == "Ann"
    assert t.player("Ann", s)["shares"]["NCS"] == 40 and t.player("Ann", s)["cash"] == 692
    assert t.player("Ann", s)["certificates"] == 4        # SWO, the 20 % and two 10 %
    assert t.player("Ben", s)["shares"]["NCS"] == 30
    assert t.player("Ben", s)["certificates"] == 12
    t.play("pass Eve")
    t.refused("pass Ben", "limit")            # over the limit: must sell first
    t.refused("buy Ben ZHESM", "limit")
    t.refused("sell Ben HIJSM 1", "operated")
    t.play("sell Ben NCS 1")                  # 89: Ben 255
    s = t.status()
    assert t.player("Ben", s)["certificates"] == 11 and t.player("Ben", s)["cash"] == 255
    t.refused("buy Ben NCS", "sold")
    t.play("pass Ben\npass Cy\npass Dee\npass Fay\npass Ann\npass Eve\npass Ben")
    s = t.status()
    assert s["round"] == "OR 4.1"
    assert t.company("NCS", s)["price"] == 80                # end of SR 4: one pool share, 89 -> 80
    assert [p["name"] for p in s["players"]] == ["Dee", "Fay", "Eve", "Cy", "Ann", "Ben"]
    balanced(t)


# =========================================================================== GAME P: the phases
# (its scripts, P_OPENING ... P_TO_BROWN, are openings_1839's: audit 4 plays them too)
P_NCS_RESCUED = """
withhold NCS 0           # its four 3+ rusted: no train, no dividend (at the floor)
train NCS 5+ --from AMS --price 100   # Dee pays the 100 NCS lacks (face 450 or less, §8.2.7.3): Dee 34
done NCS
withhold NBDS 0          # trainless after the rust too
train NBDS 7+
train NBDS 7+            # 1,400: NBDS 1,460
done NBDS
withhold NWS 750         # OR 4.2 (NWS 56 first): 56 -> 55
train NWS 7+
done NWS
withhold AMS 750         # 2,620 + 750 = 3,370 (and whatever its yellow privates pay, D7.5)
train AMS 7+
train AMS 7+             # AMS 5+, 7+, 7+
done AMS
withhold ZHESM 1500      # 3,270
done ZHESM
withhold NCS 750         # 750
train NCS 7+             # 50; the seventh 7+ is sold
done NCS
withhold NBDS 2100       # 3,560; NBDS holds two 7+ (2 < 3)
"""


@pytest.fixture(scope="module")
def game_p() -> dict[str, Table]:
    t = new_table("Ann Ben Cy Dee")
    saves: dict[str, Table] = {}

    def save(name: str) -> None:
        saves[name] = t.copy()

    t.play(P_OPENING)
    t.play(P_TO_GREEN)
    save("green")
    t.play(P_TO_BLUE)
    save("blue")
    t.play(P_SR4)
    t.play(P_TO_BROWN)
    save("brown")
    t.play("discard ZHESM 5+\ndone ZHESM")
    save("ncs_trainless")
    t.play(P_NCS_RESCUED)
    save("red")
    return saves


def trains_of(s: dict) -> dict:
    return {c["sym"]: sorted(c["trains"]) for c in s["companies"] if c["floated"]}


def test_phases_green_and_blue_rust_the_2_trains(game_p):
    """§5, §17: the first 3+ starts green (two ORs a set); the first 5+ starts blue and every 2-train
    rusts at once, the buyer's own included."""
    t = at(game_p, "green")
    s = t.status()
    assert s["phase"] == "green" and s["round"] == "OR 3.1" and s["train_limit"] == 4
    assert {c["sym"]: c["cash"] for c in s["companies"] if c["floated"]} == \
        {"NBDS": 1060, "ZHESM": 1120, "AMS": 660, "NCS": 670}
    assert {p["name"]: p["cash"] for p in s["players"]} == {"Dee": 74, "Cy": 134, "Ben": 136, "Ann": 108}
    assert s["operating_order"] == ["NCS", "NBDS", "AMS", "ZHESM"]
    t = at(game_p, "blue")
    s = t.status()
    assert s["phase"] == "blue" and s["round"] == "OR 3.2" and s["train_limit"] == 4
    assert trains_of(s) == {"NBDS": ["3+"], "AMS": ["3+", "3+"], "NCS": ["3+"] * 4, "ZHESM": ["5+"] * 3}
    assert {c["sym"]: c["cash"] for c in s["companies"] if c["floated"]} == \
        {"NBDS": 2860, "NCS": 0, "AMS": 2490, "ZHESM": 970}
    five = next(r for r in s["train_roster"] if r["type"] == "5+")
    assert (five["left"], five["of"]) == (3, 6)
    t.play("done ZHESM")
    s = t.status()
    assert s["round"] == "SR 4" and s["operating_order"] == ["AMS", "ZHESM", "NCS", "NBDS"]
    balanced(t)


def test_trains_in_colour_order_and_the_limit(game_p):
    """§8.2.7.1: every 5+ before any 7+; a company at the limit buys no more."""
    t = at(game_p, "blue")
    t.refused("train ZHESM 7+", "5+")
    t.play("train ZHESM 5+")                 # the fourth: ZHESM at the limit of 4
    t.refused("train ZHESM 5+", "limit")


def test_brown_rusts_the_3_plus_and_forces_a_discard_out_of_the_game(game_p):
    """§17, §8.2.7.2: ZHESM holds three 5+ (3 < 4) and buys the first 7+: brown, limit 3, every 3+
    rusts; ZHESM holds four trains and discards one from the game, unpaid (not to the pool)."""
    t = at(game_p, "brown")
    s = t.status()
    assert s["phase"] == "brown" and s["train_limit"] == 3 and s["round"] == "OR 4.1"
    assert trains_of(s) == {"NBDS": [], "AMS": ["5+", "5+"], "NCS": [], "NWS": ["5+"],
                            "ZHESM": ["5+", "5+", "5+", "7+"]}
    assert t.company("ZHESM", s)["cash"] == 1770
    t.refused("done ZHESM", "limit")
    before = t.cash()
    t.play("discard ZHESM 5+")
    s = t.status()
    assert trains_of(s)["ZHESM"] == ["5+", "5+", "7+"]
    assert s["pool_trains"] == []
    assert t.cash() == before                 # nobody is paid for it
    balanced(t)


def test_d11_6_bankruptcy_ends_the_game_at_once(game_p):
    """§8.2.7.3, §9.1: NCS lost its four 3+ to the rust and has ƒ0; the cheapest train is a 7+ for 700.
    Dee, its director, has 134 (44 after SR 3 + 3 x 30 of privates) and can raise at most 4 x 55 = 220
    by selling her AMS 10 % (her NCS 20 % is the director's certificate), well short of 566: she is
    bankrupt and the game ends at once."""
    t = at(game_p, "ncs_trainless")
    s = t.status()
    assert trains_of(s)["NCS"] == [] and t.company("NCS", s)["cash"] == 0
    assert t.player("Dee", s)["cash"] == 134
    t.refused("done NCS", "train")            # it must buy a train
    t.refused("train NCS 7+", "700")           # Dee cannot pay the 700 NCS lacks
    t.refused("bankrupt Ann", "president")     # only the operating company's director
    # D11.6: bankrupt only once every source is used up: her AMS 10 % (4 x 55 = 220, no price move in
    # an OR, D10.2) and her privates handed in at half face (VVD 60, LSW 70): 134 + 350 = 484 < 700
    t.refused("bankrupt Dee", "not bankrupt yet")
    t.play("sell Dee AMS 4")
    t.play("sell Dee VVD")
    t.play("sell Dee LSW")
    assert t.player("Dee", t.status())["cash"] == 484
    # §8.2.7.3: NCS must also sell every station marker but its last (its second home, say worth 40)
    t.refused("bankrupt Dee", "station marker")
    t.play("sell-token NCS 40")
    t.play("bankrupt Dee")
    s = t.status()
    assert s["game_over"] and "bankrupt" in (s["end_reason"] or "")
    t.refused("withhold NBDS 0")
    # everyone else is scored as things stand (D12, B23): cash, and shares at the current price (NBDS,
    # ZHESM, NCS at the floor, NWS at 56 after its first OR); the privates, obsolete since brown began
    # (D7.5, part 2), are left out
    score = t.score()
    assert {n: (score[n]["cash"], score[n]["shares"]) for n in ("Ben", "Ann", "Cy")} == {
        "Ben": (22 + 20, 4 * 55 + 55 + 2 * 56),             # NBDS 40 %, NCS 10 %, NWS 20 %
        "Ann": (9 + 35, 5 * 55 + 55 + 2 * 56),              # ZHESM 50 %, NCS 10 %, NWS 20 %
        "Cy": (45 + 45, 2 * 55 + 55 + 2 * 55 + 2 * 56),     # NBDS 20 %, ZHESM 10 %, NCS 20 %, NWS 20 %
    }
    balanced(t)


def test_a_director_may_rescue_his_company_with_another_companys_train(game_p):
    """§8.2.7.3: with the director's money a train from another company costs at most its face."""
    t = at(game_p, "ncs_trainless")
    t.play("withhold NCS 0")
    t.refused("train NCS 5+ --from AMS --price 500", "face")
    t.play("train NCS 5+ --from AMS --price 100")
    s = t.status()
    assert t.player("Dee", s)["cash"] == 34 and t.company("NCS", s)["cash"] == 0
    assert t.company("AMS", s)["cash"] == 2620
    assert trains_of(s)["NCS"] == ["5+"] and trains_of(s)["AMS"] == ["5+"]


def test_d14_19_the_first_5d_forces_a_discard_out_of_the_game(game_p):
    """D14.19: brown, limit 3; NBDS with two 7+ buys the first 5D+ (2 < 3 before the change). Red
    begins: limit 2, every 5+ rusts; NBDS holds three trains and discards a 7+ from the game, unpaid."""
    t = at(game_p, "red")
    s = t.status()
    assert s["phase"] == "brown" and s["train_limit"] == 3 and s["round"] == "OR 4.2"
    assert trains_of(s)["NBDS"] == ["7+", "7+"] and t.company("NBDS", s)["cash"] == 3560
    assert next(r for r in s["train_roster"] if r["type"] == "7+")["left"] == 0
    t.play("train NBDS 5D+")
    s = t.status()
    assert s["phase"] == "red" and s["train_limit"] == 2
    assert trains_of(s) == {"AMS": ["7+", "7+"], "ZHESM": ["7+"], "NCS": ["7+"], "NWS": ["7+"],
                            "NBDS": ["5D+", "7+", "7+"]}
    assert t.company("NBDS", s)["cash"] == 3560 - 1250
    t.refused("done NBDS", "limit")
    before = t.cash()
    t.play("discard NBDS 7+")
    s = t.status()
    assert trains_of(s)["NBDS"] == ["5D+", "7+"]
    assert s["pool_trains"] == [] and t.cash() == before
    t.play("done NBDS")
    assert t.status()["round"] == "SR 5"
    balanced(t)


def test_d0_1_a_director_leaves_the_chair_by_selling_tie_to_the_next_card(game_s):
    """D0.1 #1 / §7.5: Ann (NCS 20 % + two 10 %) sells three shares: Ben and Cy tie at 20 %; the chair
    goes to the next tied player in card order from Ann. SR 5 goes Dee, Fay, Eve, Cy, Ann, Ben: after
    Ann comes Ben (not Cy, who is ahead of Ann on the cards). Ben hands over his two 10 % for the 20 %,
    and Ann sells three of her four 10 % at 67: she keeps one."""
    t = at(game_s, "sr5")
    s = t.status()
    assert s["round"] == "SR 5"
    assert [p["name"] for p in s["players"]] == ["Dee", "Fay", "Eve", "Cy", "Ann", "Ben"]
    assert {p["name"]: p["shares"].get("NCS", 0) for p in s["players"]} == \
        {"Dee": 0, "Fay": 0, "Eve": 0, "Cy": 20, "Ann": 40, "Ben": 20}
    assert t.prices()["NCS"] == 67 and t.company("NCS", s)["president"] == "Ann"
    ann, ben = t.player("Ann", s), t.player("Ben", s)
    t.play("sell Ann NCS 3")
    s = t.status()
    assert t.company("NCS", s)["president"] == "Ben"
    assert t.player("Ann", s)["shares"]["NCS"] == 10 and t.player("Ben", s)["shares"]["NCS"] == 20
    assert t.player("Ann", s)["cash"] == ann["cash"] + 3 * 67
    # Ann: 20 % + two 10 % (3) -> four 10 % -> one 10 % left; Ben: two 10 % -> the 20 %
    assert t.player("Ann", s)["certificates"] == ann["certificates"] - 2
    assert t.player("Ben", s)["certificates"] == ben["certificates"] - 1
    assert t.company("NCS", s)["pool"] == 40 and t.prices()["NCS"] == 67
    balanced(t)


def test_price_moves_at_the_thresholds(game_f):
    """§7.7.3.1: a dividend at least equal to the price is +1, at least double +2; withholding with
    trains -2, but never below the ƒ55 floor (§7.7.1)."""
    t = at(game_f, "or3")
    t.play("half NBDS 150\ndone NBDS")
    t2 = t.copy()
    t.play("pay ZHESM 112")                   # 112 = 2 x 56: two boxes, 56 -> 62
    assert t.prices()["ZHESM"] == 62
    t2.play("pay ZHESM 60")                   # 60 >= 56, < 112: one box, -> 59
    assert t2.prices()["ZHESM"] == 59
    t2.play("done ZHESM\nwithhold NCS 100")   # NCS at 55, the floor: stays
    assert t2.prices()["NCS"] == 55 and t2.company("NCS")["cash"] == 417 + 100
    t3 = at(game_f, "or3")
    t3.play("half NBDS 150\ndone NBDS\nhalf ZHESM 112")   # half-paid: D = 56 = the price: one box up
    assert t3.prices()["ZHESM"] == 59
    assert t3.company("ZHESM")["cash"] == 800 + 56       # the treasury keeps half


def test_companies_buy_privates_from_green_for_one_to_face(game_f, game_p):
    """§12.1, D5.4: from green a company may buy a player's private for ƒ1 up to its face value; not
    in yellow; never a company-owned yellow private."""
    t = at(game_f, "or1")
    t.refused("buy-private NBDS CO 50", "green")
    t = at(game_p, "green")             # OR 3.1, NCS (670) operating; VV is Ben's, face 180
    t.refused("buy-private NCS VV 181", "180")
    t.refused("buy-private NCS VV 0")
    t.refused("buy-private NCS SLE 1")            # AMS's yellow private
    t.play("buy-private NCS VV 180")
    s = t.status()
    assert t.company("NCS", s)["cash"] == 670 - 180 and t.player("Ben", s)["cash"] == 136 + 180
    assert t.private("VV", s)["owner"] == "NCS"
    balanced(t)


def test_a_random_game_follows_the_rules_after_every_line():
    """A random four-player game, every accepted line checked against the rules worked in
    random_rules_1839 (prices after each run, sales, buys, floats, the end of each SR, the private
    step) and the engine's invariants after every event, until it reached the draws, floats, runs,
    trains, a new phase and a sale. The long runs (two to six players, more than 20 runs checked
    each): bench/random_1839.py."""
    kinds, ran = checked_games(4, 13, lines=110, runs=0)
    assert WANTED <= kinds
    assert ran                                 # the price rule was checked on runs
