"""`bank import`: a log file in, a stored game and an audit report out."""

from __future__ import annotations

from pathlib import Path

from ..session import Session
from .translate import Importer, Translation


def import_log(text: str, game: Path) -> Translation:
    for suffix in ("", "-wal", "-shm"):
        Path(str(game) + suffix).unlink(missing_ok=True)

    def factory(seating, options, new_text):
        return Session.new(game, "1830", seating, options, text=new_text)

    importer = Importer(factory, text)
    try:
        return importer.run()
    finally:
        importer.session.close()


def transcript(result: Translation) -> str:
    lines = ["# imported from an 18xx.games log: (log line) command"]
    for lineno, text in result.commands:
        lines.append(f"{text}  # log {lineno}" if lineno else text)
    return "\n".join(lines) + "\n"
