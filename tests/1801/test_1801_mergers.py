"""1801 (18OE): the Consolidation round (§10.5, §10.6, §9.5; rulesets/1801/mergers.py): no minor is
abandoned while its owner holds a regional that could take it; Minor A's bonus when a major buys it
abandoned (§15.1, §9.5, §11.7), once by default, again as an option.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import LEFT_MINORS, REGIONALS_LEFT, kept, or31_first_4, or41_a_bought
from table_1801 import changes


def consolidation_round() -> object:
    """test_1801_merges_rules' CONS table on the engine: or31_first_4() played on through OR 3.2 (GWR
    buys a 4; minors buy 4s, M the first 5: Train Phase 5), so SR 4 is the Consolidation round
    (§5.1.5), Cy first. Cy holds minors B E H L and the regionals BEL MAV MZA BJV MKV, no major."""
    def build():
        t = or31_first_4()
        t.play("done KSS\npay GWR 50\ntrain GWR 4\ndone GWR\nchoose Ann normal\n")
        for corp in LEFT_MINORS:
            t.attempt(f"withhold {corp} 0")
            t.do(f"train {corp} {'5' if corp == 'M' else '4'}", f"done {corp}")
        for corp in REGIONALS_LEFT + ["WW", "KSS", "GWR"]:
            t.do(f"withhold {corp} 0", f"done {corp}")
        return t
    return kept("audit consolidation", build)


def test_no_minor_is_abandoned_while_its_owner_holds_a_regional_that_could_take_it():
    """§10.6: "If a player owns any minors that section 10.5 allows to be merged into one of that
    player's own majors ..., the player may not select the pass option"; "If a player owns a major
    that has not yet floated [a regional], the player may not select the pass option until the major
    has floated." Designer's Note: "this means that if a player owns a minor which is not eligible to
    be merged into one of their own majors or nationals, and the player also owns a regional which
    has not yet floated as a major, the player must float the major, thus making it eligible to
    acquire the minor"; only a player "left with" minors he cannot merge invites offers and, with
    none, abandons (§9.5). Cy (minors B E H L; regionals BEL MAV MZA BJV MKV) may not abandon B: he
    expands BEL (par 60 -> MAJOR 75, six 10 % shares in its treasury, §9.3), and on his next turn
    merges B into it: a treasury share to Cy, B's £100 to BEL (§10.5): BEL 400 -> 500."""
    t = consolidation_round()
    assert t.round() == "SR 4" and t.turn() == "Cy"
    assert t.cash("B") == 100 and t.cash("BEL") == 400
    t.refused("abandon Cy B --no-offers", "§10.6", "BEL")
    t.do("expand Cy BEL", "expand Ann PLM", "merge Ben A KSS")
    before = t.cash()
    t.do("merge Cy B BEL")
    assert changes(before, t.cash()) == {"B": -100, "BEL": 100}
    assert t.holdings("BEL")["Cy"] == 30        # 20 % (the president's) + the merger's 10 %


# --------------------------------------------------------------------------- §15.1, §9.5, §11.7: Minor A's bonus

def test_a_major_buying_minor_a_abandoned_is_paid_as_if_merged():
    """§11.7: a major buys an abandoned minor for £60 to the bank, 'the minor's charter and assets
    are then added to the major as if it was merged (see 10.5)'; §15.1: when A 'is merged into a
    major, the bank pays cash into the major's treasury equal to the current share value of the
    major'. A went into the national GWR (no major: no bonus) and was abandoned; KSS, at £80, buys
    it: KSS -60 + 80 = +20, the bank +60 - 80 = -20; A's charter is KSS's."""
    t = or41_a_bought()
    assert t.price("KSS") == 80
    before = t.cash()
    t.do("buy-minor KSS A")
    assert changes(before, t.cash()) == {"KSS": 20, "bank": -20}
    assert t.holdings("A")["pool"] == 0


def test_minor_a_is_paid_once_by_default():
    """D18 #36 (best reading: a one-time payment): A merged into GWR in SR 3 (the bank paid GWR £70);
    Ben converts GWR at the first 4, so A is abandoned (§9.4 step 3, §9.5); KSS, still in its turn
    (after its buy step, §11 step 7), buys A for £60: KSS -60, the bank +60, no bonus again."""
    t = or31_first_4(a_into_gwr=True)
    t.do("convert Ben GWR")
    assert t.holdings("A")["pool"] == 100
    before = t.cash()
    t.do("buy-minor KSS A")
    assert changes(before, t.cash()) == {"KSS": -60, "bank": 60}


def test_minor_a_paid_again_is_an_option():
    """The other reading of D18 #36 (option minor_a_paid_again): A pays each major it joins. The same
    turn: KSS at £80 buys A for £60 and the bank pays it £80: KSS +20, the bank -20."""
    t = or31_first_4("minor_a_paid_again", a_into_gwr=True)
    assert t.price("KSS") == 80
    t.do("convert Ben GWR")
    before = t.cash()
    t.do("buy-minor KSS A")
    assert changes(before, t.cash()) == {"KSS": 20, "bank": -20}
