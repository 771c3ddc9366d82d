"""What the tests share: one Table that plays a game on the pure engine, as a table types it.

    t = Table("new 1801 Ann Ben Cy")
    t.play(AUCTION)                 # transcript lines: comments and blank lines dropped
    assert t.cash()["Ann"] == 1020
    assert "§8.3" in t.refused("train B 3+3")

Each line is read with the one grammar the `bank` CLI is built from (ledger.core.grammar), decided
by `ledger.core.engine` and its events applied; no CLI and no SQLite, so a rules test costs what the
rules cost. A refusal reads as the CLI's one stderr line ("error: ..."): the CLI turns an error into
text with the same `one_line(exc.line())`. What the readers return is the CLI's `status --json`,
`score --json` and `market --json`, built by the same view functions from the same state.

    t.refusal("buy Alice CS", match="cheapest").hint   # the error itself, matched as pytest.raises does
    t.explained("tile PRR 100 --with zone")             # played, and what `bank explain` says of it
    t.cash("PRR"), t.pct("Alice", "PRR"), t.price("PRR") # read from the state (no view built)

The shared openings: `new_1830()`, `auction_1830(t)` (the digest §4 auction), `sr1_1830()` (SR 1
after it), `opening_1830()` (OR 1.1, PRR to operate) and `chain_1830(label)` (a whole train era,
CHAIN_1830), with `next_turn_of(t, corp)`; each position is played once per test session and handed
out as a copy.

Table's readers keep one meaning each: `round()` is the status label ("OR 1.1"), `round_state()`
the round's own record; `trains(corp)` the labels status prints, `train_sides(corp)` the
certificates' sides; `certs(name)` a player's certificate count, `cert_percents(holder, corp)` the
percentages of each certificate held.

The game drivers of the tests, each for one thing:

* `Table` (here): a game on the pure engine, for every test of the rules, the views and the
  grammar. `tests/properties/test_whole_games.py`'s RandomTable is a Table with a random policy.
* `cli_driver.Bank` (tests/cli_driver.py): the real `bank` CLI (typer's runner, a SQLite game file),
  for what only the command line and the store do: argv, exit codes, stderr, the record, undo, the
  audit; `run_bank` runs it as a finished process, `bank_serve` starts `bank serve` in a process of
  its own. tests/1830/cli_1830.Bank is the same on the click command built once.
* `game_files` (tests/game_files.py): game files made once per test process by the real CLI and
  copied into each test that changes one (`played_copy`, `new_copy`): real files, made once.
* `random_play.RandomGame` (tests/random_play.py): a whole game played at random from what the core
  offers (legal.turn), for the property tests of the titles; apart from Table because the bench's
  scripts (bench/legal.py, bench/random_1801.py) play with it outside pytest.
* tests/1801/table_1801.Table over engine_bank_1801.Bank: the 1801 rules tests, first written
  against game files, on a conftest.Table: `t.bank.line(...)` answers as the CLI would (an exit
  code, the one `error: ...` line), and the positions (the `*_game` fixtures of positions_1801)
  are games held in memory, copied with `copy()`; no file is written or read, and no CLI runs.

The few tests of the CLI, the store and the board page drive the real thing (cli_driver.Bank), their
game files in `fast_dir` / `fast_path` (in memory: the store syncs every command to disk).
"""

from __future__ import annotations

import atexit
import copy
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from ledger import catalog
from ledger.core import engine
from ledger.core.errors import BankError, CommandError, RuleViolation, one_line
from ledger.core.events import apply
from ledger.core.invariants import check as check_invariants
from ledger.core.state import BANK, POOL, GameState, company_acct, player_acct

sys.path.insert(0, str(Path(__file__).parent))   # the helper modules beside this file (transcripts ...)

from game_files import memory_root  # noqa: E402

# The record's chain key and the record of the games keyed here (ledger.books.chain.key_folder,
# ledger.books.known) live in a folder of this test process, in memory where the machine has it,
# never in the user's own configuration folder; the processes a test starts inherit it.
if "BANK_CONFIG_DIR" not in os.environ:   # made once, by the first process (the workers inherit it)
    os.environ["BANK_CONFIG_DIR"] = tempfile.mkdtemp(prefix="bank-test-config-", dir=memory_root())
    atexit.register(shutil.rmtree, os.environ["BANK_CONFIG_DIR"], True)
from transcripts import lines_of, options_of  # noqa: E402


class Refusal(AssertionError):
    """A line the table expected to be taken was refused."""


class Table:
    """A game on the pure engine, driven by transcript lines; `new TITLE PLAYERS [--option X]`
    starts it (or the constructor's title and players)."""

    def __init__(self, script: str = "", *, title: str | None = None, players: list[str] | None = None,
                 options: dict | None = None):
        self.rs = None
        self.state: GameState | None = None
        self.players: list[str] = []
        self.options: dict = {}
        self.events: list[dict] = []
        self.lines: list[str] = []
        if title:
            self.start(title, players or [], options or {})
        if script:
            self.play(script)

    # ------------------------------------------------------------------ playing

    def start(self, title: str, players: list[str], options: dict) -> None:
        self.rs = catalog.load(title, options)
        self.players, self.options = list(players), dict(options)
        self.state = engine.initial_state(self.rs, self.players, self.options)
        self.events, self.lines = [], []
        for event in engine.start_events(self.rs, self.players):
            apply(self.state, event)
            self.events.append(event)
        self.money_at_start = sum(self.state.balances.values())

    def decide(self, line: str) -> list[dict]:
        """The events a line would bring, nothing applied (raises the refusal)."""
        return engine.decide(self.state, self.rs, catalog.parse_line(line))

    def line(self, text: str) -> list[dict]:
        """One line, its events applied and returned; a refusal raises the engine's BankError."""
        cmd = catalog.parse_line(text)
        if cmd.verb == "new":
            self.start(cmd.get("title"), cmd.get("players"), options_of(cmd))
            return list(self.events)
        events = engine.decide(self.state, self.rs, cmd)
        for event in events:
            apply(self.state, event)
            self.events.append(event)
        self.lines.append(text)
        return events

    def play(self, script: str) -> None:
        """Every line of a transcript; the first refusal fails the test naming the line."""
        for text in lines_of(script):
            try:
                self.line(text)
            except BankError as exc:
                raise Refusal(f"{text!r} was refused: {one_line(exc.line())}") from None

    def do(self, *lines: str) -> list[dict]:
        """Each line (a refusal fails the test), the invariants checked after each; the last one's
        events."""
        out: list[dict] = []
        for text in lines:
            for one in lines_of(text):
                try:
                    out = self.line(one)
                except BankError as exc:
                    raise Refusal(f"{one!r} was refused: {one_line(exc.line())}") from None
                problems = check_invariants(self.state, self.rs)
                assert not problems, f"after {one!r}: {problems}"
        return out

    def attempt(self, text: str) -> str | None:
        """A line that may be refused: None when taken, else the refusal's line."""
        try:
            self.line(text)
        except BankError as exc:
            return "error: " + one_line(exc.line())
        return None

    def refused(self, text: str, *fragments: str, match: str | None = None, kind=BankError) -> str:
        """`text` is refused with one line naming the rule (each fragment, case-insensitive), and
        nothing in the game changes. Returns the line as the CLI prints it ("error: ...").
        `match` and `kind` check the exception as `refusal` does."""
        exc = self.refusal(text, match=match, kind=kind)
        said = "error: " + one_line(exc.line())
        for fragment in fragments:
            assert fragment.lower() in said.lower(), f"{text!r} refused with {said!r}, expected {fragment!r}"
        return said

    def refusal(self, text: str, match: str | None = None, kind=(RuleViolation, CommandError)) -> BankError:
        """`text` is refused with an error of `kind` whose message matches the regular expression
        `match` (as pytest.raises matches it), and nothing in the game changes; the error itself
        (its message and hint) is returned."""
        before, count = self.state.clone(), len(self.events)
        try:
            self.line(text)
        except BankError as exc:
            error = exc
        else:
            raise AssertionError(f"{text!r} should have been refused")
        assert isinstance(error, kind), f"{text!r} refused with {type(error).__name__}: {error}"
        if match is not None:
            assert re.search(match, str(error)), f"{text!r} refused with {str(error)!r}, expected /{match}/"
        assert self.state == before, f"the refused {text!r} changed the game"
        assert len(self.events) == count, f"the refused {text!r} was recorded"
        return error

    def explained(self, text: str) -> list[str]:
        """Play a line and say how its money was computed, as `bank explain N` does (the lines after
        its "command N: ..." header): each event explained on the state just before it."""
        from ledger.interface.explain import explain_event
        state = self.state.clone()
        out: list[str] = []
        for event in self.do(text):
            out += explain_event(state, self.rs, event)
            apply(state, event)
        return out or ["  no money moved"]

    def copy(self) -> Table:
        """An independent copy (the state cloned; events are never changed once applied)."""
        new = copy.copy(self)
        new.state = self.state.clone()
        new.events, new.lines, new.options = list(self.events), list(self.lines), dict(self.options)
        return new

    def replayed(self) -> GameState:
        return engine.replay(self.rs, self.players, self.events, self.options)

    # ------------------------------------------------------------------ reading (the CLI's --json)

    def status(self) -> dict:
        from ledger.interface.views import status_json
        return json.loads(json.dumps(status_json(self.state, self.rs)))

    def status_text(self) -> str:
        from ledger.interface.views import status_text
        return status_text(self.state, self.rs, width=100)

    def scores(self) -> dict:
        from ledger.interface.views import score_json
        return json.loads(json.dumps(score_json(self.state, self.rs)))

    def score(self) -> dict:
        """Each player's row of `bank score --json`, by name."""
        return {p["name"]: p for p in self.scores()["players"]}

    def market(self) -> dict:
        from ledger.interface.views import market_json
        return json.loads(json.dumps(market_json(self.state, self.rs)))

    def player(self, name: str, s: dict | None = None) -> dict:
        return next(p for p in (s or self.status())["players"] if p["name"] == name)

    def company(self, sym: str, s: dict | None = None) -> dict:
        return next(c for c in (s or self.status())["companies"] if c["sym"] == sym)

    def private(self, sym: str, s: dict | None = None) -> dict:
        return next(p for p in (s or self.status())["privates"] if p["sym"] == sym)

    def cash(self, who: str | None = None) -> dict | int:
        """Every player's and company's cash, and the bank's; or one of them: a player's, a
        company's (by symbol) or 'bank' (read from the state, no view built)."""
        if who is not None:
            if who == "bank":
                return self.state.cash(BANK)
            return self.state.cash(company_acct(who) if who in self.state.corps else player_acct(who))
        s = self.status()
        out = {p["name"]: p["cash"] for p in s["players"]}
        out.update({c["sym"]: c["cash"] for c in s["companies"]})
        out["bank"] = s["bank"]
        return out

    def prices(self) -> dict:
        return {c["sym"]: c["price"] for c in self.status()["companies"]}

    def holdings(self, sym: str) -> dict:
        """Percent of `sym` held by each player, its treasury ('ipo') and the open market ('pool')."""
        s = self.status()
        out = {p["name"]: p["shares"].get(sym, 0) for p in s["players"]}
        c = self.company(sym, s)
        out["ipo"], out["pool"] = c["ipo"], c["pool"]
        return out

    def trains(self, sym: str) -> list:
        return sorted(self.company(sym)["trains"])

    def certs(self, name: str) -> int:
        return self.player(name)["certificates"]

    def round(self) -> str:
        return self.status()["round"]

    def log_count(self) -> int:
        return len(self.lines)

    def money_total(self) -> int:
        s = self.status()
        return s["bank"] + sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])

    def books_balance(self, total: int | None = None) -> None:
        """Money conserved (every event's transfers sum to zero; the total is `total` when given),
        every company's certificates sum to 100 %, and the engine's invariants hold."""
        assert sum(self.state.balances.values()) == self.money_at_start, "money was made or lost"
        if total is not None:
            assert self.money_total() == total
        s = self.status()
        for c in s["companies"]:
            held = sum(p["shares"].get(c["sym"], 0) for p in s["players"])
            assert held + c["ipo"] + c["pool"] == 100, c["sym"]
        problems = check_invariants(self.state, self.rs)
        assert not problems, problems

    # ------------------------------------------------------------------ reading the state (no view built)

    def bank(self) -> int:
        return self.state.cash(BANK)

    def price(self, corp: str) -> int | None:
        cell = self.state.corps[corp].cell
        return self.rs.market[tuple(cell)].price if cell else None

    def cell(self, corp: str) -> tuple | None:
        cell = self.state.corps[corp].cell
        return tuple(cell) if cell else None

    def pct(self, holder: str, corp: str) -> int:
        """Percent of `corp` held by a player, or by 'pool' / 'ipo'."""
        from ledger.core.rules import shares
        if holder == "pool":
            acct = POOL
        elif holder == "ipo":
            acct = shares.unsold_acct(self.state, self.rs, corp)
        else:
            acct = player_acct(holder)
        return self.state.percent_of(acct, corp)

    def cert_percents(self, holder: str, corp: str) -> list[int]:
        """The percentages of the certificates a player (or 'pool') holds of a company, high first."""
        acct = POOL if holder == "pool" else player_acct(holder)
        return sorted((self.state.cert_percent[c] for c in self.state.certs_of(acct, corp)), reverse=True)

    def president(self, corp: str) -> str | None:
        return self.state.president(corp)

    def owner(self, private: str) -> str | None:
        owner = self.state.privates[private].owner
        return owner.split(":", 1)[1] if owner else None

    def round_kind(self) -> str:
        return self.state.round["kind"]

    def turn(self) -> str:
        """Whose turn it is in an auction (the actor, also in a bidding war) or a stock round."""
        from ledger.core.rounds import auction
        if self.state.round["kind"] == "auction":
            return auction.actor(self.state)
        return self.state.players[self.state.round["turn"]]

    def priority(self) -> str:
        return self.state.players[self.state.priority]

    def round_state(self) -> dict:
        """The round's own record (GameState.round: its kind, number, whose turn, ...); `round()`
        is the label `status` prints."""
        return self.state.round

    def order(self) -> list[str]:
        """The seating (player-card) order now; 1843 re-deals it after each stock round."""
        return list(self.state.players)

    def phase(self) -> str:
        return self.state.phase

    @property
    def game_over(self) -> bool:
        return self.state.game_over

    @property
    def end_reason(self) -> str | None:
        return self.state.end_reason

    def train_sides(self, corp: str) -> list[str]:
        """The sides (e.g. '2+1', '3/5x2', 'TGV') of the train certificates a company holds, sorted;
        `trains(corp)` is the labels `status` prints."""
        from ledger.core.rules import trains
        return sorted(trains.side_name(self.state, self.rs, t) for t in self.state.corp_trains(corp))

    def pool_trains(self) -> list[str]:
        """The sides of the trains in the open market, sorted."""
        from ledger.core.rules import trains
        return sorted(trains.side_name(self.state, self.rs, t) for t in self.state.pool_trains())

    def supply_left(self, train_type: str) -> int:
        """Certificates of a type still in the bank's supply."""
        from ledger.core.rules import trains
        return len(trains.depot_left(self.state, train_type))

    def port_owner(self, port: str) -> str | None:
        owner = self.state.assets[port].owner  # 1843's ports are assets: held by a company or on the map
        return owner.split(":", 1)[1] if owner else None

    def value(self, player: str) -> int:
        """The player's net worth as `score` computes it."""
        from ledger.interface import views
        return views.value(self.state, self.rs, player)

    def kinds(self, events: list[dict] | None = None) -> list[str]:
        """The kinds of `events` (every event of the game when not given)."""
        return [e["kind"] for e in (self.events if events is None else events)]


# ---------------------------------------------------------------------- game files on a fast disk

@pytest.fixture(scope="module")
def fast_dir():
    """A folder for the few tests of the CLI and its SQLite file, in memory (/dev/shm) where there is
    one: the store syncs every command to disk (synchronous=FULL), which on a shared disk costs far
    more than the rules; the code run is the same."""
    base = memory_root()
    folder = Path(tempfile.mkdtemp(prefix="bank-test-", dir=base))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def fast_path(fast_dir, request) -> Path:
    """A fresh folder per test inside `fast_dir` (as pytest's tmp_path, in memory)."""
    folder = Path(tempfile.mkdtemp(prefix=re.sub(r"\W", "_", request.node.name)[:40] + "-", dir=fast_dir))
    return folder


# ---------------------------------------------------------------------- the shared 1830 openings

FOUR = ["Alice", "Bob", "Carol", "Dave"]


def new_1830(players=FOUR) -> Table:
    return Table(title="1830", players=list(players))


def auction_1830(t: Table, buyers=("Alice", "Bob", "Carol", "Dave", "Alice", "Bob"), bo_par: int = 100) -> Table:
    """Digest §4 example: each private bought outright in turn (A SV, B CS, C DH, D MH, A CA, B BO),
    then the BO buyer sets B&O's par."""
    for who, sym in zip(buyers, ["SV", "CS", "DH", "MH", "CA", "BO"]):
        t.do(f"buy {who} {sym}")
    t.do(f"par {buyers[5]} B&O {bo_par}")
    return t


_OPENINGS: dict = {}


def _kept(key, build) -> Table:
    """A position built once per test session and handed out as an independent copy."""
    if key not in _OPENINGS:
        _OPENINGS[key] = build()
    return _OPENINGS[key].copy()


def sr1_1830(bo_par: int = 67) -> Table:
    """SR 1 just started after the digest §4 auction (A SV + CA, B CS + BO, C DH, D MH; Bob pars B&O
    at `bo_par`); Carol has priority and Alice holds the CA's PRR 10 %."""
    return _kept(("sr1", bo_par), lambda: auction_1830(new_1830(), bo_par=bo_par))


def opening_1830() -> Table:
    """OR 1.1 (phase 2, a set of 1 OR), PRR about to operate.

    Auction (digest §4 example): Alice SV + CA (free PRR 10 %), Bob CS + BO (B&O president, par 67),
    Carol DH, Dave MH. SR 1 (Carol has priority):
      PRR par 76 by Carol; Dave, Alice, Bob buy one each    -> PRR floats (60 % incl. the CA share), $760
      NYC par 67 by Carol; Dave, Alice, Bob, Carol, Dave buy -> NYC floats, $670
      Alice, Bob, Carol, Dave buy a B&O share               -> B&O floats (Bob's 20 % + 40 %), $670
    Holdings  PRR: Carol 20 (pres), Alice 20, Dave 10, Bob 10, IPO 40
              NYC: Carol 30 (pres), Dave 20, Alice 10, Bob 10, IPO 30
              B&O: Bob 30 (pres), Alice 10, Carol 10, Dave 10, IPO 40
    Cash after SR 1: Alice 420-76-67-67 = 210, Bob 340-76-67-67 = 130, Carol 530-152-134-67-67 = 110,
    Dave 490-76-67-67-67 = 213; then OR 1.1's private revenue: Alice +30, Bob +40, Carol +15, Dave +20.
    """
    def build():
        t = sr1_1830()
        t.do("par Carol PRR 76", "buy Dave PRR", "buy Alice PRR", "buy Bob PRR",
             "par Carol NYC 67", "buy Dave NYC", "buy Alice NYC", "buy Bob NYC", "buy Carol NYC", "buy Dave NYC",
             "buy Alice B&O", "buy Bob B&O", "buy Carol B&O", "buy Dave B&O",
             "pass Alice", "pass Bob", "pass Carol", "pass Dave")
        return t
    return _kept("opening", build)


# A whole train era on top of `opening_1830()`, in labelled steps; chain_1830(label) plays up to and
# including that step. Five companies are needed to reach the D: from phase 5 on each holds at most 2
# trains.
CHAIN_1830: list[tuple[str, list[str]]] = [
    # OR 1.1: PRR fills up with 2s, B&O has no route, NYC takes the last 2s and the first 3 (phase 3).
    ("sr2", ["train PRR 2", "train PRR 2", "train PRR 2", "train PRR 2", "done PRR",
             "done B&O --no-route",
             "train NYC 2", "train NYC 2", "train NYC 3", "done NYC"]),
    ("or2.1", ["pass Alice", "pass Bob", "pass Carol", "pass Dave"]),
    # OR 2.1: big dividends fund the players; B&O buys three 3s (BO closes); NYC takes the last 3.
    ("or2.1-b&o", ["pay PRR 2000 --force --reason 'test position'", "done PRR"]),
    ("or2.1-nyc", ["train B&O 3", "train B&O 3", "train B&O 3", "done B&O"]),
    ("or2.2", ["pay NYC 1000 --force --reason 'test position'", "train NYC 3", "done NYC"]),
    # OR 2.2: B&O (three 3s) buys the first 4: phase 4, limit 3, 2s rust, B&O discards a 3.
    ("or2.2-b&o", ["withhold PRR 1000 --force --reason 'test position'", "done PRR", "withhold NYC 0", "done NYC",
                   "withhold B&O 300 --force --reason 'test position'"]),
    ("first4", ["train B&O 4"]),
    ("sr3", ["discard B&O 3", "done B&O"]),
    # SR 3: ERIE (Alice) and C&O (Carol) float at par 100.
    ("or3.1", ["par Alice ERIE 100", "buy Bob ERIE", "par Carol C&O 100", "buy Dave ERIE", "buy Alice ERIE",
               "buy Bob C&O", "buy Carol ERIE", "buy Dave C&O", "buy Alice C&O", "buy Bob C&O",
               "pass Carol", "pass Dave", "pass Alice", "pass Bob"]),
    # OR 3.1: PRR buys DH from Carol and two 4s; NYC the last 4.
    ("or3.1-prr", ["done ERIE --no-route", "done C&O --no-route"]),
    ("or3.1-nyc", ["buy-private PRR DH 140", "train PRR 4", "train PRR 4", "done PRR"]),
    ("or3.2", ["withhold NYC 300 --force --reason 'test position'", "train NYC 4", "done NYC", "withhold B&O 0",
               "done B&O"]),
    # OR 3.2: ERIE buys the first 5: phase 5, limit 2, all privates close; NYC and B&O discard a 3.
    ("first5", ["withhold ERIE 0", "train ERIE 5"]),
    ("sr4", ["discard NYC 3", "discard B&O 3", "done ERIE", "train C&O 5", "train C&O 5", "done C&O",
             "withhold PRR 0", "done PRR", "withhold NYC 0", "done NYC", "withhold B&O 0", "done B&O"]),
    ("or4.1", ["pass Carol", "pass Dave", "pass Alice", "pass Bob"]),
    # OR 4.1: ERIE buys the first 6: phase 6, 3s rust everywhere, D trains for sale.
    ("first6", ["withhold ERIE 500 --force --reason 'test position'", "train ERIE 6"]),
    ("or4.2", ["done ERIE", "withhold C&O 0", "done C&O", "withhold PRR 0", "done PRR", "withhold NYC 0", "done NYC",
               "withhold B&O 0", "done B&O"]),
    # OR 4.2: ERIE trades its 6 in for the first D: phase D, 4s rust everywhere.
    ("firstD", ["withhold ERIE 400 --force --reason 'test position'", "train ERIE D --trade-in 6"]),
    ("or4.2-prr", ["done ERIE", "withhold C&O 0", "done C&O"]),
    ("or4.2-nyc", ["train PRR 6 --from pool", "done PRR"]),
    ("or4.2-b&o", ["train NYC 6", "done NYC"]),
]
LABELS_1830 = [label for label, _ in CHAIN_1830]


def chain_1830(label: str) -> Table:
    """The position after CHAIN_1830's step `label` (each step built once, from the one before)."""
    if label not in LABELS_1830:
        raise KeyError(label)

    def build():
        at = LABELS_1830.index(label)
        t = chain_1830(LABELS_1830[at - 1]) if at else opening_1830()
        t.do(*CHAIN_1830[at][1])
        return t
    return _kept(("chain", label), build)


def finish_turn(t: Table) -> None:
    """End the operating company's turn: run for $0 if it has trains, else declare no route."""
    corp = t.state.round["corp"]
    if t.state.corp_trains(corp):
        if t.state.round["revenue"] is None:
            t.do(f"withhold {corp} 0")
        t.do(f"done {corp}")
    else:
        t.do(f"done {corp} --no-route")


def next_turn_of(t: Table, corp: str) -> None:
    """Play on (everyone passes in stock rounds, companies run for $0) until `corp` starts a turn."""
    if t.round_kind() == "operating" and t.state.round["corp"] == corp:
        finish_turn(t)
    for _ in range(200):
        if t.round_kind() == "operating":
            if t.state.round["corp"] == corp:
                return
            finish_turn(t)
        elif t.round_kind() == "stock":
            t.do(f"pass {t.turn()}")
        else:
            raise AssertionError(f"cannot reach {corp}'s turn: {t.round_kind()}")
    raise AssertionError(f"{corp} never operated")


# --------------------------------------------------------------------------- where the tests' files go

def pytest_configure(config):
    """Every test's tmp_path on the memory filesystem when the machine has one: the store commits
    durably (synchronous=FULL), and on a busy disk a test of the store would wait on the disk
    rather than run. xdist's workers take their folders under the controller's."""
    shm = memory_root()
    if config.option.basetemp or hasattr(config, "workerinput") or shm is None:
        return
    config.option.basetemp = str(Path(shm) / f"bank-tests-{os.getpid()}")
    config._bank_basetemp = config.option.basetemp


def pytest_unconfigure(config):
    made = getattr(config, "_bank_basetemp", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
