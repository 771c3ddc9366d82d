"""1839's game end and score (§9): a public company at ƒ1,000 ends the game after the foreign companies of that
OR operate (§7.7.1, §9.1, D12), a director is bankrupt only once he has sold all he may (§8.2.7.3), and
at a bankruptcy everyone, the bankrupt director too, scores as things stand (§9.1, §9.2, B23).
Rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x", its corrections D0.1
and best readings "B n". Every figure is worked by hand in the comments; engine only (tests/conftest.py's
Table); openings and positions: openings_1839.py.
"""

from __future__ import annotations

import pytest
from openings_1839 import FORCE, P_OPENING, P_SR4, P_TO_BLUE, P_TO_BROWN, P_TO_GREEN, audit, balanced, new_table
from openings_1839 import vv_cm  # noqa: F401  (fixtures, used by name)


def test_a_public_company_at_1000_ends_the_game_after_the_foreign_companies_operate(vv_cm):
    """§7.7.1, §9.1 (D12): a company reaching ƒ1,000 by its dividend ends the game at the end of the
    current OR; the foreign companies' operations are part of that OR (§8: after the public
    companies), so one parred in it still operates. From OR 2.1 (green) AMS pays 10000 every OR
    (ZHESM withholds 10 with its 2s, nobody buys a train, the phase stays green): 62 -> 67 -> 72 -> 80
    (+3: 10000 >= 4 x price), 89, 101, 116, then 135 (B1: a rise stops on reaching 135), then one box
    an OR (10000 > price): 160, 192, 233, 287, 359, 454, 584, 761, 1000. In that OR ZHESM pays 400
    to Germany: Duitsland is parred at 80 and operates: 400 / 2 = 200: 100 + 50 units x 2 = 200 to
    its treasury; 80 -> 89. Then the game is over; no OR or SR follows."""
    t = vv_cm.copy()
    seen = []
    while True:
        if t.round().startswith("SR"):
            t.do(f"pass {t.turn()}")
            t.do(f"pass {t.turn()}")
            continue
        if t.price("AMS") == 761:
            break
        t.do(f"pay AMS 10000 {FORCE}", "done AMS", "withhold ZHESM 10", "done ZHESM")
        seen.append(t.price("AMS"))
    assert seen == [80, 116, 135, 160, 192, 233, 287, 359, 454, 584, 761]
    assert t.status()["operating_order"][0] == "AMS"
    t.do(f"pay AMS 10000 {FORCE}", "done AMS")
    assert t.price("AMS") == 1000 and not t.status()["game_over"]
    t.do("pay ZHESM 400 --abroad DUI", "done ZHESM")
    s = t.status()
    assert s["game_over"] and (t.price("DUI"), t.cash("DUI")) == (89, 200)
    t.refused(f"pass {s['players'][0]['name']}")
    audit(t)


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
