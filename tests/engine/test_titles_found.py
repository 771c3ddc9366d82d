"""A title is a folder: the shipped titles are found by the catalog, and everything that checks
every title (the properties of what is legal and of Tab, the fuzz, the board page, the random
games, help and info) takes them from it, with no list of its own, so 1889 and 18Chesapeake, and
the next title, are checked as soon as their folder and example game are there."""

import sys
from pathlib import Path

from transcripts import complete_games, shipped_titles

from ledger import catalog
from ledger.interface.helptext import overview
from ledger.interface.info import info_text

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))


def folders() -> set[str]:
    return {p.name for p in (ROOT / "rulesets").iterdir() if (p / "ruleset.toml").is_file()}


def test_every_folder_of_rulesets_is_a_shipped_title_with_a_complete_example_game():
    assert set(shipped_titles()) == folders() >= {"1830", "1843", "1839", "1801", "1889", "18chesapeake"}
    assert set(complete_games()) >= folders()


def test_the_loops_over_titles_take_the_catalogs_titles():
    import fuzz
    import offers
    sys.path[:0] = [str(ROOT / "tests" / "properties"), str(ROOT / "tests" / "board")]
    from board_page import EXAMPLES as BOARD
    import test_completion_property
    import test_legal_property
    every = set(shipped_titles())
    assert set(test_legal_property.TITLES) == every
    assert {t for t, _n in test_legal_property.RANDOM} == every
    assert set(test_completion_property.TITLES) == every
    assert set(offers.GAMES) == every
    assert set(fuzz.titles()) == every
    assert set(BOARD) >= every


def test_help_and_info_know_every_title():
    for title in shipped_titles():
        rs = catalog.title_ruleset(title)
        assert info_text(rs, width=100).startswith(f"{rs.name} ({title})")
        assert overview(title).startswith(f"{title}: the commands of this game")
    outside = overview(None)   # outside a game: each title that adds verbs says which
    assert "1801 adds:" in outside and "1839 adds:" in outside and "1843 adds:" in outside
