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
    finish_round(g)
    run_ors(g)
    to_turn(g, "Ann")
    g.refused("pass Ann", "12 certificates", "limit 11", "must sell down")
    g.refused("buy Ann B&O", "12 certificates", "must sell before buying")
    ann = g.cash("Ann")
    g.do("sell Ann NYC 1")
    assert g.cash("Ann") == ann + 65 and cert_count(g, "Ann") == 11
    g.do("pass Ann")
