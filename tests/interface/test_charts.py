"""`bank chart worth|prices`: the terminal chart (fits the terminal, money in the title's currency,
rounds named under the axis, one marker a line, '#' where lines meet, a legend with each line's final
value) and the file charts (PNG in each company's ruleset colour, SVG as well-formed XML), through
the real CLI on the example games; the layout rules on small made-up series."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_driver import Bank, error_line
from game_files import played_file

from ledger.catalog import load
from ledger.interface.charts import MARKS, MEET, PLAYER_COLOURS, terminal, tick_rounds
from ledger.interface.views import colour

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
RS = {"1830": load("1830"), "1843": load("1843")}


@pytest.fixture(scope="module")
def games() -> dict[str, Path]:
    """The example games played once (game_files, shared with the other tests that read them): the
    whole 1830 game, its opening (unfinished), the 1843 game. Charts only read them."""
    return {key: played_file(transcript) for key, transcript in
            (("1830", "1830-full-game.txt"), ("opening", "1830-opening.txt"), ("1843", "1843-game.txt"))}


def chart(db, what: str, monkeypatch, columns: int = 80, *more: str) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    return Bank(db)("chart", what, *more).stdout


def parts(out: str, names=()) -> dict:
    """The chart's pieces: the rows of the plot, the margin (a row's plot starts there), the axis
    line, the round names under it and the legend entries {name: (marker, value)} of `names`."""
    lines = out.splitlines()
    axis_at = next(i for i, line in enumerate(lines) if "└" in line)
    rows = lines[1:axis_at]
    margin = lines[axis_at].index("└") + 1
    below = "\n".join(lines[axis_at + 2:])
    legend: dict[str, tuple[str, str]] = {}
    for name in names:
        found = re.findall(rf"(?:^|   )(\S) {re.escape(name)} +(\S+(?: \([^)]*\))?)", below, re.M)
        assert len(found) <= 1, (name, found)
        if found:
            legend[name] = found[0]
    return {"title": lines[0], "rows": rows, "margin": margin, "axis": lines[axis_at],
            "names": lines[axis_at + 1], "legend": legend, "lines": lines}


# --------------------------------------------------------------------------- width

@pytest.mark.parametrize("what", ["worth", "prices"])
@pytest.mark.parametrize("game", ["1830", "1843", "opening"])
def test_the_terminal_chart_fits_80_columns_and_uses_them(games, monkeypatch, game, what):
    out = chart(games[game], what, monkeypatch, 80)
    assert max(len(line) for line in out.splitlines()) <= 80
    # the plot spreads over most of the width, not two characters a round in a corner
    assert len(parts(out)["axis"]) >= 50


@pytest.mark.parametrize("game", ["1830", "1843"])
def test_a_wide_terminal_gets_a_wider_chart(games, monkeypatch, game):
    narrow, wide = chart(games[game], "worth", monkeypatch, 80), chart(games[game], "worth", monkeypatch, 160)
    assert max(len(line) for line in wide.splitlines()) <= 160
    assert len(parts(wide)["axis"]) > 120 > len(parts(narrow)["axis"])
    # the same legend either way
    players = [row["name"] for row in Bank(games[game]).score()["players"]]
    assert parts(wide, players)["legend"] == parts(narrow, players)["legend"]
    assert len(parts(wide, players)["legend"]) == len(players)


def test_a_narrow_terminal_compresses_the_rounds(games, monkeypatch):
    out = chart(games["1830"], "prices", monkeypatch, 30)
    assert max(len(line) for line in out.splitlines()) <= 30
    assert "26 rounds, about" in out and "a column" in out
    assert parts(out)["names"].rstrip().endswith("OR 8.3")


# --------------------------------------------------------------------------- rounds and money

def test_rounds_are_named_under_their_ticks(games, monkeypatch):
    p = parts(chart(games["1830"], "worth", monkeypatch, 80))
    names = p["names"]
    found = [(m.start(), m.end(), m.group()) for m in re.finditer(r"Auction|SR \d+|OR \d+\.\d+", names)]
    texts = [t for _, _, t in found]
    assert texts[0] == "Auction" and texts[-1] == "OR 8.3"
    assert sum(t.startswith("SR") for t in texts) >= 4
    # each name stands under a tick of the axis
    ticks = [i for i, ch in enumerate(p["axis"]) if ch == "┬"]
    assert len(ticks) == len(found)
    for tick, (start, end, text) in zip(ticks, found):
        assert start <= tick < end, (text, tick, start)


def test_a_wide_terminal_names_more_rounds(games, monkeypatch):
    narrow = parts(chart(games["1830"], "worth", monkeypatch, 80))["names"]
    wide = parts(chart(games["1830"], "worth", monkeypatch, 200))["names"]
    assert len(re.findall(r"(SR|OR) \d", wide)) > len(re.findall(r"(SR|OR) \d", narrow))


def test_an_unfinished_game_names_its_last_point_now(games, monkeypatch):
    p = parts(chart(games["opening"], "worth", monkeypatch, 80), ["Alice", "Bob", "Carol", "Dave"])
    assert p["names"].rstrip().endswith("OR 2.1 (now)")
    assert set(p["legend"]) == {"Alice", "Bob", "Carol", "Dave"}


def y_labels(p: dict) -> list[str]:
    return [row[:p["margin"]].strip(" ┤") for row in p["rows"] if "┤" in row]


@pytest.mark.parametrize("what", ["worth", "prices"])
def test_1843_money_is_in_francs(games, monkeypatch, what):
    out = chart(games["1843"], what, monkeypatch, 80)
    assert "$" not in out
    names = ([row["name"] for row in Bank(games["1843"]).score()["players"]] if what == "worth" else
             [c["sym"] for c in Bank(games["1843"]).status()["companies"]])
    p = parts(out, names)
    assert p["legend"]
    labels = [label.split()[0] for label in y_labels(p)]
    assert len(labels) >= 4 and all(re.fullmatch(r"\d+fr", label) for label in labels), labels
    assert all(value.endswith("fr") for _, value in p["legend"].values())


def test_1830_money_is_in_dollars_on_round_steps(games, monkeypatch):
    p = parts(chart(games["1830"], "worth", monkeypatch, 80))
    values = [int(label.removeprefix("$")) for label in y_labels(p)]
    steps = {a - b for a, b in zip(values, values[1:])}
    assert len(steps) == 1 and steps.pop() in (500, 1000), values
    assert values[0] >= 7576  # the highest worth of the game is on the chart


# --------------------------------------------------------------------------- the legend is the score

@pytest.mark.parametrize("game,title", [("1830", "1830"), ("1843", "1843"), ("opening", "1830")])
def test_worth_legend_is_the_score(games, monkeypatch, game, title):
    score = Bank(games[game]).score()
    p = parts(chart(games[game], "worth", monkeypatch, 80), [row["name"] for row in score["players"]])
    assert p["title"] == "Net worth after each round"
    assert {name: value for name, (_, value) in p["legend"].items()} == \
        {row["name"]: RS[title].money(row["value"]) for row in score["players"]}
    markers = [marker for marker, _ in p["legend"].values()]
    assert len(set(markers)) == len(markers) and set(markers) <= set(MARKS)


@pytest.mark.parametrize("game,title", [("1830", "1830"), ("1843", "1843"), ("opening", "1830")])
def test_price_legend_is_the_status(games, monkeypatch, game, title):
    companies = Bank(games[game]).status()["companies"]
    p = parts(chart(games[game], "prices", monkeypatch, 80), [c["sym"] for c in companies])
    assert p["title"] == "Share prices after each round"
    assert {name: value for name, (_, value) in p["legend"].items()} == \
        {c["sym"]: RS[title].money(c["price"]) for c in companies if c["price"] is not None}


def test_each_line_is_drawn_with_its_marker_at_its_values(games, monkeypatch):
    """The final column holds each company at its price: its marker on the row of its value, or '#'
    where companies share a price."""
    out = chart(games["1830"], "prices", monkeypatch, 80)
    p = parts(out, [c["sym"] for c in Bank(games["1830"]).status()["companies"]])
    last = max(i for i, ch in enumerate(p["axis"]) if ch == "┬")
    at_end = {row[last] for row in p["rows"] if len(row) > last and row[last] not in " ·"}
    markers = {marker for marker, _ in p["legend"].values()}
    # CPR, ERIE and PRR all end at $130: they meet
    assert MEET in at_end and f"{MEET} where lines meet" in out
    assert at_end - {MEET} <= markers and len(at_end - {MEET}) >= 4


# --------------------------------------------------------------------------- layout on made-up series

def money(v):
    return f"${v}"


def test_points_sit_on_the_rows_of_their_values_and_meetings_show():
    out = terminal(["SR 1", "OR 1.1", "SR 2"], {"A": [0, 50, 100], "B": [100, 50, 0]}, "T", money, width=40)
    p = parts(out, ["A", "B"])
    ticks = [i for i, ch in enumerate(p["axis"]) if ch == "┬"]
    assert len(ticks) == 3
    at = {(r, c): row[c] for r, row in enumerate(p["rows"]) for c in ticks if c < len(row) and row[c] != " "}
    top, bottom = 0, len(p["rows"]) - 1
    assert p["rows"][top].startswith("$100 ┤") and p["rows"][bottom].startswith("  $0 ┤")
    middle = next(r for r, row in enumerate(p["rows"]) if MEET in row)
    # B (x) falls from $100 to $0, A (o) rises; they meet half way at OR 1.1
    assert at == {(top, ticks[0]): "x", (bottom, ticks[0]): "o", (middle, ticks[1]): MEET,
                  (top, ticks[2]): "o", (bottom, ticks[2]): "x"}
    assert middle == bottom // 2 and f"{MEET} where lines meet" in out
    assert p["legend"] == {"A": ("o", "$100"), "B": ("x", "$0")}


def test_many_rounds_are_compressed_and_named_at_intervals():
    labels = ["Auction"] + [f"{k} {sr}{suffix}" for sr in range(1, 41)
                            for k, suffix in (("SR", ""), ("OR", ".1"), ("OR", ".2"))]
    lines = {"A": list(range(len(labels))), "B": [2 * i for i in range(len(labels))]}
    out = terminal(labels, lines, "T", money, width=80)
    assert max(len(line) for line in out.splitlines()) <= 80
    p = parts(out, ["A", "B"])
    assert f"{len(labels)} rounds, about" in out
    names = re.findall(r"Auction|SR \d+|OR \d+\.\d+", p["names"])
    assert names[0] == "Auction" and names[-1] == "OR 40.2" and 5 <= len(names) <= 15
    assert p["legend"] == {"B": ("x", f"${2 * (len(labels) - 1)}"), "A": ("o", f"${len(labels) - 1}")}


def test_a_closed_line_shows_its_last_value_and_round():
    out = terminal(["SR 1", "OR 1.1", "SR 2"], {"A": [60, 70, None], "B": [80, 90, 100]}, "T", money, width=60)
    assert parts(out, ["A", "B"])["legend"] == {"A": ("o", "$70 (OR 1.1)"), "B": ("x", "$100")}


def test_file_charts_name_all_rounds_when_they_fit_else_stock_rounds():
    short = ["Auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1"]
    assert tick_rounds(short, room=40) == [0, 1, 2, 3, 4]
    long = ["Auction"] + [f"{k} {sr}{s}" for sr in range(1, 31) for k, s in (("SR", ""), ("OR", ".1"), ("OR", ".2"))]
    shown = [long[i] for i in tick_rounds(long, room=40)]
    assert shown[0] == "Auction" and shown[-1] == "OR 30.2"
    assert all(t.startswith("SR") for t in shown[1:-1]) and len(shown) <= 40


# --------------------------------------------------------------------------- PNG and SVG

def pixels_of(image, hex_colour: str) -> int:
    import numpy as np
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return int((np.abs(image[:, :, :3] - rgb).max(axis=2) < 2.5 / 255).sum())


def test_price_png_draws_each_company_in_its_ruleset_colour(games, tmp_path):
    import matplotlib.image
    png = tmp_path / "prices.png"
    out = Bank(games["opening"])("chart", "prices", "--out", str(png)).stdout
    assert out.strip() == f"wrote {png}"
    assert png.read_bytes().startswith(PNG_SIGNATURE)
    image = matplotlib.image.imread(str(png))
    assert image.shape[1] >= 1400 and image.shape[0] >= 800  # a decent size at 150 dpi
    rs = RS["1830"]
    for sym in ("PRR", "NYC", "B&O", "C&O"):  # the companies with a price
        assert pixels_of(image, colour(rs, sym)) > 200, sym
    for sym in ("ERIE", "B&M", "NYNH"):  # not started: their colours are nowhere
        assert pixels_of(image, colour(rs, sym)) == 0, sym


def test_1843_price_png_uses_the_1843_colours(games, tmp_path):
    import matplotlib.image
    png = tmp_path / "prices.png"
    Bank(games["1843"])("chart", "prices", "--out", str(png))
    image = matplotlib.image.imread(str(png))
    status = Bank(games["1843"]).status()
    for company in status["companies"]:
        found = pixels_of(image, colour(RS["1843"], company["sym"]))
        assert (found > 200) == (company["price"] is not None), (company["sym"], found)
        assert company["colour"] == colour(RS["1843"], company["sym"])


def test_worth_png_draws_players_in_distinct_safe_colours(games, tmp_path):
    import matplotlib.image
    png = tmp_path / "worth.png"
    Bank(games["1830"])("chart", "worth", "--out", str(png))
    image = matplotlib.image.imread(str(png))
    for hex_colour in PLAYER_COLOURS[:4]:
        assert pixels_of(image, hex_colour) > 200, hex_colour
    assert pixels_of(image, PLAYER_COLOURS[4]) == 0  # four players, four colours


def test_svg_is_well_formed_with_the_currency_and_colours(games, tmp_path):
    svg = tmp_path / "prices.svg"
    out = Bank(games["1843"])("chart", "prices", "--out", str(svg)).stdout
    assert out.strip() == f"wrote {svg}"
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "1843 · Share prices after each round" in texts
    assert any(re.fullmatch(r"\d+fr", t) for t in texts) and not any("$" in t for t in texts)
    # the end labels are the status's prices
    for company in Bank(games["1843"]).status()["companies"]:
        if company["price"] is not None:
            assert RS["1843"].money(company["price"]) in texts
    body = svg.read_text().lower()
    for company in ("PLM", "SO", "EST"):
        assert colour(RS["1843"], company).lower() in body


def test_other_file_kinds_are_refused(games, tmp_path):
    result = Bank(games["1830"])("chart", "worth", "--out", str(tmp_path / "w.jpg"), ok=False)
    assert "--out takes a .png or .svg file" in error_line(result)
    assert not (tmp_path / "w.jpg").exists()


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_without_matplotlib_one_line_says_how_to_install_it(games, tmp_path, monkeypatch, suffix):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails as when not installed
    target = tmp_path / f"w.{suffix}"
    result = Bank(games["1830"])("chart", "worth", "--out", str(target), ok=False)
    assert error_line(result) == (f"error: {suffix.upper()} charts need matplotlib "
                                  "(hint: pip install matplotlib (or, in the bank's folder, pip install -e '.[charts]'))")
    assert not target.exists() and result.stdout == ""


def test_unknown_chart_name(games):
    result = Bank(games["1830"])("chart", "price", ok=False)
    line = error_line(result)
    assert "price" in line and "did you mean prices" in line
    assert result.stdout == ""
