"""Third audit of 1830 against its rulebook (SEED seeds/004_cc778651230d70e7.txt; digest rules/1830.md,
where SEED is silent the 18xx.games behaviour it records): the title's own machinery section by
section, figures worked by hand. Positions are conftest's 1830 openings; `adjust` (a logged
correction) sets a treasury or a purse where a scenario needs one.
"""

from __future__ import annotations

from conftest import Table, chain_1830, opening_1830, sr1_1830

from ledger.core.rules import shares

SIX = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]


def finish_round(g) -> None:
    number = g.state.round["number"]
    while g.round_kind() == "stock" and g.state.round["number"] == number:
        g.do(f"pass {g.turn()}")


def run_ors(g) -> None:
    while g.round_kind() == "operating":
        g.do(f"done {g.state.round['corp']} --no-route")


def to_turn(g, who: str) -> None:
    while g.turn() != who:
        g.do(f"pass {g.turn()}")


def cert_count(g, player: str) -> int:
    return shares.cert_count(g.state, g.rs, player)


# --------------------------------------------------------------------------- over a limit (§7.6)

def carol_over_60_in_yellow():
    """Carol holds 70 % of NYC, bought while NYC was orange, and NYC has paid back into yellow
    (5,2) $42 -> (5,3) $50, where the 60 % limit holds again (digest §6.2, §7.4). SR 6, her turn."""
    g = sr1_1830()
    g.do("par Carol NYC 67")
    for _ in range(4):
        for p in ("Dave", "Alice", "Bob"):
            g.do(f"pass {p}")
        g.do("buy Carol NYC")
    finish_round(g)
    g.do("train NYC 2", "done NYC")              # OR 1.1 runs for $0 first: (5,6) -> (5,5)
    for _ in range(3):                           # (5,4), (5,3), (5,2) orange
        finish_round(g)
        g.do("withhold NYC 0", "done NYC")
    to_turn(g, "Carol")
    g.do("buy Carol NYC")                        # orange lifts the limit: 70 %
    g.refused("buy Carol NYC", "one certificate per turn", "brown")   # but not the one buy a turn
    finish_round(g)
    g.do("pay NYC 20", "done NYC")               # (5,2) -> (5,3) $50 yellow
    to_turn(g, "Carol")
    assert g.pct("Carol", "NYC") == 70 and g.cell("NYC") == (5, 3)
    return g


def test_over_60_percent_a_player_may_only_sell_at_his_turn():
    # digest §7.6 / §14 #12 (SEED silent; R18 must_sell?: only a sale is offered): "must sell down at
    # next SR turn before anything else" -- no buying, and no passing while a sale is legal. One NYC
    # share at $50 brings her to 60 %: (5,3) -> (6,3) $45, and then she may pass.
    g = carol_over_60_in_yellow()
    g.refused("pass Carol", "70% of NYC", "60% limit", "sell Carol NYC 1")
    g.refused("buy Carol B&O", "70%", "must sell before buying")
    carol = g.cash("Carol")
    g.do("sell Carol NYC 1")
    assert g.cash("Carol") == carol + 50 and g.price("NYC") == 45 and g.pct("Carol", "NYC") == 60
    g.do("pass Carol")
    assert g.turn() == "Dave"


def six_players_ann_over_the_certificate_limit():
    """6 players, limit 11 (digest §1). Each buys one private in seat order (Ann SV ... Flo BO, par
    B&O 67); Ann, given $1000 more, holds SV + NYC 60 % (5 certs) + the C&O president's cert + ERIE
    40 % (4 certs) = 11. Ben buys three C&O shares: 30 % > 20 %, he takes the chair and Ann gets
    two 10 % certs for her president's cert (digest §11): 12 certificates, over the limit."""
    g = Table(title="1830", players=SIX)
    for who, sym in zip(SIX, ["SV", "CS", "DH", "MH", "CA", "BO"]):
        g.do(f"buy {who} {sym}")
    g.do("par Flo B&O 67", "adjust bank Ann 1000 --reason 'test position'")
    assert g.status()["cert_limit"] == 11 and g.turn() == "Ann"
    ann = ["par Ann NYC 67"] + ["buy Ann NYC"] * 4 + ["par Ann C&O 67", "par Ann ERIE 67"] + ["buy Ann ERIE"] * 3
    for i, line in enumerate(ann):
        g.do(line)
        for p in SIX[1:]:
            g.do("buy Ben C&O" if p == "Ben" and i >= 7 else f"pass {p}")
    assert g.president("C&O") == "Ben" and g.cert_percents("Ann", "C&O") == [10, 10]
    assert cert_count(g, "Ann") == 12
    return g


def test_over_the_certificate_limit_a_player_may_only_sell_at_his_next_turn():
    # digest §7.6 (R18): no selling in SR 1, so the round goes on; at her SR 2 turn Ann may neither
    # buy nor pass until she is back at 11. NYC ran for $0 in OR 1.1: (5,6) -> (5,5) $65.
    g = six_players_ann_over_the_certificate_limit()
    # in SR 1 she can sell nothing: she is not told to sell first (R18 must_sell? needs a legal sale);
    # a purchase meets the limit itself, and she may pass
    line = g.refused("buy Ann B&O", "certificate limit 11 reached: Ann holds 12")
    assert "must sell" not in line
    finish_round(g)
    run_ors(g)
    to_turn(g, "Ann")
    g.refused("pass Ann", "12 certificates", "limit 11", "must sell down")
    g.refused("buy Ann B&O", "12 certificates", "must sell before buying")
    from ledger.core import legal
    assert legal.choices(g.state, g.rs, "buy", "Ann", "item") is None     # nor offered on the Next line
    assert legal.choices(g.state, g.rs, "sell", "Ann", "corp")
    ann = g.cash("Ann")
    g.do("sell Ann NYC 1")
    assert g.cash("Ann") == ann + 65 and cert_count(g, "Ann") == 11
    g.do("pass Ann")


# --------------------------------------------------------------------------- selling (§6.4, §14 #11)

def test_two_sales_of_one_company_in_a_turn_each_at_the_price_then():
    # digest §6.4 / §14 #11 (R18; SEED states no price): one sale of n shares is paid at the price
    # before it; a second sale action is paid at the price the first left. SR 2, PRR (3,5) $71:
    # Alice's two shares as one sale: 2 x 71 = $142, (3,5) -> (5,5) $65; as two sales: 71 + 67 = $138.
    g = chain_1830("sr2")
    assert g.turn() == "Alice" and g.price("PRR") == 71 and g.pct("Alice", "PRR") == 20
    one, two = g.copy(), g.copy()
    alice = g.cash("Alice")
    one.do("sell Alice PRR 2")
    two.do("sell Alice PRR 1", "sell Alice PRR 1")
    assert (one.cash("Alice"), one.price("PRR")) == (alice + 142, 65)
    assert (two.cash("Alice"), two.price("PRR")) == (alice + 71 + 67, 65)


# --------------------------------------------------------------------------- the operating round (§6.5, §10)

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


# --------------------------------------------------------------------------- privates (§3.1, §3.2)

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


# --------------------------------------------------------------------------- the score (§12)

def test_equal_net_worths_share_a_rank():
    # digest §12: highest net worth wins, no tie-break rule (R18 lists ties in value order). OR 1.1
    # (PRR $76, NYC $67, B&O $67; privates at face): Carol $125 + PRR 2 x 76 + NYC 3 x 67 + B&O 67 +
    # DH 70 = $615; Dave $233 + PRR 76 + NYC 2 x 67 + B&O 67 + MH 110 = $620; he hands $5 to the bank.
    from ledger.interface import views
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
    from ledger.interface import views
    bob = next(r for r in views.score_json(g.state, g.rs)["players"] if r["name"] == "Bob")
    assert (bob["shares"], bob["privates"], bob["value"]) == (20, 40 + 220, 280)


def test_a_company_buying_ca_gets_no_prr_share():
    # digest §14 #16: only the auction purchase of CA hands over the PRR share. OR 2.1 (phase 3): PRR
    # buys CA from Alice for $159 (within $80-$320); the PRR holdings do not change.
    g = chain_1830("or2.1")
    before = g.holdings("PRR")
    alice = g.cash("Alice")
    g.do("buy-private PRR CA 159")
    assert g.owner("CA") == "PRR" and g.cash("Alice") == alice + 159
    assert g.holdings("PRR") == before


def test_a_stock_round_where_nobody_acts_leaves_the_priority_where_it_was():
    # digest §7.1: "If nobody acted, the holder keeps it." SR 2 starts with Alice (left of Dave, SR 1's
    # last buyer); all four pass: OR 2.1 follows and SR 3 starts with Alice again.
    g = chain_1830("sr2")
    assert g.turn() == "Alice"
    finish_round(g)
    assert g.round_kind() == "operating" and g.priority() == "Alice"


def test_a_president_dumps_only_as_far_as_the_pool_limit_allows():
    # SEED "Selling" / digest §7.3, §11. SR 2: Alice, Bob and Dave buy NYC's last three IPO shares
    # (Dave 30 % ties Carol's 30 %: she stays president). Alice sells 2 at $65 ((5,5) -> (7,5) $60),
    # Bob 2 at $60 (-> (9,5) $40): the pool holds 40 %. Carol may not sell 2 (pool 60 % > 50 %); she
    # sells 1 at $40 (-> (10,5) $30) and keeps 20 %, less than Dave's 30 %: Dave takes the chair,
    # handing Carol two 10 % certs for her president's cert; the pool holds exactly 50 %.
    g = chain_1830("sr2")
    g.do("buy Alice NYC", "buy Bob NYC", "pass Carol", "buy Dave NYC")
    assert g.president("NYC") == "Carol" and g.pct("Dave", "NYC") == 30
    g.do("sell Alice NYC 2", "pass Alice", "sell Bob NYC 2", "pass Bob")
    assert g.pct("pool", "NYC") == 40 and g.price("NYC") == 40
    g.refused("sell Carol NYC 2", "pool limit 50%", "holds 40% of NYC", "60%", "at most 1 share")
    carol = g.cash("Carol")
    g.do("sell Carol NYC 1")
    assert g.cash("Carol") == carol + 40 and g.cell("NYC") == (10, 5) and g.price("NYC") == 30
    assert g.president("NYC") == "Dave"
    assert g.cert_percents("Carol", "NYC") == [10, 10] and g.cert_percents("Dave", "NYC") == [20, 10]
    assert g.pct("pool", "NYC") == 50


def test_bo_stays_with_its_owner_when_he_loses_the_bando_chair_and_closes_on_bandos_first_train():
    # digest §3.1 / SEED P6: "If the player later loses the B&O presidency, BO stays with that
    # player"; BO closes when the railroad buys its first train. SR 1: Carol buys three B&O shares
    # (30 % > Bob's 20 %): she takes the chair, Bob gets two 10 %s; Dave's share floats B&O (60 %).
    # OR 1.1 pays Bob CS $10 + BO $30 (600 - 40 - 220 + 40 = $380); B&O buys a 2: BO closes, Bob's.
    g = sr1_1830()
    g.do("buy Carol B&O", "pass Dave", "pass Alice", "pass Bob", "buy Carol B&O", "pass Dave", "pass Alice",
         "pass Bob", "buy Carol B&O")
    assert g.president("B&O") == "Carol" and g.owner("BO") == "Bob"
    assert g.cert_percents("Bob", "B&O") == [10, 10] and g.cert_percents("Carol", "B&O") == [20, 10]
    g.do("buy Dave B&O")
    assert g.state.corps["B&O"].floated
    finish_round(g)
    assert g.state.round["corp"] == "B&O" and g.cash("Bob") == 380
    g.do("train B&O 2")
    assert g.state.privates["BO"].closed and g.owner("BO") == "Bob"
