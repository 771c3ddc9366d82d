"""Trains and phases: what the supply offers, sides and prices, phase changes, rusting, limits.

A train is a certificate with an id (`4.2`, `green.3`). A title may print two sides on one
certificate (1843: a single train and a dearer "x2" side); the side in use is a train flag, and
each side says how many trains it counts toward the limit. Flags also mark certificates protected
by a private (a title's own flag), gone `obsolete` instead of rusting, or bought back `bought_rusted` (a rusted
certificate sold again in a phase that sells them).
"""

from __future__ import annotations

from ledger.core.events import counted as in_words
from ledger.core.ruleset import Ruleset, Side
from ledger.core.state import DEPOT, REMOVED, RUSTED, UNUSED, GameState, train_type


def phase_index(rs: Ruleset, name: str) -> int:
    return [p.name for p in rs.phases].index(name)


def phase_reached(s: GameState, rs: Ruleset, name: str) -> bool:
    return phase_index(rs, s.phase) >= phase_index(rs, name)


def phase_label(name: str) -> str:
    """'phase 3' for numbered phases (1830), 'the green phase' for named ones (1843)."""
    return f"phase {name}" if name[:1].isdigit() or len(name) == 1 else f"the {name} phase"


def limit(s: GameState, rs: Ruleset, corp: str | None = None) -> int:
    """The train limit now: the company's kind may set its own per phase (1801: minors 2, majors 4)."""
    own = kind_limit(s, rs, corp)
    return rs.phase(s.phase).train_limit if own is None else own


def cert_limit(s: GameState, rs: Ruleset, corp: str | None = None) -> int:
    """Train certificates a company may hold (1843 counts a double-sided card once); a kind's own
    limit bounds both."""
    own = kind_limit(s, rs, corp)
    return rs.phase(s.phase).certificate_limit if own is None else own


def kind_limit(s: GameState, rs: Ruleset, corp: str | None) -> int | None:
    if corp is None or corp not in s.corps:
        return None
    return rs.company_kind(s.corps[corp].kind).train_limits.get(s.phase)


def flags(s: GameState, train_id: str) -> dict:
    return s.train_flags.get(train_id, {})


def side(s: GameState, rs: Ruleset, train_id: str) -> Side:
    t = rs.train(train_type(train_id))
    return t.side(flags(s, train_id).get("side"))


def side_name(s: GameState, rs: Ruleset, train_id: str) -> str:
    return side(s, rs, train_id).name


def is_rusted(s: GameState, train_id: str) -> bool:
    """A rusted certificate a company bought again (a phase that sells them): it runs, but counts for
    no must-own-a-train rule."""
    return bool(flags(s, train_id).get("bought_rusted"))


def is_obsolete(s: GameState, train_id: str) -> bool:
    return bool(flags(s, train_id).get("obsolete"))


def counted(s: GameState, sym: str) -> list[str]:
    """The company's certificates that count toward the limit (obsolete ones do not, nor one a
    private keeps outside it: 1801 §14.10)."""
    return [t for t in s.corp_trains(sym) if not is_obsolete(s, t) and not flags(s, t).get("outside_limit")]


def working(s: GameState, sym: str) -> list[str]:
    """Certificates that satisfy the must-own-a-train rule: neither obsolete nor rusted, nor kept
    outside the limit (1801 §11.6)."""
    return [t for t in s.corp_trains(sym) if not is_obsolete(s, t) and not is_rusted(s, t)
            and not flags(s, t).get("outside_limit")]


def load(s: GameState, rs: Ruleset, sym: str, extra: Side | None = None) -> tuple[int, int]:
    """(trains, certificates) the company holds toward the limit, with one more side if given (an
    obsolete train too, where the title counts it until its last run)."""
    held = counted(s, sym)
    if rs.k("operating", "obsolete_in_limit"):
        held += [t for t in s.corp_trains(sym) if is_obsolete(s, t)]
    n_trains = sum(side(s, rs, t).trains for t in held) + (extra.trains if extra else 0)
    return n_trains, len(held) + (1 if extra else 0)


def within_limit(s: GameState, rs: Ruleset, sym: str, extra: Side | None = None) -> bool:
    n_trains, n_certs = load(s, rs, sym, extra)
    return n_trains <= limit(s, rs, sym) and n_certs <= cert_limit(s, rs, sym)


def limit_text(s: GameState, rs: Ruleset, corp: str | None = None) -> str:
    """The train limit in words: a company's, or (none given) the phase's and each kind's own."""
    lim, clim = limit(s, rs, corp), cert_limit(s, rs, corp)
    text = f"{lim} trains" if lim == clim else f"{lim} trains / {clim} certificates"
    if corp is None:
        own = [f"{k.name} {k.train_limits[s.phase]}" for k in rs.kinds.values() if s.phase in k.train_limits]
        text += f"; {', '.join(own)}" if own else ""
    return text


def limit_refusal(s: GameState, rs: Ruleset, corp: str, what: str) -> str:
    """Why `what` (a side, or a private made a train) may not join the company's trains: what it
    holds toward the limit, and the limit in force. The certificates are named only where they tell
    something: where a card may carry two trains or a phase limits certificates apart (1843)."""
    n_trains, n_certs = load(s, rs, corp)
    on = (f" on {in_words(n_certs, 'certificate')}" if n_certs != n_trains or counts_certificates(rs)
          or limit(s, rs, corp) != cert_limit(s, rs, corp) else "")
    return (f"train limit: {corp} holds {in_words(n_trains, 'train')}{on}; {what} would exceed the limit of "
            f"{limit_text(s, rs, corp)} in {phase_label(s.phase)}")


def counts_certificates(rs: Ruleset) -> bool:
    """Whether the title counts certificates apart from trains: a side counts other than one train,
    or a phase's certificate limit is not its train limit (1843's x2 cards)."""
    return (any(sd.trains != 1 for t in rs.trains for sd in t.sides)
            or any(p.train_limit != p.certificate_limit for p in rs.phases))


def sold_count(s: GameState, name: str) -> int:
    """Trains of a type that have left the supply, not counting any left out of the game at the
    set-up (so the first one sold still starts its phase)."""
    return sum(1 for t, h in s.trains.items() if train_type(t) == name and h not in (DEPOT, UNUSED))


def depot_left(s: GameState, name: str) -> list[str]:
    """New (not rusted) certificates of a type still in the supply, in order."""
    return sorted((t for t, h in s.trains.items() if train_type(t) == name and h == DEPOT and not is_rusted(s, t)),
                  key=train_number)


def train_number(train_id: str) -> int:
    return int(train_id.split(".")[1])


def depot_offer(s: GameState, rs: Ruleset) -> list[str]:
    """Train types the supply sells now: the first type with trains left (supply order), plus any
    unlimited type whose phase has come. Types a private brings (supply = false) are never sold."""
    offer = []
    for t in rs.trains:
        if not t.supply:
            continue
        if t.count is None:
            if t.available_from_phase is None or phase_reached(s, rs, t.available_from_phase):
                offer.append(t.name)
        elif depot_left(s, t.name) and not any(o for o in offer if rs.train(o).count is not None):
            offer.append(t.name)
    return offer


def left_before(s: GameState, rs: Ruleset, name: str, aside: tuple = ()) -> list[tuple[str, int]]:
    """The types the supply sells in order before `name` that still have trains left, with how many
    (as depot_offer reads the order: types it never sells, supply = false, and unlimited ones aside,
    and the types a title sells outside the order, `aside`)."""
    out = []
    for t in rs.trains:
        if t.name == name:
            break
        left = len(depot_left(s, t.name)) if t.supply and t.count is not None and t.name not in aside else 0
        if left:
            out.append((t.name, left))
    return out


def next_depot_train(s: GameState, rs: Ruleset, name: str) -> str:
    """The id of the next train of a type the supply sells (unlimited types get a fresh id)."""
    if rs.train(name).count is None:
        return f"{name}.{sold_count(s, name) + 1}"
    return depot_left(s, name)[0]


def pool_sides(s: GameState, rs: Ruleset, train_id: str) -> tuple[Side, ...]:
    """The sides a pool certificate may be bought on: any (the buyer chooses), or the side it was
    discarded on, as the title says."""
    t = rs.train(train_type(train_id))
    if rs.k("operating", "pool_train_side") == "as_discarded":
        return (side(s, rs, train_id),)
    return t.sides


def cheapest_available(s: GameState, rs: Ruleset) -> tuple[int, str] | None:
    """(price, description) of the cheapest train a company may be made to buy: any side of what
    the supply sells, or of a pool certificate. Rusted certificates never qualify."""
    options = [(sd.price, f"a {sd.name} from the bank") for n in depot_offer(s, rs) for sd in rs.train(n).sides]
    options += [(sd.price, f"the {sd.name} in the pool") for t in s.pool_trains() if not is_rusted(s, t)
                for sd in pool_sides(s, rs, t)]
    return min(options) if options else None


def phase_for_train(s: GameState, rs: Ruleset, name: str) -> str | None:
    """The phase the first purchase of this train type starts, if it is later than the current one."""
    for p in rs.phases:
        if p.on_train == name and phase_index(rs, p.name) > phase_index(rs, s.phase):
            return p.name
    return None


def rust_all(s: GameState, rs: Ruleset, name: str, protecting=()) -> tuple[list[list[str]], list[str]]:
    """When the first train of type `name` is bought, every train in play that rusts on it leaves
    play, except a company's train carrying a protecting flag (1843 Engineers, 1839 SAVED), which
    goes obsolete instead. Returns the moves of the rusting trains and the ids that go obsolete."""
    types = {t.name for t in rs.trains if t.rusts_on == name}
    moves = [[t, h, RUSTED] for t, h in s.trains.items()
             if train_type(t) in types and h not in (RUSTED, DEPOT, REMOVED, UNUSED) and not is_obsolete(s, t)]
    protected = [t for t, h, _d in moves if h.startswith("company:") and any(flags(s, t).get(f) for f in protecting)]
    return [m for m in moves if m[0] not in protected], protected


def for_sale(s: GameState, rs: Ruleset, reg) -> list[str]:
    """What a company may buy now, as the table reads it: each supply type with its sides and
    prices, each pool certificate, and what the title's own rules add (1843: rusted certificates)."""
    out = [" / ".join(f"{sd.name} at {rs.money(sd.price)}" for sd in rs.train(n).sides) for n in depot_offer(s, rs)]
    out += [" / ".join(f"{sd.name} at {rs.money(sd.price)}" for sd in pool_sides(s, rs, t)) + " (pool)"
            for t in sorted(s.pool_trains())]
    extra = reg.rules.get("train_offers")
    return out + (extra(s, rs) if extra else [])


def over_limit(s: GameState, rs: Ruleset, corps: list | None = None) -> list[dict]:
    out = []
    holders = s.held_trains()   # a company holding no train is within any limit
    for sym in s.corps if corps is None else corps:
        if f"company:{sym}" not in holders:
            continue
        n_trains, n_certs = load(s, rs, sym)
        excess = max(n_trains - limit(s, rs, sym), n_certs - cert_limit(s, rs, sym))
        if excess > 0:
            out.append({"kind": "discard", "corp": sym, "count": excess})
    return out


def in_pool(s: GameState, name: str) -> str | None:
    found = sorted((t for t in s.pool_trains() if train_type(t) == name), key=train_number)
    return found[0] if found else None


def holder_train(s: GameState, sym: str, name: str) -> str | None:
    found = sorted((t for t in s.corp_trains(sym) if train_type(t) == name), key=train_number)
    return found[0] if found else None


def owned_side(s: GameState, rs: Ruleset, sym: str, raw_type: str, raw_side: str | None) -> str | None:
    """A company's certificate of a type; when a side is named, one held on that side (a 4+1 is not
    the same train as a 3/5x2, though both are green certificates)."""
    held = sorted((t for t in s.corp_trains(sym) if train_type(t) == raw_type), key=train_number)
    if raw_side:
        held = [t for t in held if side_name(s, rs, t) == raw_side]
    return held[0] if held else None



def not_held(s: GameState, rs: Ruleset, sym: str, raw_type: str, raw_side: str | None) -> str:
    """Why `owned_side` found nothing: no certificate of the type, or none on the named side."""
    other = owned_side(s, rs, sym, raw_type, None)
    if raw_side and other:
        lies = side(s, rs, other)
        return (f"{sym} has no {raw_side}: its {raw_type} certificate is on the {lies.name} side "
                f"(face {rs.money(lies.price)})")
    return f"{sym} has no {raw_side or raw_type} train"


def plausible_revenue(s: GameState, rs: Ruleset, sym: str) -> int:
    """A generous ceiling on what the company's trains could earn: each counts its stops (a train
    that runs any number counts the title's longest route) at the map's dearest stop, times its
    side's multiplier. A guard against typos, not a rule: the banker may --force past it."""
    longest = rs.k("operating", "max_route_stops")
    total = 0
    for t in s.corp_trains(sym):  # obsolete and rusted certificates still run
        sd = side(s, rs, t)
        total += min(sd.stops or longest, longest) * sd.multiplier
    return total * rs.k("operating", "max_stop_revenue")


# --------------------------------------------------------------------------- the roster, for the boards

def roster(s: GameState, rs: Ruleset) -> list[dict]:
    """Every train type the bank sells, in supply order: its sides and prices, how many are left
    (None: unlimited), whether it is for sale now, and which type's first purchase rusts it."""
    offer = set(depot_offer(s, rs))
    out = []
    for t in rs.trains:
        if not t.supply:
            continue
        left = None if t.count is None else len(depot_left(s, t.name))
        unused = sum(1 for tr, h in s.trains.items() if train_type(tr) == t.name and h == UNUSED)
        out.append({"type": t.name, "sides": [{"name": sd.name, "price": sd.price} for sd in t.sides],
                    "left": left, "of": None if t.count is None else t.count - unused, "for_sale": t.name in offer, "rusts_on": t.rusts_on})
    return out


def next_phase(s: GameState, rs: Ruleset) -> dict | None:
    """The phase the next new train type starts, with its train limit and the types whose trains
    its first purchase rusts (by the title's data; None when the last phase has begun)."""
    names = [p.name for p in rs.phases]
    later = names[names.index(s.phase) + 1:] if s.phase in names else []
    if not later:
        return None
    p = rs.phase(later[0])
    return {"name": p.name, "on_train": p.on_train, "train_limit": p.train_limit,
            "rusts": [t.name for t in rs.trains if p.on_train and t.rusts_on == p.on_train]}
