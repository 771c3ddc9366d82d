"""The recorded 18xx.games 1830 games the tests read (tests/data/18xxgames): their ids, logs and
the final figures the site computed."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

# The recorded 18xx.games games travel with the tests (tests/data/README.md), so they run everywhere.
GAMES_DIR = Path(__file__).resolve().parent / "data" / "18xxgames"
# Named, not globbed: a missing folder must fail every game's tests, not leave nothing to run.
GAME_IDS = ("179003", "179051", "179090", "179263", "179358", "210011", "26855", "29133",
            "hs_inzqxyla_1708318031")


def game_file(game: str, suffix: str) -> Path:
    """A recorded game's file; its absence fails the test (never skips) and says where to look."""
    path = GAMES_DIR / f"{game}{suffix}"
    if not path.is_file():
        pytest.fail(f"missing test data {path}: the recorded 18xx.games games belong in "
                    f"tests/data/18xxgames/ (see tests/data/README.md)")
    return path


def log_text(game: str) -> str:
    return game_file(game, ".log.txt").read_text(encoding="utf-8")


@cache
def expected(game: str) -> dict:
    return json.loads(game_file(game, ".expected.json").read_text(encoding="utf-8"))
