"""1801 / 18OE: what several features read: the title's own state (GameState.own), its zones
(Table 1, ruleset.toml [zones]) and small readers of companies, chits and the railroad phase.

Numbers live in ruleset.toml beside this package (rules: shared/seeds/002_c09d1f5beee78cce.txt "§x";
digest shared/rules/1801.md "D x", its corrections "D0.1 #n", its readings "D18 #n")."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ledger.core.errors import refuse
from ledger.core.rounds import stock
from ledger.core.rules import trains
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import RUSTED, company_acct

KNOBS = {"title_rules": {
    "extra_tile_points": Knob(dict, None, REQUIRED),
}}


AXIS = "railroad"


DISCOUNT_TRAINS = "J"        # §15.9


# the zones as typed, for the grammar (which is built before any game is read): ruleset.toml's [zones]
ZONE_CODES = tuple(tomllib.loads((Path(__file__).parent / "ruleset.toml").read_text(encoding="utf-8"))["zones"])


def read_zones(table, problems: list[str]) -> dict:
    """[zones.CODE]: name, home_cost, chits, discount (the 20 % terrain zone), limited (one of the
    asterisked zones), regionals (Table 1)."""
    out = {}
    if not isinstance(table, dict):
        problems.append("zones: expected a table of zones")
        return out
    for code, z in table.items():
        if not isinstance(z, dict):
            problems.append(f"zones.{code}: expected a table")
            continue
        out[code] = {"name": str(z.get("name", code)), "home_cost": int(z.get("home_cost", 0)),
                     "chits": int(z.get("chits", 2)), "discount": bool(z.get("discount", False)),
                     "limited": bool(z.get("limited", False)), "regionals": list(z.get("regionals", []))}
    return out


DATA_SECTIONS = {"zones": read_zones}


def check(rs, problems: list[str]) -> None:
    """The title's data agree with each other: every regional in one zone, every packet item known."""
    zones = rs.own.get("zones", {})
    placed = [r for z in zones.values() for r in z["regionals"]]
    for c in rs.corporations:
        if c.kind == "regional" and placed.count(c.sym) != 1:
            problems.append(f"zones: regional {c.sym} must be in exactly one zone")
    items = [i for row in rs.k("title_rules", "packet_rows") for i in row]
    known = {p.sym for p in rs.privates} | {c.sym for c in rs.corporations if c.kind == "minor"} | \
        set(rs.assets.get("concession", ()))
    for item in items:
        if item not in known:
            problems.append(f"title_rules.packet_rows: {item!r} is no private, minor or concession")


# =========================================================================== small readers

def rules(rs, name: str):
    return rs.k("title_rules", name)


def zones(rs) -> dict:
    return rs.own["zones"]


def zone_of(rs, corp: str) -> str | None:
    """The track-rights zone of a regional (Table 1)."""
    return next((code for code, z in zones(rs).items() if corp in z["regionals"]), None)


def kind_of(s, corp: str) -> str:
    return s.corps[corp].kind


def is_minor(s, corp: str) -> bool:
    return kind_of(s, corp) == "minor"


def removed(s) -> list[str]:
    return s.own.removed


def holder_of(s, corp: str) -> str | None:
    """Who holds a company's charter or president's certificate: an account."""
    return s.certs.get(s.presidents.get(corp, ""))


def chit_of(s, corp: str) -> str | None:
    return next((sym for sym, a in s.assets.items() if a.kind == "chit" and a.owner == company_acct(corp)), None)


def chit_zone(sym: str) -> str:
    return sym.rstrip("0123456789")


def ability_user(s, minor: str) -> str | None:
    """The railroad that uses a minor's ability now (§6.2, §15): the minor while a player owns it,
    the major it merged into after (never a national), else none."""
    c = s.corps.get(minor)
    if c is None:
        return None
    holder = holder_of(s, minor) or ""
    if c.floated and holder.startswith("player:"):
        return minor
    major = s.own.absorbed.get(minor)
    return major if major and s.corps[major].kind == "major" else None


def uses(s, corp: str, minors) -> bool:
    return any(ability_user(s, m) == corp for m in ([minors] if isinstance(minors, str) else minors))


def rights(s, rs, corp: str) -> set[str]:
    """The zones where a company has track rights: a minor's chit, a regional's home zone, a
    major's home zone and its merged minors' chits (§11.1.4)."""
    out = {chit_zone(sym) for sym, a in s.assets.items() if a.kind == "chit" and a.owner == company_acct(corp)}
    home = zone_of(rs, corp)
    if home:
        out.add(home)
    return out


def railroad_phase(s) -> str:
    return s.axes.get(AXIS, "auction")


def major_phase(s) -> bool:
    return railroad_phase(s) == "major"


@dataclass
class State:
    """What 1801's own rules keep (GameState.own)."""
    # regionals out of the game (§8.2)
    removed: list[str] = field(default_factory=list)
    # ... of them, those the players removed
    removed_by_players: list[str] = field(default_factory=list)
    # companies owing their reserved 2+2 (§11.6.1)
    owes_train: list[str] = field(default_factory=list)
    # company -> the unpaid part of its 2+2 (§11.6.5)
    insolvent: dict[str, int] = field(default_factory=dict)
    # regional -> who its secondaries are kept for (§8.4)
    reserved: dict[str, str] = field(default_factory=dict)
    # the repeat OR pays private income (D18 #43)
    repeat_income: bool = False
    # minor -> the major that absorbed it (§10.5, §9.5)
    absorbed: dict[str, str] = field(default_factory=dict)
    # Minor A's merger bonus is paid (§15.1)
    a_bonus_paid: bool = False
    # the next SR is the Consolidation round (§5.1.5)
    consolidation_due: bool = False
    # company -> whom BBBT keeps a share for (§14.4)
    custody: dict[str, str] = field(default_factory=dict)
    # [private, company, city] of the free tokens (§14.5-7)
    private_tokens: list[list[str | None]] = field(default_factory=list)
    # BB's tiles (§14.9)
    engineers: dict[str, int | list[int] | None] = field(
        default_factory=lambda: {"laid": 0, "or": None, "this_or": 0})
    # WCF's Lille token may go down now (§14.7)
    ferry_window: list[int] | None = None
    # minor -> its zone chit (§9.5)
    minor_chits: dict[str, str] = field(default_factory=dict)
    # Minor M's own Pullman (§15.12)
    m_pullman: str | None = None
    # majors that made their first OE run (§12)
    oe_markers: list[str] = field(default_factory=list)
    # the final sequence: the repeat OR and its runs (§13)
    final: dict | None = None
    # company -> its extra tile points (§15.7: Minor G's)
    tile_points: dict[str, int] = field(default_factory=dict)
    # companies no sale moves down this SR (§14.4: BBBT)
    price_held: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, rs) -> "State":
        return cls(repeat_income=bool(rules(rs, "repeat_or_income")),
                   tile_points=dict(rules(rs, "extra_tile_points")))


STATE = State


def extra_tile_points(s, rs, corp: str) -> int:
    """A company's tile points beyond its kind's: its own (§15.7: Minor G's, carried into the major
    that absorbs it) and a point granted for this turn only (§15.5-6: E/F's yellow tile on its
    terrain)."""
    return s.own.tile_points.get(corp, 0) + s.round.get("bonus_points", 0)


def protected(s) -> list[str]:
    """The companies BBBT's protection holds against sale drops this stock round (§14.4)."""
    return list(s.own.price_held)


def price_held(s, corp: str) -> bool:
    return corp in s.own.price_held


def tile_points_moved(s, bonus: dict) -> None:
    """An absorption carries a minor's extra tile points to its major: `bonus` is every company's now."""
    s.own.tile_points = {sym: n for sym, n in bonus.items() if n}


def free_action_turn(ctx, player: str) -> None:
    """§10: a private's power, closing or removing one, is one free action a turn, before the
    player's stock action."""
    s = ctx.state
    stock.take_turn(ctx, player)
    if s.round.get("acted"):
        refuse(f"{player} has taken his stock action: a private's free action comes before it (§10)")
    if s.round.get("free_action"):
        refuse(f"{player} has taken his free action this turn (one a turn, §10)")


# --------------------------------------------------------------------------- what several features ask
# (a company's reserved 2+2 owed, its port, Minor J's discount, a rusted train, a company's Pullmans,
# the repeat OR of the final sequence)

def owes(s, corp: str) -> bool:
    return corp in s.own.owes_train


def patronage_paid(cmd) -> int:
    """A patronage tile's amount as the table announces it (§12.3, printed on the tile): from £1;
    none when --patronage is left out."""
    from ledger.core import names
    if cmd.get("patronage") is None:
        return 0
    amount = names.amount(cmd.get("patronage"), "the patronage tile's amount")
    if amount < 1:
        refuse("a patronage tile pays at least £1: leave --patronage out where there is none")
    return amount


def patronage_amounts(s, rs, who, args):
    """What --patronage may say: any amount the tile prints, from £1."""
    from ledger.core.plays import Bounds
    return Bounds(1)


def reserved_side(rs):
    """The reserved train's printed side (§11.6.1): the name a hint types and the price it costs."""
    return rs.train(rules(rs, "reserved_train")).sides[0]


def port_of(s, corp: str) -> str | None:
    return next((sym for sym, a in s.assets.items() if a.kind == "port" and a.owner == company_acct(corp)), None)


def locomotive_discount(s, corp: str, price: int) -> int:
    """§15.9: Minor J takes 10 % off every train it buys from the Locomotive Works or the Open
    Market, the price rounded down (D18 #28); not off a price agreed with another railroad."""
    return price - price * 9 // 10 if uses(s, corp, DISCOUNT_TRAINS) else 0


def is_rusted(s, train_id: str) -> bool:
    return bool(trains.flags(s, train_id).get("rusted")) or s.trains.get(train_id) == RUSTED


def level(train_id: str) -> int:
    return int(trains.train_type(train_id))


def train_name(rs, train_id: str, side: str | None = None) -> str:
    """A train as the players name it, not by its certificate id: the side it is on when known, the
    card's one side (2+2), else its level ('level 4': a two-sided card, §2.4)."""
    sides = rs.train(trains.train_type(train_id)).sides
    if side:
        return side
    return sides[0].name if len(sides) == 1 else f"level {trains.train_type(train_id)}"


def pullmans_of(s, corp: str) -> list[str]:
    return sorted(sym for sym, a in s.assets.items() if a.kind == "pullman" and a.owner == company_acct(corp))


def repeat_or(s) -> bool:
    fin = s.own.final
    return bool(fin) and s.round.get("kind") == "operating" and [s.round["set"], s.round["index"]] == fin["repeat"]


def register(reg) -> None:
    reg.rule("extra_tile_points", extra_tile_points)
    reg.rule("price_held", price_held)
