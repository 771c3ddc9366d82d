"""1839's own rules, a package of features (ledger.core.parts): each module holds what one thing
the title does needs, and FEATURES lists them in the order they register (the order of each hook's
calls: obsolescence closes privates before the foreign revenue track clears, and before the stock
powers note the floats)."""

from . import common, draws, foreign, markers, obsolescence, powers, publics, status, stock_powers

FEATURES = (common, draws, publics, markers, powers, obsolescence, stock_powers, foreign, status)
