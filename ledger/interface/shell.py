"""`bank shell`: an interactive session on one game, with the command line's grammar.

The prompt shows the round and who acts; Tab completes verbs, player names, company and private
symbols, par prices and train types; history is kept across sessions (~/.bank_history, or
$BANK_HISTORY); `help` and `help VERB` show the commands. With piped input there is no prompt and
no banner, so a script can drive it.
"""

from __future__ import annotations

import os
import shlex
import sys

import click


PLAYER_FIRST = {"bid", "buy", "par", "sell", "pass", "exchange", "count", "bankrupt"}
CORP_FIRST = {"tile", "token", "pay", "withhold", "train", "discard", "buy-private", "done"}
EXIT = {"exit", "quit", "q"}


class Shell:
    def __init__(self, group, obj: dict, out=None, err=None):
        self.group = group
        self.obj = obj
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.errors = 0

    # ------------------------------------------------------------------ running lines

    def session(self):
        return self.obj.get("session")

    def prompt(self) -> str:
        s = self.session()
        if s is None:
            return "bank (no game)> "
        from ledger.core.state import round_label
        st = s.state
        if st.game_over:
            return "bank [game over]> "
        from ledger.core.rounds.auction import actor
        kind = st.round["kind"]
        who = {"operating": lambda: st.round.get("corp"), "stock": lambda: st.players[st.round["turn"]],
               "auction": lambda: actor(st)}.get(kind, lambda: "")()
        return f"bank [{round_label(st)} · {who}]> "

    def run_line(self, line: str) -> None:
        from ledger.interface.cli import run_text
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

    def announce(self, arrived: int) -> None:
        print(f"note: the game changed in another window ({arrived} new command(s)); re-read it",
              file=self.err)

    def fail(self, message: str) -> None:
        from ledger.core.errors import one_line
        self.errors += 1
        print(f"error: {one_line(message)}", file=self.err)

    def help(self, words: list[str]) -> None:
        with click.Context(self.group, info_name="bank") as ctx:
            if words:
                cmd = self.group.get_command(ctx, words[0])
                if cmd is None:
                    self.fail(f"no command '{words[0]}'")
                    return
                with click.Context(cmd, info_name=words[0], parent=ctx) as sub:
                    print(cmd.get_help(sub), file=self.out)
            else:
                print(self.group.get_help(ctx), file=self.out)
                print("\nIn the shell: help VERB, exit. Tab completes names and amounts.", file=self.out)

    # ------------------------------------------------------------------ completion

    def verbs(self) -> list[str]:
        with click.Context(self.group) as ctx:
            return sorted(self.group.list_commands(ctx)) + ["help", "exit"]

    def candidates(self, words: list[str]) -> list[str]:
        """What may come next after `words` (the complete words before the cursor)."""
        if not words:
            return self.verbs()
        s = self.session()
        if s is None:
            return []
        verb, pos = words[0], len(words)
        players = [quote(p) for p in s.state.players]
        corps = [c.alias or c.sym for c in s.rs.corporations]  # the plain alias types safely anywhere
        privs = [p.sym for p in s.rs.privates]
        if verb == "help":
            return self.verbs() if pos == 1 else []
        if pos == 1:
            if verb in PLAYER_FIRST:
                return players
            if verb in CORP_FIRST:
                op = s.state.round.get("corp")
                op = op and (s.rs.corporation(op).alias or op)
                return ([op] if op else []) + [c for c in corps if c != op]
            if verb == "adjust":
                return ["bank"] + players + corps
            if verb == "chart":
                return ["worth", "prices"]
            return []
        if pos == 2:
            return {"bid": privs, "buy": privs + corps, "par": corps, "sell": corps, "exchange": privs,
                    "train": self.train_types(), "discard": self.train_types(), "buy-private": privs,
                    "adjust": ["bank"] + players + corps}.get(verb, [])
        if pos == 3 and verb == "par":
            return [str(p) for p in s.rs.k("company", "par_prices")]
        if pos == 3 and verb == "bid":
            from ledger.core.rounds.auction import min_bid
            try:
                return [str(min_bid(s.state, s.rs, words[2]))]
            except (KeyError, TypeError):
                return []
        return []

    def train_types(self) -> list[str]:
        from ledger.core.rules.trains import depot_offer
        s = self.session()
        offer = depot_offer(s.state, s.rs)
        return offer + [t.name for t in s.rs.trains if t.name not in offer]

    def complete(self, text: str, state: int):
        import readline
        buffer = readline.get_line_buffer()[:readline.get_endidx()]
        try:
            words = shlex.split(buffer)
        except ValueError:
            words = buffer.split()
        if buffer and not buffer.endswith(" ") and words:
            words = words[:-1]
        options = [c for c in self.candidates(words) if c.lower().startswith(text.lower().lstrip("'\""))]
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


def quote(name: str) -> str:
    return shlex.quote(name)


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
