"""Random legal 1839 games checked after every accepted line against rules worked by hand (the
short runs: tests/1839/test_1839_rules.py; the long ones: bench/random_1839.py)."""

from __future__ import annotations

import shlex

from openings_1839 import BANK_TOTAL
from random_play import RandomGame

from ledger.core import invariants

# The generic driver (tests/random_play.py) plays random legal 1839 lines, from the draws on. After
# every accepted line the status (the JSON `bank status --json` prints) is checked against rules
# worked here, independently of the engine's own invariants.

GRID = [55, 56, 59, 62, 67, 72, 80, 89, 101, 116, 135, 160, 192, 233, 287, 359, 454, 584, 761, 1000]  # D2.2
PUBLIC = ("AMS", "HIJSM", "NBDS", "NCS", "NRS", "NWS", "SS", "ZHESM")
# §6 table / §12: revenue (player owner, company owner); IJR 10 (§12.2 and the card, A2); NFLM's and
# MEVS's player revenue is a run (part 2: such ORs are not checked)
REVENUE = {"SLC": (20, 20), "SLD": (20, 20), "SLE": (20, 20), "SLK": (20, 20), "IJR": (10, 10), "ZK": (0, 0),
           "LVG": (5, 5), "SHZ": (20, 20), "CO": (20, 20), "RWS": (35, 35), "SWO": (25, 25),
           "VVD": (15, 15), "LSW": (15, 15), "AMB": (20, 10), "RG": (20, 0), "AB": (20, 20), "IJS": (5, 0),
           "WSM": (15, 0), "PTT": (15, 15), "NFLM": (None, 20), "MEVS": (None, 0), "VV": (20, 20),
           "CM": (10, 10), "KR": (10, 10), "RB": (30, 30), "NF": (20, 20), "JJB": (0, 0), "BP": (0, 0),
           "KV": (50, 0)}


def run_price(price: int, how: str, revenue: int, has_trains: bool) -> int:
    """§7.7.3.1 with B1: the box after a run paid (D = R), half-paid (D = R / 2) or withheld (D = 0)."""
    i = GRID.index(price)
    d = revenue if how == "pay" else revenue / 2 if how == "half" else 0
    if d > 0 and d >= price:
        if price >= 135:
            return GRID[min(i + 1, 19)] if d > price else price
        for _ in range(3 if d >= 4 * price else 2 if d >= 2 * price else 1):
            i = min(i + 1, 19)
            if GRID[i] >= 135:
                break
        return GRID[i]
    if d > 0:
        return GRID[max(i - 1, 0)]
    return GRID[max(i - (2 if has_trains else 3), 0)]


def check_line(line: str, a: dict, b: dict) -> None:
    """One accepted line took status `a` to status `b`: the rules' consequences we can state."""
    words = shlex.split(line)
    verb = words[0]
    total = b["bank"] + sum(p["cash"] for p in b["players"]) + sum(c["cash"] for c in b["companies"])
    assert total == BANK_TOTAL, "money is conserved"
    for c in b["companies"]:
        held = sum(p["shares"].get(c["sym"], 0) for p in b["players"])
        assert held + c["ipo"] + c["pool"] == 100, f"{c['sym']} certificates sum to 100 %"
        if c["price"] is not None:
            assert c["price"] in GRID
    ca = {c["sym"]: c for c in a["companies"]}
    cb = {c["sym"]: c for c in b["companies"]}
    pa = {p["name"]: p for p in a["players"]}
    pb = {p["name"]: p for p in b["players"]}
    sr = a["round"].startswith("SR")
    # a dividend, half-pay or withholding moves the price as §7.7.3.1 says
    if verb in ("pay", "half", "withhold") and words[1] in PUBLIC:
        sym, revenue = words[1], int(words[2])
        want = run_price(ca[sym]["price"], verb, revenue, bool(ca[sym]["trains"]))
        assert cb[sym]["price"] == want, f"{line}: {ca[sym]['price']} -> {cb[sym]['price']}, rules say {want}"
    # a sale is paid at the current price and does not move it (§7.2, D10.2); never in SR 1
    if verb == "sell" and words[2] in PUBLIC:
        assert a["round"] != "SR 1"
        sym, n = words[2], int(words[3]) if len(words) > 3 and words[3].isdigit() else 1
        # (a trainless operating company runs for nothing before its president sells: that moves it)
        if sr or a["operating"] != sym:
            assert cb[sym]["price"] == ca[sym]["price"]
        if sr:
            assert pb[words[1]]["cash"] - pa[words[1]]["cash"] == n * ca[sym]["price"]
    # a share bought in an SR costs the current price (D0.1 #2), the par certificate 2 x par (§7.4);
    # no IPO certificate takes a buyer past 60 % (§7.3); nobody buys past his certificate limit (§7.6)
    if sr and verb in ("buy", "par") and words[2] in PUBLIC:
        who, sym = words[1], words[2]
        got = pb[who]["shares"].get(sym, 0) - pa[who]["shares"].get(sym, 0)
        paid = pa[who]["cash"] - pb[who]["cash"]
        if verb == "par":
            assert paid == 2 * int(words[3])
        else:
            assert paid == got // 10 * ca[sym]["price"]
            if cb[sym]["ipo"] == ca[sym]["ipo"] - got and cb[sym]["pool"] == ca[sym]["pool"]:
                assert pb[who]["shares"][sym] <= 60
        assert pb[who]["certificates"] <= pb[who]["cert_limit"]
    # a float by a purchase pays 10 x par into the treasury (§7.4)
    for sym in PUBLIC:
        if sr and verb in ("buy", "par") and cb[sym]["floated"] and not ca[sym]["floated"]:
            assert cb[sym]["cash"] - ca[sym]["cash"] == 10 * cb[sym]["par"]
    # the end of an SR (§7.7.2): each floated public company one box down per pool share
    if sr and b["round"].startswith("OR"):
        for sym in PUBLIC:
            if ca[sym]["floated"]:
                i = GRID.index(ca[sym]["price"])
                assert cb[sym]["price"] == GRID[max(i - ca[sym]["pool"] // 10, 0)], f"{sym} at the end of {a['round']}"
        # §8.1: the private step pays each owner (before brown: D7.5's obsolete privates are part 2)
        owned = {p["sym"]: p["owner"] for p in a["privates"] if p["owner"] and not p["closed"]}
        if a["phase"] in ("yellow", "green", "blue") and not {"NFLM", "MEVS"} & set(owned):
            for name in pa:
                due = sum(REVENUE[sym][0] for sym, owner in owned.items() if owner == name)
                assert pb[name]["cash"] - pa[name]["cash"] == due, f"{name}'s private step"
            for sym in PUBLIC:
                due = sum(REVENUE[p][1] for p, owner in owned.items() if owner == sym)
                assert cb[sym]["cash"] - ca[sym]["cash"] == due, f"{sym}'s private step"


class CheckedGame(RandomGame):
    """A random game whose every accepted line is checked with check_line."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from ledger.interface import views
        self.views = views
        self.checked = 0
        self.last = views.status_json(self.state, self.rs)

    def step(self) -> bool:
        n = len(self.lines)
        more = super().step()
        if len(self.lines) > n:
            now = self.views.status_json(self.state, self.rs)
            check_line(self.lines[-1], self.last, now)
            self.last = now
            self.checked += 1
        return more


def every_event(state, rs, event: dict, line: str) -> None:
    problems = invariants.check(state, rs)
    assert not problems, f"after {event['kind']} of {line!r}: {problems}"




WANTED = {"draws_dealt", "private_bought", "floated", "revenue", "train_bought", "phase_changed", "shares_sold"}


def checked_games(count: int, seed: int, lines: int = 600, runs: int = 20) -> tuple[set, list]:
    """Random games, from this seed on, until the rules were checked on more than `runs` runs (a
    random table may go bankrupt early: the next game goes on from there): the kinds of event met
    and the runs checked. Every accepted line was checked."""
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:count]
    kinds, ran = set(), []
    for game_seed in range(seed, seed + 6):
        game = CheckedGame("1839", names, game_seed, after_event=every_event)
        game.play(lines)
        assert game.checked == len(game.lines)
        kinds |= {e["kind"] for e in game.events}
        ran += [line for line in game.lines if line.split()[0] in ("pay", "half", "withhold")]
        if len(ran) > runs:
            break
    return kinds, ran


# The books and the title's own events in random games of two to six players (the short run:
# tests/1839/test_1839_example.py).
BOOKS_WANTED = {"draws_dealt", "discount_placed", "private_bought", "floated", "revenue", "train_bought",
                "phase_changed", "revenue_tracked", "company_listed", "foreign_income"}
FOREIGN = ("OZ", "BEL", "DUI")
CERT_LIMIT = {2: 32, 3: 21, 4: 16, 5: 15, 6: 11}   # D1


def check_every_event(state, rs, event: dict, line: str) -> None:
    """Money conserved, nobody below zero, every company's certificates at 100 %, every holding
    with one holder: after each event, not only after each command."""
    problems = invariants.check(state, rs)
    assert not problems, f"after {event['kind']} of {line!r}: {problems}"


def books_games(count: int, seed: int, lines: int = 900) -> tuple[set, bool]:
    """Random games from this seed on until the generator reached BOOKS_WANTED and a foreign share
    was bought (a random table may go bankrupt early: another game goes on): each replays to the
    state reached step by step and has the player count's certificate limit. The kinds met, and
    whether a foreign share was bought."""
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:count]
    kinds, foreign = set(), False
    for game_seed in range(seed, seed + 6):
        game = RandomGame("1839", names, game_seed, after_event=check_every_event)
        game.play(lines)
        kinds |= {e["kind"] for e in game.events}
        foreign |= any(e["kind"] == "share_bought" and e["corp"] in FOREIGN for e in game.events)
        assert game.replayed() == game.state, "replaying the events differs from the state reached step by step"
        assert game.state.cert_limit == CERT_LIMIT[count]
        if BOOKS_WANTED <= kinds and foreign:
            break
    return kinds, foreign
