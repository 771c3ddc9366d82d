"""Random legal play for any title, driven by what the core says is legal now (ledger.core.legal).

Each step asks `legal.turn` for the actor's verbs (with the arguments already fixed, such as the
player), completes each with a few values of every remaining argument's kind, shuffles the lines
and plays the first one the rules accept. Nothing here knows a title: a title's own verbs, kinds
and decisions are reached through the same grammar and legal actions the shell offers.
"""

from __future__ import annotations

import itertools
import random
import shlex

from ledger.core import engine, grammar, legal, ruleset
from ledger.core.errors import BankError
from ledger.core.events import apply
from ledger.core.rules import trains
from ledger.core.state import train_type

REVENUES = ["0", "20", "40", "60", "100", "150"]


def values(kind: str, s, rs, verb: str, arg) -> list[str]:
    """A few words for an argument of this kind, as a banker might type them."""
    if arg.choices:
        return list(arg.choices)
    if kind == "player":
        return list(s.players)
    if kind == "company":
        # an emergency sale may hand a private to the bank (sell PLAYER PRIVATE)
        return [c.sym for c in rs.corporations] + ([p.sym for p in rs.privates] if verb == "sell" else [])
    if kind in ("private", "item"):
        return [p.sym for p in rs.privates] + [c.sym for c in rs.corporations]
    if kind in ("side", "train"):
        return sorted(set(trains.depot_offer(s, rs)) | {train_type(t) for t in s.trains if s.trains[t] != "depot"})
    if kind == "count":
        return ["1", "2"]
    if kind == "amount":
        if verb == "par":
            return [str(p) for p in rs.k("company", "par_prices")]
        if verb == "bid":
            return grammar.min_bid_offer(s, rs, ["bid", "", s.round.get("war") or ""]) or ["50"]
        if verb == "tile":
            return [str(c) for c in rs.k("operating", "tile_costs") or [0]]
        return REVENUES
    return []


def option_variants(verb: str, s, rs) -> list[list[str]]:
    """Options worth trying with a verb (a pool share, a pool train, tile points, no route)."""
    have = {o.flag for o in grammar.verbs_of_title(rs.title)[verb].options}
    extra = {"buy": [["--pool"]], "train": [["--from", "pool"]], "done": [["--no-route"]],
             "tile": [["--points", "2"]],
             # 1801: a concession's last resort, a regional parred into the Open Market
             "par": [["--open-market"]],
             # 1839: a route reaching foreign off-boards pars those companies and feeds their income
             "pay": [["--abroad", "BEL,DUI"]], "half": [["--abroad", "OZ"]], "withhold": [["--abroad", "DUI"]],
             # 1839's draws: drawn from a seed, then the cards dealt again in a shuffled order
             "deal": [["--random", "7"], ["--order", ",".join(random.Random(len(s.round)).sample(s.players,
                                                                                          len(s.players)))]],
             }.get(verb, [])
    return [[]] + [v for v in extra if v[0] in have]


def candidates(s, rs) -> list[str]:
    """Every completion of every legal action: each required argument from its kind's values, an
    optional count left out or 2, each with the options worth trying."""
    verbs = grammar.verbs_of_title(rs.title)
    out = []
    for action in legal.turn(s, rs).actions:
        verb = verbs.get(action.verb)
        if verb is None:
            continue
        rest = verb.args[len(action.args):]
        pools = [values(a.kind, s, rs, verb.name, a) for a in rest if not a.optional]
        counts = [[], ["2"]] if any(a.optional and a.kind == "count" for a in rest) else [[]]
        if any(a.optional and a.kind == "amount" for a in rest):  # 1839's discount chips: 60 or 40
            counts = [[], ["60"], ["40"]]
        for fill in itertools.product(*pools):
            for more in counts:
                for opts in option_variants(verb.name, s, rs):
                    words = [action.verb, *map(str, action.args), *fill, *more, *opts]
                    out.append(" ".join(shlex.quote(w) for w in words))
    return out


class RandomGame:
    """A game of `title` played at random: its rules, state, every event and every line played."""

    def __init__(self, title: str, players: list[str], seed: int, after_event=None):
        """`after_event(state, rs, event, line)` runs after every event applied."""
        self.after_event = after_event
        self.rs = ruleset.load(title)
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
        self.rng.shuffle(lines)
        # a bias against passing and ending turns, so that companies float and trains are bought
        lines.sort(key=lambda line: line.split()[0] in ("pass", "done") and self.rng.random() < 0.8)
        for line in lines:
            try:
                events = engine.decide(self.state, self.rs, grammar.parse_line(line))
            except BankError:
                continue
            for event in events:
                self.apply(event, line)
            self.lines.append(line)
            return True
        raise AssertionError(f"no legal line among {len(lines)} candidates at {self.state.round} "
                             f"(legal: {legal.hint(self.state, self.rs)})")

    def play(self, steps: int) -> None:
        for _ in range(steps):
            if not self.step():
                break

    def replayed(self):
        s = engine.initial_state(self.rs, self.players, {})
        for event in self.events:
            apply(s, event)
        return s
