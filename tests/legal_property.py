"""The property of issue 25: what the core offers, the rules accept; what it does not offer, the
rules refuse with one line. Used by tests/properties/test_legal_property.py (a few short games of every title)
and bench/legal.py (many long ones).

At a state of a random game: every action the Next line offers, with arguments drawn from their
legal choices (ledger.core.legal.choices: a list, or the Bounds of a number, drawn anywhere within
them), is accepted by `engine.decide`; a sample of verbs and actors it does not offer is refused
with one line; the shell's verbs are the Next line's and the quiet ones (ledger.core.legal).
"""

from __future__ import annotations

import random

from ledger.core import engine, grammar, legal
from ledger.core.command import Command
from ledger.core.errors import BankError
from ledger.core.plays import Bounds


def drawn(s, rs, verb: str, actor, rng: random.Random) -> Command | str:
    """A command for an offered action, each argument drawn from its legal choices given those
    before it; or the reason none could be drawn (a problem)."""
    play = legal.play_now(s, rs, verb)
    if play is None:
        return f"{verb} is offered but the engine has no Play of it now"
    head = engine.actor_arg(rs, verb)
    args = {head: actor} if head else {}
    for arg in legal.required(rs, verb, play):
        found = legal.choices(s, rs, verb, actor, arg.name, args)
        if isinstance(found, Bounds):
            value = within(found, rng)
        elif found:
            value = rng.choice(list(found))
        elif arg.name in play.fill:
            continue  # an option a completion may leave out
        else:
            return f"{verb} {actor}: no legal choice for {arg.name} (args so far {args})"
        args[arg.name] = value
    return Command(verb, {k: v if v is True else str(v) for k, v in args.items() if v is not None})


def within(bounds: Bounds, rng: random.Random) -> int:
    high = bounds.high if bounds.high is not None else bounds.low + 10 * bounds.step
    steps = max(0, (high - bounds.low) // bounds.step)
    return bounds.low + rng.randint(0, steps) * bounds.step


def check_state(s, rs, rng: random.Random, refusals: int = 3) -> list[str]:
    """The problems at one state (none when the core and the rules agree)."""
    problems = []
    offered = legal.turn(s, rs).actions
    pairs = {(a.verb, a.args[0] if a.args else None) for a in offered}
    for verb, actor in sorted(pairs, key=str):
        cmd = drawn(s, rs, verb, actor, rng)
        if isinstance(cmd, str):
            problems.append(f"{s.round.get('kind')}: {cmd}")
            continue
        try:
            engine.decide(s, rs, cmd)
        except BankError as exc:
            problems.append(f"{s.round.get('kind')}: offered but refused: {cmd.verb} {cmd.args}: {exc.line()}")
    problems += unoffered_refused(s, rs, pairs, rng, refusals)
    shell = set(legal.verbs_now(s, rs))
    missing = {v for v, _a in pairs} - shell
    if missing:
        problems.append(f"offered but not completed by the shell: {sorted(missing)}")
    return problems


def unoffered_refused(s, rs, pairs: set, rng: random.Random, count: int) -> list[str]:
    """Verbs of the title with actors the core does not offer them to are refused, in one line."""
    verbs = [v for v, syntax in grammar.verbs_of(rs).items() if syntax.game
             and v not in engine.ALWAYS | {"end"}]
    problems = []
    for _ in range(count):
        verb = rng.choice(verbs)
        syntax = grammar.verbs_of(rs)[verb]
        actors = [None] if not engine.actor_arg(rs, verb) else \
            (list(s.players) if syntax.args[0].kind == "player" else list(s.corps))
        actor = rng.choice(actors)
        if (verb, actor) in pairs or (verb, None) in pairs:
            continue
        play = legal.play_now(s, rs, verb)
        # a verb offered to nobody now: any completion of it must be refused
        args = {engine.actor_arg(rs, verb): actor} if actor is not None else {}
        for arg in legal.required(rs, verb, play) if play else [a for a in syntax.args[1:] if not a.optional]:
            found = legal.candidates(s, rs, play, actor, arg, args) if play else legal.kind_candidates(s, rs, arg.kind)
            values = legal.values_of(found)
            if values:
                args[arg.name] = rng.choice(values)
        cmd = Command(verb, {k: v if v is True else str(v) for k, v in args.items() if v is not None})
        try:
            engine.decide(s, rs, cmd)
        except BankError as exc:
            if "\n" in exc.line():
                problems.append(f"refused in more than one line: {cmd.verb} {cmd.args}: {exc.line()!r}")
            continue
        if play is not None and play.offered:
            problems.append(f"{s.round.get('kind')}: not offered but accepted: {cmd.verb} {cmd.args}")
    return problems
