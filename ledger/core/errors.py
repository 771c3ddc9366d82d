"""The four kinds of failure, turned into stderr text and exit codes in one place (ledger.interface.cli)."""

from __future__ import annotations

import contextvars
import difflib


class BankError(Exception):
    """Base class: the message is one line meant for the table."""

    exit_code = 1
    # A hint is what to type next, so symbols in it are written as they paste into bash
    # (names.pasteable); a hint that explains a symbol's own spelling says so here.
    literal_hint = False

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def line(self) -> str:
        return f"{self.message} (hint: {self.hint})" if self.hint else self.message


class CommandError(BankError):
    """Malformed input: unknown verb or name, an amount that is not a number."""

    exit_code = 2


class RuleViolation(BankError):
    """Well-formed but illegal now: says which rule and the numbers."""

    exit_code = 3


class NeedsConfirmation(BankError):
    """A command that would hide or replace much at once, typed without its confirmation (`--yes`):
    the shell asks y/n and runs it again confirmed; a one-shot command is refused."""

    exit_code = 2


class RulesetError(BankError):
    """Bad title data: every problem is listed, with its path."""

    exit_code = 4

    def __init__(self, problems: list[str], source: str = "ruleset"):
        self.problems = problems
        super().__init__(f"{source}: {len(problems)} problem(s): " + "; ".join(problems))


class LedgerCorrupt(BankError):
    """A stored game fails replay or an invariant: a bug or a tampered file, never silently fixed."""

    exit_code = 5


def nearest(name: str, choices: list[str], cutoff: float = 0.4) -> list[str]:
    """The known names most similar to `name` (all of them when several are as close), in the
    order given, for 'did you mean' hints; none when nothing is near."""
    scored = [(difflib.SequenceMatcher(None, name.lower(), c.lower()).ratio(), c) for c in dict.fromkeys(choices)]
    best = max((ratio for ratio, _ in scored), default=0.0)
    return [c for ratio, c in scored if ratio == best] if best >= cutoff else []


def one_of(names: list[str]) -> str:
    """'A', 'A or B', 'A, B or C'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def unknown(kind: str, name: str, choices: list[str]) -> CommandError:
    near = nearest(name, choices)
    hint = f"did you mean {one_of(near)}?" if near else f"known: {', '.join(choices)}"
    return CommandError(f"unknown {kind} '{name}'", hint)


# Rules waived by `--force --reason`: while a forced command is decided this holds the list of
# rules it broke; `refuse` then records instead of raising. Physical impossibilities (a share that
# does not exist, a train nobody has) still raise RuleViolation directly.
WAIVING: contextvars.ContextVar[list | None] = contextvars.ContextVar("waiving", default=None)


def refuse(message: str, hint: str | None = None) -> None:
    """Refuse an illegal command, unless the banker forced it: then record the waived rule."""
    waived = WAIVING.get()
    if waived is None:
        raise RuleViolation(message, hint)
    waived.append(message)


def waiving():
    return WAIVING.get() is not None


# Characters that end a line for a terminal or for str.splitlines(): an argument holding one must
# still be echoed on the error's single line.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def one_line(text: str) -> str:
    """`text` on one line: line breaks and other control characters written as escapes, bytes that
    were not UTF-8 (kept by Python as surrogates) as \\xNN."""
    out = []
    for ch in str(text):
        if "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif ch in LINE_BREAKS or (ch < " " and ch != "\t") or "\ud800" <= ch <= "\udfff":
            out.append(repr(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)
