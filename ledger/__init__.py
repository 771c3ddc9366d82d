"""bank: the bank and bookkeeper for physical 18xx games.

- `ledger.core`: the pure engine (rules data, state, events, rounds and rules; no I/O);
- `ledger.books`: the SQLite ledger (store, session, audit, history, export);
- `ledger.interface`: what a person uses (the `bank` CLI, the shell, views, charts);
- `ledger.importer`: 18xx.games logs read into games.
"""

# Stored in every game file; a file written by a newer engine is refused, never rewritten.
# 1: events with free-form `round_update` bookkeeping; 2: every event kind declared (core/events.py).
ENGINE_VERSION = 2
__version__ = "0.1.0"
