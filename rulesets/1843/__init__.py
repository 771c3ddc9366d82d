"""1843 (J C Lawrence's 18FR-RCE): what only 1843 has, a package of features (ledger.core.parts),
each a module holding one thing the title does: its events, verbs, rules, status lines and
registration. The numbers are ruleset.toml's.

FEATURES lists them in the order they register, which is the order their hooks run: the owned-train
end sees a set before the ports pay (or_started) and counts it before the foreigners buy
(or_set_ended); the new verbs come port, flip, use (the Next line's order).
"""

from . import base, brief_or, foreigners, owned_train_end, ports, relics, station_moves, val_de_loire

FEATURES = (base, brief_or, owned_train_end, ports, foreigners, relics, val_de_loire, station_moves)
