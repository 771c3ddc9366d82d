"""1839 audited a fourth time against its rulebook (shared/seeds/003_aa544c940024c360.txt "§x"; digest
shared/rules/1839.md "D x", its corrections D0.1 and best readings "B n"), on what the first three
audits (test_1839_audit*.py) left: the bankrupt director's own score and the whole table's score at a
bankruptcy (B23, §9.1, §9.2), and Crédit Mobilier on a blue train bought in blue and on the first
brown train bought in blue, by either reading of its colour (§12.5, D0.1 #4, B21). Every figure is
worked by hand in the comments. Engine only (tests/conftest.py's Table)."""

from __future__ import annotations

import pytest

# The openings the earlier files play, reused rather than written again: game P up to NCS without a
# train, and the green two-player table with Verveers and Crédit Mobilier (both openings_1839's).
from openings_1839 import (P_OPENING, P_SR4, P_TO_BLUE, P_TO_BROWN, P_TO_GREEN, VV_CM, audit, balanced, new_table,
                           one_3_roster)

F = "--force --reason audit"


# --------------------------------------------------------------------------- §8.2.7.3, §9 bankruptcy (B23)

@pytest.fixture(scope="module")
def ncs_trainless():
    """Game P (four players), OR 4.1: ZHESM bought the first 7+ (brown; every 3+ rusts) and finished
    its turn, so every private is obsolete (§12.1) but the players' are still open: they close only at
    the end of the next OR's private step. NCS, Dee's, operates with no train and ƒ0."""
    t = new_table("Ann Ben Cy Dee")
    for script in (P_OPENING, P_TO_GREEN, P_TO_BLUE, P_SR4, P_TO_BROWN):
        t.play(script)
    t.play("discard ZHESM 5+\ndone ZHESM")
    return t


def test_b23_the_bankrupt_director_and_everyone_else_score_as_things_stand(ncs_trainless):
    """§8.2.7.3: Dee is bankrupt only after cashing in every private (half face) and selling every
    share she legally may; §9.1: the game ends at once; §9.2 (B23): everyone, Dee too, scores as
    things stand: cash, privates held by players at face (obsolete ones too, until they close: they
    are still held when the game ends), every share at its price when the game ended.

    Dee: 134 cash; AMS 60 % (director) and NCS 20 % (director's certificate), both at 55; VVD (face
    120) and LSW (140). She sells AMS 4 x 10 % at 55 = 220 (the director's certificate is never sold,
    and no one else holds AMS to take it) and hands VVD in for 60 and LSW for 70: 134 + 350 = 484.
    NCS sells a station for 40, yet still lacks 700 - 40 = 660 > 484: bankrupt. She keeps her 484
    (no train was bought, so nothing was paid in): 484 + 2 x 55 (AMS) + 2 x 55 (NCS) + 0 = 704.
      Cy:  90 + NBDS 2 x 55 + NCS 2 x 55 + NWS 2 x 56 + ZHESM 55 = 90 + 387; SHZ 160 + SWO 300 = 937
      Ann: 44 + NCS 55 + NWS 2 x 56 + ZHESM 5 x 55 = 44 + 442; LVG 70 + CO 160 + CM 200 = 916
      Ben: 42 + NBDS 4 x 55 + NCS 55 + NWS 2 x 56 = 42 + 387; VV 180 = 609
    The largest net worth wins (§9.2): Cy, Ann, Dee, Ben."""
    t = ncs_trainless.copy()
    assert t.score()["Dee"]["value"] == 134 + 6 * 55 + 2 * 55 + 120 + 140 == 834
    t.play("sell Dee AMS 4\nsell Dee VVD\nsell Dee LSW\nsell-token NCS 40\nbankrupt Dee")
    s = t.status()
    assert s["game_over"] and "bankrupt" in s["end_reason"]
    score = t.score()
    assert {n: (r["cash"], r["shares"], r["privates"], r["value"], r["rank"]) for n, r in score.items()} == {
        "Dee": (484, 2 * 55 + 2 * 55, 0, 704, 3),
        "Cy": (90, 2 * 55 + 2 * 55 + 2 * 56 + 55, 160 + 300, 937, 1),
        "Ann": (44, 55 + 2 * 56 + 5 * 55, 70 + 160 + 200, 916, 2),
        "Ben": (42, 4 * 55 + 55 + 2 * 56, 180, 609, 4),
    }
    assert t.player("Dee", s)["shares"] == {"AMS": 20, "NCS": 20} and t.player("Dee", s)["privates"] == []
    balanced(t)


def test_b23_a_director_who_may_still_sell_is_not_bankrupt_and_the_message_says_what(ncs_trainless):
    """§8.2.7.3: bankrupt only "after ... cashed in all their private companies and sold all legally
    sellable shares": with her AMS 40 % (4 x 55 = 220) and VVD, LSW (60 + 70) unsold the refusal
    names what is left, and nothing changes."""
    t = ncs_trainless.copy()
    line = t.refused("bankrupt Dee", "not bankrupt yet")
    assert "AMS 4 at ƒ55" in line and "VVD for ƒ60" in line and "LSW for ƒ70" in line
    assert not t.status()["game_over"] and t.cash("Dee") == 134
    audit(t)


# --------------------------------------------------------------------------- §12.5 Crédit Mobilier (B21, D0.1 #4)

@pytest.mark.parametrize("option, train, discount", [
    (None, "5+", 150),                          # a blue train bought in blue: 150 by either reading
    ("credit_mobilier_by_phase", "5+", 150),
    (None, "7+", 250),                          # the first brown train, bought in blue: by its colour 250
    ("credit_mobilier_by_phase", "7+", 150),    # ... by the phase it is bought in (blue) 150
])
def test_b21_credit_mobilier_on_a_blue_train_in_blue_and_the_first_brown(tmp_path, option, train, discount):
    """§12.5: Crédit Mobilier takes "Green ƒ100, Blue ƒ150, Brown ƒ250" off one supply train bought by
    its owning company, once (B21); D0.1 #4: the colour is the train's (best reading) or, as an
    option, the phase's. The green table of test_1839_audit3 (AMS 610, ZHESM 600, three 5+ and two
    7+ in the supply), OR 2.1:
    - a blue train in blue: AMS withholds 1000 (1,610) and buys the first 5+ (blue, 1,160); ZHESM
      buys CM from Ben for 1 (599), withholds 0 and buys the second 5+ for 450 - 150 = 300: 299;
    - the first brown in blue: AMS buys two 5+ (710); ZHESM buys CM for 1, withholds 1,000 (1,599),
      buys the last 5+ (1,149) and the first 7+ for 700 - 250 = 450 (699) by the train's colour, or
      700 - 150 = 550 (599) by the phase's; brown begins either way.
    The discount stays with the bank (it is paid less), and CM closes on use."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM)
    t.do(f"withhold AMS 1000 {F}", "train AMS 5+")
    if train == "7+":
        t.do("train AMS 5+")
    t.do("done AMS")
    assert (t.status()["phase"], t.cash("AMS")) == ("blue", 1160 if train == "5+" else 710)
    # the power is the owning company's: ZHESM cannot use a CM its director holds (§12.5)
    t.refused("train ZHESM 5+ --using CM", "CM is Ben's, not ZHESM's")
    t.do("buy-private ZHESM CM 1", f"withhold ZHESM {1000 if train == '7+' else 0} {F}")
    if train == "7+":
        t.do("train ZHESM 5+")
    before, bank = t.cash("ZHESM"), t.cash("bank")
    assert before == (299 + 300 if train == "5+" else 1149)
    t.do(f"train ZHESM {train} --using CM")
    price = {"5+": 450, "7+": 700}[train]
    assert (t.cash("ZHESM"), t.cash("bank")) == (before - (price - discount), bank + price - discount)
    assert t.status()["phase"] == ("blue" if train == "5+" else "brown")
    assert next(p for p in t.status()["privates"] if p["sym"] == "CM")["closed"]
    audit(t)
