"""What the books derive from the events and from the engine's own sources, for the record and
its audit alike: each round's cash and worth rows, the events' running digest a snapshot is checked
against, and which engine wrote a snapshot (its fingerprint)."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from ledger import ENGINE_VERSION
from ledger.core import snapshot
from ledger.core.events import apply
from ledger.core.state import GameState, round_label


def extend_events_hash(digest: str, rows: list[tuple[int, str]]) -> str:
    """The digest of the active events, extended by more (id, data) rows: a chain, so a snapshot's
    digest follows from the previous one's without reading the events before it again."""
    for event_id, data in rows:
        digest = hashlib.sha256(f"{digest}|{event_id}|{data}".encode()).hexdigest()
    return digest


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """Which engine wrote a state snapshot: the engine version, the snapshot format, the state's
    layout and the source of the pure core and the titles' modules (everything that decides what
    applying an event does). Equal sources give equal fingerprints on every machine, so a game
    file shared between people keeps its snapshots; any change to the engine ignores them."""
    import ledger.core
    import rulesets
    digest = hashlib.sha256(f"{ENGINE_VERSION}:{snapshot.FORMAT}:{snapshot.layout_digest()}".encode())
    for package in (ledger.core, rulesets):
        root = Path(package.__file__).parent
        for path in source_files(root):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


def source_files(root: Path) -> list[Path]:
    """The .py files under a package folder, in a fixed order (os.walk: cheaper than a glob on a
    cold start)."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        found += [Path(folder, n) for n in names if n.endswith(".py")]
    return sorted(found)


def round_snapshots(state: GameState, rs, events: list[dict]) -> list[tuple[str, list[dict]]]:
    """Each player's cash and worth at the moment each round begins (and when the game ends), for
    the ledger's per-round snapshots; the same moment `bank export` uses."""
    from ledger.core.scoring import snapshot_rows
    if not any(e["kind"] in ("round_started", "game_over") for e in events):
        return []
    work, out = state.clone(), []
    for event in events:
        apply(work, event)
        if event["kind"] in ("round_started", "game_over"):
            out.append((round_label(work), snapshot_rows(work, rs)))
    return out
