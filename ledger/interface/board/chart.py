"""The board page's net-worth chart: one line a player, one point after every round, as inline SVG.

Drawn here rather than with matplotlib so the page needs no plotting library and scales crisply on
a phone. The figures are the books' series (ledger.books.history.series through
ledger.interface.charts.data); this module only places them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from xml.sax.saxutils import escape

# Okabe and Ito's palette, which readers with the common colour-vision deficiencies can tell apart,
# strongest on white first; its yellow is last because it is faint on a white page.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
# Past eight players the colours repeat, so the lines differ by their dashes too.
DASHES = ("", "6 3", "2 3")

# The drawing's own units. It is scaled to the page's width, so its size is chosen for a phone
# (about 330 px of page): there the text stays about the size of the page's small print. The left
# margin grows with the money labels.
WIDTH, HEIGHT = 340, 220
RIGHT, TOP, BOTTOM = 8, 10, 34
FONT = 12
CHAR = 6.7  # the average width of a character of FONT, to keep labels apart


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    dash: str
    last: int | None


@dataclass(frozen=True)
class Chart:
    svg: str                # the <svg> element, empty when there is nothing to draw
    legend: list[Line]      # highest final worth first


def colour_of(index: int) -> tuple[str, str]:
    return COLOURS[index % len(COLOURS)], DASHES[(index // len(COLOURS)) % len(DASHES)]


def worth_chart(labels: list[str], lines: dict[str, list], money: Callable[[int], str],
                title: str = "Net worth after each round") -> Chart:
    """The chart of `lines` (a name -> one value or None per label) over the round `labels`."""
    styles = {name: colour_of(i) for i, name in enumerate(lines)}
    legend = sorted((Line(name, *styles[name], last_value(values)) for name, values in lines.items()),
                    key=lambda line: -(line.last if line.last is not None else -math.inf))
    values = [v for vs in lines.values() for v in vs if v is not None]
    if not values or not labels:
        return Chart("", legend)
    step, bottom, top = y_ticks(min(0, min(values)), max(values))
    ticks = {v: money(v) for v in range(bottom, top + 1, step)}
    left = round(max(len(text) for text in ticks.values()) * CHAR) + 8
    plot_w, plot_h = WIDTH - left - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return left + (plot_w / 2 if len(labels) == 1 else i * plot_w / (len(labels) - 1))

    def y(v: int) -> float:
        return TOP + plot_h - (v - bottom) * plot_h / (top - bottom)

    out = [(f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
            f'xmlns="http://www.w3.org/2000/svg" font-size="{FONT}">'),
           f"<title>{escape(title)}</title>"]
    # the money axis: a faint line and a label at each tick
    for v, text in ticks.items():
        out.append(f'<line class="grid" x1="{left}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>')
        out.append(f'<text class="tick" x="{left - 4}" y="{y(v) + FONT / 3:.1f}" text-anchor="end">'
                   f"{escape(text)}</text>")
    # the rounds: a tick at each, a name where it fits
    base = TOP + plot_h
    for i in range(len(labels)):
        out.append(f'<line class="axis" x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{base}" y2="{base + 3}"/>')
    for i, centre in labelled(labels, [x(i) for i in range(len(labels))]):
        out.append(f'<line class="grid" x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{TOP}" y2="{base}"/>')
        out.append(f'<text class="round" x="{centre:.1f}" y="{base + 6 + FONT}" text-anchor="middle">'
                   f"{escape(labels[i])}</text>")
    out.append(f'<line class="axis" x1="{left}" x2="{WIDTH - RIGHT}" y1="{base}" y2="{base}"/>')
    # the players, the leader's line drawn last so it is on top
    for line in reversed(legend):
        vs = lines[line.name]
        dash = f' stroke-dasharray="{line.dash}"' if line.dash else ""
        for run in runs(vs):
            points = " ".join(f"{x(i):.1f},{y(vs[i]):.1f}" for i in run)
            out.append(f'<polyline class="worth" fill="none" stroke="{line.colour}"{dash} points="{points}"/>')
        for i, v in enumerate(vs):
            if v is not None:
                out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.2" fill="{line.colour}">'
                           f"<title>{escape(line.name)}, {escape(labels[i])}: {escape(money(v))}</title></circle>")
    out.append("</svg>")
    return Chart("".join(out), legend)


def last_value(values: list) -> int | None:
    return next((v for v in reversed(values) if v is not None), None)


def runs(values: list) -> list[list[int]]:
    """The indices of each stretch of points without a gap (a line breaks where a value is None)."""
    out: list[list[int]] = []
    for i, v in enumerate(values):
        if v is None:
            continue
        if out and out[-1][-1] == i - 1:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def y_ticks(low: int, high: int, most: int = 6) -> tuple[int, int, int]:
    """(step, bottom, top): a round step (1, 2, 2.5 or 5 times a power of ten) giving at most
    `most` ticks from a multiple of it at or below `low` to one at or above `high`."""
    power = 1
    while True:
        for m in (1, 2, 2.5, 5):
            step = int(m * power)
            if step != m * power:
                continue
            bottom, top = math.floor(low / step) * step, math.ceil(high / step) * step
            if top == bottom:
                top += step
            if (top - bottom) // step + 1 <= most:
                return step, bottom, top
        power *= 10


def labelled(labels: list[str], xs: list[float]) -> list[tuple[int, float]]:
    """Which rounds get their name under the axis, and where its middle goes: the last (now) and
    the first always, then the stock rounds, then the others, each only where it does not touch a
    name already placed. A name that would stick out of the drawing is moved inward."""
    taken: list[tuple[float, float]] = []
    chosen = []

    def preference(i: int) -> tuple:
        return (i != len(labels) - 1, i != 0, not labels[i].startswith("SR"), i)

    for i in sorted(range(len(labels)), key=preference):
        half = len(labels[i]) * CHAR / 2
        start, end = xs[i] - half, xs[i] + half
        shift = 2 - start if start < 2 else (WIDTH - 2) - end if end > WIDTH - 2 else 0
        start, end = start + shift, end + shift
        if any(start < e + 6 and s < end + 6 for s, e in taken):
            continue
        taken.append((start, end))
        chosen.append((i, xs[i] + shift))
    return sorted(chosen)
