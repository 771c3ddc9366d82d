"""Shikoku 1889 on the engine (no CLI): the auction, the privates' powers, the 50 % float, sales in
one block before or after the one purchase, a phase change rusting trains and closing privates, the
forced purchase that never buys from another company, and the end by bankruptcy. Figures from the
digest (shared/rules/1889.md, "D x") and from the recorded game 314 that examples/1889-game.txt
plays: the positions here are that game's, taken before the record's action N ("# action N").
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from conftest import Table

from ledger import catalog
from ledger.core.errors import RulesetError, RuleViolation
from ledger.core.ruleset import parse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "1889-game.txt"
EXPECTED = Path(__file__).parent / "data" / "314.expected.json"
P1, P2, P3 = "'Player 1'", "'Player 2'", "'Player 3'"


@cache
def example_lines() -> list[tuple[int | None, str]]:
    """The example's commands, each with the record's action it comes from."""
    out = []
    for raw in EXAMPLE.read_text().splitlines():
        text, _, note = raw.partition("#")
        if text.strip() and not text.startswith("new "):
            m = re.search(r"action (\d+)", note)
            out.append((int(m.group(1)) if m else None, text.strip()))
    return out


def before(action: int | None = None) -> Table:
    """The 314 game played up to the first command of the record's `action` (to the end: None)."""
    g = Table(title="1889", players=["Player 1", "Player 2", "Player 3"])
    for n, line in example_lines():
        if action is not None and n is not None and n >= action:
            break
        g.do(line)
    return g


@cache
def whole() -> Table:
    return before(None)


def three() -> Table:
    return Table(title="1889", players=["Ann", "Bob", "Cy"])


# --------------------------------------------------------------------------- setup

@pytest.mark.parametrize("n, cash, limit, privates", [
    (2, 420, 25, ["TER", "MF", "ER", "SMR", "DR"]),
    (3, 420, 19, ["TER", "MF", "ER", "SMR", "DR", "SIR"]),
    (4, 420, 14, ["TER", "MF", "ER", "SMR", "DR", "SIR", "UTF"]),
    (5, 390, 12, ["TER", "MF", "ER", "SMR", "DR", "SIR", "UTF"]),
    (6, 390, 11, ["TER", "MF", "ER", "SMR", "DR", "SIR", "UTF"]),
])
def test_players_cash_cert_limit_and_privates_by_count(n, cash, limit, privates):
    """D1, D3: ¥7,000 bank, ¥420/¥390 each; SIR from 3 players, UTF from 4."""
    names = ["A", "B", "C", "D", "E", "F"][:n]
    g = Table(title="1889", players=names)
    assert [g.cash(p) for p in names] == [cash] * n
    assert g.bank() == 7000 - n * cash
    assert g.state.cert_limit == limit
    in_play = [sym for sym, p in g.state.privates.items() if not p.closed]
    assert in_play == privates


def test_a_symbol_names_one_thing():
    """The site's TR is both a private and a corporation: in the bank a private and a corporation
    may not share a symbol, so 1889's private is TER and TR is the corporation."""
    text = catalog.ruleset_text("1889").replace('sym = "TER"', 'sym = "TR"').replace('discount_only = "TER"',
                                                                                    'discount_only = "TR"')
    with pytest.raises(RulesetError, match="'TR' is also the corporation TR"):
        parse(text, {}, source="1889")
    rs = catalog.load("1889")
    assert rs.private("TER").name == "Takamatsu E-Railroad"
    assert rs.corporation("TR").name == "Tosa Electric Railway"


# --------------------------------------------------------------------------- the auction

def test_auction_of_314():
    """D4 [FIX 314]: bids on MF 35, SMR 55, ER 45, then TER bought at 20 resolves MF, ER and SMR to
    their only bidders; P2 buys DR, P3 SIR; P1 has the priority for SR 1."""
    g = before(7)
    assert {sym: g.owner(sym) for sym in ("TER", "MF", "ER", "SMR", "DR", "SIR")} == {
        "TER": "Player 1", "MF": "Player 1", "ER": "Player 3", "SMR": "Player 2", "DR": "Player 2",
        "SIR": "Player 3"}
    assert [g.cash(p) for p in ("Player 1", "Player 2", "Player 3")] == [420 - 55, 420 - 115, 420 - 125]
    assert g.round_kind() == "stock" and g.turn() == "Player 1"


def test_all_pass_drops_ter_by_5():
    """D4 #3: all pass while TER is unsold: it drops ¥5; then bought for ¥15."""
    g = three()
    g.do("pass Ann", "pass Bob", "pass Cy")
    g.do("buy Ann TER")
    assert g.cash("Ann") == 405


def test_bid_must_raise_by_5():
    g = three()
    g.do("bid Ann MF 35")
    g.refusal("bid Bob MF 39", kind=RuleViolation)
    g.do("bid Bob MF 40")


# --------------------------------------------------------------------------- privates' powers

def test_dr_is_exchanged_for_an_ir_share_from_the_ipo_only():
    """D3.1: DR for one 10 % IR share from the IPO; DR closes; no money."""
    g = before(10)   # SR 1, P2 owns DR; IR is not started
    g.do("par 'Player 1' IR 100", "pass 'Player 2'", "buy 'Player 3' IR --ipo")
    cash = g.cash("Player 2")
    g.do("exchange 'Player 2' DR IR --ipo")
    assert g.pct("Player 2", "IR") == 10 and g.state.privates["DR"].closed
    assert g.cash("Player 2") == cash
    g.refusal("exchange 'Player 2' DR IR --pool", kind=RuleViolation)


def test_utf_survives_the_first_5_with_a_player_and_pays_50():
    """D3.1, D16 #13: a player's UTF stays open at the first 5 and pays ¥50 from phase 5; the rest
    close. Played on a 4-player game whose state is set to phase 5 as the engine leaves it."""
    from ledger.core.rules import privates
    g = Table(title="1889", players=["A", "B", "C", "D"])
    g.do("buy A TER", "buy B MF", "buy C ER", "buy D SMR", "buy A DR", "buy B SIR", "buy C UTF")
    assert privates.revenue_of(g.state, g.rs, "UTF") == 30
    assert privates.survives_phase_close(g.state, g.rs, "UTF")
    assert not privates.survives_phase_close(g.state, g.rs, "SIR")
    g.state.phase = "5"
    assert privates.revenue_of(g.state, g.rs, "UTF") == 50


def test_privates_close_at_the_first_5():
    """D3.2 [FIX 314 action 338]: AR buys the first 5: every private closes (none is UTF here)."""
    g = before(338)
    open_ = [s for s, p in g.state.privates.items() if not p.closed]
    assert open_
    g.do("withhold AR 0", "train AR 5")
    assert g.phase() == "5"
    assert all(p.closed for p in g.state.privates.values())


# --------------------------------------------------------------------------- stock round

def test_float_at_50_percent():
    """D5 [FIX 314]: KO parred at ¥70 floats when 50 % has left the IPO and gets ¥700."""
    g = before(13)   # P1 30 % (the president's 20 % and a share), P2 10 %: 40 % sold
    assert g.cash("KO") == 0 and g.pct("ipo", "KO") == 60
    g.do(f"buy {P1} KO --ipo")     # 50 %
    assert g.cash("KO") == 700


def test_no_sale_in_sr1():
    g = before(13)
    g.refusal(f"sell {P1} KO 1", match="first stock round", kind=RuleViolation)


def test_sales_in_one_block_and_not_both_sides_of_the_purchase():
    """D7.2 [FIX 314 actions 55-56]: P2 sells 4 KO in one sale then pars UR: his turn is over for
    sales; and a second KO sale in the same turn is refused."""
    g = before(55)
    blocks = g.copy()
    blocks.do(f"sell {P2} KO 2")
    blocks.refusal(f"sell {P2} KO 2", match="one sale", kind=RuleViolation)
    g.do(f"sell {P2} KO 4", f"par {P2} UR 80")
    g.refusal(f"sell {P2} SR 1", match="not both", kind=RuleViolation)


def test_buy_then_sell_is_allowed():
    """D7.2 [FIX 314 actions 106-107]: P3 buys a UR share from the IPO, then sells it."""
    g = before(106)
    g.do(f"buy {P3} UR --ipo", f"sell {P3} UR 1")


# --------------------------------------------------------------------------- operating rounds

def test_first_4_rusts_the_2s():
    """D10 [FIX 314 action 170]: IR buys the first 4: phase 4, the 2s rust (the one IR just bought
    from SR as well), the limit is 3."""
    g = before(170)
    assert g.phase() == "3"
    assert "2" in g.train_sides("IR")
    g.do("train IR 4")
    assert g.phase() == "4" and g.rs.phase("4").train_limit == 3
    assert g.train_sides("IR") == ["3", "4"]
    assert not any("2" in g.train_sides(c) for c in g.state.corps)


def test_forced_purchase_never_from_another_company():
    """D11: with the president's money a company buys only from the bank or the pool. TR has no
    train at the end of 314; a train from another company with P1's help is refused."""
    g = before(456)
    assert not g.train_sides("TR")
    other = next(c for c in g.state.corps if c != "TR" and g.train_sides(c))
    kind = g.train_sides(other)[0].split(".")[0]
    g.refusal(f"train TR {kind} --from {other} --price 10000", match="never from another company", kind=RuleViolation)


def test_bankruptcy_ends_the_game_at_once():
    """D11, D12 [FIX 314 action 457]: Player 1 cannot pay for TR's train: bankrupt, game over."""
    g = before(457)
    assert not g.game_over
    g.do(f"bankrupt {P1}")
    assert g.game_over and g.end_reason == "bankruptcy"


def test_the_example_ends_as_18xx_games_computed():
    """examples/1889-game.txt ends with every player's cash and net worth of 314.expected.json."""
    expected = json.loads(EXPECTED.read_text())
    g = whole()
    assert g.game_over
    for p in expected["players"]:
        assert (p["name"], g.cash(p["name"]), g.value(p["name"])) == (p["name"], p["cash"], p["value"])
    assert g.bank() == expected["bank_cash_final"]
