"""What a kind of round is (its start, progress, actor, names and what is legal in it) and what it
answers when asked what is legal now (an Action, a Turn). A leaf of the core: round kinds, the
registry, the events and the views all read it, and it reads none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class RoundKind:
    """A kind of round: how it starts, moves on by itself, whose turn it is and what it is called.

    `start(ctx, **carry)`: emit the round's start (`carry` is what the previous round hands on,
    e.g. the priority deal). `progress(ctx) -> bool`: the automatic consequences after a command
    (True if anything happened). `actor(state) -> str | None`: the player or company to act.
    `label(round) -> 'SR 3'` and `title(round) -> 'Stock Round 3'` name it. `heading(state, rs)`:
    the Next line before its steps ('SR 2: Bob'); the steps are the verbs legal now, asked of their
    Plays (ledger.core.legal). `actors(state, rs)`: who may act now when not only `actor` may (a
    stock round's next player, once the one whose turn it is has acted). `not_turn(state, rs, actor,
    actors, verb) -> (message, hint)`: the refusal of anyone else. `done_heading(state, rs, next)`:
    the heading once the one whose turn it is may only end it, which `next`'s first action does (the
    answer hands the turn on). `breaks_bank(state)`: the last set of ORs to play if the bank breaks
    during this round."""
    name: str
    start: Callable
    progress: Callable
    actor: Callable
    label: Callable
    title: Callable
    heading: Callable
    actors: Callable | None = None
    not_turn: Callable | None = None
    done_heading: Callable | None = None
    breaks_bank: Callable = lambda s: 1


@dataclass(frozen=True)
class Action:
    """Something the actor may type now: `verb` with the leading arguments `args` (the actor, and
    any that are already fixed), and how the table reads it."""
    verb: str
    args: tuple = ()
    text: str = ""


@dataclass(frozen=True)
class Turn:
    """Who acts now (a player or a company), what they may do, and the line that says so."""
    actor: str | None
    actions: tuple[Action, ...] = field(default_factory=tuple)
    line: str = ""
    commands: tuple[str, ...] = ()   # the whole commands the line spells, each as it pastes into bash
    heading: str = ""                # the line's first part: the round and whose turn, without the verbs

    def verbs(self) -> list[str]:
        return list(dict.fromkeys(a.verb for a in self.actions))


# --------------------------------------------------------------------------- names of rounds

def round_label(s) -> str:
    """'Auction', 'SR 3', 'OR 2.1' or 'Game over': how the table names the current round."""
    return label_of(s.round)


def label_of(r: dict) -> str:
    if r["kind"] == "over":
        return "Game over"
    kind = named(r["kind"])
    return kind.label(r) if kind else r["kind"]


def round_title(r: dict) -> str:
    """A round's name in full, for the log: 'Stock Round 3', 'Operating Round 2.1 (of 2)'."""
    kind = named(r["kind"])
    return kind.title(r) if kind else r["kind"]


def named(name: str) -> "RoundKind | None":
    """The round kind of this name. Every kind registers when its module is imported: the shared
    ones (auction, stock, operating) with the core's composition root (ledger.core.titles, which
    the engine and every reader of a game import), a title's with its package; so a round is named
    the same whatever ran first ('Auction', never 'auction')."""
    return SHARED_NAMES.get(name)


# Every round kind any title registers, by name (names are unique across titles), so that a
# round can be named from the state alone (views, history, snapshots).
SHARED_NAMES: dict[str, RoundKind] = {}


def known_round(kind: RoundKind) -> RoundKind:
    SHARED_NAMES[kind.name] = kind
    return kind
