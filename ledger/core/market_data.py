"""Reading a title's stock market from its data ([market] in ruleset.toml): the shape, the boxes, and
for every cause of a price move the rule it follows, each from a closed set documented and checked
here. The moves themselves are ledger.core.rules.market's; nothing here knows a game.

    shape = "grid"            # rows of boxes, top row first (the default; 1830, 1843, 1801)
    shape = "track"           # one row of boxes, bottom box first: `cells` (1839 D2)

    [market.edges]            # a primitive move = the single steps it tries, in order (below)
    run = ...                 # what a run does (RUN_RULES); a string, or a table with `rule`
    sale = ...                # what a sale does (SALE_RULES)
    end_of_sr = [...]         # the moves at the end of a stock round, in order (END_OF_SR_STEPS)

A title that says none of these plays 1830's market (digest §6.4).
"""

from __future__ import annotations

SHAPES = ("grid", "track")

# The single steps, by shape: (row, column) offsets. A step onto no box is blocked; so is a left
# step from a cell with a red line on its left edge (`ledges`, 1843 §7.7).
STEPS = {
    "grid": {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1), "down_right": (1, 1)},
    "track": {"up": (0, 1), "down": (0, -1)},   # a track is row 0, its bottom box column 0
}

# The primitive moves each shape has, and their edge rules by default: the steps tried in order, the
# first that lands on a box taken; when every one is blocked the marker stays. 1830 §6.4: right,
# else up (the end of a row); left, else down (the start of a row); up and down stay at the edge.
# 1801 §4.4 has up = ["up", "right"]; 1843's sold_out_top = "down_right" means up = ["up", "down_right"].
EDGES = {
    "grid": {"up": ("up",), "down": ("down",), "left": ("left", "down"), "right": ("right", "up")},
    "track": {"up": ("up",), "down": ("down",)},   # 1839 D2: the floor and the end box stop a marker
}


class Param:
    """A number a rule needs: an int >= 0, or (`many`) a rising list of ints >= 1."""

    def __init__(self, default=None, many: bool = False):
        self.default, self.many = default, many

    def problem(self, value) -> str:
        if self.many:
            ok = (isinstance(value, list) and value and all(type(v) is int and v >= 1 for v in value)
                  and value == sorted(set(value)))
            return "" if ok else f"expected a rising list of whole numbers >= 1, got {value!r}"
        return "" if type(value) is int and value >= 0 else f"expected a whole number >= 0, got {value!r}"


# What a run does to the price: each rule, the primitive moves it uses, and its parameters
# (a default of None: the title must give it). The revenue step tells the rule how the company paid
# (pay, half, withhold), what it distributed (half a half-pay), its price before and whether it has
# trains (ledger.core.rules.market.after_run).
RUN_RULES = {
    # 1830 §6.4: paid (or half paid) right, withheld left; a $0 run as operating.zero_revenue_moves says
    "right": ({"right", "left"}, {}),
    # 1801 §4.4: distributed >= the share value right, less but not 0 stays, 0 left
    "right_if_reaches_price": ({"right", "left"}, {}),
    # 1839 D10.1, with D distributed and P the price before: one box up per multiple of P that D
    # reaches; from `damped_from` up (0: never) one box only and only if D > P, a rise from below
    # stopping on the first box at or above it; 0 < D < P down `fall_short`; D = 0 down
    # `fall_nothing` with a train, `fall_no_train` without
    "bands": ({"up", "down"}, {"rise_multiples": Param(many=True), "damped_from": Param(0),
                                "fall_short": Param(), "fall_nothing": Param(), "fall_no_train": Param()}),
}

# What a sale does to the price: one box down per share sold (1830 §6.4, 1801 §4.4), or nothing
# (1839 D10.2).
SALE_RULES = {"down_per_share": {"down"}, "none": set()}

# The moves at the end of a stock round, done in the order listed, each over the companies in
# operating order: a sold-out company one box up (1830; off when stock.sold_out_rise is false;
# 1801 §10.7 "none in the Open Market and none in treasury"), one box down per share in the pool
# (1839 D9.4).
END_OF_SR_STEPS = {"sold_out_up": {"up"}, "down_per_pool_share": {"down"}, "down_if_pool": {"down"}}

KEYS = ("shape", "cells", "edges", "run", "sale", "end_of_sr")


def rows(table: dict, problems: list[str]) -> list[list]:
    """The boxes' texts as rows: a grid's `rows`, or a track's `cells` as its one row."""
    shape = table.get("shape", "grid")
    if shape not in SHAPES:
        problems.append(f"market.shape: {shape!r} is not one of {', '.join(SHAPES)}")
        return []
    if shape == "track":
        for key in ("rows", "movement", "ledges"):
            if key in table:
                problems.append(f"market.{key}: a track has none (its boxes are `cells`, bottom first)")
        cells = table.get("cells", [])
        if not isinstance(cells, list):
            problems.append(f"market.cells: expected a list of boxes, got {cells!r}")
            return []
        return [cells]
    if "cells" in table:
        problems.append("market.cells: a grid lists its boxes in `rows` (cells is a track's)")
    if table.get("movement", "two_dimensional") != "two_dimensional":
        problems.append(f"market.movement: {table.get('movement')!r} is not one of two_dimensional")
    return table.get("rows", [])


def read_moves(table: dict, problems: list[str]) -> dict:
    """The market's move rules: {"shape", "edges", "run", "sale", "end_of_sr"}, checked."""
    shape = table.get("shape", "grid") if table.get("shape", "grid") in SHAPES else "grid"
    edges = read_edges(table, shape, problems)
    run = read_run(table.get("run", "right"), problems)
    sale = table.get("sale", "down_per_share")
    if sale not in SALE_RULES:
        problems.append(f"market.sale: {sale!r} is not one of {', '.join(SALE_RULES)}")
        sale = "down_per_share"
    steps = table.get("end_of_sr", ["sold_out_up"])
    if not isinstance(steps, list):
        problems.append(f"market.end_of_sr: expected a list of steps, got {steps!r}")
        steps = []
    for i, step in enumerate(steps):
        if step not in END_OF_SR_STEPS:
            problems.append(f"market.end_of_sr[{i}]: {step!r} is not one of {', '.join(END_OF_SR_STEPS)}")
    steps = [step for step in steps if step in END_OF_SR_STEPS]
    uses = {"run": RUN_RULES[run["rule"]][0], "sale": SALE_RULES[sale],
            "end_of_sr": set().union(*(END_OF_SR_STEPS[s] for s in steps))}
    for key, moves in uses.items():
        missing = sorted(moves - set(edges))
        if missing:
            problems.append(f"market.{key}: moves {' and '.join(missing)}, which a {shape} has not")
    return {"shape": shape, "edges": edges, "run": run, "sale": sale, "end_of_sr": tuple(steps)}


def read_edges(table: dict, shape: str, problems: list[str]) -> dict:
    """The primitive moves: the shape's defaults, with the title's `[market.edges]` over them."""
    edges = dict(EDGES[shape])
    top = table.get("sold_out_top", "stay")
    given = table.get("edges", {})
    if not isinstance(given, dict):
        problems.append(f"market.edges: expected a table of moves, got {given!r}")
        given = {}
    if top == "down_right":  # 1843 §7.7: sold out on the top row, one row down and one column right
        if "up" in given:
            problems.append("market.sold_out_top: say the top row's move in market.edges.up instead")
        edges["up"] = ("up", "down_right")
        if shape == "track":
            problems.append("market.sold_out_top: a track has no top row")
    for name, steps in given.items():
        if name not in edges:
            problems.append(f"market.edges.{name}: a {shape} has no move {name!r} ({', '.join(edges)})")
            continue
        if not (isinstance(steps, list) and steps):
            problems.append(f"market.edges.{name}: expected a list of steps, got {steps!r}")
            continue
        wrong = [s for s in steps if s not in STEPS[shape]]
        if wrong:
            problems.append(f"market.edges.{name}: {wrong[0]!r} is not a step of a {shape} "
                            f"({', '.join(STEPS[shape])})")
            continue
        edges[name] = tuple(steps)
    return edges


def read_run(spec, problems: list[str]) -> dict:
    """A run rule: a name, or a table with its `rule` and parameters."""
    table = {"rule": spec} if isinstance(spec, str) else spec
    if not isinstance(table, dict) or table.get("rule") not in RUN_RULES:
        name = table.get("rule") if isinstance(table, dict) else spec
        problems.append(f"market.run: {name!r} is not one of {', '.join(RUN_RULES)}")
        return {"rule": "right"}
    params = RUN_RULES[table["rule"]][1]
    out = {"rule": table["rule"]}
    for key, param in params.items():
        if key not in table:
            if param.default is None:
                problems.append(f"market.run.{key}: missing (the {table['rule']} rule needs it)")
            out[key] = param.default
        elif param.problem(table[key]):
            problems.append(f"market.run.{key}: {param.problem(table[key])}")
            out[key] = param.default
        else:
            out[key] = table[key]
    for key in table:
        if key != "rule" and key not in params:
            problems.append(f"market.run.{key}: unknown setting of the {table['rule']} rule")
    return out
