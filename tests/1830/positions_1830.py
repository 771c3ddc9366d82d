"""Moves that walk an 1830 game on to a position, shared by tests/1830's stock and operating files
(the positions themselves are tests/conftest.py's 1830 openings: sr1_1830, opening_1830, chain_1830)."""

from __future__ import annotations

from conftest import Table

from ledger.core.rules import shares


def finish_round(g: Table) -> None:
    """Everyone passes in turn until the stock round ends (the round after it starts)."""
    number = g.state.round["number"]
    while g.round_kind() == "stock" and g.state.round["number"] == number:
        g.do(f"pass {g.turn()}")


def run_ors(g: Table) -> None:
    """Operate every company of the current OR set as trainless with no route (withhold $0)."""
    while g.round_kind() == "operating":
        g.do(f"done {g.state.round['corp']} --no-route")


def cycle(g: Table, times: int = 1) -> None:
    """Pass through the rest of this stock round and the following ORs, `times` times."""
    for _ in range(times):
        finish_round(g)
        run_ors(g)
    assert g.round_kind() == "stock"


def cert_count(g: Table, player: str) -> int:
    return shares.cert_count(g.state, g.rs, player)


def to_turn(g: Table, who: str) -> None:
    """Everyone passes until it is `who`'s turn in the stock round."""
    while g.turn() != who:
        g.do(f"pass {g.turn()}")
