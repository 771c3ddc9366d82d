"""Station moves (RULES §8.5.2): from the gray phase, `token CORP --move` moves one of the
company's stations, once per game, for the data's cost; it is the turn's station. Any other
`token` is the shared rule's.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Opt, TitleGrammar
from ledger.core.rules import track, trains, turn
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, company_acct

KNOBS = {"title_rules": {
    "station_move_cost": Knob(int, None, 0),       # what moving a station costs
    "station_move_phase": Knob(str, None, ""),     # the phase from which a station may be moved
}}

# Where games stored before these were 1843's own kept them (the shared section).
LEGACY_KNOBS = {
    ("operating", "station_move_cost"): ("title_rules", "station_move_cost"),
    ("operating", "station_move_phase"): ("title_rules", "station_move_phase"),
}

GRAMMAR = TitleGrammar(options={
    "token": (Opt("--move", "move", True, help="move a station (1843 gray phase)"),),
})


def check(rs, problems: list[str]) -> None:
    value = rs.k("title_rules", "station_move_phase")
    if value and value not in {p.name for p in rs.phases}:
        problems.append(f"title_rules.station_move_phase: no phase '{value}'")


def register(reg) -> None:
    reg.rework("operating", "token", handler=cmd_token)


def cmd_token(ctx, cmd) -> None:
    """`token CORP --move` moves a station; any other token is the shared rule's."""
    if not cmd.get("move"):
        track.cmd_token(ctx, cmd)
        return
    s = ctx.state
    corp = operating_corp(ctx, cmd.get("corp"), "token")
    extra = [flag for key, flag in (("using", "--using"), ("modifiers", "--with"), ("slot", "--slot"),
                                    ("city", "--city")) if cmd.get(key) is not None]
    if extra:
        refuse(f"moving a station takes no {' or '.join(extra)}: the station moves with its own marker",
               f"token {corp} --move")
    for why in track.station_bars(s, corp):
        refuse(why)
    move_station(ctx, corp, cmd.get("cost"))


def move_station(ctx, corp: str, given) -> None:
    """From the gray phase a company may move one station once per game."""
    s, rs = ctx.state, ctx.rs
    cost = rs.k("title_rules", "station_move_cost")
    phase = rs.k("title_rules", "station_move_phase")
    if not trains.phase_reached(s, rs, phase):
        refuse(f"stations may be moved from {trains.phase_label(phase)} (now {trains.phase_label(s.phase)})")
    if corp in s.own.stations_moved:
        refuse(f"{corp} has already moved a station (once per game)")
    if given is not None and names.amount(given, "cost") != cost:
        refuse(f"moving a station costs {rs.money(cost)}, not {given}")
    turn.pay_from(ctx, corp, cost, "moving a station")
    ctx.emit("station_moved", corp=corp, cost=cost, transfers=[[company_acct(corp), BANK, cost]])


@event
class StationMoved:
    """Gray phase: a company moves one station, once per game (§8.5.2); it is the turn's station."""
    corp: str
    cost: int

    def apply(s, e):
        s.own.stations_moved = s.own.stations_moved + [e["corp"]]
        if "token" in s.round:
            s.round = s.round.but(token=True)

    def describe(e, rs):
        return f"{e['corp']} moves a station for {rs.money(e['cost'])}"
