"""Read a game as 18xx.games stores it (its JSON record: players, settings, the `actions` list with
undo/redo) into bank commands, played through our engine, and audit every figure the record states.

Only decisions are taken from the record (a bid, a par, a share bought and where it came from, a
sale, a tile and its hex, a token, a run's revenue and pay or withhold, a train and who sold it, a
private sold to a company, a bankruptcy). What the record leaves to the bank is the engine's: the
tile's cost comes from the hex (the title's [log_import.json] terrain), token costs from the charter,
share prices, float capital, private revenue, dividends, stock moves, sold-out rises, phases,
rusting, closings, the president's emergency money. The record's own figures are then compared with
ours: each bid's price when it buys, each train's price, and in the end every player's net worth
(the record's `result`); each difference is named with its action's id.

The title's words (the site's symbols, terrain, abilities) come from its folder (sites.TitleWords):
this reader holds no title's wording. A record is read in memory; run.import_record stores it.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from ledger import catalog
from ledger.core import engine
from ledger.core.errors import BankError, CommandError
from ledger.core.scoring import value as net_worth
from ledger.core.events import apply
from ledger.core.state import acct_name

from .sites import TitleWords, for_site_title

# Types with no game effect of their own: standing orders for the site's auto-play (their effects
# arrive as auto_actions), chat.
NO_EFFECT = {"program_buy_shares", "program_share_pass", "program_disable", "program_close_pass", "message"}


class RecordError(CommandError):
    """A record the bank cannot read or follow: one line naming the action."""


@dataclass
class Difference:
    action: object          # the record's action id (or "result")
    what: str
    record: object
    ours: object

    def __str__(self) -> str:
        where = f"action {self.action}" if self.action != "result" else "the result"
        return f"{where}: {self.what}: record {self.record}, ours {self.ours}"


@dataclass
class RecordTranslation:
    title: str
    seating: list[str]
    options: dict
    commands: list[tuple[object, str]] = field(default_factory=list)   # (action id, command text)
    differences: list[Difference] = field(default_factory=list)
    final_values: dict | None = None
    final_cash: dict | None = None
    state: object = None
    rs: object = None


def effective_actions(actions: list[dict]) -> list[dict]:
    """The record's actions once undo and redo are applied, as 18xx.games applies them
    (Engine::Game::Base.filtered_actions; the records' README §4); each action's auto_actions follow it
    in order, with their parent's id."""
    slots: list[dict | None] = [None] * len(actions)
    groups: list[list[tuple[int, dict]]] = []
    for index, a in enumerate(actions):
        kind = a.get("type")
        if kind == "undo":
            if a.get("action_id") is not None:
                target = a["action_id"]
                if target == 0:
                    start = 0
                else:
                    found = next((i for i, b in enumerate(actions) if b.get("id") == target), None)
                    if found is None:
                        raise RecordError(f"action {a.get('id')}: undo to action {target}, which the record does not have")
                    start = found + 1
            else:
                filled = [i for i in range(index) if slots[i] is not None and slots[i].get("type") != "message"]
                start = filled[-1] if filled else index
            group = []
            for i in range(start, index):
                if slots[i] is not None and slots[i].get("type") != "message":
                    group.append((i, slots[i]))
                    slots[i] = None
            groups.append(group)
        elif kind == "redo":
            if groups:
                for i, b in groups.pop():
                    slots[i] = b
        elif kind == "message":
            slots[index] = a
        else:
            groups = []
            slots[index] = a
    out = []
    for a in slots:
        if a is None or a.get("type") == "message":
            continue
        out.append(a)
        out.extend({**sub, "id": a.get("id"), "auto": True} for sub in a.get("auto_actions") or ())
    return out


def refuse_unauditable(actions: list[dict]) -> None:
    """A run with no revenue (the site's oldest records) needs a map to audit: refused in one line."""
    for a in actions:
        if a.get("type") == "run_routes" and any("revenue" not in r for r in a.get("routes") or ()):
            raise RecordError(f"action {a.get('id')}: its routes carry no revenue (an old record of the site, "
                              f"which recomputes runs from its map): the bank cannot audit it without a map")


def q(name: str) -> str:
    return shlex.quote(str(name))


def option_text(value) -> str:
    """An option's value as `new --option` takes it: yes/no, or a valued option's value."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return q(value)


class RecordImport:
    """Feed a record's effective actions through our engine, in memory."""

    def __init__(self, record: dict, words: TitleWords | None = None):
        if not isinstance(record, dict) or not isinstance(record.get("actions"), list) \
                or not isinstance(record.get("players"), list):
            raise RecordError("not a game record of 18xx.games: a JSON object with `players` and `actions` is needed")
        self.words = words or for_site_title(record.get("title"))
        self.record = record
        self.names = {p["id"]: p["name"] for p in record["players"]}
        seating = [p["name"] for p in record["players"]]
        settings = record.get("settings") or {}
        options = self.words.options(settings.get("optional_rules") or record.get("optional_rules") or (), settings)
        title = self.words.title
        self.rs = catalog.load(title, options)
        self.state = engine.initial_state(self.rs, seating, options)
        for event in engine.start_events(self.rs, seating):
            apply(self.state, event)
        self.result = RecordTranslation(title, seating, options, rs=self.rs)
        self.new_text = f"new {title} " + " ".join(q(p) for p in seating) + "".join(
            f" --option {k}={option_text(v)}" for k, v in sorted(options.items()))
        self.result.commands.append((0, self.new_text))
        words = self.words.json
        self.terrain = list(words.get("terrain") or ())
        self.ability_tiles = set(words.get("ability_tiles") or ())
        self.ability_tokens = set(words.get("ability_tokens") or ())
        self.out: set[str] = set()         # share ids that have left the IPO (bought, sold, exchanged)
        self.trains: dict[str, str] = {}   # train id -> its holder ("pool" or a company)
        self.tiled: set[str] = set()       # hexes that hold a tile laid in the game
        self.tile_hex: dict[str, str] = {} # a laid tile's id ("57-0") -> its hex
        self.homes = {c.sym: c.home for c in self.rs.corporations}
        self.corp_alias = {c.sym: c.alias for c in self.rs.corporations if getattr(c, "alias", None)}
        self.private_alias = {p.sym: p.alias for p in self.rs.privates if getattr(p, "alias", None)}
        self.ran: set[str] = set()         # companies that ran (or withheld) this turn
        self.revenue: dict[str, int] = {}
        self.bids: dict[tuple, tuple] = {}  # (player, private) -> (action id, price) until it is bought
        self.aid: object = None

    # ------------------------------------------------------------------ plumbing

    @property
    def s(self):
        return self.state

    def do(self, text: str) -> list[dict]:
        cmd = catalog.parse_line(text)
        events, after = engine.decide_with_state(self.state, self.rs, cmd)
        self.state = after
        self.result.commands.append((self.aid, text))
        self.audit(events)
        return events

    def try_do(self, text: str) -> list[dict] | None:
        try:
            return self.do(text)
        except BankError:
            return None

    def must(self, text: str) -> list[dict]:
        try:
            return self.do(text)
        except BankError as exc:
            raise RecordError(f"action {self.aid}: our engine rejects '{text}': {exc.line()}") from None

    def diff(self, what: str, record, ours, action=None) -> None:
        self.result.differences.append(Difference(self.aid if action is None else action, what, record, ours))

    def audit(self, events: list[dict]) -> None:
        for e in events:
            if e["kind"] == "private_bought":
                key = (e["player"], e["private"])
                bid = self.bids.pop(key, None)
                if bid is not None and bid[1] != e["price"]:
                    self.diff(f"{e['player']} buys {e['private']}", bid[1], e["price"], action=bid[0])
                for other in [k for k in self.bids if k[1] == e["private"]]:
                    del self.bids[other]

    # ------------------------------------------------------------------ the walk

    def run(self) -> RecordTranslation:
        actions = effective_actions(self.record["actions"])
        refuse_unauditable(actions)
        while actions:
            a = actions.pop(0)
            if a.get("type") == "discard_train":
                # the site takes a phase change's discards in any order, the bank in its pending order
                group = [a]
                while actions and actions[0].get("type") == "discard_train":
                    group.append(actions.pop(0))
                due = [p.get("corp") for p in self.s.pending if p.get("kind") == "discard"]
                group.sort(key=lambda d: due.index(d["entity"]) if d["entity"] in due else len(due))
                for d in group:
                    self.act(d)
                continue
            self.act(a)
        self.aid = "end"
        if not self.s.game_over:
            self.finish_turns(None)
        self.finish()
        return self.result

    def finish(self) -> None:
        players = self.s.players
        ours = {p: net_worth(self.s, self.rs, p) for p in players}
        self.result.final_values = ours
        self.result.final_cash = {p: self.s.cash(f"player:{p}") for p in players}
        self.result.state = self.s
        for pid, worth in (self.record.get("result") or {}).items():
            name = self.names.get(pid) or self.names.get(int(pid) if str(pid).isdigit() else pid)
            if name is None:
                self.diff("a result for a player the record does not seat", pid, None, action="result")
            elif worth != ours.get(name):
                self.diff(f"{name}'s net worth", worth, ours.get(name), action="result")
        if self.record.get("game_end_reason") and not self.s.game_over:
            self.diff("the game is over", True, False, action="result")

    def finish_turns(self, corp: str | None) -> None:
        """End company turns (and stock-round turns the site passes by itself: players with no valid
        action) until `corp` operates, or, for None, until the operating round is over."""
        for _ in range(200):
            r = self.s.round
            if self.s.game_over:
                return
            if r["kind"] == "operating" and r.get("corp"):
                cur = r.get("corp")
                if corp is not None and cur == corp:
                    return
                self.end_turn(cur)
            elif r["kind"] in ("stock", "auction") and corp is not None and "turn" in r:
                self.must(f"pass {q(self.s.players[r['turn']])}")
            else:
                return
        raise RecordError(f"action {self.aid}: our engine never reaches {corp}'s turn")

    def end_turn(self, corp: str) -> None:
        if corp not in self.ran:
            self.no_run(corp)
        trainless = not self.s.corp_trains(corp)
        self.must(f"done {self.c(corp)}" + (" --no-route" if trainless else ""))
        self.ran.discard(corp)

    def no_run(self, corp: str) -> None:
        """A company whose turn passes with no dividend: the site withholds 0 (its price moves left)."""
        if corp not in self.ran and self.try_do(f"withhold {self.c(corp)} 0") is not None:
            self.ran.add(corp)

    def player_turn(self, name: str, text: str) -> None:
        """A player's action; the site passes by itself for players with nothing to do, and ends the
        companies' turns that have no action left."""
        for _ in range(20):
            try:
                self.do(text)
                return
            except BankError as exc:
                r = self.s.round
                if r["kind"] == "operating" and r.get("corp"):
                    self.finish_turns(None)
                    continue
                if r["kind"] not in ("stock", "auction") or "turn" not in r:
                    raise RecordError(f"action {self.aid}: our engine rejects '{text}': {exc.line()}") from None
                turn = r["turn"]
                if r.get("acted"):   # the turn's player has acted: the next one is due
                    turn = (turn + 1) % len(self.s.players)
                cur = self.s.players[turn]
                if cur == name:
                    raise RecordError(f"action {self.aid}: our engine rejects '{text}': {exc.line()}") from None
                self.must(f"pass {q(cur)}")
        raise RecordError(f"action {self.aid}: our engine never reaches {name}'s turn for '{text}'")

    def c(self, sym: str) -> str:
        """A company as a table types it: its alias where it has one (a symbol a shell would split
        has a plain one), so that the transcript can be typed as it stands."""
        return self.corp_alias.get(sym, sym)

    def pv(self, sym: str) -> str:
        """A private as a table types it (its alias, where it has one)."""
        return self.private_alias.get(sym, sym)

    def owner_company(self, sym: str) -> str | None:
        p = self.s.privates.get(sym)
        if p is None or p.owner is None or not p.owner.startswith("company:"):
            return None
        return acct_name(p.owner)

    def act(self, a: dict) -> None:
        self.aid = a.get("id")
        t, kind = a.get("type"), a.get("entity_type")
        if t in NO_EFFECT:
            return
        if t == "end_game":
            self.must("end")
            return
        if kind == "company":
            self.company_act(a)
        elif kind == "player":
            self.player_act(a)
        elif kind == "corporation":
            self.corporation_act(a)
        else:
            raise RecordError(f"action {self.aid}: an action of a {kind!r}, which the bank does not read")

    # ------------------------------------------------------------------ a private's ability

    def company_act(self, a: dict) -> None:
        t, sym = a["type"], self.words.private(a["entity"])
        if t == "buy_shares":   # an exchange of the private for a share
            p = self.s.privates[sym]
            owner = acct_name(p.owner)
            share = a["shares"][0]
            corp = share.rsplit("_", 1)[0]
            source = "--pool" if share in self.out else "--ipo"
            self.out.add(share)
            self.player_turn(owner, f"exchange {q(owner)} {self.pv(sym)} {self.c(corp)} {source}")
        elif t == "lay_tile":
            corp = self.owner_company(sym)
            if sym in self.ability_tiles and corp:
                self.finish_turns(corp)
                self.must(f"tile {self.c(corp)} {self.tile_cost(a, corp)} --using {self.pv(sym)}")
            else:   # a lay that moves no money (1889's MF port, ER's C4)
                self.tiled.add(a["hex"])
                self.tile_hex[str(a["tile"])] = a["hex"]
        elif t == "place_token":
            corp = a.get("tokener") or self.owner_company(sym)
            if sym in self.ability_tokens and corp:
                self.finish_turns(corp)
                self.must(f"token {self.c(corp)}")
        elif t == "pass":
            return
        else:
            raise RecordError(f"action {self.aid}: {sym} does {t}, which the bank does not read of a private")

    # ------------------------------------------------------------------ players

    def player_act(self, a: dict) -> None:
        t = a["type"]
        name = self.names[a["entity"]]
        p = q(name)
        if t == "bid":
            sym = self.words.private(a["company"])
            unsold = [x for x, v in self.s.privates.items() if v.owner is None and not v.closed]
            bids = (self.s.round.get("bids") or {}).get(sym)
            self.bids[(name, sym)] = (self.aid, a["price"])
            if unsold and unsold[0] == sym and not bids and not self.s.round.get("war"):
                self.player_turn(name, f"buy {p} {self.pv(sym)}")
            else:
                self.player_turn(name, f"bid {p} {self.pv(sym)} {a['price']}")
        elif t == "par":
            price = str(a["share_price"]).split(",")[0]
            self.player_turn(name, f"par {p} {self.c(a['corporation'])} {price}")
        elif t == "buy_shares":
            shares = list(a["shares"])
            corp = shares[0].rsplit("_", 1)[0]
            source = "--pool" if shares[0] in self.out else "--ipo"
            self.out.update(shares)
            count = f" {len(shares)}" if len(shares) > 1 else ""
            self.player_turn(name, f"buy {p} {self.c(corp)}{count} {source}")
        elif t == "sell_shares":
            corp = a["shares"][0].rsplit("_", 1)[0]
            self.out.update(a["shares"])
            self.player_turn(name, f"sell {p} {self.c(corp)} {a['percent'] // 10}")
        elif t == "pass":
            if self.s.round["kind"] == "operating":
                return
            self.player_turn(name, f"pass {p}")
        elif t == "bankrupt":
            self.must(f"bankrupt {p}")
        else:
            raise RecordError(f"action {self.aid}: a player's {t}, which the bank does not read")

    # ------------------------------------------------------------------ companies

    def corporation_act(self, a: dict) -> None:
        t, corp = a["type"], a["entity"]
        if t == "pass":
            return
        if t == "sell_shares":   # an emergency sale by the president
            self.out.update(a["shares"])
            sold = a["shares"][0].rsplit("_", 1)[0]
            self.must(f"sell {q(self.s.president(corp))} {self.c(sold)} {a['percent'] // 10}")
            return
        if t == "discard_train":
            self.trains[a["train"]] = "pool"
            self.must(f"discard {self.c(corp)} {a['train'].rsplit('-', 1)[0]}")
            return
        self.finish_turns(corp)
        if t == "lay_tile":
            self.must(f"tile {self.c(corp)} {self.tile_cost(a, corp)}")
        elif t == "place_token":
            if self.token_hex(a) == self.homes.get(corp):
                return   # the home station (the site asks which city): placed by our engine, free
            self.must(f"token {self.c(corp)}")
        elif t == "run_routes":
            self.revenue[corp] = sum(r.get("revenue") or 0 for r in a.get("routes") or ()) \
                + (a.get("extra_revenue") or 0)
        elif t == "dividend":
            verb = "pay" if a["kind"] == "payout" else "withhold"
            if a["kind"] not in ("payout", "withhold"):
                raise RecordError(f"action {self.aid}: a dividend of kind {a['kind']!r}, which the bank does not read")
            self.must(f"{verb} {self.c(corp)} {self.revenue.pop(corp, 0)}")
            self.ran.add(corp)
        elif t == "buy_train":
            self.no_run(corp)
            self.buy_train(a, corp)
        elif t == "buy_company":
            sym = self.words.private(a["company"])
            self.must(f"buy-private {self.c(corp)} {self.pv(sym)} {a['price']}")
        elif t == "bankrupt":
            self.no_run(corp)
            self.must(f"bankrupt {q(self.s.president(corp))}")
        else:
            raise RecordError(f"action {self.aid}: a company's {t}, which the bank does not read")

    def buy_train(self, a: dict, corp: str) -> None:
        name = a["train"].rsplit("-", 1)[0]
        seller = self.trains.get(a["train"])
        if a.get("exchange"):
            line = f"train {self.c(corp)} {name} --trade-in {a['exchange'].rsplit('-', 1)[0]}"
            self.trains[a["exchange"]] = "pool"
        elif seller == "pool":
            line = f"train {self.c(corp)} {name} --from pool"
        elif seller:
            line = f"train {self.c(corp)} {name} --from {self.c(seller)} --price {a['price']}"
        else:
            line = f"train {self.c(corp)} {name}"
        self.trains[a["train"]] = corp
        events = self.must(line)
        bought = [e for e in events if e["kind"] == "train_bought"]
        ours = bought[0]["price"] if bought else None
        if ours != a["price"]:
            self.diff(f"{corp} buys a {name} train", a["price"], ours)

    def token_hex(self, a: dict) -> str:
        """The hex of a token's city ("59-1-0": city 0 of the tile 59-1; "J4-0-0": a printed hex's)."""
        tile = str(a.get("city", "")).rsplit("-", 1)[0]
        return self.tile_hex.get(tile) or tile.split("-", 1)[0]

    def tile_cost(self, a: dict, corp: str) -> int:
        """The tile's cost from its hex: the title's terrain table (the record states none)."""
        hex_, tile = a["hex"], str(a["tile"]).rsplit("-", 1)[0]
        first = hex_ not in self.tiled
        self.tiled.add(hex_)
        self.tile_hex[str(a["tile"])] = hex_
        for entry in self.terrain:
            if hex_ not in entry.get("hexes", ()):
                continue
            when = entry.get("when", "first")
            if entry.get("tiles"):
                charged = tile in entry["tiles"]
            else:
                charged = when == "every" or first
            if not charged:
                continue
            waiver = entry.get("free_with")
            if waiver and self.owner_company(waiver) == corp and not self.s.privates[waiver].closed:
                return 0
            return int(entry["cost"])
        return 0


def read_record(record: dict) -> RecordTranslation:
    """The record played in memory and audited (nothing stored)."""
    return RecordImport(record).run()
