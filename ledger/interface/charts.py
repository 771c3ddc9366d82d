"""`bank chart worth|prices`: a line chart in the terminal (no dependency), or a PNG or SVG file drawn
with matplotlib (the optional `charts` extra).

Both read the same series: one point after every round (ledger.books.history.series), one line a
player (net worth) or a company (share price). The terminal chart fits the terminal's width, labels
its money axis in the title's currency and its rounds by name, draws each line with its own marker
and shows where lines meet; the file chart draws each company in its ruleset colour and each player
in a colour-blind-safe palette."""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Callable

from ledger.core.errors import CommandError

# One marker a line in the terminal; MEET marks a point two or more lines share, TRAIL the way
# between one line's points when rounds are more than a column apart.
MARKS = "ox*@%&=~^vsz"
MEET = "#"
TRAIL = "·"
# The Okabe-Ito palette (colour-blind safe), strongest on white first; the yellow last.
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
FILE_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p")
SUFFIXES = (".png", ".svg")

Lines = dict[str, list]


def data(points: list[dict], what: str) -> tuple[list[str], Lines]:
    key = {"worth": "worth", "prices": "prices"}[what]
    labels = [p["round"] for p in points]
    names: list[str] = []
    for p in points:
        for name in p[key]:
            if name not in names:
                names.append(name)
    return labels, {n: [p[key].get(n) for p in points] for n in names}


def final(values: list) -> tuple[int, int] | None:
    """(index, value) of a line's last point, None for a line with none."""
    for i in range(len(values) - 1, -1, -1):
        if values[i] is not None:
            return i, values[i]
    return None


def ranked(lines: Lines) -> list[str]:
    """The lines by their final value, highest first (lines without a point last)."""
    return sorted(lines, key=lambda n: -(final(lines[n]) or (0, -math.inf))[1])


# --------------------------------------------------------------------------- terminal

def nice_steps():
    """1, 2, 5, 10, 20, 25, 50, 100, 200, 250 ...: the money a chart row may stand for."""
    power = 1
    while True:
        yield from (m * power for m in ((1, 2, 5) if power == 1 else (1, 2, 2.5, 5)))
        power *= 10


def y_scale(low: int, high: int, height: int) -> tuple[int, int, int]:
    """(step, bottom, top): the finest round step that shows low..high in at most `height` rows."""
    for raw in nice_steps():
        step = int(raw)
        bottom, top = math.floor(low / step) * step, math.ceil(high / step) * step
        if top == bottom:
            top += step
        if (top - bottom) // step + 1 <= height:
            return step, bottom, top
    raise AssertionError("unreachable")


def place_labels(labels: list[str], columns: list[tuple[int, int]], width: int) -> tuple[str, set[int]]:
    """The round names under the x axis: the last and the first always, then each stock round, then
    the others, each where it fits with two spaces to its neighbours. Returns the text and the
    columns that got a tick."""
    taken: list[tuple[int, int]] = []
    row = [" "] * width
    ticks: set[int] = set()

    def rank(k: int) -> tuple:
        _, i = columns[k]
        text = labels[i]
        return (k != len(columns) - 1, k != 0, not text.startswith("SR"), k)

    for k in sorted(range(len(columns)), key=rank):
        col, i = columns[k]
        text = labels[i]
        start = min(max(col - (len(text) - 1) // 2, 0), width - len(text))
        if start < 0:
            continue
        end = start + len(text)
        if any(start < e + 2 and s < end + 2 for s, e in taken):
            continue
        taken.append((start, end))
        row[start:end] = text
        ticks.add(col)
    return "".join(row).rstrip(), ticks


NOTHING = "nothing to chart yet: no round has ended with a price or a net worth to draw"


def chartable(labels: list[str], lines: Lines) -> bool:
    """Whether there is a point to draw (the terminal and the file chart say "nothing" alike)."""
    return bool(labels) and any(v is not None for vs in lines.values() for v in vs)


def terminal(labels: list[str], lines: Lines, title: str = "", money: Callable[[int], str] = str,
             width: int | None = None, height: int = 18) -> str:
    """The chart as text no wider than `width` (default: the terminal's, 80 when unknown)."""
    values = [v for vs in lines.values() for v in vs if v is not None]
    if not chartable(labels, lines):
        return NOTHING
    width = max(width or shutil.get_terminal_size((80, 24)).columns, 30)

    # y: rows at a round step of money, labelled every other row when there are many
    step, bottom, top = y_scale(min(values), max(values), height)
    rows = (top - bottom) // step + 1
    every = 1 if rows <= 9 else 2
    marks = {v: money(v) for v in range(bottom, top + 1, step) if (v // step) % every == 0}
    margin = max(len(m) for m in marks.values()) + 2   # "label ┤"

    # x: one column a round, spread over the width; more rounds than columns share by sampling
    plot = width - margin
    n = len(labels)
    if n <= plot - 1:
        spacing = max(1, (plot - 2) // max(n - 1, 1))
        columns = [(1 + i * spacing, i) for i in range(n)]
        compressed = False
    else:
        spacing = 1
        count = plot - 1
        columns = [(1 + c, round(c * (n - 1) / (count - 1))) for c in range(count)]
        compressed = True

    def row_of(v: float) -> int:
        return rows - 1 - round((v - bottom) / step)

    grid = [[" "] * plot for _ in range(rows)]
    at: dict[tuple[int, int], set[int]] = {}
    for k, vs in enumerate(lines.values()):
        for (c0, i0), (c1, i1) in zip(columns, columns[1:]):
            if vs[i0] is None or vs[i1] is None:
                continue
            for c in range(c0 + 1, c1):
                r = row_of(vs[i0] + (vs[i1] - vs[i0]) * (c - c0) / (c1 - c0))
                grid[r][c] = TRAIL
        for c, i in columns:
            if vs[i] is not None:
                at.setdefault((row_of(vs[i]), c), set()).add(k)
    met = False
    for (r, c), who in at.items():
        if len(who) > 1:
            grid[r][c], met = MEET, True
        else:
            grid[r][c] = MARKS[next(iter(who)) % len(MARKS)]

    under, ticks = place_labels(labels, columns, plot)
    out = [title] if title else []
    for r in range(rows):
        v = top - r * step
        axis = f"{marks[v]:>{margin - 2}} ┤" if v in marks else " " * (margin - 2) + " │"
        out.append((axis + "".join(grid[r])).rstrip())
    axis_end = min(columns[-1][0] + 2, plot)
    out.append(" " * (margin - 2) + " └" + "".join("┬" if c in ticks else "─" for c in range(axis_end)))
    out.append(" " * margin + under)
    if compressed:
        note = f"{n} rounds, about {n / (plot - 1):.1f} a column"
        out.append(" " * min(margin, max(width - len(note), 0)) + note)

    # legend: marker, name and final value of each line, highest first, in as many columns as fit
    index = {name: k for k, name in enumerate(lines)}
    entries = []
    for name in ranked(lines):
        end = final(lines[name])
        value = "-" if end is None else money(end[1])
        since = "" if end is None or end[0] == n - 1 else f" ({labels[end[0]]})"  # a line that stopped
        entries.append((MARKS[index[name] % len(MARKS)], name, value, since))
    name_w = max(len(e[1]) for e in entries)
    value_w = max(len(e[2]) for e in entries)
    texts = [f"{m} {name:<{name_w}} {value:>{value_w}}{since}" for m, name, value, since in entries]
    cell = max(len(t) for t in texts)
    per_row = max(1, (width + 3) // (cell + 3))
    texts = [f"{t:<{cell}}" for t in texts]
    for start in range(0, len(texts), per_row):
        out.append("   ".join(texts[start:start + per_row]).rstrip())
    if met:
        out.append(f"{MEET} where lines meet")
    return "\n".join(line[:width] for line in out)


# --------------------------------------------------------------------------- PNG / SVG

def tick_rounds(labels: list[str], room: int) -> list[int]:
    """Which rounds get a name under the x axis: all when they fit in `room`, else the stock rounds
    (every k-th when even those are too many), always the first and the last."""
    n = len(labels)
    if n <= room:
        return list(range(n))
    stock = [i for i, t in enumerate(labels) if t.startswith("SR")] or list(range(n))
    stride = max(1, math.ceil(len(stock) / max(room - 2, 1)))
    gap = math.ceil(n / room)
    kept = [0]
    for i in stock[::stride]:
        if i - kept[-1] >= gap and n - 1 - i >= gap:
            kept.append(i)
    return kept + [n - 1]


def spread(ys: list[float], gap: float) -> list[float]:
    """The y positions of the end labels, moved apart (upwards) so that none is within `gap`."""
    order = sorted(range(len(ys)), key=lambda k: ys[k])
    out = list(ys)
    for a, b in zip(order, order[1:]):
        if out[b] < out[a] + gap:
            out[b] = out[a] + gap
    return out


def chart_file(labels: list[str], lines: Lines, path: Path, title: str, rs, what: str) -> None:
    """A PNG or SVG (by `path`'s suffix): companies in their ruleset colours, players in the
    Okabe-Ito palette, rounds named, money in the title's currency, the final values at line ends."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise CommandError(f"cannot write a chart as '{path.suffix or path.name}'",
                           "--out takes a .png or .svg file")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.patheffects as pe
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
        from matplotlib.ticker import FuncFormatter, MaxNLocator
        from matplotlib.transforms import ScaledTranslation
    except ImportError as exc:
        raise CommandError(f"{suffix[1:].upper()} charts need matplotlib",
                           "pip install matplotlib (or, in the bank's folder, pip install -e '.[charts]')") from exc
    from ledger.interface.views import colour

    n = len(labels)
    names = ranked(lines)
    order = list(lines)
    colours = {name: colour(rs, name) if what == "prices" else PLAYER_COLOURS[k % len(PLAYER_COLOURS)]
               for k, name in enumerate(order)}
    width = min(16.0, max(10.0, 6 + n * 0.22))
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "bank", "font.size": 11}):
        fig, ax = plt.subplots(figsize=(width, 6.2))
        handles = []
        for name in names:
            vs = lines[name]
            xs = [i for i, v in enumerate(vs) if v is not None]
            k = order.index(name)
            style = {"color": colours[name], "marker": FILE_MARKERS[k % len(FILE_MARKERS)], "markersize": 5.5,
                     "markeredgecolor": "white", "markeredgewidth": 0.6}
            # a thin dark edge keeps light colours (1830's yellow Erie) visible on white
            ax.plot(xs, [vs[i] for i in xs], color=colours[name], linewidth=2.4,
                    path_effects=[pe.Stroke(linewidth=3.8, foreground="#00000035"), pe.Normal()])
            ax.plot(xs, [vs[i] for i in xs], linestyle="none", **style)
            handles.append(Line2D([], [], linewidth=2.4, label=name, **style))

        # the final values beside the line ends, moved apart where they would overlap
        ends = [(name, final(lines[name])) for name in names if final(lines[name])]
        low, high = ax.get_ylim()
        ys = spread([v for _, (_, v) in ends], gap=(high - low) * 0.045)
        notes = []
        for (name, (i, v)), y in zip(ends, ys):
            notes.append(ax.annotate(rs.money(v), xy=(i, v), xytext=(1.012, y), textcoords=("axes fraction", "data"),
                        va="center", ha="left", fontsize=10, fontweight="bold", color=colours[name],
                        annotation_clip=False,
                        arrowprops=None if i == n - 1 and abs(y - v) < 1e-9 else
                        {"arrowstyle": "-", "color": colours[name], "linewidth": 0.8, "alpha": 0.6}))
        ax.set_xlim(-0.3, n - 1 + 0.3)
        ax.set_ylim(low, max(high, max(ys, default=high) + (high - low) * 0.03))

        shown = tick_rounds(labels, room=int(width * 3.2))
        ax.set_xticks(range(n), minor=True)
        ax.set_xticks(shown)
        ax.set_xticklabels([labels[i] for i in shown], rotation=40, ha="right", rotation_mode="anchor",
                           fontsize=9.5)
        stock = [i for i, t in enumerate(labels) if t.startswith("SR")]
        for i in stock:
            ax.axvline(i, color="#d0d0d0", linewidth=0.8, zorder=0)
        ax.yaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: rs.money(int(round(v)))))
        ax.grid(axis="y", color="#e6e6e6", linewidth=0.8)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        quantity = "Net worth" if what == "worth" else "Share price"
        ax.set_ylabel(f"{quantity} ({rs.currency})")
        ax.set_xlabel("after each round (grey lines: stock rounds)" if stock else "after each round")
        ax.set_title(f"{rs.title} · {title}", fontsize=14, loc="left", pad=12)
        # the legend right of the end values: as far as the widest of them, in inches
        renderer = fig.canvas.get_renderer()
        beside = max((t.get_window_extent(renderer).width for t in notes), default=0) / fig.dpi + 0.25
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False,
                  bbox_transform=ax.transAxes + ScaledTranslation(beside, 0, fig.dpi_scale_trans),
                  title="players" if what == "worth" else "companies", alignment="left")
        fig.tight_layout()
        try:
            fig.savefig(path, dpi=150, format=suffix[1:],
                        metadata={"Date": None} if suffix == ".svg" else None)
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from exc
        finally:
            plt.close(fig)
