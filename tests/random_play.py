"""Random legal play for any title, driven by what the core says is legal now (ledger.core.legal).

Each step asks the core for the actions offered now and, for each, the commands its Play accepts
(each argument drawn from its legal choices), shuffles them and plays one. Nothing here knows a
title: a title's own verbs and decisions are reached through the same declarations the Next line
and the shell's completion read.
"""

from __future__ import annotations

import itertools
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
    """Commands the core offers now: for every action of the Next line, the completions its Play
    accepts (each argument drawn from its legal choices), a few dozen each, one for each choice of
    names and options: with a middling revenue, or the least of any other amount."""
    out = []
    for action in legal.turn(s, rs).actions:
        play = legal.play_now(s, rs, action.verb)
        if play is None:
            continue
        actor = action.args[0] if action.args else None
        found: dict[tuple, list] = {}
        for args in itertools.islice(legal.completions(s, rs, play, actor), 3 * per_action):
            words = tuple(str(v) for v in args.values() if not str(v).lstrip("-").isdigit())
            amount = sum(int(v) for v in args.values() if str(v).lstrip("-").isdigit())
            found.setdefault(words, []).append((amount, args))
        kept = []
        for options in found.values():
            options.sort(key=lambda pair: pair[0])
            kept.append(options[len(options) // 2 if action.verb in REVENUE_VERBS else 0][1])
        if action.verb == "train" and kept:   # a table buys the cheapest train it may, mostly
            kept.sort(key=lambda args: train_price(rs, args.get("type")))
            kept = kept[:1] if len(out) % 5 else kept   # now and then another one
        out += [command_text(action.verb, rs, args) for args in kept]
    return list(dict.fromkeys(out))


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
