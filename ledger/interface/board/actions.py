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
from ledger.core.plays import Bounds

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
    play = legal.play_now(s, rs, verb)
    if play is None:
        return []
    label = text or verb
    return list(walk(s, rs, verb, actor, label, {}, legal.required(rs, verb, play)))


def walk(s, rs, verb: str, actor, label: str, given: dict, rest: list):
    fixed = tuple(given.items())
    if not rest:
        yield Form(verb, actor, label, fixed)
        return
    arg, later = rest[0], rest[1:]
    found = legal.choices(s, rs, verb, actor, arg.name, given)
    if isinstance(found, Bounds):
        yield Form(verb, actor, label, fixed, number=(arg.name, found))
    elif found is None:
        yield Form(verb, actor, label, fixed, text=arg.name)
    elif len(found) == 1 and found[0] in (None, True):  # an option the rule needs as it is, or not at all
        yield from walk(s, rs, verb, actor, label, {**given, arg.name: found[0]}, later)
    elif not later:
        yield Form(verb, actor, label, fixed, choice=(arg.name, tuple(found)))
    else:
        for value in found:
            yield from walk(s, rs, verb, actor, label, {**given, arg.name: value}, later)


# --------------------------------------------------------------------------- a submitted form -> a Command

def command_of(rs, verb_name: str, actor: str | None, values: dict[str, str]) -> tuple[Command, str]:
    """The Command a form asks for, built by the grammar from its verb, actor and argument values
    (no option that waives the rules: that is the banker's command line), and the line recorded."""
    verb = grammar.verbs_of(rs).get(verb_name)
    if verb is None or not verb.game:
        raise CommandError(f"no game command '{verb_name}' in {rs.title}")
    actor_arg = engine.actor_arg(rs, verb_name)
    named = dict(values)
    if actor_arg:
        if not actor:
            raise CommandError(f"{verb_name} needs who acts")
        named[actor_arg] = actor
    params = {}
    for key, value in named.items():
        params.update(param_of(verb, key, value))
    cmd = grammar.build(verb, params)
    words = words_of(verb, cmd)
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


def words_of(verb, cmd: Command) -> list[str]:
    """The command's words as typed: the verb, its arguments in order, then its options."""
    words = [verb.name]
    for arg in verb.args:
        value = cmd.args.get(arg.name)
        if value is not None:
            words += [str(v) for v in value] if arg.many else [str(value)]
    for opt in verb.all_options():
        value = cmd.args.get(opt.name)
        if value is None:
            continue
        if opt.switch:
            if value == opt.value:
                words.append(opt.flag)
        elif not any(w == opt.flag for w in words):
            words += [opt.flag, str(value)]
    return words
