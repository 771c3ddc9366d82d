"""Damaged and tampered copies of a game file, made the ways files get damaged (a copy cut short,
flipped bits in a page) and edited (the sqlite3 shell: a row's JSON, a deleted row, a moved
status). Used by tests/store/test_never_write_damaged.py and bench/write_checks.py.

    tamper("index_page_flip", path)   # changes the file in place

Each kind is one change an outsider makes to a sound game file; `KINDS` lists them all.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from outside import one, sql

PAGE = 4096


def _flip(path: Path, offsets: list[int]) -> None:
    data = bytearray(path.read_bytes())
    for at in offsets:
        data[at] ^= 0x55
    path.write_bytes(bytes(data))


def _page_of(path: Path, name: str) -> int:
    """The (1-based) root page of a table or index."""
    return one(path, f"select rootpage from sqlite_master where name = '{name}'")[0]


def _middle(path: Path, table: str = "commands", where: str = "") -> int:
    """The id of a row in the middle of a table."""
    low, high = one(path, f"select min(id), max(id) from {table} {where}")
    return one(path, f"select min(id) from {table} where id >= {(low + high) // 2} "
                      f"{'and ' + where.removeprefix('where ') if where else ''}")[0]


def truncate_one_byte(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-1])


def truncate_one_page(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-PAGE])


def index_page_flip(path: Path) -> None:
    """Bytes near the end of the events' index page (its cells' keys): the table reads as before,
    the index no longer matches it."""
    page = _page_of(path, "idx_events_command_id")
    start = (page - 1) * PAGE
    _flip(path, [start + PAGE - 3, start + PAGE - 9])


def table_page_flip(path: Path) -> None:
    """A byte inside an event's JSON as it lies on its page (a bit rotted on the disk)."""
    data = path.read_bytes()
    event_id, text = one(path, f"select id, data from events where id = "
                                f"{_middle(path, 'events', 'where kind = ' + repr('share_bought'))}")
    at = data.find(text.encode())
    assert at > 0, "the event's text lies across pages"
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    _flip_digit(path, at + digits[0])


def _flip_digit(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] = ord("7") if data[at] != ord("7") else ord("3")
    path.write_bytes(bytes(data))


def zeroed_page(path: Path) -> None:
    data = path.read_bytes()
    page = _page_of(path, "events")
    start = (page - 1) * PAGE
    path.write_bytes(data[:start] + bytes(PAGE) + data[start + PAGE:])


def header_page_count(path: Path) -> None:
    """The file header's page count (bytes 28-31) says one page more than there is."""
    data = bytearray(path.read_bytes())
    count = int.from_bytes(data[28:32], "big")
    data[28:32] = (count + 1).to_bytes(4, "big")
    path.write_bytes(bytes(data))


def event_json(path: Path) -> None:
    """A payment in a middle event made larger: its transfer and nothing else."""
    conn = sqlite3.connect(str(path))
    try:
        for event_id, data in conn.execute("select id, data from events where data like '%\"transfers\": [[%' "
                                           "order by id").fetchall()[10:]:
            event = json.loads(data)
            if event["transfers"] and isinstance(event["transfers"][0][2], int):
                event["transfers"][0][2] += 10
                conn.execute("update events set data = ? where id = ?", (json.dumps(event), event_id))
                conn.commit()
                return
    finally:
        conn.close()
    raise AssertionError("no payment to edit")


def command_deleted_middle(path: Path) -> None:
    sql(path, f"delete from commands where id = {_middle(path)}")


def command_and_events_deleted_middle(path: Path) -> None:
    middle = _middle(path)
    sql(path, f"delete from postings where command_id = {middle}", f"delete from cert_moves where command_id = {middle}",
         f"delete from cert_percents where command_id = {middle}", f"delete from snapshots where command_id = {middle}",
         f"delete from events where command_id = {middle}", f"delete from commands where id = {middle}")


def command_text(path: Path) -> None:
    sql(path, f"update commands set text = text || ' ' where id = {_middle(path)}")


def command_time(path: Path) -> None:
    sql(path, f"update commands set at = '2001-01-01T00:00:00+00:00' where id = {_middle(path)}")


def command_author(path: Path) -> None:
    sql(path, f"update commands set entered_by = 'player:Bob' where id = {_middle(path)}")


def command_status(path: Path) -> None:
    sql(path, f"update commands set status = 'undone' where id = {_middle(path)}")


def command_round(path: Path) -> None:
    sql(path, f"update commands set round = 'OR 9.9' where id = {_middle(path)}")


def last_round_cleared(path: Path) -> None:
    """The last command's round emptied: a write that fills missing rounds must not fill this one."""
    sql(path, "update commands set round = 'SR 9' where id = (select max(id) - 1 from commands)",
         "update commands set round = null where id = (select max(id) from commands)")


def event_deleted_middle(path: Path) -> None:
    sql(path, f"delete from events where id = {_middle(path, 'events')}")


def event_inserted(path: Path) -> None:
    middle = _middle(path)
    sql(path, f"insert into events (command_id, seq, kind, data) values ({middle}, 99, 'count', "
               f"'{{\"kind\": \"count\", \"player\": \"player:Alice\"}}')")


def posting_amount(path: Path) -> None:
    sql(path, f"update postings set amount = amount + 10 where id = {_middle(path, 'postings')}")


def posting_deleted(path: Path) -> None:
    sql(path, f"delete from postings where id = {_middle(path, 'postings')}")


def cert_move_dest(path: Path) -> None:
    sql(path, f"update cert_moves set dest = 'pool' where id = {_middle(path, 'cert_moves')}")


def cert_moves_reordered(path: Path) -> None:
    first, last = one(path, "select min(id), max(id) from cert_moves where cert = "
                             "(select cert from cert_moves group by cert having count(*) > 1 limit 1)")
    sql(path, f"update cert_moves set id = -1 where id = {first}",
         f"update cert_moves set id = {first} where id = {last}", f"update cert_moves set id = {last} where id = -1")


def cert_percent(path: Path) -> None:
    sql(path, "update cert_percents set percent = percent + 10 where id = (select min(id) from cert_percents)")


def worth_snapshot(path: Path) -> None:
    sql(path, f"update snapshots set value = value + 100 where id = {_middle(path, 'snapshots')}")


def state_snapshot_state(path: Path) -> None:
    """A balance added to the latest state snapshot (the cache a game opens from)."""
    sql(path, "update state_snapshots set state = replace(state, '\"balances\":{', '\"balances\":{\"x\":1,') "
               "where command_id = (select max(command_id) from state_snapshots)")


def chain_head_null(path: Path) -> None:
    sql(path, "update game set chain_head = null, chain_hash = null")


def superseded_status(path: Path) -> None:
    sql(path, f"update commands set status = 'superseded' where id = {_middle(path)}")


# name -> what it does to the file
KINDS = {name: fn for name, fn in dict(globals()).items()
         if callable(fn) and not name.startswith("_") and fn.__module__ == __name__ and name not in ("tamper",)}
# the file cut or its pages changed, as opposed to rows edited through SQLite
PAGE_DAMAGE = ["truncate_one_byte", "truncate_one_page", "index_page_flip", "table_page_flip", "zeroed_page",
               "header_page_count"]


def tamper(kind: str, path: Path) -> None:
    KINDS[kind](Path(path))
