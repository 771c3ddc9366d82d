"""1839's foreign companies, revenue track and private powers on the engine (tests/conftest.py's
Table): two two-player tables played from the draws, every figure worked by hand from the rules (the rulebook
shared/seeds/003_aa544c940024c360.txt, "§"; the digest shared/rules/1839.md, "D", D0.1 first).

Table F (the foreign companies): Duitsland parred by two routes in yellow, its shares refused in
yellow, bought at half to its treasury in green, sold at the box below with a 4 % broken into 2 %s,
the end-of-SR drop (D14.11), its OR with the pool's dividends lost and the buy-back (D14.13), its
trains starting the blue phase and rusting the 2s (D14.15) but not a SAVED 2 (D14.18), the
emergency purchase that follows (D14.16), station costs with SWO and CO (D14.22), obsolescence
(D14.17), full price to the treasury in brown, the +1 when players hold it all, and the score
(D14.23). Table C: Credit Mobilier on the first 7+ with the digest's closing points (D14.17).

Both tables use the table-side `--rules` override (README "A table's own market") only for a
shorter train roster, so that the phases come in a few rounds; every other number is the title's.
The auction lets every private go for nothing (discounts of ƒ20 until the face is reached, the
next player taking it, §6.2), so both players start the first SR with their ƒ1300 (§4).

On the tiny roster (openings_1839.tiny_brown, tests/data/1839/tiny-roster.toml) to gray: a foreign
company's ƒ1,000 reached by its trains or at the end of an SR (§9.1, B24, D14.21), a unit sold at the
ƒ55 floor (B6), Overzees in brown (D0.1 #3), the first FLOOD (§8.3.2). On the green VV_CM table
(openings_1839.vv_cm): the foreign companies' order in an OR (§8.3) and a run abroad counted once per
country (B7)."""

from __future__ import annotations

import pytest
from conftest import Table
from openings_1839 import BANK_TOTAL, FORCE, audit, checkpoints, new_table, orun, supply_left
from openings_1839 import tiny_brown, vv_cm  # noqa: F401  (fixtures, used by name)

# Short rosters (the counts only; prices and rusting as in §5/§15). Table F draws Beijnes, so the
# sixth 5+ stays in play (§4): three 5+. Table C draws Verveers and Credit Mobilier: the same.
ROSTER_F = """
[[trains]]
name = "2"
distance = 2
price = 100
count = 4
rusts_on = "5+"
[[trains]]
name = "3+"
distance = 3
price = 250
count = 3
rusts_on = "7+"
[[trains]]
name = "5+"
distance = 5
price = 450
count = 3
rusts_on = "5D+"
[[trains]]
name = "7+"
distance = 7
price = 700
count = 7
rusts_on = "FLOOD"
[[trains]]
name = "5D+"
distance = 10
price = 1250
count = 5
[[trains]]
name = "FLOOD"
distance = 30
price = 2000
count = 9
"""

ROSTER_C = (ROSTER_F.replace('count = 4\nrusts_on = "5+"', 'count = 1\nrusts_on = "5+"')
            .replace('count = 3\nrusts_on = "7+"', 'count = 1\nrusts_on = "7+"')
            .replace('count = 3\nrusts_on = "5D+"', 'count = 1\nrusts_on = "5D+"')
            .replace('count = 7\nrusts_on = "FLOOD"', 'count = 3\nrusts_on = "FLOOD"'))

FACE = {"LVG": 70, "SHZ": 160, "CO": 160, "RWS": 250, "SWO": 300, "NFLM": 300, "VVD": 120, "LSW": 140,
        "VV": 180, "CM": 200, "JJB": 260, "BP": 260}


def free_auction(wants: list[tuple[str, str]], chips: dict[str, int], spare: str) -> list[str]:
    """The auction's lines (§6.2, two players in card order Ann, Ben) in which every private goes for
    ƒ0: each turn adds ƒ20 to a private until its discounts reach its face, and the next player is
    then given it (that is their turn). When the wrong player would be given one, the turn's ƒ20 goes
    on the `spare` private instead (taken last, by whoever)."""
    order = ["Ann", "Ben"]
    disc = dict(chips)
    out, turn = [], 0
    for sym, owner in wants:
        while disc.get(sym, 0) < FACE[sym]:
            taker = order[(turn + 1) % 2]
            if disc.get(sym, 0) + 20 >= FACE[sym] and taker != owner and sym != spare:
                out.append(f"discount {order[turn % 2]} {spare}")
                disc[spare] = disc.get(spare, 0) + 20
                assert disc[spare] < FACE[spare]
            else:
                out.append(f"discount {order[turn % 2]} {sym}")
                disc[sym] = disc.get(sym, 0) + 20
            turn += 1
        turn += 1                                   # the forced take for ƒ0 is the taker's turn
    return out


# --------------------------------------------------------------------------- table F

F_DRAWS = """
deal --privates NFLM,VVD,JJB,BP --rijkswaterstaat NBDS --oost NCS --foreign OZ=72,BEL=80,DUI=67
discount Ann SWO 60
discount Ben NFLM 60
discount Ann RWS 60
discount Ben SHZ 40
discount Ann JJB 40
discount Ben VVD 40
deal --order Ann,Ben
"""
F_AUCTION = free_auction(
    [("LVG", "Ann"), ("RWS", "Ben"), ("SWO", "Ann"), ("NFLM", "Ann"), ("VVD", "Ben"), ("CO", "Ben"),
     ("SHZ", "Ann"), ("JJB", "Ann"), ("BP", "Ann")],
    {"SWO": 60, "NFLM": 60, "RWS": 60, "SHZ": 40, "JJB": 40, "VVD": 40}, spare="BP")

# SR 1 (both ƒ1300: the auction order stands, §6.2) and OR 1 (yellow, one OR).
F_SR1_OR1 = """
par Ann AMS 67
buy Ann AMS
par Ben ZHESM 67
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
pass Ann
pass Ben
withhold AMS 0
train AMS 2
done AMS
withhold ZHESM 0
train ZHESM 2
done ZHESM
"""
# SR 2, then OR 2 (yellow): two routes reach Duitsland.
F_SR2_OR2 = """
pass Ann
pass Ben
pay ZHESM 160 --abroad DUI
done ZHESM
pay AMS 140 --abroad DUI
done AMS
"""
F_SR3 = """
pass Ann
pass Ben
"""
# OR 3: AMS buys the first 3+ (green), buys BP from Ann; ZHESM buys one of BP's SAVED markers.
F_OR3 = """
token AMS 30 --city Venlo
pay AMS 100
train AMS 3+
buy-private AMS BP 100
done AMS
token ZHESM 40 --city Leiden
pay ZHESM 100
save ZHESM BP 2
done ZHESM
"""
# SR 4 (green): both buy seven 4 % of Duitsland from its charter; Ann sells four units; Ben buys NBDS.
F_SR4 = "\n".join(["buy Ann DUI --percent 4", "buy Ben DUI --percent 4"] * 7) + """
sell Ann DUI 2
sell Ann DUI 1
sell Ann DUI 1
pass Ann
buy Ben NBDS
pass Ann
pass Ben
"""
F_OR41 = """
buy-private ZHESM SWO 300
token ZHESM 25 --using SWO --city Gouda
withhold ZHESM 180 --abroad DUI
done ZHESM
pay AMS 230 --abroad DUI
train AMS 3+
done AMS
"""
F_OR42 = """
buy-private AMS CO 1
token AMS 30 --using CO --city Eindhoven
pay AMS 900
done AMS
buy-private ZHESM SHZ 160
pay ZHESM 60
sell-token ZHESM 40 --city Leiden
sell Ben VVD
sell Ben DUI 1
train ZHESM 5+
done ZHESM
"""
F_SR5 = """
buy Ann DUI --pool --percent 2
pass Ben
buy Ann DUI --percent 2
pass Ben
pass Ann
"""
F_OR5 = """
withhold AMS 600
train AMS 7+
done AMS
pay ZHESM 500
done ZHESM
pay AMS 1050
done AMS
pay ZHESM 750
done ZHESM
"""
# SR 6 (brown): the players buy the charter's last 25 units: nine 4 % and seven 2 %.
F_SR6 = "\n".join(["buy Ben DUI --percent 4", "buy Ann DUI --percent 4"] * 4 + ["buy Ben DUI --percent 4"]
                  + ["buy Ann DUI --percent 2", "pass Ben"] * 7 + ["pass Ann"])

F_SEGMENTS = [("sr1", F_DRAWS + "\n".join(F_AUCTION)), ("sr2", F_SR1_OR1), ("sr3", F_SR2_OR2),
              ("or3", F_SR3), ("sr4", F_OR3), ("or41", F_SR4), ("or42", F_OR41), ("sr5", F_OR42),
              ("or51", F_SR5), ("sr6", F_OR5), ("or61", F_SR6)]


@pytest.fixture(scope="module")
def table_f(tmp_path_factory):
    """Table F played once; a copy of the game at the end of each segment."""
    roster = tmp_path_factory.mktemp("foreign") / "roster.toml"
    roster.write_text(ROSTER_F)
    return checkpoints(new_table("Ann Ben", rules=roster), [("new", ""), *F_SEGMENTS])


def at(saves: dict, name: str) -> Table:
    return saves[name].copy()


def play(b: Table, text: str) -> None:
    b.play(text)


def corp(s: dict, sym: str) -> dict:
    return next(c for c in s["companies"] if c["sym"] == sym)


def player(s: dict, name: str) -> dict:
    return next(p for p in s["players"] if p["name"] == name)


def cash(s: dict) -> dict:
    return {p["name"]: p["cash"] for p in s["players"]}


def left(s: dict, train: str) -> int:
    return next(t["left"] for t in s["train_roster"] if t["type"] == train)


def owner(s: dict, sym: str):
    p = next(p for p in s["privates"] if p["sym"] == sym)
    return None if p["closed"] else p["owner"]


def books_balance(s: dict) -> None:
    """Money is only moved, never made: the bank and everyone's cash add up to ƒ100,000 (§2)."""
    assert s["bank"] + sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"]) \
        == BANK_TOTAL


def test_free_auction_and_the_first_stock_round(table_f):
    """§6.2: every private went for ƒ0, so both keep ƒ1300 and the SR order is the auction's (a tie
    in cash keeps the card order). SR 1: each floats a company at 67 with six shares: 2 x 67 for
    the director's certificate + 4 x 67 = ƒ402 (D0.1 #2: IPO shares at the current price)."""
    b = at(table_f, "sr1")
    s = b.status()
    assert cash(s) == {"Ann": 1300, "Ben": 1300}
    assert [p["name"] for p in s["players"]] == ["Ann", "Ben"]
    assert {sym: owner(s, sym) for sym in ("LVG", "SHZ", "SWO", "NFLM", "JJB", "BP", "RWS", "VVD", "CO")} == \
        {"LVG": "Ann", "SHZ": "Ann", "SWO": "Ann", "NFLM": "Ann", "JJB": "Ann", "BP": "Ann",
         "RWS": "Ben", "VVD": "Ben", "CO": "Ben"}
    assert s["bank"] == BANK_TOTAL - 2 * 1300
    # three 5+ in the roster: Beijnes is drawn, so the sixth of §4 stays in play
    assert left(s, "5+") == 3
    play(b, F_SR1_OR1)
    s = b.status()
    # OR 1's private step: Ann LVG 5 + SWO 25 + SHZ 20 (+ NFLM, JJB, BP nothing) = 50;
    # Ben RWS 35 + VVD 15 + CO 20 = 70. So Ann 1300 - 402 + 50, Ben 1300 - 402 + 70.
    assert cash(s) == {"Ann": 948, "Ben": 968}
    # AMS: 670 + SLE 20 + IJR 10 - 100; ZHESM 670 - 100. No train at the dividend: -3 (67 -> 56)
    assert (corp(s, "AMS")["cash"], corp(s, "ZHESM")["cash"]) == (600, 570)
    assert (corp(s, "AMS")["price"], corp(s, "ZHESM")["price"]) == (56, 56)
    # ZHESM came into the 56 box after AMS had operated (face down): above it (§8.2.1, D2.3)
    assert s["operating_order"] == ["ZHESM", "AMS"]
    books_balance(s)


def test_routes_abroad_par_duitsland_and_it_operates_at_the_end_of_the_or(table_f):
    """§8.2.5.3: the first route to a German off-board pars Duitsland at its drawn par (67) and it
    operates that same OR (§8.3). D3/§8.3.2: its income is half the revenues of the companies that
    ran there, rounded up to ƒ100: (160 + 140) / 2 = 150 -> 200. Half-paid: 100 to the treasury and
    ƒ2 a unit, all 50 units on its charter, so the treasury has 200. Dividend: +1 (67 -> 72). In
    yellow it then buys 2-trains at ƒ100 while it can: two (200 -> 0), +1 each (72 -> 80 -> 89),
    each leaving the game."""
    b = at(table_f, "sr2")
    b.do("pass Ann", "pass Ben")
    before = b.status()
    b.do("pay ZHESM 160 --abroad DUI")
    s = b.status()
    dui = corp(s, "DUI")
    assert (dui["price"], dui["cash"], dui["ipo"]) == (67, 0, 100)
    assert s["revenue_track"]["ZHESM"] == {"revenue": 160, "abroad": ["DUI"]}
    # ZHESM's own payout: Ben 60 % of 160 = 96; 160 >= 2 x 56: +2 (56 -> 59 -> 62)
    assert cash(s)["Ben"] == cash(before)["Ben"] + 96
    b.do("done ZHESM", "pay AMS 140 --abroad DUI")
    mid = b.status()
    b.do("done AMS")
    s = b.status()
    dui = corp(s, "DUI")
    assert (dui["cash"], dui["price"], dui["trains"]) == (0, 89, [])
    assert left(s, "2") == 0 and s["pool_trains"] == []
    assert s["phase"] == "yellow"                      # 2-trains start no phase
    # nobody holds a unit yet: no player is paid; the bank pays 200 and takes 200 for the trains
    assert cash(s) == cash(mid) and s["bank"] == mid["bank"]
    assert (corp(s, "AMS")["price"], corp(s, "ZHESM")["price"]) == (62, 62)
    books_balance(s)


def test_foreign_shares_are_not_on_sale_in_yellow(table_f):
    """§7.3: foreign shares cannot be bought until green, even once parred (Duitsland is, at 89)."""
    b = at(table_f, "sr3")
    s = b.status()
    assert s["phase"] == "yellow" and corp(s, "DUI")["price"] == 89
    before = b.status_text()
    for text in ("buy Ann DUI", "buy Ann DUI --percent 2", "buy Ann DUI --percent 4"):
        assert "green" in b.refused(text)
    assert b.status_text() == before


def test_d14_22_stations_and_d14_18_a_saved_marker_bought_from_beyer_peacock(table_f):
    """OR 3. D14.22 / §8.2.4: a station costs the location's value x the locations where the
    company has markers (its home only: 1): AMS 30 x 1, ZHESM 40 x 1. D14.18 / §12.5: ZHESM buys
    one of BP's SAVED markers from BP's owner AMS for ƒ200: ƒ50 to AMS, ƒ150 to the bank."""
    b = at(table_f, "or3")
    s0 = b.status()
    # private step: AMS 630 + 30; Ann 1082 + 50; Ben 1134 + 70
    assert (corp(s0, "AMS")["cash"], corp(s0, "ZHESM")["cash"]) == (660, 570)
    assert cash(s0) == {"Ann": 1132, "Ben": 1204}
    b.do("token AMS 30 --city Venlo")
    assert corp(b.status(), "AMS")["cash"] == 630
    b.do("pay AMS 100", "train AMS 3+")
    s = b.status()
    assert s["phase"] == "green" and corp(s, "AMS")["cash"] == 380
    b.do("buy-private AMS BP 100", "done AMS")      # green: a company may buy a private (§12.1)
    b.do("token ZHESM 40 --city Leiden")
    assert corp(b.status(), "ZHESM")["cash"] == 530
    b.do("pay ZHESM 100")
    before = b.status()
    b.do("save ZHESM BP 2")
    s = b.status()
    assert corp(s, "ZHESM")["cash"] == corp(before, "ZHESM")["cash"] - 200 == 330
    assert corp(s, "AMS")["cash"] == corp(before, "AMS")["cash"] + 50 == 330
    assert s["bank"] == before["bank"] + 150
    b.do("done ZHESM")
    s = b.status()
    # nobody reached Germany in OR 3: no dividend, -1 (89 -> 80) (§7.7.3.2)
    assert corp(s, "DUI")["price"] == 80 and corp(s, "DUI")["cash"] == 0
    assert s["round"] == "SR 4" and s["phase"] == "green"
    books_balance(s)


def test_d14_14_buying_and_selling_foreign_units_and_d14_11_the_end_of_sr_drop(table_f):
    """SR 4, green, Duitsland at 80 (D14.14, §7.2, §7.3, §7.6, §7.7.2)."""
    b = at(table_f, "sr4")
    s0 = b.status()
    assert cash(s0) == {"Ann": 1292, "Ben": 1264}    # OR 3: Ann +60 dividend +100 for BP; Ben +60
    # Belgie has no price: nobody may buy it
    assert "BEL" in b.refused("buy Ann BEL")
    certs = player(s0, "Ann")["certificates"]
    b.do("buy Ann DUI --percent 4")
    s = b.status()
    # a 4 % is two units at 80 = 160: half (80) to Duitsland's treasury, half to the bank
    assert cash(s)["Ann"] == 1292 - 160
    assert corp(s, "DUI")["cash"] == 80 and s["bank"] == s0["bank"] + 80
    assert (corp(s, "DUI")["ipo"], player(s, "Ann")["shares"]["DUI"]) == (96, 4)
    # foreign certificates do not count toward the certificate limit (§7.6)
    assert player(s, "Ann")["certificates"] == certs
    play(b, "\n".join(["buy Ben DUI --percent 4", "buy Ann DUI --percent 4"] * 6) + "\nbuy Ben DUI --percent 4")
    s = b.status()
    # fourteen 4 % sold: 14 x 80 = 1120 to the treasury; Ann and Ben 7 x 160 = 1120 each
    assert corp(s, "DUI")["cash"] == 1120
    assert cash(s) == {"Ann": 172, "Ben": 144}
    assert player(s, "Ann")["certificates"] == certs
    # selling: the next lower box below 80 is 72 (§7.2): a 4 % pays 2 x 72 = 144
    b.do("sell Ann DUI 2")
    assert cash(b.status())["Ann"] == 172 + 144
    # one unit alone: she breaks a 4 % into two 2 %s first, and is paid 72
    b.do("sell Ann DUI 1")
    b.do("sell Ann DUI 1")
    s = b.status()
    assert cash(s)["Ann"] == 172 + 144 + 72 + 72 == 460
    assert (player(s, "Ann")["shares"]["DUI"], corp(s, "DUI")["pool"], corp(s, "DUI")["ipo"]) == (20, 8, 44)
    assert corp(s, "DUI")["price"] == 80                # sales move the price only at the SR's end
    assert "sold DUI" in b.refused("buy Ann DUI --percent 2")
    b.do("pass Ann", "buy Ben NBDS", "pass Ann")
    b.do("pass Ben")
    s = b.status()
    # end of SR: four units in the pool take Duitsland down one box only (D14.11): 80 -> 72
    assert corp(s, "DUI")["price"] == 72
    assert s["round"] == "OR 4.1"
    books_balance(s)


def test_d14_13_and_d14_15_a_foreign_operating_round_that_starts_the_blue_phase(table_f):
    """OR 4.1, Duitsland at 72 with ƒ1120; Ann 10 units, Ben 14, pool 4, charter 22 (D14.13).
    ZHESM (withheld ƒ180) and AMS (paid ƒ230) ran to Germany.
    - income: (180 + 230) / 2 = 205, rounded up to ƒ300 (§8.3.2);
    - half-pay: 150 to the treasury; ƒ150 x 2 % = ƒ3 a unit: Ann 30, Ben 42, the charter's 22 units
      66 to the treasury, the pool's 4 units 12 to nobody. Treasury 1120 + 150 + 66 = 1336;
    - dividend paid: +1 (72 -> 80);
    - buy-back: floor(80 / 2) = 40 a unit x 4 = 160 to the bank: 1176; the charter has 26 units;
    - trains (D14.15): the last 3+ (250) -> 926; the first 5+ (450) starts the blue phase at once,
      every 2 rusts (AMS's) but ZHESM's SAVED 2 -> 476; another 5+ -> 26; the third 5+ (450) is
      beyond it. +1 a train: 80 -> 89 -> 101 -> 116. All three leave the game."""
    b = at(table_f, "or41")
    s0 = b.status()
    assert cash(s0) == {"Ann": 510, "Ben": 113}       # 460 + 50 and 43 + 70 (private step)
    assert (corp(s0, "DUI")["cash"], corp(s0, "DUI")["price"]) == (1120, 72)
    # ZHESM buys SWO from Ann: a station at a 25 town with 2 locations (Haarlem, Leiden):
    # 25 x 2 = 50, halved: 25 (D14.22)
    b.do("buy-private ZHESM SWO 300")
    b.do("token ZHESM 25 --using SWO --city Gouda")
    s = b.status()
    assert corp(s, "ZHESM")["cash"] == 330 - 300 - 25 and owner(s, "SWO") is None
    b.do("withhold ZHESM 180 --abroad DUI", "done ZHESM")
    assert corp(b.status(), "ZHESM")["price"] == 59      # withheld with a train: -2 (67 -> 59)
    b.do("pay AMS 230 --abroad DUI")
    b.do("train AMS 3+")
    before = b.status()
    assert cash(before) == {"Ann": 510 + 300 + 138, "Ben": 113}
    assert left(before, "3+") == 1 and before["phase"] == "green"
    assert before["revenue_track"]["ZHESM"] == {"revenue": 180, "abroad": ["DUI"]}
    b.do("done AMS")
    s = b.status()
    dui = corp(s, "DUI")
    # the OR ends and OR 4.2's private step follows: Ann LVG 5 + SHZ 20, Ben 70, AMS SLE 20 + IJR
    # 10, the unfloated SS, NWS, HIJSM 20 each from their Staatslijnen (ƒ185 in all)
    assert s["round"] == "OR 4.2"
    assert cash(s) == {"Ann": cash(before)["Ann"] + 30 + 25, "Ben": cash(before)["Ben"] + 42 + 70}
    assert (dui["cash"], dui["price"], dui["ipo"], dui["pool"], dui["trains"]) == (26, 116, 52, 0, [])
    # the bank paid Duitsland's 150 + 66 + 30 + 42 and took 160 + 250 + 450 + 450
    assert s["bank"] == before["bank"] - 288 + 1310 - 185
    assert s["phase"] == "blue" and (left(s, "3+"), left(s, "5+")) == (0, 1) and s["pool_trains"] == []
    assert corp(s, "AMS")["trains"] == ["3+", "3+"]
    assert [t.split(" ")[0] for t in corp(s, "ZHESM")["trains"]] == ["2"]   # the SAVED 2 outlives it
    books_balance(s)


def test_d14_18_the_saved_train_runs_once_more_and_d14_16_the_emergency_purchase(table_f):
    """OR 4.2, blue. AMS buys CO and places a free station (D14.22: 30 x 2 would be ƒ60). ZHESM runs
    its SAVED 2 a last time (§12.5), which then leaves: it has no train, ƒ25, and the last 5+ costs
    450 (D14.16, §8.2.7.3):
    1. it sells its Leiden marker for the location's value: 25 + 40 = 65; it needs 385 more;
    2. Ben (262) hands VVD to the bank for half its face, 60 -> 322;
    3. Ben sells one Duitsland unit at the box below 116, 101 -> 423;
    4. Ben pays in exactly 385 (38 left) and ZHESM ends on ƒ0."""
    b = at(table_f, "or42")
    s0 = b.status()
    assert cash(s0) == {"Ann": 1003, "Ben": 225}
    b.do("buy-private AMS CO 1")
    before = corp(b.status(), "AMS")["cash"]
    b.do("token AMS 30 --using CO --city Eindhoven")
    s = b.status()
    assert corp(s, "AMS")["cash"] == before == 139 and owner(s, "CO") is None
    b.do("pay AMS 900", "done AMS")                    # Ann 60 % of 900 = 540; 900 >= 4 x 80: 116
    s = b.status()
    assert corp(s, "AMS")["price"] == 116 and cash(s)["Ann"] == 1003 - 0 + 540
    b.do("buy-private ZHESM SHZ 160")
    b.do("pay ZHESM 60")                                # Ben 36; 60 >= 59: +1 -> 62
    s = b.status()
    assert corp(s, "ZHESM")["trains"] == [] and corp(s, "ZHESM")["cash"] == 25
    assert cash(s)["Ben"] == 225 + 1 + 36 == 262 and corp(s, "ZHESM")["price"] == 62
    # it must buy a train (§8.2.7.2): nothing ends its turn before
    assert "train" in b.refused("done ZHESM")
    b.do("sell-token ZHESM 40 --city Leiden")
    assert corp(b.status(), "ZHESM")["cash"] == 65
    # 65 + Ben's 262 = 327 < 450: Ben must raise money first
    assert "Ben" in b.refused("train ZHESM 5+")
    b.do("sell Ben VVD")
    s = b.status()
    assert cash(s)["Ben"] == 322 and owner(s, "VVD") is None
    b.do("sell Ben DUI 1")
    s = b.status()
    assert cash(s)["Ben"] == 423 and corp(s, "DUI")["pool"] == 2
    assert corp(s, "DUI")["price"] == 116                 # an OR sale moves no price
    b.do("train ZHESM 5+")
    s = b.status()
    assert cash(s)["Ben"] == 38 and corp(s, "ZHESM")["cash"] == 0 and corp(s, "ZHESM")["trains"] == ["5+"]
    assert left(s, "5+") == 0
    b.do("done ZHESM")
    s = b.status()
    # Duitsland: no route this OR, -1 (116 -> 101); its ƒ26 cannot buy back a unit at 50
    dui = corp(s, "DUI")
    assert (dui["cash"], dui["price"], dui["pool"]) == (26, 101, 2)
    assert s["round"] == "SR 5"
    books_balance(s)


def test_half_a_2_percent_rounded_up_and_a_pool_unit_to_the_bank(table_f):
    """SR 5 (blue), Duitsland at 101 with one unit in the pool (§7.3): the pool unit costs 101, all
    to the bank; a 2 % from the charter costs 101: ceil(50.5) = 51 to the treasury, 50 to the bank.
    With the pool empty again, the end of the SR does not move Duitsland."""
    b = at(table_f, "sr5")
    s0 = b.status()
    b.do("buy Ann DUI --pool --percent 2")
    s = b.status()
    assert cash(s)["Ann"] == cash(s0)["Ann"] - 101 and s["bank"] == s0["bank"] + 101
    assert corp(s, "DUI")["cash"] == 26 and corp(s, "DUI")["pool"] == 0
    b.do("pass Ben", "buy Ann DUI --percent 2")
    s1 = b.status()
    assert cash(s1)["Ann"] == cash(s0)["Ann"] - 202
    assert corp(s1, "DUI")["cash"] == 26 + 51 and s1["bank"] == s["bank"] + 50
    b.do("pass Ben", "pass Ann")
    assert corp(b.status(), "DUI")["price"] == 101


def test_d14_23_score_with_foreign_units_at_the_current_price(table_f):
    """D14.23 / §9.2, OR 5.1 after the private step (Ben: 38 + RWS 35 = 73): cash + private at face
    + shares at the current price; a Duitsland unit counts 1 x 101, not the sale price 89:
    73 + RWS 250 + ZHESM 6 x 62 + NBDS 3 x 101 + 13 units x 101 = 73 + 250 + 372 + 303 + 1313."""
    b = at(table_f, "or51")
    ben = next(p for p in b.scores()["players"] if p["name"] == "Ben")
    assert (ben["cash"], ben["privates"], ben["value"]) == (73, 250, 2311)


def test_d14_17_obsolescence_after_the_first_7_plus(table_f):
    """OR 5.1 (first of two, blue): AMS operates first and buys the first 7+ (brown: every 3+ rusts,
    the limit becomes 3). Once AMS finishes, every private is obsolete (§12.1, D7.5):
    - SHZ, owned by ZHESM which operates later this OR, closes when ZHESM finishes OR 5.1;
    - player-owned privates are paid in OR 5.2's private step, then close;
    - AMS's own SLE, IJR and BP pay in OR 5.2 and close when AMS finishes OR 5.2."""
    b = at(table_f, "or51")
    s0 = b.status()
    assert s0["operating_order"] == ["AMS", "ZHESM"]
    b.do("withhold AMS 600")
    b.do("train AMS 7+")
    s = b.status()
    assert s["phase"] == "brown" and s["train_limit"] == 3
    assert corp(s, "AMS")["trains"] == ["7+"] and corp(s, "AMS")["cash"] == 169 + 600 - 700
    b.do("done AMS")
    s = b.status()
    # obsolete, not yet closed
    assert {sym: owner(s, sym) for sym in ("LVG", "NFLM", "JJB", "RWS", "SLE", "IJR", "BP", "SHZ")} == \
        {"LVG": "Ann", "NFLM": "Ann", "JJB": "Ann", "RWS": "Ben", "SLE": "AMS", "IJR": "AMS", "BP": "AMS",
         "SHZ": "ZHESM"}
    b.do("pay ZHESM 500")
    assert owner(b.status(), "SHZ") == "ZHESM"
    # ZHESM's SHZ paid it 20 in the private step of OR 5.1: 0 + 20 = 20
    assert corp(b.status(), "ZHESM")["cash"] == 20
    b.do("done ZHESM")
    s = b.status()
    assert owner(s, "SHZ") is None
    assert {sym: owner(s, sym) for sym in ("SLE", "IJR", "BP")} == {"SLE": "AMS", "IJR": "AMS", "BP": "AMS"}
    # OR 5.2's private step: AMS +30 (SLE 20, IJR 10), Ann +5 (LVG), Ben +35 (RWS); then the
    # players' privates close
    assert s["round"] == "OR 5.2"
    assert corp(s, "AMS")["cash"] == 69 + 30
    assert cash(s) == {"Ann": cash(s0)["Ann"] + 5, "Ben": cash(s0)["Ben"] + 300 + 35}
    assert all(owner(s, sym) is None for sym in ("LVG", "JJB", "RWS"))
    # ... but Ann's NFLM, whose revenue is its own run in the private step (§12.4), may still run
    # there; not run, it closes once the private step is over (§12.1, B20: test_1839_obsolescence)
    assert owner(s, "NFLM") == "Ann"
    b.do("pay AMS 1050")
    assert owner(b.status(), "SLE") == "AMS"
    b.do("done AMS")
    s = b.status()
    assert all(owner(s, sym) is None for sym in ("SLE", "IJR", "BP", "NFLM"))
    # AMS 89 (withheld: -2 from 116); 1050 >= 4 x 89: +3 -> 101, 116, 135
    assert corp(s, "AMS")["price"] == 135


def test_brown_full_price_to_the_treasury_and_plus_one_when_players_hold_it_all(table_f):
    """SR 6, brown (§7.3): charter units pay their full price to Duitsland (80 a unit). The players
    buy all 25 left; at the end of the SR players hold all 50 units: +1 (80 -> 89) (§7.7.2).
    D14.23: Ben 58 + ZHESM 6 x 116 + NBDS 3 x 101 + 23 units x 89 = 58 + 696 + 303 + 2047 = 3104."""
    b = at(table_f, "sr6")
    s0 = b.status()
    assert s0["phase"] == "brown" and corp(s0, "DUI")["price"] == 80 and corp(s0, "DUI")["cash"] == 77
    assert cash(s0) == {"Ben": 858, "Ann": 2141}
    b.do("buy Ben DUI --percent 4")
    s = b.status()
    assert corp(s, "DUI")["cash"] == 77 + 160 and s["bank"] == s0["bank"]
    play(b, "\n".join(F_SR6.splitlines()[1:]))
    s = b.status()
    dui = corp(s, "DUI")
    assert (dui["ipo"], dui["pool"], dui["cash"], dui["price"]) == (0, 0, 77 + 25 * 80, 89)
    assert cash(s) == {"Ben": 858 - 5 * 160, "Ann": 2141 - 4 * 160 - 7 * 80}
    assert (player(s, "Ann")["shares"]["DUI"], player(s, "Ben")["shares"]["DUI"]) == (54, 46)
    ben = next(p for p in b.scores()["players"] if p["name"] == "Ben")
    assert ben["value"] == 3104
    books_balance(s)
    audit(b)


def test_nflm_counts_twice_toward_the_country_it_reaches(table_f):
    """§12.4 / D3: Ann's NFLM route of 120 ends at a German off-board: Duitsland's tally counts it
    twice: (2 x 120) / 2 = 120 -> ƒ200 (counted once it would be 60 -> ƒ100). Nobody else went
    to Germany. Half-paid: 100 + 50 units x ƒ2 = 200 to its treasury; +1 (89 -> 101); the next
    train is a 3+ at 250, beyond it."""
    b = at(table_f, "or3")
    ann = cash(b.status())["Ann"]
    b.do("income NFLM 120 --abroad DUI")
    assert cash(b.status())["Ann"] == ann + 120          # the bank pays the owner the plain route
    b.do("pay AMS 100", "done AMS", "pay ZHESM 100", "done ZHESM")
    dui = corp(b.status(), "DUI")
    assert (dui["cash"], dui["price"], dui["trains"]) == (200, 101, [])


def test_nflm_reaching_an_unparred_country_does_not_par_it(table_f):
    """B30 / §8.2.5.3: only a public company's route pars a foreign company; NFLM ending at an
    Overzees off-board leaves Overzees unparred and out of the OR."""
    b = at(table_f, "or3")
    b.do("income NFLM 120 --abroad OZ")
    b.do("pay AMS 100", "done AMS", "pay ZHESM 100", "done ZHESM")
    s = b.status()
    assert corp(s, "OZ")["price"] is None and corp(s, "OZ")["cash"] == 0
    assert corp(s, "DUI")["price"] == 80                 # Duitsland: no income, -1 as ever


# --------------------------------------------------------------------------- table C

C_SETUP = """
deal --privates VVD,LSW,VV,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann SWO 60
discount Ben LSW 60
discount Ann RWS 60
discount Ben SHZ 40
discount Ann CM 40
discount Ben VVD 40
deal --order Ann,Ben
""" + "\n".join(free_auction(
    [("LVG", "Ann"), ("RWS", "Ben"), ("SWO", "Ann"), ("LSW", "Ann"), ("VVD", "Ben"), ("CO", "Ben"),
     ("SHZ", "Ann"), ("CM", "Ben"), ("VV", "Ann")],
    {"SWO": 60, "LSW": 60, "RWS": 60, "SHZ": 40, "CM": 40, "VVD": 40}, spare="VV")) + """
par Ann AMS 67
buy Ann AMS
par Ben ZHESM 67
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
pass Ann
pass Ben
withhold AMS 0
train AMS 2
done AMS
withhold ZHESM 0
train ZHESM 3+
done ZHESM
pass Ann
pass Ben
"""


@pytest.fixture
def table_c(tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text(ROSTER_C)
    b = new_table("Ann Ben", rules=roster)
    play(b, C_SETUP)
    return b


def test_d14_17_credit_mobilier_on_the_first_7_plus_and_the_closing_points(table_c):
    """Table C, OR 2.1 (the first of two green ORs). ZHESM operates first, buys VVD and the only 5+
    (blue: AMS's 2 rusts). AMS, trainless, buys SWO and places a station at a 45 city with its home
    as its only location: 45 x 1, halved and rounded up: 23 (D14.22, B9). It buys Credit Mobilier
    and the first 7+ for 700 - 250 = 450 (§12.5, D14.17): brown at once, ZHESM's 3+ rusts, CM
    closes. Once AMS finishes, every private is obsolete: the players' pay in OR 2.2's private
    step and close; ZHESM's VVD (ZHESM operated before AMS) pays ZHESM 15 in OR 2.2 and closes when
    ZHESM finishes OR 2.2; AMS's SLE and IJR (and LSW, bought before AMS finished, D0.1 #6) close when AMS finishes OR 2.2."""
    b = table_c
    s = b.status()
    assert (s["round"], s["phase"], s["operating_order"]) == ("OR 2.1", "green", ["ZHESM", "AMS"])
    # AMS: 670 + 3 x 30 (SLE, IJR) - 100; ZHESM 670 - 250
    assert (corp(s, "AMS")["cash"], corp(s, "ZHESM")["cash"]) == (630, 420)
    ann, ben = cash(s)["Ann"], cash(s)["Ben"]
    b.do("buy-private ZHESM VVD 1", "withhold ZHESM 100", "train ZHESM 5+")
    s = b.status()
    assert s["phase"] == "blue" and corp(s, "AMS")["trains"] == []
    assert corp(s, "ZHESM")["cash"] == 420 - 1 + 100 - 450
    b.do("done ZHESM")
    b.do("buy-private AMS SWO 1")
    b.do("token AMS 45 --using SWO --city Venlo")
    assert corp(b.status(), "AMS")["cash"] == 630 - 1 - 23
    b.do("withhold AMS 0", "buy-private AMS CM 1")
    before = b.status()
    b.do("train AMS 7+ --using CM")
    s = b.status()
    assert corp(s, "AMS")["cash"] == corp(before, "AMS")["cash"] - 450 == 155
    assert s["bank"] == before["bank"] + 450
    assert (s["phase"], s["train_limit"]) == ("brown", 3)
    assert corp(s, "AMS")["trains"] == ["7+"] and corp(s, "ZHESM")["trains"] == ["5+"]
    assert owner(s, "CM") is None
    # D0.1 #6: until AMS finishes its turn a company may still buy a private: LSW from Ann for ƒ1
    b.do("buy-private AMS LSW 1")
    b.do("done AMS")
    s = b.status()
    assert s["round"] == "OR 2.2"
    # OR 2.2's private step: Ann LVG 5 + SHZ 20 (+ ƒ1 + ƒ1 for SWO and LSW); Ben CO 20 + RWS 35 +
    # VV 20 (+ ƒ1 + ƒ1 for VVD and CM); ZHESM VVD 15; AMS SLE 20 + IJR 10 + LSW 15
    assert cash(s) == {"Ann": ann + 2 + 25, "Ben": ben + 2 + 75}
    assert (corp(s, "ZHESM")["cash"], corp(s, "AMS")["cash"]) == (69 + 15, 155 - 1 + 45)
    assert all(owner(s, sym) is None for sym in ("LVG", "SHZ", "CO", "RWS", "VV"))
    assert [owner(s, sym) for sym in ("VVD", "SLE", "IJR", "LSW")] == ["ZHESM", "AMS", "AMS", "AMS"]
    assert s["operating_order"] == ["AMS", "ZHESM"]
    b.do("pay AMS 300", "done AMS")
    s = b.status()
    assert [owner(s, sym) for sym in ("SLE", "IJR", "LSW", "VVD")] == [None, None, None, "ZHESM"]
    b.do("pay ZHESM 200", "done ZHESM")
    s = b.status()
    assert s["round"] == "SR 3" and owner(s, "VVD") is None
    books_balance(s)


def test_the_buy_back_takes_as_many_pool_units_as_the_treasury_affords(table_f):
    """§8.3.2 step 4 (D6.4, B8). SR 5: Ann sells 6 units at the box below 101, 89 each = 534; the
    pool holds 7; the end of the SR: -1 (101 -> 89). OR 5.1: AMS withholds 600 and reached Germany:
    income 600 / 2 = 300 (already a multiple of 100). Treasury 26 + 150 + its 26 units x 3 = 254;
    +1 (89 -> 101); the buy-back costs floor(101 / 2) = 50 a unit: 5 units (250), 4 left, and 2
    units stay in the pool. A 7+ (700) is beyond it."""
    b = at(table_f, "sr5")
    ann = cash(b.status())["Ann"]
    b.do("sell Ann DUI 6")
    s = b.status()
    assert cash(s)["Ann"] == ann + 534 and corp(s, "DUI")["pool"] == 14
    b.do("pass Ann", "pass Ben", "pass Ann")
    assert corp(b.status(), "DUI")["price"] == 89
    play(b, """
    withhold AMS 600 --abroad DUI
    train AMS 7+
    done AMS
    pay ZHESM 500
    """)
    before = b.status()
    b.do("done ZHESM")
    s = b.status()
    dui = corp(s, "DUI")
    assert (dui["cash"], dui["price"], dui["pool"], dui["ipo"]) == (4, 101, 4, 62)
    # Ben's 13 units and Ann's 4 were paid ƒ3 each (and OR 5.2's private step: Ann LVG 5, Ben RWS 35)
    assert cash(s) == {"Ann": cash(before)["Ann"] + 12 + 5, "Ben": cash(before)["Ben"] + 39 + 35}


def test_no_sixty_percent_cap_on_foreign_units(table_f):
    """D6.1 / §7.3: the 60 % cap is a public company's rule; Ann buys the charter's last 25 units
    (nine 4 % and seven 2 %) on top of her 12, ending with 37 units (74 %), for 25 x 80 = 2000
    (brown: all to Duitsland). Her certificate count does not move (§7.6)."""
    b = at(table_f, "sr6")
    certs = player(b.status(), "Ann")["certificates"]
    play(b, "pass Ben\n" + "\n".join(["buy Ann DUI --percent 4", "pass Ben"] * 9
                                     + ["buy Ann DUI --percent 2", "pass Ben"] * 7 + ["pass Ann"]))
    s = b.status()
    assert player(s, "Ann")["shares"]["DUI"] == 74 and player(s, "Ann")["certificates"] == certs
    assert cash(s)["Ann"] == 2141 - 2000 and corp(s, "DUI")["cash"] == 77 + 2000
    assert corp(s, "DUI")["price"] == 89                 # players hold all 50 units: +1


def test_a_4_percent_bought_when_the_charter_holds_only_2_percents(table_f):
    """§7.3 (D6.1): holders exchange singles for doubles as a purchase needs. SR 6, brown, DUI at 80:
    the charter holds 25 units (50 %); after nine 4 % purchases (Ben 5, Ann 4) it holds 14 %, seven
    2 %s. Ann asks for a 4 %: two 2 %s, one purchase, 2 x 80 = 160, all to Duitsland in brown."""
    b = at(table_f, "sr6")
    play(b, "\n".join(F_SR6.splitlines()[:9]))        # the nine 4 % purchases
    s0 = b.status()
    assert corp(s0, "DUI")["ipo"] == 14
    b.do("pass Ben")
    b.do("buy Ann DUI --percent 4")
    s = b.status()
    assert corp(s, "DUI")["ipo"] == 10 and corp(s, "DUI")["cash"] == corp(s0, "DUI")["cash"] + 160
    assert player(s, "Ann")["cash"] == player(s0, "Ann")["cash"] - 160
    audit(b)


# --------------------------------------------------------------------------- the tiny roster: §9.1 ends, the floor, brown, FLOODs

@pytest.fixture(scope="module")
def tiny_gray(tiny_brown):
    """On from tiny_brown to SR 3 in gray, as the test above plays it: AMS (FLOOD, ƒ300) and ZHESM
    (5D+, ƒ400) both at ƒ55, AMS on top; no foreign company parred yet."""
    t = tiny_brown.copy()
    t.do("done ZHESM", "withhold AMS 0", "train AMS 7+", "done AMS")
    t.do(f"withhold ZHESM 1500 {FORCE}", "train ZHESM 5D+", "done ZHESM")
    t.do(f"withhold AMS 2300 {FORCE}", "train AMS FLOOD", "done AMS")
    assert (t.round(), t.status()["phase"]) == ("SR 3", "gray")
    t.do("pass Ann", "pass Ben")
    assert t.status()["operating_order"] == ["AMS", "ZHESM"]
    return t


def test_a_foreign_company_reaching_1000_by_its_trains_ends_the_game_after_the_or(tiny_gray):
    """B24 (§7.7.1, §9.1): a foreign company's price reaching ƒ1,000 through its train purchases
    ends the game at the end of that OR. OR 3.1: AMS pays 48000 ending at a German off-board:
    Duitsland is parred at its drawn 80 (§8.2.5.3); ZHESM still operates. Duitsland's income:
    48000 / 2 = 24000 (a multiple of 100); 12000 to its charter and 240 a unit to its 50 charter
    units (12000): 24000; a dividend: 80 -> 89. It buys FLOODs at 2000 while it can: 12 of them
    (each goes back to the supply, §8.3.2), each a box up: 89 is box 7 of 20, 7 + 12 = box 19,
    ƒ1,000. No stock round follows."""
    t = tiny_gray.copy()
    t.do(f"pay AMS 48000 --abroad DUI {FORCE}", "done AMS")
    assert (t.price("DUI"), t.round()) == (80, "OR 3.1")
    t.do("withhold ZHESM 10", "done ZHESM")
    s = t.status()
    assert s["game_over"] and "1000" in s["end_reason"].replace(",", "")
    assert (t.price("DUI"), t.cash("DUI")) == (1000, 0)
    assert supply_left(t, "FLOOD") == 9 - 1                      # AMS's; Duitsland's twelve came back
    audit(t)


def test_d14_21_a_foreign_company_all_held_by_players_ends_the_game_at_the_end_of_an_sr(tiny_gray):
    """§9.1 #2a, §7.7.2 (D14.21): at the end of an SR a foreign company held 100 % by players rises a
    box; reaching ƒ1,000 so ends the game at once, and its units score ƒ1,000 each (§9.2).
    OR 3.1: ZHESM pays 50000 (Ben 60 %: 30000). OR 3.3 (the set's last): AMS pays 44000 to Germany:
    Duitsland parred at 80; income 22000: 11000 + 50 units x 220 = 22000; 80 -> 89; eleven FLOODs
    (22000): box 7 + 11 = 18, ƒ761. SR 4: the players buy all 30 certificates (20 x 4 % and 10 x 2 %)
    at 761 a unit, 50 x 761 = 38050 to its charter (gray: the full price, §7.3); everyone passes:
    nothing in the pool, all held by players: 761 -> 1000, and the game ends before OR 4.1."""
    t = tiny_gray.copy()
    orun(t, ZHESM=f"pay ZHESM 50000 {FORCE}")
    orun(t)
    assert t.round() == "OR 3.3"
    orun(t, AMS=f"pay AMS 44000 --abroad DUI {FORCE}")
    assert (t.round(), t.price("DUI"), t.cash("DUI")) == ("SR 4", 761, 0)
    first = t.turn()
    other = {"Ann": "Ben", "Ben": "Ann"}[first]
    for pct in [4] * 10 + [2] * 5:
        t.do(f"buy {first} DUI --percent {pct}", f"buy {other} DUI --percent {pct}")
    assert (t.pct("Ann", "DUI"), t.pct("Ben", "DUI"), t.cash("DUI")) == (50, 50, 50 * 761)
    t.do(f"pass {first}", f"pass {other}")
    s = t.status()
    assert s["game_over"] and t.price("DUI") == 1000 and t.round() == "Game over"
    score = t.score()
    # 25 units at 1000; AMS 60 % (Ann) and ZHESM 60 % (Ben) at their prices; Ben's NBDS 20 % at 101
    assert score["Ann"]["shares"] == 25 * 1000 + 6 * t.price("AMS")
    assert score["Ben"]["shares"] == 25 * 1000 + 6 * t.price("ZHESM") + 2 * 101
    audit(t)


def test_b6_a_foreign_unit_sells_at_55_on_the_floor_and_is_bought_back_at_27(tiny_gray):
    """§7.2 (B6): a foreign unit sells at the box below its price; at the ƒ55 floor there is none,
    so at 55. OR 3.1: AMS pays 200 to Overzees' off-board: Overzees parred at its drawn 67; income
    100: 50 to its charter and 1 a unit to its 50 charter units: 100; 67 -> 72. OR 3.2, 3.3: no
    income, a box down each (67, 62). SR 4: Ann buys a 2 % at 62, all to the charter (gray): 162.
    OR 4.1-4.3: 59, 56, 55. SR 5: Ann sells it for 55. The SR's end: a unit in the pool, but 55 is
    the floor. OR 5.1: no income (55 stays); the buy-back: floor(55 / 2) = 27 (§8.3.2): 135."""
    t = tiny_gray.copy()
    orun(t, AMS="pay AMS 200 --abroad OZ")
    assert (t.price("OZ"), t.cash("OZ")) == (72, 100)
    orun(t)
    orun(t)
    assert (t.round(), t.price("OZ"), t.turn()) == ("SR 4", 62, "Ann")
    t.do("buy Ann OZ --percent 2", "pass Ben", "pass Ann")
    assert t.cash("OZ") == 162
    prices = []
    for _ in range(3):
        orun(t)
        prices.append(t.price("OZ"))
    assert prices == [59, 56, 55] and t.round() == "SR 5"
    t.do("pass Ben")
    ann = t.cash("Ann")
    t.do("sell Ann OZ 1")
    assert t.cash("Ann") == ann + 55
    t.do("pass Ben", "pass Ann")
    assert (t.price("OZ"), t.holdings("OZ")["pool"]) == (55, 2)
    orun(t)
    assert (t.price("OZ"), t.holdings("OZ")["pool"], t.cash("OZ")) == (55, 0, 162 - 27)
    audit(t)


def test_d0_1_3_overzees_in_brown_is_parred_and_counts_the_whole_revenue(tiny_brown):
    """D0.1 #3 (§8.2.5.2, §17 brown): in brown Overzees' off-board pays nothing, but a route to it
    still pars Overzees and puts the company's whole revenue on its tally. OR 2.2 (brown): ZHESM
    pays 400 ending at Overzees: parred at 67; income 400 / 2 = 200: 100 to its charter, 2 a unit to
    its 50 charter units (100): 200; 67 -> 72."""
    t = tiny_brown.copy()
    t.do("done ZHESM", "withhold AMS 0", "train AMS 7+", "done AMS")
    t.do("pay ZHESM 400 --abroad OZ", "done ZHESM", "withhold AMS 10", "done AMS")
    assert t.round() == "SR 3"
    assert (t.price("OZ"), t.cash("OZ")) == (72, 200)
    audit(t)


def test_a_foreign_companys_first_flood_starts_gray_and_goes_back_to_the_supply(tiny_brown):
    """§8.3.2, §17 gray (D4.1: foreign purchases start phases too): OR 2.2 (red after ZHESM's 5D+):
    AMS (its 7+) pays 8000 to Germany: Duitsland parred at 80; income 4000: 2000 + 50 units x 40 =
    4000; 80 -> 89. It buys the first FLOOD (2000): gray at once, every 7+ (AMS's and ZHESM's)
    leaves the game; the FLOOD goes back to the supply, and it buys it again (0): 89 -> 101 -> 116.
    The phase changes once; nine FLOODs are still in the supply."""
    t = tiny_brown.copy()
    t.do("done ZHESM", "withhold AMS 0", "train AMS 7+", "done AMS")
    t.do(f"withhold ZHESM 1500 {FORCE}", "train ZHESM 5D+", "done ZHESM")
    assert (t.status()["phase"], t.trains("AMS"), t.trains("ZHESM")) == ("red", ["7+"], ["5D+", "7+"])
    n = len(t.events)
    t.do(f"pay AMS 8000 --abroad DUI {FORCE}", "done AMS")
    assert [e["phase"] for e in t.events[n:] if e["kind"] == "phase_changed"] == ["gray"]
    assert (t.round(), t.status()["phase"], t.price("DUI"), t.cash("DUI")) == ("SR 3", "gray", 116, 0)
    assert (t.trains("AMS"), t.trains("ZHESM"), supply_left(t, "FLOOD")) == ([], ["5D+"], 9)
    audit(t)


# --------------------------------------------------------------------------- §8.3 foreign companies in turn, §8.2.5.3 runs abroad (B7)

def test_foreign_companies_operate_overzees_first_and_take_the_trains_in_turn(vv_cm):
    """§8.3 (D6.4): after the public companies, the parred foreign companies operate in the order
    Overzees, Belgie, Duitsland, each buying as many trains from the supply as it can afford.
    OR 2.1 (green): AMS pays 2000 to Overzees' off-board (Overzees parred at its drawn 67), ZHESM 2000
    to Germany (Duitsland parred at 80). Each income: 2000 / 2 = 1000 (a multiple of 100): half to
    its treasury (500) and 1000 / 100 = 10 a unit on its 50 charter units (500): 1000; a dividend: +1.
    Overzees (67 -> 72) buys two 5+ (900; the first starts blue at once: ZHESM's 2s leave the game),
    100 left, +2: 89. Duitsland (80 -> 89) buys the last 5+ (450), 550 left, short of a 7+ (700),
    +1: 101. Their trains leave the game (§8.3.2)."""
    t = vv_cm.copy()
    t.do(f"pay AMS 2000 --abroad OZ {FORCE}", "done AMS", f"pay ZHESM 2000 --abroad DUI {FORCE}", "done ZHESM")
    s = t.status()
    assert (s["round"], s["phase"], t.trains("ZHESM"), t.trains("AMS")) == ("OR 2.2", "blue", [], ["3+"])
    assert (t.price("OZ"), t.cash("OZ"), t.price("DUI"), t.cash("DUI")) == (89, 100, 101, 550)
    assert (t.trains("OZ"), t.trains("DUI")) == ([], [])
    roster = {r["type"]: r["left"] for r in s["train_roster"]}
    assert (roster["5+"], roster["7+"]) == (0, 2)
    audit(t)


def test_b7_a_run_abroad_counts_whole_once_per_country_for_each_country_reached(vv_cm):
    """§8.2.5.3, §8.3.2, B7: a company's whole revenue counts toward each country its route reached,
    once a country however many of its off-boards it used. OR 2.1: AMS pays 400 reaching Overzees and
    Germany, ZHESM 300 reaching two German off-boards. Overzees: 400 / 2 = 200 (a multiple of 100):
    100 + 50 units x 2 = 200 to its treasury; 67 -> 72. Duitsland: (400 + 300) / 2 = 350, rounded
    up to 400: 200 + 50 x 4 = 400; 80 -> 89. Neither can buy a 5+ (450)."""
    t = vv_cm.copy()
    t.do("pay AMS 400 --abroad OZ,DUI", "done AMS", "pay ZHESM 300 --abroad DUI,DUI")
    assert t.status()["revenue_track"] == {"AMS": {"revenue": 400, "abroad": ["OZ", "DUI"]},
                                           "ZHESM": {"revenue": 300, "abroad": ["DUI"]}}
    t.do("done ZHESM")
    assert t.round() == "OR 2.2"
    assert (t.price("OZ"), t.cash("OZ"), t.price("DUI"), t.cash("DUI")) == (72, 200, 89, 400)
    audit(t)
