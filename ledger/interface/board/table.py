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
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ledger.books.session import Session
from ledger.core import grammar
from ledger.core.errors import BankError, CommandError, RuleViolation, one_line
from ledger.interface.board import links
from ledger.interface import corrections
from ledger.interface.board.actions import BANKER, Offer, acts_for, command_of, offer, who_label

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
    who: str
    ok: bool
    lines: tuple


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

    def act(self, who: str, after: int, fields: dict) -> list[str]:
        """Record one action of `who` decided on the page drawn after command `after`; returns what
        happened, in the CLI's words. Refusals are BankErrors, with nothing recorded."""
        s = self.session
        with s.entered_as(who, after=after):
            s.refresh()
            s.refuse_if_moved_on()
            line = fields.get("line", "").strip()
            if line or fields.get("do"):
                if who != BANKER:
                    raise RuleViolation(f"only the banker's page takes a command line; this link acts for "
                                        f"{who_label(who)}")
                return self.banker_line(line or fields["do"])
            verb, actor = fields.get("verb", ""), fields.get("actor") or None
            self.check_offered(who, verb, actor)
            values = {k[2:]: v for k, v in fields.items() if k.startswith("a.") and v != ""}
            cmd, text = command_of(s.rs, verb, actor, values)
            return self.described(s.execute(cmd, text))

    def check_offered(self, who: str, verb: str, actor: str | None) -> None:
        """A player acts only as themselves (or a company they preside over), and only with an action
        the game offers them now; the banker with any game command."""
        from ledger.core import legal
        s = self.session
        if not acts_for(s.state, who, actor):
            whose = f"{actor}'s" if actor else "the banker's"
            raise RuleViolation(f"this link acts for {who_label(who)} only: {verb} {actor or ''} is {whose} to "
                                f"enter; nothing was recorded".replace("  ", " "))
        if who == BANKER:
            return
        offered = {(a.verb, a.args[0] if a.args else None) for a in legal.turn(s.state, s.rs).actions}
        if (verb, actor) not in offered:
            raise RuleViolation(f"{verb} is not open to {actor} now: {legal.hint(s.state, s.rs)}")

    def banker_line(self, line: str) -> list[str]:
        """A line as the CLI takes it: a game command, or a correction (undo, redo, insert, amend, restore)."""
        s = self.session
        text = line.removeprefix("bank ").strip()
        cmd = grammar.parse_line(text, grammar.verbs_of(s.rs))
        verb = grammar.verbs_of(s.rs)[cmd.verb]
        if verb.game:
            return self.described(s.execute(cmd, text))
        if cmd.verb not in CORRECTIONS:
            raise CommandError(f"'{cmd.verb}' is not entered on the page (the page shows the board)",
                               f"a game command or one of {', '.join(CORRECTIONS)}")
        return self.correction(cmd, text)

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


class Table:
    """The table's half of the server: the links' holders, the writer, the pages' forms."""

    def __init__(self, board, writer: Writer):
        self.board, self.writer = board, writer
        self.secret = secrets.token_bytes(32)     # this run's: a page drawn by another run is refused
        self.rates = Rates()
        self.notes: OrderedDict[str, Note] = OrderedDict()
        self.offers: dict[tuple, Offer] = {}

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

    async def offer_for(self, who: str | None):
        def read():
            view = self.board.check()
            if who is None:
                return view, None
            key = (view.version, view.head, who)
            if key not in self.offers:
                if len(self.offers) > 64:
                    self.offers.clear()
                s = self.board.session
                self.offers[key] = offer(s.state, s.rs, who, s.head)
            return view, self.offers[key]
        return await asyncio.get_running_loop().run_in_executor(self.board.worker, read)

    def remember(self, note: Note) -> str:
        key = secrets.token_urlsafe(9)
        self.notes[key] = note
        while len(self.notes) > NOTES:
            self.notes.popitem(last=False)
        return key


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
        view, found = await table.offer_for(who)
        note_key = request.query_params.get("note", "")
        note = table.notes.get(note_key)
        if note is None or note.who != who:
            note, note_key = None, ""
        page = {**context(view), "who": who, "holder": who_label(who) if who else None, "offer": found,
                "form_key": table.form_key(who) if who else "", "note": note, "note_key": note_key, "token": token if who else "",
                "mine": bool(found and found.forms)}
        name = "table_fragment.html" if fragment else "table.html"
        return HTMLResponse(env.get_template(name).render(page), headers={**headers, "X-Board-Version": view.version})

    async def page(request: Request) -> Response:
        return await guarded(request, lambda token: draw(request, token, fragment=False))

    async def fragment(request: Request) -> Response:
        return await guarded(request, lambda token: draw(request, token, fragment=True))

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
            try:
                lines, ok = await table.writer.run(table.writer.act, who, after, fields), True
            except BankError as exc:
                lines, ok = [one_line(exc.line())], False
            key = table.remember(Note(who, ok, tuple(lines)))
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
            Route("/t/{token}/fragment", fragment, methods=["GET"])]


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
