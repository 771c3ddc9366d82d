"""Reading what scenario and golden tests are written in: a transcript's commands, and the tables of
a hand-worked figures file (markdown, each table under a heading)."""

from __future__ import annotations

from pathlib import Path


def lines_of(script: str) -> list[str]:
    """The commands of a transcript: comments (# ...) and blank lines dropped."""
    out = []
    for raw in script.splitlines():
        text = raw.split("#", 1)[0].strip()
        if text:
            out.append(text)
    return out


def markdown_tables(path: Path) -> dict[str, list[dict[str, str]]]:
    """Every markdown table of a hand-worked file, keyed by the heading just above it."""
    assert path.is_file(), f"the hand-worked figures are missing: {path}"
    found: dict[str, list[dict[str, str]]] = {}
    heading, rows = None, []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if rows:
            header, body = rows[0], [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]
            found[heading] = [dict(zip(header, r)) for r in body]
            rows = []
    return found
