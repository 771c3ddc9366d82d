"""Operating rounds, scenario by scenario (SEED "Operating Rounds" and "End of Game"; digest §3, §8-§13,
§15 #1, #4, #5, #20-#29).

Every position is reached with the table's commands (auction, stock rounds, operating turns) through
the pure engine (tests/conftest.py `Table`, whose `do` also checks the invariants after every command;
the positions are conftest's 1830 openings).
Revenues are whatever the players announce, so a company is funded by withholding a large run.
The expected figures are worked out by hand from the rules and the market grid (digest §6.1); each
block says where they come from.
"""

from __future__ import annotations

import json

import pytest
from cli_1830 import Runner as CliRunner
from conftest import (
    CHAIN_1830,
    FOUR,
    LABELS_1830,
    Table,
    chain_1830,
    finish_turn,
    new_1830,
    next_turn_of,
    opening_1830,
    sr1_1830,
)
from positions_1830 import finish_round

from ledger.core.rounds import operating
from ledger.core.rules.trains import depot_offer
from ledger.core.state import POOL, RUSTED, company_acct, train_type
from ledger.interface import views

# --------------------------------------------------------------------------- positions
# opening_1830, chain_1830 (CHAIN_1830), finish_turn and next_turn_of: tests/conftest.py


def trains(g: Table, holder: str) -> list[str]:
    """Train types a company (or 'pool') holds, sorted."""
    acct = POOL if holder == "pool" else company_acct(holder)
    return sorted(train_type(t) for t, h in g.state.trains.items() if h == acct)


def kinds(events) -> list[str]:
    return [e["kind"] for e in events]


def event(events, kind: str) -> dict:
    found = [e for e in events if e["kind"] == kind]
    assert len(found) == 1, f"expected one {kind} event, got {kinds(events)}"
    return found[0]


def private_revenue(events) -> list[list]:
    return event(events, "private_revenue")["privates"]


# --------------------------------------------------------------------------- the positions themselves


def test_opening_position():
    g = opening_1830()
    assert {p: g.cash(p) for p in FOUR} == {"Alice": 240, "Bob": 170, "Carol": 125, "Dave": 233}
    assert (g.cash("PRR"), g.cash("NYC"), g.cash("B&O")) == (760, 670, 670)
    assert g.state.round["set"] == 1 and g.state.round["index"] == 1 and g.state.round["count"] == 1
    assert g.state.phase == "2"


# --------------------------------------------------------------------------- private revenue


def test_privates_pay_at_the_start_of_every_or():
    """SEED: first the private companies pay their owners; digest §8.1: at the start of every OR."""
    g = opening_1830()
    first = [e for e in g.events if e["kind"] == "private_revenue"]
    assert len(first) == 1
    assert sorted(map(tuple, first[0]["privates"])) == sorted([
        ("SV", "player:Alice", 5), ("CS", "player:Bob", 10), ("DH", "player:Carol", 15),
        ("MH", "player:Dave", 20), ("CA", "player:Alice", 25), ("BO", "player:Bob", 30)])
    g = chain_1830("or2.1")  # OR 2.1, the first of a set of 2: every private pays again
    assert {p: g.cash(p) for p in FOUR} == {"Alice": 270, "Bob": 210, "Carol": 140, "Dave": 253}
    # OR 2.1: PRR pays $2000 ($200 a share), NYC $1000 ($100 a share); BO closes with B&O's first
    # train, so at the start of OR 2.2 Bob collects CS's $10 only.
    g = chain_1830("or2.2")
    assert {p: g.cash(p) for p in FOUR} == {
        "Alice": 270 + 400 + 100 + 30, "Bob": 210 + 200 + 100 + 10,
        "Carol": 140 + 400 + 300 + 15, "Dave": 253 + 200 + 200 + 20}


def test_company_owned_private_pays_the_company():
    """PRR buys DH from Carol in OR 3.1; at the start of OR 3.2 DH's $15 goes to PRR."""
    g = chain_1830("or3.1-nyc")
    assert g.owner("DH") == "PRR"
    assert g.cash("PRR") == 1440 - 140 - 2 * 300
    g = chain_1830("or3.2")
    start = [e for e in g.events if e["kind"] == "private_revenue"][-1]
    assert ["DH", company_acct("PRR"), 15] in start["privates"]
    assert g.cash("PRR") == 700 + 15


def test_closed_privates_pay_nothing():
    """After the first 5 every private is closed: the next OR pays no private revenue."""
    g = chain_1830("sr4")
    n = len(g.events)
    g.do("pass Carol", "pass Dave", "pass Alice", "pass Bob")
    assert g.round_kind() == "operating"
    assert "private_revenue" not in kinds(g.events[n:])


# --------------------------------------------------------------------------- operating order


def test_operating_order_by_price_then_arrival():
    """PRR $76 first; B&O and NYC share (5,6) $67 and B&O arrived first (parred in the auction)."""
    g = opening_1830()
    assert g.state.round["order"] == ["PRR", "B&O", "NYC"]
    g = chain_1830("or3.1")  # ERIE and C&O on (0,6) $100, ERIE parred first; PRR $71, NYC $65, B&O $50
    assert g.state.round["order"] == ["ERIE", "C&O", "PRR", "NYC", "B&O"]


def test_operating_order_digest_example_28():
    """Digest #28: NYC and ERIE on (5,6) (NYC arrived first), PRR on (6,6), B&O on (4,5), C&O on (0,1),
    all $67 -> NYC, ERIE, PRR, B&O, C&O (right column first, then upper row, then arrival)."""
    g = new_1830()
    s = g.state
    for n, (sym, cell) in enumerate([("PRR", (6, 6)), ("B&O", (4, 5)), ("C&O", (0, 1)),
                                      ("NYC", (5, 6)), ("ERIE", (5, 6))]):
        s.corps[sym].cell, s.corps[sym].arrival, s.corps[sym].floated = cell, n + 1, True
        assert g.rs.market[cell].price == 67
    assert operating.operating_order(s, g.rs) == ["NYC", "ERIE", "PRR", "B&O", "C&O"]


def test_operating_order_is_fixed_for_the_or_and_recomputed_for_the_next():
    """OR 2.1 runs PRR, B&O, NYC even though B&O drops to $58 and NYC rises to $67 during it;
    OR 2.2 is ordered by the new prices: PRR $76, NYC $67, B&O $58."""
    g = chain_1830("or2.1")
    assert g.state.round["order"] == ["PRR", "B&O", "NYC"]
    operated = []
    while g.round_kind() == "operating" and g.state.round["index"] == 1:
        operated.append(g.state.round["corp"])
        assert g.state.round["order"] == ["PRR", "B&O", "NYC"]
        g.do(*dict(CHAIN_1830)[{"PRR": "or2.1-b&o", "B&O": "or2.1-nyc", "NYC": "or2.2"}[g.state.round["corp"]]])
    assert operated == ["PRR", "B&O", "NYC"]
    assert (g.price("PRR"), g.price("NYC"), g.price("B&O")) == (76, 67, 58)
    assert g.state.round["index"] == 2 and g.state.round["order"] == ["PRR", "NYC", "B&O"]


# --------------------------------------------------------------------------- ORs per set (#24)


def test_ors_per_set_come_from_the_phase_when_the_set_starts():
    """Digest #24: the first 3 is bought in OR 1.1 (phase 2: 1 OR): the game goes straight to SR 2;
    the set after SR 2 has 2 ORs."""
    g = opening_1830()
    g.do(*CHAIN_1830[0][1][:-1])  # up to NYC's first 3, before `done NYC`
    assert g.state.phase == "3" and g.state.round["count"] == 1
    g.do("done NYC")
    assert g.round_kind() == "stock" and g.state.round["number"] == 2
    g.do("pass Alice", "pass Bob", "pass Carol", "pass Dave")
    assert (g.state.round["set"], g.state.round["index"], g.state.round["count"]) == (2, 1, 2)


def test_phase_5_during_a_set_of_2_gives_3_ors_from_the_next_set():
    g = chain_1830("first5")
    assert g.state.phase == "5" and g.state.round["count"] == 2
    g = chain_1830("or4.1")
    assert (g.state.round["set"], g.state.round["index"], g.state.round["count"]) == (4, 1, 3)


# --------------------------------------------------------------------------- track and tokens


def test_home_token_is_free_at_the_first_turn():
    g = opening_1830()
    start = [e for e in g.events if e["kind"] == "corp_turn_started"]
    assert start[-1]["corp"] == "PRR" and start[-1]["home_token"] is True and not start[-1]["transfers"]
    assert g.cash("PRR") == 760 and g.state.corps["PRR"].tokens_used == 1


def test_token_prices_follow_the_charter():
    """PRR's charter: home $0, then $40, $100, $100; one token a turn; the stated cost must match."""
    g = opening_1830()
    g.refusal("token PRR 100", match=r"\$40")
    bank = g.bank()
    g.do("token PRR")
    assert g.cash("PRR") == 720 and g.bank() == bank + 40
    g.refusal("token PRR", match="one a turn")
    for cost in (100, 100):
        next_turn_of(g, "PRR")
        before = g.cash("PRR")
        g.do(f"token PRR {cost}")
        assert g.cash("PRR") == before - cost
    next_turn_of(g, "PRR")
    g.refusal("token PRR", match="no station tokens left")


def test_bando_has_three_tokens():
    """B&O's charter: $0, $40, $100 and nothing more."""
    g = opening_1830()
    next_turn_of(g, "B&O")
    g.do("token B&O 40")
    next_turn_of(g, "B&O")
    g.do("token B&O")
    assert g.cash("B&O") == 670 - 40 - 100
    next_turn_of(g, "B&O")
    g.refusal("token B&O", match="no station tokens left")


@pytest.mark.parametrize("cost", [0, 80, 120])
def test_tile_costs_of_1830(cost):
    """Digest §8.3: the only terrain costs are $80 (water) and $120 (mountain), paid to the bank."""
    g = opening_1830()
    bank = g.bank()
    g.do(f"tile PRR {cost}")
    assert g.cash("PRR") == 760 - cost and g.bank() == bank + cost


@pytest.mark.parametrize("cost", [50, 40, 100, 160])
def test_a_tile_cost_1830_cannot_have_is_refused(cost):
    g = opening_1830()
    g.refusal(f"tile PRR {cost}", match="costs")


def test_one_tile_lay_a_turn_and_track_before_token_before_run():
    g = opening_1830()
    g.do("tile PRR 0")
    g.refusal("tile PRR 0", match="laid its tile")
    g = opening_1830()
    g.do("token PRR")
    g.refusal("tile PRR 0", match="token")
    g = chain_1830("or2.1")
    g.do("withhold PRR 0")
    g.refusal("tile PRR 0", match="already run")
    g.refusal("token PRR", match="already run")


def test_dh_lay_costs_120_and_gives_the_next_token_free():
    """SEED P3 / digest §3.1: DH's lay is the turn's lay, pays the $120 mountain; the next charter
    token ($40 for PRR) is then placed for $0 and counts as the turn's token."""
    g = chain_1830("or2.1")
    g.do("buy-private PRR DH 70")
    assert g.cash("PRR") == 440 - 70 and g.cash("Carol") == 140 + 70
    g.refusal("tile PRR 80 --using DH", match="120")
    bank = g.bank()
    g.do("tile PRR 120 --using DH")
    assert g.cash("PRR") == 370 - 120 and g.bank() == bank + 120
    g.refusal("tile PRR 0", match="tile")
    g.refusal("token PRR 40", match=r"\$0")
    g.do("token PRR")
    assert g.cash("PRR") == 250 and g.state.corps["PRR"].tokens_used == 2
    g.refusal("token PRR", match="one a turn")
    next_turn_of(g, "PRR")
    assert g.cash("PRR") == 250 + 15  # DH, now PRR's, paid at the start of OR 2.2
    g.refusal("tile PRR 120 --using DH", match="used")
    g.do("token PRR")  # the charter's third token: $100
    assert g.cash("PRR") == 265 - 100


def test_dh_lay_is_the_turns_lay():
    g = chain_1830("or2.1")
    g.do("buy-private PRR DH 70", "tile PRR 0")
    g.refusal("tile PRR 120 --using DH", match="already laid")


def test_dh_lay_is_refused_after_the_token():
    g = chain_1830("or2.1")
    g.do("buy-private PRR DH 70", "token PRR")
    g.refusal("tile PRR 120 --using DH")


def test_dh_belongs_to_a_company_to_be_used():
    g = chain_1830("or2.1")
    g.refusal("tile PRR 120 --using DH", match="DH is Carol.s, not PRR.s")


def test_cs_gives_one_extra_lay():
    """SEED P2: the owning company may place a tile in the associated hex as an additional action."""
    g = chain_1830("or2.1")
    g.do("buy-private PRR CS 40")
    assert g.cash("Bob") == 210 + 40
    g.do("tile PRR 80", "tile PRR 0 --using CS")
    assert g.cash("PRR") == 440 - 40 - 80
    g.refusal("tile PRR 0 --using CS", match="used")
    g.refusal("tile PRR 0", match="laid its tile")


def test_cs_lay_is_free():
    g = chain_1830("or2.1")
    g.do("buy-private PRR CS 40")
    g.refusal("tile PRR 80 --using CS")


# --------------------------------------------------------------------------- revenue and dividends


def dividend_position() -> Table:
    """Digest #1 holdings: PRR Alice 20 % (president's cert), Dave 10, Bob 10, pool 20, IPO 40.

    SR 1: Carol pars PRR at 67, Dave, Alice (who has the CA share), Bob buy one -> floats.
    OR 1.1: PRR buys a 2 (runs for $0 first: (5,6) -> (5,5) $65).
    SR 2: Carol sells her 2 shares (president's cert): Alice (20 %) becomes president and her two
    10 % certs go to the pool; Carol gets 2 x $65; the marker drops 2 rows: (6,5) $63, (7,5) $60.
    """
    g = sr1_1830()
    g.do("par Carol PRR 67", "buy Dave PRR", "buy Alice PRR", "buy Bob PRR",
         "pass Carol", "pass Dave", "pass Alice", "pass Bob",
         "train PRR 2", "done PRR")
    carol = g.cash("Carol")
    g.do("sell Carol PRR 2")
    assert g.cash("Carol") == carol + 130
    g.do("pass Dave", "pass Alice", "pass Bob", "pass Carol")
    assert g.round_kind() == "operating" and g.state.round["corp"] == "PRR"
    assert g.cert_percents("Alice", "PRR") == [20] and g.president("PRR") == "Alice"
    assert (g.pct("Dave", "PRR"), g.pct("Bob", "PRR"), g.pct("pool", "PRR"), g.pct("ipo", "PRR")) == (10, 10, 20, 40)
    assert g.cell("PRR") == (7, 5) and g.price("PRR") == 60
    return g


def test_dividend_of_67_rounds_up_per_holder_pool_pays_company_ipo_pays_nobody():
    """Digest #1: per share 6.7; Alice ceil(2 x 6.7) = 14, Dave 7, Bob 7, pool 2 shares -> 14 to PRR,
    IPO 4 shares -> nobody; the bank pays 42. Price one right: (7,5) $60 -> (7,6) $67."""
    g = dividend_position()
    before = {who: g.cash(who) for who in ("Alice", "Bob", "Dave", "PRR", "bank")}
    events = g.do("pay PRR 67 --force --reason 'test position'")
    assert g.cash("Alice") - before["Alice"] == 14
    assert g.cash("Dave") - before["Dave"] == 7
    assert g.cash("Bob") - before["Bob"] == 7
    assert g.cash("PRR") - before["PRR"] == 14
    assert before["bank"] - g.bank() == 42
    rev = event(events, "revenue")
    assert sorted(map(tuple, rev["payees"])) == sorted([
        ("player:Alice", 2, 14), ("player:Dave", 1, 7), ("player:Bob", 1, 7), ("company:PRR", 2, 14)])
    assert g.cell("PRR") == (7, 6) and g.price("PRR") == 67


def test_dividend_of_70():
    g = dividend_position()
    before = {who: g.cash(who) for who in ("Alice", "Bob", "Dave", "PRR")}
    g.do("pay PRR 70")
    assert {who: g.cash(who) - before[who] for who in before} == {"Alice": 14, "Bob": 7, "Dave": 7, "PRR": 14}


def test_withhold_pays_the_company_and_moves_left():
    g = dividend_position()
    bank, cash = g.bank(), g.cash("PRR")
    players = {p: g.cash(p) for p in FOUR}
    g.do("withhold PRR 67 --force --reason 'test position'")
    assert g.cash("PRR") == cash + 67 and g.bank() == bank - 67
    assert {p: g.cash(p) for p in FOUR} == players
    assert g.cell("PRR") == (7, 4) and g.price("PRR") == 50


def test_paying_out_zero_is_refused_as_a_withhold():
    """A payout of $0 is a withhold (bash turns `pay PRR $200` into `pay PRR 00`): refused, with the
    withhold to type, which moves the marker as a withhold."""
    g = dividend_position()
    assert "withhold PRR 0" in g.refusal("pay PRR 0", match="pays nothing").hint
    g.do("withhold PRR 0")
    assert g.cell("PRR") == (7, 4)


def test_a_company_runs_once_a_turn():
    g = dividend_position()
    g.do("pay PRR 60")
    g.refusal("pay PRR 60", match="already run")
    g.refusal("withhold PRR 60", match="already run")


def test_a_company_with_trains_must_run_before_buying_or_ending():
    g = dividend_position()
    g.refusal("train PRR 2", match="run first")
    g.refusal("done PRR", match="run first")


def test_a_company_without_trains_earns_nothing_and_moves_left():
    """18xx.games: a company that operates with no trains withholds $0 and moves one left."""
    g = opening_1830()
    g.refusal("pay PRR 50", match="no trains")
    g.refusal("withhold PRR 50", match="no trains")
    next_turn_of(g, "B&O")
    bank = g.bank()
    events = g.do("done B&O --no-route")
    rev = event(events, "revenue")
    assert rev["revenue"] == 0 and rev["how"] == "withhold" and not rev["transfers"]
    assert g.cash("B&O") == 670 and g.bank() == bank
    assert g.cell("B&O") == (5, 5) and g.price("B&O") == 65


def test_buying_a_train_first_runs_a_trainless_company_for_zero():
    g = opening_1830()
    g.do("train PRR 2")
    assert g.cell("PRR") == (3, 5) and g.price("PRR") == 71


# digest #4 and #5 (and appendix A): moves at the edges of the grid
EDGES = [
    ("withhold", (0, 0), (1, 0)),    # left end of a row -> one down
    ("withhold", (7, 0), (7, 0)),    # nothing left or below -> stays $10
    ("withhold", (8, 1), (8, 1)),
    ("withhold", (3, 0), (4, 0)),
    ("withhold", (10, 3), (10, 3)),
    ("pay", (1, 18), (0, 18)),       # right end of a row -> one up: $300 -> $350
    ("pay", (0, 18), (0, 18)),       # top right corner: stays $350
    ("pay", (2, 15), (1, 15)),       # $200 -> $240
    ("pay", (4, 10), (3, 10)),       # $100 -> $110
    ("pay", (7, 7), (6, 7)),         # $68 -> $69
    ("pay", (9, 6), (8, 6)),         # $50 -> $60
    ("pay", (5, 5), (5, 6)),         # an ordinary step right
    ("withhold", (5, 5), (5, 4)),    # an ordinary step left
]


@pytest.mark.parametrize("how,start,end", EDGES)
def test_price_moves_at_the_edges(how, start, end):
    g = chain_1830("or2.1")  # PRR operating with four 2s
    g.state.corps["PRR"].cell = start
    g.do(f"{how} PRR 40")
    assert g.cell("PRR") == end


# --------------------------------------------------------------------------- buying trains


def test_trains_come_from_the_depot_in_order():
    g = opening_1830()
    g.refusal("train PRR 3", match="does not sell 3")
    g.refusal("train PRR D", match="does not sell D")
    g.refusal("train PRR 2 --price 70", match=r"\$80")
    bank = g.bank()
    g.do("train PRR 2")
    assert g.cash("PRR") == 680 and g.bank() == bank + 80


def test_train_limit_4_in_phase_2():
    g = opening_1830()
    g.do("train PRR 2", "train PRR 2", "train PRR 2", "train PRR 2")
    g.refusal("train PRR 2", match="train limit")
    assert trains(g, "PRR") == ["2"] * 4


def test_first_3_starts_phase_3():
    g = chain_1830("sr2")
    assert g.state.phase == "3"
    assert trains(g, "PRR") == ["2"] * 4 and trains(g, "NYC") == ["2", "2", "3"]
    assert (g.cash("PRR"), g.cash("NYC"), g.cash("B&O")) == (760 - 320, 670 - 160 - 180, 670)


def test_bo_closes_when_bando_buys_its_first_train():
    g = chain_1830("or2.1-nyc")
    assert g.state.privates["BO"].closed and g.owner("BO") == "Bob"
    assert not any(p.closed for sym, p in g.state.privates.items() if sym != "BO")
    assert trains(g, "B&O") == ["3", "3", "3"] and g.cash("B&O") == 670 - 540
    # a closed private is worth nothing
    bob = views.score_json(g.state, g.rs)["players"][1]
    assert bob["name"] == "Bob" and bob["privates"] == 40


def test_first_4_rusts_2s_lowers_the_limit_and_forces_a_discard():
    """Digest #23 (with B&O): three 3s + the first 4 -> phase 4, limit 3, every 2 rusts; B&O must put
    one train of its choice into the pool before anything else happens."""
    g = chain_1830("first4")
    assert g.state.phase == "4"
    assert trains(g, "PRR") == [] and trains(g, "NYC") == ["3", "3"]
    assert trains(g, "B&O") == ["3", "3", "3", "4"]
    assert all(h == RUSTED for t, h in g.state.trains.items() if train_type(t) == "2")
    assert g.cash("B&O") == 130 + 300 - 300
    assert g.state.pending == [{"kind": "discard", "corp": "B&O", "count": 1}]
    g.refusal("done B&O", match="discard")
    g.refusal("train B&O 4", match="discard")
    g.refusal("discard PRR 2", match="not over")
    g.refusal("discard B&O 2", match="no 2")
    g.do("discard B&O 3")
    assert trains(g, "B&O") == ["3", "3", "4"] and trains(g, "pool") == ["3"]
    assert g.state.pending == []
    g.do("done B&O")
    assert g.round_kind() == "stock"


def test_discard_only_over_the_limit():
    g = opening_1830()
    g.do("train PRR 2")
    g.refusal("discard PRR 2", match="not over")


def test_pool_trains_sell_at_face_value():
    g = chain_1830("or3.1")  # ERIE first; B&O's discarded 3 lies in the pool
    assert trains(g, "pool") == ["3"]
    g.refusal("train ERIE 3 --from pool --price 170", match=r"\$180")
    g.refusal("train ERIE 4 --from pool", match="no 4")
    bank = g.bank()
    g.do("train ERIE 3 --from pool")
    assert g.cash("ERIE") == 1000 - 180 and g.bank() == bank + 180
    assert trains(g, "ERIE") == ["3"] and trains(g, "pool") == []


def test_trains_from_another_company_at_any_price_from_1():
    g = opening_1830()
    g.do("train PRR 2", "done PRR")
    g.refusal("train B&O 2 --from PRR", match="price")
    g.refusal("train B&O 2 --from PRR --price 0", match=r"\$1")
    g.refusal("train B&O 3 --from PRR --price 10", match="no 3")
    g.refusal("train B&O 2 --from B&O --price 10", match="itself")
    h = g.copy()
    h.do("train B&O 2 --from PRR --price 1")
    assert h.cash("B&O") == 669 and h.cash("PRR") == 681
    g.do("train B&O 2 --from PRR --price 500")  # above face value is fine when nobody needs help
    assert g.cash("B&O") == 170 and g.cash("PRR") == 680 + 500
    assert trains(g, "PRR") == [] and trains(g, "B&O") == ["2"]
    assert g.state.privates["BO"].closed  # B&O's first train, wherever it comes from


def test_a_company_cannot_spend_more_than_it_has():
    g = chain_1830("or2.1-b&o")
    g.refusal("train B&O 2 --from PRR --price 671", match="671")
    g = chain_1830("or3.1-nyc")
    g.do("withhold NYC 0")
    g.refusal("train NYC 4", match="no help from its president")


def test_privates_close_on_the_first_5():
    """SEED: when the first 5 train is bought, all private companies close (PRR's DH too), no payment."""
    g = chain_1830("or3.2")
    g.do("withhold ERIE 0")
    before = {who: g.cash(who) for who in FOUR + ["PRR"]}
    events = g.do("train ERIE 5")
    assert g.state.phase == "5"
    assert all(p.closed for p in g.state.privates.values())
    assert {who: g.cash(who) for who in before} == before
    assert g.cash("ERIE") == 1000 - 450
    closed = [e for e in events if e["kind"] == "privates_closed"]
    assert sorted(closed[0]["privates"]) == ["CA", "CS", "DH", "MH", "SV"]


def test_first_5_lowers_the_limit_to_2_everywhere():
    g = chain_1830("first5")
    assert g.state.pending == [{"kind": "discard", "corp": "NYC", "count": 1},
                               {"kind": "discard", "corp": "B&O", "count": 1}]
    g = chain_1830("sr4")
    assert trains(g, "pool") == ["3", "3", "3"]
    assert trains(g, "NYC") == ["3", "4"] and trains(g, "B&O") == ["3", "4"] and trains(g, "PRR") == ["4", "4"]
    assert trains(g, "C&O") == ["5", "5"] and trains(g, "ERIE") == ["5"]


def test_d_is_sold_only_from_the_first_6():
    g = chain_1830("or4.1")
    g.do("withhold ERIE 500 --force --reason 'test position'")
    g.refusal("train ERIE D", match="does not sell D")
    g.do("train ERIE 6")
    assert g.state.phase == "6"
    assert depot_offer(g.state, g.rs) == ["6", "D"]


def test_first_6_rusts_the_3s_everywhere_including_the_pool():
    g = chain_1830("or4.1")
    assert trains(g, "pool") == ["3", "3", "3"]
    g.do(*dict(CHAIN_1830)["first6"])
    assert trains(g, "pool") == [] and trains(g, "NYC") == ["4"] and trains(g, "B&O") == ["4"]
    assert all(h == RUSTED for t, h in g.state.trains.items() if train_type(t) == "3")
    assert trains(g, "ERIE") == ["5", "6"] and g.cash("ERIE") == 550 + 500 - 630


def test_d_trade_in_at_the_limit():
    """Digest #22: ERIE (limit 2) holds a 5 and a 6: trades the 6 for a D for $800; the 6 lies in the
    pool at $630. First D: phase D, every 4 rusts (PRR's two, NYC's, B&O's)."""
    g = chain_1830("or4.2")
    assert g.state.round["corp"] == "ERIE" and trains(g, "ERIE") == ["5", "6"]
    g.do("withhold ERIE 400 --force --reason 'test position'")
    assert g.cash("ERIE") == 420 + 400
    g.refusal("train ERIE D", match="train limit")
    g.refusal("train ERIE D --trade-in 3", match="4 or 5 or 6")
    bank = g.bank()
    g.do("train ERIE D --trade-in 6")
    assert g.cash("ERIE") == 20 and g.bank() == bank + 800
    assert trains(g, "ERIE") == ["5", "D"] and trains(g, "pool") == ["6"]
    assert g.state.phase == "D"
    assert trains(g, "PRR") == [] and trains(g, "NYC") == [] and trains(g, "B&O") == []
    assert all(h == RUSTED for t, h in g.state.trains.items() if train_type(t) == "4")


@pytest.mark.parametrize("line", ["train B&O 3 --from pool --trade-in 4",
                                  "train B&O 3 --from NYC --price 10 --trade-in 4"])
def test_trade_in_is_only_for_a_d_from_the_bank(line):
    """OR 3.1, B&O at its limit of 3 (3, 3, 4) with $430; the pool has a 3, NYC two 3s."""
    g = chain_1830("or3.1")
    next_turn_of(g, "B&O")
    g.do("withhold B&O 300 --force --reason 'test position'")
    assert trains(g, "B&O") == ["3", "3", "4"] and trains(g, "pool") == ["3"]
    g.refusal(line)


def test_no_presidents_money_for_a_trade_in():
    g = chain_1830("or4.2")
    g.do("withhold ERIE 0")
    g.refusal("train ERIE D --trade-in 6")
    assert g.cash("ERIE") == 420


def test_traded_in_train_sells_from_the_pool_at_face_value():
    g = chain_1830("or4.2-prr")
    assert g.cash("PRR") == 715 and trains(g, "PRR") == []
    g.refusal("done PRR", match="must buy")
    g.do("train PRR 6 --from pool")
    assert g.cash("PRR") == 715 - 630 and trains(g, "PRR") == ["6"] and trains(g, "pool") == []


# --------------------------------------------------------------------------- private sales to companies (#25)


def test_companies_buy_privates_only_from_phase_3():
    g = opening_1830()
    g.refusal("buy-private PRR MH 110", match="phase 3")


@pytest.mark.parametrize("price,ok", [(54, False), (55, True), (110, True), (220, True), (221, False)])
def test_private_price_between_half_and_double_face(price, ok):
    """Digest #25: PRR buys MH (face $110) from Dave for $55 to $220."""
    g = chain_1830("or2.1")
    if not ok:
        g.refusal(f"buy-private PRR MH {price}", match="55 to \\$220")
        return
    g.do(f"buy-private PRR MH {price}")
    assert g.owner("MH") == "PRR" and g.cash("PRR") == 440 - price and g.cash("Dave") == 253 + price


def test_bo_is_never_sold_to_a_company():
    g = chain_1830("or2.1")
    for price in (110, 220, 440):
        g.refusal(f"buy-private PRR BO {price}", match="never")


def test_private_sales_only_in_the_buyers_turn_from_a_player():
    g = chain_1830("or2.1")
    g.refusal("buy-private NYC SV 20", match="turn")
    g.do("buy-private PRR SV 20")
    next_turn_of(g, "NYC")
    g.refusal("buy-private NYC SV 20", match="SV is owned by PRR: a company buys a private from a player")


def test_private_sale_needs_the_cash():
    g = chain_1830("or2.1")
    g.do("buy-private PRR CA 320")
    assert g.cash("PRR") == 120 and g.cash("Alice") == 270 + 320
    g.refusal("buy-private PRR MH 130", match=r"\$120")


# --------------------------------------------------------------------------- forced train purchase (#20, #21)


def emergency_position(tie: bool = False) -> Table:
    """B&O trainless with $1 at its OR 2.1 turn; the only trains for sale are 2s at $80.

    SR 1: PRR as in `opening_1830()`; B&O: Bob 20 % (BO), Alice 20 %, Carol 10, Dave 10 -> floats, $670
    (with tie=True: Bob 30 %, Alice 20 %, Carol 10).
    OR 1.1: PRR buys a 2; B&O buys it from PRR for $670 (B&O $0, BO closes).
    SR 2: Bob pars NYC at 100 ($200); Dave buys 2 NYC shares (20 %); Bob buys another PRR share
    (tie=False only).
    OR 2.1: PRR buys the 2 back for $1 (B&O $1); PRR runs for $0: (3,5) $71 -> (3,4) $66.
    Bob's cash is worked out in test_emergency_position.
    """
    g = sr1_1830()
    g.do("par Carol PRR 76", "buy Dave PRR", "buy Alice PRR", "buy Bob PRR")
    if tie:
        g.do("buy Carol B&O", "pass Dave", "buy Alice B&O", "buy Bob B&O", "pass Carol", "pass Dave", "buy Alice B&O")
    else:
        g.do("buy Carol B&O", "buy Dave B&O", "buy Alice B&O", "pass Bob", "pass Carol", "pass Dave", "buy Alice B&O")
    g.do("pass Bob", "pass Carol", "pass Dave", "pass Alice",
         "train PRR 2", "done PRR", "train B&O 2 --from PRR --price 670", "done B&O",
         "par Bob NYC 100", "pass Carol", "buy Dave NYC", "pass Alice", "pass Bob" if tie else "buy Bob PRR",
         "pass Carol", "buy Dave NYC", "pass Alice", "pass Bob", "pass Carol", "pass Dave",
         "train PRR 2 --from B&O --price 1", "done PRR")
    assert g.state.round["corp"] == "B&O" and trains(g, "B&O") == [] and g.cash("B&O") == 1
    assert g.price("PRR") == 66 and g.price("B&O") == 65 and g.price("NYC") == 100
    return g


def test_emergency_position():
    g = emergency_position()
    # Bob: 340 after the auction, -76 PRR (SR 1), +40 privates (OR 1.1), -200 NYC, -76 PRR (SR 2), +10 CS
    assert g.cash("Bob") == 340 - 76 + 40 - 200 - 76 + 10 == 38
    assert (g.pct("Bob", "B&O"), g.pct("Alice", "B&O")) == (20, 20)
    assert (g.pct("Bob", "PRR"), g.pct("Bob", "NYC"), g.pct("Dave", "NYC")) == (20, 20, 20)
    g = emergency_position(tie=True)
    assert g.cash("Bob") == 340 - 76 - 67 + 40 - 200 + 10 == 47
    assert (g.pct("Bob", "B&O"), g.pct("Alice", "B&O")) == (30, 20)


def test_trainless_company_with_a_route_must_buy():
    g = emergency_position()
    g.refusal("done B&O", match="must buy")
    h = g.copy()
    h.do("done B&O --no-route")
    assert h.round_kind() == "stock"


def test_president_must_sell_when_company_and_president_cannot_pay():
    """B&O $1 + Bob $38 < $80: Bob must raise $41 by selling shares first."""
    g = emergency_position()
    g.refusal("train B&O 2", match=r"needs \$79 more for the 2; Bob has \$38")


def test_emergency_sales_only_as_many_as_needed():
    g = emergency_position()
    g.refusal("sell Bob PRR 2", match="more than needed")  # one $66 share covers the $41
    g.refusal("sell Bob NYC 2", match="more than needed")
    bank = g.bank()
    g.do("sell Bob PRR 1")
    assert g.cash("Bob") == 38 + 66 and g.bank() == bank - 66
    assert g.cell("PRR") == (4, 4) and g.pct("pool", "PRR") == 10
    g.refusal("sell Bob PRR 1", match="can already pay")


def test_forced_purchase_with_the_presidents_contribution():
    """After the sale Bob has $104: he gives B&O the $79 it lacks; B&O pays $80 and has $0 left."""
    g = emergency_position()
    g.do("sell Bob PRR 1")
    bank = g.bank()
    events = g.do("train B&O 2")
    bought = event(events, "train_bought")
    assert bought["contribution"] == 79 and bought["price"] == 80
    assert g.cash("Bob") == 104 - 79 and g.cash("B&O") == 0 and g.bank() == bank + 80
    assert trains(g, "B&O") == ["2"]
    g.do("done B&O")


def test_emergency_sale_never_changes_the_operating_companys_president():
    """SEED: selling may not lead to a change in presidency of the operating company (Alice has 20 %)."""
    g = emergency_position()
    g.refusal("sell Bob B&O 1", match="president")
    assert g.president("B&O") == "Bob"


def test_emergency_sale_to_a_tie_keeps_the_president():
    g = emergency_position(tie=True)
    g.do("sell Bob B&O 1")
    assert g.president("B&O") == "Bob" and g.pct("Bob", "B&O") == 20 and g.pct("Alice", "B&O") == 20
    assert g.cash("Bob") == 47 + 58  # sold after B&O's $0 run moved it (5,5) $65 -> (5,4) $58
    g.do("train B&O 2")
    assert g.cash("Bob") == 105 - 79


def test_emergency_sale_is_paid_at_the_price_after_the_zero_run():
    """Digest #20 in this position: B&O (trainless) runs for $0 first, (5,5) $65 -> (5,4) $58; then
    Bob's B&O share sells for $58 and the marker drops to (6,4) $54."""
    g = emergency_position(tie=True)
    g.do("sell Bob B&O 1")
    assert g.cash("Bob") == 47 + 58
    assert g.cell("B&O") == (6, 4)


def test_emergency_sale_may_change_another_companys_president():
    """Bob sells half his NYC president's certificate: Dave (20 %) becomes NYC's president."""
    g = emergency_position()
    g.do("sell Bob NYC 1")
    assert g.president("NYC") == "Dave" and g.pct("Bob", "NYC") == 10 and g.pct("pool", "NYC") == 10
    assert g.cash("Bob") == 38 + 100


def test_only_the_operating_presidents_sells_and_only_when_forced():
    g = emergency_position()
    g.refusal("sell Alice PRR 1", match="president")
    g = chain_1830("or2.1")
    g.refusal("sell Carol NYC 1", match="can already pay")


def test_emergency_train_from_another_company_at_most_face_value():
    g = emergency_position()
    g.refusal("train B&O 2 --from PRR --price 81", match="face value")
    g.do("sell Bob PRR 1", "train B&O 2 --from PRR --price 80")
    assert g.cash("PRR") == 1349 + 80 and g.cash("Bob") == 104 - 79 and trains(g, "PRR") == []


def test_emergency_buys_only_the_cheapest_bank_train():
    """NYC (trainless after the D) has $150: with Carol's help it may buy a 6 ($630), not a D ($1100)."""
    g = chain_1830("or4.2-b&o")
    assert g.cash("NYC") == 0 and g.cash("Carol") == 710 - 480
    g = chain_1830("or4.2-nyc")
    g.refusal("train NYC D", match="cheapest")
    events = g.do("train NYC 6")
    assert event(events, "train_bought")["contribution"] == 630 - 150


def test_not_bankrupt_while_shares_can_cover():
    g = emergency_position()
    g.refusal("bankrupt Bob", match="not bankrupt")
    g.refusal("bankrupt Alice", match="not the president")


def test_bankruptcy_sells_what_it_can_pays_the_bank_and_ends_the_game():
    """B&O ($130, no train after the D) must buy the cheapest train, a D for $1100 (the 6s are gone);
    Bob has $240 and can sell PRR 1 x $48, NYC 1 x $34, B&O 1 x $18 (after running for $0:
    (5,0) $25 -> (6,0) $18; his 20 % stays: nobody else has 20 %), C&O 2 x $71, ERIE 1 x $71 = $313:
    130 + 240 + 313 < 1100. He sells all that, his $553 go to the bank, the game ends at once
    (digest #21). His B&O president's cert still scores: (7,0) $10 x 2."""
    g = chain_1830("or4.2-b&o")
    assert g.state.round["corp"] == "B&O" and g.cash("B&O") == 130 and g.cash("Bob") == 240
    g.refusal("train B&O D", match=r"needs \$970 more")
    bank = g.bank()
    events = g.do("bankrupt Bob")
    sold = [(e["corp"], e["count"], e["price"]) for e in events if e["kind"] == "shares_sold"]
    assert sorted(sold) == sorted([("PRR", 1, 48), ("NYC", 1, 34), ("B&O", 1, 18), ("C&O", 2, 71), ("ERIE", 1, 71)])
    assert event(events, "bankrupt")["cash"] == 553
    assert g.cash("Bob") == 0 and g.bank() == bank - 313 + 553
    assert g.state.game_over and g.state.end_reason == "bankruptcy"
    assert g.pct("Bob", "B&O") == 20 and g.price("B&O") == 10
    bob = [r for r in views.score_json(g.state, g.rs)["players"] if r["name"] == "Bob"][0]
    assert bob["cash"] == 0 and bob["value"] == 20
    for line in ("train B&O D", "done B&O --no-route", "pass Alice", "withhold ERIE 0", "end"):
        g.refusal(line, match="game is over")


# --------------------------------------------------------------------------- the bank breaks (#27)


def test_bank_at_exactly_zero_is_not_broken():
    g = chain_1830("or2.1")
    g.do(f"withhold PRR {g.bank()} --force --reason 'drain the bank'")
    assert g.bank() == 0 and not g.state.bank_broken


def test_bank_broken_in_an_or_ends_the_game_after_the_set():
    """OR 2.1 of 2: the bank is emptied, then NYC's $1000 payout needs $700 from it: everybody is paid
    in full, the bank goes negative and is broken; OR 2.2 is still played, then the game ends."""
    g = chain_1830("or2.1")
    g.do(f"withhold PRR {g.bank()} --force --reason 'drain the bank'", "done PRR", "train B&O 3", "done B&O")
    assert g.bank() == 180
    carol = g.cash("Carol")
    events = g.do("pay NYC 1000 --force --reason 'test position'")
    assert g.cash("Carol") == carol + 300
    assert g.bank() == 180 - 700 and g.state.bank_broken
    assert event(events, "bank_broke")["end_after_set"] == 2
    n = len(g.events)
    g.do("done NYC")
    assert g.round_kind() == "operating" and g.state.round["index"] == 2 and not g.state.game_over
    assert "private_revenue" in kinds(g.events[n:])  # OR 2.2 pays its privates from the broken bank
    assert g.bank() == 180 - 700 - 30 - 10 - 15 - 20
    while g.round_kind() == "operating":
        finish_turn(g)
    assert g.state.game_over and g.state.end_reason == "bank broken"
    g.refusal("pass Alice", match="game is over")


def test_bank_broken_in_an_sr_ends_the_game_after_the_next_full_set():
    """The bank holds $50 at the end of OR 2.2; Alice's sale in SR 3 breaks it: SR 3 goes on, all of
    set 3 (2 ORs in phase 3) is played, then the game ends."""
    g = chain_1830("or2.1")
    for _ in range(5):  # OR 2.1: PRR, B&O, NYC; OR 2.2: PRR, B&O, all for $0 (B&O has no route)
        finish_turn(g)
    assert g.state.round["index"] == 2 and g.state.round["corp"] == "NYC"
    g.do(f"withhold NYC {g.bank() - 50} --force --reason 'drain the bank'", "done NYC")
    assert g.round_kind() == "stock" and g.state.round["number"] == 3 and g.bank() == 50 and not g.state.bank_broken
    price = g.price("PRR")
    g.do("sell Alice PRR 1")
    assert g.bank() == 50 - price and g.state.bank_broken and g.state.end_after_set == 3
    g.do("buy Bob PRR --pool")  # the stock round carries on
    g.do("pass Carol", "pass Dave", "pass Alice", "pass Bob")
    assert g.round_kind() == "operating" and g.state.round["count"] == 2
    played = set()
    while g.round_kind() == "operating":
        played.add((g.state.round["set"], g.state.round["index"]))
        finish_turn(g)
    assert played == {(3, 1), (3, 2)}
    assert g.state.game_over and g.state.end_reason == "bank broken"


# --------------------------------------------------------------------------- ending the game, scores


def test_end_ends_the_game_and_only_views_work(fast_path):
    g = chain_1830("or2.1")
    g.do("end")
    assert g.state.game_over and g.state.end_reason == "ended by the players"
    for line in ("withhold PRR 0", "done PRR", "pass Alice", "train PRR 3", "end", "bankrupt Carol"):
        g.refusal(line, match="game is over")

    from ledger.interface.cli import app
    runner = CliRunner()
    game = str(fast_path / "g.db")
    script = fast_path / "t.txt"
    script.write_text("new 1830 Alice Bob Carol Dave\nbuy Alice SV\nend\n")
    assert runner.invoke(app, ["--game", game, "play", str(script)]).exit_code == 0
    for view in (["status"], ["status", "--json"], ["score"], ["score", "--json"], ["market"], ["log"]):
        result = runner.invoke(app, ["--game", game, *view])
        assert result.exit_code == 0, (view, result.output)
    data = json.loads(runner.invoke(app, ["--game", game, "score", "--json"]).output)
    assert data["game_over"] and data["end_reason"] == "ended by the players"
    assert [p["value"] for p in data["players"]] == [600, 600, 600, 600]
    result = runner.invoke(app, ["--game", game, "buy", "Bob", "CS"])
    assert result.exit_code != 0


def test_net_worth_digest_29():
    """Digest #29: cash + shares at market (president's cert = 2 shares) + open privates at face; a share
    of a company never parred is worth $0.
    Auction: Alice buys SV, Bob bids $75 on DH, Carol $225 on BO, Dave buys CS (Bob gets DH), Alice
    buys MH, Bob buys CA (a PRR share, PRR not parred); Carol gets BO and pars B&O at 67."""
    g = new_1830()
    g.do("buy Alice SV", "bid Bob DH 75", "bid Carol BO 225", "buy Dave CS", "buy Alice MH", "buy Bob CA",
         "par Carol B&O 67")
    assert g.pct("Bob", "PRR") == 10 and g.state.corps["PRR"].par is None
    score = {r["name"]: r for r in views.score_json(g.state, g.rs)["players"]}
    assert score["Carol"]["value"] == 375 + 2 * 67 + 220 == 729
    assert score["Bob"]["value"] == 365 + 0 + 70 + 160 == 595
    assert score["Alice"]["value"] == 470 + 20 + 110
    assert score["Dave"]["value"] == 560 + 40
    assert score["Carol"]["rank"] == 1 and score["Bob"]["rank"] == 4


def test_net_worth_counts_shares_at_market_and_not_companies():
    g = chain_1830("sr3")
    s = views.score_json(g.state, g.rs)
    alice = [r for r in s["players"] if r["name"] == "Alice"][0]
    # Alice: PRR 20 % at $71, NYC 10 % at $65, B&O 10 % at $50, SV $20 + CA $160
    assert alice["value"] == g.cash("Alice") + 2 * 71 + 65 + 50 + 20 + 160
    assert sum(r["value"] for r in s["players"]) < 12000  # treasuries and trains count for nobody


# --------------------------------------------------------------------------- money is conserved


@pytest.mark.parametrize("label", LABELS_1830)
def test_every_chain_step_replays_to_the_same_state(label):
    g = chain_1830(label)
    assert g.replayed() == g.state
    total = sum(v for k, v in g.state.balances.items() if k != "mint")
    assert total == 12000
    assert all(v >= 0 for k, v in g.state.balances.items() if k.startswith(("player:", "company:")))


# --------------------------------------------------------------------------- typed revenues (issue 10 §3)


def test_a_revenue_off_the_titles_granularity_is_refused():
    """Digest §8.3: every 1830 revenue is a multiple of $10, so $95 is a typo."""
    g = chain_1830("or2.1")
    assert g.state.round["corp"] == "PRR"
    err = g.refusal("pay PRR 95", match=r"multiples of \$10")
    assert "did you mean $90" in err.hint


def test_a_revenue_beyond_the_trains_reach_needs_force():
    """PRR's four 2-trains count 2 stops each at no more than $100 a stop: $800 at most. $810 is
    refused unless forced, and the forced run records the waived rule."""
    g = chain_1830("or2.1")
    g.refusal("pay PRR 810", match=r"at most about \$800")
    events = g.do("pay PRR 810 --force --reason 'a route the bank does not know'")
    waived = event(events, "rules_waived")
    assert "at most about $800" in waived["rules"][0]
    assert event(events, "revenue")["revenue"] == 810


def test_a_revenue_within_reach_is_taken():
    g = chain_1830("or2.1")
    events = g.do("pay PRR 800")
    assert event(events, "revenue")["revenue"] == 800


# --------------------------------------------------------------------------- forced purchases, the bank's train order (§9, §10.3)

def test_emergency_sales_are_allowed_in_the_first_operating_round():
    # digest §10.3: "no selling in SR 1" is a stock-round rule; a president raising money for a
    # forced train sells in OR 1.1 too. B&O (Bob) has $0 and no train, Bob $0: the 2 costs $80.
    # One NYC share at $67 leaves $13 short, so a PRR share at $71 may follow; Bob keeps 138 - 80.
    g = opening_1830()
    next_turn_of(g, "B&O")
    g.do("adjust B&O bank 670 --reason 'test position'", "adjust Bob bank 170 --reason 'test position'")
    g.do("sell Bob NYC 1", "sell Bob PRR 1")
    g.do("train B&O 2")
    assert g.trains("B&O") == ["2"]
    assert (g.cash("B&O"), g.cash("Bob")) == (0, 67 + 71 - 80)


def test_no_presidents_help_toward_another_companys_train_when_the_company_can_pay_the_cheapest():
    # SEED "Forced Train Purchases": only when the company does not have enough money to buy a train
    # (the cheapest from the bank or pool) does the president help, then also toward another
    # company's train at no more than face value. OR 3.1: ERIE (Alice, $430) has no train; the
    # cheapest is the 3 in the pool at $180; B&O holds a 4 (face $300).
    g = chain_1830("or3.1")
    g.do("adjust ERIE bank 800 --reason 'test position'")    # ERIE $200 >= $180
    g.refused("train ERIE 4 --from B&O --price 300", "$200", "cheapest", "$180", "treasury")
    h = g.copy()
    h.do("train ERIE 4 --from B&O --price 200")               # its own money only
    assert (h.cash("ERIE"), h.cash("Alice")) == (0, 430)
    g.do("adjust ERIE bank 100 --reason 'test position'")    # ERIE $100 < $180: short
    g.do("train ERIE 4 --from B&O --price 300")               # Alice adds 300 - 100 = $200
    assert (g.cash("ERIE"), g.cash("Alice")) == (0, 430 - 200)


def test_the_sites_reading_lets_the_president_help_toward_another_companys_train():
    # digest §10.3 "R18 nuance": on 18xx.games the president of a trainless company may help toward
    # another company's train (at up to face value) even when the company could pay for the cheapest;
    # option site_emergency_help plays that reading, and importing the site's games always does.
    # The same OR 3.1 position, played again with the option: ERIE $200, Alice adds 300 - 200 = $100.
    site = Table(title="1830", players=list(FOUR), options={"site_emergency_help": True})
    site.do(*chain_1830("or3.1").lines, "adjust ERIE bank 800 --reason 'test position'")
    site.do("train ERIE 4 --from B&O --price 300")
    assert (site.cash("ERIE"), site.cash("Alice")) == (0, 430 - 100)
    # (tests/interface/test_import.py: an imported game plays with the option)


def test_a_later_train_is_refused_naming_the_trains_sold_before_it():
    # SEED "Trains": the bank sells its trains in order, all of one type before the next. OR 3.1:
    # B&O bought the first of the four 4s (digest §9: 4 x 4, 3 x 5), so three 4s and three 5s remain.
    g = chain_1830("or3.1")
    g.refused("train ERIE 6", "does not sell 6 trains now", "its 4s (3 left) and its 5s (3 left) come first")
    g.refused("train ERIE 5", "its 4s (3 left) come first")


# --------------------------------------------------------------------------- emergency sales, train limits, trade-ins (§6.5, §9)

def test_an_emergency_sale_re_sorts_the_companies_still_to_operate():
    # digest §6.5 / §14 #17 (R18 recalculate_order): OR 1.1 order PRR $76, B&O and NYC both (5,6) $67,
    # B&O parred first. PRR (Carol) is trainless with $0, Carol has $20: the 2 costs $80, she sells
    # her B&O share at $67 (she may: $60 short); B&O sinks to (6,6) $67, so NYC, now above it in
    # column 6, operates before B&O (upper row first).
    g = opening_1830()
    assert g.state.round["order"] == ["PRR", "B&O", "NYC"]
    g.do("adjust PRR bank 760 --reason 'test position'", "adjust Carol bank 105 --reason 'test position'")
    g.do("sell Carol B&O 1")
    assert g.cell("B&O") == (6, 6) and g.cell("NYC") == (5, 6)
    assert g.state.round["order"] == ["PRR", "NYC", "B&O"]
    g.do("train PRR 2")
    assert (g.cash("PRR"), g.cash("Carol")) == (0, 20 + 67 - 80)   # she pays the whole $80
    g.do("done PRR")
    assert g.state.round["corp"] == "NYC"


def test_digest_20_emergency_purchase_with_one_bando_share():
    # digest §15 #20 [run]: B&O par $100 floats in SR 1 (Bob's BO 20 % + one, Carol, Dave, Alice one
    # each). OR 1.1: B&O has $30, Bob $20; the 2 costs $80: $30 short. B&O ran for $0 first: (0,6)
    # -> (0,5) $90. Two shares would be more than needed; one at $90 gives Bob $110, he pays $50, B&O
    # pays $80 and keeps $0; BO closes (B&O's first train); B&O (0,5) -> (1,5) $82.
    g = sr1_1830(bo_par=100)
    g.do("buy Carol B&O", "buy Dave B&O", "buy Alice B&O", "buy Bob B&O")
    assert g.cash("B&O") == 1000
    finish_round(g)
    assert g.state.round["corp"] == "B&O"
    g.do("adjust B&O bank 970 --reason 'test position'", f"adjust Bob bank {g.cash('Bob') - 20} --reason 'test position'")
    g.refused("sell Bob B&O 2", "needs $30", "more than needed", "sell 1 share")
    g.do("sell Bob B&O 1")
    assert g.cash("Bob") == 110 and g.cell("B&O") == (1, 5) and g.price("B&O") == 82
    bank = g.bank()
    g.do("train B&O 2")
    assert (g.cash("Bob"), g.cash("B&O"), g.bank()) == (60, 0, bank + 80)
    assert g.state.privates["BO"].closed


def test_a_train_from_another_company_obeys_the_limit_and_the_refusal_counts_trains_only():
    # digest §9.2: a company may not buy a train that puts it over the limit, from anywhere. OR 3.1,
    # phase 4 (limit 3): NYC holds 3, 3 and buys B&O's 3 for $10: three; PRR's 4 would be a fourth.
    # 1830's cards carry one train each, so the refusal names trains, not certificates.
    g = chain_1830("or3.1-nyc")
    g.do("withhold NYC 0", "train NYC 3 --from B&O --price 10")
    assert sorted(g.trains("NYC")) == ["3", "3", "3"]
    said = g.refused("train NYC 4 --from PRR --price 10", "train limit", "NYC holds 3 trains;", "limit of 3 trains",
                     "phase 4")
    assert "certificate" not in said


def test_the_first_d_bought_with_a_4_traded_in_rusts_that_4():
    # digest §9.1: the traded-in train goes to the pool, "a traded 4 is at once removed if this D is
    # the first D (4s rust)". OR 4.2, phase 6: PRR holds two 4s and $715 + $800 withheld: it pays $800
    # for the first D with a 4: phase D, its other 4 rusts too, and no 4 lies in the pool.
    g = chain_1830("or4.2")
    g.do("withhold ERIE 0", "done ERIE", "withhold C&O 0", "done C&O")
    assert g.state.round["corp"] == "PRR" and g.trains("PRR") == ["4", "4"] and g.cash("PRR") == 715
    g.do("withhold PRR 800 --force --reason 'test position'")
    bank = g.bank()
    g.do("train PRR D --trade-in 4")
    assert g.trains("PRR") == ["D"] and g.cash("PRR") == 715 and g.bank() == bank + 800
    assert g.state.phase == "D"
    assert [t for t, h in g.state.trains.items() if h == "pool"] == []
    assert all(h == "rusted" for t, h in g.state.trains.items() if t.startswith("4."))


# --------------------------------------------------------------------------- privates bought by companies (§3.1, §3.2, §14 #16)

def test_cs_used_stays_open_pays_its_owner_and_closes_on_the_first_5():
    # SEED P2 "one use" is the lay; the private itself closes only with the first 5 (§3.2). OR 2.1:
    # PRR buys CS from Bob for $40 and uses it; OR 2.2 pays PRR $10 for CS.
    g = chain_1830("or2.1")
    g.do("buy-private PRR CS 40", "tile PRR 0 --using CS")
    assert not g.state.privates["CS"].closed
    g.do("withhold PRR 0", "done PRR")
    cash = g.cash("PRR")
    while g.state.round["index"] == 1:
        g.do(*{"B&O": ["train B&O 3", "done B&O"], "NYC": ["withhold NYC 0", "done NYC"]}[g.state.round["corp"]])
    assert g.cash("PRR") == cash + 10
    g = chain_1830("first5")
    assert g.state.privates["CS"].closed and g.state.privates["DH"].closed


def test_a_company_buying_ca_gets_no_prr_share():
    # digest §14 #16: only the auction purchase of CA hands over the PRR share. OR 2.1 (phase 3): PRR
    # buys CA from Alice for $159 (within $80-$320); the PRR holdings do not change.
    g = chain_1830("or2.1")
    before = g.holdings("PRR")
    alice = g.cash("Alice")
    g.do("buy-private PRR CA 159")
    assert g.owner("CA") == "PRR" and g.cash("Alice") == alice + 159
    assert g.holdings("PRR") == before


# --------------------------------------------------------------------------- the score (§10.4, §12)

def test_equal_net_worths_share_a_rank():
    # digest §12: highest net worth wins, no tie-break rule (R18 lists ties in value order). OR 1.1
    # (PRR $76, NYC $67, B&O $67; privates at face): Carol $125 + PRR 2 x 76 + NYC 3 x 67 + B&O 67 +
    # DH 70 = $615; Dave $233 + PRR 76 + NYC 2 x 67 + B&O 67 + MH 110 = $620; he hands $5 to the bank.
    g = opening_1830()
    g.do("adjust Dave bank 5 --reason 'test position'")
    rows = {r["name"]: r for r in views.score_json(g.state, g.rs)["players"]}
    assert rows["Carol"]["value"] == rows["Dave"]["value"] == 615
    assert [rows[p]["rank"] for p in ("Bob", "Alice", "Carol", "Dave")] == [1, 2, 3, 3]


def test_digest_21_bankrupt_president_scores_his_kept_certificate_and_privates():
    # digest §15 #21 [run] / §10.4 / §12: the #20 position with B&O's price forced low ((7,1) $20,
    # running for $0 first: (7,0) $10), B&O $5, Bob $5. Bob may sell one B&O share at $10 (his 20 %
    # stays: nobody else holds 20 %): 5 + 5 + 10 < $80, so he is bankrupt; his $15 go to the bank, the
    # game ends at once, and he still scores B&O 2 x $10 + CS $40 + BO $220 = $280.
    g = sr1_1830(bo_par=100)
    g.do("buy Carol B&O", "buy Dave B&O", "buy Alice B&O", "buy Bob B&O")
    finish_round(g)
    # the price forced, as the digest's case does: a position no command reaches this quickly (the
    # rule tested is the bankruptcy's money and score, not how the price fell)
    g.state.corps["B&O"].cell = (7, 1)
    g.do("adjust B&O bank 995 --reason 'test position'", f"adjust Bob bank {g.cash('Bob') - 5} --reason 'test position'")
    g.do("sell Bob B&O 1")
    assert g.cash("Bob") == 15 and g.price("B&O") == 10
    g.refused("sell Bob B&O 1", "president")
    bank = g.bank()
    g.do("bankrupt Bob")
    assert g.bank() == bank + 15 and g.cash("Bob") == 0
    assert g.state.game_over and g.state.end_reason == "bankruptcy"
    bob = next(r for r in views.score_json(g.state, g.rs)["players"] if r["name"] == "Bob")
    assert (bob["shares"], bob["privates"], bob["value"]) == (20, 40 + 220, 280)
