"""1839's market and dividends: odd revenues rounded per holding, players up and the pool down (§8.2.6, B2),
a half-pay's move compared unrounded with the price (§7.7.3.1, B3), and the ties of a box read from its
stack for the operating order (§7.4, §8.2.1, B5, B29).
Rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x", its corrections D0.1
and best readings "B n". Every figure is worked by hand in the comments; engine only (tests/conftest.py's
Table); openings and positions: openings_1839.py.
"""

from __future__ import annotations

import pytest
from openings_1839 import VV_CM, balanced, example, new_table, one_3_roster


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


# --------------------------------------------------------------------------- §8.2.1 operating order and its ties

@pytest.mark.parametrize("option, order", [(None, ["AMS", "ZHESM"]), ("stack_by_arrival", ["ZHESM", "AMS"])])
def test_b29_b5_ties_in_a_box_follow_the_stack(tmp_path, option, order):
    """§7.4, B29: Ben parred ZHESM at 80 before Ann parred AMS there; AMS went under it, so ZHESM
    operates first in OR 1.1. §8.2.1, B5: both fell to 62 in OR 1.1, ZHESM first; AMS, moved there
    while ZHESM's marker lay face down, goes under the face-up markers but over the face-down one:
    AMS operates first in OR 2.1. Option stack_by_arrival (the stated principle): under every
    marker there, so ZHESM, longer there, stays first."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM[:VV_CM.index("withhold ZHESM 0")])
    assert (t.round(), t.status()["operating_order"]) == ("OR 1.1", ["ZHESM", "AMS"])
    t.play(VV_CM[VV_CM.index("withhold ZHESM 0"):])
    assert (t.price("AMS"), t.price("ZHESM")) == (62, 62)
    assert (t.round(), t.status()["operating_order"]) == ("OR 2.1", order)
