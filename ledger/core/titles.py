"""Each title's registry, built once: the shared rounds, then the title's own features, in the
order its package lists them (ledger.core.parts). The composition root of the core: the engine
and the views ask here; the rounds, rules and features only register into what they are given."""

from __future__ import annotations

from ledger.core.registry import _BUILT, Registry, key_of
from ledger.core.rounds import register_shared
# the shared round kinds name themselves when imported (ledger.core.round_kind.named): a view of a
# game read from its snapshot, before any rule was asked, names its round as every other view does
from ledger.core.rounds import auction, operating, stock  # noqa: F401,E402


def for_ruleset(rs) -> Registry:
    """The registry of a title: the shared rounds, then its features' additions."""
    key = key_of(rs)
    reg = _BUILT.get(key)
    if reg is None:
        reg = Registry()
        register_shared(reg, rs)
        for register in rs.parts.registers:
            register(reg)
        _BUILT[key] = reg
    return reg
