"""Every title's shipped example played once on the engine, and what the terminal shows of it at 80
columns (issue 29), at 60 (the narrowest terminal the views fit) and unfitted (issue 35: `Screens.at`):
at every round boundary the status, the market, the scores and the Next line as the CLI prints it; the whole log as `bank log` prints it; each company turn's and each operating
round's summary; and
the title's `bank info`. Played once per test session (the games take seconds), shared by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from conftest import Table
from transcripts import complete_games, lines_of

from ledger.books.history import Entry
from ledger.core.state import round_label
from ledger.interface import info, logview, summaries, views
from ledger.interface.fit import fit_text

WIDTH = 80
NARROW = 60   # the narrowest terminal the views fit (ledger.interface.fit.screen_width)
WIDE = 1000   # what each view says when nothing has to be fitted: what the fitted views may not cut
WIDTHS = (WIDTH, NARROW, WIDE)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# the complete game of each title (the openings are prefixes of them)
GAMES = complete_games()
# what a Python value looks like when printed as it is, rather than said in words
REPRS = ("['", "{'", "None", "True", "False", "')", "Fraction(")


@dataclass
class Screens:
    """What a game showed: (where, text) pairs, `where` naming the view and the round; `shown` at 80
    columns, `at[width]` at each of WIDTHS."""
    table: Table
    entries: list[Entry]
    at: dict[int, list[tuple[str, str]]] = field(default_factory=lambda: {w: [] for w in WIDTHS})
    or_tables: dict[str, str] = field(default_factory=dict)   # "4.1": the table printed at its end (80)

    @property
    def shown(self) -> list[tuple[str, str]]:
        return self.at[WIDTH]

    def add(self, where: str, view) -> None:
        """`view(width)` is the text at that width (None or "" when the view says nothing)."""
        texts = {width: view(width) for width in WIDTHS}
        if any(texts.values()):   # the same place in each width's list
            for width, text in texts.items():
                self.at[width].append((where, text or ""))


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
                screens.add(f"turn summary after {text!r}", lambda w: line and fit_text(line, w))
            if e["kind"] == "operating_round_ended":
                so_far = t.events[:at + 1]
                screens.add(f"OR summary after {text!r}", lambda w: summaries.or_summary(so_far, rs, w))
                screens.or_tables[f"{e['set']}.{e['index']}"] = summaries.or_summary(so_far, rs, WIDTH)
        label = round_label(t.state)
        if label != last:   # the Next line costs what the legal moves cost: at the rounds' starts only
            last = label
            nxt = f"Next: {views.whose_turn(t.state, rs)}"
            screens.add(f"Next at {label}", lambda w: fit_text(nxt, w))
            screens.add(f"status at {label}", lambda w: views.status_text(t.state, rs, width=w))
            screens.add(f"market at {label}", lambda w: views.market_text(t.state, rs, width=w))
            screens.add(f"score at {label}", lambda w: views.score_text(t.state, rs, width=w))
    screens.add("status at the end", lambda w: views.status_text(t.state, t.rs, width=w))
    screens.add("score at the end", lambda w: views.score_text(t.state, t.rs, width=w))
    screens.add("log", lambda w: "\n".join(logview.log_lines(entries, t.rs, w)))
    screens.add("info", lambda w: info.info_text(t.rs, w))
    return screens
