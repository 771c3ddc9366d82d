"""Every view of every title cut only between items (issue 35), at 80 columns and at 60: a symbol
stays with its share ("NYNH 20%"), a name or a number with its amount ("BHB £120", "3 $40"), a
header word and a cell's word are never cut (each is a word of the same view printed unfitted),
a table narrower than its text drops or abbreviates whole columns, and no two boxes of the market
run into each other ("100p112")."""

from __future__ import annotations

import re

import pytest
from screens_80 import GAMES, NARROW, WIDE, WIDTH, played

from ledger.interface import fit, views

SYMBOL = re.compile(r"[A-Z][A-Za-z&0-9]*\*?,?$")            # a company (or private) symbol ending a line
SHARE = re.compile(r"\d+%")                                 # a share starting the next one
AMOUNT = re.compile(r"\(?[$£ƒ]\d|\(?\d+fr\b")                # money starting the next one
DASHES = re.compile(r"^-+(  -+)*$")


def tables(text: str) -> list[tuple[list[str], list[str], list[tuple[int, int]]]]:
    """Each table of a view as (header lines, body lines, column spans) read off its dashes: the
    header lines above them and the rows under them, as long as nothing stands between columns."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if not DASHES.match(line):
            continue
        spans = [(m.start(), m.end()) for m in re.finditer(r"-+", line)]

        def in_columns(row: str) -> bool:
            gaps = [row[a:b] for (_, a), (b, _) in zip(spans, spans[1:])] + [row[spans[-1][1]:]]
            return bool(row.strip()) and all(not g.strip() for g in gaps)
        head = []
        for row in reversed(lines[:i]):
            if not in_columns(row):
                break
            head.insert(0, row)
        body = []
        for row in lines[i + 1:]:
            if not in_columns(row):
                break
            body.append(row)
        out.append((head, body, spans))
    return out


def column(rows: list[str], span: tuple[int, int]) -> list[str]:
    return [row[span[0]:span[1]].strip() for row in rows]


def words(text: str) -> set[str]:
    return set(text.split())


def header_words(text: str) -> set[str]:
    return {w for line in text.split("\n") for w in re.findall(r"[^\s/]+/*", line)}


def split_pairs(lines: list[str]) -> list[tuple[str, str]]:
    """Consecutive lines where the first ends with a symbol or word and the next starts with its
    share or amount: one item cut in two."""
    return [(a, b) for a, b in zip(lines, lines[1:])
            if a and b and SYMBOL.search(a.split()[-1]) and not fit.AMOUNT.match(a.split()[-1])
            and (SHARE.match(b.split()[0]) or AMOUNT.match(b.split()[0]))]


def views_of(title: str, width: int):
    """(where, the view at `width`, the same view unfitted)."""
    screens = played(title)
    return [(where, text, wide) for (where, text), (_, wide) in zip(screens.at[width], screens.at[WIDE])]


CASES = [(title, width) for title in sorted(GAMES) for width in (WIDTH, NARROW)]


@pytest.mark.parametrize("title,width", CASES)
def test_every_line_fits(title, width):
    too_wide = [(where, line) for where, text, _ in views_of(title, width) for line in text.split("\n")
                if len(line) > width]
    assert not too_wide, f"{len(too_wide)} lines wider than {width}, the first: {too_wide[:3]}"


@pytest.mark.parametrize("title,width", CASES)
def test_no_symbol_is_cut_from_its_share(title, width):
    """Neither in a table's column (the cell's lines) nor in prose (the view's lines)."""
    cut = []
    for where, text, _ in views_of(title, width):
        for head, body, spans in tables(text):
            for span in spans:
                cut += [(where, pair) for pair in split_pairs(column(body, span))]
        prose = [line for line in text.split("\n") if not any(line in body for _, body, _ in tables(text))]
        cut += [(where, pair) for pair in split_pairs([line.strip() for line in prose])]
    assert not cut, f"{len(cut)} items cut, the first: {cut[:3]}"


@pytest.mark.parametrize("title,width", CASES)
def test_no_header_or_cell_word_is_cut(title, width):
    """Each header word of a fitted table is a header word of the view unfitted (or one shortened
    with a full stop: "pres."); each word of a cell is a word of the view unfitted."""
    cut_headers, cut_cells, tables_seen = [], [], 0
    for where, text, wide in views_of(title, width):
        heads = {w for head, _, _ in tables(wide) for w in header_words("\n".join(head))}
        said = words(wide)
        for head, body, spans in tables(text):
            tables_seen += 1
            for w in header_words("\n".join(head)):
                short = w.endswith(".") and (w in fit.SHORT.values() or any(h.startswith(w[:-1]) for h in heads))
                if w not in heads and not short:
                    cut_headers.append((where, w, head))
            cut_cells += [(where, w) for w in words("\n".join(body)) - said]
    assert tables_seen
    assert not cut_headers, f"{len(cut_headers)} header words cut, the first: {cut_headers[:3]}"
    assert not cut_cells, f"{len(cut_cells)} cell words cut, the first: {cut_cells[:3]}"


@pytest.mark.parametrize("title,width", CASES)
def test_no_two_market_boxes_touch(title, width):
    """Every box of the market is a price and at most its mark, a space from the next; every
    marker is a whole company symbol (none cut, none run into its neighbour's)."""
    screens = played(title)
    symbols = set(screens.table.state.corps)
    bad, markers = [], 0
    for where, text, _ in views_of(title, width):
        if not where.startswith("market at"):
            continue
        for line in text.split("\n"):
            if line.startswith(("y ", "p ")):
                break   # the legend: the grid is above it
            if not line.strip() or line.startswith("(columns"):
                continue
            tokens = line.split()
            if tokens[0][0].isdigit():
                bad += [(where, t) for t in tokens if not re.fullmatch(r"\d+[yobpe]?", t)]
            else:
                markers += len(tokens)
                bad += [(where, t) for t in tokens if t not in symbols]
    assert markers, "no marker was shown"
    assert not bad, f"{len(bad)} boxes or markers run together, the first: {bad[:3]}"


# ---------------------------------------------------------------------- the fitting itself

def test_a_share_stays_with_its_symbol_in_a_narrow_column():
    rows = [["Ann", "NYNH 20% PRR 10% B&O 30% C&O 60%", "$100"]]
    table = fit.fit_table(rows, ["player", "shares", "worth"], width=31)
    assert max(map(len, table.split("\n"))) <= 31
    shares = column(tables(table)[0][1], tables(table)[0][2][1])
    assert [x for x in shares if x] == ["NYNH 20% PRR 10%", "B&O 30% C&O 60%"], table


def test_a_header_wraps_between_words_and_is_shortened_when_it_must():
    rows = [["PRR", "$60 ($67)", "Bob"]]
    wrapped = fit.fit_table(rows, ["company", "price (par)", "president"], width=26)
    assert wrapped.split("\n")[:2] == ["         price", "company  (par)  president"], wrapped
    short = fit.fit_table(rows, ["company", "price (par)", "president"], width=22)
    assert "pres." in short and "president" not in short and max(map(len, short.split("\n"))) <= 22, short


def test_a_column_is_dropped_whole_rather_than_cut():
    rows = [["Alice", "NYC 30%", "Mohawk & Hudson lays a tile"]]
    table = fit.fit_table(rows, ["player", "shares", "notes"], width=18)
    assert table.split("\n")[0].split() == ["player", "shares"], table
    assert "NYC 30%" in table and "Mohawk" not in table


def test_prose_is_cut_between_items():
    line = "Operating order: MZA £250, BHB £180, PLM £90, LNWR £90, GWR £90"
    for width in range(20, len(line)):
        for piece in fit.wrap_line(line, width):
            assert len(piece) <= width
            assert not SYMBOL.search(piece.split()[-1]) or piece.endswith(":"), (width, piece)


def test_the_market_keeps_a_space_between_three_digit_boxes():
    screens = played("1830")
    text = views.market_text(screens.table.state, screens.table.rs, width=80)
    top = text.split("\n")[0]
    assert "100p 112" in top and "100p112" not in top, top
    assert len(top) <= 80
