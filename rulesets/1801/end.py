"""1801 / 18OE: the end (§13, §13.1): the remainder cash, the bank breaking, the final sequence after
the first level 8 train with its repeat OR, and what scoring counts."""

from __future__ import annotations

from ledger.core import engine
from ledger.core.command import Command
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import TitleGrammar, Verb
from ledger.core.rounds import operating
from ledger.core.rules import trains
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import BANK, REMAINDER, RUSTED, acct_name, player_acct

from .common import is_rusted, kind_of, repeat_or, rules
from .pullmans import pullmans_on_sale

KNOBS = {"title_rules": {
    "final_phase": Knob(str, None, REQUIRED),
    "final_ors": Knob(int, None, REQUIRED),
    "repeat_or_income": Knob(bool, None, False),                          # D18 #43
}}


# --------------------------------------------------------------------------- the end (§13, §13.1)

def remainder_in(ctx, why: str) -> None:
    s = ctx.state
    amount = s.cash(REMAINDER)
    if amount:
        ctx.emit("remainder_paid", amount=amount, why=why, transfers=[[REMAINDER, BANK, amount]])


def bank_broke(ctx) -> None:
    """§13: once the bank breaks, the remainder cash keeps it paying to the end."""
    remainder_in(ctx, "the bank has broken")


def bank_can_break(s) -> bool:
    return not s.own.final


def final_sequence(ctx, phase: str) -> None:
    """§13: the first level 8 train (the bank still solvent) puts the remainder cash in the bank;
    three more ORs follow the one it was bought in (with the stock round between), the last a
    repeat of the one before (E27)."""
    s, rs = ctx.state, ctx.rs
    if phase != rules(rs, "final_phase") or s.bank_broken or s.own.final:
        return
    r = s.round
    left_in_set = r["count"] - r["index"]
    after = rules(rs, "final_ors")
    repeat = [r["set"], r["index"] + after] if left_in_set >= after else [r["set"] + 1, after - left_in_set]
    remainder_in(ctx, "the first level 8 train was bought")
    ctx.emit("final_sequence", final={"repeat": repeat, "runs": {}})


def last_full_or(s) -> bool:
    fin = s.own.final
    if not fin or s.round.get("kind") != "operating":
        return False
    rep = fin["repeat"]
    return [s.round["set"], s.round["index"]] == [rep[0], rep[1] - 1]


def record_final_run(ctx, corp: str, amount: int, how: str) -> None:
    if last_full_or(ctx.state):
        ctx.emit("final_run", corp=corp, revenue=amount, how=how)


def train_in_final_or(ctx, corp: str, _name: str) -> None:
    """§13: a railroad that acquired a train in the last full OR may run again with it."""
    s = ctx.state
    if last_full_or(s):
        ctx.emit("final_run", corp=corp, new_train=True)


def check_repeat(s, rs, corp: str, amount: int, how: str) -> None:
    """§13: the repeat OR pays what the OR before paid, the same way (the OE cash bonus not
    again), unless the railroad acquired a train in that OR."""
    if not repeat_or(s):
        return
    rec = s.own.final["runs"].get(corp)
    if not rec or rec.get("new_train") or "revenue" not in rec or not s.corp_trains(corp):
        return
    if amount != rec["revenue"] or how != rec["how"]:
        refuse(f"the last OR repeats the one before: {corp} ran {rs.money(rec['revenue'])} ({rec['how']}) there, "
               f"so it does again (§13)", f"{rec['how']} {corp} {rec['revenue']}")


def repeat_as_before(s, corp: str) -> bool:
    """In the repeat OR a railroad pays as before unless it acquired a train (§13)."""
    rec = s.own.final["runs"].get(corp) if repeat_or(s) else None
    return bool(rec) and "revenue" in rec and not rec.get("new_train")


# §13: what the repeat OR still plays (the payouts, a national's run, the end of a turn, a conversion
# window's answer); every other verb of an operating turn is business it no longer does
REPEAT_OR_PLAYS = ("pay", "half", "withhold", "run", "done", "convert", "discard", "choose", "adjust", "count", "end",
                   "repeat")


def no_repeat_business(s, rs, verb: str) -> list[str]:
    if repeat_or(s) and verb not in REPEAT_OR_PLAYS:
        return [f"the last OR only repeats the payouts: no track, tokens, trains or shares ({verb}) (§13)"]
    return []


# --------------------------------------------------------------------------- `repeat`: the repeat OR played

def repeat_turn(s, corp: str) -> list[Command] | None:
    """The lines a railroad's turn in the repeat OR is (§13): its payout of the OR before, the same
    way, then `done`; a railroad without trains runs nothing and ends its turn. None: it must run
    anew (it acquired a train in the OR before, or made no run there)."""
    if not s.corp_trains(corp):
        return [Command("done", {"corp": corp})]
    if not repeat_as_before(s, corp):
        return None
    rec = s.own.final["runs"][corp]
    return [Command(rec["how"], {"corp": corp, "revenue": rec["revenue"]}), Command("done", {"corp": corp})]


def cmd_repeat(ctx, cmd) -> None:
    """§13 (E27): `repeat` plays the repeat OR: each railroad in turn pays what it paid in the OR
    before, the same way, and ends its turn, up to the end of the game or to a railroad that must
    run anew (it acquired a train in that OR: §13), which is refused when it is the one to operate."""
    s = ctx.state
    played = 0
    while repeat_or(s) and not s.game_over and not s.pending and s.round.get("corp"):
        corp = s.round["corp"]
        lines = repeat_turn(s, corp)
        if lines is None:
            if not played:
                refuse(must_run_anew(s, corp), f"{'run' if kind_of(s, corp) == 'national' else 'pay'} {corp} ...")
            return
        for line in lines:
            engine.play_inside(ctx, line)
        played += 1


def must_run_anew(s, corp: str) -> str:
    rec = s.own.final["runs"].get(corp) or {}
    if rec.get("new_train"):
        return (f"{corp} acquired a train in the OR before: it runs anew in the repeat OR (§13); `repeat` plays "
                f"the others once its turn is over")
    return f"{corp} made no run in the OR before, so there is nothing to repeat: it runs anew (§13)"


def repeat_when(s, rs) -> list[str]:
    if not repeat_or(s):
        return ["`repeat` plays the last OR, which repeats the one before, after the first level 8 train (§13)"]
    corp = s.round.get("corp")
    if corp and repeat_turn(s, corp) is None:
        return [must_run_anew(s, corp)]
    return []


def repeat_words(s, rs, actors) -> str:
    return "repeat (every railroad pays as in the OR before, §13)"


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("repeat", "operating", "In the last OR, a repeat of the one before, every railroad in turn pays "
             "what it paid there, the same way, and ends its turn; it stops at one that acquired a train and "
             "runs anew (1801 §13).", "bank repeat", label="Repeat the last OR"),
    ),
)


def final_or_ended(ctx) -> bool:
    """§13: the repeat OR ends the game; an OR the sequence needs beyond the set is added."""
    s = ctx.state
    fin = s.own.final
    if not fin or s.round.get("kind") != "operating":
        return False
    r = s.round
    if [r["set"], r["index"]] == fin["repeat"]:
        ctx.emit("operating_round_ended", set=r["set"], index=r["index"])
        ctx.emit("game_over", reason="the repeat OR after the first level 8 train is over (§13)")
        return True
    if r["set"] == fin["repeat"][0] and r["index"] >= r["count"] and r["index"] + 1 <= fin["repeat"][1]:
        from ledger.core.rounds import operating
        ctx.emit("operating_round_ended", set=r["set"], index=r["index"])
        operating.start_or(ctx, r["set"], r["index"] + 1, fin["repeat"][1])
        return True
    return False


def unpriced_share_value(s, rs, player: str, corp: str) -> int:
    """D18 #44: a game ending before the Consolidation round scores a regional's certificates at its
    par (the 50 % at 2 x par, a 25 % at par); a minor scores nothing."""
    if kind_of(s, corp) != "regional" or not s.corps[corp].par:
        return 0
    return s.percent_of(player_acct(player), corp) // 25 * s.corps[corp].par


def privates_pay(s) -> bool:
    """D18 #43: the repeat OR is only payouts: no private income (nor Minor K's mail); the option
    repeat_or_income pays both."""
    return not repeat_or(s) or s.own.repeat_income


def or_heading(s, rs) -> str:
    """A national's turn, and the repeat OR's (§11.3.10, §13); else the shared round's."""
    corp = s.round["corp"]
    if repeat_or(s):
        return f"OR {s.round['set']}.{s.round['index']} (the last, a repeat): {corp}"
    if kind_of(s, corp) == "national":
        return f"OR {s.round['set']}.{s.round['index']}: {corp} (national, {s.president(corp)}) operates"
    return operating.heading(s, rs)


def endgame_lines(s, rs) -> list[str]:
    """Nationals, Pullmans, the Orient Express markers, the remainder cash and the final sequence."""
    out = []
    nationals = [c for c in s.corps if kind_of(s, c) == "national"]
    if nationals:
        out.append("Nationals (claim rusted trains, run by capacity): " + ", ".join(
            f"{c} [{' '.join(trains.side_name(s, rs, t) + ('r' if is_rusted(s, t) else '') for t in s.corp_trains(c))}]"
            for c in nationals))
    box = sorted(trains.train_type(t) for t, h in s.trains.items() if h == RUSTED)
    if box and nationals:
        out.append("Rusted trains unclaimed: " + ", ".join(f"{n} x{box.count(n)}" for n in sorted(set(box))))
    held = [(acct_name(a.owner) if a.owner.startswith("company:") else "Open Market")
            for a in s.assets.values() if a.kind == "pullman" and a.owner]
    stock = sum(1 for a in s.assets.values() if a.kind == "pullman" and a.owner is None)
    if pullmans_on_sale(s):
        out.append(f"Pullmans: {stock} in Minor M's stock at {rs.money(rules(rs, 'pullman_price'))}"
                   + (f"; held by {', '.join(sorted(held))}" if held else ""))
    if s.own.oe_markers:
        out.append("Orient Express markers: " + ", ".join(s.own.oe_markers))
    if s.cash(REMAINDER):
        out.append(f"Remainder cash aside: {rs.money(s.cash(REMAINDER))} (joins the bank when it breaks or with the "
                   f"first level 8 train, §13)")
    fin = s.own.final
    if fin:
        rep = fin["repeat"]
        out.append(f"Final sequence (§13): the game ends after OR {rep[0]}.{rep[1]}, a repeat of OR {rep[0]}."
                   f"{rep[1] - 1}'s payouts")
    if s.bank_broken and s.end_at_or:
        out.append(f"The bank has broken: the game ends after OR {s.end_at_or[0]}.{s.end_at_or[1]} (§13)")
    return out


def repeat_revenue(how: str):
    """The repeat OR pays what the OR before paid, the same way (§13); otherwise the shared bounds."""
    shared = operating.revenues(how)

    def found(s, rs, corp, args):
        rec = (s.own.final or {}).get("runs", {}).get(corp) if repeat_or(s) else None
        if rec and repeat_as_before(s, corp) and s.corp_trains(corp):
            return [str(rec["revenue"])] if rec["how"] == how else []
        if kind_of(s, corp) == "national":
            return ["0"] if not s.corp_trains(corp) and how == "withhold" else []
        return shared(s, rs, corp, args)
    return found


def repeat_phrase(how: str):
    shared = operating.run_phrase(how)

    def phrase(s, rs, corps) -> str:
        corp = corps[0]
        rec = (s.own.final or {}).get("runs", {}).get(corp) if repeat_or(s) else None
        if rec and repeat_as_before(s, corp) and s.corp_trains(corp):
            return "{command} (as in the OR before, §13)" if rec["how"] == how else ""
        return shared(s, rs, corps)
    return phrase


@event
class RemainderPaid:
    amount: int
    why: str

    def describe(e, rs):
        return f"-- {e['why']}: the remainder cash of {rs.money(e['amount'])} goes into the bank (§13) --"


@event
class FinalSequence:
    """§13: the first level 8 train: the OR `repeat` ([set, index]) repeats the one before and ends
    the game; `runs` records that OR's payouts."""
    final: dict[str, list | dict]

    def apply(s, e):
        s.own.final = e["final"]

    def describe(e, rs):
        rep = e["final"]["repeat"]
        return (f"-- the first level 8 train: the game ends after OR {rep[0]}.{rep[1]}, which repeats OR "
                f"{rep[0]}.{rep[1] - 1}'s payouts (§13) --")


@event
class FinalRun:
    """§13: a payout of the last full OR (or a train acquired in it), for the repeat OR."""
    corp: str
    revenue: int = None
    how: str = None
    new_train: bool = False

    def apply(s, e):
        fin = s.own.final
        rec = dict(fin["runs"].get(e["corp"], {}))
        if e.get("new_train"):
            rec["new_train"] = True
        else:
            rec.update(revenue=e["revenue"], how=e["how"])
        s.own.final = {**fin, "runs": {**fin["runs"], e["corp"]: rec}}


def register(reg) -> None:
    from dataclasses import replace
    reg.round(replace(operating.OPERATING, heading=or_heading))
    reg.bar(no_repeat_business)
    reg.rule("bank_can_break", bank_can_break)
    reg.rule("privates_pay", privates_pay)
    reg.rule("unpriced_share_value", unpriced_share_value)
    reg.on("phase_changed", final_sequence)
    reg.on("bank_broke", bank_broke)
    reg.on("or_ended", final_or_ended)
    reg.on("train_bought", train_in_final_or)
    reg.verb("repeat", cmd_repeat, "operating", who=lambda s, rs: None, when=repeat_when, phrase=repeat_words,
             elsewhere="`repeat` plays the last OR, which repeats the one before (§13)")
