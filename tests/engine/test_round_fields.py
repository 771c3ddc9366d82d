"""A round's bookkeeping holds what is declared (ledger.core.round_fields): the shared round kinds'
fields and each title's own (ROUND_FIELDS in its features), of the declared types, after every
event of every title's complete example game and of random games; the shared rules read only the
shared fields; a title declares none of them again."""

import re
from pathlib import Path

import pytest

from ledger import catalog
from ledger.core import engine, round_fields
from ledger.core.events import apply
from ledger.core.round_state import make_round
from random_play import RandomGame
from transcripts import complete_game, lines_of, shipped_titles

ROOT = Path(__file__).resolve().parents[2]


def example_events(title: str):
    """(state, rs, event) after every event of the title's complete example game."""
    lines = lines_of((ROOT / "examples" / f"{complete_game(title)}.txt").read_text(encoding="utf-8"))
    s = rs = None
    for line in lines:
        cmd = catalog.parse_line(line)
        if cmd.verb == "new":
            options = dict((o.partition("=")[0], o.partition("=")[2] or True) for o in cmd.get("option") or [])
            rs = catalog.load(cmd.get("title"), options)
            s = engine.initial_state(rs, cmd.get("players"), options)
            found = engine.start_events(rs, cmd.get("players"))
        else:
            found = engine.decide(s, rs, cmd)
        for e in found:
            apply(s, e)
            yield s, rs, e


@pytest.mark.parametrize("title", shipped_titles())
def test_every_round_of_the_example_game_holds_what_is_declared(title):
    kinds = set()
    for s, rs, e in example_events(title):
        kinds.add(s.round.get("kind"))
        assert not round_fields.problems(s, rs), (e["kind"], round_fields.problems(s, rs))
        if e["kind"] == "round_started":   # a stored round's key nobody keeps would be passed over unseen
            assert set(e["round"]) <= set(type(s.round).__dataclass_fields__), e["round"]
    assert {"stock", "operating"} <= kinds


@pytest.mark.parametrize("title", shipped_titles())
def test_random_games_keep_to_the_declared_fields(title):
    players = ["Ann", "Ben", "Cy", "Dee"]
    found: list = []

    def check(s, rs, event, line):
        found.extend(f"{event['kind']}: {p}" for p in round_fields.problems(s, rs))
    game = RandomGame(title, players, seed=7, after_event=check)
    game.play(120)
    assert not found, found[:5]


def test_a_problem_names_a_value_of_the_wrong_type():
    rs = catalog.title_ruleset("1830")

    class S:
        round = make_round(rs.title, {"kind": "stock", "number": "2"})
    assert round_fields.problems(S, rs) == ["the stock round's number is '2', not a int"]


def test_the_shared_kinds_are_the_classes_fields():
    assert round_fields.SHARED["operating"]["tiles"] == "int"
    assert round_fields.SHARED["stock"]["passers"] == "list[str]"
    assert set(round_fields.SHARED) == {"setup", "over", "auction", "stock", "operating"}


@pytest.mark.parametrize("title", shipped_titles())
def test_no_title_declares_a_shared_field_again(title):
    assert round_fields.title_redeclares(catalog.title_ruleset(title)) == []


def test_the_shared_rules_read_only_the_shared_fields():
    shared = {key for fields in round_fields.SHARED.values() for key in fields}
    read = set()
    for path in (ROOT / "ledger" / "core").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        read |= set(re.findall(r'\bround(?:\.get\(|\[)"([a-z_]+)"', text))
        read |= set(re.findall(r'\br(?:\.get\(|\[)"([a-z_]+)"', text)) if "r = s.round" in text else set()
    assert read and read <= shared, sorted(read - shared)
