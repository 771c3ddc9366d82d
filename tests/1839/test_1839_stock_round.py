"""1839's stock rounds (§7): the 60 % IPO limit and a director's buy of up to 30 % an action (§7.3), a player's
certificate limit raised by 2 for each company he holds 80 % of (§7.6), and the bank pool, which has no
limit and whose dividends go to the company (§7.2, B26).
Rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x", its corrections D0.1
and best readings "B n". Every figure is worked by hand in the comments; engine only (tests/conftest.py's
Table); openings and positions: openings_1839.py.
"""

from __future__ import annotations

from openings_1839 import KR_OPENING, VV_CM, audit, new_table, one_3_roster


# --------------------------------------------------------------------------- §7.3, §7.6 holding and certificate limits

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


# --------------------------------------------------------------------------- §7.2 the pool (B26)

def test_b26_the_pool_may_hold_more_than_half_and_pays_the_company(tmp_path):
    """§7.2, B26: no limit on the bank pool; §7.7.2 (D9.4): −1 a 10 % in the pool at the SR's end;
    §8.2.6 (D11.2): the pool's dividends go to the company, the IPO's to nobody. VV_CM's SR 2 (Ben
    first; Ben 250, Ann 275; both companies at 62): Ben buys an AMS 10 % from the IPO (188); Ann
    sells four (pool 40 %: +248, 523); Ben buys a second (126; 20 % ties Ann's 20 %: she stays
    director, §7.5) and sells both (pool 60 %: +124, 250). The SR's end: six boxes down, stopped by
    the floor: 62 -> 59 -> 56 -> 55. OR 2.1: ZHESM (62) first; AMS pays 100: Ann 20, the pool's 60
    to AMS, the IPO's 20 % nothing; 100 >= 55: 55 -> 56."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path))
    t.play(VV_CM[:VV_CM.rindex("pass Ben")])
    assert (t.round(), t.turn(), t.cash("Ben"), t.cash("Ann")) == ("SR 2", "Ben", 250, 275)
    t.do("buy Ben AMS", "sell Ann AMS 4", "buy Ben AMS")
    assert (t.president("AMS"), t.cash("Ann"), t.cash("Ben")) == ("Ann", 523, 126)
    t.do("pass Ann", "sell Ben AMS 2")
    assert (t.holdings("AMS")["pool"], t.cash("Ben")) == (60, 250)
    t.do("pass Ann", "pass Ben")
    assert (t.round(), t.price("AMS"), t.status()["operating_order"]) == ("OR 2.1", 55, ["ZHESM", "AMS"])
    t.do("withhold ZHESM 10", "done ZHESM")
    ann, ams = t.cash("Ann"), t.cash("AMS")
    t.do("pay AMS 100")
    assert (t.cash("Ann"), t.cash("AMS"), t.price("AMS")) == (ann + 20, ams + 60, 56)
    audit(t)
