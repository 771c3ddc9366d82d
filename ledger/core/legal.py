"""What is legal now, asked by every view, the shell and the tests: who acts, the verbs they may
type with the arguments' legal values, and the one line that says so ('Next: ...').

Everything here is asked of the Plays (ledger.core.plays) the engine refuses through: a verb is
offered when its actor may use it now, its bars are empty and its arguments have a completion the
rule accepts. An argument's legal values are found by deciding candidate commands on a scratch
copy of the game (decide never changes the state it is given), so they are exactly what the rule
accepts: nothing is listed here that a command would refuse, nor said twice.
"""

from __future__ import annotations

from dataclasses import replace

from ledger.core import engine, grammar
from ledger.core.command import Command
from ledger.core.errors import BankError
from ledger.core.names import pasteable
from ledger.core.plays import Bounds, Play, join_words
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
    actor, heading, plays = now(reg, s, rs)
    actions, words = [], []
    for play in plays:
        if not play.offered:
            continue
        actors = [a for a in possible_actors(reg, play, s, rs) if may_use(reg, play, s, rs, a)]
        if not actors:
            continue
        text = words_of(play, s, rs, actors)
        actions += [Action(play.verb, (a,) if a is not None else (), text) for a in actors]
        words.append(text)
    return Turn(actor, tuple(actions), f"{heading}: {join_words(words)}" if words else heading)


def possible_actors(reg, play: Play, s, rs) -> list:
    """Who might use the Play now: its actors, or (open to anyone) every player or company its
    first argument may name; [None] for a verb nobody in particular types."""
    arg = engine.actor_arg(rs, play.verb)
    if arg is None:
        return [None]
    actors = engine.actors_now(reg, play, s, rs)
    if actors is not None:
        return actors
    kind = grammar.verbs_of(rs)[play.verb].args[0].kind
    return list(s.players) if kind == "player" else list(s.corps)


def words_of(play: Play, s, rs, actors: list) -> str:
    """A Play's words in the Next line; a Play listing an argument's values gets the legal ones."""
    if not play.phrase:
        return play.verb
    if play.listing:
        return play.phrase(s, rs, actors, choices(s, rs, play.verb, actors[0], play.listing) or [])
    return play.phrase(s, rs, actors)


def pending_queue(s, rs) -> list[dict]:
    """Every pending decision as the views show it: its kind, who decides, the question and the
    choices (the commands that answer it, for the first one), first to be settled first."""
    reg = for_ruleset(rs)
    out = []
    for due in s.pending:
        who, question = reg.pending_heading[due["kind"]](s, rs, due, reg)
        out.append({"kind": due["kind"], "who": who, "question": question,
                    "choices": [" ".join(map(str, (verb, *args.values())))
                                for verb, play in reg.answer_plays.get(due["kind"], {}).items() if due is s.pending[0]
                                for args in completions(s, rs, play, who)]})
    return out


def now(reg, s, rs) -> tuple:
    """(who acts, the Next line's heading, the Plays open now): a pending decision's answers, or the
    round's verbs in the phases of their axes."""
    if s.pending:
        due = s.pending[0]
        actor, heading = reg.pending_heading[due["kind"]](s, rs, due, reg)
        return actor, heading, list(reg.answer_plays.get(due["kind"], {}).values())
    kind = reg.rounds[s.round["kind"]]
    plays = [p for p in reg.plays_in(kind.name) if all(s.axes.get(a) in ph for a, ph in p.phases.items())]
    return kind.actor(s), kind.heading(s, rs), plays


def actions(s, rs) -> list[Action]:
    return list(turn(s, rs).actions)


def hint(s, rs) -> str:
    """The 'Next:' line: who acts now and what they may do."""
    return turn(s, rs).line


# --------------------------------------------------------------------------- a verb's legal arguments

def play_now(s, rs, verb: str) -> Play | None:
    """The Play of `verb` now, or None when the game would refuse the verb outright."""
    try:
        return engine.play_now(for_ruleset(rs), s, rs, verb)
    except BankError:
        return None


def may_use(reg, play: Play, s, rs, actor) -> bool:
    """The actor may use the Play now: no bars, and its arguments have a completion the rule accepts."""
    if engine.bars_of(reg, play, s, rs, actor):
        return False
    return next(completions(s, rs, play, actor), None) is not None


def required(rs, verb: str, play: Play | None = None) -> list:
    """The arguments after the actor that a command must give, and the options its Play fills."""
    syntax = grammar.verbs_of(rs)[verb]
    args = list(syntax.args)
    if engine.actor_arg(rs, verb):
        args = args[1:]
    fills = play.fill if play is not None else ()
    filled = [o for o in syntax.all_options() if o.name in fills]
    return [a for a in args if (not a.optional or a.name in fills) and not a.many] + filled


def completions(s, rs, play: Play, actor, given: dict | None = None):
    """Every command (its argument values) the rule accepts for this actor, filling the required
    arguments not `given` from their candidates, in order; lazily, so that the first is cheap."""
    head = {engine.actor_arg(rs, play.verb): actor} if engine.actor_arg(rs, play.verb) else {}
    yield from fill(s, rs, play, actor, {**head, **(given or {})}, [a for a in required(rs, play.verb, play)
                                                                      if a.name not in (given or {})])


def fill(s, rs, play: Play, actor, args: dict, rest: list):
    if not rest:
        if accepted(s, rs, Command(play.verb, {k: v if v is True else str(v) for k, v in args.items()
                                               if v is not None})):
            yield {k: v for k, v in args.items() if v is not None}
        return
    arg = rest[0]
    for value in values_of(candidates(s, rs, play, actor, arg, args)):
        yield from fill(s, rs, play, actor, {**args, arg.name: value}, rest[1:])


def accepted(s, rs, cmd: Command) -> bool:
    try:
        engine.decide(s, rs, cmd)
    except BankError:
        return False
    return True


def candidates(s, rs, play: Play, actor, arg, args: dict):
    """The values worth trying for an argument (or an option): the Play's, else its kind's."""
    own = play.candidates.get(arg.name)
    if own is not None:
        return own(s, rs, actor, args)
    if arg.choices:
        return list(arg.choices)
    return kind_candidates(s, rs, arg.kind)


def values_of(found) -> list:
    return found.samples() if isinstance(found, Bounds) else list(found)


def kind_candidates(s, rs, kind: str):
    """What an argument of a kind may name in this game, when its Play does not narrow it."""
    from ledger.core.rules.trains import depot_offer
    if kind == "player":
        return list(s.players)
    if kind == "company":
        return [c.sym for c in rs.corporations]
    if kind == "private":
        return [p.sym for p in rs.privates]
    if kind == "item":
        return [p.sym for p in rs.privates] + [c.sym for c in rs.corporations]
    if kind == "account":
        return ["bank", *s.players, *(c.sym for c in rs.corporations)]
    if kind == "seller":
        return ["pool", *(c.sym for c in rs.corporations)]
    if kind in ("side", "train"):
        names = list(dict.fromkeys(depot_offer(s, rs) + [t.name for t in rs.trains]))
        return names + [sd.name for t in rs.trains for sd in t.sides if sd.name not in names]
    if kind in ("amount", "quoted amount"):
        return Bounds(0)
    if kind in ("count", "points"):
        return Bounds(1, 2)
    if kind == "hex":
        return list(rs.hex_fees)
    return []


def choices(s, rs, verb: str, actor, arg_name: str, args: dict | None = None):
    """The legal values now of one argument (or option) of `verb` for `actor`, given the arguments
    before it: those with which the command has a completion the rule accepts (a list, numbers
    sorted as numbers), or the Bounds of a number. None when the verb is not legal now or the
    argument takes free text."""
    reg = for_ruleset(rs)
    play = play_now(s, rs, verb)
    if play is None or (actor is not None and engine.bars_of(reg, play, s, rs, actor)):
        return None
    syntax = grammar.verbs_of(rs)[verb]
    arg = next((a for a in syntax.args if a.name == arg_name), None) or \
        next((o for o in syntax.all_options() if o.name == arg_name), None)
    if arg is None:
        return None
    found = candidates(s, rs, play, actor, arg, dict(args or {}))
    if isinstance(found, Bounds):
        return found
    if not found:
        return None
    given = dict(args or {})
    rest = [a for a in required(rs, verb, play) if a.name not in given and a.name != arg_name]
    head = {engine.actor_arg(rs, verb): actor} if engine.actor_arg(rs, verb) else {}
    legal = [v for v in found
             if next(fill(s, rs, play, actor, {**head, **given, arg_name: v}, rest), None) is not None]
    return sorted(legal, key=numeric_first) if all(str(v).lstrip("-").isdigit() for v in legal) else legal


def numeric_first(value) -> tuple:
    text = str(value)
    return (0, int(text), "") if text.lstrip("-").isdigit() else (1, 0, text)


# --------------------------------------------------------------------------- the shell's completion

def verbs_now(s, rs) -> list[str]:
    """The game verbs a command may use now: those the Next line offers, then those any turn
    accepts (corrections; a choice's answer)."""
    reg = for_ruleset(rs)
    offered = list(dict.fromkeys(a.verb for a in turn(s, rs).actions))
    _actor, _heading, plays = now(reg, s, rs) if not s.game_over else (None, "", [])
    if s.game_over:
        plays = [p for p in reg.plays_in(s.round.get("kind", "")) if p.verb in engine.ALWAYS]
    quiet = [p.verb for p in plays if not p.offered and p.verb not in offered
             and not engine.bars_of(reg, p, s, rs, None)]
    return offered + sorted(set(quiet))


def complete(s, rs, verb: str, words: list[str]) -> list[str]:
    """What Tab offers after `verb` and the complete `words` typed so far: the legal values of the
    argument (or option value) at that position, numbers sorted as numbers. A word typed that names
    nothing legal leaves nothing to offer."""
    syntax = grammar.verbs_of(rs).get(verb)
    if syntax is None or play_now(s, rs, verb) is None:
        return []
    target = grammar.argument_at(syntax, words)
    if target is None:
        return []
    args, actor = typed_args(s, rs, syntax, words)
    actor_name = engine.actor_arg(rs, verb)
    if actor_name and target.name == actor_name:
        return [a for a in legal_actors(s, rs, verb)]
    found = choices(s, rs, verb, actor, target.name, args)
    if isinstance(found, Bounds):
        return [str(v) for v in found.samples()]
    return [str(v) for v in found or ()]


def player_for(s, actor) -> str | None:
    """The player who types for an actor: a player for themselves, a company's president for the
    company (None for a company without one, or for no actor)."""
    if actor is None:
        return None
    if actor in s.players:
        return actor
    return s.president(actor) if actor in s.corps else None


def legal_actors(s, rs, verb: str) -> list[str]:
    reg = for_ruleset(rs)
    play = play_now(s, rs, verb)
    if play is None:
        return []
    return [a for a in possible_actors(reg, play, s, rs) if a is not None and may_use(reg, play, s, rs, a)]


def typed_args(s, rs, syntax, words: list[str]) -> tuple[dict, object]:
    """The arguments typed so far, as the rules read them, and the actor they name."""
    values, positional = {}, []
    i = 0
    while i < len(words):
        word = words[i]
        opt = syntax.option(word) if word.startswith("-") else None
        if opt is not None and not opt.switch and i + 1 < len(words):
            values[opt.name] = words[i + 1]
            i += 2
            continue
        if opt is None:
            positional.append(word)
        i += 1
    for arg, word in zip(syntax.args, positional):
        values[arg.name] = word
    resolved = grammar.resolve(s, rs, Command(syntax.name, values)).args if values else {}
    actor_name = engine.actor_arg(rs, syntax.name)
    return resolved, resolved.get(actor_name) if actor_name else None
