"""Station markers as records (which city, which charter slot, what it cost) and fees as a pipeline
of modifiers a title declares, each step recorded in the event and shown by `bank explain`.

Numbers from the rules digests: 1830 charter prices (digest §5: PRR $0 home, $40, $100, $100; the
D&H's free next token, §3.1); 1843 §8.4.1 (a second yellow tile for 20fr), §8.4.3 (Paris 40fr);
1801 §12.2 and E14 (20 % zone discount, E/F ×0.67 rounded down, E/F with a zone 50 % per 0.1 #3,
£10 a sea zone), §12.4 and E15 (any slot, £40 a sea zone, a port authority counts 2 fewer, Wien
waives the slot); 1839 D5.3 and D14.22 (a station costs the location's value × the locations with
markers: 30 × 2 = 60 by the seed, 30 × 3 = 90 counting the new one; half cost 30 or 45).
The 1801 and 1839 fees are played on 1830's companies with the test rulesets in tests/1830/data/.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from conftest import Table, chain_1830, next_turn_of, opening_1830

from ledger import catalog
from ledger.core import fees
from ledger.core.errors import CommandError, RulesetError
from ledger.core.events import apply
from ledger.core.snapshot import state_from_json, state_to_json
from ledger.core.state import Station
from ledger.interface.explain import explain_event

RULESETS = Path(__file__).resolve().parent / "data"
LIKE_1801 = RULESETS / "fees_1801_like.toml"
LIKE_1839 = RULESETS / "stations_1839_like.toml"


def with_rules(g: Table, override: Path) -> Table:
    """The same position played on under 1830 with a test ruleset merged over it."""
    g.rs = catalog.load("1830", override=override)
    return g


def last(g: Table, kind: str) -> dict:
    return next(e for e in reversed(g.events) if e["kind"] == kind)


# =========================================================================== the arithmetic (pure)

def test_price_records_each_step_and_its_rounding():
    """1801 E14: a £45 hex, 20 % off = 36; ×0.67 = 30.15, rounded down to 30."""
    steps = [fees.Step("− 20% zone", "percent_off", 20), fees.Step("× 67/100 E/F", "times", Fraction(67, 100))]
    total, lines = fees.price(45, steps, "terrain")
    assert total == 24  # 36 × 0.67 = 24.12: the pipeline multiplies what the step before left
    assert lines == [["terrain", None, 45, None], ["− 20% zone", 45, 36, None],
                     ["× 67/100 E/F", 36, 24, ["down", "603/25"]]]


@pytest.mark.parametrize("how, expected", [("down", 66), ("up", 67), ("nearest", 67)])
def test_rounding_of_a_fraction(how, expected):
    total, lines = fees.price(100, [fees.Step("× 2/3", "times", Fraction(2, 3), how)])
    assert total == expected and lines[-1][3] == [how, "200/3"]


def test_a_half_rounds_up_to_the_nearest():
    assert fees.price(45, [fees.Step("× 1/2", "times", Fraction(1, 2), "nearest")])[0] == 23


def test_additions_and_a_floor():
    steps = [fees.Step("+ 20", "add", 20), fees.Step("+ 40", "add", 40), fees.Step("at least 100", "floor", 100)]
    assert fees.price(0, steps)[1][1:] == [["+ 20", 0, 20, None], ["+ 40", 20, 60, None], ["at least 100", 60, 100, None]]


def test_a_modifier_for_a_kind_applies_without_asking():
    """1801 §12.2: nationals pay no terrain; a modifier with `kinds` applies only to those."""
    national = fees.Modifier("national", "times", Fraction(0), "nationals pay nothing", kinds=("national",))
    assert fees.price(90, fees.resolve((national,), {}, {}, "national"))[0] == 0
    assert fees.price(90, fees.resolve((national,), {}, {}, "major"))[0] == 90


def test_asked_modifiers_are_parsed_and_unknown_ones_refused():
    assert fees.parse_asked("zone, ef,sea=3") == {"zone": None, "ef": None, "sea": 3}
    with pytest.raises(CommandError, match="whole number"):
        fees.parse_asked("sea=x")
    zone = fees.Modifier("zone", "percent_off", 20)
    with pytest.raises(CommandError, match="no fee modifier 'bogus'"):
        fees.resolve((zone,), {"bogus": None}, {})


def test_a_count_is_needed_for_a_per_unit_charge():
    sea = fees.Modifier("sea", "per", 10)
    with pytest.raises(CommandError, match="sea=N"):
        fees.resolve((sea,), {"sea": None}, {})


# =========================================================================== reading a title's data

def test_1830_and_1843_have_the_default_fees_and_charter_stations():
    for title in ("1830", "1843"):
        rs = catalog.load(title)
        assert rs.fees == {"tile": fees.DEFAULT_TILE, "token": ()}
        assert rs.stations == {"slots": "in_order", "price": "charter", "count_new": False}


def test_a_test_ruleset_declares_its_modifiers_in_order():
    rs = catalog.load("1830", override=LIKE_1801)
    assert [m.name for m in rs.fees["tile"]] == ["zone", "ef", "twothirds", "ef_zone", "sea", "port"]
    assert rs.fees["tile"][2] == fees.Modifier("twothirds", "times", Fraction(2, 3), "a two-thirds ability, rounded up",
                                               "up")
    assert rs.stations["slots"] == "any"


@pytest.mark.parametrize("text, problem", [
    ('[[fees.tile]]\nname = "x"\npercent_off = 20\nrounding = "sideways"', "rounding"),
    ('[[fees.tile]]\nname = "x"\npercent_off = 20\nadd = 5', "exactly one"),
    ('[[fees.tile]]\nname = "x"\ntimes = "two thirds"', "fraction"),
    ('[[fees.tile]]\nname = "x"\nadd = "somewhere"', "whole amount"),
    ('[[fees.tile]]\nname = "x"\npercent_off = 20\nreplaces = ["y"]', "no modifier 'y'"),
    ('[[fees.tile]]\nname = "x"\nfewer = 2\nof = ["y"]', "no `per` modifier 'y'"),
    ('[[fees.tile]]\nname = "x"\npercent_off = 20\ncolour = "red"', "unknown setting"),
    ('[fees]\nstation = []', "fees.station"),
    ('[stations]\nslots = "random"', "stations.slots"),
    ('[stations]\ncount_new = "yes"', "stations.count_new"),
])
def test_a_mistake_in_the_fee_data_is_reported(tmp_path, text, problem):
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(RulesetError, match=problem):
        catalog.load("1830", override=bad)


# =========================================================================== stations as state

def test_the_home_marker_is_a_record_of_the_first_turn():
    g = opening_1830()
    assert g.state.corps["PRR"].stations == (Station(None, 1, 0, home=True),)
    assert g.state.corps["PRR"].tokens_used == 1  # the counter old code reads still counts it


def test_a_token_records_its_city_slot_and_cost():
    """PRR's charter (digest §5): home $0, then $40 in slot 2."""
    g = opening_1830()
    g.do("token PRR --city Pittsburgh")
    e = last(g, "token_placed")
    assert (e["city"], e["slot"], e["cost"]) == ("Pittsburgh", 2, 40)
    assert e["steps"] == [["slot 2 on the charter", None, 40, None]]
    assert g.state.corps["PRR"].stations[-1] == Station("Pittsburgh", 2, 40)
    assert g.cash("PRR") == 720
    next_turn_of(g, "PRR")
    g.refusal("token PRR --city pittsburgh", match="already has a station in pittsburgh")
    g.do("token PRR 100")  # slot 3, city not named
    assert g.state.corps["PRR"].stations[-1] == Station(None, 3, 100)
    assert g.state.corps["PRR"].tokens_used == 3


def test_1830_places_markers_in_charter_order():
    g = opening_1830()
    g.refusal("token PRR --slot 3", match="charter order: the next is slot 2")
    g.refusal("token PRR --slot 1", match="slot 1 holds no marker now")
    g.refusal("token PRR --slot 5", match="slots 1 to 4")
    g.do("token PRR --slot 2")
    assert last(g, "token_placed")["slot"] == 2


def test_a_forced_cost_is_the_last_step():
    g = opening_1830()
    g.do("token PRR 100 --force --reason 'the table agreed'")
    assert last(g, "token_placed")["steps"][-1] == ["as the banker forced it", 40, 100, None]
    assert g.cash("PRR") == 660


def test_the_dh_free_token_is_a_step_to_nothing():
    """1830 §3.1: after D&H's tile, the charter's next token ($40 for PRR) costs nothing."""
    g = chain_1830("or2.1")
    g.do("buy-private PRR DH 70", "tile PRR 120 --using DH", "token PRR")
    e = last(g, "token_placed")
    assert e["cost"] == 0 and e["slot"] == 2
    assert e["steps"] == [["slot 2 on the charter", None, 40, None],
                          ["× 0 free after the private's tile (1830 D&H)", 40, 0, None]]


def test_a_token_event_recorded_without_a_slot_takes_the_next_one():
    """Games stored before slots were kept replay: the marker took the charter's next slot."""
    g = opening_1830()
    apply(g.state, {"kind": "token_placed", "corp": "PRR", "cost": 40,
                    "transfers": [["company:PRR", "bank", 40]]})
    assert g.state.corps["PRR"].stations[-1] == Station(None, 2, 40)


def test_stations_survive_a_snapshot():
    g = opening_1830()
    g.do("token PRR --city Pittsburgh")
    back = state_from_json(state_to_json(g.state))
    assert back.corps["PRR"].stations == (Station(None, 1, 0, home=True), Station("Pittsburgh", 2, 40))
    apply(back, {"kind": "token_placed", "corp": "PRR", "cost": 100, "slot": 3})
    assert back.corps["PRR"].stations[-1] == Station(None, 3, 100)


# =========================================================================== 1801-like fees

@pytest.mark.parametrize("line, cost", [
    ("tile PRR 45", 45),
    ("tile PRR 45 --with zone", 36),             # E14: a regional in its zone, £45 -> £36
    ("tile PRR 90 --with zone", 72),             # E14: £90 -> £72
    ("tile PRR 45 --with ef", 30),               # E14: ×0.67 = 30.15 -> £30
    ("tile PRR 90 --with ef", 60),               # E14: 60.3 -> £60
    ("tile PRR 45 --with zone,ef", 22),          # E14 / 0.1 #3: 50 %, 22.5 -> £22
    ("tile PRR 90 --with ef,zone", 45),          # E14: £45
    ("tile PRR 100 --with zone,twothirds", 54),  # 100 -> 80 -> 53.33, rounded up
    ("tile PRR 0 --with sea=3", 30),             # §12.2: £10 a sea zone
    ("tile PRR 0 --with sea=3,port", 10),        # a port authority counts 2 fewer
    ("tile PRR 0 --with sea=2,port", 0),         # E15: 2 sea zones with a port authority: £0
    ("tile PRR 45 --with zone,sea=1", 46),       # the discount is on terrain only ([I] §12.2)
])
def test_1801_tile_fees(line, cost):
    g = with_rules(opening_1830(), LIKE_1801)
    g.do(line)
    e = last(g, "tile_laid")
    assert e["cost"] == cost and g.cash("PRR") == 760 - cost
    assert e["steps"][-1][2] == cost and e["cost"] == e["terrain"] + e["fee"] + e["hex_fee"]


def test_1801_tile_steps_name_each_modifier_and_its_rounding():
    g = with_rules(opening_1830(), LIKE_1801)
    g.do("tile PRR 45 --with zone,ef,sea=3,port")
    assert last(g, "tile_laid")["steps"] == [
        ["terrain", None, 45, None],
        ["− 50% E/F with a zone discount (1801 §12.2, 0.1 #3)", 45, 22, ["down", "45/2"]],
        ["+ 1 × $10 sea zones crossed (1801 §12.2), 3 − 2 port authority", 22, 32, None]]


def test_1801_an_unknown_modifier_or_a_missing_count_is_refused():
    g = with_rules(opening_1830(), LIKE_1801)
    g.refusal("tile PRR 45 --with hills", match="no fee modifier 'hills'", kind=CommandError)
    g.refusal("tile PRR 0 --with sea", match="sea=N", kind=CommandError)


def test_1801_tokens_from_any_slot_with_water_surcharges():
    """§12.4 / E15: any charter slot; London -> Malmö crosses 3 sea zones: £40 × 3 = £120 plus the
    slot; Wien waives the slot but not the £120; a port authority leaves £40 × 1."""
    g = with_rules(opening_1830(), LIKE_1801)
    g.do("token PRR --slot 3 --with sea=3 --city Malmo")
    e = last(g, "token_placed")
    assert (e["slot"], e["cost"]) == (3, 100 + 120) and g.cash("PRR") == 760 - 220
    assert e["steps"] == [["slot 3 on the charter", None, 100, None],
                          ["+ 3 × $40 sea zones crossed (1801 §12.4)", 100, 220, None]]
    next_turn_of(g, "PRR")
    g.refusal("token PRR --slot 3", match="slot 3 holds no marker now")
    g.do("token PRR --slot 4 --with wien,sea=3")
    assert last(g, "token_placed")["cost"] == 120
    next_turn_of(g, "PRR")
    g.do("token PRR --with sea=3,port")  # the one slot left, 2
    e = last(g, "token_placed")
    assert (e["slot"], e["cost"]) == (2, 40 + 40)
    assert [st.slot for st in g.state.corps["PRR"].stations] == [1, 3, 4, 2]


# =========================================================================== 1839-like station prices

def test_1839_a_station_costs_the_value_times_the_locations():
    """D5.3 / D14.22: PRR's home is one location: a city worth 30 costs 30 × 1; with markers in two
    locations the next city worth 30 costs 30 × 2 = 60; Spoorwegwerken Oost halves it to 30."""
    g = with_rules(opening_1830(), LIKE_1839)
    g.refusal("token PRR", match="location's value")
    g.do("token PRR 30 --city Utrecht")
    e = last(g, "token_placed")
    assert e["cost"] == 30 and e["steps"][-1] == ["× 1 locations with the company's markers (1839 D5.3)", 30, 30, None]
    next_turn_of(g, "PRR")
    g.do("token PRR 30 --city Breda")
    assert last(g, "token_placed")["cost"] == 60
    next_turn_of(g, "PRR")
    g.do("token PRR 25 --city Arnhem --with swo")
    e = last(g, "token_placed")
    assert e["cost"] == 38 and e["steps"][-1][3] == ["up", "75/2"]  # 25 × 3 = 75, half 37.5 up


def test_1839_counting_the_new_location_too(tmp_path):
    """D15 B9's later revision: 30 × 3 = 90 with two locations before; half cost 45."""
    rules = tmp_path / "count_new.toml"
    rules.write_text(LIKE_1839.read_text().replace('price = "announced"', 'price = "announced"\ncount_new = true'))
    g = with_rules(opening_1830(), rules)
    g.do("token PRR 30 --city Utrecht")
    assert last(g, "token_placed")["cost"] == 60  # home + Utrecht: 30 × 2
    next_turn_of(g, "PRR")
    g.do("token PRR 30 --city Breda --with swo")
    assert last(g, "token_placed")["cost"] == 45  # 30 × 3 = 90, halved


def test_1839_a_free_marker():
    g = with_rules(opening_1830(), LIKE_1839)
    g.do("token PRR 40 --with outshoorn")
    assert last(g, "token_placed")["cost"] == 0 and g.cash("PRR") == 760


# =========================================================================== explain

def operating_1843() -> Table:
    """1843, OR 1.1 with EST (a second yellow tile for 20fr, §8.4.1) operating, 670fr in its treasury."""
    t = Table("new 1843 Alice Bob Carol Dave")
    t.do("buy Alice TB", "buy Bob CEI", "buy Carol SG", "buy Dave HAV", "buy Alice VDL", "buy Bob BA",
         "buy Carol LM", "par Carol PLM 67", "par Dave EST 67", "buy Alice EST", "buy Bob EST",
         "buy Carol EST", "buy Dave EST", "pass Alice", "pass Bob", "pass Carol", "pass Dave")
    assert t.cash("EST") == 670
    return t


def test_explain_an_1843_second_tile_at_paris():
    """§8.4.1 + §8.4.3: terrain 60fr + the 20fr second-tile fee + Paris's 40fr = 120fr."""
    t = operating_1843()
    t.do("tile EST 0")
    out = t.explained("tile EST 60 --hex paris")
    assert t.cash("EST") == 670 - 120
    assert out == ["  EST lays a tile: 120fr",
                   "    terrain: 60fr",
                   "    + 20fr a second tile's fee on the charter: 60fr → 80fr",
                   "    + 40fr the hex's fee, paris: 80fr → 120fr",
                   "    = 120fr",
                   "  EST pays bank 120fr"]


def test_explain_a_station_names_its_city_and_slot():
    out = "\n".join(operating_1843().explained("token EST --city Nancy"))
    assert "EST places a station at Nancy (charter slot 2): 40fr" in out
    assert "slot 2 on the charter: 40fr" in out


def test_explain_a_free_tile_moves_no_money():
    assert operating_1843().explained("tile EST 0")[0] == "  no money moved"


def test_explain_shows_each_step_and_its_rounding():
    """The test ruleset: 100 terrain, 20 % zone discount = 80, × 2/3 = 53.33 rounded up to 54."""
    g = with_rules(opening_1830(), LIKE_1801)
    assert g.explained("tile PRR 100 --with zone,twothirds") == [
        "  PRR lays a tile: $54",
        "    terrain: $100",
        "    − 20% zone discount (1801 §12.2): $100 → $80",
        "    × 2/3 a two-thirds ability, rounded up: $80 → $54 ($53.3333 rounded up)",
        "    = $54",
        "  PRR pays bank $54"]


def test_explain_reads_a_tile_recorded_before_steps_were_kept():
    rs = catalog.load("1843")
    old = {"kind": "tile_laid", "corp": "EST", "cost": 120, "terrain": 60, "fee": 20, "hex_fee": 40, "hex": "paris",
           "transfers": [["company:EST", "bank", 120]]}
    assert explain_event(None, rs, old) == [
        "  EST lays a tile: 120fr", "    terrain: 60fr",
        "    + 20fr a second tile's fee on the charter: 60fr → 80fr",
        "    + 40fr the hex's fee, paris: 80fr → 120fr", "    = 120fr", "  EST pays bank 120fr"]
