"""Ports (RULES §8.5.3, §8.1, §8.9): `port CORP NAME` claims a port marker in the station step;
each pays its holder at the start of every OR; `port CORP NAME --from OTHER` buys one from another
company after the run. The markers' names, income and price are the data's [ports] section.
"""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import LedgerCorrupt, RuleViolation, refuse, unknown
from ledger.core.events import event
from ledger.core.grammar import Arg, Kind, Opt, TitleGrammar, Verb
from ledger.core.rules import turn
from ledger.core.rules.turn import operating_corp
from ledger.core.ruleset import need
from ledger.core.state import BANK, acct_name, company_acct


def read_ports(table: dict, problems: list[str]) -> dict:
    """[ports]: the port markers' names, the income each pays an OR and their price between companies."""
    names_ = need(table, "names", list, "ports", problems, [])
    return {"income": need(table, "income", int, "ports", problems, 0),
            "sale_price": need(table, "sale_price", int, "ports", problems, 0),
            "names": tuple(str(n).lower() for n in names_)}


DATA_SECTIONS = {"ports": read_ports}

GRAMMAR = TitleGrammar(
    verbs=(
        Verb("port", "operating", "Claim a port for the company, or buy one from another company (1843).",
             "bank port MID bordeaux", (Arg("corp", "company"), Arg("port", "port")),
             (Opt("--from", "source", kind="company", help="buy it from this company"),), label="Claim or buy a port"),
    ),
    kinds={"port": Kind("a port's name", resolve=lambda state, rs, raw: port_name(rs, raw))},
)


def register(reg) -> None:
    reg.rule("initial_assets", initial_assets)
    reg.rule("company_holdings", company_holdings)
    reg.rule("info_lines", info_lines)
    reg.verb("port", cmd_port, "operating",
             candidates={"port": lambda s, rs, corp, args: list(rs.own["ports"]["names"]),
                         "source": port_sellers},
             phrase=lambda *_: "port (claim a port)")
    reg.on("or_started", pay_port_income)


# --------------------------------------------------------------------------- the markers

def initial_assets(rs) -> dict:
    """The port markers, assets on the map (no holder) until a company claims one."""
    return {name: "port" for name in rs.own["ports"]["names"]}


def port_holder(s, port: str) -> str | None:
    """The company holding a port marker, or None while it is on the map."""
    owner = s.assets[port].owner
    return acct_name(owner) if owner else None


def port_sellers(s, rs, corp, args) -> list[str]:
    """Who a port may be bought from (--from): the company holding it."""
    port = args.get("port")
    holder = port_holder(s, port) if port in s.assets else None
    return [holder] if holder and holder != corp else []


def ports_held(s) -> dict:
    """Every port marker and the company holding it (None: on the map)."""
    return {p: port_holder(s, p) for p, a in s.assets.items() if a.kind == "port"}


def company_holdings(s, sym: str) -> dict:
    return {"ports": [p for p, a in s.assets.items() if a.kind == "port" and a.owner == company_acct(sym)]}


def info_lines(rs) -> list[str]:
    ports = rs.own["ports"]
    return [f"Ports: {', '.join(ports['names'])}; each pays {rs.money(ports['income'])} an OR, "
            f"sold between companies for {rs.money(ports['sale_price'])}"]


def port_name(rs, raw: str) -> str:
    known = rs.own["ports"]["names"]
    if not known:
        raise RuleViolation(f"{rs.title} has no ports")
    text = str(raw).strip().lower()
    matches = [n for n in known if n == text] or [n for n in known if n.startswith(text)]
    if len(matches) != 1:
        raise unknown("port", raw, list(known))
    return matches[0]


# --------------------------------------------------------------------------- income (§8.1)

def income_transfers(s, rs) -> list[list]:
    income = rs.own["ports"]["income"]
    held: dict[str, int] = {}
    for port, corp in ports_held(s).items():
        if corp:
            held[corp] = held.get(corp, 0) + 1
    return [[BANK, company_acct(corp), income * n] for corp, n in sorted(held.items()) if income]


def pay_port_income(ctx) -> None:
    """Every port pays its holder at the start of an OR, before any company operates."""
    transfers = income_transfers(ctx.state, ctx.rs)
    if transfers:
        ctx.emit("port_income", transfers=transfers)


# --------------------------------------------------------------------------- claims and sales

def cmd_port(ctx, cmd) -> None:
    rs = ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "port")
    port = port_name(rs, cmd.get("port"))
    if cmd.get("source"):
        buy_port(ctx, corp, port, cmd.get("source"))
    else:
        claim_port(ctx, corp, port)


def claim_port(ctx, corp: str, port: str) -> None:
    """Claim an unclaimed port: the company owned a train at the start of the OR, places no station
    this OR, and claims one port an OR (digest A24)."""
    s = ctx.state
    holder = port_holder(s, port)
    if holder:
        raise RuleViolation(f"the {port} port belongs to {holder}", f"buy it: port {corp} {port} --from {holder}")
    turn.before_revenue(s, corp, "claiming a port")
    if corp not in s.round.get("had_trains", []):
        refuse(f"{corp} owned no train at the start of this operating round: it cannot claim a port")
    if s.round["token"] or s.round.get("special"):
        refuse(f"{corp} placed a station this operating round: it cannot also claim a port")
    if s.round.get("station_step"):
        refuse(f"{corp} has claimed a port this turn (one claim an operating round)")
    ctx.emit("port_claimed", corp=corp, port=port, ports=[[port, None, corp]])


def buy_port(ctx, corp: str, port: str, raw_seller: str) -> None:
    """A port bought from another company after the run, at the data's price (§8.9)."""
    s, rs = ctx.state, ctx.rs
    seller = names.corp(rs, raw_seller)
    holder = port_holder(s, port)
    if holder != seller:
        raise RuleViolation(f"{seller} does not hold the {port} port (held by {holder or 'nobody'})")
    if seller == corp:
        raise RuleViolation(f"{corp} already holds the {port} port")
    if s.round["revenue"] is None:
        refuse(f"{corp} buys ports after running its trains (RULES §8.9)", "pay or withhold first")
    price = rs.own["ports"]["sale_price"]
    turn.pay_from(ctx, corp, price, f"the {port} port")
    ctx.emit("port_sold", corp=corp, seller=seller, port=port, price=price, ports=[[port, seller, corp]],
             transfers=[[company_acct(corp), company_acct(seller), price]])


# --------------------------------------------------------------------------- events

def move_ports(s, e: dict) -> None:
    """[port, from company, to company] moves (None: the map): a port marker is an asset with one
    holder."""
    for port, source, dest in e["ports"]:
        if port not in s.assets or port_holder(s, port) != source:
            raise LedgerCorrupt(f"event {e['kind']}: port {port} is held by {port_holder(s, port)}, not {source}")
        s.assets[port].owner = company_acct(dest) if dest else None


@event
class PortClaimed:
    """A company claims a port marker from the map (RULES §8.5.3); `ports` moves it."""
    corp: str
    port: str
    ports: list[list[str | None]]

    def apply(s, e):
        move_ports(s, e)
        if s.round.get("kind") == "operating":   # the claim is the turn's station step (§8.5.3)
            s.round = s.round.but(station_step="claimed a port")

    def describe(e, rs):
        return f"{e['corp']} claims the {e['port'].title()} port"


@event
class PortSold:
    corp: str
    seller: str
    port: str
    price: int
    ports: list[list[str]]

    def apply(s, e):
        move_ports(s, e)

    def held(e):
        return [[port, company_acct(source), company_acct(dest)] for port, source, dest in e["ports"] if source and dest]

    def describe(e, rs):
        return f"{e['corp']} buys the {e['port'].title()} port from {e['seller']} for {rs.money(e['price'])}"


@event
class PortIncome:
    """Every port pays its holder at the start of an OR (RULES §8.1)."""

    def describe(e, rs):
        return "ports pay: " + ", ".join(f"{acct_name(t[1])} {rs.money(t[2])}" for t in e["transfers"])
