"""Decisions the rules ask a player for, waiting in the queue (GameState.pending) until answered:
play holds until the first one is settled.

The shared decisions are a par (a private came with a president's certificate) and a discard (a
company over its train limit). Any rule may ask a player to choose among named options (1801: the
Orient Express bonus as cash or as three moves right; a merger's consent; each player in turn at a
conversion window): `ask` queues the question with the name of the rule that settles it, registered
by the title (`reg.choice(name, rule)`), and `choose PLAYER OPTION` answers it.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import CommandError, RuleViolation


def register(reg) -> None:
    reg.verb("choose", cmd_choose_nothing, offered=False, who=lambda s, rs: None,
             bars=lambda *_: ["nobody is asked to choose anything now"])
    reg.answer("choice", "choose", cmd_choose, candidates={"option": lambda s, rs, who, args: s.pending[0]["options"]},
               not_actor=lambda s, rs, player: (f"{s.pending[0]['who']} must choose first: {s.pending[0]['question']}",
                                                f"choose {s.pending[0]['who']} OPTION"),
               phrase=lambda s, rs, who: "{commands}")
    reg.pending("choice", choice_text, choice_heading)


def ask(ctx, who: str, question: str, options: list[str], rule: str, **data) -> None:
    """Queue a choice for `who` (a player) among `options`, settled by the rule named `rule`."""
    if rule not in ctx.reg.choices:
        raise RuleViolation(f"no rule settles the choice {rule!r}")
    due = {"kind": "choice", "who": who, "question": question, "options": list(options), "rule": rule, "data": data}
    ctx.emit("pending", pending=[*ctx.state.pending, due])


def cmd_choose(ctx, cmd) -> None:
    s = ctx.state
    due = s.pending[0]
    player = names.player(s, cmd.get("player"))
    if player != due["who"]:
        raise RuleViolation(f"{due['who']} must choose first: {due['question']}", f"choose {due['who']} OPTION")
    option = pick(due["options"], cmd.get("option"))
    ctx.emit("pending", pending=s.pending[1:])
    ctx.emit("chosen", player=player, question=due["question"], option=option)
    ctx.reg.choices[due["rule"]](ctx, due, option)


def cmd_choose_nothing(ctx, cmd) -> None:
    raise RuleViolation("nobody is asked to choose anything now")


def pick(options: list[str], raw) -> str:
    """The option typed (any case; a unique prefix is enough)."""
    text = str(raw).strip().lower()
    exact = [o for o in options if o.lower() == text]
    found = exact or [o for o in options if o.lower().startswith(text)]
    if len(found) != 1:
        raise CommandError(f"'{raw}' is not one of the choices", f"choose one of: {', '.join(options)}")
    return found[0]


def choice_text(s, rs, due: dict, reg) -> tuple[str, str]:
    return (f"{due['who']} must first choose: {due['question']} ({', '.join(due['options'])})",
            f"choose {due['who']} {due['options'][0]}")


def choice_heading(s, rs, due: dict, reg) -> tuple[str, str]:
    return due["who"], f"{due['who']} must choose: {due['question']}"
