"""The SQLite ledger (through sqlite-utils): game header, commands as typed, events, postings.

Append-only: undo and redo change a command's status, never delete a row. One command is one
transaction, so a crash leaves either the whole command or none of it.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from . import ENGINE_VERSION
from .errors import CommandError, LedgerCorrupt

SCHEMA_VIEWS = {
    # balances from the postings of commands in force: `select * from balances`
    "balances": """
        select p.account, sum(p.amount) as balance
        from postings p join commands c on c.id = p.command_id
        where c.status = 'active' group by p.account order by p.account""",
    # who holds each certificate now, from the certificate moves of commands in force
    "holdings": """
        select m.cert, m.dest as holder from cert_moves m join commands c on c.id = m.command_id
        where c.status = 'active' and m.id = (
            select max(m2.id) from cert_moves m2 join commands c2 on c2.id = m2.command_id
            where c2.status = 'active' and m2.cert = m.cert)
        order by m.cert""",
    # each player's cash and net worth when each round began
    "worth_by_round": """
        select s.command_id, s.round, s.player, s.cash, s.shares, s.privates, s.value
        from snapshots s join commands c on c.id = s.command_id
        where c.status = 'active' order by s.command_id, s.player""",
    "active_events": """
        select e.* from events e join commands c on c.id = e.command_id
        where c.status = 'active' order by e.id""",
}


class Store:
    def __init__(self, path: str | Path, create: bool = False):
        self.path = Path(path)
        if not create and not self.path.exists():
            raise CommandError(f"no game at {self.path}", "start one with 'bank new 1830 Alice Bob Carol Dave' "
                               "or choose the file with --game PATH")
        self.conn = sqlite3.connect(str(self.path), isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("pragma journal_mode=wal")
        self.conn.execute("pragma synchronous=normal")
        self._db = None

    @property
    def db(self):
        """sqlite-utils over the same connection, imported only when a command needs it (creating
        a game, queries for views and exports): reading a game needs plain sqlite3 only, and
        sqlite-utils' import costs more than the rest of a `bank status`."""
        if self._db is None:
            import sqlite_utils
            self._db = sqlite_utils.Database(self.conn)
        return self._db

    def query(self, sql: str, params=()) -> list[dict]:
        return [dict(r) for r in self.conn.execute(sql, params)]

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------------ schema

    def create(self, header: dict) -> None:
        if "game" in self.db.table_names():
            raise CommandError(f"{self.path} already holds a game", "choose another file with --game PATH")
        with self.transaction():
            self.db["game"].insert({"id": 1, **header}, pk="id")
            self.db["commands"].create({"id": int, "text": str, "verb": str, "args": str, "status": str,
                                        "at": str}, pk="id")
            self.db["events"].create({"id": int, "command_id": int, "seq": int, "kind": str, "data": str},
                                     pk="id", foreign_keys=[("command_id", "commands", "id")])
            self.db["postings"].create({"id": int, "event_id": int, "command_id": int, "account": str,
                                        "amount": int, "counterparty": str}, pk="id",
                                       foreign_keys=[("event_id", "events", "id"), ("command_id", "commands", "id")])
            self.db["cert_moves"].create({"id": int, "event_id": int, "command_id": int, "cert": str,
                                          "source": str, "dest": str}, pk="id")
            self.db["snapshots"].create({"id": int, "command_id": int, "round": str, "player": str, "cash": int,
                                         "shares": int, "privates": int, "value": int}, pk="id")
            self.db["events"].create_index(["command_id"])
            self.db["cert_moves"].create_index(["cert"])
            self.db["postings"].create_index(["command_id"])
            for name, sql in SCHEMA_VIEWS.items():
                self.db.create_view(name, sql, replace=True)

    def transaction(self):
        return _Transaction(self.conn)

    # ------------------------------------------------------------------ reading

    def header(self) -> dict:
        try:
            rows = self.query("select * from game where id = 1")
        except sqlite3.DatabaseError as exc:
            raise LedgerCorrupt(f"{self.path} is not a bank game file ({exc})") from exc
        if not rows:
            raise LedgerCorrupt(f"{self.path} is not a bank game file (no game header)")
        row = rows[0]
        if row.get("engine_version", 0) > ENGINE_VERSION:
            raise LedgerCorrupt(f"{self.path} was written by a newer engine (version {row['engine_version']}; "
                                f"this is version {ENGINE_VERSION})", "upgrade bank to open it")
        return row

    def active_events(self) -> list[dict]:
        rows = self.conn.execute(
            "select e.data from events e join commands c on c.id = e.command_id "
            "where c.status = 'active' order by e.id").fetchall()
        return [json.loads(r[0]) for r in rows]

    def commands(self, include_undone: bool = True) -> list[dict]:
        sql = "select * from commands" + ("" if include_undone else " where status = 'active'") + " order by id"
        return self.query(sql)

    def events_of(self, command_id: int) -> list[dict]:
        return [json.loads(r["data"]) for r in self.query(
            "select data from events where command_id = ? order by id", [command_id])]

    def last(self, status: str) -> dict | None:
        rows = self.query("select * from commands where status = ? and verb not in ('new') "
                          "order by id desc limit 1", [status])
        return rows[0] if rows else None

    # ------------------------------------------------------------------ writing

    def append(self, text: str, verb: str, args: dict, events: list[dict], status: str = "active") -> int:
        """Store a command with its events and their postings (call inside a transaction)."""
        cur = self.conn.execute(
            "insert into commands (text, verb, args, status, at) values (?, ?, ?, ?, ?)",
            (text, verb, json.dumps(args), status, datetime.now(timezone.utc).isoformat(timespec="seconds")))
        command_id = cur.lastrowid
        for seq, event in enumerate(events):
            ev = self.conn.execute("insert into events (command_id, seq, kind, data) values (?, ?, ?, ?)",
                                   (command_id, seq, event["kind"], json.dumps(event)))
            rows = []
            for payer, payee, amount in event.get("transfers", ()):
                rows.append((ev.lastrowid, command_id, payer, -amount, payee))
                rows.append((ev.lastrowid, command_id, payee, amount, payer))
            if rows:
                self.conn.executemany("insert into postings (event_id, command_id, account, amount, counterparty) "
                                      "values (?, ?, ?, ?, ?)", rows)
            moves = [(ev.lastrowid, command_id, cert, src, dest) for cert, src, dest in event.get("certs", ())]
            if moves:
                self.conn.executemany("insert into cert_moves (event_id, command_id, cert, source, dest) "
                                      "values (?, ?, ?, ?, ?)", moves)
        return command_id

    def snapshot(self, command_id: int, round_label: str, rows: list[dict]) -> None:
        self.conn.executemany(
            "insert into snapshots (command_id, round, player, cash, shares, privates, value) values (?,?,?,?,?,?,?)",
            [(command_id, round_label, r["player"], r["cash"], r["shares"], r["privates"], r["value"]) for r in rows])

    def set_status(self, command_id: int, status: str) -> None:
        self.conn.execute("update commands set status = ? where id = ?", (status, command_id))


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("begin immediate")
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.conn.execute("commit")
        else:
            self.conn.execute("rollback")
        return False
