"""A game file changed or read as an outsider would, with the sqlite3 module alone (the sqlite3
shell, a script, an older bank): what the store's tests tamper with and look at."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def sql(path: Path, *statements: str, params=()) -> None:
    """Run statements on the file and commit them (each with `params`)."""
    conn = sqlite3.connect(str(path))
    try:
        for statement in statements:
            conn.execute(statement, params)
        conn.commit()
    finally:
        conn.close()


def one(path: Path, query: str):
    """The first row a query reads, the file opened read-only."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(query).fetchone()
    finally:
        conn.close()
