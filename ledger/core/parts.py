"""What a title's package brings, read off the package the layer that opens games hands over
(ledger.catalog): a title is a package of features, each a module holding one thing the title
does (its events, verbs, rules, status lines and registration), listed in order in the package's
`FEATURES`. A title without features is data alone.

Each feature module may declare:
  KNOBS, LEGACY_KNOBS      its own knobs (ruleset.Knob), by section; knobs renamed since older games
  ROUND_KINDS              the names of the round kinds it adds (they may stand in the round sequence)
  ROUND_FIELDS             the fields its rules keep in a round's bookkeeping: kind -> {field: type}
                           (ledger.core.round_fields declares the shared kinds')
  PRIVATE_ABILITIES        the abilities its privates may have in the data, with their types
  ABILITY_WORDS            how `bank info` says them: name -> (value, rs) -> words
  DATA_SECTIONS            its own TOML sections: name -> reader(table, problems)
  check(rs, problems)      its own checks of the data
  upgrade_data(data)       rewrites, in place, its data as an older version wrote it (a game file
                           keeps the data it began with) in today's terms
  GRAMMAR                  its verbs, options of shared verbs and kinds of argument (grammar.TitleGrammar)
  STATE                    the dataclass of the title's own state (one feature of a title declares it)
  register(reg)            what it adds to the title's registry (rounds, Plays, hooks, rules)
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TitleParts:
    name: str = ""                      # the package's name, for messages
    knobs: dict = field(default_factory=dict)
    legacy_knobs: dict = field(default_factory=dict)
    round_kinds: tuple = ()
    round_fields: dict = field(default_factory=dict)   # round kind -> {field: type}, the features' own
    private_abilities: dict = field(default_factory=dict)
    ability_words: dict = field(default_factory=dict)
    data_sections: dict = field(default_factory=dict)
    checks: tuple = ()
    data_upgrades: tuple = ()
    registers: tuple = ()
    grammars: tuple = ()                # the features' grammar.TitleGrammar, in order (grammar.py merges them)
    state: type | None = None           # the title's own state, a dataclass (None: it keeps none)
    features: tuple = ()

    def __deepcopy__(self, memo):   # what a package brings never changes: a copied Ruleset shares it
        return self


NONE = TitleParts()


def parts_of(package) -> TitleParts:
    """The parts of a title's package (its FEATURES in order; a package without the list is one
    feature)."""
    if package is None:
        return NONE
    features = tuple(getattr(package, "FEATURES", None) or (package,))
    knobs: dict = {}
    for f in features:
        for section, table in getattr(f, "KNOBS", {}).items():
            knobs.setdefault(section, {}).update(table)
    states = [f.STATE for f in features if getattr(f, "STATE", None) is not None]
    if len(states) > 1:
        raise TypeError(f"{package.__name__}: more than one feature declares the title's STATE")
    return TitleParts(
        name=package.__name__,
        knobs=knobs,
        legacy_knobs=merged(features, "LEGACY_KNOBS"),
        round_kinds=tuple(kind for f in features for kind in getattr(f, "ROUND_KINDS", ())),
        round_fields=round_fields_of(features),
        private_abilities=merged(features, "PRIVATE_ABILITIES"),
        ability_words=merged(features, "ABILITY_WORDS"),
        data_sections=merged(features, "DATA_SECTIONS"),
        checks=tuple(f.check for f in features if callable(getattr(f, "check", None))),
        data_upgrades=tuple(f.upgrade_data for f in features if callable(getattr(f, "upgrade_data", None))),
        registers=tuple(f.register for f in features if callable(getattr(f, "register", None))),
        grammars=tuple(f.GRAMMAR for f in features if getattr(f, "GRAMMAR", None) is not None),
        state=states[0] if states else None,
        features=features,
    )


def round_fields_of(features) -> dict:
    """The features' round fields, by round kind (two features may add to one kind)."""
    out: dict = {}
    for f in features:
        for kind, fields in getattr(f, "ROUND_FIELDS", {}).items():
            out.setdefault(kind, {}).update(fields)
    return out


def merged(features, name: str) -> dict:
    out: dict = {}
    for f in features:
        out.update(getattr(f, name, {}))
    return out


def namespace_of(module_name: str) -> str:
    """The title a module of rules belongs to ('rulesets.1801.nationals' -> '1801';
    'bank_titles.P01' -> 'P01'), or '' for the shared engine: a title's event kinds live in its
    own namespace."""
    parts = module_name.split(".")
    if len(parts) >= 2 and parts[0] in ("rulesets", "bank_titles"):
        return parts[1]
    return ""

