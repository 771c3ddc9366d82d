"""The interface's own verbs: the views, the files and the tools the command line (and the shell,
the banker's line) runs itself, declared in the core's format (ledger.core.grammar.Verb) and merged
with a game's verbs here. The core declares the game's verbs and the record's (`new`, the
corrections); these never reach the engine.

`verbs_of(rs)`: every verb a game of this title takes at the command line; `shared_verbs()`: the
shared ones, outside a game; `every_verb()`: every title's, before a game is open (the command line
is built from it). `interface_words(...)`: what Tab offers for an interface verb's word (a listed
choice, a title, a player or a company of the game): these verbs have no rule to ask.
"""

from __future__ import annotations

import shlex

from ledger import catalog
from ledger.core import grammar
from ledger.core.grammar import Arg, Opt, Verb


def interface(name, group, help, example, args=(), options=()) -> Verb:
    return Verb(name, group, help, example, tuple(args), tuple(options), game=False, waive=False)


JSON = Opt("--json", "as_json", True, help="as JSON")

INTERFACE = (
    # ---- views
    interface("status", "views", "The board: round, bank, players, companies, what is for sale, whose turn.",
              "bank status --json", options=[JSON]),
    interface("market", "views", "The stock market with each company's marker, and the operating order.",
              "bank market", options=[JSON]),
    interface("score", "views", "Net worth: cash, shares at market, privates at face.", "bank score",
              options=[JSON]),
    interface("log", "views", "Every command with its round, actor and the money it moved.",
              'bank log --player Alice --round "OR 2"',
              options=[JSON,
                       Opt("--player", "player", kind="player", short="-p", help="only commands involving this player"),
                       Opt("--company", "company", kind="company", short="-c",
                           help="only commands involving this company"),
                       Opt("--round", "round_", short="-r", help="only this round, e.g. 'SR 3', 'OR 2' or 'OR 2.1'"),
                       Opt("--all", "all_", True, help="include hidden commands (undone, or superseded by an "
                           "insert) and the records of undo, redo and insert"),
                       Opt("--hidden", "hidden", True, help="only the hidden commands (undone or superseded): "
                           "what bank restore N can re-apply"),
                       Opt("--last", "last", short="-n",
                           help="only the last N commands (the shell's log shows the last screenful)"),
                       Opt("--or", "or_", help="that operating round's summary table again, e.g. 4.1")]),
    interface("explain", "views", "How command N's money was computed (payouts per holder, rounding, the "
              "stock move).", "bank explain 117", [Arg("number", "number")], options=[JSON]),
    interface("audit", "views", "Re-derive every balance and recompute every payout and sale; non-zero exit on "
              "a problem.", "bank audit", options=[JSON, Opt("--against", "against", help="a record's fingerprint "
                                                            "(shown after every command, on the pages, by bank "
                                                            "score): is it in the chain, and after which command")]),
    interface("chart", "views", "Each player's net worth, or each company's share price, after every round.",
              "bank chart worth", [Arg("what", "choice", optional=True, choices=("worth", "prices"),
                                       help="worth or prices (left out: the charts are listed)")],
              [Opt("--out", "out", kind="file", help="write a .png or .svg file instead (needs matplotlib)"), JSON]),
    interface("serve", "views", "A read-only board page for the players' phones and laptops, live as commands are "
              "recorded; on this machine only unless --host shares it (a URL and a QR code are printed). With "
              "--table each player and the banker also get a private link to enter their own actions.",
              "bank serve --host 0.0.0.0",
              options=[Opt("--host", "host", help="the address to listen on: 127.0.0.1 (this machine, the default), "
                           "0.0.0.0 for the table's network"),
                       Opt("--port", "port", help="the port (default 8018; 0 picks a free one)"),
                       Opt("--table", "table", True, help="the whole table plays: print a private link (and QR "
                           "code) for each player and the banker; each acts only as its holder"),
                       Opt("--new-links", "new_links", True, help="with --table: make new links (the old ones "
                           "end)")]),
    interface("info", "views", "Show a title's ruleset: players, privates, companies, trains, phases, options.",
              "bank info {title}", [Arg("title", "title", optional=True)]),
    interface("help", "views", "The commands by round and purpose, or one command's arguments and options.",
              "bank help buy", [Arg("verb", "verb", optional=True)]),
    # ---- files and tools
    interface("play", "files", "Run a transcript: one command a line, '#' comments; a 'new' line creates the "
              "game.", "bank play examples/{demo}.txt", [Arg("file", "file")],
              [Opt("--show", "show", True, help="print each command's result")]),
    interface("import", "files", "Import a game recorded on 18xx.games, its JSON record (GAME.json) or its Log tab "
              "as text: replay its decisions and audit every figure it states.",
              "bank import 179263.log.txt --transcript mygame.txt", [Arg("logfile", "file")],
              [Opt("--transcript", "transcript", kind="file", help="also write the commands here"),
               Opt("--replace", "replace", True, help="overwrite an existing game file"),
               Opt("--title", "title", kind="title",
                   help="the title of a Log-tab log whose lines do not say it (e.g. 1889)")]),
    interface("export", "files", "Export commands, events, postings and per-round balances and holdings.",
              "bank export --csv out/ --json game.json",
              options=[Opt("--csv", "csv_dir", kind="folder", help="folder for CSV files"),
                       Opt("--json", "json_file", kind="file", help="one JSON file")]),
    interface("backup", "files", "Write a consistent copy of the game to a new FILE, even while a shell has it "
              "open.", "bank backup copy.db", [Arg("file", "file")]),
    interface("shell", "files", "An interactive session on the game: prompt, Tab completion, history, help "
              "VERB.", "bank shell"),
    interface("demo", "files", "Play an example game through the CLI and SQLite into a new file, then print "
              "the board and the scores. It never replaces a file: without --game it picks demo.db, "
              "demo-2.db, ...", "bank demo {demo}",
              [Arg("example", "example", optional=True)]),
)


def shared_verbs() -> dict[str, Verb]:
    """The shared verbs (the core's and the interface's), as known before a game is open."""
    return {v.name: v for v in (*grammar.SHARED, *INTERFACE)}


def verbs_of(rs) -> dict[str, Verb]:
    """Every verb a game of this title takes: its own and the interface's."""
    return {**grammar.verbs_of(rs), **{v.name: v for v in INTERFACE}}


def every_verb() -> dict[str, Verb]:
    """Every title's verbs and the interface's: the command line is built before a game is open."""
    return {**catalog.all_verbs(), **{v.name: v for v in INTERFACE}}


def interface_words(state, rs, verb: Verb, typed: list[str]) -> list[str]:
    """What may come next after an interface or record verb and the `typed` words: a listed
    choice, the titles on this machine, a game's players or companies (for `log --player`)."""
    at = grammar.argument_at(verb, typed)
    if at is None:
        return []
    if at.choices:
        return list(at.choices)
    if at.kind == "title":
        return list(catalog.available_titles())
    if state is None:
        return []
    if at.kind == "player":   # as typed at a prompt: a name with a space quoted
        return [shlex.quote(p) for p in state.players]
    if at.kind == "company":   # by the plain alias a shell types safely, the operating company first
        typed = [c.alias or c.sym for c in rs.corporations]
        op = state.round.get("corp")
        op = op and (rs.corporation(op).alias or op)
        return ([op] if op else []) + [c for c in typed if c != op]
    return []
