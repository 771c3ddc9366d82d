"""What a correction says it did (undo, redo, restore, insert, amend), and how the command it
records is read: the same in the terminal (ledger.interface.cli) and on the banker's page
(ledger.interface.board.table). The session decides the corrections; this module only reads and
words them."""

from __future__ import annotations

import shlex

from ledger.core import grammar
from ledger.core.command import Command
from ledger.core.errors import CommandError


def span(ids: list[int]) -> str:
    return f"{ids[0]}" if len(ids) == 1 else f"{ids[0]}-{ids[-1]}"


def undone_to(rows: list[dict], to) -> list[str]:
    """`undo --to N`: the commands hidden, and how to bring them back."""
    return [f"undone: {len(rows)} command(s) after command {to}, from {rows[0]['id']} ({rows[0]['text']}) "
            f"to {rows[-1]['id']} ({rows[-1]['text']}); redo brings them back, and bank restore "
            f"{rows[0]['id']} at any time"]


def undone(row: dict) -> list[str]:
    """`undo`: the command hidden (an insert's commands in play again as they were recorded)."""
    lines = [f"undone: {row['text']}"]
    if row["restored"]:
        lines.append(f"  the {len(row['hidden'])} command(s) it recorded are hidden; commands "
                     f"{span(row['restored'])} are in play again as they were recorded")
    return lines


def redone(row: dict) -> list[str]:
    if len(row["restored"]) == 1 and not row["superseded"]:
        return [f"redone: {row['text']}"]
    return [f"redone: {len(row['restored'])} command(s), {span(row['restored'])}"
            + (f" (commands {span(row['superseded'])} superseded again)" if row["superseded"] else "")]


def restored(done) -> str:
    olds = [old for old, _new in done.renumbered]
    news = [new for _old, new in done.renumbered]
    return f"restored {len(olds)} hidden command(s), {span(olds)}, as commands {span(news)}"


def inserted(done, number: int, text: str) -> str:
    return f"inserted as command {done.command_id}, before command {number}: {text}"


def amended(done, target: int, old_text: str, text: str) -> str:
    return f"amended command {target} ({old_text}): now command {done.command_id}: {text}"


def correction_line(words: list[str], verb: str, example: str, rs) -> tuple[str, Command]:
    """The command a correction records, as typed (one quoted argument, or the words) and parsed
    with the game's verbs."""
    text = (words[0] if len(words) == 1 else shlex.join(words)).removeprefix("bank ")
    verbs = grammar.verbs_of(rs)
    cmd = grammar.parse_line(text, verbs)
    if not verbs[cmd.verb].game:
        what = "inserted" if verb == "insert" else "the correction of a command"
        raise CommandError(f"only a game command can be {what}, not '{cmd.verb}'", f"e.g. {example}")
    return text, cmd
