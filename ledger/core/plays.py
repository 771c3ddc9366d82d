"""What a verb does in a round, declared once (a `Play`): the rule that plays it, who may use it
now, why it is not allowed now, and where its arguments' legal values come from.

A verb's words (its arguments and options, its help) are the grammar's (ledger.core.grammar); a
Play is the verb as one kind of round plays it (`buy` in the auction is not `buy` in a stock
round). The engine refuses a command through its Play before the rule runs, in the rules' order:
the actor (a name that names nobody, then not the actor's turn), then the verb's bars (why not
now), then the rule itself, which refuses what is wrong with the arguments in its own words. What
is legal now (ledger.core.legal: the Next line, the shell's completion, the board page, the random
players of the tests) is asked of the same Plays: a verb is offered when its bars are empty and
its arguments have a legal completion, found by deciding candidate commands on a scratch copy of
the game, so an argument's choices are exactly what the rule accepts.

A leaf of the core: the registry holds Plays; the engine and `legal` read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Bounds:
    """A number's legal values now: `low` to `high` (None: no ceiling but what the rule checks) in
    steps of `step` from `low`."""
    low: int
    high: int | None = None
    step: int = 1

    def __contains__(self, value: int) -> bool:
        return self.low <= value and (self.high is None or value <= self.high) and (value - self.low) % self.step == 0

    def samples(self) -> list[int]:
        """The values a completion tries, and the random players draw: the least, the most, one
        between (on the step)."""
        if self.high is None or self.high <= self.low:
            return [self.low]
        middle = self.low + (self.high - self.low) // 2 // self.step * self.step
        return list(dict.fromkeys([self.low, middle, self.high - (self.high - self.low) % self.step]))

    def text(self) -> str:
        if self.high is None:
            return f"at least {self.low}"
        if self.high == self.low:
            return str(self.low)
        return f"{self.low} to {self.high}" + (f" in steps of {self.step}" if self.step > 1 else "")


def always(*_args) -> list[str]:
    return []


@dataclass(frozen=True)
class Play:
    """A verb as a round kind plays it.

    `handler(ctx, cmd)`: the rule (it emits the events). `rounds`: the round kinds ('*': any);
    `answers`: instead, the kind of pending decision it answers. `who(s, rs)`: the actors who may
    use it now, the value of its first argument (players or companies); `who` left out: the
    round's actors; returning None: anyone; an empty list: nobody now. `bars(s, rs, actor)`: why the actor may not use it now ([]: it
    may). `candidates`: argument or option name -> `(s, rs, actor, args) -> list | Bounds`, the
    values worth trying (the legal ones are those the rule accepts); an argument left out takes
    its kind's candidates. `phrase(s, rs, actors)`: its words in the Next line ("" to stay out of
    it, None: the verb's name); with `listing` (an argument's name), `phrase(s, rs, actors, values)`
    also gets that argument's legal values for the first actor, to list them. `offered`: False for verbs any round accepts and no turn lists
    (corrections). `elsewhere`: the refusal in a round that does not play it. `phases`: the phases
    of a phase axis it is played in ({axis: (phase, ...)}). `not_actor(s, rs, actor) -> (message,
    hint)`: its own refusal of an actor not among `who` (else the round's). `fill`: options a
    command of it always gives (1839's draws: `deal --random SEED`), filled from `candidates` when
    a completion is sought."""
    verb: str
    handler: Callable
    rounds: tuple = ("*",)
    answers: str = ""
    who: Callable | None = None
    when: Callable = always
    bars: Callable = always
    candidates: dict = field(default_factory=dict)
    phrase: Callable | None = None
    offered: bool = True
    elsewhere: str = ""
    phases: dict = field(default_factory=dict)
    not_actor: Callable | None = None
    fill: tuple = ()
    listing: str = ""

    def with_(self, **changes) -> "Play":
        from dataclasses import replace
        return replace(self, **changes)


def join_words(words: list[str]) -> str:
    """'a, b or c': the steps of a Next line."""
    words = [w for w in words if w]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]
