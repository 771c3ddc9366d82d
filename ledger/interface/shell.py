"""`bank shell`: an interactive session on one game, with the command line's grammar.

At a terminal it is a prompt_toolkit prompt (the line editor pgcli and litecli are built on, the
same on Linux, macOS and Windows): Tab opens a menu of what the rules accept now, each entry with
its figure (ledger.interface.completing); the bottom toolbar holds the Next line, always current;
history is saved after every command (~/.bank_history, or $BANK_HISTORY) and searched with Ctrl-R;
Ctrl-L or `clear` clears the screen; a pasted block runs line by line. Refusals are red on a colour
terminal (none with NO_COLOR). With piped input there is no prompt and no banner, so a script can
drive it.
"""

from __future__ import annotations

import sys

from ledger.interface import completing
from ledger.interface.lines import help_of, run_text

EXIT = {"exit", "quit", "q"}
OWN = ("help", "clear", "exit")   # the shell's own words, not commands of the bank
BANNER = "bank shell: commands as on the command line, without 'bank'. Tab, help, exit."


class Shell:
    def __init__(self, group, obj: dict, out=None, err=None):
        self.group = group
        self.obj = obj
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.errors = 0
        self.interactive = False  # at a terminal: a command that needs confirming asks y/n
        self.asker = None         # at a terminal, the prompt_toolkit session that asks y/n
        self._toolbar = (None, "")

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

    def next_line(self) -> str:
        """The bottom toolbar: the Next line of the game as it is, found again only when it changed."""
        s = self.session()
        if s is None:
            return "No game open: new TITLE PLAYER... starts one (Tab lists the titles)"
        key = (id(s.state), s.head)
        if self._toolbar[0] != key:
            from ledger.interface.views import next_line
            self._toolbar = (key, next_line(s.state, s.rs))
        from ledger.interface.fit import fit_text, screen_width
        return fit_text(self._toolbar[1], screen_width() - 1)

    def run_block(self, text: str) -> None:
        """What was entered at the prompt: one line, or a pasted block of them, each in turn."""
        for line in text.splitlines() or [""]:
            self.run_line(line)

    def run_line(self, line: str) -> None:
        text = line.strip()
        if not text or text.startswith("#"):
            return
        words = text.split()
        if words[0] == "help":
            self.help(words[1:])
            return
        if words == ["clear"]:
            self.clear()
            return
        self.reread()
        sub = {"game": self.obj["game"], "session": self.obj.get("session"), "line": text,
               "announce": self.announce, "shell_hints": True}
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
            answer = self.asker.prompt(f"{question} [y/N] ") if self.asker else input(f"{question} [y/N] ")
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

    def clear(self) -> None:
        if self.interactive:
            from prompt_toolkit.shortcuts import clear
            clear()

    def help(self, words: list[str]) -> None:
        """`help`: the commands by group; `help VERB`: its arguments, options and example, as typed
        here (no leading `bank`)."""
        from ledger.core.errors import BankError
        s = self.session()
        try:
            print(help_of(s.rs.title if s else None, words[0] if words else None, prefix=""), file=self.out)
        except BankError as exc:
            self.fail(exc.line().replace("bank help", "help"))
            return
        if not words:
            print("\nIn the shell: help VERB, clear (or Ctrl-L), exit. Tab completes; Ctrl-R searches "
                  "the history.", file=self.out)

    # ------------------------------------------------------------------ completion

    def verbs(self) -> list[str]:
        """The commands of the open game's title (the shared ones without a game), the shell's own last."""
        return completing.verbs_known(self.session(), OWN)

    def candidates(self, words: list[str]) -> list[str]:
        """What may come next after `words` (the complete words before the cursor)."""
        if not words:
            return self.verbs()
        if words[0] == "help":
            return self.verbs() if len(words) == 1 else []
        return [c.text for c in completing.candidates(self.session(), words)]

    def menu(self, words: list[str], text: str):
        """Tab's menu for the word `text` being typed after `words`: each entry with its figure."""
        return completing.offers(self.session(), words, text, OWN)

    def offers(self, words: list[str], text: str) -> list[str]:
        return [c.text for c in self.menu(words, text)]

    # ------------------------------------------------------------------ the loop

    def loop(self, stdin=None) -> int:
        stdin = stdin or sys.stdin
        if hasattr(stdin, "reconfigure"):  # bytes that are not UTF-8 reach check_text, which refuses them
            stdin.reconfigure(errors="surrogateescape")
        if not stdin.isatty() or not sys.stdout.isatty():
            for line in stdin:
                if line.strip() in EXIT:
                    break
                self.run_line(line)
            return 1 if self.errors else 0
        return self.at_terminal()

    def at_terminal(self) -> int:
        from ledger.interface.terminal import prompt_session, red_errors
        self.interactive = True
        self.asker = prompt_session(self)
        print(BANNER, file=self.out)
        with red_errors():
            while True:
                try:
                    text = self.asker.prompt(self.prompt())
                except EOFError:
                    print(file=self.out)
                    break
                except KeyboardInterrupt:
                    continue
                if text.strip() in EXIT:
                    break
                self.run_block(text)
        return 0
