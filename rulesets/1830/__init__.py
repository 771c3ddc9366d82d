"""1830 is the base title: nearly every rule it plays is the shared core's, its numbers are
ruleset.toml's. FEATURES lists the few rules the core leaves to the title.
"""

from . import forced_train

FEATURES = (forced_train,)
