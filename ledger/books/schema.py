"""The game file's schema: its tables, the views a person queries, its version and its migrations.

The schema's version is SQLite's own `PRAGMA user_version`: 0 for every file written before it was
kept (engine versions 1 to 5 wrote a schema that `Store`'s `ensure_*` steps still complete on a
write), then one more for each migration in `MIGRATIONS`. A file is migrated forward on its first
write, never on a read (a read leaves the file as it was, to the byte): each step runs in its own
`BEGIN IMMEDIATE` transaction with the `user_version` it reaches and its row in `schema_migrations`,
before the command's own transaction, which stays the one transaction of the command. A crash
between two steps leaves a file at the earlier version, which the next write carries on from. A
file whose `user_version` is above `SCHEMA_VERSION` was written by a newer bank and is refused.

Tables keep the names earlier versions gave them (`snapshots`, `cert_moves`): a bank of the same
engine version from before the schema was versioned still writes to them, and renaming them would
break it and every query people wrote. The views below say what they hold instead: `worth_by_round`
reads `snapshots` (each player's cash and worth when a round began), and `state_snapshots`, the
cache a game is opened from, is never what a person wants to read (`bank audit` checks it).

One description of the tables (`TABLES`) serves both ways a file gets them. A migration works
with sqlite-utils (the design card's library): its foreign keys (`transform`), tables, views
(`create_view`) and the rows it records. A new game is created from the same description in plain
SQL, and a command's own rows (events, postings, certificate moves and percents) are written by
`Store.append` with plain `executemany` in the command's transaction: importing sqlite-utils costs
more than a whole `bank status` (about 0.18 s; tests/store/test_snapshots.py keeps `new`, `status`
and a command from importing it), so only a migration, once per file, pays for it. sqlite-utils'
`atomic()` inside an open transaction is a savepoint, so nothing it does commits on its own:
`migrate` commits each step.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

# The version this bank writes. One more than the last migration's.
SCHEMA_VERSION = 6

# Each table: (columns, primary key, foreign keys, defaults), as sqlite-utils creates them.
TABLES = {
    "game": ({"id": int, "title": str, "players": str, "options": str, "ruleset_text": str,
              "ruleset_override": str, "ruleset_hash": str, "engine_version": int, "chain_head": int,
              "chain_hash": str, "chain_seal": str, "chain_links": str, "chain_key": str,
              "chain_keyed_from": int, "chain_derived_from": int}, [], {}),
    "commands": ({"id": int, "text": str, "verb": str, "args": str, "status": str, "at": str, "hash": str,
                  "entered_by": str, "round": str}, [], {"entered_by": "terminal"}),
    "events": ({"id": int, "command_id": int, "seq": int, "kind": str, "data": str},
               [("command_id", "commands", "id")], {}),
    "postings": ({"id": int, "event_id": int, "command_id": int, "account": str, "amount": int,
                  "counterparty": str}, [("event_id", "events", "id"), ("command_id", "commands", "id")], {}),
    "cert_moves": ({"id": int, "event_id": int, "command_id": int, "cert": str, "source": str, "dest": str},
                   [("event_id", "events", "id"), ("command_id", "commands", "id")], {}),
    "cert_percents": ({"id": int, "event_id": int, "command_id": int, "cert": str, "company": str,
                       "percent": int}, [("event_id", "events", "id"), ("command_id", "commands", "id")], {}),
    "snapshots": ({"id": int, "command_id": int, "round": str, "player": str, "cash": int, "shares": int,
                   "privates": int, "value": int}, [("command_id", "commands", "id")], {}),
    "schema_migrations": ({"version": int, "name": str, "applied_at": str, "how": str}, [], {}),
}
PRIMARY_KEYS = {"schema_migrations": "version"}
INDEXES = [("events", ["command_id"], "idx_events_command_id"), ("cert_moves", ["cert"], "idx_cert_moves_cert"),
           ("postings", ["command_id"], "idx_postings_command_id"),
           ("cert_percents", ["cert"], "idx_cert_percents_cert")]


# --------------------------------------------------------------------------- views

def kind_of(col: str) -> str:
    """SQL: what kind of account or holder `col` is ('player', 'company', 'ipo', 'treasury', 'pool',
    'bank', 'mint', ...): the prefix before the colon, or the whole name."""
    return f"(case when instr({col}, ':') > 0 then substr({col}, 1, instr({col}, ':') - 1) else {col} end)"


def name_of(col: str) -> str:
    """SQL: an account or holder as the table says it: 'Alice', 'PRR', 'PRR IPO', 'BEL treasury',
    'pool', 'bank'."""
    return (f"(case when {col} like 'player:%' then substr({col}, 8) when {col} like 'company:%' then substr({col}, 9) "
            f"when {col} like 'ipo:%' then substr({col}, 5) || ' IPO' "
            f"when {col} like 'treasury:%' then substr({col}, 10) || ' treasury' else {col} end)")


def field(name: str, alias: str = "e") -> str:
    return f"json_extract({alias}.data, '$.{name}')"


ACTIVE = "join commands c on c.id = {t}.command_id and c.status = 'active'"

# a certificate's percent at the moment of a certificate move `m` (a company converted later, 1801,
# re-values its certificates after it)
PERCENT_AT_MOVE = ("(select cp.percent from cert_percents cp join commands cc on cc.id = cp.command_id "
                   "where cc.status = 'active' and cp.cert = m.cert and cp.event_id <= m.event_id "
                   "order by cp.event_id desc, cp.id desc limit 1)")


def share_trades(kinds: str, who: str, price: str) -> str:
    """The rows of `trades` for events that move share certificates: seller and buyer are the first
    certificate's holders before and after."""
    return f"""
        select x.command_id, x.event_id, x.round, x.event, 'share' as trade, {who} as who,
            {field('corp', 'x')} as what, x.certificates as count, x.percent,
            {name_of('x.source')} as seller, {name_of('x.dest')} as buyer, {price} as price,
            {field('price', 'x')} as share_price
        from (select e.id as event_id, e.command_id, c.round, e.kind as event, e.data,
                (select count(*) from cert_moves m where m.event_id = e.id) as certificates,
                (select sum({PERCENT_AT_MOVE}) from cert_moves m where m.event_id = e.id) as percent,
                (select m.source from cert_moves m where m.event_id = e.id order by m.id limit 1) as source,
                (select m.dest from cert_moves m where m.event_id = e.id order by m.id limit 1) as dest
              from events e {ACTIVE.format(t='e')} where e.kind in ({kinds})) x
        where x.certificates > 0"""


def other_trades(kind: str, trade: str, who: str, what: str, seller: str, buyer: str, price: str = None) -> str:
    return f"""
        select e.command_id, e.id as event_id, c.round, e.kind as event, '{trade}' as trade, {who} as who,
            {what} as what, 1 as count, null as percent, {name_of(seller)} as seller, {name_of(buyer)} as buyer,
            {price or field('price')} as price, null as share_price
        from events e {ACTIVE.format(t='e')} where e.kind = '{kind}'"""


def paid_by_player(alias: str = "x") -> str:
    """SQL: what the event's player paid in all (their postings' debits)."""
    return (f"(select -sum(p.amount) from postings p where p.event_id = {alias}.event_id and p.amount < 0 "
            f"and p.account = 'player:' || {field('player', alias)})")


PER_SHARE = field("per_share")
VIEWS = {
    # every account the ledger names, with its kind and the name the table says
    "accounts": f"""
        select account, {kind_of('account')} as kind, {name_of('account')} as name from (
            select account from postings union select counterparty from postings
            union select source from cert_moves union select dest from cert_moves)
        where account is not null order by kind, account""",
    # balances from the postings of commands in force: `select * from balances`
    "balances": f"""
        select p.account, {kind_of('p.account')} as kind, {name_of('p.account')} as name, sum(p.amount) as balance
        from postings p {ACTIVE.format(t='p')} group by p.account order by p.account""",
    # the money transfers of the commands in force (not undone, not superseded), each as two rows
    "active_postings": f"""
        select p.id, p.command_id, c.round, c.text as command, p.event_id, e.kind as event,
            p.account, {kind_of('p.account')} as kind, {name_of('p.account')} as name, p.amount,
            p.counterparty, {name_of('p.counterparty')} as counterparty_name
        from postings p {ACTIVE.format(t='p')} join events e on e.id = p.event_id order by p.id""",
    # every certificate now: its company and percent
    "certificates": """
        select cp.cert, cp.company, cp.percent from cert_percents cp join commands c on c.id = cp.command_id
        where c.status = 'active' and cp.id = (
            select max(cp2.id) from cert_percents cp2 join commands c2 on c2.id = cp2.command_id
            where c2.status = 'active' and cp2.cert = cp.cert)
        order by cp.company, cp.cert""",
    # who holds each certificate now, from the certificate moves of commands in force
    "holdings": f"""
        select m.cert, m.dest as holder, k.company, k.percent, {kind_of('m.dest')} as holder_kind,
            {name_of('m.dest')} as holder_name
        from cert_moves m join commands c on c.id = m.command_id left join certificates k on k.cert = m.cert
        where c.status = 'active' and m.id = (
            select max(m2.id) from cert_moves m2 join commands c2 on c2.id = m2.command_id
            where c2.status = 'active' and m2.cert = m.cert)
        order by m.cert""",
    # who holds what of each company now: percent and certificates by holder
    "holdings_by_company": """
        select company, holder_name as holder, holder_kind, sum(percent) as percent, count(*) as certificates,
            holder as account
        from holdings group by company, holder order by company, sum(percent) desc, holder""",
    # every run of a company: its revenue, how it was paid (paid, withheld or half) and per share
    "dividends": f"""
        select e.command_id, e.id as event_id, c.round, {field('corp')} as company, {field('revenue')} as revenue,
            case {field('how')} when 'pay' then 'paid' when 'withhold' then 'withheld' else {field('how')} end as how,
            case when {PER_SHARE} is null then null
                 when instr({PER_SHARE}, '/') > 0 then
                     cast(substr({PER_SHARE}, 1, instr({PER_SHARE}, '/') - 1) as real)
                     / cast(substr({PER_SHARE}, instr({PER_SHARE}, '/') + 1) as real)
                 else cast({PER_SHARE} as integer) end as per_share,
            coalesce((select sum(json_extract(p.value, '$[2]')) from json_each(e.data, '$.payees') p), 0) as paid_out,
            coalesce({field('kept')}, case {field('how')} when 'withhold' then {field('revenue')} else 0 end) as kept
        from events e {ACTIVE.format(t='e')} where e.kind = 'revenue' order by e.id""",
    # each holder's part of every payout
    "payouts": f"""
        select e.command_id, e.id as event_id, c.round, {field('corp')} as company,
            {name_of("json_extract(p.value, '$[0]')")} as holder, {kind_of("json_extract(p.value, '$[0]')")} as holder_kind,
            json_extract(p.value, '$[1]') as shares, json_extract(p.value, '$[2]') as amount
        from events e {ACTIVE.format(t='e')}, json_each(e.data, '$.payees') p
        where e.kind = 'revenue' order by e.id, p.key""",
    # every purchase and sale of shares, privates, trains and ports in force: who acted, what moved
    # from the seller to the buyer, how many certificates and what percent, and the price in all
    "trades": " union all ".join([
        share_trades("'share_bought', 'par'", field("player", "x"), paid_by_player()),
        share_trades("'shares_sold'", field("player", "x"), field("amount", "x")),
        share_trades("'shares_issued', 'foreign_buy_back'", field("corp", "x"),
                     f"coalesce({field('amount', 'x')}, {field('price', 'x')})"),
        other_trades("private_bought", "private", field("player"), field("private"), "'bank'", field("player")),
        other_trades("private_sold", "private", field("corp"), field("private"), field("seller"), field("corp")),
        other_trades("packet_sold", "private", field("player"), field("item"), "'bank'", field("player")),
        other_trades("port_sold", "port", field("corp"), field("port"), field("seller"), field("corp")),
        other_trades("train_bought", "train", field("corp"), field("type"), field("seller"), field("corp")),
        other_trades("foreign_train_bought", "train", field("corp"), field("type"), "'depot'", field("corp")),
        other_trades("pullman_bought", "pullman", field("corp"), field("pullman"), "'bank'", field("corp")),
    ]) + " order by event_id",
    # each player's cash and net worth when each round began (the table `snapshots`)
    "worth_by_round": """
        select s.command_id, s.round, s.player, s.cash, s.shares, s.privates, s.value
        from snapshots s join commands c on c.id = s.command_id
        where c.status = 'active' order by s.command_id, s.player""",
    "active_events": """
        select e.* from events e join commands c on c.id = e.command_id
        where c.status = 'active' order by e.id""",
}

def utils(conn: sqlite3.Connection):
    import sqlite_utils
    return sqlite_utils.Database(conn)


SQL_TYPES = {int: "integer", str: "text"}


def table_sql(name: str) -> str:
    """The `create table` of one table of TABLES, in plain SQL: a new game is created without
    importing sqlite-utils (see the module's docstring), with the same columns, keys and defaults
    sqlite-utils gives a migrated file."""
    columns, foreign_keys, defaults = TABLES[name]
    pk = PRIMARY_KEYS.get(name, "id")
    refs = {column: (other, key) for column, other, key in foreign_keys}
    parts = []
    for column, kind in columns.items():
        part = f"{column} {SQL_TYPES[kind]}"
        if column == pk:
            part += " primary key"
        if column in refs:
            part += f" references {refs[column][0]}({refs[column][1]})"
        if column in defaults:
            part += f" default '{defaults[column]}'"
        parts.append(part)
    return f"create table {name} ({', '.join(parts)})"


def create_tables(conn: sqlite3.Connection) -> None:
    """Every table, index and view of a new game file, at this version (inside its transaction)."""
    for name in TABLES:
        conn.execute(table_sql(name))
    for table, columns, index in INDEXES:
        conn.execute(f"create index {index} on {table} ({', '.join(columns)})")
    for name, sql in VIEWS.items():
        conn.execute(f"create view {name} as {sql.strip()}")
    conn.execute("insert into schema_migrations (version, name, applied_at, how) values (?, ?, ?, ?)",
                 (SCHEMA_VERSION, "created at this version", now(), "created"))
    conn.execute(f"pragma user_version = {SCHEMA_VERSION}")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def create_views(db, views: dict[str, str]) -> None:
    for name in views:
        if name in db.view_names():
            db[name].drop()
    for name, sql in views.items():
        db.create_view(name, sql.strip())


def record(db, version: int, name: str, how: str) -> None:
    db["schema_migrations"].insert({"version": version, "name": name, "how": how, "applied_at": now()},
                                   replace=True)


# --------------------------------------------------------------------------- migrations

@dataclass
class Derived:
    """What a migration needs from the game itself, which only the session can work out: each
    command's round (a replay) and each certificate's percent at the start (the stored ruleset, for
    games whose start did not record them)."""
    rounds: Callable[[int], list[tuple[str, int]]]      # first command -> [(round label, command id)]
    start_percents: Callable[[], dict[str, int]]
    # the record's chain made whole, keyed and sealed (Store.ensure_chain: it knows the key)
    chain: Callable[[], None] | None = None


def migration_1(db, derived: Derived) -> None:
    """cert_moves and snapshots refer to their events and commands (foreign keys, for SQL tools and
    Datasette): the two tables are rebuilt with every row and id as it was. The legacy rename
    leaves the views that read them (anyone's) as they are written, by name."""
    db.execute("pragma legacy_alter_table = on")
    try:
        if db["cert_moves"].exists():
            db["cert_moves"].transform(add_foreign_keys=[("event_id", "events", "id"),
                                                         ("command_id", "commands", "id")])
        if db["snapshots"].exists():
            db["snapshots"].transform(add_foreign_keys=[("command_id", "commands", "id")])
    finally:
        db.execute("pragma legacy_alter_table = off")


def migration_2(db, derived: Derived) -> None:
    """Each command's round (`commands.round`, as `bank log` names it), worked out by a replay."""
    if "round" not in db["commands"].columns_dict:
        db.execute("alter table commands add column round text")
    fill_rounds(db.conn, derived.rounds(1))


def migration_3(db, derived: Derived) -> None:
    """Each certificate's company and percent (`cert_percents`), from the events that set them, and
    from the stored ruleset for a start that did not record them."""
    columns, foreign_keys, defaults = TABLES["cert_percents"]
    db["cert_percents"].create(columns, pk="id", foreign_keys=foreign_keys, defaults=defaults, if_not_exists=True)
    db["cert_percents"].create_index(["cert"], index_name="idx_cert_percents_cert", if_not_exists=True)
    fill_cert_percents(db.conn, 1, derived.start_percents)


def migration_4(db, derived: Derived) -> None:
    """The views for SQL readers: dividends, payouts, trades, holdings with company and percent,
    holdings by company, active postings, accounts and certificates, with readable names."""
    create_views(db, VIEWS)


def migration_5(db, derived: Derived) -> None:
    """The record's chain kept for good (ledger.books.chain): a file from before the chain is
    chained as it is, and the header gets the seals of the head and of the table's links and the
    id of the key the rows are chained with from now on (the user's own, where it can be kept).
    From this version on a chain that is missing, cleared or unsealed is refused at open."""
    if derived.chain is None:
        raise RuntimeError("the chain's migration needs the store (Derived.chain)")
    derived.chain()


def migration_6(db, derived: Derived) -> None:
    """The rows' hashes cover what a replay derives from them too (ledger.books.chain): each
    command's round and the worth per round it recorded, from the next command on
    (`game.chain_derived_from`); the rows recorded before keep their hashes."""
    if "chain_derived_from" not in db["game"].columns_dict:
        db.execute("alter table game add column chain_derived_from integer")
    db.execute("update game set chain_derived_from = (select coalesce(max(id), 0) + 1 from commands) "
               "where id = 1 and chain_derived_from is null")


# In order; step N takes a file from user_version N - 1 to N. Append new steps, never change one.
MIGRATIONS: list[tuple[str, Callable]] = [
    ("foreign keys of cert_moves and snapshots", migration_1),
    ("commands.round", migration_2),
    ("cert_percents", migration_3),
    ("views for SQL readers", migration_4),
    ("the chain sealed and keyed", migration_5),
    ("the chain covers each command's round and worth per round", migration_6),
]
assert len(MIGRATIONS) == SCHEMA_VERSION


def version_of(conn: sqlite3.Connection) -> int:
    return conn.execute("pragma user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection, derived: Derived) -> list[int]:
    """Carry the file forward to SCHEMA_VERSION, one step per transaction (call outside any
    transaction). Each step reads the version again once it holds the write lock, so two banks
    writing at once apply each step once. Returns the versions reached."""
    done = []
    while True:
        conn.execute("begin immediate")
        try:
            version = version_of(conn)
            if version >= SCHEMA_VERSION:
                conn.execute("rollback")
                return done
            name, step = MIGRATIONS[version]
            db = utils(conn)
            if not db["schema_migrations"].exists():
                columns, _fk, _defaults = TABLES["schema_migrations"]
                db["schema_migrations"].create(columns, pk="version")
            step(db, derived)
            record(db, version + 1, name, "migrated")
            conn.execute(f"pragma user_version = {version + 1}")
            conn.execute("commit")
            done.append(version + 1)
        except BaseException:
            if conn.in_transaction:
                conn.execute("rollback")
            raise


# --------------------------------------------------------------------------- derived rows

def fill_rounds(conn: sqlite3.Connection, rounds: list[tuple[str, int]]) -> None:
    conn.executemany("update commands set round = ? where id = ?", rounds)


def percent_rows(event_id: int, command_id: int, event: dict, start_percents) -> list[tuple]:
    """The cert_percents rows of one event: the percents it sets (a game's start, a company
    converted), or for a start that did not record them, the ruleset's."""
    from ledger.core.state import cert_corp
    percents = event.get("percents")
    if not isinstance(percents, dict) or not percents:
        if event.get("kind") != "game_started":
            return []
        percents = start_percents()
    return [(event_id, command_id, cert, cert_corp(cert), percent) for cert, percent in percents.items()]


def fill_cert_percents(conn: sqlite3.Connection, first: int, start_percents) -> None:
    """The cert_percents rows of every command from `first` on, derived again from their events."""
    import json
    conn.execute("delete from cert_percents where command_id >= ?", (first,))
    rows = []
    for event_id, command_id, data in conn.execute(
            "select id, command_id, data from events where command_id >= ? and (kind = 'game_started' "
            "or data like '%\"percents\"%') order by id", (first,)).fetchall():
        rows += percent_rows(event_id, command_id, json.loads(data), start_percents)
    conn.executemany("insert into cert_percents (event_id, command_id, cert, company, percent) values (?, ?, ?, ?, ?)",
                     rows)
