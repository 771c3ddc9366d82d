"""The terminal's own means: the shell's line editor (prompt_toolkit) and colour.

Colour is used only on a terminal and never when NO_COLOR is set (no-color.org): a refusal's line
in red, each company's symbol in its colour where a view asks for it (`paint`).
"""

from __future__ import annotations

import contextlib
import os
import sys

RED = "\x1b[31m"
RESET = "\x1b[0m"


def colour_on(stream=None) -> bool:
    stream = stream or sys.stdout
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


def red(text: str, stream=None) -> str:
    """A refusal's line, red when `stream` is a colour terminal."""
    return f"{RED}{text}{RESET}" if colour_on(stream or sys.stderr) else text


def rgb(hex_colour: str) -> str | None:
    """'#1f5fa8' as a 24-bit foreground escape; None for anything else."""
    text = (hex_colour or "").lstrip("#")
    if len(text) != 6:
        return None
    try:
        r, g, b = (int(text[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return None
    return f"\x1b[38;2;{r};{g};{b}m"


def paint(text: str, hex_colour: str | None, stream=None) -> str:
    """`text` in a company's colour on a colour terminal; as it is otherwise."""
    escape = rgb(hex_colour or "")
    return f"{escape}{text}{RESET}" if escape and colour_on(stream) else text


def paint_companies(text: str, rs, stream=None) -> str:
    """Every company's symbol in `text` in its colour, on a colour terminal (the market's markers)."""
    if not colour_on(stream):
        return text
    import re

    from ledger.interface.views import colour
    syms = sorted((c.sym for c in rs.corporations), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w&])(" + "|".join(re.escape(x) for x in syms) + r")(?![\w&])")
    return pattern.sub(lambda m: paint(m.group(1), colour(rs, m.group(1)), stream), text)


class RedErrors:
    """stderr with every line starting 'error:' in red (the shell's refusals)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        if text.startswith("error:"):
            text = red(text.rstrip("\n"), self.stream) + ("\n" if text.endswith("\n") else "")
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


@contextlib.contextmanager
def red_errors():
    if not colour_on(sys.stderr):
        yield
        return
    saved = sys.stderr
    sys.stderr = RedErrors(saved)
    try:
        yield
    finally:
        sys.stderr = saved


def history_path() -> str:
    """Where the shell keeps what was typed ($BANK_HISTORY, else ~/.bank_history)."""
    return os.environ.get("BANK_HISTORY") or os.path.expanduser("~/.bank_history")


def prompt_session(shell):
    """The shell's prompt: Tab's menu from the rules' answer with each entry's figure, the Next line
    in the bottom toolbar, a history saved after every command and searched with Ctrl-R, Ctrl-L to
    clear (prompt_toolkit's own bindings)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import FileHistory

    from ledger.interface import completing

    class LegalCompleter(Completer):
        def get_completions(self, document, complete_event):
            words, text = completing.split_line(document.text_before_cursor)
            for entry in shell.menu(words, text):
                yield Completion(entry.text + " ", start_position=-len(text), display=entry.text,
                                 display_meta=entry.meta or None)

    class KeptHistory(FileHistory):
        """The history file, appended to as each command is entered; one we cannot read or write
        (a read-only home) leaves the shell working without it."""

        def load_history_strings(self):
            try:
                yield from super().load_history_strings()
            except OSError:
                return

        def store_string(self, string: str) -> None:
            try:
                super().store_string(string)
            except OSError:
                pass

    return PromptSession(completer=LegalCompleter(), key_bindings=menu_keys(), complete_while_typing=False, history=KeptHistory(history_path()),
                         bottom_toolbar=lambda: shell.next_line(), enable_history_search=False,
                         color_depth=None if colour_on() else _monochrome())


def menu_keys():
    """Enter on an entry of Tab's menu takes the entry and keeps the line for more (as pgcli does):
    a line is run only when Enter is pressed with no entry chosen."""
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.application.current import get_app

    keys = KeyBindings()

    @Condition
    def choosing() -> bool:
        state = get_app().current_buffer.complete_state
        return bool(state and state.current_completion)

    @keys.add("enter", filter=choosing)
    def _take(event) -> None:
        event.current_buffer.complete_state = None

    return keys


def _monochrome():
    from prompt_toolkit.output import ColorDepth
    return ColorDepth.DEPTH_1_BIT
