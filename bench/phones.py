"""Every example game played entirely through the table's pages (issue 34): for each command of
the transcript, the page of the person who acts is opened, one of that page's own controls that
does the same thing (its events decided equal) is filled with the transcript's amounts and sent,
and a deal is accepted on the other person's page; only what no player's page offers goes to the
banker's page (its buttons, else its command line). At the end the game's `status --json` and
`score --json` must equal the CLI's replay of the same transcript.

    python bench/phones.py                    # every example game
    python bench/phones.py --first 120        # the first 120 commands of each
    python bench/phones.py --titles 1801 --show 20

Prints, per title: TITLE: N commands, P on players' pages, B on the banker's buttons, L on the
banker's line, same end: yes/no, and each line that went to the banker's line, with why.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "table")]

from starlette.testclient import TestClient  # noqa: E402
from table_rig import Forms, Rig  # noqa: E402
from transcripts import complete_game, lines_of, shipped_titles  # noqa: E402

from ledger import catalog  # noqa: E402
from ledger.books.session import Session  # noqa: E402
from ledger.core import engine, grammar, legal  # noqa: E402
from ledger.core.errors import BankError  # noqa: E402
from ledger.core.events import apply  # noqa: E402
from ledger.interface.board.actions import command_of  # noqa: E402
from ledger.interface.board.table import typed_values  # noqa: E402
from ledger.interface.views import score_json, status_json  # noqa: E402

GAMES = {title: complete_game(title) for title in shipped_titles()}   # every shipped title's example game


def at_terminal(path: Path, lines: list[str]) -> None:
    """Commands recorded as `bank LINE` records them, before the pages take over."""
    s = Session.open(path)
    try:
        for line in lines:
            s.execute(catalog.parse_line(line), line)
    finally:
        s.close()


def new_game(path: Path, line: str) -> None:
    cmd = catalog.parse_line(line)
    options = dict((o.partition("=")[0], o.partition("=")[2] or True) for o in cmd.get("option") or [])
    Session.new(path, cmd.get("title"), cmd.get("players"), options).close()


def same_events(a: list[dict], b: list[dict]) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


class Phones:
    """A table server on a game file and a client for each page."""

    def __init__(self, path: Path):
        self.rig = Rig(path)
        # every phone of the table is this one process, at the speed of a loop: the server's budget
        # per phone (a few actions a second, ledger.interface.board.table.Rates) is not what is measured
        self.rig.table.rates.allow = lambda key, cost=1.0: True
        self.client = TestClient(self.rig.app, follow_redirects=False)
        self.client.__enter__()

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.rig.close()

    def forms(self, who: str) -> Forms:
        answer = self.client.get(self.rig.url(who))
        assert answer.status_code == 200, answer.text
        return Forms(answer.text)

    def send(self, who: str, fields: dict) -> list[str]:
        sent = self.client.post(self.rig.url(who), data=fields)
        assert sent.status_code == 303, sent.text
        return Forms(self.client.get(sent.headers["location"]).text).result


def filled(form: dict, typed: dict) -> dict | None:
    """The fields a browser sends for a form with the transcript's words typed into its fields (None
    when it has a field the command does not fill and must)."""
    fields = dict(form["hidden"])
    for name, *_bounds in form["numbers"]:
        key = name[2:]
        if key in typed:
            fields[name] = str(typed[key])
    for name in form["texts"]:
        key = name[2:]
        if key in typed:
            fields[name] = str(typed[key])
    for name, values in form.get("selects", {}).items():
        key = name[2:]
        if key in typed and str(typed[key]) in values:
            fields[name] = str(typed[key])
    for name in form.get("picks", ()):             # k.FIELD.PICK: ticked, or its count
        _k, key, pick = name.split(".", 2)
        for part in str(typed.get(key, "")).split(","):
            word, eq, count = part.strip().partition("=")
            if pick == f"{word}=" and eq:
                fields[name] = count
            elif pick == word and not eq:
                fields[name] = "1"
    return fields


def form_command(rs, form: dict, fields: dict):
    words = typed_values(fields, fixed=True)
    cmd, _text = command_of(rs, form["verb"], form["actor"] or None, words)
    return cmd


def matching(s, rs, forms: Forms, cmd, events: list[dict]) -> dict | None:
    """A form of the page that does what the typed command does, filled with its words."""
    typed = {k: v for k, v in grammar.resolve(s, rs, cmd).args.items()}
    for form in forms.forms:
        if form["verb"] != cmd.verb or "kind" not in form["hidden"]:
            continue
        fields = filled(form, typed)
        try:
            found = engine.decide(s, rs, form_command(rs, form, fields))
        except BankError:
            continue
        if same_events(found, events):
            return fields
    return None


def replay(name: str, first: int | None = None, folder: Path | None = None, typed: int = 0) -> dict:
    """Play an example game through the pages (its first `first` commands; the first `typed` of
    them entered at a terminal before the pages take over); the counts, the lines the banker typed
    and why, and whether the end equals the CLI's replay."""
    full = lines_of((ROOT / "examples" / f"{name}.txt").read_text(encoding="utf-8"))
    lines = full[: (first + 1) if first else None]
    folder = folder or Path(tempfile.mkdtemp(prefix="phones-"))
    path = folder / f"{name}.db"
    new_game(path, lines[0])
    at_terminal(path, lines[1: typed + 1])
    lines = lines[:1] + lines[typed + 1:]
    phones = Phones(path)
    reader = Session.open(path)
    start = reader.head
    counts = {"commands": 0, "players": 0, "banker": 0, "line": 0, "ended": 0}
    typed_by_banker: list[str] = []
    buttons: list[str] = []
    recorded = start
    try:
        for line in lines[1:]:
            counts["commands"] += 1
            reader.refresh()
            state, rs = reader.state, reader.rs
            cmd = catalog.parse_line(line)
            events = engine.decide(state, rs, cmd)
            actor = legal.actor_of_command(state, rs, cmd)
            player = legal.player_for(state, actor)
            done = False
            if player is not None:
                who = f"player:{player}"
                fields = matching(state, rs, phones.forms(who), cmd, events)
                if fields is None and turn_ended(phones, state, rs, cmd, events):
                    # the one before still held the turn (a stock round's player after buying may
                    # still sell): their page ends it, as a table says "done?" before the next acts
                    counts["ended"] += 1
                    recorded += 1
                    reader.refresh()
                    state = reader.state
                    events = engine.decide(state, rs, cmd)
                    fields = matching(state, rs, phones.forms(who), cmd, events)
                if fields is not None:
                    said = phones.send(who, fields)
                    if fields.get("kind") == "propose":
                        target = said[0].split(":", 1)[0].removeprefix("Offered to ")
                        offer = next(f for f in phones.forms(f"player:{target}").forms if f["hidden"].get("offer"))
                        said = phones.send(f"player:{target}", {**offer["hidden"], "kind": "accept"})
                    assert reader_head(path) == recorded + 1, (line, said)
                    counts["players"] += 1
                    done = True
            if not done:
                fields = matching(state, rs, phones.forms("banker"), cmd, events)
                if fields is not None:
                    phones.send("banker", fields)
                    counts["banker"] += 1
                    buttons.append(f"{line}  ({why_not(state, rs, cmd, player)})")
                    done = True
            if not done:
                line_form = next(f for f in phones.forms("banker").forms if "line" in f["texts"])
                said = phones.send("banker", {**line_form["hidden"], "line": line})
                counts["line"] += 1
                typed_by_banker.append(f"{line}  ({why_not(state, rs, cmd, player)})")
            recorded += 1
            reader.refresh()
            assert reader.head == recorded, (line, "not recorded")
    finally:
        reader.close()
        phones.close()
    counts["same"] = same_end(path, full[: len(full) if first is None else first + 1])
    counts["typed"] = typed_by_banker
    counts["buttons"] = buttons
    return counts


def turn_ended(phones: Phones, s, rs, cmd, events: list[dict]) -> bool:
    """When the command's first events end the turn of the one who holds it, that person ends it on
    their own page (a control whose events are those first events); whether they did."""
    actor = legal.now(legal.for_ruleset(rs), s, rs)[0]
    player = legal.player_for(s, actor) if actor is not None else None
    if player is None or player == legal.player_for(s, legal.actor_of_command(s, rs, cmd)):
        return False
    who = f"player:{player}"
    for form in phones.forms(who).forms:
        if form["verb"] != "pass" or "kind" not in form["hidden"] or form["numbers"] or form["texts"]:
            continue
        try:
            found = engine.decide(s, rs, form_command(rs, form, dict(form["hidden"])))
        except BankError:
            continue
        if found and len(found) < len(events) and same_events(found, events[: len(found)]):
            phones.send(who, dict(form["hidden"]))
            return True
    return False


def reader_head(path: Path) -> int:
    s = Session.open(path)
    try:
        return s.head
    finally:
        s.close()


def why_not(s, rs, cmd, player) -> str:
    if player is None:
        return "nobody in particular acts"
    if not legal.is_offered(s, rs, cmd):
        return "the answer does not hold it"
    return f"{player}'s page has no control doing it"


def same_end(path: Path, lines: list[str]) -> bool:
    """The page-played game's status and score equal the engine's replay of the transcript."""
    cmd = catalog.parse_line(lines[0])
    options = dict((o.partition("=")[0], o.partition("=")[2] or True) for o in cmd.get("option") or [])
    rs = catalog.load(cmd.get("title"), options)
    state = engine.initial_state(rs, cmd.get("players"), options)
    for event in engine.start_events(rs, cmd.get("players")):
        apply(state, event)
    for line in lines[1:]:
        for event in engine.decide(state, rs, catalog.parse_line(line)):
            apply(state, event)
    s = Session.open(path)
    try:
        return status_json(s.state, s.rs) == status_json(state, rs) and score_json(s.state, s.rs) == score_json(state, rs)
    finally:
        s.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--titles", default=",".join(GAMES))
    ap.add_argument("--first", type=int, default=None, help="only the first N commands of each game")
    ap.add_argument("--typed", type=int, default=0, help="the first N of them entered at a terminal first")
    ap.add_argument("--show", type=int, default=10, help="lines typed on the banker's line shown")
    ap.add_argument("--buttons", action="store_true", help="show the lines entered on the banker's buttons too")
    args = ap.parse_args()
    bad = 0
    for title in args.titles.split(","):
        found = replay(GAMES[title], args.first, typed=args.typed)
        print(f"{title}: {found['commands']} commands, {found['players']} on players' pages, {found['banker']} on the "
              f"banker's buttons, {found['line']} on the banker's line, same end: {'yes' if found['same'] else 'no'}",
              flush=True)
        if found["ended"]:
            print(f"    (and {found['ended']} turns ended on the page of the player who held the turn, before the "
                  f"next one acted)")
        for line in found["typed"][: args.show]:
            print(f"    line: {line}")
        if args.buttons:
            for line in found["buttons"][: args.show]:
                print(f"    button: {line}")
        bad += (not found["same"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
