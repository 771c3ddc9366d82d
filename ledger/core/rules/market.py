"""Stock-market movement: pure functions of the ruleset's boxes and move rules (ledger.core.market_data
reads and documents them).

A primitive move (up, down, left, right on a grid; up, down on a track) tries its steps in order and
takes the first onto a box; 1830 §6.4: right, else up at the end of a row; left, else down at the
start of a row; up and down stay at the edge. Each cause of a move follows the title's rule for it:
a run (`after_run`: 1830's right/left, 1801's right when the dividend reaches the price, 1839's
bands), a sale (`after_sale`), the end of a stock round (`at_end_of_sr`).
"""

from __future__ import annotations

from ledger.core.events import counted, event, price_move
from ledger.core.market_data import STEPS
from ledger.core.ruleset import Cell, Ruleset
from ledger.core.state import POOL

Pos = tuple[int, int]

# The causes a caller may name instead of a primitive move (1830 §6.4, a grid's).
CAUSES = {"pay": "right", "withhold": "left", "sell": "down", "sold_out": "up"}


def exists(rs: Ruleset, pos: Pos) -> bool:
    return pos in rs.market


def step(rs: Ruleset, pos: Pos, name: str) -> Pos | None:
    """The box one step `name` from `pos`, or None when there is none. A red line on a cell's left
    edge blocks its left step (1843 §7.7)."""
    if name == "left" and pos in rs.market_rules["ledges"]:
        return None
    dr, dc = STEPS[rs.market_rules["shape"]][name]
    to = (pos[0] + dr, pos[1] + dc)
    return to if to in rs.market else None


def primitive(rs: Ruleset, pos: Pos, name: str) -> Pos:
    """Where one primitive move takes the marker: the first of its steps onto a box, else nowhere."""
    for name_of_step in rs.market_rules["edges"][name]:
        to = step(rs, pos, name_of_step)
        if to is not None:
            return to
    return pos


def up(rs: Ruleset, pos: Pos) -> Pos:
    return primitive(rs, pos, "up")


def down(rs: Ruleset, pos: Pos) -> Pos:
    return primitive(rs, pos, "down")


def move(rs: Ruleset, pos: Pos, cause: str, times: int = 1) -> Pos:
    """Where a marker at `pos` ends after `times` primitive moves (a name, or a cause of CAUSES)."""
    name = CAUSES.get(cause, cause)
    for _ in range(times):
        pos = primitive(rs, pos, name)
    return pos


# --------------------------------------------------------------------------- a run

def run_right(rs: Ruleset, pos: Pos, how: str, distributed, price: int, has_trains: bool, revenue: int,
              rule: dict) -> Pos:
    """1830 §6.4: a payout (or half) moves right, a withhold left; a $0 run may stay
    (operating.zero_revenue_moves)."""
    if how != "withhold":
        return move(rs, pos, "right")
    if revenue == 0 and rs.k("operating", "zero_revenue_moves") == "none":
        return pos
    return move(rs, pos, "left")


def run_right_if_reaches_price(rs: Ruleset, pos: Pos, how: str, distributed, price: int, has_trains: bool,
                               revenue: int, rule: dict) -> Pos:
    """1801 §4.4 (digest §5.4): a dividend of at least the share value moves right, a smaller one
    stays, none moves left; a half pay compares the half distributed."""
    if distributed == 0:
        return move(rs, pos, "left")
    return move(rs, pos, "right") if distributed >= price else pos


def run_bands(rs: Ruleset, pos: Pos, how: str, distributed, price: int, has_trains: bool, revenue: int,
              rule: dict) -> Pos:
    """1839 D10.1, with D distributed and P the price before: D = 0 falls `fall_nothing` boxes
    (`fall_no_train` without a train), 0 < D < P `fall_short`; from `damped_from` up one box if
    D > P, none if D = P; below it one box per multiple of P reached, stopping on landing at or
    above `damped_from` (best reading B1). The floor and the end box stop the marker."""
    if distributed == 0:
        return move(rs, pos, "down", rule["fall_nothing"] if has_trains else rule["fall_no_train"])
    if distributed < price:
        return move(rs, pos, "down", rule["fall_short"])
    damped = rule["damped_from"]
    if damped and price >= damped:
        return move(rs, pos, "up") if distributed > price else pos
    boxes = sum(1 for multiple in rule["rise_multiples"] if distributed >= multiple * price)
    for _ in range(boxes):
        pos = move(rs, pos, "up")
        if damped and cell(rs, pos).price >= damped:
            break
    return pos


RUN_MOVES = {"right": run_right, "right_if_reaches_price": run_right_if_reaches_price, "bands": run_bands}


def after_run(rs: Ruleset, pos: Pos | None, how: str, *, distributed, price: int, has_trains: bool,
              revenue: int = 0) -> Pos | None:
    """Where a company's marker goes after its run, by the title's run rule (market.run): `how` is
    pay, half or withhold, `distributed` what went to the holders, `price` its price before the move,
    `revenue` the run's (read for a withhold). A company off the market (None) has no marker."""
    if pos is None:
        return None
    rule = rs.market_rules["run"]
    return RUN_MOVES[rule["rule"]](rs, pos, how, distributed, price, has_trains, revenue, rule)


# --------------------------------------------------------------------------- a sale

def after_sale(rs: Ruleset, pos: Pos, shares: int) -> Pos:
    """Where a sale of `shares` shares leaves the marker: one box down per share (1830 §6.4, 1801
    §4.4), or where it was (1839 D10.2: sales never move the price)."""
    return pos if rs.market_rules["sale"] == "none" else move(rs, pos, "down", shares)


def sale_sinks_in_stack(rs: Ruleset, pos: Pos) -> bool:
    """A sale at a column's foot moves the marker down its stack instead (1843 §7.7)."""
    return (rs.market_rules["sale"] == "down_per_share" and at_foot(rs, pos)
            and rs.market_rules["sell_at_bottom"] == "down_in_stack")


# --------------------------------------------------------------------------- the end of a stock round

def end_of_sr_steps(rs: Ruleset) -> tuple[str, ...]:
    """The title's end-of-SR moves in order; the sold-out rise off when stock.sold_out_rise is."""
    return tuple(s for s in rs.market_rules["end_of_sr"] if s != "sold_out_up" or rs.k("stock", "sold_out_rise"))


def at_end_of_sr(rs: Ruleset, pos: Pos, step: str, *, sold_out: bool, pool_shares: int) -> Pos | None:
    """Where one end-of-SR step moves a company's marker, or None when the step is not the
    company's: a sold-out company one box up (1830 §6.4, 1843 §7.7, 1801 §10.7), one box down per
    share in the pool (1839 D9.4), or one box down if the pool holds any (1839 D6.5, foreign)."""
    if step == "sold_out_up":
        return move(rs, pos, "up") if sold_out else None
    if step == "down_per_pool_share":
        return move(rs, pos, "down", pool_shares) if pool_shares else None
    if step == "down_if_pool":
        return move(rs, pos, "down") if pool_shares else None
    raise KeyError(step)


# The event of each end-of-SR step (sold_out is ledger.core.events').
END_OF_SR_EVENTS = {"sold_out_up": "sold_out", "down_per_pool_share": "pool_drop", "down_if_pool": "pool_drop"}


@event
class PoolDrop:
    """The end of a stock round: the price falls one box per share in the pool (1839 D9.4)."""
    corp: str
    shares: int
    says_moves = True

    def describe(e, rs):
        return f"{e['corp']} has {counted(e['shares'], 'share')} in the pool: its price {price_move(e, rs, e['corp'])}"


def at_foot(rs: Ruleset, pos: Pos) -> bool:
    """No cell below: a sale cannot move the marker down a row."""
    return down(rs, pos) == pos


def sink_in_stack(order: list[str], sym: str, places: int) -> list[str]:
    """A stack (top first) after `sym` moves `places` places down it, stopping at the bottom
    (1843 §7.7: a sale at the foot of a column moves the marker down its stack)."""
    rest = [x for x in order if x != sym]
    at = min(order.index(sym) + places, len(rest))
    return rest[:at] + [sym] + rest[at:]


def cell(rs: Ruleset, pos: Pos) -> Cell:
    return rs.market[pos]


def price(rs: Ruleset, pos: Pos | None) -> int:
    return rs.market[pos].price if pos else 0


def zone(rs: Ruleset, pos: Pos | None) -> str:
    return rs.market[pos].zone if pos else "white"


def par_cell(rs: Ruleset, par: int) -> Pos:
    for pos, c in rs.market.items():
        if c.par and c.price == par:
            return pos
    raise KeyError(par)


def operating_order(s, rs: Ruleset, every_kind: bool = False) -> list[str]:
    """Floated companies group by group (their kind's); within one, those on the market by price,
    then column (right first), row (top first), arrival in the cell; those off it in float order
    (1801 §11: minors and regionals by float order first, then majors by share value). Kinds that
    take no turn (1839's foreign companies) only with `every_kind` (the end of a stock round)."""
    def key(sym):
        c = s.corps[sym]
        group = rs.company_kind(c.kind).group
        if c.cell is None:
            return (group, 0, 0, 0, 0, c.arrival)
        return (group, 1, -price(rs, c.cell), -c.cell[1], c.cell[0], c.arrival)
    return sorted((sym for sym, c in s.corps.items()
                   if c.floated and (c.cell or not rs.company_kind(c.kind).market)
                   and (every_kind or rs.company_kind(c.kind).operates) and not unowned(s, rs, sym)), key=key)


def unowned(s, rs, sym: str) -> bool:
    """A company whose president's certificate lies in the pool does not operate (1801 §11.6.5: an
    insolvent minor or regional, until a player buys it)."""
    return sym in s.presidents and s.certs.get(s.presidents[sym]) == POOL
