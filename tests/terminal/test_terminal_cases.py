"""The cases issue 29 names, each as a test: what the terminal says reads as words a player
understands (who holds what, who owes whom, which charts there are, which title was meant) and
`bank log` can show the last commands or an operating round's table again."""

from __future__ import annotations

import re

import pytest
from cli_driver import Bank, error_line
from conftest import Table, opening_1830
from screens_80 import EXAMPLES, GAMES, WIDTH, played

from ledger import catalog
from ledger.interface import charts, info, logview, summaries, views
from ledger.interface.suggest import edits, unknown_title

TITLES = sorted(GAMES)   # every title with a complete example game


# ---------------------------------------------------------------------- status: who holds the privates

def test_status_says_the_players_privates_and_never_privates_none():
    """1830 SR 1: the players hold all six privates and no company holds any. The status lists them
    under their holders; it never says "privates: none" (that meant: none held by companies)."""
    first_sr = next(text for where, text in played("1830").shown if where == "status at SR 1")
    for sym in ("SV", "CS", "DH", "MH", "CA", "BO"):
        assert re.search(rf"\b{sym}\b", first_sr), sym
    assert "privates: none" not in first_sr
    for title in TITLES:
        for where, text in played(title).shown:
            assert "privates: none" not in text, (title, where)
            assert "privates/" not in text, (title, where)   # 1801's 123-character heading


def test_what_companies_hold_is_named_as_theirs():
    """1801: the minors and majors hold chits, ports and Pullmans; when the column does not fit
    they are listed under the table as held by companies, and the players' privates stay theirs."""
    shown = [text for where, text in played("1801").shown if where.startswith("status at")]
    held = [text for text in shown if "Held by companies: " in text]
    assert held
    assert all(max(map(len, text.split("\n"))) <= WIDTH for text in held)


# ---------------------------------------------------------------------- bank info in words

@pytest.mark.parametrize("title", TITLES)
def test_info_fits_and_says_the_powers_in_words(title):
    text = info.info_text(catalog.load(title), width=WIDTH)
    assert max(map(len, text.split("\n"))) <= WIDTH
    assert not any(r in text for r in ("['", "{'", "=True", "=[", "None"))


def test_info_1830_says_mohawks_exchange_as_a_player_would():
    text = info.info_text(catalog.load("1830"), width=WIDTH)
    assert "exchange_from" not in text and "exchange_for" not in text
    wide = info.info_text(catalog.load("1830"), width=200)   # the powers on one line each
    assert "exchanged for a NYC share from the IPO or the pool" in " ".join(wide.split())


# ---------------------------------------------------------------------- log --last, the shell's screenful

def test_log_last_n_is_the_tail_of_the_log():
    screens = played("1830")
    whole = logview.log_lines(screens.entries, screens.table.rs, WIDTH)
    last3 = logview.log_lines(screens.entries, screens.table.rs, WIDTH, last=3)
    assert last3 and whole[-len(last3):] == last3
    assert last3[0].lstrip().startswith(str(screens.entries[-3].id))


def test_the_shells_log_is_one_screenful():
    screens = played("1801")
    rs = screens.table.rs
    n = logview.screenful(screens.entries, rs, width=WIDTH, height=24)
    shown = logview.log_lines(screens.entries, rs, WIDTH, last=n)
    assert 0 < len(shown) <= 22     # the prompt's lines kept free
    assert len(logview.log_lines(screens.entries, rs, WIDTH, last=n + 1)) > 22


# ---------------------------------------------------------------------- log --or N.M

@pytest.mark.parametrize("title", TITLES)
def test_log_or_shows_each_operating_rounds_table_again(title):
    """Every OR's table, as printed when it ended, is shown again by `--or` from the game's events."""
    screens = played(title)
    events = screens.table.events
    assert screens.or_tables
    for label, table in screens.or_tables.items():
        set_no, index = map(int, label.split("."))
        assert summaries.or_summary_of(events, screens.table.rs, set_no, index, WIDTH) == table, label


def test_an_or_under_way_and_an_or_where_nobody_ran():
    t = opening_1830()                   # OR 1.1, PRR to operate
    under_way = summaries.or_summary_of(t.events, t.rs, 1, 1, WIDTH)
    assert under_way.startswith("OR 1.1 (under way) summary")
    assert summaries.or_summary_of(t.events, t.rs, 9, 1, WIDTH) is None
    nobody = [{"kind": "round_started", "round": {"kind": "operating", "set": 1, "index": 1}},
              {"kind": "operating_round_ended", "set": 1, "index": 1}]
    assert summaries.or_summary(nobody, t.rs) == "OR 1.1 summary: no company operated"


# ---------------------------------------------------------------------- money in whole units

@pytest.mark.parametrize("title", TITLES)
def test_payouts_are_whole_money(title):
    """No "£12.5" or "£17.5/share": the rules round each holder's payout, so the lines say that."""
    screens = played(title)
    fraction = re.compile(r"[£$ƒ]\d+\.\d|\d+\.\d+fr\b")
    said = [(where, text) for where, text in screens.shown
            if where.startswith(("turn summary", "OR summary", "log")) and fraction.search(text)]
    assert not said, said[:2]


def test_a_fractional_payout_names_the_rounding():
    screens = played("1801")
    lines = [views.describe(e, screens.table.rs) for e in screens.table.events if e["kind"] == "revenue"]
    assert any("each holder's payout rounded up: " in line for line in lines)   # §11.4


# ---------------------------------------------------------------------- count: who owes whom

def test_a_count_says_who_owes_whom():
    t = Table(title="1830", players=["Alice", "Bob", "Carol"])
    cash = t.cash()["Alice"]
    short = views.describe(t.do(f"count Alice {cash - 22}")[-1], t.rs)
    assert "Alice is $22 short, so the bank owes Alice $22" in short
    assert "adjust Alice bank 22" in short
    over = views.describe(t.do(f"count Alice {cash + 5}")[-1], t.rs)
    assert "Alice has $5 too much, so Alice owes the bank $5" in over
    agree = views.describe(t.do(f"count Alice {cash}")[-1], t.rs)
    assert "they agree" in agree and "owes" not in agree


# ---------------------------------------------------------------------- charts and titles

def test_nothing_to_chart_is_said_alike():
    assert not charts.chartable([], {})
    assert not charts.chartable(["SR 1"], {"A": [None]})
    assert charts.terminal(["SR 1"], {"A": [None]}) == charts.NOTHING


def test_a_mistyped_title_suggests_the_nearest_or_lists_them():
    known = catalog.available_titles()
    assert edits("1831", "1830") == 1 and edits("wroth", "worth") == 1
    hint = unknown_title("1831", known).hint
    assert "1830" in hint and "1843" not in hint
    assert unknown_title("2000", known).hint == "the titles: " + ", ".join(known)


def test_the_cli_lists_charts_and_shows_the_last_commands(fast_path, monkeypatch):
    """The CLI's side: `bank chart` with no argument, `log --last`, `log --or`, `new 1831`, and a
    chart with nothing to draw writes no file."""
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    bank = Bank(fast_path / "g.db", monkeypatch)
    assert "did you mean 1801, 1830 or 1839?" in error_line(bank("new", "1831", "A", "B", ok=False))
    bank("new", "1801", "Ann", "Ben", "Cy")
    listed = bank("chart").stdout
    assert "worth" in listed and "prices" in listed and "Missing argument" not in listed
    out = fast_path / "prices.png"
    assert bank("chart", "prices", "--out", str(out)).stdout.strip() == charts.NOTHING
    assert bank("chart", "prices").stdout.strip() == charts.NOTHING
    assert not out.exists()
    bank("play", str(EXAMPLES / "1830-opening.txt"), "--game", str(fast_path / "o.db"))
    opened = Bank(fast_path / "o.db", monkeypatch)
    last = opened("log", "--last", "2").stdout.split("\n")
    heads = [line for line in last if re.match(r"\s*\d+  ", line)]
    assert len(heads) == 2
    assert all(len(line) <= WIDTH for line in last)
    table = opened("log", "--or", "1.1").stdout
    assert table.startswith("OR 1.1 summary") and "NYC" in table
    assert "its operating rounds: 1.1" in error_line(opened("log", "--or", "7.1", ok=False))


def test_the_shells_log_shows_the_last_screenful(fast_path, monkeypatch, capsys):
    """At the shell's prompt `log` shows the last screenful, `log --last N` N commands."""
    import typer

    from ledger.interface.cli import app
    from ledger.interface.shell import Shell
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("LINES", "24")
    Bank(fast_path / "s.db", monkeypatch)("play", str(EXAMPLES / "1830-opening.txt"))
    shell = Shell(typer.main.get_command(app), {"game": str(fast_path / "s.db")})
    shell.interactive = True          # as at a terminal
    capsys.readouterr()
    shell.run_line("log")
    screen = capsys.readouterr().out.rstrip("\n").split("\n")
    assert 0 < len(screen) <= 22 and all(len(line) <= WIDTH for line in screen)
    assert screen[-1].lstrip()                       # the game's last command is on it
    shell.run_line("log --last 1")
    one = capsys.readouterr().out.rstrip("\n").split("\n")
    assert one == screen[-len(one):]
