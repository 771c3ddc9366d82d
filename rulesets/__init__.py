"""The titles shipped with `bank`: one folder per title (its ruleset.toml, and its package of
rules when it has rules of its own), read by ledger.catalog."""

# The title `bank help`'s examples, `bank info` and `bank demo` use when no game is open: the
# classic every 18xx player knows.
DEFAULT = "1830"
