"""State snapshots (issue 11, item 7): a game opens from the latest snapshot in force plus the
events after it, and that always gives exactly the state a full replay of every event gives.

- ledger.core.snapshot writes any state as JSON and reads it back equal, for every round boundary
  of every example game and for fields GameState does not have yet;
- a command that starts a round stores the state after it, in its own transaction; a file from
  before snapshots is read as it is and gets the table with its first command;
- undo, redo (this bank's, or an older bank's status change) and any change to an event drop the
  snapshots at or after the command concerned, so none is ever stale;
- a snapshot that does not load, fails the invariants or comes from another engine is not used;
  `bank audit` checks every snapshot against the full replay and the digest of the events.
"""

from __future__ import annotations

import enum
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path

import pytest
from cli_driver import Bank, report_lines
from game_files import in_memory, played_file
from transcripts import lines_of

from ledger import catalog
from ledger.books import derived
from ledger.books.session import Session
from ledger.books.store import Store
from ledger.core import engine, snapshot
from ledger.core.events import apply
from ledger.core.snapshot import layout_digest, state_from_json, state_to_json
from ledger.core.state import GameState, Private

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.txt"))
OPENING = ROOT / "examples" / "1830-opening.txt"
FULL = ROOT / "examples" / "1830-full-game.txt"


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def tmp_path():
    """This module's tests write whole games: their files live on the memory filesystem
    (game_files.in_memory), where a durable commit does not wait for a busy disk."""
    yield from in_memory()


def transcript(path: Path) -> list[str]:
    return lines_of(path.read_text())


@contextmanager
def opened(path: Path):
    s = Session.open(path)
    try:
        yield s
    finally:
        s.close()


def full_replay(path: Path) -> GameState:
    """Every event in force from the start, without the session or its snapshots."""
    with opened(path) as s:
        return engine.replay(s.rs, s.players, s.store.active_events(), s.options)


def starts_round(events: list[dict]) -> bool:
    return any(e["kind"] in ("round_started", "game_over") for e in events)


def states_by_command(path: Path):
    """(command id, its events, the state after it, active events so far) for each command in
    force, replayed from the start."""
    with opened(path) as s:
        state = engine.initial_state(s.rs, s.players, s.options)
        events_by_command: dict[int, list[dict]] = {}
        for row in s.store.query("select command_id, data from events order by id"):
            events_by_command.setdefault(row["command_id"], []).append(json.loads(row["data"]))
        commands = s.store.commands(include_undone=False)
    count = 0
    for row in commands:
        events = events_by_command.get(row["id"], [])
        for event in events:
            apply(state, event)
        count += len(events)
        yield row["id"], events, state, count


def stored_snapshots(path: Path) -> dict[int, dict]:
    conn = sqlite3.connect(str(path))
    conn.row_factory = sqlite3.Row
    try:
        return {r["command_id"]: dict(r) for r in conn.execute("select * from state_snapshots")}
    finally:
        conn.close()


def sql(path: Path, statement: str, params=()) -> None:
    """Change a game file as an outsider would (the sqlite3 shell, an older bank)."""
    conn = sqlite3.connect(str(path))
    try:
        conn.execute(statement, params)
        conn.commit()
    finally:
        conn.close()


def tables_and_triggers(path: Path) -> set[str]:
    conn = sqlite3.connect(str(path))
    try:
        return {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'trigger')")}
    finally:
        conn.close()


def make_old(path: Path) -> None:
    """Turn a game file into one written before state snapshots existed."""
    for name in sorted(n for n in tables_and_triggers(path) if n.startswith("state_snapshots_")):
        sql(path, f"drop trigger {name}")
    sql(path, "drop table state_snapshots")


def play(path: Path, lines: list[str]) -> None:
    text = path.with_suffix(".txt")
    text.write_text("\n".join(lines) + "\n")
    Bank(path)("play", str(text))


@pytest.fixture(scope="module")
def played() -> dict[str, Path]:
    """Each example played once through the real CLI (game_files: once for every test that reads
    it; a test that changes one works on a copy)."""
    return {example.name: played_file(example.name) for example in EXAMPLES}


@pytest.fixture
def full_game(played, tmp_path) -> Path:
    path = tmp_path / "full.db"
    path.write_bytes(played[FULL.name].read_bytes())
    return path


def latest_snapshot(path: Path) -> int:
    return max(stored_snapshots(path))


def own_type(state):
    """The dataclass of the title's own state (what the session hands the snapshot reader)."""
    return type(state.own) if state.own is not None else None


def audit(path: Path):
    return Bank(path)("audit", ok=None)


# --------------------------------------------------------------------------- the encoding

@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_every_round_boundary_of_every_example_round_trips(played, example):
    boundaries = 0
    for _command_id, events, state, _count in states_by_command(played[example]):
        if starts_round(events):
            boundaries += 1
            text = state_to_json(state)
            back = state_from_json(text, own=own_type(state))
            assert back == state
            assert all(c.cell is None or type(c.cell) is tuple for c in back.corps.values())
            assert state_to_json(back) == text
    assert boundaries >= 5  # the opening has auction, SR 1, OR 1.1, SR 2, OR 2.1; the full games dozens


@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_every_round_boundary_has_a_stored_snapshot_equal_to_the_replay(played, example):
    stored = stored_snapshots(played[example])
    boundaries = []
    for command_id, events, state, count in states_by_command(played[example]):
        if starts_round(events):
            boundaries.append(command_id)
            row = stored[command_id]
            assert state_from_json(row["state"], own=own_type(state)) == state
            assert row["head_events"] == count
            assert row["format"] == snapshot.FORMAT
    assert sorted(stored) == boundaries


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Marker:
    where: tuple[int, int]
    colour: Colour


@dataclass
class Loan:
    amount: int


@dataclass
class Bond:
    rate: float


@dataclass
class FutureState(GameState):
    """GameState with the kinds of fields it may gain: the encoding needs no change for them."""
    loans: dict[int, Loan] = field(default_factory=dict)
    markers: list[Marker] = field(default_factory=list)
    route: tuple[int, ...] = ()
    deal: Loan | Bond | None = None
    tags: frozenset[str] = frozenset()
    last_cell: tuple[int, int] | None = None


def test_fields_added_to_the_state_round_trip_without_changing_the_encoding(played):
    with opened(played[OPENING.name]) as s:
        base = s.state
    state = FutureState(**{f.name: getattr(base, f.name) for f in fields(GameState)},
                        loans={3: Loan(100), 12: Loan(50)}, markers=[Marker((2, 5), Colour.BLUE)],
                        route=(1, 4, 9), deal=Bond(0.5), tags=frozenset({"a", "b"}), last_cell=(0, 3))
    back = state_from_json(state_to_json(state), FutureState)
    assert back == state
    assert list(back.loans) == [3, 12] and type(back.markers[0].where) is tuple
    assert back.markers[0].colour is Colour.BLUE and type(back.deal) is Bond
    # the other member of the union comes back as itself, not as the first one that fits
    state.deal = Loan(7)
    assert type(state_from_json(state_to_json(state), FutureState).deal) is Loan
    assert layout_digest(FutureState) != layout_digest(GameState)


def test_what_json_would_change_is_refused_not_stored_inexactly(played):
    with opened(played[OPENING.name]) as s:
        base = s.state
    for value in ({1: "a number as a key"}, {1, 2}, Private("SV")):
        state = base.clone()
        field = next(k for k in type(state.round).__dataclass_fields__ if k != "kind")
        state.round = state.round.but(**{field: value})
        with pytest.raises(TypeError):
            state_to_json(state)


def test_a_text_that_does_not_fit_the_state_is_refused(played):
    with opened(played[OPENING.name]) as s:
        data = json.loads(state_to_json(s.state))
    for change in ({"surprise": 1}, {"cert_limit": "16"}, {"corps": {"PRR": {"sym": "PRR"}}}):
        with pytest.raises((ValueError, TypeError)):
            state_from_json(json.dumps({**data, **change}))
    missing = dict(data)
    del missing["phase"]
    with pytest.raises(ValueError):
        state_from_json(json.dumps(missing))
    with pytest.raises(ValueError):  # a tag naming a class the type does not admit
        state_from_json(json.dumps({"@type": "Private", "rate": 1.0}), Loan | Bond)


# --------------------------------------------------------------------------- storing and opening

def test_a_game_opens_from_its_latest_snapshot_and_reads_only_the_events_after_it(full_game, monkeypatch):
    latest = latest_snapshot(full_game)
    asked = []
    real = Store.active_event_rows
    monkeypatch.setattr(Store, "active_event_rows",
                        lambda self, after_command=0: asked.append(after_command) or real(self, after_command))
    with opened(full_game) as s:
        assert asked == [latest] and s.base.command_id == latest
        assert s.state == full_replay(full_game)


def test_every_new_game_starts_with_a_snapshot(tmp_path):
    path = tmp_path / "new.db"
    Bank(path)("new", "1830", "Alice", "Bob", "Carol", "Dave")
    assert list(stored_snapshots(path)) == [1]
    with opened(path) as s:
        assert s.base.command_id == 1 and s.state == full_replay(path)


def test_a_file_from_before_snapshots_is_read_as_it_is_and_gets_the_table_with_a_command(tmp_path):
    path = tmp_path / "old.db"
    lines = transcript(OPENING)
    play(path, lines[:20])
    make_old(path)
    before = path.read_bytes()
    for view in (["status"], ["score", "--json"], ["log"], ["audit"]):
        Bank(path)(*view)
    assert path.read_bytes() == before  # reading never creates the table
    assert "state_snapshots" not in tables_and_triggers(path)
    play(path, lines[20:])
    assert "state_snapshots" in tables_and_triggers(path)
    stored = stored_snapshots(path)
    assert stored and min(stored) > 20  # only commands written after the upgrade have one
    assert Bank(path)("audit").stdout.endswith("audit: ledger, replay and rules agree\n")
    with opened(path) as s:
        assert s.base.command_id == max(stored) and s.state == full_replay(path)


def test_a_snapshot_is_stored_in_the_commands_transaction(tmp_path, monkeypatch):
    path = tmp_path / "game.db"
    lines = transcript(OPENING)
    play(path, lines[:3])

    def fail(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(Store, "save_state_snapshot", fail)
    with opened(path) as s:
        for line in lines[3:]:  # up to the command that starts a round: that one fails as a whole
            if starts_round(engine.decide(s.state, s.rs, catalog.parse_line(line))):
                break
            s.execute(catalog.parse_line(line), line)
        head, state, commands = s.head, s.state.clone(), len(s.store.commands())
        with pytest.raises(sqlite3.OperationalError):
            s.execute(catalog.parse_line(line), line)
        assert (s.head, s.state) == (head, state)
        assert len(s.store.commands()) == commands
    assert full_replay(path) == state


def test_a_state_the_encoding_cannot_hold_is_not_stored_and_the_command_still_counts(tmp_path, monkeypatch):
    path = tmp_path / "game.db"
    lines = transcript(OPENING)
    play(path, lines[:5])

    def refuse(state):
        raise TypeError("a value JSON cannot hold")
    monkeypatch.setattr(snapshot, "state_to_json", refuse)
    play(path, lines[5:])
    monkeypatch.undo()
    assert list(stored_snapshots(path)) == [1]  # only the new game's, from before
    with opened(path) as s:
        assert len(s.store.commands()) == len(lines) and s.state == full_replay(path)


# --------------------------------------------------------------------------- undo and redo

def check_open(path: Path, live: Session) -> None:
    """A fresh open, the session in memory and a full replay agree, and no snapshot is of a
    command out of force."""
    replayed = full_replay(path)
    with opened(path) as s:
        assert s.state == replayed
        active = {row["id"] for row in s.store.commands(include_undone=False)}
    assert live.state == replayed
    assert set(stored_snapshots(path)) <= active


def test_undo_before_a_snapshot_then_redo_then_new_commands_give_the_full_replay(full_game, tmp_path):
    path = tmp_path / "game.db"
    lines = transcript(FULL)
    play(path, lines[:60])
    s = Session.open(path)
    try:
        first_snapshots = sorted(stored_snapshots(path))
        target = first_snapshots[-1]  # the latest round start: undo back past it, then one more
        undone = []
        while not undone or undone[-1]["id"] >= target:
            undone.append(s.undo())
            check_open(path, s)
        assert max(stored_snapshots(path)) < target  # the snapshots at or after it are gone
        for row in reversed(undone):
            assert s.redo()["id"] == row["id"]
            check_open(path, s)
        # the snapshot dropped by the undo is not back, but the state is the same as before
        assert max(stored_snapshots(path)) < target
        undone = [s.undo(), s.undo()]
        check_open(path, s)
        for row in reversed(undone):  # typed again instead of redone: new commands
            s.execute(catalog.parse_line(row["text"]), row["text"])
            check_open(path, s)
        for line in lines[60:160]:
            s.execute(catalog.parse_line(line), line)
        check_open(path, s)
        assert max(stored_snapshots(path)) > target
    finally:
        s.close()


def test_random_undo_and_redo_across_round_boundaries_always_give_the_full_replay(tmp_path):
    """A seeded walk through the first 250 commands of the full game: now and then undo one to
    four commands, redo some of them, type the rest again; after each undo and redo, and at each
    round start, a fresh open equals the full replay."""
    rng = random.Random(11)
    path = tmp_path / "game.db"
    lines = transcript(FULL)[:250]
    play(path, lines[:1])
    s = Session.open(path)
    checks = in_force = 0
    try:
        todo = list(lines[1:])
        while todo:
            line = todo.pop(0)
            events = s.execute(catalog.parse_line(line), line)
            in_force += 1
            if starts_round(events):
                check_open(path, s)
                checks += 1
            if rng.random() < 0.12:
                undone = [s.undo()["text"] for _ in range(min(in_force, rng.randint(1, 4)))]
                in_force -= len(undone)
                check_open(path, s)
                for _ in range(rng.randint(0, len(undone))):
                    s.redo()
                    undone.pop()
                    in_force += 1
                    check_open(path, s)
                checks += 1
                todo[:0] = list(reversed(undone))
    finally:
        s.close()
    assert checks > 30
    assert Bank(path)("audit").exit_code == 0


def test_an_undo_by_an_older_bank_drops_the_snapshots_it_makes_stale(full_game):
    """An older bank knows nothing of snapshots; the file's triggers follow its status change."""
    stored = sorted(stored_snapshots(full_game))
    target = stored[-3]
    sql(full_game, "update commands set status = 'undone' where id >= ? and verb not in ('undo', 'redo')", [target])
    assert max(stored_snapshots(full_game)) == stored[-4]
    with opened(full_game) as s:
        assert s.base.command_id == stored[-4] and s.state == full_replay(full_game)


def test_an_event_changed_by_hand_drops_the_snapshots_from_its_command(full_game):
    stored = sorted(stored_snapshots(full_game))
    with opened(full_game) as s:
        command_id = s.store.query("select min(command_id) as c from events where command_id > ?", [stored[5]])[0]["c"]
    sql(full_game, "update events set seq = seq where command_id = ?", [command_id])
    assert max(stored_snapshots(full_game)) == stored[5]
    with opened(full_game) as s:
        assert s.base.command_id == stored[5] and s.state == full_replay(full_game)


# --------------------------------------------------------------------------- damaged snapshots

def tamper_latest(path: Path, change) -> int:
    latest = latest_snapshot(path)
    data = json.loads(stored_snapshots(path)[latest]["state"])
    change(data)
    sql(path, "update state_snapshots set state = ? where command_id = ?", [json.dumps(data), latest])
    return latest


def problems(path: Path) -> list[str]:
    return [l for l in report_lines(audit(path).stdout) if l.startswith("PROBLEM")]


def test_the_audit_finds_a_snapshot_whose_state_was_edited(full_game):
    def move_money(data):  # balanced, so no invariant shows it: only the audit's replay does
        data["balances"]["player:Player 1"] -= 100
        data["balances"]["player:Player 2"] += 100
    latest = tamper_latest(full_game, move_money)
    result = audit(full_game)
    assert result.exit_code == 8
    assert [l for l in report_lines(result.stdout) if l.startswith("PROBLEM")] == [
        f"PROBLEM: the state snapshot of command {latest} differs from the replay in balances (and it fails its "
        "hash: bank never opens from it); snapshots are a cache: sqlite3 GAME 'delete from state_snapshots' makes "
        "bank replay every event"]
    sql(full_game, "delete from state_snapshots")  # what the problem line says to do
    assert audit(full_game).exit_code == 0
    with opened(full_game) as s:
        assert s.base.command_id == 0 and s.state == full_replay(full_game)


def test_a_snapshot_that_breaks_an_invariant_is_not_used(full_game):
    def mint_money(data):
        data["balances"]["player:Player 1"] += 1000
    latest = tamper_latest(full_game, mint_money)
    with opened(full_game) as s:
        assert s.state == full_replay(full_game)
    status = json.loads(Bank(full_game)("status", "--json").stdout)
    cash = {p["name"]: p["cash"] for p in status["players"]}
    assert cash["Player 1"] == full_replay(full_game).balances["player:Player 1"]
    assert f"snapshot of command {latest} differs from the replay in balances" in "\n".join(problems(full_game))


def test_a_snapshot_that_does_not_load_is_not_used(full_game):
    latest = latest_snapshot(full_game)
    sql(full_game, "update state_snapshots set state = '{\"title\": ' where command_id = ?", [latest])
    with opened(full_game) as s:
        assert s.state == full_replay(full_game)
    assert any(f"snapshot of command {latest} does not load" in p for p in problems(full_game))


def test_the_audit_finds_a_snapshot_whose_event_digest_was_edited(full_game):
    first = min(stored_snapshots(full_game))
    sql(full_game, "update state_snapshots set events_hash = 'abc', head_events = 3 where command_id = ?", [first])
    found = problems(full_game)
    assert len(found) == 1 and f"snapshot of command {first} was taken after 3 events with digest abc" in found[0]


def test_a_snapshot_from_another_engine_is_ignored(full_game):
    """Snapshots written, with their hashes, by another engine and in another format."""
    stored = sorted(stored_snapshots(full_game))
    sql(full_game, "update state_snapshots set engine = 'an older bank' where command_id = ?", [stored[-1]])
    sql(full_game, "update state_snapshots set format = ? where command_id = ?", [snapshot.FORMAT + 1, stored[-2]])
    rehash_snapshots(full_game, stored[-2:])
    with opened(full_game) as s:
        assert s.base.command_id == stored[-3] and s.state == full_replay(full_game)
    result = audit(full_game)
    assert result.exit_code == 0
    assert "note: 2 state snapshots are never opened from" in result.stdout


def rehash_snapshots(path: Path, command_ids: list[int]) -> None:
    """Give snapshots the hash the engine that wrote them would have stored (keyed as the file's
    chain is, with this test process's key)."""
    from ledger.books.chain import snapshot_hash
    from ledger.books.store import Store
    store = Store(path)
    keying = store.keying()
    store.close()
    for command_id in command_ids:
        conn = sqlite3.connect(str(path))
        conn.row_factory = sqlite3.Row
        row = dict(conn.execute("select s.*, c.hash as command_hash from state_snapshots s join commands c "
                                "on c.id = s.command_id where s.command_id = ?", [command_id]).fetchone())
        conn.close()
        sql(path, "update state_snapshots set hash = ? where command_id = ?",
            [snapshot_hash(row["command_hash"], row, keying.for_row(command_id)), command_id])


FINGERPRINT = "from ledger.books.derived import engine_fingerprint; print(engine_fingerprint())"


def test_the_engine_fingerprint_follows_the_sources(tmp_path):
    """Equal sources give the fingerprint of this engine; a changed one (a comment in the state
    module) gives another, so the snapshots of one are never read by the other."""
    for package in ("ledger", "rulesets"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def fingerprint() -> str:
        return subprocess.run([sys.executable, "-c", FINGERPRINT], env=env, cwd=tmp_path, capture_output=True,
                              text=True, check=True).stdout.strip()
    assert fingerprint() == derived.engine_fingerprint()
    with (tmp_path / "ledger" / "core" / "state.py").open("a") as f:
        f.write("# a comment is enough\n")
    assert fingerprint() != derived.engine_fingerprint()
    copied = tmp_path / "rulesets"
    assert derived.source_files(copied) == sorted(p for p in copied.rglob("*.py"))  # .py only, in order


# --------------------------------------------------------------------------- what a cold command imports

def imported_modules(args: list[str], cwd: Path) -> str:
    result = subprocess.run([sys.executable, "-X", "importtime", *args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-500:]
    return "\n".join(line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line)


def test_creating_and_reading_a_game_import_neither_numpy_nor_sqlite_utils(tmp_path):
    game = str(tmp_path / "g.db")
    for args in (["new", "1830", "A", "B", "C", "D"], ["status"], ["bid", "A", "CS", "45"]):
        names = imported_modules(["-m", "ledger", "--game", game, *args], tmp_path).split("\n")
        assert not {"numpy", "sqlite_utils"} & set(names), args
    names = imported_modules(["-c", "import ledger.books.session"], tmp_path).split("\n")
    assert not {"tabulate", "ledger.interface.views"} & set(names)
