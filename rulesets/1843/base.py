"""What every feature of 1843 stands on: the title's own state, how older games of it read today,
the table's names for a company's trains, and the options of shared verbs that 1843's data drives.

The one feature of the package that declares STATE (ledger.core.parts); its `upgrade_event` is the
title's one reading of older stored events (events.upgrades keeps one per title).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.core import events
from ledger.core.grammar import Opt, TitleGrammar
from ledger.core.rules import trains
from ledger.core.state import train_type


@dataclass
class State:
    """What 1843's own rules keep (GameState.own): the companies that moved a station (once a
    game, §8.5.2), the sets in which a company owned the end's trigger train (§8.10.1 #4), and
    whether one bought it in the set under way."""
    stations_moved: list = field(default_factory=list)
    owned_sets: int = 0
    owned_this_set: bool = False


STATE = State


@events.upgrades
def upgrade_event(e: dict) -> None:
    """Events stored before engine version 5 flag a rusted certificate bought again `relic`; those of
    version 1 keep a port claimed in the turn's bookkeeping (today's claim marks the station step)."""
    if e["kind"] == "round_update" and "port" in e["set"]:
        e["set"] = {k: v for k, v in e["set"].items() if k != "port"}
    if "relic" in e:
        e["rusted"] = e.pop("relic")
    for flags in e.get("flags", {}).values():
        if "relic" in flags:
            flags["bought_rusted"] = flags.pop("relic")


def own_sides(s, rs, corp) -> list[str]:
    """The company's trains as the table names them: each certificate by the side it lies on, or
    by its colour (the certificate's type)."""
    return sorted({w for t in s.corp_trains(corp) for w in (trains.side_name(s, rs, t), train_type(t))})


# Options of shared verbs whose rules the shared engine plays from 1843's data: the Paris fee
# (§8.4.3) and the privates' station powers (§10.2).
GRAMMAR = TitleGrammar(options={
    "tile": (Opt("--hex", "hex", kind="hex", help="a hex with a fee (1843: paris)"),),
    "token": (Opt("--using", "using", kind="private", help="a private's station power (1843: HAV, BA)"),),
})
