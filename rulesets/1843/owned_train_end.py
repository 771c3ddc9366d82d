"""The owned-train end (RULES §8.10.1 #4): the game ends after the Nth set in which a company owned
the title's trigger train (gray) at some point: one bought it in the set, or one held it as the set
began or ended (a gray train never leaves a company; the foreigners' trains are no company's, E16).

Registered before the ports and the foreigners: a set is seen before the ports pay, and counted
(perhaps ending the game) before the foreigners buy.
"""

from __future__ import annotations

from ledger.core.events import event
from ledger.core.ruleset import Knob
from ledger.core.state import train_type

KNOBS = {"title_rules": {
    "owned_train_sets": Knob(int, None, 0),        # the game ends after the Nth set ...
    "owned_train_type": Knob(str, None, ""),       # ... in which a company owned this train type
}}

# Where games stored before these were 1843's own kept them (the shared section).
LEGACY_KNOBS = {
    ("endgame", "owned_train_sets"): ("title_rules", "owned_train_sets"),
    ("endgame", "owned_train_type"): ("title_rules", "owned_train_type"),
}


def check(rs, problems: list[str]) -> None:
    value = rs.k("title_rules", "owned_train_type")
    if value and value not in {t.name for t in rs.trains}:
        problems.append(f"title_rules.owned_train_type: no train '{value}'")


def register(reg) -> None:
    reg.on("or_started", set_began)
    reg.on("or_set_ended", count_owned_set)
    reg.on("train_bought", saw_train)


def set_began(ctx) -> None:
    """A company holding the trigger train as a set begins makes the set count."""
    s, rs = ctx.state, ctx.rs
    owned = rs.k("title_rules", "owned_train_type")
    if owned and s.round["index"] == 1:
        holder = next((sym for sym in s.corps if any(t.startswith(owned + ".") for t in s.corp_trains(sym))), None)
        if holder:
            saw_train(ctx, holder, owned)


def saw_train(ctx, corp: str, name: str) -> None:
    """The set counts toward the end when a company owns the title's trigger train (gray)."""
    s, rs = ctx.state, ctx.rs
    if rs.k("title_rules", "owned_train_sets") and name == rs.k("title_rules", "owned_train_type") \
            and not s.own.owned_this_set:
        ctx.emit("owned_type_seen", corp=corp, type=name)


def count_owned_set(ctx) -> bool:
    """The game ends after the Nth set in which a company owned the trigger train at some point."""
    s, rs = ctx.state, ctx.rs
    needed = rs.k("title_rules", "owned_train_sets")
    kind = rs.k("title_rules", "owned_train_type")
    owned = any(train_type(t) == kind and h.startswith("company:") for t, h in s.trains.items())
    if not needed or not (s.own.owned_this_set or owned):
        return False
    ctx.emit("owned_set_counted", sets=s.own.owned_sets + 1, type=kind)
    if s.own.owned_sets >= needed:
        ctx.emit("game_over", reason=f"the end of set {s.round['set']}, set {needed} in which a company "
                                     f"owned a {rs.k('title_rules', 'owned_train_type')} train")
        return True
    return False


@event
class OwnedTypeSeen:
    """A company owns the end-trigger train in this set (§8.10.1 #4)."""
    corp: str
    type: str

    def apply(s, e):
        s.own.owned_this_set = True


@event
class OwnedSetCounted:
    sets: int
    type: str

    def apply(s, e):
        s.own.owned_sets = e["sets"]
        s.own.owned_this_set = False

    def describe(e, rs):
        return f"-- set {e['sets']} with a company-owned {e['type']} train --"
