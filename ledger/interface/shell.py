"""`bank shell`: an interactive session on one game, with the command line's grammar.

The prompt shows the round and who acts; Tab completes the verbs the game accepts now, then each
argument by its kind in the grammar (ledger.core.grammar: player names, company and private
symbols, par prices, train types, ports ...); history is kept across sessions (~/.bank_history, or
$BANK_HISTORY); `help` and `help VERB` show the commands. With piped input there is no prompt and
no banner, so a script can drive it.
"""

from __future__ import annotations

import os
import shlex
import sys

from ledger import catalog
from ledger.core import grammar
from ledger.interface.lines import help_of, run_text

EXIT = {"exit", "quit", "q"}


class Shell:
    def __init__(self, group, obj: dict, out=None, err=None):
        self.group = group
        self.obj = obj
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.errors = 0
        self.interactive = False  # at a terminal: a command that needs confirming asks y/n

    # ------------------------------------------------------------------ running lines

    def session(self):
        return self.obj.get("session")

    def prompt(self) -> str:
        s = self.session()
        if s is None:
            return "bank (no game)> "
        from ledger.core import legal
        from ledger.core.state import round_label
        st = s.state
        if st.game_over:
            return "bank [game over]> "
        who = legal.turn(st, s.rs).actor or ""  # the core says who acts (a pending decision first)
        return f"bank [{round_label(st)} · {who}]> "

    def run_line(self, line: str) -> None:
        text = line.strip()
        if not text or text.startswith("#"):
            return
        words = text.split()
        if words[0] == "help":
            self.help(words[1:])
            return
        self.reread()
        sub = {"game": self.obj["game"], "session": self.obj.get("session"), "line": text,
               "announce": self.announce}
        if self.interactive:
            sub["confirm"] = self.confirm
            sub["in_shell"] = True   # `log` shows the last screenful unless told --last N
        try:
            if run_text(self.group, text, sub):
                self.errors += 1
        finally:
            if sub.get("session") is not None:
                self.obj["session"] = sub["session"]

    def reread(self) -> None:
        """Another terminal may have recorded commands since the last line: say so, and work on
        the game as it is now (the write itself checks again, inside its transaction)."""
        s = self.session()
        if s is None:
            return
        try:
            arrived = s.refresh()
        except Exception:  # the command that follows reports the problem in its own words
            return
        if arrived:
            self.announce(arrived)

    def confirm(self, question: str) -> bool:
        """Ask y/n at the prompt (undo --to hiding many commands); anything but y is no."""
        try:
            answer = input(f"{question} [y/N] ")
        except (EOFError, KeyboardInterrupt):
            print(file=self.out)
            return False
        return answer.strip().lower() in ("y", "yes")

    def announce(self, arrived: int) -> None:
        print(f"note: the game changed in another window ({arrived} new command(s)); re-read it",
              file=self.err)

    def fail(self, message: str) -> None:
        from ledger.core.errors import one_line
        self.errors += 1
        print(f"error: {one_line(message)}", file=self.err)

    def help(self, words: list[str]) -> None:
        """`help`: the commands by group; `help VERB`: its arguments, options and example, as typed
        here (no leading `bank`)."""
        from ledger.core.errors import BankError
        s = self.session()
        try:
            print(help_of(s.rs.title if s else None, words[0] if words else None, prefix=""), file=self.out)
        except BankError as exc:
            self.fail(exc.line())
            return
        if not words:
            print("\nIn the shell: help VERB, exit. Tab completes names and amounts.", file=self.out)

    # ------------------------------------------------------------------ completion

    def verbs(self) -> list[str]:
        """The commands of the open game's title (the shared ones without a game), the shell's own last."""
        s = self.session()
        known = grammar.verbs_of(s.rs) if s is not None else {v.name: v for v in grammar.SHARED}
        return sorted(known) + ["help", "exit"]

    def verbs_now(self) -> list[str]:
        """The game verbs the game accepts now (the core says: ledger.core.legal), then the
        interface verbs and the shell's own."""
        s = self.session()
        interface = sorted(v.name for v in grammar.SHARED if not v.game) + ["help", "exit"]
        if s is None:
            return ["new"] + [v for v in interface if v != "new"]
        from ledger.core import legal
        return legal.verbs_now(s.state, s.rs) + interface

    def candidates(self, words: list[str]) -> list[str]:
        """What may come next after `words` (the complete words before the cursor): a verb, or the
        legal values of the argument (or option value) at that position."""
        if not words:
            return self.verbs()
        if words[0] == "help":
            return self.verbs() if len(words) == 1 else []
        s = self.session()
        verb = (grammar.verbs_of(s.rs) if s is not None else {v.name: v for v in grammar.SHARED}).get(words[0])
        at = grammar.argument_at(verb, words[1:]) if verb is not None else None
        if at is not None and at.kind == "title":   # the titles are the catalog's to list, not the core's
            return catalog.available_titles()
        if s is None:
            return grammar.candidates(None, None, verb, words[1:]) if verb else []
        syntax = grammar.verbs_of(s.rs).get(words[0])
        if syntax is None:
            return []
        if not syntax.game:
            return grammar.candidates(s.state, s.rs, syntax, words[1:])
        from ledger.core import legal
        return [shell_word(s.rs, w) for w in legal.complete(s.state, s.rs, words[0], words[1:])]

    def offers(self, words: list[str], text: str) -> list[str]:
        """What Tab offers for the word `text` being typed after `words`. A verb is offered when the
        game accepts it now; any other only when none of those starts so."""
        def starting(options):
            return [c for c in options if c.lower().startswith(text.lower().lstrip("'\""))]
        if not words:
            return starting(self.verbs_now()) or starting(self.verbs())
        return starting(self.candidates(words))

    def complete(self, text: str, state: int):
        import readline
        buffer = readline.get_line_buffer()[:readline.get_endidx()]
        try:
            words = shlex.split(buffer)
        except ValueError:
            words = buffer.split()
        if buffer and not buffer.endswith(" ") and words:
            words = words[:-1]
        options = self.offers(words, text)
        return (options[state] + " ") if state < len(options) else None

    # ------------------------------------------------------------------ the loop

    def loop(self, stdin=None) -> int:
        stdin = stdin or sys.stdin
        if hasattr(stdin, "reconfigure"):  # bytes that are not UTF-8 reach check_text, which refuses them
            stdin.reconfigure(errors="surrogateescape")
        if not stdin.isatty():
            for line in stdin:
                if line.strip() in EXIT:
                    break
                self.run_line(line)
            return 1 if self.errors else 0
        history = setup_readline(self.complete)
        self.interactive = True
        print("bank shell: type commands as on the command line; help, help VERB, exit. Tab completes.",
              file=self.out)
        while True:
            try:
                line = input(self.prompt())
            except EOFError:
                print(file=self.out)
                break
            except KeyboardInterrupt:
                print("^C", file=self.out)
                continue
            if line.strip() in EXIT:
                break
            self.run_line(line)
        save_history(history)
        return 0


def shell_word(rs, word: str) -> str:
    """A value as Tab types it: a symbol by its plain alias where it has a character a user might
    not type (B&O as BnO), a name with spaces quoted."""
    from ledger.core.names import pasteable
    text = str(word)
    return text if text.lstrip("-").isdigit() else shlex.quote(pasteable(text, rs))


def setup_readline(completer):
    try:
        import readline
    except ImportError:  # no readline (e.g. Windows without pyreadline): plain input still works
        return None
    path = os.environ.get("BANK_HISTORY") or os.path.expanduser("~/.bank_history")
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(5000)
    readline.set_completer_delims(" \t\n")
    readline.set_completer(completer)
    readline.parse_and_bind("tab: complete")
    return path


def save_history(path) -> None:
    if not path:
        return
    import readline
    try:
        readline.write_history_file(path)
    except OSError:
        pass
