"""1839 audited against its rulebook (shared/seeds/003_aa544c940024c360.txt "§x"; digest
shared/rules/1839.md "D x", its corrections D0.1 and best readings "B n"): scenarios written from
the rules, each figure worked by hand in the comments, for what the other 1839 tests leave out.
Engine only (tests/conftest.py's Table)."""

from __future__ import annotations

import pytest

from openings_1839 import GREEN_SHORT, KR_OPENING, POWERS_GREEN, SHORT_ROSTER, audit, balanced, example, new_table


@pytest.fixture(scope="module")
def green_master():
    """OR 2.1 in green: AMS (ƒ180: 150 + SLE's 20 + IJR's 10) to operate; Ann directs it and owns
    Schielands Hoge Zeedijk (SHZ, face ƒ160)."""
    t = new_table("Ann Ben")
    t.play(POWERS_GREEN)
    assert t.status()["operating"] == "AMS" and t.status()["phase"] == "green"
    return t


@pytest.fixture
def shz(green_master):
    """AMS buys SHZ from Ann for ƒ60 (§12.1: green, ƒ1 to face): AMS keeps ƒ120."""
    t = green_master.copy()
    t.do("buy-private AMS SHZ 60")
    return t


# --------------------------------------------------------------------------- §7.3, §7.6 stock round

def test_eighty_percent_raises_the_certificate_limit_by_two():
    """§7.6: a player's own limit rises by 2 for each public company of which he holds at least 80 %;
    §7.3: no IPO buy at 60 % or more, but pool buys past it, and a director buys up to 30 % an action.
    openings_1839.KR_OPENING (two players, limit 32). SR 1: Ben pars ZHESM at 80 and buys a 10 %
    (160 + 80: Ben 190) and Kabinet-Rochussen floats it at the end of the SR (D14.12: 560, three 10 %
    to the pool, 80 -> 62). OR 1.1: no train, no dividend: 62 -> 55 (the floor); a 2-train: ZHESM
    460. Ben's privates pay RWS 35 + KR 10 + KV 50 + LSW 15: 300."""
    t = new_table("Ann Ben")
    t.play(KR_OPENING)
    t.do("par Ben ZHESM 80", "buy Ben ZHESM", "force-float Ben KR ZHESM", "pass Ann", "pass Ben")
    t.do("withhold ZHESM 0", "train ZHESM 2", "done ZHESM")
    assert (t.cash("Ben"), t.cash("ZHESM"), t.price("ZHESM")) == (300, 460, 55)
    t.do("pass Ann", "buy Ben ZHESM 3")            # IPO 30 % at 55: 165; Ben 60 %
    assert t.status()["players"][1]["cert_limit"] == 32
    t.do("pass Ann")
    t.refused("buy Ben ZHESM --ipo", "60%")          # his next turn: the IPO is closed to him
    t.do("buy Ben ZHESM 2 --pool")                 # the pool's 20 % at 55: 110; escrow 2 x 80 to ZHESM
    ben = t.player("Ben")
    assert (ben["cash"], ben["certificates"], ben["cert_limit"]) == (25, 12, 32 + 2)
    assert t.pct("Ben", "ZHESM") == 80 and t.cash("ZHESM") == 460 + 2 * 80
    audit(t)                                        # (the last pool share's 80 is still in escrow)


# --------------------------------------------------------------------------- §8.2.6 dividends, §7.7.3.1 prices

@pytest.fixture(scope="module")
def or3_master():
    """examples/1839-opening.txt, then SR 3 passed through: at its end AMS and ZHESM each have 10 %
    in the pool but sit on the ƒ55 floor (§7.7.1). OR 3.1 order: NCS 72, ZHESM 55 (on top: it
    did not move in OR 2.1), AMS 55."""
    t = example()
    t.play("pass Ben\npass Cy\npass Ann\npass Dee")
    assert t.status()["operating_order"] == ["NCS", "ZHESM", "AMS"]
    return t


def gains(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def test_odd_revenues_round_players_up_and_the_pool_down(or3_master):
    """§8.2.6 (B2: per holding; players up, the pool down, full pay as half-pay) and §7.7.3.1."""
    t = or3_master.copy()
    c = t.cash()
    # NCS at 72 pays 75: Cy 60 % 45; Ann and Dee 10 % 7.5 -> 8 each; the IPO's 20 % nothing;
    # 75 >= 72 (< 144): one box up, 80
    t.do("pay NCS 75", "done NCS")
    assert gains(c, t.cash()) == {"Cy": 45, "Ann": 8, "Dee": 8, "bank": -61}
    assert t.price("NCS") == 80
    # ZHESM at 55 half-pays 110: treasury 55; Dee 50 % of 55 = 27.5 -> 28; the pool's 10 % 5.5 -> 5
    # to ZHESM; D = 55 >= 55: one box up, 56
    c = t.cash()
    t.do("half ZHESM 110", "done ZHESM")
    assert gains(c, t.cash()) == {"Dee": 28, "ZHESM": 55 + 5, "bank": -88}
    assert t.price("ZHESM") == 56
    # AMS half-pays 75: treasury floor(37.5) = 37; Ann 50 % of 37.5 = 18.75 -> 19; the pool's 10 %
    # 3.75 -> 3 to AMS; D = 37.5 < 55, and 55 is the floor
    c = t.cash()
    t.do("half AMS 75", "done AMS")
    assert gains(c, t.cash()) == {"Ann": 19, "AMS": 37 + 3, "bank": -59}
    assert t.price("AMS") == 55
    # SR 4 passed: ZHESM's pool 10 % takes it 56 -> 55, under AMS (§7.7.1)
    t.play("pass Ben\npass Cy\npass Ann\npass Dee")
    assert t.status()["operating_order"] == ["NCS", "AMS", "ZHESM"]
    # OR 4.1, after NCS: AMS at 55 pays 75: Ann 50 % 37.5 -> 38, the pool's 10 % 7.5 -> 7 to AMS;
    # 75 >= 55 (< 110): one box up, 56
    t.do("pay NCS 80", "done NCS")
    c = t.cash()
    t.do("pay AMS 75")
    assert gains(c, t.cash()) == {"Ann": 38, "AMS": 7, "bank": -45}
    assert t.price("AMS") == 56
    balanced(t)


@pytest.mark.parametrize("revenue, treasury, cy, others, price", [
    (159, 79, 48, 8, 72),    # D = 79.5 < 80: one box down (a rounded-up 80 would rise)
    (160, 80, 48, 8, 89),    # D = 80 >= 80: one box up
])
def test_a_half_pay_compares_the_unrounded_half_with_the_price(or3_master, revenue, treasury, cy, others, price):
    """§7.7.3.1 / B3: a half-pay's "total dividend" is the half paid out, R / 2, not rounded. NCS at
    80 after OR 3.1's 75 (as above); the treasury keeps floor(R / 2); Cy 60 % and Ann, Dee 10 % of
    R / 2 rounded up (§8.2.6)."""
    t = or3_master.copy()
    t.play("pay NCS 75\ndone NCS\nhalf ZHESM 110\ndone ZHESM\nhalf AMS 75\ndone AMS")
    t.play("pass Ben\npass Cy\npass Ann\npass Dee")
    assert t.price("NCS") == 80
    c = t.cash()
    t.do(f"half NCS {revenue}")
    assert gains(c, t.cash()) == {"NCS": treasury, "Cy": cy, "Ann": others, "Dee": others,
                                  "bank": -(treasury + cy + 2 * others)}
    assert t.price("NCS") == price


# --------------------------------------------------------------------------- §12.3 Schielands Hoge Zeedijk

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


# --------------------------------------------------------------------------- §12.5 Beijnes at brown

def test_a_companys_beijnes_becomes_a_brown_train_as_brown_begins():
    """§12.5 (B15): Beijnes "auto-converts to a brown train at the start of brown phase if owned by a
    company": a 7+ from the supply, unpaid, and the private closes. Short roster (two 3+, one 5+,
    three 7+). OR 2.1: ZHESM (ƒ550) buys NF from Ben for 1 and the last 3+ (299), pays 100 (Ben
    60 %: +60); AMS (ƒ660) buys JJB from Ann for 1, pays 100 (Ann 60 %: +60) and the 5+ (659 - 450 =
    209; blue: AMS's 2s rust). OR 2.2: privates pay AMS 20 + 10 (SLE, IJR; JJB 0) = 239 and ZHESM
    20 (NF); AMS pays 50; ZHESM withholds 500 (299 + 20 + 500 = 819) and buys the first 7+ (119)."""
    t = new_table("Ann Ben", rules=SHORT_ROSTER)
    t.play(GREEN_SHORT)
    t.do("buy-private ZHESM NF 1", "train ZHESM 3+", "pay ZHESM 100", "done ZHESM")
    t.do("buy-private AMS JJB 1", "pay AMS 100", "train AMS 5+", "done AMS")
    # OR 2.2's private step paid AMS 209 + 30 and ZHESM 299 + 20
    assert (t.cash("AMS"), t.cash("ZHESM"), t.trains("AMS")) == (239, 319, ["5+"])
    t.do("pay AMS 50", "done AMS", "withhold ZHESM 500", "train ZHESM 7+")
    s = t.status()
    assert s["phase"] == "brown"
    assert t.trains("ZHESM") == ["7+"]                    # its two 3+ rusted (§17)
    assert t.trains("AMS") == ["5+", "7+"]                # JJB became a 7+, within the limit of 3
    assert t.private("JJB", s)["closed"]
    assert next(r for r in s["train_roster"] if r["type"] == "7+")["left"] == 3 - 2
    assert (t.cash("AMS"), t.cash("ZHESM")) == (239, 119)  # the converted train costs nothing
    audit(t)


def test_no_company_buys_an_obsolete_private():
    """§12.1: privates become obsolete once the first 7+'s buyer finishes its turn, and "obsolete
    private companies cannot be bought by a public company". Short roster, OR 2.1: ZHESM (ƒ550)
    buys NF from Ben for 1 (§12.5: trains before its run), the last 3+ (299), withholds 900 (1199),
    buys the 5+ (749; blue: AMS's 2s rust) and the first 7+ (49; brown: its 3+ rust)."""
    t = new_table("Ann Ben", rules=SHORT_ROSTER)
    t.play(GREEN_SHORT)
    t.do("buy-private ZHESM NF 1", "train ZHESM 3+", "withhold ZHESM 900", "train ZHESM 5+", "train ZHESM 7+")
    assert (t.status()["phase"], t.cash("ZHESM"), t.trains("ZHESM"), t.trains("AMS")) == \
        ("brown", 49, ["5+", "7+"], [])
    t.do("done ZHESM")                                   # every private is obsolete now
    t.refused("buy-private AMS JJB 1", "obsolete", "§12.1")
