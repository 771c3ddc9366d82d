"""The engine carries kinds of company 1830 and 1843 do not have (issue 12, part 9), proven on two
test titles in tests/titles (put on BANK_TITLES, never shipped):

* P39: foreign companies in 2 % units with no director, listed on a one-row market from the start,
  selling their shares into their own treasury at the market price;
* P01: 50/25/25 regionals that expand into 20 + 8 x 10 majors with treasury shares, in the second
  phase of a second phase axis, with a window of choices, Pullman assets and tile points.

Both are played through the real CLI (its `main` in this process, a SQLite game file), refused commands
must name their rule, and random games driven by what the core says is legal keep the books.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from budget import runs
from cli_driver import run_bank
from game_files import in_memory
from random_play import RandomGame

from ledger import catalog
from ledger.books.session import Session
from ledger.core import invariants

TITLES = Path(__file__).resolve().parents[1] / "titles"
GAMES = {"P01": TITLES / "P01" / "game.txt", "P39": TITLES / "P39" / "game.txt"}




@pytest.fixture
def tmp_path():
    """This module's tests write whole games: their files live on the memory filesystem
    (game_files.in_memory), where a durable commit does not wait for a busy disk."""
    yield from in_memory()


# --------------------------------------------------------------------------- the CLI, as typed

def bank(*args: str, game: Path) -> subprocess.CompletedProcess:
    """`BANK_TITLES=tests/titles bank --game GAME ARGS`, through the CLI's `main` in this process
    (cli_driver.run_bank); the catalog forgets the test titles again after it."""
    catalog.forget()
    try:
        done = run_bank("--game", str(game), *args, env={"BANK_TITLES": str(TITLES)})
    finally:
        catalog.forget()
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def play(tmp_path: Path, title: str, until: str | None = None) -> Path:
    """Play the title's transcript (up to and including the first line `until`) into a new file."""
    lines = GAMES[title].read_text().splitlines()
    if until is not None:
        lines = lines[:lines.index(until) + 1]
    script = tmp_path / f"{title}.txt"
    script.write_text("\n".join(lines) + "\n")
    game = tmp_path / f"{title}.db"
    done = bank("play", str(script), game=game)
    assert done.returncode == 0, done.stderr
    return game


def status(game: Path) -> dict:
    out = bank("status", "--json", game=game)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def refused(game: Path, line: str) -> str:
    """The one-line refusal of `line`, which must leave the game as it was."""
    before = bank("status", "--json", game=game).stdout
    out = bank(*line.split(), game=game)
    assert out.returncode != 0, f"{line!r} was accepted: {out.stdout}"
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: "), out.stderr
    assert bank("status", "--json", game=game).stdout == before, f"{line!r} changed the game"
    return out.stderr


def company(state: dict, sym: str) -> dict:
    return next(c for c in state["companies"] if c["sym"] == sym)


def player(state: dict, name: str) -> dict:
    return next(p for p in state["players"] if p["name"] == name)


def events_of(game: Path, kind: str) -> list[dict]:
    with sqlite3.connect(game) as db:
        return [json.loads(row[0]) for row in db.execute("select data from events where kind = ? order by id", (kind,))]


def test_p39_foreign_companies_play_through_the_cli(tmp_path):
    game = play(tmp_path, "P39")
    s = status(game)
    assert company(s, "BE")["kind"] == "foreign" and company(s, "HSM")["kind"] == "public"
    assert company(s, "BE")["president"] is None and company(s, "BE")["floated"]
    # BE sold two 4 % certificates at 80 a 2 % unit (320), bought two 2 trains (160) and kept its
    # treasury's 92 % of a 50 payout (46); DE sold one 4 % at 67 a unit and never ran
    assert company(s, "BE")["cash"] == 2 * 2 * 80 - 2 * 80 + 50 * 92 // 100
    assert company(s, "DE")["cash"] == 2 * 67
    # foreign certificates stay outside the certificate limit: Ann counts HSM and her private only
    assert player(s, "Ann")["shares"] == {"HSM": 10, "BE": 8, "DE": 4}
    assert player(s, "Ann")["certificates"] == 2
    # every company sums to 100 % (players + unsold + pool)
    for c in s["companies"]:
        held = sum(p["shares"].get(c["sym"], 0) for p in s["players"])
        assert held + c["ipo"] + c["pool"] == 100, c["sym"]
    # Ben's sale did not move BE (no move on a sale); its 50 payout fell short of the 62 price: one box left
    sold = events_of(game, "shares_sold")
    assert [(e["corp"], e["count"], e["price"], e["amount"]) for e in sold][0] == ("BE", 2, 62, 124)
    assert company(s, "BE")["price"] == 59
    assert bank("audit", game=game).returncode == 0


def test_p01_regionals_expand_into_majors_through_the_cli(tmp_path):
    game = play(tmp_path, "P01")
    s = status(game)
    assert s["phases"] == {"train": "3", "railroad": "major"}
    assert {c["sym"]: c["kind"] for c in s["companies"]} == {"NR": "major", "SR": "regional", "ER": "regional",
                                                              "WR": "regional"}
    # Cy held the 50 % and a 25 % (now 20 % + 10 %), bought one share in the window and one in SR 4:
    # 50 %; Ben's 25 % became 10 %, plus one in the window and one in his turn: 30 %. NR issued two.
    assert player(s, "Cy")["shares"]["NR"] == 50 and player(s, "Ben")["shares"]["NR"] == 30
    assert (company(s, "NR")["pool"], company(s, "NR")["ipo"]) == (20, 0)
    assert company(s, "NR")["president"] == "Cy"
    # as a regional NR sold its 25 % shares at par (90); the expansion set the major's par at its price
    # then (100), which the window and Ben's purchase in that round paid to NR; in SR 4 its treasury
    # share sells at the market price (82: 90 after the issue, one box left for withholding)
    bought = [(e["player"], e["price"]) for e in events_of(game, "share_bought") if e["corp"] == "NR"]
    assert bought == [("Ben", 90), ("Cy", 90), ("Cy", 100), ("Ben", 100), ("Ben", 100), ("Cy", 82)]
    # the par of 100 is in the purchases above; its marker left the market with its stock round, as a
    # kind sold at par and then at the market price has it (status --json: no par once it is gone)
    assert company(s, "NR")["price"] == 82 and company(s, "NR")["par"] is None
    assert [(e["count"], e["price"], e["amount"]) for e in events_of(game, "shares_issued")] == [(2, 112, 224)]
    assert company(s, "NR")["pullman"] == ["PM1"]
    converted = events_of(game, "company_converted")
    assert len(converted) == 1 and sorted(converted[0]["percents"].values()) == [10] * 8 + [20]
    # the window asked Cy, Ann and Ben in that order
    assert [(e["player"], e["option"]) for e in events_of(game, "chosen")] == [("Cy", "buy"), ("Ann", "pass"),
                                                                               ("Ben", "buy")]
    # a half payout of 60: 30 kept, 30 paid out at 7.5 a 25 % share, each holder rounded up (1830's rule)
    half = next(e for e in events_of(game, "revenue") if e["how"] == "half")
    assert half["kept"] == 30 and {a: amt for a, _n, amt in half["payees"]} == {"player:Ben": 8, "player:Cy": 23}
    total = sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])
    assert total + s["bank"] == 10000
    assert bank("audit", game=game).returncode == 0


@pytest.mark.parametrize("title, until, line, rule", [
    ("P01", "par Cy NR 90", "expand Cy NR", "'expand' is played in the major railroad phase (now: regional)"),
    ("P01", "tile NR 40 --points 2", "tile NR 0", "tile points: NR has 0 of its 3 left this turn, this tile costs 1"),
    ("P01", "expand Cy NR", "choose Ann buy", "Cy must choose first: buy a NR treasury share for £100?"),
    ("P01", "expand Cy NR", "pass Cy", "Cy must first choose: buy a NR treasury share for £100? (buy, pass)"),
    ("P01", "expand Cy NR", "expand Ann SR", "Cy must first choose"),
    ("P01", "pullman NR", "pullman NR", "NR already has a Pullman (one each)"),
    ("P01", "pay SR 40", "issue SR 1", "SR (regional) does not issue or redeem its shares"),
    ("P01", "train NR 3", "done NR", "NR is over the train limit of 2 trains: it must first discard 1"),
    ("P39", "pass Ann", "half HSM 60", "P39 has no 'half': none of its kinds of company pays half"),
    ("P39", "buy Ann BE", "par Ben BE 80", "BE (foreign) has no president's certificate: a player does not start it"),
    ("P39", "sell Ben BE 2", "buy Ben BE", "Ben sold BE earlier in this stock round"),
    ("P39", "train BE 2", "train BE 2 --force", "needs --reason"),
])
def test_refusals_name_their_rule(tmp_path, title, until, line, rule):
    game = play(tmp_path, title, until)
    assert rule in refused(game, line)


def test_p39_a_foreign_share_sells_as_units(tmp_path):
    game = play(tmp_path, "P39", "done DE")
    message = refused(game, "sell Ben BE 1")
    assert "cannot sell exactly 1 share of BE (2%)" in message and "one share is 2%" in message


def test_audit_catches_certificates_that_do_not_sum_to_100(tmp_path):
    game = play(tmp_path, "P01")
    with sqlite3.connect(game) as db:
        row_id, data = db.execute("select id, data from events where kind = 'company_converted'").fetchone()
        event = json.loads(data)
        event["percents"]["NR.1"] = 20  # the re-valued 25 % certificate claims 20 % instead of 10 %
        db.execute("update events set data = ? where id = ?", (json.dumps(event), row_id))
    out = bank("audit", game=game)
    assert out.returncode != 0
    assert "NR certificates sum to 110%" in out.stdout + out.stderr


# --------------------------------------------------------------------------- random games, in process

@pytest.fixture
def proof_titles(monkeypatch):
    """The test titles on BANK_TITLES, with the grammar's caches rebuilt before and after."""
    monkeypatch.setenv("BANK_TITLES", str(TITLES))
    clear_grammar()
    yield
    monkeypatch.delenv("BANK_TITLES")
    clear_grammar()


def clear_grammar() -> None:
    catalog.forget()


def check_every_event(state, rs, event: dict, line: str) -> None:
    """After each event, not only after each command: money conserved, nobody below zero, every
    company's certificates at 100 % and every holding with one holder that exists."""
    problems = invariants.check(state, rs)
    assert not problems, f"after {event['kind']} of {line!r}: {problems}"


# seeds 0 and 1 (three and four players) in the suite, all four with BANK_LONG_TESTS=1
@pytest.mark.parametrize("title, seed", [(t, seed) for t in ("P39", "P01") for seed in range(runs(2, 4))])
def test_random_games_keep_the_books(proof_titles, title, seed):
    game = RandomGame(title, ["Ann", "Ben", "Cy", "Di"][:3 + seed % 2], seed, after_event=check_every_event)
    game.play(500)
    kinds = {e["kind"] for e in game.events}
    assert {"train_bought", "revenue", "share_bought"} <= kinds
    if title == "P01":
        # the generator reached what P01 is for
        assert {"company_converted", "chosen", "shares_issued", "pullman_car_bought", "axis_phase_changed"} <= kinds
    else:
        assert any(e["kind"] == "share_bought" and e["corp"] in ("BE", "DE") for e in game.events)
    assert game.replayed() == game.state, "replaying the events differs from the state reached step by step"


@pytest.mark.parametrize("title, seed", [("P39", 11), ("P01", 12)])
def test_random_games_in_sqlite_replay_and_undo_exactly(proof_titles, tmp_path, title, seed):
    game = RandomGame(title, ["Ann", "Ben", "Cy"], seed, after_event=check_every_event)
    game.play(250)
    path = tmp_path / "game.db"
    session = Session.new(path, title, game.players, {})
    states = []
    for line in game.lines:
        states.append(session.state.clone())
        session.execute(catalog.parse_line(line), line)
    assert session.state == game.state, "the SQLite session reached a different state"
    # undo walks back exactly, command by command; redo walks forward again
    for before in reversed(states[-15:]):
        session.undo()
        assert session.state == before
    for _ in range(15):
        session.redo()
    assert session.state == game.state
    session.close()
    reopened = Session.open(path)
    assert reopened.state == game.state, "reopening the file gives a different state"
    reopened.close()


def test_p39_certificate_limit_rises_for_each_public_company_held_at_80_percent(proof_titles):
    """1839 §7.6 as P39's data says it: +2 for each public company of which the player holds at
    least 80 %; foreign companies never count, whatever is held of them."""
    from ledger.core.rules import shares
    rs = catalog.load("P39")
    game = RandomGame("P39", ["Ann", "Ben", "Cy"], 0)
    s = game.state
    assert shares.cert_limit(s, rs, "Ann") == 16
    hsm = sorted((c for c in s.certs if c.startswith("HSM.")), key=lambda c: int(c.split(".")[1]))
    for cert in hsm[:6]:  # the director's 20 % and five 10 %: 70 %
        s.certs[cert] = "player:Ann"
    assert shares.cert_limit(s, rs, "Ann") == 16
    s.certs[hsm[6]] = "player:Ann"  # 80 %
    assert shares.cert_limit(s, rs, "Ann") == 18
    for cert in (c for c in s.certs if c.startswith("BE.")):
        s.certs[cert] = "player:Ann"  # all of a foreign company: no bonus
    assert shares.cert_limit(s, rs, "Ann") == 18
