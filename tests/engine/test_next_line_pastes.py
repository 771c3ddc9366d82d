"""Issue 35: the Next line names the one who acts now, and every command it prints pastes into bash
as printed and is accepted (ledger.core.legal.turn).

The line is its heading, then pieces joined by ' · ': each piece a whole command (the actor in it,
an amount at a legal value, a symbol as it pastes: B&O as BnO), its figures and alternatives in
words after it in parentheses. Every piece of the line at positions of each title's complete example
game (every title the catalog ships, transcripts.shipped_titles) is read back as a shell reads it and
decided by the engine (no CLI, no SQLite)."""

from __future__ import annotations

import math
import shlex
from pathlib import Path

import pytest
from next_line import commands_printed
from transcripts import complete_game, lines_of, positions, shipped_titles

from ledger import catalog
from ledger.core import engine, grammar, legal
from ledger.core.errors import BankError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
POSITIONS = 220   # about as many positions of each game, every k-th command (k = its commands / 220)


def every_of(name: str) -> int:
    """k: every k-th command of the example game `name` gives about POSITIONS positions."""
    return math.ceil(len(lines_of((EXAMPLES / f"{name}.txt").read_text(encoding="utf-8"))) / POSITIONS)


def refusal(s, rs, line: str) -> str | None:
    """None when the engine accepts the line as a shell hands it over, else why not."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        return f"does not paste into bash: {exc}"
    if words[0] not in grammar.verbs_of(rs):
        return f"not a command: {words[0]!r}"
    try:
        engine.decide(s, rs, catalog.parse_line(line))
    except BankError as exc:
        return exc.line()
    return None


@pytest.mark.parametrize("title", shipped_titles())
def test_every_command_on_the_next_line_is_accepted_as_printed(title):
    checked, refused = 0, []
    name = complete_game(title)
    for s, rs, _typed in positions(name, every_of(name)):
        turn = legal.turn(s, rs)
        printed = commands_printed(turn, rs)
        assert list(turn.commands) == printed, (turn.line, turn.commands)
        for line in printed:
            checked += 1
            why = refusal(s, rs, line)
            if why:
                refused.append(f"{line}: {why} (on: {turn.line})")
    assert checked > 50
    assert not refused, f"{len(refused)} of {checked} refused: {refused[:5]}"


def test_the_auction_line_is_commands():
    from conftest import Table
    g = Table(title="1830", players=["Alice", "Bob", "Carol", "Dave"])
    turn = legal.turn(g.state, g.rs)
    assert turn.line == ("Auction: Alice to act: buy Alice SV (for 20) · bid Alice CS 45 (or more; DH from 75, "
                         "MH 115, CA 165, BO 225) · pass Alice")
    assert turn.commands == ("buy Alice SV", "bid Alice CS 45", "pass Alice")
