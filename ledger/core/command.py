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
    never looked at (typed, then silently ignored), and a search of what is legal knows that a
    refusal which read none of the words it varies holds for every value of them. `into`: a set
    that also gets each word read."""

    def __init__(self, words=(), into: set | None = None):
        super().__init__(dict.items(words) if isinstance(words, dict) else words)   # copying reads nothing
        self.read: set = set()
        self.into = into

    def mark(self, key) -> None:
        self.read.add(key)
        if self.into is not None:
            self.into.add(key)

    def get(self, key, default=None):
        self.mark(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.mark(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.mark(key)
        return super().__contains__(key)

    def items(self):
        for key in self.keys():
            self.mark(key)
        return super().items()

    def values(self):
        for key in self.keys():
            self.mark(key)
        return super().values()

    def copy(self):
        for key in self.keys():
            self.mark(key)
        return dict(self)

    def unread(self) -> list:
        return [k for k in self.keys() if k not in self.read]

    def but(self, **changes) -> "Reading":
        """These words with some changed, for a rule that hands the command on to another: what the
        other reads is read here too (one record of reads, the same `into`)."""
        out = Reading({**dict(dict.items(self)), **changes}, into=self.into)   # copying reads nothing
        out.read = self.read
        return out


def changed(args: dict, **changes) -> dict:
    """A command's words with some changed: a Reading's own copy (so that the reads of the rule it is
    handed to are still recorded), or a plain dict's."""
    return args.but(**changes) if isinstance(args, Reading) else {**args, **changes}
