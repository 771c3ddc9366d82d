"""The board page's web routes (Starlette), every one a GET: the page, the fragment the page's script
swaps in, the server-sent events that say when to, the figures as JSON, and the static files.

The page is complete as the server sends it (every figure rendered here, readable with scripts
off); static/board.js only keeps it current. A watcher task checks the game every POLL seconds and
wakes every open event stream when the figures change.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ledger.interface.board import record
from ledger.interface.board.reading import Board, View


class Compressed:
    """Pages and fragments gzipped (a phone's update is a few KiB over the table's Wi-Fi, not
    40); the event stream never, so each version reaches the phones the moment it is sent."""

    def __init__(self, app):
        self.app, self.gzip = app, GZipMiddleware(app, minimum_size=1024)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"] != "/events":
            return await self.gzip(scope, receive, send)
        return await self.app(scope, receive, send)


def table_routes(table, env, context, headers) -> list:
    from ledger.interface.board.table import routes
    return routes(table, env, context, headers)

HERE = Path(__file__).parent
# How often the watcher looks for a new command: well within the second the players wait for.
POLL = 0.3
# An idle event stream sends a comment this often, so phones and proxies keep it open.
KEEPALIVE = 15.0
# Dynamic answers are never cached: a phone coming back from sleep must not show an old board.
# The page runs only its own script, so nothing injected into a name could run (names are escaped
# by the templates as well).
HEADERS = {"Cache-Control": "no-store",
           "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                      "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def templates() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["ink"] = ink
    env.filters["label"] = label
    return env


def label(key: str) -> str:
    """A key of the data as a heading: 'rusted_trains' -> 'Rusted trains'."""
    text = str(key).replace("_", " ")
    return text[:1].upper() + text[1:]


def ink(colour: str | None) -> str:
    """Black or white, whichever reads better on a company's colour (#rrggbb)."""
    try:
        r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    except (TypeError, ValueError, IndexError):
        return "#000"

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    # the contrast with white against the contrast with black (WCAG's ratio)
    return "#fff" if (1.05 / (luminance + 0.05)) >= ((luminance + 0.05) / 0.05) else "#000"


class Changes:
    """Wakes every waiting event stream when the watcher sees new figures."""

    def __init__(self):
        self.event = asyncio.Event()

    def announce(self) -> None:
        self.event.set()
        self.event = asyncio.Event()


def create_app(board: Board, table=None) -> Starlette:
    """The board's routes; with `table` (bank serve --table, ledger.interface.board.table) also the
    players' and the banker's pages, drawn with the same templates."""
    env = templates()
    changes = Changes()

    def context(view: View) -> dict:
        s = view.status
        cards = [c for c in s["companies"] if c["standing"] in SHOWN]
        own, by_company = title_facts(s, view.money)
        return {"view": view, "s": s, "m": view.market, "money": view.money, "started": cards,
                "groups": kind_groups(s, cards),
                "kinds": {k["name"]: k for k in s["company_kinds"]},
                "closed": [c for c in s["companies"] if c["standing"] == "closed"],
                "unstarted": [c for c in s["companies"] if c["standing"] == "not started"],
                "colours": {c["sym"]: c["colour"] for c in s["companies"]},
                "in_or": s["operating"] is not None,
                "ranks": {p["name"]: p["rank"] for p in view.score["players"]},
                "grid": market_grid(view.market), "quotes": quotes(s, view.market),
                "own": own, "facts": by_company,
                "extra_company": extra_keys(cards, COMPANY_KEYS),
                "extra_player": extra_keys(s["players"], PLAYER_KEYS)}

    async def page(request: Request) -> HTMLResponse:
        view = await board.current()
        warned, kept = await record.checked(board, request, view, record.board_cookie(view.genesis), "/")
        return HTMLResponse(env.get_template("page.html").render({**context(view), "rewritten": warned}),
                            headers={**HEADERS, **kept})

    async def fragment(request: Request) -> HTMLResponse:
        view = await board.current()
        warned, kept = await record.checked(board, request, view, record.board_cookie(view.genesis), "/")
        return HTMLResponse(env.get_template("board.html").render({**context(view), "rewritten": warned}),
                            headers={**HEADERS, "X-Board-Version": view.version, **kept})

    async def status(request: Request) -> JSONResponse:
        return JSONResponse((await board.current()).status, headers=HEADERS)

    async def market(request: Request) -> JSONResponse:
        return JSONResponse((await board.current()).market, headers=HEADERS)

    async def score(request: Request) -> JSONResponse:
        return JSONResponse((await board.current()).score, headers=HEADERS)

    async def events(request: Request) -> StreamingResponse:
        async def stream():
            # a phone's browser reconnects by itself; 2 s is soon enough, and gentle on the server
            yield "retry: 2000\n\n"
            sent = None
            while True:
                woken = changes.event  # taken before reading the view, so no change slips between
                version = board.view.version + (table.news() if table else "")
                if version != sent:
                    sent = version
                    yield f"id: {version}\nevent: version\ndata: {version}\n\n"
                try:
                    await asyncio.wait_for(woken.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": the game has not changed\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def watch() -> None:
        seen = board.view.version
        while True:
            await asyncio.sleep(POLL)
            view = await board.current()
            if view.version != seen:
                seen = view.version
                changes.announce()

    @asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(watch())
        try:
            yield
        finally:
            task.cancel()

    if table is not None:
        async def written() -> None:   # a page's write: every page hears of it at once
            await board.current()
            changes.announce()
        table.written = written

    get = ["GET"]
    return Starlette(routes=[Route("/", page, methods=get), Route("/fragment", fragment, methods=get),
                             Route("/events", events, methods=get), Route("/status.json", status, methods=get),
                             Route("/market.json", market, methods=get), Route("/score.json", score, methods=get),
                             *(table_routes(table, env, context, HEADERS) if table else []),
                             Mount("/static", StaticFiles(directory=HERE / "static"), name="static")],
                     lifespan=lifespan, middleware=[Middleware(Compressed)])


# What the page shows of every company and player by name; any other list a title adds to them
# (1843's ports, a title's assets) is shown as it is, under its own name.
COMPANY_KEYS = {"sym", "name", "colour", "cash", "par", "price", "cell", "president", "next_token_cost", "last_run",
                "kind", "ipo", "pool", "trains", "floated", "tokens_left", "privates", "standing", "operates", "unit",
                "zone", "moves"}
PLAYER_KEYS = {"name", "cash", "certificates", "cert_limit", "shares", "privates", "value"}


# A company gets a card once it has started (parred, or its charter bought) and while it is floated;
# one that has not started or has closed is named under the cards.
SHOWN = ("floated", "started")
# What status_json says of every title; any other key is the title's own (1801's chits, 1839's draws).
STATUS_KEYS = {"title", "round", "phase", "bank", "bank_broken", "game_over", "end_reason", "priority", "turn",
               "actions", "pending", "phases", "operating", "cert_limit", "train_limit", "train_certificate_limit",
               "trains_for_sale", "train_roster", "pool_trains", "next_phase", "operating_order", "operated_this_or",
               "players", "companies", "privates", "company_kinds"}


def kind_groups(status: dict, cards: list[dict]) -> list[tuple[str, list[dict]]]:
    """The cards grouped by company kind, in the order the title's data lists its kinds."""
    order = [k["name"] for k in status["company_kinds"]]
    order += [c["kind"] for c in cards if c["kind"] not in order]
    return [(kind, group) for kind in dict.fromkeys(order) if (group := [c for c in cards if c["kind"] == kind])]


def title_facts(status: dict, money=None) -> tuple[list[tuple[str, object]], dict[str, list[tuple[str, object]]]]:
    """The title's own keys of the status: those that say one thing of each company (a table keyed
    by company) go on the companies' cards, the others are the title's notes. A fact a card
    already shows (1801's table of kinds) is not repeated. The figures under the keys the title
    names in `money_keys` ("remainder", or "packet.prices" inside "packet") are shown as money."""
    companies = {c["sym"]: c for c in status["companies"]}
    notes, facts = [], {}
    paths = [key.split(".") for key in status.get("money_keys") or ()]
    for key, value in status.items():
        if key in STATUS_KEYS or key == "money_keys":
            continue
        if money is not None:
            value = as_money(value, [p[1:] for p in paths if p[0] == key], money)
        if isinstance(value, dict) and value and set(value) <= set(companies):
            for sym, fact in value.items():
                if fact not in companies[sym].values():
                    facts.setdefault(sym, []).append((key, fact))
        elif value not in (None, {}, []):  # what the title has nothing of now is left out
            notes.append((key, value))
    return notes, facts


def as_money(value, paths: list[list[str]], money):
    """`value` with the whole numbers at `paths` (an empty path: the value itself) written as money."""
    if not paths:
        return value
    if [] in paths:
        return in_money(value, money)
    if isinstance(value, dict):
        return {k: as_money(v, [p[1:] for p in paths if p[0] == k], money) for k, v in value.items()}
    return value


def in_money(value, money):
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return money(value)
    if isinstance(value, dict):
        return {k: in_money(v, money) for k, v in value.items()}
    if isinstance(value, list):
        return [in_money(v, money) for v in value]
    return value


def quotes(status: dict, market: dict) -> list[dict]:
    """Each company on the market, highest price first (the leaders, as a phone shows them before
    the grid): its price, its box's zone and where each market move would take it."""
    companies = {c["sym"]: c for c in status["companies"]}
    return [{**m, "zone": companies[m["sym"]]["zone"], "moves": companies[m["sym"]]["moves"]}
            for m in sorted(market["markers"], key=lambda m: (-m["price"], m["row"], m["stack"]))]


def extra_keys(rows: list[dict], known: set[str]) -> list[str]:
    keys: list[str] = []
    for row in rows:
        keys += [k for k, v in row.items() if k not in known and k not in keys and isinstance(v, list)]
    return keys


def market_grid(market: dict) -> list[list[dict | None]]:
    """The market's cells row by row (None where the printed market has no box), each with the
    markers on it, first arrived first."""
    grid: list[list[dict | None]] = [[None] * market["cols"] for _ in range(market["rows"])]
    for cell in market["cells"]:
        grid[cell["row"]][cell["col"]] = {**cell, "markers": []}
    for marker in sorted(market["markers"], key=lambda m: m["stack"]):
        grid[marker["row"]][marker["col"]]["markers"].append(marker)
    return grid
