"""1839's public companies' own rules in an operating turn (rules: shared/seeds/003_aa544c940024c360.txt
"§x"; digest shared/rules/1839.md "D x"): no station marker after a second tile (§8.2.4); a company
with no train that cannot pay for one sells station markers back to the bank, and its director is
bankrupt only once it has sold all it may (§8.2.7.3)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.rounds import operating
from ledger.core.rules import trains
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, POOL, company_acct


ROUND_FIELDS = {"operating": {"markers_sold": "bool"}}   # this turn sold station markers (§8.2.7.3)
KNOBS = {"publics": {
    # §8.2.7.3: a train from another company bought with marker-sale money at most at face (a game
    # begun before this was kept has it off)
    "marker_money_at_face": Knob(bool, None, False),
}}


def station_bars(s, rs, corp) -> list[str]:
    """§8.2.4: no station marker in a turn in which the company laid a second tile (a private's
    several tiles excepted, §12.2)."""
    if s.round.get("tiles", 0) >= 2 and not s.round.get("private_lay"):
        return ["no station marker in a turn in which the company laid a second tile (§8.2.4)"]
    return []


def token_sale_bars(s, rs, corp) -> list[str]:
    """`sell-token` is legal for a company with no train, short of one, and with a marker to spare
    (§8.2.7.3)."""
    if trains.working(s, corp):
        return [f"{corp} owns a train: station markers are sold only to buy a company's first train when it "
                f"cannot pay for one (§8.2.7.3)"]
    cheapest = trains.cheapest_available(s, rs)
    cash = s.cash(company_acct(corp))
    if cheapest is None or cash >= cheapest[0]:
        return [f"{corp} has {rs.money(cash)} and can pay for {cheapest[1] if cheapest else 'a train'}: it sells no "
                f"station marker (§8.2.7.3)"]
    if len(s.corps[corp].stations) <= 1:
        return [f"{corp} must keep its last station marker on the map (§8.2.7.3)"]
    return []


def cmd_sell_token(ctx, cmd) -> None:
    """§8.2.7.3 (D11.6): a company with no train that cannot pay for one may sell placed station
    markers back to the bank for the location's value; it keeps its last marker on the map."""
    s = ctx.state
    corp = operating_corp(ctx, cmd.get("corp"), "sell-token")
    value = names.amount(cmd.get("value"), "the location's value")
    stations = s.corps[corp].stations
    city = cmd.get("city")
    if city is not None:
        index = next((i for i, st in enumerate(stations) if st.city and st.city.lower() == str(city).lower()), None)
        if index is None:
            raise RuleViolation(f"{corp} has no station marker in {city}",
                                f"its markers: {', '.join(st.city or 'unnamed' for st in stations)}")
    else:
        index = len(stations) - 1   # the last one placed
    ctx.emit("token_sold", corp=corp, index=index, city=stations[index].city, value=value,
             transfers=[[BANK, company_acct(corp), value]] if value else [])


def marker_money_cap(ctx, corp: str, name: str, seller: str, cmd) -> int:
    """§8.2.7.3: "A train bought from another company with ... money raised by selling stations
    cannot be bought for more than face value" (the director's part is capped by the shared rule)."""
    s, rs = ctx.state, ctx.rs
    if not rs.k("publics", "marker_money_at_face") or not s.round.get("markers_sold"):
        return 0
    if seller in (BANK, POOL) or cmd.get("price") is None:
        return 0
    price, face = names.amount(cmd.get("price"), "price"), rs.train(name).price
    if price > face:
        refuse(f"{corp} raised money by selling station markers: a train from another company costs it at most "
               f"its face value, {rs.money(face)}, not {rs.money(price)} (§8.2.7.3)")
    return 0


def director_may_still(s, rs, director: str, corp: str) -> str:
    """', and Dee may still sell AMS 4 at ƒ55 and hand in VVD for ƒ60': the director's own sources
    left besides the stations (§8.2.7.3), so one refusal names every source still to use."""
    _can, plan, owned = operating.raisable(s, rs, director, corp)
    return f", and {director} may still {operating.still_to_raise(s, rs, plan, owned)}" if plan or owned else ""


def cmd_bankrupt(ctx, cmd) -> None:
    """§8.2.7.3: a director is bankrupt only once his company has also sold every station marker
    it legally may (all but its last)."""
    s = ctx.state
    corp = s.round.get("corp")
    director = corp and s.president(corp) == names.player(s, cmd.get("player"))
    if director and not trains.working(s, corp) and len(s.corps[corp].stations) > 1:
        refuse(f"{s.president(corp)} is not bankrupt yet: {corp} still has {len(s.corps[corp].stations) - 1} station "
               f"marker(s) it may sell{director_may_still(s, ctx.rs, s.president(corp), corp)}, and a director is "
               f"bankrupt only when every source is used (§8.2.7.3)", f"sell-token {corp} VALUE --city CITY")
    operating.cmd_bankrupt(ctx, cmd)


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("sell-token", "operating", "A company with no train that cannot pay for one sells a placed station "
             "marker to the bank for the location's value; the last stays (1839 §8.2.7.3).",
             "bank sell-token NBDS 40 --city Tilburg",
             (Arg("corp", "company"), Arg("value", "amount", help="the location's revenue value")),
             (Opt("--city", "city", help="which marker (default: the last placed)"),), label="Sell a station marker"),
    ),
)


def register(reg) -> None:
    reg.verb("sell-token", cmd_sell_token, "operating",
             elsewhere="a station marker is sold in the company's turn, to buy its first train (§8.2.7.3)",
             bars=token_sale_bars, phrase=lambda s, rs, corps: "sell a station marker ({command})")
    reg.rework("operating", "bankrupt", handler=cmd_bankrupt)
    reg.rule("station_bars", station_bars)


@event
class TokenSold:
    """A station marker back on the charter, paid its location's value by the bank (§8.2.7.3)."""
    corp: str
    index: int
    value: int
    city: str = None

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.stations = c.stations[:e["index"]] + c.stations[e["index"] + 1:]
        c.tokens_used -= 1
        if s.round.get("kind") == "operating":
            s.round = s.round.but(markers_sold=True)

    def describe(e, rs):
        where = f" in {e['city']}" if e.get("city") else ""
        return f"{e['corp']} sells its station marker{where} to the bank for {rs.money(e['value'])}"
