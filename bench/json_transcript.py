"""Translate an 18xx.games JSON record (the `actions` list) into bank commands, played through the
engine as it goes, so that what the record leaves implicit (the site's automatic passes, the end of
a company's turn, a trainless company's run of 0) is supplied where the bank asks for it.

    python bench/json_transcript.py GAME.json TITLE > transcript.txt

A stop-gap until `bank import GAME.json` (issue 37): it wrote examples/1889-game.txt from the shared
game 314 and examples/18chesapeake-game.txt from game 1277. Undo/redo are applied first (README of
the shared records, §4). The site's title is the bank's by TITLES; a private's symbol the title
spells otherwise is mapped by PRIVATES (1889: the site's private TR is the bank's TER); a symbol
with a plain alias (B&O: BnO) is written as its alias, as a table types it. A title's options
from the record are OPTIONS (18Chesapeake: Cornelius Vanderbilt's company, drawn from the seed).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import Game  # noqa: E402

from ledger.core.errors import BankError  # noqa: E402

TITLES = {"18Chesapeake": "18chesapeake"}
PRIVATES = {"1889": {"TR": "TER"}}
OPTIONS = {"18chesapeake": lambda record: {"vanderbilt": f"seed:{record['settings']['seed']}"}}


def kept_actions(actions: list[dict]) -> list[dict]:
    kept: list[dict | None] = []
    stack: list[list[tuple[int, dict]]] = []
    for a in actions:
        t = a["type"]
        if t == "undo":
            filled = [i for i, k in enumerate(kept) if k is not None and k["type"] != "message"]
            if "action_id" in a:
                after = next((i for i, k in enumerate(kept) if k is not None and k["id"] == a["action_id"]), -1)
                group = [i for i in filled if i > after] if a["action_id"] else filled
            else:
                group = [filled[-1]] if filled else []
                if group:
                    group = [i for i in filled if i >= group[0]]
            stack.append([(i, kept[i]) for i in group])
            for i in group:
                kept[i] = None
        elif t == "redo":
            if stack:
                for i, k in stack.pop():
                    kept[i] = k
        else:
            if t != "message":
                stack.clear()
            kept.append(a)
    out = []
    for a in kept:
        if a is None or a["type"] == "message":
            continue
        out.append(a)
        out.extend({**sub, "id": a["id"]} for sub in a.get("auto_actions") or ())
    return out


def q(name: str) -> str:
    return f"'{name}'" if " " in name else name


class Translator:
    def __init__(self, record: dict, title: str):
        self.names = {p["id"]: p["name"] for p in record["players"]}
        options = OPTIONS[title](record) if title in OPTIONS else {}
        self.g = Game([p["name"] for p in record["players"]], title, options=options)
        self.lines = [f"new {title} " + " ".join(q(p["name"]) for p in record["players"])
                      + "".join(f" --option {k}={v}" for k, v in options.items())]
        rs = self.g.rs
        self.alias = {e.sym: e.alias for e in (*rs.corporations, *rs.privates) if e.alias}
        self.privates = {**{p.sym: self.alias.get(p.sym, p.sym) for p in rs.privates}, **PRIVATES.get(title, {})}
        self.ipo = set()          # share ids still in the IPO
        self.trains: dict[str, str] = {}   # site train id -> holder (a corporation, 'pool')
        self.ran: set = set()     # companies that ran this turn

    @property
    def s(self):
        return self.g.state

    def do(self, line: str, note: str = "") -> None:
        self.g.do(line)
        self.lines.append(f"{line}  # {note}" if note else line)

    def try_do(self, line: str, note: str) -> bool:
        try:
            self.do(line, note)
            return True
        except BankError:
            return False

    def c(self, sym: str) -> str:
        """A company or private as the table types it (its alias, where the shell would split it)."""
        return self.alias.get(sym, sym)

    def sym_of(self, typed: str) -> str:
        return next((s for s, al in self.alias.items() if al == typed), typed)

    def player(self, a) -> str:
        return q(self.names[a["entity"]])

    def finish_turns(self, corp: str | None, note: str) -> None:
        """End company turns (and stock rounds, by the site's automatic passes) until `corp` acts."""
        for _ in range(60):
            r = self.s.round
            if self.s.game_over:
                return
            if r["kind"] == "operating":
                if corp is not None and r.get("corp") == corp:
                    return
                cur = r.get("corp")
                if cur not in self.ran and not self.s.corp_trains(cur):
                    self.try_do(f"withhold {self.c(cur)} 0", note + " (does not run)")
                self.do(f"done {self.c(cur)}" + ("" if self.s.corp_trains(cur) else " --no-route"), note)
                self.ran.discard(cur)
            elif r["kind"] == "stock" and corp is not None:
                self.do(f"pass {q(self.s.players[r['turn']])}", note + " (no valid actions)")
            else:
                return
        raise RuntimeError(f"cannot reach {corp}'s turn")

    def player_turn(self, name: str, line: str, note: str) -> None:
        """Play a player's line; the site passes automatically for players with nothing to do."""
        for _ in range(10):
            try:
                self.do(line, note)
                return
            except BankError as exc:
                r = self.s.round
                if r["kind"] == "operating" and r.get("corp"):
                    self.finish_turns(None, note)
                    continue
                if r["kind"] != "stock" or "turn" not in str(exc.message):
                    raise
                cur = self.s.players[r["turn"]]
                if cur == name.strip("'"):
                    raise
                self.do(f"pass {q(cur)}", note + " (no valid actions)")
        raise RuntimeError(line)

    def run(self, actions: list[dict]) -> None:
        actions = list(actions)
        while actions:
            a = actions.pop(0)
            if a["type"] == "discard_train":
                # the site takes a phase change's discards in any order, the bank in its pending order
                group = [a]
                while actions and actions[0]["type"] == "discard_train":
                    group.append(actions.pop(0))
                due = [p["corp"] for p in self.s.pending if p["kind"] == "discard"]
                group.sort(key=lambda d: due.index(d["entity"]) if d["entity"] in due else len(due))
                for d in group:
                    self.act(d, f"action {d['id']}")
                continue
            self.act(a, f"action {a['id']}")

    def act(self, a: dict, note: str) -> None:
        t, kind = a["type"], a.get("entity_type")
        if kind == "company":
            if t == "buy_shares":  # DR's exchange for an IR share
                owner = self.s.privates[a["entity"]].owner.split(":", 1)[1]
                corp = a["shares"][0].rsplit("_", 1)[0]
                self.ipo.difference_update(a["shares"])
                self.player_turn(q(owner), f"exchange {q(owner)} {a['entity']} {corp} --ipo", note)
            sym = self.privates.get(a["entity"], a["entity"])
            p = self.s.privates.get(self.sym_of(sym))
            owner = p.owner if p else None
            if owner and owner.startswith("company:") and t in ("lay_tile", "place_token"):
                # a company's private lays its tile or places its station (18Chesapeake C-P, B&S, C&OC)
                corp = owner.split(":", 1)[1]
                self.finish_turns(corp, note)
                if t == "lay_tile":
                    self.do(f"tile {self.c(corp)} " + tile_cost(self, a) + f" --using {sym}", note)
                else:
                    self.do(f"token {self.c(corp)}", note)
            return   # ER's tile on C4, MF's port: no money
        if kind == "player":
            p = self.player(a)
            if t == "bid":
                sym = self.privates.get(a["company"], a["company"])
                unsold = [x for x in self.s.privates if self.s.privates[x].owner is None and not self.s.privates[x].closed]
                bids = self.s.round.get("bids", {}).get(sym)
                if unsold and unsold[0] == self.sym_of(sym) and not bids and not self.s.round.get("war"):
                    self.do(f"buy {p} {sym}", note)
                else:
                    self.do(f"bid {p} {sym} {a['price']}", note)
            elif t == "par":
                price = a["share_price"].split(",")[0]
                corp = a["corporation"]
                # the certificates still in the IPO (not one a private handed out: B&OR's B&O_1)
                self.ipo |= {c.replace(".", "_") for c, h in self.s.certs.items()
                             if h == f"ipo:{corp}" and not c.endswith(".0")}
                self.player_turn(p, f"par {p} {self.c(corp)} {price}", note)
            elif t == "buy_shares":
                share = a["shares"][0]
                corp = share.rsplit("_", 1)[0]
                source = "--ipo" if share in self.ipo else "--pool"
                self.ipo.discard(share)
                self.player_turn(p, f"buy {p} {self.c(corp)} {source}", note)
            elif t == "sell_shares":
                corp = a["shares"][0].rsplit("_", 1)[0]
                self.player_turn(p, f"sell {p} {self.c(corp)} {a['percent'] // 10}", note)
            elif t == "pass":
                if self.s.round["kind"] == "operating":
                    return
                self.player_turn(p, f"pass {p}", note)
            elif t in ("program_buy_shares", "program_share_pass", "program_disable", "message"):
                return
            elif t == "end_game":
                self.do("end", note)
            else:
                raise RuntimeError(f"{note}: {t}")
            return
        corp = a["entity"]
        if t == "pass":
            return
        if t == "sell_shares":   # an emergency sale by the president
            p = q(self.s.president(corp))
            self.do(f"sell {p} {self.c(a['shares'][0].rsplit('_', 1)[0])} {a['percent'] // 10}", note)
            return
        if t == "discard_train":   # over the limit after a phase change: whoever's turn it is
            self.trains[a["train"]] = "pool"
            self.do(f"discard {self.c(corp)} {a['train'].split('-')[0]}", note)
            return
        self.finish_turns(corp, note)
        if t == "lay_tile":
            self.do(f"tile {self.c(corp)} " + tile_cost(self, a), note)
        elif t == "place_token":
            self.do(f"token {self.c(corp)}", note)
        elif t == "run_routes":
            self.revenue = sum(r.get("revenue") or 0 for r in a["routes"])
        elif t == "dividend":
            verb = "pay" if a["kind"] == "payout" else "withhold"
            self.do(f"{verb} {self.c(corp)} {self.revenue}", note)
            self.ran.add(corp)
        elif t == "buy_train":
            if corp not in self.ran and not self.s.corp_trains(corp):
                self.try_do(f"withhold {self.c(corp)} 0", note + " (does not run)")
                self.ran.add(corp)
            name = a["train"].split("-")[0]
            seller = self.trains.get(a["train"])
            if a.get("exchange"):
                line = f"train {self.c(corp)} {name} --trade-in {a['exchange'].split('-')[0]}"
                self.trains[a["exchange"]] = "pool"
            elif seller == "pool":
                line = f"train {self.c(corp)} {name} --from pool"
            elif seller:
                line = f"train {self.c(corp)} {name} --from {self.c(seller)} --price {a['price']}"
            else:
                line = f"train {self.c(corp)} {name}"
            self.trains[a["train"]] = corp
            self.do(line, note)
        elif t == "buy_company":
            sym = self.privates.get(a["company"], a["company"])
            self.do(f"buy-private {self.c(corp)} {sym} {a['price']}", note)
        elif t == "bankrupt":
            self.do(f"bankrupt {q(self.s.president(corp))}", note)
        else:
            raise RuntimeError(f"{note}: {t}")


# 1889's terrain (digest §8.3): the hexes that cost ¥80 on their first tile, Kotohira on every tile
# (a hex fee), Kouchi on its brown upgrade; a company owning SMR pays nothing on mountain-only hexes.
MOUNTAIN = {"E4", "D5", "F5", "C6", "E6", "G6", "D7", "F7", "A8", "G8", "B9", "H9", "H11", "H13"}
RIVER = {"H5", "I6", "K6"}


# 18Chesapeake's terrain (digest §8.1): paid on a hex's first tile; pre-printed Baltimore H6 on its
# green upgrade; C&OC's Berlin tile is its $80 mountain.
CHESAPEAKE_80 = {"B12", "D4", "D6", "D10", "E5", "C13", "D2", "D8"}
CHESAPEAKE_40 = {"F10", "G9", "G11", "H12", "G3", "I5", "H4", "J6"}


def tile_cost(tr: Translator, a: dict) -> str:
    hex_ = a["hex"]
    tiled = tr.__dict__.setdefault("tiled", set())
    first = hex_ not in tiled
    tiled.add(hex_)
    if tr.g.rs.title == "18chesapeake":
        if first and hex_ in CHESAPEAKE_80:
            return "80"
        return "40" if first and (hex_ in CHESAPEAKE_40 or hex_ == "H6") else "0"
    if hex_ == "I4":
        return "80"
    if hex_ == "F9" and a["tile"].startswith("465"):
        return "80"
    if first and hex_ in RIVER:
        return "80"
    if first and hex_ in MOUNTAIN:
        owns_smr = tr.s.privates.get("SMR") and tr.s.privates["SMR"].owner == f"company:{a['entity']}" \
            and not tr.s.privates["SMR"].closed
        return "0" if owns_smr else "80"
    return "0"


def main() -> None:
    record = json.loads(Path(sys.argv[1]).read_text())
    title = sys.argv[2] if len(sys.argv) > 2 else TITLES.get(str(record["title"]), str(record["title"]))
    tr = Translator(record, title)
    try:
        tr.run(kept_actions(record["actions"]))
    except Exception as exc:  # noqa: BLE001
        print("\n".join(tr.lines))
        print(f"# STOPPED: {type(exc).__name__}: {exc}", file=sys.stderr)
        raise SystemExit(1)
    tr.finish_turns(None, "end")
    print("\n".join(tr.lines))


if __name__ == "__main__":
    main()
