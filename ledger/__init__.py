"""bank: the bank and bookkeeper for physical 18xx games.

The engine core is pure: `engine.decide` turns a command into events, `state.apply` applies them,
`engine.replay` rebuilds a game from its events. The CLI (`ledger.cli`) and the SQLite store
(`ledger.store`) are thin shells around it.
"""

# Stored in every game file; a file written by a newer engine is refused, never rewritten.
ENGINE_VERSION = 1
__version__ = "0.1.0"
