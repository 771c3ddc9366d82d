"""1801 (18OE): a railroad's run with the Orient Express (§11.3, §11.4, §12; rulesets/1801/orient_express.py):
the OE extra on top of the run's ceiling, which still guards the announced run.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import or21
from table_1801 import changes


def test_the_orient_express_extra_comes_on_top_of_the_runs_ceiling():
    """§12: the bank adds the OE extra (£30 in Train Phase 2) to the revenue the trains make. WW's one
    2+2 runs 4 stops: the typo guard's ceiling is 4 x £100 = £400, and WW announces £400, all of it
    the OE train's. Paid: 400 + 30 = 430: Ann 70 % 301, Cy 20 % 86, WW's treasury 10 % 43. Ann takes
    the first-run cash bonus (§12.2): the OE train's total 400 + 30 = 430 into WW. The bank pays
    430 + 430 = 860. 430 >= £110: RIGHT (1,2) -> (1,3) £120 (§4.4, D18 #22)."""
    t = or21()
    before = t.cash()
    t.do("pay WW 400 --oe 400", "choose Ann cash")
    assert changes(before, t.cash()) == {"Ann": 301, "Cy": 86, "WW": 43 + 430, "bank": -860}
    assert (t.cell("WW"), t.price("WW")) == ((1, 3), 120)


def test_the_ceiling_still_guards_the_announced_run():
    """The typo guard is on what the table announces: £410 from one 2+2 (at most 4 x £100) is refused
    with or without the OE extra."""
    t = or21()
    t.refused("pay WW 410 --oe 400", "at most about £400", "not £410")
    t.refused("pay WW 410", "at most about £400", "not £410")
