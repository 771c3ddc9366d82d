"""The terminal dashboard fits the screen (issue 13.3): `status` and `market` fit 80 columns for every
title at every point of a game (wider only when the terminal is), `status` shows the train roster,
and an operating round prints a summary after each company's turn and at its end."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_driver import Bank
from game_files import in_memory, played_file
from random_play import RandomGame
from transcripts import lines_of

from ledger import catalog
from ledger.core.rules import trains
from ledger.interface import views

ROOT = Path(__file__).resolve().parents[2]
TITLES = Path(__file__).resolve().parents[1] / "titles"



@pytest.fixture
def tmp_path():
    """The summary test types 160 commands, each a durable commit: its file lives on the memory
    filesystem (game_files.in_memory), where a commit does not wait for a busy disk."""
    yield from in_memory()


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def game_lines(path: Path) -> list[str]:
    """The transcript's commands after its `new` line."""
    return [line for line in lines_of(path.read_text()) if not line.startswith("new ")]


@pytest.mark.parametrize("example, title, players", [
    ("1830-full-game.txt", "1830", ["Player 1", "Player 2", "Player 3", "Player 4"]),
    ("1843-game.txt", "1843", None),
    ("1839-opening.txt", "1839", None),
])
def test_status_and_market_fit_80_columns_through_a_whole_game(example, title, players):
    """Every command of the example games, the board after each: never wider than 80 columns."""
    from conftest import Table
    path = ROOT / "examples" / example
    first = next(line for line in path.read_text().splitlines() if line.startswith("new "))
    names = players or catalog.parse_line(first).args["players"]
    g = Table(title=title, players=names)
    for line in game_lines(path):
        g.do(line)
        assert widest(views.status_text(g.state, g.rs, 80)) <= 80, line
        assert widest(views.market_text(g.state, g.rs, 80)) <= 80, line


@pytest.fixture
def proof_titles(monkeypatch):
    monkeypatch.setenv("BANK_TITLES", str(TITLES))
    catalog.forget()
    yield
    monkeypatch.delenv("BANK_TITLES")
    catalog.forget()


@pytest.mark.parametrize("title, players", [("1830", 6), ("1843", 6), ("P39", 4), ("P01", 4)])
def test_random_games_with_many_players_fit_80_columns(proof_titles, title, players):
    """Six players with long names and many holdings (a random game) still fit."""
    names = ["Alexandra", "Bartholomew", "Cornelius", "Dorothea", "Evangeline", "Fitzgerald"][:players]
    game = RandomGame(title, names, seed=7)
    for step in range(400):
        if not game.step():
            break
        if step % 20 == 0:
            assert widest(views.status_text(game.state, game.rs, 80)) <= 80, game.lines[-1]
            assert widest(views.market_text(game.state, game.rs, 80)) <= 80, game.lines[-1]
    assert widest(views.status_text(game.state, game.rs, 80)) <= 80


def test_a_wider_terminal_gets_a_wider_board(monkeypatch):
    bank = Bank(played_file("1830-opening.txt"))  # played once through the CLI; only read here
    monkeypatch.setenv("COLUMNS", "80")
    narrow = bank("status").stdout
    monkeypatch.setenv("COLUMNS", "160")
    wide = bank("status").stdout
    assert widest(narrow) <= 80 < widest(wide) <= 160
    # the same figures either way
    for name in ("Alice", "Bob", "Carol", "Dave"):
        assert name in narrow and name in wide


def test_status_shows_the_train_roster():
    bank = Bank(played_file("1830-opening.txt"))  # played once through the CLI; only read here
    out = bank("status").stdout
    state = bank.status()
    roster = " ".join(out.split("Trains:", 1)[1].split("Next:")[0].split())
    for t in state["train_roster"]:
        left = "unlimited" if t["left"] is None else f"{t['left']} left"
        assert f"{t['type']} ${t['sides'][0]['price']} ({left}" in roster
    # 1830 SEED: the first 4 train starts phase 4 and rusts the 2s
    assert "The first 3 starts phase 3" in roster or "The first 4 starts phase 4 (limit 3, rusting 2)" in roster


def test_an_operating_round_prints_its_summary(tmp_path):
    """The full example: each `done` that ends a company's turn prints that turn in one line, and the
    one that ends an OR a table of every company's run, payout per share and price move."""
    bank = Bank(tmp_path / "g.db")
    lines = game_lines(ROOT / "examples" / "1830-full-game.txt")
    bank("new", "1830", "Player 1", "Player 2", "Player 3", "Player 4")
    outputs = [bank.line(line).stdout for line in lines[:160]]
    done = [i for i, line in enumerate(lines[:160]) if line.startswith("done ")]
    assert done and all("'s turn:" in outputs[i] for i in done), "a company's turn ended without its summary"
    end = next(i for i, o in enumerate(outputs) if " summary\n" in o)
    start = max(i for i in range(end + 1) if "-- Operating Round" in outputs[i])
    table = outputs[end].split(" summary\n", 1)[1].split("Next:")[0]
    runs = [line.split() for line in lines[start:end + 1] if line.startswith(("pay ", "withhold "))]
    assert runs
    for verb, corp, revenue in (r[:3] for r in runs):
        row = next((r for r in table.splitlines() if r.split()[:1] == [corp.strip("'")]), None)
        assert row is not None, (corp, table)
        assert f"${revenue}" in row
        assert ("withheld" in row) == (verb == "withhold")


def test_next_phase_names_what_it_rusts():
    from conftest import Table
    g = Table(title="1830", players=["A", "B", "C", "D"])
    nxt = trains.next_phase(g.state, g.rs)
    # 1830 phase 2 -> the first 3 train starts phase 3 and rusts nothing (the 2s rust on the first 4)
    assert nxt == {"name": "3", "on_train": "3", "train_limit": 4, "rusts": []}
