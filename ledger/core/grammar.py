"""The command grammar, declared once: every verb the banker types, as data.

A `Verb` names its positional arguments (`Arg`: name, kind, optional?) and its options (`Opt`: a
flag, the argument it sets, a constant for a switch or the kind of value it takes), its help, an
EXAMPLE line and its group in `bank help`. The argument's KIND says how a typed word becomes the
value the rules read (`resolve`, once, before the engine dispatches); what Tab offers for it is the
rule's answer (ledger.core.legal). The CLI builds its typer commands from these declarations, the
shell its help, and the tests their parser; a title's own module adds its verbs and options in the
same format (`TitleGrammar`, as `GRAMMAR` in rulesets/<title>/title.py).

Game verbs are the ones `engine.decide` plays; record verbs (`new` and the corrections) are the
books' to play on the commands. The interface declares its own verbs (views, files, tools) in
ledger.interface.verbs and merges them. Pure: no I/O; the title modules are imported only when asked for.
"""

from __future__ import annotations

import keyword
import re
import shlex
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ledger.core import names
from ledger.core.command import Command
from ledger.core.errors import BankError, CommandError, unknown

# --------------------------------------------------------------------------- the declaration format


@dataclass(frozen=True)
class Arg:
    """A positional argument: `name` is its key in the Command (and the CLI's metavar)."""
    name: str
    kind: str = "text"
    optional: bool = False
    many: bool = False          # takes every remaining word (`new TITLE PLAYER...`)
    default: Any = None         # an optional argument's value when left out
    help: str = ""              # what the kind's description does not say
    choices: tuple = ()         # the words a `choice` argument accepts


@dataclass(frozen=True)
class Opt:
    """An option: `--flag VALUE` of a kind, or a switch (`value` is the constant it sets)."""
    flag: str
    name: str                   # the Command key it sets (several switches may set one key)
    value: Any = None           # a switch's constant (True, "pool"); None: the option takes a value
    kind: str = "text"
    help: str = ""
    short: str = ""
    many: bool = False          # may be repeated (`--option A --option B`)
    choices: tuple = ()
    needs: str = ""             # a kind of company the title must have (KIND_FEATURES), else no such option

    @property
    def switch(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class Verb:
    name: str
    group: str                  # a GROUPS key: where `bank help` lists it
    help: str
    example: str                # a real line a banker would type, starting with `bank`
    args: tuple = ()
    options: tuple = ()
    game: bool = True           # played by engine.decide (else run by the command line)
    waive: bool = True          # takes --force/--reason (a game verb whose rules may be waived)
    needs: str = ""             # a kind of company the title must have (KIND_FEATURES), else it has no such verb
    label: str = ""             # the action in a few words of the table's, for a page ("Buy a train")

    @property
    def title(self) -> str:
        """Its label, or its help's first words."""
        if self.label:
            return self.label
        first = re.split(r"[:.(]", self.help, maxsplit=1)[0].strip()
        return first if len(first) <= 40 else " ".join(first.split()[:5])

    def all_options(self) -> tuple:
        """Its options, the waiver last (so a Command's keys read as the line does)."""
        return self.options + (WAIVE if self.game and self.waive else ())

    def option(self, flag: str) -> Opt | None:
        return next((o for o in self.all_options() if flag in (o.flag, o.short)), None)

    def param(self, item) -> str:
        """The Python name of an argument or option in the CLI's signature: the Command key where
        that is unique and a valid name, else one from the flag (`--pool`, `--ipo` both set source)."""
        if isinstance(item, Arg):
            return item.name
        known = self.__dict__.setdefault("_params", {})   # asked for every command built: read once
        found = known.get((item.flag, item.name))
        if found is None:
            shared = sum(o.name == item.name for o in self.all_options()) > 1
            name = item.name if not shared else item.flag.lstrip("-").replace("-", "_")
            found = known[(item.flag, item.name)] = name + "_" if keyword.iskeyword(name) else name
        return found

    def usage(self) -> str:
        words = [a.name.upper() + ("..." if a.many else "") for a in self.args]
        words = [f"[{w}]" if a.optional else w for a, w in zip(self.args, words)]
        return " ".join(["bank", self.name, *words])


@dataclass(frozen=True)
class TitleGrammar:
    """What a title's module adds: its own verbs, options of shared verbs (verb -> Opts), and its
    own kinds of argument (kind -> Kind, e.g. 1843's ports)."""
    verbs: tuple = ()
    options: dict = field(default_factory=dict)
    kinds: dict = field(default_factory=dict)


FORCE = Opt("--force", "force", True, help="waive the rules this command breaks (needs --reason)")
REASON = Opt("--reason", "reason", help="why a rule is waived")
WAIVE = (FORCE, REASON)

GROUPS = {
    "auction": "Auction",
    "stock": "Stock round",
    "operating": "Operating round",
    "decisions": "Decisions the rules ask for",
    "corrections": "Corrections and the end of the game",
    "views": "Views",
    "files": "Files and tools",
}

# --------------------------------------------------------------------------- kinds of argument


@dataclass(frozen=True)
class Kind:
    """What an argument names. `resolve(state, rs, typed)` returns the canonical value the rules
    accept (or raises a BankError); `parse(typed)` converts at the command line, before any game is
    read; `path`: the CLI reads it as a file path. What Tab offers for a word is the rule's answer
    (ledger.core.legal), not the kind's."""
    describe: str
    resolve: Callable | None = None
    parse: Callable | None = None
    path: bool = False


def player_name(state, rs, raw) -> str:
    return names.player(state, raw)


def company_symbol(state, rs, raw) -> str:
    """A company's symbol, unless the word also names a private: `sell` reads its object as a
    private first in an operating round, so such a word is left for the rule to read."""
    sym = names.corp(rs, raw)
    return sym if names.item(rs, raw) == ("corp", sym) else raw


def private_symbol(state, rs, raw) -> str:
    return names.private(rs, raw)


def item_symbol(state, rs, raw) -> str:
    return names.item(rs, raw)[1]


def account_name(state, rs, raw) -> str:
    """As the corrections read an account: bank, then a player, then a company."""
    if str(raw).lower() == "bank":
        return "bank"
    try:
        return names.player(state, raw)
    except CommandError:
        return company_symbol(state, rs, raw)


SUPPLY_WORDS = ("depot", "bank", "supply", "pool")
DEPOT_WORDS = tuple(w for w in SUPPLY_WORDS if w != "pool")   # the bank's own trains, not the pool's


def seller_name(state, rs, raw) -> str:
    """Where a train comes from: the supply or the pool (read by the rule as typed), or a company."""
    return raw if str(raw).lower() in SUPPLY_WORDS else company_symbol(state, rs, raw)


def side_name(state, rs, raw) -> str:
    """A train type, or the printed side of a certificate (1843 '3/5x2')."""
    name, side = names.side(rs, raw)
    return side or name


def train_name(state, rs, raw) -> str:
    return names.train(rs, raw)


def amount_value(state, rs, raw) -> int:
    return names.amount(raw)


def share_count(raw) -> int:
    n = names.whole_number(raw, "the number of shares")
    if n < 1:
        raise CommandError(f"the number of shares must be at least 1, got {n}")
    return n


def point_count(raw) -> int:
    n = names.whole_number(raw, "the tile points")
    if n < 1:
        raise CommandError(f"a tile costs at least 1 point, got {n}")
    return n


KINDS: dict[str, Kind] = {
    "player": Kind("a player's name (a unique prefix will do)", player_name),
    "company": Kind("a company's symbol or alias", company_symbol),
    "private": Kind("a private's symbol", private_symbol),
    "item": Kind("a private or a company", item_symbol),
    "account": Kind("bank, a player or a company", account_name),
    "seller": Kind("pool, or the selling company", seller_name),
    "side": Kind("a train type, or the side printed on a certificate", side_name),
    "train": Kind("a train type", train_name),
    "amount": Kind("an amount of money", amount_value),
    # an amount the rule compares with its own figure and quotes back as typed when they differ
    "quoted amount": Kind("an amount of money (checked against the rules' figure)"),
    "count": Kind("how many shares (default 1)", parse=share_count),
    "points": Kind("tile points (yellow 1, later colours 2, as the title prices them)", parse=point_count),
    "hex": Kind("a hex's name"),
    "text": Kind(""),
    "title": Kind("a title"),   # the titles on this machine: ledger.catalog lists them
    "choice": Kind("one of the words listed"),
    "verb": Kind("a command"),
    "number": Kind("a command's number (bank log shows them)"),
    "line": Kind("a command line, quoted as one argument"),
    "file": Kind("a file", path=True),
    "folder": Kind("a folder", path=True),
    "example": Kind("a shipped example (see examples/) or a transcript file"),
}


# --------------------------------------------------------------------------- the shared verbs


def game(name, group, help, example, args=(), options=(), waive=True, needs="", label="") -> Verb:
    return Verb(name, group, help, example, tuple(args), tuple(options), game=True, waive=waive, needs=needs,
                label=label)


def record(name, group, help, example, args=(), options=()) -> Verb:
    """A verb of the record itself, not of the game's rules: the game's first command (`new`) and
    the corrections (undo, redo, insert, amend, restore), which the books play on the commands.
    The interface's own verbs (views, files, tools) are the interface's (ledger.interface.verbs)."""
    return Verb(name, group, help, example, tuple(args), tuple(options), game=False, waive=False)


PLAYER = Arg("player", "player")
# fee modifiers the table announces (core/fees.py): NAME, or NAME=COUNT for a per-unit charge
WITH = Opt("--with", "modifiers", help="fee modifiers the title declares: NAME or NAME=COUNT, "
           "comma-separated (e.g. zone,sea=2)")
CORP = Arg("corp", "company")

SHARED = (
    # ---- auction
    game("bid", "auction", "Bid on a private in the auction.", "bank bid Alice {private} {bid}",
         [PLAYER, Arg("item", "private"), Arg("amount", "amount")], label="Bid"),
    game("pass", "auction", "Pass (auction or stock round), or end a stock-round turn after acting.",
         "bank pass Carol", [PLAYER], label="Pass"),
    # ---- stock round
    game("par", "stock", "Start a company: the player buys its president's certificate at PRICE.",
         "bank par Dave {corp} {par}", [PLAYER, CORP, Arg("price", "amount")], label="Start a company"),
    game("buy", "stock", "Buy the cheapest private in the auction, or N shares of a company in a stock round.",
         "bank buy Alice {corp}", [PLAYER, Arg("item", "item"), Arg("count", "count", optional=True)],
         [Opt("--pool", "source", "pool", help="buy from the pool (open market)"),
          Opt("--ipo", "source", "ipo", help="buy from the IPO (the default when it has shares)"),
          Opt("--percent", "percent", kind="count", help="a certificate of this size, where a company has "
              "several sizes")], label="Buy"),
    game("sell", "stock", "Sell N shares (default 1) to the pool; in a forced train purchase also a private "
         "to the bank, where the title allows it.", "bank sell Bob {corp2} 2",
         [PLAYER, Arg("corp", "company"), Arg("count", "count", optional=True)], label="Sell"),
    game("exchange", "stock", "Exchange a private for a share, as its power allows (bank info lists the privates' "
         "powers).", "bank exchange Alice {exchange}",
         [PLAYER, Arg("private", "private"), Arg("corp", "company", optional=True)],
         [Opt("--pool", "source", "pool", help="the share from the pool"),
          Opt("--ipo", "source", "ipo", help="the share from the IPO")], label="Exchange a private"),
    # ---- operating round
    game("tile", "operating", "Lay a tile; COST is the terrain cost paid to the bank (0 if none). Fees the "
         "title sets are added.", "bank tile {corp} 120", [CORP, Arg("cost", "amount")],
         [Opt("--using", "using", kind="private", help="a private whose power lays this tile"),
          Opt("--points", "points", kind="points", needs="tile_points",
              help="the tile points this lay costs, where the company's kind counts them (default 1)"),
          WITH], label="Lay track"),
    game("token", "operating", "Place a station token at the charter's next price (or, where the title "
         "prices a station from its location, COST is the location's value).", "bank token {corp}",
         [CORP, Arg("cost", "quoted amount", optional=True)],
         [Opt("--city", "city", help="the hex or city the marker goes to, as printed"),
          Opt("--slot", "slot", help="the charter slot it comes from, 1 the first printed (default: the next)"),
          WITH], label="Place a station"),
    game("pay", "operating", "Run for REVENUE and pay it out to the shareholders.", "bank pay {corp} 140",
         [CORP, Arg("revenue", "amount")], label="Pay out"),
    game("withhold", "operating", "Run for REVENUE and keep it in the treasury.", "bank withhold {corp} 140",
         [CORP, Arg("revenue", "amount")], label="Withhold"),
    game("half", "operating", "Run for REVENUE and pay half of it out, the company keeping the other half "
         "(titles whose companies may half-pay).", "bank half {corp} 140", [CORP, Arg("revenue", "amount")],
         needs="half", label="Pay half"),
    game("issue", "operating", "The company sells N of its treasury shares to the pool at the market price "
         "(titles with treasury shares).", "bank issue {corp} 2", [CORP, Arg("count", "count", optional=True)],
         needs="issues", label="Issue shares"),
    game("redeem", "operating", "The company buys N of its shares back from the pool into its treasury.",
         "bank redeem {corp} 1", [CORP, Arg("count", "count", optional=True)], needs="issues", label="Buy back shares"),
    game("train", "operating", "Buy a train from the bank, the pool or another company.", "bank train {corp} {train}",
         [CORP, Arg("type", "side")],
         [Opt("--from", "source", kind="seller", help="pool, or the selling company"),
          Opt("--price", "price", kind="quoted amount", help="agreed price from another company"),
          Opt("--trade-in", "trade_in", kind="train", help="a train traded in, where the title allows it")], label="Buy a train"),
    game("discard", "operating", "Discard a train over the train limit to the pool.", "bank discard {corp} {train}",
         [CORP, Arg("type", "side")], label="Discard a train"),
    game("buy-private", "operating", "The operating company buys a private from its owner.",
         "bank buy-private {corp} {private} 150", [CORP, Arg("private", "private"), Arg("price", "amount")], label="Buy a private"),
    game("done", "operating", "The company ends its turn.", "bank done {corp}", [CORP],
         [Opt("--no-route", "no_route", True, help="the company has no route, so need not buy a train")], label="End the turn"),
    game("bankrupt", "operating", "The president cannot pay for the forced train: bankruptcy ends the game.",
         "bank bankrupt Alice", [PLAYER], label="Go bankrupt"),
    # ---- decisions
    game("choose", "decisions", "Answer a choice the rules ask a player for (the Next line names it).",
         "bank choose Alice cash", [PLAYER, Arg("option", "text")], label="Choose"),
    # ---- corrections and the end
    game("adjust", "corrections", "Move money between two accounts (bank, a player, a company) as a logged "
         "correction.", 'bank adjust bank Alice 10 --reason "paid short for a tile"',
         [Arg("source", "account"), Arg("dest", "account"), Arg("amount", "amount")],
         [Opt("--reason", "reason", help="why (required)")], waive=False, label="Correct money"),
    game("count", "corrections", "Record a physical count of a player's money and show the difference from "
         "the ledger.", "bank count Alice 455", [PLAYER, Arg("amount", "amount")], waive=False, label="Count cash"),
    game("end", "corrections", "The players end the game now.", "bank end", label="End the game"),
    record("undo", "corrections", "Hide the last command's effects, or with --to N every command after "
              "command N, in one step (nothing is deleted; redo brings them back). Right after an insert, undo "
              "takes the whole insert back.", "bank undo",
              options=[Opt("--to", "to", kind="number", help="hide every command after this one (bank log shows "
                           "the numbers)"),
                       Opt("--yes", "yes", True, help="confirm an undo --to that hides more than five commands")]),
    record("redo", "corrections", "Restore what the last undo hid (one command, every command of an undo "
              "--to, or an insert).", "bank redo"),
    record("insert", "corrections", "Record a command the table forgot, as if typed just before command N: "
              "every later command is decided again on the new game, and the insert is refused, naming the "
              "first later command that would no longer hold, if the past does not allow it.",
              'bank insert --before 117 "tile {corp} 120"',
              [Arg("command", "line", many=True, help="the forgotten command, quoted as one argument")],
              [Opt("--before", "before", kind="number", help="the command it comes before (bank log shows the "
                   "numbers)")]),
    record("amend", "corrections", "Replace command N by a corrected one (a wrong amount typed in the past): "
              "every later command is decided again, and the money that moved as a result is shown; refused, "
              "naming the first later command that would no longer hold, if the past does not allow it. The old "
              "command stays in the ledger.", 'bank amend 117 "pay {corp} 50"',
              [Arg("number", "number"),
               Arg("command", "line", many=True, help="the corrected command, quoted as one argument")]),
    record("restore", "corrections", "Re-apply hidden commands after the current end (bank log --hidden "
              "lists them): command N and the commands hidden with it from it on, or N to M; each is decided "
              "again, and the restore is refused, naming the first that no longer holds.", "bank restore 103",
              [Arg("number", "number")],
              [Opt("--to", "to", kind="number", help="the last hidden command to re-apply")]),
    record("new", "files", "Start a game: TITLE then the players in seating order.",
              "bank new {title} Alice Bob Carol Dave",
              [Arg("title", "title"), Arg("players", "text", many=True, help="the players in seating order")],
              [Opt("--option", "option", short="-o", many=True, help="variant NAME[=VALUE]"),
               Opt("--rules", "rules", kind="file", help="a table's ruleset override file (TOML)")]),
)

# --------------------------------------------------------------------------- the grammar of a title


def grammar_of(rs) -> TitleGrammar:
    """What a title's features declare as their GRAMMAR, as one (ledger.core.parts)."""
    verbs, options, kinds = [], {}, {}
    for g in rs.parts.grammars:
        verbs += list(g.verbs)
        for verb, opts in g.options.items():
            have = {o.flag for o in options.get(verb, ())}
            options[verb] = tuple(options.get(verb, ())) + tuple(o for o in opts if o.flag not in have)
        kinds.update(g.kinds)
    return TitleGrammar(verbs=tuple(verbs), options=options, kinds=kinds)


def merged(extras: list[TitleGrammar]) -> dict[str, Verb]:
    """The shared verbs with the titles' verbs and options added (an option is added once)."""
    verbs = {v.name: v for v in SHARED}
    for extra in extras:
        for verb in extra.verbs:
            verbs[verb.name] = both_titles(verbs[verb.name], verb) if verb.name in verbs else verb
        for name, options in extra.options.items():
            have = {o.flag for o in verbs[name].options}
            added = tuple(o for o in options if o.flag not in have)
            verbs[name] = replace(verbs[name], options=verbs[name].options + added)
    return verbs


def both_titles(first: Verb, other: Verb) -> Verb:
    """One verb two titles declare (each its own power, read with the same arguments): outside a
    game its help tells both. Their arguments must agree, or a line read before its game is open
    would be read wrongly for one of them."""
    def reading(verb):
        return [(a.name, a.kind, a.optional, a.many) for a in verb.args]
    if reading(first) != reading(other):
        raise ValueError(f"two titles declare '{first.name}' with different arguments")
    if other.help in first.help:
        return first
    return replace(first, help=f"{first.help} {other.help}")


# What a verb's `needs` asks of a title's company kinds.
KIND_FEATURES = {"half": lambda k: "half" in k.dividends, "issues": lambda k: k.issues,
                 "tile_points": lambda k: k.tile_points > 0}
# ... and how a refusal says a title lacks it: "none of its kinds of company <...>"
KIND_FEATURE_WORDS = {"half": "pays half", "issues": "issues shares", "tile_points": "counts tile points"}


_VERBS: dict[tuple, dict] = {}
_KINDS: dict[tuple, dict] = {}


def verbs_of(rs) -> dict[str, Verb]:
    """Every verb a game of this title understands, with the options it supports (a verb only
    some kinds of company use is there when the title has such a kind)."""
    key = (rs.title, rs.digest, rs.parts.name)
    if key not in _VERBS:
        kinds = rs.kinds.values()

        def has(needs: str) -> bool:
            return not needs or any(KIND_FEATURES[needs](k) for k in kinds)
        _VERBS[key] = {name: replace(verb, options=tuple(o for o in verb.options if has(o.needs)))
                       for name, verb in merged([grammar_of(rs)]).items() if has(verb.needs)}
    return _VERBS[key]


def kinds_of(rs) -> dict[str, Kind]:
    key = (rs.title, rs.digest, rs.parts.name)
    if key not in _KINDS:
        _KINDS[key] = KINDS | grammar_of(rs).kinds
    return _KINDS[key]


def in_groups(verbs: dict[str, Verb]) -> list[tuple[str, list[Verb]]]:
    """(group title, its verbs in declaration order), groups in GROUPS order."""
    return [(title, [v for v in verbs.values() if v.group == key]) for key, title in GROUPS.items()]


def help_text(verb: Verb, rs=None) -> str:
    return f"{verb.help}\n\nExample: {example_of(verb, rs)}"


class _Words(dict):
    def __missing__(self, key):   # a word the data cannot fill stays as the placeholder's name
        return key.upper()


def example_of(verb: Verb, rs=None) -> str:
    """A verb's example in the words of a title (its companies, privates, par prices, trains): the
    open game's, or outside a game the one the interface chooses; the shared declarations name no
    title's symbols. Without a title the placeholders read as their names (CORP, PRIVATE ...)."""
    return verb.example.format_map(example_words(rs))


def example_words(rs) -> dict:
    words = _Words()
    if rs is None:
        return words
    corps = [c.sym for c in rs.corporations]
    privs = [p for p in rs.privates]
    pars = list(rs.k("company", "par_prices") or ())
    exchange = next((p.sym for p in privs if p.ability("exchange_for") or p.ability("exchange_any")), None)
    words.update(title=rs.title, demo=f"{rs.title}-full-game")
    if corps:
        words.update(corp=corps[0], corp2=corps[min(1, len(corps) - 1)])
    if privs:
        words.update(private=privs[0].sym, bid=privs[0].face + 5, exchange=exchange or privs[0].sym)
    if pars:
        words.update(par=pars[len(pars) // 2])
    if rs.trains:
        words.update(train=rs.trains[0].sides[0].name if rs.trains[0].sides else rs.trains[0].name)
    return words

# --------------------------------------------------------------------------- typed words -> Command


NEGATIVE = re.compile(r"^-[0-9]+$")


def build(verb: Verb, values: dict) -> Command:
    """The Command for a game verb from its parameters' values (keyed by `verb.param`): switches
    become their constants, counts ints; a word that looks like an option it does not have is
    refused; arguments left out (None, False) are dropped. The CLI and the tests' parser both end here."""
    check_switches(verb, values)
    args: dict = {}
    for arg in verb.args:
        value = values.get(arg.name)
        convert = KINDS[arg.kind].parse if arg.kind in KINDS else None   # a title's kinds are only resolved
        args[arg.name] = convert(value) if convert and value is not None else value
    for opt in verb.all_options():
        value = values.get(verb.param(opt))
        if opt.switch:
            value = opt.value if value else None
        elif value is not None and not opt.many and opt.kind in KINDS and KINDS[opt.kind].parse:
            value = KINDS[opt.kind].parse(value)
        if value is not None or opt.name not in args:
            args[opt.name] = value
    refuse_unknown_options(verb.name, args)
    missing = [a.name.upper() for a in verb.args if not a.optional and not a.many and args.get(a.name) is None]
    if missing:
        raise CommandError(f"{verb.name} needs {' and '.join(missing)}", f"bank help {verb.name}")
    return Command(verb.name, {k: v for k, v in args.items() if v is not None and v is not False})


def check_switches(verb: Verb, values: dict) -> None:
    """Switches that set the same argument exclude each other (--pool, --ipo)."""
    for group in switch_groups(verb):
        rivals = [flag for flag, param in group if values.get(param)]
        if len(rivals) > 1:
            raise CommandError(f"choose one of {' and '.join(rivals)}")


def switch_groups(verb: Verb) -> list[list[tuple[str, str]]]:
    """The verb's switches that set one argument, as (flag, parameter) groups of two or more: read
    once per verb (every command the answer of what is legal decides is built)."""
    found = verb.__dict__.get("_switch_groups")
    if found is None:
        by_name: dict[str, list] = {}
        for o in verb.all_options():
            if o.switch:
                by_name.setdefault(o.name, []).append((o.flag, verb.param(o)))
        found = verb.__dict__["_switch_groups"] = [g for g in by_name.values() if len(g) > 1]
    return found


def refuse_unknown_options(verb: str, args: dict) -> None:
    """Game verbs accept words starting with '-' so that negative amounts reach the rules; any other
    such word is an option the verb does not have."""
    for value in args.values():
        if isinstance(value, str) and value.startswith("-") and not NEGATIVE.match(value):
            raise CommandError(f"'{verb}' has no option {value}", f"bank {verb} --help")


def parse_line(text: str, verbs: dict[str, Verb]) -> Command:
    """A transcript line (with or without `bank`) -> the Command the command line builds for it,
    with these verbs (a game's: verbs_of(rs); every title's: ledger.catalog.all_verbs(); the
    interface adds its own). For a verb the engine does not play, the Command holds its parameters'
    values. A line shlex cannot split (a quote
    left open) is refused in one line, as the shell and a transcript refuse it."""
    try:
        words = shlex.split(text)
    except ValueError as exc:  # 'No closing quotation', 'No escaped character'
        hint = ("drop the backslash at the end" if "escaped" in str(exc) else
                "close the quote; a name with an apostrophe goes in double quotes: \"O'Brien\"")
        raise CommandError(f"cannot read the line {text!r}: {str(exc).lower()}", hint) from None
    if words and words[0] == "bank":
        words = words[1:]
    if not words:
        raise CommandError("empty command line")
    return parse(words[0], words[1:], verbs)


def parse(verb_name: str, words: list[str], verbs: dict[str, Verb]) -> Command:
    verb = verbs.get(verb_name)
    if verb is None:
        raise unknown("command", verb_name, sorted(verbs))
    values, positional = read_options(verb, words)
    values.update(read_positional(verb, positional))
    if verb.game:
        return build(verb, values)
    return Command(verb.name, {k: v for k, v in values.items() if v is not None and v is not False})


def read_options(verb: Verb, words: list[str]) -> tuple[dict, list[str]]:
    """The options among the words (as a shell passes them: `--from pool`, `--from=pool`) and the
    words left for the positional arguments; a word after `--` is always positional."""
    values: dict = {}
    positional: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        flag, eq, inline = word.partition("=")
        opt = verb.option(flag) if word.startswith("-") and word != "--" else None
        if word == "--":
            positional += words[i + 1:]
            break
        if opt is None:
            positional.append(word)
        elif opt.switch:
            values[verb.param(opt)] = True
        else:
            if not eq:
                i += 1
                if i >= len(words):
                    raise CommandError(f"option {opt.flag} needs a value", f"bank {verb.name} --help")
                inline = words[i]
            param = verb.param(opt)
            values[param] = values.get(param, []) + [inline] if opt.many else inline
        i += 1
    return values, positional


def read_positional(verb: Verb, words: list[str]) -> dict:
    required = [a for a in verb.args if not a.optional]
    many = any(a.many for a in verb.args)
    if len(words) < len(required) or (len(words) > len(verb.args) and not many):
        raise CommandError(f"{verb.name} takes {verb.usage().removeprefix('bank ' + verb.name).strip() or 'no arguments'},"
                           f" got {len(words)} word(s)", f"bank {verb.name} --help")
    values = {}
    for i, arg in enumerate(verb.args):
        if arg.many:
            values[arg.name] = words[i:]
        else:
            values[arg.name] = words[i] if i < len(words) else arg.default
    return values

def words_of(verb: Verb, cmd: Command) -> list[str]:
    """A command's words as typed: the verb, its arguments in order, then its options (the line the
    grammar reads back as the same command)."""
    words = [verb.name]
    for arg in verb.args:
        value = cmd.args.get(arg.name)
        if value is not None:
            words += [str(v) for v in value] if arg.many else [str(value)]
    for opt in verb.all_options():
        value = cmd.args.get(opt.name)
        if value is None:
            continue
        if opt.switch:
            if value == opt.value:
                words.append(opt.flag)
        elif opt.many:
            for v in value:
                words += [opt.flag, str(v)]
        elif not any(w == opt.flag for w in words):
            words += [opt.flag, str(value)]
    return words

# --------------------------------------------------------------------------- resolution before dispatch


def resolve(state, rs, cmd: Command) -> Command:
    """The command with each argument turned, by its kind, into the value the rules read: a
    player's full name, a symbol, an amount as an int. A word that names nothing is left as typed,
    for the rule to refuse in its own words at its own point (so a command with several mistakes
    is refused for the same one as always). The Command given (what the ledger stores) is not
    changed. An option the game's title does not have is refused here."""
    verb = verbs_of(rs).get(cmd.verb)
    if verb is None:
        return cmd
    refuse_other_titles_options(rs, verb, cmd)
    kinds = kinds_of(rs)
    of_arg = {a.name: a.kind for a in verb.args} | {o.name: o.kind for o in verb.all_options() if not o.switch}
    args = {key: canonical(kinds[of_arg[key]].resolve if key in of_arg else None, state, rs, value)
            for key, value in cmd.args.items()}
    return Command(cmd.verb, args)


def canonical(resolver, state, rs, typed):
    """The canonical value of a typed word; the word itself when it names nothing, or when reading
    the canonical value again would not give it back (the rules read each value again)."""
    if resolver is None:
        return typed
    # a word reads the same in a game whatever is played (its names and symbols are fixed): read once
    key = (resolver, rs.title, rs.digest, tuple(state.players) if state is not None else (), typed)
    try:
        return _READ[key]
    except (KeyError, TypeError):
        pass
    try:
        value = resolver(state, rs, typed)
        found = value if resolver(state, rs, value) == value else typed
    except BankError:
        found = typed
    try:
        if len(_READ) > 20000:
            _READ.clear()
        _READ[key] = found
    except TypeError:   # a word that is a list (an option given several times)
        pass
    return found


_READ: dict = {}


def refuse_other_titles_options(rs, verb: Verb, cmd: Command) -> None:
    """The command line offers every title's options; a game refuses those its title lacks."""
    known = {a.name for a in verb.args} | {o.name for o in verb.all_options()}
    for key in cmd.args:
        if key not in known:
            flags = ["--" + key.replace("_", "-")]
            have = ", ".join(o.flag for o in verb.all_options()) or "none"
            raise CommandError(f"{rs.title} has no option {' or '.join(flags) or key} for {cmd.verb}",
                               f"its options in {rs.title}: {have}")

# --------------------------------------------------------------------------- where a word goes


def argument_at(verb: Verb, words: list[str]):
    """The Arg or Opt the next word fills."""
    position = 0
    expecting = None
    for word in words:
        if expecting is not None:
            expecting = None
            continue
        opt = verb.option(word) if word.startswith("--") or word.startswith("-") and not NEGATIVE.match(word) else None
        if opt is not None:
            expecting = None if opt.switch else opt
            continue
        position += 1
    if expecting is not None:
        return expecting
    if position < len(verb.args):
        return verb.args[position]
    return verb.args[-1] if verb.args and verb.args[-1].many else None
