"""What a table page offers: the legal actions now, as forms, asked of the core (ledger.core.legal,
the source the Next line and the shell's completion use), never a list of its own.

A player's page offers the actions whose actor is that player or a company they preside over; the
banker's page every action, also those nobody in particular takes. Each action's arguments are
walked in the grammar's order: an argument with a few legal values becomes buttons (one form per
value of the arguments before it), an amount a number field with its bounds, free text a text field.

And back: a submitted form (verb, actor, argument values) becomes a Command through the grammar
(grammar.build, as the command line builds one), and the line the ledger records is that command's
words, which the grammar must read back as the same command.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from ledger.core import engine, grammar, legal
from ledger.core.command import Command
from ledger.core.errors import CommandError

# A page never lists more buttons than this (a title with many tiles' costs stays readable).
MOST_BUTTONS = 120
BANKER = "banker"


@dataclass(frozen=True)
class Form:
    """One form on a page: `verb` for `actor` with the `fixed` arguments, and what is left to choose:
    `choice` (an argument and its legal values: one button each), `number` (an argument and its
    Bounds) or `text` (an argument of free text); none of them: one button."""
    verb: str
    actor: str | None
    label: str
    fixed: tuple = ()                      # ((name, value), ...)
    choice: tuple | None = None            # (name, (value, ...))
    number: tuple | None = None            # (name, Bounds)
    text: str | None = None                # an argument's name

    @property
    def shown(self) -> str:
        """The fixed values a reader needs to tell this form from its neighbours (a switch is not)."""
        return " ".join(str(v) for _k, v in self.fixed if v is not None and v is not True)

    @property
    def size(self) -> int:
        return len(self.choice[1]) if self.choice else 1


@dataclass(frozen=True)
class Offer:
    """A page's actions now: who acts (the Next line), the forms, and the game's version they were
    decided on (the last command: a form names it, so a page drawn before a later command is refused)."""
    head: int
    line: str
    forms: tuple = ()
    mine: bool = False                     # the page's holder may act now
    pending: tuple = field(default_factory=tuple)


def who_label(who: str) -> str:
    return "the banker" if who == BANKER else who.removeprefix("player:")


def acts_for(s, who: str, actor) -> bool:
    """Whether the holder of a link may act as `actor`: the banker as anyone; a player as
    themselves, or as a company they preside over."""
    if who == BANKER:
        return True
    return actor is not None and legal.player_for(s, actor) == who.removeprefix("player:")


def offer(s, rs, who: str, head: int) -> Offer:
    turn = legal.turn(s, rs)
    forms, budget = [], MOST_BUTTONS
    for action in turn.actions:
        actor = action.args[0] if action.args else None
        if not acts_for(s, who, actor):
            continue
        for form in forms_of(s, rs, action.verb, actor, action.text):
            if form.size > budget:
                break
            budget -= form.size
            forms.append(form)
    return Offer(head, turn.line, tuple(forms), mine=bool(forms))


def forms_of(s, rs, verb: str, actor, text: str) -> list[Form]:
    """The forms of one verb for one actor: each legal command one button, those that differ only
    in their last word one form with a button per word, an open amount a number field."""
    play = legal.play_now(s, rs, verb)
    if play is None:
        return []
    label = text or verb
    forms: dict[tuple, list] = {}
    numbers = []
    for found in legal.offers_of(legal.Position(s, rs), play, actor):
        values = list(found.values)
        if found.open:
            name, bounds = found.open[-1]
            numbers.append(Form(verb, actor, label, tuple(values) + tuple((k, b.low) for k, b in found.open[:-1]),
                                number=(name, bounds)))
        elif values and values[-1][1] is not True:
            forms.setdefault((tuple(values[:-1]), values[-1][0]), []).append(values[-1][1])
        else:
            forms.setdefault((tuple(values), None), [])
    out = []
    for (fixed, name), choices in forms.items():
        out.append(Form(verb, actor, label, fixed, choice=(name, tuple(choices))) if name else
                   Form(verb, actor, label, fixed))
    return out + numbers


# --------------------------------------------------------------------------- a submitted form -> a Command

def command_of(rs, verb_name: str, actor: str | None, values: dict[str, str]) -> tuple[Command, str]:
    """The Command a form asks for, built by the grammar from its verb, actor and argument values
    (no option that waives the rules: that is the banker's command line), and the line recorded."""
    verb = grammar.verbs_of(rs).get(verb_name)
    if verb is None or not verb.game:
        raise CommandError(f"no game command '{verb_name}' in {rs.title}")
    actor_arg = engine.actor_arg(rs, verb_name)
    # a form's words are text, as a terminal's are (a control's fixed amount too)
    named = {k: v if isinstance(v, bool) else str(v) for k, v in values.items()}
    if actor_arg:
        if not actor:
            raise CommandError(f"{verb_name} needs who acts")
        named[actor_arg] = actor
    params = {}
    for key, value in named.items():
        params.update(param_of(verb, key, value))
    cmd = grammar.build(verb, params)
    words = grammar.words_of(verb, cmd)
    if grammar.parse(verb.name, words[1:], grammar.verbs_of(rs)) != cmd:
        raise CommandError(f"the form's values do not make one {verb_name} command")
    return cmd, shlex.join(words)


def param_of(verb, key: str, value) -> dict:
    """A form's value for argument or option `key`, as the grammar's parameter it sets."""
    if any(a.name == key for a in verb.args):
        return {key: value}
    options = [o for o in verb.options if o.name == key]   # the waiver (--force) is never a form's
    switch = next((o for o in options if o.switch and str(o.value) == str(value)), None)
    if switch is not None:
        return {verb.param(switch): True}
    taking = next((o for o in options if not o.switch), None)
    if taking is None:
        raise CommandError(f"{verb.name} has no argument '{key}' with the value '{value}'")
    return {verb.param(taking): value}
