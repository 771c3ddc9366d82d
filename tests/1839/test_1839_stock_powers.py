"""1839's stock-round powers on the engine (tests/conftest.py's Table): Kabinet-Rochussen's forced float
(§12.5, D7.4, D14.12) and Ketwich & Voombergh's re-par (§12.5, D14.20), figures worked from the
rules in the comments; Kabinet-Rochussen declaring two companies in one SR and again later (B13), and
Ketwich & Voombergh's re-par down and of a company its privates paid before it floated (D14.20, B14),
and Kabinet-Rochussen's pool money held in escrow, not in the bank.
rulesets/1839/stock_powers.py; positions: openings_1839.py."""

from __future__ import annotations

import pytest

from openings_1839 import KR_OPENING, audit, closed, new_table

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


# --------------------------------------------------------------------------- §12.5 KR (B13), KV (D14.20, B14)

def test_kabinet_rochussen_floats_two_companies_at_the_end_of_one_sr():
    """§12.5 (D7.4, B13): the owner may declare "one or more unfloated companies with at least 30 %
    bought from the IPO" floated, his own or not. openings_1839.KR_OPENING: Ben pars ZHESM at 67 and
    buys a 10 %; Ann the same for AMS. Ben declares both. At the SR's end each gets 7 x 67 = 469 and
    three 10 % go to the pool (IPO 40 %); then, in operating order, each falls a box a pool share:
    67 -> 62, 59, 56; ZHESM moved first, so AMS goes under it (§7.7.1). OR 1.1's private step pays
    AMS its Staatslijn E 20 and IJzeren Rijn 10: 499."""
    t = new_table("Ann Ben")
    t.play(KR_OPENING)
    t.do("par Ben ZHESM 67", "buy Ben ZHESM", "par Ann AMS 67", "buy Ann AMS")
    t.do("force-float Ben KR ZHESM", "force-float Ben KR AMS", "pass Ben", "pass Ann")
    assert t.round() == "OR 1.1"
    assert (t.cash("ZHESM"), t.cash("AMS")) == (469, 469 + 30)
    assert (t.price("ZHESM"), t.price("AMS")) == (56, 56)
    for corp in ("ZHESM", "AMS"):
        assert (t.holdings(corp)["ipo"], t.holdings(corp)["pool"]) == (40, 30)
    assert t.status()["operating_order"] == ["ZHESM", "AMS"]
    # B13: it may be used again in a later SR, and Spoorwegwerken Oost's free 10 % is not "bought".
    # OR 1.1: each buys a 2 (no train, no dividend: 56 -> 55). SR 2: Ann (NCS 10 % from SWO) pars
    # NCS at 67 and buys a 10 %: 30 % bought, 60 % left in the IPO; Ben declares it: 7 x 67 = 469,
    # three 10 % to the pool (IPO 30 %), 67 -> 56
    t.do("withhold ZHESM 0", "train ZHESM 2", "done ZHESM", "withhold AMS 0", "train AMS 2", "done AMS")
    t.do("pass Ben", "par Ann NCS 67", "buy Ann NCS")
    assert (t.holdings("NCS")["ipo"], t.pct("Ann", "NCS")) == (60, 40)
    t.do("force-float Ben KR NCS", "pass Ben", "pass Ann")
    assert (t.round(), t.cash("NCS"), t.price("NCS")) == ("OR 2.1", 469, 56)
    assert (t.holdings("NCS")["ipo"], t.holdings("NCS")["pool"]) == (30, 30)
    assert "KR" not in closed(t)
    audit(t)


def test_d14_20_ketwich_and_voombergh_reparss_down_and_the_treasury_pays_the_bank():
    """§12.5 (D14.20, B14): a re-par down: the company gives the bank the difference, 10 x (80 - 67)
    = 130; the marker moves to 67; the private closes on use (B14: single use). KR_OPENING: Ben pars
    ZHESM at 80 with a 10 % (240), Ann buys a 10 % (80), Ben one, Ann one: 60 % sold, ZHESM floats
    with 800 (§7.4)."""
    t = new_table("Ann Ben")
    t.play(KR_OPENING)
    t.do("par Ben ZHESM 80", "buy Ben ZHESM", "buy Ann ZHESM", "buy Ben ZHESM", "buy Ann ZHESM")
    assert (t.cash("ZHESM"), t.cash("Ben"), t.cash("Ann")) == (800, 430 - 320, 750 - 160)
    bank = t.cash("bank")
    t.do("repar Ben KV ZHESM 67")
    assert (t.cash("ZHESM"), t.cash("bank"), t.price("ZHESM")) == (670, bank + 130, 67)
    assert "KV" in closed(t)
    t.refused("repar Ben KV ZHESM 72", "KV")
    audit(t)


# KR_OPENING: Ben owns RWS, KR, KV and LSW (430). SR 1: both pass; no company floats. OR 1.1: only
# the private step: Ben RWS 35 + KR 10 + KV 50 + LSW 15 = 110 (540); AMS's charter, though AMS is
# not floated, gets SLE 20 + IJR 10 = 30 (§12.2, D5.1). SR 2 (Ben first: he passed first): Ben pars
# AMS at 67 (134: 406) and buys a 10 % a turn while Ann passes (67 each): at 60 % AMS floats with
# 10 x 67 = 670 (§7.4): 700 in its treasury.
KV_INCOME = """
par Ben AMS 67
pass Ann
buy Ben AMS
pass Ann
buy Ben AMS
pass Ann
buy Ben AMS
buy Ben AMS
"""


@pytest.mark.parametrize("option, treasury", [(None, 10 * 80), ("repar_keeps_income", 700 + 10 * (80 - 67))])
def test_b14_a_repar_sets_the_treasury_to_ten_times_the_new_par(option, treasury):
    """§12.5 Ketwich & Voombergh: "The re-parred company is then capitalised as of the new par" (B14,
    D7.4). AMS floated this SR with its 670 and the 30 its yellow privates paid its charter before
    (D5.1); Ben re-pars it at 80. The digest's best reading ("treasury adjusted to 10 x new par"):
    800, the bank taking the privates' 30 back with its 130. Option repar_keeps_income (its capital
    is 10 x the new par): the bank adds 10 x (80 - 67) = 130 and the privates' income stays (830)."""
    t = new_table("Ann Ben", **({option: True} if option else {}))
    t.play(KR_OPENING)
    t.do("pass Ben", "pass Ann")
    # OR 1.1 had no company to operate: only its private step
    assert (t.round(), t.cash("Ben"), t.cash("AMS")) == ("SR 2", 540, 30)
    t.play(KV_INCOME)
    assert (t.round(), t.cash("Ben")) == ("SR 2", 540 - 134 - 67 * 4)
    assert t.cash("AMS") == 700
    t.do("repar Ben KV AMS 80")
    assert (t.cash("AMS"), t.price("AMS")) == (treasury, 80)
    audit(t)


# --------------------------------------------------------------------------- §12.5 Kabinet-Rochussen's escrow

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
