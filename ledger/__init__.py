"""bank: the bank and bookkeeper for physical 18xx games.

- `ledger.core`: the pure engine (rules data, state, events, rounds and rules; no I/O);
- `ledger.books`: the SQLite ledger (store, session, audit, history, export);
- `ledger.interface`: what a person uses (the `bank` CLI, the shell, views, charts);
- `ledger.importer`: 18xx.games logs read into games.
"""

# Stored in every game file; a file written by a newer engine is refused, never rewritten.
# 1: events with free-form `round_update` bookkeeping; 2: every event kind declared (core/events/);
# 3: a command may be superseded by an insert (`insert --before`) and one undo may hide several
# (`undo --to`, an insert taken back), which an engine of version 2 would redo one command at a time;
# 4: every command row chained to the one before it by a hash (books/chain.py), which an engine of
# version 3 would write without, breaking the chain; amend and restore records.
# 5: event kinds in each title's namespace and a title's own typed state in snapshots; a rusted
# certificate bought again is flagged `rusted` (an older engine would not read the flag).
# 6: a round's fields typed (core/round_state.py); 1801's packet events give the round's new fields
# as fields of their own, not a bag `update` (an older engine would not read them).
ENGINE_VERSION = 6
__version__ = "0.1.0"
