"""Text that fits the terminal: every view is at most the terminal's width (80 columns when it is
unknown). Text is cut only between items, never inside one (issue 35): an item is a word, or a
word with the amount that belongs to it ("NYNH 20%", "Alice $45,", "3 $40"). Prose wraps with a
hanging indent; a table that is too wide narrows the columns whose narrowing costs the fewest
lines (their cells wrap between items, their headers between words), then abbreviates header
words wider than their column's cells ("president" -> "pres."), and only then drops whole columns
from the right (issue 29)."""

from __future__ import annotations

import re
import shutil
from functools import lru_cache

from tabulate import tabulate

# a column is never narrowed below this (a word of a cell, a money amount) unless its items are
# narrower: an item is never cut, so a column is at least as wide as its widest item
NARROWEST = 6
GAP = 2   # tabulate's "simple" format puts two spaces between columns

# an amount: money in a title's currency ($67, £1450, ƒ101, 67fr, ($67)) or a share (20%), with
# the punctuation that follows it in a list
AMOUNT = re.compile(r"^\(?-?(?:[$£ƒ€¥]-?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?(?:fr|%))\)?[,;:.)]*$")
# a number a word counts ("phase 8", "national 3", "OR 9.3", "4 left"): kept with that word
NUMBER = re.compile(r"^\d+(?:\.\d+)*[,;:.)]*$")
# header words a narrow column shortens to (others keep their first letters and a full stop)
SHORT = {"company": "co.", "president": "pres.", "privates": "priv.", "revenue": "rev.", "tokens": "tok.",
         "trains": "trains", "number": "no.", "worth": "worth", "certs": "certs", "shares": "shares"}


def screen_width() -> int:
    """The terminal's width (COLUMNS when set, 80 when not a terminal): views fit it, never wider."""
    return max(60, shutil.get_terminal_size((80, 24)).columns)


def prose_width(width: int | None = None) -> int:
    """The width prose is wrapped to: the one asked for; else the terminal's (COLUMNS, or 80 when
    the output goes to no terminal: a page, a file or a pipe reads as the screen would)."""
    return width or screen_width()


def screen_height() -> int:
    return max(10, shutil.get_terminal_size((80, 24)).lines)


# --------------------------------------------------------------------------- items

@lru_cache(maxsize=4096)
def items(text: str) -> tuple[str, ...]:
    """`text` in the pieces a line may end between, each with the spaces that follow it: its
    words, an amount or a number kept with the word before it ("PRR 10%", "Bob $50,", "3 $40",
    "phase 8"; not "$60 ($67)", two amounts)."""
    out: list[str] = []
    lone: list[bool] = []   # the item is one word that is no money or share: one more may join it
    for word in re.findall(r"\S+\s*", text):
        amount = bool(AMOUNT.match(word.rstrip()))
        joins = amount or bool(NUMBER.match(word.rstrip()))
        if out and joins and lone[-1]:
            out[-1] += word
            lone[-1] = False
        else:
            out.append(word)
            lone.append(not amount)
    return tuple(out)


def header_items(text: str) -> tuple[str, ...]:
    """A header's words, a line may also end after a '/' ("unsold/" over "pool")."""
    return tuple(re.findall(r"[^\s/]+/*\s*|/+\s*", text))


def pieces(item: str, width: int) -> list[str]:
    """An item wider than the width, in pieces that fit: between its words, else (a word wider
    than the whole line, nothing else to do) in the width's characters."""
    out: list[str] = []
    for word in re.findall(r"\S+\s*", item):
        while len(word.rstrip()) > width:
            out.append(word[:width])
            word = word[width:]
        out.append(word)
    return out


def fill(parts: tuple[str, ...] | list[str], width: int, first: str = "", rest: str = "") -> list[str]:
    """Items on as few lines as fit the width, the first line after `first`, the others after
    `rest`; a line ends only between items."""
    lines: list[str] = []
    line = first
    for part in parts:
        room = width - len(rest if lines or line != first else first)
        for piece in ([part] if len(part.rstrip()) <= max(1, room) else pieces(part, max(1, width - len(rest)))):
            if line.strip() and len(line + piece.rstrip()) > width:
                lines.append(line.rstrip())
                line = rest
            line += piece
    lines.append(line.rstrip())
    return lines


# A space a line must not be cut at (the spaces of a command the Next line prints, which must paste
# whole): written as this character, wrapped as a letter, printed as a space.
KEEP = "\ue000"


def kept(text: str) -> str:
    """`text` with its spaces never cut at when it is wrapped."""
    return text.replace(" ", KEEP)


def wrap_line(line: str, width: int, hang: int = 2, indent: str | None = None) -> list[str]:
    """One line in pieces of at most `width`, cut between items: the first as it starts, the rest
    under it, indented `hang` more than its own indent (or by `indent`)."""
    if len(line) <= width:
        return [line.replace(KEEP, " ")]
    lead = line[:len(line) - len(line.lstrip(" "))]
    rest = indent if indent is not None else lead + " " * hang
    if len(rest) >= width // 2:   # an indent that would leave no room: keep a small one
        rest = " " * hang
    return [piece.replace(KEEP, " ") for piece in fill(items(line.lstrip(" ")), width, lead, rest) or [line[:width]]]


def fit_text(text: str, width: int | None = None, hang: int = 2) -> str:
    """Every line of `text` wrapped to the width (tables must be fitted before: see fit_table); with
    no width given, to the terminal's (prose_width)."""
    width = prose_width(width)
    if not width:
        return text
    return "\n".join(piece for line in text.split("\n") for piece in wrap_line(line, width, hang))


def widest(text: str) -> int:
    return max((len(line) for line in text.split("\n")), default=0)


# --------------------------------------------------------------------------- tables

def fit_table(rows: list[list], headers: list[str], width: int | None = None, keep: int = 1,
              floors: dict[int, int] | None = None) -> str:
    """A table no wider than `width`: as it is when it fits; else narrowed (see narrowed: cells and
    headers wrap between items, down to NARROWEST or `floors[column]` first); else with header words
    abbreviated; else with the last columns dropped, keeping at least `keep` of them."""
    width = width or screen_width()
    rows = [["" if c is None else str(c) for c in r] for r in rows]
    headers = [str(h) for h in headers]
    table = tabulate(rows, headers=headers, disable_numparse=True)
    if widest(table) <= width:
        return table
    while True:
        table = narrowed(rows, headers, width, floors or {})
        if table is not None:
            return table
        if len(headers) <= keep:   # not even its first columns fit: their items cut as they must
            return narrowed(rows, headers, width, {}, force=True)
        headers, rows = headers[:-1], [r[:-1] for r in rows]


def natural(rows: list[list[str]], headers: list[str]) -> list[int]:
    """Each column's width untouched: its longest cell line, or its header's and the two spaces
    tabulate pads a header with."""
    cols = []
    for i, h in enumerate(headers):
        cells = [line for r in rows for line in r[i].split("\n")] + [x + "  " for x in h.split("\n")]
        cols.append(max(len(x) for x in cells))
    return cols


@lru_cache(maxsize=65536)
def cell_lines(text: str, width: int) -> tuple[str, ...]:
    """A cell's lines in a column `width` wide, each of its own lines cut between items."""
    return tuple(piece for line in text.split("\n") for piece in fill(items(line), width))


@lru_cache(maxsize=4096)
def header_lines(text: str, width: int) -> tuple[str, ...]:
    return tuple(piece for line in text.split("\n") for piece in fill(header_items(line), width))


def longest_item(text: str, split=items) -> int:
    return max((len(x.rstrip()) for line in text.split("\n") for x in split(line)), default=0)


def short_word(word: str, room: int) -> str:
    """A header word in `room` columns (at least its first two letters and a full stop)."""
    if len(word) <= room:
        return word
    known = SHORT.get(word.lower())
    if known and len(known) <= max(room, 3):
        return known
    return word[:max(2, room - 1)] + "."


def narrowed(rows: list[list[str]], headers: list[str], width: int, floors: dict[int, int],
             force: bool = False) -> str | None:
    """The table in the width with every column, or None when it cannot be: first with each column
    at least NARROWEST (or its floor) wide, then only as wide as its widest item; then with the
    header words wider than their column's items abbreviated, one column at a time, the one that
    gives the most room first. `force`: the columns at their narrowest, whatever it takes."""
    room = width - GAP * (len(headers) - 1)
    cells = [longest_item("\n".join(r[i] for r in rows)) if rows else 0 for i in range(len(headers))]
    heads = list(headers)

    def least(i: int, floored: bool) -> int:
        top = max(cells[i], longest_item(heads[i], header_items))
        return max(top, min(floors.get(i, NARROWEST), max(len(line) for r in rows for line in r[i].split("\n"))
                            if rows else 0)) if floored else top

    for floored in (True, False):
        mins = [least(i, floored) for i in range(len(heads))]
        if sum(mins) <= room:
            return laid_out(rows, heads, mins, room)
    # abbreviate the header words wider than their column's cells, the most room gained first
    gains = sorted(range(len(heads)), key=lambda i: cells[i] - least(i, False))
    for i in gains:
        if least(i, False) <= cells[i]:
            break
        left = room - sum(least(k, False) for k in range(len(heads)) if k != i)   # what the others leave it
        heads[i] = " ".join(short_word(w, max(cells[i], 3, left)) for w in heads[i].split(" "))
        mins = [least(k, False) for k in range(len(heads))]
        if sum(mins) <= room:
            return laid_out(rows, heads, mins, room)
    if not force:
        return None
    mins = [min(least(i, False), max(1, room // len(heads))) for i in range(len(heads))]
    return laid_out(rows, heads, mins, room)


def laid_out(rows: list[list[str]], headers: list[str], mins: list[int], room: int) -> str:
    """Columns from their natural widths narrowed to fit `room` (their sum): each step narrows the
    column whose next narrower wrapping adds the fewest lines to the table (ties: the widest)."""
    def lines_at(i: int, w: int) -> list[int]:
        return [len(header_lines(headers[i], w))] + [len(cell_lines(r[i], w)) for r in rows]

    def used(i: int, w: int) -> int:   # how wide the column's text is, wrapped at w
        return max(len(x) for x in (*header_lines(headers[i], w), *(y for r in rows for y in cell_lines(r[i], w))))

    limits = [max(mins[i], used(i, 10 ** 6)) for i in range(len(headers))]
    heights = [lines_at(i, limits[i]) for i in range(len(headers))]

    def total(hs: list[list[int]]) -> int:
        return sum(max(col[k] for col in hs) for k in range(len(rows) + 1))

    while sum(limits) > room:
        best = None
        for i, w in enumerate(limits):
            if w <= mins[i]:
                continue
            nxt = max(mins[i], used(i, w - 1))
            trial = heights[:i] + [lines_at(i, nxt)] + heights[i + 1:]
            key = (total(trial), -w)
            if best is None or key < best[0]:
                best = (key, i, nxt, trial)
        if best is None:
            break
        _, i, limits[i], heights = best
    return rendered(rows, headers, limits)


def rendered(rows: list[list[str]], headers: list[str], limits: list[int]) -> str:
    """The table in tabulate's "simple" look: headers over dashes (a wrapped header's last line
    on the dashes), each cell's lines in its column, two spaces between columns."""
    head = [header_lines(h, w) for h, w in zip(headers, limits)]
    body = [[cell_lines(c, w) for c, w in zip(r, limits)] for r in rows]
    widths = [max(len(x) for x in (*head[i], *(y for r in body for y in r[i]))) for i in range(len(headers))]
    tall = max(len(h) for h in head)
    out = ["  ".join((h[k - tall + len(h)] if k >= tall - len(h) else "").ljust(w)
                     for h, w in zip(head, widths)).rstrip() for k in range(tall)]
    out.append("  ".join("-" * w for w in widths))
    for r in body:
        for k in range(max(len(c) for c in r)):
            out.append("  ".join((c[k] if k < len(c) else "").ljust(w) for c, w in zip(r, widths)).rstrip())
    return "\n".join(out)
