"""Markets as data (issue 12.8): the shape of a title's market and the rule of every cause of a price
move come from its [market] data. Table-driven over a small market of each kind, with the digests'
numbers: 1839's one-row track (/work/shared/rules/1839.md D2, D9.4, D10), 1801's grid (1801.md §5),
and the shipped 1830 and 1843 markets, which say nothing new and play as before."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from conftest import FOUR, Table, auction_1830

from ledger import catalog
from ledger.core import market_data, ruleset
from ledger.core.errors import RulesetError
from ledger.core.events import describe
from ledger.core.rules import market

BASE = catalog.ruleset_text("1830")


def with_market(market_toml: str, pars: list[int]) -> ruleset.Ruleset:
    """1830's data with its [market] replaced by `market_toml` (and its par prices by `pars`)."""
    text = re.sub(r"(?ms)^\[market\]\n.*?(?=^\[)", "", BASE)
    assert "[market]" not in text
    return catalog.parse_text(text, {}, source="test", override_text=f"{market_toml}\n[company]\npar_prices = {pars}\n")


# 1839 D2.2: 20 boxes, ƒ55 to the ƒ1,000 end box; par boxes by colour (D2.2); D10.1's bands; no
# move on a sale (D10.2); -1 per pool share at the end of an SR (D9.4); D2.3's stacking.
MARKET_1839 = """
[market]
shape = "track"
cells = ["55","56","59","62","67p","72p","80p","89p","101p","116p","135p",
         "160","192","233","287","359","454","584","761","1000e"]
sale = "none"
end_of_sr = ["down_per_pool_share"]
or_move_stacking = "under_unmoved"
[market.run]
rule = "bands"
rise_multiples = [1, 2, 4]
damped_from = 135
fall_short = 1
fall_nothing = 2
fall_no_train = 3
[market.par_colours]
yellow = [67, 72, 80]
green = [89, 101]
blue = [116]
brown = [135]
"""
PARS_1839 = [67, 72, 80, 89, 101, 116, 135]

# 1801 §5.1 (the 18xx.games grid), §5.3's edges (UP at the top row: RIGHT), §5.4's dividend rule.
MARKET_1801 = """
[market]
rows = [
  ["","110","120p","135","150","165","180","200","225","250","280","310","350","390","440","490","550"],
  ["90","100","110p","120","135","150","165","180","200","225","250","280","310","350","390","440","490"],
  ["80","90","100p","110","120","135","150","165","180","200","225","250","280","310"],
  ["75","80","90p","100","110","120","135","150","165","180","200"],
  ["70","75","80p","90","100","110","120","135","150"],
  ["65","70","75p","80","90","100","110"],
  ["60","65","70","75","80"],
  ["50","60","65","70"],
]
run = "right_if_reaches_price"
[market.edges]
up = ["up", "right"]
"""
PARS_1801 = [75, 80, 90, 100, 110, 120]

RS_1839 = with_market(MARKET_1839, PARS_1839)
RS_1801 = with_market(MARKET_1801, PARS_1801)
RS_1830 = catalog.load("1830")
RS_1843 = catalog.load("1843")


def box(rs, price: int, row: int | None = None) -> tuple[int, int]:
    """The box of a price (on a grid, in the given row)."""
    found = [pos for pos, c in rs.market.items() if c.price == price and row in (None, pos[0])]
    assert len(found) == 1, (price, row, found)
    return found[0]


# --------------------------------------------------------------------------- the data read

def test_the_1839_track_is_one_row_of_twenty_boxes():
    assert RS_1839.market_rules["shape"] == "track"
    assert [RS_1839.market[(0, i)].price for i in range(20)] == [
        55, 56, 59, 62, 67, 72, 80, 89, 101, 116, 135, 160, 192, 233, 287, 359, 454, 584, 761, 1000]
    assert [pos for pos, c in RS_1839.market.items() if c.end] == [(0, 19)]
    assert {c.price: c.colour for c in RS_1839.market.values() if c.par} == {
        67: "yellow", 72: "yellow", 80: "yellow", 89: "green", 101: "green", 116: "blue", 135: "brown"}
    assert RS_1839.market_rules["edges"] == {"up": ("up",), "down": ("down",)}


@pytest.mark.parametrize("rs, rules", [
    (RS_1830, {"shape": "grid", "run": {"rule": "right"}, "sale": "down_per_share", "end_of_sr": ("sold_out_up",),
               "edges": {"up": ("up",), "down": ("down",), "left": ("left", "down"), "right": ("right", "up")},
               "sell_at_bottom": "stay", "sold_out_top": "stay", "or_move_stacking": "bottom", "ledges": ()}),
    (RS_1843, {"shape": "grid", "run": {"rule": "right"}, "sale": "down_per_share", "end_of_sr": ("sold_out_up",),
               "edges": {"up": ("up", "down_right"), "down": ("down",), "left": ("left", "down"),
                         "right": ("right", "up")},
               "sell_at_bottom": "down_in_stack", "sold_out_top": "down_right", "or_move_stacking": "under_unmoved"}),
    (RS_1801, {"shape": "grid", "run": {"rule": "right_if_reaches_price"}, "sale": "down_per_share",
               "end_of_sr": ("sold_out_up",), "edges": {"up": ("up", "right"), "down": ("down",),
                                                        "left": ("left", "down"), "right": ("right", "up")}}),
    (RS_1839, {"shape": "track", "sale": "none", "end_of_sr": ("down_per_pool_share",),
               "run": {"rule": "bands", "rise_multiples": [1, 2, 4], "damped_from": 135, "fall_short": 1,
                       "fall_nothing": 2, "fall_no_train": 3}}),
], ids=["1830", "1843", "1801", "1839"])
def test_each_markets_rules_as_read(rs, rules):
    """Today's 1830 and 1843 TOML (no new key) read as today's rules."""
    assert {key: rs.market_rules[key] for key in rules} == rules


def test_the_sold_out_rise_knob_still_turns_the_rise_off():
    assert market.end_of_sr_steps(RS_1830) == ("sold_out_up",)
    off = catalog.parse_text(BASE, {}, override_text="[stock]\nsold_out_rise = false\n")
    assert market.end_of_sr_steps(off) == ()
    assert market.end_of_sr_steps(RS_1839) == ("down_per_pool_share",)


# --------------------------------------------------------------------------- 1839: runs (D10.1)

BANDS = [
    # (P, how, D, has a train, expected price, why)
    (67, "pay", 140, True, 80, "D >= 2P: +2"),
    (67, "pay", 67, True, 72, "D = P: +1"),
    (67, "pay", 268, True, 89, "D >= 4P: +3"),
    (67, "pay", 133, True, 72, "D < 2P: +1"),
    (116, "pay", 1000, True, 135, "D14.9: +3, but the rise stops landing on 135"),
    (101, "pay", 404, True, 135, "D14.9: 116, then 135, stop"),
    (135, "pay", 135, True, 135, "D14.9: P >= 135 and D = P: no move"),
    (135, "pay", 600, True, 160, "D14.9: P >= 135 and D > P: +1 only"),
    (135, "pay", 134, True, 116, "0 < D < P: -1"),
    (761, "pay", 800, True, 1000, "D14.9: to the end box"),
    (1000, "pay", 5000, True, 1000, "nothing above the end box"),
    (101, "half", Fraction(150, 2), True, 89, "D14.8: a half pay compares the half: 75 < 101, -1"),
    (80, "half", Fraction(160, 2), True, 89, "half of 160 = 80 = P: +1"),
    (89, "withhold", 0, True, 72, "D14.11: withheld with trains: -2"),
    (80, "withhold", 0, False, 62, "D14.10: no train: -3 (80, 72, 67, 62)"),
    (59, "withhold", 0, False, 55, "the floor stops it"),
    (55, "pay", 30, True, 55, "the floor: -1 from 55 stays"),
]


@pytest.mark.parametrize("before, how, distributed, trains, after, why", BANDS, ids=[b[-1] for b in BANDS])
def test_1839_dividend_bands(before, how, distributed, trains, after, why):
    pos = box(RS_1839, before)
    to = market.after_run(RS_1839, pos, how, distributed=distributed, price=before, has_trains=trains,
                          revenue=0 if how == "withhold" else int(distributed * (2 if how == "half" else 1)))
    assert market.price(RS_1839, to) == after, why


def test_1839_sales_never_move_the_price():
    pos = box(RS_1839, 101)
    assert market.after_sale(RS_1839, pos, 3) == pos
    assert not market.sale_sinks_in_stack(RS_1839, box(RS_1839, 55))


@pytest.mark.parametrize("before, pool, after", [
    (101, 3, 72),    # D14.11: 30 % in the pool, -3
    (80, 1, 72),
    (59, 3, 55),     # the floor
])
def test_1839_end_of_sr_one_box_down_per_pool_share(before, pool, after):
    to = market.at_end_of_sr(RS_1839, box(RS_1839, before), "down_per_pool_share", sold_out=False, pool_shares=pool)
    assert market.price(RS_1839, to) == after


def test_1839_end_of_sr_leaves_a_company_without_pool_shares():
    assert market.at_end_of_sr(RS_1839, box(RS_1839, 101), "down_per_pool_share", sold_out=True, pool_shares=0) is None


# --------------------------------------------------------------------------- 1801: primitives and runs (§5)

PRIMITIVES_1801 = [
    # (move, from (price, row), to (price, row), why)
    ("up", (90, 1), (100, 1), "§5.3 [I]: UP from (1,0), no box above: RIGHT"),
    ("up", (165, 0), (180, 0), "UP on the top row: RIGHT"),
    ("up", (550, 0), (550, 0), "UP at £550: nothing"),
    ("up", (100, 3), (110, 2), "UP: one up"),
    ("down", (100, 3), (90, 4), "DOWN: one down"),
    ("down", (390, 1), (390, 1), "DOWN with no box below: nothing"),
    ("down", (310, 2), (310, 2), "DOWN from (2,13): nothing"),
    ("right", (310, 2), (350, 1), "RIGHT at the row end: UP"),
    ("right", (550, 0), (550, 0), "RIGHT at £550: nothing"),
    ("right", (100, 2), (110, 2), "RIGHT: one right"),
    ("left", (90, 1), (80, 2), "LEFT at the row start: DOWN"),
    ("left", (110, 0), (100, 1), "LEFT from (0,1), no box left: DOWN"),
    ("left", (50, 7), (50, 7), "LEFT at £50: nothing"),
]


@pytest.mark.parametrize("name, start, end, why", PRIMITIVES_1801, ids=[p[-1] for p in PRIMITIVES_1801])
def test_1801_primitive_moves(name, start, end, why):
    assert market.move(RS_1801, box(RS_1801, *start), name) == box(RS_1801, *end), why


RUNS_1801 = [
    # (price, row, how, distributed, expected (price, row), why)
    (150, 0, "half", 160, (165, 0), "§5.4: £160 half on £150: RIGHT"),
    (165, 0, "half", 160, (165, 0), "§5.4: £160 on £165: stays"),
    (150, 1, "pay", 150, (165, 1), "a dividend = the value: RIGHT"),
    (150, 1, "pay", 149, (150, 1), "0 < dividend < value: no move"),
    (150, 1, "withhold", 0, (135, 1), "£0: LEFT"),
    (90, 1, "withhold", 0, (80, 2), "£0 at the row start: LEFT, none: DOWN"),
    (490, 1, "pay", 500, (550, 0), "RIGHT at the row end: UP"),
]


@pytest.mark.parametrize("price, row, how, distributed, end, why", RUNS_1801, ids=[r[-1] for r in RUNS_1801])
def test_1801_runs(price, row, how, distributed, end, why):
    to = market.after_run(RS_1801, box(RS_1801, price, row), how, distributed=distributed, price=price,
                          has_trains=True, revenue=distributed * 2 if how == "half" else distributed)
    assert to == box(RS_1801, *end), why


def test_1801_sales_and_the_sold_out_rise():
    assert market.after_sale(RS_1801, box(RS_1801, 120, 0), 2) == box(RS_1801, 100, 2)   # DOWN per share
    assert market.at_end_of_sr(RS_1801, box(RS_1801, 165, 0), "sold_out_up", sold_out=True,
                               pool_shares=0) == box(RS_1801, 180, 0)                    # UP at the top: RIGHT
    assert market.at_end_of_sr(RS_1801, box(RS_1801, 165, 0), "sold_out_up", sold_out=False, pool_shares=0) is None


# --------------------------------------------------------------------------- 1830 and 1843 as today

@pytest.mark.parametrize("rs, start, cause, end", [
    (RS_1830, (0, 18), "pay", (0, 18)),        # the top right corner: nowhere to go
    (RS_1830, (2, 15), "pay", (1, 15)),        # the row end: up
    (RS_1830, (0, 6), "sold_out", (0, 6)),     # sold out on the top row: stays
    (RS_1830, (7, 0), "withhold", (7, 0)),     # the foot of column 0: stays
    (RS_1843, (0, 5), "sold_out", (1, 6)),     # 1843 §7.7: sold out on the top row: down and right
    (RS_1843, (0, 14), "pay", (0, 14)),        # the 500 box: its right step's up is blocked
], ids=["1830 corner", "1830 row end", "1830 top sold out", "1830 foot", "1843 top sold out", "1843 end box"])
def test_todays_grids(rs, start, cause, end):
    assert market.move(rs, start, cause) == end


def test_1830_runs_as_today():
    pos = (3, 6)
    assert market.after_run(RS_1830, pos, "pay", distributed=10, price=76, has_trains=True) == (3, 7)
    assert market.after_run(RS_1830, pos, "half", distributed=5, price=76, has_trains=True) == (3, 7)
    assert market.after_run(RS_1830, pos, "withhold", distributed=0, price=76, has_trains=True, revenue=50) == (3, 5)
    assert market.after_sale(RS_1830, pos, 3) == (6, 6)


def test_a_ledge_blocks_the_left_step():
    ledged = catalog.parse_text(catalog.ruleset_text("1843"), {}, override_text="[market]\nledges = [[6, 3]]\n")
    assert market.move(ledged, (6, 3), "withhold") == (7, 3)
    assert market.move(RS_1843, (6, 3), "withhold") == (6, 2)


# --------------------------------------------------------------------------- the loader refuses

@pytest.mark.parametrize("extra, problem", [
    ('run = "sideways"', "market.run: 'sideways' is not one of right, right_if_reaches_price, bands"),
    ('sale = "up_per_share"', "market.sale: 'up_per_share' is not one of down_per_share, none"),
    ('end_of_sr = ["sold_out_up", "bounce"]', "market.end_of_sr[1]: 'bounce' is not one of sold_out_up, down_per_pool_share"),
    ('shape = "hexagon"', "market.shape: 'hexagon' is not one of grid, track"),
    ('edges = { up = ["up", "diagonal"] }', "market.edges.up: 'diagonal' is not a step of a grid"),
    ('edges = { sideways = ["up"] }', "market.edges.sideways: a grid has no move 'sideways'"),
    ('run = { rule = "bands", rise_multiples = [1, 2, 4], fall_short = 1, fall_nothing = 2 }',
     "market.run.fall_no_train: missing (the bands rule needs it)"),
    ('run = { rule = "bands", rise_multiples = [4, 2], fall_short = 1, fall_nothing = 2, fall_no_train = 3 }',
     "market.run.rise_multiples: expected a rising list"),
    ('run = { rule = "right", fall_short = 1 }', "market.run.fall_short: unknown setting of the right rule"),
    ('sold_out_top = "down_right"\nedges = { up = ["up"] }', "market.sold_out_top: say the top row's move in market.edges.up"),
    ('wobble = 1', "market.wobble: unknown setting"),
])
def test_the_loader_refuses_with_the_path(extra, problem):
    with pytest.raises(RulesetError) as info:
        catalog.parse_text(BASE, {}, override_text=f"[market]\n{extra}\n")
    assert any(problem in p for p in info.value.problems), info.value.problems


@pytest.mark.parametrize("change, problem", [
    ('run = "right"', "market.run: moves left and right, which a track has not"),
    ('edges = { right = ["up"] }', "market.edges.right: a track has no move 'right'"),
    ('edges = { down = ["left"] }', "market.edges.down: 'left' is not a step of a track"),
    ('rows = [["55"]]', "market.rows: a track has none"),
])
def test_a_track_refuses_a_grids_moves(change, problem):
    text = MARKET_1839.replace('[market.run]', f'{change}\n[market.run]', 1)
    if change.startswith("run ="):
        text = re.sub(r"(?ms)^\[market\.run\]\n.*?(?=^\[)", "", text)
    with pytest.raises(RulesetError) as info:
        with_market(text, PARS_1839)
    assert any(problem in p for p in info.value.problems), info.value.problems


def test_every_rule_name_is_documented_in_the_reader():
    doc = open(market_data.__file__, encoding="utf-8").read()
    for name in [*market_data.RUN_RULES, *market_data.SALE_RULES, *market_data.END_OF_SR_STEPS]:
        assert f'"{name}"' in doc


# --------------------------------------------------------------------------- played through the engine

def test_an_1839_track_played_on_1830s_companies():
    """Runs, sales and the end of a stock round on the track, through the rounds that call them."""
    g = Table(title="1830", players=FOUR)
    g.rs = RS_1839
    auction_1830(g, bo_par=67)
    g.do("par Carol PRR 80", "buy Dave PRR", "buy Alice PRR", "buy Bob PRR")
    while g.round_kind() == "stock":
        g.do(f"pass {g.turn()}")
    assert g.price("PRR") == 80, "40 % unsold and none in the pool: no end-of-SR move"
    g.do("done PRR --no-route")
    assert g.price("PRR") == 62, "D14.10: no train, nothing paid: -3"
    while g.round_kind() == "operating":
        g.do(f"done {g.round_state()['corp']} --no-route")
    while g.turn() != "Dave":
        g.do(f"pass {g.turn()}")
    g.do("sell Dave PRR 1")
    assert g.price("PRR") == 62, "D10.2: a sale does not move the price"
    while g.round_kind() == "stock":
        g.do(f"pass {g.turn()}")
    drop = [e for e in g.events if e["kind"] == "pool_drop"]
    assert [(e["corp"], e["shares"]) for e in drop] == [("PRR", 1)]
    assert describe(drop[0], g.rs) == "PRR has 1 share in the pool: its price falls from $62 to $59"
    assert g.price("PRR") == 59
