"""`bank play` and `bank demo` say how far they got (issue 35: a long transcript was silent for
seconds and `play` printed nothing): a line for each round as it ends, with the commands it took;
`play` ends with the commands played, the round the game is in and the Next line; a refused line
stops it with what was played before it (the error itself on stderr, as before)."""

from __future__ import annotations

import re
from pathlib import Path

from cli_driver import Bank
from transcripts import lines_of

from ledger.interface.cli import Progress

OPENING = Path(__file__).resolve().parents[2] / "examples" / "1830-opening.txt"
ROUND_LINE = re.compile(r"^(?P<round>.+) · (?P<n>\d+) commands?$")


def round_lines(stdout: str) -> list[tuple[str, int]]:
    return [(m["round"], int(m["n"])) for m in map(ROUND_LINE.match, stdout.splitlines()) if m]


def test_play_says_each_round_then_where_the_game_is_and_who_is_next(fast_path, monkeypatch):
    b = Bank(fast_path / "g.db", monkeypatch)
    out = b("play", str(OPENING)).stdout
    commands = len(lines_of(OPENING.read_text()))
    rounds = round_lines(out)
    assert [r for r, _ in rounds] == ["Auction", "SR 1", "OR 1.1", "SR 2"], out
    assert sum(n for _, n in rounds) == commands - 1   # every command but 'new', in its round
    assert all(n > 0 for _, n in rounds)
    tail = " ".join(out.split("Played ", 1)[1].split())   # the summary, however it was wrapped
    # then the record's fingerprint (ledger.books.chain) and the Next line
    assert re.match(rf"{commands} commands from {re.escape(str(OPENING))}; the game is in OR 2\.1 "
                    rf"record [0-9a-f]{{4}}·[0-9a-f]{{4}} \(after command {commands}\) Next: OR 2\.1: NYC", tail), out
    assert b.status()["round"] == "OR 2.1"
    # what it says of the game is what the game says: the Next line is status's
    assert out.rstrip().split("Next: ", 1)[1].split()[:4] == ["OR", "2.1:", "NYC", "(Carol)"]


def test_play_continuing_a_game_counts_only_its_own_commands(fast_path, monkeypatch):
    monkeypatch.chdir(fast_path)
    b = Bank("g.db", monkeypatch)
    b("new", "1830", "Alice", "Bob", "Carol", "Dave")
    Path("two.txt").write_text("# two bids\nbid Alice CS 45\n\nbid Bob CS 50\n")
    out = b("play", "two.txt").stdout
    assert round_lines(out) == []      # the auction goes on: no round is over
    assert out.startswith("Played 2 commands from two.txt; the game is in Auction\n"), out
    assert "Next: Auction: Carol" in " ".join(out.split())


def test_a_refused_line_stops_play_with_what_was_played(fast_path, monkeypatch):
    script = fast_path / "t.txt"
    script.write_text("new 1830 Alice Bob Carol Dave\nbid Alice CS 45\n# comment\nbid Bob CS 47\nbuy Bob SV\n")
    b = Bank(fast_path / "g.db", monkeypatch)
    result = b("play", str(script), ok=False)
    assert " ".join(result.stdout.split()) == "Played 2 commands, then stopped at line 4 in Auction"
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and ":4:" in errors[0]


def test_play_show_prints_each_result_and_the_rounds(fast_path, monkeypatch):
    b = Bank(fast_path / "g.db", monkeypatch)
    out = b("play", str(OPENING), "--show").stdout
    assert "Alice bids $45 on CS" in out
    assert [r for r, _ in round_lines(out)] == ["Auction", "SR 1", "OR 1.1", "SR 2"]
    assert out.index("Auction · ") < out.index("Alice pars NYC at $76") < out.index("SR 1 · ")


def test_demo_says_each_round_as_it_plays(fast_path, monkeypatch):
    monkeypatch.chdir(fast_path)
    out = Bank("demo.db", monkeypatch)("demo", "1830-opening").stdout
    lines = out.splitlines()
    assert lines[0] == "Playing 1830-opening into demo.db: a line for each round", out
    assert lines[1:5] == ["Auction · 16 commands", "SR 1 · 25 commands", "OR 1.1 · 18 commands",
                          "SR 2 · 13 commands"], out
    assert lines[5] == "Played 1830-opening into demo.db"
    assert "Scores if the game ended now" in out and "Next: OR 2.1" in out


def test_progress_is_silent_when_quiet(capsys):
    p = Progress(show=False)
    p.played(None, "Auction")
    p.played("Auction", "SR 1")
    p.stopped(3)
    assert capsys.readouterr().out == ""
    loud = Progress()
    loud.played(None, "Auction")
    loud.played("Auction", "Auction")
    loud.played("Auction", "SR 1")
    assert capsys.readouterr().out == "Auction · 2 commands\n"
