"""1801 / 18OE: the concession round (§8.1): the concessions' holders float a minor or a regional,
or (only when they can do neither) par a regional into the Open Market, in the concessions' order."""

from __future__ import annotations

from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.round_kind import RoundKind, known_round
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import acct_name

from .common import AXIS, rules

ROUND_KINDS = ("concessions",)
KNOBS = {"title_rules": {
    "concessions": Knob(bool, None, REQUIRED),
}}


# =========================================================================== the concession round

def concession_holder(s) -> tuple[str, str] | None:
    """(concession, its holder) of the lowest-numbered concession still to execute."""
    held = [(int(sym[1:]), sym, acct_name(a.owner)) for sym, a in s.assets.items()
            if a.kind == "concession" and a.owner and a.owner.startswith("player:") and not a.closed]
    return (min(held)[1], min(held)[2]) if held else None


def start_concessions(ctx, priority: int | None = None, **_carry) -> None:
    s = ctx.state
    prio = s.priority if priority is None else priority
    if rules(ctx.rs, "concessions"):
        ctx.emit("axis_phase_changed", axis=AXIS, phase="concession")
    ctx.emit("round_started", round={"kind": "concessions"}, priority=prio)
    concessions_progress(ctx)


def concessions_progress(ctx) -> bool:
    s = ctx.state
    if s.round.get("kind") != "concessions" or concession_holder(s):
        return False
    ctx.emit("axis_phase_changed", axis=AXIS, phase="regional")
    ctx.next_round(priority=s.priority)
    return True


def concession_turn(ctx, player: str) -> str:
    """The concession the player executes now, or a refusal (§8.1: in number order)."""
    s = ctx.state
    due = concession_holder(s)
    if due is None or due[1] != player:
        refuse(*concession_not_turn(s, ctx.rs, player, [], ""))
    return due[0]


def concession_not_turn(s, rs, player: str, actors: list, verb: str) -> tuple[str, None]:
    due = concession_holder(s)
    if due is None:
        return "no concession is left to execute", None
    return f"concession {due[0]} is executed next, by {due[1]}, not by {player} (§8.1)", None


def executed(ctx, concession: str) -> None:
    ctx.emit("concession_executed", concession=concession, assets=[[concession, ctx.state.assets[concession].owner,
                                                                     None]])


def concessions_heading(s, rs) -> str:
    due = concession_holder(s)
    return f"Concession {due[0]}: {due[1]}" if due else "The concession round"


CONCESSIONS = known_round(RoundKind(
    name="concessions", start=start_concessions, progress=concessions_progress,
    actor=lambda s: (concession_holder(s) or (None, None))[1], heading=concessions_heading,
    not_turn=concession_not_turn,
    label=lambda r: "Concessions", title=lambda r: "The concession round"))


@event
class ConcessionExecuted:
    concession: str

    def apply(s, e):
        s.assets[e["concession"]].closed = True

    def describe(e, rs):
        return f"concession {e['concession']} is executed and leaves play (§8.1)"


def register(reg) -> None:
    reg.round(CONCESSIONS)
