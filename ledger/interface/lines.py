"""One command line, as the CLI, a transcript and the shell all run it: text checked, the game
file option found wherever it was typed, the line run with the generated grammar, and any failure
turned into one line of text (the only place an error becomes text)."""

from __future__ import annotations

import os
import shlex
import sqlite3
from typing import Optional

import click
import typer

from ledger.core.errors import BankError, CommandError, one_line


def error_message(exc: BaseException, obj: dict | None) -> tuple[str, int]:
    """The one place an error becomes text: (one line, exit code)."""
    from ledger.books.store import db_error
    if isinstance(exc, (sqlite3.Error, OSError)) and not isinstance(exc, BankError):
        exc = db_error(exc, (obj or {}).get("game"))
    if isinstance(exc, UnicodeDecodeError):  # what the command line gives is checked as it arrives: the file's text
        exc = db_error(sqlite3.DatabaseError(f"it holds bytes that are not text ({exc.reason})"),
                       (obj or {}).get("game"))
    if isinstance(exc, BankError):
        return one_line(exc.line()), exc.exit_code
    if isinstance(exc, click.ClickException):
        return one_line(f"{exc.format_message()} (hint: {usage_help(exc)})"), exc.exit_code or 2
    if isinstance(exc, click.exceptions.Abort):
        return "aborted", 1
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted: nothing more was recorded", 130
    if isinstance(exc, MemoryError):
        return "out of memory: nothing was recorded", 70
    return one_line(f"internal error ({type(exc).__name__}: {exc}); nothing was recorded "
                    f"(hint: BANK_DEBUG=1 shows where)"), 70


def usage_help(exc: click.ClickException) -> str:
    """Where a malformed line's verb is explained: `bank help VERB` when the verb is known, else
    `bank help` (the game's verbs; `bank --help` lists the shared ones only)."""
    ctx = getattr(exc, "ctx", None)
    verb = ctx.info_name if ctx is not None and ctx.parent is not None else None
    return f"bank help {verb} shows its arguments" if verb else "bank help lists the commands"


def check_text(words: list[str]) -> None:
    """Arguments must be text: bytes that are not UTF-8 would be stored as garbage."""
    for i, word in enumerate(words, start=1):
        try:
            word.encode("utf-8")
        except UnicodeEncodeError:
            raise CommandError(f"argument {i} ({one_line(word)}) is not valid UTF-8 text") from None
        if "\x00" in word:
            raise CommandError(f"argument {i} ({one_line(word)}) holds a NUL character")


def hoist_game(args: list[str]) -> list[str]:
    """`--game FILE` may come before or after the verb: move it to the front, where click reads it."""
    front, rest, i = [], [], 0
    while i < len(args):
        word = args[i]
        if word == "--":
            rest += args[i:]
            break
        if word in ("--game", "-g") and i + 1 < len(args):
            front += [word, args[i + 1]]
            i += 2
            continue
        if word.startswith("--game="):
            front.append(word)
        else:
            rest.append(word)
        i += 1
    return front + rest


def run_text(group, text: str, obj: dict, where: str = "") -> int:
    """One line of a transcript or the shell, with the CLI's grammar; a failure is one stderr line
    (prefixed with `where`). Returns the exit code."""
    try:
        tokens = shlex.split(text)
        if tokens and tokens[0] == "bank":
            tokens = tokens[1:]
        check_text(tokens)
        group.invoke_line(tokens, obj=obj)
    except (click.exceptions.Exit, typer.Exit) as exc:
        return exc.exit_code
    except Exception as exc:
        if os.environ.get("BANK_DEBUG") and not isinstance(exc, BankError):
            raise
        if isinstance(exc, ValueError) and not isinstance(exc, BankError):
            exc = CommandError(f"cannot read the line: {exc}")  # shlex: an unclosed quote
        message, code = error_message(exc, obj)
        if obj.get("shell_hints"):   # in the shell a command is typed without `bank`
            message = message.replace("bank help", "help")
        typer.echo(f"error: {one_line(where)}{message}", err=True)
        return code
    return 0


def help_of(title: Optional[str], verb: Optional[str], prefix: str = "bank ") -> str:
    """`bank help` (the commands of the open game's title, or every title's) or one command's help."""
    from ledger import catalog
    from ledger.interface.helptext import overview, title_verbs, verb_help
    from ledger.interface.verbs import every_verb
    if verb is None:
        return overview(title, prefix)
    known = title_verbs(title) if title else every_verb()
    found = known.get(verb)
    if found is None:
        from ledger.interface.suggest import mistyped
        where = f" in {title}" if title and verb in every_verb() else ""
        raise mistyped(f"no command '{verb}'{where}", verb, sorted(known), "bank help lists them")
    return verb_help(found, prefix, catalog.title_ruleset(title) if title else None)
