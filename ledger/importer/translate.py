"""Turn an 18xx.games log (of a title with [log_import] words) into bank commands, and audit every
figure the log states.

Only *decisions* are taken from the log (a bid, a par, a purchase and its source, a sale, a tile
cost, a run's revenue and pay or withhold, a train and its seller and price, ...). Everything that
follows from the rules (share prices paid, float capital, private revenue, dividends, stock moves,
emergency contributions, the bankrupt player's cash) is computed by our engine; the log's figure is
then compared with ours and every difference is reported with its log line.
"""

from __future__ import annotations

import shlex
from collections import defaultdict, deque
from dataclasses import dataclass, field

from ledger.core.engine import Command
from ledger.core.errors import BankError
from ledger.core.rules import shares, trains
from ledger.core.scoring import value as net_worth
from ledger.core.state import REMOVED, RUSTED, acct_name, train_type

from .logparse import DEPOT, POOL, LogEntry, parse_log, title_of_log, words_for

# Kinds that carry neither a decision nor money.
IGNORED = {"blank", "date", "optional_rules", "optional_rule", "master_mode", "note", "chat", "skip",
           "choose_city", "auction_start", "run", "close_private", "option_line"}


@dataclass
class Difference:
    lineno: int
    what: str
    log: object
    ours: object

    def __str__(self) -> str:
        return f"line {self.lineno}: {self.what}: log {self.log}, ours {self.ours}"


@dataclass
class Expectation:
    lineno: int
    key: tuple
    value: object
    age: int = 0


@dataclass
class Translation:
    seating: list[str]
    options: dict
    commands: list[tuple[int, str]] = field(default_factory=list)  # (log line, command text)
    differences: list[Difference] = field(default_factory=list)
    final_values: dict | None = None


def quote(name: str) -> str:
    return shlex.quote(name)


def money_facts(events: list[dict]) -> list[tuple[tuple, object]]:
    """What our engine computed, as (key, value) pairs the log's lines are compared with."""
    out = []
    for e in events:
        k = e["kind"]
        if k == "private_bought":
            out.append((("private", e["player"], e["private"]), e["price"]))
        elif k == "private_revenue":
            for sym, owner, amount in e["privates"]:
                out.append((("collect", acct_name(owner), sym), amount))
        elif k == "par" and e.get("cost"):
            out.append((("buy", e["player"], e["corp"]), e["cost"]))
        elif k == "share_bought":
            out.append((("buy", e["player"], e["corp"]), e["price"]))
        elif k == "shares_sold":
            out.append((("sell", e["player"], e["corp"]), e["amount"]))
        elif k == "floated":
            out.append((("receives", e["corp"]), e["capital"]))
        elif k == "revenue" and e["how"] == "pay":
            payees = defaultdict(int)
            for acct, _n, amount in e["payees"]:
                if amount:
                    payees[acct_name(acct)] += amount
            out.append((("payout", e["corp"]), dict(payees)))
        elif k == "revenue":
            out.append((("withhold", e["corp"]), e["revenue"]))
        elif k == "train_bought":
            out.append((("train", e["corp"], e["type"]), e["price"]))
            if e.get("contribution"):
                out.append((("contribute", e["president"]), e["contribution"]))
        elif k == "private_sold":
            out.append((("company_buy", e["corp"], e["private"]), e["price"]))
        elif k == "token_placed":
            out.append((("token", e["corp"]), e["cost"]))
        elif k == "tile_laid":
            out.append((("tile", e["corp"]), e["cost"]))
        elif k == "president_changed":
            out.append((("president", e["new"], e["corp"]), True))
        elif k == "par":
            out.append((("president", e["player"], e["corp"]), True))
        elif k == "train_exported":
            out.append((("export",), e["type"]))
        if k == "bank_broke":
            out.append((("bank_broken",), True))
        for sym, old, new in e.get("moves", ()):
            if old is not None and list(old) != list(new):  # a par, or a blocked move: no log line
                out.append((("price", sym), tuple(new)))
    return out


class Importer:
    """Feed log entries through a Session, translating decisions into commands."""

    def __init__(self, session_factory, text: str, title: str | None = None):
        title = title or title_of_log(text)
        self.title = title
        words = words_for(title)
        self.seating, self.entries = parse_log(text, title)
        # the site's optional rules in the bank's terms (the title's [log_import] options)
        options = {name: False for name in words.options.values()} | words.always
        for e in self.entries:
            if e.kind == "optional_rule" and e.data["rule"] in words.options:
                options[words.options[e.data["rule"]]] = True
            elif e.kind == "option_line":   # a valued option the log states, as the bank types it
                value = str(e.data["value"])
                options[e.data["option"]] = words.aliases.get(value, value)
        self.result = Translation(self.seating, options)
        new_text = f"new {title} " + " ".join(quote(p) for p in self.seating) + "".join(
            f" --option {k}={v if isinstance(v, str) else 'yes' if v else 'no'}" for k, v in sorted(options.items()))
        self.session = session_factory(self.seating, options, new_text)
        self.result.commands.append((0, new_text))
        self.facts: dict[tuple, deque] = defaultdict(deque)
        self.waiting: list[Expectation] = []
        self.last_par: tuple | None = None

    # ------------------------------------------------------------------ plumbing

    @property
    def state(self):
        return self.session.state

    @property
    def rs(self):
        return self.session.rs

    def issue(self, entry: LogEntry, text: str, verb: str, **args) -> None:
        """Run a command through the engine; a rejected command is a difference the import reports."""
        cmd = Command(verb, {k: v for k, v in args.items() if v is not None and v is not False})
        try:
            events = self.session.execute(cmd, text)
        except BankError as exc:
            raise ImportFailure(entry, f"our engine rejects '{text}': {exc.line()}") from exc
        self.result.commands.append((entry.lineno, text))
        for key, value in money_facts(events):
            self.facts[key].append(value)
        self.settle()

    def expect(self, entry: LogEntry, key: tuple, value) -> None:
        self.waiting.append(Expectation(entry.lineno, key, value))
        self.settle()

    def settle(self) -> None:
        """Match waiting log figures with what the engine computed."""
        still = []
        for exp in self.waiting:
            queue = self.facts.get(exp.key)
            if queue:
                ours = queue.popleft()
                if ours != exp.value:
                    self.diff(exp.lineno, describe_key(exp.key), exp.value, ours)
            else:
                still.append(exp)
        self.waiting = still

    def age(self) -> None:
        """A log figure still unmatched after two more decisions was never computed by us."""
        keep = []
        for exp in self.waiting:
            exp.age += 1
            if exp.age > 2:
                self.diff(exp.lineno, describe_key(exp.key), exp.value, "nothing")
            else:
                keep.append(exp)
        self.waiting = keep

    def diff(self, lineno: int, what: str, log, ours) -> None:
        self.result.differences.append(Difference(lineno, what, log, ours))

    def check(self, entry: LogEntry, what: str, log, ours) -> None:
        if log != ours:
            self.diff(entry.lineno, what, log, ours)

    # ------------------------------------------------------------------ the walk

    def run(self) -> Translation:
        for entry in self.entries:
            if entry.kind in IGNORED:
                continue
            handler = getattr(self, "on_" + entry.kind, None)
            if handler is None:
                raise ImportFailure(entry, f"no translation for log lines of kind '{entry.kind}'")
            if entry.kind in DECISIONS:
                self.age()
            handler(entry)
        self.settle()
        for exp in self.waiting:
            self.diff(exp.lineno, describe_key(exp.key), exp.value, "nothing")
        return self.result

    def round_kind(self) -> str:
        return self.state.round["kind"]

    # ------------------------------------------------------------------ auction

    def on_bid(self, e):
        self.issue(e, f"bid {quote(e.actor)} {e.data['private']} {e.data['amount']}", "bid",
                   player=e.actor, item=e.data["private"], amount=e.data["amount"])

    def on_buy_private(self, e):
        sym = e.data["private"]
        owner = self.state.privates[sym].owner
        if owner == f"player:{e.actor}":  # taken automatically (SV at $0)
            self.expect(e, ("private", e.actor, sym), e.data["amount"])
            return
        self.issue(e, f"buy {quote(e.actor)} {sym}", "buy", player=e.actor, item=sym)
        self.expect(e, ("private", e.actor, sym), e.data["amount"])

    def on_win_auction(self, e):
        self.expect(e, ("private", e.actor, e.data["private"]), e.data["amount"])

    def on_auction_pass(self, e):
        self.issue(e, f"pass {quote(e.actor)}", "pass", player=e.actor)

    def on_auction_drop(self, e):
        self.issue(e, f"pass {quote(e.actor)}", "pass", player=e.actor)

    def on_sv_discount(self, e):
        self.check(e, f"{e.data['private']} price", e.data["new_price"], self.state.privates[e.data["private"]].price)

    # ------------------------------------------------------------------ stock round

    def on_priority(self, e):
        self.check(e, "priority deal", e.actor, self.state.players[self.state.priority])

    def on_par(self, e):
        corp, price = e.data["corp"], e.data["price"]
        self.issue(e, f"par {quote(e.actor)} {corp} {price}", "par", player=e.actor, corp=corp, price=price)
        self.last_par = (e.actor, corp)

    def on_buy_share(self, e):
        corp, player = e.data["corp"], e.actor
        if self.last_par == (player, corp) and e.data["percent"] == self.state.cert_percent[f"{corp}.0"]:
            self.last_par = None
            self.expect(e, ("buy", player, corp), e.data["amount"])
            return
        self.last_par = None
        n = e.data.get("shares") or 1
        source = "ipo" if e.data["source"] == "ipo" else "pool"
        flag = "--ipo" if source == "ipo" else "--pool"
        count = f" {n}" if n > 1 else ""
        self.issue(e, f"buy {quote(player)} {corp}{count} {flag}", "buy", player=player, item=corp,
                   count=n if n > 1 else None, source=source)
        if n > 1:  # one log line for several brown shares: compare the total of our purchases
            queue = self.facts[("buy", player, corp)]
            paid = [queue.popleft() for _ in range(min(n, len(queue)))]
            self.check(e, f"buy {player} {corp} x{n}", e.data["amount"], sum(paid))
            return
        self.expect(e, ("buy", player, corp), e.data["amount"])

    def on_sell_shares(self, e):
        corp, n = e.data["corp"], e.data["percent"] // 10
        if self.state.game_over or e.actor in self.state.bankrupt:
            # sales the bankruptcy made automatically
            self.expect(e, ("sell", e.actor, corp), e.data["amount"])
            return
        self.issue(e, f"sell {quote(e.actor)} {corp} {n}", "sell", player=e.actor, corp=corp, count=n)
        self.expect(e, ("sell", e.actor, corp), e.data["amount"])

    def on_receive_share(self, e):
        self.check(e, f"{e.actor} holds {e.data['corp']}", True,
                   self.state.percent_of(f"player:{e.actor}", e.data["corp"]) >= e.data["percent"])

    def on_exchange(self, e):
        source = {"ipo": "ipo", "market": "pool", None: None}[e.data["source"]]
        flag = f" --{source}" if source else ""  # no source named: our engine picks, IPO first
        self.issue(e, f"exchange {quote(e.actor)} {e.data['private']} {e.data['corp']}{flag}", "exchange",
                   player=e.actor, private=e.data["private"], corp=e.data["corp"], source=source)

    def on_president(self, e):
        self.check(e, f"president of {e.data['corp']}", e.actor, self.state.president(e.data["corp"]))

    def on_decline_sell(self, e):
        self.player_pass(e)

    def on_decline_buy(self, e):
        self.player_pass(e)

    def on_pass(self, e):
        if e.actor in self.state.corps or e.actor in self.state.privates or self.round_kind() == "operating":
            return  # a company's step pass: nothing to record
        self.player_pass(e)

    def player_pass(self, e):
        self.issue(e, f"pass {quote(e.actor)}", "pass", player=e.actor)

    def on_price_move(self, e):
        corp = e.actor
        target = e.data["new_price"]
        queue = self.facts.get(("price", corp))
        if queue:
            cell = queue.popleft()
            self.check(e, f"{corp} share price", target, self.rs.market[cell].price)
        else:
            self.check(e, f"{corp} share price", target, shares.price(self.state, self.rs, corp))

    def on_float(self, e):
        self.check(e, f"{e.actor} floated", True, self.state.corps[e.actor].floated)

    def on_receives(self, e):
        self.expect(e, ("receives", e.actor), e.data["amount"])

    # ------------------------------------------------------------------ rounds

    def on_phase(self, e):
        self.check(e, "phase", e.data["phase"], self.state.phase)

    def on_sr_start(self, e):
        self.finish_round(e, None)
        r = self.state.round
        self.check(e, "round", f"SR {e.data['round']}", f"SR {r.get('number')}" if r["kind"] == "stock" else r["kind"])

    def on_or_start(self, e):
        self.finish_round(e, (e.data["round"], e.data["number"]))
        r = self.state.round
        log = f"OR {e.data['round']}.{e.data['number']}"
        ours = f"OR {r.get('set')}.{r.get('index')}" if r["kind"] == "operating" else r["kind"]
        if e.data["of"] is not None and r["kind"] == "operating":  # early banners leave out "(of N)"
            log, ours = f"{log} of {e.data['of']}", f"{ours} of {r.get('count')}"
        self.check(e, "round", log, ours)

    def on_operates(self, e):
        corp = e.data["corp"]
        if self.round_kind() == "operating" and self.state.round["corp"] != corp:
            self.finish_turn(e)
        r = self.state.round
        self.check(e, "operating company", corp, r.get("corp"))
        self.check(e, f"president of {corp}", e.actor, self.state.president(corp))

    def finish_turn(self, e):
        """The log has no 'done': a company's turn ends when the next one starts or the round ends."""
        s = self.state
        if s.round["kind"] != "operating" or s.round.get("corp") is None or s.game_over:
            return
        corp = s.round["corp"]
        no_route = not s.corp_trains(corp)
        text = f"done {corp}" + (" --no-route" if no_route else "")
        self.issue(e, text, "done", corp=corp, no_route=no_route)

    def finish_round(self, e, until: tuple | None) -> None:
        """End company turns until our engine reaches the round the log's banner announces."""
        for _ in range(20):
            r = self.state.round
            if r["kind"] != "operating" or self.state.game_over or (r["set"], r["index"]) == until:
                return
            self.finish_turn(e)

    def on_collect(self, e):
        self.expect(e, ("collect", e.actor, e.data["private"]), e.data["amount"])

    # ------------------------------------------------------------------ a company's turn

    def on_lay_tile(self, e):
        corp, cost, via = e.actor, e.data["cost"], e.data.get("via")
        using = f" --using {via}" if via else ""
        self.issue(e, f"tile {corp} {cost}{using}", "tile", corp=corp, cost=cost, using=via)

    def on_place_token(self, e):
        corp = e.actor
        if not e.data.get("cost") and not e.data.get("via"):
            return  # the free home token, which the engine places at the company's first turn
        self.issue(e, f"token {corp}", "token", corp=corp)
        self.expect(e, ("token", corp), e.data.get("cost") or 0)

    def on_pay_out(self, e):
        corp, revenue = e.actor, e.data["revenue"]
        self.issue(e, f"pay {corp} {revenue}", "pay", corp=corp, revenue=revenue)
        self.expect(e, ("payout", corp), {k: v for k, v in e.data["payees"].items() if v})

    def on_withhold(self, e):
        corp, revenue = e.actor, e.data["amount"]
        self.issue(e, f"withhold {corp} {revenue}", "withhold", corp=corp, revenue=revenue)

    def on_does_not_run(self, e):
        self.issue(e, f"withhold {e.actor} 0", "withhold", corp=e.actor, revenue=0)

    def on_buy_train(self, e):
        corp, name, price, seller = e.actor, e.data["train"], e.data["amount"], e.data["seller"]
        # Older versions of the site call the open market's seller The Depot as well: a type the
        # depot no longer sells but the pool holds came from the pool.
        from_pool = seller == POOL or (
            seller == DEPOT and name not in trains.depot_offer(self.state, self.rs)
            and trains.in_pool(self.state, name))
        if from_pool:
            self.issue(e, f"train {corp} {name} --from pool", "train", corp=corp, type=name, source="pool")
        elif seller == DEPOT:
            self.issue(e, f"train {corp} {name}", "train", corp=corp, type=name)
        else:
            self.issue(e, f"train {corp} {name} --from {seller} --price {price}", "train", corp=corp, type=name,
                       source=seller, price=price)
        self.expect(e, ("train", corp, name), price)

    def on_exchange_train(self, e):
        corp, name, old = e.actor, e.data["train"], e.data["old_train"]
        self.issue(e, f"train {corp} {name} --trade-in {old}", "train", corp=corp, type=name, trade_in=old)
        self.expect(e, ("train", corp, name), e.data["amount"])

    def on_discard_train(self, e):
        self.issue(e, f"discard {e.actor} {e.data['train']}", "discard", corp=e.actor, type=e.data["train"])

    def on_buy_company(self, e):
        corp, sym, price = e.actor, e.data["private"], e.data["amount"]
        self.issue(e, f"buy-private {corp} {sym} {price}", "buy-private", corp=corp, private=sym, price=price)

    def on_contribute(self, e):
        self.expect(e, ("contribute", e.actor), e.data["amount"])

    # ------------------------------------------------------------------ events and the end

    def on_rust(self, e):
        # an exported train left the game before: it is not one the rusting missed
        left = [t for t, h in self.state.trains.items() if train_type(t) == e.data["train"] and h not in (RUSTED, REMOVED)]
        self.check(e, f"{e.data['train']} trains rusted", [], left)

    def on_export(self, e):
        """The site logs an export as the set of ORs ends (or after an auction's privates-only OR):
        our engine exports by itself once the round's last company is done."""
        self.finish_round(e, None)
        self.expect(e, ("export",), e.data["train"])

    def on_close_privates(self, e):
        open_ = [sym for sym, p in self.state.privates.items() if not p.closed and p.owner]
        self.check(e, "privates closed", [], open_)

    def on_bank_broken(self, e):
        if not self.state.bank_broken:  # the log announces it before the payment that breaks it
            self.expect(e, ("bank_broken",), True)

    def on_bankrupt(self, e):
        self.issue(e, f"bankrupt {quote(e.actor)}", "bankrupt", player=e.actor)

    def on_end_manual(self, e):
        self.issue(e, "end", "end")

    def on_game_over(self, e):
        self.finish_turn(e)
        self.settle()
        self.check(e, "game over", True, self.state.game_over)
        ours = {p: net_worth(self.state, self.rs, p) for p in self.state.players}
        self.result.final_values = ours
        for player, worth in e.data["values"].items():
            self.check(e, f"{player}'s value", worth, ours.get(player))


DECISIONS = {"bid", "buy_private", "auction_pass", "auction_drop", "par", "buy_share", "sell_shares", "exchange",
             "decline_sell", "decline_buy", "pass", "lay_tile", "place_token", "pay_out", "withhold",
             "does_not_run", "buy_train", "exchange_train", "discard_train", "buy_company", "bankrupt", "operates"}


def describe_key(key: tuple) -> str:
    kind, *rest = key
    return f"{kind} " + " ".join(str(r) for r in rest)


class ImportFailure(BankError):
    """A log line our engine cannot follow."""

    exit_code = 6

    def __init__(self, entry: LogEntry, message: str):
        super().__init__(f"line {entry.lineno}: {entry.text!r}: {message}")
        self.entry = entry
