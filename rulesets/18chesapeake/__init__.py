"""18Chesapeake's own rules, a package of features (ledger.core.parts): what its data cannot say.
Everything else of the title is data (ruleset.toml)."""

from . import two_player

FEATURES = (two_player,)
