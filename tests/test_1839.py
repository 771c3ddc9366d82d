"""1839, part 1, through the real command line and SQLite: the worked example transcript
(examples/1839-opening.txt) against figures worked by hand in its comments, the draws (typed, and
drawn from a seed), the discount chips and auction, the station sale of an emergency, and the
refusals of the set-up. Scenario tests of the digest's worked cases: tests/test_1839_rules.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_driver import Bank, error_line
from random_play import RandomGame

from ledger.core import invariants

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "1839-opening.txt"
DRAWS = "deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80"


def played(tmp_path, upto: str | None = None) -> Bank:
    """The example played into a new game file, up to (not including) the first line that starts
    with `upto`."""
    assert EXAMPLE.is_file(), f"missing {EXAMPLE}"
    b = Bank(tmp_path / "g.db")
    for raw in EXAMPLE.read_text().splitlines():
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        if upto and text.startswith(upto):
            break
        b.line(text)
    return b


def players(b: Bank) -> dict:
    return {p["name"]: p for p in b.status()["players"]}


def companies(b: Bank) -> dict:
    return {c["sym"]: c for c in b.status()["companies"]}


# --------------------------------------------------------------------------- the example

def test_the_example_ends_with_the_hand_worked_figures(tmp_path):
    b = played(tmp_path)
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
    assert "audit: ledger, replay and rules agree" in b("audit").stdout


def test_money_is_conserved_and_the_bank_holds_the_rest(tmp_path):
    b = played(tmp_path)
    s = b.status()
    held = sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])
    assert s["bank"] + held == 100000


def test_the_auction_leaves_the_hand_worked_cash_and_order(tmp_path):
    b = played(tmp_path, upto="buy Ben NBDS")
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


def test_the_passing_cards_give_the_next_order(tmp_path):
    b = played(tmp_path, upto="withhold NCS 0")
    # SR 1's last run of passes began Ben, Cy (card 2 after Dee handed it back), Ann, Dee
    assert [p["name"] for p in b.status()["players"]] == ["Ben", "Cy", "Ann", "Dee"]


def test_a_sale_does_not_move_the_price_until_the_round_ends(tmp_path):
    b = played(tmp_path, upto="buy Ann NCS")
    assert companies(b)["AMS"]["price"] == 59 and companies(b)["AMS"]["pool"] == 10


# --------------------------------------------------------------------------- the draws

def new_game(tmp_path, *names: str) -> Bank:
    b = Bank(tmp_path / "d.db")
    b("new", "1839", *(names or ("Ann", "Ben", "Cy", "Dee")))
    return b


def test_the_sixth_5_plus_leaves_unless_beijnes_or_verveers_and_credit_mobilier(tmp_path):
    b = new_game(tmp_path)
    b.line(DRAWS)   # CM without VV, no JJB
    five = next(t for t in b.status()["train_roster"] if t["type"] == "5+")
    assert five["left"] == 5
    for drawn, left in (("VVD,LSW,VV,CM", 6), ("VVD,LSW,JJB,KR", 6), ("VVD,LSW,VV,KR", 5)):
        other = Bank(tmp_path / f"{drawn}.db")
        other("new", "1839", "Ann", "Ben")
        other.line(f"deal --privates {drawn} --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")
        assert next(t for t in other.status()["train_roster"] if t["type"] == "5+")["left"] == left, drawn


def test_undrawn_privates_leave_the_game_and_status_shows_the_draws(tmp_path):
    b = new_game(tmp_path)
    out = b.line(DRAWS).stdout
    assert "privates close (not drawn for this game)" in out
    s = b.status()
    closed = {p["sym"] for p in s["privates"] if p["closed"]}
    assert closed == {"AMB", "RG", "AB", "IJS", "WSM", "PTT", "NFLM", "MEVS", "VV", "RB", "NF", "JJB", "BP", "KV"}
    assert s["draws"] == {"privates": ["VVD", "LSW", "CM", "KR"], "rws": "NBDS", "oost": "NCS",
                          "foreign": {"OZ": 67, "BEL": 72, "DUI": 80}}
    assert "Rijkswaterstaat -> NBDS" in b("status").stdout


def test_random_draws_are_recorded_and_the_same_for_the_same_seed(tmp_path):
    first = Bank(tmp_path / "a.db")
    second = Bank(tmp_path / "b.db")
    for b in (first, second):
        b("new", "1839", "Ann", "Ben", "Cy")
        out = b("deal", "--random", "42").stdout
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
def test_bad_draws_are_refused_in_one_line_and_change_nothing(tmp_path, line, words):
    b = new_game(tmp_path)
    before = b.status_text()
    line_out = error_line(b.line(line, ok=False))
    assert words in line_out
    assert b.status_text() == before


def test_chips_are_taken_in_card_order_from_what_is_left(tmp_path):
    b = new_game(tmp_path)
    b.line(DRAWS + " --order Dee,Cy,Ben,Ann")
    assert [p["name"] for p in b.status()["players"]] == ["Dee", "Cy", "Ben", "Ann"]
    assert "not Ann's" in error_line(b.line("discount Ann LVG 60", ok=False))
    assert "not ƒ50" in error_line(b.line("discount Dee LVG 50", ok=False))
    assert "not in this game's auction" in error_line(b.line("discount Dee AB 60", ok=False))
    for text in ("discount Dee LVG 60", "discount Cy LVG 60", "discount Ben LVG 60"):
        b.line(text)
    # the three ƒ60 chips are gone
    assert "the chips left are ƒ40, ƒ40, ƒ40, not ƒ60" in error_line(b.line("discount Ann SWO 60", ok=False))
    b.line("discount Ann SWO 40")
    b.line("discount Dee CO 40")
    b.line("discount Cy CM 40")
    assert b.status()["auction"]["chips"] == []
    # the cards dealt again; LVG (ƒ70 under ƒ180 of chips) goes to card #1 for ƒ0 at once (§6.2)
    out = b.line("deal --order Ben,Ann,Dee,Cy").stdout
    assert "Ben buys LVG for ƒ0" in out
    s = b.status()
    assert s["turn"].startswith("Auction: Ann: buy a private")
    assert s["auction"]["prices"]["SWO"] == 260 and s["auction"]["prices"]["CO"] == 120
    assert s["auction"]["prices"]["CM"] == 160


def test_an_auction_buy_costs_face_less_discounts_and_a_raise_is_20(tmp_path):
    b = new_game(tmp_path)
    b.line(DRAWS)
    for text in ("discount Ann SWO 60", "discount Ben SWO 40", "discount Cy CO 60", "discount Dee CO 40",
                 "discount Ann KR 60", "discount Ben KR 40"):
        b.line(text)
    b.line("deal --order Ann,Ben,Cy,Dee")
    assert "an auction discount is ƒ20" in error_line(b.line("discount Ann SHZ 40", ok=False))
    assert "not Ben's" in error_line(b.line("buy Ben SWO", ok=False))
    b.line("buy Ann SWO")                      # 300 - 100
    assert players(b)["Ann"]["cash"] == 500
    b.line("discount Ben CO")                  # 160 - 100 - 20 = 40
    b.line("discount Cy CO")                   # 20
    b.line("discount Dee CO")                  # 0: Ann, next, takes it for ƒ0
    s = b.status()
    owners = {p["sym"]: p["owner"] for p in s["privates"]}
    assert owners["CO"] == "Ann" and players(b)["Ann"]["cash"] == 500
    assert s["turn"].startswith("Auction: Ben: buy")
    assert "already sold" in error_line(b.line("buy Ben CO", ok=False))
    assert "is a company" in error_line(b.line("buy Ben NCS", ok=False))


# --------------------------------------------------------------------------- selling a station

def operating_ams(tmp_path, brown: str = "VV") -> Bank:
    """A two-player game where AMS (par 67, floated with ƒ670 + ƒ30 from its yellow privates) is
    about to operate for the first time. Ann buys the brown private `brown` (ƒ180) with CM."""
    b = Bank(tmp_path / "s.db")
    b("new", "1839", "Ann", "Ben")
    b.line(f"deal --privates VVD,LSW,{brown},CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")
    b.lines("discount Ann LVG 60", "discount Ben SWO 60", "discount Ann SWO 40", "discount Ben CM 40",
            "discount Ann CO 60", "discount Ben VVD 40", "deal --order Ann,Ben")
    b.lines("buy Ann SWO", "buy Ben RWS", "buy Ann LVG", "buy Ben CO", "buy Ann VVD", "buy Ben LSW",
            f"buy Ann {brown}", "buy Ben CM", "buy Ann SHZ")
    b.lines("par Ben ZHESM 67", "buy Ben ZHESM", "par Ann AMS 67", "buy Ann AMS", "buy Ben ZHESM", "buy Ann AMS",
            "buy Ben ZHESM", "buy Ann AMS", "buy Ben NBDS", "buy Ann AMS", "pass Ben", "pass Ann")
    assert b.status()["operating"] == "AMS"
    return b


def test_a_company_short_of_its_first_train_sells_a_station_for_its_value(tmp_path):
    b = operating_ams(tmp_path)
    assert companies(b)["AMS"]["cash"] == 700
    b.line("tile AMS 610")
    b.line("token AMS 30 --city Venlo")         # ƒ30 x 1 location (its home)
    assert companies(b)["AMS"]["cash"] == 60
    b.line("withhold AMS 0")                    # no dividend, no train: 67 -> 56 (B4)
    assert companies(b)["AMS"]["price"] == 56
    b.line("sell-token AMS 30 --city Venlo")
    assert companies(b)["AMS"]["cash"] == 90 and companies(b)["AMS"]["tokens_left"] == 4
    assert "last station marker" in error_line(b.line("sell-token AMS 30", ok=False))
    ann = players(b)["Ann"]["cash"]
    b.line("train AMS 2")                       # Ann pays the ƒ10 short (D11.6)
    assert companies(b)["AMS"]["cash"] == 0 and players(b)["Ann"]["cash"] == ann - 10
    assert "owns a train" in error_line(b.line("sell-token AMS 30", ok=False))
    assert "audit: ledger, replay and rules agree" in b("audit").stdout


def test_a_company_that_can_pay_sells_no_station(tmp_path):
    b = operating_ams(tmp_path)
    b.line("token AMS 30 --city Venlo")
    b.line("withhold AMS 0")
    before = b.status_text()
    assert "can pay for" in error_line(b.line("sell-token AMS 30", ok=False))
    assert b.status_text() == before


def test_rijkswaterstaat_closes_when_its_company_buys_a_train(tmp_path):
    b = operating_ams(tmp_path)
    b.lines("train AMS 2", "done AMS")
    assert not next(p for p in b.status()["privates"] if p["sym"] == "RWS")["closed"]
    # SR 2 (Ben's card first): Ben buys two more (the director may buy 30 % in a turn), Ann one:
    # 40 % left in the IPO, NBDS floats with 10 x 101 (D14.4)
    b.lines("buy Ben NBDS", "buy Ben NBDS", "buy Ann NBDS")
    assert companies(b)["NBDS"]["floated"] and companies(b)["NBDS"]["cash"] == 1010
    b.lines("pass Ben", "pass Ann")
    assert b.status()["operating"] == "NBDS"      # ƒ101, the highest price
    # §4, §12.3: NBDS places its printed home (Breda) and the additional one in Emmen: 5 - 2 markers
    assert companies(b)["NBDS"]["tokens_left"] == 3
    # a station costs the location's value x the locations of its markers (§8.2.4): 30 x 2
    cash = companies(b)["NBDS"]["cash"]
    b.line("token NBDS 30 --city Tilburg")
    assert companies(b)["NBDS"]["cash"] == cash - 60
    b.lines("withhold NBDS 0", "train NBDS 2")
    rws = next(p for p in b.status()["privates"] if p["sym"] == "RWS")
    assert rws["closed"] and "NBDS bought a train" in b.log()[-1]["lines"][-1]


# --------------------------------------------------------------------------- random games

def check_every_event(state, rs, event: dict, line: str) -> None:
    """Money conserved, nobody below zero, every company's certificates at 100 %, every holding
    with one holder: after each event, not only after each command."""
    problems = invariants.check(state, rs)
    assert not problems, f"after {event['kind']} of {line!r}: {problems}"


@pytest.mark.parametrize("count, seed", [(2, 1), (3, 2), (4, 3), (5, 6), (6, 5)])
def test_random_games_for_two_to_six_players_keep_the_books(count, seed):
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:count]
    wanted = {"draws_dealt", "discount_placed", "private_bought", "floated", "revenue", "train_bought",
              "phase_changed", "revenue_tracked", "company_listed", "foreign_income"}
    kinds, foreign = set(), False
    for game_seed in range(seed, seed + 6):   # a random table may go bankrupt early: another game goes on
        game = RandomGame("1839", names, game_seed, after_event=check_every_event)
        game.play(900)
        kinds |= {e["kind"] for e in game.events}
        foreign |= any(e["kind"] == "share_bought" and e["corp"] in ("OZ", "BEL", "DUI") for e in game.events)
        assert game.replayed() == game.state, "replaying the events differs from the state reached step by step"
        # the certificate limit is the player count's (D1)
        assert game.state.cert_limit == {2: 32, 3: 21, 4: 16, 5: 15, 6: 11}[count]
        if wanted <= kinds and foreign:
            break
    # the generator reached the draws, the auction, floats, runs of each kind and a new phase
    assert wanted <= kinds
    assert foreign


def test_undo_and_redo_in_sqlite_give_back_the_same_game(tmp_path):
    b = played(tmp_path)
    end = b.status_text()
    first_sr = next(e["id"] for e in b.log() if e["text"].startswith("buy Ben NBDS"))
    b("undo", "--to", str(first_sr), "--yes")
    assert b.status()["round"] == "SR 1"
    b("redo")
    assert b.status_text() == end
    assert "audit: ledger, replay and rules agree" in b("audit").stdout


def test_a_purchase_is_one_certificate_of_a_printed_size(tmp_path):
    b = played(tmp_path)
    assert "4% or 2%" in error_line(b.line("buy Ben DUI --percent 10", ok=False))
    assert "10%" in error_line(b.line("buy Ben NCS --percent 20", ok=False))



def test_a_player_who_takes_the_chair_this_turn_buys_one_certificate(tmp_path):
    """§7.3: several certificates in one turn are the director's; a player who becomes director with
    this turn's purchase is not yet the director who may buy more (review of §7.1, §7.3)."""
    b = Bank(tmp_path / "c.db")
    b("new", "1839", "Ann", "Ben")
    b.line("deal --privates VVD,LSW,VV,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")
    b.lines("discount Ann LVG 60", "discount Ben SWO 60", "discount Ann SWO 40", "discount Ben CM 40",
            "discount Ann CO 60", "discount Ben VVD 40", "deal --order Ann,Ben")
    b.lines("buy Ann SWO", "buy Ben RWS", "buy Ann LVG", "buy Ben CO", "buy Ann VVD", "buy Ben LSW",
            "buy Ann VV", "buy Ben CM", "buy Ann SHZ")
    b.lines("par Ben ZHESM 67", "buy Ann ZHESM", "pass Ben", "buy Ann ZHESM", "pass Ben")
    b.line("buy Ann ZHESM")                             # 30 % against Ben's 20 %: Ann takes the chair
    assert companies(b)["ZHESM"]["president"] == "Ann"
    assert "already bought" in error_line(b.line("buy Ann ZHESM", ok=False))
    # a director as her turn begins may: next turn Ann buys two more in one turn (up to 30 %)
    b.lines("pass Ben", "buy Ann ZHESM", "buy Ann ZHESM")
    assert players(b)["Ann"]["shares"]["ZHESM"] == 50


def test_mevs_is_paid_as_each_of_its_owners_companies_operates(tmp_path):
    """§12.5, D0.1 #5: MEVS's owner is paid the values of new connections as his companies operate."""
    b = operating_ams(tmp_path, brown="MEVS")
    ann = players(b)["Ann"]["cash"]
    b.line("income MEVS 30")                             # AMS (Ann's) connects a ƒ30 city
    assert players(b)["Ann"]["cash"] == ann + 30
    assert "paid this OR for AMS" in error_line(b.line("income MEVS 10", ok=False))
