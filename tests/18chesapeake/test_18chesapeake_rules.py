"""18Chesapeake on the engine (no CLI): the auction (bids in $5 steps, only leading bids tie up cash,
an all-pass that pays and exports), Cornelius Vanderbilt's company from the seed, the 60 % float,
sales before the one purchase, exports at the end of each set (one that begins a phase and rusts),
a phase change with rusting, the privates' powers (B&OR's share, CV closing, C-P's two tiles, C&OC's
Berlin tile and free station), the D trade-in, the end by bankruptcy and by the broken bank. Figures
from the digest (shared/rules/18chesapeake.md, "D x") and from the recorded games: 1277, which
examples/18chesapeake-game.txt plays (the positions here are that game's, taken before the record's
action N, "# action N"), and 1905 and 3055 (data/<id>.txt, translated alike).
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
from ledger.core.state import REMOVED

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
EXAMPLE = ROOT / "examples" / "18chesapeake-game.txt"
P1, P2, P3, P4, P5 = (f"'Player {n}'" for n in range(1, 6))


@cache
def game_lines(path: Path) -> tuple[dict, list[tuple[int | None, str]]]:
    """A translated game's options and its commands, each with the record's action it comes from."""
    options, out = {}, []
    for raw in path.read_text().splitlines():
        text, _, note = raw.partition("#")
        if text.startswith("new "):
            options = dict(w.split("=", 1) for w in re.findall(r"--option (\S+)", text))
        elif text.strip():
            m = re.search(r"action (\d+)", note)
            out.append((int(m.group(1)) if m else None, text.strip()))
    return options, out


def before(action: int | None = None, path: Path = EXAMPLE, players: int = 5) -> Table:
    """A recorded game played up to the first command of the record's `action` (to the end: None)."""
    options, lines = game_lines(path)
    g = Table(title="18chesapeake", players=[f"Player {n}" for n in range(1, players + 1)], options=options)
    for n, line in lines:
        if action is not None and n is not None and n >= action:
            break
        g.do(line)
    return g


def until(text: str, path: Path = EXAMPLE, players: int = 5) -> Table:
    """A recorded game played up to its first command that is `text`."""
    options, lines = game_lines(path)
    g = Table(title="18chesapeake", players=[f"Player {n}" for n in range(1, players + 1)], options=options)
    for _n, line in lines:
        if line == text:
            return g
        g.do(line)
    raise AssertionError(f"no command {text!r}")


@cache
def whole(path: Path = EXAMPLE, players: int = 5) -> Table:
    return before(None, path, players)


def four(**options) -> Table:
    return Table(title="18chesapeake", players=["Ann", "Bob", "Cy", "Dee"], options=options)


def events_of(g: Table, kind: str) -> list[dict]:
    return [e for e in g.events if e["kind"] == kind]


# --------------------------------------------------------------------------- setup

@pytest.mark.parametrize("n, cash, limit", [(2, 1200, 20), (3, 800, 20), (4, 600, 16), (5, 480, 13), (6, 400, 11)])
def test_players_cash_and_cert_limit(n, cash, limit):
    """D1: $8,000 bank, $2,400 handed out at every count; all six privates in play."""
    names = ["A", "B", "C", "D", "E", "F"][:n]
    g = Table(title="18chesapeake", players=names)
    assert [g.cash(p) for p in names] == [cash] * n
    assert g.bank() == 5600
    assert g.state.cert_limit == limit
    assert list(g.state.privates) == ["D&R", "C-P", "B&S", "C&OC", "B&OR", "CV"]


@pytest.mark.parametrize("seed, corp", [(1277, "SRR"), (14377, "C&A"), (1905, "C&A"), (22383, "C&O"), (3055, "C&O")])
def test_vanderbilt_company_from_the_seed(seed, corp):
    """D3.1: index = r1 mod 8 into PRR PLE SRR B&O C&O LV C&A N&W, r1 the first draw of the site's
    generator from the game's seed."""
    rs = catalog.load("18chesapeake", {"vanderbilt": f"seed:{seed}"})
    assert rs.private("CV").ability("bonus_president") == corp
    assert rs.private("CV").ability("closes_on_first_train_of") == corp


def test_vanderbilt_named_at_the_table():
    rs = catalog.load("18chesapeake", {"vanderbilt": "cna"})
    assert rs.private("CV").ability("bonus_president") == "C&A"
    with pytest.raises(RulesetError, match="vanderbilt"):
        catalog.load("18chesapeake", {"vanderbilt": "ERIE"})


# --------------------------------------------------------------------------- auction

def test_auction_of_1277():
    """D4 [FIX 1277]: D&R bought at $20 resolves C-P (45), B&S (war, 65), C&OC (war, 95), B&OR (war,
    135, with its B&O share) and CV (205, with SRR's president's certificate, parred at once)."""
    g = before(20)
    assert {sym: g.owner(sym) for sym in g.state.privates} == {
        "D&R": "Player 4", "C-P": "Player 1", "B&S": "Player 2", "C&OC": "Player 4", "B&OR": "Player 3",
        "CV": "Player 5"}
    assert g.pct("Player 3", "B&O") == 10
    assert g.pct("Player 5", "SRR") == 20
    g.do(f"par {P5} SRR 95")    # free: CV brings the certificate
    assert g.cash("Player 5") == 480 - 205
    assert g.round_kind() == "stock" and g.turn() == "Player 5"


def test_bids_in_steps_of_5():
    """D16 #1: C&OC untouched: least $85; $86 refused, $90 taken; then $97 refused."""
    g = four()
    g.refusal("bid Ann CnOC 86", match="multiples", kind=RuleViolation)
    g.do("bid Ann CnOC 90")
    g.refusal("bid Bob CnOC 97", match="multiples", kind=RuleViolation)
    g.do("bid Bob CnOC 95")


def test_only_leading_bids_tie_up_cash():
    """D16 #2: Ann ($600) leads CV at $205 and C&OC at $85: $310 left for another bid; outbid on CV
    she may bid $515."""
    g = four()
    g.do("bid Ann CV 205", "pass Bob", "pass Cy", "pass Dee", "bid Ann CnOC 85", "pass Bob", "pass Cy", "pass Dee")
    g.refusal("bid Ann BnOR 315", match="310", kind=RuleViolation)
    g.do("pass Ann", "bid Bob CV 210", "pass Cy", "pass Dee")
    g.refusal("bid Ann BnOR 520", match="515", kind=RuleViolation)
    g.do("bid Ann BnOR 515")


def test_all_pass_with_dr_unsold_drops_it():
    g = four()
    g.do("pass Ann", "pass Bob", "pass Cy", "pass Dee", "buy Ann DnR")
    assert g.cash("Ann") == 585


def test_all_pass_after_dr_is_sold_pays_and_exports():
    """D16 #3: Ann buys D&R; all pass: she collects $5 and the next 2 is exported (6 left)."""
    g = four()
    g.do("buy Ann DnR", "pass Bob", "pass Cy", "pass Dee", "pass Ann")
    assert g.cash("Ann") == 600 - 20 + 5
    assert [e["train"] for e in events_of(g, "train_exported")] == ["2.1"]
    assert sum(1 for t, h in g.state.trains.items() if t.startswith("2.") and h == "depot") == 6
    assert g.round_kind() == "auction" and g.turn() == "Bob"


# --------------------------------------------------------------------------- stock round

def test_float_at_60_percent():
    """D5 [FIX 1277 action 31]: N&W parred at $70 floats when 60 % has left the IPO: $700."""
    g = before(31)
    assert g.cash("N&W") == 0 and g.pct("ipo", "N&W") == 50
    g.do(f"buy {P5} NnW --ipo")
    assert g.cash("N&W") == 700


def test_b_and_o_share_counts_for_the_float():
    """D3.1, D16 #6 [FIX 1277 action 32]: Player 1's 40 %, Player 2's 10 % and Player 3's free B&O
    share (B&OR's) make 60 %: B&O floats with $700."""
    g = before(32)
    assert g.cash("B&O") == 0 and g.pct("Player 3", "B&O") == 10
    g.do(f"buy {P1} BnO --ipo")
    assert g.pct("Player 1", "B&O") == 40 and g.cash("B&O") == 700


def test_sales_come_before_the_purchase_never_after():
    """D7, D16 #12 [FIX 1277 actions 131-132]: Player 5 sells a B&O share, then buys SRR; no sale
    after the purchase."""
    g = before(131)
    g.do(f"sell {P5} BnO 1", f"buy {P5} SRR --ipo")
    g.refusal(f"sell {P5} NnW 1", match="never after", kind=RuleViolation)


def test_no_sale_in_sr1():
    g = before(27)
    g.refusal(f"sell {P1} BnO 1", match="first stock round", kind=RuleViolation)


# --------------------------------------------------------------------------- exports and phases

def test_exports_of_1277():
    """D10.2 [FIX 1277 log]: a 2 after OR 1.1 and after OR 2.1, a 3, a 4; then the 5s are next and
    nothing more is exported."""
    g = whole()
    assert [e["type"] for e in events_of(g, "train_exported")] == ["2", "2", "3", "4"]
    assert all(g.state.trains[e["train"]] == REMOVED for e in events_of(g, "train_exported"))


def test_an_export_can_begin_a_phase_and_rust():
    """D16 #7: the set ends in phase 3 with no 3 left in the supply: the first 4 is exported, phase
    4 begins (limit 3) and every 2 rusts. Played from 1277 just before the command that ends OR 2.1's
    set, with the supply's 3s set aside."""
    options, lines = game_lines(EXAMPLE)
    g = Table(title="18chesapeake", players=[f"Player {n}" for n in range(1, 6)], options=options)
    for _n, line in lines:
        trial = g.copy()
        trial.do(line)
        if any(e["train"].startswith("3.") for e in events_of(trial, "train_exported")):
            break
        g.do(line)
    else:
        pytest.fail("no 3 is exported in the example")
    assert g.phase() == "3"
    twos = [c for c in g.state.corps if "2" in g.train_sides(c)]
    assert twos
    for t, h in list(g.state.trains.items()):
        if t.startswith("3.") and h == "depot":
            g.state.trains[t] = REMOVED
    g.do(line)
    assert [e["type"] for e in events_of(g, "train_exported")][-1] == "4"
    assert g.phase() == "4"
    assert not any("2" in g.train_sides(c) for c in g.state.corps)


def test_first_4_rusts_the_2s():
    """D10.1 [FIX 1277 action 179]: C&O buys the first 4: phase 4, the 2s rust, the limit is 3."""
    g = before(179)
    assert g.phase() == "3"
    assert any("2" in g.train_sides(c) for c in g.state.corps)
    g.do("train CnO 4")
    assert g.phase() == "4" and g.rs.phase("4").train_limit == 3
    assert not any("2" in g.train_sides(c) for c in g.state.corps)


def test_privates_close_at_the_first_5():
    """D3.2 [FIX 1277 action 298]: PRR buys the first 5 ($500): every private closes."""
    g = before(298)
    assert any(not p.closed for p in g.state.privates.values())
    cash = g.cash("PRR")
    g.do("train PRR 5")
    assert g.cash("PRR") == cash - 500
    assert g.phase() == "5" and all(p.closed for p in g.state.privates.values())


# --------------------------------------------------------------------------- privates' powers

def test_vanderbilt_closes_on_its_company_s_first_train():
    """D3.1 [FIX 1277 action 172]: SRR buys its first train: CV closes."""
    g = before(172)
    assert not g.state.privates["CV"].closed
    g.do("train SRR 3")
    assert g.state.privates["CV"].closed


def test_vanderbilt_is_never_sold_to_a_company():
    g = before(120)
    assert g.phase() == "3"
    g.refusal("buy-private NnW CV 200", kind=RuleViolation)


def test_c_p_lays_two_tiles_for_nothing():
    """D3.1, D16 #9 [FIX 1905 actions 153-154]: LV owns C-P and lays #8 on I3 and #9 on H2, $0."""
    g = until("tile LV 0 --using C-P", DATA / "1905.txt", 4)
    cash = g.cash("LV")
    g.do("tile LV 0 --using C-P", "tile LV 0 --using C-P")
    assert g.cash("LV") == cash


def test_c_and_oc_berlin_tile_and_free_station():
    """D3.1, D16 #8 [FIX 3055 actions 138-139]: PRR lays Berlin's #57 with C&OC for $80 and places
    its next station there for $0; its following station costs $60."""
    g = until("tile PRR 80 --using CnOC", DATA / "3055.txt", 5)
    cash, used = g.cash("PRR"), g.state.corps["PRR"].tokens_used
    g.copy().refusal("tile PRR 40 --using CnOC", match="80", kind=RuleViolation)
    g.do("tile PRR 80 --using CnOC", "token PRR")
    assert g.cash("PRR") == cash - 80
    assert g.state.corps["PRR"].tokens_used == used + 1


def test_d_trade_in_costs_700():
    """D10.1, D16 #11 [FIX 1277]: a 4 traded in for a D: $900 - $200; the 4 goes to the pool."""
    options, lines = game_lines(EXAMPLE)
    k = next(k for k, (_n, line) in enumerate(lines) if "--trade-in" in line)
    g = Table(title="18chesapeake", players=[f"Player {n}" for n in range(1, 6)], options=options)
    for _n, line in lines[:k]:
        g.do(line)
    corp = g.state.round["corp"]
    cash, trains = g.cash(corp), g.train_sides(corp)
    g.do(lines[k][1])
    assert g.cash(corp) == cash - 700
    assert "D" in g.train_sides(corp) and g.train_sides(corp).count("4") == trains.count("4") - 1


# --------------------------------------------------------------------------- the end

def test_bankruptcy_ends_the_game_at_once():
    """D11, D12 [FIX 1277 action 424]: Player 4 cannot pay for C&O's train: bankrupt, game over."""
    g = before(424)
    assert not g.game_over
    g.do(f"bankrupt {P4}")
    assert g.game_over and g.end_reason == "bankruptcy"


@pytest.mark.parametrize("path, expected, players", [
    (EXAMPLE, "1277.expected.json", 5),
    (DATA / "1905.txt", "1905.expected.json", 4),
    (DATA / "3055.txt", "3055.expected.json", 5),
])
def test_the_games_end_as_18xx_games_computed(path, expected, players):
    """examples/18chesapeake-game.txt (1277, a bankruptcy) and games 1905 and 3055 (the bank broken,
    ending after the set) end with every player's cash and net worth and the bank's cash of their
    expected.json."""
    want = json.loads((DATA / expected).read_text())
    g = whole(path, players)
    assert g.game_over
    for p in want["players"]:
        assert (p["name"], g.cash(p["name"]), g.value(p["name"])) == (p["name"], p["cash"], p["value"])
    assert g.bank() == want["bank_cash_final"]


# --------------------------------------------------------------------------- Off the Rails

def test_off_the_rails():
    """D14: $12,000 bank, 1882's pars, a 50 % float, no export after the auction's all-pass."""
    g = four(off_the_rails=True)
    assert g.bank() == 12000 - 2400
    assert g.rs.k("company", "par_prices") == [100, 90, 82, 76, 71, 67]
    assert any(c.end and c.price == 300 for c in g.rs.market.values())
    g.do("buy Ann DnR", "pass Bob", "pass Cy", "pass Dee", "pass Ann")
    assert g.cash("Ann") == 600 - 20 + 5 and not events_of(g, "train_exported")
    g.do("buy Bob C-P", "buy Cy BnS", "buy Dee CnOC", "buy Ann BnOR", "buy Bob CV", "par Bob PRR 100")
    # PRR's president's 20 % with CV; 30 % more from the IPO floats it at 50 %
    g.do("buy Cy PRR --ipo", "buy Dee PRR --ipo", "buy Ann PRR --ipo")
    assert g.cash("PRR") == 1000
