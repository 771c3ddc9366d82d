"""`bank audit`: re-derive everything and report any difference.

1. balances from the postings table against balances from a full replay of the events;
2. the postings of each event against the event's own transfers (a tampered row shows here);
3. the invariants after every command (money conserved, certificates sum to 100 %, no negative
   balance) and the limits at the end;
4. every command decided again from the state at that moment: every dividend, sale price, float,
   private revenue and stock move is recomputed and compared with what was stored;
5. the commands that waived a rule, the money adjustments, and physical counts that disagreed;
6. every state snapshot the session may open the game from, against the state a full replay gives
   at its command and the digest of the active events up to it;
7. the file as SQLite sees it, and the record's chain (ledger.books.chain): every command row and
   its events as bank wrote them, each status as the undo, redo and correction records make it,
   certificate moves and postings in the order of their events, every snapshot's hash.
"""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_right
from collections import defaultdict
from dataclasses import fields

from ledger.books import chain, schema
from ledger.books.damage import CACHE_HINT
from ledger.books.derived import engine_fingerprint, extend_events_hash, round_snapshots
from ledger.books.history import walk
from ledger.core import engine, snapshot
from ledger.core.engine import Command
from ledger.core.errors import BankError
from ledger.core.events import apply, upgraded, who_owes_whom
from ledger.core.invariants import check, holdings
from ledger.core.rules import shares


def audit(session) -> tuple[list[str], list[str]]:
    """(problems, notes). Problems make `bank audit` exit non-zero."""
    problems, notes = [], []
    rs = session.rs
    store = session.store
    problems += file_problems(store)
    links = store.links_problem()   # not a write's check: --new-links replaces them
    problems += [links] if links else []
    notes += chain_notes(store)
    # 1 and 2: postings
    posted, posting_found = posting_problems(store)
    problems += posting_found
    problems += check_cert_moves(store)
    problems += check_superseded(store)
    problems += holdings_after_every_event(session)
    totals = {"dividends": 0, "sales": 0, "commands": 0}
    snapshots = stored_snapshots(store)
    state_snapshots = StateSnapshotCheck(store, rs.parts.state)

    def recheck(entry, before):
        totals["commands"] += 1
        state_snapshots.before(entry.id, before)
        check_snapshots(entry, before, rs, snapshots.get(entry.id, []), problems)
        if entry.verb == "new":
            return
        for e in entry.events:
            if e["kind"] == "revenue" and e["how"] == "pay":
                totals["dividends"] += 1
            if e["kind"] == "shares_sold":
                totals["sales"] += 1
        if entry.verb in ("undo", "redo"):
            return
        try:
            again = engine.decide(before, rs, Command(entry.verb, entry.args))
        except BankError as exc:
            problems.append(f"command {entry.id} ({entry.text}): the rules now refuse it: {exc.line()}")
            return
        again = json.loads(json.dumps(again))
        stored = upgraded(entry.events, rs.title)   # as today's engine reads what an older one stored
        if again != stored and not same_results(before, stored, again):
            problems.append(f"command {entry.id} ({entry.text}): stored results differ from the rules: "
                            + first_difference(stored, again))

    entries, final = walk(session, each=recheck)
    problems += derived_problems(session, entries)
    state_snapshots.finish(final)
    problems += state_snapshots.problems
    notes += state_snapshots.notes()
    replayed = {a: v for a, v in final.balances.items() if v}
    if {a: v for a, v in posted.items() if v} != replayed:
        diff = {a: (posted.get(a, 0), replayed.get(a, 0)) for a in set(posted) | set(replayed)
                if posted.get(a, 0) != replayed.get(a, 0)}
        problems.append(f"balances from postings differ from the replay: {diff} (postings, replay)")
    problems += [f"invariant: {p}" for p in check(final, rs)]
    for p in final.players:
        if shares.over_cert_limit(final, rs, p):
            notes.append(f"{p} holds {shares.cert_count(final, rs, p)} certificates, over the limit {shares.cert_limit(final, rs, p)}")
    for entry in entries:
        if entry.status != "active":
            continue
        try:
            notes += event_notes(entry, rs)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            problems.append(f"command {entry.id} ({entry.text}): an event is not as bank writes it ({exc!r})")
    notes.insert(0, f"{totals['commands']} commands decided again from the state at their moment: "
                    f"{totals['dividends']} dividends and {totals['sales']} sales recomputed")
    return problems, notes


def event_notes(entry, rs) -> list[str]:
    """The notes of one command in force: the rules it waived, the money adjusted, a count that disagreed."""
    notes = []
    for e in entry.events:
        if e["kind"] == "rules_waived":
            notes.append(f"command {entry.id} ({entry.text}) was forced: {e['reason']}; waived: "
                         + ("; ".join(e["rules"]) or "nothing"))
        elif e["kind"] == "adjustment":
            notes.append(f"command {entry.id}: adjustment of {rs.money(e['amount'])} from {e['from']} to {e['to']}: "
                         f"{e['reason']}")
        elif e["kind"] == "count" and e["difference"]:
            notes.append(f"command {entry.id}: {e['player']} counted {rs.money(e['counted'])}, ledger "
                         f"{rs.money(e['ledger'])}: {who_owes_whom(e, rs)}")
    return notes


def posting_problems(store, events=None, after: int = 0) -> tuple[dict, list[str]]:
    """(each account's balance from the postings of commands in force, the events whose postings
    differ from their own transfers); `after`: only those of the commands after it (and `events`
    only theirs)."""
    problems = []
    posted = defaultdict(int)
    by_event = defaultdict(lambda: defaultdict(int))
    for row in store.query("select p.event_id, p.account, p.amount from postings p join commands c "
                           "on c.id = p.command_id where c.status = 'active' and (? = 0 or p.command_id > ?)",
                           (after, after)):
        posted[row["account"]] += row["amount"]
        by_event[row["event_id"]][row["account"]] += row["amount"]
    for event_id, command_id, event, active in events if events is not None else event_rows(store):
        if not active:
            continue
        want = defaultdict(int)
        for payer, payee, amount in event.get("transfers", ()):
            want[payer] -= amount
            want[payee] += amount
        got = {a: v for a, v in by_event.get(event_id, {}).items() if v}
        if {a: v for a, v in want.items() if v} != got:
            problems.append(f"command {command_id}: postings of event {event_id} ({event.get('kind')}) "
                            f"{dict(got)} differ from its transfers {dict(want)}")
    return posted, problems


def derived_problems(session, entries) -> list[str]:
    """The rows kept for SQL readers (ledger.books.schema) against the ledger: each command's round
    as the replay names it, and each certificate's percent as its events set it."""
    store, problems = session.store, []
    if "round" in store.columns("commands"):
        stored = {r["id"]: r["round"] for r in store.query("select id, round from commands")}
        for entry in entries:
            if entry.status == "active" and stored.get(entry.id) is not None and stored[entry.id] != entry.round:
                problems.append(f"command {entry.id} ({entry.text}) is stored as typed in {stored[entry.id]}, "
                                f"but the replay puts it in {entry.round}")
                break
    return problems + percent_problems(store, session.start_percents)


def percent_problems(store, start_percents, events=None, after: int = 0) -> list[str]:
    """The certificate percents (cert_percents) against the events that set them (`after`: of the
    commands after it)."""
    if not store.has_table("cert_percents"):
        return []
    got = [tuple(r) for r in store.conn.execute(
        "select event_id, command_id, cert, company, percent from cert_percents where (? = 0 or command_id > ?) "
        "order by id", (after, after))]
    want = []
    for event_id, command_id, event, _active in events if events is not None else event_rows(store):
        want += schema.percent_rows(event_id, command_id, event, start_percents)
    if got != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        return [f"the certificate percents (cert_percents) differ from the events' at row {at + 1}: "
                f"{got[at] if at < len(got) else 'none'}, expected {want[at] if at < len(want) else 'none'}"]
    return []


# What a write checks (Store.write_problem) is told apart by its first words: SQLite's own damage,
# a cache bank never opens from, or the record changed.


def record_problems(store, start_percents, after: int = 0) -> list[str]:
    """What every write checks before it extends the record: all that `bank audit` checks without
    deciding a rule again or replaying the game. SQLite's integrity check (the pages and every
    index against its table: a file cut by its last byte shows here), the chain over every command
    row and its events, each status against the undo, redo and correction records, the postings,
    certificate moves and percents against their events (and in their order), and every state
    snapshot's hash. What needs a replay (each command's stored round, the worth per round, the
    rules deciding each command again) is left to `bank audit`; from schema 6 the chain covers each
    command's round and worth per round. The first problem found is enough to refuse a write.

    `after`: the file's last verified point (ledger.books.known.verified_point: the rows up to that
    command are, to the byte, those this machine verified and wrote): only the rows after it are
    checked, with SQLite's integrity check, the head, and the statuses and corrections of every
    command (a few milliseconds). On the largest example game (bench/write_checks.py) the whole
    file's checks take about 50 ms, from a verified point about 15 (the digest of the rows up to
    it included)."""
    try:
        found = file_problems(store, after)
        if found:
            return found
        events = event_rows(store, after)
        for check in (lambda: posting_problems(store, events, after)[1],
                      lambda: check_cert_moves(store, events, after) if store.has_table("cert_moves") else [],
                      lambda: check_superseded(store),
                      lambda: percent_problems(store, start_percents, events, after),
                      lambda: snapshot_hash_problems(store, after)):
            found = check()
            if found:
                return found
    except sqlite3.DatabaseError as exc:
        return [f"SQLite cannot read it: {exc}"]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:   # a row that is not JSON bank wrote
        return [f"a row is not as bank writes it ({exc!r})"]
    return []


def snapshot_hash_problems(store, after: int = 0) -> list[str]:
    """The state snapshots whose hash fails (moved or edited outside bank): never opened from, and
    a sign that someone edited the file (`after`: of the commands after it)."""
    if not store.chained():
        return []
    keying = store.keying()   # a keyed chain's snapshots are keyed too (ledger.books.chain)
    return [f"the state snapshot of command {row['command_id']} fails its hash: it was moved or changed outside "
            f"bank" + CACHE_HINT for row in store.state_snapshots(after)
            if row["hash"] is not None and keying.checkable(row["command_id"])
            and row["hash"] != chain.snapshot_hash(row["command_hash"], row, keying.for_row(row["command_id"]))][:1]


def file_problems(store, after: int = 0) -> list[str]:
    """SQLite's integrity check, the chain of the record, the statuses its records give and the
    order of the rows derived from the events (`after`: the chain and the order of the commands
    after it, see record_problems)."""
    try:
        checked = [r[0] for r in store.conn.execute("pragma integrity_check(10)")]
    except sqlite3.DatabaseError as exc:
        checked = [str(exc)]
    problems = [] if checked == ["ok"] else [f"SQLite finds the file damaged: {'; '.join(map(str, checked))}"]
    damaged = store.quick_check(after) if not problems else None
    if damaged:
        problems.append(f"the file is damaged: {damaged}")
    head = store.head_problem()
    if not store.chained():
        return problems + ([f"the record's chain: {head}"] if head else [])
    found = chain_problems(store, after)
    if head and not found:   # the chain is whole, but cleared, moved back or unsealed at its head
        found = [f"the record's chain: {head}"]
    return problems + found + status_problems(store) + order_problems(store, after)


def chain_notes(store) -> list[str]:
    """How the chain is kept (keyed or not, and whether its key is here) and its head's fingerprint."""
    if not store.chained():
        return []
    keying = store.keying()
    head, digest = store.head_hash()
    if not keying.keyed:
        how = ("the chain is plain SHA-256 (no key where it was written): whoever edits the file can make it again; "
               "the fingerprints the phones and the table kept still show a rewritten past")
    elif keying.here:
        how = f"the chain is keyed with this machine's key {keying.key_id} from command {keying.first}: every digest checked"
    else:
        how = f"chained, key not here: {keying.missing()}"
    return [how, f"record {chain.fingerprint(digest, chain.LONG)} after command {head} "
                 f"(bank audit --against FINGERPRINT checks another record against it)"]


def against(store, text: str) -> tuple[list[str], list[str]]:
    """(problems, notes) of a fingerprint against the record: is it in the chain, and after which
    command was it the head."""
    try:
        wanted = chain.parse_fingerprint(text)
    except ValueError as exc:
        return [str(exc)], []
    shown = chain.fingerprint(wanted, len(wanted))
    found = store.heads_with(wanted)
    if not found:
        head, digest = store.head_hash()
        return [f"record {shown} is not in this record's chain (now record {chain.fingerprint(digest)} after command "
                f"{head}): the record was rewritten at or before the command it was shown after, or it is another "
                f"game's"], []
    if len(found) > 1:
        return [], [f"record {shown} is the head after {len(found)} commands "
                    f"({', '.join(str(r['id']) for r in found[:5])}): give more of its digits"]
    row = found[0]
    head, _digest = store.head_hash()
    later = head - row["id"]
    return [], [f"record {shown} is in the chain: the head after command {row['id']} ({row['text']}, {row['at']})"
                + (f"; {later} command(s) were recorded after it" if later else "; it is the record's head now")]


def chain_problems(store, after: int = 0) -> list[str]:
    """Each command row's hash against its content, its events and the row before it (keyed from
    the row the header names, when this machine holds the key), and from the row the header's
    `chain_derived_from` names, its round and worth per round; the header's head against the last
    row. The first break is reported (every later row follows from it). `after`: a command whose
    hash and the rows up to it were verified already (the write's last verified point, see
    ledger.books.known): only the rows after it are checked."""
    keying = store.keying()
    previous, last = "", None
    if after:
        found = store.conn.execute("select hash from commands where id = ?", (after,)).fetchone()
        previous, last = (found[0], after) if found else ("", None)
    for row, events in store.chain_rows(after):
        if row.get("orphan"):
            return [f"events {[e[0] for e in events][:5]} belong to command {row['id']}, which is not in the record: "
                    f"its row was removed"]
        if row["hash"] is None:
            return [f"command {row['id']} ({row['text']}) has no hash: it was added outside bank"]
        derives = keying.derives(row["id"])
        if keying.checkable(row["id"]) and chain.command_hash(previous, row, events, keying.for_row(row["id"]),
                                                              row["worth"] if derives else None) != row["hash"]:
            what = "the row, its events, its round, its worth per round" if derives else "the row, its events"
            return [f"command {row['id']} ({row['text']}): {what} or the row before it were changed, "
                    f"added or removed after they were recorded"]
        previous, last = row["hash"], row["id"]
    head = store.conn.execute("select chain_head, chain_hash from game where id = 1").fetchone()
    if head is not None and head[0] is None and last is not None:
        return ["the head of the record's chain was cleared (game.chain_head is NULL): the check of every open was "
                "turned off"]
    if head is not None and (head[0], head[1]) != (last, previous or None) and (head[0] or last):
        return [f"the header says the last command is {head[0]}, but the record ends with {last}: "
                f"a command at the end was removed"]
    return []


def status_problems(store) -> list[str]:
    """Each command's status against the one its undo, redo and correction records give."""
    rows = store.query("select id, verb, args, status from commands order by id")
    want = chain.derived_statuses(rows)
    return [f"command {r['id']} is {r['status']}, but the records make it {want[r['id']]}: its status was changed "
            f"outside bank" for r in rows if want.get(r["id"]) != r["status"]][:5]


def order_problems(store, after: int = 0) -> list[str]:
    """The certificate moves and postings read in id order (as the `holdings` and `balances` views
    read them) must follow their events in order: a reordered row shows here (`after`: those of
    the commands after it)."""
    problems = []
    moves = [(r[0], r[1], r[2], r[3]) for r in store.conn.execute(
        "select event_id, cert, source, dest from cert_moves where (? = 0 or command_id > ?) order by id",
        (after, after))]
    postings = [(r[0], r[1], r[2]) for r in store.conn.execute(
        "select event_id, account, amount from postings where (? = 0 or command_id > ?) order by id", (after, after))]
    want_moves, want_postings = [], []
    for event_id, data in store.conn.execute("select id, data from events where (? = 0 or command_id > ?) order by id",
                                             (after, after)):
        event = json.loads(data)
        want_moves += [(event_id, cert, src, dest) for cert, src, dest in event.get("certs", ())]
        for payer, payee, amount in event.get("transfers", ()):
            want_postings += [(event_id, payer, -amount), (event_id, payee, amount)]
    for name, got, want in (("certificate moves", moves, want_moves), ("postings", postings, want_postings)):
        if got != want and sorted(got) == sorted(want):
            at = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
            problems.append(f"the {name} are out of the order of their events (row {at + 1}: {got[at]}, "
                            f"expected {want[at]}): the table was reordered outside bank")
    return problems


def holdings_after_every_event(session) -> list[str]:
    """After every event in force, not only at the end: each company's certificates sum to 100 %
    and every certificate and asset has one holder in the game."""
    state = engine.initial_state(session.rs, session.players, session.options)
    problems = []
    rows = session.store.query("select e.id, e.command_id, e.data from events e join commands c "
                               "on c.id = e.command_id where c.status = 'active' order by e.id")
    for row in rows:
        event = json.loads(row["data"])
        apply(state, event)
        found = holdings(state, session.rs)
        if found:
            problems.append(f"command {row['command_id']}: after event {row['id']} ({event['kind']}): {'; '.join(found)}")
            break  # later events inherit the problem
    return problems


def check_superseded(store) -> list[str]:
    """A command is superseded only by a correction (insert, amend), which names it; a correction's
    record names only commands that exist (a hand edit of the statuses shows here)."""
    named: dict[int, int] = {}
    problems = []
    ids = {row["id"]: row["status"] for row in store.query("select id, status from commands")}
    for record in store.query("select id, verb, args from commands where verb in ('insert', 'amend') "
                              "and status = 'meta' order by id"):
        args = json.loads(record["args"])
        for old, new in args.get("renumbered", []):
            named[old] = record["id"]
            if old not in ids or new not in ids:
                problems.append(f"the {record['verb']} recorded as command {record['id']} names command {old} or "
                                f"{new}, which does not exist")
    for command_id, status in ids.items():
        if status == "superseded" and command_id not in named:
            problems.append(f"command {command_id} is marked superseded, but no correction superseded it")
    return problems


def event_rows(store, after: int = 0) -> list[tuple[int, int, dict, bool]]:
    """(id, command id, event, whether its command is in force) of every stored event (`after`: of
    the commands after it), in order: read and decoded once for the checks that compare the rows
    derived from them."""
    return [(event_id, command_id, json.loads(data), status == "active") for event_id, command_id, data, status in
            store.conn.execute("select e.id, e.command_id, e.data, c.status from events e "
                               "left join commands c on c.id = e.command_id where (? = 0 or e.command_id > ?) "
                               "order by e.id", (after, after))]


def check_cert_moves(store, events=None, after: int = 0) -> list[str]:
    """The cert_moves table (what the `holdings` view reads) against the certificates each stored
    event moves: a deleted, added or edited row shows here (`after`: of the commands after it)."""
    stored = defaultdict(list)
    for row in store.query("select event_id, cert, source, dest from cert_moves where (? = 0 or command_id > ?) "
                           "order by id", (after, after)):
        stored[row["event_id"]].append([row["cert"], row["source"], row["dest"]])
    problems = []
    for event_id, command_id, event, _active in events if events is not None else event_rows(store):
        want = [list(m) for m in event.get("certs", ())]
        got = stored.pop(event_id, [])
        if got != want:
            missing = [m for m in want if m not in got] or "none"
            extra = [m for m in got if m not in want] or "none"
            problems.append(f"command {command_id}: the certificate moves recorded for event {event_id} "
                            f"({event.get('kind')}) differ from the event's: missing {missing}, not in the event {extra}")
    for event_id, rows in stored.items():
        problems.append(f"cert_moves rows {rows} belong to no event (event {event_id})")
    return problems


def stored_snapshots(store) -> dict[int, list[tuple]]:
    out = defaultdict(list)
    for row in store.query("select command_id, round, player, cash, shares, privates, value from snapshots "
                           "order by id"):
        out[row["command_id"]].append((row["round"], row["player"], row["cash"], row["shares"], row["privates"],
                                       row["value"]))
    return out


def check_snapshots(entry, before, rs, stored: list[tuple], problems: list[str]) -> None:
    """The per-round snapshots (what the `worth_by_round` view reads) of a command in force,
    derived again from the state before it and its stored events."""
    want = [(label, r["player"], r["cash"], r["shares"], r["privates"], r["value"])
            for label, rows in round_snapshots(before, rs, entry.events) for r in rows]
    if want != stored:
        diff = next(((w, g) for w, g in zip(want, stored) if w != g), (want[len(stored):], stored[len(want):]))
        problems.append(f"command {entry.id} ({entry.text}): its stored round snapshot {diff[1]} differs from "
                        f"the ledger's {diff[0]}")


class StateSnapshotCheck:
    """Each stored state snapshot against the full replay: the state after its command (which is
    the state before the next command in force, or the final state) and the count and digest of
    the active events up to it. Snapshots of commands no longer in force, or written by another
    engine, are never opened from and are only counted."""

    def __init__(self, store, own: type | None = None):
        self.own = own   # the title's own state's dataclass (GameState.own)
        self.rows, self.ignored, self.problems = {}, [], []
        self.failing: set[int] = set()   # snapshots whose hash fails (moved or edited outside bank)
        self.reported: set[int] = set()  # ... of them, those a difference from the replay explains
        chained = store.chained()
        keying = store.keying()
        for row in store.state_snapshots():
            if (chained and row["hash"] is not None and keying.checkable(row["command_id"])
                    and row["hash"] != chain.snapshot_hash(row["command_hash"], row, keying.for_row(row["command_id"]))):
                self.failing.add(row["command_id"])
            usable = (row["status"] == "active" and row["format"] == snapshot.FORMAT
                      and row["engine"] == engine_fingerprint() and (row["hash"] is not None or not chained))
            if usable:
                self.rows[row["command_id"]] = row
            else:
                self.ignored.append(row)
        self.digests = event_digests(store) if self.rows else []
        self.digest_commands = [command_id for command_id, _count, _digest in self.digests]
        self.waiting: dict | None = None  # a snapshot whose state is the one before the next command

    def before(self, command_id: int, state) -> None:
        """Called with the replayed state before each command in force."""
        self.settle(state)
        row = self.rows.get(command_id)
        if row:
            self.check_digest(row)
            self.waiting = row

    def finish(self, final) -> None:
        self.settle(final)
        for command_id in sorted(self.failing - self.reported):
            self.problems.append(f"the state snapshot of command {command_id} fails its hash: it was moved or changed "
                                 f"outside bank, and bank never opens from it" + CACHE_HINT)

    def settle(self, state) -> None:
        if self.waiting is not None:
            self.check_state(self.waiting, state)
            self.waiting = None

    def report(self, row: dict, text: str) -> None:
        command_id = row["command_id"]
        if command_id in self.failing:
            self.reported.add(command_id)
            text += " (and it fails its hash: bank never opens from it)"
        self.problems.append(text + CACHE_HINT)

    def check_digest(self, row: dict) -> None:
        at = bisect_right(self.digest_commands, row["command_id"]) - 1
        count, digest = (self.digests[at][1], self.digests[at][2]) if at >= 0 else (0, "")
        if (row["head_events"], row["events_hash"]) != (count, digest):
            self.report(row, f"the state snapshot of command {row['command_id']} was taken after {row['head_events']} "
                             f"events with digest {str(row['events_hash'])[:12]}, but the ledger has {count} with "
                             f"digest {digest[:12]}")

    def check_state(self, row: dict, replayed) -> None:
        try:
            stored = snapshot.state_from_json(row["state"], own=self.own)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            self.report(row, f"the state snapshot of command {row['command_id']} does not load: {exc}")
            return
        differ = [f.name for f in fields(replayed) if getattr(stored, f.name, None) != getattr(replayed, f.name)]
        if differ:
            self.report(row, f"the state snapshot of command {row['command_id']} differs from the replay in "
                             + ", ".join(differ))

    def notes(self) -> list[str]:
        out = [f"{len(self.rows)} state snapshots match the replay"] if self.rows and not self.problems else []
        if self.ignored:
            out.append(f"{len(self.ignored)} state snapshots are never opened from (written by another engine, or "
                       f"their command is not in force)")
        return out


# The session opens a game from its latest snapshot without re-reading the events before it.


def event_digests(store) -> list[tuple[int, int, str]]:
    """(command id, active events so far, their digest) after each command in force with events."""
    out, count, digest = [], 0, ""
    for command_id, rows in grouped_by_command(store.query(
            "select e.id, e.command_id, e.data from events e join commands c on c.id = e.command_id "
            "where c.status = 'active' order by e.id")):
        count += len(rows)
        digest = extend_events_hash(digest, rows)
        out.append((command_id, count, digest))
    return out


def grouped_by_command(rows: list[dict]):
    group: list[tuple[int, str]] = []
    for i, row in enumerate(rows):
        group.append((row["id"], row["data"]))
        if i + 1 == len(rows) or rows[i + 1]["command_id"] != row["command_id"]:
            yield row["command_id"], group
            group = []


# A kind that only games recorded by engine version 1 hold (their turn bookkeeping).
LEGACY_KINDS = {"round_update"}


def same_results(before, stored: list[dict], again: list[dict]) -> bool:
    """A command recorded by an older engine says the same thing in older words (version 1 kept its
    turn bookkeeping in `round_update` events): it agrees with the rules when its events move the
    same money and leave the game in the same state as the events the rules give now."""
    if not any(e["kind"] in LEGACY_KINDS for e in stored):
        return False
    money = lambda events: sorted(tuple(t) for e in events for t in e.get("transfers", ()))  # noqa: E731
    if money(stored) != money(again):
        return False
    old, new = before.clone(), before.clone()
    for e in stored:
        apply(old, e)
    for e in again:
        apply(new, e)
    return old == new   # a turn key an older engine set to None is one today's leaves out: rounds compare what is set


def first_difference(stored: list[dict], again: list[dict]) -> str:
    for i, (a, b) in enumerate(zip(stored, again)):
        if a != b:
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            return f"event {i + 1} ({a.get('kind')}): " + ", ".join(f"{k} stored {a.get(k)!r}, rules {b.get(k)!r}"
                                                                     for k in keys[:3])
    return f"{len(stored)} stored events, the rules give {len(again)}"
