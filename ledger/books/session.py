"""One open game: load and replay it, decide a command, store it in one transaction.

This is the only place the pure core meets the store. A command is decided on the state it is
written after: inside the write transaction the session checks that the game's last command is
still the one its state was built from, and replays the game first if another process (a second
terminal, a shell) has written since.

Opening a game does not replay it from the start: a command that starts a round (or ends the game)
also stores the state after it, and a game is opened from the latest such state snapshot that is
still in force plus the events after it. A snapshot is used only when its command is in force and
it was written in this snapshot format by this very engine (the same sources and state layout).
Undo and redo need no care here: the store's triggers drop the snapshots at or after a command
whose status changes, in the same transaction. A snapshot that does not load, or leads to a state
that fails the invariants, makes the session replay everything; one that loads and passes them is
trusted (checking its digest would mean reading every event before it): `bank audit` checks each.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ledger import ENGINE_VERSION
from ledger.books import chain, schema
from ledger.books.damage import CACHE_HINT, SQLITE_DAMAGE
from ledger.books.derived import engine_fingerprint, extend_events_hash, round_snapshots  # noqa: F401
from ledger.books.store import KEY_HINT, Store, db_error, publish, sweep_scratch, unreadable
from ledger import catalog
from ledger.core import engine, snapshot
from ledger.core.engine import Command
from ledger.core.errors import BankError, CommandError, LedgerCorrupt, NeedsConfirmation, RuleViolation
from ledger.core.events import apply, upgraded
from ledger.core.invariants import check as check_invariants
from ledger.core.state import GameState, round_label


@dataclass(frozen=True)
class Base:
    """Where the state in memory was rebuilt from: a state snapshot (or the start of the game) and
    the digest of the active events up to it, which the next snapshot's digest extends."""
    command_id: int = 0
    head_events: int = 0
    events_hash: str = ""


@dataclass(frozen=True)
class Rederived:
    """What a correction (insert, amend, restore) recorded: the first new command's number (the
    inserted or amended one) and its events, each re-recorded command's old and new number, the
    new numbers of those whose results changed, and every account's balance now less its balance
    before (only those that moved)."""
    command_id: int
    before: int
    events: list
    renumbered: list
    changed: list
    balances: dict


# The round of the command that starts a game (as `bank log` names it).
SETUP = "setup"

# `undo --to` hides at most this many commands without its confirmation (--yes, or y in the shell).
HANDFUL = 5


def correction_members(record: dict) -> tuple[list[int], list[int]]:
    """What a correction's record recorded: (the commands it recorded, the commands it superseded)."""
    args = json.loads(record["args"])
    if record["verb"] == "restore":
        return list(args["commands"]), []
    news = [args["command"]] + [new for _old, new in args["renumbered"]]
    return list(dict.fromkeys(news)), [old for old, _new in args["renumbered"]]


def moved(before: dict, after: dict) -> dict:
    """Every account's balance now less before, for those that moved."""
    diff = {a: after.get(a, 0) - before.get(a, 0) for a in set(before) | set(after)}
    return {a: v for a, v in sorted(diff.items()) if v}


class MovedOn(RuleViolation):
    """A command decided on a page drawn before the game's last command: the game moved on since, so
    nothing is recorded (a replayed form, a second tap, a page left open while others played)."""


class UnusableSnapshot(Exception):
    """A state snapshot that does not load or does not lead to a sound state: replay everything."""


class Session:
    def __init__(self, store: Store, verify: bool = True):
        self.store = store
        # what a migration of an older file needs from the game (each command's round, the start's
        # certificate percents), which only the game's rules can say
        store.derived = schema.Derived(rounds=self.command_rounds, start_percents=self.start_percents,
                                       chain=store.ensure_chain)
        # verify: refuse a file whose record was changed outside bank (the chain's head fails);
        # `bank audit` and `bank backup` open it anyway, to say what changed and to save a copy.
        self.verify = verify
        self.tampered: str | None = None
        # SQLite's data_version when this session last checked the file for a write (refuse_if_damaged)
        self.verified_at: int | None = None
        try:
            self.header = store.header()
            self.options = json.loads(self.header["options"])
            self.players = json.loads(self.header["players"])
            self.rs = self.stored_ruleset()
        except BankError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, sqlite3.DatabaseError) as exc:
            raise unreadable(store.path, f"its header is damaged ({exc})") from exc
        self.head = 0
        self.base = Base()
        # set for one write by `entered_as`: the command the writer's page was drawn after
        self.decided_after: int | None = None
        self.state: GameState
        try:
            self.load()
        except BankError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, sqlite3.DatabaseError) as exc:
            raise unreadable(store.path, f"its commands cannot be read ({exc})") from exc

    def stored_ruleset(self):
        try:
            rs = catalog.parse_stored(self.header["ruleset_text"], self.options, self.header["title"],
                                      override_text=self.header.get("ruleset_override") or "")
        except BankError as exc:
            raise LedgerCorrupt(f"the game's stored ruleset no longer loads: {exc.message}") from exc
        if rs.digest != self.header["ruleset_hash"]:
            raise LedgerCorrupt("the stored ruleset does not match its hash: the game file was altered")
        return rs

    @classmethod
    def open(cls, path: str | Path, verify: bool = True) -> "Session":
        store = Store(path)
        try:
            return cls(store, verify)
        except BaseException:
            store.close()
            raise

    @classmethod
    def new(cls, path: str | Path, title: str, players: list[str], options: dict,
            override: Path | None = None, text: str | None = None) -> "Session":
        """Create a game. Everything is checked before the disk is touched; the game is written to
        a new file beside `path` in one transaction and appears at `path` only when complete, never
        replacing an existing file."""
        path = Path(path)
        # Store the exact rules texts (the title's and the table's override, kept apart because the
        # override is merged over the title, not appended) so the game always loads the rules it
        # was started with.
        base, extra = catalog.ruleset_text(title), read_override(override)
        rs = catalog.parse_stored(base, options, title, override_text=extra)
        events = engine.start_events(rs, players)
        if path.exists() or path.is_symlink():
            raise CommandError(f"{path} already exists", "choose another file with --game PATH")
        header = {"title": rs.title, "players": json.dumps(players), "options": json.dumps(options),
                  "ruleset_text": base, "ruleset_override": extra, "ruleset_hash": rs.digest,
                  "engine_version": ENGINE_VERSION}
        tmp = path.with_name(f".bank-new-{os.getpid()}.db")
        sweep_scratch(tmp.parent)
        unlink_quietly(tmp)
        try:
            store = Store(tmp, create=True)
            try:
                with store.transaction():
                    store.create(header)
                    start = engine.initial_state(rs, players, options)
                    command_id = store.append(text or f"new {title} " + " ".join(players), "new",
                                              {"title": title, "players": players, "options": options}, events,
                                              round_label=SETUP, worth=round_snapshots(start, rs, events))
                    after = start.clone()
                    for event in events:
                        apply(after, event)
                    store_state_snapshot(store, Base(), command_id, events, after)
            finally:
                store.close()
            publish(tmp, path)
        except (OSError, sqlite3.Error) as exc:
            raise db_error(exc, path) from exc
        finally:
            unlink_quietly(tmp)
        session = cls.open(path)
        session.store.remember()   # the game is keyed here, at its own path (not the scratch file's)
        return session

    # ------------------------------------------------------------------ the state

    def load(self) -> None:
        """Rebuild the game as it is on disk now: from the latest usable state snapshot and the events
        after it, or from every event when there is none or it proves unusable."""
        try:
            self.load_from(use_snapshot=True)
        except UnusableSnapshot:
            self.load_from(use_snapshot=False)

    def load_from(self, use_snapshot: bool) -> None:
        with self.store.reading():  # one consistent read: head, snapshot and events
            self.check_chain_head()
            head = self.store.head()
            found = self.store.latest_state_snapshot(snapshot.FORMAT, engine_fingerprint()) if use_snapshot else None
            rows = self.store.active_event_rows(after_command=found["command_id"] if found else 0)
        if found:
            base = Base(found["command_id"], found["head_events"], found["events_hash"])
            start = self.snapshot_state(found)
        else:
            base, start = Base(), engine.initial_state(self.rs, self.players, self.options)
        self.state = self.replay_onto(start, rows, from_snapshot=found is not None)
        self.head, self.base = head, base

    def snapshot_state(self, row: dict) -> GameState:
        try:
            return snapshot.state_from_json(row["state"], own=self.rs.parts.state)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise UnusableSnapshot(f"state snapshot of command {row['command_id']}: {exc}") from exc

    def replay_onto(self, state: GameState, rows: list[tuple[int, str]], from_snapshot: bool) -> GameState:
        """Apply stored events to a state and check the invariants on the result. A failure after a
        snapshot may be the snapshot's fault, so it is left to a full replay to tell."""
        damaged = UnusableSnapshot if from_snapshot else LedgerCorrupt
        for event_id, data in rows:
            event = json.loads(data)
            try:
                apply(state, event)
            except Exception as exc:  # any failure here means the stored game (or snapshot) is damaged
                raise damaged(f"replay fails at event {event_id} ({event.get('kind')}): {exc}") from exc
        problems = check_invariants(state, self.rs)
        if problems:
            raise damaged("stored game breaks an invariant: " + "; ".join(problems))
        return state

    def refresh(self) -> int:
        """Reload when another process has recorded commands since this state was built; returns
        how many commands arrived (0: the state is current)."""
        head = self.store.head()
        if head == self.head:
            return 0
        before = self.head
        self.load()
        return self.head - before

    # ------------------------------------------------------------------ writing

    @contextmanager
    def entered_as(self, by: str, after: int | None = None):
        """The writes inside are entered by `by` ('banker', 'player:NAME'; the terminal otherwise)
        and, with `after`, refused unless the game's last command is still command `after`: the
        one the page that asked was drawn after (checked inside the write's transaction)."""
        self.store.entered_by, self.decided_after = by, after
        try:
            yield self
        finally:
            self.store.entered_by, self.decided_after = chain.TERMINAL, None

    def execute(self, cmd: Command, text: str) -> list[dict]:
        with self.store.transaction():
            self.begin_write()
            events, after = engine.decide_with_state(self.state, self.rs, cmd)
            snapshots = round_snapshots(self.state, self.rs, events)
            command_id = self.store.append(text, cmd.verb, cmd.args, events, round_label=round_label(self.state),
                                           worth=snapshots)
            base = store_state_snapshot(self.store, self.base, command_id, events, after)
        # only once committed: a rolled-back command leaves the session as it was
        self.state, self.head, self.base = after, command_id, base
        return events

    def undo(self, text: str = "undo") -> dict:
        """Hide the last command in play. When that command was recorded by an insert that is
        still whole (the inserted command and every command it re-derived are in play), the insert
        is what is taken back: those are hidden and the commands it superseded are in play again,
        exactly as they were recorded. Returns the row undone (the insert's record for an insert),
        with `hidden` and `restored`: the command numbers whose status changed."""
        with self.store.transaction():
            self.begin_write()
            last = self.store.last("active")
            if last is None:
                raise RuleViolation("nothing to undo")
            correction = self.whole_correction_ending_with(last["id"])
            if correction is not None:
                record, members, originals = correction
                self.set_statuses(members, "undone")
                self.set_statuses(originals, "active")
                self.store.append(text, "undo", {record["verb"]: record["id"], "commands": members,
                                                 "restored": originals}, [], status="meta",
                                  round_label=round_label(self.state))
                done = {**record, "hidden": members, "restored": originals}
            else:
                self.store.set_status(last["id"], "undone")
                self.store.append(text, "undo", {"command": last["id"]}, [], status="meta",
                                  round_label=round_label(self.state))
                done = {**last, "hidden": [last["id"]], "restored": []}
            self.load()
        return done

    def undo_to(self, number: int, text: str, confirmed: bool = True) -> list[dict]:
        """Hide every command in play after command `number`, in one step recorded as one undo
        (redo brings them all back). More than a handful needs `confirmed`. Returns the rows
        hidden, in play order."""
        with self.store.transaction():
            self.begin_write()
            self.in_play(number, "undo --to")
            rows = self.store.active_after(number)
            if not rows:
                raise RuleViolation(f"nothing after command {number} to undo: it is the last command in play")
            if len(rows) > HANDFUL and not confirmed:
                raise NeedsConfirmation(
                    f"undo --to {number} would hide {len(rows)} commands ({rows[0]['id']} {rows[0]['text']} to "
                    f"{rows[-1]['id']} {rows[-1]['text']}): nothing was hidden", "add --yes if that is meant")
            hidden = [r["id"] for r in rows]
            self.set_statuses(hidden, "undone")
            self.store.append(text, "undo", {"to": number, "commands": hidden}, [], status="meta",
                              round_label=round_label(self.state))
            self.load()
        return rows

    def redo(self, text: str = "redo") -> dict:
        """Undo the last undo: the command (or every command of an `undo --to` or of an insert)
        it hid is back in play. Returns the first row restored, with `restored` (the command
        numbers back in play) and `superseded` (those an insert's redo supersedes again)."""
        with self.store.transaction():
            self.begin_write()
            step = self.redo_step()
            if step is None:
                raise RuleViolation("nothing to redo", "redo works right after undo, before any new command")
            restored, superseded = step
            self.set_statuses(restored, "active")
            self.set_statuses(superseded, "superseded")
            args = ({"command": restored[0]} if len(restored) == 1 and not superseded
                    else {"commands": restored, "superseded": superseded})
            self.store.append(text, "redo", args, [], status="meta", round_label=round_label(self.state))
            self.load()
            first = self.store.command(restored[0])
        return {**first, "restored": restored, "superseded": superseded}

    def redoable(self) -> dict | None:
        """The first command the next redo puts back in play (None: nothing to redo)."""
        step = self.redo_step()
        return self.store.command(step[0][0]) if step else None

    def redo_step(self) -> tuple[list[int], list[int]] | None:
        """What the next redo does: (commands back in play, commands superseded again), or None.
        Read in order, the commands table is a stack of undo steps that undo pushes, redo pops
        and any new command (an insert too) clears. A step is one command, every command an
        `undo --to` hid, or an insert taken back (its commands, and the ones it had superseded)."""
        stack: list[tuple[list[int], list[int]]] = []
        for row in self.store.commands():
            if row["verb"] == "undo" and row["status"] == "meta":
                args = json.loads(row["args"])
                hidden = args["commands"] if "commands" in args else [args["command"]]
                stack.append((hidden, args.get("restored", [])))
            elif row["verb"] == "redo" and row["status"] == "meta":
                if stack:
                    stack.pop()
            elif row["verb"] != "new":
                stack = []
        return stack[-1] if stack else None

    def insert(self, before: int, cmd: Command, text: str, line: str) -> "Rederived":
        """Record a command the table forgot as if typed just before command `before` (see
        `rederive`). `text`: the inserted command as typed; `line`: the whole line
        (`insert --before N "..."`)."""
        return self.rederive("insert", before, cmd, text, line)

    def amend(self, number: int, cmd: Command, text: str, line: str) -> "Rederived":
        """Replace command `number` (a wrong amount typed in the past) by `cmd` (see `rederive`);
        the old command stays in the ledger, superseded."""
        return self.rederive("amend", number, cmd, text, line)

    def rederive(self, verb: str, number: int, cmd: Command, text: str, line: str) -> "Rederived":
        """A correction in the past: `cmd` is decided on the state before command `number` (in
        place of it for `amend`, before it for `insert`), then every later command in play is
        decided again, in order, on the new state. All of it is decided before anything is
        written; the first refusal (the new command's, or the first later command the past no
        longer allows) refuses the whole correction and nothing changes. Written in one
        transaction: the commands it replaces are marked superseded (their events stay as they were
        recorded), the new command and the later ones, with their new events, are appended in play
        order, and a record (`insert` or `amend`) names them all."""
        where = f"before command {number}" if verb == "insert" else f"in place of command {number}"
        with self.store.transaction():
            self.begin_write()
            target = self.in_play(number, "insert --before" if verb == "insert" else "amend")
            if target["verb"] == "new":
                raise RuleViolation("nothing can be inserted before the start of the game (command 1)"
                                    if verb == "insert" else "the start of the game (command 1) cannot be amended",
                                    f"{verb} at a later command")
            replaced = [target] if verb == "amend" else []
            later = self.store.active_after(number if verb == "amend" else number - 1)
            state = self.state_before(number)
            try:
                events, after = engine.decide_with_state(state, self.rs, cmd)
            except BankError as exc:
                raise type(exc)(f"'{text}' is refused {where}: {exc.message}", exc.hint) from None
            decided = [(text, cmd.verb, cmd.args, None, state, events, after)]
            for row in later:
                state = after
                args = json.loads(row["args"] or "{}")
                try:
                    events, after = engine.decide_with_state(state, self.rs, Command(row["verb"], args))
                except BankError as exc:
                    raise RuleViolation(
                        f"{verb} refused: with '{text}' {where}, command {row['id']} ({row['text']}) would be "
                        f"refused: {exc.message}",
                        f"nothing was recorded; correct the later commands first (undo --to), or {verb} elsewhere"
                    ) from None
                decided.append((row["text"], row["verb"], args, row, state, events, after))
            problems = check_invariants(after, self.rs)
            if problems:
                raise RuleViolation(f"{verb} refused: the game after it breaks an invariant: {'; '.join(problems)}")
            old_balances = dict(self.state.balances)
            superseded = replaced + later
            self.set_statuses([r["id"] for r in superseded], "superseded")
            ids, changed = self.append_decided(decided)
            renumbered = [[r["id"], new] for r, new in zip(superseded, ids if verb == "amend" else ids[1:])]
            self.store.append(line, verb, {"before" if verb == "insert" else "amends": number, "command": ids[0],
                                           "renumbered": renumbered}, [], status="meta",
                              round_label=round_label(self.state))
            self.check_reloaded(after, verb)
        return Rederived(ids[0], number, decided[0][5], renumbered, changed, moved(old_balances, after.balances))

    def restore(self, first: int, last: int | None, line: str) -> "Rederived":
        """Re-apply hidden commands after the current end: command `first` and the commands hidden
        with it by the same step (undo, undo --to, a correction), from it on, or those up to `last`.
        Each is decided again on the game as it is now, in order; the first that no longer holds
        refuses the whole restore and nothing changes. The hidden commands stay hidden in the
        ledger; a `restore` record names them and the new commands."""
        with self.store.transaction():
            self.begin_write()
            rows = self.hidden_from(first, last)
            state, decided = self.state, []
            for row in rows:
                args = json.loads(row["args"] or "{}")
                try:
                    events, after = engine.decide_with_state(state, self.rs, Command(row["verb"], args))
                except BankError as exc:
                    done = f" after restoring {decided[0][3]['id']}-{decided[-1][3]['id']}" if decided else ""
                    raise RuleViolation(
                        f"restore refused: command {row['id']} ({row['text']}) no longer holds{done}: {exc.message}",
                        "nothing was recorded; restore fewer commands (--to N), or undo what was typed since"
                    ) from None
                decided.append((row["text"], row["verb"], args, row, state, events, after))
                state = after
            problems = check_invariants(state, self.rs)
            if problems:
                raise RuleViolation(f"restore refused: the game after it breaks an invariant: {'; '.join(problems)}")
            old_balances = dict(self.state.balances)
            ids, changed = self.append_decided(decided)
            self.store.append(line, "restore", {"commands": ids, "from": [r["id"] for r in rows]}, [], status="meta",
                              round_label=round_label(self.state))
            self.check_reloaded(state, "restore")
        return Rederived(ids[0], first, decided[0][5], [[r["id"], new] for r, new in zip(rows, ids)], changed,
                         moved(old_balances, state.balances))

    def append_decided(self, decided: list[tuple]) -> tuple[list[int], list[int]]:
        """Append commands decided in a correction, in order, with their round and state snapshots;
        returns their new numbers and those whose results differ from the command they re-record."""
        base, ids, changed = Base(), [], []
        for text_, verb, args, row, before_state, events, after in decided:
            command_id = self.store.append(text_, verb, args, events, at=row and row["at"],
                                           by=row and row.get("entered_by"), round_label=round_label(before_state),
                                           worth=round_snapshots(before_state, self.rs, events))
            base = store_state_snapshot(self.store, base, command_id, events, after)
            ids.append(command_id)
            if row is None:
                continue
            # the stored events as today's engine reads them (an older engine's wording is no change)
            if json.loads(json.dumps(events)) != upgraded(self.store.events_of(row["id"]), self.rs.title):
                changed.append(command_id)
        return ids, changed

    def check_reloaded(self, after: GameState, verb: str) -> None:
        self.load()
        if self.state != after:
            raise LedgerCorrupt(f"the game re-derived by the {verb} differs from the game read back: nothing "
                                f"was recorded")

    def hidden(self) -> list[dict]:
        """Every game command hidden from play (undone, or superseded by a correction), in order."""
        return self.store.query("select * from commands where status in ('undone', 'superseded') order by id")

    def hidden_from(self, first: int, last: int | None) -> list[dict]:
        """The hidden commands `restore` re-applies: `first` to `last`, or `first` and those hidden
        with it by the same step, from it on."""
        row = self.store.command(first) if 0 < first < 2 ** 62 else None
        if row is None or row["status"] not in ("undone", "superseded"):
            state = "in play" if row and row["status"] == "active" else "a record" if row else "not in the ledger"
            raise RuleViolation(f"restore {first}: command {first} is {state}, not a hidden command",
                                "bank log --hidden lists the hidden commands")
        if last is not None:
            if last < first:
                raise RuleViolation(f"restore {first} --to {last}: {last} comes before {first}")
            group = range(first, last + 1)
        else:
            group = self.hidden_with(first)
        rows = [r for r in (self.store.command(i) for i in group if i >= first)
                if r is not None and r["status"] in ("undone", "superseded")]
        return rows

    def hidden_with(self, command_id: int) -> list[int]:
        """The commands the step that last hid `command_id` hid (an undo's, or a correction's)."""
        for record in self.store.query("select * from commands where status = 'meta' and verb in "
                                       "('undo', 'insert', 'amend') order by id desc"):
            args = json.loads(record["args"])
            if record["verb"] == "undo":
                group = args.get("commands", [args.get("command")])
            else:
                group = [old for old, _new in args.get("renumbered", [])]
            if command_id in group:
                return sorted(group)
        return [command_id]

    # ------------------------------------------------------------------ corrections: helpers

    def begin_write(self) -> None:
        """The start of every write transaction: a file SQLite finds sound, the game as it is on disk
        with its record unchanged since bank wrote it, the state snapshots' table and triggers there
        to follow status changes, the chain kept, and the file claimed by this engine."""
        self.refuse_if_damaged()
        self.refresh()
        self.check_chain_head(always=True)
        keyless = self.store.key_problem()
        if keyless:
            raise LedgerCorrupt(f"{self.store.path}: {keyless}; nothing was recorded", KEY_HINT)
        self.refuse_if_moved_on()
        self.store.ensure_state_snapshots()
        self.store.ensure_chain()
        self.store.ensure_entered_by()
        first = self.store.derived_missing_from()
        if first is not None:  # commands an older bank appended: their rounds and percents
            self.store.fill_derived(first)
        self.store.claim_engine_version()
        self.store.checked = True   # committed, the head is the file's last verified point

    def refuse_if_damaged(self) -> None:
        """A damaged or edited record is never written to: the checks of what a write extends
        (Store.write_problem: SQLite's integrity check, the chain, the statuses, the rows derived
        from the events, the snapshots' hashes; from the file's last verified point that this
        machine recorded, ledger.books.known, when the rows up to it are those it verified, else of
        the whole file), or one refusal that leaves the file as it is. Within a session the point is
        its own: while no other connection has committed since its last check (SQLite's
        data_version), the file is what this session checked and wrote, and the shell's or the
        table's next command is not checked again."""
        store = self.store
        seen = store.data_version()
        if self.verified_at == seen:
            return
        problem = store.write_problem()
        if problem:
            problem = " ".join(problem.replace("*** in database main ***", "").split())   # one line
            if problem.startswith(SQLITE_DAMAGE):
                raise LedgerCorrupt(f"{store.path} is damaged ({problem}): nothing was recorded",
                                    "restore the game from a backup; bank backup COPY.db keeps what can still be "
                                    "read, bank audit says what is wrong")
            if problem.endswith(CACHE_HINT):
                raise LedgerCorrupt(f"{store.path} was changed outside bank ({problem.removesuffix(CACHE_HINT)}): "
                                    f"nothing was recorded", CACHE_HINT.removeprefix("; ") + ", then the next "
                                    "command is taken")
            raise LedgerCorrupt(f"{store.path} was changed outside bank ({problem}): nothing was recorded",
                                "restore the game from a backup; bank audit lists every change, bank backup "
                                "COPY.db keeps this file as it is")
        self.verified_at = seen

    def refuse_if_moved_on(self) -> None:
        if self.decided_after is None or self.head == self.decided_after:
            return
        last = self.store.command(self.head)
        what = f"command {self.head} ({last['text']})" if last else f"command {self.head}"
        raise MovedOn(f"the game moved on since this page was drawn: {what} was recorded after command "
                      f"{self.decided_after}; nothing was recorded", "look at the page again and choose anew")

    def check_chain_head(self, always: bool = False) -> None:
        """The end of the record as bank wrote it (ledger.books.chain), or one refusal; a session
        opened without `verify` (audit, backup) only notes what is wrong, unless it is to write."""
        self.tampered = self.store.head_problem()
        if self.tampered and (self.verify or always):
            raise LedgerCorrupt(f"{self.store.path} was changed outside bank: {self.tampered}",
                                "bank audit lists every change; restore the game from a backup (bank backup FILE)")

    def set_statuses(self, ids: list[int], status: str) -> None:
        for command_id in ids:
            self.store.set_status(command_id, status)

    def in_play(self, number: int, verb: str) -> dict:
        """The row of command `number`, which must be a command in play, or one clear refusal."""
        row = self.store.command(number)
        last = self.store.head()
        if row is None:
            if number > last:
                raise RuleViolation(f"{verb} {number}: there is no command {number} yet (the last is {last})",
                                    "bank log shows the numbers")
            raise RuleViolation(f"{verb} {number}: there is no command {number}", "bank log shows the numbers")
        if row["status"] == "meta":
            raise RuleViolation(f"{verb} {number}: command {number} is the record of '{row['text']}', not a command "
                                f"in play", "bank log shows the commands in play")
        if row["status"] == "superseded":
            now, by = self.renumbered().get(number, (None, "a correction"))
            where = f"; it is now command {now}" if now else ""
            raise RuleViolation(f"{verb} {number}: command {number} ({row['text']}) is already hidden: it was "
                                f"re-recorded after {by}{where}", "bank log shows the commands in play")
        if row["status"] != "active":
            raise RuleViolation(f"{verb} {number}: command {number} ({row['text']}) is already hidden ({row['status']})",
                                "bank log shows the commands in play; bank redo brings back the last undo")
        return row

    def renumbered(self) -> dict[int, tuple[int, str]]:
        """Each command superseded by a correction -> (the command that re-recorded it, 'an insert'
        or 'an amend')."""
        out = {}
        for record in sorted(self.store.records("insert") + self.store.records("amend"), key=lambda r: r["id"]):
            out.update({old: (new, f"an {record['verb']}") for old, new in json.loads(record["args"])["renumbered"]})
        return out

    def whole_correction_ending_with(self, command_id: int):
        """The correction (insert, amend, restore) that recorded command `command_id`, if every
        command it recorded is in play: (its record, the commands it recorded, the commands it
        superseded); else None."""
        records = sorted(self.store.records("insert") + self.store.records("amend") + self.store.records("restore"),
                         key=lambda r: -r["id"])
        for record in records:
            members, originals = correction_members(record)
            if command_id not in members:
                continue
            statuses = {r["id"]: r["status"] for r in self.store.query(
                f"select id, status from commands where id in ({','.join('?' * len(members))})", members)}
            if all(statuses.get(m) == "active" for m in members):
                return record, members, originals
            return None
        return None

    def state_before(self, command_id: int) -> GameState:
        """The state after every command in play before command `command_id`: from the latest
        usable state snapshot before it, else from the start."""
        try:
            return self.state_before_from(command_id, use_snapshot=True)
        except UnusableSnapshot:
            return self.state_before_from(command_id, use_snapshot=False)

    def state_before_from(self, command_id: int, use_snapshot: bool) -> GameState:
        found = self.store.latest_state_snapshot(snapshot.FORMAT, engine_fingerprint(), before=command_id) \
            if use_snapshot else None
        if found:
            start, after = self.snapshot_state(found), found["command_id"]
        else:
            start, after = engine.initial_state(self.rs, self.players, self.options), 0
        rows = self.store.conn.execute(
            "select e.id, e.data from events e join commands c on c.id = e.command_id where c.status = 'active' "
            "and e.command_id > ? and e.command_id < ? order by e.command_id, e.id", (after, command_id)).fetchall()
        return self.replay_onto(start, rows, from_snapshot=bool(found))

    def command_rounds(self, first: int) -> list[tuple[str, int]]:
        """(the round each command from `first` on was typed in, its id), as `bank log` names them:
        the round of the state before it ('setup' for the start)."""
        conn = self.store.conn
        state = self.state_before(first) if first > 1 else engine.initial_state(self.rs, self.players, self.options)
        events: dict[int, list[dict]] = {}
        for command_id, data in conn.execute("select command_id, data from events where command_id >= ? order by id",
                                             (first,)):
            events.setdefault(command_id, []).append(json.loads(data))
        out = []
        for command_id, verb, status in conn.execute("select id, verb, status from commands where id >= ? "
                                                     "order by id", (first,)).fetchall():
            out.append((SETUP if verb == "new" else round_label(state), command_id))
            if status == "active":
                for event in events.get(command_id, ()):
                    apply(state, event)
        return out

    def start_percents(self) -> dict[str, int]:
        """Each certificate's percent at the start of the game, by the stored ruleset."""
        return dict(engine.initial_state(self.rs, self.players, self.options).cert_percent)

    def backup(self, dest: Path) -> None:
        try:
            self.store.backup(dest)
        except (OSError, sqlite3.Error) as exc:
            raise db_error(exc, dest) from exc

    def close(self) -> None:
        self.store.close()


def read_override(path: Path | None) -> str:
    if path is None:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read the rules file {path}: {getattr(exc, 'strerror', None) or exc}") from exc


def unlink_quietly(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            Path(str(path) + suffix).unlink(missing_ok=True)
        except OSError:
            pass


# --------------------------------------------------------------------------- state snapshots

def starts_round(events: list[dict]) -> bool:
    return any(e["kind"] in ("round_started", "game_over") for e in events)


# A state snapshot also inside a long round, every this many commands, so that opening a game
# replays at most this many whatever the game's or the round's length. Measured (bench/cold.py):
# storing one costs about a millisecond and 20-30 kB; replaying a command about 0.02 ms, so a
# hundred commands replayed are below the noise of a cold start while the file grows by some
# 25 kB per hundred commands.
SNAPSHOT_EVERY = 100


def store_state_snapshot(store: Store, base: Base, command_id: int, events: list[dict], after: GameState) -> Base:
    """Store the state after a command that starts a round or ends the game, or that comes
    SNAPSHOT_EVERY commands after the last snapshot, with the digest of the active events up to
    it (those after `base` are read from this transaction). Returns the new base, or `base` when
    nothing was stored."""
    if not starts_round(events) and command_id - base.command_id < SNAPSHOT_EVERY:
        return base
    try:
        text = snapshot.state_to_json(after)
    except (TypeError, ValueError):
        return base  # a state the encoding cannot hold exactly: no cache, the command still counts
    rows = store.active_event_rows(after_command=base.command_id)
    new = Base(command_id, base.head_events + len(rows), extend_events_hash(base.events_hash, rows))
    store.save_state_snapshot(command_id, new.head_events, new.events_hash, snapshot.FORMAT, engine_fingerprint(),
                              text)
    return new
