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
