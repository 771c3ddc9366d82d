"""The ledger as a person reads it in SQL or Datasette (ledger.books.schema): the views of
dividends, payouts, trades, holdings, holdings by company, active postings and balances, with
readable names and no json_extract; foreign keys; the schema versioned with `PRAGMA user_version`
and migrated forward on the first write, one transaction per step; a newer file refused.

Each example is played once into a file (module fixture) and every view is checked against the
game: what `bank log` and `bank status` say, the events, and the postings."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest
from chain_edits import local_key, rechain
from cli_driver import Bank

from ledger.books import schema
from ledger.books.session import Session
from ledger.books.store import Store
from ledger.core.errors import LedgerCorrupt

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
V1 = ROOT / "tests" / "data" / "v1"
GAMES = ["1830-opening", "1839-game", "1801-opening"]
VIEWS = ["accounts", "balances", "active_postings", "certificates", "holdings", "holdings_by_company", "dividends",
         "payouts", "trades", "worth_by_round", "active_events"]


def rows(db: Path, sql: str, params=()) -> list[dict]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute(sql, params)]
    finally:
        conn.close()


def execute(db: Path, *statements: str) -> None:
    """Change the file as an outsider would (the sqlite3 shell, an older bank)."""
    conn = sqlite3.connect(str(db))
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def user_version(db: Path) -> int:
    return rows(db, "pragma user_version")[0]["user_version"]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ledger-sql")
    out = {}
    for name in GAMES:
        db = folder / f"{name}.db"
        Bank(db)("play", str(EXAMPLES / f"{name}.txt"))
        out[name] = db
    return out


@pytest.fixture
def opening(played, tmp_path) -> Path:
    db = tmp_path / "opening.db"
    shutil.copyfile(played["1830-opening"], db)
    return db


def v1_copy(tmp_path: Path, name: str = "1830-opening.v1.db") -> Path:
    db = tmp_path / name
    shutil.copyfile(V1 / name, db)
    return db


# --------------------------------------------------------------------------- a new file

def test_a_new_game_is_at_this_schema_version_with_its_foreign_keys(played):
    db = played["1830-opening"]
    assert user_version(db) == schema.SCHEMA_VERSION
    assert rows(db, "select version, how from schema_migrations") == [{"version": schema.SCHEMA_VERSION,
                                                                       "how": "created"}]
    refers = {(table, r["from"], r["table"]) for table in ("events", "postings", "cert_moves", "cert_percents",
                                                           "snapshots", "state_snapshots")
              for r in rows(db, f"pragma foreign_key_list({table})")}
    assert refers == {("events", "command_id", "commands"), ("postings", "event_id", "events"),
                      ("postings", "command_id", "commands"), ("cert_moves", "event_id", "events"),
                      ("cert_moves", "command_id", "commands"), ("cert_percents", "event_id", "events"),
                      ("cert_percents", "command_id", "commands"), ("snapshots", "command_id", "commands"),
                      ("state_snapshots", "command_id", "commands")}
    assert rows(db, "pragma foreign_key_check") == []
    views = {r["name"] for r in rows(db, "select name from sqlite_master where type = 'view'")}
    assert views == set(VIEWS)
    for view in VIEWS:  # a person's query needs no JSON: no view but active_events hands out a JSON text
        columns = {r["name"] for r in rows(db, f"pragma table_info({view})")}
        assert view == "active_events" or not columns & {"data", "args", "payees"}, view


# --------------------------------------------------------------------------- dividends and payouts

SAID = re.compile(r"(?P<corp>\S+) (?:withholds|pays out|runs for) \D*(?P<amount>[\d,.]+)")


@pytest.mark.parametrize("name", GAMES)
def test_the_dividends_view_is_what_bank_log_says_was_paid(played, name):
    db = played[name]
    log = [e for e in Bank(db).log() if "revenue" in e["events"]]
    view = rows(db, "select * from dividends")
    assert [r["command_id"] for r in view] == [e["id"] for e in log for k in e["events"] if k == "revenue"]
    by_command = {e["id"]: e for e in log}
    hows = set()
    for r in view:
        entry = by_command[r["command_id"]]
        assert r["round"] == entry["round"] and r["company"] == entry["actor"]
        said = [m for line in entry["lines"] for m in SAID.finditer(line) if m["corp"] == r["company"]]
        assert said, entry["lines"]
        assert int(said[0]["amount"].replace(",", "").split(".")[0]) == r["revenue"], entry["lines"]
        words = " ".join(entry["lines"])
        assert {"withheld": "withholds", "paid": "pays out", "half": "pays out half"}[r["how"]] in words
        hows.add(r["how"])
        if r["how"] == "withheld":
            assert r["per_share"] is None and r["paid_out"] == 0 and r["kept"] == r["revenue"]
        else:
            assert isinstance(r["per_share"], (int, float))
    assert "withheld" in hows and (name == "1830-opening" or "paid" in hows)
    if name != "1830-opening":
        assert "half" in hows  # 1839 and 1801 pay half


@pytest.mark.parametrize("name", GAMES)
def test_payouts_add_up_to_each_dividend_and_to_its_postings(played, name):
    db = played[name]
    paid = defaultdict(int)
    for r in rows(db, "select * from payouts"):
        assert ":" not in r["holder"] and r["holder_kind"] in ("player", "company")
        paid[r["event_id"]] += r["amount"]
    for r in rows(db, "select * from dividends"):
        assert r["paid_out"] == paid.get(r["event_id"], 0)
        posted = rows(db, "select coalesce(sum(amount), 0) as n from active_postings where event_id = ? and "
                          "amount > 0", (r["event_id"],))[0]["n"]
        # what the bank paid in all: the holders' parts, and what the company kept (withheld or half)
        assert posted == r["paid_out"] + r["kept"] or (r["how"] == "paid" and posted == r["paid_out"]), r


# --------------------------------------------------------------------------- trades

def test_the_trades_of_the_opening_say_who_what_from_whom_and_for_how_much(played):
    db = played["1830-opening"]
    trades = rows(db, "select round, event, trade, who, what, count, percent, seller, buyer, price from trades")
    assert {"round": "SR 2", "event": "shares_sold", "trade": "share", "who": "Dave", "what": "PRR", "count": 2,
            "percent": 20, "seller": "Dave", "buyer": "pool", "price": 130} in trades
    assert {"round": "SR 1", "event": "par", "trade": "share", "who": "Alice", "what": "NYC", "count": 1,
            "percent": 20, "seller": "NYC IPO", "buyer": "Alice", "price": 152} in trades
    assert {"round": "Auction", "event": "private_bought", "trade": "private", "who": "Bob", "what": "CA",
            "count": 1, "percent": None, "seller": "bank", "buyer": "Bob", "price": 160} in trades
    assert {"round": "OR 1.1", "event": "train_bought", "trade": "train", "who": "PRR", "what": "2", "count": 1,
            "percent": None, "seller": "depot", "buyer": "PRR", "price": 80} in trades
    assert {"round": "SR 2", "event": "share_bought", "trade": "share", "who": "Alice", "what": "C&O", "count": 1,
            "percent": 10, "seller": "pool", "buyer": "Alice", "price": 65} in trades


@pytest.mark.parametrize("name", GAMES)
def test_every_trade_in_force_is_in_the_view_once_with_the_money_it_moved(played, name):
    db = played[name]
    kinds = ("share_bought", "shares_sold", "private_bought", "private_sold", "train_bought", "port_sold",
             "packet_sold", "shares_issued", "foreign_buy_back", "foreign_train_bought", "pullman_bought")
    events = rows(db, f"select id, kind from active_events where kind in ({','.join('?' * len(kinds))})", kinds)
    events += rows(db, "select id, kind from active_events e where kind = 'par' and "
                       "exists (select 1 from cert_moves m where m.event_id = e.id)")
    trades = rows(db, "select * from trades")
    assert sorted(t["event_id"] for t in trades) == sorted(e["id"] for e in events)
    for t in trades:
        assert t["who"] and t["what"] and t["seller"] and t["buyer"] and ":" not in t["seller"] + t["buyer"]
        assert isinstance(t["price"], int) and t["price"] >= 0
        moved = rows(db, "select count(*) as n from cert_moves where event_id = ?", (t["event_id"],))[0]["n"]
        if t["trade"] == "share":
            assert t["count"] == moved and t["percent"] > 0
            # the money of the trade is what its postings moved (a share's price is its part of it)
            posted = rows(db, "select sum(amount) as n from active_postings where event_id = ? and amount > 0",
                          (t["event_id"],))[0]["n"]
            assert posted == t["price"], t


# --------------------------------------------------------------------------- holdings

@pytest.mark.parametrize("name", GAMES)
def test_the_holdings_view_sums_to_100_percent_per_company(played, name):
    db = played[name]
    held = rows(db, "select company, sum(percent) as total, sum(certificates) as n from holdings_by_company "
                    "group by company")
    assert held and all(r["total"] == 100 for r in held), held
    assert rows(db, "select count(*) as n from holdings where percent is null or company is null")[0]["n"] == 0
    assert sum(r["n"] for r in held) == rows(db, "select count(*) as n from holdings")[0]["n"]


@pytest.mark.parametrize("name", GAMES)
def test_holdings_by_company_are_what_bank_status_says(played, name):
    db = played[name]
    status = Bank(db).status()
    view = defaultdict(dict)
    for r in rows(db, "select * from holdings_by_company where holder_kind = 'player'"):
        view[r["holder"]][r["company"]] = r["percent"]
    for player in status["players"]:
        assert view.get(player["name"], {}) == {c: p for c, p in player["shares"].items() if p}, player["name"]


# --------------------------------------------------------------------------- postings and balances

def test_active_postings_sum_to_zero_per_command_and_leave_out_undone_commands(opening):
    def by_command():
        out = defaultdict(int)
        for r in rows(opening, "select command_id, amount from active_postings"):
            out[r["command_id"]] += r["amount"]
        return out

    assert set(by_command().values()) == {0}
    last = rows(opening, "select max(command_id) as id from postings")[0]["id"]
    before = rows(opening, "select * from active_postings where command_id = ?", (last,))
    assert before and all(":" not in r["name"] and ":" not in r["counterparty_name"] for r in before)
    assert {r["kind"] for r in rows(opening, "select kind from active_postings")} >= {"player", "company", "bank"}
    bank = Bank(opening)
    bank("undo", "--to", str(last - 1), "--yes")
    assert rows(opening, "select * from active_postings where command_id = ?", (last,)) == []
    assert rows(opening, "select count(*) as n from postings where command_id = ?", (last,))[0]["n"] == len(before)
    balances = {r["name"]: r["balance"] for r in rows(opening, "select * from balances where kind = 'player'")}
    assert balances == {p["name"]: p["cash"] for p in bank.status()["players"]}
    bank("redo")
    assert rows(opening, "select * from active_postings where command_id = ?", (last,)) == before


@pytest.mark.parametrize("name", GAMES)
def test_every_command_keeps_the_round_bank_log_gives_it(played, name):
    db = played[name]
    log = {e["id"]: e["round"] for e in Bank(db).log()}
    stored = {r["id"]: r["round"] for r in rows(db, "select id, round from commands where status = 'active'")}
    assert {i: stored[i] for i in log} == log


def test_the_readme_queries_run(played):
    db = played["1839-game"]
    half = rows(db, "select round, company, revenue, per_share from dividends where how = 'half'")
    assert half and all(r["per_share"] for r in half)
    assert rows(db, "select company, holder, percent from holdings_by_company where holder_kind = 'player' "
                    "order by company, percent desc")


# --------------------------------------------------------------------------- old files

def test_a_version_1_file_is_read_as_it_is_and_migrated_on_its_first_write(tmp_path):
    db = v1_copy(tmp_path)
    before = db.read_bytes()
    session = Session(Store(db, read_only=True))  # the board page, `bank log`
    try:
        assert session.store.schema_version() == 0 and session.state.round["kind"] == "stock"
    finally:
        session.close()
    bank = Bank(db)
    log = bank.log()
    bank("status")
    bank("audit")
    assert db.read_bytes() == before  # a read migrates nothing
    with pytest.raises(sqlite3.OperationalError):
        rows(db, "select * from dividends")  # the views of this version are not there yet
    bank("pass", "Dave")  # the first write: each step, then the command
    assert user_version(db) == schema.SCHEMA_VERSION
    assert [(r["version"], r["how"]) for r in rows(db, "select * from schema_migrations order by version")] == \
        [(n, "migrated") for n in range(1, schema.SCHEMA_VERSION + 1)]
    assert rows(db, "pragma foreign_key_check") == []
    assert {r["table"] for r in rows(db, "pragma foreign_key_list(cert_moves)")} == {"events", "commands"}
    bank("audit")
    for view in VIEWS:
        rows(db, f"select * from {view}")
    held = rows(db, "select company, sum(percent) as total from holdings_by_company group by company")
    assert held and all(r["total"] == 100 for r in held)
    dividends = rows(db, "select command_id, round, company from dividends")
    assert dividends == [{"command_id": e["id"], "round": e["round"], "company": e["actor"]}
                         for e in log if "revenue" in e["events"]]
    rounds = {e["id"]: e["round"] for e in bank.log()}
    assert {r["id"]: r["round"] for r in rows(db, "select id, round from commands where status = 'active'")} == rounds


def test_the_1843_game_of_version_1_migrates_and_audits_clean(tmp_path):
    db = v1_copy(tmp_path, "1843-game.v1.db")
    bank = Bank(db)
    bank("count", "Alice", "100")
    bank("audit")
    assert user_version(db) == schema.SCHEMA_VERSION
    held = rows(db, "select company, sum(percent) as total from holdings_by_company group by company")
    assert len(held) == 9 and all(r["total"] == 100 for r in held)
    assert rows(db, "select count(*) as n from dividends where how = 'paid'")[0]["n"] > 0


def test_a_migration_step_that_fails_leaves_the_file_at_the_step_before(tmp_path, monkeypatch):
    db = v1_copy(tmp_path)

    def broken(db_, derived):
        db_.execute("create table half_done (x)")
        raise RuntimeError("step 3 breaks")

    steps = list(schema.MIGRATIONS)
    steps[2] = ("cert_percents", broken)
    monkeypatch.setattr(schema, "MIGRATIONS", steps)
    session = Session.open(db)
    try:
        with pytest.raises(RuntimeError, match="step 3 breaks"):
            with session.store.transaction():
                pass
    finally:
        session.close()
    assert user_version(db) == 2  # steps 1 and 2 committed, each on its own
    assert not rows(db, "select name from sqlite_master where name = 'half_done'")
    monkeypatch.undo()
    bank = Bank(db)
    bank("audit")  # a file between two steps is a sound game
    bank("pass", "Dave")
    assert user_version(db) == schema.SCHEMA_VERSION
    bank("audit")


def test_a_file_from_a_newer_bank_is_refused_in_one_line(opening):
    execute(opening, f"pragma user_version = {schema.SCHEMA_VERSION + 1}")
    before = opening.read_bytes()
    for words in (["status"], ["pass", "Dave"]):
        result = Bank(opening)(*words, ok=False)
        lines = (result.stderr or result.stdout).strip().splitlines()
        assert "was written by a newer bank (ledger schema" in lines[0], lines
        assert len([line for line in lines if line.startswith("error")]) == 1
    with pytest.raises(LedgerCorrupt, match="newer bank"):
        Session(Store(opening, read_only=True))
    assert opening.read_bytes() == before


def test_commands_an_older_bank_appended_get_their_rounds_on_the_next_write(opening):
    """A bank from before the schema was versioned writes no round: the next write of this bank
    works them out for the tail it wrote. (From schema 6 each row's hash covers its round, so only
    a file of schema 2 to 5 can hold such a tail: its hashes are those of a bank before it.)"""
    execute(opening, "update commands set round = null where id > (select max(id) - 3 from commands)")
    rechain(opening, 1, key=local_key().secret, derived=False, links=True)
    execute(opening, "alter table game drop column chain_derived_from", "delete from state_snapshots",
            "delete from schema_migrations where version > 5", "pragma user_version = 5")
    bank = Bank(opening)
    bank("count", "Alice", "10")
    log = {e["id"]: e["round"] for e in bank.log()}
    stored = {r["id"]: r["round"] for r in rows(opening, "select id, round from commands where status = 'active'")}
    assert stored == log and None not in stored.values()
    bank("audit")


def test_the_audit_sees_a_round_or_a_percent_changed_by_hand(opening):
    execute(opening, "update commands set round = 'OR 9.9' where id = 50",
            "update cert_percents set percent = 30 where id = 3")
    out = Bank(opening)("audit", ok=False)
    text = " ".join((out.stdout + out.stderr).split())
    assert "command 50 (train C&O 2) is stored as typed in OR 9.9, but the replay puts it in OR 1.1" in text
    assert "the certificate percents (cert_percents) differ from the events'" in text
