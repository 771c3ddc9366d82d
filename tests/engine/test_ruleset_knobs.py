"""Rule switches ("knobs") have one documented default each (ruleset.KNOBS); a title's TOML lists
only what differs. The knob values a title plays with are the same as when every knob was spelled
out, and games stored with the old, spelled-out texts still load."""

import hashlib
import sqlite3
import tomllib
from pathlib import Path

import pytest

from ledger import catalog
from ledger.core import ruleset
from ledger.core.errors import LedgerCorrupt, RulesetError

# The effective knob values (default options) read from both TOMLs before the defaults existed,
# plus the new `rounds` section, which neither title sets.
ROUNDS = {"opening": ["auction"], "cycle": ["stock", "operating"]}
# a knob added later (1839's certificate-limit bonus), off by default
NO_LIMIT_BONUS = {"cert_limit_bonus": 0, "cert_limit_bonus_at": 100}
# stock knobs added for 1839 (director's multi-buy, the IPO-only holding limit, selling only after
# operating), off by default
NO_1839_STOCK = {"director_buy_percent": 0, "holding_limit_ipo_only": False, "sell_after_operating": False}
# a stock knob added later (over the holding limit, a player may not pass while he can sell), off by
# default
NO_HOLDING_BAR = {"over_holding_blocks_pass": False}
# an operating knob added later (what one tile may cost in tile points: 1801), none by default
ANY_TILE_POINTS = {"tile_point_costs": []}
# operating knobs added later (18Chesapeake's exports), none by default
NO_EXPORTS = {"export_trains": [], "export_after_auction_revenue": False}
# an auction knob added later (only leading bids tie up cash: 18Chesapeake), off by default
ALL_BIDS_EARMARKED = {"earmark_highest_only": False}
EXPECTED = {
    "1830": {
        "bank": {"total": 12000, "breaks": "below_zero", "remainder": 0},
        "auction": {"style": "waterfall", "min_raise": 5, "bid_multiple": 1, "all_pass_discount": 5,
                    "discount_only": "SV", "free_at_zero": True, "next_after_all_pass": "continue",
                    "earmark_bids": True, **ALL_BIDS_EARMARKED},
        "stock": {"order": "sell_buy_sell", "sell_in_blocks": False, "no_sell_in_first_round": True, "holding_limit": 60, "pool_limit": 50,
                  "unlimited_holding_zones": ["orange", "brown"], "cert_free_zones": ["yellow", "orange", "brown"],
                  "multi_buy_zones": ["brown"], "multi_buy_from_ipo": True,  # the default option turns it on
                  "over_limit_blocks_pass": False, "no_buy_after_sell": True, "priority": "after_last_actor",
                  "first_round_turn": "after_last_buyer", "sale_price": "before_sale", "sold_out_rise": True,
                  "over_limit_must_sell": True, **NO_LIMIT_BONUS, **NO_1839_STOCK, **NO_HOLDING_BAR},
        "company": {"float_percent": 60, "capitalization": "full", "capital_shares": 10, "ipo_price": "par",
                    "pool_price": "market", "ipo_pays": "nobody", "pool_pays": "company",
                    "dividend_rounding": "ceil_per_holder", "share_unit": 10,
                    "par_prices": [100, 90, 82, 76, 71, 67]},
        "operating": {"home_token_cost": 0, "tile_costs": [0, 80, 120], "tile_lays": 1, "must_buy_train": "route",
                      "emergency_sell_changes_operating_president": False, "emergency_cheapest_only": True,
                      "emergency_from_company_max": "face", "bankrupt_ends_game": True, "zero_revenue_moves": "left",
                      "emergency_private_discard": "none", "bankrupt_cash": "bank", "pool_train_side": "buyer_choice",
                      "revenue_multiple": 10, "max_stop_revenue": 100, "max_route_stops": 12,
                      "discard_to": "pool", "obsolete_in_limit": False, "emergency_help_only_when_short": False,
                      "emergency_rule": "", **ANY_TILE_POINTS, **NO_EXPORTS},
        "endgame": {"bank_broken_in_or": "end_of_set", "bank_broken_in_sr": "end_of_next_set",
                    "bankruptcy": "immediate", "score_privates": "face", "end_cell_in_sr": "none",
                    "end_cell_in_or": "none"},
        "privates_rules": {"company_buy_from_phase": "3", "company_buy_min": "half_face",
                           "company_buy_max": "double_face", "close_on_phase": "5", "deal": ""},
        "rounds": ROUNDS,
    },
    "1843": {
        "bank": {"total": 100000, "breaks": "never", "remainder": 0},
        "auction": {"style": "waterfall", "min_raise": 5, "bid_multiple": 5, "all_pass_discount": 5,
                    "discount_only": "", "free_at_zero": True, "next_after_all_pass": "after_last_buyer",
                    "earmark_bids": True, **ALL_BIDS_EARMARKED},
        "stock": {"order": "sell_buy_sell", "sell_in_blocks": False, "no_sell_in_first_round": True, "holding_limit": 60, "pool_limit": 50,
                  "unlimited_holding_zones": ["orange", "brown"], "cert_free_zones": ["yellow", "orange", "brown"],
                  "multi_buy_zones": ["brown"], "multi_buy_from_ipo": True, "over_limit_blocks_pass": True,
                  "no_buy_after_sell": True, "priority": "cash_descending", "first_round_turn": "after_last_buyer",
                  "sale_price": "before_sale", "sold_out_rise": True, "over_limit_must_sell": True, **NO_LIMIT_BONUS, **NO_1839_STOCK, **NO_HOLDING_BAR},
        "company": {"float_percent": 60, "capitalization": "full", "capital_shares": 10, "ipo_price": "par",
                    "pool_price": "market", "ipo_pays": "nobody", "pool_pays": "company",
                    "dividend_rounding": "floor_per_holder", "share_unit": 10,
                    "par_prices": [67, 73, 79, 86, 94, 105, 120]},
        "operating": {"home_token_cost": 0, "tile_costs": [], "tile_lays": 1, "must_buy_train": "route",
                      "emergency_sell_changes_operating_president": False, "emergency_cheapest_only": True,
                      "emergency_from_company_max": "face", "bankrupt_ends_game": True, "zero_revenue_moves": "left",
                      "emergency_private_discard": "face", "bankrupt_cash": "keep",
                      "pool_train_side": "buyer_choice", "revenue_multiple": 1,
                      "max_stop_revenue": 150, "max_route_stops": 15, "discard_to": "pool", "obsolete_in_limit": False,
                      "emergency_help_only_when_short": False,
                      "emergency_rule": "", **ANY_TILE_POINTS, **NO_EXPORTS},
        "endgame": {"bank_broken_in_or": "end_of_set", "bank_broken_in_sr": "end_of_next_set",
                    "bankruptcy": "immediate", "score_privates": "face", "end_cell_in_sr": "immediate",
                    "end_cell_in_or": "end_of_or"},
        "privates_rules": {"company_buy_from_phase": "green", "company_buy_min": "one",
                           "company_buy_max": "double_face", "close_on_phase": "brown", "deal": ""},
        "rounds": ROUNDS,
        # 1843's own rules (rulesets/1843/title.py KNOBS); older games kept them in the shared sections
        "title_rules": {"brief_or_discards": "yellow", "brief_or_ends_game": True, "station_move_cost": 100,
                        "station_move_phase": "gray", "relic_limit": 1, "owned_train_sets": 2,
                        "owned_train_type": "gray"},
    },
}


# What the titles play with today: 1830's digest §7.6 later made a player over a limit sell at his
# turn before he may pass, and its rulebook limits the president's help toward a forced train to a
# company short of the cheapest (games stored with the old text keep the old values above).
CURRENT = {**EXPECTED, "1830": {**EXPECTED["1830"], "stock": {
    **EXPECTED["1830"]["stock"], "over_limit_blocks_pass": True, "over_holding_blocks_pass": True}, "operating": {
    **EXPECTED["1830"]["operating"], "emergency_help_only_when_short": True}}}


def problems_of(override: str, title: str = "1830") -> list[str]:
    with pytest.raises(RulesetError) as caught:
        catalog.parse_text(catalog.ruleset_text(title), {}, source=title, override_text=override)
    return caught.value.problems


def spelled_out_text(title: str) -> str:
    """The title's TOML as games stored it before knobs had defaults (a copy in tests/data/v1)."""
    path = Path(__file__).resolve().parents[1] / "data" / "v1" / f"{title}.ruleset.toml"
    assert path.is_file(), f"missing test data {path} (see tests/data/README.md)"
    return path.read_text()


# --------------------------------------------------------------------------- (a) the same values

@pytest.mark.parametrize("title", ["1830", "1843"])
def test_a_title_plays_with_the_same_knob_values(title):
    assert catalog.load(title).knobs == CURRENT[title]


# --------------------------------------------------------------------------- (b) defaults

def test_every_optional_knob_has_a_default_of_its_own_kind_and_allowed_values():
    for section, knobs in ruleset.KNOBS.items():
        for name, knob in knobs.items():
            if knob.default is not ruleset.REQUIRED:
                assert ruleset.knob_problem(knob, knob.default) == "", f"{section}.{name}"


def test_an_omitted_optional_knob_gets_its_default():
    text = catalog.ruleset_text("1830").replace('discount_only = "SV"', "")
    assert "discount_only" not in text
    rs = catalog.parse_text(text, {}, source="1830")
    assert rs.k("auction", "discount_only") == ruleset.KNOBS["auction"]["discount_only"].default == ""
    assert rs.k("endgame", "end_cell_in_or") == "none"   # 1830 writes no [endgame] table at all


def test_defaults_are_not_shared_between_rulesets():
    first, second = catalog.load("1830"), catalog.load("1830")
    first.knobs["rounds"]["cycle"].append("operating")
    assert second.k("rounds", "cycle") == ["stock", "operating"]
    assert ruleset.KNOBS["rounds"]["cycle"].default == ["stock", "operating"]


def test_an_option_may_patch_a_section_the_title_leaves_to_the_defaults():
    option = '[options.no_auction]\ndescription = "x"\ndefault = true\npatch = { rounds = { opening = [] } }\n'
    rs = catalog.parse_text(catalog.ruleset_text("1830") + option, {}, source="1830")
    assert rs.k("rounds", "opening") == [] and rs.k("rounds", "cycle") == ["stock", "operating"]


def test_a_required_knob_is_still_required():
    text = catalog.ruleset_text("1843").replace("max_stop_revenue = 150", "")
    with pytest.raises(RulesetError) as caught:
        catalog.parse_text(text, {}, source="1843")
    assert caught.value.problems == ["operating.max_stop_revenue: missing"]


# --------------------------------------------------------------------------- (c) errors, all at once

def test_unknown_wrong_type_and_disallowed_values_are_reported_together_with_their_paths():
    problems = problems_of('[stock]\nholding_limt = 60\npool_limit = "50"\npriority = "random"\n'
                           'cert_free_zones = ["yellow", "pink"]\n[endgame]\nscore_privates = true\n')
    assert sorted(problems) == sorted([
        "stock.holding_limt: unknown setting",
        "stock.pool_limit: expected int, got '50'",
        "stock.priority: 'random' is not one of after_last_actor, cash_descending, pass_order",
        "stock.cert_free_zones: 'pink' is not one of white, yellow, orange, brown",
        "endgame.score_privates: expected str, got True",
    ])


def test_a_knob_section_that_is_not_a_table_is_reported():
    assert problems_of("rounds = 3\n") == ["rounds: expected a table, got 3"]


# --------------------------------------------------------------------------- (d) no repeated default

@pytest.mark.parametrize("title", catalog.available_titles())
def test_a_title_does_not_repeat_a_default(title):
    data = tomllib.loads(catalog.ruleset_text(title))
    repeated = [f"{section}.{name}" for section, knobs in ruleset.KNOBS.items()
                for name, knob in knobs.items()
                if name in data.get(section, {}) and data[section][name] == knob.default]
    assert repeated == []


# --------------------------------------------------------------------------- (e) rounds

def test_rounds_default_to_an_auction_then_stock_and_operating_rounds():
    assert ruleset.ROUND_KINDS == ("auction", "stock", "operating")
    assert catalog.load("1843").knobs["rounds"] == {"opening": ["auction"], "cycle": ["stock", "operating"]}


def test_rounds_take_any_sequence_of_known_round_kinds():
    rs = catalog.parse_text(catalog.ruleset_text("1830"), {}, source="1830",
                       override_text='[rounds]\nopening = []\ncycle = ["stock", "operating", "operating"]\n')
    assert rs.knobs["rounds"] == {"opening": [], "cycle": ["stock", "operating", "operating"]}


def test_rounds_refuse_unknown_kinds_wrong_types_and_an_empty_cycle():
    assert sorted(problems_of('[rounds]\nopening = "auction"\ncycle = ["stock", "merger"]\n')) == [
        "rounds.cycle: 'merger' is not one of auction, stock, operating",
        "rounds.opening: expected list, got 'auction'",
    ]
    assert problems_of("[rounds]\ncycle = []\n") == ["rounds.cycle: needs at least one round kind"]


# --------------------------------------------------------------------------- games stored before

@pytest.mark.parametrize("title", ["1830", "1843"])
def test_a_spelled_out_ruleset_still_loads_with_the_same_values_and_digest(title):
    old = spelled_out_text(title)
    assert "station_move_cost = " in old   # every knob spelled out, off-switches too
    rs = catalog.parse_stored(old, {}, title)   # as a game file that keeps it is opened
    assert rs.knobs == EXPECTED[title]
    chosen = ",".join(rs.chosen_options)
    assert rs.digest == hashlib.sha256((old + "|" + chosen).encode()).hexdigest()
    assert rs.digest != catalog.load(title).digest   # the digest is of the stored text, not of the values


def test_a_game_stored_with_the_spelled_out_ruleset_reopens_and_its_hash_is_still_checked(tmp_path):
    from ledger.books.session import Session
    old = spelled_out_text("1830")
    path = tmp_path / "old.db"
    Session.new(path, "1830", ["Ann", "Bob", "Cy"], {}).store.close()
    # what the game file holds when the game was started before the defaults
    header(path, "ruleset_text = ?, ruleset_hash = ?", old, catalog.parse_stored(old, {}, "1830").digest)
    session = Session.open(path)
    assert session.rs.knobs == EXPECTED["1830"]
    session.store.close()
    header(path, "ruleset_text = ?", old.replace("total = 12000", "total = 12001"))
    with pytest.raises(LedgerCorrupt, match="does not match its hash"):
        Session.open(path)


def test_a_stored_ruleset_older_than_a_required_knob_takes_the_titles_value_today():
    """A game stored before the routes' typo guard (operating.max_stop_revenue, max_route_stops)
    existed still opens: the stored text is older than the knob, and the title gives it today."""
    text = catalog.ruleset_text("1830")
    old = "\n".join(line for line in text.splitlines()
                    if not line.strip().startswith(("max_stop_revenue", "max_route_stops")))
    assert "max_stop_revenue" not in old
    rs = catalog.parse_stored(old, {}, "1830")
    today = catalog.load("1830").knobs["operating"]
    assert rs.knobs["operating"]["max_stop_revenue"] == today["max_stop_revenue"]
    assert rs.knobs["operating"]["max_route_stops"] == today["max_route_stops"]
    assert rs.digest == hashlib.sha256((old + "|" + ",".join(rs.chosen_options)).encode()).hexdigest()
    with pytest.raises(RulesetError, match="max_stop_revenue: missing"):   # a title's own data must give it
        catalog.parse_text(old, {}, source="1830")


def header(path: Path, assignments: str, *values) -> None:
    db = sqlite3.connect(path)
    try:
        with db:
            db.execute(f"update game set {assignments}", values)
    finally:
        db.close()
