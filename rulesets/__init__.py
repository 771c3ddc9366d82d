"""Per-title rules data shipped with `bank` (one folder per title, read by ledger.ruleset)."""
