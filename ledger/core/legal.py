"""What is legal now, asked by every view and by the shell: who acts, the verbs they may type, and
the one line that says so ('Next: ...').

Each round kind and each pending decision answers for itself (registered in the title's registry);
this module only asks. A hint never repeats a rule: it is built from the same checks the commands
make (for example `track.can_lay_tile`).
"""

from __future__ import annotations

from dataclasses import replace

from ledger.core.names import pasteable
from ledger.core.round_kind import Action, Turn
from ledger.core.titles import for_ruleset


def turn(s, rs) -> Turn:
    """Who acts now and what they may do, in words that paste into bash as they are."""
    found = raw_turn(s, rs)
    return Turn(found.actor, tuple(replace(a, text=pasteable(a.text, rs, amounts=True)) if a.text else a
                                   for a in found.actions), pasteable(found.line, rs, amounts=True))


def raw_turn(s, rs) -> Turn:
    if s.game_over:
        return Turn(None, (), f"The game is over ({s.end_reason}). See 'bank score'.")
    reg = for_ruleset(rs)
    if s.pending:
        due = s.pending[0]
        return reg.pending_turn[due["kind"]](s, rs, due, reg)
    own = reg.rounds[s.round["kind"]].legal(s, rs, reg)
    added = reg.offered(s, rs, s.round["kind"])
    if not added:
        return own
    words = ", ".join(a.text or " ".join(map(str, (a.verb, *a.args))) for a in added)
    return Turn(own.actor, own.actions + tuple(added), f"{own.line}; or {words}")


def actions(s, rs) -> list[Action]:
    return list(turn(s, rs).actions)


def hint(s, rs) -> str:
    """The 'Next:' line: who acts now and what they may do."""
    return turn(s, rs).line
