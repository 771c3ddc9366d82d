"""What a title plays with: its round kinds, verbs, event kinds and hooks, asked by the engine.

(Being built up: round names for now.)
"""

from __future__ import annotations


def round_title(r: dict) -> str:
    """A round's name in full, for the log: 'Stock Round 3', 'Operating Round 2.1 (of 2)'."""
    if r["kind"] == "stock":
        return f"Stock Round {r['number']}"
    if r["kind"] == "operating":
        return f"Operating Round {r['set']}.{r['index']} (of {r['count']})"
    return "Private auction"
