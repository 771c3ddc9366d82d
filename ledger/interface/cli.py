"""The `bank` command line: a thin shell that parses a verb, runs it through a Session and prints.

Every failure becomes one line `error: ...` on stderr and a non-zero exit (see `OneLineErrors`).
Transcripts (`bank play FILE`) run each line through this same grammar.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import sqlite3
import sys
from pathlib import Path
from typing import List, Optional

import click
import typer
from typer.core import TyperGroup

from ledger.core.command import Command
from ledger.core.errors import BankError, CommandError, one_line

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
            obj.setdefault("line", command_text(argv))
            result = self.invoke_line(argv, obj, prog_name=prog_name or "bank", **extra)
        except (click.exceptions.Exit, typer.Exit) as exc:
            sys.exit(exc.exit_code)
        except BaseException as exc:  # every failure, expected or not, is one line
            if isinstance(exc, SystemExit) or os.environ.get("BANK_DEBUG") and not isinstance(exc, BankError):
                raise
            message, code = error_message(exc, obj)
            click.echo(f"error: {message}", err=True)
            sys.exit(code)
        if isinstance(result, int) and result:
            sys.exit(result)
        return result

    def invoke_line(self, args, obj=None, prog_name="bank", **extra):
        """Run one command line; errors propagate (used by `play` and the shell)."""
        return click.Group.main(self, args=hoist_game(list(args)), prog_name=prog_name, standalone_mode=False,
                                obj=obj, **extra)


def error_message(exc: BaseException, obj: dict | None) -> tuple[str, int]:
    """The one place an error becomes text: (one line, exit code)."""
    from ledger.books.store import db_error
    if isinstance(exc, (sqlite3.Error, OSError)) and not isinstance(exc, BankError):
        exc = db_error(exc, (obj or {}).get("game"))
    if isinstance(exc, BankError):
        return one_line(in_currency(exc.line(), obj)), exc.exit_code
    if isinstance(exc, click.ClickException):
        return one_line(f"{exc.format_message()} (hint: 'bank --help', 'bank VERB --help')"), exc.exit_code or 2
    if isinstance(exc, click.exceptions.Abort):
        return "aborted", 1
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted: nothing more was recorded", 130
    if isinstance(exc, MemoryError):
        return "out of memory: nothing was recorded", 70
    return one_line(f"internal error ({type(exc).__name__}: {exc}); nothing was recorded "
                    f"(hint: BANK_DEBUG=1 shows where)"), 70


def quiet_resource_signals() -> None:
    """A file-size limit (`ulimit -f`) must fail the write, not kill the process mid-command."""
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def check_text(words: list[str]) -> None:
    """Arguments must be text: bytes that are not UTF-8 would be stored as garbage."""
    for i, word in enumerate(words, start=1):
        try:
            word.encode("utf-8")
        except UnicodeEncodeError:
            raise CommandError(f"argument {i} ({one_line(word)}) is not valid UTF-8 text") from None
        if "\x00" in word:
            raise CommandError(f"argument {i} ({one_line(word)}) holds a NUL character")


def hoist_game(args: list[str]) -> list[str]:
    """`--game FILE` may come before or after the verb: move it to the front, where click reads it."""
    front, rest, i = [], [], 0
    while i < len(args):
        word = args[i]
        if word == "--":
            rest += args[i:]
            break
        if word in ("--game", "-g") and i + 1 < len(args):
            front += [word, args[i + 1]]
            i += 2
            continue
        if word.startswith("--game="):
            front.append(word)
        else:
            rest.append(word)
        i += 1
    return front + rest


app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True,
                  help="bank: the bank and bookkeeper for physical 18xx games.")
# Game verbs take negative numbers as arguments (so `pay NYC -40` gets the rule's error, not
# "no such option -4"); `run` refuses any other word that looks like an option.
VERB = {"ignore_unknown_options": True}


@app.callback()
def main_options(ctx: typer.Context,
                 game: str = typer.Option(None, "--game", "-g", envvar="BANK_GAME",
                                          help="game file (default ./bank.db); before or after the verb")):
    ctx.ensure_object(dict)
    ctx.obj.setdefault("game", game or DEFAULT_GAME)
    ctx.obj.setdefault("game_given", bool(game))


def in_currency(text: str, obj: dict) -> str:
    """An error message in the open game's currency (messages are written with '$')."""
    from ledger.interface.views import localize
    s = (obj or {}).get("session")
    return localize(text, s.rs) if s is not None else text


def session(ctx: typer.Context):
    """The open game, re-read if another process has recorded commands since it was loaded."""
    from ledger.books.session import Session
    obj = ctx.ensure_object(dict)
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


def run(ctx: typer.Context, verb: str, **args) -> None:
    from ledger.interface.views import describe, whose_turn
    refuse_unknown_options(verb, args)
    s = session(ctx)
    args = {k: v for k, v in args.items() if v is not None and v is not False}
    events = s.execute(Command(verb, args), line_of(ctx))
    if quiet(ctx):
        return
    for event in events:
        text = describe(event, s.rs)
        if text:
            typer.echo(text)
    typer.echo(f"Next: {whose_turn(s.state, s.rs)}")


def refuse_unknown_options(verb: str, args: dict) -> None:
    """Verbs accept words starting with '-' so that negative amounts reach the rules; any other
    such word is an option the verb does not have."""
    for value in args.values():
        if isinstance(value, str) and value.startswith("-") and not NEGATIVE.match(value):
            raise CommandError(f"'{verb}' has no option {value}", f"bank {verb} --help")


NEGATIVE = re.compile(r"^-[0-9]+$")


FORCE = typer.Option(False, "--force", help="waive the rules this command breaks (needs --reason)")
REASON = typer.Option(None, "--reason", help="why a rule is waived")


def count_arg(raw: Optional[str]) -> Optional[int]:
    from ledger.core.names import whole_number
    if raw is None:
        return None
    n = whole_number(raw, "the number of shares")
    if n < 1:
        raise CommandError(f"the number of shares must be at least 1, got {n}")
    return n


# --------------------------------------------------------------------------- starting a game

@app.command()
def new(ctx: typer.Context, title: str, players: List[str],
        option: List[str] = typer.Option([], "--option", "-o", help="variant NAME[=VALUE]"),
        rules: Optional[Path] = typer.Option(None, "--rules", help="a table's ruleset override file (TOML)")):
    """Start a game: TITLE then the players in seating order."""
    from ledger.core.ruleset import available_titles
    from ledger.books.session import Session
    from ledger.interface.views import whose_turn
    if title not in available_titles():
        from ledger.core.errors import unknown
        raise unknown("title", title, available_titles())
    options = {}
    for opt in option:
        name, _, value = opt.partition("=")
        options[name] = value or True
    path = ctx.obj["game"]
    s = Session.new(path, title, players, options, override=rules, text=line_of(ctx))
    ctx.obj["session"] = s
    if not quiet(ctx):
        typer.echo(f"New {title} game in {path}: {', '.join(players)}")
        typer.echo(f"Next: {whose_turn(s.state, s.rs)}")


# --------------------------------------------------------------------------- auction and stock round

@app.command(context_settings=VERB)
def bid(ctx: typer.Context, player: str, item: str, amount: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Bid on a private in the auction."""
    run(ctx, "bid", player=player, item=item, amount=amount, force=force, reason=reason)


@app.command(context_settings=VERB)
def buy(ctx: typer.Context, player: str, item: str, count: Optional[str] = typer.Argument(None),
        pool: bool = typer.Option(False, "--pool", help="buy from the pool (open market)"),
        ipo: bool = typer.Option(False, "--ipo", help="buy from the IPO (the default when it has shares)"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Buy the cheapest private in the auction, or N shares of a company in a stock round."""
    if pool and ipo:
        raise CommandError("choose one of --pool and --ipo")
    run(ctx, "buy", player=player, item=item, count=count_arg(count),
        source="pool" if pool else "ipo" if ipo else None, force=force, reason=reason)


@app.command(context_settings=VERB)
def par(ctx: typer.Context, player: str, corp: str, price: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Start a company: the player buys its president's certificate at PRICE."""
    run(ctx, "par", player=player, corp=corp, price=price, force=force, reason=reason)


@app.command(context_settings=VERB)
def sell(ctx: typer.Context, player: str, corp: str, count: Optional[str] = typer.Argument(None),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Sell N shares (default 1) to the pool; in a forced train purchase also a private to the bank (1843)."""
    run(ctx, "sell", player=player, corp=corp, count=count_arg(count), force=force, reason=reason)


@app.command(name="pass", context_settings=VERB)
def pass_(ctx: typer.Context, player: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Pass (auction or stock round), or end a stock-round turn after acting."""
    run(ctx, "pass", player=player, force=force, reason=reason)


@app.command(context_settings=VERB)
def exchange(ctx: typer.Context, player: str, private: str, corp: Optional[str] = typer.Argument(None),
             pool: bool = typer.Option(False, "--pool"), ipo: bool = typer.Option(False, "--ipo"),
             par: Optional[str] = typer.Option(None, "--par", help="par of an unstarted company (1843 VDL)"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Exchange a private for a share (1830: MH for an NYC share; 1843: VDL for any IPO share or a director's half)."""
    run(ctx, "exchange", player=player, private=private, corp=corp, par=par,
        source="pool" if pool else "ipo" if ipo else None, force=force, reason=reason)


# --------------------------------------------------------------------------- operating rounds

@app.command(context_settings=VERB)
def tile(ctx: typer.Context, corp: str, cost: str,
         using: Optional[str] = typer.Option(None, "--using", help="a private's track ability (CS, DH; TB, SG)"),
         hex: Optional[str] = typer.Option(None, "--hex", help="a hex with a fee (1843: paris)"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Lay a tile; COST is the terrain cost paid to the bank (0 if none). Fees the title sets are added."""
    run(ctx, "tile", corp=corp, cost=cost, using=using, hex=hex, force=force, reason=reason)


@app.command(context_settings=VERB)
def token(ctx: typer.Context, corp: str, cost: Optional[str] = typer.Argument(None),
          using: Optional[str] = typer.Option(None, "--using", help="a private's station power (1843: HAV, BA)"),
          move: bool = typer.Option(False, "--move", help="move a station (1843 gray phase)"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Place a station token at the charter's next price."""
    run(ctx, "token", corp=corp, cost=cost, using=using, move=move, force=force, reason=reason)


@app.command(context_settings=VERB)
def port(ctx: typer.Context, corp: str, port: str,
         source: Optional[str] = typer.Option(None, "--from", help="buy it from this company"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Claim a port for the company, or buy one from another company (1843)."""
    run(ctx, "port", corp=corp, port=port, source=source, force=force, reason=reason)


@app.command(context_settings=VERB)
def flip(ctx: typer.Context, corp: str, type: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Turn a double-sided train certificate to its single side to meet the train limit (1843)."""
    run(ctx, "flip", corp=corp, type=type, force=force, reason=reason)


@app.command(context_settings=VERB)
def use(ctx: typer.Context, corp: str, private: str, target: Optional[str] = typer.Argument(None),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """The company uses a private's power on TARGET (1843: VDL's Engineers on a train)."""
    run(ctx, "use", corp=corp, private=private, target=target, force=force, reason=reason)


@app.command(context_settings=VERB)
def pay(ctx: typer.Context, corp: str, revenue: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Run for REVENUE and pay it out to the shareholders."""
    run(ctx, "pay", corp=corp, revenue=revenue, force=force, reason=reason)


@app.command(context_settings=VERB)
def withhold(ctx: typer.Context, corp: str, revenue: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Run for REVENUE and keep it in the treasury."""
    run(ctx, "withhold", corp=corp, revenue=revenue, force=force, reason=reason)


@app.command(context_settings=VERB)
def train(ctx: typer.Context, corp: str, type: str,
          source: Optional[str] = typer.Option(None, "--from", help="pool, or the selling company"),
          price: Optional[str] = typer.Option(None, "--price", help="agreed price from another company"),
          trade_in: Optional[str] = typer.Option(None, "--trade-in", help="train traded in (1830: D for $800)"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Buy a train from the bank, the pool or another company."""
    run(ctx, "train", corp=corp, type=type, source=source, price=price, trade_in=trade_in, force=force, reason=reason)


@app.command(context_settings=VERB)
def discard(ctx: typer.Context, corp: str, type: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """Discard a train over the train limit to the pool."""
    run(ctx, "discard", corp=corp, type=type, force=force, reason=reason)


@app.command(name="buy-private", context_settings=VERB)
def buy_private(ctx: typer.Context, corp: str, private: str, price: str,
                as_train: bool = typer.Option(False, "--as-train", help="1843: Val de Loire becomes a 2 train"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """The operating company buys a private from its owner."""
    run(ctx, "buy-private", corp=corp, private=private, price=price, as_train=as_train, force=force, reason=reason)


@app.command(context_settings=VERB)
def done(ctx: typer.Context, corp: str,
         no_route: bool = typer.Option(False, "--no-route", help="the company has no route, so need not buy a train"),
        force: bool = FORCE, reason: Optional[str] = REASON):
    """The company ends its turn."""
    run(ctx, "done", corp=corp, no_route=no_route, force=force, reason=reason)


@app.command(context_settings=VERB)
def bankrupt(ctx: typer.Context, player: str,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """The president cannot pay for the forced train: bankruptcy ends the game."""
    run(ctx, "bankrupt", player=player, force=force, reason=reason)


@app.command(context_settings=VERB)
def end(ctx: typer.Context,
        force: bool = FORCE, reason: Optional[str] = REASON):
    """The players end the game now."""
    run(ctx, "end", force=force, reason=reason)


@app.command(context_settings=VERB)
def adjust(ctx: typer.Context, source: str, dest: str, amount: str,
           reason: Optional[str] = typer.Option(None, "--reason", help="why (required)")):
    """Move money between two accounts (bank, a player, a company) as a logged correction."""
    run(ctx, "adjust", source=source, dest=dest, amount=amount, reason=reason)


@app.command(context_settings=VERB)
def count(ctx: typer.Context, player: str, amount: str):
    """Record a physical count of a player's money and show the difference from the ledger."""
    run(ctx, "count", player=player, amount=amount)


# --------------------------------------------------------------------------- undo / redo

@app.command()
def undo(ctx: typer.Context):
    """Hide the last command's effects (nothing is deleted)."""
    from ledger.interface.views import whose_turn
    s = session(ctx)
    row = s.undo(line_of(ctx))
    if not quiet(ctx):
        typer.echo(f"undone: {row['text']}")
        typer.echo(f"Next: {whose_turn(s.state, s.rs)}")


@app.command()
def redo(ctx: typer.Context):
    """Restore the command undone last."""
    from ledger.interface.views import whose_turn
    s = session(ctx)
    row = s.redo(line_of(ctx))
    if not quiet(ctx):
        typer.echo(f"redone: {row['text']}")
        typer.echo(f"Next: {whose_turn(s.state, s.rs)}")


# --------------------------------------------------------------------------- views

@app.command()
def status(ctx: typer.Context, as_json: bool = typer.Option(False, "--json")):
    """The board: round, bank, players, companies, what is for sale, whose turn."""
    from ledger.interface.views import status_json, status_text
    s = session(ctx)
    typer.echo(json.dumps(status_json(s.state, s.rs), indent=1) if as_json else status_text(s.state, s.rs))


@app.command()
def market(ctx: typer.Context):
    """The stock market with each company's marker, and the operating order."""
    from ledger.interface.views import market_text
    s = session(ctx)
    typer.echo(market_text(s.state, s.rs))


@app.command()
def score(ctx: typer.Context, as_json: bool = typer.Option(False, "--json")):
    """Net worth: cash, shares at market, privates at face."""
    from ledger.interface.views import score_json, score_text
    s = session(ctx)
    typer.echo(json.dumps(score_json(s.state, s.rs), indent=1) if as_json else score_text(s.state, s.rs))


@app.command()
def log(ctx: typer.Context, as_json: bool = typer.Option(False, "--json"),
        player: Optional[str] = typer.Option(None, "--player", "-p", help="only commands involving this player"),
        company: Optional[str] = typer.Option(None, "--company", "-c", help="only commands involving this company"),
        round_: Optional[str] = typer.Option(None, "--round", "-r", help="only this round, e.g. 'SR 3', 'OR 2' or 'OR 2.1'"),
        all_: bool = typer.Option(False, "--all", help="include undone commands")):
    """Every command with its round, actor and the money it moved."""
    from ledger.core import names
    from ledger.books.history import matches, walk
    from ledger.interface.views import describe
    s = session(ctx)
    who = names.player(s.state, player) if player else None
    corp = names.corp(s.rs, company) if company else None
    entries = [e for e in walk(s)[0]
               if (all_ or (e.status == "active" and e.verb not in ("undo", "redo"))) and matches(e, who, corp, round_)]
    if as_json:
        typer.echo(json.dumps([{**e.json(), "lines": [t for t in (describe(ev, s.rs) for ev in e.events) if t]} for e in entries],
                              indent=1))
        return
    for e in entries:
        mark = "" if e.status == "active" else f" [{e.status}]"
        money = s.rs.money(e.money) if e.money else ""
        typer.echo(f"{e.id:>4}  {e.round:<8} {money:>7}  {e.text}{mark}")
        for line in filter(None, (describe(ev, s.rs) for ev in e.events)):
            typer.echo(f"{'':>22}{line}")


@app.command()
def explain(ctx: typer.Context, number: str):
    """How command N's money was computed (payouts per holder, rounding, the stock move)."""
    from ledger.interface.explain import explain as explain_lines
    from ledger.core.names import whole_number
    from ledger.interface.views import localize
    s = session(ctx)
    for line in explain_lines(s, whole_number(number, "the command number")):
        typer.echo(localize(line, s.rs))


@app.command()
def audit(ctx: typer.Context):
    """Re-derive every balance and recompute every payout and sale; non-zero exit on a problem."""
    from ledger.books.audit import audit as run_audit
    problems, notes = run_audit(session(ctx))
    for note in notes:
        typer.echo(f"note: {note}")
    for problem in problems:
        typer.echo(f"PROBLEM: {problem}")
    if problems:
        typer.echo(f"error: audit found {len(problems)} problem(s)", err=True)
        raise typer.Exit(8)
    typer.echo("audit: ledger, replay and rules agree")


@app.command()
def export(ctx: typer.Context, csv_dir: Optional[Path] = typer.Option(None, "--csv", help="folder for CSV files"),
           json_file: Optional[Path] = typer.Option(None, "--json", help="one JSON file")):
    """Export commands, events, postings and per-round balances and holdings."""
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


@app.command()
def chart(ctx: typer.Context, what: str = typer.Argument(..., help="worth or prices"),
          out: Optional[Path] = typer.Option(None, "--out", help="write a PNG instead (needs matplotlib)")):
    """Each player's net worth, or each company's share price, after every round."""
    from ledger.interface.charts import data, png, terminal
    from ledger.books.history import series
    if what not in ("worth", "prices"):
        from ledger.core.errors import unknown
        raise unknown("chart", what, ["worth", "prices"])
    labels, lines = data(series(session(ctx)), what)
    title = "Net worth after each round" if what == "worth" else "Share prices after each round"
    if out:
        png(labels, lines, out, title)
        typer.echo(f"wrote {out}")
    else:
        typer.echo(terminal(labels, lines, title=title))


@app.command()
def info(title: str = typer.Argument("1830")):
    """Show a title's ruleset: players, privates, companies, trains, phases, options."""
    from ledger.interface.info import info_text
    from ledger.core.ruleset import load
    typer.echo(info_text(load(title)))


# --------------------------------------------------------------------------- transcripts

@app.command()
def play(ctx: typer.Context, file: Path, show: bool = typer.Option(False, "--show", help="print each command's result")):
    """Run a transcript: one command a line, '#' comments; a 'new' line creates the game."""
    errors = play_file(ctx, file, verbose=show)
    if errors:
        raise typer.Exit(errors)


def play_file(ctx: typer.Context, file: Path, verbose: bool = False) -> int:
    """Run a transcript's lines; stop at the first refused one, reporting its number. Returns the
    exit code (0 when every line ran)."""
    obj = ctx.ensure_object(dict)
    group = typer.main.get_command(app)
    for number, raw in enumerate(transcript_lines(file), start=1):
        text = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not text:
            continue
        sub = {"game": obj["game"], "session": obj.get("session"), "quiet": not verbose, "line": text}
        code = run_text(group, text, sub, where=f"{file}:{number}: {text}: ")
        obj["session"] = sub.get("session")
        if code:
            return code
    return 0


def run_text(group, text: str, obj: dict, where: str = "") -> int:
    """One line of a transcript or the shell, with the CLI's grammar; a failure is one stderr line
    (prefixed with `where`). Returns the exit code."""
    try:
        tokens = shlex.split(text)
        if tokens and tokens[0] == "bank":
            tokens = tokens[1:]
        check_text(tokens)
        group.invoke_line(tokens, obj=obj)
    except (click.exceptions.Exit, typer.Exit) as exc:
        return exc.exit_code
    except Exception as exc:
        if os.environ.get("BANK_DEBUG") and not isinstance(exc, BankError):
            raise
        if isinstance(exc, ValueError) and not isinstance(exc, BankError):
            exc = CommandError(f"cannot read the line: {exc}")  # shlex: an unclosed quote
        message, code = error_message(exc, obj)
        typer.echo(f"error: {one_line(where)}{message}", err=True)
        return code
    return 0


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


@app.command(name="import")
def import_(ctx: typer.Context, logfile: Path,
            transcript: Optional[Path] = typer.Option(None, "--transcript", help="also write the commands here"),
            replace: bool = typer.Option(False, "--replace", help="overwrite an existing game file")):
    """Import an 18xx.games 1830 log: replay its decisions and audit every figure it states."""
    from ledger.importer.run import import_log, report, transcript as transcript_text
    path = Path(ctx.obj["game"])
    if path.exists() and not replace:
        raise CommandError(f"{path} already holds a game", "choose another file with --game, or --replace")
    if not logfile.exists():
        raise CommandError(f"no log file at {logfile}")
    result = import_log(logfile.read_text(), path)
    if transcript:
        transcript.write_text(transcript_text(result))
    for line in report(result):
        typer.echo(line)
    if result.differences:
        typer.echo(f"error: the import differs from the log in {len(result.differences)} place(s)", err=True)
        raise typer.Exit(7)


@app.command()
def shell(ctx: typer.Context):
    """An interactive session on the game: prompt, Tab completion, history, help VERB."""
    from ledger.interface.shell import Shell
    obj = ctx.ensure_object(dict)
    if obj.get("session") is None and Path(obj["game"]).exists():
        session(ctx)
    code = Shell(typer.main.get_command(app), obj).loop()
    if code:
        raise typer.Exit(code)


@app.command()
def demo(ctx: typer.Context, example: str = typer.Argument("1830-full-game",
                                                          help="a shipped example (see examples/) or a transcript file")):
    """Play an example game through the CLI and SQLite into a new file, then print the board and
    the scores. It never replaces a file: without --game it picks demo.db, demo-2.db, ..."""
    from ledger.interface.views import score_text, status_text
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
    errors = play_file(ctx, file)
    if errors:
        raise typer.Exit(errors)
    s = session(ctx)
    typer.echo(f"Played {example} into {path}\n")
    typer.echo(status_text(s.state, s.rs))
    typer.echo("")
    typer.echo(score_text(s.state, s.rs))


def example_file(name: str) -> Path:
    """A transcript file, or the name of an example shipped with the package."""
    given = Path(name)
    if given.is_file():
        return given
    shipped = examples_folder()
    for candidate in (name, f"{name}.txt"):
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


@app.command()
def backup(ctx: typer.Context, file: Path):
    """Write a consistent copy of the game to a new FILE, even while a shell has it open."""
    s = session(ctx)
    s.backup(file)
    typer.echo(f"wrote {file}: {s.head} commands")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
