"""1839's obsolete privates (§12.1, D7.5; rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest
shared/rules/1839.md "D x", its best readings "B n"): as brown begins a company's Beijnes becomes a
brown train; every private becomes obsolete once the company that bought the first brown train
finishes its turn (at once when a foreign company bought it); no company buys an obsolete private,
and each closes at its next closing point: its company's turn's end, a player's next private
income (for NFLM, its next run in the private step), or the next stock round."""

from __future__ import annotations

from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.rounds import operating
from ledger.core.rules import privates, train_step, trains
from ledger.core.ruleset import Knob
from ledger.core.state import DEPOT, acct_name, company_acct

KNOBS = {"obsolescence": {
    "phase": Knob(str, None, "brown"),   # §12.1, §17: the phase that makes the privates obsolete
}}


def obsolete(s) -> bool:
    return bool(s.own.obsolete)


def brown_began(ctx, phase: str) -> None:
    """Brown (§17): a company's Beijnes becomes a brown train (B15: before the privates close);
    the privates become obsolete once the company that bought the first brown train finishes its
    turn (at once when a foreign company bought it)."""
    s, rs = ctx.state, ctx.rs
    if phase != rs.k("obsolescence", "phase"):
        return
    for p in rs.privates:
        into = p.ability("converts_at_brown")
        held = s.privates[p.sym]
        if into and not held.closed and str(held.owner).startswith("company:"):
            corp = acct_name(held.owner)
            train = trains.next_depot_train(s, rs, into)
            if train:
                ctx.emit("beijnes_converted", private=p.sym, corp=corp, train=train,
                         trains=[[train, DEPOT, company_acct(corp)]])
            privates.close(ctx, [p.sym], reason=f"it became {corp}'s {into} train")
            train_step.check_limits(ctx)
    # a public company's first 7+: obsolete once it finishes its turn; a foreign company's: at once
    operating = (s.round.get("corp") if s.round.get("kind") == "operating" and not s.round.get("foreign_step")
                 else None)
    if operating:
        ctx.emit("obsolescence_due", corp=operating)
    else:
        make_obsolete(ctx)


def make_obsolete(ctx) -> None:
    s = ctx.state
    where = [s.round.get("kind"), s.round.get("set"), s.round.get("index"), s.round.get("pos")]
    ctx.emit("privates_obsolete", at=where)


def obsolete_before_this_or(s) -> bool:
    """Whether the privates were already obsolete as this OR began (not made so during it)."""
    at = s.own.obsolete
    return bool(at) and not (at[0] == "operating" and at[1:3] == [s.round.get("set"), s.round.get("index")])


def runs_in_private_step(p) -> bool:
    """NFLM (§12.4): a player owner's revenue is its own run in the private step, typed by the table
    (MEVS, paid as its owner's companies operate, is not)."""
    return bool(p.ability("typed_income")) and not p.ability("paid_per_company")


def players_open(s) -> list[str]:
    return [p for p, a in s.privates.items() if str(a.owner).startswith("player:") and not a.closed]


def private_step_over(ctx) -> None:
    """§12.1 (B20): the private step is over once a company has operated; an obsolete player's NFLM
    that did not run in it closes."""
    if obsolete_before_this_or(ctx.state):
        left = players_open(ctx.state)
        if left:
            privates.close(ctx, left, reason="obsolete: the private step is over (§12.1)")


def run_recorded(ctx, sym: str) -> None:
    """§12.1 (B20): an obsolete player's NFLM closes once it has run in the private step."""
    if obsolete_before_this_or(ctx.state) and sym in players_open(ctx.state):
        privates.close(ctx, [sym], reason="obsolete: it ran its last route (§12.1)")


def turn_ended(ctx, corp: str) -> None:
    """D7.5: the first brown train's buyer finishing its turn makes every private obsolete; a
    company whose turn began after that closes its obsolete privates as it finishes."""
    private_step_over(ctx)
    s = ctx.state
    due = s.own.obsolescence_due
    if due == corp:
        make_obsolete(ctx)
        return
    if not obsolete(s):
        return
    at = s.own.obsolete
    here = [s.round.get("kind"), s.round.get("set"), s.round.get("index"), s.round.get("pos")]
    if at[0] == "operating" and at[1:3] == here[1:3] and here[3] <= at[3]:
        return   # it was operating as the privates went obsolete: they close at its next turn's end
    mine = [p for p, a in s.privates.items() if a.owner == company_acct(corp) and not a.closed]
    if mine:
        privates.close(ctx, mine, reason="obsolete: its company finished its turn (§12.1)")


def players_obsolete_close(ctx) -> None:
    """D7.5 (B20): a player's obsolete private pays in the next OR's private step, then closes (an
    NFLM once it has run in that step, `run_recorded`, or once a company has operated)."""
    s, rs = ctx.state, ctx.rs
    if obsolete(s):
        mine = [p for p in players_open(s) if not runs_in_private_step(rs.private(p))]
        if mine:
            privates.close(ctx, mine, reason="obsolete: paid its last revenue (§12.1)")


def sr_obsolete_close(ctx) -> None:
    """D7.5: every obsolete private still open closes at the start of the next SR."""
    s = ctx.state
    if obsolete(s) or s.own.obsolescence_due:
        if not obsolete(s):
            make_obsolete(ctx)
        left = [p for p, a in s.privates.items() if a.owner and not a.closed]
        if left:
            privates.close(ctx, left, reason="obsolete: a stock round began (§12.1)")


def cmd_buy_private(ctx, cmd) -> None:
    """No company buys an obsolete private (§12.1)."""
    if obsolete(ctx.state):
        refuse("the privates are obsolete (brown): no company may buy one (§12.1)")
    operating.cmd_buy_private(ctx, cmd)


def obsolete_bars(s, rs) -> list[str]:
    if obsolete(s):
        return ["the privates are obsolete (brown): no company may buy one (§12.1)"]
    return []


def status_lines(s) -> list[str]:
    if obsolete(s):
        return ["Privates: obsolete (brown): no company may buy one; each closes at its next closing point"]
    if s.own.obsolescence_due:
        return [f"Privates: obsolete once {s.own.obsolescence_due} finishes its turn"]
    return []


def status_data(s) -> dict:
    return {"privates_obsolete": obsolete(s), "obsolescence_after": s.own.obsolescence_due}


def register(reg) -> None:
    reg.rework("operating", "buy-private", handler=cmd_buy_private, when=obsolete_bars)
    reg.on("phase_changed", brown_began)
    reg.on("corp_turn_ended", turn_ended)
    reg.on("or_started", players_obsolete_close)
    reg.on("stock_round_started", sr_obsolete_close)


# =========================================================================== events

@event
class ObsolescenceDue:
    """The first brown train: the privates go obsolete when its buyer finishes its turn (§12.1)."""
    corp: str

    def apply(s, e):
        s.own.obsolescence_due = e["corp"]

    def describe(e, rs):
        return f"the privates become obsolete when {e['corp']} finishes its turn"


@event
class PrivatesObsolete:
    at: list[int | str]

    def apply(s, e):
        s.own.obsolete, s.own.obsolescence_due = list(e["at"]), None

    def describe(e, rs):
        return "every private is obsolete: no company may buy one; each closes at its next closing point (§12.1)"


@event
class BeijnesConverted:
    private: str
    corp: str
    train: str

    def describe(e, rs):
        return f"{e['private']} becomes {e['corp']}'s {e['train'].rsplit('.', 1)[0]} train"
