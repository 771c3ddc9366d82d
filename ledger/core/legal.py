"""What is legal now, asked by every view and by the shell: who acts, the verbs they may type, and
the one line that says so ('Next: ...').

Each round kind and each pending decision answers for itself (registered in the title's registry
as `legal`); this module only asks. A hint never repeats a rule: it is built from the same checks
the commands make (for example `track.can_lay_tile`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.core import registry


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

    def verbs(self) -> list[str]:
        return list(dict.fromkeys(a.verb for a in self.actions))


def turn(s, rs) -> Turn:
    if s.game_over:
        return Turn(None, (), f"The game is over ({s.end_reason}). See 'bank score'.")
    reg = registry.for_ruleset(rs)
    if s.pending:
        due = s.pending[0]
        return reg.pending_turn[due["kind"]](s, rs, due)
    return reg.rounds[s.round["kind"]].legal(s, rs)


def actions(s, rs) -> list[Action]:
    return list(turn(s, rs).actions)


def hint(s, rs) -> str:
    """The 'Next:' line: who acts now and what they may do."""
    return turn(s, rs).line
