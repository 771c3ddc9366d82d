"""1839 through the real command line and SQLite, where the CLI and the store are what is tested:
undo and redo in a game file, `bank play` of a random game's lines and `bank audit` (the rules on
the engine: the other files of tests/1839)."""

from __future__ import annotations

import json

from cli_driver import Bank
from openings_1839 import BANK_TOTAL, EXAMPLE
from random_play import RandomGame


def played(tmp_path) -> Bank:
    """examples/1839-opening.txt played into a new game file (`bank play`: a command a line)."""
    b = Bank(tmp_path / "g.db")
    assert b("play", str(EXAMPLE)).exit_code == 0
    return b


def books_balance(b: Bank, s: dict) -> None:
    """Money is conserved (bank + players + companies = ƒ100,000), every company's certificates sum
    to 100 % (players + IPO + pool), and `bank audit` agrees."""
    total = s["bank"] + sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])
    assert total == BANK_TOTAL
    for c in s["companies"]:
        held = sum(p["shares"].get(c["sym"], 0) for p in s["players"])
        assert held + c["ipo"] + c["pool"] == 100, c["sym"]
    audit = b("audit")
    assert audit.exit_code == 0, audit.stdout + audit.stderr


def test_undo_and_redo_in_sqlite_give_back_the_same_game(tmp_path):
    b = played(tmp_path)
    end = b.status_text()
    first_sr = next(e["id"] for e in b.log() if e["text"].startswith("buy Ben NBDS"))
    b("undo", "--to", str(first_sr), "--yes")
    assert b.status()["round"] == "SR 1"
    b("redo")
    assert b.status_text() == end
    assert "audit: ledger, replay and rules agree" in b("audit").stdout


def replayed_through_the_cli(where, lines: int) -> None:
    """The lines of a random game, played into a game file with `bank play`, reach the same status,
    and `bank audit` finds the ledger, the replay and the rules in agreement."""
    from ledger.interface import views
    game = RandomGame("1839", ["Ann", "Ben", "Cy", "Dee"], 21)
    game.play(lines)
    script = where / "random.txt"
    script.write_text("new 1839 Ann Ben Cy Dee\n" + "\n".join(game.lines) + "\n")
    b = Bank(where / "random.db")
    assert b("play", str(script)).exit_code == 0
    s = b.status()
    assert s == json.loads(json.dumps(views.status_json(game.state, game.rs)))
    books_balance(b, s)


def test_a_random_game_replayed_through_the_command_line_keeps_the_books(tmp_path):
    """120 lines of a random game (300: bench/random_1839.py)."""
    replayed_through_the_cli(tmp_path, 120)
