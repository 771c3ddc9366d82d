"""Commands that belong to no round: a logged correction between accounts, a physical count of a
player's money, and the players ending the game early. They are accepted in every round (and
corrections and counts even after the game has ended)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import CommandError, RuleViolation
from ledger.core.plays import Bounds
from ledger.core.state import BANK, acct_name, player_acct


def register(reg) -> None:
    anyone = {"who": lambda s, rs: None, "offered": False}   # any round, anyone, never a turn's step
    reg.verb("adjust", cmd_adjust, **anyone,
             candidates={"reason": lambda *_: ["a correction"], "amount": lambda *_: Bounds(1)})
    reg.verb("count", cmd_count, **anyone)
    reg.verb("end", cmd_end, **anyone)


def cmd_end(ctx, cmd) -> None:
    ctx.emit("game_over", reason="ended by the players")


def account(ctx, raw: str) -> str:
    """'bank', a player's name or a company symbol, as a ledger account."""
    if str(raw).lower() == "bank":
        return BANK
    try:
        return player_acct(names.player(ctx.state, raw))
    except CommandError:
        try:
            return f"company:{names.corp(ctx.rs, raw)}"
        except CommandError:
            raise CommandError(f"unknown account '{raw}'", "use bank, a player's name or a company symbol") from None


def cmd_adjust(ctx, cmd) -> None:
    """A logged, balanced correction: money moves between two accounts with a reason."""
    if not cmd.get("reason"):
        raise CommandError("an adjustment needs --reason TEXT")
    source, dest = account(ctx, cmd.get("source")), account(ctx, cmd.get("dest"))
    amount = names.amount(cmd.get("amount"))
    if source == dest or amount == 0:
        raise CommandError("an adjustment moves a positive amount between two different accounts")
    if source != BANK and ctx.state.cash(source) < amount:
        raise RuleViolation(f"{acct_name(source)} has {ctx.rs.money(ctx.state.cash(source))}: an adjustment "
                            f"cannot take {ctx.rs.money(amount)}")
    ctx.emit("adjustment", reason=cmd.get("reason"), amount=amount, transfers=[[source, dest, amount]],
             **{"from": source, "to": dest})


def cmd_count(ctx, cmd) -> None:
    """A physical count of a player's money, compared with the ledger (no money moves)."""
    player = names.player(ctx.state, cmd.get("player"))
    counted = names.amount(cmd.get("amount"), "counted amount")
    ledger = ctx.state.cash(player_acct(player))
    ctx.emit("count", player=player, counted=counted, ledger=ledger, difference=counted - ledger)
