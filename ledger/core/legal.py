"""What is legal now, asked by every view, the shell, the pages and the tests: who acts, the verbs
they may type, and for each verb every argument and option with its legal values: one answer.

Everything here is asked of the Plays (ledger.core.plays) the engine refuses through. A verb's
words are searched as *dimensions* (`Dim`): its arguments after the actor, in order, then its
options (each Command key once: `--pool` and `--ipo` are one dimension, `source`), the waiver
(`--force`/`--reason`) never. A dimension's candidate values come from its Play (`candidates`),
else from its kind (every player, company, train ...); an option may always be left out. A value is
legal when the command has a completion the rule accepts, found by deciding whole commands on the
game (decide never changes the state it is given), so what is offered is exactly what the rule
accepts. An amount's candidates are a `Bounds` (every value inside, on the step, accepted): the
Play's declared range, its ends decided and, where one is refused, narrowed by bisection to the
values the rule accepts (a legal amount is a range: the rule's limits are a floor, a ceiling and
a multiple).

`domain(...)`: one dimension's legal values given the others chosen before it; `offers(...)`: every
legal command now (an amount left open as its Bounds); `is_offered(...)`: a typed command is one
of them; `turn(...)`: the Next line, made from the same answer.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, replace

from ledger.core import engine, grammar
from ledger.core.command import Command, Reading
from ledger.core.errors import BankError
from ledger.core.names import pasteable
from ledger.core.plays import Bounds, Open, Picks, Play, Quoted, Text, needed
from ledger.core.round_kind import Action, Turn
from ledger.core.state import company_acct, player_acct
from ledger.core.titles import for_ruleset

WAIVER = {o.name for o in grammar.WAIVE}


# --------------------------------------------------------------------------- the dimensions of a verb

@dataclass(frozen=True)
class Dim:
    """One word of a command the answer searches: an argument after the actor (`arg`), or an
    option's Command key with the switches that set it (`switches`: (flag, constant) pairs) and the
    option taking a value for it (`option`)."""
    name: str
    kind: str = "text"
    required: bool = False
    arg: grammar.Arg | None = None
    option: grammar.Opt | None = None
    switches: tuple = ()

    @property
    def flags(self) -> list[str]:
        return [f for f, _v in self.switches] + ([self.option.flag] if self.option else [])


def dims_of(rs, verb: str, play: Play | None = None) -> list[Dim]:
    """The dimensions of a verb in the order they are searched (and typed): its arguments after the
    actor, then its options by Command key, as the grammar declares them; of those its Play reads."""
    found = all_dims(rs, verb)
    return found if play is None or play.reads is None else [d for d in found if d.name in play.reads]


def all_dims(rs, verb: str) -> list[Dim]:
    syntax = grammar.verbs_of(rs)[verb]
    args = list(syntax.args)
    if engine.actor_arg(rs, verb):
        args = args[1:]
    out = [Dim(a.name, a.kind, required=not a.optional, arg=a) for a in args if not a.many]
    keys: dict[str, list] = {}
    for opt in syntax.options:   # the waiver (--force, --reason) is all_options' alone: never searched
        keys.setdefault(opt.name, []).append(opt)
    for name, opts in keys.items():
        taking = next((o for o in opts if not o.switch), None)
        out.append(Dim(name, taking.kind if taking else "switch", option=taking,
                       switches=tuple((o.flag, o.value) for o in opts if o.switch)))
    return out


# --------------------------------------------------------------------------- a dimension's legal values

@dataclass(frozen=True)
class Domain:
    """A dimension's legal values: `values` (the words, True for a switch; None: it may be left out)
    and `open`, a domain too large to list every value of which is legal (an amount's Bounds, free
    Text, Picks of names), besides them."""
    values: tuple = ()
    open: Open | None = None

    def __contains__(self, value) -> bool:
        if value is None or value is True:
            return value in self.values
        if any(str(v) == str(value) for v in self.values if v is not None):
            return True
        return self.open is not None and str(value) in self.open

    def __bool__(self) -> bool:
        return bool(self.values) or self.open is not None

    @property
    def given(self) -> list:
        """The values that are words (an option's absence left out)."""
        return [v for v in self.values if v is not None]

    @property
    def optional(self) -> bool:
        return None in self.values

    @property
    def bounds(self) -> Bounds | None:
        return self.open if isinstance(self.open, Bounds) else None


class Position:
    """One state of a game and what has been decided on it (a command's answer is asked many times
    while one answer is built: each is decided once)."""

    def __init__(self, s, rs):
        self.s, self.rs = s, rs
        self.reg = for_ruleset(rs)
        self.decided: dict = {}
        self.memo: dict = {}   # what the engine found for one command that holds for others (engine.refusal)
        self.dims: dict[str, list[Dim]] = {}
        self.offered: dict = {}   # (Play, actor) -> its Offers, once found
        self.reads: dict = {}     # a decided command -> the words the rules read to decide it
        self.candidates: dict = {}   # (Play, word, actor) -> [(the words read, their values, the candidates)]
        self.refusals: dict = {}  # verb -> the words a refusal read -> their values in the refused commands
        self.last_read: frozenset = frozenset()
        self.spelled: list[str] = []   # the whole commands the Next line spells
        self.turn: Turn | None = None

    def dims_of(self, play: Play) -> list[Dim]:
        key = (play.verb, play.rounds, play.answers)
        if key not in self.dims:
            self.dims[key] = dims_of(self.rs, play.verb, play)
        return self.dims[key]

    def count_optional(self, verb: str) -> bool:
        return any(a.name == "count" and a.optional for a in grammar.verbs_of(self.rs)[verb].args)

    def accepts(self, verb: str, values: dict) -> bool:
        return self.events(verb, values) is not None

    def events(self, verb: str, values: dict) -> list | None:
        """The events of the command these words make, or None when the rule refuses it (a count of
        1 is what leaving the count out says: decided once)."""
        one = "count" if self.count_optional(verb) else None
        words = {k: str(v) for k, v in values.items() if v is not None and not (k == one and str(v) == "1")}
        key = (verb, tuple(sorted(words.items())))
        if key not in self.decided:
            known = self.refused_alike(verb, words)
            if known is not None:
                self.decided[key], self.reads[key] = None, known
            else:
                try:
                    found, read = engine.attempt(self.s, self.rs, command(self.rs, verb, values), self.memo)
                except BankError:   # the grammar refuses the words themselves: each of them mattered
                    found, read = None, frozenset(values)
                else:
                    if found is None:
                        self.note_refusal(verb, words, read)
                self.decided[key], self.reads[key] = found, read
        self.last_read = self.reads[key]
        return self.decided[key]

    def note_refusal(self, verb: str, words: dict, read: frozenset) -> None:
        """A refusal that read only the words `read` holds for every command of the verb that gives
        those words as this one does (the rule takes the same steps to the same refusal)."""
        names = tuple(sorted(read))
        self.refusals.setdefault(verb, {}).setdefault(names, set()).add(tuple(words.get(k) for k in names))

    def refused_alike(self, verb: str, words: dict) -> frozenset | None:
        """The words read by a refusal already found that holds for this command too, or None."""
        for names, seen in self.refusals.get(verb, {}).items():
            if tuple(words.get(k) for k in names) in seen:
                return frozenset(names)
        return None


def command(rs, verb: str, values: dict) -> Command:
    """The Command the command line builds from these words (`values`: Command key -> word, the
    actor included), through the grammar, as a typed line is built."""
    syntax = grammar.verbs_of(rs)[verb]
    params: dict = {}
    arg_names = {a.name for a in syntax.args}
    for key, value in values.items():
        if value is None:
            continue
        if key in arg_names:
            params[key] = value if isinstance(value, list) else str(value)
            continue
        opts = [o for o in syntax.all_options() if o.name == key]
        switch = next((o for o in opts if o.switch and (value is True and o.value is True or str(o.value) == str(value))),
                      None)
        if switch is not None:
            params[syntax.param(switch)] = True
            continue
        taking = next((o for o in opts if not o.switch), None)
        if taking is None:
            raise BankError(f"{verb} has no option setting {key}")
        params[syntax.param(taking)] = [str(value)] if taking.many else str(value)
    return grammar.build(syntax, params)


def raw_candidates(pos: Position, play: Play, actor, dim: Dim, args: dict):
    """The values worth trying for a dimension: its Play's, else its kind's (with a switch's
    constants); a list, or the Bounds of a number. Found once per position for the same words
    (a search asks again for every combination it walks; nobody changes what it gets)."""
    seen = pos.candidates.setdefault((id(play), dim.name, actor), [])
    for names, values, found in seen:
        if names is None and values == args or names is not None and all(args.get(k) == v for k, v in zip(names, values)):
            return found
    read: set = set()
    watched = Watched(args, into=read)
    found = fresh_candidates(pos, play, actor, dim, watched)
    if watched.whole:   # they depend on all the words: found again for any other words
        seen.append((None, dict(args), found))
    else:               # on the words read: found again only when one of those differs
        seen.append((tuple(read), tuple(args.get(k) for k in read), found))
    return found


class Watched(Reading):
    """Words whose reads are all recorded, their walking too: a candidate list that walks the words
    given depends on every one of them, and on which are absent (`whole`)."""

    whole = False

    def __iter__(self):
        self.whole = True
        return super().__iter__()

    def keys(self):
        self.whole = True
        return super().keys()

    def __len__(self):
        self.whole = True
        return super().__len__()


def fresh_candidates(pos: Position, play: Play, actor, dim: Dim, args: dict):
    own = play.candidates.get(dim.name)
    if own is not None:
        found = own(pos.s, pos.rs, actor, args)
        if isinstance(found, Quoted):
            found = quoted(pos, play, actor, dim, args)
    elif dim.arg is not None and dim.arg.choices:
        found = list(dim.arg.choices)
    elif dim.option is not None and dim.option.choices:
        found = list(dim.option.choices)
    elif dim.arg is not None:
        found = kind_candidates(pos.s, pos.rs, dim.kind)
    elif dim.option is not None:
        found = option_candidates(pos.s, pos.rs, actor, dim.kind, args)
    else:
        found = []
    if isinstance(found, Open):
        return found
    found = [v for v in found if v is not None]
    return found + [v for _f, v in dim.switches if v not in found]


def quoted(pos: Position, play: Play, actor, dim: Dim, args: dict) -> list[str]:
    """A quoted figure's one legal value: what the actor pays when the command is decided without
    the word (nothing, when that command is refused)."""
    values = {**head_of(pos.rs, play.verb, actor), **{k: v for k, v in args.items() if k != dim.name}}
    events = pos.events(play.verb, values)
    if events is None:
        return []
    payer = company_acct(actor) if actor in pos.s.corps else player_acct(actor)
    return [str(sum(t[2] for e in events for t in e.get("transfers", ()) if t[0] == payer))]


def head_of(rs, verb: str, actor) -> dict:
    name = engine.actor_arg(rs, verb)
    return {name: actor} if name and actor is not None else {}


def domain(pos: Position, play: Play, actor, dim: Dim, given: dict, rest: list[Dim]) -> Domain:
    """The legal values of `dim` with the dimensions `given` fixed (None: left out) and those in
    `rest` free: a value is legal when some completion of `rest` is accepted. A value refused by a
    rule that read neither this word nor a free one says that every value is refused."""
    free = {dim.name} | {d.name for d in rest}
    hopeless = []

    def legal(value) -> bool:
        if hopeless:
            return False
        done, read = search(pos, play, actor, {**given, dim.name: value}, rest)
        if done is None and not read & free:
            hopeless.append(value)
        return done is not None

    found = raw_candidates(pos, play, actor, dim, given)
    values = [None] if not dim.required and not needed(found) and legal(None) else []
    if isinstance(found, Open):
        return Domain(tuple(values), found.narrowed(legal))
    return Domain(tuple(values + [v for v in dict.fromkeys(found) if legal(v)]))


def tries(found) -> list:
    """The values a completion tries for a word: each candidate, or an open domain's tries (an
    amount's least and most)."""
    if isinstance(found, Open):
        return found.tries()
    return list(dict.fromkeys(found))


def single(span) -> bool:
    return isinstance(span, Bounds) and span.high is not None and span.high == span.low


def whole(found) -> list:
    """The values an offer is built over: each candidate, or an amount's whole range or free text
    (narrowed to what the rule accepts when the offer is made); a choice of names each alone (the
    combinations are the domain's: ledger.core.legal.domain); an order of them all (a seating) left
    open."""
    if isinstance(found, Picks) and not found.ordered:
        return found.tries()
    return [found] if isinstance(found, Open) else list(dict.fromkeys(found))


def completion(pos: Position, play: Play, actor, given: dict, rest: list[Dim]) -> dict | None:
    """The first completion of `given` over `rest` the rule accepts, or None."""
    return search(pos, play, actor, given, rest)[0]


def search(pos: Position, play: Play, actor, given: dict, rest: list[Dim]) -> tuple[dict | None, frozenset]:
    """(The first completion of `given` over `rest` the rule accepts, or None; the words the rules
    read in refusing what was tried): the arguments in order over their candidates, then the
    options as `plans` lay them out, then the words the Play decides last (a quoted cost, which the
    options price). Once a refusal read none of the words still free, nothing else is tried: any
    other value of them meets the same refusal."""
    free = {d.name for d in rest}
    read: set = set()
    args = searched(play, rest)
    if args:
        dim = args[0]
        later = [d for d in rest if d is not dim]
        found = raw_candidates(pos, play, actor, dim, given)
        for value in ([] if dim.required or needed(found) else [None]) + tries(found):
            done, why = search(pos, play, actor, {**given, dim.name: value}, later)
            if done is not None:
                return done, frozenset()
            read |= why
            if not why & free:
                break
        return None, frozenset(read)
    trailing = [d for d in rest if d.name in play.last]
    for plan in plans(pos, play, actor, given, [d for d in rest if d not in trailing]):
        done, why = trail(pos, play, actor, {**given, **plan}, trailing)
        if done is not None:
            return done, frozenset()
        read |= why
        if not why & free:
            break
    return None, frozenset(read)


def trail(pos: Position, play: Play, actor, given: dict, dims: list[Dim]) -> tuple[dict | None, frozenset]:
    if not dims:
        values = {**head_of(pos.rs, play.verb, actor), **given}
        return (values, frozenset()) if pos.accepts(play.verb, values) else (None, pos.last_read)
    dim, read = dims[0], set()
    for value in ([] if dim.required else [None]) + tries(raw_candidates(pos, play, actor, dim, given)):
        done, why = trail(pos, play, actor, {**given, dim.name: value}, dims[1:])
        if done is not None:
            return done, frozenset()
        read |= why
        if not why & {d.name for d in dims}:
            break
    return None, frozenset(read)


def searched(play: Play, dims: list[Dim]) -> list[Dim]:
    """The words searched in every combination: the options the Play leads with, then the
    arguments but those it decides last (the other options are `plans`)."""
    return [d for name in play.leads for d in dims if d.name == name] + \
        [d for d in dims if d.arg is not None and d.name not in play.leads and d.name not in play.last]


def search_order(play: Play, dims: list[Dim]) -> list[Dim]:
    """Every word in the order the answer decides them: the searched ones, the options, then the
    words decided last."""
    first = searched(play, dims)
    return first + [d for d in dims if d not in first and d.name not in play.last] + \
        [d for d in dims if d.name in play.last]


def plans(pos: Position, play: Play, actor, given: dict, options: list[Dim], amounts=tries):
    """The ways the options still free may be given, in the order a completion tries them: none at
    all, then each alone with each of its candidates, then the Play's options that go `together`
    (an agreed price with the selling company) with every combination of theirs. Options not
    declared together are searched one at a time: each is a separate choice at the table. Options
    whose candidates are `needed` here are in every plan."""
    found = {d.name: raw_candidates(pos, play, actor, d, given) for d in options}
    must = [d for d in options if needed(found[d.name])]
    if must:
        for base in each_of(must, found, amounts):
            yield base
            for dim in options:
                if dim not in must:
                    for value in amounts(found[dim.name]):
                        yield {**base, dim.name: value}
        return
    yield {}
    for dim in options:
        for value in amounts(found[dim.name]):
            yield {dim.name: value}
    for group in play.together:
        members = [d for d in options if d.name in group]
        if len(members) > 1:
            yield from combined(pos, play, actor, given, members, amounts)


def each_of(dims: list[Dim], found: dict, amounts) -> list[dict]:
    """Every assignment giving each of these options one of its candidates."""
    out = [{}]
    for dim in dims:
        out = [{**base, dim.name: value} for base in out for value in amounts(found[dim.name])]
    return out


def combined(pos: Position, play: Play, actor, given: dict, members: list[Dim], amounts):
    """Every assignment of a group of options, each left out or at one of its candidates given the
    ones before it; those setting two or more (one alone is a plan of its own)."""
    def walk(chosen: dict, rest: list[Dim]):
        if not rest:
            if len(chosen) > 1:
                yield dict(chosen)
            return
        dim = rest[0]
        yield from walk(chosen, rest[1:])
        for value in amounts(raw_candidates(pos, play, actor, dim, {**given, **chosen})):
            yield from walk({**chosen, dim.name: value}, rest[1:])
    yield from walk({}, members)


# --------------------------------------------------------------------------- the whole answer

@dataclass(frozen=True)
class Offer:
    """A command the rule accepts now: `verb` for `actor` with the words `values` (Command key ->
    word, in the grammar's order; an option left out is absent), and the amounts left `open`
    (Command key -> the Bounds every value of which is accepted, the others as they are)."""
    verb: str
    actor: object
    values: tuple = ()
    open: tuple = ()

    def args(self, **amounts) -> dict:
        out = dict(self.values)
        for name, bounds in self.open:
            out[name] = amounts.get(name, bounds.tries()[0])
        return out

    def command(self, rs, **amounts) -> Command:
        return command(rs, self.verb, {**head_of(rs, self.verb, self.actor), **self.args(**amounts)})


def play_now(s, rs, verb: str) -> Play | None:
    """The Play of `verb` now, or None when the game would refuse the verb outright."""
    try:
        return engine.play_now(for_ruleset(rs), s, rs, verb)
    except BankError:
        return None


def offers_of(pos: Position, play: Play, actor) -> list[Offer]:
    """Every command of one Play for one actor the rule accepts (none when a bar holds): its
    arguments walked in order over their legal values, then each way of giving its options, then
    the words it decides last. Found once per position."""
    key = (play.verb, play.rounds, play.answers, actor)
    if key not in pos.offered:
        pos.offered[key] = found_offers(pos, play, actor)
    return pos.offered[key]


def found_offers(pos: Position, play: Play, actor) -> list[Offer]:
    if engine.bars_of(pos.reg, play, pos.s, pos.rs, actor):
        return []
    out: list[Offer] = []
    dims = pos.dims_of(play)
    first = searched(play, dims)
    trailing = [d for d in dims if d.name in play.last]
    options = [d for d in dims if d not in first and d not in trailing]

    def walk(given: dict, opened: dict, rest: list[Dim]) -> None:
        if rest:
            dim, later = rest[0], rest[1:]
            found = domain(pos, play, actor, dim, given, later + options + trailing)
            for value in found.values:
                walk({**given, dim.name: value}, opened, later)
            if single(found.open):   # a range of one value is that value
                walk({**given, dim.name: found.open.low}, opened, later)
            elif found.open is not None:
                walk({**given, dim.name: found.open.tries()[0]}, {**opened, dim.name: found.open}, later)
            return
        for plan in plans(pos, play, actor, given, options, amounts=whole):
            out.extend(offers_of_plan(pos, play, actor, given, opened, plan, trailing))
    walk({}, {}, first)
    return out


def offers_of_plan(pos: Position, play: Play, actor, given: dict, opened: dict, plan: dict,
                   trailing: list[Dim]) -> list[Offer]:
    """The Offers of one plan of options, if the rule accepts it: an open word in it narrowed to
    the values the rule accepts and left open; then each legal value of the words decided last
    (with an open word at its first value: each open word of an Offer is legal with the others as
    they are)."""
    plan = dict(plan)
    for name, value in list(plan.items()):
        if isinstance(value, Open):
            others = {k: (v.tries()[0] if isinstance(v, Open) else v) for k, v in plan.items() if k != name}
            found = value.narrowed(lambda v: trail(pos, play, actor, {**given, **others, name: v}, trailing)[0]
                                   is not None)
            if found is None:
                return []
            plan[name] = found
    spans = {k: v for k, v in plan.items() if isinstance(v, Open)}
    words = {**given, **{k: v for k, v in plan.items() if not isinstance(v, Open)}}
    probe = {**words, **{k: b.tries()[0] for k, b in spans.items()}}
    head = head_of(pos.rs, play.verb, actor)
    out: list[Offer] = []

    def walk(chosen: dict, more: dict, rest: list[Dim]) -> None:
        if not rest:
            final = accepted(pos, play, {k: v for k, v in {**head, **probe, **chosen}.items() if v is not None},
                             opened)
            if final is not None:
                fixed = {**words, **{k: v for k, v in chosen.items() if k not in more}}
                spread = {**settled(opened, final), **spans, **more}
                fixed.update({k: str(b.low) for k, b in spread.items() if single(b)})   # one value: a word
                out.append(Offer(play.verb, actor, tuple((k, v) for k, v in fixed.items()
                                                         if v is not None and (k not in opened or single(spread[k]))),
                                 tuple((k, b) for k, b in spread.items() if not single(b))))
            return
        dim = rest[0]
        found = domain(pos, play, actor, dim, {**probe, **chosen}, rest[1:])
        for value in found.values:
            walk({**chosen, dim.name: value}, more, rest[1:])
        if found.open is not None:
            walk({**chosen, dim.name: found.open.tries()[0]}, {**more, dim.name: found.open}, rest[1:])
    def settled(spans: dict, final: dict) -> dict:
        """An argument's open domain was found with the options free; with them as this Offer
        gives them, it holds only what the rule accepts with them."""
        return {name: span.narrowed(lambda v: pos.accepts(play.verb, {**final, name: v})) or span
                for name, span in spans.items()}
    walk({}, {}, trailing)
    return out


def accepted(pos: Position, play: Play, final: dict, opened: dict) -> dict | None:
    """`final` if the rule accepts it; else, with the arguments left open at their most rather than
    their least, if the rule accepts that (a Pullman's bonus is refused on a run of 0 but not on
    the most a run may be): the values to narrow the open ones from. None when neither holds."""
    if pos.accepts(play.verb, final):
        return final
    if not opened:
        return None
    most = {**final, **{name: span.tries()[-1] for name, span in opened.items()}}
    return most if most != final and pos.accepts(play.verb, most) else None


def offers(s, rs, verb: str | None = None, actor=None, pos: Position | None = None) -> list[Offer]:
    """Every command the rule accepts now, of the verbs the turn offers, for every actor who may use
    them: or of one verb (a quiet one too: corrections), or for one actor."""
    pos = pos or Position(s, rs)
    out = []
    for play in plays_now(pos):
        if verb is not None and play.verb != verb or verb is None and not play.offered:
            continue
        for who in possible_actors(pos.reg, play, s, rs):
            if actor is None or who == actor:
                out += offers_of(pos, play, who)
    return out


def plays_now(pos: Position) -> list[Play]:
    if pos.s.game_over:
        return [p for p in pos.reg.plays_in(pos.s.round.get("kind", "")) if p.verb in engine.ALWAYS]
    return now(pos.reg, pos.s, pos.rs)[2]


def is_offered(s, rs, cmd: Command, pos: Position | None = None) -> bool:
    """Whether a command (as the grammar reads a typed line) is one the answer holds: its verb open
    now, its actor one who may use it, and each word, in order, among its dimension's legal values
    given the words before it."""
    pos = pos or Position(s, rs)
    play = play_now(s, rs, cmd.verb)
    if play is None or (s.game_over and cmd.verb not in engine.ALWAYS):
        return False
    if cmd.get("force"):
        return False
    resolved = grammar.resolve(s, rs, cmd)
    name = engine.actor_arg(rs, cmd.verb)
    actor = resolved.get(name) if name else None
    if name and actor not in legal_actors(s, rs, cmd.verb, pos):
        return False
    if not name and (not play_open(pos, play) or engine.bars_of(pos.reg, play, s, rs, None)):
        return False
    dims = search_order(play, pos.dims_of(play))
    if set(resolved.args) - {d.name for d in dims} - {name, *WAIVER}:
        return False    # a word the rule does not read here
    given: dict = {}
    for i, dim in enumerate(dims):
        value = resolved.get(dim.name)
        if not holds(pos, dim, domain(pos, play, actor, dim, given, dims[i + 1:]), value):
            return False
        given[dim.name] = word(value)
    return True


def holds(pos: Position, dim: Dim, found: Domain, value) -> bool:
    """Whether a domain holds a typed word, read as the rule reads it (1801's '2+2' and '2' name
    the same train)."""
    if value is None or value is True or value in found:
        return value in found
    kind = grammar.kinds_of(pos.rs).get(dim.kind)
    if kind is None or kind.resolve is None:
        return False
    read = grammar.canonical(kind.resolve, pos.s, pos.rs, value)
    return any(grammar.canonical(kind.resolve, pos.s, pos.rs, v) == read for v in found.given)


def play_open(pos: Position, play: Play) -> bool:
    return any(p.verb == play.verb for p in plays_now(pos))


def word(value):
    """A resolved value as the word the answer holds (switch constants and True stay as they are)."""
    return value if value is None or value is True else str(value)


# --------------------------------------------------------------------------- the Next line

@dataclass(frozen=True)
class Answer:
    """What may be done now, all of it: the Next line (who acts, what they may do, in words) and every
    command the rule accepts for every actor (its Offers)."""
    turn: Turn
    offers: tuple


def answer(s, rs) -> Answer:
    """The whole answer at a position, decided once."""
    pos = Position(s, rs)
    found = tuple(offers(s, rs, pos=pos))
    return Answer(turn(s, rs, pos), found)


def turn(s, rs, pos: Position | None = None) -> Turn:
    """Who acts now and what they may do, in words that paste into bash as they are (found once
    per position)."""
    if pos is not None and pos.turn is not None:
        return pos.turn
    found = raw_turn(s, rs, pos)
    made = Turn(found.actor, tuple(replace(a, text=pasteable(a.text, rs, amounts=True)) if a.text else a
                                   for a in found.actions), pasteable(found.line, rs, amounts=True),
                found.commands, found.heading)
    if pos is not None:
        pos.turn = made
    return made


def raw_turn(s, rs, pos: Position | None = None) -> Turn:
    if s.game_over:
        return Turn(None, (), f"The game is over ({s.end_reason}). See 'bank score'.",
                    heading=f"The game is over ({s.end_reason})")
    pos = pos or Position(s, rs)
    actor, heading, plays = now(pos.reg, s, rs)
    using = []
    for play in plays:
        if not play.offered:
            continue
        actors = [a for a in possible_actors(pos.reg, play, s, rs) if may_use(pos, play, a)]
        if actors:
            using.append((play, actors))
    actor, heading = handed_on(pos, using, actor, heading)
    actions, words = [], []
    for play, actors in using:
        # the round's verbs are said for the one who acts now; the next player's, which would end
        # that turn before its end (a stock round's), are open but not his to be told of here
        said = actors if play.who is not None or play.answers or actor not in actors else [actor]
        mark = len(pos.spelled)
        text = words_of(pos, play, said)
        if play.who is not None or play.answers or actor is None or actor in actors or \
                not engine.actor_arg(rs, play.verb):
            words.append(text)
        else:
            del pos.spelled[mark:]   # the line spells only the commands it shows
        for a in actors:   # each actor's action in his own command
            own = text
            if a not in said:
                mark = len(pos.spelled)
                own = words_of(pos, play, [a])
                del pos.spelled[mark:]
            actions.append(Action(play.verb, (a,) if a is not None else (), own))
    words = [w for w in words if w]
    return Turn(actor, tuple(actions), f"{heading}: {SEP.join(words)}" if words else heading,
                tuple(dict.fromkeys(pos.spelled)), heading)


def handed_on(pos: Position, using: list, actor, heading: str) -> tuple:
    """Who acts and the heading, once the one whose turn it is may do nothing but end it (a stock
    round's player who bought and has nothing he may sell): the next one, whose first action ends
    it; otherwise as the round says."""
    s = pos.s
    kind = pos.reg.rounds.get(s.round.get("kind")) if not s.pending else None
    if actor is None or kind is None or kind.done_heading is None:
        return actor, heading
    rounds = [(play, actors) for play, actors in using if play.who is None and not play.answers]
    left = {play.verb for play, actors in rounds if actor in actors}
    others = list(dict.fromkeys(a for _play, actors in rounds for a in actors if a != actor))
    if left != {"pass"} or len(others) != 1:
        return actor, heading
    return others[0], kind.done_heading(s, pos.rs, others[0])


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


# The Next line's pieces: each a whole command as it pastes into bash, its figures or alternatives in
# words after it in parentheses ("bid Alice CS 45 (or more; DH from 75)"), the pieces joined by SEP.
SEP = " · "
SPELLS = re.compile(r"\{commands?\}")


def words_of(pos: Position, play: Play, actors: list) -> str:
    """A Play's piece of the Next line: its first legal command (of the first actor; `{commands}`:
    each actor's first, up to four), then the phrase's words about it in parentheses ("" stays out
    of the line). A phrase says where its command goes as `{command}` / `{commands}` ("{command}
    (its words)"); one without says only its words (a phrase that is the verb, or the verb and its
    words in parentheses, says them alone). A Play without a phrase: its command, with the range
    of an amount left open."""
    if play.phrase is None:
        text = "{command}"
    elif play.listing:
        found = choices(pos.s, pos.rs, play.verb, actors[0], play.listing, pos=pos)
        text = play.phrase(pos.s, pos.rs, actors, found if isinstance(found, list) else [])
    else:
        text = play.phrase(pos.s, pos.rs, actors)
    if not text:
        return ""
    text = placed(play.verb, text)
    if play.phrase is None:
        text += range_words(pos, play, actors[0])
    if "{command}" in text:
        lines = first_lines(pos, play, actors[:1])
        text = text.replace("{command}", lines[0] if lines else play.verb)
        pos.spelled += lines
    if "{commands}" in text:
        lines = first_lines(pos, play, actors)[:4]
        head, _, words = text.partition("{commands}")   # the words said once, after the first
        text = head + (SEP.join([lines[0] + words] + lines[1:]) if lines else play.verb + words)
        pos.spelled += lines
    return text


def placed(verb: str, text: str) -> str:
    """A phrase's words around where its command goes: "{command} (words)"."""
    if SPELLS.search(text):
        inside = re.fullmatch(r"(.*?):? ?\((\{commands?\})\)", text)   # "words ({command})"
        if inside:
            words, spell = inside.groups()
            return spell + (f" ({words})" if words else "")
        return text
    said = re.fullmatch(rf"{re.escape(verb)}(?: \((.*)\))?", text)    # "verb" or "verb (words)"
    words = (said.group(1) or "") if said else text
    return "{command}" + (f" ({words})" if words else "")


def range_words(pos: Position, play: Play, actor) -> str:
    """The amounts the first command's words may take, in words: " (45 to 300)", " (45 or more)"."""
    dims = pos.dims_of(play)
    values = completion(pos, play, actor, {}, dims)
    if values is None:
        return ""
    said = []
    for dim in dims:
        if dim.kind not in ("amount", "quoted amount") or values.get(dim.name) is None:
            continue
        given = {k: v for k, v in values.items() if k != dim.name and k in {d.name for d in dims}}
        span = domain(pos, play, actor, dim, given, []).bounds
        if span is not None and not single(span):
            said.append(f"{span.low} or more" if span.high is None else f"{span.low} to {span.last}")
    return f" ({'; '.join(said)})" if said else ""


def first_lines(pos: Position, play: Play, actors: list) -> list[str]:
    """Each actor's first legal command of the Play, as it pastes into bash."""
    out = []
    for actor in actors:
        key = (play.verb, play.rounds, play.answers, actor)
        if key in pos.offered:
            found = pos.offered[key][0].command(pos.rs) if pos.offered[key] else None
        else:
            values = completion(pos, play, actor, {}, pos.dims_of(play))
            found = command(pos.rs, play.verb, values) if values is not None else None
        if found is not None:
            out.append(pasted(pos.rs, found))
    return list(dict.fromkeys(out))


def pending_queue(s, rs) -> list[dict]:
    """Every pending decision as the views show it: its kind, who decides, the question and the
    choices (the commands that answer it, for the first one, each as it pastes into bash)."""
    reg = for_ruleset(rs)
    pos = Position(s, rs)
    out = []
    for due in s.pending:
        who, question = reg.pending_heading[due["kind"]](s, rs, due, reg)
        out.append({"kind": due["kind"], "who": who, "question": question,
                    "choices": [line_of(rs, offer) for verb, play in reg.answer_plays.get(due["kind"], {}).items()
                                if due is s.pending[0] for offer in offers_of(pos, play, who)]})
    return out


def line_of(rs, offer: Offer) -> str:
    """An offer as a line that pastes into bash (an open amount as its least value)."""
    cmd = offer.command(rs)
    return pasted(rs, cmd)


def pasted(rs, cmd: Command) -> str:
    """A command as it pastes into bash: each word quoted where the shell needs it, a symbol with a
    character the shell treats specially by its plain alias (B&O as BnO, unquoted)."""
    return shlex.join(pasteable(w, rs, amounts=True) for w in grammar.words_of(grammar.verbs_of(rs)[cmd.verb], cmd))


def now(reg, s, rs) -> tuple:
    """(who acts, the Next line's heading, the Plays open now): a pending decision's answers, or the
    round's verbs in the phases of their axes."""
    if s.pending:
        due = s.pending[0]
        actor, heading = reg.pending_heading[due["kind"]](s, rs, due, reg)
        unblocked = [p for p in reg.plays_in(s.round["kind"]) if p.verb in engine.UNBLOCKED]
        return actor, heading, list(reg.answer_plays.get(due["kind"], {}).values()) + unblocked
    kind = reg.rounds[s.round["kind"]]
    plays = [p for p in reg.plays_in(kind.name) if all(s.axes.get(a) in ph for a, ph in p.phases.items())]
    return kind.actor(s), kind.heading(s, rs), plays


def actions(s, rs) -> list[Action]:
    return list(turn(s, rs).actions)


def hint(s, rs) -> str:
    """The 'Next:' line: who acts now and what they may do."""
    return turn(s, rs).line


# --------------------------------------------------------------------------- a verb's legal arguments

def may_use(pos: Position, play: Play, actor) -> bool:
    """The actor may use the Play now: no bars, and its words have a completion the rule accepts."""
    key = (play.verb, play.rounds, play.answers, actor)
    if key in pos.offered:
        return bool(pos.offered[key])
    if engine.bars_of(pos.reg, play, pos.s, pos.rs, actor):
        return False
    return completion(pos, play, actor, {}, pos.dims_of(play)) is not None


def completions(s, rs, play: Play, actor, given: dict | None = None):
    """The commands (their words, the actor included) the rule accepts for this actor, each amount
    at the least of its range; the words `given` fixed."""
    pos = Position(s, rs)
    given = dict(given or {})
    for offer in offers_of(pos, play, actor):
        values = {**head_of(rs, play.verb, actor), **offer.args()}
        if all(str(values.get(k)) == str(v) for k, v in given.items()):
            yield values


def kind_candidates(s, rs, kind: str):
    """What a word of a kind may name in this game, when its Play does not narrow it."""
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
        return [1, 2, 3, 4]
    if kind == "hex":
        return list(rs.hex_fees)
    return []


def option_candidates(s, rs, actor, kind: str, args: dict) -> list:
    """The values worth trying for an option of a kind when its Play does not say: what the actor
    could name with it now (its own trains to trade in, the privates it or its president holds,
    the other companies with trains to sell ...), never a sample of amounts (an amount an option
    takes is the Play's to declare)."""
    from ledger.core.state import cert_corp
    if kind == "seller":
        return (["pool"] if s.pool_trains() else []) + \
            [c for c in s.corps if c != actor and s.corp_trains(c)]
    if kind in ("side", "train"):
        return list(dict.fromkeys(sd for tid in s.corp_trains(actor) for sd in own_train_words(s, rs, tid))) \
            if actor in s.corps else []
    if kind == "private":
        holders = {f"company:{actor}", f"player:{player_for(s, actor)}"}
        return [sym for sym, a in s.privates.items() if a.owner in holders and not a.closed] if actor else []
    if kind == "company":
        return [c for c in s.corps if c != actor and (s.corps[c].floated or s.corps[c].par is not None)]
    if kind == "count":
        corp = args.get("item") or args.get("corp")
        return sorted({s.cert_percent[c] for c in s.certs if cert_corp(c) == corp}) if corp else []
    if kind == "points":
        return [1, 2, 3]
    if kind == "hex":
        return list(rs.hex_fees)
    return []


def own_train_words(s, rs, train_id: str) -> list[str]:
    """A held train's type and the name of each of its sides (1843 '3/5x2', 1801 '3+3' / '3')."""
    from ledger.core.state import train_type
    name = train_type(train_id)
    t = next((t for t in rs.trains if t.name == name), None)
    return [name] + ([sd.name for sd in t.sides if sd.name != name] if t else [])


def domain_of(s, rs, verb: str, actor, name: str, given: dict | None = None,
              pos: Position | None = None) -> Domain | None:
    """The legal values of one word of `verb` for `actor` (an argument or an option's key) with the
    words `given` fixed and the others free; None when the verb is not legal now for the actor or
    has no such word."""
    pos = pos or Position(s, rs)
    play = play_now(s, rs, verb)
    if play is None or engine.bars_of(pos.reg, play, s, rs, actor):
        return None
    dims = pos.dims_of(play)
    dim = next((d for d in dims if d.name == name), None)
    if dim is None:
        return None
    given = {k: word(v) for k, v in (given or {}).items() if k in {d.name for d in dims}}
    rest = [d for d in dims if d.name not in given and d.name != name]
    return domain(pos, play, actor, dim, given, rest)


def choices(s, rs, verb: str, actor, arg_name: str, args: dict | None = None, pos: Position | None = None):
    """The legal values now of one argument (or option) of `verb` for `actor`, given the arguments
    before it: a list (numbers sorted as numbers), or the Bounds of an amount. None when the verb
    is not legal now or nothing is legal for the argument."""
    found = domain_of(s, rs, verb, actor, arg_name, args, pos)
    if found is None:
        return None
    if found.open is not None and not found.given:
        return found.open
    legal = found.given
    if not legal:
        return None
    return sorted(legal, key=numeric_first) if all(str(v).lstrip("-").isdigit() for v in legal) else legal


def numeric_first(value) -> tuple:
    text = str(value)
    return (0, int(text), "") if text.lstrip("-").isdigit() else (1, 0, text)


# --------------------------------------------------------------------------- completion

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


@dataclass(frozen=True)
class Completion:
    """One entry of Tab's menu: the word typed, and what it means at the table ('$65', 'pool')."""
    text: str
    meta: str = ""


def complete(s, rs, verb: str, words: list[str]) -> list[str]:
    """What Tab offers after `verb` and the complete `words` typed so far (the words alone)."""
    return [c.text for c in completion_menu(s, rs, verb, words)]


def completion_menu(s, rs, verb: str, words: list[str]) -> list[Completion]:
    """What Tab offers after `verb` and the complete `words` typed so far: at an argument or an
    option's value, its legal values given every other word typed (an amount: the least and the
    most of its range); at an optional argument and after the arguments, the options that have a
    legal value too. A word typed that names nothing legal leaves nothing to offer.

    A word's legal values are the answer's in the order it decides the words (`search_order`): a
    word the Play decides first (a train's seller) that is not typed yet is each of its legal
    values in turn, the word's values those legal with any of them."""
    syntax = grammar.verbs_of(rs).get(verb)
    play = play_now(s, rs, verb) if syntax is not None else None
    if play is None:
        return []
    pos = Position(s, rs)
    typed = typed_words(syntax, words)
    if typed is None:
        return []
    target, given = typed
    actor_name = engine.actor_arg(rs, verb)
    if actor_name and target is not None and target == actor_name:
        return [Completion(a) for a in legal_actors(s, rs, verb, pos)]
    resolved = grammar.resolve(s, rs, Command(verb, dict(given))).args if given else {}
    actor = resolved.get(actor_name) if actor_name else None
    if actor_name and actor not in legal_actors(s, rs, verb, pos):
        return []
    rest_given = {k: word(v) for k, v in resolved.items() if k != actor_name}
    dims = pos.dims_of(play)
    order = search_order(play, dims)

    def pieces(dim: Dim, fixed: dict) -> list[tuple[dict, Domain]]:
        """`dim`'s legal values as the answer decides them after the free words it decides first
        (a lead before the arguments; the options before a word decided last): for each way of
        giving those, its words and the values legal with them."""
        free = [d for d in order if d.name not in fixed and d is not dim]
        lead = next((d for d in order[:order.index(dim)] if d in free and d.name in play.leads), None)
        if lead is not None:
            found = domain(pos, play, actor, lead, fixed, [d for d in order if d.name not in fixed and d is not lead])
            return [({lead.name: value, **plan}, each) for value in list(found.values) + tries(found.open or [])
                    for plan, each in pieces(dim, {**fixed, lead.name: value})]
        options = [d for d in free if d.arg is None and d.name not in play.last] if dim.name in play.last else []
        if not options:
            return [({}, domain(pos, play, actor, dim, fixed, free))]
        rest = [d for d in free if d not in options]
        left_out = {d.name: None for d in options}
        return [(plan, domain(pos, play, actor, dim, {**fixed, **left_out, **plan}, rest))
                for plan in plans(pos, play, actor, fixed, options)]

    def legal_values(dim: Dim, fixed: dict) -> Domain:
        found = pieces(dim, fixed)
        values = [v for _plan, each in found for v in each.values]
        return Domain(tuple(dict.fromkeys(values)), next((each.open for _p, each in found if each.open), None))

    def said(plan: dict) -> str:
        words = []
        for name, value in plan.items():
            dim = next(d for d in dims if d.name == name)
            flag = next((f for f, v in dim.switches if v == value), None)
            if value is not None:
                words.append(flag or f"{dim.option.flag} {value}")
        return " ".join(words)

    def within(span, other) -> bool:
        """Every value of `span` is one of `other`'s (an open domain shown once)."""
        if span == other or not isinstance(span, Bounds) or not isinstance(other, Bounds):
            return span == other
        return span.low in other and (other.high is None or span.high is not None and span.last <= other.high) \
            and span.step % other.step == 0

    def menu_for(dim: Dim, fixed: dict) -> list[Completion]:
        """The menu of a word's values: those legal only with other words say which ('at least 1
        with --using BB')."""
        out, spans = [], []
        for plan, found in pieces(dim, fixed):
            with_ = said(plan)
            span = None if any(within(found.open, other) for other in spans) else found.open
            spans.append(found.open)
            for entry in menu_of(Domain(found.values, span)):
                if entry.meta and with_:
                    entry = Completion(entry.text, f"{entry.meta} with {with_}")
                if entry.meta and entry not in out or not any(e.text == entry.text for e in out):
                    out.append(entry)
        return out

    for dim in dims:   # a word typed that the rule refuses with the others: nothing completes it
        if dim.name in rest_given:
            others = {k: v for k, v in rest_given.items() if k != dim.name}
            if not any(holds(pos, dim, found, rest_given[dim.name]) for _p, found in pieces(dim, others)):
                return []
    menu = []
    if target is not None:
        dim = next((d for d in dims if d.name == target), None)
        if dim is None:
            return []
        menu = menu_for(dim, rest_given)
        if dim.option is not None or dim.required:
            return menu
    flags = []
    for dim in dims:
        if dim.name in rest_given or dim.arg is not None:
            continue
        found = legal_values(dim, rest_given)
        for flag, value in dim.switches:
            if value in found.values or (value is not True and str(value) in map(str, found.given)):
                flags.append(Completion(flag))
        if dim.option is not None and [v for v in found.given if v not in {c for _f, c in dim.switches}] or \
                (dim.option is not None and found.open is not None):
            flags.append(Completion(dim.option.flag))
    return menu + flags


def menu_of(found: Domain) -> list[Completion]:
    words = [str(v) for v in found.given if v is not True]
    if all(w.lstrip("-").isdigit() for w in words):
        words.sort(key=int)
    out = [Completion(w) for w in words]
    span = found.open
    if isinstance(span, Bounds):
        ends = [span.low] if span.high is None or span.high == span.low else [span.low, span.last]
        if span.high is not None and (span.high - span.low) // span.step < 8:   # a few counts: each
            ends = list(range(span.low, span.last + 1, span.step))
        out += [Completion(str(v), span.text()) for v in ends]
    elif isinstance(span, Text):
        out += [Completion(v, span.what) for v in span.suggest]
    elif isinstance(span, Picks):
        out += [Completion(v, span.text()) for v in span.tries()]
    return out


def typed_words(syntax, words: list[str]) -> tuple[str | None, dict] | None:
    """(the dimension the next word fills, or None after the arguments; the words typed so far as
    Command keys -> words), or None for a line that does not read."""
    values, positional = {}, []
    i, target = 0, None
    while i < len(words):
        text = words[i]
        flag, eq, inline = text.partition("=")
        opt = syntax.option(flag) if text.startswith("-") and not grammar.NEGATIVE.match(text) else None
        if opt is None:
            positional.append(text)
        elif opt.switch:
            values[opt.name] = opt.value
        elif eq:
            values[opt.name] = inline
        elif i + 1 < len(words):
            values[opt.name] = words[i + 1]
            i += 1
        else:
            target = opt.name
        i += 1
    args = [a for a in syntax.args if not a.many]
    if len(positional) > len(args):
        return None
    for arg, text in zip(args, positional):
        values[arg.name] = text
    if target is None and len(positional) < len(args):
        target = args[len(positional)].name
    return target, values


def player_for(s, actor) -> str | None:
    """The player who types for an actor: a player for themselves, a company's president for the
    company (None for a company without one, or for no actor)."""
    if actor is None:
        return None
    if actor in s.players:
        return actor
    return s.president(actor) if actor in s.corps else None


def legal_actors(s, rs, verb: str, pos: Position | None = None) -> list[str]:
    pos = pos or Position(s, rs)
    play = play_now(s, rs, verb)
    if play is None:
        return []
    return [a for a in possible_actors(pos.reg, play, s, rs) if a is not None and may_use(pos, play, a)]


def actor_of_command(s, rs, cmd: Command):
    """Who acts with a typed command, as the rules read its first word (None: nobody in particular)."""
    name = engine.actor_arg(rs, cmd.verb)
    return grammar.resolve(s, rs, cmd).get(name) if name else None
