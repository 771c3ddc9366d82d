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
