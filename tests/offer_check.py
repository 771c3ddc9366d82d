"""The property of issue 39, at one position of a game: the core's one answer (ledger.core.legal)
is exactly what the rules accept.

- offered, then refused: every command the answer holds (an open amount at its least, its most
  and a value between, on its step) is accepted by `engine.decide`;
- accepted, never offered: every command of a generated set (each verb x each actor x the legal
  words and their neighbours x each option alone) that the rules accept is one the answer holds
  (`legal.is_offered`), counted by what was not offered: the verb or actor, or a word;
- internal errors: no generated command ends in anything but a one-line refusal;
- the Next line's commands, and a transcript's own command where it was typed, are offered.

Used by tests/properties/test_offers_property.py (positions of the example games and random games)
and bench/offers.py (every position of the four example games, with the counts and timings).
"""

from __future__ import annotations

import random
import shlex
import time
from collections import Counter
from dataclasses import dataclass, field

from ledger import catalog
from ledger.core import engine, grammar, legal
from ledger.core.command import Command
from ledger.core.errors import BankError
from ledger.core.plays import Bounds, Open, Picks

SKIP = {"end"}
# what must not happen: the kinds of finding a test fails on
PROBLEMS = ("offered, then refused", "on the Next line, not offered", "the Next line's command, pasted, refused", "accepted, never offered: a word",
            "accepted, never offered: the verb or actor", "internal error", "typed, not offered")  # the players' own decision to stop: legal at any point, never a step of a turn


@dataclass
class Findings:
    counts: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)
    times: list = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)
    shapes: dict = field(default_factory=dict)

    def add(self, what: str, example: str) -> None:
        self.counts[what] += 1
        words = example.split(":")[0].split()
        shape = (what, " ".join([words[0]] + sorted(w for w in words if w.startswith("--"))))
        self.kinds[shape] += 1
        self.shapes.setdefault(shape, [])
        if len(self.shapes[shape]) < 3:
            self.shapes[shape].append(example)
        self.examples.setdefault(what, [])
        if len(self.examples[what]) < 12:
            self.examples[what].append(example)

    def merge(self, other: "Findings") -> None:
        self.counts.update(other.counts)
        self.kinds.update(other.kinds)
        for k, v in other.shapes.items():
            self.shapes.setdefault(k, [])
            self.shapes[k] += v[: max(0, 3 - len(self.shapes[k]))]
        for k, v in other.examples.items():
            self.examples.setdefault(k, [])
            self.examples[k] += v[: max(0, 12 - len(self.examples[k]))]
        self.times += other.times


def decided(s, rs, cmd: Command) -> str:
    """'ok', 'refused' or 'crash: ...' (anything but a BankError is an internal error)."""
    try:
        engine.decide(s, rs, cmd)
        return "ok"
    except BankError:
        return "refused"
    except Exception as exc:  # noqa: BLE001 - counting internal errors is the point
        return f"crash: {type(exc).__name__}: {exc}"


def text_of(rs, cmd: Command) -> str:
    return shlex.join(grammar.words_of(grammar.verbs_of(rs)[cmd.verb], cmd))


def amounts_of(span: Open) -> list:
    """The values of an open word tried: an amount's ends and one between, on its step; a text's
    suggestions; a choice of names each alone and all together."""
    if isinstance(span, Bounds):
        high = span.high if span.high is not None else span.low + 40 * span.step
        steps = (high - span.low) // span.step
        return sorted({span.low, span.low + steps // 2 * span.step, span.low + steps * span.step})
    if isinstance(span, Picks) and not span.ordered:
        every = list(span.names) + [f"{n}=2" for n in span.counted]
        return span.tries() + ([",".join(every)] if len(every) > 1 else [])
    return span.tries()


def neighbours(span: Open) -> list:
    """Values just outside and just off the step of a legal range, and inside it; for names, the
    names and a few that are not."""
    if isinstance(span, Bounds):
        b = span
        out = {b.low - b.step, b.low - 1, b.low, b.low + 1, 0, -1}
        if b.high is not None:
            out |= {b.high, b.high + 1, b.high + b.step, b.high - 1}
        else:
            out |= {b.low + 1000 * b.step}
        return sorted(out)
    if isinstance(span, Picks):
        names = list(span.names) + list(span.counted)
        return span.tries() + [f"{n}=0" for n in span.counted] + (["nothing", ",".join(names * 2)] if names else [])
    return span.tries() + ["Nowhere"]


def universe(s, rs, play, actor, dim: legal.Dim, args: dict) -> list:
    """What the generator tries for a word: everything of its kind in the game, the Play's own
    candidates, the switches' constants; for an amount the usual figures."""
    out = []
    if play is not None:
        try:
            found = legal.raw_candidates(legal.Position(s, rs), play, actor, dim, args)
        except Exception:  # noqa: BLE001 - a candidate function that fails is found by the offers
            found = []
        out += neighbours(found) if isinstance(found, Open) else list(found)
    kind = legal.kind_candidates(s, rs, dim.kind) if dim.kind != "switch" else []
    out += [0, 1, 10, 40, 100] if isinstance(kind, Bounds) else list(kind)
    out += [v for _f, v in dim.switches]
    return list(dict.fromkeys(v for v in out if v is not None))


def actors_of(s, rs, verb: str) -> list:
    name = engine.actor_arg(rs, verb)
    if name is None:
        return [None]
    kind = grammar.verbs_of(rs)[verb].args[0].kind
    return list(s.players) if kind == "player" else list(s.corps)


def check_position(s, rs, rng: random.Random, typed: str | None = None, per_pair: int = 6,
                   timed: bool = True, sample: int | None = None) -> Findings:
    """The findings at one position; `sample`: the neighbours of so many offers only (the suite's
    short runs), else of every one."""
    out = Findings()
    start = time.perf_counter()
    found = legal.answer(s, rs)
    if timed:
        out.times.append(time.perf_counter() - start)
    offers, next_line = list(found.offers), found.turn
    pos = legal.Position(s, rs)
    offered_pairs = {(o.verb, o.actor) for o in offers}
    # --- everything offered is accepted
    for offer in offers:
        for amounts in each_amount(offer):
            cmd = offer.command(rs, **amounts)
            result = decided(s, rs, cmd)
            if result != "ok":
                out.add("offered, then refused" if result == "refused" else "internal error",
                        f"{text_of(rs, cmd)}: {result}")
    for action in next_line.actions:
        if (action.verb, action.args[0] if action.args else None) not in offered_pairs:
            out.add("on the Next line, not offered", f"{action.verb} {action.args}")
    for line in next_line.commands:   # each command the Next line spells, pasted back as printed
        try:
            result = decided(s, rs, catalog.parse_line(line))
        except BankError as exc:
            result = f"refused: {exc.line()}"
        if result != "ok":
            out.add("the Next line's command, pasted, refused", f"{line}: {result}")
        out.counts["Next-line commands"] += 1
    # --- everything accepted is offered
    near = offers if sample is None or len(offers) <= sample else rng.sample(offers, sample)
    for cmd in generated(s, rs, near, rng, per_pair):
        result = decided(s, rs, cmd)
        if result.startswith("crash"):
            out.add("internal error", f"{text_of(rs, cmd)}: {result}")
            continue
        if result != "ok" or cmd.verb in SKIP:
            continue
        if not legal.is_offered(s, rs, cmd, pos=pos):
            pair = (cmd.verb, legal.actor_of_command(s, rs, cmd)) in offered_pairs
            out.add("accepted, never offered: a word" if pair else "accepted, never offered: the verb or actor",
                    text_of(rs, cmd))
    # --- the transcript's own command
    if typed is not None:
        try:
            cmd = catalog.parse_line(typed)
        except BankError:
            cmd = None
        if cmd is not None and cmd.verb not in SKIP and decided(s, rs, cmd) == "ok" and \
                not legal.is_offered(s, rs, cmd, pos=pos):
            out.add("typed, not offered", typed)
        out.counts["typed"] += 1
    out.counts["positions"] += 1
    return out


def each_amount(offer: legal.Offer) -> list[dict]:
    if not offer.open:
        return [{}]
    out = []
    for name, bounds in offer.open:
        out += [{name: v} for v in amounts_of(bounds)]
    return out


def generated(s, rs, offers: list, rng: random.Random, per_pair: int):
    """The generated set: each offer with each word in turn replaced by every value of its
    universe and each option added alone; then, for each verb and actor, random commands."""
    seen = set()

    def once(cmd):
        key = (cmd.verb, tuple(sorted((k, str(v)) for k, v in cmd.args.items())))
        if key in seen:
            return None
        seen.add(key)
        return cmd

    verbs = grammar.verbs_of(rs)
    for offer in offers:
        play = legal.play_now(s, rs, offer.verb)
        base = offer.args()
        head = legal.head_of(rs, offer.verb, offer.actor)
        for dim in legal.dims_of(rs, offer.verb):
            before = {k: v for k, v in base.items() if k != dim.name}
            for value in universe(s, rs, play, offer.actor, dim, before) + ([None] if dim.name in base else []):
                cmd = build(rs, offer.verb, {**head, **before, dim.name: value})
                if cmd is not None and once(cmd):
                    yield cmd
    for verb, syntax in verbs.items():
        if not syntax.game or verb in SKIP:
            continue
        play = legal.play_now(s, rs, verb)
        dims = legal.dims_of(rs, verb)
        for actor in actors_of(s, rs, verb):
            head = legal.head_of(rs, verb, actor)
            for _ in range(per_pair):
                args = {}
                for dim in dims:
                    if not dim.required and rng.random() < 0.7:
                        continue
                    values = universe(s, rs, play, actor, dim, args)
                    if values:
                        args[dim.name] = rng.choice(values)
                cmd = build(rs, verb, {**head, **args})
                if cmd is not None and once(cmd):
                    yield cmd


def build(rs, verb: str, values: dict) -> Command | None:
    try:
        return legal.command(rs, verb, {k: v for k, v in values.items() if v is not None})
    except BankError:
        return None
