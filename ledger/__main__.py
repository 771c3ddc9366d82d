"""`python -m ledger ...` is the `bank` command."""

from ledger.interface.cli import main

main()
