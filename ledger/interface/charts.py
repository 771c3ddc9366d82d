"""`bank chart worth|prices`: a line chart in the terminal (no dependency), or a PNG with
matplotlib (the optional `charts` extra)."""

from __future__ import annotations

from pathlib import Path

from ledger.core.errors import CommandError

MARKS = "*o+x#@%&=~"


def data(points: list[dict], what: str) -> tuple[list[str], dict[str, list[int | None]]]:
    key = {"worth": "worth", "prices": "prices"}[what]
    labels = [p["round"] for p in points]
    names: list[str] = []
    for p in points:
        for name in p[key]:
            if name not in names:
                names.append(name)
    return labels, {n: [p[key].get(n) for p in points] for n in names}


def terminal(labels: list[str], lines: dict[str, list], height: int = 16, title: str = "") -> str:
    values = [v for vs in lines.values() for v in vs if v is not None]
    if not values or not labels:
        return "nothing to chart yet"
    low, high = min(values), max(values)
    span = max(high - low, 1)
    width = len(labels)
    grid = [[" "] * width for _ in range(height)]
    for i, (name, vs) in enumerate(lines.items()):
        for x, v in enumerate(vs):
            if v is None:
                continue
            y = height - 1 - round((v - low) * (height - 1) / span)
            grid[y][x] = MARKS[i % len(MARKS)]
    out = [title] if title else []
    for row_no, row in enumerate(grid):
        level = high - row_no * span / (height - 1)
        out.append(f"{level:>7.0f} |" + "".join(c * 2 for c in row))
    out.append(" " * 8 + "+" + "--" * width)
    out.append(" " * 9 + f"{labels[0]} … {labels[-1]}  ({width} rounds)")
    out.append("  ".join(f"{MARKS[i % len(MARKS)]} {name}" for i, name in enumerate(lines)))
    return "\n".join(out)


def png(labels: list[str], lines: dict[str, list], path: Path, title: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise CommandError("PNG charts need matplotlib", "pip install 'bank18xx[charts]'") from exc
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.35), 4.5))
    for name, vs in lines.items():
        xs = [i for i, v in enumerate(vs) if v is not None]
        ax.plot(xs, [vs[i] for i in xs], marker=".", label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=90, fontsize=7)
    ax.set_title(title)
    ax.set_ylabel("$")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
