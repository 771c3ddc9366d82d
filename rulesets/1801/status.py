"""1801 / 18OE: what `bank status` and `bank info` say about the title's own state and numbers."""

from __future__ import annotations

from ledger.core.rules import trains
from ledger.core.ruleset import REQUIRED, Knob
from ledger.core.state import POOL, REMAINDER, acct_name

from .common import chit_of, is_minor, is_rusted, protected, railroad_phase, removed, rules, zone_of, zones
from .concessions import concession_holder
from .end import endgame_lines
from .minors_regionals import chits_left
from .packet import held_back, packet_items, packet_lines

KNOBS = {"title_rules": {
    "provisional": Knob(list, None, REQUIRED),
}}


def status_lines(s, rs) -> list[str]:
    out = [f"Railroad phase: {railroad_phase(s)}; Train Phase {s.phase}"]
    if s.round.get("kind") == "packet":
        out += packet_lines(s, rs)
    due = concession_holder(s)
    if due and s.round.get("kind") == "concessions":
        left = sorted((int(k[1:]), k, acct_name(a.owner)) for k, a in s.assets.items()
                      if a.kind == "concession" and a.owner and not a.closed)
        out.append("Concessions to execute: " + ", ".join(f"{k} {p}" for _n, k, p in left))
    chits = {z: len(chits_left(s, rs, z)) for z in zones(rs)}
    if s.round.get("kind") != "packet":
        out.append("Track-rights chits left: " + ", ".join(f"{z} {n}" for z, n in chits.items()))
        track_order = regional_minor_track(s)
        if track_order:
            out.append("Regional/Minor order: " + ", ".join(track_entry(s, rs, c) for c in track_order))
    om = [f"{c} {s.percent_of(POOL, c)}%" for c in s.corps if s.percent_of(POOL, c)]
    if om:
        out.append("Open Market: " + ", ".join(om))
    if removed(s):
        out.append("Removed regionals: " + ", ".join(removed(s)))
    if s.own.reserved:
        out.append("Reserved secondaries: " + ", ".join(f"{c} for {p}" for c, p in s.own.reserved.items()))
    early = [f"level {n} once {k} level {m} trains are bought ({trains.sold_count(s, m)} so far)"
             for n, (m, k) in ((n, (e["after"], e["bought"])) for n, e in rules(rs, "early_levels").items()) if trains.sold_count(s, m) and trains.depot_left(s, m)]
    if early:
        out.append("On sale early (§5.2): " + "; ".join(early))
    reserved = trains.depot_left(s, rules(rs, "reserved_train"))
    if reserved and s.round.get("kind") not in ("packet",):
        out.append(f"Reserved 2+2s in the Locomotive Works: {len(reserved)} at "
                   f"{rs.money(rs.train(rules(rs, 'reserved_train')).sides[0].price)}; level 3 is on sale from the Major "
                   f"phase, never in OR 1.1 (§11.6)")
    if s.own.custody:
        out.append("BBBT keeps a treasury share: " + ", ".join(f"{c} for {p}" for c, p in s.own.custody.items()))
    if protected(s):
        out.append("BBBT protects from sale drops this round: " + ", ".join(protected(s)))
    if s.own.owes_train:
        out.append("Reserved 2+2 owed in their first OR: " + ", ".join(s.own.owes_train))
    if s.own.insolvent:
        out.append("Insolvent, in the Open Market (face + unpaid 2+2): " + ", ".join(
            f"{c} {rs.money(insolvent_price(s, rs, c))}" for c in s.own.insolvent))
    return out + endgame_lines(s, rs)


def regional_minor_track(s) -> list[str]:
    """The Regional/Minor track in its order: floated minors and regionals and regionals parred into
    the Open Market (§8.1: a parred one takes its place then, though it operates only once bought,
    D18 #17)."""
    return sorted((c for c in s.corps if s.corps[c].kind in ("minor", "regional")
                   and (s.corps[c].floated or s.corps[c].par)), key=lambda c: s.corps[c].arrival)


def track_json(s, rs, corp: str) -> dict:
    c = s.corps[corp]
    return {"sym": corp, "kind": c.kind, "where": chit_of(s, corp) or zone_of(rs, corp) or None,
            "parred": not c.floated, "insolvent": corp in s.own.insolvent}


def track_entry(s, rs, corp: str) -> str:
    """A company on the Regional/Minor track as the board shows it: 'C (minor, UK1)',
    'GWR (regional, UK)', 'MZA (regional, SP, parred)'."""
    c = s.corps[corp]
    where = chit_of(s, corp) or zone_of(rs, corp) or "-"
    notes = [c.kind, where] + ([] if c.floated else ["parred"]) + (["insolvent"] if corp in s.own.insolvent
                                                                   else [])
    return f"{corp} ({', '.join(notes)})"


def insolvent_price(s, rs, corp: str) -> int:
    face = rules(rs, "minor_face") if is_minor(s, corp) else 2 * s.corps[corp].par
    return face + s.own.insolvent[corp]


# The keys of status_data whose numbers are money (a dict's values, each number within; "packet.bids":
# the key bids inside packet), for a reader (the board page) to show as money: rs.money(n).
MONEY_KEYS = ("insolvent", "remainder", "packet.prices", "packet.bids")


def status_data(s, rs) -> dict:
    data = {"railroad_phase": railroad_phase(s), "removed": list(removed(s)),
            "reserved": dict(s.own.reserved), "owes_reserved_train": list(s.own.owes_train),
            "insolvent": dict(s.own.insolvent),
            "chits": {sym: acct_name(a.owner) if a.owner else ("removed" if a.closed else None)
                      for sym, a in s.assets.items() if a.kind == "chit"},
            "concessions": {sym: acct_name(a.owner) if a.owner else None
                            for sym, a in s.assets.items() if a.kind == "concession"},
            "kinds": {c: corp.kind for c, corp in s.corps.items()},
            "open_market": {c: s.percent_of(POOL, c) for c in s.corps if s.percent_of(POOL, c)},
            "remainder": s.cash(REMAINDER),
            "pullmans": {sym: (acct_name(a.owner) if a.owner.startswith("company:") else "Open Market")
                         if a.owner else None for sym, a in s.assets.items() if a.kind == "pullman"},
            # a national's rusted trains by name, on the side each is on (§11.6.6), not by certificate id
            "rusted_trains": {c: [trains.side_name(s, rs, t) for t in s.corp_trains(c) if is_rusted(s, t)]
                              for c in s.corps if any(is_rusted(s, t) for t in s.corp_trains(c))},
            "oe_markers": list(s.own.oe_markers),
            "regional_minor_order": [track_json(s, rs, c) for c in regional_minor_track(s)],
            "final_repeat_or": list(s.own.final["repeat"]) if s.own.final else None,
            "money_keys": list(MONEY_KEYS)}
    if s.round.get("kind") == "packet":
        data["packet"] = {"rows": [list(r) for r in s.round["rows"]], "prices": dict(s.round["prices"]),
                          "bids": {k: dict(v) for k, v in s.round["bids"].items()},
                          "auction": dict(s.round["auction"]) if s.round.get("auction") else None,
                          "held_back": {p: held_back(s, p) for p in s.players}}
    return data


def info_lines(rs) -> list[str]:
    out = ["Packet rows [S]: " + " | ".join(" ".join(r) for r in packet_items(rs)),
           f"Minors: face {rs.money(rules(rs, 'minor_face'))}, treasury keeps at most "
           f"{rs.money(rules(rs, 'minor_treasury_cap'))} of the price (§7.1); concessions "
           f"{rs.money(rules(rs, 'concession_face'))} each [S]"
           + ("" if rules(rs, "concessions") else " — not in this game"),
           "Zones (chits, home token, 20 % terrain discount): " + "; ".join(
               f"{c} {z['name']} {z['chits']}{'*' if z['limited'] else ''} {rs.money(z['home_cost'])}"
               f"{' 20%' if z['discount'] else ''}" for c, z in zones(rs).items())
           + f"; * only {rules(rs, 'limited_chits')} of these chits are taken",
           f"Regional pars: {', '.join(rs.money(p) for p in rules(rs, 'regional_pars'))} (2 x par for the 50 %)",
           "Minor K mail by phase: " + ", ".join(f"{p}: {rs.money(v)}" for p, v in rules(rs, "mail").items()),
           f"Nationals from the first train of phases {', '.join(rules(rs, 'conversion_phases'))} (§9.4); leftover "
           f"capacity {rs.money(rules(rs, 'national_leftover')['city'])} a city, "
           f"{rs.money(rules(rs, 'national_leftover')['town'])} a town (§11.3.10)",
           "Orient Express extra by phase: " + ", ".join(f"{p}: {rs.money(v)}" for p, v in rules(rs, "oe_extra").items())
           + f"; first run: its train's revenue as cash, or {rules(rs, 'oe_moves')} moves right (§12)",
           f"Pullmans from phase {rules(rs, 'pullman_phase')}: {rs.money(rules(rs, 'pullman_price'))}, royalty "
           f"{rs.money(rules(rs, 'pullman_royalty'))} to Minor M, {rs.money(rules(rs, 'pullman_transfer'))} between "
           f"railroads; {rs.money(rules(rs, 'pullman_per_level'))} a level"
           + "".join(f", {k} {rs.money(v)}" for k, v in rules(rs, "pullman_side_bonus").items()) + " (§11.6.2)",
           f"The end: remainder cash {rs.money(rs.remainder)}; the first level {rules(rs, 'final_phase')} train: "
           f"{rules(rs, 'final_ors')} more ORs, the last a repeat (§13)"]
    out += [f"PROVISIONAL [S]: {p}" for p in rules(rs, "provisional")]
    out += ["Readings (digest §18): a minor's treasury short of every home token left is helped by its owner for "
            "the cheapest (#45); escrowed bids also block buys (#15); a raise is £5 in every auction (#15); trades "
            "from the Major phase (#41, option early_trades); a parred regional is removed with the other "
            "unfloated ones (#17); Minor J's 10 % off rounds the price down (#28); in the Consolidation round a "
            "minor may be abandoned while its owner still has regionals to expand; rusted trains leave at once "
            "but the buyer's still count toward its limit until its buy step ends (§11.6.3); a Pullman on a 4D adds £80, the "
            "rulebook's example (D0.1 #6; option pullman_by_level: £70); the OE cash bonus counts the extra and the "
            "Pullman on its train (#24); the dividend's move comes before the OE's three (#22); a forced conversion buys "
            "no train and the national may claim at once (#32); the repeat OR pays no private income or mail (#43); "
            "after Minor M is abandoned the Pullmans stay on sale and the bank keeps the royalty (#27); Minor J's "
            "discount applies to Pullmans from M and the Open Market, not to a price agreed between railroads (#28)"]
    return out


def register(reg) -> None:
    reg.rule("info_lines", info_lines)
    reg.rule("status_lines", status_lines)
    reg.rule("status_data", status_data)
