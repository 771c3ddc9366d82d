"""The shared events of stock rounds: turns, pars, purchases, sales, presidencies, floats,
exchanges, listings, conversions, issues and sold-out companies."""

from __future__ import annotations

from ledger.core.events.declare import STOCK_TURN_KEYS, event


@event
class SrTurn:
    """A stock-round turn ends: `turn` acts next; `passes` counts passes in a row."""
    turn: int
    passes: int

    def apply(s, e):
        turn_keys = STOCK_TURN_KEYS[""] | STOCK_TURN_KEYS.get(s.title, set())   # what lasts one turn
        s.round = s.round.cleared(turn_keys, turn=e["turn"], passes=e["passes"], acted=False, buys=[])


@event
class SrActed:
    """The player whose turn it is bought (`bought`: [company, source]) or sold (`sold`: company)."""
    player: str
    index: int
    bought: list[str] = None
    sold: str = None
    turn_sales: bool = None   # the title's turn order counts this turn's sales (stock.order, sell_in_blocks)

    def apply(s, e):
        old = s.round
        r = {"acted": True, "last_actor": e["index"], "buys": old["buys"]}
        if e.get("bought"):
            r["buys"] = old["buys"] + [list(e["bought"])]
        if e.get("sold"):
            r["sold"] = {**old["sold"], e["player"]: old["sold"].get(e["player"], []) + [e["sold"]]}
        if e.get("sold") and e.get("turn_sales"):
            # this turn's sales, and whether they came before its purchase (stock.order, sell_in_blocks)
            r["turn_sold"] = old.get("turn_sold", []) + [e["sold"]]
            r["sold_first"] = old.get("sold_first", False) or not r["buys"]
        if "passers" in old:  # acting hands back a passing card (1839 D9.3)
            r["passers"] = [p for p in old["passers"] if p != e["player"]]
        s.round = old.but(**r)


@event
class DirectorsNoted:
    """The companies a player directs as his turn's buying begins (1839 §7.3's several purchases)."""
    player: str
    corps: list[str]

    def apply(s, e):
        s.round = s.round.but(directs=list(e["corps"]))


@event
class StockPass:
    player: str

    def apply(s, e):
        if "passers" in s.round and e["player"] not in s.round["passers"]:
            # the lowest free passing card; a player who holds one keeps it (1839 D9.3)
            s.round = s.round.but(passers=s.round["passers"] + [e["player"]])


@event
class Par:
    player: str
    corp: str
    price: int
    cost: int = 0
    par_round: bool = False  # its unsold shares sell at par for the rest of this stock round

    def apply(s, e):
        s.corps[e["corp"]].par = e["price"]
        if e.get("par_round"):
            s.round = s.round.but(at_par=[*s.round.get("at_par", []), e["corp"]])


@event
class ShareBought:
    player: str
    corp: str
    source: str
    price: int
    percent: int


@event
class SharesSold:
    player: str
    corp: str
    count: int
    price: int
    amount: int
    president: str = None
    held_price: bool = False   # the turn's later sales of this company keep this price (1801 §10.1)

    def apply(s, e):
        if e.get("held_price") and e["corp"] not in s.round.get("sale_at", {}):
            s.round = s.round.but(sale_at={**s.round.get("sale_at", {}), e["corp"]: e["price"]})


@event
class PresidentChanged:
    corp: str
    old: str
    new: str


@event
class Floated:
    corp: str
    capital: int

    def apply(s, e):
        corp = s.corps[e["corp"]]
        corp.floated = True
        if corp.cell is None:  # off the market: its float order is its operating order
            s.seq += 1
            corp.arrival = s.seq


@event
class Exchange:
    """A private exchanged for a share (`source` ipo/pool) or a director's certificate (`director`)."""
    player: str
    private: str
    corp: str
    source: str
    price: int = 0

    def apply(s, e):
        s.privates[e["private"]].closed = True


@event
class CompanyListed:
    """A company with no director goes on the market at a price of its own (its data, or its
    title's rule), where players may buy its shares."""
    corp: str
    price: int

    def apply(s, e):
        s.corps[e["corp"]].par = e["price"]


@event
class CompanyConverted:
    """A company becomes another kind (1801: a regional expands into a major): its certificates
    are re-valued in place (`percents`), new ones issued (`certs`, from nobody), and its
    president's certificate named (None: a kind with no director). Every company still sums to
    100 %."""
    corp: str
    becomes: str   # the company kind it is now
    percents: dict[str, int]
    president: str = None

    def apply(s, e):
        s.corps[e["corp"]].kind = e["becomes"]
        s.cert_percent.update(e["percents"])
        presidents = dict(s.presidents)
        if e.get("president"):
            presidents[e["corp"]] = e["president"]
        else:
            presidents.pop(e["corp"], None)
        s.presidents = presidents


@event
class SharesIssued:
    """A company sells shares from its treasury to the pool (or, `redeem`, buys them back)."""
    corp: str
    count: int
    price: int
    amount: int
    redeem: bool = False

    def apply(s, e):
        if "corp" in s.round:  # a company either issues or buys back in its turn, not both
            s.round = s.round.but(treasury="redeem" if e.get("redeem") else "issue")


@event
class SoldOut:
    corp: str
