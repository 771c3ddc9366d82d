"""Port markers (1843 RULES §8.5.3, §8.1, §8.9): claimed from the map by a company, they pay it a
fixed income at the start of every OR and may be sold between companies at a fixed price."""

from __future__ import annotations

from ledger.core.errors import RuleViolation, refuse, unknown
from ledger.core.rounds import operating
from ledger.core.state import BANK, company_acct


def port_name(rs, raw: str) -> str:
    known = rs.ports.get("names", ())
    if not known:
        raise RuleViolation(f"{rs.title} has no ports")
    text = str(raw).strip().lower()
    matches = [n for n in known if n == text] or [n for n in known if n.startswith(text)]
    if len(matches) != 1:
        raise unknown("port", raw, list(known))
    return matches[0]


def income_transfers(s, rs) -> list[list]:
    income = rs.ports.get("income", 0)
    held: dict[str, int] = {}
    for port, corp in s.ports.items():
        if corp:
            held[corp] = held.get(corp, 0) + 1
    return [[BANK, company_acct(corp), income * n] for corp, n in sorted(held.items()) if income]


def pay_income(ctx) -> None:
    transfers = income_transfers(ctx.state, ctx.rs)
    if transfers:
        ctx.emit("port_income", transfers=transfers)


def cmd_port(ctx, cmd) -> None:
    rs = ctx.rs
    corp = operating.operating_corp(ctx, cmd.get("corp"), "port")
    port = port_name(rs, cmd.get("port"))
    if cmd.get("source"):
        buy_port(ctx, corp, port, cmd.get("source"))
    else:
        claim_port(ctx, corp, port)


def claim_port(ctx, corp: str, port: str) -> None:
    """Claim an unclaimed port: the company owned a train at the start of the OR, places no station
    this OR, and claims one port an OR (digest A24)."""
    s = ctx.state
    holder = s.ports[port]
    if holder:
        raise RuleViolation(f"the {port} port belongs to {holder}", f"buy it: port {corp} {port} --from {holder}")
    operating.before_revenue(s, corp, "claiming a port")
    if corp not in s.round.get("had_trains", []):
        refuse(f"{corp} owned no train at the start of this operating round: it cannot claim a port")
    if s.round["token"] or s.round.get("special"):
        refuse(f"{corp} placed a station this operating round: it cannot also claim a port")
    if s.round.get("port"):
        refuse(f"{corp} has claimed a port this turn (one claim an operating round)")
    ctx.emit("port_claimed", corp=corp, port=port, ports=[[port, None, corp]])


def buy_port(ctx, corp: str, port: str, raw_seller: str) -> None:
    from ledger.core import names
    s, rs = ctx.state, ctx.rs
    seller = names.corp(rs, raw_seller)
    if s.ports[port] != seller:
        raise RuleViolation(f"{seller} does not hold the {port} port (held by {s.ports[port] or 'nobody'})")
    if seller == corp:
        raise RuleViolation(f"{corp} already holds the {port} port")
    if s.round["revenue"] is None:
        refuse(f"{corp} buys ports after running its trains (RULES §8.9)", "pay or withhold first")
    price = rs.ports["sale_price"]
    operating.pay_from(s, corp, price, f"the {port} port")
    ctx.emit("port_sold", corp=corp, seller=seller, port=port, price=price, ports=[[port, seller, corp]],
             transfers=[[company_acct(corp), company_acct(seller), price]])
