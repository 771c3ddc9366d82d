"""Kinds read from games recorded by older versions of the engine, never written now."""

from __future__ import annotations

from ledger.core.events.declare import event
from ledger.core.events.operating import OR_KEYS


@event
class RoundUpdate:
    """Legacy (games recorded before typed events): turn bookkeeping as a bag of new values. Read,
    never written: each change now has its own kind below."""
    set: dict

    def apply(s, e):
        if "pos" in e["set"] and s.round.get("kind") == "operating":   # a company's turn began: as CorpTurnStarted
            s.round = {k: v for k, v in s.round.items() if k in OR_KEYS}
        s.round.update(e["set"])
