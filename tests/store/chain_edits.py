"""What someone holding a game file does to its chain after editing it: every hash from a row on
made again (with the key, when they hold it), the head and its seal set to match. Used by the
chain and record tests (tests/store/test_chain_anchor.py, test_known_games.py, test_ledger_sql.py)."""

from __future__ import annotations

from pathlib import Path

from ledger.books import chain
from ledger.books.store import Store


def local_key() -> chain.Key:
    key = chain.load_key()
    assert key is not None, "the tests keep a key in BANK_CONFIG_DIR"
    return key


def rechain(path: Path, first: int, key: bytes | None, keyed_from: int | None = None, derived: bool = True,
            links: bool = False) -> None:
    """Every hash from command `first` on made again, the head and its seal set to match;
    `keyed_from`: rows before it plain; `derived`: the rounds and worth per round in the hashes
    where the header says so; `links`: the table links' seal made again too (it is bound to the
    first row's hash)."""
    store = Store(path)
    try:
        conn = store.conn
        previous = conn.execute("select hash from commands where id < ? order by id desc limit 1",
                                (first,)).fetchone()
        previous = previous[0] if previous else ""
        head = 0
        rows = list(store.chain_rows(first - 1))
        derives = store.keying().derives if derived else (lambda _row: False)
        conn.execute("begin")
        for row, events in rows:
            use = key if keyed_from is None or row["id"] >= keyed_from else None
            previous, head = chain.command_hash(previous, row, events, use,
                                                row["worth"] if derives(row["id"]) else None), row["id"]
            conn.execute("update commands set hash = ? where id = ?", (previous, head))
        conn.execute("update game set chain_head = ?, chain_hash = ?, chain_seal = ? where id = 1",
                     (head, previous, chain.head_seal(head, previous, key)))
        if links:
            conn.execute("update game set chain_links = ? where id = 1",
                         (chain.links_seal(store.genesis(), store.link_rows(), key),))
        conn.execute("commit")
    finally:
        store.close()
