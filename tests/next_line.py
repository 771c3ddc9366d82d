"""Reading the Next line (ledger.core.legal.turn) as a player pastes it: the commands it prints, each
piece after the heading up to its words in parentheses (tests/engine: the Next-line and refusal tests)."""

from __future__ import annotations

from ledger.core import legal
from ledger.core.names import pasteable


def split_outside_quotes(text: str, sep: str) -> list[str]:
    out, part, quote, i = [], "", None, 0
    while i < len(text):
        ch = text[i]
        if quote is None and text.startswith(sep, i):
            out.append(part)
            part, i = "", i + len(sep)
            continue
        if ch in "'\"" and (quote is None or quote == ch) and (quote or not part or part[-1] == " "):
            quote = None if quote else ch
        part += ch
        i += 1
    return out + [part]


def commands_printed(turn, rs) -> list[str]:
    """Every command the Next line prints: each piece after the heading up to its words in
    parentheses."""
    heading = pasteable(turn.heading, rs, amounts=True)
    assert turn.line.startswith(heading), (turn.line, heading)
    rest = turn.line[len(heading):]
    if not rest:
        return []
    assert rest.startswith(": "), turn.line
    out = []
    for piece in split_outside_quotes(rest[2:], legal.SEP):
        words = split_outside_quotes(piece, " (")
        command = words[0]
        if len(words) > 1:
            tail = piece[len(command):]
            assert tail.startswith(" (") and tail.endswith(")"), f"words after a command in parentheses: {piece!r}"
        out.append(command)
    return out
