"""`bank import`: a log file in, a stored game and an audit report out."""

from __future__ import annotations

from pathlib import Path

from ledger.books.session import Session
from ledger.core.errors import CommandError

from .logparse import LogParseError
from .translate import Importer, Translation


def import_log(text: str, game: Path, replace: bool = True) -> Translation:
    if replace:
        for suffix in ("", "-wal", "-shm"):
            Path(str(game) + suffix).unlink(missing_ok=True)

    def factory(seating, options, new_text):
        return Session.new(game, "1830", seating, options, text=new_text)

    try:
        importer = Importer(factory, text)
    except LogParseError as exc:
        raise CommandError(f"line {exc.lineno}: cannot read {exc.line!r}: {exc.reason}") from exc
    try:
        return importer.run()
    finally:
        importer.session.close()


def transcript(result: Translation) -> str:
    lines = ["# imported from an 18xx.games log: (log line) command"]
    for lineno, text in result.commands:
        lines.append(f"{text}  # log {lineno}" if lineno else text)
    return "\n".join(lines) + "\n"


def report(result: Translation) -> list[str]:
    lines = [f"{len(result.commands)} commands from a {len(result.seating)}-player game "
             f"({', '.join(result.seating)})"]
    if result.differences:
        lines.append(f"{len(result.differences)} difference(s) between the log and our engine:")
        lines += [f"  {d}" for d in result.differences]
    else:
        lines.append("audit: every figure in the log matches our engine")
    return lines
