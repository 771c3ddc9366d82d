"""The pure core: new game, decide (command -> events), replay (events -> state).

`decide` never touches the state it is given: it works on a copy, emitting events one at a time and
applying each to the copy, so that rules checked later in the same command (and the automatic
consequences: end of a round, the next round's start) see the results of earlier events.
"""

from __future__ import annotations

from ledger.core.rounds import auction, operating, stock
from ledger.core.rules import ports, track, train_step
from ledger.core import events
from ledger.core.command import Command
from ledger.core.errors import WAIVING, CommandError, LedgerCorrupt, RuleViolation, one_line
from ledger.core.ruleset import Ruleset
from ledger.core.state import BANK, DEPOT, MINT, Corp, acct_name, GameState, Private, apply, ipo_acct, player_acct


class Ctx:
    """What a rule handler works with: the evolving state, the ruleset, and `emit`."""

    def __init__(self, state: GameState, rs: Ruleset):
        self.state = state
        self.rs = rs
        self.events: list[dict] = []

    def emit(self, kind: str, **fields) -> dict:
        event = events.make(kind, fields)
        check_balanced(event)
        apply(self.state, event)
        self.events.append(event)
        self.after_money(event)
        return event

    def after_money(self, event: dict) -> None:
        """The bank breaks the first time it pays more than it holds (or reaches 0, per ruleset)."""
        s = self.state
        if s.bank_broken or self.rs.k("bank", "breaks") == "never":
            return
        if not any(t[0] == BANK for t in event.get("transfers", ())):
            return
        limit = 0 if self.rs.k("bank", "breaks") == "below_zero" else 1
        if s.cash(BANK) < limit:
            self.emit("bank_broke", bank=s.cash(BANK), end_after_set=end_set_on_break(s, self.rs))


def end_set_on_break(s: GameState, rs: Ruleset) -> int:
    """The last set of ORs to play: the set under way when the bank breaks in an OR
    (endgame.bank_broken_in_or = end_of_set), or, when it breaks in SR n, the set after it, which
    is set n (bank_broken_in_sr = end_of_next_set); the loader admits only these values."""
    kind = s.round.get("kind")
    if kind == "operating":
        return s.round["set"]
    if kind == "stock":
        return s.round["number"]
    return 1


def check_balanced(event: dict) -> None:
    for t in event.get("transfers", ()):
        if len(t) != 3 or not isinstance(t[2], int) or t[2] < 0:
            raise LedgerCorrupt(f"event {event['kind']}: bad transfer {t!r}")


# --------------------------------------------------------------------------- new game

def start_events(rs: Ruleset, players: list[str]) -> list[dict]:
    """The events of a new game: the bank pays each player's starting cash, the auction opens."""
    n = len(players)
    if n not in rs.players:
        counts = sorted(rs.players)
        raise RuleViolation(f"{rs.title} is for {counts[0]}-{counts[-1]} players, not {n}")
    if len({p.lower() for p in players}) != n:
        raise CommandError("player names must differ (case-insensitively)")
    for p in players:
        if not p.strip() or not p.isprintable():
            raise CommandError(f"a player's name must be printable text, got '{one_line(p)}'",
                               "quote a name with spaces: \"Anne Marie\"")
    cash = rs.players[n]["cash"]
    issued = [[f"{c.sym}.{i}", None, ipo_acct(c.sym)] for c in rs.corporations for i in range(len(rs.shares))]
    return [
        {"kind": "game_started", "players": list(players), "certs": issued,
         # The bank is issued its money by the mint, so every posting, the opening one too, balances.
         "transfers": [[MINT, BANK, rs.bank_total]] + [[BANK, player_acct(p), cash] for p in players]},
        {"kind": "round_started", "round": auction.opening_round(rs), "priority": 0},
    ]


def initial_state(rs: Ruleset, players: list[str], options: dict | None = None) -> GameState:
    # Certificates are issued to the IPO by the game_started event, so the ledger records every holder.
    certs = {}
    percent = {f"{corp.sym}.{i}": pct for corp in rs.corporations for i, pct in enumerate(rs.shares)}
    trains = {}
    for t in rs.trains:
        for i in range(1, (t.count or 0) + 1):
            trains[f"{t.name}.{i}"] = DEPOT
    return GameState(
        title=rs.title,
        players=list(players),
        options=dict(options or {}),
        cert_limit=rs.players[len(players)]["cert_limit"] if len(players) in rs.players else 0,
        balances={},
        certs=certs,
        cert_percent=percent,
        privates={p.sym: Private(p.sym, price=p.face) for p in rs.privates},
        corps={c.sym: Corp(c.sym) for c in rs.corporations},
        trains=trains,
        phase=rs.phases[0].name,
        round={"kind": "setup"},
        ports={name: None for name in rs.ports.get("names", ())},
    )


def replay(rs: Ruleset, players: list[str], events: list[dict], options: dict | None = None) -> GameState:
    state = initial_state(rs, players, options)
    for event in events:
        apply(state, event)
    return state


# --------------------------------------------------------------------------- decide

READ_ONLY = {"status", "market", "score", "log"}
# Corrections and counts are recorded even after the game has ended.
ALWAYS = {"adjust", "count"}


def decide(state: GameState, rs: Ruleset, cmd: Command) -> list[dict]:
    """The events a command produces, or a CommandError/RuleViolation. `state` is not changed."""
    return decide_with_state(state, rs, cmd)[0]


def decide_with_state(state: GameState, rs: Ruleset, cmd: Command) -> tuple[list[dict], GameState]:
    """As `decide`, also returning the state after the events (a new object)."""
    if state.game_over and cmd.verb not in READ_ONLY | ALWAYS:
        raise RuleViolation(f"the game is over ({state.end_reason}); only status, market, score and log work")
    handler = handlers(rs).get(cmd.verb)
    if handler is None:
        raise CommandError(f"'{cmd.verb}' is not a game command")
    ctx = Ctx(state.clone(), rs)
    forced = cmd.get("force")
    if forced and not cmd.get("reason"):
        raise CommandError("--force needs --reason TEXT: a waived rule is recorded with its reason")
    token = WAIVING.set([] if forced else None)
    try:
        handler(ctx, cmd)
        waived = WAIVING.get()
    finally:
        WAIVING.reset(token)
    if forced:
        ctx.emit("rules_waived", rules=waived, reason=cmd.get("reason"), command=cmd.verb)
    progress(ctx)
    return ctx.events, ctx.state


def progress(ctx: Ctx) -> None:
    """Automatic consequences after a command: rounds ending and starting, until a player must act."""
    for _ in range(1000):
        s = ctx.state
        if s.game_over or s.pending:
            return
        kind = s.round["kind"]
        moved = {"auction": auction.progress, "stock": stock.progress,
                 "operating": operating.progress}[kind](ctx)
        if not moved:
            return
    raise LedgerCorrupt("the game does not settle after a command (a loop in the round logic)")


def end_game(ctx: Ctx, reason: str) -> None:
    ctx.emit("game_over", reason=reason)


def cmd_end(ctx: Ctx, cmd: Command) -> None:
    end_game(ctx, "ended by the players")


def account(ctx: Ctx, raw: str) -> str:
    """'bank', a player's name or a company symbol, as a ledger account."""
    from ledger.core import names
    if str(raw).lower() == "bank":
        return BANK
    try:
        return player_acct(names.player(ctx.state, raw))
    except CommandError:
        try:
            return f"company:{names.corp(ctx.rs, raw)}"
        except CommandError:
            raise CommandError(f"unknown account '{raw}'", "use bank, a player's name or a company symbol") from None


def cmd_adjust(ctx: Ctx, cmd: Command) -> None:
    """A logged, balanced correction: money moves between two accounts with a reason."""
    from ledger.core import names
    if not cmd.get("reason"):
        raise CommandError("an adjustment needs --reason TEXT")
    source, dest = account(ctx, cmd.get("source")), account(ctx, cmd.get("dest"))
    amount = names.amount(cmd.get("amount"))
    if source == dest or amount == 0:
        raise CommandError("an adjustment moves a positive amount between two different accounts")
    if source != BANK and ctx.state.cash(source) < amount:
        raise RuleViolation(f"{acct_name(source)} has ${ctx.state.cash(source)}: an adjustment cannot take ${amount}")
    ctx.emit("adjustment", reason=cmd.get("reason"), amount=amount, transfers=[[source, dest, amount]],
             **{"from": source, "to": dest})


def cmd_count(ctx: Ctx, cmd: Command) -> None:
    """A physical count of a player's money, compared with the ledger (no money moves)."""
    from ledger.core import names
    player = names.player(ctx.state, cmd.get("player"))
    counted = names.amount(cmd.get("amount"), "counted amount")
    ledger = ctx.state.cash(player_acct(player))
    ctx.emit("count", player=player, counted=counted, ledger=ledger, difference=counted - ledger)


def handlers(rs: Ruleset) -> dict:
    """The verbs of a title: the shared ones, with its own module's verbs over them."""
    from ledger.core.ruleset import load_extension
    ext = load_extension(rs)
    return {**HANDLERS, **getattr(ext, "HANDLERS", {})} if ext else HANDLERS


HANDLERS = {
    "bid": auction.cmd_bid,
    "buy": lambda ctx, cmd: (auction.cmd_buy if ctx.state.round["kind"] == "auction" else stock.cmd_buy)(ctx, cmd),
    "pass": lambda ctx, cmd: (auction.cmd_pass if ctx.state.round["kind"] == "auction" else stock.cmd_pass)(ctx, cmd),
    "par": stock.cmd_par,
    "sell": stock.cmd_sell,
    "exchange": stock.cmd_exchange,
    "tile": track.cmd_tile,
    "token": track.cmd_token,
    "port": ports.cmd_port,
    "pay": operating.cmd_pay,
    "withhold": operating.cmd_withhold,
    "train": train_step.cmd_train,
    "discard": train_step.cmd_discard,
    "flip": train_step.cmd_flip,
    "buy-private": operating.cmd_buy_private,
    "done": operating.cmd_done,
    "bankrupt": operating.cmd_bankrupt,
    "end": cmd_end,
    "adjust": cmd_adjust,
    "count": cmd_count,
}
