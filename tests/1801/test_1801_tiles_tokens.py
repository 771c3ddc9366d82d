"""1801 (18OE): the privates' powers on the map (§14.8, §14.9; rulesets/1801/tiles_tokens.py): Hochberg's
token turns it face down (no income, no certificate, no score), Brandt & Brandau's free tiles, two an OR; a home token named by its city (§11.5).
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import idle_or, or21, or21_named_homes
from table_1801 import changes


def test_hochberg_turned_face_down_pays_no_income_and_scores_nothing():
    """§14.8: Hochberg's owner places its token in the lay-track step of a RR he controls "and turn[s]
    the private's certificate face down"; §6.1/§11 step 1: a face-down private pays no revenue;
    §4.1: it no longer counts toward the certificate limit; §13.1: only face-up privates score.
    OR 2.1 (or21), after WW's turn: Ben's GWR places Hochberg's token: Ben's certificates 17 -> 16,
    his privates score PC 20 + SHTC 60 = £80 (not + HML's 80). GWR and KSS withhold £0; OR 2.2
    opens with the privates' income: Ben PC 5 + SHTC 15 = £20 (Hochberg's £20 no more), Ann RSC 5 +
    BBBT 10 + WCF 15 = £30, Cy WSB 10 + CCTC 15 + BB 25 = £50, and Minor K's mail £20 (§15.10).
    Ben's 17: 15 in SR 2 (3 privates, 4 minors, 6 presidencies, KSS's and WW's 25 %), + GWR's
    secondary, KSS's secondary and KSS's share on expanding it, - 1 as two 10 % became KSS's 20 %,
    - WW sold, + GWR bought."""
    t = or21()
    t.do("pay WW 100", "done WW")
    assert t.state.round["corp"] == "GWR" and t.certs("Ben") == 17
    t.do("token GWR --using HML")
    assert t.certs("Ben") == 16
    assert t.score()["Ben"]["privates"] == 80
    before = t.cash()
    t.do("withhold GWR 0", "done GWR", "withhold KSS 0", "done KSS")
    assert t.round() == "OR 2.2"
    assert changes(before, t.cash()) == {"Ann": 30, "Ben": 20, "Cy": 50, "K": 20, "bank": -120}


def test_brandt_and_brandau_lays_two_free_tiles_an_or_and_turns_face_down_after_the_fourth():
    """§14.9: Brandt & Brandau's four tokens, "Up to two ... each OR", lay a yellow tile on rough
    terrain "at no cost" (the tile points as usual); "When the last token is placed, the private's
    certificate is turned face down" (§6.1: no income, no certificate, no score). Cy owns BB.
    OR 2.2 (from or21): Cy's Minor B (£0) lays tiles on £45 and £60 hexes with BB: no money moves; a
    third BB tile is refused (two an OR), and a plain £30 tile is beyond B's £0. OR 3.1 (SR 3 all
    pass): B lays BB's third and fourth: BB turns face down: Cy's certificates 18 -> 17, his privates
    score WSB 40 + CCTC 60 = £100 (not + BB's 100). OR 3.2 opens with Cy's income WSB 10 + CCTC 15 =
    £25 (not BB's 25). Cy's 18: 15 in SR 2 (3 privates, 4 minors, 6 presidencies, GWR's and WW's
    25 %), + GWR, WW and GWR bought, + 1 as KSS's 20 % became two 10 % (Ben's presidency), - 1 KSS sold."""
    t = or21()
    t.do("pay WW 100", "done WW", "withhold GWR 0", "done GWR", "withhold KSS 0", "done KSS")
    t.do("choose Ann normal", "withhold A 0", "done A")
    assert t.state.round["corp"] == "B" and t.cash("B") == 0
    before = t.cash()
    t.do("tile B 45 --using BB", "tile B 60 --using BB")
    assert t.cash() == before
    t.refused("tile B 30 --using BB", "§14.9", "two an OR")
    t.refused("tile B 30", "£0", "£30")
    t.do("withhold B 0", "done B")
    idle_or(t)
    t.do("pass Ben", "pass Cy", "pass Ann")
    assert t.round() == "OR 3.1"
    t.do("choose Ann normal", "withhold A 0", "done A")
    assert t.certs("Cy") == 18 and t.score()["Cy"]["privates"] == 200
    before = t.cash()
    t.do("tile B 45 --using BB", "tile B 60 --using BB")
    assert t.cash() == before
    assert t.private("BB")["closed"] and t.owner("BB") == "Cy"
    assert t.certs("Cy") == 17 and t.score()["Cy"]["privates"] == 100
    t.do("withhold B 0", "done B")
    cy = t.cash("Cy")
    idle_or(t)
    assert t.round() == "OR 3.2" and t.cash("Cy") == cy + 25


# --------------------------------------------------------------------------- §11.5: a home token by its city

def test_a_home_token_named_by_its_city_is_refused_with_the_rule():
    """§11.5: 'A major's home token may never be purchased.' GWR's home city is named as it floats
    (`par ... --city London`); at OR 2.1 WW, GWR and KSS run (WW 100, GWR 50, KSS 70), and KSS (Ben)
    asks for GWR's (Ben) token in London: refused with the rule, not as an unknown city."""
    t = or21_named_homes()
    t.do("pay WW 100", "done WW", "pay GWR 50", "done GWR", "pay KSS 70")
    t.refused("transfer KSS GWR --city London --kind city --slot 2", "home token", "§11.5")
    t.refused("transfer KSS GWR --city london --kind city --slot 2", "home token", "§11.5")


def test_an_unnamed_home_city_is_hinted_with_the_rule():
    """The same request where GWR's home city was not named as it floated (or21()): the bank cannot
    tell London from a made-up city, so it refuses as for a city without GWR's token and says the
    rule that applies if London is GWR's home (§11.5)."""
    t = or21()
    t.do("pay WW 100", "done WW", "pay GWR 50", "done GWR", "pay KSS 70")
    t.refused("transfer KSS GWR --city London --kind city --slot 2", "no token in London",
              "if London is GWR's home", "§11.5")
