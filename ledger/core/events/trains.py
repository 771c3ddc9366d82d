"""The shared events of trains and phases: purchases, phase changes, rusting and discards."""

from __future__ import annotations

from ledger.core.events.declare import event


@event
class TrainBought:
    corp: str
    train: str
    type: str
    seller: str
    price: int
    side: str = None
    contribution: int = 0
    president: str = None
    trade_in: str = None
    rusted: bool = False

    def apply(s, e):
        s.corps[e["corp"]].trained = True
        if s.round.get("kind") == "operating":
            s.round = s.round.but(trains=s.round.get("trains", 0) + 1)


@event
class PhaseChanged:
    phase: str
    train: str
    limit: int
    certificate_limit: int = None
    rusted: list[str] = None
    obsolete: list[str] = None

    def apply(s, e):
        s.phase = e["phase"]


@event
class TrainsRusted:
    train: str
    rusted: list[str]
    obsolete: list[str] = None


@event
class TrainDiscarded:
    corp: str
    train: str
    rusted: bool = False


@event
class ObsoleteDiscarded:
    """Obsolete certificates have made their last run and leave play."""
    corp: str
