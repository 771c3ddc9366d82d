"""One grammar (ledger.core.grammar): every verb declared once, and the command line, the shell, the
tests' parser and the engine's resolution of names all read that declaration.

Walks EVERY declared verb: its help shows its example; the example parses, with the grammar and
with the command line; the shell offers the verb in each round the title's registry plays it; the
README mentions it. Then: the tests' parser builds what the CLI builds; names and amounts are read
once, before the rule, while the ledger keeps what was typed; a title's options are refused by a
game of another title.
"""

from __future__ import annotations

import copy
import re
import shlex
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
import typer
from cli_driver import Bank, error_line
from conftest import Table
from transcripts import complete_game, lines_of, shipped_titles
from typer.testing import CliRunner

from ledger import catalog
from ledger.core import engine, grammar, legal, names, titles
from ledger.core.command import Command
from ledger.core.errors import CommandError
from ledger.core.round_state import make_round
from ledger.interface import cli, completing
from ledger.interface.cli import app
from ledger.interface.shell import Shell
from ledger.interface.verbs import every_verb, shared_verbs

ROOT = Path(__file__).resolve().parents[2]
VERBS = every_verb()
GROUP = typer.main.get_command(app)
EXAMPLES = {title: ROOT / "examples" / f"{complete_game(title)}.txt" for title in shipped_titles()}


# --------------------------------------------------------------------------- every verb


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_verb_has_a_command_whose_help_shows_its_example(name):
    verb = VERBS[name]
    example = grammar.example_of(verb, catalog.default_ruleset())   # the default title's words (no game is open)
    assert example.startswith(f"bank {name} ") or example == f"bank {name}", example
    assert "{" not in example, f"a placeholder the default title's data did not fill: {example}"
    assert verb.group in grammar.GROUPS
    result = CliRunner().invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert f"Example: {example}" in result.stdout


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_example_parses_with_the_grammar_and_the_command_line(name):
    verb = VERBS[name]
    example = grammar.example_of(verb, catalog.default_ruleset())
    cmd = grammar.parse_line(example.removeprefix('bank '), VERBS)
    assert cmd.verb == name
    words = shlex.split(example)[2:]
    command = GROUP.get_command(click.Context(GROUP), name)
    with command.make_context(name, list(words), parent=click.Context(GROUP, obj={})) as ctx:
        assert set(ctx.params) == set(grammar_params(verb))


def grammar_params(verb: grammar.Verb) -> list[str]:
    return [a.name for a in verb.args] + [verb.param(o) for o in verb.all_options()]


@pytest.mark.parametrize("name", sorted(VERBS))
def test_the_readme_mentions_every_verb(name):
    readme = (ROOT / "README.md").read_text()
    assert re.search(rf"bank {re.escape(name)}\b(?!-)", readme), f"README.md never shows 'bank {name}'"


def test_the_command_line_has_exactly_the_declared_verbs_grouped_for_help():
    with click.Context(GROUP) as ctx:   # --help lists the shared verbs; a title's own are built when asked for
        assert set(GROUP.list_commands(ctx)) == set(shared_verbs())
        assert all(GROUP.get_command(ctx, name) is not None for name in VERBS)
    out = CliRunner().invoke(app, ["help"]).stdout
    for title in grammar.GROUPS.values():
        assert title in out, title
    placed = [out.index(title) for title in grammar.GROUPS.values()]
    assert placed == sorted(placed), "the groups are listed in their declared order"


@pytest.mark.parametrize("title", shipped_titles())
def test_every_verb_a_title_plays_is_declared_for_it(title):
    rs = catalog.load(title)
    reg = titles.for_ruleset(rs)
    played = reg.verbs()
    declared = catalog.verbs_of_title(title)
    assert played <= {v for v in declared if declared[v].game}, played - set(declared)


# --------------------------------------------------------------------------- the shell offers what the round plays


def states_by_round(title: str) -> dict[str, Table]:
    """A game of the title in each round kind (no decision pending), from its example transcript."""
    new, *lines = lines_of(EXAMPLES[title].read_text())
    g = Table(new)
    assert g.rs.title == title, new
    every_kind = sequence_of(g.rs)
    seen: dict[str, Table] = {}
    for line in lines:
        if not g.state.pending and not g.state.game_over:
            seen.setdefault(g.state.round["kind"], copy.deepcopy(g))
        if set(seen) >= every_kind:
            break  # the first state of each kind is kept: the rest of the game changes none of them
        g.do(line)
    return seen


def sequence_of(rs) -> set[str]:
    """The round kinds a game of the title plays: its opening rounds and its cycle (a shared kind
    its sequence leaves out, 1839's and 1801's auction, is registered but never played)."""
    return set(rs.k("rounds", "opening")) | set(rs.k("rounds", "cycle"))


@pytest.fixture(scope="module", params=sorted(EXAMPLES))
def rounds(request):
    return request.param, states_by_round(request.param)


def shell_on(g: Table) -> Shell:
    return Shell(GROUP, {"game": "unused.db", "session": SimpleNamespace(state=g.state, rs=g.rs)})


def test_the_shell_offers_the_verbs_legal_now_first(rounds):
    """Tab at an empty prompt: the game verbs the core says are legal now (the Next line's and the
    quiet ones), then the interface verbs; every verb the title plays somewhere is declared."""
    title, games = rounds
    rs = catalog.load(title)
    reg = titles.for_ruleset(rs)
    assert set(games) == sequence_of(rs) <= set(reg.rounds), "the example reaches every round kind the title plays"
    for name, verb in catalog.verbs_of_title(title).items():
        if verb.game:
            assert reg.rounds_of(name) or any(name in a for a in reg.answer_plays.values()), \
                f"{title} declares {name} but no round plays it"
    for kind, g in games.items():
        offered = shell_on(g).offers([], "")
        session = SimpleNamespace(state=g.state, rs=g.rs)
        # the verbs legal now of which some command is accepted (1839's income of a closed private
        # is a verb of the round that accepts nothing)
        now = [v for v in legal.verbs_now(g.state, g.rs) if completing.accepted_now(session, v)]
        assert offered[:len(now)] == now, f"{title} {kind}"
        game_verbs = {v for v in offered if v in catalog.verbs_of_title(title) and catalog.verbs_of_title(title)[v].game}
        assert game_verbs == set(now), f"{title} {kind}: {game_verbs ^ set(now)}"


def test_the_shell_always_offers_the_interface_verbs(rounds):
    _title, games = rounds
    for g in games.values():
        offered = shell_on(g).offers([], "")
        assert {v for v in VERBS if not VERBS[v].game} <= set(offered)
        assert {"help", "exit"} <= set(offered)


def test_a_titles_own_verbs_are_its_games_only(rounds):
    title, games = rounds
    op = games["operating"]
    sh = shell_on(op)
    assert ("port" in sh.verbs()) == (title == "1843")            # 1843's verb is no verb elsewhere
    # Tab offers it only when the rules accept it now, never as a fallback for what does not match
    assert ("port" in sh.offers([], "po")) == ("port" in legal.verbs_now(op.state, op.rs))
    assert ("pullman" in sh.verbs()) == (title == "1801")


def test_the_shell_completes_only_legal_values(rounds):
    title, games = rounds
    op = games["operating"]
    sh = shell_on(op)
    corp = op.state.round["corp"]
    typed = op.rs.corporation(corp).alias or corp
    for verb in legal.verbs_now(op.state, op.rs):
        actors = sh.candidates([verb])
        for actor in actors:
            assert legal.complete(op.state, op.rs, verb, []) , verb
    offered = {a.verb for a in legal.actions(op.state, op.rs) if a.args and a.args[0] == corp}
    for verb in offered:
        assert sh.candidates([verb])[0] == typed, verb      # the operating company, by its typed name
    others = [c.sym for c in op.rs.corporations if c.sym != corp]
    for verb in offered:
        assert not set(sh.candidates([verb])) & set(others), verb   # never another company
    assert sh.candidates(["new"]) == catalog.available_titles()


def test_the_shell_without_a_game_offers_new_first():
    sh = Shell(GROUP, {"game": "none.db"})
    assert sh.offers([], "")[0] == "new"
    assert sh.candidates(["new"]) == catalog.available_titles()
    assert sh.candidates(["bid"]) == []


# --------------------------------------------------------------------------- the tests' parser is the CLI's


LINES = ["bid Alice CS 45", "bid al cs $45", "buy Alice PRR", "buy Alice PRR 2 --pool", "buy Bob SV --ipo",
         "par Dave PRR 76", "sell Bob NYC 2", "sell Bob NYC", "pass Carol", "exchange Alice MH NYC --pool",
         "exchange Alice VDL PO --par 67", "tile PRR 120 --using DH", "tile PRR 0 --hex paris", "token PRR",
         "token PRR 40 --using HAV", "token OU --move", "port MID bordeaux --from PLM", "flip PLM 5/7x2",
         "use EST VDL 2+1", "pay PRR -40", "withhold PRR 0", "train PRR 3 --from pool",
         "train PRR D --trade-in 4", "train NYC 3 --from PRR --price 50", "discard PRR 3",
         "buy-private PRR MH 150", "buy-private EST VDL 30 --as-train", "done PRR --no-route",
         "bankrupt Alice", "end --force --reason 'time is up'", "adjust bank Alice 10 --reason 'paid short'",
         "count Alice 455"]


@pytest.mark.parametrize("line", LINES)
def test_the_tests_parser_builds_the_command_the_cli_builds(line, monkeypatch):
    built = []
    monkeypatch.setattr(cli, "run", lambda ctx, cmd: built.append(cmd))
    result = CliRunner().invoke(app, ["--game", "unused.db", *shlex.split(line)])
    assert result.exit_code == 0, result.output
    assert built == [catalog.parse_line(line)]


@pytest.mark.parametrize("line, message", [
    ("buy Alice PRR --pool --ipo", "choose one of --pool and --ipo"),
    ("buy Alice PRR 0", "at least 1"),
    ("sell Alice PRR two", "whole number"),
    ("pay PRR --bogus", "has no option --bogus"),
])
def test_the_parser_and_the_cli_refuse_alike(line, message, monkeypatch):
    monkeypatch.setattr(cli, "run", lambda ctx, cmd: None)
    result = CliRunner().invoke(app, ["--game", "unused.db", *shlex.split(line)])
    assert result.exit_code == 2 and message in error_line(result)
    with pytest.raises(CommandError, match=re.escape(message)):
        catalog.parse_line(line)


# --------------------------------------------------------------------------- resolution before dispatch


def test_resolution_turns_names_and_amounts_into_what_the_rules_read():
    g = Table(title="1830", players=["Alice", "Bob", "Carol", "Dave"])
    cmd = catalog.parse_line("bid al cs $45")
    resolved = grammar.resolve(g.state, g.rs, cmd)
    assert resolved.args == {"player": "Alice", "item": "CS", "amount": 45}
    assert cmd.args == {"player": "al", "item": "cs", "amount": "$45"}, "the typed command is not changed"
    assert grammar.resolve(g.state, g.rs, catalog.parse_line("adjust BnO alice 10 --reason x")).args == {
        "source": "B&O", "dest": "Alice", "amount": 10, "reason": "x"}
    assert grammar.resolve(g.state, g.rs, catalog.parse_line("train bno 3t --from POOL --trade-in 2T")).args == {
        "corp": "B&O", "type": "3", "source": "POOL", "trade_in": "2"}


def test_a_word_that_names_nothing_is_left_for_the_rule_to_refuse_as_always():
    g = Table(title="1830", players=["Alice", "Bob", "Carol", "Dave"])
    assert grammar.resolve(g.state, g.rs, catalog.parse_line("bid Zed CS -5")).args == {"player": "Zed", "item": "CS",
                                                                           "amount": "-5"}
    g.refusal("bid Zed CS 45", match=r"unknown player 'Zed'")
    error = g.refusal("bid Alice XX 45", match="unknown private or company 'XX'")
    assert error.hint
    g.refusal("bid Alice CS -5", match="bid must not be negative, got -5")


def test_a_private_is_never_read_as_a_company():
    """`sell` reads its object as a private first in an operating round (1843 privates to the bank):
    a word naming a private is left as typed."""
    g = Table(title="1830", players=["Alice", "Bob", "Carol", "Dave"])
    assert grammar.resolve(g.state, g.rs, catalog.parse_line("sell Alice BO")).args["corp"] == "BO"
    assert grammar.resolve(g.state, g.rs, catalog.parse_line("sell Alice bno")).args["corp"] == "B&O"


@pytest.mark.parametrize("title", shipped_titles())
def test_every_name_read_again_gives_itself(title):
    """The rules read each value again: on a canonical value the reading must not change it."""
    rs = catalog.load(title)
    for entry in (*rs.corporations, *rs.privates):
        for word in filter(None, (entry.sym, entry.alias, entry.name, entry.sym.lower())):
            _kind, sym = names.item(rs, word)
            assert names.item(rs, sym) == names.item(rs, word), word
    for t in rs.trains:
        for side in t.sides:
            for word in (t.name, side.name, *side.aliases):
                name, side_name = names.side(rs, word)
                assert names.side(rs, side_name or name) == names.side(rs, word), word


def test_the_ledger_keeps_the_command_as_typed(tmp_path, monkeypatch):
    bank = Bank(tmp_path / "g.db", monkeypatch)
    bank("new", "1830", "Alice", "Bob", "Carol", "Dave")
    bank("bid", "al", "cs", "$45")
    rows = bank.query("select text, args from commands order by id")
    assert rows[-1]["text"] == "bid al cs '$45'"
    assert rows[-1]["args"] == '{"player": "al", "item": "cs", "amount": "$45"}'
    assert "agree" in bank("audit").stdout  # decided again from the typed arguments


@pytest.mark.parametrize("line", ["token NYC --move", "tile NYC 0 --hex paris", "exchange Alice MH --par 67",
                                  "buy-private NYC MH 40 --as-train"])
def test_a_game_refuses_an_option_of_another_title(line):
    g = Table(title="1830", players=["Alice", "Bob", "Carol", "Dave"])
    verb = catalog.parse_line(line).verb
    kind = "operating" if verb != "exchange" else "stock"
    g.state.round = make_round(g.rs.title, {"kind": kind, **({"corp": "NYC"} if kind == "operating" else {})})
    with pytest.raises(CommandError, match=rf"1830 has no option --\S+ for {verb}"):
        engine.decide(g.state, g.rs, catalog.parse_line(line))


def test_the_union_of_the_titles_options_is_on_the_command_line():
    flags = {name: {o.flag for o in verb.all_options()} for name, verb in VERBS.items()}
    assert {"--move", "--using"} <= flags["token"] and "--hex" in flags["tile"]
    assert "--par" in flags["exchange"] and "--as-train" in flags["buy-private"]
    assert "--move" not in {o.flag for o in catalog.verbs_of_title("1830")["token"].all_options()}


def test_a_command_not_declared_passes_resolution_unchanged():
    g = Table(title="1830", players=["Alice", "Bob", "Carol", "Dave"])
    cmd = Command("nonsense", {"x": "y"})
    assert grammar.resolve(g.state, g.rs, cmd) is cmd


def test_a_verb_two_titles_declare_tells_both_outside_a_game():
    """1801 and 1839 both have a re-par power (BBBT, Ketwich & Voombergh): before a game is open the
    command's help names both; inside a game only its title's."""
    both = catalog.all_verbs()["repar"].help
    assert "Barclay" in both and "Ketwich" in both
    assert "Ketwich" not in catalog.verbs_of_title("1801")["repar"].help
    assert "Barclay" not in catalog.verbs_of_title("1839")["repar"].help


def test_two_titles_cannot_read_one_verb_differently():
    one = grammar.Verb("x", "stock", "One.", "bank x Ann", (grammar.Arg("player", "player"),))
    other = grammar.Verb("x", "stock", "Other.", "bank x Ann 5", (grammar.Arg("player", "player"),
                                                                  grammar.Arg("amount", "amount")))
    with pytest.raises(ValueError, match="two titles declare 'x' with different arguments"):
        grammar.merged([grammar.TitleGrammar(verbs=(one,)), grammar.TitleGrammar(verbs=(other,))])
