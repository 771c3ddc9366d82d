"""1839, part 1, on the engine (tests/conftest.py's Table): the worked example transcript
(examples/1839-opening.txt) against figures worked by hand in its comments, the draws (typed, and
drawn from a seed), the discount chips and auction, the station sale of an emergency, and the
refusals of the set-up. Scenario tests of the digest's worked cases: test_1839_rules.py; the same
example through the CLI and SQLite (undo, redo, audit): test_1839_cli.py.
"""

from __future__ import annotations

import pytest
from openings_1839 import DRAWS, audit, example, new_table, operating_ams, said
from random_rules_1839 import BOOKS_WANTED, books_games


def players(b) -> dict:
    return {p["name"]: p for p in b.status()["players"]}


def companies(b) -> dict:
    return {c["sym"]: c for c in b.status()["companies"]}


# --------------------------------------------------------------------------- the example

def test_the_example_ends_with_the_hand_worked_figures():
    b = example()
    s = b.status()
    assert s["round"] == "SR 3"
    # cash worked in the transcript's comments: ƒ700 less the auction and shares, plus privates and
    # dividends (Ben: 700 - 250 - 200 - 2 x 101 + 2 x 45; Cy: 700 - 200 - 80 - 160 - 3 x 80 + 2 x 40 + 78;
    # Ann: 700 - 100 - 140 - 144 - 4 x 72 - 62 + 59 + 2 x 40 + 13 + 18;
    # Dee: 700 - 160 - 120 - 134 - 3 x 67 - 62 + 56 + 2 x 30 + 13)
    assert {p: v["cash"] for p, v in players(b).items()} == {"Ben": 138, "Cy": 178, "Ann": 136, "Dee": 85}
    c = companies(b)
    # NCS: 800 - 200; AMS: 720 + 30 - 100 + 30 + 35 + 3; ZHESM: 670 - 300 + 40
    assert {sym: c[sym]["cash"] for sym in ("NCS", "AMS", "ZHESM", "NBDS")} == \
        {"NCS": 600, "AMS": 718, "ZHESM": 410, "NBDS": 0}
    assert {sym: c[sym]["price"] for sym in ("NCS", "AMS", "ZHESM", "NBDS")} == \
        {"NCS": 72, "AMS": 55, "ZHESM": 55, "NBDS": 101}
    assert [c[sym]["floated"] for sym in ("NCS", "AMS", "ZHESM", "NBDS")] == [True, True, True, False]
    # yellow privates pay their unfloated companies too (§12.2): two ORs of ƒ20
    assert {sym: c[sym]["cash"] for sym in ("SS", "NWS", "HIJSM", "NRS")} == {"SS": 40, "NWS": 40, "HIJSM": 40,
                                                                              "NRS": 0}
    # the pool's shares; ZHESM above AMS in the ƒ55 box (AMS arrived under it, face up, in OR 2.1)
    assert (c["AMS"]["pool"], c["ZHESM"]["pool"]) == (10, 10)
    assert s["operating_order"] == ["NCS", "ZHESM", "AMS"]
    # order by the passing cards of SR 2: nobody acted after Ben and Cy passed
    assert [p["name"] for p in s["players"]] == ["Ben", "Cy", "Ann", "Dee"]
    audit(b)


def test_money_is_conserved_and_the_bank_holds_the_rest():
    b = example()
    s = b.status()
    held = sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])
    assert s["bank"] + held == 100000


def test_the_auction_leaves_the_hand_worked_cash_and_order():
    b = example(upto="buy Ben NBDS")
    s = b.status()
    assert s["round"] == "SR 1"
    # D8 #6: ascending cash, ties (Cy and Dee at ƒ420) in the auction's card order (Cy before Dee)
    assert [(p["name"], p["cash"]) for p in s["players"]] == [("Ben", 250), ("Cy", 420), ("Dee", 420), ("Ann", 460)]
    assert s["turn"].startswith("SR 1: Ben's turn")
    owners = {p["sym"]: p["owner"] for p in s["privates"]}
    assert {sym: owners[sym] for sym in ("SWO", "LVG", "RWS", "VVD", "KR", "CO", "SHZ", "LSW", "CM")} == {
        "SWO": "Cy", "LVG": "Ann", "RWS": "Ben", "VVD": "Cy", "KR": "Dee", "CO": "Ann", "SHZ": "Dee",
        "LSW": "Ann", "CM": "Ben"}
    # the yellow privates on their charters (§4)
    assert {sym: owners[sym] for sym in ("SLC", "SLD", "SLE", "SLK", "IJR", "ZK")} == {
        "SLC": "SS", "SLD": "NWS", "SLE": "AMS", "SLK": "HIJSM", "IJR": "AMS", "ZK": "NRS"}
    c = companies(b)
    # Rijkswaterstaat: NBDS's director's certificate at ƒ101 (B17: parred when acquired)
    assert (c["NBDS"]["president"], c["NBDS"]["par"], c["NBDS"]["ipo"]) == ("Ben", 101, 80)
    # Spoorwegwerken Oost: a 10 % of NCS, NCS not yet parred (B18)
    assert players(b)["Cy"]["shares"] == {"NCS": 10} and c["NCS"]["par"] is None


def test_the_passing_cards_give_the_next_order():
    b = example(upto="withhold NCS 0")
    # SR 1's last run of passes began Ben, Cy (card 2 after Dee handed it back), Ann, Dee
    assert [p["name"] for p in b.status()["players"]] == ["Ben", "Cy", "Ann", "Dee"]


def test_a_sale_does_not_move_the_price_until_the_round_ends():
    b = example(upto="buy Ann NCS")
    assert companies(b)["AMS"]["price"] == 59 and companies(b)["AMS"]["pool"] == 10


# --------------------------------------------------------------------------- the draws



def test_the_sixth_5_plus_leaves_unless_beijnes_or_verveers_and_credit_mobilier():
    b = new_table()
    b.do(DRAWS)   # CM without VV, no JJB
    five = next(t for t in b.status()["train_roster"] if t["type"] == "5+")
    assert five["left"] == 5
    for drawn, left in (("VVD,LSW,VV,CM", 6), ("VVD,LSW,JJB,KR", 6), ("VVD,LSW,VV,KR", 5)):
        other = new_table("Ann Ben")
        other.do(f"deal --privates {drawn} --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")
        assert next(t for t in other.status()["train_roster"] if t["type"] == "5+")["left"] == left, drawn


def test_undrawn_privates_leave_the_game_and_status_shows_the_draws():
    b = new_table()
    out = said(b, DRAWS)
    assert "privates close (not drawn for this game)" in out
    s = b.status()
    closed = {p["sym"] for p in s["privates"] if p["closed"]}
    assert closed == {"AMB", "RG", "AB", "IJS", "WSM", "PTT", "NFLM", "MEVS", "VV", "RB", "NF", "JJB", "BP", "KV"}
    assert s["draws"] == {"privates": ["VVD", "LSW", "CM", "KR"], "rws": "NBDS", "oost": "NCS",
                          "foreign": {"OZ": 67, "BEL": 72, "DUI": 80}}
    assert "Rijkswaterstaat -> NBDS" in b.status_text()


def test_random_draws_are_recorded_and_the_same_for_the_same_seed():
    first = new_table("Ann Ben Cy")
    second = new_table("Ann Ben Cy")
    for b in (first, second):
        out = said(b, "deal --random 42")
        assert "drawn from seed 42" in out
    draws = first.status()["draws"]
    assert draws == second.status()["draws"]
    assert [p["name"] for p in first.status()["players"]] == [p["name"] for p in second.status()["players"]]
    colours = {"VVD": "blue", "LSW": "blue", "AMB": "blue", "RG": "blue", "AB": "blue", "IJS": "blue",
               "WSM": "blue", "PTT": "blue", "NFLM": "blue"}
    assert sum(1 for sym in draws["privates"] if colours.get(sym) == "blue") == 2
    assert len(draws["privates"]) == 4 and draws["rws"] != draws["oost"]
    assert sorted(draws["foreign"].values()) == [67, 72, 80]


@pytest.mark.parametrize("line, words", [
    ("deal --privates VVD,LSW,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80",
     "2 brown privates"),
    ("deal --privates VVD,LSW,CM,LVG --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80",
     "2 brown privates"),
    ("deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NBDS --foreign OZ=67,BEL=72,DUI=80",
     "must differ"),
    ("deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=67,DUI=80",
     "one each"),
    ("deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS", "--foreign"),
    ("deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80 "
     "--order Ann,Ben", "every player once"),
    ("discount Ann LVG 60", "after the draws"),
    ("buy Ann LVG", "after the draws and the discounts"),
])
def test_bad_draws_are_refused_in_one_line_and_change_nothing(line, words):
    b = new_table()
    assert words in b.refused(line)     # one line, and nothing in the game changes


def test_chips_are_taken_in_card_order_from_what_is_left():
    b = new_table()
    b.do(DRAWS + " --order Dee,Cy,Ben,Ann")
    assert [p["name"] for p in b.status()["players"]] == ["Dee", "Cy", "Ben", "Ann"]
    assert "not Ann's" in b.refused("discount Ann LVG 60")
    assert "not ƒ50" in b.refused("discount Dee LVG 50")
    assert "not in this game's auction" in b.refused("discount Dee AB 60")
    for text in ("discount Dee LVG 60", "discount Cy LVG 60", "discount Ben LVG 60"):
        b.do(text)
    # the three ƒ60 chips are gone
    assert "the chips left are ƒ40, ƒ40, ƒ40, not ƒ60" in b.refused("discount Ann SWO 60")
    b.do("discount Ann SWO 40")
    b.do("discount Dee CO 40")
    b.do("discount Cy CM 40")
    assert b.status()["auction"]["chips"] == []
    # the cards dealt again; LVG (ƒ70 under ƒ180 of chips) goes to card #1 for ƒ0 at once (§6.2)
    out = said(b, "deal --order Ben,Ann,Dee,Cy")
    assert "Ben buys LVG for ƒ0" in out
    s = b.status()
    assert s["turn"].startswith("Auction: Ann: buy Ann ")
    assert s["auction"]["prices"]["SWO"] == 260 and s["auction"]["prices"]["CO"] == 120
    assert s["auction"]["prices"]["CM"] == 160


def test_an_auction_buy_costs_face_less_discounts_and_a_raise_is_20():
    b = new_table()
    b.do(DRAWS)
    for text in ("discount Ann SWO 60", "discount Ben SWO 40", "discount Cy CO 60", "discount Dee CO 40",
                 "discount Ann KR 60", "discount Ben KR 40"):
        b.do(text)
    b.do("deal --order Ann,Ben,Cy,Dee")
    assert "an auction discount is ƒ20" in b.refused("discount Ann SHZ 40")
    assert "not Ben's" in b.refused("buy Ben SWO")
    b.do("buy Ann SWO")                      # 300 - 100
    assert players(b)["Ann"]["cash"] == 500
    b.do("discount Ben CO")                  # 160 - 100 - 20 = 40
    b.do("discount Cy CO")                   # 20
    b.do("discount Dee CO")                  # 0: Ann, next, takes it for ƒ0
    s = b.status()
    owners = {p["sym"]: p["owner"] for p in s["privates"]}
    assert owners["CO"] == "Ann" and players(b)["Ann"]["cash"] == 500
    assert s["turn"].startswith("Auction: Ben: buy")
    assert "already sold" in b.refused("buy Ben CO")
    assert "is a company" in b.refused("buy Ben NCS")


# --------------------------------------------------------------------------- selling a station

def test_a_company_short_of_its_first_train_sells_a_station_for_its_value():
    b = operating_ams()
    assert companies(b)["AMS"]["cash"] == 700
    b.do("tile AMS 610")
    b.do("token AMS 30 --city Venlo")         # ƒ30 x 1 location (its home)
    assert companies(b)["AMS"]["cash"] == 60
    b.do("withhold AMS 0")                    # no dividend, no train: 67 -> 56 (B4)
    assert companies(b)["AMS"]["price"] == 56
    b.do("sell-token AMS 30 --city Venlo")
    assert companies(b)["AMS"]["cash"] == 90 and companies(b)["AMS"]["tokens_left"] == 4
    assert "last station marker" in b.refused("sell-token AMS 30")
    ann = players(b)["Ann"]["cash"]
    b.do("train AMS 2")                       # Ann pays the ƒ10 short (D11.6)
    assert companies(b)["AMS"]["cash"] == 0 and players(b)["Ann"]["cash"] == ann - 10
    assert "owns a train" in b.refused("sell-token AMS 30")
    audit(b)


def test_a_company_that_can_pay_sells_no_station():
    b = operating_ams()
    b.do("token AMS 30 --city Venlo")
    b.do("withhold AMS 0")
    assert "can pay for" in b.refused("sell-token AMS 30")   # and nothing in the game changes


def test_rijkswaterstaat_closes_when_its_company_buys_a_train():
    b = operating_ams()
    b.do("train AMS 2", "done AMS")
    assert not next(p for p in b.status()["privates"] if p["sym"] == "RWS")["closed"]
    # SR 2 (Ben's card first): Ben buys two more (the director may buy 30 % in a turn), Ann one:
    # 40 % left in the IPO, NBDS floats with 10 x 101 (D14.4)
    b.do("buy Ben NBDS", "buy Ben NBDS", "buy Ann NBDS")
    assert companies(b)["NBDS"]["floated"] and companies(b)["NBDS"]["cash"] == 1010
    b.do("pass Ben", "pass Ann")
    assert b.status()["operating"] == "NBDS"      # ƒ101, the highest price
    # §4, §12.3: NBDS places its printed home (Breda) and the additional one in Emmen: 5 - 2 markers
    assert companies(b)["NBDS"]["tokens_left"] == 3
    # a station costs the location's value x the locations of its markers (§8.2.4): 30 x 2
    cash = companies(b)["NBDS"]["cash"]
    b.do("token NBDS 30 --city Tilburg")
    assert companies(b)["NBDS"]["cash"] == cash - 60
    b.do("withhold NBDS 0")
    out = said(b, "train NBDS 2")
    rws = next(p for p in b.status()["privates"] if p["sym"] == "RWS")
    assert rws["closed"] and "NBDS bought a train" in out.splitlines()[-1]


# --------------------------------------------------------------------------- a random game

def test_a_random_game_keeps_the_books():
    """A random two-player game, the invariants checked after every event (money conserved, nobody
    below zero, certificates at 100 %, one holder each), replayed to the state reached step by
    step, with the player count's certificate limit (D1), until the generator reached the draws,
    the auction, floats, runs of each kind, a new phase, the revenue track, a listed foreign company
    and its income, and a foreign share was bought. Two to six players, longer: bench/random_1839.py."""
    kinds, foreign = books_games(2, 1, lines=110)
    assert BOOKS_WANTED <= kinds
    assert foreign


def test_a_purchase_is_one_certificate_of_a_printed_size():
    b = example()
    assert "4% or 2%" in b.refused("buy Ben DUI --percent 10")
    assert "10%" in b.refused("buy Ben NCS --percent 20")



def test_a_player_who_takes_the_chair_this_turn_buys_one_certificate():
    """§7.3: several certificates in one turn are the director's; a player who becomes director with
    this turn's purchase is not yet the director who may buy more (review of §7.1, §7.3)."""
    b = new_table("Ann Ben")
    b.do("deal --privates VVD,LSW,VV,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")
    b.do("discount Ann LVG 60", "discount Ben SWO 60", "discount Ann SWO 40", "discount Ben CM 40",
            "discount Ann CO 60", "discount Ben VVD 40", "deal --order Ann,Ben")
    b.do("buy Ann SWO", "buy Ben RWS", "buy Ann LVG", "buy Ben CO", "buy Ann VVD", "buy Ben LSW",
            "buy Ann VV", "buy Ben CM", "buy Ann SHZ")
    b.do("par Ben ZHESM 67", "buy Ann ZHESM", "pass Ben", "buy Ann ZHESM", "pass Ben")
    b.do("buy Ann ZHESM")                             # 30 % against Ben's 20 %: Ann takes the chair
    assert companies(b)["ZHESM"]["president"] == "Ann"
    assert "already bought" in b.refused("buy Ann ZHESM")
    # a director as her turn begins may: next turn Ann buys two more in one turn (up to 30 %)
    b.do("pass Ben", "buy Ann ZHESM", "buy Ann ZHESM")
    assert players(b)["Ann"]["shares"]["ZHESM"] == 50


def test_mevs_is_paid_as_each_of_its_owners_companies_operates():
    """§12.5, D0.1 #5: MEVS's owner is paid the values of new connections as his companies operate."""
    b = operating_ams(brown="MEVS")
    ann = players(b)["Ann"]["cash"]
    b.do("income MEVS 30")                             # AMS (Ann's) connects a ƒ30 city
    assert players(b)["Ann"]["cash"] == ann + 30
    assert "paid this OR for AMS" in b.refused("income MEVS 10")
