"""At the table: the shell, log, explain, audit, count, adjust, --force, export, the SQL views,
undo/redo and damaged game files — all through the `bank` command line (typer's CliRunner on
`ledger.cli.app`) and the SQLite file it writes. Charts: tests/test_charts.py.

Two games are played once per module from the examples and copied (with SQLite's backup API, so
nothing still in the WAL is lost) for each test that changes them:

- examples/1830-opening.txt: auction, SR 1, OR 1.1, SR 2; it stops at the start of OR 2.1 (NYC to act);
- examples/1830-full-game.txt: a complete game, ended by the broken bank.

Tests that found a bug are kept as strict xfails with the reason "BUG: ...".
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import shlex
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest
import sqlite_utils
from cli_1830 import COMMAND, Bank
from cli_driver import error_line, report_lines
from conftest import Table
from transcripts import lines_of

from ledger.catalog import load

ROOT = Path(__file__).resolve().parents[2]
OPENING = ROOT / "examples" / "1830-opening.txt"
FULL = ROOT / "examples" / "1830-full-game.txt"
FULL_PLAYERS = ["Player 1", "Player 2", "Player 3", "Player 4"]
COMPANIES = ["PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"]
# completion offers what is safe to type in any shell: the plain alias of a symbol with '&'
TYPED_COMPANIES = ["PRR", "NYC", "CPR", "BnO", "CnO", "ERIE", "NYNH", "BnM"]
PRIVATES = ["SV", "CS", "DH", "MH", "CA", "BO"]
PAR_PRICES = {"67", "71", "76", "82", "90", "100"}
TRAIN_TYPES = {"2", "3", "4", "5", "6", "D"}


# --------------------------------------------------------------------------- helpers

def query(db, sql: str, params=()) -> list[dict]:
    database = sqlite_utils.Database(str(db))
    try:
        return list(database.query(sql, params))
    finally:
        database.conn.close()


def execute(db, sql: str, params=()) -> None:
    """Tamper with a game file as an outsider would, leaving it in WAL mode like the bank does."""
    conn = sqlite3.connect(str(db))
    try:
        conn.execute("pragma journal_mode=wal")
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def copy_db(src: Path, dest: Path) -> Path:
    source, target = sqlite3.connect(str(src)), sqlite3.connect(str(dest))
    try:
        source.backup(target)
        target.execute("pragma journal_mode=wal")
    finally:
        source.close()
        target.close()
    return dest


def file_digest(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def dump(path) -> list[str]:
    conn = sqlite3.connect(str(path))
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def between(lines: list[str], first: str, last: str) -> list[str]:
    """lines[first .. last], both included."""
    return lines[lines.index(first):lines.index(last) + 1]


def cash_by_name(status: dict) -> dict[str, int]:
    out = {p["name"]: p["cash"] for p in status["players"]}
    out.update({c["sym"]: c["cash"] for c in status["companies"]})
    out["bank"] = status["bank"]
    return out


def acct_label(acct: str) -> str:
    return acct.split(":", 1)[1] if ":" in acct else acct


def pay_events(db) -> list[dict]:
    """Every stored payout (revenue paid out) with its command id, in order."""
    rows = query(db, "select e.id, e.command_id, e.data from events e join commands c on c.id = e.command_id "
                     "where e.kind = 'revenue' and c.status = 'active' order by e.id")
    out = []
    for row in rows:
        data = json.loads(row["data"])
        if data["how"] == "pay":
            out.append({"event_id": row["id"], "command_id": row["command_id"], **data})
    return out


def positive_postings(db, command_id: int) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for row in query(db, "select account, amount from postings where command_id = ? and amount > 0", [command_id]):
        out[row["account"]] += row["amount"]
    return dict(out)


def shell_for(db):
    """A ledger.shell.Shell on an open game, for completion tests."""
    from ledger.books.session import Session
    from ledger.interface.shell import Shell
    session = Session.open(db)
    return Shell(COMMAND, {"game": str(db), "session": session}), session


# --------------------------------------------------------------------------- games

@pytest.fixture(scope="module")
def opening_master(fast_dir) -> Path:
    db = fast_dir / "opening.db"
    Bank(db)("play", str(OPENING))
    return db


@pytest.fixture(scope="module")
def full_master(fast_dir) -> Path:
    db = fast_dir / "full.db"
    Bank(db)("play", str(FULL))
    return db


@pytest.fixture
def opening(opening_master, fast_path) -> Bank:
    return Bank(copy_db(opening_master, fast_path / "opening.db"))


@pytest.fixture
def full(full_master, fast_path) -> Bank:
    return Bank(copy_db(full_master, fast_path / "full.db"))


@pytest.fixture(scope="module")
def opening_engine() -> Table:
    """The opening example played on the engine (copy it before changing it)."""
    return Table(OPENING.read_text())


@pytest.fixture
def fresh(fast_path) -> Bank:
    b = Bank(fast_path / "fresh.db")
    b("new", "1830", "Alice", "Bob", "Carol", "Dave")
    return b


@pytest.fixture
def sr1(fast_path) -> Bank:
    """The opening's auction only: SR 1 is about to start, Alice has priority."""
    lines = lines_of(OPENING.read_text())
    script = fast_path / "auction.txt"
    script.write_text("\n".join(lines[:lines.index("par Dave B&O 67") + 1]) + "\n")
    b = Bank(fast_path / "sr1.db")
    b("play", str(script))
    assert b.status()["round"] == "SR 1"
    return b


def test_the_example_games_reach_their_documented_states(opening_master, full_master):
    st = Bank(opening_master).status()
    assert st["round"] == "OR 2.1" and st["operating"] == "NYC" and st["bank"] == 9576
    assert {p["name"]: p["cash"] for p in st["players"]} == {"Alice": 28, "Bob": 51, "Carol": 38, "Dave": 57}
    sc = Bank(full_master).score()
    assert sc["game_over"] is True
    assert {r["name"]: (r["cash"], r["value"]) for r in sc["players"]} == {
        "Player 1": (4641, 7576), "Player 2": (3763, 7453), "Player 3": (1704, 4074), "Player 4": (3300, 5855)}


# =========================================================================== 1. the shell

PROMPT_MARKS = ("bank [", "bank (no game)>", "bank shell:")


def test_shell_pipe_prints_results_without_prompts_and_errors_on_stderr(opening):
    status_alone = opening("status").stdout
    score_alone = opening("score").stdout
    result = opening("shell", input="status\nbid Zed CS 50\nscore\n", ok=False)
    assert result.exit_code == 1
    out = result.stdout
    for mark in PROMPT_MARKS:
        assert mark not in out, f"prompt/banner text {mark!r} in piped output"
    # both commands ran, in order, with the same output as on the command line
    assert out == status_alone + score_alone
    line = error_line(result)
    assert "bids are only made in the private auction" in line  # the game is in OR 2.1
    assert "error" not in out


def test_shell_pipe_in_the_auction_names_the_unknown_player(fresh):
    result = fresh("shell", input="status\nbid Zed CS 50\nscore\n", ok=False)
    line = error_line(result)
    assert "Zed" in line and "Alice" in line
    assert "Scores if the game ended now" in result.stdout and "Auction" in result.stdout
    assert fresh.log()[-1]["text"].startswith("new 1830")  # the refused bid is not stored


def test_shell_clean_script_exits_zero_and_records_commands_as_typed(opening):
    result = opening("shell", input="# a comment\n\nstatus\ntile NYC 120\nbank withhold NYC 0\nmarket\n")
    assert result.exit_code == 0 and result.stderr == ""
    assert "NYC lays a tile for $120" in result.stdout and "NYC withholds $0" in result.stdout
    texts = [e["text"] for e in opening.log()]
    assert texts[-2:] == ["tile NYC 120", "bank withhold NYC 0"]
    nyc = {c["sym"]: c for c in opening.status()["companies"]}["NYC"]
    assert nyc["cash"] == 600 - 120


def test_shell_exit_stops_reading(opening):
    result = opening("shell", input="status\nexit\nbid Zed CS 50\n")
    assert result.exit_code == 0 and result.stderr == ""


def test_shell_counts_every_error_and_keeps_going(opening):
    result = opening("shell", input="tile Zed 0\nbid Alice CS 50\ntile NYC 0\n", ok=False)
    errors = [l for l in result.stderr.splitlines() if l.strip()]
    assert len(errors) == 2 and all(l.startswith("error: ") for l in errors)
    assert "NYC lays a tile" in result.stdout  # the line after the errors ran


def test_shell_new_creates_a_game(fast_path):
    b = Bank(fast_path / "made-in-shell.db")
    result = b("shell", input="new 1830 Alice Bob Carol\nbid Alice CS 45\nstatus\n")
    assert result.exit_code == 0 and result.stderr == ""
    assert (fast_path / "made-in-shell.db").exists()
    assert "New 1830 game" in result.stdout
    st = b.status()
    assert [p["name"] for p in st["players"]] == ["Alice", "Bob", "Carol"]
    assert st["turn"].startswith("Auction: Bob")
    assert [e["text"] for e in b.log()] == ["new 1830 Alice Bob Carol", "bid Alice CS 45"]


def test_shell_without_a_game_reports_it(fast_path):
    b = Bank(fast_path / "none.db")
    result = b("shell", input="status\n", ok=False)
    assert "no game" in error_line(result)
    assert not (fast_path / "none.db").exists()


def test_shell_help_lists_the_verbs(opening):
    result = opening("shell", input="help\n")
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    for verb in ("bid", "buy", "par", "pay", "withhold", "train", "done", "log", "explain", "audit", "count",
                 "adjust", "chart", "export", "undo", "redo"):
        assert re.search(rf"\b{re.escape(verb)}\b", out), verb
    assert "In the shell: help VERB, clear (or Ctrl-L), exit" in out


def test_shell_help_verb_shows_its_arguments_and_options(opening):
    result = opening("shell", input="help buy\n")
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert "Usage: buy PLAYER ITEM [COUNT]" in out and "bank buy" not in out  # as typed in the shell
    for word in ("PLAYER", "ITEM", "COUNT", "--pool", "--ipo", "--force", "--reason"):
        assert word in out, word
    assert "--no-route" not in out  # only buy's help


def test_shell_help_unknown_verb_is_an_error(opening):
    result = opening("shell", input="help nosuch\n", ok=False)
    assert "nosuch" in error_line(result)


# ---- completion

def test_completion_verbs(opening_master):
    """Tab offers the game's title's commands; first the verbs legal now."""
    sh, session = shell_for(opening_master)
    try:
        verbs = sh.candidates([])
        assert {"bid", "buy", "par", "pay", "train", "done", "shell", "explain", "help", "exit"} <= set(verbs)
        assert not {"port", "pullman", "deal"} & set(verbs)   # other titles' verbs
        assert sh.candidates(["help"]) == verbs
        now = sh.offers([], "")
        assert now[:4] == ["tile", "token", "pay", "withhold"]   # NYC's turn in OR 2.1: what it may do now
        assert "par" not in now and "train" not in now            # not in an OR; not before the run
    finally:
        session.close()


def test_completion_in_the_auction(fresh):
    sh, session = shell_for(fresh.db)
    try:
        assert sh.candidates(["bid"]) == ["Alice"]                 # only the player to act
        assert sh.candidates(["pass"]) == ["Alice"]
        assert sh.candidates(["bid", "Alice"]) == PRIVATES[1:]     # not the cheapest: it is bought
        assert sh.candidates(["buy", "Alice"]) == ["SV"]
        assert sh.candidates(["bid", "Alice", "CS"]) == ["45", "600"]  # the least bid, and all her cash
        assert sh.candidates(["par", "Alice"]) == []               # no par in the auction
        assert sh.candidates(["chart"]) == ["worth", "prices"]
    finally:
        session.close()


def test_completion_quotes_names_with_spaces(full_master):
    sh, session = shell_for(full_master)
    try:
        assert [shlex.split(c)[0] for c in sh.candidates(["count"])] == FULL_PLAYERS   # open to anyone
        assert [shlex.split(c)[0] for c in sh.candidates(["adjust"])] == ["bank", *FULL_PLAYERS,
                                                                          *TYPED_COMPANIES]
    finally:
        session.close()


def test_completion_in_an_operating_round(opening_master):
    sh, session = shell_for(opening_master)
    try:
        assert session.state.round["corp"] == "NYC"
        assert sh.candidates(["done"]) == []                        # NYC runs first
        assert sh.candidates(["pay"]) == ["NYC"] and sh.candidates(["tile"]) == ["NYC"]
        assert sh.candidates(["tile", "NYC"]) == ["0", "80", "120"]
        assert sh.candidates(["train"]) == []                       # not before the run
        assert sh.candidates(["par", "Alice"]) == [] and sh.candidates(["bid", "Alice"]) == []
        assert sh.candidates(["buy", "Alice"]) == []
    finally:
        session.close()


def test_completion_of_the_train_step(opening):
    opening("withhold", "NYC", "0")
    sh, session = shell_for(opening.db)
    try:
        assert sh.candidates(["train"]) == ["NYC"]                  # the operating company only
        # what the bank sells now, then a 2 that only another company may sell it (at a price agreed)
        assert sh.candidates(["train", "NYC"]) == ["3", "2"]
        assert "--from" in sh.candidates(["train", "NYC", "2"])
        assert sh.candidates(["done"]) == ["NYC"]
    finally:
        session.close()


# =========================================================================== 2. log

def test_log_json_shape(opening):
    entries = opening.log()
    assert entries, "empty log"
    for e in entries:
        # `by`: who entered it (terminal, banker, a player's page: bank serve --table)
        assert set(e) == {"id", "text", "status", "round", "actor", "money", "events", "lines", "by"}
        assert e["by"] == "terminal"
        assert isinstance(e["id"], int) and isinstance(e["text"], str) and isinstance(e["money"], int)
        assert e["status"] == "active"
        assert isinstance(e["events"], list) and all(isinstance(k, str) for k in e["events"])
        assert isinstance(e["lines"], list) and all(isinstance(t, str) and t for t in e["lines"])
    ids = [e["id"] for e in entries]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    # every transcript line is there, as typed, in order
    assert [e["text"] for e in entries] == lines_of(OPENING.read_text())
    par = next(e for e in entries if e["text"] == "par Alice NYC 76")
    assert (par["round"], par["actor"], par["money"]) == ("SR 1", "Alice", 152)
    assert "par" in par["events"] and par["lines"] == ["Alice pars NYC at $76 (pays $152)"]


def test_log_money_is_the_sum_of_the_transfers(opening):
    entries = opening.log()
    sr2 = [e for e in entries if e["round"] == "SR 2"]
    buy = next(e for e in sr2 if e["text"] == "buy Dave B&O")
    assert buy["money"] == 67  # an IPO share at par
    pool = next(e for e in sr2 if e["text"] == "buy Alice C&O --pool")
    assert pool["money"] == 65  # the market price
    sale = next(e for e in sr2 if e["text"] == "sell Dave PRR 2")
    assert sale["money"] == 130
    # every command: money = what its postings paid out (the mint's issue of the bank's money aside)
    for e in entries:
        rows = opening.query("select amount from postings where command_id = ? and amount > 0 "
                             "and counterparty != 'mint'", [e["id"]])
        assert e["money"] == sum(r["amount"] for r in rows), e


def test_log_text_shows_round_money_and_lines(opening):
    out = opening("log").stdout
    assert re.search(r"SR 1\s+\$152\s+par Alice NYC 76", out), out[:2000]
    assert "Alice pars NYC at $76 (pays $152)" in out


def test_log_filter_player(opening):
    entries = opening.log("--player", "Alice")
    texts = [e["text"] for e in entries]
    for expected in ("bid Alice CS 45", "buy Alice MH", "par Alice NYC 76", "buy Alice C&O --pool"):
        assert expected in texts
    for other in ("buy Bob CA", "par Carol C&O 71", "tile C&O 80", "sell Dave PRR 2"):
        assert other not in texts
    for e in entries:
        assert e["actor"] == "Alice" or any("Alice" in line for line in e["lines"]), e
    # a prefix of the name is enough for the filter too
    assert [e["text"] for e in opening.log("--player", "al")] == texts


def test_log_filter_company(opening):
    entries = opening.log("--company", "C&O")
    texts = [e["text"] for e in entries]
    for expected in ("par Carol C&O 71", "buy Alice C&O", "tile C&O 80", "withhold C&O 0", "train C&O 2",
                     "done C&O", "sell Bob C&O", "buy Alice C&O --pool"):
        assert expected in texts, expected
    for other in ("buy Dave SV", "tile NYC 0", "par Bob PRR 67", "buy Dave B&O"):
        assert other not in texts, other


def test_log_filter_round(opening):
    lines = lines_of(OPENING.read_text())
    sr1 = opening.log("--round", "SR 1")
    assert [e["text"] for e in sr1] == lines[lines.index("par Dave B&O 67") + 1:lines.index("tile NYC 0")]
    assert {e["round"] for e in sr1} == {"SR 1"}
    or1 = opening.log("--round", "OR 1")
    assert [e["text"] for e in or1] == between(lines, "tile NYC 0", "done PRR")
    assert {e["round"] for e in or1} == {"OR 1.1"}
    assert opening.log("--round", "OR 1.1") == or1
    assert opening.log("--round", "OR 2") == []  # OR 2.1 has begun, but nobody has acted in it yet


def test_log_filters_combine(opening):
    texts = [e["text"] for e in opening.log("--player", "Bob", "--round", "SR 2")]
    # the last pass ends SR 2 and opens OR 2.1, whose private revenue pays Bob (CS, CA)
    assert texts == ["sell Bob C&O", "buy Bob PRR", "buy Bob PRR --pool", "pass Bob", "pass Dave"]


def test_log_filter_company_includes_a_par_without_money(opening):
    texts = [e["text"] for e in opening.log("--company", "B&O")]
    assert "par Dave B&O 67" in texts


def test_log_filter_player_matches_names_as_the_banker_types_them(opening):
    opening("count", "al", "28")
    opening("count", "alice", "28")
    texts = [e["text"] for e in opening.log("--player", "Alice")]
    assert "count al 28" in texts and "count alice 28" in texts


# =========================================================================== 3. explain

EXPLAIN_HOLDER = re.compile(r"^    (.+?): (\d+) shares? × \$([\d.]+) = \$([\d.]+) → \$(\d+)$")
EXPLAIN_POOL = re.compile(r"^    pool: (\d+) shares? → \$(\d+) to (\S+)$")
EXPLAIN_IPO = re.compile(r"^    IPO: (\d+) shares? → nobody")
EXPLAIN_MOVE = re.compile(r"^    (\S+) \$(\d+) → \$(\d+): a payout moves the marker one cell right")


def parse_payout(lines: list[str]) -> dict:
    out = {"holders": {}, "pool": None, "ipo": None, "move": None}
    for line in lines:
        if m := EXPLAIN_HOLDER.match(line):
            out["holders"][m[1]] = (int(m[2]), m[3], int(m[5]))
        elif m := EXPLAIN_POOL.match(line):
            out["pool"] = (int(m[1]), int(m[2]), m[3])
        elif m := EXPLAIN_IPO.match(line):
            out["ipo"] = int(m[1])
        elif m := EXPLAIN_MOVE.match(line):
            out["move"] = (m[1], int(m[2]), int(m[3]))
    return out


def explain_by_cli(db):
    """`bank explain N`'s output, a command line each time."""
    return lambda cid: Bank(db)("explain", str(cid)).stdout


def check_explained_payout(db, event: dict, explain=None) -> dict:
    cid, corp, revenue = event["command_id"], event["corp"], event["revenue"]
    stdout = (explain or explain_by_cli(db))(cid)
    lines = stdout.splitlines()
    assert lines[0] == f"command {cid}: pay {corp} {revenue}", lines[0]
    per_share = revenue // 10
    assert f"{corp} pays out ${revenue}: ${per_share} per 10% share" in lines[1], lines[1]
    assert "WARNING" not in stdout
    parsed = parse_payout(lines)
    posted = positive_postings(db, cid)
    # every player holding shares, with its shares, and exactly the amount posted to it
    players = {acct_label(a): (n, amount) for a, n, amount in event["payees"] if a.startswith("player:")}
    assert {name: (n, amount) for name, (n, _ps, amount) in parsed["holders"].items()} == players
    assert {name: amount for name, (_n, _ps, amount) in parsed["holders"].items()} == \
        {acct_label(a): v for a, v in posted.items() if a.startswith("player:")}
    assert all(ps == str(per_share) for _n, ps, _a in parsed["holders"].values())
    # the pool's part goes to the company (1830), the IPO's to nobody
    company = f"company:{corp}"
    if parsed["pool"]:
        n, amount, to = parsed["pool"]
        assert to == corp and amount == n * per_share == posted[company]
    else:
        assert company not in posted
    held = sum(n for _a, n, _amt in event["payees"])
    if parsed["ipo"] is not None:
        assert parsed["ipo"] == 10 - held
    else:
        assert held == 10
    # nothing else is paid: the bank pays exactly the holders' and the pool's parts
    assert set(posted) <= {company} | {f"player:{p}" for p in players}
    # the stock move and its rule
    assert parsed["move"] is not None, stdout
    moved, old, new = parsed["move"]
    assert moved == corp and new > old
    assert len(event["moves"]) == 1 and event["moves"][0][0] == corp
    return parsed


def test_explain_payout_with_ipo_shares(full_master):
    events = pay_events(full_master)
    event = next(e for e in events if not any(a.startswith("company:") for a, _n, _x in e["payees"])
                 and sum(n for _a, n, _x in e["payees"]) < 10)
    parsed = check_explained_payout(full_master, event)
    assert parsed["ipo"] and parsed["pool"] is None
    assert len(parsed["holders"]) >= 2


def test_explain_payout_with_pool_shares(full_master):
    events = pay_events(full_master)
    event = next(e for e in events if any(a.startswith("company:") for a, _n, _x in e["payees"]))
    parsed = check_explained_payout(full_master, event)
    assert parsed["pool"] is not None


def test_explain_every_payout_of_the_full_game_matches_its_postings(full_master):
    events = pay_events(full_master)
    assert len(events) > 50
    # what `bank explain N` prints (its header, then each event explained on the state just before
    # it; the real `bank explain` is tested above), all from one walk through the game file
    from ledger.books.history import walk
    from ledger.books.session import Session
    from ledger.core.events import apply
    from ledger.interface.explain import explain_event
    said: dict[int, str] = {}

    def explain(entry, state):
        state = state.clone()
        lines = [f"command {entry.id}: {entry.text}"]
        for e in entry.events:
            lines += explain_event(state, session.rs, e)
            apply(state, e)
        said[entry.id] = "".join(f"{line}\n" for line in lines)

    session = Session.open(full_master)
    try:
        walk(session, each=explain)
    finally:
        session.close()
    for event in events:
        check_explained_payout(full_master, event, said.__getitem__)


def test_explain_sale_and_float(opening_master):
    b = Bank(opening_master)
    ids = {e["text"]: e["id"] for e in b.log("--round", "SR 2")}
    out = b("explain", str(ids["sell Bob C&O"])).stdout
    assert "Bob sells 1 C&O share at the current price $67 = $67, paid by the bank" in out
    assert "C&O $67 → $65: each share sold moves it one cell down" in out
    floats = [e for e in b.log("--round", "SR 1") if e["text"] == "buy Carol NYC"][-1]  # NYC 60 % sold
    assert floats["money"] == 76 + 760
    out = b("explain", str(floats["id"])).stdout
    assert "Carol pays the bank $76 for 10% of NYC (IPO shares are bought at par)" in out
    assert "NYC floats (60% sold): the bank pays 10 × par $76 = $760" in out
    passed = next(e for e in b.log("--round", "SR 1") if e["text"] == "pass Bob")
    assert b("explain", str(passed["id"])).stdout.splitlines()[1] == "  no money moved"


def test_explain_unknown_command(opening_master):
    result = Bank(opening_master)("explain", "99999", ok=False)
    assert "99999" in error_line(result)


# =========================================================================== 4. audit

def test_audit_agrees_on_the_clean_finished_game(full_master):
    b = Bank(full_master)
    result = b("audit")
    assert result.exit_code == 0 and result.stderr == ""
    assert "audit: ledger, replay and rules agree" in result.stdout
    assert "PROBLEM" not in result.stdout
    commands = b.query("select count(*) n from commands where status = 'active'")[0]["n"]
    dividends = len(pay_events(full_master))
    sales = b.query("select count(*) n from events where kind = 'shares_sold'")[0]["n"]
    assert (f"note: {commands} commands decided again from the state at their moment: "
            f"{dividends} dividends and {sales} sales recomputed") in report_lines(result.stdout)


def test_audit_finds_a_tampered_posting(full):
    row = full.query("select id, command_id, event_id, account from postings where id = (select min(id) from "
                     "postings where amount > 0 and account like 'player:%')")[0]
    execute(full.db, "update postings set amount = amount + 1 where id = ?", [row["id"]])
    result = full("audit", ok=False)
    assert result.exit_code == 8
    assert "audit found" in error_line(result)
    problems = [l for l in report_lines(result.stdout) if l.startswith("PROBLEM: ")]
    assert any(f"command {row['command_id']}:" in p and f"event {row['event_id']}" in p for p in problems), problems
    assert any("balances from postings differ from the replay" in p and row["account"] in p for p in problems)
    assert "agree" not in result.stdout


def test_audit_finds_a_tampered_posting_in_a_payout(full):
    event = pay_events(full.db)[10]
    row = full.query("select id, account from postings where event_id = ? and amount > 0 "
                     "and account like 'player:%' order by id limit 1", [event["event_id"]])[0]
    execute(full.db, "update postings set amount = amount - 5 where id = ?", [row["id"]])
    result = full("audit", ok=False)
    problems = [l for l in report_lines(result.stdout) if l.startswith("PROBLEM: ")]
    assert any(p.startswith(f"PROBLEM: command {event['command_id']}: postings of event {event['event_id']} (revenue)")
               for p in problems), problems


def test_audit_finds_a_tampered_payout_in_an_event(full):
    event = pay_events(full.db)[0]
    before_postings = full.query("select * from postings order by id")
    data = {k: v for k, v in event.items() if k not in ("event_id", "command_id")}
    data["payees"][0][2] += 10  # the stored dividend of the first holder, postings untouched
    execute(full.db, "update events set data = ? where id = ?", [json.dumps(data), event["event_id"]])
    result = full("audit", ok=False)
    assert result.exit_code == 8
    problems = [l for l in report_lines(result.stdout) if l.startswith("PROBLEM: ")]
    text = f"PROBLEM: command {event['command_id']} (pay {event['corp']} {event['revenue']}): stored results differ from the rules"
    assert any(p.startswith(text) and "payees" in p for p in problems), problems
    assert full.query("select * from postings order by id") == before_postings
    # explain shows the difference too
    out = full("explain", str(event["command_id"])).stdout
    assert "WARNING: the ledger paid" in out


def test_audit_notes_forced_commands_adjustments_and_counts(fresh):
    fresh("bid", "Alice", "CS", "44", "--force", "--reason", "table ruling")
    fresh("adjust", "bank", "Bob", "10", "--reason", "paid short")
    fresh("count", "Carol", "590")
    fresh("count", "Dave", "600")
    result = fresh("audit")
    assert "audit: ledger, replay and rules agree" in result.stdout
    notes = [l for l in report_lines(result.stdout) if l.startswith("note: ")]
    ids = {e["text"]: e["id"] for e in fresh.log()}
    forced = ids["bid Alice CS 44 --force --reason 'table ruling'"]
    assert any(f"command {forced} " in n and "was forced: table ruling" in n and "at least $45" in n for n in notes), notes
    adjust = ids["adjust bank Bob 10 --reason 'paid short'"]
    assert f"note: command {adjust}: adjustment of $10 from bank to player:Bob: paid short" in notes
    count = ids["count Carol 590"]
    assert any(f"command {count}:" in n and "Carol counted $590, ledger $600: Carol is $10 short, so the bank owes Carol $10" in n for n in notes)
    assert not any("Dave counted" in n for n in notes)  # a count that agrees is no note


# =========================================================================== 5. count

def test_count_reports_the_difference_and_moves_no_money(opening):
    before = opening.status_text()
    postings = opening.query("select count(*) n from postings")[0]["n"]
    out = opening("count", "Alice", "33").stdout
    assert ("count: Alice has $33 on the table, the ledger says $28: Alice has $5 too much, so Alice owes the bank $5"
            in " ".join(out.split()))
    out = opening("count", "Bob", "41").stdout
    assert "the ledger says $51: Bob is $10 short, so the bank owes Bob $10" in " ".join(out.split())
    out = opening("count", "Carol", "38").stdout
    assert "count: Carol has $38 on the table, the ledger says $38 — they agree" in out
    assert "difference" not in out
    assert opening.status_text() == before
    assert opening.query("select count(*) n from postings")[0]["n"] == postings
    entries = opening.log()
    counts = [e for e in entries if e["text"].startswith("count ")]
    assert [e["text"] for e in counts] == ["count Alice 33", "count Bob 41", "count Carol 38"]
    assert all(e["money"] == 0 and e["events"] == ["count"] and e["round"] == "OR 2.1" for e in counts)
    assert counts[0]["lines"] == ["count: Alice has $33 on the table, the ledger says $28: Alice has $5 too much, so "
                                  "Alice owes the bank $5 (if the ledger is wrong instead: adjust bank Alice 5 --reason ...)"]
    assert "count Alice 33" in opening("log").stdout


def test_count_works_after_the_game_is_over_and_rejects_bad_input(full):
    before = full.status_text()
    assert "they agree" in full("count", "Player 1", "4641").stdout
    assert "Player 2 is $41 short" in " ".join(full("count", "Player 2", "3722").stdout.split())
    assert full.status_text() == before
    assert "lots" in error_line(full("count", "Player 1", "lots", ok=False))
    assert "Zed" in error_line(full("count", "Zed", "5", ok=False))


# =========================================================================== 6. adjust

def test_adjust_moves_exactly_the_amount(opening):
    before = cash_by_name(opening.status())
    out = opening("adjust", "bank", "Alice", "10", "--reason", "paid short for a tile").stdout
    assert "ADJUSTMENT (paid short for a tile): $10 from bank to Alice" in out
    opening("adjust", "NYC", "Bob", "5", "--reason", "dividend miscounted")
    opening("adjust", "carol", "C&O", "7", "--reason", "tile paid by the president")
    after = cash_by_name(opening.status())
    expected = dict(before)
    expected["bank"] -= 10
    expected["Alice"] += 10
    expected["NYC"] -= 5
    expected["Bob"] += 5
    expected["Carol"] -= 7
    expected["C&O"] += 7
    assert after == expected
    entries = opening.log()
    adj = [e for e in entries if e["text"].startswith("adjust ")]
    assert [e["money"] for e in adj] == [10, 5, 7]
    assert adj[0]["text"] == "adjust bank Alice 10 --reason 'paid short for a tile'"
    assert adj[0]["lines"] == ["ADJUSTMENT (paid short for a tile): $10 from bank to Alice"]
    # the round goes on: nothing but money changed
    assert opening.status()["turn"].startswith("OR 2.1: NYC")
    result = opening("audit")
    assert "audit: ledger, replay and rules agree" in result.stdout
    assert sum(r["balance"] for r in opening.query("select * from balances")) == 0


def test_adjust_needs_a_reason(opening):
    before = opening.status_text()
    rows = opening.query("select count(*) n from commands")[0]["n"]
    result = opening("adjust", "bank", "Alice", "10", ok=False)
    assert "--reason" in error_line(result)
    assert result.stdout == ""
    assert opening.status_text() == before
    assert opening.query("select count(*) n from commands")[0]["n"] == rows


@pytest.mark.parametrize("args, word", [(["bank", "Zed", "5"], "Zed"), (["bank", "bank", "5"], "different"),
                                        (["bank", "Alice", "0"], "positive"), (["bank", "Alice", "ten"], "ten")])
def test_adjust_refuses_bad_accounts_and_amounts(opening_engine, args, word):
    """A rule, so on the engine: the refusal's one line names the word and nothing changes."""
    t = opening_engine.copy()
    before = t.status()
    assert word in t.refused(" ".join(["adjust", *args, "--reason", "x"]))
    assert t.status() == before


def test_adjust_more_than_the_payer_holds_keeps_the_game_usable(opening):
    result = opening("adjust", "Alice", "bank", "1000", "--reason", "typo", ok=None)
    assert result.exit_code != 0, "an adjustment below zero should be refused"
    error_line(result)
    opening("status")


# =========================================================================== 7. --force --reason

def test_force_waives_a_rule_with_a_reason(fresh):
    before = fresh.status_text()
    refused = fresh("bid", "Alice", "CS", "44", ok=False)
    assert "$45" in error_line(refused)
    no_reason = fresh("bid", "Alice", "CS", "44", "--force", ok=False)
    assert "--reason" in error_line(no_reason)
    assert fresh.status_text() == before
    out = fresh("bid", "Alice", "CS", "44", "--force", "--reason", "table ruling").stdout
    assert "Alice bids $44 on CS" in out
    assert "FORCED (table ruling): waived a bid on CS must be at least $45" in out
    st = fresh.status()
    assert st["turn"].startswith("Auction: Bob") and "bid Bob CS 49 (or more;" in st["turn"]
    entry = fresh.log()[-1]
    assert entry["text"] == "bid Alice CS 44 --force --reason 'table ruling'"
    assert "rules_waived" in entry["events"]
    assert any(l.startswith("FORCED (table ruling): waived a bid on CS must be at least $45") for l in entry["lines"])
    assert "audit: ledger, replay and rules agree" in fresh("audit").stdout


def test_force_a_second_share_in_one_stock_round_turn(sr1):
    sr1("par", "Alice", "NYC", "76")
    before = sr1.status_text()
    refused = sr1("buy", "Alice", "NYC", ok=False)
    assert "already bought this turn" in error_line(refused)
    assert "--reason" in error_line(sr1("buy", "Alice", "NYC", "--force", ok=False))
    assert sr1.status_text() == before
    cash = {p["name"]: p["cash"] for p in sr1.status()["players"]}["Alice"]
    sr1("buy", "Alice", "NYC", "--force", "--reason", "table ruling")
    alice = {p["name"]: p for p in sr1.status()["players"]}["Alice"]
    assert alice["shares"]["NYC"] == 30 and alice["cash"] == cash - 76
    entry = sr1.log()[-1]
    assert entry["money"] == 76
    assert any("FORCED (table ruling): waived Alice has already bought this turn" in l for l in entry["lines"])
    audit = sr1("audit").stdout
    assert any(f"command {entry['id']} (buy Alice NYC --force --reason 'table ruling') was forced: table ruling; "
               f"waived: Alice has already bought this turn" in l for l in report_lines(audit))


def test_force_with_nothing_to_waive_records_nothing_waived(fresh):
    fresh("buy", "Alice", "SV", "--force", "--reason", "just in case")
    assert any("waived nothing" in l for l in fresh.log()[-1]["lines"])


def test_force_cannot_make_a_player_cash_negative_and_brick_the_game(sr1):
    """--force waives rules, not arithmetic: a purchase Alice cannot pay for is refused even when
    forced, nothing is recorded, and the game still opens and audits clean."""
    sr1("par", "Alice", "NYC", "100")  # Alice 490 - 200 = 290
    sr1("buy", "Alice", "NYC", "--force", "--reason", "ruling")  # 190
    sr1("buy", "Alice", "NYC", "--force", "--reason", "ruling")  # 90
    commands = len(sr1.log("--all"))
    refused = sr1("buy", "Alice", "NYC", "--force", "--reason", "ruling", ok=False)  # would be -10
    assert "Alice has $90" in error_line(refused)
    assert len(sr1.log("--all")) == commands
    alice = next(p for p in sr1.status()["players"] if p["name"] == "Alice")
    assert alice["cash"] == 90 and alice["shares"]["NYC"] == 40
    sr1("audit")


# =========================================================================== 8. charts: tests/test_charts.py


# =========================================================================== 9. export

def read_csv(path: Path) -> tuple[list[str], list[dict]]:
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def test_export_csv_and_json(full, fast_path):
    folder, json_file = fast_path / "out", fast_path / "game.json"
    out = full("export", "--csv", str(folder), "--json", str(json_file)).stdout
    headers = {
        "commands.csv": ["id", "text", "verb", "args", "status", "at", "entered_by"],
        "events.csv": ["id", "command_id", "seq", "kind", "data"],
        "postings.csv": ["id", "event_id", "command_id", "account", "amount", "counterparty"],
        "balances_by_round.csv": ["round", "account", "balance"],
        "holdings_by_round.csv": ["round", "holder", "company", "percent"],
    }
    tables = {}
    for name, header in headers.items():
        path = folder / name
        assert path.exists(), name
        assert f"wrote {path}" in out
        fields, rows = read_csv(path)
        assert fields == header, name
        assert rows, name
        tables[name] = rows
    assert f"wrote {json_file}" in out
    # postings balance
    assert sum(int(r["amount"]) for r in tables["postings.csv"]) == 0
    assert len(tables["postings.csv"]) == full.query("select count(*) n from postings")[0]["n"]
    assert len(tables["commands.csv"]) == full.query("select count(*) n from commands")[0]["n"]
    # the last round's balances are the game's cash now
    st = full.status()
    last = tables["balances_by_round.csv"][-1]["round"]
    assert last == "Game over"
    final = {acct_label(r["account"]): int(r["balance"]) for r in tables["balances_by_round.csv"] if r["round"] == last}
    final.pop("mint")
    assert {k: v for k, v in final.items() if v} == {k: v for k, v in cash_by_name(st).items() if v}
    holdings = defaultdict(dict)
    for r in tables["holdings_by_round.csv"]:
        if r["round"] == last and r["holder"].startswith("player:"):
            holdings[acct_label(r["holder"])][r["company"]] = int(r["percent"])
    assert dict(holdings) == {p["name"]: p["shares"] for p in st["players"]}
    # the JSON file
    data = json.loads(json_file.read_text())
    assert set(data) == {"game", "commands", "events", "postings", "rounds"}
    assert data["game"]["title"] == "1830" and json.loads(data["game"]["players"]) == FULL_PLAYERS
    assert len(data["commands"]) == len(tables["commands.csv"])
    assert {c["entered_by"] for c in data["commands"]} == {r["entered_by"] for r in tables["commands.csv"]} == \
        {"terminal"}
    assert len(data["events"]) == len(tables["events.csv"])
    assert len(data["postings"]) == len(tables["postings.csv"])
    assert sum(p["amount"] for p in data["postings"]) == 0
    assert data["rounds"][-1]["round"] == "Game over"
    assert {acct_label(a): v for a, v in data["rounds"][-1]["balances"].items() if a != "mint" and v} == \
        {k: v for k, v in cash_by_name(st).items() if v}
    assert [r["round"] for r in data["rounds"]] == list(dict.fromkeys(r["round"] for r in tables["balances_by_round.csv"]))


def test_export_needs_a_destination(full):
    assert "--csv" in error_line(full("export", ok=False))


def test_export_round_balances_agree_with_worth_by_round(opening, fast_path):
    opening("export", "--csv", str(fast_path / "out"))
    _fields, rows = read_csv(fast_path / "out" / "balances_by_round.csv")
    exported = {(r["round"], acct_label(r["account"])): int(r["balance"]) for r in rows
                if r["account"].startswith("player:")}
    view = {(r["round"], r["player"]): r["cash"] for r in opening.query("select * from worth_by_round")}
    assert view and all(exported.get(key) == cash for key, cash in view.items()), \
        {k: (exported.get(k), v) for k, v in view.items() if exported.get(k) != v}


# =========================================================================== 10. the SQL views

def test_balances_view_matches_status(full_master, opening_master):
    for db in (full_master, opening_master):
        st = Bank(db).status()
        rows = {acct_label(r["account"]): r["balance"] for r in query(db, "select * from balances")}
        assert rows.pop("mint") == -12000
        assert sum(rows.values()) == 12000
        expected = cash_by_name(st)
        assert {k: rows.get(k, 0) for k in expected} == expected
        assert set(rows) <= set(expected)


def percent_of(cert: str) -> int:
    # 1830: certificate .0 is the president's 20 %, .1 to .8 are 10 % shares
    return 20 if cert.rsplit(".", 1)[1] == "0" else 10


def test_holdings_view_matches_status(full_master, opening_master):
    for db in (full_master, opening_master):
        st = Bank(db).status()
        held: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        rows = query(db, "select * from holdings")
        assert len(rows) == 9 * len(COMPANIES) and len({r["cert"] for r in rows}) == len(rows)
        for r in rows:
            held[r["holder"]][r["cert"].rsplit(".", 1)[0]] += percent_of(r["cert"])
        for p in st["players"]:
            assert dict(held.get(f"player:{p['name']}", {})) == p["shares"], p["name"]
        for c in st["companies"]:
            assert held.get(f"ipo:{c['sym']}", {}).get(c["sym"], 0) == c["ipo"], c["sym"]
            assert held.get("pool", {}).get(c["sym"], 0) == c["pool"], c["sym"]
            if c["president"]:
                assert next(r["holder"] for r in rows if r["cert"] == f"{c['sym']}.0") == f"player:{c['president']}"


def test_worth_by_round_view(full_master):
    rows = query(full_master, "select * from worth_by_round")
    by_command: dict[int, list[dict]] = defaultdict(list)
    for r in rows:
        by_command[r["command_id"]].append(r)
    rounds = []
    for cid, group in by_command.items():
        assert sorted(r["player"] for r in group) == FULL_PLAYERS, cid
        assert len({r["round"] for r in group}) == 1
        rounds.append(group[0]["round"])
        for r in group:
            assert r["value"] == r["cash"] + r["shares"] + r["privates"]
    assert len(rounds) == len(set(rounds))
    assert rounds[0] == "Auction" and rounds[-1] == "Game over"
    assert "OR 8.3" in rounds
    score = {r["name"]: r for r in Bank(full_master).score()["players"]}
    last = by_command[max(by_command)]
    for r in last:
        s = score[r["player"]]
        assert (r["cash"], r["shares"], r["privates"], r["value"]) == (s["cash"], s["shares"], s["privates"], s["value"])


def test_worth_by_round_of_an_unfinished_game_ends_with_the_current_round(opening_master):
    rows = query(opening_master, "select * from worth_by_round")
    assert [r["round"] for r in rows[::4]] == ["Auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1"]
    # The snapshot is taken as OR 2.1 begins, before the privates pay; since then only the private
    # revenue has moved, so each player's worth now exceeds it by the revenue of his open privates.
    score = {r["name"]: r["value"] for r in Bank(opening_master).score()["players"]}
    rs = load("1830")
    owned = {p["name"]: p["privates"] for p in Bank(opening_master).status()["players"]}
    revenue = {name: sum(rs.private(sym).revenue for sym in syms) for name, syms in owned.items()}
    assert {r["player"]: r["value"] + revenue[r["player"]] for r in rows[-4:]} == score


def test_worth_by_round_includes_the_auction(full_master):
    rows = query(full_master, "select * from worth_by_round")
    auction = [r for r in rows if r["round"] == "Auction"]
    assert sorted(r["player"] for r in auction) == FULL_PLAYERS
    assert all(r["cash"] == 600 and r["value"] == 600 for r in auction)


# =========================================================================== 11. undo / redo

def command_rows(b: Bank) -> list[tuple]:
    return [(r["id"], r["text"], r["verb"]) for r in b.query("select id, text, verb from commands order by id")]


def test_undo_redo_through_the_cli(opening):
    rows = [command_rows(opening)]

    def grew():
        now = command_rows(opening)
        assert len(now) > len(rows[-1]) and now[:len(rows[-1])] == rows[-1], "a command row changed or vanished"
        rows.append(now)

    s0 = opening.status_text()
    opening("tile", "NYC", "120")
    grew()
    s1 = opening.status_text()
    assert s1 != s0
    assert {c["sym"]: c["cash"] for c in json.loads(s1)["companies"]}["NYC"] == 480
    out = opening("undo").stdout
    assert "undone: tile NYC 120" in out
    grew()
    assert opening.status_text() == s0
    assert "tile NYC 120" not in [e["text"] for e in opening.log()]
    assert "tile NYC 120 [undone]" in opening("log", "--all").stdout
    out = opening("redo").stdout
    assert "redone: tile NYC 120" in out
    grew()
    assert opening.status_text() == s1
    assert opening.log()[-1]["text"] == "tile NYC 120"
    opening("undo")
    grew()
    opening("tile", "NYC", "0")
    grew()
    s2 = opening.status_text()
    result = opening("redo", ok=False)
    assert "nothing to redo" in error_line(result)
    assert opening.status_text() == s2
    assert command_rows(opening) == rows[-1]  # a refused redo stores nothing
    statuses = {r["text"]: r["status"] for r in opening.query("select text, status from commands")}
    assert statuses["tile NYC 120"] == "undone" and statuses["tile NYC 0"] == "active"
    assert "audit: ledger, replay and rules agree" in opening("audit").stdout


def test_undo_twice_redo_twice(opening):
    s0 = opening.status_text()
    opening("tile", "NYC", "0")
    opening("withhold", "NYC", "0")
    s2 = opening.status_text()
    opening("undo")
    opening("undo")
    assert opening.status_text() == s0
    assert "redone: tile NYC 0" in opening("redo").stdout
    assert "redone: withhold NYC 0" in opening("redo").stdout
    assert opening.status_text() == s2


def test_redo_restores_the_command_undone_last(opening):
    opening("tile", "NYC", "120")  # A
    opening("undo")
    opening("tile", "NYC", "0")  # B
    s_b = opening.status_text()
    opening("undo")
    out = opening("redo").stdout
    assert "redone: tile NYC 0" in out
    assert opening.status_text() == s_b


def test_nothing_to_undo_on_a_new_game(fresh):
    assert "nothing to undo" in error_line(fresh("undo", ok=False))


# =========================================================================== 12. damaged game files

def test_a_game_from_a_newer_engine_is_refused_and_left_unchanged(opening):
    execute(opening.db, "update game set engine_version = 999")
    digest, content = file_digest(opening.db), dump(opening.db)
    for words in (["status"], ["tile", "NYC", "0"], ["audit"], ["log"], ["undo"]):
        result = opening(*words, ok=False)
        line = error_line(result)
        assert "newer engine" in line and "999" in line, line
        assert result.exit_code == 5
    assert opening("shell", input="status\n", ok=False).exit_code != 0
    assert file_digest(opening.db) == digest
    assert dump(opening.db) == content


def test_a_corrupted_event_is_reported_not_repaired(opening):
    ev = opening.query("select e.id, e.data from events e join commands c on c.id = e.command_id "
                       "where c.text = 'buy Alice NYC' and e.kind = 'share_bought'")[0]
    data = json.loads(ev["data"])
    cert, source, dest = data["certs"][0]
    assert source == "ipo:NYC"
    data["certs"][0] = [cert, "pool", dest]  # the share now claims to come from the pool
    execute(opening.db, "update events set data = ? where id = ?", [json.dumps(data), ev["id"]])
    digest, content = file_digest(opening.db), dump(opening.db)
    for words in (["status"], ["tile", "NYC", "0"], ["audit"], ["undo"], ["score", "--json"]):
        result = opening(*words, ok=False)
        line = error_line(result)
        assert "replay fails" in line and "share_bought" in line and cert in line, line
        assert result.exit_code == 5
        assert result.stdout == ""
    assert file_digest(opening.db) == digest
    assert dump(opening.db) == content
    assert json.loads(opening.query("select data from events where id = ?", [ev["id"]])[0]["data"]) == data


def test_an_altered_ruleset_is_reported(opening):
    execute(opening.db, "update game set ruleset_text = replace(ruleset_text, 'discount_only = \"SV\"', "
                        "'discount_only = \"CS\"')")
    line = error_line(opening("status", ok=False))
    assert "ruleset" in line
