"""Stock-market movement on a title's grid (pure functions of the ruleset's cells).

Two-dimensional movement as 1830 uses it (digest §6.4): a payout moves one cell right (up at the end
of a row), a withhold one cell left (down at the start of a row), each share sold one cell down,
a sold-out company one cell up at the end of a stock round. A move into a missing cell is blocked.
"""

from __future__ import annotations

from ledger.core.ruleset import Cell, Ruleset

Pos = tuple[int, int]


def exists(rs: Ruleset, pos: Pos) -> bool:
    return pos in rs.market


def right(rs: Ruleset, pos: Pos) -> Pos:
    r, c = pos
    if exists(rs, (r, c + 1)):
        return (r, c + 1)
    return up(rs, pos)


def left(rs: Ruleset, pos: Pos) -> Pos:
    r, c = pos
    if pos in rs.market_rules["ledges"]:  # a red line on the cell's left edge: down instead (1843 §7.7)
        return down(rs, pos)
    if exists(rs, (r, c - 1)):
        return (r, c - 1)
    return down(rs, pos)


def down(rs: Ruleset, pos: Pos) -> Pos:
    r, c = pos
    return (r + 1, c) if exists(rs, (r + 1, c)) else pos


def up(rs: Ruleset, pos: Pos) -> Pos:
    r, c = pos
    return (r - 1, c) if exists(rs, (r - 1, c)) else pos


def sold_out(rs: Ruleset, pos: Pos) -> Pos:
    """Up one row; on the top row the title either stays or goes one down and one right (1843 §7.7)."""
    r, c = pos
    if exists(rs, (r - 1, c)):
        return (r - 1, c)
    if rs.market_rules["sold_out_top"] == "down_right" and exists(rs, (r + 1, c + 1)):
        return (r + 1, c + 1)
    return pos


MOVES = {"pay": right, "withhold": left, "sell": down, "sold_out": sold_out}


def move(rs: Ruleset, pos: Pos, cause: str, times: int = 1) -> Pos:
    """Where a marker at `pos` ends after `times` moves of the given cause."""
    step = MOVES[cause]
    for _ in range(times):
        pos = step(rs, pos)
    return pos


def after_run(rs: Ruleset, pos: Pos | None, how: str, *, distributed, price: int, has_trains: bool,
              revenue: int = 0) -> Pos | None:
    """Where a company's marker goes after its run: `how` is pay, half or withhold, `distributed`
    what went to the holders, `price` its price before the move. (1830: a payout moves it right, a
    withhold left; a zero run may leave it where it is.)"""
    if pos is None:
        return None
    if how == "withhold":
        if revenue == 0 and rs.k("operating", "zero_revenue_moves") == "none":
            return pos
        return move(rs, pos, "withhold")
    return move(rs, pos, "pay")


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


def operating_order(s, rs: Ruleset) -> list[str]:
    """Floated companies by price, then column (right first), row (top first), arrival in the cell."""
    def key(sym):
        c = s.corps[sym]
        return (-price(rs, c.cell), -c.cell[1], c.cell[0], c.arrival)
    return sorted((sym for sym, c in s.corps.items() if c.floated and c.cell), key=key)
