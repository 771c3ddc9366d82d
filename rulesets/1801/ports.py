"""1801 / 18OE: what a major buys of another's place on the map: port authorities (§11.3.5) and token
transfers between majors of one president (§11.5)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.plays import Text
from ledger.core.rules import track
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, company_acct

from .common import kind_of, port_of, rules

# --------------------------------------------------------------------------- port authorities (§11.3.5)

# defaults: what games stored before these numbers moved to ruleset.toml played with
KNOBS = {"title_rules": {
    "port_price": Knob(int, None, 125),   # §11.3.5: from the bank, or exactly this from another major
    "access_fees": Knob(dict, None, {"city": 20, "grand": 40, "metropolis": 60}),   # §11.5 (D12.8)
}}



def cmd_port(ctx, cmd) -> None:
    """§11.3.5, §7.7: a major buys a port authority of a sea (North Sea or Mediterranean) for £125
    from the bank before its train step, or from another major in its transfer step for exactly
    £125 paid to that major (`--from CORP`). One each; it counts two fewer sea zones or ferry
    distance on that major's cross-water fees (--with port)."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "port-authority")
    if kind_of(s, corp) != "major":
        refuse(f"{corp} is a {kind_of(s, corp)}: only a major buys a port authority (§11.3.5)")
    if port_of(s, corp):
        refuse(f"{corp} holds the {port_of(s, corp)} port authority: one a major (§11.3.5)")
    if s.round.get("trains"):
        refuse(f"{corp} has bought trains this turn: a port authority comes before the train step (§11.3.5)")
    sea = port_sea(cmd.get("sea"))
    seller = names.corp(rs, cmd.get("source")) if cmd.get("source") else None
    if seller and s.round.get("revenue") is None:
        refuse(f"{corp} buys another major's port authority in its transfer-tokens step, after it runs (§11.3.5)")
    if seller:
        held = port_of(s, seller)
        if not held or not held.startswith(sea.upper()):
            refuse(f"{seller} holds no {SEAS[sea]} port authority to sell (§11.3.5)")
        marker, pay_to = held, company_acct(seller)
    else:
        free = sorted(sym for sym, a in s.assets.items() if a.kind == "port" and a.owner is None and not a.closed
                      and sym.startswith(sea.upper()))
        if not free:
            refuse(f"no {SEAS[sea]} port authority is left: eight markers of each sea (§11.3.5)")
        marker, pay_to = free[0], BANK
    price = rules(rs, "port_price")
    if s.cash(company_acct(corp)) < price:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; a port authority costs {rs.money(price)}, paid from "
               f"its treasury (§11.3.5)")
    ctx.emit("port_bought", corp=corp, port=marker, seller=seller or "bank", price=price,
             transfers=[[company_acct(corp), pay_to, price]],
             assets=[[marker, s.assets[marker].owner, company_acct(corp)]])


SEAS = {"north": "North Sea", "med": "Mediterranean"}


def port_sea(raw) -> str:
    text = str(raw or "").strip().lower()
    for key, name in SEAS.items():
        if text in (key, name.lower(), name.lower().split()[0]) or (text and name.lower().startswith(text)):
            return key
    raise RuleViolation(f"no sea {raw!r}: a port authority is of the North Sea or the Mediterranean",
                        "port-authority CORP north / port-authority CORP med")


# --------------------------------------------------------------------------- token transfers (§11.5)



def cmd_transfer(ctx, cmd) -> None:
    """§11.5 (D12.8): the operating major takes over a token of another major of the same
    president (never a home token), using one of its own charter tokens: it pays that slot's cost
    to the bank and £20 / £40 / £60 (a city, a grand city or 'Y' red zone, a metropolis or 'M'
    red zone) to the seller, whose token returns to its dearest open slot."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "transfer")
    seller = names.corp(rs, cmd.get("seller"))
    where = str(cmd.get("kind") or "city").lower()
    if where not in rules(rs, "access_fees"):
        refuse(f"a token's place is a city, grand or metropolis, not {where!r}")
    if kind_of(s, seller) != "major":
        refuse(f"{seller} is a {kind_of(s, seller)}: tokens pass between majors (§11.5)")
    if corp == seller or s.president(corp) != s.president(seller):
        refuse(f"{corp} and {seller} must be different majors of the same president (§11.5)")
    city = cmd.get("city")
    if city is not None and any(st.home and st.city and st.city.lower() == str(city).lower()
                                for st in s.corps[seller].stations):
        refuse(f"{city} holds {seller}'s home token: a major's home token may never be purchased (§11.5)")
    stations = [st for st in s.corps[seller].stations if not st.home]
    if city is not None:
        stations = [st for st in stations if st.city and st.city.lower() == str(city).lower()]
    if not stations:
        refuse(f"{seller} has no token {'in ' + str(city) + ' ' if city else ''}that may be transferred (never a "
               f"home token, §11.5)", f"if {city} is {seller}'s home, its home token may never be purchased (§11.5)"
               if city else None)
    token = stations[-1]
    slot = track.station_slot(s, rs, corp, cmd.get("slot"))
    cost = rs.corporation(corp).tokens[slot - 1]
    fee = rules(rs, "access_fees")[where]
    if s.cash(company_acct(corp)) < cost + fee:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))}; the token costs its slot {rs.money(cost)} and "
               f"{rs.money(fee)} to {seller}")
    back = dearest_open_slot(s, rs, seller, token)
    transfers = [t for t in ([company_acct(corp), BANK, cost], [company_acct(corp), company_acct(seller), fee]) if t[2]]
    ctx.emit("token_transferred", corp=corp, seller=seller, city=token.city, slot=slot, cost=cost, fee=fee,
             back_to=back, transfers=transfers)


def dearest_open_slot(s, rs, corp: str, leaving) -> int:
    """The returned token's slot: the most expensive open one on the seller's charter (§11.5), an
    open slot being one whose token is on the map (never the home one's)."""
    prices = rs.corporation(corp).tokens
    open_ = [st.slot for st in s.corps[corp].stations if not st.home and st.slot]
    return max(open_, key=lambda n: (prices[n - 1], n))


def same_president_majors(s, rs, corp, args) -> list[str]:
    return [c for c in s.corps if c != corp and kind_of(s, c) == "major" and s.president(c) == s.president(corp)]


def token_sellers(s, rs, corp, args) -> list[str]:
    """The majors of the same president with a token that may pass (never a home token, §11.5)."""
    return [c for c in same_president_majors(s, rs, corp, args) if any(not st.home for st in s.corps[c].stations)]


@event
class PortBought:
    corp: str
    port: str
    seller: str
    price: int

    def describe(e, rs):
        return f"{e['corp']} buys port authority {e['port']} from {e['seller']} for {rs.money(e['price'])}"


@event
class TokenTransferred:
    """§11.5: the buyer's token replaces the seller's, which returns to the seller's charter slot `back_to`."""
    corp: str
    seller: str
    slot: int
    cost: int
    fee: int
    back_to: int
    city: str = None

    def apply(s, e):
        from ledger.core.state import Station
        seller, buyer = s.corps[e["seller"]], s.corps[e["corp"]]
        gone = next(i for i in range(len(seller.stations) - 1, -1, -1)
                    if not seller.stations[i].home and seller.stations[i].city == e.get("city"))
        left = seller.stations[gone].slot
        kept = seller.stations[:gone] + seller.stations[gone + 1:]
        # the token fills its dearest open slot: a token still on the map from that slot now
        # counts as from the one the transferred token left
        seller.stations = tuple(Station(st.city, left, st.cost, st.home) if st.slot == e["back_to"] and left != e["back_to"]
                                else st for st in kept)
        seller.tokens_used -= 1
        buyer.stations = buyer.stations + (Station(e.get("city"), e["slot"], e["cost"]),)
        buyer.tokens_used += 1

    def describe(e, rs):
        where = f" in {e['city']}" if e.get("city") else ""
        return (f"{e['corp']} takes over {e['seller']}'s token{where}: {rs.money(e['cost'])} to the bank, "
                f"{rs.money(e['fee'])} to {e['seller']}")


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("port-authority", "operating", "The operating major buys a port authority (north or med) for £125 "
             "from the bank, or --from another major (1801 §11.3.5).", "bank port-authority WW north",
             (Arg("corp", "company"), Arg("sea", "choice", choices=("north", "med"))),
             (Opt("--from", "source", kind="company", help="the major selling its port authority"),), label="Buy a port authority"),
        Verb("transfer", "operating", "The operating major takes over another major's token (same president): its "
             "slot's cost to the bank, £20/40/60 to the seller for a city/grand/metropolis (1801 §11.5).",
             "bank transfer WW KSS --city Warszawa --kind grand",
             (Arg("corp", "company"), Arg("seller", "company")),
             (Opt("--city", "city", help="the token's city (default: the seller's last placed)"),
              Opt("--kind", "kind", help="city (£20), grand (£40) or metropolis (£60)"),
              Opt("--slot", "slot", help="the buyer's charter slot it uses")), label="Take over a token"),
    ),
)


def transfer_bars(s, rs, corp) -> list[str]:
    """Why the operating railroad may not take over a token now (§11.5, §11 step 5)."""
    if kind_of(s, corp) != "major":
        return [f"{corp} is a {kind_of(s, corp)}: tokens pass between majors (§11.5)"]
    if s.round.get("revenue") is None:
        return [f"{corp} transfers tokens after its run (§11 step 5)"]
    if s.round.get("trains"):
        return [f"{corp} has bought trains: tokens are transferred before the train step (§11 step 5)"]
    return []


def port_holders(s, rs, corp, args) -> list[str]:
    """The majors a port authority of the sea may be bought from (--from): those holding one."""
    sea = str(args.get("sea") or "").upper()
    return [c for c in s.corps if c != corp and (port_of(s, c) or "").startswith(sea) and sea]


def register(reg) -> None:
    reg.verb("port-authority", cmd_port, "operating",
             elsewhere="a major buys a port authority in its operating turn (§11.3.5)",
             candidates={"sea": lambda *_: ["north", "med"], "source": port_holders},
             phrase=lambda s, rs, *_: f"port-authority (for {rs.money(rules(rs, 'port_price'))})")
    reg.verb("transfer", cmd_transfer, "operating", elsewhere="a major transfers tokens in its operating turn (§11.5)",
             bars=transfer_bars, candidates={"seller": token_sellers, "kind": lambda s, rs, corp, args: list(rules(rs, "access_fees")),
                         "city": lambda *_: Text("the token's city, as printed", probe="CITY"),
                         "slot": lambda s, rs, corp, args: [str(n) for n in track.free_slots(s, rs, corp)]},
             phrase=lambda *_: "transfer a token")
