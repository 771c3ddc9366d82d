"""A command as the banker typed it, parsed: a verb and its named arguments (no rules here, so the
CLI can build one without importing the engine)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Command:
    verb: str
    args: dict = field(default_factory=dict)

    def get(self, key, default=None):
        return self.args.get(key, default)


class Reading(dict):
    """A command's words that remember which ones a rule read: the engine refuses a word its rule
    never looked at (typed, then silently ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read: set = set()

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)

    def items(self):
        self.read.update(self.keys())
        return super().items()

    def values(self):
        self.read.update(self.keys())
        return super().values()

    def copy(self):
        self.read.update(self.keys())
        return dict(self)

    def unread(self) -> list:
        return [k for k in self.keys() if k not in self.read]
