"""The long version of 1843's property and random-play tests (tests/1843/test_1843_properties.py).

The suite runs each random run with few examples (the same checks after every command); this runs
them with the example counts they had before the suite was shortened (25 random sequences, 6 longer
seeded ones, 4 with Val de Loire's powers, 8 whole games) and the search for each end of the rules
over seeds 0-29 in order (about 35 s single-process on the 2-core machine, under load).

    python bench/properties_1843.py [pytest options]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    env = {**os.environ, "BANK_LONG_PROPERTIES": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
               str(ROOT / "tests" / "1843" / "test_1843_properties.py"), "--durations=10", *sys.argv[1:]]
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
