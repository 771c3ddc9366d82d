"""Issue 35: refusals in the words of the rule that refuses, and no internal error.

- `buy Bob PRR 2` at the start of a turn (1830, a company outside the brown zone) was refused in the
  words of the simulated second purchase ("Bob has already bought this turn"): it is refused by the
  rule of one certificate a turn, with the company's price and zone; where several are allowed (1843's
  brown zone) it is accepted.
- `train` with every option at positions of the 1843 and 1801 example games ends in the engine's
  answer or a one-line refusal (a BankError), never another exception; a 'did you mean' hint never
  offers the word it refuses.
- The Next line names the one who acts now: a player over a limit after a forced purchase must
  sell, and the line is his."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from conftest import sr1_1830
from next_line import commands_printed
from transcripts import complete_game, positions

from ledger import catalog
from ledger.core import engine, legal
from ledger.core.errors import BankError, RuleViolation
from ledger.core.events import apply

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "1843"))
from openings_1843 import e19_position  # noqa: E402


# --------------------------------------------------------------------------- one certificate a turn

def test_a_count_of_two_at_the_start_of_a_turn_is_refused_by_the_one_a_turn_rule():
    g = sr1_1830()
    g.do("par Carol PRR 76")
    assert g.state.players[g.state.round["turn"]] == "Carol" and g.state.round["acted"]
    err = g.refusal("buy Dave PRR 2", kind=RuleViolation)   # Dave's first action: his turn begins
    assert err.message == ("Dave may buy one PRR certificate in a turn, not 2: several in one turn only of one "
                           "company in the brown zone, and PRR is at $76, in the white zone")
    assert "already bought" not in err.line()
    assert err.hint == "buy Dave PRR"
    g.do(err.hint)                                                # the hint, as printed, is accepted
    assert g.pct("Dave", "PRR") == 10


def test_a_symbol_in_the_one_a_turn_refusal_pastes():
    g = sr1_1830()
    err = g.refusal("buy Carol B&O 3", kind=RuleViolation)
    assert err.message.startswith("Carol may buy one B&O certificate in a turn, not 3: ") and "$67" in err.message
    assert err.hint == "buy Carol BnO"


def test_several_certificates_in_the_brown_zone_are_accepted():
    """1843 §7.3 (E19): MID at 42 in the brown zone; P1 takes two pool certificates in one action."""
    g = e19_position()
    before = g.state.cash("player:P1")
    g.do("buy P1 MID 2 --pool")
    assert before - g.state.cash("player:P1") == 2 * 42


# --------------------------------------------------------------------------- train: never an internal error

def train_lines(s, rs, corp: str) -> list[str]:
    names = list(dict.fromkeys([t.name for t in rs.trains] + [sd.name for t in rs.trains for sd in t.sides]))
    other = next((c for c in s.corps if c != corp and s.corp_trains(c)), None)
    out = []
    for name in names + ["8e", "nothing"]:
        out += [["train", corp, name], ["train", corp, name, "--from", "pool"],
                ["train", corp, name, "--price", "1"]]
        if other:
            out += [["train", corp, name, "--from", other, "--price", "1"], ["train", corp, name, "--from", other]]
        out += [["train", corp, name, "--trade-in", t] for t in names + ["8e"]]
    return [shlex.join(words) for words in out]


@pytest.mark.parametrize("title", ["1843", "1801"])
def test_train_with_every_option_is_decided_or_refused_in_one_line(title):
    every = {"1843": 4, "1801": 9}[title]
    tried, problems = 0, []
    for s, rs, _typed in positions(complete_game(title), every):
        corp = s.round.get("corp") if s.round.get("kind") == "operating" else None
        if corp is None or s.pending:
            continue
        for line in train_lines(s, rs, corp):
            tried += 1
            try:
                engine.decide(s, rs, catalog.parse_line(line))
            except BankError as exc:
                said = exc.line()
                assert "\n" not in said
                asked = shlex.split(line)
                refused_words = [w for w in asked[2:] if not w.startswith("--") and f"'{w}'" in exc.message]
                if exc.hint and "did you mean" in exc.hint and any(w in exc.hint for w in refused_words):
                    problems.append(f"{line}: {said}")
            except Exception as exc:  # noqa: BLE001 - an internal error is what this test finds
                problems.append(f"{line}: {type(exc).__name__}: {exc}")
    assert tried > 500
    assert not problems, problems[:5]


# --------------------------------------------------------------------------- whose turn the line names

def test_a_player_over_the_limit_after_a_forced_purchase_is_the_one_the_line_names():
    """examples/1830-full-game.txt, SR 2: Player 3 (who holds NYC) buys an NYC share past the 60 %
    holding limit by --force; he must sell before his turn ends: the line names him, spells his sale
    and not the next player's actions."""
    for s, rs, _typed in positions(complete_game("1830"), 1):
        if s.round["kind"] == "stock" and s.round["number"] == 2:
            break
    player = s.players[s.round["turn"]]
    assert player == "Player 3" and s.percent_of(f"player:{player}", "NYC") == 60
    for event in engine.decide(s, rs, catalog.parse_line(f"buy '{player}' NYC --force --reason ruling")):
        apply(s, event)
    turn = legal.turn(s, rs)
    assert turn.actor == player
    assert turn.line.startswith("SR 2: Player 3's turn, after acting (Player 4 is next): ")
    printed = commands_printed(turn, rs)
    assert printed[0].startswith("sell 'Player 3' NYC") and all("Player 4" not in c for c in printed)
    for line in printed:
        engine.decide(s, rs, catalog.parse_line(line))   # each accepted as printed
    with pytest.raises(RuleViolation):
        engine.decide(s, rs, catalog.parse_line("pass 'Player 4'"))
