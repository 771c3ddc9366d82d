"""How an event kind is declared: its fields (checked when a rule emits one), how it changes the
state, and (kept apart, in ledger.core.events.words) how the log says it. A title's module declares
its kinds with the same `event` decorator (rulesets/1843/ports.py), in its own namespace."""

from __future__ import annotations

import ast
import copy
import re
from typing import Any, Callable

from ledger.core.errors import LedgerCorrupt
from ledger.core.state import GameState


# Effects any event may carry; applied before the kind's own `apply` (see state.apply_effects).
EFFECTS = ("transfers", "certs", "trains", "moves", "restack", "flags", "assets")


class Kind:
    """A declared event kind."""

    def __init__(self, name: str, required: dict[str, Any], optional: dict[str, Any],
                 apply: Callable | None, describe: Callable | None, doc: str, defaults: dict | None = None,
                 held: Callable | None = None):
        self.name, self.required, self.optional = name, required, optional
        self.apply, self.describe, self.doc = apply, describe, doc
        self.defaults = defaults or {}
        self.held = held
        self.says_moves = False   # its own line says its marker moves (else `describe` adds them)

    def check(self, event: dict) -> None:
        missing = [f for f in self.required if f not in event]
        unknown = [f for f in event if f != "kind" and f not in self.required and f not in self.optional
                   and f not in EFFECTS]
        if missing or unknown:
            raise LedgerCorrupt(f"event {self.name}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
        for name, declared in {**self.required, **self.optional}.items():
            if name in event and not fits(event[name], declared, self.defaults.get(name, ...) is None):
                raise LedgerCorrupt(f"event {self.name}: {name} is {event[name]!r}, not a {declared}")


# The types an event's field may declare, and what each accepts (a field whose default is None also
# takes None): an event is JSON, so lists and tuples are one. A container may name what it holds:
# `list[str]`, `dict[str, int]`, `tuple[str, int, int]` (a list of that shape: a payee's account,
# shares and amount), `int | str`; a bare `list` or `dict` holds anything (a round's bookkeeping).
FIELD_TYPES = {"str": (str,), "int": (int,), "bool": (bool,), "list": (list, tuple), "dict": (dict,),
               "float": (int, float), "None": (type(None),)}


def fits(value, declared, none_ok: bool) -> bool:
    """Whether a field's value is of its declared type (`none_ok`: its default is None)."""
    if value is None:
        return none_ok or holds(None, parsed(str(declared)))
    return holds(value, parsed(str(declared)))


_PARSED: dict[str, object] = {}


def parsed(declared: str):
    """A declared type read once into its parts (a name, or ('list' | 'dict' | 'tuple' | '|', parts))."""
    if declared not in _PARSED:
        _PARSED[declared] = type_of(ast.parse(declared, mode="eval").body)
    return _PARSED[declared]


def type_of(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return ("|", (type_of(node.left), type_of(node.right)))
    if isinstance(node, ast.Subscript):
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return (node.value.id, tuple(type_of(n) for n in inner))
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return node.id if isinstance(node, ast.Name) else ast.unparse(node)


def holds(value, kind) -> bool:
    """Whether a value is of a declared type (a name this check does not know, as Any, holds anything)."""
    if isinstance(kind, tuple):
        name, parts = kind
        if name == "|":
            return any(holds(value, k) for k in parts)
        if name == "list":
            return isinstance(value, (list, tuple)) and all(holds(v, parts[0]) for v in value)
        if name == "tuple":
            return isinstance(value, (list, tuple)) and len(value) == len(parts) and \
                all(holds(v, k) for v, k in zip(value, parts))
        if name == "dict":
            return isinstance(value, dict) and all(holds(k, parts[0]) and holds(v, parts[1]) for k, v in value.items())
        return True
    kinds = FIELD_TYPES.get(kind)
    if kinds is None:   # a type this check does not know (Any): taken as it is
        return True
    if isinstance(value, bool) and bool not in kinds:   # True is an int to Python, never to a ledger
        return False
    return isinstance(value, kinds)


# The declared kinds: the shared engine's (namespace "") and each title's in its own namespace
# (ledger.core.parts.namespace_of), so two titles may name a kind alike.
KINDS: dict[str, dict[str, Kind]] = {"": {}}


def event(cls):
    """Declare an event kind from a class: annotations are fields, class defaults mark optional ones,
    `apply(s, e)` and `describe(e, rs)` are plain functions in its body; `held(e)`, where its own
    `apply` moves a holding, says which as [item, from account, to account] (as the generic effects
    do); `says_moves = True`, where its own `describe` words its marker moves (price_move), so the
    shared `describe` does not add them. A title's module declares its kinds in its title's
    namespace; none may take a shared kind's name."""
    from ledger.core.parts import namespace_of
    name = getattr(cls, "name", None) or re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    fields = cls.__dict__.get("__annotations__", {})
    required = {f: t for f, t in fields.items() if f not in cls.__dict__}
    optional = {f: t for f, t in fields.items() if f in cls.__dict__}
    namespace = namespace_of(cls.__module__)
    own = KINDS.setdefault(namespace, {})
    if name in own or (namespace and name in KINDS[""]):
        raise LedgerCorrupt(f"event kind {name} declared twice{f' (in {namespace})' if namespace else ''}")
    own[name] = Kind(name, required, optional, cls.__dict__.get("apply"), cls.__dict__.get("describe"),
                     (cls.__doc__ or "").strip(), {f: cls.__dict__[f] for f in optional}, cls.__dict__.get("held"))
    own[name].says_moves = bool(cls.__dict__.get("says_moves"))
    return cls


# A title's reading of its events as an older version of it stored them: namespace -> a function
# that rewrites an event in place in today's terms (a game file keeps every event it ever had).
UPGRADES: dict[str, Callable] = {}


def upgrades(fn: Callable) -> Callable:
    """Declare, in a title's module, how the title's older stored events read today."""
    from ledger.core.parts import namespace_of
    UPGRADES[namespace_of(fn.__module__)] = fn
    return fn


# The keys of a stock round's bookkeeping that last one turn (dropped as the next turn starts): the
# shared ones, and each title's own (namespace -> keys), declared in the title's module.
STOCK_TURN_KEYS = {"": {"sale_at", "turn_sold", "sold_first"}}


def upgraded(events: list[dict], title: str) -> list[dict]:
    """Stored events in today's terms: copies, upgraded, where the title reads its older events anew
    (the events given are left as they were stored); the events themselves where it reads none."""
    upgrade = UPGRADES.get(title)
    if upgrade is None:
        return events
    out = copy.deepcopy(events)
    for e in out:
        upgrade(e)
    return out


def stock_turn_keys(module: str, *keys: str) -> None:
    """Declare, in a title's module (`__name__`), keys its rules add to a stock-round turn."""
    from ledger.core.parts import namespace_of
    STOCK_TURN_KEYS.setdefault(namespace_of(module), set()).update(keys)


def kind_of(name: str, title: str) -> Kind | None:
    """A kind as a game of `title` reads it: its own, or a shared one."""
    return KINDS.get(title, {}).get(name) or KINDS[""].get(name)


def make(kind: str, fields: dict, title: str = "") -> dict:
    """An event dict of a kind the title declares (or a shared one), checked against its declaration."""
    declared = kind_of(kind, title)
    if declared is None:
        raise LedgerCorrupt(f"no event kind {kind!r} is declared")
    e = {"kind": kind, **fields}
    declared.check(e)
    return e


def apply_kind(s: GameState, e: dict) -> None:
    declared = kind_of(e["kind"], s.title)
    if declared is None:
        raise LedgerCorrupt(f"unknown event kind {e['kind']!r}")
    if declared.apply:
        declared.apply(s, e)
