"""1801 (18OE): a second audit of the bank against the rulebook, on the title's own machinery (the
packet, the Regional/Minor phase, first-round insolvency, Pullmans through a merger, ...).

Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x"; its corrections 0.1 override the rest). Each test
checks a rule no other 1801 test checked (test_1801_audit.py, the first audit, covered the common
money rules). The positions come from book_tables_1801 and the POOR opening of
test_1801_operating_rules (played here on the engine Table).
"""

from __future__ import annotations

from book_tables_1801 import MINORS, or31_first_4
from conftest import Table
from test_1801_operating_rules import poor_auction

from ledger.core import legal


def changes(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def money_kept(t) -> None:
    """Money is only moved (§3.1: the bank's £54,000 and the remainder cash)."""
    assert sum(t.state.balances.values()) == t.money_at_start


# =========================================================================== §7, §7.1: the packet

PRIVATES_IN_TURN = """
new 1801 Ann Ben Cy
buy Ann RSC
buy Ben PC
buy Cy WSB
buy Ann BBBT
buy Ben SHTC
buy Cy CCTC
buy Ann WCF
buy Ben HML
buy Cy BB
buy Ann SML
"""


def test_a_minor_bought_after_two_all_pass_cuts_puts_its_cut_price_in_its_treasury():
    """§7 / D 8.4 / E9: the ten privates bought at face in turn (rows 1-4 [S]); row 5 (A-F, £120)
    is on top and Ben acts (the deal passes on after every action). Everyone passes twice: each time
    every owned private pays its income (§7: Ann RSC 5 + BBBT 10 + WCF 15 + SML 0 = 30, Ben PC 5 +
    SHTC 15 + HML 20 = 40, Cy WSB 10 + CCTC 15 + BB 25 = 50) and the top row drops £5: A-F cost £110.
    Ben (first again) buys A at £110: §7.1 the price goes to the minor's treasury (under £180), none
    to the bank. Ann 1800 - 240 + 60 = 1620; Ben 1800 - 160 + 80 - 110 = 1610; Cy 1800 - 200 + 100 =
    1700; A 110."""
    t = Table(PRIVATES_IN_TURN)
    t.do("pass Ben", "pass Cy", "pass Ann", "pass Ben", "pass Cy", "pass Ann")
    assert t.turn() == "Ben"
    before = t.cash()
    t.do("buy Ben A")
    assert changes(before, t.cash()) == {"Ben": -110, "A": 110}
    cash = t.cash()
    assert (cash["Ann"], cash["Ben"], cash["Cy"], cash["A"]) == (1620, 1610, 1700, 110)
    money_kept(t)


def test_money_set_aside_for_a_bid_is_not_spent_on_a_top_row_buy():
    """§7 / D 8.2, D18 #15: a bid's money is set aside until its item is sold, and (best reading) it
    cannot be spent on anything else. Ann bids £120 on A (row 5), Ben £125; Cy bids all his £1800 on
    SML (row 4); Ann and Ben buy RSC and PC (row 1 empties; row 2 on top). Cy may not buy WSB (£40):
    the refusal names the rule and the figures. Nothing is paid for a bid: the bank has 48,600 + 20 +
    20 = £48,640."""
    t = Table("new 1801 Ann Ben Cy")
    t.do("bid Ann A 120", "bid Ben A 125", "bid Cy SML 1800", "buy Ann RSC", "buy Ben PC")
    t.refused("buy Cy WSB", "£1800", "£40", "§7")
    cash = t.cash()
    assert (cash["Ann"], cash["Ben"], cash["Cy"], cash["bank"]) == (1780, 1780, 1800, 48640)


# =========================================================================== §11.6.5: a regional

# The POOR opening with Ann's SML bid at £1130 (she ends the auction with 1260 - 1130 = £130), her
# concession C2 floating B in Russia (£10: B keeps 110, so her minors need no top-up) and, in SR 1,
# her par of GWR at £60 (§9.2: 2 x 60 = 120 from Ann, 130 -> 10; the UK home token £40: GWR 80).
# SR 1: Ann floats L, Ben M, Cy passes, Ann pars GWR, then all pass: Ann acted last, Ben is first in SR 2.
POOR_REGIONAL = poor_auction(1130).replace("float Ann B UK ", "float Ann B RU ").replace(
    "pass Cy\npass Ann\npass Ben", "pass Cy\npar Ann GWR 60\npass Ben\npass Cy\npass Ann")


def test_a_regionals_first_round_insolvency_pays_twice_par_and_sells_for_it_plus_the_shortfall():
    """§11.6.5 for a regional: GWR (£80) lays a £30 tile (50) and places its £20 token (30). Its
    reserved 2+2 costs £100: 30 + Ann's 10 < 100, so the token is refunded (50), then the tile (80);
    80 + 10 = 90 < 100 still: Ann's £10 goes to GWR, which receives its 2+2 and pays the bank its 90
    (D 12.14 [I]; the debt D = 100 - 90 = £10); the 50 % president's certificate goes to the Open
    Market and the bank pays Ann its face, 2 x par = £120 (§11.6.5 step 2). GWR was the last to
    operate: OR 1.2 begins and pays its income (Ben 70, Cy 50, K's mail 20, Ann's SML nothing).
    So: Ann 10 -> 120 (+110), GWR 80 -> 0, the bank + 90 - 120 - 140 = -170.
    GWR does not operate in OR 1.2 (nobody owns it, step 3). In SR 2 Ben buys it as a stock action
    for face + D = 120 + 10 = £130, paid to the bank (D 18 #31); he presides with the 50 %, the two
    secondaries still in its treasury; GWR restarts with £0."""
    t = Table(POOR_REGIONAL)
    assert t.round() == "OR 1.1"
    assert (t.cash()["Ann"], t.cash()["GWR"]) == (10, 80)
    t.do("choose Ben normal")
    for corp in MINORS:
        t.attempt(f"withhold {corp} 0")
        t.do(f"train {corp} 2+2", f"done {corp}")
    assert t.status()["operating"] == "GWR"
    before = t.cash()
    t.do("tile GWR 30", "token GWR")
    assert t.cash()["GWR"] == 30
    t.do("train GWR 2+2")
    assert changes(before, t.cash()) == {"Ann": 110, "GWR": -80, "Ben": 70, "Cy": 50, "K": 20, "bank": -170}
    assert t.round() == "OR 1.2"
    assert t.trains("GWR") == ["2+2"]
    assert t.holdings("GWR") == {"Ann": 0, "Ben": 0, "Cy": 0, "ipo": 50, "pool": 50}
    assert t.status()["insolvent"] == {"GWR": 10}
    t.do("choose Ben normal")
    for corp in MINORS:
        t.do(f"withhold {corp} 0", f"done {corp}")
    assert t.round() == "SR 2" and t.turn() == "Ben"      # GWR was skipped
    before = t.cash()
    t.do("buy Ben GWR")
    assert changes(before, t.cash()) == {"Ben": -130, "bank": 130}
    assert t.holdings("GWR") == {"Ann": 0, "Ben": 50, "Cy": 0, "ipo": 50, "pool": 0}
    assert t.president("GWR") == "Ben" and t.cash()["GWR"] == 0
    assert not t.status()["insolvent"]
    money_kept(t)


# =========================================================================== §11.6.2: M's Pullman

def run_idle_until(t, done) -> None:
    """Every company withholds £0 and ends its turn until `done()` (Ann keeps Minor C's place)."""
    while not done():
        corp = t.status()["operating"]
        err = t.attempt(f"withhold {corp} 0")
        if err and "choose" in err:
            t.do("choose Ann normal")
            continue
        assert err is None, err
        t.do(f"done {corp}")


def test_minor_m_merged_into_a_major_with_a_pullman_sends_one_to_the_open_market():
    """§11.6.2: from or31_first_4 (KSS bought the first 4: Train Phase 4, Minor M got its own Pullman
    free, PM1) nobody converts; everyone idles to OR 3.2, where Ann's WW buys a Pullman from M's stock:
    £150 to the bank, the £15 royalty to M (bank + 135). In SR 4 (Cy first, after Ben the last to act
    in SR 3) Ann merges M into WW: WW has no share in its treasury nor the Open Market, so the merger
    needs a connection and M's £425 goes to the bank (§10.5); "If Minor M and the major it merges with
    both own a Pullman, one of these Pullmans must immediately be discarded into the Open Market":
    WW keeps one, one is in the Open Market, for sale at £150 with no royalty."""
    t = or31_first_4()
    t.do("decline Ben", "decline Cy", "decline Ann", "done KSS")
    assert t.status()["pullmans"]["PM1"] == "M"
    run_idle_until(t, lambda: t.round() == "OR 3.2" and t.status()["operating"] == "WW")
    before = t.cash()
    t.do("withhold WW 0", "pullman WW")
    assert changes(before, t.cash()) == {"WW": -150, "M": 15, "bank": 135}
    t.do("done WW")
    run_idle_until(t, lambda: t.round() == "SR 4")
    assert t.turn() == "Cy"
    assert t.holdings("WW") == {"Ann": 70, "Ben": 10, "Cy": 20, "ipo": 0, "pool": 0}
    t.do("pass Cy")
    before = t.cash()
    assert before["M"] == 425
    t.do("merge Ann M WW --connected")
    assert changes(before, t.cash()) == {"M": -425, "bank": 425}
    where = sorted(v for v in t.status()["pullmans"].values() if v)
    assert where == ["Open Market", "WW"]
    money_kept(t)


# =========================================================================== §11.5: token transfer

def idle_until(t, corp: str) -> None:
    """Every company before `corp` withholds £0 and ends its turn."""
    while t.status()["operating"] != corp:
        other = t.status()["operating"]
        t.do(f"withhold {other} 0", f"done {other}")


def test_a_transferred_token_returns_to_the_sellers_dearest_open_slot():
    """§11.5: "The selling major takes the returned token and places it on its charter in the highest
    cost open position." From or21 (GWR and KSS both Ben's majors): OR 2.1 GWR places its £20 token
    (slot 2) in Wien; OR 2.2 it places its £80 token (slot 7) in Berlin (bank + 80). KSS then takes
    over the Wien token with its own £20 slot: the bank + 20 (KSS's slot), GWR + 20 (a normal city's
    access fee). GWR's open positions are slots 2 (£20) and 7 (£80): the token goes back into slot 7.
    In OR 3.1 GWR may not place from slot 2 (empty) and pays £80 for the token of slot 7."""
    from book_tables_1801 import or21
    t = or21()
    t.do("withhold WW 0", "done WW")
    before = t.cash()
    t.do("token GWR --city Wien")
    assert changes(before, t.cash()) == {"GWR": -20, "bank": 20}
    t.do("withhold GWR 0", "done GWR", "withhold KSS 0", "done KSS", "choose Ann normal")
    idle_until(t, "GWR")
    assert t.round() == "OR 2.2"
    before = t.cash()
    t.do("token GWR --city Berlin --slot 7")
    assert changes(before, t.cash()) == {"GWR": -80, "bank": 80}
    t.do("withhold GWR 0", "done GWR")
    idle_until(t, "KSS")
    t.do("withhold KSS 0")
    before = t.cash()
    t.do("transfer KSS GWR --city Wien --kind city --slot 2")
    assert changes(before, t.cash()) == {"KSS": -40, "bank": 20, "GWR": 20}
    t.do("done KSS")
    assert t.round() == "SR 3"
    t.do("pass Ben", "pass Cy", "pass Ann", "choose Ann normal")
    idle_until(t, "GWR")
    t.refused("token GWR --city Paris --slot 2", "slot 2")
    before = t.cash()
    t.do("token GWR --city Paris --slot 7")
    assert changes(before, t.cash()) == {"GWR": -80, "bank": 80}
    money_kept(t)


# =========================================================================== §13.1, E25: the score

def test_the_swift_metropolitan_line_exercised_scores_nothing():
    """§13.1 / E25 / D18 #38: a face-up private scores its face; the Swift Metropolitan Line, once
    exercised, is removed and scores nothing (a face-down private neither). examples/1801-game.txt
    to WW's £130 withheld in OR 5.1 (Train Phase 4, §14.10): Ann's face-up privates RSC 20 + CCTC 60
    + HML 80 + SML 120 = £280; Ben's WSB 40 + BBBT 40 + WCF 60 = £140 (his PC is face down: nothing).
    Ann gives WW an unclaimed rusted 2+2 with the SML: her privates now score 20 + 60 + 80 = £160, her
    cash and shares unchanged."""
    from book_tables_1801 import example_lines
    lines = example_lines()
    t = Table("\n".join(lines[:lines.index("withhold WW 130") + 1]))
    before = t.score()
    assert (before["Ann"]["privates"], before["Ben"]["privates"]) == (280, 140)
    t.do("claim WW 2 --using SML")
    after = t.score()
    assert (after["Ann"]["privates"], after["Ben"]["privates"]) == (160, 140)
    assert after["Ann"]["value"] == before["Ann"]["value"] - 120
    assert (after["Ann"]["cash"], after["Ann"]["shares"]) == (before["Ann"]["cash"], before["Ann"]["shares"])


# =========================================================================== §11.7: own shares

def test_a_major_holding_60_percent_of_itself_buys_none_back():
    """§11.7: a major buys its own shares "subject to the rules for buying (see 10.2) ... with the
    major acting as a player"; §10.2: a player who already owns 60 % buys none from the Open Market
    (the double-price way is the president's) (D 12.16 [I]). (Found: the engine let a major at 70 %
    of itself buy back.) SR 2 (sr2): Ann expands PLM (REGIONAL 60 -> MAJOR 75 at (5,2), §9.3) and
    buys nothing: Ann 20 %, the treasury 80 % (the two secondaries and six new shares). OR 2.1: PLM
    withholds £0: LEFT (5,1) £70 (§4.4); it issues one share at £70 (PLM + 70 from the bank; DOWN
    (6,1) £65): treasury 70 %, Open Market 10 %. OR 2.2: PLM withholds: LEFT (6,0) £60; holding 70 %
    of itself it may not buy the Open Market's share back."""
    from book_tables_1801 import sr2
    t = sr2()
    t.do("expand Ann PLM", "pass Ben", "pass Cy", "pass Ann")
    assert t.holdings("PLM") == {"Ann": 20, "Ben": 0, "Cy": 0, "ipo": 80, "pool": 0}
    assert (t.cell("PLM"), t.price("PLM")) == ((5, 2), 75)
    run_idle_until(t, lambda: t.status()["operating"] == "PLM")
    t.do("withhold PLM 0")
    before = t.cash()
    t.do("issue PLM 1")
    assert changes(before, t.cash()) == {"PLM": 70, "bank": -70}
    assert t.holdings("PLM") == {"Ann": 20, "Ben": 0, "Cy": 0, "ipo": 70, "pool": 10}
    assert (t.cell("PLM"), t.price("PLM")) == ((6, 1), 65)
    t.do("done PLM")
    run_idle_until(t, lambda: t.status()["operating"] == "PLM")
    assert t.round() == "OR 2.2"
    t.do("withhold PLM 0")
    assert (t.cell("PLM"), t.price("PLM")) == ((6, 0), 60)
    t.refused("redeem PLM 1", "70%", "60%", "§10.2")
    assert t.holdings("PLM")["pool"] == 10
    # the redeem verb's bar: completion offers no count, and the Next line no buying back
    assert legal.choices(t.state, t.rs, "redeem", "PLM", "count") is None
    assert legal.complete(t.state, t.rs, "redeem", ["PLM"]) == []
    assert "redeem" not in legal.hint(t.state, t.rs) and "issue" in legal.hint(t.state, t.rs)
    money_kept(t)


# =========================================================================== §9.4: conversion

def test_a_converted_majors_orient_express_marker_and_port_authority_leave_play():
    """§9.4 steps 1 and 4: the major's cash goes to the bank; "Remove from play all other assets on
    the major's charter except for trains. This includes track rights, port authorities, Orient
    Express markers, and private markers." (Found: the national kept its OE marker.) or31_first_4
    played with one change: in OR 2.1 Ann's WW runs the Orient Express (its first: the marker, Ann
    takes the cash bonus) and buys the North Sea port authority (§11.3.5). At KSS's first 4 (Train
    Phase 4) Ben and Cy decline; Ann converts WW: its £778 to the bank, no treasury share to move
    (Ann 70, Ben 10, Cy 20), the marker and the port authority out of play; it keeps its four trains,
    the two rusting 2+2s too (§9.4 step 5, E28), and its share value (0,3) £135."""
    from book_tables_1801 import REGIONALS_LEFT, or21
    from test_1801_merges_rules import LEFT_MINORS, OR21_TO_P3, P3M_TURNS
    t = or21()
    t.play(OR21_TO_P3.replace("pay WW 100\ntrain WW 3\n",
                              "pay WW 100 --oe 50\nchoose Ann cash\nport-authority WW north\ntrain WW 3\n"))
    for corp in MINORS:
        t.do(f"half {corp} 400", f"done {corp}")
    for corp in REGIONALS_LEFT:
        t.do(f"withhold {corp} 400", f"train {corp} 3", f"done {corp}")
    t.play("pay WW 100\ntrain WW 3\ndone WW\npay KSS 70\ntrain KSS 3\ndone KSS\n"
           "pay GWR 50\ntrain GWR 3\ntrain GWR 3\ndone GWR\n")
    t.play(P3M_TURNS)
    t.do("choose Ann normal")
    for corp in LEFT_MINORS:
        t.do(f"half {corp} 400", f"done {corp}")
    for corp in REGIONALS_LEFT:
        t.do(f"withhold {corp} 0", f"done {corp}")
    t.play("pay WW 100\ndone WW\npay KSS 50\ntrain KSS 4\n")
    assert t.status()["oe_markers"] == ["WW"]
    ports = [a for a, where in t.state.assets.items() if t.state.assets[a].kind == "port"
             and where.owner == "company:WW" and not where.closed]
    assert len(ports) == 1
    t.do("decline Ben", "decline Cy")
    before = t.cash()
    assert before["WW"] == 778
    t.do("convert Ann WW")
    assert changes(before, t.cash()) == {"WW": -778, "bank": 778}
    ww = t.company("WW")
    assert ww["kind"] == "national" and (ww["cell"], ww["price"]) == ([0, 3], 135)
    assert t.holdings("WW") == {"Ann": 70, "Ben": 10, "Cy": 20, "ipo": 0, "pool": 0}
    assert t.trains("WW") == ["2+2", "2+2", "3", "3"]
    assert t.status()["oe_markers"] == []
    assert all(t.state.assets[a].closed for a in ports)
    money_kept(t)
