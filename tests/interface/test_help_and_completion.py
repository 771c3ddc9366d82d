"""The command line's conventions (issue 35): one help system (`bank help VERB`, `bank VERB --help`
and `-h` say the same), `--version`, `bank --help` in any folder whatever game it holds, Tab in bash,
zsh and fish through click's completion protocol offering exactly the shell's entries, and colour
only on a terminal without NO_COLOR."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from cli_driver import Bank
from transcripts import shipped_titles
from typer.testing import CliRunner

from ledger import catalog
from ledger.books.session import Session
from ledger.core import grammar
from ledger.interface import completing, terminal
from ledger.interface.cli import app

BANK = str(Path(sys.executable).with_name("bank"))


def bank_in(folder: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([BANK, *args], cwd=folder, capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("title", shipped_titles())
def test_help_works_in_a_folder_holding_a_game(tmp_path, title):
    assert bank_in(tmp_path, "new", title, "Ann", "Bob", "Cy").returncode == 0
    for asked in (["--help"], ["-h"], []):
        done = bank_in(tmp_path, *asked)
        assert done.returncode == 0 and done.stderr == "", (asked, done.stderr)
        assert done.stdout.startswith(f"{title}: the commands of this game")
        assert "--version" in done.stdout and "--game FILE" in done.stdout
        assert not any(line.endswith("...") for line in done.stdout.splitlines())   # wrapped, never cut
        assert max(len(line) for line in done.stdout.splitlines()) <= 80


def test_help_in_a_folder_with_a_damaged_game_file(tmp_path):
    (tmp_path / "bank.db").write_bytes(b"not a database at all" * 50)
    done = bank_in(tmp_path, "--help")
    assert done.returncode == 0 and done.stdout.startswith("The commands every title shares")


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    name, version = result.stdout.split()
    assert name == "bank" and version[0].isdigit()


def test_one_help_system(tmp_path):
    """For every verb of a game: `bank VERB --help`, `bank VERB -h` and `bank help VERB` print the
    same text, which names every argument and option and ends with an example."""
    b = Bank(tmp_path / "g.db")
    b("new", "1830", "Ann", "Bob", "Cy", "Dee")
    runner = CliRunner()
    for name, verb in catalog.verbs_of_title("1830").items():
        asked = runner.invoke(app, ["--game", b.db, "help", name]).stdout
        assert runner.invoke(app, ["--game", b.db, name, "--help"]).stdout == asked, name
        assert runner.invoke(app, ["--game", b.db, name, "-h"]).stdout == asked, name
        for arg in verb.args:
            assert arg.name.upper() in asked, (name, arg.name)
        for option in verb.all_options():
            assert option.flag in asked, (name, option.flag)
        assert "\nExample: bank " in asked, name


def completion(db: str, words: str, shell: str = "bash") -> list[str]:
    """What bash (or zsh) gets from `bank` for the line `bank --game DB WORDS` with the cursor at its end."""
    line = f"bank --game {db} {words}"
    cword = len(line.split()) - (0 if line.endswith(" ") else 1)
    env = {"_BANK_COMPLETE": f"{shell}_complete", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    result = CliRunner().invoke(app, [], env=env)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_tab_in_bash_and_zsh_is_the_shells_menu(tmp_path):
    b = Bank(tmp_path / "g.db")
    b("new", "1830", "Ann", "Bob", "Cy", "Dee")
    b("bid", "Ann", "CS", "45")
    s = Session.open(b.db)
    try:
        for words in (["bid"], ["bid", "Bob"], ["bid", "Bob", "CS"], ["buy", "Bob"], []):
            menu = completing.offers(s, words, "")
            bash = completion(b.db, " ".join(words) + " " if words else "")
            assert bash == [f"plain,{e.text}" for e in menu], words
            assert menu, words
        zsh = completion(b.db, "buy Bob ", "zsh")
        assert zsh == ["plain", "SV", "$20"]                 # the one private for sale, at its price
        assert completion(b.db, "bid Bob CS ") == ["plain,50", "plain,600"]   # the least and the most
        assert completion(b.db, "tile ") == []               # no such thing in the auction
    finally:
        s.close()


def test_tab_without_a_game_offers_new_and_the_titles(tmp_path):
    assert completion(str(tmp_path / "none.db"), "")[0] == "plain,new"
    assert completion(str(tmp_path / "none.db"), "new ") == [f"plain,{t}" for t in catalog.available_titles()]


def test_the_completion_scripts_are_clicks(tmp_path):
    for shell, mark in (("bash", "_bank_completion"), ("zsh", "#compdef bank"), ("fish", "complete")):
        result = CliRunner().invoke(app, [], env={"_BANK_COMPLETE": f"{shell}_source"})
        assert result.exit_code == 0 and mark in result.stdout, shell


def test_the_menu_figures_say_the_price():
    """A par price's entry says what the president's certificate costs, from the engine's decision."""
    from conftest import Table
    from transcripts import lines_of
    first, *lines = lines_of((Path(__file__).resolve().parents[2] / "examples" / "1830-opening.txt").read_text())
    g = Table(title="1830", players=["Alice", "Bob", "Carol", "Dave"])
    for line in lines[:16]:                      # the auction, and B&O parred with BO: SR 1 opens
        g.do(line)
    s = SimpleNamespace(state=g.state, rs=g.rs)
    assert s.state.round["kind"] == "stock" and not s.state.pending
    actor = completing.offers(s, ["par"], "")[0].text
    corp = next(e.text for e in completing.offers(s, ["par", actor], "") if e.text == "PRR")
    prices = {e.text: e.meta for e in completing.offers(s, ["par", actor, corp], "")}
    assert prices["67"] == "$134" and prices["100"] == "$200"


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert terminal.red("error: x", Tty()) == "\x1b[31merror: x\x1b[0m"
    assert terminal.red("error: x", io.StringIO()) == "error: x"          # a pipe or a file: plain
    monkeypatch.setenv("NO_COLOR", "1")
    assert terminal.red("error: x", Tty()) == "error: x"
    rs = catalog.load("1830")
    assert terminal.paint_companies("NYC 67 B&O", rs, Tty()) == "NYC 67 B&O"
    monkeypatch.delenv("NO_COLOR")
    painted = terminal.paint_companies("NYC 67 B&O", rs, Tty())
    assert painted.count("\x1b[38;2;") == 2 and " 67 " in painted


def test_every_verb_of_every_title_has_an_example():
    for title in catalog.available_titles():
        rs = catalog.load(title)
        for name, verb in grammar.verbs_of(rs).items():
            assert grammar.example_of(verb, rs).startswith(f"bank {name}"), (title, name)


def test_tab_on_a_views_words_types_names_as_a_prompt_takes_them():
    """A view's words have no rule to ask (ledger.interface.verbs.interface_words): Tab after
    `log --player` types a name with a space quoted, after `log --company` the operating company
    first by its plain alias, after `chart` the charts it draws."""
    from conftest import Table
    t = Table("new 1830 'Ann Lee' Bob Cy Dee")
    session = SimpleNamespace(state=t.state, rs=t.rs)
    assert [c.text for c in completing.offers(session, ["log", "--player"], "")] == ["'Ann Lee'", "Bob", "Cy", "Dee"]
    companies = [c.text for c in completing.offers(session, ["log", "--company"], "")]
    assert "BnO" in companies and "B&O" not in companies
    assert [c.text for c in completing.offers(session, ["chart"], "")] == ["worth", "prices"]
