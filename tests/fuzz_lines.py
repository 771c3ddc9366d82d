"""Seeded random command lines for the `bank` CLI: real verbs and names mixed with the things people
and shells really type (prefixes, wrong case, negative and odd numbers, options in odd places, bytes
that are not UTF-8, line breaks, quotes). Used by tests/properties/test_fuzz.py and bench/fuzz.py.

Every line must end in success or in exactly one `error:` line with a non-zero exit, and never in a
traceback.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from typer.testing import CliRunner

from ledger.interface.cli import app

VERBS = ["bid", "buy", "par", "sell", "pass", "exchange", "tile", "token", "port", "flip", "use", "pay", "withhold",
         "train", "discard", "buy-private", "done", "bankrupt", "adjust", "count", "undo", "redo", "status",
         "market", "score", "log", "explain", "audit", "info", "new", "play", "nonsense", "",
         "amend", "restore", "insert", "half", "issue", "redeem", "choose", "deal", "discount", "float", "expand",
         "merge", "convert", "claim", "run", "pullman", "trade", "abandon", "lay", "income", "save"]
NAMES = ["Alice", "alice", "Al", "Bob", "B", "Carol", "Dave", "Zed", "bank"]
SYMBOLS = ["PRR", "NYC", "B&O", "BnO", "bno", "BO", "B", "C&O", "CO", "ERIE", "NYNH", "B&M", "SV", "CS", "DH",
           "MH", "CA", "pool", "ipo", "1830", "1843", "1839", "1801", "TB", "PLM", "EST", "NCS", "NBDS", "OZ", "LVG",
           "RSC", "GWR", "WW", "KSS", "A", "K", "M", "2+2", "3+3", "4D", "7+", "FLOOD"]
NUMBERS = ["0", "1", "2", "5", "10", "20", "45", "67", "76", "100", "180", "300", "-40", "-1", "1_000", "٣", "４５",
           "$50", "50$", "£60", "ƒ70", "80fr", "5.5", "0x10", "99999999999999999999", "+5", "", " "]
OPTIONS = ["--pool", "--ipo", "--from", "--price", "--trade-in", "--force", "--reason", "--json", "--all", "--using",
           "--hex", "--no-route", "--as-train", "--move", "--par", "--player", "--round", "--company", "--help",
           "--", "-", "-x", "--game", "--to", "--yes", "--hidden", "--before", "--replace"]
JUNK = ["\udcff", "A\udcfeB", "x\ny", "x\ry", "a\u2028b", "\x00", "\t", "'", '"', "`", "$(echo)", "é", "🚂",
        "x" * 300, "../", "/", "."]


def random_argv(rng: random.Random) -> list[str]:
    """One command line as the argument list a shell would pass."""
    words = [rng.choice(VERBS)]
    for _ in range(rng.randint(0, 5)):
        pool = rng.choices([NAMES, SYMBOLS, NUMBERS, OPTIONS, JUNK], weights=[4, 4, 4, 2, 1])[0]
        words.append(rng.choice(pool))
    if words[-1] == "--game":
        words.append("fuzz-other.db")
    return words


def lines(seed: int, count: int) -> Iterator[list[str]]:
    rng = random.Random(seed)
    for _ in range(count):
        yield random_argv(rng)


def check(runner: CliRunner, game: str, argv: list[str]) -> str | None:
    """Run one line through the CLI; the problem, or None when it behaved."""
    result = runner.invoke(app, ["--game", game, *argv])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"{argv!r}: traceback {type(result.exception).__name__}: {result.exception}"
    err = [line for line in result.stderr.splitlines() if line.strip()]
    if result.exit_code == 0:
        return None if not err else f"{argv!r}: exit 0 with stderr {err!r}"
    if len(err) != 1 or not err[0].startswith("error: "):
        return f"{argv!r}: exit {result.exit_code} with stderr {err!r}"
    if result.exit_code == INTERNAL_ERROR:
        return f"{argv!r}: an internal error: {err[0]}"
    return None


INTERNAL_ERROR = 70  # the CLI's exit code for an exception it did not expect (a bug)
