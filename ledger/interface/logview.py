"""`bank log` as text in the terminal's width: each command on its line (number, round, the money it
moved, the command as typed), the results under it; `--last N` keeps the last N commands, and the
shell shows the last screenful when no number is given (issue 29)."""

from __future__ import annotations

from ledger.interface.fit import prose_width, screen_height, screen_width, wrap_line
from ledger.interface.views import describe

# the results of a command start under its text, after the number, the round and the money
RESULT_INDENT = " " * 22


def entry_lines(entry, rs, width: int | None) -> list[str]:
    """One command of the log: its head line, then what it did, each wrapped under itself (kept
    whole with no width: the log piped to grep)."""
    mark = "" if entry.status == "active" else f" [{entry.status}]"
    money = rs.money(entry.money) if entry.money else ""
    head = f"{entry.id:>4}  {entry.round:<8} {money:>7}  {entry.text}{mark}"
    by = []
    if getattr(entry, "author", None):   # entered on a table page: who, after the line while it fits
        if len(head) + len(entry.author) + 6 <= (width or 80):
            head += f"  (by {entry.author})"
        else:
            by = [f"{RESULT_INDENT}entered by {entry.author}"]
    lines = [head] + by + [RESULT_INDENT + text for text in filter(None, (describe(e, rs) for e in entry.events))]
    if not width:
        return lines
    return wrap_line(head, width, indent=RESULT_INDENT) + [piece for line in lines[1:]
                                                           for piece in wrap_line(line, width)]


def log_lines(entries: list, rs, width: int | None = None, last: int | None = None) -> list[str]:
    """The log of `entries` (the last `last` of them when given) in the width (the terminal's)."""
    width = prose_width(width)
    shown = entries[-last:] if last else entries
    return [line for entry in shown for line in entry_lines(entry, rs, width)]


def screenful(entries: list, rs, width: int | None = None, height: int | None = None) -> int:
    """How many of the last entries fill one screen (at least one), the prompt's line kept free."""
    width, height = width or screen_width(), (height or screen_height()) - 2
    used, count = 0, 0
    for entry in reversed(entries):
        used += len(entry_lines(entry, rs, width))
        if used > height and count:
            break
        count += 1
    return count
