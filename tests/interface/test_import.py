"""Importing the recorded 18xx.games 1830 games (tests/data/18xxgames/): every game imports without a single
difference between the log's figures and our engine, ends the way 18xx.games says, with every
player's cash and net worth equal to 18xx.games' own computation (expected.json); the transcript the
import writes replays through `bank play` to the same scores; and the audit catches a tampered log.
The wording of other versions of the site (trains "from The Discard", share prices that "change",
rounds without "(of N)", ...) imports to the same figures as the recorded wording.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import Table
from game_files import in_memory, memory_folder

# One list of the recorded games and one way to read them (failing, never skipping, without them).
from recorded_games import GAME_IDS as GAMES
from recorded_games import expected, log_text
from typer.testing import CliRunner

from ledger import catalog
from ledger.books.session import Session
from ledger.core.errors import BankError
from ledger.importer.run import import_log, transcript
from ledger.interface.cli import app

PLAYED_THROUGH_THE_CLI = "hs_inzqxyla_1708318031"  # the game of tests/proofs/test_golden.py
END_REASONS = {
    "BankBroke": "bank broken", "bank": "bank broken",
    "PlayerGoesBankrupt": "bankruptcy", "bankrupt": "bankruptcy",
    "GameEndedManually": "ended by the players",
}


@pytest.fixture
def tmp_path():
    """This module's tests write whole games: their files live on the memory filesystem
    (game_files.in_memory), where a durable commit does not wait for a busy disk."""
    yield from in_memory()


def bank(db: Path, *args: str):
    return CliRunner().invoke(app, ["--game", str(db), *args])


def score(db: Path) -> dict:
    result = bank(db, "score", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.fixture(scope="module")
def imported():
    """game id -> (Translation, path of the imported game file), each game imported once."""
    cache = {}

    def get(game: str):
        if game not in cache:
            db = memory_folder(re.sub(r"\W", "_", game)) / "g.db"
            cache[game] = (import_log(log_text(game), db), db)
        return cache[game]

    return get


@pytest.mark.parametrize("game", GAMES)
def test_import_has_no_differences(game, imported):
    result, _db = imported(game)
    assert [str(d) for d in result.differences] == []
    assert len(result.commands) > 100
    assert result.seating == expected(game)["seating"]


def test_an_imported_game_plays_the_sites_reading_of_the_presidents_help(imported):
    """18xx.games lets a trainless company's president help toward another company's train even
    when the company could pay for the cheapest (digest 1830 §10.3): its recorded games were played
    so, and an imported game is begun with that option whatever its log lists."""
    result, db = imported(GAMES[0])
    assert result.options["site_emergency_help"] is True
    assert "--option site_emergency_help=yes" in result.commands[0][1]
    session = Session.open(db)
    try:
        assert session.rs.k("operating", "emergency_help_only_when_short") is False
    finally:
        session.close()
    assert catalog.load("1830").k("operating", "emergency_help_only_when_short") is True   # a new game


@pytest.mark.parametrize("game", GAMES)
def test_import_ends_the_way_18xx_games_did(game, imported):
    _result, db = imported(game)
    final = score(db)
    assert final["game_over"] is True
    assert final["end_reason"] == END_REASONS[expected(game)["end"]]


@pytest.mark.parametrize("game", GAMES)
def test_import_final_cash_and_value_match_18xx_games(game, imported):
    result, db = imported(game)
    final = {p["name"]: p for p in score(db)["players"]}
    want = expected(game)["players"]
    assert sorted(final) == sorted(p["name"] for p in want)
    for p in want:
        if p["cash"] is not None:
            assert final[p["name"]]["cash"] == p["cash"], p["name"]
        assert final[p["name"]]["value"] == p["value"], p["name"]
    assert result.final_values == {p["name"]: p["value"] for p in want}


@pytest.mark.parametrize("game", GAMES)
def test_import_transcript_replays_to_the_same_scores(game, imported, tmp_path):
    """The transcript replays to the imported game's `score --json`: through `bank play` (the CLI
    and a new game file) for one game, on the engine Table (the same grammar, rules and view) for
    the others, whose point is the transcript's figures, not the CLI's."""
    result, db = imported(game)
    if game != PLAYED_THROUGH_THE_CLI:
        assert Table(transcript(result)).scores() == score(db)
        return
    script = tmp_path / "transcript.txt"
    script.write_text(transcript(result))
    replayed = tmp_path / "replayed.db"
    run = bank(replayed, "play", str(script))
    assert run.exit_code == 0, run.output
    assert score(replayed) == score(db)


def tamper_first_payout(text: str) -> tuple[str, int]:
    """Add $1 to the first payee of the first 'pays out' line; returns the text and that line's number."""
    lines = text.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if " pays out " in line)
    m = re.search(r"\(\$(\d+) to ", lines[index])
    assert m, lines[index]
    lines[index] = lines[index][: m.start(1)] + str(int(m.group(1)) + 1) + lines[index][m.end(1):]
    return "".join(lines), index + 1


@pytest.mark.parametrize("game", GAMES)
def test_audit_catches_a_tampered_payout(game, tmp_path):
    text, lineno = tamper_first_payout(log_text(game))
    result = import_log(text, tmp_path / "g.db")
    assert result.differences, "a wrong payout went unnoticed"
    assert [d.lineno for d in result.differences] == [lineno]
    assert f"line {lineno}" in str(result.differences[0])
    assert "payout" in str(result.differences[0])


def test_an_unreadable_line_fails_the_import_naming_it(tmp_path):
    game = GAMES[0]
    lines = log_text(game).splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if " pays out " in line)
    lines.insert(index, "Zorblax frobnicates the widget\n")
    with pytest.raises(BankError, match=rf"line {index + 1}\b.*Zorblax") as info:
        import_log("".join(lines), tmp_path / "g.db")
    assert f"line {index + 1}" in info.value.line()


def test_bank_import_exit_codes(tmp_path):
    game = "hs_inzqxyla_1708318031"
    clean = tmp_path / "clean.log"
    clean.write_text(log_text(game))
    ok = bank(tmp_path / "clean.db", "import", str(clean))
    assert ok.exit_code == 0, ok.output
    assert "audit: every figure in the log matches" in ok.output
    text, lineno = tamper_first_payout(log_text(game))
    tampered = tmp_path / "tampered.log"
    tampered.write_text(text)
    bad = bank(tmp_path / "tampered.db", "import", str(tampered))
    assert bad.exit_code != 0
    assert f"line {lineno}" in bad.output


# --- the other versions' wording ------------------------------------------------------------------
# Each rewrite puts a recorded game into the wording another version of the site uses for the same
# decision; the import must read it and reach the same figures, with no difference.


def twelve_hour_clock(m: re.Match) -> str:
    hour = int(m.group(1))
    return f"[{hour % 12 or 12}:{m.group(2)} {'AM' if hour < 12 else 'PM'}]"


OTHER_WORDINGS = {
    "share price changes with no direction": (
        r"'s share price moves \w+(?: \d+ steps?)? from (\$\d+) to (\$\d+)$",
        r"'s share price changes from \1 to \2"),
    "operating rounds without the set's length": (r" \(of \d+\) --$", " --"),
    "M&H exchanges naming no source": (
        r"( exchanges Mohawk & Hudson)(?: from the IPO)?( for a 10% share of NYC)(?: from the IPO)?$",
        r"\1\2"),
    "payouts without 'per share'": (r"( pays out \$\d+ = \$[\d.]+) per share", r"\1"),
    "D trade-ins naming the old train as a train": (r"( exchanges a \w+) for a D train", r"\1 train for a D train"),
    "bankruptcy in short": (r" goes bankrupt and sells remaining shares --$", " goes bankrupt --"),
    "the priority deal": (r" has priority deal$", " has the priority deal"),
    "private abilities by full name": (r"^(\S.*?) \(DH\) ", r"\1 (Delaware & Hudson) "),
    "bare auction passes": (r" passes bidding$", " passes"),
    "twelve-hour clock": (r"^\[(\d{2}):(\d{2})\]", twelve_hour_clock),
}


def reworded(name: str) -> tuple[str, str]:
    """The first recorded game the rewrite changes, and its text in that wording."""
    pattern, replacement = OTHER_WORDINGS[name]
    for game in GAMES:
        text = log_text(game)
        new = re.sub(pattern, replacement, text, flags=re.MULTILINE)
        if new != text:
            return game, new
    raise AssertionError(f"no recorded game has a line to put in the wording '{name}'")


@pytest.mark.parametrize("name", sorted(OTHER_WORDINGS))
def test_other_wording_imports_to_the_same_figures(name, imported, tmp_path):
    game, text = reworded(name)
    original, original_db = imported(game)
    result = import_log(text, tmp_path / "g.db")
    assert [str(d) for d in result.differences] == []
    assert result.seating == original.seating
    assert len(result.commands) == len(original.commands)
    assert result.final_values == original.final_values
    assert score(tmp_path / "g.db") == score(original_db)


# --- trains from The Discard ---------------------------------------------------------------------


def pool_purchase_log(buy: bool = True) -> str:
    """179003 up to ERIE's dividend in OR 7.1, when the pool holds the 3s that B&M and NYC have just
    discarded; then ERIE buys one of them in the recorded games' wording ("from The Depot").

    None of the nine games buys a train from the pool, so this purchase is added to a real game at a
    point where the rules allow it: ERIE has room and cash, and the depot sells only 5s."""
    lines = log_text("179003").splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines)
               if line.rstrip().endswith("ERIE's share price moves right from $90 to $100"))
    assert any("NYC discards 3" in line for line in lines[:cut]), "the cut is not after the discards"
    purchase = "[09:29] ERIE buys a 3 train for $180 from The Depot\n" if buy else ""
    return "".join(lines[: cut + 1]) + purchase


def in_discard_wording(text: str, pool_lines: list[int]) -> str:
    """Newer versions' wording of the given pool-train purchases: '... from The Discard'."""
    lines = text.splitlines(keepends=True)
    for n in pool_lines:
        lines[n - 1] = re.sub(r"( buys an? \w+ train for \$\d+ from )The Depot$", r"\1The Discard",
                              lines[n - 1])
    return "".join(lines)


def status(db: Path) -> dict:
    result = bank(db, "status", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def company(board: dict, sym: str) -> dict:
    return next(c for c in board["companies"] if c["sym"] == sym)


def test_trains_bought_from_the_discard_come_from_the_pool(tmp_path):
    original = pool_purchase_log()
    depot = import_log(original, tmp_path / "depot.db")
    pool_lines = [n for n, command in depot.commands if "--from pool" in command]
    assert len(pool_lines) == 1, depot.commands[-3:]
    rewritten = in_discard_wording(original, pool_lines)
    assert rewritten.count("from The Discard") == 1
    discard = import_log(rewritten, tmp_path / "discard.db")
    assert [str(d) for d in depot.differences] == []
    assert [str(d) for d in discard.differences] == []
    assert discard.commands == depot.commands
    assert status(tmp_path / "discard.db") == status(tmp_path / "depot.db")
    assert score(tmp_path / "discard.db") == score(tmp_path / "depot.db")


def test_a_train_from_the_discard_goes_to_the_buyer_at_face_value(tmp_path):
    log = pool_purchase_log()
    purchase_line = log.count("\n")  # the last line
    import_log(in_discard_wording(log, [purchase_line]), tmp_path / "bought.db")
    import_log(pool_purchase_log(buy=False), tmp_path / "before.db")
    before, bought = status(tmp_path / "before.db"), status(tmp_path / "bought.db")
    assert "3 at $180 (pool)" in before["trains_for_sale"]
    assert company(bought, "ERIE")["cash"] == company(before, "ERIE")["cash"] - 180
    assert sorted(company(bought, "ERIE")["trains"]) == sorted(company(before, "ERIE")["trains"] + ["3"])
    assert before["bank"] + 180 == bought["bank"]
