"""Text that fits the terminal: every view is at most the terminal's width (80 columns when it is
unknown). Prose wraps with a hanging indent; a table narrows its widest columns (their cells wrap
onto more lines) and, when even that is not enough, drops columns from the right rather than
overflow (issue 29)."""

from __future__ import annotations

import shutil
import textwrap

from tabulate import tabulate

# a column is never narrowed below this (a word of a cell, a money amount)
NARROWEST = 6
GAP = 2   # tabulate's "simple" format puts two spaces between columns


def screen_width() -> int:
    """The terminal's width (COLUMNS when set, 80 when not a terminal): views fit it, never wider."""
    return max(60, shutil.get_terminal_size((80, 24)).columns)


def prose_width(width: int | None = None) -> int:
    """The width prose is wrapped to: the one asked for; else the terminal's (COLUMNS, or 80 when
    the output goes to no terminal: a page, a file or a pipe reads as the screen would)."""
    return width or screen_width()


def screen_height() -> int:
    return max(10, shutil.get_terminal_size((80, 24)).lines)


def wrap_line(line: str, width: int, hang: int = 2, indent: str | None = None) -> list[str]:
    """One line in pieces of at most `width`: the first as it starts, the rest under it, indented
    `hang` more than its own indent (or by `indent`). A word longer than the width is split."""
    if len(line) <= width:
        return [line]
    lead = line[:len(line) - len(line.lstrip(" "))]
    rest = indent if indent is not None else lead + " " * hang
    if len(rest) >= width // 2:   # an indent that would leave no room: keep a small one
        rest = " " * hang
    return textwrap.wrap(line, width, initial_indent="", subsequent_indent=rest, break_on_hyphens=False,
                         drop_whitespace=True, replace_whitespace=False) or [line[:width]]


def fit_text(text: str, width: int | None = None, hang: int = 2) -> str:
    """Every line of `text` wrapped to the width (tables must be fitted before: see fit_table); with
    no width given, to the terminal's (prose_width)."""
    width = prose_width(width)
    if not width:
        return text
    return "\n".join(piece for line in text.split("\n") for piece in wrap_line(line, width, hang))


def widest(text: str) -> int:
    return max((len(line) for line in text.split("\n")), default=0)


def fit_table(rows: list[list], headers: list[str], width: int | None = None, keep: int = 1,
              floors: dict[int, int] | None = None) -> str:
    """A table no wider than `width`: as it is when it fits; else its widest columns are narrowed
    (cells wrap, headers too) down to NARROWEST (or `floors[column]`); else the last columns are
    dropped, keeping at least `keep` of them."""
    width = width or screen_width()
    rows = [["" if c is None else str(c) for c in r] for r in rows]
    headers = list(headers)
    while True:
        table = narrowed(rows, headers, width, floors or {})
        if widest(table) <= width or len(headers) <= keep:
            return table if widest(table) <= width else fit_text(table, width)
        headers, rows = headers[:-1], [r[:-1] for r in rows]


def natural(rows: list[list[str]], headers: list[str]) -> list[int]:
    """Each column's width untouched: its longest cell line, or its header's and the two spaces
    tabulate pads a header with."""
    cols = []
    for i, h in enumerate(headers):
        cells = [line for r in rows for line in r[i].split("\n")] + [x + "  " for x in h.split("\n")]
        cols.append(max(len(x) for x in cells))
    return cols


def narrowed(rows: list[list[str]], headers: list[str], width: int, floors: dict[int, int]) -> str:
    cols = natural(rows, headers)
    room = width - GAP * (len(cols) - 1)
    limits = list(cols)
    # take a column at a time off the widest until the sum fits (or none can give more)
    while sum(limits) > room:
        can = [i for i, w in enumerate(limits) if w > floors.get(i, NARROWEST)]
        if not can:
            break
        i = max(can, key=lambda k: limits[k])
        limits[i] -= 1
    if limits == cols:
        return tabulate(rows, headers=headers, disable_numparse=True)
    caps = [w if w < c else None for w, c in zip(limits, cols)]
    return tabulate(rows, headers=headers, disable_numparse=True, maxcolwidths=caps,
                    maxheadercolwidths=[max(4, w - 2) if w else None for w in caps])
