"""A word in the actor's place that names something else (a private where a company is read) is
refused in the rule's own words, one line, whatever the round's bars would say of a company:
found by bench/fuzz.py (`withhold TB Zed` in 1843's OR, before the company ran, was an internal
error: the bars were asked of no company)."""

from __future__ import annotations

from pathlib import Path

from conftest import Table
from transcripts import lines_of

ROOT = Path(__file__).resolve().parents[2]


def test_a_private_in_the_companys_place_is_refused_as_no_company():
    t = Table()
    for line in lines_of((ROOT / "examples" / "1843-game.txt").read_text()):
        t.line(line)
        if t.state.round.get("kind") == "operating" and t.state.round.get("corp") and \
                t.state.round.get("revenue") is None:
            break
    assert t.state.round.get("kind") == "operating", "the example reaches an operating round"
    for verb in ("withhold", "pay"):
        line = t.refused(f"{verb} TB 10", "company 'TB'")
        assert "\n" not in line and "None" not in line
