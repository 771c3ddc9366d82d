"""1801 (18OE): minors and regionals in the Regional/Minor phase (§8.2; rulesets/1801/minors_regionals.py):
a player who can float a minor he owns may not pass, and is told what to do.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from positions_1801 import sr1


def test_a_player_who_must_float_a_minor_is_told_what_to_do():
    """§8.2: in SR 1 Cy owns Minor L and may float it: he may not pass; the refusal says what he must
    do and why, and the hint how."""
    t = sr1()
    said = t.refused("pass Cy", "Cy must float Minor L before passing",
                     "a player who can float a minor he owns may not pass (§8.2)")
    assert "hint: float Cy L ZONE" in said
