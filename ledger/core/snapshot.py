"""A game state as JSON text and back, for the ledger's state snapshots.

Generic over the state's dataclasses: the fields and their declared types say how each value is
written and read back, so a field added to GameState (or to a dataclass inside it) is stored
without a change here. JSON has no tuples, sets or non-text keys, so the declared type restores
them: a list comes back as a tuple where the field says tuple, a key as an int where the dict's
key type says int. Where a field's type says nothing (`dict`, `list`, `Any`), the value is read
back as JSON gives it, which is what replaying the stored (JSON) events puts there: a tuple is
written as a list; anything else JSON would change (a non-text key, a set, a dataclass the type
does not name) is refused with TypeError rather than stored inexactly. A record that says it is
`KEPT_AS_DATA` (a round: ledger.core.round_state) is written as its `as_data()` and read back as
that data, which its holder makes the record again (GameState.__post_init__).

Plain JSON on purpose: game files are shared between people, and reading one must never run code
(no pickle, no class names looked up from the file).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import hashlib
import json
import types
import typing
from functools import lru_cache
from typing import Any

from ledger.core.state import GameState

# Bump when the encoding below changes meaning; a snapshot in another format is never read.
FORMAT = 1
# Tags a dataclass value where the declared type is a union of several dataclasses.
TAG = "@type"
NONE_TYPE = type(None)
UNTYPED = (Any, object, dict, list)
SCALARS = (str, int, float, bool)


def state_to_json(state: GameState) -> str:
    """The state as JSON text; the title's own state (GameState.own) is encoded against its own
    dataclass, which the title declares and the shared state does not name."""
    own = state.own
    shared = copy.copy(state)
    shared.own = None
    data = encode(shared, type(state))
    data["own"] = encode_dataclass(own, type(own)) if own is not None else None
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def state_from_json(text: str, cls: type = GameState, own: type | None = None) -> GameState:
    """The state a `state_to_json` text holds; ValueError or TypeError if it does not fit `cls`.
    `own`: the dataclass of the title's own state (GameState.own), which only the title names."""
    state = decode(json.loads(text), cls)
    if own is not None:
        state.own = decode(state.own, own)
    elif state.own is not None:
        raise ValueError("the snapshot keeps a title's own state, and the title declares none")
    return state


def layout_digest(cls: type = GameState) -> str:
    """A digest of the state's shape (every field's name and declared type, through the nested
    dataclasses): a snapshot written for another shape is never read."""
    return hashlib.sha256(layout_text(cls).encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- writing

def encode(value, hint):
    """`value` as JSON data, checked against its declared type `hint`."""
    if value is None:
        return None
    if getattr(value, "KEPT_AS_DATA", False):
        return encode(value.as_data(), Any)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encode_dataclass(value, hint)
    if isinstance(value, enum.Enum):
        return encode(value.value, Any)
    if isinstance(value, (bool, int, float, str)):
        return value
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return encode(value, union_member_for(value, args))
    if isinstance(value, dict):
        key_type, value_type = args if origin is dict and args else (str, Any)
        return {encode_key(k, key_type): encode(v, value_type) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v, item_type(hint, i)) for i, v in enumerate(value)]
    if isinstance(value, (set, frozenset)) and (origin or hint) in (set, frozenset):
        return sorted(encode(v, args[0] if args else Any) for v in value)
    raise TypeError(f"a {type(value).__name__} cannot be stored exactly where the type is {hint!r}")


def encode_dataclass(value, hint) -> dict:
    cls = type(value)
    choices = dataclass_members(hint)
    if cls not in choices:
        raise TypeError(f"a {cls.__name__} cannot be stored where the type is {hint!r}")
    hints = field_types(cls)
    out = {TAG: cls.__name__} if len(choices) > 1 else {}
    for f in dataclasses.fields(cls):
        out[f.name] = encode(getattr(value, f.name), hints[f.name])
    return out


def encode_key(key, key_type):
    if isinstance(key, str):
        return key
    if isinstance(key, int) and not isinstance(key, bool) and key_type is int:
        return str(key)  # json turns it into text; the declared key type turns it back
    raise TypeError(f"the dict key {key!r} would come back as text (key type {key_type!r})")


def union_member_for(value, args):
    """The member of a union type that describes `value` (dataclasses are matched earlier, by
    `encode_dataclass`)."""
    for member in args:
        if member is not NONE_TYPE and fits(value, member):
            return member
    raise TypeError(f"a {type(value).__name__} is none of {args!r}")


def fits(value, hint) -> bool:
    """Whether a Python value (or JSON data, when reading) belongs to `hint`."""
    origin = typing.get_origin(hint) or hint
    if hint in (Any, object):
        return True
    if isinstance(origin, type) and issubclass(origin, enum.Enum):
        return isinstance(value, (origin, str, int))
    if origin is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin in (tuple, list, set, frozenset):
        return isinstance(value, (list, tuple, set, frozenset))
    if dataclasses.is_dataclass(origin):
        return isinstance(value, (origin, dict))
    return isinstance(value, origin) if isinstance(origin, type) else False


# --------------------------------------------------------------------------- reading

def decode(data, hint):
    """JSON data back into the declared type `hint`."""
    if type(data) is hint and hint in SCALARS:  # most values: a state is mostly text and numbers
        return data
    if hint in UNTYPED or hint is None or getattr(hint, "KEPT_AS_DATA", False):
        return data
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return decode_union(data, args)
    if data is None:
        raise ValueError(f"null where the type is {hint!r}")
    if dataclasses.is_dataclass(hint):
        return decode_dataclass(data, hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(data)
    container = origin or hint
    if container is dict:
        key_type, value_type = args or (str, Any)
        return {decode_key(k, key_type): decode(v, value_type) for k, v in expect(data, dict, hint).items()}
    if container in (tuple, set, frozenset):
        return container(decode(v, item_type(hint, i)) for i, v in enumerate(expect(data, list, hint)))
    if container is list:
        return [decode(v, item_type(hint, i)) for i, v in enumerate(expect(data, list, hint))]
    if hint is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if isinstance(hint, type):
        return expect(data, hint, hint)
    return data  # a type this module does not look inside (Literal, a TypeVar): as JSON gave it


def decode_dataclass(data, cls):
    fields = dataclasses.fields(cls)
    data = expect(data, dict, cls)
    names = {f.name for f in fields}
    unknown = set(data) - names - {TAG}
    missing = names - set(data)
    if unknown or missing:
        raise ValueError(f"{cls.__name__}: unknown fields {sorted(unknown)}, missing {sorted(missing)}")
    hints = field_types(cls)
    values = {f.name: decode(data[f.name], hints[f.name]) for f in fields}
    obj = cls(**{f.name: values[f.name] for f in fields if f.init})
    for f in fields:
        if not f.init:  # fields the constructor computes are stored as they were
            object.__setattr__(obj, f.name, values[f.name])
    return obj


def decode_union(data, args):
    members = [a for a in args if a is not NONE_TYPE]
    if data is None:
        if NONE_TYPE in args:
            return None
        raise ValueError(f"null where the type is one of {args!r}")
    classes = [m for m in members if dataclasses.is_dataclass(m)]
    if isinstance(data, dict) and len(classes) > 1:
        tagged = [c for c in classes if c.__name__ == data.get(TAG)]
        if not tagged:
            raise ValueError(f"a record tagged {data.get(TAG)!r} is none of {args!r}")
        return decode(data, tagged[0])
    for member in members:
        if fits(data, member):
            return decode(data, member)
    raise ValueError(f"{data!r} is none of {args!r}")


def decode_key(key: str, key_type):
    return int(key) if key_type is int else key


def expect(data, kind: type, hint):
    if not isinstance(data, kind) or (kind is int and isinstance(data, bool)):
        raise ValueError(f"{data!r} where the type is {hint!r}")
    return data


# --------------------------------------------------------------------------- types

def item_type(hint, index: int):
    """The declared type of item `index` of a list, tuple or set type (Any when undeclared)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if not args:
        return Any
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        if index >= len(args):
            raise ValueError(f"item {index} is beyond {hint!r}")
        return args[index]
    return args[0]


def dataclass_members(hint) -> list[type]:
    """The dataclasses a declared type admits."""
    origin = typing.get_origin(hint)
    candidates = typing.get_args(hint) if origin in (typing.Union, types.UnionType) else (hint,)
    return [c for c in candidates if dataclasses.is_dataclass(c)]


@lru_cache(maxsize=None)
def field_types(cls: type) -> dict[str, Any]:
    """Each field's declared type, resolved from the text annotations of its module."""
    return typing.get_type_hints(cls)


def layout_text(cls: type, seen: frozenset = frozenset()) -> str:
    if cls in seen:
        return cls.__qualname__
    hints = field_types(cls)
    parts = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        parts.append(f"{f.name}:{hint!r}")
        for inner in nested_dataclasses(hint):
            parts.append(f"{inner.__qualname__}{{{layout_text(inner, seen | {cls})}}}")
    return f"{cls.__module__}.{cls.__qualname__}(" + ",".join(parts) + ")"


def nested_dataclasses(hint) -> list[type]:
    if dataclasses.is_dataclass(hint):
        return [hint]
    return [c for arg in typing.get_args(hint) for c in nested_dataclasses(arg)]
