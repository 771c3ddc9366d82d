"""One source of what is legal (issue 25): the Next line, the shell's completion, `bank help` and the
rules never disagree, and a refusal gives the true reason. The cases a new user met, each on the
engine (conftest.Table) or, for help, the command line."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import typer
from cli_driver import Bank, error_line
from conftest import Table
from transcripts import lines_of

from ledger.core import legal
from ledger.interface.cli import app
from ledger.interface.shell import Shell

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def played(title: str, example: str, until: str, players=None) -> Table:
    """A game of the example played up to (not including) the first line starting with `until`."""
    lines = lines_of((EXAMPLES / example).read_text())
    words = lines[0].split()
    g = Table(title=title, players=players or words[2:])
    for line in lines[1:]:
        if line.startswith(until):
            break
        g.do(line)
    return g


def shell_on(g: Table) -> Shell:
    return Shell(typer.main.get_command(app), {"game": "unused.db", "session": SimpleNamespace(state=g.state, rs=g.rs)})


# --------------------------------------------------------------------------- the Next line offers what is accepted

def test_1801_first_or_offers_no_level_3_train():
    """OR 1.1: no level 3 train is bought in the first OR (§8.3, §11.6): not offered, and refused."""
    g = played("1801", "1801-opening.txt", "tile B 45")
    g.do("tile B 45", "train B 2+2")
    types = legal.choices(g.state, g.rs, "train", "B", "type") or []
    assert not {"3+3", "3"} & set(types)
    line = legal.hint(g.state, g.rs)
    assert "3+3" not in line and "train (for sale" not in line
    g.refusal("train B 3+3", match=r"no level 3 train is bought in the first OR of the game")


def test_buying_two_shares_where_one_is_allowed_says_so():
    """1830 SR 1, Dave's first action: one certificate a turn. The refusal names the request for two,
    not a purchase he has not made."""
    g = played("1830", "1830-opening.txt", "buy Dave PRR")   # Carol has acted; Dave is next
    error = g.refusal("buy Dave BnO 2", match=r"Dave may buy one B&O certificate in a turn, not 2: several in "
                                                   r"one turn only of one company in the brown zone")
    assert "has already bought" not in error.message


def test_one_certificate_a_turn_only_after_a_purchase():
    g = played("1830", "1830-opening.txt", "buy Dave PRR")
    g.do("buy Dave PRR")
    g.refusal("buy Dave PRR", match="Dave has already bought this turn: one certificate per turn")


def test_the_shell_completes_only_legal_values():
    g = played("1830", "1830-opening.txt", "buy Dave PRR")
    sh = shell_on(g)
    started = {"PRR", "NYC", "CnO", "BnO"}
    assert set(sh.candidates(["buy", "Dave"])) <= started and sh.candidates(["buy", "Dave"])   # no private
    assert not set(sh.candidates(["par", "Dave"])) & started                 # no company already started
    assert sh.candidates(["par", "Dave", "ERIE"]) == ["67", "71", "76", "82", "90", "100"]   # as numbers
    assert sh.candidates(["buy"]) == ["Dave"] and sh.candidates(["sell", "Dave"]) == []       # SR 1: no sales
    op = played("1830", "1830-opening.txt", "no such line")   # OR 2.1: NYC, with its trains, operates
    assert shell_on(op).candidates(["train"]) == []                          # NYC runs first
    op.do("withhold NYC 0")
    assert shell_on(op).candidates(["train"]) == ["NYC"]                     # the operating company only
    assert shell_on(op).candidates(["pay"]) == []                            # it has run


def test_the_next_line_and_the_completion_are_one_answer():
    g = played("1830", "1830-opening.txt", "buy Dave PRR")
    turn = legal.turn(g.state, g.rs)
    sh = shell_on(g)
    for action in turn.actions:
        assert action.verb in sh.offers([], "")
        if action.args:
            assert action.args[0] in [w.strip("'") for w in sh.candidates([action.verb])]
    # Carol bought and may not sell in SR 1: only ending her turn is left, so Dave's action is next
    assert turn.line.startswith("SR 1: Dave's turn (Carol is done): par Dave CPR 100 (pars 67 to 100) · buy Dave PRR"
                                " · pass Dave · ")
    assert turn.actor == "Dave"


# --------------------------------------------------------------------------- help: the open game's title

def test_help_in_an_1843_game_lists_1843s_verbs(tmp_path):
    bank = Bank(tmp_path / "g.db")
    bank("new", "1843", "Ann", "Ben", "Cy")
    out = bank("help").stdout
    assert "1843: the commands of this game" in out
    for verb in ("port", "flip", "use", "buy", "pay"):
        assert f"\n  {verb} " in out, verb
    for foreign in ("pullman", "convert", "deal", "discount", "expand"):
        assert f"\n  {foreign} " not in out, foreign
    flip = " ".join(bank("help", "flip").stdout.split())
    assert "Usage: bank flip CORP TYPE" in flip and "train limit" in flip and "national" not in flip
    assert "no command 'pullman' in 1843" in error_line(bank("help", "pullman", ok=False))


def test_help_outside_a_game_groups_the_verbs_by_title(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = Bank(tmp_path / "none.db")("help").stdout
    assert "The commands every title shares" in out
    for title, verb in (("1843", "port"), ("1839", "deal"), ("1801", "pullman")):
        section = out.split(f"{title} adds:", 1)[1]
        assert f"  {verb} " in section.split(" adds:", 1)[0], (title, verb)


def test_help_undo_shows_its_options(tmp_path):
    out = Bank(tmp_path / "none.db")("help", "undo").stdout
    assert "Usage: bank undo [OPTIONS]" in out and "--to TO" in out and "--yes" in out


def test_help_in_the_shell_shows_the_shells_form(tmp_path):
    bank = Bank(tmp_path / "g.db")
    bank("new", "1830", "Ann", "Ben", "Cy")
    out = bank("shell", input="help sell\n").stdout
    assert "Usage: sell PLAYER CORP [COUNT]" in out and "bank sell" not in out
