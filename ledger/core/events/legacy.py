"""Kinds read from games recorded by older versions of the engine, never written now."""

from __future__ import annotations

from ledger.core.events.declare import event
from ledger.core.events.operating import OR_KEYS
from ledger.core.round_state import make_round


@event
class RoundUpdate:
    """Legacy (games recorded before typed events): turn bookkeeping as a bag of new values. Read,
    never written: each change now has its own kind below."""
    set: dict

    def apply(s, e):
        r = s.round
        if "pos" in e["set"] and r.get("kind") == "operating":   # a company's turn began: as CorpTurnStarted
            r = r.kept(OR_KEYS)
        s.round = make_round(s.title, {**r.as_data(), **e["set"]})   # what this version no longer keeps is passed over
