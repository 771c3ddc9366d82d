"""What a title plays with, asked by the engine: round kinds, the verbs each round accepts, hooks at
named points of the game, and the few rules a title may replace outright.

The shared rounds (`ledger.core.rounds`) register themselves into every title's registry; a title's
own module (`rulesets/<title>/title.py`) then registers what it adds or replaces. The registries are
built by `ledger.core.titles.for_ruleset`. The engine never asks which round it is in: it asks the registry for the handler
of a verb in the current round, for the round's progress, and for the next round of the title's
sequence (`rounds.opening`, then `rounds.cycle`, in the title's data).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ledger.core.plays import Extension, Play

if TYPE_CHECKING:
    from ledger.core.round_kind import RoundKind

# Named points of the game a title may hook into; each hook is called with (ctx, *args).
HOOKS = {
    "game_started": "the players have their money, before the first round (ctx)",
    "bank_broke": "the bank has just broken (ctx)",
    "or_ended": "an operating round's companies have all operated, before it ends (ctx)",
    "or_started": "an operating round has begun and the privates have paid (ctx)",
    "or_set_ended": "the last OR of a set is over; return True if the game ended (ctx)",
    "train_bought": "a company bought a train (ctx, corp, train type)",
    "phase_changed": "a new phase began (ctx, phase name)",
    "after_run": "a company has run its trains (ctx, corp)",
    "corp_turn_ended": "a company has finished its turn in an OR, before the next one starts (ctx, corp)",
    "stock_round_started": "a stock round has begun (ctx)",
    "sr_ending": "every player has passed, before the end-of-SR price moves (ctx)",
    "share_bought": "a player bought a share (ctx, player, corp, source, certificate)",
    "floated": "a company floated by the shares sold in a stock round, its capital paid (ctx, corp)",
    "before_verb": "a command passed its refusal checks, before its rule runs (ctx, command)",
}

# Single rules a title may replace; the shared default is registered by the shared rounds.
RULES = {
    "auction_all_passed": "everyone passed with a private unsold (ctx, cheapest private)",
    "unpriced_share_value": "what a player's holding of a company off the market scores (state, rs, player, corp) "
                            "-> int",
    "privates_pay": "whether the privates pay their income as this OR begins (state) -> bool",
    "bank_can_break": "whether the bank may break now (state) -> bool (a title may keep it whole to its end)",
    "rusting": "which trains rust when a type's first train is bought: (moves, obsolete ids) "
               "(state, rs, type, protecting flags)",
    "supply_fallback": "a train the supply does not sell now (state, rs, corp, type, side) -> purchase or None",
    "company_train_bar": "why the title bars a company buying this train from another company, besides the shared "
                         "limits (state, rs, buyer, seller company, train id) -> text, or '' when it may",
    "train_offers": "extra lines for what is for sale (state, rs) -> list of text",
    "supply_types": "the train types the title's own rules sell a company from the supply now besides the shared "
                    "supply's (state, rs, corp) -> list of names",
    "initial_assets": "the assets the title's module adds as the game starts (rs) -> {symbol: kind}",
    "company_holdings": "what a company holds besides trains and privates (state, sym) -> dict of lists",
    "info_lines": "lines `bank info` adds about the title's own rules (rs) -> list of text",
    "unsold_share_payees": "who receives an unsold share's price (state, rs, corp, price) -> [[account, amount]] "
                           "or None for the kind's rule",
    "station_bars": "why the title bars a station marker now, besides the shared reasons (state, rs, corp) -> "
                    "list of text",
    "extra_homes": "home stations a company places on its first turn besides its charter's (state, corp) -> int",
    "train_before_run": "whether a company may buy trains before it runs (state, rs, corp) -> bool",
    "train_discount": "what a purchase costs less (a private's power named with --using, a company's own "
                      "discount) (ctx, corp, type, seller, cmd) -> amount; it may record the power's use",
    "status_lines": "lines `bank status` adds about the title's own state (state, rs) -> list of text",
    "status_data": "what `status --json` adds about the title's own state (state, rs) -> dict",
    "extra_tile_points": "the tile points a company has now besides its kind's (state, rs, corp) -> int",
    "price_held": "whether no sale moves a company's price down now (state, corp) -> bool",
}


@dataclass
class Registry:
    rounds: dict[str, "RoundKind"] = field(default_factory=dict)
    # (round kind or '*', verb) -> the Play of that verb in that kind of round, in registration order
    plays: dict[tuple[str, str], Play] = field(default_factory=dict)
    hooks: dict[str, list[Callable]] = field(default_factory=lambda: {name: [] for name in HOOKS})
    rules: dict[str, Callable] = field(default_factory=dict)
    # pending decision kind ("par", "discard") -> the verbs that answer it -> their Play
    answer_plays: dict[str, dict[str, Play]] = field(default_factory=dict)
    # pending decision kind -> (state, rs, pending) -> (message, hint) refusing anything else
    pending_text: dict[str, Callable] = field(default_factory=dict)
    # pending decision kind -> (state, rs, pending) -> (who decides, the Next line's heading)
    pending_heading: dict[str, Callable] = field(default_factory=dict)
    # what bars a verb of the title now, whoever types it, besides each Play's own: (s, rs, verb) -> [reasons]
    title_bars: list[Callable] = field(default_factory=list)
    # train flags that belong to the owning company, cleared when a train changes hands
    owner_flags: set[str] = field(default_factory=set)
    # train flags that make a company's train go obsolete instead of rusting: it runs once more, then
    # leaves play after the company's next run (1843 Engineers, 1839 SAVED markers)
    protecting_flags: set[str] = field(default_factory=set)
    # train flag -> how a board marks a train carrying it, in order (a title adds its own)
    train_marks: dict[str, str] = field(default_factory=lambda: {"obsolete": "obsolete", "bought_rusted": "rusted"})
    # the rules that settle a choice a player was asked to make (decisions.ask): name -> rule
    choices: dict[str, Callable] = field(default_factory=dict)

    def round(self, kind) -> None:
        self.rounds[kind.name] = kind

    def play(self, play: Play) -> None:
        """Register a Play: in each of its round kinds, or as the answer to its pending decision. A
        title's Play of a verb replaces the shared one in place (the Next line keeps its order)."""
        if play.answers:
            self.answer_plays.setdefault(play.answers, {})[play.verb] = play
            return
        for kind in play.rounds:
            had = self.plays.get((kind, play.verb))   # what features added to the Play it replaces stays
            self.plays[(kind, play.verb)] = play.with_(extensions=had.extensions + play.extensions) \
                if had is not None and had.extensions else play

    def verb(self, verb: str, handler: Callable, *rounds: str, **declared) -> None:
        """`handler(ctx, cmd)` plays `verb` in these round kinds ('*': in any round); `declared`
        are the Play's other fields (who, bars, candidates, phrase, elsewhere, phases ...)."""
        self.play(Play(verb, handler, rounds=rounds or ("*",), **declared))

    def rework(self, kind: str, verb: str, **changes) -> None:
        """A title changes some of a shared Play's fields in one kind of round (its rule, its bars
        ...), keeping the rest and its place."""
        key = (kind, verb)
        if key not in self.plays:
            raise KeyError(f"no Play of {verb!r} in {kind!r} rounds to rework")
        self.plays[key] = self.plays[key].with_(**changes)

    def extend(self, kind: str, verb: str, *, before: Callable | None = None, around: Callable | None = None,
               after: Callable | None = None, name: str = "") -> None:
        """A feature adds to a Play's rule in one kind of round, without replacing it: a step
        `before` the rule, a wrapper `around` it (`fn(ctx, cmd, inner)`), or a step `after` it
        (ledger.core.plays.Extension). Extensions run in their stage's order whatever rule is in
        place when the command is played, so a feature that later replaces the rule keeps them."""
        key = (kind, verb)
        if key not in self.plays:
            raise KeyError(f"no Play of {verb!r} in {kind!r} rounds to extend")
        given = [(stage, fn) for stage, fn in (("before", before), ("around", around), ("after", after)) if fn]
        if len(given) != 1:
            raise ValueError("an extension is one of before, around or after")
        stage, fn = given[0]
        play = self.plays[key]
        self.plays[key] = play.with_(extensions=play.extensions + (Extension(stage, fn, name),))

    def chains(self) -> dict[tuple[str, str], list[str]]:
        """(round kind, verb) -> its chain in words (Play.chain), for every Play a feature extends."""
        return {key: play.chain() for key, play in self.plays.items() if play.extensions}

    def answer(self, pending_kind: str, verb: str, handler: Callable, **declared) -> None:
        """`handler(ctx, cmd)` answers a pending decision of this kind."""
        self.play(Play(verb, handler, answers=pending_kind, **declared))

    def pending(self, pending_kind: str, text: Callable, heading: Callable) -> None:
        """A kind of pending decision: the refusal of anything else, and who decides it with the
        Next line's heading."""
        self.pending_text[pending_kind] = text
        self.pending_heading[pending_kind] = heading

    def bar(self, fn: Callable) -> None:
        """`fn(s, rs, verb) -> [reasons]` bars verbs of the title before any of them is decided,
        whoever types it (1801: no business but the payouts in the repeat OR): the hook before
        every verb that the title's rules would otherwise call by hand."""
        self.title_bars.append(fn)

    def play_for(self, kind: str, verb: str) -> Play | None:
        return self.plays.get((kind, verb)) or self.plays.get(("*", verb))

    def plays_in(self, kind: str) -> list[Play]:
        """The Plays of a round kind, then those of every round, in registration order."""
        own = [p for (k, _v), p in self.plays.items() if k == kind]
        mine = {p.verb for p in own}
        return own + [p for (k, v), p in self.plays.items() if k == "*" and v not in mine]

    def handler(self, kind: str, verb: str) -> Callable | None:
        """What plays the verb in this kind of round: its rule with the extensions features add."""
        play = self.play_for(kind, verb)
        return play.run if play else None

    def rounds_of(self, verb: str) -> list[str]:
        return [kind for kind, v in self.plays if v == verb]

    def elsewhere(self, verb: str) -> str:
        return next((p.elsewhere for (_k, v), p in self.plays.items() if v == verb and p.elsewhere), "")

    @property
    def answers(self) -> dict[str, dict[str, Callable]]:
        return {kind: {verb: p.run for verb, p in plays.items()} for kind, plays in self.answer_plays.items()}

    def verbs(self) -> set[str]:
        """Every verb a game of the title plays, in some round or as an answer."""
        return {v for _k, v in self.plays} | {v for plays in self.answer_plays.values() for v in plays}

    def choice(self, name: str, rule: Callable) -> None:
        """`rule(ctx, decision, option)` settles a choice asked with decisions.ask(..., rule=name)."""
        self.choices[name] = rule

    def on(self, hook: str, fn: Callable) -> None:
        if hook not in HOOKS:
            raise KeyError(f"no hook {hook!r} (hooks: {', '.join(HOOKS)})")
        self.hooks[hook].append(fn)

    def call(self, hook: str, ctx, *args) -> bool:
        """Run a hook's functions in order; True as soon as one returns True (it ended the game)."""
        return any(fn(ctx, *args) for fn in self.hooks[hook])

    def rule(self, name: str, fn: Callable) -> None:
        if name not in RULES:
            raise KeyError(f"no replaceable rule {name!r} (rules: {', '.join(RULES)})")
        self.rules[name] = fn


def next_kind(rs, current: str) -> str:
    """The round kind that follows `current` in the title's sequence: the opening rounds once, then
    the cycle over and over."""
    opening, cycle = list(rs.k("rounds", "opening")), list(rs.k("rounds", "cycle"))
    if current in opening:
        i = opening.index(current)
        return opening[i + 1] if i + 1 < len(opening) else cycle[0]
    return cycle[(cycle.index(current) + 1) % len(cycle)]


def first_kind(rs) -> str:
    opening = list(rs.k("rounds", "opening"))
    return opening[0] if opening else rs.k("rounds", "cycle")[0]


# The registries built, by title (ledger.core.titles builds each once, before any rule runs): a
# shared rule that asks what the open title registered reads it here, so that nothing below the
# composition root imports it.
_BUILT: dict[tuple, Registry] = {}


def key_of(rs) -> tuple:
    return (rs.title, rs.parts.name, rs.digest)


def of(rs) -> Registry:
    """The registry of the title `rs` is (built by ledger.core.titles.for_ruleset)."""
    try:
        return _BUILT[key_of(rs)]
    except KeyError:
        raise LookupError(f"the rules of {rs.title} are not registered yet (ledger.core.titles.for_ruleset)") from None
