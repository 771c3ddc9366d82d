"""The private auction, scenario by scenario (digest §4, §3.1, §15 #17, #18, #19, #30).

Expected numbers come from the digest: faces SV 20, CS 40, DH 70, MH 110, CA 160, BO 220; revenues
5, 10, 15, 20, 25, 30; minimum raise $5; 4 players start with $600 each out of a $12,000 bank.
"""

from __future__ import annotations

import pytest
from conftest import FOUR, auction_1830, new_1830

from ledger.core.errors import CommandError, RuleViolation

START = 600  # 4 players (digest §1)


@pytest.fixture
def g():
    return new_1830()


# --------------------------------------------------------------------------- the start

@pytest.mark.parametrize("n, cash", [(2, 1200), (3, 800), (4, 600), (5, 480), (6, 400)])
def test_starting_bank_is_9600_for_every_player_count(n, cash):
    # digest §1 and §15 #30
    players = ["Alice", "Bob", "Carol", "Dave", "Eve", "Fay"][:n]
    g = new_1830(players)
    assert g.bank() == 12000 - 2400 == 9600
    assert [g.cash(p) for p in players] == [cash] * n
    assert g.round_kind() == "auction"
    assert g.turn() == "Alice"


@pytest.mark.parametrize("n", [1, 7])
def test_player_count_outside_2_to_6_is_refused(n):
    with pytest.raises(RuleViolation):
        new_1830([f"P{i}" for i in range(n)])


# --------------------------------------------------------------------------- buying the cheapest

def test_buy_cheapest_at_face_value(g):
    g.do("buy Alice SV")
    assert g.owner("SV") == "Alice"
    assert g.cash("Alice") == START - 20
    assert g.bank() == 9600 + 20
    assert g.turn() == "Bob"
    g.do("buy Bob CS")
    assert (g.owner("CS"), g.cash("Bob"), g.bank()) == ("Bob", START - 40, 9600 + 60)
    assert g.turn() == "Carol"


def test_only_the_cheapest_can_be_bought_outright(g):
    err = g.refusal("buy Alice CS", match="cheapest")
    assert "SV" in str(err)


def test_a_private_with_bids_is_never_bought_outright(g):
    # Bob bids on CS; when SV is gone CS resolves to Bob's bid, nobody can 'buy' CS at face.
    g.do("bid Alice CS 45", "buy Bob SV")
    assert g.owner("CS") == "Alice"
    assert g.cash("Alice") == START - 45


def test_company_is_not_sold_in_the_auction(g):
    g.refusal("buy Alice PRR", match="compan")


def test_unknown_private_name(g):
    g.refusal("bid Alice XX 50", kind=CommandError, match="unknown")


# --------------------------------------------------------------------------- bids

def test_minimum_first_bid_is_face_plus_5(g):
    g.refusal("bid Alice CS 44", match=r"at least \$45")
    g.do("bid Alice CS 45")
    assert g.state.round["bids"]["CS"] == {"Alice": 45}
    assert g.cash("Alice") == START, "a bid is not paid until won"
    assert g.turn() == "Bob"


@pytest.mark.parametrize("sym, face", [("CS", 40), ("DH", 70), ("MH", 110), ("CA", 160), ("BO", 220)])
def test_minimum_bid_every_private(g, sym, face):
    g.refusal(f"bid Alice {sym} {face + 4}", match=rf"at least \${face + 5}")
    g.do(f"bid Alice {sym} {face + 5}")


def test_minimum_raise_is_top_bid_plus_5(g):
    g.do("bid Alice CS 45")
    g.refusal("bid Bob CS 49", match=r"at least \$50")
    g.do("bid Bob CS 50")
    assert g.state.round["bids"]["CS"] == {"Alice": 45, "Bob": 50}


def test_bids_need_not_be_multiples_of_5(g):
    # R18: no $5-multiple requirement
    g.do("bid Alice DH 78")
    assert g.state.round["bids"]["DH"] == {"Alice": 78}


def test_cannot_bid_on_the_cheapest(g):
    g.refusal("bid Alice SV 25", match="cheapest")


def test_cannot_bid_on_an_owned_private(g):
    g.do("buy Alice SV", "buy Bob CS")
    g.refusal("bid Carol CS 60")


def test_several_bids_by_one_player(g):
    g.do("bid Alice CS 45", "pass Bob", "pass Carol", "pass Dave", "bid Alice DH 75")
    assert g.state.round["bids"] == {"CS": {"Alice": 45}, "DH": {"Alice": 75}}


def test_bid_limited_to_cash_minus_other_open_bids(g):
    g.do("bid Alice BO 560", "pass Bob", "pass Carol", "pass Dave")
    # 600 - 560 = 40 free; CA needs at least 165
    err = g.refusal("bid Alice CA 165", match=r"\$40")
    assert "560" in str(err)
    # within the free amount is fine: DH 75 > 40 is not, CS 45 > 40 is not either
    g.refusal("bid Alice CS 45", match=r"\$40")


def test_rebid_on_same_private_frees_the_old_bid(g):
    g.do("bid Alice BO 560", "pass Bob", "pass Carol", "pass Dave")
    g.do("bid Alice BO 600")  # the earlier 560 on BO itself is not counted against her
    assert g.state.round["bids"]["BO"] == {"Alice": 600}
    g.do("pass Bob", "pass Carol", "pass Dave")
    g.refusal("bid Alice BO 601", match=r"\$600")


def test_buying_the_cheapest_is_limited_by_open_bids(g):
    g.do("bid Alice BO 590", "pass Bob", "pass Carol", "pass Dave")
    # 600 - 590 = 10 < SV's 20
    g.refusal("buy Alice SV", match=r"\$10")


# --------------------------------------------------------------------------- resolution

def test_single_bid_resolves_at_once(g):
    g.do("bid Alice CS 45")
    g.do("buy Bob SV")
    assert g.owner("SV") == "Bob" and g.owner("CS") == "Alice"
    assert g.cash("Alice") == START - 45 and g.cash("Bob") == START - 20
    assert g.bank() == 9600 + 65
    # normal turns resume left of the purchaser (Bob)
    assert g.turn() == "Carol"


def test_resolution_walks_down_the_list(g):
    # CS and DH each have one bid: both resolve after SV is bought; MH has none -> stops
    g.do("bid Alice CS 50", "bid Bob DH 75", "buy Carol SV")
    assert (g.owner("CS"), g.owner("DH"), g.owner("MH")) == ("Alice", "Bob", None)
    assert g.turn() == "Dave"


def test_resolution_stops_at_first_private_without_bids(g):
    # DH has no bid, MH has one: buying SV resolves nothing beyond SV... CS has no bid either
    g.do("bid Alice MH 115", "buy Bob SV")
    assert g.owner("MH") is None
    assert g.state.round["bids"] == {"MH": {"Alice": 115}}


def test_digest_bid_resolution_example(g):
    # digest §15 #18
    g.do("bid Alice CS 45", "bid Bob DH 80", "bid Carol CS 50", "buy Dave SV")
    # CS has 2 bids: a bidding war, Alice (lowest) acts
    assert g.state.round["war"] == "CS"
    assert g.turn() == "Alice"
    g.refusal("bid Alice CS 54", match=r"at least \$55")
    g.do("bid Alice CS 55")
    assert g.turn() == "Carol"
    g.do("pass Carol")
    assert g.owner("CS") == "Alice" and g.cash("Alice") == START - 55
    assert g.owner("DH") == "Bob" and g.cash("Bob") == START - 80
    assert g.cash("Carol") == START, "a losing bid costs nothing"
    assert g.cash("Dave") == START - 20
    assert g.bank() == 9600 + 55 + 80 + 20
    # MH has no bid: normal turn for Alice (left of Dave)
    assert g.state.round["war"] is None
    assert g.turn() == "Alice"
    # MH is now the cheapest (buy it, no bidding); an untouched private needs face + $5
    g.refusal("bid Alice MH 115", match="cheapest")
    g.refusal("bid Alice CA 164", match=r"at least \$165")
    # §15 #19: then all four pass -> privates-only OR
    g.do("pass Alice", "pass Bob", "pass Carol", "pass Dave")
    assert g.cash("Alice") == START - 55 + 10
    assert g.cash("Bob") == START - 80 + 15
    assert g.cash("Carol") == START
    assert g.cash("Dave") == START - 20 + 5
    assert g.bank() == 9600 + 155 - 30
    assert g.turn() == "Alice", "the auction continues with the same player order"
    assert g.owner("MH") is None and g.state.privates["MH"].price == 110


def test_bidding_war_alternates_until_one_is_left(g):
    g.do("bid Alice CS 45", "bid Bob CS 50", "bid Carol CS 55", "buy Dave SV")
    assert g.state.round["war"] == "CS" and g.turn() == "Alice"  # lowest of 45/50/55
    g.refusal("bid Bob CS 60", match="not Bob's turn")  # only the lowest bidder acts
    g.refusal("pass Carol", match="not Carol's turn")
    g.do("bid Alice CS 60")
    assert g.turn() == "Bob"  # now lowest at 50
    g.do("pass Bob")
    assert g.turn() == "Carol"  # 55 < 60
    g.do("bid Carol CS 65")
    assert g.turn() == "Alice"
    g.do("pass Alice")
    assert g.owner("CS") == "Carol" and g.cash("Carol") == START - 65
    assert g.cash("Alice") == START and g.cash("Bob") == START
    assert g.turn() == "Alice"  # left of Dave, who bought SV


def test_no_buying_or_other_bids_during_a_war(g):
    g.do("bid Alice CS 45", "bid Bob CS 50", "pass Carol", "buy Dave SV")
    assert g.turn() == "Alice"
    g.refusal("bid Alice DH 75", match="war")
    g.refusal("buy Alice DH")


def test_bidding_war_does_not_move_the_normal_turn(g):
    # War triggered by Carol's purchase; after it, play resumes with Dave.
    g.do("bid Alice DH 75", "bid Bob DH 80", "buy Carol SV")
    # CS has no bid -> no war yet; Dave's turn
    assert g.state.round["war"] is None and g.turn() == "Dave"
    g.do("buy Dave CS")
    assert g.state.round["war"] == "DH" and g.turn() == "Alice"
    g.do("pass Alice")
    assert g.owner("DH") == "Bob" and g.cash("Bob") == START - 80
    assert g.turn() == "Alice"  # left of Dave


# --------------------------------------------------------------------------- everyone passes

def pass_all(g):
    for p in FOUR:
        g.do(f"pass {p}")


def test_all_pass_drops_sv_by_5(g):
    pass_all(g)
    assert g.state.privates["SV"].price == 15
    assert g.owner("SV") is None
    assert [g.cash(p) for p in FOUR] == [START] * 4, "nobody owns a private: nothing is paid"
    assert g.turn() == "Alice"
    g.do("buy Alice SV")
    assert g.cash("Alice") == START - 15 and g.bank() == 9600 + 15


def test_sv_falls_to_zero_and_is_taken_free(g):
    # digest §15 #17
    prices = []
    for _ in range(3):
        pass_all(g)
        prices.append(g.state.privates["SV"].price)
    assert prices == [15, 10, 5]
    pass_all(g)
    assert g.state.privates["SV"].price == 0
    assert g.owner("SV") == "Alice", "the player after the last passer (Dave) receives SV"
    assert g.cash("Alice") == START and g.bank() == 9600
    assert g.turn() == "Bob"


def test_sv_taken_free_by_the_player_after_the_last_passer(g):
    # Alice bids (so passes restart at Bob): the last passer of the 4th round is Alice -> Bob gets SV free
    g.do("bid Alice MH 115")
    for _ in range(4):
        for p in ["Bob", "Carol", "Dave", "Alice"]:
            g.do(f"pass {p}")
    assert g.owner("SV") == "Bob" and g.cash("Bob") == START
    assert g.turn() == "Carol"


def test_all_pass_with_sv_sold_pays_private_revenue(g):
    g.do("buy Alice SV", "buy Bob CS", "pass Carol", "pass Dave", "pass Alice", "pass Bob")
    assert g.cash("Alice") == START - 20 + 5
    assert g.cash("Bob") == START - 40 + 10
    assert g.state.privates["DH"].price == 70, "only SV is ever discounted"
    # it keeps happening on every all-pass
    for p in ["Carol", "Dave", "Alice", "Bob"]:
        g.do(f"pass {p}")
    assert g.cash("Alice") == START - 20 + 10
    assert g.cash("Bob") == START - 40 + 20
    assert g.round_kind() == "auction"
    assert g.turn() == "Carol"


def test_bid_resets_the_pass_count(g):
    g.do("pass Alice", "pass Bob", "pass Carol", "bid Dave CS 45", "pass Alice", "pass Bob", "pass Carol")
    assert g.state.privates["SV"].price == 20
    g.do("pass Dave")
    assert g.state.privates["SV"].price == 15


# --------------------------------------------------------------------------- CA and BO

def test_ca_gives_a_prr_share(g):
    g.do("buy Alice SV", "buy Bob CS", "buy Carol DH", "buy Dave MH", "buy Alice CA")
    assert g.owner("CA") == "Alice"
    assert g.cash("Alice") == START - 20 - 160
    assert g.pct("Alice", "PRR") == 10 and g.cert_percents("Alice", "PRR") == [10]
    assert g.pct("ipo", "PRR") == 90
    assert g.state.corps["PRR"].par is None, "PRR is not parred by the CA share"
    assert g.president("PRR") is None


def test_ca_won_by_bid_also_gives_the_prr_share(g):
    g.do("bid Alice CA 170", "buy Bob SV", "buy Carol CS", "buy Dave DH", "buy Alice MH")
    assert g.owner("CA") == "Alice" and g.pct("Alice", "PRR") == 10
    assert g.cash("Alice") == START - 170 - 110


def test_bo_gives_the_bo_presidency_and_par_comes_first(g):
    g.do("buy Alice SV", "buy Bob CS", "buy Carol DH", "buy Dave MH", "buy Alice CA", "buy Bob BO")
    assert g.owner("BO") == "Bob" and g.cash("Bob") == START - 40 - 220
    assert g.president("B&O") == "Bob" and g.cert_percents("Bob", "B&O") == [20]
    assert g.state.corps["B&O"].par is None
    # nothing else may happen before the par choice
    g.refusal("pass Carol", match="par")
    g.refusal("par Carol PRR 100", match="par")
    g.refusal("par Alice B&O 100", match="Bob")
    g.refusal("par Bob B&O 80", match="par price")
    before = g.cash("Bob")
    g.do("par Bob B&O 90")
    assert g.state.corps["B&O"].par == 90
    assert g.price("B&O") == 90 and g.cell("B&O") == (1, 6)
    assert g.cash("Bob") == before, "the free president's certificate costs nothing"
    assert not g.state.corps["B&O"].floated, "20% sold: B&O floats only at 60%"
    assert g.pct("ipo", "B&O") == 80
    assert g.round_kind() == "stock"


@pytest.mark.parametrize("par, cell", [(100, (0, 6)), (90, (1, 6)), (82, (2, 6)), (76, (3, 6)), (71, (4, 6)),
                                       (67, (5, 6))])
def test_bo_par_any_of_the_six(par, cell):
    g = new_1830()
    auction_1830(g, bo_par=par)
    assert g.state.corps["B&O"].par == par and g.cell("B&O") == cell and g.price("B&O") == par


def test_bo_par_needs_no_cash():
    g = new_1830()
    # Bob spends everything on BO through a bid; he still sets any par, here the highest
    g.do("bid Alice BO 600", "buy Bob SV", "buy Carol CS", "buy Dave DH", "pass Alice", "buy Bob MH", "buy Carol CA")
    assert g.owner("BO") == "Alice" and g.cash("Alice") == 0
    g.do("par Alice B&O 100")
    assert g.state.corps["B&O"].par == 100 and g.cash("Alice") == 0


# --------------------------------------------------------------------------- end of the auction

def test_priority_deal_for_sr1(g):
    # digest §4 example: A SV, B CS, C DH, D MH, A CA, B BO -> B&O parred by B -> C starts SR 1
    auction_1830(g)
    assert g.round_kind() == "stock" and g.state.round["number"] == 1
    assert g.priority() == "Carol"
    assert g.turn() == "Carol"
    assert [g.cash(p) for p in FOUR] == [START - 180, START - 260, START - 70, START - 110]
    assert g.bank() == 9600 + 620


def test_priority_after_last_privates_won_by_bids(g):
    # BO is won through a bid set off by Bob's purchase of CA: priority goes left of Bob (Carol),
    # not left of the winner (Alice)
    g.do("bid Alice BO 225", "buy Bob SV", "buy Carol CS", "buy Dave DH", "buy Alice MH", "buy Bob CA")
    assert g.owner("BO") == "Alice" and g.cash("Alice") == START - 225 - 110
    g.do("par Alice B&O 76")
    assert g.round_kind() == "stock"
    assert g.priority() == "Carol" and g.turn() == "Carol"


# --------------------------------------------------------------------------- acting out of turn

def test_acting_out_of_turn(g):
    g.refusal("bid Bob CS 45", match="not Bob's turn")
    g.refusal("buy Carol SV", match="not Carol's turn")
    g.refusal("pass Dave", match="not Dave's turn")
    g.do("pass Alice")
    g.refusal("pass Alice", match="not Alice's turn")


def test_player_names_are_case_insensitive_prefixes(g):
    g.do("buy al SV")
    assert g.owner("SV") == "Alice"
    g.refusal("buy Zed CS", kind=CommandError, match="unknown player")


def test_stock_verbs_are_refused_in_the_auction(g):
    g.refusal("sell Alice PRR 1")
    g.refusal("pay PRR 100")


def test_priority_after_a_bidding_war_for_the_last_private(g):
    # Dave's purchase of CA sets off a bidding war for BO (Alice vs Carol); the war does not move the
    # normal turn, so SR 1 starts left of Dave (Alice), whoever wins the war.
    g.do("bid Alice BO 225", "buy Bob SV", "bid Carol BO 230", "buy Dave CS",
         "buy Alice DH", "buy Bob MH", "pass Carol", "buy Dave CA")
    assert g.state.round["war"] == "BO" and g.turn() == "Alice"
    g.do("bid Alice BO 235", "bid Carol BO 240", "pass Alice")
    assert g.owner("BO") == "Carol" and g.cash("Carol") == START - 240
    assert g.president("B&O") == "Carol"
    g.do("par Carol B&O 71")
    assert g.round_kind() == "stock"
    assert g.priority() == "Alice" and g.turn() == "Alice"
