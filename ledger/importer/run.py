"""`bank import`: a log file in, a stored game and an audit report out."""

from __future__ import annotations

import os
from pathlib import Path

from ledger.books.session import Session, unlink_quietly
from ledger.books.store import publish, sweep_scratch
from ledger.catalog import parse_line
from ledger.core.errors import CommandError

from .logparse import LogParseError, title_of_log
from .record import RecordImport, RecordTranslation
from .translate import Importer, Translation



def import_log(text: str, game: Path, replace: bool = True, keep: Path | None = None,
               title: str | None = None) -> Translation:
    """Import a log into `game`. The game is built in a new file beside it and moves into place only
    once the import has run: a log that cannot be read leaves `game` as it was. An existing game
    file there is replaced (`replace`), kept as `keep` when that is given."""
    game = Path(game)
    title = title or title_of_log(text)  # the title the log's lines name, unless one is given
    tmp = game.with_name(f".bank-import-{os.getpid()}.db")
    sweep_scratch(tmp.parent)
    unlink_quietly(tmp)

    def factory(seating, options, new_text):
        return Session.new(tmp, title, seating, options, text=new_text)

    try:
        try:
            importer = Importer(factory, text, title)
        except LogParseError as exc:
            raise CommandError(f"line {exc.lineno}: cannot read {exc.line!r}: {exc.reason}") from exc
        try:
            result = importer.run()
        finally:
            importer.session.close()
        if game.exists() or game.is_symlink():
            if not replace:
                raise CommandError(f"{game} already holds a game", "choose another file with --game, or --replace")
            set_aside(game, keep)
        publish(tmp, game)
        return result
    finally:
        unlink_quietly(tmp)


def import_record(record: dict, game: Path, replace: bool = True, keep: Path | None = None) -> RecordTranslation:
    """Import an 18xx.games JSON record into `game`: read and audited in memory first (a record the
    engine cannot follow stores nothing), then stored command by command in a new file beside `game`,
    which moves into place once complete (as import_log)."""
    game = Path(game)
    result = RecordImport(record).run()
    tmp = game.with_name(f".bank-import-{os.getpid()}.db")
    sweep_scratch(tmp.parent)
    unlink_quietly(tmp)
    try:
        session = Session.new(tmp, result.title, result.seating, result.options, text=result.commands[0][1])
        try:
            for _aid, text in result.commands[1:]:
                session.execute(parse_line(text), text)
        finally:
            session.close()
        if game.exists() or game.is_symlink():
            if not replace:
                raise CommandError(f"{game} already holds a game", "choose another file with --game, or --replace")
            set_aside(game, keep)
        publish(tmp, game)
        return result
    finally:
        unlink_quietly(tmp)


def set_aside(game: Path, keep: Path | None) -> None:
    """Move a game file (and a journal SQLite would need to finish its last write) out of the way:
    to `keep`, or gone."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        old = Path(str(game) + suffix)
        if not old.exists():
            continue
        if keep is not None:
            os.replace(old, Path(str(keep) + suffix))
        else:
            old.unlink()


def free_backup_name(game: Path) -> Path:
    """`game.bak`, or `game.bak-2` ... : a name no file has."""
    n = 1
    while True:
        candidate = Path(f"{game}.bak" + (f"-{n}" if n > 1 else ""))
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
        n += 1


def transcript(result: Translation | RecordTranslation) -> str:
    if isinstance(result, RecordTranslation):
        lines = ["# imported from an 18xx.games JSON record: command  # (action id)"]
        for aid, text in result.commands:
            lines.append(f"{text}  # action {aid}" if aid else text)
        return "\n".join(lines) + "\n"
    lines = ["# imported from an 18xx.games log: (log line) command"]
    for lineno, text in result.commands:
        lines.append(f"{text}  # log {lineno}" if lineno else text)
    return "\n".join(lines) + "\n"


def report(result: Translation | RecordTranslation) -> list[str]:
    """What an import found: its commands and seating, then each difference from what the log or
    the record states, or that every figure matched."""
    record = isinstance(result, RecordTranslation)
    of = f" of {result.title}" if record else ""
    source = "record" if record else "log"
    lines = [f"{len(result.commands)} commands from a {len(result.seating)}-player game{of} "
             f"({', '.join(result.seating)})"]
    if result.differences:
        lines.append(f"{len(result.differences)} difference(s) between the {source} and our engine"
                     + (", the first:" if record else ":"))
        lines += [f"  {d}" for d in result.differences]
    elif record:
        lines.append("audit: every figure in the record matches our engine, and every player's net worth its result")
    else:
        lines.append("audit: every figure in the log matches our engine")
    return lines
