"""What a mistyped name's hint offers: every name as near as the nearest (not one of them), the
plain alias of a symbol a shell would cut (B&O is typed BnO) said once, and its alias matched too."""

from conftest import Table


def opening() -> Table:
    return Table("new 1830 Alice Bob Carol Dave")


def test_names_as_near_as_each_other_are_all_offered():
    line = opening().refused("bid Alice PR 45", "unknown private or company 'PR'")
    assert line.endswith("(hint: did you mean PRR or CPR?)")


def test_a_mistyped_alias_is_matched_against_the_aliases():
    line = opening().refused("bid Alice BnQ 45")
    assert line.endswith("(hint: did you mean BnO or BnM?)")


def test_the_list_of_known_names_says_each_once_as_it_is_typed():
    line = opening().refused("bid Alice XX 45")
    assert "BnO, CnO" in line and "(BnO)" not in line and "B&O" not in line

