"""1843's own rules, a package of features (ledger.core.parts): each module holds what one thing
the title does needs, and FEATURES lists them in the order they register."""

from . import title

FEATURES = (title,)
