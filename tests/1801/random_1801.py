"""1801 (18OE) played at random, shared by tests/1801/test_1801_random.py,
tests/1801/test_1801_whole_games.py and bench/random_1801.py (the long runs):

* Table: random play (tests/random_play.py) with trades made rare; FromTranscript: a transcript's
  lines first (its events checked like the rest), then random play;
* checker: the books and the rules, worked from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt
  "§x"), checked after every event;
* HurriedTable / play_to_the_end: whole games, the operating rounds played by a hurried policy.
"""

from __future__ import annotations

import importlib
import math

from random_play import RandomGame
from transcripts import lines_of

from ledger import catalog
from ledger.core import engine, invariants, legal
from ledger.core.errors import BankError
from ledger.core.rules import shares
from ledger.core.rules import trains as T
from ledger.core.state import BANK, RUSTED, player_acct

common = importlib.import_module("rulesets.1801.common")
nationals = importlib.import_module("rulesets.1801.nationals")
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]

HOME = {"UK": 40, "PHS": 40, "FB": 20, "AH": 20, "IT": 10, "SP": 10, "SND": 10, "RU": 10}   # §9.1 Table 1
LIMITED = ("UK", "PHS", "FB")                                                           # Table 1's asterisks
REGIONAL_PARS = (60, 65, 70, 75, 80, 90)                                                # §2.2.5
ZONE_OF = {"GWR": "UK", "LNWR": "UK", "GSWR": "UK", "BHB": "PHS", "KBS": "PHS", "POB": "PHS", "KSS": "PHS",
           "PLM": "FB", "OU": "FB", "BEL": "FB", "MIDI": "FB", "SB": "AH", "MAV": "AH", "SFAI": "IT", "SFR": "IT",
           "MZA": "SP", "CHN": "SP", "RCP": "SP", "BJV": "SND", "DSJ": "SND", "MSP": "RU", "MKV": "RU", "WW": "RU",
           "LRZD": "RU"}
MINORS = set("ABCDEFGHJKLM")


class Table(RandomGame):
    """Random play with trades made rare: two players may trade items back and forth for ever,
    which a real table would not (§10.4 trades are a stock action, so they reset the passes)."""

    def step(self) -> bool:
        import random_play
        original = random_play.candidates

        def fewer_trades(s, rs, **kw):
            lines = [x for x in original(s, rs, **kw) if not x.startswith("trade") or self.rng.random() < 0.02]
            if s.round.get("consolidation"):   # a table gets on with placing its minors and regionals
                lines = [x for x in lines if x.split()[0] in ("merge", "expand", "abandon", "pass", "discard")
                         or self.rng.random() < 0.05]
            return lines
        random_play.candidates = fewer_trades
        try:
            return super().step()
        finally:
            random_play.candidates = original


def checker(seen: dict):
    def check(state, rs, event: dict, line: str) -> None:
        problems = invariants.check(state, rs)
        assert not problems, f"after {event['kind']} of {line!r}: {problems}"
        kind = event["kind"]
        moved = {(a, b): amt for a, b, amt in event.get("transfers", [])}
        if kind == "packet_sold":
            price, item = event["price"], event["item"]
            buyer = player_acct(event["player"])
            if item in MINORS:
                assert moved.get((buyer, f"company:{item}"), 0) == min(price, 180), event
                assert moved.get((buyer, BANK), 0) == max(0, price - 180), event
            else:
                assert moved.get((buyer, BANK), 0) == price, event
        if kind == "minor_floated":
            assert event["cost"] == HOME[event["zone"]], event
            assert moved.get((f"company:{event['corp']}", BANK), 0) == event["cost"], event
            taken = [sym for sym, a in state.assets.items() if a.kind == "chit" and a.owner
                     and sym.rstrip("0123456789") in LIMITED]
            assert len(taken) <= 4, taken
        if kind == "regional_floated":
            assert event["par"] in REGIONAL_PARS
            assert moved[(player_acct(event["player"]), f"company:{event['corp']}")] == 2 * event["par"]
            assert event["home_cost"] == HOME[ZONE_OF[event["corp"]]]
        if kind == "revenue":
            corp = event["corp"]
            if corp in MINORS and event["revenue"]:
                assert event["how"] == "half", event
            if event["how"] in ("pay", "half") and event["revenue"]:
                pool = event["revenue"] - (event["revenue"] // 2 if event["how"] == "half" else 0)
                for acct, _n, amount in event["payees"]:
                    if acct.startswith("player:"):
                        pct = state.percent_of(acct, corp)
                        assert amount == math.ceil(pool * pct / 100), (event, acct, pct)
        if kind == "train_bought":
            seen["trains"] = seen.get("trains", 0) + 1
            assert state.phase != "1"
            if event["type"] == "3":
                assert state.axes["railroad"] == "major"
        floated = [c for c, corp in state.corps.items() if corp.floated and corp.kind == "regional"]
        assert len(floated) <= 18
        by_players = state.own.removed_by_players
        assert len(by_players) <= 6 and len({ZONE_OF[c] for c in by_players}) == len(by_players)
        seen.setdefault("kinds", set()).add(kind)
    return check




class FromTranscript(Table):
    """A transcript's lines played first (every event checked by `after_event` as in random play),
    up to the line before the first whose events hold one that `stop_before(event)` picks (or all
    of them); random play goes on from there."""

    def __init__(self, script: str, seed: int, after_event=None, stop_before=None):
        lines = lines_of(script)
        new = lines[0].split()
        super().__init__(new[1], new[2:], seed, after_event=after_event)
        for line in lines[1:]:
            events = engine.decide(self.state, self.rs, catalog.parse_line(line))
            if stop_before and any(stop_before(e) for e in events):
                break
            for event in events:
                self.apply(event, line)
            self.lines.append(line)


class HurriedTable(Table):
    """Random stock rounds; operating rounds played by a hurried policy with random amounts."""

    def step(self) -> bool:
        s = self.state
        if s.game_over:
            return False
        if s.round.get("kind") == "stock" and common.major_phase(s) and self.rng.random() < 0.7:
            # a hurried table: most stock turns pass (refused while a minor or regional must be placed)
            if self.play_if_legal(f"pass {legal.turn(s, self.rs).actor}"):
                return True
        if s.round.get("kind") == "concessions":
            try:
                return super().step()
            except AssertionError:   # the random pars are dearer than the holder can pay: the cheapest
                who = legal.turn(s, self.rs).actor
                free = [c for c in s.corps if s.corps[c].kind == "regional" and not s.corps[c].floated
                        and not s.corps[c].par and c not in common.removed(s)]
                par = min(common.rules(self.rs, "regional_pars"))
                if any(self.play_if_legal(f"par {who} {c} {par}{x}") for c in free for x in ("", " --open-market")):
                    return True
                raise
        if s.round.get("kind") != "operating":
            return super().step()
        line = self.or_line()
        try:
            events = engine.decide(s, self.rs, catalog.parse_line(line))
        except BankError:   # the hurried line is not legal here: any legal line instead
            return super().step()
        for event in events:
            self.apply(event, line)
        self.lines.append(line)
        return True

    def play_if_legal(self, line: str) -> bool:
        try:
            events = engine.decide(self.state, self.rs, catalog.parse_line(line))
        except BankError:
            return False
        for event in events:
            self.apply(event, line)
        self.lines.append(line)
        return True

    def or_line(self) -> str:
        s, rs, rng = self.state, self.rs, self.rng
        if s.pending:
            due = s.pending[0]
            if due["kind"] == "choice":
                return f"choose {due['who']} {rng.choice(due['options'])}"
            corp = due["corp"]
            held = sorted(s.corp_trains(corp), key=lambda t: (not common.is_rusted(s, t), int(T.train_type(t))))
            return f"discard {corp} {T.train_type(held[0]) if common.is_rusted(s, held[0]) else T.side_name(s, rs, held[0])}"
        window = nationals.conversion_window(s)
        if window and rng.random() < 0.3:
            for player in window["order"][window["next"]:]:
                mine = [m for m in s.corps if s.corps[m].kind == "major" and s.president(m) == player]
                if mine:
                    return f"convert {player} {rng.choice(mine)}"
        corp = s.round["corp"]
        kind = s.corps[corp].kind
        ran = s.round["revenue"] is not None
        if common.repeat_or(s):
            rec = s.own.final["runs"].get(corp) or {}
            if not ran:
                if "revenue" in rec and not rec.get("new_train"):
                    return f"{rec['how']} {corp} {rec['revenue']}"
                return f"withhold {corp} 0"
            return f"done {corp}"
        if kind == "national":
            if not ran:
                if not s.corp_trains(corp):
                    return f"withhold {corp} 0"
                cities = ",".join(str(rng.choice((20, 30, 40, 60))) for _ in range(rng.randint(0, 6)))
                return f"run {corp} --cities {cities or 0} --towns 10 --unlinked-cities {rng.randint(0, 2)}"
            box = [t for t, h in s.trains.items() if h == RUSTED]
            if box and T.load(s, rs, corp)[0] < T.limit(s, rs, corp) and rng.random() < 0.8:
                return f"claim {corp} {T.train_type(rng.choice(box))}"
            return f"done {corp}"
        if corp in s.own.owes_train:
            return f"train {corp} 2+2"
        if not ran:
            n = len(T.counted(s, corp))
            if not n:
                return f"withhold {corp} 0"
            how = rng.choice(shares.kind(s, rs, corp).dividends)
            amount = 10 * rng.randint(0, 12) * n
            return f"{how} {corp} {amount}"
        offer = T.depot_offer(s, rs)
        if T.sold_count(s, "7") >= 4 and T.depot_left(s, "8"):
            offer = ["8"] + list(offer)
        if offer and common.major_phase(s) and T.load(s, rs, corp)[0] < T.limit(s, rs, corp) \
                and s.round["trains"] < 2 and not s.round.get("treasury"):
            side = min(rs.train(offer[0]).sides, key=lambda sd: sd.price)
            line = f"train {corp} {side.name}"
            try:
                engine.decide(s, rs, catalog.parse_line(line))
                return line
            except BankError:
                pass
        return f"done {corp}"


def play_to_the_end(count: int, seed: int, steps: int) -> HurriedTable:
    seen: dict = {}
    game = HurriedTable("1801", NAMES[:count], seed, after_event=checker(seen))
    for _ in range(steps):
        if not game.step():
            break
    return game


class HurriedFromTranscript(FromTranscript, HurriedTable):
    """A transcript's lines, then the hurried table's play to the end."""
