"""How many random examples the property, random-game and fuzz tests try: a few in every run of the
suite, the many they tried before on demand.

    BANK_LONG_TESTS=1 python -m pytest tests/properties     # the long runs (minutes)

`runs(suite, long)` is the count to use. The long runs of the same checks over more titles, seeds
and steps are the scripts in bench/ (legal.py, fuzz.py, race.py); this switch keeps the tests' own
counts at hand too, so nothing a test once tried is out of reach.
"""

from __future__ import annotations

import os

LONG = os.environ.get("BANK_LONG_TESTS", "") not in ("", "0")


def runs(suite: int, long: int) -> int:
    return long if LONG else suite
