"""Every title's shipped example played once on the engine, and what the terminal shows of it at 80
columns (issue 29): at every round boundary the status, the market, the scores and the Next line
as the CLI prints it; the whole log as `bank log` prints it; each company turn's and each operating
round's summary; and
the title's `bank info`. Played once per test session (the games take seconds), shared by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from conftest import Table
from transcripts import lines_of

from ledger.books.history import Entry
from ledger.core.state import round_label
from ledger.interface import info, logview, summaries, views
from ledger.interface.fit import fit_text

WIDTH = 80
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# the complete game of each title (the openings are prefixes of them)
GAMES = {"1801": "1801-game.txt", "1830": "1830-full-game.txt", "1839": "1839-game.txt", "1843": "1843-game.txt"}
# what a Python value looks like when printed as it is, rather than said in words
REPRS = ("['", "{'", "None", "True", "False", "')", "Fraction(")


@dataclass
class Screens:
    """What a game showed: (where, text) pairs, `where` naming the view and the round."""
    table: Table
    entries: list[Entry]
    shown: list[tuple[str, str]] = field(default_factory=list)
    or_tables: dict[str, str] = field(default_factory=dict)   # "4.1": the table printed at its end

    def add(self, where: str, text: str | None) -> None:
        if text:
            self.shown.append((where, text))


def money_moved(events: list[dict]) -> int:
    """What `bank log` shows in its money column (ledger.books.history.walk)."""
    return sum(amount for e in events for payer, _payee, amount in e.get("transfers", ()) if payer != "mint")


@lru_cache(maxsize=None)
def played(title: str) -> Screens:
    t = Table()
    entries: list[Entry] = []
    screens = None
    last = None
    turn_began: dict[str, int] = {}   # each company's last corp_turn_started, by its place in t.events
    for number, text in enumerate(lines_of((EXAMPLES / GAMES[title]).read_text()), start=1):
        before = round_label(t.state) if t.state is not None else "setup"
        start = len(t.events)
        events = t.line(text)
        if screens is None:
            screens = Screens(t, entries)
            before = "setup"
        entries.append(Entry(number, text, text.split()[0], {}, "active", round=before,
                             money=money_moved(events), events=events))
        rs = t.rs
        # what the CLI prints after the command: each event's line, the summaries, the Next line
        for i, e in enumerate(events):
            at = start + i
            if e["kind"] == "corp_turn_started":
                turn_began[e["corp"]] = at
            if e["kind"] == "corp_turn_ended":
                began = turn_began.get(e["corp"], 0)
                line = summaries.turn_summary(t.events[began:at + 1], rs)
                screens.add(f"turn summary after {text!r}", line and fit_text(line, WIDTH))
            if e["kind"] == "operating_round_ended":
                table = summaries.or_summary(t.events[:at + 1], rs, WIDTH)
                screens.add(f"OR summary after {text!r}", table)
                screens.or_tables[f"{e['set']}.{e['index']}"] = table
        label = round_label(t.state)
        if label != last:   # the Next line costs what the legal moves cost: at the rounds' starts only
            last = label
            screens.add(f"Next at {label}", fit_text(f"Next: {views.whose_turn(t.state, rs)}", WIDTH))
            screens.add(f"status at {label}", views.status_text(t.state, rs, width=WIDTH))
            screens.add(f"market at {label}", views.market_text(t.state, rs, width=WIDTH))
            screens.add(f"score at {label}", views.score_text(t.state, rs, width=WIDTH))
    screens.add("status at the end", views.status_text(t.state, t.rs, width=WIDTH))
    screens.add("score at the end", views.score_text(t.state, t.rs, width=WIDTH))
    screens.add("log", "\n".join(logview.log_lines(entries, t.rs, WIDTH)))
    screens.add("info", info.info_text(t.rs, WIDTH))
    return screens
