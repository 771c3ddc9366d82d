"""1801 (18OE): the buy-trains step (§11.6; rulesets/1801/train_buying.py): a train from another railroad
paid from the treasury alone, a level sold out before the next, level 8 after the fourth level 7, the
Open Market's cheaper train in a forced purchase (E12), the reserved 2+2 from the Locomotive Works only,
a regional's first-round insolvency (§11.6.5), and Minor J's discount on a price agreed between railroads
as an option (§15.9, D18 #28).
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import (FORCED_TURNS, MINORS, REGIONALS_LEFT, S2X_TURNS, example_lines, kbs_trainless, kept,
                            money_kept, or21, played_to, poor_auction, sr2)
from table_1801 import changes


# ---------------------------------------------------------------- §11.6: trains from the bank and from another railroad

def trainless_kss() -> object:
    """test_1801_merges_rules' FORCED table with one line more: S2X, Ben trades all his cash for
    Ann's RSC, OR 2.1 (Ben £45); WW (Ann's) withholds and buys a 3 (£200: Train Phase 3); GWR buys
    KSS's only train, its 2+2, for £1. KSS (Ben's, trainless, £331) operates: it places its £60 token
    (271) and buys a port authority (£125, §11.3.5): £146."""
    def build():
        t = sr2()
        t.play(S2X_TURNS + FORCED_TURNS)
        for corp in MINORS + REGIONALS_LEFT:
            t.do(f"withhold {corp} 0", f"done {corp}")
        t.play("""
withhold WW 0
train WW 3
done WW
withhold GWR 0
train GWR 2+2 --from KSS --price 1
done GWR
token KSS --slot 4
withhold KSS 0
port-authority KSS north
""")
        return t
    return kept("audit trainless KSS", build)


def test_a_train_from_another_railroad_is_paid_from_the_treasury_alone():
    """§11.6: "Only cash in the purchasing RR's treasury may be used. The purchase price of a train
    from a major, minor, or regional must be a minimum of £1 to a maximum of the purchasing RR's
    entire treasury"; a trainless major's president helps only in a forced purchase from the bank
    (§11.6.4). KSS (£146, no train) may buy WW's 3 for at most £146: at £150 it is refused. (Found:
    the engine let Ben pay the £4 over KSS's treasury.) At £146 KSS pays it all to WW."""
    t = trainless_kss()
    assert t.cash("KSS") == 146 and t.cash("Ben") == 45 and t.trains("KSS") == []
    t.refused("train KSS 3 --from WW --price 150", "§11.6", "£146", "£150")
    before = t.cash()
    t.do("train KSS 3 --from WW --price 146")
    after = t.cash()
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {"KSS": -146, "WW": 146}
    assert t.trains("KSS") == ["3"] and t.trains("WW") == ["2+2"]
    money_kept(t)


def test_a_level_is_sold_out_before_the_next_and_the_refusal_says_so():
    """§11.6: "All un-rusted trains of each level in the Locomotive Works must be sold before the
    first train of the next higher level may be purchased." OR 2.1 (or21), WW's turn, after its run:
    none of the twenty level 3 trains has been bought, so a 4 is refused, the refusal naming the rule
    and the count (it said only "the bank does not sell 4 trains now"); a 3 is sold (£200)."""
    t = or21()
    t.do("pay WW 100")
    t.refused("train WW 4", "§11.6", "level 3", "20 left")
    before = t.cash("WW")
    t.do("train WW 3")
    assert t.cash("WW") == before - 200


def test_level_8_is_on_sale_once_the_fourth_level_7_is_bought():
    """§11.6: "Level 8 trains may be purchased after the fourth level 7 train is purchased" (§5.2).
    examples/1801-game.txt at LNWR's turn in OR 8.1 (£1,064, one 4): three level 7 trains have been
    bought (BEL, GWR, KBS), ten are left. An 8+8 or a 5D is refused, the refusal naming the rule and
    the count. LNWR buys the fourth 7+7 (£750: 314 left); the Locomotive Works now offers level 8
    beside level 7. (Found: the refusal said only "the bank does not sell 8 trains now", and the
    status's trains for sale left level 8 out after the fourth level 7.)"""
    lines = example_lines()
    t = Table("\n".join(lines[:lines.index("train LNWR 7+7")]))
    assert t.round() == "OR 8.1" and t.state.round["corp"] == "LNWR"
    assert t.cash("LNWR") == 1064 and t.trains("LNWR") == ["4"]
    assert t.status()["trains_for_sale"] == ["7+7 at £750 / 4D at £850"]
    t.refused("train LNWR 8+8", "§11.6", "4 level 7", "3 so far")
    t.refused("train LNWR 5D", "§11.6", "3 so far")
    t.do("train LNWR 7+7")
    assert t.cash("LNWR") == 314 and t.trains("LNWR") == ["4", "7+7"]
    offer = t.status()["trains_for_sale"]
    assert offer[0] == "7+7 at £750 / 4D at £850"
    assert offer[1].startswith("8+8 at £900 / 5D at £1000")


# ------------------------------------------------------------- §11.6.1, §11.6.3, §11.6.4: E12, the Open Market's trains

def test_e12_a_forced_purchase_takes_the_open_markets_cheaper_train():
    """E12 / §11.6.4: "When a major must force buy a train, it will always purchase the lowest cost,
    un-rusted train available in either the Locomotive Works or the Open Market"; §11.6.3: un-rusted
    discarded trains "are available for purchase by any RR at face value". (Found: the engine named
    the Open Market's 2+2 as the cheapest train, refused to sell it (only reserved 2+2s) and refused
    the 3 with the president's help: KBS could neither buy nor end its turn.) KBS (£50, no train)
    may not take the Locomotive Works' 3 (£200) with Cy's help: the refusal names the rule and both
    prices. It buys the Open Market's 2+2 for £100: KBS pays its 50, Cy the other 50, the bank + 100.
    Its turn then ends."""
    t = kbs_trainless()
    t.refused("train KBS 3", "§11.6.4", "the 2+2 in the pool for £100", "£200")
    before = t.cash()
    t.do("train KBS 2+2 --from pool")
    assert changes(before, t.cash()) == {"KBS": -50, "Cy": -50, "bank": 100}
    assert t.trains("KBS") == ["2+2"]
    assert len([x for x in t.status()["pool_trains"] if "2+2" in str(x)]) == 1
    t.do("done KBS")
    assert t.status()["operating"] == "WW"
    money_kept(t)


def test_a_reserved_2p2_still_comes_from_the_locomotive_works_only():
    """§11.6.1 / D18 #46: the Locomotive Works sells its 2+2s only as reserved trains; a company with
    a train may buy the Open Market's 2+2 at its face (§11.6.3) but not a Locomotive Works 2+2.
    kbs_trainless's LNWR turn: LNWR (£340 after withholding 80, one 2+2) buys the Open Market's 2+2
    for £100 (240, bank + 100); a 2+2 from the Locomotive Works is refused, naming the rule."""
    lines = example_lines()
    t = Table("\n".join(lines[:lines.index("pay BHB 460") + 2]))
    t.do("withhold LNWR 80")
    t.refused("train LNWR 2+2", "reserved", "§11.6.1", "Open Market")
    before = t.cash()
    t.do("train LNWR 2+2 --from pool")
    assert changes(before, t.cash()) == {"LNWR": -100, "bank": 100}
    assert t.trains("LNWR") == ["2+2", "2+2"]
    money_kept(t)


# ------------------------------------------------------------------------- §11.6.5: a regional's first-round insolvency

# The POOR opening with Ann's SML bid at £1130 (she ends the auction with 1260 - 1130 = £130), her
# concession C2 floating B in Russia (£10: B keeps 110, so her minors need no top-up) and, in SR 1,
# her par of GWR at £60 (§9.2: 2 x 60 = 120 from Ann, 130 -> 10; the UK home token £40: GWR 80).
# SR 1: Ann floats L, Ben M, Cy passes, Ann pars GWR, then all pass: Ann acted last, Ben is first in SR 2.
POOR_REGIONAL = poor_auction(1130).replace("float Ann B UK ", "float Ann B RU ").replace(
    "pass Cy\npass Ann\npass Ben", "pass Cy\npar Ann GWR 60\npass Ben\npass Cy\npass Ann")


def test_a_regionals_first_round_insolvency_pays_twice_par_and_sells_for_it_plus_the_shortfall():
    """§11.6.5 for a regional: GWR (£80) lays a £30 tile (50) and places its £20 token (30). Its
    reserved 2+2 costs £100: 30 + Ann's 10 < 100, so the token is refunded (50), then the tile (80);
    80 + 10 = 90 < 100 still: Ann's £10 goes to GWR, which receives its 2+2 and pays the bank its 90
    (D 12.14 [I]; the debt D = 100 - 90 = £10); the 50 % president's certificate goes to the Open
    Market and the bank pays Ann its face, 2 x par = £120 (§11.6.5 step 2). GWR was the last to
    operate: OR 1.2 begins and pays its income (Ben 70, Cy 50, K's mail 20, Ann's SML nothing).
    So: Ann 10 -> 120 (+110), GWR 80 -> 0, the bank + 90 - 120 - 140 = -170.
    GWR does not operate in OR 1.2 (nobody owns it, step 3). In SR 2 Ben buys it as a stock action
    for face + D = 120 + 10 = £130, paid to the bank (D 18 #31); he presides with the 50 %, the two
    secondaries still in its treasury; GWR restarts with £0."""
    t = Table(POOR_REGIONAL)
    assert t.round() == "OR 1.1"
    assert (t.cash()["Ann"], t.cash()["GWR"]) == (10, 80)
    t.do("choose Ben normal")
    for corp in MINORS:
        t.attempt(f"withhold {corp} 0")
        t.do(f"train {corp} 2+2", f"done {corp}")
    assert t.status()["operating"] == "GWR"
    before = t.cash()
    t.do("tile GWR 30", "token GWR")
    assert t.cash()["GWR"] == 30
    t.do("train GWR 2+2")
    assert changes(before, t.cash()) == {"Ann": 110, "GWR": -80, "Ben": 70, "Cy": 50, "K": 20, "bank": -170}
    assert t.round() == "OR 1.2"
    assert t.trains("GWR") == ["2+2"]
    assert t.holdings("GWR") == {"Ann": 0, "Ben": 0, "Cy": 0, "ipo": 50, "pool": 50}
    assert t.status()["insolvent"] == {"GWR": 10}
    t.do("choose Ben normal")
    for corp in MINORS:
        t.do(f"withhold {corp} 0", f"done {corp}")
    assert t.round() == "SR 2" and t.turn() == "Ben"      # GWR was skipped
    before = t.cash()
    t.do("buy Ben GWR")
    assert changes(before, t.cash()) == {"Ben": -130, "bank": 130}
    assert t.holdings("GWR") == {"Ann": 0, "Ben": 50, "Cy": 0, "ipo": 50, "pool": 0}
    assert t.president("GWR") == "Ben" and t.cash()["GWR"] == 0
    assert not t.status()["insolvent"]
    money_kept(t)


# --------------------------------------------------------------------------- §15.9, D18 #28: Minor J's discount on a deal

def test_minor_js_discount_on_a_price_agreed_between_railroads_is_an_option():
    """§15.9, D18 #28: by default Minor J's 10 % is off the Locomotive Works' and the Open Market's
    prices only; with the option j_discount_on_deals also off a price agreed with another railroad
    (MZA, which absorbed J, agreeing £100 for a train: £10 off)."""
    import importlib
    from types import SimpleNamespace

    from ledger import catalog
    from ledger.core.command import Command
    train_buying = importlib.import_module("rulesets.1801.train_buying")
    bank, _rest = played_to("choose Ann cash")
    s = bank.table.state
    deal = Command("train", {"corp": "MZA", "type": "3", "source": "BHB", "price": 100})
    for options, off in (({}, 0), ({"j_discount_on_deals": True}, 10)):
        ctx = SimpleNamespace(state=s, rs=catalog.load("1801", options=options))
        assert train_buying.train_discount(ctx, "MZA", "3", "company:BHB", deal) == off
        assert train_buying.train_discount(ctx, "BHB", "3", "company:MZA", deal) == 0   # BHB has no Minor J


def test_with_js_discount_on_deals_the_offered_prices_run_past_the_treasury():
    """§11.6 with D18 #28's option: a railroad owning Minor J's discount pays an agreed price less
    10 % from its treasury alone, so the prices the answer offers it reach past its cash; without
    the discount they stop at its cash."""
    import importlib

    from ledger import catalog
    from ledger.core.plays import Bounds
    from ledger.core.state import company_acct
    train_buying = importlib.import_module("rulesets.1801.train_buying")
    bank, _rest = played_to("choose Ann cash")
    s = bank.table.state
    for options, past in (({}, False), ({"j_discount_on_deals": True}, True)):
        rs = catalog.load("1801", options=options)
        shared = lambda s, rs, corp, args: Bounds(1, 5000, needed=True)   # a range the rule narrows
        prices = train_buying.agreed_prices(shared)
        span = prices(s, rs, "MZA", {"source": "BHB"})
        assert (span.high > s.cash(company_acct("MZA"))) is past, (options, span)
        assert prices(s, rs, "BHB", {"source": "MZA"}).high == max(1, s.cash(company_acct("BHB")))   # no Minor J
