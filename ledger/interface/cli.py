"""The `bank` command line: a thin shell that parses a verb, runs it through a Session and prints.

Its typer commands are built from the grammar's declarations (ledger.core.grammar): a game verb's
command builds the Command and runs it; an interface verb's command is a function here, marked
`@implements(VERB)`, whose signature and help come from the declaration.

Every failure becomes one line `error: ...` on stderr and a non-zero exit (see `OneLineErrors`).
Transcripts (`bank play FILE`) run each line through this same grammar.
"""

from __future__ import annotations

import inspect
import json
import os
import shlex
import signal
import sys
from pathlib import Path
from typing import List, Optional

import click
import typer
from typer.core import TyperGroup

from ledger import catalog
from ledger.core import grammar
from ledger.core.command import Command
from ledger.core.errors import BankError, CommandError
from ledger.interface import corrections
from ledger.interface.verbs import every_verb, shared_verbs, verbs_of
from ledger.interface.lines import check_text, error_message, help_of, hoist_game, run_text

DEFAULT_GAME = "bank.db"


class OneLineErrors(TyperGroup):
    """Turn every error into a single stderr line and an exit code."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        obj = extra.pop("obj", None) or {}
        argv = list(args) if args is not None else sys.argv[1:]
        quiet_resource_signals()
        try:
            check_text(argv)
            argv = hoist_game(argv)
            if self.answers_itself(argv):
                return 0
            obj.setdefault("line", command_text(argv))
            obj.setdefault("help_asked", "--help" in argv)
            result = self.invoke_line(argv, obj, prog_name=prog_name or "bank", **extra)
        except (click.exceptions.Exit, typer.Exit) as exc:
            sys.exit(exc.exit_code)
        except BaseException as exc:  # every failure, expected or not, is one line
            if isinstance(exc, SystemExit) or os.environ.get("BANK_DEBUG") and not isinstance(exc, BankError):
                raise
            message, code = error_message(exc, obj)
            from ledger.interface.terminal import red
            click.echo(red(f"error: {message}"), err=True)
            sys.exit(code)
        finally:
            close_session(obj)
        if isinstance(result, int) and result:
            sys.exit(result)
        return result

    def answers_itself(self, argv: list[str]) -> bool:
        """`--version`, the help (`bank`, `bank -h`, `bank --help`, `bank VERB -h`) and Tab's
        completion for bash, zsh and fish: answered here, before any command runs. The help is
        `bank help`'s, in the words of the game in this folder when there is one: one help system."""
        game, words = game_and_words(argv)
        if os.environ.get(COMPLETE_VAR):
            complete_line(self, game)
            return True
        if words[:1] in (["--version"], ["-V"]):
            click.echo(f"bank {package_version()}")
            return True
        if not words or words[0] in HELP_FLAGS:
            from ledger.interface.helptext import wrap
            click.echo(help_of(title_in(game), None) + "\n\n" + wrap(GLOBAL_OPTIONS))
            return True
        if not words[0].startswith("-") and any(w in HELP_FLAGS for w in words[1:words.index("--")
                                                                                  if "--" in words else None]):
            click.echo(help_of(title_in(game), words[0]))
            return True
        return False

    def list_commands(self, ctx) -> list[str]:
        """`bank --help`: the shared verbs (a game's own are in `bank help` inside it)."""
        return [v.name for _group, members in grammar.in_groups(shared_verbs()) for v in members]

    def get_command(self, ctx, name: str):
        """The command of a verb, built when it is asked for from the verbs of the game it runs in:
        a command loads the open game's title only (an interface verb none)."""
        verbs, kinds = verbs_for(ctx, name)
        verb = verbs.get(name)
        if verb is None:
            refuse_other_titles_verb(ctx, name)
            if name.startswith("-") or ctx.resilient_parsing:
                return None
            raise unknown_verb(name, [*verbs, *INTERFACE])
        return click_command(verb, kinds, example_ruleset(ctx))

    def invoke_line(self, args, obj=None, prog_name="bank", **extra):
        """Run one command line; errors propagate (used by `play` and the shell)."""
        return click.Group.main(self, args=hoist_game(list(args)), prog_name=prog_name, standalone_mode=False,
                                obj=obj, **extra)


HELP_FLAGS = ("--help", "-h")
GLOBAL_OPTIONS = ("Options before or after any command: --game FILE (-g; or $BANK_GAME) the game file, "
                  "./bank.db when left out; --help (-h) this help, or one command's after it; --version.")
# click's completion protocol: bash, zsh and fish call `bank` with this set (see the README)
COMPLETE_VAR = "_BANK_COMPLETE"


def game_and_words(argv: list[str]) -> tuple[str, list[str]]:
    """The game file a command line names (after hoist_game: its --game in front) and its other words."""
    game, words = os.environ.get("BANK_GAME") or DEFAULT_GAME, list(argv)
    while words and (words[0] in ("--game", "-g") and len(words) > 1 or words[0].startswith("--game=")):
        if words[0].startswith("--game="):
            game, words = words[0].split("=", 1)[1], words[1:]
        else:
            game, words = words[1], words[2:]
    return game, words


def title_in(game: str) -> str | None:
    """The title of the game file, if it reads as one (a help works in any folder, whatever it holds)."""
    from ledger.books.store import Store
    if not Path(game).is_file():
        return None
    try:
        store = Store(game, read_only=True)
        try:
            return store.header()["title"]
        finally:
            store.close()
    except Exception:   # a damaged or foreign file: the help of every title
        return None


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("bank18xx")
    except PackageNotFoundError:   # run from a source tree that was never installed
        return "(not installed)"


def complete_line(group, game: str) -> None:
    """Tab in bash, zsh or fish: click's scripts call `bank` with _BANK_COMPLETE set; the words
    offered are the shell's (ledger.interface.completing), on the game the line names."""
    from click.shell_completion import CompletionItem, get_completion_class

    from ledger.interface import completing
    shell, _, action = os.environ[COMPLETE_VAR].partition("_")
    kind = get_completion_class(shell)
    if kind is None:
        raise CommandError(f"no completion for the shell '{shell}'", "bash, zsh and fish have one")
    comp = kind(group, {}, "bank", COMPLETE_VAR)
    if action == "source":
        click.echo(comp.source())
        return
    args, incomplete = comp.get_completion_args()
    game, words = game_and_words(hoist_game(args))
    s = open_quietly(game)
    try:
        items = [CompletionItem(e.text, help=e.meta or None) for e in completing.offers(s, words, incomplete)]
    finally:
        if s is not None:
            s.close()
    for item in items:
        click.echo(comp.format_completion(item))


def open_quietly(game: str):
    """The game for Tab to read, or None (no file, a damaged one: Tab then offers what needs none)."""
    from ledger.books.session import Session
    if not Path(game).is_file():
        return None
    try:
        return Session.open(game)
    except Exception:
        return None


def close_session(obj: dict) -> None:
    """The game's connection closed as the command ends (not left to the garbage collector: a
    caller that runs the command in its own process, a test or a script, may copy the file next)."""
    s = obj.pop("session", None)
    if s is not None:
        try:
            s.close()
        except Exception:   # closing is tidying up: the command's outcome is already decided
            pass


def quiet_resource_signals() -> None:
    """A file-size limit (`ulimit -f`) must fail the write, not kill the process mid-command."""
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True,
                  help="bank: the bank and bookkeeper for physical 18xx games.\n\n"
                       "In bash, type amounts without a currency sign: bash turns $140 into 40 before the bank "
                       "sees it (type 140). bank shell needs no quoting at all and reads $140 as 140.")
# Game verbs take negative numbers as arguments (so `pay NYC -40` gets the rule's error, not
# "no such option -4"); `grammar.build` refuses any other word that looks like an option.
VERB = {"ignore_unknown_options": True}
# ... and keep what they do not take, so that the game's title refuses it in its own words.
GAME_VERB = {**VERB, "allow_extra_args": True}


@app.callback()
def main_options(ctx: typer.Context,
                 game: str = typer.Option(None, "--game", "-g", envvar="BANK_GAME",
                                          help="game file (default ./bank.db); before or after the verb")):
    ctx.ensure_object(dict)
    ctx.obj.setdefault("game", game or DEFAULT_GAME)
    ctx.obj.setdefault("game_given", bool(game))





def session(ctx: typer.Context, verify: bool = True):
    """The open game, re-read if another process has recorded commands since it was loaded.
    `verify=False` (audit, backup): open a file whose record was changed outside bank anyway."""
    from ledger.books.session import Session
    obj = ctx.ensure_object(dict)
    if not verify:
        return Session.open(obj["game"], verify=False)
    if obj.get("session") is None:
        obj["session"] = Session.open(obj["game"])
    else:
        arrived = obj["session"].refresh()
        if arrived and obj.get("announce"):
            obj["announce"](arrived)
    return obj["session"]


def quiet(ctx: typer.Context) -> bool:
    return bool(ctx.ensure_object(dict).get("quiet"))


def line_of(ctx: typer.Context) -> str:
    """The command as typed, for the ledger."""
    return ctx.ensure_object(dict).get("line") or command_text(sys.argv[1:])


def command_text(args: list[str]) -> str:
    """The command line without the global --game option, quoted as a transcript line."""
    args = list(args)
    while args and args[0] in ("--game", "-g"):
        args = args[2:]
    args = [a for a in args if not a.startswith("--game=")]
    return " ".join(shlex.quote(str(a)) for a in args)


def run(ctx: typer.Context, cmd: Command) -> None:
    """A game verb: the session decides and records it; print what happened and who is next."""
    from ledger.interface.views import describe, next_line
    s = session(ctx)
    events = s.execute(cmd, line_of(ctx))
    if quiet(ctx):
        return
    for i, event in enumerate(events):
        text = describe(event, s.rs)
        if text:
            say(text)
        summary = summary_at(s, events, i)
        if summary:
            say(summary)
    say_record(s)
    say(next_line(s.state, s.rs))


def say_record(s) -> None:
    """The record's fingerprint after a write, on its own short line (ledger.books.chain): the
    table sees it, so a past rewritten later shows (bank audit --against)."""
    from ledger.books.chain import fingerprint_line
    say(fingerprint_line(*s.store.head_hash()))


def say(text: str) -> None:
    """Print prose in the terminal's width, a long line wrapped under itself (issue 29)."""
    from ledger.interface.fit import fit_text
    typer.echo(fit_text(text))


def summary_at(s, events: list[dict], i: int) -> str | None:
    """After the event that ends a company's turn, that turn in one line; after the one that ends an
    operating round, the round's table. A turn spans many commands: its start is read back."""
    from ledger.interface.summaries import or_summary, turn_summary
    e = events[i]
    if e["kind"] == "corp_turn_ended":
        return turn_summary(since_start(s, events, i, "corp_turn_started", lambda x: x.get("corp") == e["corp"]), s.rs)
    if e["kind"] == "operating_round_ended":
        return or_summary(since_start(s, events, i, "round_started", lambda x: x["round"].get("kind") == "operating"),
                          s.rs)
    return None


def since_start(s, events: list[dict], end: int, kind: str, match) -> list[dict]:
    """The events from the last start (`kind` that `match` accepts) up to this command's event
    `end`: within this command if it started here, else read back from the earlier commands."""
    from ledger.books.history import events_since
    here = [i for i in range(end) if events[i]["kind"] == kind and match(events[i])]
    if here:
        return events[here[-1]:end + 1]
    return events_since(s.store, kind, match, before=s.store.head()) + events[:end + 1]


# --------------------------------------------------------------------------- commands from the declarations

IMPLEMENTATIONS: dict = {}


def implements(verb: str):
    """Mark the function that runs an interface verb; its signature and help are the declaration's
    (the function's parameters must be the declared ones)."""
    def mark(fn):
        IMPLEMENTATIONS[verb] = fn
        return fn
    return mark


def game_command(verb: grammar.Verb, kinds: dict):
    """A game verb's command: the Command the grammar builds from the line, run through the session."""
    def command(ctx: typer.Context, **values):
        refuse_extra_words(ctx, verb, values)
        run(ctx, grammar.build(verb, values))
    command.__name__ = verb.name.replace("-", "_")
    command.__signature__ = signature(verb, with_context=True, kinds=kinds)
    return command


def refuse_extra_words(ctx: typer.Context, verb: grammar.Verb, values: dict) -> None:
    """Words the verb does not take: an option of another title (the game's title has not got it,
    and click kept it as a word, perhaps in an argument's place) or one too many."""
    extra = list(ctx.args)
    if not extra:
        return
    s = (ctx.find_object(dict) or {}).get("session")
    typed = [w for w in values.values() if isinstance(w, str)] + extra
    flag = next((w for w in typed if w.startswith("--")), None)
    if flag and s is not None:
        have = ", ".join(o.flag for o in verb.all_options()) or "none"
        raise CommandError(f"{s.rs.title} has no option {flag} for {verb.name}", f"its options in {s.rs.title}: {have}")
    raise CommandError(f"{verb.name} does not take {' '.join(extra)}", f"usage: {verb.usage()}")


def interface_command(verb: grammar.Verb, fn, kinds: dict):
    """An interface verb's command: its implementation, called with the declared parameters."""
    takes_context = "ctx" in inspect.signature(fn).parameters
    declared = signature(verb, with_context=takes_context, kinds=kinds)
    if list(declared.parameters) != list(inspect.signature(fn).parameters):
        raise TypeError(f"{fn.__name__}{inspect.signature(fn)} does not take what 'bank {verb.name}' declares: "
                        f"{list(declared.parameters)}")

    # a plain wrapper: typer reads the declared signature, never the implementation's annotations
    def command(**values):
        return fn(**values)
    command.__name__ = fn.__name__
    command.__signature__ = declared
    return command


def signature(verb: grammar.Verb, with_context: bool, kinds: dict) -> inspect.Signature:
    params = [parameter("ctx", inspect.Parameter.empty, typer.Context)] if with_context else []
    params += [argument(a, kinds) for a in verb.args]
    # switches that set one argument (--pool, --ipo) are separate flags on the command line
    params += [option(verb, o, kinds) for o in verb.all_options()]
    return inspect.Signature(params)


def parameter(name: str, default, annotation) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def argument(arg: grammar.Arg, kinds: dict) -> inspect.Parameter:
    kind = kinds.get(arg.kind, grammar.KINDS["text"])
    base = Path if kind.path else str
    help_ = arg.help or kind.describe or None
    if arg.many:
        return parameter(arg.name, typer.Argument(..., help=help_), List[base])
    if arg.optional:
        annotation = base if arg.default is not None else Optional[base]
        return parameter(arg.name, typer.Argument(arg.default, help=help_), annotation)
    return parameter(arg.name, typer.Argument(..., help=help_), base)


def option(verb: grammar.Verb, opt: grammar.Opt, kinds: dict) -> inspect.Parameter:
    flags = [opt.flag] + ([opt.short] if opt.short else [])
    if opt.switch:
        return parameter(verb.param(opt), typer.Option(False, *flags, help=opt.help or None), bool)
    base = Path if kinds.get(opt.kind, grammar.KINDS["text"]).path else str
    if opt.many:
        return parameter(verb.param(opt), typer.Option([], *flags, help=opt.help or None), List[base])
    return parameter(verb.param(opt), typer.Option(None, *flags, help=opt.help or None), Optional[base])


# the verbs the command line runs without the engine: the record's (new, the corrections) and the
# interface's own (views, files, tools)
INTERFACE = {name: v for name, v in shared_verbs().items() if not v.game}


def verbs_for(ctx, name: str) -> tuple[dict, dict]:
    """(the verbs, the kinds of argument) a command line named `name` is read with: an interface
    verb's declaration; a game verb's as the open game's title declares it (the game is opened
    here, as the command will use it); without a game file, every title's (the command then says
    there is no game; its --help shows every title's options)."""
    if name in INTERFACE:
        return INTERFACE, grammar.KINDS
    obj = ctx.ensure_object(dict)
    if obj.get("session") is None:
        obj.setdefault("game", ctx.params.get("game") or DEFAULT_GAME)
        if not Path(obj["game"]).exists():
            return every_verb(), catalog.all_kinds()
    rs = session(ctx).rs
    return verbs_of(rs), grammar.kinds_of(rs)


def unknown_verb(name: str, known: list[str]) -> CommandError:
    """A verb nobody declares: the nearest one by a slip of the finger (`selll`: sell), else where the
    game's verbs are listed (`bank --help` lists the shared verbs only)."""
    from ledger.interface.suggest import mistyped
    return mistyped(f"unknown command '{name}'", name, sorted(set(known)), "bank help lists this game's commands")


def refuse_other_titles_verb(ctx, name: str) -> None:
    """A verb the open game's title lacks, though the bank knows it (a shared verb its kinds of
    company do not use, or another title's): refused in the game's words (no such command at all
    is click's to say)."""
    s = ctx.ensure_object(dict).get("session")
    if s is not None and (name in shared_verbs() or name in every_verb()):
        from ledger.core.engine import missing_verb
        raise CommandError(missing_verb(s.rs, name))


_COMMANDS: dict[tuple, tuple] = {}


def example_ruleset(ctx):
    """Whose words a command's help example is in, when its help is asked for: the open game's
    title, else the default title (loading a title's data only then, off the path of a command)."""
    obj = ctx.ensure_object(dict)
    if not obj.get("help_asked"):
        return None
    s = obj.get("session")
    return s.rs if s is not None else catalog.default_ruleset()


def click_command(verb: grammar.Verb, kinds: dict, example_rs=None):
    """A verb's click command (built once per declaration: a shell or a transcript asks again); its
    help ends with its example when help is asked for."""
    key = (id(verb), id(kinds), id(example_rs))
    if key not in _COMMANDS:
        one = typer.Typer(add_completion=False)
        if verb.game:
            # game verbs take negative numbers as arguments (see VERB)
            callback, settings = game_command(verb, kinds), GAME_VERB
        else:
            # a command line as an argument (insert) keeps its own options and amounts
            callback = interface_command(verb, IMPLEMENTATIONS[verb.name], kinds)
            settings = VERB if any(a.kind == "line" for a in verb.args) else {}
        one.command(name=verb.name, help=grammar.help_text(verb, example_rs) if example_rs else verb.help, rich_help_panel=grammar.GROUPS[verb.group],
                    context_settings=settings)(callback)
        _COMMANDS[key] = (verb, kinds, example_rs, typer.main.get_command(one))   # the declaration kept: ids stay its own
    return _COMMANDS[key][-1]


def check_implementations() -> None:
    missing = sorted(name for name in INTERFACE if name not in IMPLEMENTATIONS)
    if missing:
        raise TypeError(f"interface verbs without an implementation: {', '.join(missing)}")


@implements("help")
def help_(ctx: typer.Context, verb: Optional[str]):
    typer.echo(help_of(open_title(ctx), verb))


def open_title(ctx: typer.Context) -> str | None:
    """The title of the game the command line names, if there is one (help lists its verbs only)."""
    obj = ctx.ensure_object(dict)
    if obj.get("session") is not None:
        return obj["session"].rs.title
    path = Path(obj.get("game") or DEFAULT_GAME)
    if not path.is_file():
        return None
    try:
        return session(ctx).rs.title
    except BankError:
        return None


# --------------------------------------------------------------------------- starting a game

@implements("new")
def new(ctx: typer.Context, title: str, players: List[str], option: List[str], rules: Optional[Path]):
    from ledger.books.session import Session
    from ledger.interface.views import next_line
    if title not in catalog.available_titles():
        from ledger.interface.suggest import unknown_title
        raise unknown_title(title, catalog.available_titles())
    options = {}
    for opt in option:
        name, _, value = opt.partition("=")
        options[name] = value or True
    path = ctx.obj["game"]
    s = Session.new(path, title, players, options, override=rules, text=line_of(ctx))
    ctx.obj["session"] = s
    if not quiet(ctx):
        say(f"New {title} game in {path}: {', '.join(players)}")
        say_record(s)
        say(next_line(s.state, s.rs))


# --------------------------------------------------------------------------- undo / redo

@implements("undo")
def undo(ctx: typer.Context, to: Optional[str], yes: bool):
    from ledger.core.errors import NeedsConfirmation
    from ledger.core.names import command_number
    from ledger.interface.views import next_line
    s = session(ctx)
    before = s.state
    if to is not None:
        number = command_number(to)
        try:
            rows = s.undo_to(number, line_of(ctx), confirmed=yes)
        except NeedsConfirmation as exc:
            ask = ctx.ensure_object(dict).get("confirm")  # the shell asks y/n; a one-shot command is refused
            if not ask or not ask(exc.message.split(": nothing")[0].replace("would hide", "hides") + "?"):
                raise
            rows = s.undo_to(number, line_of(ctx), confirmed=True)
        lines = corrections.undone_to(rows, to)
    else:
        lines = corrections.undone(s.undo(line_of(ctx)))
    if not quiet(ctx):
        for line in lines + corrections.changes(before, s.state, s.rs):
            say(line)
        say_record(s)
        say(next_line(s.state, s.rs))


@implements("redo")
def redo(ctx: typer.Context):
    from ledger.interface.views import next_line
    s = session(ctx)
    before = s.state
    row = s.redo(line_of(ctx))
    if not quiet(ctx):
        for line in corrections.redone(row) + corrections.changes(before, s.state, s.rs):
            say(line)
        say_record(s)
        say(next_line(s.state, s.rs))


@implements("insert")
def insert(ctx: typer.Context, command: List[str], before: Optional[str]):
    from ledger.core.names import command_number
    if before is None:
        raise CommandError("say where: insert --before N \"COMMAND\"", "bank log shows the command numbers")
    number = command_number(before)
    s = session(ctx)
    text, cmd = corrections.correction_line(command, "insert", 'bank insert --before 117 "tile CORP 120"', s.rs)
    before = s.state
    done = s.insert(number, cmd, text, line_of(ctx))
    if not quiet(ctx):
        report_rederived(s, done, corrections.inserted(done, number, text), before)


@implements("amend")
def amend(ctx: typer.Context, number: str, command: List[str]):
    from ledger.core.names import command_number
    target = command_number(number)
    s = session(ctx)
    text, cmd = corrections.correction_line(command, "amend", 'bank amend 117 "pay CORP 50"', s.rs)
    old = s.store.command(target)
    before = s.state
    done = s.amend(target, cmd, text, line_of(ctx))
    if not quiet(ctx):
        report_rederived(s, done, corrections.amended(done, target, old["text"], text), before)


@implements("restore")
def restore(ctx: typer.Context, number: str, to: Optional[str]):
    from ledger.core.names import command_number
    s = session(ctx)
    before = s.state
    done = s.restore(command_number(number), command_number(to) if to is not None else None, line_of(ctx))
    if not quiet(ctx):
        report_rederived(s, done, corrections.restored(done), before, re_derived=False)


def report_rederived(s, done, headline: str, before, re_derived: bool = True) -> None:
    """What a correction did: its headline, the new command's results, the later commands decided
    again (and which now have other results), and what changed in the game since `before` (the
    game as it was): money, certificates, trains, privates and prices."""
    from ledger.interface.views import describe, next_line
    say(headline)
    for event in done.events:
        line = describe(event, s.rs)
        if line:
            say(f"  {line}")
    if re_derived and done.renumbered:
        pairs = [(old, new) for old, new in done.renumbered if old != done.before or new != done.command_id]
        if pairs:
            olds, news = [old for old, _ in pairs], [new for _, new in pairs]
            say(f"re-derived {len(news)} later command(s): {corrections.span(olds)} are now {corrections.span(news)}"
                       f" ({len(done.changed)} with results that changed"
                       + (f": {', '.join(map(str, done.changed[:8]))}{' ...' if len(done.changed) > 8 else ''})"
                          if done.changed else ")"))
    say("what changed:")
    for line in corrections.changes(before, s.state, s.rs):
        say(line)
    say_record(s)
    say(next_line(s.state, s.rs))


# --------------------------------------------------------------------------- views

@implements("status")
def status(ctx: typer.Context, as_json: bool):
    from ledger.interface.views import status_json, status_text
    s = session(ctx)
    typer.echo(json.dumps(status_json(s.state, s.rs), indent=1) if as_json else status_text(s.state, s.rs))


@implements("market")
def market(ctx: typer.Context, as_json: bool):
    from ledger.interface.views import market_json, market_text
    s = session(ctx)
    if as_json:
        typer.echo(json.dumps(market_json(s.state, s.rs), indent=1))
        return
    from ledger.interface.terminal import paint_companies
    typer.echo(paint_companies(market_text(s.state, s.rs), s.rs))


@implements("score")
def score(ctx: typer.Context, as_json: bool):
    from ledger.interface.views import score_json, score_text
    s = session(ctx)
    if as_json:
        typer.echo(json.dumps(score_json(s.state, s.rs), indent=1))
        return
    from ledger.books.chain import LONG, fingerprint
    head, digest = s.store.head_hash()
    typer.echo(score_text(s.state, s.rs))
    typer.echo(f"record {fingerprint(digest, LONG)} after command {head}"
               + (": photograph it; bank audit --against it checks a record later" if s.state.game_over else ""))


@implements("log")
def log(ctx: typer.Context, as_json: bool, player: Optional[str], company: Optional[str], round_: Optional[str],
        all_: bool, hidden: bool, last: Optional[str], or_: Optional[str]):
    from ledger.books.history import matches, walk
    from ledger.core import names
    from ledger.core import events
    from ledger.interface.logview import log_lines, screenful
    s = session(ctx)
    count = how_many(last)
    who = names.player(s.state, player) if player else None
    corp = names.corp(s.rs, company) if company else None
    walked = walk(s)[0]
    if or_ is not None:
        say(or_again(s, walked, or_))
        return
    if round_ is not None:
        from ledger.core.state import round_label
        round_ = known_round(round_, [e.round for e in walked] + [round_label(s.state)])

    def shown(e) -> bool:
        if hidden:
            return e.status in ("undone", "superseded")
        return all_ or (e.status == "active" and e.verb not in ("undo", "redo"))
    entries = [e for e in walked if shown(e) and matches(e, who, corp, round_)]
    if count is None and ctx.ensure_object(dict).get("in_shell") and not as_json:
        count = screenful(entries, s.rs)   # the shell's log: the last screenful
    if count is not None:
        entries = entries[-count:] if count else []
    if as_json:   # the JSON's lines are the core's own (a contract); the text adds the reader's notes
        typer.echo(json.dumps([{**e.json(), "lines": [t for t in (events.describe(ev, s.rs) for ev in e.events) if t]}
                               for e in entries], indent=1))
        return
    if hidden and not entries:
        typer.echo("no hidden commands: every command recorded is in play")
    for line in log_lines(entries, s.rs):
        typer.echo(line)
    if hidden and entries:
        say(f"bank restore N re-applies hidden command N (and those hidden with it) after command {s.head}")


def how_many(last: Optional[str]) -> int | None:
    """`--last N`: a whole number of commands, 0 or more."""
    if last is None:
        return None
    if not last.strip().isdigit():
        raise CommandError(f"--last takes a number of commands, not '{last}'", "e.g. bank log --last 20")
    return int(last)


def or_again(s, walked: list, typed: str) -> str:
    """`bank log --or 4.1`: that operating round's summary table, as it was printed at its end (or so
    far, while it is under way); refused, naming the game's operating rounds, when it has no such."""
    from ledger.interface.summaries import or_summary_of
    events = [ev for e in walked if e.status == "active" for ev in e.events]
    rounds = [f"{ev['round']['set']}.{ev['round']['index']}" for ev in events
              if ev["kind"] == "round_started" and ev["round"].get("kind") == "operating"]
    wanted = typed.strip().upper().removeprefix("OR").strip()
    set_no, _, index = wanted.partition(".")
    text = (or_summary_of(events, s.rs, int(set_no), int(index))
            if set_no.isdigit() and index.isdigit() else None)
    if text is None:
        shown = list(dict.fromkeys(rounds))
        shown = shown if len(shown) <= 10 else shown[:4] + ["..."] + shown[-4:]
        raise CommandError(f"no operating round '{typed}' in this game",
                           f"its operating rounds: {', '.join(shown)}" if shown else "no operating round yet")
    return text


def known_round(typed: str, labels: list[str]) -> str:
    """A round as `--round` names it ('SR 3', 'or 2', 'OR 2.1'), in the log's spelling; refused,
    naming the game's rounds, when the game has none such."""
    words = typed.split()
    wanted = " ".join([words[0].upper() if words and words[0].lower() in ("sr", "or") else
                       (words[0].capitalize() if words else ""), *words[1:]])
    rounds = list(dict.fromkeys(label for label in labels if label and label != "setup"))
    if any(r == wanted or r.startswith(wanted + ".") or r.startswith(wanted + " ") for r in rounds):
        return wanted
    shown = rounds if len(rounds) <= 10 else rounds[:4] + ["..."] + rounds[-4:]
    raise CommandError(f"no round '{typed}' in this game", f"its rounds: {', '.join(shown) or 'none yet'}")


@implements("explain")
def explain(ctx: typer.Context, number: str, as_json: bool):
    from ledger.core.names import command_number
    from ledger.interface.explain import explain as explain_lines
    s = session(ctx)
    wanted = command_number(number)
    lines = explain_lines(s, wanted)
    if as_json:   # the lines, and the events as recorded: every transfer with its accounts
        row = s.store.command(wanted) or {}
        typer.echo(json.dumps({"command": wanted, "text": row.get("text"), "status": row.get("status"),
                               "lines": lines, "events": s.store.events_of(wanted)}, indent=1, default=str))
        return
    for line in lines:
        say(line)


@implements("audit")
def audit(ctx: typer.Context, as_json: bool, against: Optional[str] = None):
    from ledger.books.audit import against as check_against
    from ledger.books.audit import audit as run_audit
    audited = session(ctx, verify=False)
    try:
        problems, notes = run_audit(audited)
        if against is not None:
            found, said = check_against(audited.store, against)
            problems, notes = problems + found, notes + said
    finally:
        audited.close()
    if as_json:   # the same exit code: a script checks either
        typer.echo(json.dumps({"ok": not problems, "problems": problems, "notes": notes}, indent=1))
        if problems:
            raise typer.Exit(8)
        return
    for note in notes:
        say(f"note: {note}")
    for problem in problems:
        say(f"PROBLEM: {problem}")
    if problems:
        typer.echo(f"error: audit found {len(problems)} problem(s)", err=True)
        raise typer.Exit(8)
    typer.echo("audit: ledger, replay and rules agree")


@implements("export")
def export(ctx: typer.Context, csv_dir: Optional[Path], json_file: Optional[Path]):
    from ledger.books.export import export_csv, export_json
    if not csv_dir and not json_file:
        raise CommandError("say where: --csv DIR and/or --json FILE")
    s = session(ctx)
    if csv_dir:
        for path in export_csv(s, csv_dir):
            typer.echo(f"wrote {path}")
    if json_file:
        export_json(s, json_file)
        typer.echo(f"wrote {json_file}")


# each chart: (its title, what it shows, for the list `bank chart` prints)
CHARTS = {"worth": ("Net worth after each round", "each player's net worth after every round"),
          "prices": ("Share prices after each round", "each company's share price after every round")}


@implements("chart")
def chart(ctx: typer.Context, what: Optional[str], out: Optional[Path], as_json: bool):
    from ledger.books.history import series
    from ledger.interface.charts import NOTHING, chart_file, chartable, data, terminal
    if what is None:   # the charts there are, rather than a bare "missing argument"
        typer.echo("bank chart WHAT draws one of these in the terminal (--out FILE: a .png or .svg):")
        for name, (_title, shows) in CHARTS.items():
            typer.echo(f"  {name:<8}{shows}")
        return
    if what not in CHARTS:
        from ledger.interface.suggest import unknown_name
        raise unknown_name("chart", what, list(CHARTS))
    s = session(ctx)
    labels, lines = data(series(s), what)
    title = CHARTS[what][0]
    if as_json:   # the chart's figures: a value per name after each round (null before it counts)
        typer.echo(json.dumps({"chart": what, "title": title, "rounds": labels, "series": lines}, indent=1))
        return
    if not chartable(labels, lines):   # the file would be an empty grid: both say the same
        typer.echo(NOTHING)
    elif out:
        chart_file(labels, lines, out, title, s.rs, what)
        typer.echo(f"wrote {out}")
    else:
        typer.echo(terminal(labels, lines, title=title, money=s.rs.money))


@implements("serve")
def serve(ctx: typer.Context, host: Optional[str], port: Optional[str], table: bool, new_links: bool):
    try:  # the web stack is the optional `serve` extra
        import jinja2  # noqa: F401
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise CommandError(f"bank serve needs {exc.name}, which is not installed",
                           "pip install starlette uvicorn jinja2 segno (or, in the bank's folder, "
                           "pip install -e '.[serve]')") from None
    from ledger.interface.board.serve import serve as serve_board
    serve_board(ctx.obj["game"], host, port, table=table, new_links=new_links)


@implements("info")
def info(ctx: typer.Context, title: Optional[str]):
    from ledger.interface.info import info_text
    title = title or open_title(ctx) or catalog.default_title()
    if not title:
        raise CommandError("no titles on this machine", "reinstall bank, or set $BANK_TITLES to a folder of titles")
    typer.echo(info_text(catalog.load(title)))


# --------------------------------------------------------------------------- transcripts

@implements("play")
def play(ctx: typer.Context, file: Path, show: bool):
    errors = play_file(ctx, file, verbose=show, summary=True)
    if errors:
        raise typer.Exit(errors)


def play_file(ctx: typer.Context, file: Path, verbose: bool = False, summary: bool = False) -> int:
    """Run a transcript's lines; stop at the first refused one, reporting its number. A line for
    each round as it ends ('SR 1 · 24 commands'); with `summary`, at the end the commands played,
    the round the game is in and the Next line (nothing of it when the context is quiet). Returns
    the exit code (0 when every line ran)."""
    obj = ctx.ensure_object(dict)
    group = typer.main.get_command(app)
    progress = Progress(show=not quiet(ctx))
    for number, raw in enumerate(transcript_lines(file), start=1):
        text = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not text:
            continue
        sub = {"game": obj["game"], "session": obj.get("session"), "quiet": not verbose, "line": text}
        before = progress.round_of(obj.get("session"))
        code = run_text(group, text, sub, where=f"{file}:{number}: {text}: ")
        obj["session"] = sub.get("session")
        if code:
            progress.stopped(number)
            return code
        progress.played(before, progress.round_of(obj["session"]))
    if summary:
        progress.finished(file, obj.get("session"))
    return 0


class Progress:
    """A transcript as it plays (issue 35: a long one is not silent): when a round is over, its
    name and how many of the transcript's commands it took, one line; at the end what was played
    and where the game is. Printed with say(), as every result is; nothing when `show` is off."""

    def __init__(self, show: bool = True):
        self.show = show
        self.round: str | None = None   # the round being played, as round_label names it
        self.in_round = 0               # the transcript's commands in it so far
        self.total = 0

    @staticmethod
    def round_of(s) -> str | None:
        from ledger.core.state import round_label
        return round_label(s.state) if s is not None and s.state is not None else None

    def played(self, before: str | None, after: str | None) -> None:
        self.total += 1
        if before is not None:   # 'new' starts the game: no round of its own
            self.round = self.round or before
            self.in_round += 1
        if after != self.round and self.round is not None:
            self.say(f"{self.round} · {commands(self.in_round)}")
            self.in_round = 0
        self.round = after

    def stopped(self, number: int) -> None:
        """A refused line (the error on stderr names it): what was played before it."""
        if self.total:
            self.say(f"Played {commands(self.total)}, then stopped at line {number}"
                     + (f" in {self.round}" if self.round else ""))

    def finished(self, file: Path, s) -> None:
        from ledger.interface.views import next_line
        if s is None or s.state is None:
            self.say(f"Played {commands(self.total)} from {file}: no game started")
            return
        where = "the game is over" if s.state.game_over else f"the game is in {self.round}"
        self.say(f"Played {commands(self.total)} from {file}; {where}")
        from ledger.books.chain import fingerprint_line
        self.say(fingerprint_line(*s.store.head_hash()))
        self.say(next_line(s.state, s.rs))

    def say(self, text: str) -> None:
        if self.show:
            say(text)


def commands(n: int) -> str:
    return f"{n} command" + ("" if n == 1 else "s")


def transcript_lines(file: Path) -> list[str]:
    """A transcript's lines; a line that is not UTF-8 text is refused with its number."""
    try:
        if not file.is_file():
            raise CommandError(f"no transcript at {file}" if not file.exists() else f"{file} is not a file")
        data = file.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read the transcript {file}: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    for number, line in enumerate(lines, start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            raise CommandError(f"{file}:{number}: the line is not valid UTF-8 text") from None
    return data.decode("utf-8").splitlines()


@implements("import")
def import_(ctx: typer.Context, logfile: Path, transcript: Optional[Path], replace: bool,
            title: Optional[str] = None):
    from ledger.importer.run import free_backup_name, import_log, report
    from ledger.importer.run import transcript as transcript_text
    path = Path(ctx.obj["game"])
    exists = path.exists() or path.is_symlink()
    if exists and not replace:
        raise CommandError(f"{path} already holds a game", "choose another file with --game, or --replace")
    if not logfile.is_file():
        raise CommandError(f"no log file at {logfile}" if not logfile.exists() else f"{logfile} is not a file")
    try:
        text = logfile.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read the log {logfile}: {getattr(exc, 'strerror', None) or exc}") from None
    keep = free_backup_name(path) if exists else None
    record = logfile.suffix.lower() == ".json" or text.lstrip().startswith("{")
    if record:  # the site's JSON record of the game (ledger/importer/record.py)
        from ledger.importer.run import import_record
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise CommandError(f"cannot read the record {logfile}: not JSON ({exc})") from None
        result = import_record(data, path, replace=True, keep=keep)
    else:
        result = import_log(text, path, replace=True, keep=keep, title=title)
    if transcript:
        transcript.write_text(transcript_text(result))
    if keep is not None:
        typer.echo(f"the game that was in {path} is kept as {keep}")
    for line in report(result):
        typer.echo(line)
    if result.differences:
        source = "record" if record else "log"
        typer.echo(f"error: the import differs from the {source} in {len(result.differences)} place(s)", err=True)
        raise typer.Exit(7)


@implements("shell")
def shell(ctx: typer.Context):
    from ledger.interface.shell import Shell
    obj = ctx.ensure_object(dict)
    if obj.get("session") is None and Path(obj["game"]).exists():
        session(ctx)
    code = Shell(typer.main.get_command(app), obj).loop()
    if code:
        raise typer.Exit(code)


@implements("demo")
def demo(ctx: typer.Context, example: Optional[str]):
    from ledger.interface.views import score_text, status_text
    example = example or grammar.example_words(catalog.default_ruleset())["demo"]
    file = example_file(example)
    if ctx.obj["game_given"]:
        path = Path(ctx.obj["game"])
        if path.exists():
            raise CommandError(f"{path} already exists: the demo plays only into a new file",
                               "choose a new --game FILE, or leave it out")
    else:
        path = next(p for p in (Path(f"demo-{n}.db" if n > 1 else "demo.db") for n in range(1, 10_000))
                    if not p.exists())
    ctx.obj["game"] = str(path)
    if not quiet(ctx):
        say(f"Playing {example} into {path}: a line for each round")
    errors = play_file(ctx, file)
    if errors:
        raise typer.Exit(errors)
    s = session(ctx)
    typer.echo(f"Played {example} into {path}\n")
    typer.echo(status_text(s.state, s.rs))
    typer.echo("")
    typer.echo(score_text(s.state, s.rs))


def example_file(name: str) -> Path:
    """A transcript file, or the name of an example shipped with the package; a title's name
    plays its complete game (`bank demo 1801`)."""
    given = Path(name)
    if given.is_file():
        return given
    shipped = examples_folder()
    for candidate in (name, f"{name}.txt", f"{name}-game.txt", f"{name}-full-game.txt"):
        entry = shipped.joinpath(candidate)
        if entry.is_file():
            return Path(str(entry))
    known = sorted(p.name.removesuffix(".txt") for p in shipped.iterdir() if p.name.endswith(".txt"))
    raise CommandError(f"no example or transcript '{name}'", f"examples: {', '.join(known)}")


def examples_folder():
    """The example transcripts: packaged as ledger.examples by an install; in an editable install
    (a checkout) that mapping does not exist and they are read from the checkout's examples/."""
    from importlib import resources
    try:
        return resources.files("ledger.examples")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "examples"


@implements("backup")
def backup(ctx: typer.Context, file: Path):
    s = session(ctx, verify=False)
    try:
        s.backup(file)
    finally:
        s.close()
    typer.echo(f"wrote {file}: {s.head} commands")


check_implementations()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
