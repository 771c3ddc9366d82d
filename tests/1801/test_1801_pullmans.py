"""1801 (18OE): Pullmans (§11.6.2, §15.9, §9.5; rulesets/1801/pullmans.py): Minor M's Pullman through a
merger, a regional at its train limit buying one, Minor J's discount on the Open Market's, and Minor M's
own once M is abandoned.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import idle_until, money_kept, or31_first_4
from positions_1801 import copied, cons_game, or21_game, or41_game, p3_game, p3m_game, s2_game, s2x_game  # noqa: F401  (fixtures, used by name)
from table_1801 import changes


# -------------------------------------------------------------------------- §11.6.2: Minor M's Pullman through a merger

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
    idle_until(t, lambda: t.round() == "OR 3.2" and t.status()["operating"] == "WW")
    before = t.cash()
    t.do("withhold WW 0", "pullman WW")
    assert changes(before, t.cash()) == {"WW": -150, "M": 15, "bank": 135}
    t.do("done WW")
    idle_until(t, lambda: t.round() == "SR 4")
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


# --------------------------------------------------------------------------- §11.6.2: a regional's Pullman

def test_a_regional_at_its_train_limit_buys_a_pullman_and_runs_it():
    """§11.6.2: from Train Phase 4 "a RR may purchase a Pullman car from Minor M" (any railroad, not
    only majors); "A Pullman does not count against a RR's train limit" (a regional's is 1 in Phase 4,
    §5.2). or31_first_4, nobody converts; OR 3.2: Ann's regional PLM (£400, one 3) buys a Pullman:
    £150 to the bank, £15 royalty to Minor M (Ann's, unmerged): PLM - 150, M + 15, bank + 135.
    OR 4.1: PLM runs its 3 for £100 with the Pullman on it: + £10 x 3 = £130, paid in full (§11.4):
    Ann's 50 % £65, PLM's own two 25 % (one recipient, D 12.7) £65; bank - 130."""
    t = or31_first_4()
    t.do("decline Ben", "decline Cy", "decline Ann", "done KSS")
    idle_until(t, lambda: t.round() == "OR 3.2" and t.status()["operating"] == "PLM")
    assert (t.company("PLM")["kind"], t.cash()["PLM"], t.trains("PLM")) == ("regional", 400, ["3"])
    t.do("withhold PLM 0")
    before = t.cash()
    t.do("pullman PLM")
    assert changes(before, t.cash()) == {"PLM": -150, "M": 15, "bank": 135}
    t.do("done PLM")
    idle_until(t, lambda: t.round() == "OR 4.1" and t.status()["operating"] == "PLM")
    before = t.cash()
    t.do("pay PLM 100 --pullman 3")
    assert changes(before, t.cash()) == {"Ann": 65, "PLM": 65, "bank": -130}
    money_kept(t)


# --------------------------------------------------- §11.6.2, §15.9, §9.5: the Open Market's Pullman, Minor M abandoned

def test_minor_js_discount_applies_to_an_open_market_pullman_with_no_royalty():
    """§11.6.2: "Pullmans purchased from the Open Market cost face value, £150, but do not pay a
    royalty to Minor M. Minor J's 10% discount (see 15.9) applies to Pullman purchases"; D18 #28: it
    applies to purchases from the bank, the Open Market's included, rounded down. or31_first_4: KSS
    (Ben's, J merged into it) has bought the first 4 (Train Phase 4; Minor M, Ann's, got its free
    Pullman). Nobody converts; OR 3.2: M (no train) runs nothing and discards its Pullman to the Open
    Market, with no refund (no money moves). KSS withholds £0 and buys that Pullman from the Open
    Market: 150 - 15 = £135, all to the bank; M receives nothing."""
    t = or31_first_4()
    t.do("decline Ben", "decline Cy", "decline Ann", "done KSS")
    idle_until(t, lambda: t.round() == "OR 3.2" and t.status()["operating"] == "M")
    t.do("withhold M 0")
    before = t.cash()
    t.do("pullman M --discard")
    assert changes(before, t.cash()) == {}
    t.do("done M")
    idle_until(t, lambda: t.status()["operating"] == "KSS")
    t.do("withhold KSS 0")
    before = t.cash()
    t.do("pullman KSS --from pool")
    assert changes(before, t.cash()) == {"KSS": -135, "bank": 135}
    assert sum(t.state.balances.values()) == t.money_at_start


or41 = copied("or41_game")


def test_after_minor_m_is_abandoned_its_stock_sells_with_no_royalty_and_its_own_pullman_is_not_for_sale(or41):
    """§9.5 step 5: when a minor is abandoned "The M minor's Pullman is placed with its charter (and
    may not be purchased by another RR, although any other remaining Pullmans are still available for
    purchase)"; step 6: an abandoned minor's treasury goes to the bank. D18 #27: the stock stays on
    sale and the royalty is kept by the bank. or41 (OR 4.1, Train Phase 5): Ann abandoned Minor M in
    the Consolidation round; its free Pullman PM1 stays with its charter in the Open Market.
    (Found: the engine sold PM1 to WW for £75, paid into the abandoned M's treasury.)
    WW (£910) withholds £0; buying M's own Pullman is refused, naming the rule; nothing is in the
    Open Market to buy. From M's stock: £150 to the bank, no £15 royalty (nobody uses M's ability).
    KSS (J merged into it) then buys one for 150 - 15 = £135, no royalty either."""
    assert or41.company("M")["pullman"] == ["PM1"] and or41.holdings("M")["pool"] == 100
    or41.bank.line("withhold WW 0")
    line = or41.refused("pullman WW --from M")
    assert "abandoned" in line and "§9.5" in line
    or41.refused("pullman WW --from pool")
    before = or41.cash()
    or41.bank.line("pullman WW")
    assert changes(before, or41.cash()) == {"WW": -150, "bank": 150}
    assert or41.company("M")["pullman"] == ["PM1"] and or41.company("M")["cash"] == 0
    or41.bank.line("done WW")
    while or41.status()["operating"] != "KSS":
        corp = or41.status()["operating"]
        or41.bank.line(f"withhold {corp} 0")
        or41.bank.line(f"done {corp}")
    or41.bank.line("withhold KSS 0")
    before = or41.cash()
    or41.bank.line("pullman KSS")
    assert changes(before, or41.cash()) == {"KSS": -135, "bank": 135}
    or41.conserved()
