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


def candidates(s, rs, per_action: int = 12) -> list[str]:
    """Commands the core offers now: for every action of the Next line, the commands of the core's
    answer for it (ledger.core.legal.offers_of), a few dozen each, one for each choice of names and
    options: with a middling revenue, or the least of any other amount."""
    out = []
    pos = legal.Position(s, rs)
    pairs = list(dict.fromkeys((a.verb, a.args[0] if a.args else None) for a in legal.turn(s, rs).actions))
    for verb, actor in pairs:
        play = legal.play_now(s, rs, verb)
        if play is None:
            continue
        groups: dict[tuple, list] = {}   # the offers by their arguments: each thing to do, its ways
        arg_names = {a.name for a in grammar.verbs_of(rs)[verb].args}
        for offer in legal.offers_of(pos, play, actor):
            groups.setdefault(tuple((k, v) for k, v in offer.values if k in arg_names), []).append(offer)
        chosen = [o for ways in groups.values() for o in dict.fromkeys([ways[0], ways[-1]])][:3 * per_action]
        kept = [offer.args(**{name: amount_for(verb, span) for name, span in offer.open}) for offer in chosen]
        kept = [{**legal.head_of(rs, verb, actor), **args} for args in kept]
        if verb == "train" and kept:   # a table buys the cheapest train it may, mostly
            kept.sort(key=lambda args: train_price(rs, args.get("type")))
            kept = kept[:1] if len(out) % 5 else kept   # now and then another one
        out += [command_text(verb, rs, args) for args in kept]
    return list(dict.fromkeys(out))


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
        lines = candidates(self.state, self.rs)
        # a verb at random, then one of its lines: each thing a table may do gets its chance, with a
        # bias against passing and ending turns, so that companies float and trains are bought
        verbs = list(dict.fromkeys(line.split()[0] for line in lines))
        self.rng.shuffle(verbs)
        verbs.sort(key=lambda verb: (verb in LAST_RESORTS, verb in RARELY and self.rng.random() < 0.9,
                                     verb in ("pass", "done") and self.rng.random() < 0.8))
        lines = [self.rng.choice([x for x in lines if x.split()[0] == verbs[0]])] if verbs else []
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
