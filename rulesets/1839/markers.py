"""1839's station markers beyond the shared rule (rules: shared/seeds/003_aa544c940024c360.txt "§x";
digest shared/rules/1839.md "D x", its best readings "B n"): the homes a company with several keeps
(§8.2.2, `drop-home`), the exchange marker placed atop one of the company's own stations
(§8.2.4, `token ... --exchange`), and Westlandsche Stoomtram's move of a placed marker (§12.4,
`move-marker`). An exchange marker takes a marker from the charter and is paid like a station
(the location's value x the locations of the company's markers) but is no location of its own
(B9): state.Station.atop."""

from __future__ import annotations

from dataclasses import replace

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.rules import privates, track
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob

from .common import owned_by
from .publics import station_bars

PRIVATE_ABILITIES = {
    "moves_marker": bool,    # its company moves one of its placed markers (`move-marker`, §12.4)
}
KNOBS = {"markers": {
    # §4, §12.3 (D19): the home Rijkswaterstaat's company gains besides its charter's
    "extra_home": Knob(str, None, "Emmen"),
}}


# --------------------------------------------------------------------------- where the markers are

def home_names(s, rs, corp: str) -> dict[int, str]:
    """The charter slot of each home and its city as printed ("Leeuwarden B13" -> Leeuwarden),
    the extra home of Rijkswaterstaat's company last (extra_homes, draws.py)."""
    printed = [part.strip() for part in rs.corporation(corp).home.split(",")]
    out = {n: place.split(" ")[0] for n, place in enumerate(printed, start=1)}
    if s.own.draws.get("rws") == corp:
        out[len(out) + 1] = rs.k("markers", "extra_home")
    return out


def same_place(typed: str, name: str | None) -> bool:
    """A city as typed names a marker's place: its name, or one half of a double city (Apeldoorn/Deventer)."""
    if not name:
        return False
    text = str(typed).strip().lower()
    return text == name.lower() or text in name.lower().split("/")


def place_of(s, rs, corp: str, st) -> str | None:
    """The place of a placed marker: its city, or a home's printed name."""
    return st.city or (home_names(s, rs, corp).get(st.slot) if st.home else None)


def marker_at(s, rs, corp: str, typed: str, atop: bool | None = None) -> int | None:
    """The index of the company's marker at the place typed (only stations, or only the exchange
    marker, when `atop` says)."""
    for i, st in enumerate(s.corps[corp].stations):
        if (atop is None or st.atop == atop) and same_place(typed, place_of(s, rs, corp, st)):
            return i
    return None


def exchange_bars(s, rs, corp: str, typed: str, moving: int | None = None) -> list[str]:
    """§8.2.4: an exchange marker goes atop one of the company's own stations; not if it already has
    one on the map (the one being moved aside), nor where another company has one."""
    out = []
    if marker_at(s, rs, corp, typed, atop=False) is None:
        out.append(f"an exchange marker goes atop one of {corp}'s own stations, and {corp} has none in {typed} (§8.2.4)")
    own = [i for i, st in enumerate(s.corps[corp].stations) if st.atop and i != moving]
    if own:
        out.append(f"{corp} already has an exchange marker on the map (§8.2.4)")
    other = next((sym for sym in s.corps if sym != corp and marker_at(s, rs, sym, typed, atop=True) is not None), None)
    if other:
        out.append(f"{other} has an exchange marker in {typed}: one company's to a hex (§8.2.4)")
    return out


def exchange_city(s, rs, corp: str, typed) -> str:
    """The city of the exchange marker about to be placed, or the rule that refuses it."""
    if typed is None:
        raise RuleViolation("an exchange marker goes atop one of the company's stations: name it with --city")
    for why in exchange_bars(s, rs, corp, typed):
        refuse(why)
    return place_of(s, rs, corp, s.corps[corp].stations[marker_at(s, rs, corp, typed, atop=False)])


def stacked(ctx, corp: str, city: str) -> None:
    """The marker just placed is the exchange marker."""
    ctx.emit("exchange_marker_placed", corp=corp, city=city)


# --------------------------------------------------------------------------- §8.2.2 homes kept

def home_bars(s, rs, corp) -> list[str]:
    """Homes are chosen in the company's first turn, before its station step (a station's cost
    counts the homes kept)."""
    c = s.corps[corp]
    homes = [st for st in c.stations if st.home]
    if c.last_run is not None:
        return [f"{corp} chose its homes in the first operating round it operated (§8.2.2)"]
    if len(homes) <= 1:
        return [f"{corp} must keep at least one home (§8.2.2)"]
    if s.round["token"] or s.round["revenue"] is not None:
        return [f"{corp}'s homes are kept or dropped before its station step"]
    return []


def cmd_drop_home(ctx, cmd) -> None:
    """§8.2.2: a company with several homes keeps some of them (at least one) in the first OR it
    operates; the marker of a home not kept goes back to its charter."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "drop-home")
    typed = str(cmd.get("city"))
    index = next((i for i, st in enumerate(s.corps[corp].stations)
                  if st.home and same_place(typed, place_of(s, rs, corp, st))), None)
    if index is None:
        raise RuleViolation(f"{corp} has no home marker in {typed}",
                            f"its homes: {', '.join(home_names(s, rs, corp).values())}")
    for why in home_bars(s, rs, corp):
        refuse(why)
    ctx.emit("home_dropped", corp=corp, index=index, city=home_names(s, rs, corp)[s.corps[corp].stations[index].slot])


def kept_homes(s, rs, corp, args) -> list[str]:
    return [place_of(s, rs, corp, st) for st in s.corps[corp].stations if st.home]


# --------------------------------------------------------------------------- §12.4 Westlandsche Stoomtram

def movers(s, rs, corp, args=None) -> list[str]:
    return [p.sym for p in rs.privates if p.ability("moves_marker") and owned_by(s, p.sym, corp)]


def move_bars(s, rs, corp) -> list[str]:
    """§12.4: used in the station step, "if the company is not already prohibited from placing an
    exchange or station marker"."""
    if not movers(s, rs, corp):
        return [f"{corp} owns no private that moves a marker (Westlandsche Stoomtram)"]
    return station_bars(s, rs, corp) + track.station_bars(s, corp)


def cmd_move_marker(ctx, cmd) -> None:
    """Westlandsche Stoomtram (§12.4): its company moves one of its placed markers to a new place,
    free (the rules give no cost); moved atop another of its stations it becomes the exchange
    marker, and the exchange marker moved to a city of its own becomes a station. The move is the
    turn's marker (reading: it is used in the station step, as a placement), and the private closes."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "move-marker")
    sym = names.private(rs, cmd.get("using")) if cmd.get("using") else (movers(s, rs, corp) or [None])[0]
    if sym is None or not rs.private(sym).ability("moves_marker") or not owned_by(s, sym, corp):
        raise RuleViolation(f"{corp} owns no open private that moves a marker (Westlandsche Stoomtram)")
    for why in station_bars(s, rs, corp) + track.station_bars(s, corp):
        refuse(why)
    source, dest = str(cmd.get("source")), str(cmd.get("dest")).strip()
    # where the exchange marker sits on a station, the one moved is the marker on top
    index = marker_at(s, rs, corp, source, atop=True)
    index = marker_at(s, rs, corp, source) if index is None else index
    if index is None:
        raise RuleViolation(f"{corp} has no marker in {source}")
    moved = s.corps[corp].stations[index]
    atop = marker_at(s, rs, corp, dest, atop=False) not in (None, index)
    if atop:
        for why in exchange_bars(s, rs, corp, dest, moving=index):
            refuse(why)
        dest = place_of(s, rs, corp, s.corps[corp].stations[marker_at(s, rs, corp, dest, atop=False)])
    elif marker_at(s, rs, corp, dest) is not None:
        refuse(f"{corp} already has a marker in {dest}")
    ctx.emit("marker_moved", corp=corp, index=index, source=place_of(s, rs, corp, moved), city=dest, atop=atop,
             private=sym)
    ctx.emit("ability_used", private=sym, ability="station")
    if rs.private(sym).ability("closes_on_use"):
        privates.close(ctx, [sym], reason=f"{corp} used its power")


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("drop-home", "operating", "A company with several homes does not keep this one: its marker goes back "
             "to the charter (1839 §8.2.2; its first OR, before its station step).", "bank drop-home HIJSM Hoorn",
             (Arg("corp", "company"), Arg("city", "text", help="the home not kept")), label="Keep one home"),
        Verb("move-marker", "operating", "Westlandsche Stoomtram: move one of the company's placed markers; atop "
             "another of its stations it becomes the exchange marker (1839 §12.4).",
             "bank move-marker NRS Gouda Delft --using WSM",
             (Arg("corp", "company"), Arg("source", "text", help="where the marker is"),
              Arg("dest", "text", help="where it goes")),
             (Opt("--using", "using", kind="private", help="the private whose power moves it (WSM)"),), label="Move a marker (WSM)"),
    ),
    options={"token": (Opt("--exchange", "exchange", True,
                           help="1839: an exchange marker atop one of the company's stations (§8.2.4)"),)},
)


def register(reg) -> None:
    reg.verb("drop-home", cmd_drop_home, "operating", elsewhere="homes are chosen in a company's first turn",
             bars=home_bars, candidates={"city": kept_homes},
             phrase=lambda s, rs, corps: "keep one home ({command})")
    reg.verb("move-marker", cmd_move_marker, "operating", elsewhere="a marker is moved in its company's turn",
             bars=move_bars, candidates={"using": movers},
             phrase=lambda s, rs, corps: "move a marker with WSM ({command})")


# =========================================================================== events

@event
class HomeDropped:
    """A home not kept (§8.2.2): its marker is back on the charter."""
    corp: str
    index: int
    city: str = None

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.stations = c.stations[:e["index"]] + c.stations[e["index"] + 1:]
        c.tokens_used -= 1

    def describe(e, rs):
        return f"{e['corp']} does not keep its home in {e['city']}: the marker goes back to its charter"


@event
class ExchangeMarkerPlaced:
    """The marker just placed sits atop the company's station there: no new location (§8.2.4, B9)."""
    corp: str
    city: str

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.stations = c.stations[:-1] + (replace(c.stations[-1], city=e["city"], atop=True),)

    def describe(e, rs):
        return f"{e['corp']}'s marker in {e['city']} is its exchange marker"


@event
class MarkerMoved:
    """§12.4: a placed marker moved, keeping its charter slot and what it cost; `atop`: it is the
    exchange marker now. It is the turn's marker."""
    corp: str
    index: int
    source: str
    city: str
    atop: bool = False
    private: str = None

    def apply(s, e):
        c = s.corps[e["corp"]]
        st = c.stations[e["index"]]
        c.stations = (c.stations[:e["index"]] + (replace(st, city=e["city"], home=False, atop=e["atop"]),)
                      + c.stations[e["index"] + 1:])
        if s.round.get("kind") == "operating":
            s.round = s.round.but(token=True)

    def describe(e, rs):
        what = "as its exchange marker" if e["atop"] else "as a station"
        return f"{e['corp']} moves its marker from {e['source']} to {e['city']} {what} ({e['private']})"
