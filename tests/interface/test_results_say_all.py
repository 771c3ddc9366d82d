"""Every result says everything that moved (issue 35): each price marker's move from and to, each
holder's payout, every certificate; and the corrections (undo, redo, amend, insert, restore) list
the money, certificates and prices they changed, in the results' words. A banker moving the
physical pieces reads the log alone, never `market` or `status`.

Through the engine on the example games (replayed to the event in question), and through the CLI
for the corrections' printed lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_driver import Bank
from conftest import Table
from transcripts import complete_game, lines_of, shipped_titles

from ledger.core.events import describe, signed_money
from ledger.core.rules import market

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def transcript(name: str) -> tuple[Table, list[str]]:
    """A fresh game of an example transcript's `new` line, and the transcript's other lines."""
    new, *lines = lines_of((EXAMPLES / f"{name}.txt").read_text())
    return Table(new), lines


def replay_until(name: str, found) -> tuple[Table, dict, "object"]:
    """The example game played to the first event `found` accepts: (the game after that command,
    the event, the state before the command)."""
    g, lines = transcript(name)
    for line in lines:
        before = g.state.clone()
        for e in g.do(line):
            if found(e):
                return g, e, before
    raise AssertionError(f"no such event in {name}")


def money(g: Table, amount: int) -> str:
    return g.rs.money(amount)


def price_of(g: Table, cell) -> int:
    return market.price(g.rs, tuple(cell))


# --------------------------------------------------------------------------- 1. marker moves

def test_a_sale_says_where_the_marker_went():
    g, e, before = replay_until("1830-opening", lambda e: e["kind"] == "shares_sold")
    old, new = before.corps["C&O"].cell, g.state.corps["C&O"].cell
    assert (price_of(g, old), price_of(g, new)) == (67, 65)
    assert describe(e, g.rs) == "Bob sells 1 C&O share at $67 for $67; C&O falls from $67 to $65"


def test_a_withhold_says_the_fall():
    g, e, before = replay_until("1830-opening", lambda e: e["kind"] == "revenue")
    assert describe(e, g.rs) == "NYC withholds $0; NYC falls from $76 to $71"
    assert g.price("NYC") == 71 and price_of(g, before.corps["NYC"].cell) == 76


def test_sold_out_says_from_and_to():
    g, e, before = replay_until("1830-full-game", lambda e: e["kind"] == "sold_out")
    corp = e["corp"]
    was, now = price_of(g, before.corps[corp].cell), g.price(corp)
    assert now > was
    assert describe(e, g.rs) == f"{corp} is sold out: its price rises from {money(g, was)} to {money(g, now)}"


def test_1843_a_move_says_where_it_sits_in_its_stack():
    g, e, _before = replay_until("1843-game", lambda e: "restack" in e)
    said = describe(e, g.rs)
    stack = e["restack"][0]
    others = [sym for sym in stack if sym != e["corp"]]
    assert said.startswith(f"{e['corp']} withholds 0fr; {e['corp']} falls from ")
    assert said.endswith((f", under {' and '.join(others)}", f", on top of {' and '.join(others)}"))


def test_1839_pool_drop_foreign_company_and_its_trains_say_from_and_to():
    g, e, before = replay_until("1839-game", lambda e: e["kind"] == "pool_drop")
    was, now = price_of(g, before.corps[e["corp"]].cell), price_of(g, e["moves"][0][2])
    assert describe(e, g.rs).endswith(f"in the pool: its price falls from {money(g, was)} to {money(g, now)}")
    g, e, _ = replay_until("1839-game", lambda e: e["kind"] == "foreign_train_bought")
    (corp, old, new), = e["moves"]
    assert price_of(g, new) > price_of(g, old)
    assert describe(e, g.rs) == (f"{corp} buys a 3+ train for ƒ250; it leaves the game; {corp} rises from "
                                 f"{money(g, price_of(g, old))} to {money(g, price_of(g, new))}")


def test_1801_a_half_payout_says_the_treasury_and_the_move():
    g, e, _ = replay_until("1801-game", lambda e: e["kind"] == "revenue" and e["how"] == "half" and e.get("moves"))
    said = describe(e, g.rs)
    (_, old, new), = e["moves"]
    assert said.endswith(f"; {e['corp']} rises from {money(g, price_of(g, old))} to {money(g, price_of(g, new))}")
    assert f"keeps {money(g, e['kept'])}" in said


@pytest.mark.parametrize("title", shipped_titles())
def test_every_marker_move_of_a_whole_game_is_said_from_and_to(title):
    """Every event of each title's complete example game that moves a marker already on the market
    names its price before and after (or that it stays), whatever its kind."""
    g, lines = transcript(complete_game(title))
    checked = 0
    for line in lines:
        for e in g.do(line):
            for sym, old, new in e.get("moves", ()):
                if old is None:
                    continue
                a, b = money(g, price_of(g, old)), money(g, price_of(g, new))
                said = describe(e, g.rs)
                assert (f"{sym} " in said and (f"from {a} to {b}" in said if a != b else f"stays at {a}" in said)
                        or f"moves to another {a} box" in said), (line, said)
                checked += 1
    assert checked > 50


# --------------------------------------------------------------------------- 2. payouts

def test_a_payout_names_what_the_treasury_receives_for_its_pool_shares():
    g, e, _ = replay_until("1830-full-game", lambda e: e["kind"] == "revenue" and any(
        a.startswith("company:") and amount for a, _n, amount in e.get("payees") or ()))
    said = describe(e, g.rs)
    for acct, n, amount in e["payees"]:
        name = acct.split(":", 1)[1]
        if acct.startswith("company:"):
            assert f"{name} {money(g, amount)} for {n} pool share" in said, said
        else:
            assert f"{name} {money(g, amount)}" in said
    assert sum(amount for _a, _n, amount in e["payees"]) <= e["revenue"]


def test_1801_a_payout_names_the_treasury_shares():
    g, e, _ = replay_until("1801-game", lambda e: e["kind"] == "revenue" and any(
        a.startswith("company:") and amount for a, _n, amount in e.get("payees") or ()))
    acct, n, amount = next(p for p in e["payees"] if p[0].startswith("company:"))
    assert f"{acct.split(':')[1]} {money(g, amount)} for {n} treasury share" in describe(e, g.rs)


# --------------------------------------------------------------------------- 3. certificates

def test_a_change_of_president_says_which_certificates_changed_hands():
    g, e, before = replay_until("1830-opening", lambda e: e["kind"] == "president_changed")
    assert describe(e, g.rs) == ("Carol becomes president of NYC (was Alice): the president's certificate "
                                 "to Carol, 2 shares to Alice")
    assert g.president("NYC") == "Carol"
    # Alice held the president's certificate (20 %) and a share: she holds three shares now
    assert sorted(before.cert_percent[c] for c in before.certs_of("player:Alice", "NYC")) == [10, 20]
    assert g.cert_percents("Alice", "NYC") == [10, 10, 10]


def test_a_private_bought_names_the_certificate_it_brings_not_its_id():
    g, lines = transcript("1830-opening")
    said = [describe(e, g.rs) for line in lines[:16] for e in g.do(line) if e["kind"] == "private_bought"]
    assert "Bob buys CA for $160; receives 10% of PRR" in said
    assert "Dave buys BO for $220; receives the B&O president's certificate (20%)" in said
    assert g.pct("Dave", "B&O") == 20 and g.pct("Bob", "PRR") == 10


def test_a_sale_that_changes_the_president_says_the_swap():
    g, e, before = replay_until("1830-full-game", lambda e: e["kind"] == "shares_sold" and e.get("president"))
    seller, new = e["player"], e["president"]
    assert describe(e, g.rs) == (f"{seller} sells 5 NYC shares at $65 for $325; NYC falls from $65 to $30; {new} "
                                 f"becomes president of NYC: the president's certificate to {new}, 2 shares to {seller}")
    assert g.president("NYC") == new and before.president("NYC") == seller


# --------------------------------------------------------------------------- 4. corrections

@pytest.fixture
def opening(tmp_path, monkeypatch) -> Bank:
    """The 1830 opening played to the start of OR 2.1 (commands 1-73)."""
    bank = Bank(tmp_path / "opening.db", monkeypatch)
    bank("play", str(EXAMPLES / "1830-opening.txt"))
    return bank


def said(result) -> str:
    """The output with its wrapped lines joined (the terminal's width breaks them anywhere)."""
    return " ".join(result.stdout.split())


def test_signed_money_puts_the_sign_in_front():
    assert signed_money(-33, "$") == "-$33" and signed_money(5, "$") == "+$5"
    assert signed_money(-41, "fr") == "-41fr"


def test_undo_and_redo_list_the_money_certificates_and_prices_they_change(opening):
    opening.line("undo --to 63 --yes")   # back to SR 2 before Dave's sale
    before = opening.status()
    out = said(opening.line("sell Dave PRR 2"))
    assert "PRR falls from $65 to $60" in out
    undone = said(opening.line("undo"))
    assert undone.startswith("undone: sell Dave PRR 2")
    assert "money: Dave -$130, the bank +$130" in undone
    assert "certificates: PRR: 20% from the pool to Dave" in undone
    assert "prices: PRR rises from $60 to $65" in undone
    assert opening.status() == before
    redone = said(opening.line("redo"))
    assert "money: Dave +$130, the bank -$130" in redone
    assert "certificates: PRR: 20% from Dave to the pool" in redone
    assert "prices: PRR falls from $65 to $60" in redone


def test_undo_of_a_pass_says_nothing_changed_hands(opening):
    assert "money: Alice -$20" in said(opening.line("undo"))   # the pass that ended SR 2: the privates paid
    out = said(opening.line("undo"))   # Carol's pass before it
    assert out.startswith("undone: pass Carol")
    assert "nothing changed hands" in out and "money:" not in out


def test_amend_lists_the_certificates_and_money_it_changed(opening):
    cash = opening.cash()["Alice"]
    out = said(opening.line('amend 66 "buy Alice C&O"'))   # it was bought from the pool for $65; the IPO asks $71
    assert "amended command 66 (buy Alice C&O --pool): now command 74: buy Alice C&O" in out
    assert "money: Alice -$6, the bank +$6" in out
    assert "certificates: C&O: 10% from Alice to the pool, 10% from the IPO to Alice" in out
    assert "$-" not in out
    assert opening.cash()["Alice"] == cash - 6


def test_insert_lists_what_the_forgotten_command_changed(opening):
    out = said(opening.line('insert --before 68 "sell Carol NYC"'))
    assert "inserted as command 74, before command 68: sell Carol NYC" in out
    assert "Carol sells 1 NYC share at $71 for $71; NYC falls from $71 to $67" in out
    assert "money: Carol +$71, the bank -$71" in out
    assert "certificates: NYC: 10% from Carol to the pool" in out
    assert "prices: NYC falls from $71 to $67" in out
    assert opening.company("NYC")["price"] == 67


def test_restore_lists_what_the_commands_it_brings_back_change(opening):
    opening.line("undo --to 65 --yes")
    out = said(opening.line("restore 66 --to 67"))   # the two pool purchases
    assert "restored 2 hidden command(s), 66-67" in out
    assert "money: Alice -$65, Bob -$60, the bank +$125" in out
    assert "certificates: C&O: 10% from the pool to Alice; PRR: 10% from the pool to Bob" in out
