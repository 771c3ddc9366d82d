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
}

# Single rules a title may replace; the shared default is registered by the shared rounds.
RULES = {
    "auction_all_passed": "everyone passed with a private unsold (ctx, cheapest private)",
    "unpriced_share_value": "what a player's holding of a company off the market scores (state, rs, player, corp) "
                            "-> int",
    "privates_pay": "whether the privates pay their income as this OR begins (state) -> bool",
    "bank_can_break": "whether the bank may break now (state) -> bool (1801 §13: not in the final sequence)",
    "rusting": "which trains rust when a type's first train is bought: (moves, obsolete ids) "
               "(state, rs, type, protecting flags)",
    "supply_fallback": "a train the supply does not sell now (state, rs, corp, type, side) -> purchase or None",
    "train_offers": "extra lines for what is for sale (state, rs) -> list of text",
    "initial_state": "the title's own state as the game starts (rs) -> dict (GameState.extra)",
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
    "shortfall_step": "what the Next line says when a company and its president cannot pay for the train it must "
                      "buy (state, rs, corp, president, amount) -> (text, actions)",
    "status_data": "what `status --json` adds about the title's own state (state, rs) -> dict",
}


@dataclass
class Registry:
    rounds: dict[str, "RoundKind"] = field(default_factory=dict)
    handlers: dict[tuple[str, str], Callable] = field(default_factory=dict)
    hooks: dict[str, list[Callable]] = field(default_factory=lambda: {name: [] for name in HOOKS})
    rules: dict[str, Callable] = field(default_factory=dict)
    # pending decision kind ("par", "discard") -> the verbs that answer it -> handler
    answers: dict[str, dict[str, Callable]] = field(default_factory=dict)
    # pending decision kind -> (state, rs, pending) -> (message, hint) refusing anything else
    pending_text: dict[str, Callable] = field(default_factory=dict)
    # pending decision kind -> (state, rs, pending) -> legal.Turn (who decides, how)
    pending_turn: dict[str, Callable] = field(default_factory=dict)
    # verb -> what to say when it is typed in a round that does not play it
    elsewhere: dict[str, str] = field(default_factory=dict)
    # train flags that belong to the owning company, cleared when a train changes hands
    owner_flags: set[str] = field(default_factory=set)
    # train flags that make a company's train go obsolete instead of rusting: it runs once more, then
    # leaves play after the company's next run (1843 Engineers, 1839 SAVED markers)
    protecting_flags: set[str] = field(default_factory=set)
    # verb -> {phase axis: the phases of that axis in which it is played} (none: any phase)
    gates: dict[str, dict[str, tuple]] = field(default_factory=dict)
    # the rules that settle a choice a player was asked to make (decisions.ask): name -> rule
    choices: dict[str, Callable] = field(default_factory=dict)
    # verb -> (state, rs) -> the Actions of that verb legal now, for verbs a title adds to a round
    # whose own turn rules do not know them (legal.turn adds them to the round's)
    offers: dict[str, Callable] = field(default_factory=dict)

    def round(self, kind) -> None:
        self.rounds[kind.name] = kind

    def verb(self, verb: str, handler: Callable, *rounds: str, elsewhere: str | None = None,
             phases: dict | None = None, offer: Callable | None = None) -> None:
        """`handler(ctx, cmd)` plays `verb` in these round kinds ('*': in any round); `elsewhere`
        is the refusal in any other round; `phases` ({axis: (phase, ...)}) the phases of a phase
        axis (ruleset `[[phase_axes]]`) in which it is played; `offer(state, rs)` the actions of
        it legal now (for a verb the round's own turn rules do not list)."""
        for kind in rounds or ("*",):
            self.handlers[(kind, verb)] = handler
        if elsewhere:
            self.elsewhere[verb] = elsewhere
        if phases:
            self.gates[verb] = {axis: tuple(names) for axis, names in phases.items()}
        if offer:
            self.offers[verb] = offer

    def offered(self, state, rs, kind: str) -> list:
        """The actions of the verbs a title added to this round kind that are legal now."""
        out = []
        for verb, offer in self.offers.items():
            gates = self.gates.get(verb, {})
            if self.handlers.get((kind, verb)) and all(state.axes.get(a) in ph for a, ph in gates.items()):
                out += offer(state, rs)
        return out

    def choice(self, name: str, rule: Callable) -> None:
        """`rule(ctx, decision, option)` settles a choice asked with decisions.ask(..., rule=name)."""
        self.choices[name] = rule

    def handler(self, kind: str, verb: str) -> Callable | None:
        return self.handlers.get((kind, verb)) or self.handlers.get(("*", verb))

    def rounds_of(self, verb: str) -> list[str]:
        return [kind for kind, v in self.handlers if v == verb]

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

    def answer(self, pending_kind: str, verb: str, handler: Callable) -> None:
        """`handler(ctx, cmd)` answers a pending decision of this kind."""
        self.answers.setdefault(pending_kind, {})[verb] = handler

    def pending(self, pending_kind: str, text: Callable, turn: Callable) -> None:
        """A kind of pending decision: the refusal of anything else, and the turn it makes."""
        self.pending_text[pending_kind] = text
        self.pending_turn[pending_kind] = turn


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
