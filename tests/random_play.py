"""Random legal play for any title, driven by what the core says is legal now (ledger.core.legal).

Each step asks the core for the actions offered now and, for each, the commands its Play accepts
(each argument drawn from its legal choices), shuffles them and plays one. Nothing here knows a
title: a title's own verbs and decisions are reached through the same declarations the Next line
and the shell's completion read.
"""

from __future__ import annotations

import random
import shlex

from ledger import catalog
from ledger.core import engine, grammar, legal
from ledger.core.errors import BankError
from ledger.core.events import apply

# what a table does only when nothing else is left: the game ends with it
LAST_RESORTS = ("bankrupt",)
# what a table does now and then, not whenever it may
RARELY = ("charge", "buy-private", "sell-token", "income", "issue", "redeem", "transfer", "custody", "protect")
# the verbs whose amount is a run's revenue: a table runs for a middling amount; any other amount
# (a bid, a price, a cost) it keeps low
REVENUE_VERBS = ("pay", "half", "withhold", "run", "income")


def candidates(s, rs, per_action: int = 4, verbs=None, pos=None, rng=None) -> list[str]:
    """Commands the core offers now: for every action of the Next line (of these verbs), a few
    commands drawn from the core's answer for it, each word at a time among its legal values
    (ledger.core.legal.domain): options mostly left out, a middling revenue or the least of any
    other amount, a train from the bank, the cheapest mostly."""
    rng = rng or random.Random(len(s.players) + s.seq)
    out = []
    pos = pos or legal.Position(s, rs)
    pairs = list(dict.fromkeys((a.verb, a.args[0] if a.args else None) for a in legal.turn(s, rs, pos).actions
                               if verbs is None or a.verb in verbs))
    for verb, actor in pairs:
        play = legal.play_now(s, rs, verb)
        if play is None:
            continue
        for _ in range(per_action):
            args = drawn(pos, play, actor, rng)
            if args is not None:
                out.append(command_text(verb, rs, {**legal.head_of(rs, verb, actor), **args}))
    return list(dict.fromkeys(out))


def drawn(pos, play, actor, rng) -> dict | None:
    """One command of the Play for the actor, drawn word by word among the legal values given the
    words before (None when a word has none: the answer's walk found the verb legal, so it has)."""
    dims = legal.search_order(play, pos.dims_of(play))
    given: dict = {}
    for i, dim in enumerate(dims):
        found = legal.domain(pos, play, actor, dim, given, dims[i + 1:])
        words = found.given
        if found.optional and (rng.random() < 0.75 or not words and found.open is None):
            given[dim.name] = None
            continue
        if found.open is not None and (not words or rng.random() < 0.5):
            given[dim.name] = amount_for(play.verb, found.open)
        elif words:
            given[dim.name] = pick(pos.rs, play.verb, dim.name, words, given, rng)
        elif found.optional:
            given[dim.name] = None
        else:
            return None
    return {k: v for k, v in given.items() if v is not None}


def pick(rs, verb: str, name: str, words: list, given: dict, rng):
    """A word among the legal ones: a train's source the bank's or the pool's when it may be, its type
    the cheapest mostly; any other at random."""
    if verb == "train" and name == "source":
        supply = [w for w in words if str(w).lower() in grammar.SUPPLY_WORDS]
        return rng.choice(supply) if supply and rng.random() < 0.95 else rng.choice(words)
    if verb == "train" and name == "type" and rng.random() < 0.8:
        return min(words, key=lambda w: train_price(rs, w))
    return rng.choice(words)


def amount_for(verb: str, span) -> object:
    """The value a table picks in an open word: a middling revenue; the least of any other amount;
    a text's or a choice's first."""
    from ledger.core.plays import Bounds
    if isinstance(span, Bounds) and verb in REVENUE_VERBS and span.high is not None:
        steps = (span.high - span.low) // span.step
        return span.low + steps // 2 * span.step
    return span.tries()[0]


def train_price(rs, typed) -> int:
    from ledger.core.errors import BankError
    from ledger.core.names import side
    try:
        name, side_name = side(rs, typed)
        return rs.train(name).side(side_name).price
    except (BankError, KeyError, AttributeError, TypeError):
        return 10 ** 6


def command_text(verb: str, rs, args: dict) -> str:
    """The line a banker would type for a Command's arguments: positional ones in order, options by flag."""
    syntax = grammar.verbs_of(rs)[verb]
    words = [verb] + [str(args[a.name]) for a in syntax.args if args.get(a.name) is not None]
    for opt in syntax.all_options():
        value = args.get(opt.name)
        if value is None or opt.name in {a.name for a in syntax.args}:
            continue
        if opt.switch:
            if value is True or value == opt.value:
                words.append(opt.flag)
        else:
            words += [opt.flag, str(value)]
    return " ".join(shlex.quote(w) for w in words)


class RandomGame:
    """A game of `title` played at random: its rules, state, every event and every line played."""

    def __init__(self, title: str, players: list[str], seed: int, after_event=None):
        """`after_event(state, rs, event, line)` runs after every event applied."""
        self.after_event = after_event
        self.rs = catalog.load(title)
        self.players = list(players)
        self.state = engine.initial_state(self.rs, self.players, {})
        self.events: list[dict] = []
        self.lines: list[str] = []
        self.rng = random.Random(seed)
        for event in engine.start_events(self.rs, self.players):
            self.apply(event)

    def apply(self, event: dict, line: str = "(start)") -> None:
        apply(self.state, event)
        self.events.append(event)
        if self.after_event:
            self.after_event(self.state, self.rs, event, line)

    def step(self) -> bool:
        """Play one legal line (False when the game is over)."""
        if self.state.game_over:
            return False
        # a verb at random, then one of its lines: each thing a table may do gets its chance, with a
        # bias against passing and ending turns, so that companies float and trains are bought; only
        # the verb chosen has its lines found (the answer of every verb costs more than a step)
        pos = legal.Position(self.state, self.rs)
        verbs = legal.turn(self.state, self.rs, pos).verbs()
        self.rng.shuffle(verbs)
        verbs.sort(key=lambda verb: (verb in LAST_RESORTS, verb in RARELY and self.rng.random() < 0.9,
                                     verb in ("pass", "done") and self.rng.random() < 0.8))
        lines = []
        for verb in verbs:
            found = [x for x in candidates(self.state, self.rs, verbs=[verb], pos=pos, rng=self.rng)
                     if x.split()[0] == verb]
            if found:
                lines = [self.rng.choice(found)]
                break
        if not lines:
            raise AssertionError(f"the core offers nothing at {self.state.round} (legal: "
                                 f"{legal.hint(self.state, self.rs)})")
        line = lines[0]
        try:
            events = engine.decide(self.state, self.rs, catalog.parse_line(line))
        except BankError as exc:  # what the core offers, the rules accept
            raise AssertionError(f"offered but refused: {line!r} at {self.state.round}: {exc.line()}") from None
        for event in events:
            self.apply(event, line)
        self.lines.append(line)
        return True

    def play(self, steps: int) -> None:
        for _ in range(steps):
            if not self.step():
                break

    def replayed(self):
        s = engine.initial_state(self.rs, self.players, {})
        for event in self.events:
            apply(s, event)
        return s
