"""The table's pages (`bank serve --table`): each player's and the banker's, reached by a private link.

GET /t/TOKEN draws the page: the board, and the actions its holder may take now as forms (a
player's own; the banker's: everyone's, undo and redo, and a command line for anything the CLI
takes). POST /t/TOKEN records one action and redirects back to the page (POST, redirect, GET: a
reload never sends it again), which then says what happened or why nothing was.

Every write goes through the same Session as the CLI (one SQLite transaction, decided on the game
as it is on disk), entered as the link's holder, and names the command the page was drawn after:
if the game moved on since, nothing is recorded and the page says so. A form also carries the
page's anti-forgery value, which only this server could have made for this link. A link acts only
as its holder; a request is small, bounded in rate, and read as data (form fields become a
Command through the grammar; SQLite sees parameters): junk gets a 4xx, never a traceback.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ledger.books.session import Session
from ledger.core import grammar
from ledger.core.errors import BankError, CommandError, RuleViolation, one_line
from ledger.interface.board import links, record
from ledger.interface import corrections
from ledger.interface.verbs import verbs_of
from ledger.core import legal
from ledger.interface.board.actions import command_of, who_label
from ledger.interface.board.controls import (BANKER, Control, Page, Proposal, acts_for, control_for, page_of,
                                             preview)

# Bounds on what a request may be (anything larger is refused before it is read further).
MOST_BODY = 4096               # bytes of a form
MOST_FIELDS = 24
MOST_VALUE = 400               # characters of one field (the banker's command line)
# Each client (address and link) may send this many requests at once, and this many more a second.
BURST, PER_SECOND = 40, 20.0
# What the page remembers of the results it reports (a note per action, for the redirect to show).
NOTES = 512
# The commands a banker's command line may run besides the game's: the corrections.
CORRECTIONS = ("undo", "redo", "insert", "amend", "restore")


class Refused(Exception):
    """A request that is not a table action: answered with its status and one line."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass(frozen=True)
class Note:
    """What a holder's last action did (or why nothing was recorded), for the page it returns to:
    shown while the game is still at `head`; a refusal keeps what was typed (`form`: the form's
    fields) for the form to show again."""
    who: str
    ok: bool
    lines: tuple
    head: int = 0
    form: tuple = ()


class Rates:
    """A token bucket per client: BURST requests at once, PER_SECOND more each second."""

    def __init__(self):
        self.buckets: OrderedDict[tuple, tuple[float, float]] = OrderedDict()

    def allow(self, key: tuple, cost: float = 1.0) -> bool:
        now = time.monotonic()
        level, then = self.buckets.pop(key, (BURST, now))
        level = min(BURST, level + (now - then) * PER_SECOND)
        allowed = level >= cost
        self.buckets[key] = (level - cost if allowed else level, now)
        while len(self.buckets) > 4096:   # forget the oldest clients, never grow without bound
            self.buckets.popitem(last=False)
        return allowed


class Writer:
    """The one writer: a Session on the game file, used by one thread only, as the CLI uses one."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bank-table")
        self.session: Session = self.worker.submit(Session.open, self.path).result()
        self.hashes = self.worker.submit(self.session.store.link_hashes).result()

    async def run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    def close(self) -> None:
        self.worker.submit(self.session.close).result()
        self.worker.shutdown()

    # ------------------------------------------------------------------ in the worker thread

    def act(self, who: str, after: int, fields: dict, proposals: dict) -> list[str]:
        """Record one action of `who` from the page drawn after command `after`; returns what
        happened, in the CLI's words. Refusals are BankErrors, with nothing recorded. `proposals`:
        the deals offered between the table's people, which `propose`, `accept`, `decline` and
        `withdraw` change."""
        s = self.session
        s.refresh()
        kind = fields.get("kind", "act")
        line = fields.get("line", "").strip()
        if line or fields.get("do"):
            if who != BANKER:
                raise RuleViolation(f"only the banker's page takes a command line; this link acts for "
                                    f"{who_label(who)}")
            with s.entered_as(who, after=after):
                s.refuse_if_moved_on()
                return self.banker_line(plain_quotes(line) or fields["do"])
        if kind == "undo-mine":
            return self.undo_mine(who, after)
        if kind in ("accept", "decline", "withdraw"):
            return self.answer_offer(who, kind, fields.get("offer", ""), proposals)
        control, values = self.chosen(who, after, fields)
        if kind == "propose":
            if not control.consent:
                raise RuleViolation("this action takes nobody's holding: it is entered, not offered")
            key = secrets.token_urlsafe(9)
            proposals[key] = Proposal(key, who, f"player:{control.consent}", control, tuple(values.items()), s.head)
            return [f"Offered to {control.consent}: {control.label}{typed(values)}. Nothing moves until "
                    f"{control.consent} accepts."]
        if control.consent and who != BANKER:
            raise RuleViolation(f"this takes {control.consent}'s holding: send it as an offer for {control.consent} "
                                f"to accept")
        return self.record(who, control, values)

    def chosen(self, who: str, after: int, fields: dict) -> tuple[Control, dict]:
        """The control a page's form names, as the game offers it now (a page drawn before a later
        command is taken at its word when the action is still open to its holder at the same price),
        and the words typed into its fields; or the refusal that says what changed."""
        s = self.session
        verb, actor = fields.get("verb", ""), fields.get("actor") or None
        if not acts_for(s.state, who, actor):
            whose = f"{actor}'s" if actor else "the banker's"
            raise RuleViolation(f"this link acts for {who_label(who)} only: {verb} {actor or ''} is {whose} to "
                                f"enter; nothing was recorded".replace("  ", " "))
        words = {k[2:]: v for k, v in fields.items() if k.startswith("w.")}
        typed = tuple(n for n in fields["typed"].split(",") if n) if "typed" in fields else None
        control = control_for(s.state, s.rs, who, verb, actor, words, typed)
        moved = s.head != after
        if control is None:
            why = "the game moved on since this page was drawn" if moved else "it is not open now"
            what = " ".join(str(w) for w in (verb, actor, *words.values()) if w)
            raise RuleViolation(f"{what}: {why}; nothing was recorded", f"Next: {legal.hint(s.state, s.rs)}")
        if control.seen != fields.get("seen", control.seen):
            raise RuleViolation(f"this action changed since the page was drawn: it now reads '{control.label}'; "
                                f"nothing was recorded", "look at it again and choose anew")
        given = typed_values(fields)
        values = {f.name: given[f.name] for f in control.fields if given.get(f.name, "") != ""}
        missing = [f.label for f in control.fields if f.name not in values and f.kind == "number" and not f.optional]
        if missing:
            raise CommandError(f"type the {', '.join(missing).lower()} first")
        return control, values

    def record(self, who: str, control: Control, values: dict, by: str | None = None) -> list[str]:
        """The control's command with the words typed, recorded as the CLI records it, entered by `by`
        (the holder, unless a deal's acceptance names both)."""
        s = self.session
        cmd, text = command_of(s.rs, control.verb, control.actor, {**dict(control.words), **values})
        with s.entered_as(by or who, after=s.head):
            return self.described(s.execute(cmd, text))

    def answer_offer(self, who: str, kind: str, key: str, proposals: dict) -> list[str]:
        """Accept or decline a deal offered to `who` (the banker answers any), or withdraw one's own."""
        s = self.session
        found = proposals.get(key)
        if found is None:
            raise RuleViolation("that offer is no longer open (answered, withdrawn, or the game moved on)")
        if kind == "withdraw":
            if who not in (found.by, BANKER):
                raise RuleViolation(f"only {who_label(found.by)} withdraws this offer")
            proposals.pop(key, None)
            return [f"Offer withdrawn: {found.control.label}"]
        if who not in (found.to, BANKER):
            raise RuleViolation(f"this offer is {who_label(found.to)}'s to answer")
        if kind == "decline":
            proposals.pop(key, None)
            return [f"{who_label(found.to)} declined: {found.control.label}"]
        control = found.control
        now = control_for(s.state, s.rs, found.by if found.by != BANKER else BANKER, control.verb, control.actor,
                          dict(control.words), tuple(f.name for f in control.fields))
        if now is None or now.seen != control.seen:
            proposals.pop(key, None)
            raise RuleViolation(f"the offer no longer holds as it was made ({control.label}): nothing was recorded",
                                f"Next: {legal.hint(s.state, s.rs)}")
        done = self.record(found.by, control, dict(found.values), by=f"{found.to}; offered by {found.by}")
        proposals.pop(key, None)
        return done

    def undo_mine(self, who: str, after: int) -> list[str]:
        """A holder takes back their own last command while nobody has acted since."""
        s = self.session
        last = s.store.last("active")
        if last is None or last.get("entered_by") != who or last["id"] != s.head:
            raise RuleViolation("only your own last command, while nobody has entered one since, is yours to undo")
        with s.entered_as(who, after=after):
            s.refuse_if_moved_on()
            before = s.state
            return corrections.undone(s.undo("undo")) + corrections.changes(before, s.state, s.rs)

    def banker_line(self, line: str) -> list[str]:
        """A line as the CLI takes it: a game command, or a correction (undo, redo, insert, amend, restore)."""
        s = self.session
        text = line.removeprefix("bank ").strip()
        known = verbs_of(s.rs)
        cmd = grammar.parse_line(text, known)
        verb = known[cmd.verb]
        if verb.game:
            return self.described(s.execute(cmd, text))
        if cmd.verb not in CORRECTIONS:
            raise CommandError(f"'{cmd.verb}' is not entered on the page (the page shows the board)",
                               f"a game command or one of {', '.join(CORRECTIONS)}")
        before = s.state   # a correction replaces the state: what it changed is said as the CLI says it
        return self.correction(cmd, text) + corrections.changes(before, s.state, s.rs)

    def correction(self, cmd, text: str) -> list[str]:
        from ledger.core.names import command_number
        s, args = self.session, cmd.args
        if cmd.verb == "undo" and "to" in args:
            rows = s.undo_to(command_number(args["to"]), text, confirmed=bool(args.get("yes")))
            return corrections.undone_to(rows, args["to"])
        if cmd.verb == "undo":
            return corrections.undone(s.undo(text))
        if cmd.verb == "redo":
            return corrections.redone(s.redo(text))
        if cmd.verb == "restore":
            done = s.restore(command_number(args["number"]), command_number(args["to"]) if "to" in args else None,
                             text)
            return [corrections.restored(done)]
        line, inner = corrections.correction_line(args.get("command", []), cmd.verb,
                                                  "insert --before 117 'tile CORP 120'", s.rs)
        if cmd.verb == "insert":
            if "before" not in args:
                raise CommandError("say where: insert --before N \"COMMAND\"")
            number = command_number(args["before"])
            done = s.insert(number, inner, line, text)
            said = corrections.inserted(done, number, line)
        else:
            target = command_number(args["number"])
            old = s.store.command(target)
            done = s.amend(target, inner, line, text)
            said = corrections.amended(done, target, old["text"], line)
        return [said] + self.described(done.events)[:-1]

    def described(self, events: list[dict]) -> list[str]:
        from ledger.interface.views import describe, whose_turn
        s = self.session
        return [t for t in (describe(e, s.rs) for e in events) if t] + [f"Next: {whose_turn(s.state, s.rs)}"]


def typed(values: dict) -> str:
    return f" ({', '.join(f'{k} {v}' for k, v in values.items())})" if values else ""


# A phone's keyboard types typographic quotes and dashes; the banker's line reads them as plain ones.
QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'", "\u2019": "'",
                        "\u201a": "'", "\u2013": "-", "\u2014": "--", "\u00a0": " "})


def plain_quotes(line: str) -> str:
    return line.translate(QUOTES)


class Table:
    """The table's half of the server: the links' holders, the writer, the pages' actions, the deals
    offered between people."""

    def __init__(self, board, writer: Writer):
        self.board, self.writer = board, writer
        self.secret = secrets.token_bytes(32)     # this run's: a page drawn by another run is refused
        self.rates = Rates()
        self.notes: OrderedDict[str, Note] = OrderedDict()
        self.pages: dict[tuple, Page] = {}
        self.position: tuple = (None, None)   # ((version, head), the Position its pages share)
        self.proposals: OrderedDict[str, Proposal] = OrderedDict()
        self.written = None   # async () -> None: the app announces a write at once (set by create_app)
        self.offered = 0      # how many times the offers between people changed (they are news too)

    def holder(self, token: str) -> str | None:
        return links.holder_of(self.writer.hashes, token)

    # ---- the anti-forgery value of a page: a nonce and its MAC under this run's secret and the holder

    def form_key(self, who: str) -> str:
        nonce = secrets.token_urlsafe(12)
        return f"{nonce}.{self.mac(who, nonce)}"

    def mac(self, who: str, nonce: str) -> str:
        return hmac.new(self.secret, f"{who}|{nonce}".encode(), hashlib.sha256).hexdigest()[:40]

    def form_key_holds(self, who: str, value: str) -> bool:
        nonce, _, mac = value.partition(".")
        # compared as bytes: a forged value may hold any characters (compare_digest takes ASCII text only)
        return bool(nonce) and hmac.compare_digest(mac.encode("utf-8", "replace"), self.mac(who, nonce).encode())

    # ---- what a page offers, decided on the board's reading of the game (cached per version)

    async def page_for(self, who: str | None, preview_of: dict | None = None):
        def read():
            view = self.board.check()
            if who is None:
                return view, None, None
            key = (view.version, view.head, who)
            if key not in self.pages:
                if len(self.pages) > 64:
                    self.pages.clear()
                s = self.board.session
                # every holder's page of one position shares its decided commands
                if self.position[0] != (view.version, view.head):
                    self.position = ((view.version, view.head), legal.Position(s.state, s.rs))
                self.pages[key] = page_of(s.state, s.rs, who, s.head, self.position[1])
            seen = None
            if preview_of:
                s = self.board.session
                seen = preview(s.state, s.rs, preview_of["verb"], preview_of.get("actor") or None,
                               preview_of["values"])
            return view, self.pages[key], seen
        return await asyncio.get_running_loop().run_in_executor(self.board.worker, read)

    async def log_for(self):
        def read():
            self.board.check()
            s = self.board.session
            with s.store.reading():
                return self.board.tail.recent(s.store, 100000)
        return await asyncio.get_running_loop().run_in_executor(self.board.worker, read)

    async def explain_for(self, number: int) -> list[str]:
        def read():
            from ledger.interface.explain import explain
            self.board.check()
            return explain(self.board.session, number)
        return await asyncio.get_running_loop().run_in_executor(self.board.worker, read)

    def remember(self, note: Note) -> str:
        key = secrets.token_urlsafe(9)
        self.notes[key] = note
        while len(self.notes) > NOTES:
            self.notes.popitem(last=False)
        return key

    def dropped_offers(self, head: int) -> None:
        """Offers are made on a position: once another command is recorded, they are gone."""
        for key in [k for k, p in self.proposals.items() if p.after != head]:
            self.proposals.pop(key, None)
            self.offered += 1

    def news(self) -> str:
        """What the pages' version adds to the game's: the offers between people, which the game
        file does not hold."""
        return f"~{self.offered}"


def routes(table: Table, env, context, headers: dict) -> list[Route]:
    """The table's routes, drawn with the board's templates and context."""
    csp = headers.get("Content-Security-Policy", "")
    headers = {**headers, "Content-Security-Policy": f"{csp}; form-action 'self'" if csp else "form-action 'self'"}

    def client(request: Request, token: str) -> tuple:
        # one budget per address and link holder (any token that is no link shares "nobody"'s), so a
        # made-up token does not buy a fresh one
        return (request.client.host if request.client else "", table.holder(token) or "nobody")

    async def draw(request: Request, token: str, fragment: bool) -> HTMLResponse:
        who = table.holder(token)
        query = request.query_params
        asked = None
        if who and query.get("preview"):
            asked = {"verb": query.get("verb", ""), "actor": query.get("actor", ""),
                     "values": typed_values(query, fixed=True)}
        view, found, seen = await table.page_for(who, asked)
        table.dropped_offers(view.head)
        note = table.notes.get(query.get("note", ""))
        if note is None or note.who != who or (note.ok and note.head != view.head):
            note = None   # a result is news only until the next command
        latest = view.log[0] if view.log else None
        mine_last = bool(who and who != BANKER and latest and latest.get("by") == who and latest["id"] == view.head)
        page = {**context(view), "who": who, "holder": who_label(who) if who else None, "page": found,
                "form_key": table.form_key(who) if who else "", "note": note,
                "note_key": query.get("note", "") if note else "", "token": token if who else "",
                "latest": latest, "undo_mine": mine_last, "preview": seen, "asked": asked,
                "offers_to_me": [p for p in table.proposals.values() if who and (p.to == who or who == BANKER)],
                "my_offers": [p for p in table.proposals.values() if who and p.by == who],
                "typed": dict(note.form) if note and not note.ok else {}, "kept_value": kept_value,
                "bids": view.status.get("bids", []), "news": table.news()}
        page["rewritten"], kept = await recorded(request, token, view)
        name = "table_fragment.html" if fragment else "table.html"
        return HTMLResponse(env.get_template(name).render({**page, "on_table": True}),
                            headers={**headers, "X-Board-Version": view.version + table.news(), **kept})

    async def recorded(request: Request, token: str, view) -> tuple[list[str], dict]:
        """The fingerprints this link's device was shown, checked against the record (board.record)."""
        if not links.TOKEN.fullmatch(token or ""):
            return [], {}
        return await record.checked(table.board, request, view, record.TABLE_COOKIE, f"/t/{token}")

    async def page(request: Request) -> Response:
        return await guarded(request, lambda token: draw(request, token, fragment=False))

    async def fragment(request: Request) -> Response:
        return await guarded(request, lambda token: draw(request, token, fragment=True))

    async def previewed(request: Request) -> Response:
        """What a control would do with the words typed so far (the page's script asks as one types)."""
        async def show(token: str) -> Response:
            who = table.holder(token)
            if who is None:
                raise Refused(403, "this link acts as nobody")
            query = request.query_params
            values = typed_values(query, fixed=True)
            if len(values) > MOST_FIELDS or any(len(v) > MOST_VALUE for v in values.values()):
                raise Refused(400, "the preview cannot be read")
            _view, _page, seen = await table.page_for(who, {"verb": query.get("verb", ""),
                                                           "actor": query.get("actor", ""), "values": values})
            ok, lines = seen
            return JSONResponse({"ok": ok, "lines": lines}, headers=headers)
        return await guarded(request, show)

    async def log(request: Request) -> Response:
        async def show(token: str) -> Response:
            who = table.holder(token)
            view, _page, _seen = await table.page_for(who)
            entries = await table.log_for()
            warned, kept = await recorded(request, token, view)
            return HTMLResponse(env.get_template("table_log.html").render(
                {**context(view), "who": who, "holder": who_label(who) if who else None, "token": token,
                 "entries": entries, "rewritten": warned}), headers={**headers, **kept})
        return await guarded(request, show)

    async def explained(request: Request) -> Response:
        async def show(token: str) -> Response:
            who = table.holder(token)
            try:
                number = int(request.path_params.get("number", ""))
            except ValueError:
                raise Refused(404, "no such command") from None
            view, _page, _seen = await table.page_for(who)
            try:
                lines = await table.explain_for(number)
            except BankError as exc:
                lines = [one_line(exc.line())]
            warned, kept = await recorded(request, token, view)
            return HTMLResponse(env.get_template("table_log.html").render(
                {**context(view), "who": who, "holder": who_label(who) if who else None, "token": token,
                 "explained": number, "lines": lines, "rewritten": warned}), headers={**headers, **kept})
        return await guarded(request, show)

    async def act(request: Request) -> Response:
        async def write(token: str) -> Response:
            who = table.holder(token)
            if who is None:
                raise Refused(403, "this link acts as nobody: ask the banker for yours")
            fields = await form_of(request)
            if not table.form_key_holds(who, fields.get("form_key", "")):
                raise Refused(403, "this form was not drawn by this server for this link: open your link again")
            try:
                after = int(fields.get("after", ""))
            except ValueError:
                raise Refused(400, "the form does not say which command it was decided after") from None
            offers = len(table.proposals)
            try:
                lines = await table.writer.run(table.writer.act, who, after, fields, table.proposals)
                ok = True
            except BankError as exc:
                lines, ok = [one_line(exc.line())], False
            head = await table.writer.run(lambda: table.writer.session.head)
            kept = tuple((k, v) for k, v in fields.items() if k not in ("form_key",))
            if len(table.proposals) != offers or fields.get("kind") in ("accept", "decline", "withdraw"):
                table.offered += 1
            key = table.remember(Note(who, ok, tuple(lines), head, kept))
            if table.written is not None:
                await table.written()   # the other pages hear of it now, not at the next look
            return RedirectResponse(f"/t/{token}?note={key}#result", status_code=303, headers=headers)
        return await guarded(request, write, cost=2.0)

    async def guarded(request: Request, handle, cost: float = 1.0) -> Response:
        token = request.path_params.get("token", "")
        if not table.rates.allow(client(request, token), cost):
            return PlainTextResponse("too many requests: wait a moment", status_code=429,
                                     headers={**headers, "Retry-After": "1"})
        try:
            return await handle(token)
        except Refused as exc:
            return PlainTextResponse(exc.message, status_code=exc.status, headers=headers)

    return [Route("/t/{token}", page, methods=["GET"]), Route("/t/{token}", act, methods=["POST"]),
            Route("/t/{token}/fragment", fragment, methods=["GET"]),
            Route("/t/{token}/preview", previewed, methods=["GET"]),
            Route("/t/{token}/log", log, methods=["GET"]),
            Route("/t/{token}/explain/{number}", explained, methods=["GET"])]


def typed_values(fields, fixed: bool = False) -> dict[str, str]:
    """The words a form's fields give (with `fixed`, its fixed words `w.NAME` too): a field `a.NAME`
    as typed; picks `k.NAME.PICK` (a box ticked: '1'; a count: N) as the command writes them,
    'zone,ferry=2'. A field left empty is left out."""
    out: dict[str, str] = {}
    picks: dict[str, list[str]] = {}
    for key, value in fields.items():
        if key.startswith("a.") or fixed and key.startswith("w."):
            if value != "":
                out[key[2:]] = value
        elif key.startswith("k.") and key.count(".") >= 2:
            _k, name, pick = key.split(".", 2)
            if pick.endswith("="):
                if value.strip().isdigit() and int(value) > 0:
                    picks.setdefault(name, []).append(f"{pick}{int(value)}")
            elif value:
                picks.setdefault(name, []).append(pick)
    out.update({name: ",".join(chosen) for name, chosen in picks.items()})
    return out


def kept_value(typed: dict, control: Control, name: str) -> str:
    """What the holder typed into this control's field before a refusal (the same control: verb,
    actor and fixed words), to show it again."""
    if not typed or typed.get("verb") != control.verb or (typed.get("actor") or None) != control.actor:
        return ""
    if any(typed.get(f"w.{k}") != str(v) for k, v in control.words):
        return ""
    return typed.get(f"a.{name}", "")


async def form_of(request: Request) -> dict[str, str]:
    """A form's fields, read as data within the bounds, or a Refused with its 4xx."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin.split("://", 1)[-1] != request.headers.get("host", ""):
        raise Refused(403, "a form sent from another site")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise Refused(415, "a table action is a plain form (application/x-www-form-urlencoded)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MOST_BODY):
        raise Refused(413, f"a form is at most {MOST_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MOST_BODY:
            raise Refused(413, f"a form is at most {MOST_BODY} bytes")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body),
                          max_num_fields=MOST_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, "the form cannot be read") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields or len(value) > MOST_VALUE or len(key) > 40 or "\x00" in key + value:
            raise Refused(400, "the form cannot be read")
        fields[key] = value
    return fields
