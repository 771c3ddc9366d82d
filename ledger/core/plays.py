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

from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable


class Needed(list):
    """Candidates of an option that must be given here (a train from another company needs its
    agreed price): the answer never tries the command without it."""


def needed(found) -> bool:
    """Whether candidates say their word must be given (Needed, or Bounds(..., needed=True))."""
    return isinstance(found, Needed) or bool(getattr(found, "needed", False))


class Open:
    """A word's legal values when they are too many to list: every value the domain holds is legal.
    A Play's candidate function returns one where a list will not do (an amount, a city as printed,
    a set of fee modifiers); the answer decides its `tries` and narrows it to what the rule accepts."""

    def tries(self) -> list:
        """The values a completion decides to know whether any is legal."""
        raise NotImplementedError

    def narrowed(self, legal) -> "Open | None":
        """The domain with only what `legal(value)` accepts (None when nothing is)."""
        raise NotImplementedError

    def text(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Bounds(Open):
    """A number's legal values: `low` to `high` (None: no ceiling) in steps of `step` from `low`.
    Declared by a Play from the rule's own limits (a floor, a ceiling, a multiple); the answer
    decides its ends and moves one the rule refuses, by bisection, to the last it accepts; one the
    Play takes from the rule's own figures (`exact`: a treasury paying alone, at least 1) has only
    its least value decided."""
    low: int
    high: int | None = None
    step: int = 1
    exact: bool = field(default=False, compare=False)
    needed: bool = field(default=False, compare=False)   # the word must be given here (see `needed`)

    def __contains__(self, value) -> bool:
        try:
            value = int(str(value))
        except ValueError:
            return False
        return self.low <= value and (self.high is None or value <= self.high) and (value - self.low) % self.step == 0

    def tries(self) -> list:
        return list(dict.fromkeys([self.low] + ([self.last] if self.high is not None else [])))

    @property
    def last(self) -> int:
        return self.low + (self.high - self.low) // self.step * self.step if self.high is not None else self.low

    def narrowed(self, legal) -> "Bounds | None":
        low, step = self.low, self.step
        if self.high is None or self.exact:
            return self if (self.high is None or self.high >= low) and legal(low) else None
        if self.high < low:
            return None
        last = self.last
        low_ok, high_ok = legal(low), legal(last)
        if low_ok and high_ok:
            return replace(self, high=last)
        if not low_ok and not high_ok:
            return None
        lo, hi = 0, (last - low) // step       # indexes on the step: lo on the legal side, hi on the other
        if low_ok:
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if legal(low + mid * step) else (lo, mid)
            return replace(self, high=low + lo * step)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if legal(low + mid * step) else (mid, hi)
        return replace(self, low=low + hi * step, high=last)

    def text(self) -> str:
        if self.high is None:
            return f"at least {self.low}"
        if self.high == self.low:
            return str(self.low)
        return f"{self.low} to {self.high}" + (f" in steps of {self.step}" if self.step > 1 else "")


@dataclass(frozen=True)
class Text(Open):
    """Free words the rule reads as the table announces them (a city as printed on the map):
    `suggest` the ones worth offering, `probe` a word to decide whether any is legal (one no
    earlier command used). `what` says what it is."""
    what: str
    suggest: tuple = ()
    probe: str | None = None

    def __contains__(self, value) -> bool:
        return isinstance(value, str) and bool(value.strip())

    def tries(self) -> list:
        return list(dict.fromkeys(([self.probe] if self.probe else []) + list(self.suggest)))

    def narrowed(self, legal) -> "Text | None":
        suggest = tuple(v for v in self.suggest if legal(v))
        if self.probe is not None and legal(self.probe) or suggest:
            return Text(self.what, suggest, self.probe if self.probe is not None and legal(self.probe) else None)
        return None

    def text(self) -> str:
        return self.what


@dataclass(frozen=True)
class Picks(Open):
    """A comma-separated choice of names (each once): `names` alone, `counted` as NAME=N with N
    from 1 (a fee modifier's count: sea=2), `ordered` all of them in any order (a seating)."""
    names: tuple = ()
    counted: tuple = ()
    ordered: bool = False
    labels: tuple = ()      # (name, what it is in the rulebook's words): how a page names a choice

    def parts(self, value) -> list[tuple[str, str]] | None:
        if not isinstance(value, str) or not value.strip():
            return None
        out = []
        for part in value.split(","):
            name, eq, count = part.strip().partition("=")
            out.append((name, count if eq else ""))
        return out

    def __contains__(self, value) -> bool:
        parts = self.parts(value)
        if parts is None:
            return False
        seen = [n.lower() for n, _c in parts]
        if len(set(seen)) != len(seen):
            return False
        names, counted = {n.lower() for n in self.names}, {n.lower() for n in self.counted}
        for name, count in parts:
            if name.lower() in counted:
                if not count.isdigit() or int(count) < 1 or count != str(int(count)):
                    return False
            elif name.lower() not in names or count:
                return False
        return not self.ordered or sorted(seen) == sorted(n.lower() for n in self.names)

    def tries(self) -> list:
        if self.ordered:
            return [",".join(self.names)] if self.names else []
        return list(self.names) + [f"{n}=1" for n in self.counted]

    def narrowed(self, legal) -> "Picks | None":
        if self.ordered:
            return self if self.names and legal(",".join(self.names)) else None
        names = tuple(n for n in self.names if legal(n))
        counted = tuple(n for n in self.counted if legal(f"{n}=1"))
        return Picks(names, counted, labels=self.labels) if names or counted else None

    def text(self) -> str:
        if self.ordered:
            return "all of " + ", ".join(self.names) + " in order, comma-separated"
        words = list(self.names) + [f"{n}=N" for n in self.counted]
        return "any of " + ", ".join(words) + ", comma-separated"


@dataclass(frozen=True)
class Quoted:
    """A figure the rule fixes and the command may repeat (a station's cost on the charter): its one
    legal value is what the rule charges when the word is left out, read from the events of the
    command decided without it."""


def always(*_args) -> list[str]:
    return []


@dataclass(frozen=True)
class Play:
    """A verb as a round kind plays it.

    `handler(ctx, cmd)`: the rule (it emits the events). `rounds`: the round kinds ('*': any);
    `answers`: instead, the kind of pending decision it answers. `who(s, rs)`: the actors who may
    use it now, the value of its first argument (players or companies); `who` left out: the
    round's actors; returning None: anyone; an empty list: nobody now. `bars(s, rs, actor)`: why
    the actor may not use it now ([]: it may); `when(s, rs)`: why nobody may.

    `candidates`: word (a Command key, an argument's or an option's) -> `(s, rs, actor, args) ->`
    a list, or an Open domain (Bounds, Text, Picks; Quoted for a figure the rule fixes): the
    values worth trying given the words chosen before it (ledger.core.legal keeps those the rule
    accepts); a word left out takes its kind's candidates. `reads`: the words its rule reads in
    this round, None for all its grammar has (any other is refused, so that nothing typed is
    silently ignored: a count on an auction's buy). `together`: groups of options that only make
    sense given together (1801: the swap and the major it comes from); every other option is
    searched on its own. `leads`: options searched before the arguments, whose values narrow the
    arguments' candidates (where a train comes from). `last`: arguments decided after the options,
    whose legal values the options set (a station's quoted cost).

    `phrase(s, rs, actors)`: its words in the Next line ("" to stay out of it, None: the verb's
    name), which spell commands only as `{command}` / `{commands}` (made from the answer); with
    `listing` (an argument's name), `phrase(s, rs, actors, values)` also gets that argument's
    legal values for the first actor, to list them. `offered`: False for verbs any round accepts
    and no turn lists (corrections). `elsewhere`: the refusal in a round that does not play it.
    `phases`: the phases of a phase axis it is played in ({axis: (phase, ...)}). `not_actor(s, rs,
    actor) -> (message, hint)`: its own refusal of an actor not among `who` (else the round's)."""
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
    listing: str = ""
    reads: tuple | None = None
    together: tuple = ()
    leads: tuple = ()
    last: tuple = ()
    extensions: tuple = ()   # what features add around the rule (Extension), in the order they run

    def with_(self, **changes) -> "Play":
        from dataclasses import replace
        return replace(self, **changes)

    def run(self, ctx, cmd) -> None:
        """Play the command: the extensions `before` the rule, then the rule inside every `around`
        (the first declared outermost), then those `after` it. A title replacing the rule
        (Registry.rework(handler=...)) keeps the extensions, and an extension wraps whatever rule
        is in place when the command is played: the chain does not depend on which feature
        registered first."""
        for ext in self.stage("before"):
            ext.fn(ctx, cmd)
        inner = self.handler
        for ext in reversed(self.stage("around")):
            inner = partial(wrapped, ext.fn, inner)
        inner(ctx, cmd)
        for ext in self.stage("after"):
            ext.fn(ctx, cmd)

    def stage(self, stage: str) -> list["Extension"]:
        return [e for e in self.extensions if e.stage == stage]

    def chain(self) -> list[str]:
        """The verb's chain in words, in the order it runs: 'before: charge_unspent
        (rulesets.1839.powers)', 'around: ...', 'rule: cmd_done (ledger.core.rules.turn)', 'after: ...'."""
        return ([f"before: {e.said()}" for e in self.stage("before")]
                + [f"around: {e.said()}" for e in self.stage("around")]
                + [f"rule: {named(self.handler)}"]
                + [f"after: {e.said()}" for e in self.stage("after")])


@dataclass(frozen=True)
class Extension:
    """What a feature adds to a verb's rule: `before` it (`fn(ctx, cmd)`: a check that may refuse,
    or what must happen first), `around` it (`fn(ctx, cmd, inner)`: plays `inner(ctx, cmd)`, the
    rule with the extensions inside this one, once or not at all), or `after` it (`fn(ctx, cmd)`).
    `name` says what it does, for a verb's chain."""
    stage: str
    fn: Callable
    name: str = ""

    def said(self) -> str:
        return f"{self.name}: {named(self.fn)}" if self.name else named(self.fn)


def wrapped(around, inner, ctx, cmd) -> None:
    """An `around` extension playing the rule inside it (`inner`), passed in the third place."""
    around(ctx, cmd, inner)


def named(fn) -> str:
    """A function as a chain names it: its name and the module it is declared in."""
    fn = getattr(fn, "func", fn)
    return f"{getattr(fn, '__name__', repr(fn))} ({getattr(fn, '__module__', '?')})"


def join_words(words: list[str]) -> str:
    """'a, b or c': the steps of a Next line."""
    words = [w for w in words if w]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]
