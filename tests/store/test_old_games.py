"""Games recorded by older engines still open, audit clean, and go on being played: engine version 1
(before typed events and the title registry; tests/data/v1: the 1830 opening after an undo, and the
whole 1843 example game) and version 5 (tests/data/v5: 1801's packet auction, its events carrying
the round's fields in a bag)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_driver import Bank

from ledger import ENGINE_VERSION

V1 = Path(__file__).resolve().parents[1] / "data" / "v1"


def copy_of(name: str, tmp_path: Path, folder: Path = V1) -> Path:
    source = folder / name
    assert source.is_file(), f"missing test data {source} (see tests/data/README.md)"
    target = tmp_path / name
    shutil.copyfile(source, target)
    return target


def engine_version(db: Path) -> int:
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute("select engine_version from game").fetchone()[0]
    finally:
        conn.close()


def test_an_1830_game_of_version_1_opens_audits_and_plays_on(tmp_path):
    db = copy_of("1830-opening.v1.db", tmp_path)
    assert engine_version(db) == 1
    b = Bank(db)
    status = b.status()
    assert status["round"] == "SR 2" and status["turn"].startswith("SR 2: Dave's turn")
    b("audit")
    b("pass", "Dave")  # the last to pass: the stock round ends and OR 2.1 begins
    assert b.status()["round"] == "OR 2.1"
    b("count", "al", "28")  # a prefix, as ever
    b("audit")  # old and new commands side by side agree with the rules
    assert engine_version(db) == ENGINE_VERSION  # an older engine now refuses the file it cannot read


def test_an_1843_game_of_version_1_opens_with_its_stored_rules(tmp_path):
    """The stored 1843 ruleset names its module `powers` and keeps 1843's own knobs in the shared
    sections, as version 1 wrote them: it loads, replays to the recorded end and audits clean."""
    db = copy_of("1843-game.v1.db", tmp_path)
    b = Bank(db)
    status = b.status()
    assert status["game_over"] and "set 2 in which a company owned a gray train" in status["end_reason"]
    expected = json.loads((V1.parent / "1843-game.expected.json").read_text())["players"]
    scores = {p["name"]: p["value"] for p in b.score()["players"]}
    assert scores == {p["name"]: p["value"] for p in expected}
    b("audit")
    b("count", "Alice", "100")
    b("audit")


@pytest.mark.parametrize("name", ["1830-opening.v1.db", "1843-game.v1.db"])
def test_version_1_games_keep_their_log_lines(name, tmp_path):
    log = Bank(copy_of(name, tmp_path)).log()
    assert log and all(entry["lines"] is not None for entry in log)


def test_an_1801_packet_auction_of_version_5_opens_audits_and_plays_on(tmp_path):
    db = copy_of("1801-packet.v5.db", tmp_path, V1.parent / "v5")
    assert engine_version(db) == 5
    with sqlite3.connect(str(db)) as conn:   # what the test is about: the old bag is in the file
        bags = conn.execute("select count(*) from events where kind like 'packet%' and data like '%\"update\"%'")
        assert bags.fetchone()[0] > 50
    b = Bank(db)
    status = b.status()
    assert status["round"] == "SR 1" and status["turn"].startswith("SR 1: Cy must float Minor H")
    b("audit")   # the stored bags read as today's fields, and the rules decide each command alike
    said = b("amend", "2", "buy", "Ann", "RSC").stdout   # the same command again: no later result changes
    assert "(0 with results that changed)" in " ".join(said.split()), said
    b("float", "Cy", "H", "AH")   # the next line of the example opening
    b("audit")
    assert engine_version(db) == ENGINE_VERSION
