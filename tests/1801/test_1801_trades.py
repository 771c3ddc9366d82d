"""1801 (18OE): trades between players (§10.4; rulesets/1801/trades.py) and the certificate limit (§4.1): a
trade past the limit refused by default, let pass until the next turn by the option trade_over_limit, as
`bank info` states. sr2(): Ben holds PC SHTC HML (3 privates), minors A D G K (4 charters), the presidencies
of GWR OU SB SFR RCP MSP and a 25 % of KSS and of WW (8 regional certificates, one each, §4.1): 15
certificates; Cy 15 too, Ann 14. The Game Limits chart's 48 [S] is far off; the rule is the same at any
number, so the table's limit is set to 15 here (as a table with its own chart would). Ann passes first.
Every figure is worked by hand in the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt,
"§x") and the digest (shared/rules/1801.md, "D x", "E n" its edge cases, "D18 #n" its readings; its
corrections 0.1 override the rest); a test that found a discrepancy says so. Positions: positions_1801.py,
on the engine Table (tests/conftest.py).
"""

from __future__ import annotations

from conftest import Table
from positions_1801 import sr2, sr2_with
from table_1801 import changes


def at_the_limit(t: Table) -> Table:
    assert (t.certs("Ann"), t.certs("Ben"), t.certs("Cy")) == (14, 15, 15)
    t.state.cert_limit = 15
    t.do("pass Ann")
    return t


def test_a_trade_past_the_limit_is_refused_by_default():
    """§4.1 'the number of these items that a player may own' (D18 #42): the bank refuses Ben's
    trade for Ann's Minor C at the limit, nothing changed."""
    t = at_the_limit(sr2())
    t.refused("trade Ben C 200", "certificate limit 15", "§4.1")
    assert t.certs("Ben") == 15


def test_the_trade_over_limit_option_lets_a_trade_pass_the_limit_until_the_next_turn():
    """The other reading of §4.1 (option trade_over_limit): a trade may take the buyer over the
    limit; 'a player who has more certificates than the limit allows must correct this at the first
    possible opportunity during a SR': Ben buys C from Ann for £200 (Ben -200, Ann +200; Ben 16 of
    15). Cy and Ann pass; at Ben's next turn he may not pass nor trade again while over; he closes
    PC (§6.1: face down, it no longer counts): 15, and passes."""
    t = at_the_limit(sr2_with("trade_over_limit"))
    before = t.cash()
    t.do("trade Ben C 200")
    assert changes(before, t.cash()) == {"Ben": -200, "Ann": 200}
    assert t.certs("Ben") == 16
    t.do("pass Cy", "pass Ann")
    t.refused("pass Ben", "16 certificates", "limit 15", "§4.1")
    t.refused("trade Ben F 10", "§4.1")
    t.do("close Ben PC")
    assert t.certs("Ben") == 15
    t.do("pass Ben")


def test_the_trade_over_limit_option_is_stated_in_bank_info():
    from ledger import catalog
    from ledger.interface.info import info_text
    text = info_text(catalog.load("1801", {}))
    assert "trade_over_limit" in text and "§4.1" in text
