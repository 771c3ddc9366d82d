"""Each title's registry, built once: the shared rounds, then the title's own module (its folder's
title.py). The composition root of the core: the engine and the views ask here; the rounds, rules
and title modules only register into what they are given."""

from __future__ import annotations

from ledger.core.registry import Registry
from ledger.core.rounds import register_shared
from ledger.core.ruleset import load_extension

_CACHE: dict[tuple, Registry] = {}


def for_ruleset(rs) -> Registry:
    """The registry of a title: the shared rounds, then its own module's additions."""
    key = (rs.title, rs.extension)
    reg = _CACHE.get(key)
    if reg is None:
        reg = Registry()
        register_shared(reg, rs)
        module = load_extension(rs)
        if module is not None and hasattr(module, "register"):
            module.register(reg)
        _CACHE[key] = reg
    return reg
