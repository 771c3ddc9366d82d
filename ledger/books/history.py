"""The game's history from the ledger: every command with its round, actor and the money it moved,
the state before any command (for `explain` and `audit`), and per-round series (for charts)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ledger.core import engine
from ledger.core.events import apply
from ledger.core.state import GameState, acct_name, round_label


@dataclass
class Entry:
    id: int
    text: str
    verb: str
    args: dict
    status: str
    round: str = ""
    actor: str = ""
    money: int = 0
    accounts: set = field(default_factory=set)
    events: list = field(default_factory=list)
    by: str = "terminal"        # who entered it: terminal, banker or player:NAME (bank serve --table)

    def json(self) -> dict:
        return {"id": self.id, "text": self.text, "status": self.status, "round": self.round, "actor": self.actor,
                "money": self.money, "events": [e["kind"] for e in self.events], "by": self.by}

    @property
    def author(self) -> str:
        """Who entered it, as the log shows it: '' for the terminal, 'banker', or the player's name."""
        return author_label(self.by)


def author_label(by: str | None) -> str:
    if not by or by == "terminal":
        return ""
    return by.removeprefix("player:")


def actor_of(row_args: dict) -> str:
    for key in ("player", "corp", "source"):
        if row_args.get(key):
            return str(row_args[key])
    return ""


def walk(session, until: int | None = None, each=None) -> tuple[list[Entry], GameState]:
    """Replay the stored commands in order. `each(entry, state_before)` is called for active ones;
    stops before command `until` if given. Returns the entries and the state reached."""
    state = engine.initial_state(session.rs, session.players, session.options)
    events_by_cmd: dict[int, list[dict]] = {}
    for row in session.store.query("select command_id, data from events order by id"):
        events_by_cmd.setdefault(row["command_id"], []).append(json.loads(row["data"]))
    entries = []
    for row in session.store.commands(include_undone=True):
        if until is not None and row["id"] >= until:
            break
        args = json.loads(row["args"] or "{}")
        entry = Entry(row["id"], row["text"], row["verb"], args, row["status"], events=events_by_cmd.get(row["id"], []),
                      by=row.get("entered_by") or "terminal")
        entry.round = round_label(state) if row["verb"] != "new" else "setup"
        entry.actor = actor_of(args)
        entry.money = money_moved(entry.events)
        for e in entry.events:
            for payer, payee, _amount in e.get("transfers", ()):
                entry.accounts.update((payer, payee))
            for _cert, src, dest in e.get("certs", ()):
                entry.accounts.update(a for a in (src, dest) if a)
        if row["status"] == "active":
            if each:
                each(entry, state)
            for e in entry.events:
                apply(state, e)
        entries.append(entry)
    return entries, state


def money_moved(events: list[dict]) -> int:
    """The money a command's events moved between accounts (what the mint issues is not counted)."""
    return sum(amount for e in events for payer, _payee, amount in e.get("transfers", ()) if payer != "mint")


def matches(entry: Entry, player: str | None, company: str | None, round_prefix: str | None) -> bool:
    """Whether a command involves the player / company (as actor, in its events, or by money or
    certificates) and belongs to the round (e.g. 'SR 3', 'OR 2' or 'OR 2.1')."""
    named = {str(v) for e in entry.events for k, v in e.items() if k in ("player", "corp", "new", "old", "seller")}
    if player and f"player:{player}" not in entry.accounts and player not in named:
        return False
    if company:
        involved = {acct_name(a) for a in entry.accounts} | {a.split(":")[1].split(".")[0] for a in entry.accounts
                                                             if a.startswith("ipo:")}
        certs = {c.rsplit(".", 1)[0] for e in entry.events for c, *_ in e.get("certs", ())}
        if company not in involved | certs | named:
            return False
    if round_prefix and not (entry.round == round_prefix or entry.round.startswith(round_prefix + ".")
                             or entry.round.startswith(round_prefix + " ")):
        return False
    return True


def state_before(session, command_id: int) -> GameState:
    return walk(session, until=command_id)[1]


def series(session) -> list[dict]:
    """After every round (at the start of the next, and at the end of the game): each player's net
    worth and each company's share price."""
    rs = session.rs
    state = engine.initial_state(rs, session.players, session.options)
    points = []
    for event in session.store.active_events():
        if closes_round(state, event):
            points.append(point(state, rs, round_label(state)))
        apply(state, event)
    if not state.game_over:
        points.append(point(state, rs, round_label(state) + " (now)"))
    return points


def closes_round(state: GameState, event: dict) -> bool:
    """Whether the event ends a round of play (the next begins, or the game ends): a series' point."""
    return event["kind"] in ("round_started", "game_over") and state.round.get("kind") not in (None, "setup")


def point(state: GameState, rs, label: str) -> dict:
    """A series' point: each player's net worth and each company's share price, in this state."""
    from ledger.core.rules import shares
    from ledger.core.scoring import score_rows
    return {"round": label,
            "worth": {r["name"]: r["value"] for r in score_rows(state, rs)},
            "prices": {c: shares.price(state, rs, c) for c, corp in state.corps.items() if corp.cell}}


def events_since(store, kind: str, match=None, before: int | None = None) -> list[dict]:
    """The events in force from the last one of `kind` (that `match` accepts, if given) on, in the
    commands before command `before` (all, if None): a turn or round under way, read back from the
    command that holds its start rather than from the start of the game."""
    bound = before if before is not None else store.head() + 1
    rows = store.conn.execute(
        "select distinct e.command_id from events e join commands c on c.id = e.command_id "
        "where c.status = 'active' and e.kind = ? and e.command_id < ? order by e.command_id desc",
        (kind, bound)).fetchall()
    for (command_id,) in rows:
        events = [json.loads(data) for _id, data in store.conn.execute(
            "select e.id, e.data from events e join commands c on c.id = e.command_id where c.status = 'active' "
            "and e.command_id >= ? and e.command_id < ? order by e.command_id, e.id", (command_id, bound)).fetchall()]
        found = [i for i, e in enumerate(events) if e["kind"] == kind and (match is None or match(e))]
        if found:
            return events[found[-1]:]
    return []
