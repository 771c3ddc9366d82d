"""1801 (18OE): nationals, Pullmans, the Orient Express and the end of the game, played on the
engine as typed at the table (table_1801.py; grammar: /tmp/1801-spec-part3.md on top of parts 1 and 2).

Every number asserted here is worked BY HAND from the rules, never read off the program: the rulebook
shared/seeds/002_c09d1f5beee78cce.txt ("§x", it wins where it states a rule) and the digest
shared/rules/1801.md ("D x"; its 0.1 corrections override the rest; "E n" its edge cases). The working is
in the comments. Tables go on from the games of positions_1801.py (built once per module):

* OR21 (phase 2, OR 2.1 at WW's turn): WW Ann 70 / Cy 20 / treasury 10 at (1,2) £110, cash 850.
* P3M (phase 3, SR 3 over, OR 3.1 about to start): at OR 3.1's start WW 820 (K's mail), KSS 420
  (with J), GWR 395; KSS: Ben 30, Cy 10, Ann 10, treasury 40, OM 10 at (4,2) £80; GWR: Ben 50, Cy 30,
  OM 20 at (6,2) £70; WW at (0,2) £120. Trains: WW 2+2 2+2 3 3, KSS 2+2 2+2 3, GWR 2+2 2+2 3 3.
  Minor M is Ann's, unmerged.
* OR41 (phase 5, OR 4.1 at WW's turn, 18 majors): Ann 2565, Ben 2972, Cy 3404; WW (Ann 70, Ben 10,
  Cy 20, nothing in its treasury or the OM) at (0,2) £120, cash 910, trains 3 3.
* P6W: OR41, then OR 4.1 where seven majors buy the last seven 5s, RCP (Ben) buys the OM's 5 and a 4+4,
  and MSP (Ben) buys the first 6 (an express "6", £525): Train Phase 6 has just begun, MSP's buy step
  is open, the national window is open (Ben first, then Cy, then Ann).
* P8R: P6W played on (the other five 6s, then four 7+7s): Train Phase 7, level 8 for sale, at the start
  of an "OR n.1".
* POOR: OR41 where Ben, in the Consolidation round, traded all his cash (2932) to Ann for RSC.

The stock market (D 5.1): see MARKET below. §4.4 moves: RIGHT (no square: UP), LEFT (none: DOWN).
Trains (D 14): 3 £200 / 3+3 £225; 4 £300 / 4+4 £350; 5 £400; 6 £525 / 6+6 £600; 7+7 £750 / 4D £850;
8+8 £900 / 5D £1000.
"""

from __future__ import annotations


import pytest
from positions_1801 import CONS_TURNS, LEFT_MINORS, REGIONALS_LEFT
from positions_1801 import copied, cons_game, or21_game, or41_game, p3_game, p3m_game, s2_game, s2x_game  # noqa: F401  (fixtures, used by name)
from table_1801 import Table, changes

FORCE = "--force --reason scripted"
MARKET = [
    [None, 110, 120, 135, 150, 165, 180, 200, 225, 250, 280, 310, 350, 390, 440, 490, 550],
    [90, 100, 110, 120, 135, 150, 165, 180, 200, 225, 250, 280, 310, 350, 390, 440, 490],
    [80, 90, 100, 110, 120, 135, 150, 165, 180, 200, 225, 250, 280, 310],
    [75, 80, 90, 100, 110, 120, 135, 150, 165, 180, 200],
    [70, 75, 80, 90, 100, 110, 120, 135, 150],
    [65, 70, 75, 80, 90, 100, 110],
    [60, 65, 70, 75, 80],
    [50, 60, 65, 70],
]


def exists(r, c):
    return 0 <= r < len(MARKET) and 0 <= c < len(MARKET[r]) and MARKET[r][c] is not None


def right(cell):
    """§4.4 RIGHT: one square right; none there: UP; at £550 nothing."""
    r, c = cell
    if exists(r, c + 1):
        return (r, c + 1)
    return (r - 1, c) if exists(r - 1, c) else (r, c)


def at(cell):
    return (list(cell), MARKET[cell[0]][cell[1]])


# =========================================================================== driving

PRICES = {"3": 200, "3+3": 225, "4": 300, "4+4": 350, "5": 400, "5+5": 475, "6": 525, "6+6": 600,
          "7+7": 750, "4D": 850, "8+8": 900, "5D": 1000}


def trains_of(t: Table, sym: str) -> list:
    """The trains (no Pullman) a company holds, sorted."""
    return sorted(x for x in t.company(sym)["trains"] if "pullman" not in str(x).lower())


def levels(t: Table, sym: str) -> list:
    """The levels of a company's trains (4D = 7, 5D = 8; §11.3.2), sorted."""
    out = []
    for x in trains_of(t, sym):
        out.append({"4D": 7, "5D": 8}.get(x, int(str(x).split("+")[0])))
    return sorted(out)


def has_pullman(t: Table, sym: str) -> bool:
    c = t.company(sym)
    return bool(c.get("pullman") or c.get("pullmans")) or any("pullman" in str(x).lower() for x in c["trains"])


def sr_pass(t: Table) -> None:
    rnd = t.status()["round"]
    for _ in range(20):
        for name in ("Ann", "Ben", "Cy"):
            t.bank.line(f"pass {name}", ok=None)
            if t.status()["round"] != rnd:
                return
    pytest.fail(f"{rnd} did not end with passes")


def cheapest(s: dict) -> str:
    """The cheapest train on offer (a pool 4 counts), as a `train` argument (for driving only)."""
    best = None
    for offer in s["trains_for_sale"]:
        pool = offer.endswith("(pool)")
        for side in offer.replace("(pool)", "").split("/"):
            name = side.split()[0]
            price = PRICES.get(name, 10**6)
            if best is None or price < best[0]:
                best = (price, name + (" --from pool" if pool else ""))
    return best[1]


def default_turn(t: Table, sym: str, queue: list | None = None, limit: int = 2) -> None:
    """Idle turn: a national runs its capacity, a major withholds 0; a trainless major (or one with room
    while `queue` has trains to sell) first withholds what it lacks (--force) and buys."""
    s = t.status()
    c = next(c for c in s["companies"] if c["sym"] == sym)
    if c.get("kind") == "national":
        t.bank.line(f"run {sym}")
        t.bank.line(f"done {sym}")
        return
    if c.get("kind") != "major":
        t.bank.line(f"withhold {sym} 0", ok=None)
        t.bank.line(f"done {sym}")
        return
    trains = [x for x in c["trains"] if "pullman" not in str(x).lower()]
    want = None
    if queue and len(trains) < limit:
        want = queue.pop(0)
    elif not trains:
        want = cheapest(s)
    if want:
        need = PRICES[want.split()[0]] - c["cash"]
        t.bank.line(f"withhold {sym} {need} {FORCE}" if need > 0 else f"withhold {sym} 0")
        t.bank.line(f"train {sym} {want}")
    else:
        t.bank.line(f"withhold {sym} 0")
    t.bank.line(f"done {sym}")


def drive(t: Table, stop, plan: dict | None = None, queue: list | None = None, rounds: list | None = None,
          max_turns: int = 600) -> None:
    """Play until stop(status) is true (checked before each turn). plan: {corp: [lines]} played (once)
    when corp operates, instead of its default turn."""
    plan = dict(plan or {})
    for _ in range(max_turns):
        s = t.status()
        if rounds is not None and (not rounds or rounds[-1] != s["round"]):
            rounds.append(s["round"])
        if stop(s):
            return
        if s.get("game_over"):
            pytest.fail("the game ended early")
        if s.get("pending"):
            t.bank.line("choose Ann normal", ok=None)
            if t.status().get("pending"):
                pytest.fail(f"unhandled pending {s['pending']}")
            continue
        if s["round"].startswith("SR"):
            sr_pass(t)
            continue
        sym = s["operating"]
        if sym in plan:
            t.play("\n".join(plan.pop(sym)))
        else:
            default_turn(t, sym, queue)
    pytest.fail("drive: too many turns")


def operating(sym, rnd=None):
    return lambda s: s["operating"] == sym and (rnd is None or s["round"] == rnd)


# =========================================================================== tables

@pytest.fixture(scope="module")
def p6w_game(or41_game) -> Table:
    t = or41_game.copy()
    plan = {"RCP": [f"withhold RCP 1000 {FORCE}", "train RCP 5 --from pool", "train RCP 4+4 --from pool",
                    "done RCP"]}
    for sym in ["OU", "PLM", "SB", "BEL", "MIDI", "SFR", "MAV"]:
        plan[sym] = [f"withhold {sym} 0", f"train {sym} 5", f"done {sym}"]
    drive(t, operating("MSP", "OR 4.1"), plan=plan)
    t.bank.line(f"withhold MSP 2000 {FORCE}")
    t.bank.line("train MSP 6")
    return t


@pytest.fixture(scope="module")
def p8r_game(p6w_game) -> Table:
    t = p6w_game.copy()
    t.bank.line("done MSP")
    queue = ["6"] * 5 + ["7+7"] * 4
    state = {}

    def stop(s):
        if queue:
            return False
        state.setdefault("emptied", s["round"])
        return s["round"] != state["emptied"] and s["round"].startswith("OR") and s["round"].endswith(".1")
    drive(t, stop, queue=queue)
    return t


@pytest.fixture(scope="module")
def poor_game(cons_game) -> Table:
    # CONS_TURNS with Ben's first pass (after "expand Ann DSJ") a trade instead: Ben buys Ann's RSC
    # for all his 2932 (§10.4; Ben's cash does not change in the Consolidation round otherwise).
    t = cons_game.copy()
    turns = CONS_TURNS.replace("expand Ann DSJ\npass Ben", "expand Ann DSJ\ntrade Ben RSC 2932")
    t.play(turns)
    return t


or21 = copied("or21_game")
p3m = copied("p3m_game")
or41 = copied("or41_game")
p6w = copied("p6w_game")
p8r = copied("p8r_game")
poor = copied("poor_game")


def to_kss_or31(t: Table) -> None:
    """OR 3.1 (P3M): Ann keeps C normal; minors and regionals idle; WW withholds 0 (LEFT to (0,1)
    £110); KSS operates."""
    t.bank.line("choose Ann normal")
    for corp in LEFT_MINORS + REGIONALS_LEFT:
        t.idle_turn(corp)
    t.bank.line("withhold WW 0")
    t.bank.line("done WW")
    assert t.status()["operating"] == "KSS"


def kss_buys_first_4(t: Table) -> None:
    """KSS pays 50 (Ben 30 % 15, Cy 5, Ann 5, its treasury 40 % 20: 420 -> 440; 50 < 80: stays) and
    buys the first 4 with J's 10 % off: 270 (440 -> 170). Train Phase 4 (§5.2)."""
    to_kss_or31(t)
    t.bank.line("pay KSS 50")
    t.bank.line("train KSS 4")


# =========================================================================== the national window (§9.4, E28)

def test_convert_is_refused_outside_a_window(p3m):
    """§9.4: nationals form only as Train Phase 4, 6 or 8 begins. In OR 3.1 before any 4 (phase 3)
    Ben may not convert GWR; after KSS's buy step has moved on (done KSS) the window is shut."""
    to_kss_or31(p3m)
    p3m.refused("convert Ben GWR")
    p3m.bank.line("pay KSS 50")
    p3m.bank.line("train KSS 4")
    p3m.bank.line("done KSS")
    p3m.refused("convert Ben GWR")
    assert p3m.company("GWR")["kind"] == "major"


def test_conversion_at_the_first_4_keeps_the_rusting_2s(p3m):
    """E28 / §5.2 phase 4: 'Majors that choose to convert ... do not remove their level 2 trains'.
    KSS buys the first 4; Ben (its president, first in the window) converts GWR: GWR's 395 to the bank
    (§9.4 step 1); no treasury share, its 20 % OM stays; the marker stays at (6,2) £70. GWR keeps
    2+2, 2+2, 3, 3 (national limit 4 in phase 4). After KSS's buy step, the majors lose their 2+2s:
    KSS 2+2 2+2 3 4 -> 3 4; WW 2+2 2+2 3 3 -> 3 3."""
    kss_buys_first_4(p3m)
    before = p3m.cash()
    p3m.bank.line("convert Ben GWR")
    assert changes(before, p3m.cash()) == {"GWR": -395, "bank": 395}
    gwr = p3m.company("GWR")
    assert gwr["kind"] == "national"
    assert (gwr["ipo"], gwr["pool"]) == (0, 20)
    assert p3m.market("GWR") == ([6, 2], 70)
    p3m.bank.line("done KSS")
    assert trains_of(p3m, "GWR") == ["2+2", "2+2", "3", "3"]
    assert trains_of(p3m, "KSS") == ["3", "4"]
    assert trains_of(p3m, "WW") == ["3", "3"]
    p3m.conserved()


def test_the_buying_major_itself_converts_and_its_treasury_shares_go_to_the_open_market(p3m):
    """§9.4 steps 1, 3: KSS converts right after buying the first 4 (D 18 #33): its 170 to the bank;
    its treasury 40 % to the OM (OM 10 + 40 = 50 %, no price move: (4,2) £80); J (merged) abandoned:
    its charter to the OM. KSS keeps 2+2 2+2 3 4 (limit 4)."""
    kss_buys_first_4(p3m)
    before = p3m.cash()
    p3m.bank.line("convert Ben KSS")
    assert changes(before, p3m.cash()) == {"KSS": -170, "bank": 170}
    assert p3m.holdings("KSS") == {"Ann": 10, "Ben": 30, "Cy": 10, "ipo": 0, "pool": 50}
    assert p3m.market("KSS") == ([4, 2], 80)
    assert p3m.holdings("J")["pool"] == 100
    assert trains_of(p3m, "KSS") == ["2+2", "2+2", "3", "4"]
    assert not has_pullman(p3m, "KSS") or True  # its built-in Pullman is not a bought one
    p3m.conserved()


def test_conversion_order_starts_with_the_buyer(p3m):
    """§9.4: 'Beginning with the player that purchased the train ... proceeding in player order': Ben,
    Cy, Ann. Ann converting WW (its 820 to the bank) closes the turns of Ben and Cy before her."""
    kss_buys_first_4(p3m)
    before = p3m.cash()
    p3m.bank.line("convert Ann WW")
    assert changes(before, p3m.cash()) == {"WW": -820, "bank": 820}
    p3m.refused("convert Ben GWR")
    assert p3m.company("GWR")["kind"] == "major"


def test_only_the_president_converts(p3m):
    """§9.4: each player converts his own majors: Cy may not convert Ben's GWR, nor Ann a national
    twice."""
    kss_buys_first_4(p3m)
    p3m.refused("convert Cy GWR")


# =========================================================================== Pullmans (§11.6.2, E17)

def test_pullman_refused_before_phase_4(p3m):
    """§11.6.2: Pullmans only 'after the beginning of Train Phase 4': WW in OR 3.1 (phase 3)."""
    p3m.bank.line("choose Ann normal")
    for corp in LEFT_MINORS + REGIONALS_LEFT:
        p3m.idle_turn(corp)
    p3m.bank.line("withhold WW 0")
    p3m.refused("pullman WW")


def test_minor_m_gets_its_pullman_free_at_phase_4(p3m):
    """§11.6.2: M 'receives a Pullman at no cost ... It does not receive a royalty': buying the first 4
    moves only KSS's 270 to the bank; M's cash does not change and M now has a Pullman."""
    to_kss_or31(p3m)
    p3m.bank.line("pay KSS 50")
    assert not has_pullman(p3m, "M")
    before = p3m.cash()
    p3m.bank.line("train KSS 4")
    assert changes(before, p3m.cash()) == {"KSS": -270, "bank": 270}
    assert has_pullman(p3m, "M")


def test_first_4_buyer_buys_a_pullman_with_j_discount_and_royalty_to_m(p3m):
    """§11.6.2 / E17: the RR buying the first 4 may buy a Pullman in that step. KSS holds J: it pays
    150 less 10 % = 135 to the bank; the bank pays M £15 royalty: KSS -135, M +15, bank +120."""
    kss_buys_first_4(p3m)
    before = p3m.cash()
    p3m.bank.line("pullman KSS")
    assert changes(before, p3m.cash()) == {"KSS": -135, "M": 15, "bank": 120}
    assert has_pullman(p3m, "KSS")
    p3m.conserved()


def test_one_pullman_per_railroad(p3m):
    """§11.6.2: 'A RR may own at most one Pullman': KSS's second is refused; M (free one) may not buy."""
    kss_buys_first_4(p3m)
    p3m.bank.line("pullman KSS")
    p3m.refused("pullman KSS")


def test_pullman_full_price_without_j(p3m):
    """§11.6.2: GWR (no J) pays 150 to the bank, M gets 15: GWR -150, M +15, bank +135. GWR first pays
    50 (Ben 50 % 25, Cy 30 % 15, OM nobody) — not asserted here."""
    kss_buys_first_4(p3m)
    p3m.bank.line("done KSS")
    p3m.bank.line("pay GWR 50")
    before = p3m.cash()
    p3m.bank.line("pullman GWR")
    assert changes(before, p3m.cash()) == {"GWR": -150, "M": 15, "bank": 135}


def test_pullman_from_another_railroad_for_exactly_75(p3m):
    """§11.6: 'The purchase price of a Pullman must be exactly £75', paid to the selling RR, in the
    buyer's buy step: GWR buys KSS's: GWR -75, KSS +75; another price is refused."""
    kss_buys_first_4(p3m)
    p3m.bank.line("pullman KSS")
    p3m.bank.line("done KSS")
    p3m.bank.line("pay GWR 50")
    p3m.refused("pullman GWR --from KSS --price 60")
    before = p3m.cash()
    p3m.bank.line("pullman GWR --from KSS")
    assert changes(before, p3m.cash()) == {"GWR": -75, "KSS": 75}
    assert has_pullman(p3m, "GWR") and not has_pullman(p3m, "KSS")


def test_discarded_pullman_goes_to_the_open_market_and_sells_at_150_without_royalty(p3m):
    """§11.6.2: a discard (before buying trains) goes to the OM with no refund; bought from the OM it
    costs 150 to the bank and pays no royalty. OR 3.1: GWR buys one (150). OR 3.2: GWR discards it (no
    money moves) and buys it back from the OM: GWR -150, bank +150, M nothing."""
    kss_buys_first_4(p3m)
    p3m.bank.line("done KSS")
    p3m.play("""
pay GWR 50
pullman GWR
done GWR
""")
    drive(p3m, operating("GWR", "OR 3.2"))
    p3m.bank.line("withhold GWR 0")                # the buy step comes after the run (§11)
    before = p3m.cash()
    p3m.bank.line("pullman GWR --discard")
    assert changes(before, p3m.cash()) == {}
    assert not has_pullman(p3m, "GWR")
    p3m.bank.line("pullman GWR --from pool")
    assert changes(before, p3m.cash()) == {"GWR": -150, "bank": 150}


def test_pullman_adds_10_per_level_of_its_train(p3m):
    """§11.3.9: '+£10 per level of the attached train'. OR 3.1: GWR pays 50 (stays at (6,2) £70: 50 <
    70), buys a 4 (395 - 300 = 95... after its 50 pay nothing is retained) and a Pullman. OR 3.2: GWR
    runs 200 with the Pullman on its 4: 240 paid: Ben 50 % 120, Cy 30 % 72, the OM 20 % nobody.
    (OR 3.1: GWR withholds 100 (LEFT (6,2) -> (6,1) £65; 395 + 100 - 300 for the 4 - 150 for the
    Pullman = 45.) 240 >= 65: RIGHT (6,1) -> (6,2). A Pullman on a level it has not (5) is refused."""
    kss_buys_first_4(p3m)
    p3m.bank.line("done KSS")
    p3m.play("""
withhold GWR 100
train GWR 4
pullman GWR
done GWR
""")
    drive(p3m, operating("GWR", "OR 3.2"))
    p3m.refused("pay GWR 200 --pullman 5")
    before = p3m.cash()
    p3m.bank.line("pay GWR 200 --pullman 4")
    assert changes(before, p3m.cash()) == {"Ben": 120, "Cy": 72, "bank": -192}
    assert p3m.market("GWR") == at(right((6, 1)))


def test_pullman_on_a_4d_adds_80(p8r):
    """§11.3.9's example: 'a Pullman attached to an 8+8 or 4D adds £80' — the digest's correction D 0.1 #6
    takes the example over £10 x level 7 (the option pullman_by_level gives £70, tested below). P8R: WW
    (Ann 70, Ben 10, Cy 20, no treasury or OM share) withholds what it lacks, buys a 4D and a Pullman
    (from M's stock: £150). Next OR: pays 300 with the Pullman on the 4D: 380: Ann 266, Ben 38, Cy 76."""
    drive(p8r, operating("WW"))
    p8r.play(f"""
withhold WW 1000 {FORCE}
train WW 4D
pullman WW
done WW
""")
    rnd = p8r.status()["round"]
    drive(p8r, lambda s: s["operating"] == "WW" and s["round"] != rnd)
    before = p8r.cash()
    p8r.bank.line("pay WW 300 --pullman 7")
    assert {k: v for k, v in changes(before, p8r.cash()).items() if k in ("Ann", "Ben", "Cy", "WW")} == \
        {"Ann": 266, "Ben": 38, "Cy": 76}


def test_the_pullman_by_level_option_gives_a_4d_70():
    """D 18 #25: with the option pullman_by_level a Pullman adds £10 x the train's level on every side: a
    4D (level 7) £70, a 5D (level 8) £80, a 3+3 £30; by default the 4D adds £80 (D 0.1 #6)."""
    import importlib

    from ledger import catalog
    from ledger.core import engine
    pullmans = importlib.import_module("rulesets.1801.pullmans")
    for options, want_4d in (({}, 80), ({"pullman_by_level": True}, 70)):
        rs = catalog.load("1801", options=options)
        s = engine.initial_state(rs, ["Ann", "Ben", "Cy"], options)
        s.train_flags = {"7.0": {"side": "4D"}, "8.0": {"side": "5D"}}
        assert pullmans.pullman_value(s, rs, "7.0") == want_4d
        assert pullmans.pullman_value(s, rs, "8.0") == 80
        assert pullmans.pullman_value(s, rs, "3.0") == 30


# =========================================================================== the Orient Express (§12, E18)

def test_oe_extra_30_and_the_first_time_cash_bonus(or21):
    """§12 / §12.2 (phase 2): WW runs 300, 200 of it the OE train's: +£30 extra: 330 paid: Ann 70 % 231,
    Cy 20 % 66, WW's treasury 10 % 33. Ann picks the cash bonus: after the payout the bank pays WW the
    OE train's total 200 + 30 = 230. 330 >= 110: RIGHT (1,2) -> (1,3) £120 only."""
    before = or21.cash()
    or21.bank.line("pay WW 300 --oe 200")
    or21.bank.line("choose Ann cash")
    assert changes(before, or21.cash()) == {"Ann": 231, "Cy": 66, "WW": 33 + 230, "bank": -560}
    assert or21.market("WW") == at(right((1, 2)))
    or21.conserved()


def test_oe_first_time_market_bonus_moves_three_more_right(or21):
    """§4.4 / §12.2: the market bonus: RIGHT three times in addition to the dividend move (D 18 #22:
    after it): (1,2) -> dividend (1,3) -> (1,4), (1,5), (1,6) £165. No cash bonus."""
    before = or21.cash()
    or21.bank.line("pay WW 300 --oe 200")
    or21.bank.line("choose Ann market")
    assert changes(before, or21.cash()) == {"Ann": 231, "Cy": 66, "WW": 33, "bank": -330}
    assert or21.market("WW") == at(right(right(right(right((1, 2))))))
    assert or21.market("WW") == ([1, 6], 165)


def test_no_second_oe_bonus(or21):
    """§12.2: 'A major that has an Orient Express marker from a previous OR may no longer receive a
    bonus'. OR 2.1 WW takes the cash bonus; OR 2.2 WW runs the OE again: the +£30 extra only (330
    paid: Ann 231, Cy 66, WW 33), and no bonus to choose."""
    or21.play("""
pay WW 300 --oe 200
choose Ann cash
done WW
""")
    drive(or21, operating("WW", "OR 2.2"))
    before = or21.cash()
    or21.bank.line("pay WW 300 --oe 200")
    assert changes(before, or21.cash()) == {"Ann": 231, "Cy": 66, "WW": 33, "bank": -330}
    assert not or21.status()["pending"]
    or21.refused("choose Ann cash")


def test_oe_only_for_majors(p3m):
    """§12: 'Only majors may make an Orient Express run': Minor A and the regional PLM are refused."""
    p3m.bank.line("choose Ann normal")
    assert p3m.status()["operating"] == "A"
    p3m.refused("half A 100 --oe 50")
    for corp in LEFT_MINORS:
        p3m.idle_turn(corp)
    assert p3m.status()["operating"] == REGIONALS_LEFT[0]
    p3m.refused(f"pay {REGIONALS_LEFT[0]} 100 --oe 50")


def test_oe_extra_60_in_phase_5_with_the_market_bonus(or41):
    """§12 (phase 5: +£60): WW pays 300 (200 the OE's): 360: Ann 70 % 252, Ben 10 % 36, Cy 20 % 72.
    Market bonus: (0,2) £120 -> dividend RIGHT (0,3) -> (0,4), (0,5), (0,6) £180."""
    before = or41.cash()
    or41.bank.line("pay WW 300 --oe 200")
    or41.bank.line("choose Ann market")
    assert changes(before, or41.cash()) == {"Ann": 252, "Ben": 36, "Cy": 72, "bank": -360}
    assert or41.market("WW") == ([0, 6], 180)


def test_oe_cash_bonus_includes_the_pullman_riding_the_oe_train(p3m):
    """§12.2 / D 18 #24: KSS buys the first 4 and a Pullman (OR 3.1). OR 3.2 (phase 4, +£30): KSS runs
    200, 150 of it the OE train's, the Pullman on that 4: 200 + 30 + 40 = 270 paid: Ben 30 % 81, Cy 10 %
    27, Ann 10 % 27, KSS's treasury 40 % 108, OM 10 % nobody. Cash bonus: 150 + 30 + 40 = 220 to KSS."""
    kss_buys_first_4(p3m)
    p3m.bank.line("pullman KSS")
    p3m.bank.line("done KSS")
    drive(p3m, operating("KSS", "OR 3.2"))
    before = p3m.cash()
    p3m.bank.line("pay KSS 200 --oe 150 --pullman 4 --pullman-on-oe")
    p3m.bank.line("choose Ben cash")
    assert changes(before, p3m.cash()) == {"Ben": 81, "Cy": 27, "Ann": 27, "KSS": 108 + 220,
                                           "bank": -(243 + 220)}


def test_oe_extra_100_in_phase_7(p8r):
    """§12 (phase 7: +£100): WW pays 300 (200 the OE's): 400: Ann 280, Ben 40, Cy 80; cash bonus
    200 + 100 = 300 into WW."""
    assert p8r.status()["phase"] == "7"
    drive(p8r, operating("WW"))
    before = p8r.cash()
    p8r.bank.line("pay WW 300 --oe 200")
    p8r.bank.line("choose Ann cash")
    assert changes(before, p8r.cash()) == {"Ann": 280, "Ben": 40, "Cy": 80, "WW": 300, "bank": -700}


# =========================================================================== nationals: trains and revenue

def test_forced_conversion_then_free_rusted_trains(poor):
    """E12 / §11.6.4 / §11.6.6 (phase 5). OR 4.1: Ben has only his privates' income: PC 5 + SHTC 15 +
    HML 20 + RSC 5 = 45. OU (Ben) buys SFR's 3 for £1 (OU 400 -> 399, SFR 410 -> 411). SFR, trainless,
    lays a tile with a £300 terrain fee (111). The cheapest train is the OM's 3 at £200: SFR would pay
    111 and Ben 89 > 45: refused. `done SFR`: Ben's 45 and SFR's 111 to the bank, its 80 % treasury to
    the OM (no price move). The national then claims rusted 2+2s free (D 18 #32), up to 4 (phase 5);
    a fifth is refused; it may not buy a train."""
    drive(poor, operating("OU", "OR 4.1"))
    poor.play("""
withhold OU 0
train OU 3 --from SFR --price 1
done OU
""")
    drive(poor, operating("SFR", "OR 4.1"))
    assert poor.cash()["Ben"] == 45
    poor.bank.line("tile SFR 300")
    poor.bank.line("withhold SFR 0")
    poor.refused("train SFR 3 --from pool")
    price = poor.market("SFR")
    before = poor.cash()
    poor.bank.line("done SFR")
    assert changes(before, poor.cash()) == {"Ben": -45, "SFR": -111, "bank": 156}
    sfr = poor.company("SFR")
    assert sfr["kind"] == "national"
    assert (sfr["ipo"], sfr["pool"]) == (0, 80)
    assert poor.market("SFR") == price
    before = poor.cash()
    for _ in range(4):
        poor.bank.line("claim SFR 2")
    assert trains_of(poor, "SFR") == ["2+2"] * 4
    poor.refused("claim SFR 2")
    assert changes(before, poor.cash()) == {}
    poor.conserved()


def test_voluntary_conversion_at_phase_6_keeps_the_3s_and_swaps_for_a_6_at_half_face(p6w):
    """§5.2 phase 6 / §9.4 / E20. MSP (Ben) has bought the first 6: Ben converts RCP (3, 5, 4+4 kept,
    the rusting 3 too; limit 3): RCP's 660 (410 + 1000 withheld - 400 - 350) to the bank. In OR 4.2
    RCP (national) runs, then takes MSP's 6 for its rusted 3: the bank pays MSP floor(525 / 2) = 262;
    RCP pays nothing; the 3 goes back to the Locomotive Works. A swap with Ann's PLM is refused."""
    before = p6w.cash()
    p6w.bank.line("convert Ben RCP")
    assert changes(before, p6w.cash()) == {"RCP": -660, "bank": 660}
    p6w.bank.line("done MSP")
    assert levels(p6w, "RCP") == [3, 4, 5]
    drive(p6w, operating("RCP", "OR 4.2"))
    p6w.bank.line("run RCP")
    p6w.refused("claim RCP 5 --for 3 --from PLM")
    before = p6w.cash()
    p6w.bank.line("claim RCP 6 --for 3 --from MSP")
    assert changes(before, p6w.cash()) == {"MSP": 262, "bank": -262}
    assert trains_of(p6w, "RCP") == ["4+4", "5", "6"]
    assert "6" not in trains_of(p6w, "MSP")
    p6w.conserved()


def test_national_flips_claims_and_swaps_up_rusted_trains_limit_3(p6w):
    """§11.6.6 (phase 6, national limit 3). Ann converts WW in MSP's window (Ben and Cy before her do
    not): WW keeps its two rusting 3s; its 910 to the bank. In OR 4.2 WW runs, flips one 3 to 3+3,
    claims a rusted 2+2 (3 trains), then swaps the 2+2 for a higher rusted 3 (free); a 4th claim is
    refused (limit 3), as is a rusted 4 (none rust before phase 8). No money moves."""
    before = p6w.cash()
    p6w.bank.line("convert Ann WW")
    assert changes(before, p6w.cash()) == {"WW": -910, "bank": 910}
    p6w.bank.line("done MSP")
    drive(p6w, operating("WW", "OR 4.2"))
    p6w.bank.line("run WW")
    before = p6w.cash()
    p6w.bank.line("flip WW 3")
    assert trains_of(p6w, "WW") == ["3", "3+3"]
    p6w.bank.line("claim WW 2")
    assert trains_of(p6w, "WW") == ["2+2", "3", "3+3"]
    p6w.refused("claim WW 2")
    p6w.refused("claim WW 4 --for 2+2")
    p6w.bank.line("claim WW 3 --for 2+2")
    assert sorted(x.split("+")[0] for x in trains_of(p6w, "WW")) == ["3", "3", "3"]
    assert changes(before, p6w.cash()) == {}


def test_national_revenue_by_capacity_with_express_trains(p6w):
    """§11.3.10. Ann converts WW (3, 3: capacity 6 cities, 0 towns — express trains add no town
    capacity). OR 4.2: WW linked cities 50, 40 (90) and one town 10 (no town capacity: 0); leftover
    6 - 2 = 4 cities, less 1 unlinked city = 3 x £60 = 180; built-in Pullman 10 x 3 = 30: 300, paid in
    full: Ann 70 % 210, Ben 10 % 30, Cy 20 % 60. WW was at (0,1) £110 (withheld 0 in OR 4.1): 300 >=
    110: RIGHT (0,2) £120. `pay WW` is refused for a national."""
    assert p6w.market("WW") == ([0, 1], 110)
    p6w.bank.line("convert Ann WW")
    p6w.bank.line("done MSP")
    drive(p6w, operating("WW", "OR 4.2"))
    p6w.refused("pay WW 300")
    p6w.refused("half WW 300")
    before = p6w.cash()
    p6w.bank.line("run WW --cities 50,40 --towns 10 --unlinked-cities 1 --unlinked-towns 0")
    assert changes(before, p6w.cash()) == {"Ann": 210, "Ben": 30, "Cy": 60, "bank": -300}
    assert p6w.market("WW") == at(right((0, 1)))


def test_national_places_no_token_runs_no_oe_lays_track_free(p6w):
    """§7.6 / §11.3.10 / §12: a national never tokens, never runs the OE; it lays track free with 9
    tile points: four green (2) + one yellow (1) = 9; a 10th point is refused; a terrain fee costs it
    nothing."""
    p6w.bank.line("convert Ann WW")
    p6w.bank.line("done MSP")
    drive(p6w, operating("WW", "OR 4.2"))
    p6w.refused("token WW")
    before = p6w.cash()
    for _ in range(4):
        p6w.bank.line("tile WW 0 --points 2")
    p6w.bank.line("tile WW 0")
    p6w.refused("tile WW 0")
    assert changes(before, p6w.cash()) == {}
    p6w.refused("run WW --oe 100")


def test_national_never_sells_trains(p6w):
    """§11.6: 'Nationals may never sell their trains': Ben's MSP may not buy a train from Ben's national
    RCP (at any price)."""
    p6w.bank.line("convert Ben RCP")
    p6w.bank.line("done MSP")
    drive(p6w, operating("MSP", "OR 4.2"))
    p6w.bank.line("withhold MSP 0")
    p6w.refused("train MSP 5 --from RCP --price 1")


def test_national_revenue_e19_with_the_4d_pullman_at_80(p6w):
    """E19 / §11.3.10 exactly. Ben converts RCP at phase 6 (3, 5, 4+4). The game is played on to phase 7
    (the other five 6s and a 7+7 bought by idle majors); MSP buys a 4D; RCP swaps its rusted 3 for it
    (bank pays MSP floor(850/2) = 425). Next OR RCP holds 4+4, 5, 4D: capacity 13 cities (4 doubled),
    4 towns. Linked 80 60 60 50 50 40 30 30 30: 430 + the best four again (250) = 680; towns 20 10 10:
    40; leftover 4 cities / 1 town less 2 unlinked cities / 3 towns: 2 x 60 = 120; the built-in Pullman
    on the 4D: £80 by the rulebook's example (D 0.1 #6; E19's £70 is the option pullman_by_level).
    Total 920, paid in full: £92 per 10 %: Ben's 20 % 184, the OM's 80 % nobody."""
    p6w.bank.line("convert Ben RCP")
    p6w.bank.line("done MSP")
    drive(p6w, lambda s: s["phase"] == "7", queue=["6"] * 5 + ["7+7"])
    drive(p6w, operating("MSP"))
    p6w.play(f"""
withhold MSP 1000 {FORCE}
train MSP 4D
done MSP
""")
    drive(p6w, operating("RCP"))
    p6w.bank.line("run RCP")
    before = p6w.cash()
    p6w.bank.line("claim RCP 4D --for 3 --from MSP")
    assert changes(before, p6w.cash()) == {"MSP": 425, "bank": -425}
    p6w.bank.line("done RCP")
    rnd = p6w.status()["round"]
    drive(p6w, lambda s: s["operating"] == "RCP" and s["round"] != rnd)
    assert trains_of(p6w, "RCP") == ["4+4", "4D", "5"]
    assert p6w.holdings("RCP") == {"Ann": 0, "Ben": 20, "Cy": 0, "ipo": 0, "pool": 80}
    cell = tuple(p6w.company("RCP")["cell"])
    before = p6w.cash()
    p6w.bank.line("run RCP --cities 80,60,60,50,50,40,30,30,30 --towns 20,10,10 "
                  "--unlinked-cities 2 --unlinked-towns 3")
    assert changes(before, p6w.cash()) == {"Ben": 184, "bank": -184}
    assert p6w.market("RCP") == at(right(cell))


# =========================================================================== the end (§13, §13.1)

def test_bank_breaks_in_an_or_the_game_ends_with_that_or(or41):
    """§13: 'if the bank runs out of money during an OR ... finish only the current OR' (the remainder
    keeps paying). WW withholds £500 more than the bank holds: WW gets all of it. The rest of OR 4.1 is
    played; then the game is over (no OR 4.2) and further commands are refused."""
    bank = or41.status()["bank"]
    before = or41.cash()
    or41.bank.line(f"withhold WW {bank + 500} {FORCE}")
    or41.bank.line("done WW")
    assert changes(before, or41.cash())["WW"] == bank + 500
    assert or41.status()["bank_broken"]
    assert not or41.status()["game_over"]
    rounds = []
    drive(or41, lambda s: s["game_over"] or s["round"] != "OR 4.1", rounds=rounds)
    s = or41.status()
    assert s["game_over"]
    assert s["round"] == "OR 4.1" or not s["round"].startswith("OR 4.2")
    or41.bank.line("pass Ann", ok=False)


def test_bank_breaks_in_an_sr_one_more_or(or41):
    """§13: broken 'during a SR, play one more OR'. OR 4.1 idle; in OR 4.2 the first RR withholds all
    but £50 of the bank; the others withhold 0 (no money). SR 5: Ann sells one WW 10 % (worth at
    least £50 > 50 left): the bank breaks. SR 5 ends, OR 5.1 is played, and the game is over then
    (no OR 5.2)."""
    drive(or41, lambda s: s["round"] == "OR 4.2")
    first = or41.status()["operating"]
    bank = or41.status()["bank"]
    or41.bank.line(f"withhold {first} {bank - 50} {FORCE}")
    or41.bank.line(f"done {first}")
    drive(or41, lambda s: s["round"] == "SR 5")
    assert not or41.status()["bank_broken"]
    for _ in range(3):
        if or41.bank.line("sell Ann WW 1", ok=None).exit_code == 0:
            break
        name = next(n for n in ("Ann", "Ben", "Cy") if or41.bank.line(f"pass {n}", ok=None).exit_code == 0)
        assert name
    assert or41.status()["bank_broken"]
    rounds = []
    drive(or41, lambda s: s["game_over"], rounds=rounds)
    ors = [r for r in rounds if r.startswith("OR")]
    assert ors == ["OR 5.1"], rounds


def final_sequence(t: Table) -> list:
    rounds = []
    drive(t, lambda s: s["game_over"], rounds=rounds)
    return rounds


def test_first_level_8_in_the_first_or_moves_the_remainder_and_ends_after_two_more_ors(p8r):
    """§13 / E27: the first 8+8 bought in OR n.1: all remainder cash (£100,000 [S]) into the bank at
    once (bank +900 +100,000). Then: the rest of OR n.1, OR n.2, SR n+1, the final two ORs: OR A
    (normal) and OR B (the repeat, which runs itself)."""
    s = p8r.status()
    rnd = s["round"]
    first = s["operating"]
    n = int(rnd.split()[1].split(".")[0])
    cash = p8r.company(first)["cash"]
    if cash < 900:
        p8r.bank.line(f"withhold {first} {900 - cash} {FORCE}")
    else:
        p8r.bank.line(f"withhold {first} 0")
    bank = p8r.status()["bank"]
    p8r.bank.line(f"train {first} 8+8")
    assert p8r.status()["phase"] == "8"
    assert p8r.status()["bank"] == bank + 900 + 100_000
    p8r.bank.line(f"done {first}")
    rounds = final_sequence(p8r)
    assert rounds[0] == rnd
    assert rounds[1:3] == [f"OR {n}.2", f"SR {n + 1}"]
    played = [r for r in rounds[3:] if r.startswith("OR")]
    # OR A, then OR B (the repeat): typed again or run by itself (the spec), never a third
    assert len(played) in (1, 2), rounds


def test_first_level_8_in_the_second_or_three_more_ors(p8r):
    """§13: bought in OR n.2: finish it, SR, then three ORs, the second and third the final two (the
    third, the repeat, runs itself): two ORs typed after the SR."""
    rnd = p8r.status()["round"]
    n = int(rnd.split()[1].split(".")[0])
    drive(p8r, lambda s: s["round"] == f"OR {n}.2")
    first = p8r.status()["operating"]
    cash = p8r.company(first)["cash"]
    p8r.bank.line(f"withhold {first} {max(0, 900 - cash)} {FORCE}" if cash < 900 else f"withhold {first} 0")
    p8r.bank.line(f"train {first} 8+8")
    p8r.bank.line(f"done {first}")
    rounds = final_sequence(p8r)
    assert rounds[:2] == [f"OR {n}.2", f"SR {n + 1}"], rounds
    played = [r for r in rounds[2:] if r.startswith("OR")]
    assert len(played) in (2, 3), rounds     # OR, OR A, and OR B (shown, or run by itself)


def test_the_repeat_or_pays_the_same_again_without_the_oe_cash_bonus(p8r):
    """§13 / E18: the final OR B repeats OR A's revenues, distributed the same way, less any OE
    first-time bonus. In OR A WW pays 300 with a 200 OE run (phase 8: +£100): 400: Ann 280, Ben 40,
    Cy 80, and its cash bonus 300 (200 + 100); every other RR withholds 0. OR B (it runs itself when
    OR A's last RR is done): Ann +280, Ben +40, Cy +80 again, WW nothing (no cash bonus again, no
    treasury share; D 18 #43: no private income in OR B)."""
    s = p8r.status()
    first = s["operating"]
    cash = p8r.company(first)["cash"]
    p8r.bank.line(f"withhold {first} {900 - cash} {FORCE}" if cash < 900 else f"withhold {first} 0")
    p8r.bank.line(f"train {first} 8+8")
    p8r.bank.line(f"done {first}")
    n = int(s["round"].split()[1].split(".")[0])
    drive(p8r, lambda s: s["round"] == f"OR {n + 1}.1")
    # OR A: everybody idles (trainless majors buy in OR n.1 / n.2 already), WW runs the OE
    a_round = f"OR {n + 1}.1"
    paid = False
    start_b = None
    for _ in range(200):
        st = p8r.status()
        if st["game_over"]:
            break
        if st["round"] != a_round and start_b is None:
            start_b = p8r.cash()                   # OR B shown as a round of its own
        sym = st["operating"]
        if sym == "WW" and not paid:
            before = p8r.cash()
            p8r.play("pay WW 300 --oe 200\nchoose Ann cash")
            assert changes(before, p8r.cash()) == {"Ann": 280, "Ben": 40, "Cy": 80, "WW": 300, "bank": -700}
            paid = True
            p8r.bank.line("done WW")
            continue
        last = p8r.cash()
        if start_b is not None and sym == "WW":
            p8r.bank.line("pay WW 400")            # the same revenue, the same way (if OR B is typed)
            p8r.bank.line("done WW")
            continue
        default_turn(p8r, sym)
    assert p8r.status()["game_over"]
    got = changes(start_b if start_b is not None else last, p8r.cash())
    assert {k: got.get(k, 0) for k in ("Ann", "Ben", "Cy", "WW")} == {"Ann": 280, "Ben": 40, "Cy": 80, "WW": 0}


def test_score_cash_shares_at_value_president_certificate_twice_privates_at_face(or41):
    """§13.1: cash + certificates at share value (a 20 % president's certificate = 2 shares) + face-up
    privates at face. Ann at OR 4.1: cash 2535 + privates' income 30 = 2565; shares: WW 70 % at 120 =
    840, KSS 10 % at 75 = 75, her five new majors (20 % president's certificates at 75) 5 x 150 = 750:
    1665; privates RSC 20 + BBBT 40 + WCF 60 + SML 120 = 240. Total 4470. Treasuries (WW's 910) count
    for nobody."""
    sc = or41.bank.score()
    ann = next(p for p in sc["players"] if p["name"] == "Ann")
    assert (ann["cash"], ann["shares"], ann["privates"], ann["value"]) == (2565, 1665, 240, 4470)


def test_score_face_down_private_counts_nothing(or41):
    """E25 / §13.1: a face-down private scores nothing: in SR 5 Ann turns SML face down (free, before an
    action): her private value drops by its face 120."""
    drive(or41, lambda s: s["round"] == "SR 5")
    ann = next(p for p in or41.bank.score()["players"] if p["name"] == "Ann")
    or41.bank.line("close Ann SML", ok=None)
    if or41.status()["privates"] and not any(p["sym"] == "SML" and p.get("closed")
                                             for p in or41.status()["privates"]):
        pytest.fail("SML not closed (Ann may not be the player to act)")
    after = next(p for p in or41.bank.score()["players"] if p["name"] == "Ann")
    assert after["privates"] == ann["privates"] - 120
    assert after["value"] == ann["value"] - 120


def test_score_at_game_end(or41):
    """§13 / §13.1: after the bank breaks in OR 4.1 the game is over and `bank score --json` says so;
    a player's value is still cash + shares + face-up privates (Ann's shares: WW 70 % + the rest as
    before, at the values the markers then show)."""
    bank = or41.status()["bank"]
    or41.bank.line(f"withhold WW {bank + 500} {FORCE}")
    or41.bank.line("done WW")
    drive(or41, lambda s: s["game_over"])
    sc = or41.bank.score()
    assert sc["game_over"]
    for p in sc["players"]:
        assert p["value"] == p["cash"] + p["shares"] + p["privates"]


# =========================================================================== the Swift Metropolitan Line (§14.10)

def test_swift_metropolitan_gives_a_permanent_2plus2_outside_the_limit(or41):
    """§14.10 (phase 5): Ann holds the Swift Metropolitan Line; in WW's turn (Ann's major) she gives WW
    an unclaimed rusted 2+2 from the Locomotive Works: it works for good and sits outside WW's limit of
    3, so WW's count toward the limit does not change; the certificate is then out of play (D 18 #38:
    no income, no end value). A second use is refused, and Ben's major cannot use Ann's private."""
    drive(or41, operating("WW", "OR 4.1"))
    before = trains_of(or41, "WW")
    assert "2+2" not in before
    or41.bank.line("claim WW 2 --using SML")
    assert trains_of(or41, "WW") == sorted(before + ["2+2"])
    sml = next(p for p in or41.status()["privates"] if p["sym"] == "SML")
    assert sml["closed"]
    or41.refused("claim WW 2 --using SML")
    or41.conserved()
