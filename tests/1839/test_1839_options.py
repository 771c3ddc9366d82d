"""1839's options, each the other reading of one rule (digest D15): a first-turn station by either count of
its locations (§8.2.4, B9) and the fall of a company with no train (§7.7.3.1, B4), and the options that
change one number of the data (A2-A4, Appendix A).
Rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x", its corrections D0.1
and best readings "B n". Every figure is worked by hand in the comments; engine only (tests/conftest.py's
Table); openings and positions: openings_1839.py.
"""

from __future__ import annotations

import pytest
from conftest import Table
from openings_1839 import VV_CM, audit, new_table, one_3_roster


@pytest.mark.parametrize("option, station, price", [
    (None, 30, 62),                       # B9: 30 x 1 location (Haarlem); B4: no train, three boxes
    ("stations_count_new", 60, 62),       # B9 (later revision): 30 x 2, the new location counted
    ("no_train_penalty_two", 30, 67),     # B4 option: two boxes, as with a train (80 -> 72 -> 67)
])
def test_b9_b4_a_first_turn_station_and_fall_by_either_reading(tmp_path, option, station, price):
    """§8.2.4 (B9, D14.22) and §7.7.3.1 (B4, D14.10): OR 1.1, ZHESM's first turn: a station in a ƒ30
    city, then no train, no dividend."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path), **({option: True} if option else {}))
    t.play(VV_CM[:VV_CM.index("withhold ZHESM 0")])
    t.do("token ZHESM 30 --city Leiden")
    assert t.cash("ZHESM") == 800 - station
    t.do("withhold ZHESM 0")
    assert t.price("ZHESM") == price
    audit(t)


@pytest.mark.parametrize("option, check", [
    ("seven_plus_800", lambda rs: rs.train("7+").price == 800),          # Appendix A: the card
    ("flood_eight", lambda rs: rs.train("FLOOD").count == 8),            # A3: the §5 table
    ("gray_four_ors", lambda rs: rs.phase("gray").ors == 4),             # A4: §17's text
    ("ijzeren_rijn_20", lambda rs: rs.private("IJR").revenue == 20),     # A2: the §6 table
])
def test_the_data_options_change_their_one_number(option, check):
    """D15 A2-A4 and Appendix A: each option is the other reading of one number; without it the
    rules' own: 7+ at 700, nine FLOODs, three ORs a gray set, IJzeren Rijn 10."""
    plain, other = Table("new 1839 Ann Ben").rs, Table(f"new 1839 Ann Ben --option {option}").rs
    assert check(other) and not check(plain)
