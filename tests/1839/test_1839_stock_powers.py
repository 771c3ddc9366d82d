"""1839's stock-round powers through the real command line: Kabinet-Rochussen's forced float
(§12.5, D7.4, D14.12) and Ketwich & Voombergh's re-par (§12.5, D14.20), figures worked from the
rules in the comments."""

from __future__ import annotations

import pytest

from openings_1839 import KR_OPENING, audit, new_table

# Two players, ƒ1300 each: openings_1839.KR_OPENING (Ben buys RWS, KR and KV; Ann the rest).
# Ann: 1300 - 200 - 10 - 80 - 100 - 160 = 750; Ben: 1300 - 250 - 200 - 280 - 140 = 430.
# SR 1 order by ascending cash: Ben, Ann.


@pytest.fixture
def game():
    b = new_table("Ann Ben")
    b.play(KR_OPENING)
    s = b.status()
    assert s["round"] == "SR 1" and [p["name"] for p in s["players"]] == ["Ben", "Ann"]
    assert [p["cash"] for p in s["players"]] == [430, 750]
    return b


def company(b, sym):
    return next(c for c in b.status()["companies"] if c["sym"] == sym)


def test_kabinet_rochussen_floats_with_seven_times_par_and_three_pool_shares(game):
    game.do("par Ben ZHESM 80", "buy Ben ZHESM")    # 30 % bought: the director's 20 % and 10 %
    game.do("force-float Ben KR ZHESM")
    game.do("pass Ann", "pass Ben")
    z = company(game, "ZHESM")
    # D14.12: 7 x 80 = 560 to the treasury; three 10 % to the pool; then -1 per pool share: 80 -> 62
    assert (z["floated"], z["cash"], z["pool"], z["ipo"], z["price"]) == (True, 560, 30, 40, 62)
    # OR 1.1: no train, no dividend: 62 -> 55 (-3 stopped by the floor at 55)
    game.do("withhold ZHESM 0", "train ZHESM 2", "done ZHESM")
    assert company(game, "ZHESM")["cash"] == 460
    # SR 2 (Ann passed first): Ann buys a pool share at 55; the bank pays ZHESM its 80
    game.do("buy Ann ZHESM --pool")
    z = company(game, "ZHESM")
    assert (z["price"], z["cash"], z["pool"]) == (55, 540, 20)
    audit(game)


def test_kabinet_rochussen_needs_30_percent_bought_from_the_ipo(game):
    game.do("par Ben ZHESM 80")                      # 20 % only
    assert "needs 30%" in game.refused("force-float Ben KR ZHESM")   # and nothing in the game changes
    assert "KR is Ben's, not Ann's" in game.refused("force-float Ann KR ZHESM")


def test_ketwich_and_voombergh_only_for_its_owner_and_a_company_floated_this_round(game):
    # Ann floats NCS at 67 in SR 1 (with Spoorwegwerken Oost's 10 %: 20 + 10 + 10 + 10 + 10 = 60 %)
    game.do("pass Ben")
    game.do("par Ann NCS 67", "buy Ann NCS")        # the director buys up to 30 % a turn
    game.do("pass Ben", "buy Ann NCS", "pass Ben", "buy Ann NCS")
    assert company(game, "NCS")["floated"] and company(game, "NCS")["cash"] == 670
    assert "KV is Ben's, not Ann's" in game.refused("repar Ann KV NCS 80")
    game.do("pass Ann")                              # Ben's turn
    assert "does not direct NCS" in game.refused("repar Ben KV NCS 80")


def test_ketwich_and_voombergh_reparss_and_the_bank_tops_up_the_treasury(game):
    # Ben: par ZHESM 67 (ƒ134) and a 10 % (ƒ67), then three more turns of ƒ67: 60 %, floats with ƒ670
    game.do("par Ben ZHESM 67", "buy Ben ZHESM", "pass Ann", "buy Ben ZHESM", "pass Ann", "buy Ben ZHESM",
               "pass Ann", "buy Ben ZHESM")
    assert company(game, "ZHESM")["cash"] == 670
    # D14.20: re-par at 72 (yellow): the bank brings the treasury to 10 x 72 = 720 (+50)
    game.do("repar Ben KV ZHESM 72")
    z = company(game, "ZHESM")
    assert (z["cash"], z["par"], z["price"]) == (720, 72, 72)
    assert next(p for p in game.status()["privates"] if p["sym"] == "KV")["closed"]
    # shares already bought are not adjusted: Ben paid 134 + 4 x 67
    assert next(p for p in game.status()["players"] if p["name"] == "Ben")["cash"] == 430 - 134 - 4 * 67
