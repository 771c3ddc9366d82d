"""1801 (18OE): a third audit of the bank against the rulebook, on the parts two audits left: the
Open Market's cap on a president's sale (E7), the Open Market's cheaper train in a forced purchase
(E12), nationals' shares and the Open Market, Pullmans outside the majors, and the end.

Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases; its corrections 0.1 override
the rest). Each test checks a rule test_1801_audit.py and test_1801_audit2.py did not. The positions
are book_tables_1801's (sr2, or31_first_4) and cuts of examples/1801-game.txt, on the engine Table.
"""

from __future__ import annotations

from book_tables_1801 import example_lines, sr2
from conftest import Table


def changes(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def money_kept(t) -> None:
    """Money is only moved (§3.1: the bank's £54,000 and the remainder cash)."""
    assert sum(t.state.balances.values()) == t.money_at_start


def example_until(line: str, *, last_before: int | None = None, after: int = 0) -> Table:
    """examples/1801-game.txt played up to (not including) `line`'s last occurrence before the
    line number `last_before` (the first occurrence when None), plus `after` lines."""
    lines = example_lines()
    stop = len(lines) if last_before is None else last_before
    at = max(i for i, x in enumerate(lines[:stop]) if x == line) if last_before is not None else lines.index(line)
    return Table("\n".join(lines[:at + after]))


# =========================================================================== §10.1, §10.3: E7

# SR 2 (sr2, Ann first; WW is Ann's regional at par 90 with Ben's and Cy's 25 % secondaries). Ann
# expands WW (§9.3): REGIONAL 90 -> MAJOR 120 (D 5.2: F), its marker on the par square (0,2) £120;
# Ann 20 % (the president's), Ben 10 %, Cy 10 %, the treasury 60 % (six new shares). Treasury shares
# sell at the major par £120 in this SR (§10.7).
E7_OPENING = """
expand Ann WW
buy Ann WW
buy Ben WW
buy Cy WW
buy Ann WW
"""


def test_e7_the_open_market_cap_keeps_a_tied_president_in_office():
    """E7 / §10.1 / §10.3: after E7_OPENING Ann 40 % (the 20 % certificate and two 10 %), Ben 20 %,
    Cy 20 %, the treasury 20 %. Ben buys one more (30 %, treasury 10 %); Cy and Ann pass; Ben sells
    his three: the Open Market holds 30 %, £120 x 3 = £360 to Ben and DOWN x 3: (3,2) £90 (§4.4).
    Cy passes. Ann may not sell 3 (the Open Market would hold 60 % > 50 %): the refusal names the cap
    and the figures. She sells 2 at £90 = £180 (the Open Market at 50 %, DOWN x 2: (5,2) £75) and
    keeps 20 %, as Cy has: Cy does not hold *more*, so Ann stays president with her 20 % certificate."""
    t = sr2()
    t.do(E7_OPENING, "buy Ben WW", "pass Cy", "pass Ann")
    before = t.cash()
    t.do("sell Ben WW 3")
    assert changes(before, t.cash()) == {"Ben": 360, "bank": -360}
    assert t.holdings("WW") == {"Ann": 40, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 30}
    assert (t.cell("WW"), t.price("WW")) == ((3, 2), 90)
    t.do("pass Cy")
    t.refused("sell Ann WW 3", "pool limit 50%", "30%", "60%", "at most 2 shares")
    before = t.cash()
    t.do("sell Ann WW 2")
    assert changes(before, t.cash()) == {"Ann": 180, "bank": -180}
    assert t.holdings("WW") == {"Ann": 20, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 50}
    assert (t.cell("WW"), t.price("WW")) == ((5, 2), 75)
    assert t.president("WW") == "Ann" and t.cert_percents("Ann", "WW") == [20]
    money_kept(t)


def test_e7_with_room_in_the_open_market_the_president_sells_the_presidency_away():
    """E7's second case / §10.3: after E7_OPENING (Ann 40 %, Ben 20 %, Cy 20 %, treasury 20 %) Ben
    sells his two: the Open Market 20 %, Ben + £240, DOWN x 2: (2,2) £100. Cy passes. Ann sells 3 at
    £100 = £300 (the Open Market reaches 50 %): first the certificates swap (Ann gives Cy the 20 %
    for his two 10 %), then three 10 % go to the Open Market; Ann keeps 10 %, Cy presides with 20 %.
    DOWN x 3: (5,2) £75."""
    t = sr2()
    t.do(E7_OPENING)
    before = t.cash()
    t.do("sell Ben WW 2")
    assert changes(before, t.cash()) == {"Ben": 240, "bank": -240}
    assert t.holdings("WW") == {"Ann": 40, "Ben": 0, "Cy": 20, "ipo": 20, "pool": 20}
    assert (t.cell("WW"), t.price("WW")) == ((2, 2), 100)
    t.do("pass Cy")
    before = t.cash()
    t.do("sell Ann WW 3")
    assert changes(before, t.cash()) == {"Ann": 300, "bank": -300}
    assert t.holdings("WW") == {"Ann": 10, "Ben": 0, "Cy": 20, "ipo": 20, "pool": 50}
    assert t.president("WW") == "Cy"
    assert (t.cert_percents("Ann", "WW"), t.cert_percents("Cy", "WW")) == ([10], [20])
    assert (t.cell("WW"), t.price("WW")) == ((5, 2), 75)
    money_kept(t)


# =========================================================================== §11.6.3, §11.6.4: E12

def kbs_trainless() -> Table:
    """examples/1801-game.txt in OR 4.1 (Train Phase 3), at LNWR's turn: in SR 4 MZA and BHB
    discarded a 2+2 each to the Open Market (un-rusted: for sale at face, £100, §11.6.3); the
    Locomotive Works offers the 3 (£200) and 3+3 (£225). LNWR (Ben, £260) withholds 80 (340) and
    buys Cy's KBS's only train, its 2+2, for £1 (339; KBS 260 + 1 = 261). KBS lays a tile with a
    £211 terrain fee (50) and runs nothing: £0 withheld, LEFT (3,2) £90 -> (3,1) £80."""
    lines = example_lines()
    t = Table("\n".join(lines[:lines.index("pay BHB 460") + 2]))
    assert t.status()["operating"] == "LNWR" and t.round() == "OR 4.1"
    assert (t.cash()["LNWR"], t.cash()["KBS"], t.cash()["Cy"]) == (260, 260, 1203)
    t.do("withhold LNWR 80", "train LNWR 2+2 --from KBS --price 1", "done LNWR")
    t.do("tile KBS 211", "withhold KBS 0")
    assert (t.cash()["KBS"], t.trains("KBS"), t.cell("KBS"), t.price("KBS")) == (50, [], (3, 1), 80)
    return t


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


def test_a_port_authority_the_treasury_cannot_pay_is_refused_with_the_rule():
    """§11.3.5: a port authority costs £125 from the major's treasury, before its train step. KBS
    (kbs_trainless: £50) may not buy one; the refusal names the rule and both figures."""
    t = kbs_trainless()
    t.refused("port-authority KBS north", "KBS has £50", "£125", "§11.3.5")


# =========================================================================== §10.1, §10.7: nationals

def sr9() -> Table:
    """examples/1801-game.txt at SR 9 (Train Phase 8, the final sequence), Ann first. Three nationals
    (formed at the first 6, §9.4): MSP Ben 40 %, the Open Market 60 % (its treasury shares went there
    at formation: the 50 % cap passed for a while, §10.1) at (4,7) £135; BHB Ben 30 %, Cy 60 %, the
    Open Market 10 % at (2,12) £280; MZA Ann 60 %, Ben 10 %, Cy 30 % at (0,16) £550."""
    lines = example_lines()
    t = Table("\n".join(lines[:max(i for i, x in enumerate(lines[:1000]) if x == "pass Ann")]))
    assert t.round() == "SR 9" and t.turn() == "Ann"
    assert t.holdings("MSP") == {"Ann": 0, "Ben": 40, "Cy": 0, "ipo": 0, "pool": 60}
    assert t.holdings("BHB") == {"Ann": 0, "Ben": 30, "Cy": 60, "ipo": 0, "pool": 10}
    assert t.holdings("MZA") == {"Ann": 60, "Ben": 10, "Cy": 30, "ipo": 0, "pool": 0}
    assert [t.cell(c) for c in ("MSP", "BHB", "MZA")] == [(4, 7), (2, 12), (0, 16)]
    return t


def test_a_nationals_shares_past_the_cap_stay_unsold_and_a_sold_out_national_moves_up():
    """§10.1: "The player may not sell any shares that would result in over 50% of the stock of a
    major or national being in the Open Market"; the formation's excess does not lift it. §10.2: an
    Open Market share costs the share value, paid to the bank. §10.7: a national with no share in
    the Open Market moves UP at the end of the SR, highest value first (§4.4: in the top row RIGHT;
    at £550 nothing). SR 9: Ann buys BHB's Open Market share for £280 (bank + 280); Ben may not sell
    an MSP share (the Open Market's 60 % would become 70 %): the refusal names the cap and figures.
    Everyone passes: MZA (sold out, (0,16) £550) stays; BHB (sold out) UP (2,12) -> (1,12) £310;
    MSP (60 % in the Open Market) stays at (4,7) £135."""
    t = sr9()
    before = t.cash()
    t.do("buy Ann BHB")
    assert changes(before, t.cash()) == {"Ann": -280, "bank": 280}
    t.refused("sell Ben MSP 1", "pool limit 50%", "60%", "70%")
    t.do("pass Ben", "pass Cy", "pass Ann")
    assert t.round() == "OR 9.1"
    assert [(t.cell(c), t.price(c)) for c in ("MZA", "BHB", "MSP")] == [((0, 16), 550), ((1, 12), 310), ((4, 7), 135)]
    money_kept(t)


def test_a_national_buys_no_pullman_and_its_own_rides_its_highest_train():
    """§11.6.2: "Every national is considered to own an inherent Pullman as printed on its charter";
    §11.3.10: it rides the highest level train. OR 9.1 from sr9 (everyone passes): MZA, a national
    (3+3, 3+3, 5), may not buy a Pullman (the refusal names the rule). It runs by capacity (D 12.6):
    3 + 3 + 5 = 11 cities, 3 + 3 = 6 towns; linked cities 60, 50, 40 (150), towns 20, 10 (30); left
    11 - 3 - 1 unlinked = 7 cities at £60 = 420 and 6 - 2 - 1 = 3 towns at £10 = 30; the Pullman on
    the 5: £50. 150 + 30 + 420 + 30 + 50 = £680, in full (§11.4): Ann 60 % 408, Ben 10 % 68, Cy 30 %
    204; bank - 680. 680 >= 550: RIGHT, but at £550 nothing moves (§4.4)."""
    t = sr9()
    t.do("pass Ann", "pass Ben", "pass Cy")
    assert t.status()["operating"] == "MZA" and t.trains("MZA") == ["3+3", "3+3", "5"]
    t.refused("pullman MZA", "national", "§11.6.2")
    before = t.cash()
    t.do("run MZA --cities 60,50,40 --towns 20,10 --unlinked-cities 1 --unlinked-towns 1")
    assert changes(before, t.cash()) == {"Ann": 408, "Ben": 68, "Cy": 204, "bank": -680}
    assert (t.cell("MZA"), t.price("MZA")) == ((0, 16), 550)
    money_kept(t)


# =========================================================================== §11.6.2: Pullmans

def idle_until(t: Table, done) -> None:
    """Every company withholds £0 and ends its turn, every player passes in a stock round, Ann keeps
    Minor C's place, until `done()`."""
    while not done():
        if t.round().startswith("SR"):
            assert any(t.attempt(f"pass {p}") is None for p in ("Ann", "Ben", "Cy"))
            continue
        corp = t.status()["operating"]
        err = t.attempt(f"withhold {corp} 0")
        if err and "choose" in err:
            t.do("choose Ann normal")
            continue
        assert err is None, err
        t.do(f"done {corp}")


def test_a_regional_at_its_train_limit_buys_a_pullman_and_runs_it():
    """§11.6.2: from Train Phase 4 "a RR may purchase a Pullman car from Minor M" (any railroad, not
    only majors); "A Pullman does not count against a RR's train limit" (a regional's is 1 in Phase 4,
    §5.2). or31_first_4, nobody converts; OR 3.2: Ann's regional PLM (£400, one 3) buys a Pullman:
    £150 to the bank, £15 royalty to Minor M (Ann's, unmerged): PLM - 150, M + 15, bank + 135.
    OR 4.1: PLM runs its 3 for £100 with the Pullman on it: + £10 x 3 = £130, paid in full (§11.4):
    Ann's 50 % £65, PLM's own two 25 % (one recipient, D 12.7) £65; bank - 130."""
    from book_tables_1801 import or31_first_4
    t = or31_first_4()
    t.do("decline Ben", "decline Cy", "decline Ann", "done KSS")
    idle_until(t, lambda: t.round() == "OR 3.2" and t.status()["operating"] == "PLM")
    assert (t.company("PLM")["kind"], t.cash()["PLM"], t.trains("PLM")) == ("regional", 400, ["3"])
    t.do("withhold PLM 0")
    before = t.cash()
    t.do("pullman PLM")
    assert changes(before, t.cash()) == {"PLM": -150, "M": 15, "bank": 135}
    t.do("done PLM")
    idle_until(t, lambda: t.round() == "OR 4.1" and t.status()["operating"] == "PLM")
    before = t.cash()
    t.do("pay PLM 100 --pullman 3")
    assert changes(before, t.cash()) == {"Ann": 65, "PLM": 65, "bank": -130}
    money_kept(t)


# =========================================================================== §13: the end

def test_the_bank_breaking_in_the_second_or_of_a_set_ends_the_game_with_that_or():
    """§13: "if the bank runs out of money during an OR prior to the purchase of the first level 8
    train, finish only the current OR ... Use the remainder cash as needed." The example at OR 5.2
    (Train Phase 4), WW last to operate, the bank at £38,448: WW withholds £38,540 (the table's
    figure past the bank's ceiling, --force): the bank breaks, the remainder cash (£100,000, D18 #9)
    keeps it paying: 38,448 - 38,540 + 100,000 = £99,908. WW buys the first 5 (Train Phase 5) and
    ends its turn: OR 5.2 was the last; no SR 6 (the Consolidation round) is played; the score is
    open and every other command refused."""
    lines = example_lines()
    t = Table("\n".join(lines[:max(i for i, x in enumerate(lines) if x == "withhold WW 310")]))
    assert (t.round(), t.status()["operating"], t.bank()) == ("OR 5.2", "WW", 38448)
    t.do("withhold WW 38540 --force --reason table-figure")
    assert t.status()["bank_broken"] and not t.status()["game_over"]
    assert t.bank() == 99908
    t.do("train WW 5")
    count = len(t.events)
    t.do("done WW")
    assert t.status()["game_over"] and t.round() == "Game over"
    assert not [e for e in t.events[count:] if e["kind"] == "round_started"]
    t.refused("pass Ben", "game is over")
    assert set(t.score()) == {"Ann", "Ben", "Cy"}
