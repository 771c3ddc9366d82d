"""What the 1843 tests share: a 1843 table on the engine (tests/conftest.py `Table`), the readers of
its state the scenarios ask about, the moves that carry a game on (stock rounds passed, operating
rounds idled or played by plan), and the openings and the train-era chain they start from.

Numbers used throughout (rules T1, §10.2, T4; digest D15):
  4 players start with 600fr, 5 with 480fr, 6 with 400fr (certificate limit 12).
  Privates face/revenue: TB 15/0, CEI 20/5, SG 40/10, HAV 60/15, VDL 110/20, BA 150/25, LM 210/30.
  Trains: 2+1 125 / 2x2 200, 4+1 300 / 3/5x2 500, 5+2 350 / 4/6x2 600, 5E 400 / 5/7x2 700, 8E 500, TGV 900.
  Par boxes: yellow 67 (13,7), 73 (11,6), 79 (9,5); green 86 (7,4), 94 (5,3); blue 105 (3,2); brown 120 (1,1).

The common auction (`standard_auction`): P1 TB, P2 CEI, P3 SG, P4 HAV, P1 VDL, P2 BA (+ ETA 10 %),
P3 LM (+ PLM director, par set at once). Cash afterwards P1 475, P2 430, P3 350, P4 540; the first stock
round starts with P4, the player after the last buyer (rules §6.2, digest A3). Private income per OR:
P1 20 (TB 0 + VDL 20), P2 30 (CEI 5 + BA 25), P3 40 (SG 10 + LM 30), P4 15 (HAV).

The readers read the game's state (a rules test asks about it many times; `Table.status()` builds the
whole `status --json` each time).
"""

from __future__ import annotations

import pytest
from conftest import Table

from ledger.core.errors import BankError, CommandError, RuleViolation
from ledger.core.rounds import auction
from ledger.core.rules import shares
from ledger.core.rules import trains as train_rules
from ledger.core.state import BANK, POOL, company_acct, player_acct
from ledger.interface import views

P4 = ["P1", "P2", "P3", "P4"]
P5 = ["P1", "P2", "P3", "P4", "P5"]
P6 = ["P1", "P2", "P3", "P4", "P5", "P6"]
PRIVATES = ["TB", "CEI", "SG", "HAV", "VDL", "BA", "LM"]


def table(players=P4, **options) -> Table:
    """A new 1843 game of these players (option name -> value)."""
    return Table(title="1843", players=list(players), options=options)


def refused(t: Table, line: str, match: str | None = None) -> BankError:
    """The line is refused by a rule (RuleViolation or CommandError, its text matching the regex
    `match`) and nothing in the game changes; returns the refusal."""
    before, count = t.state.clone(), len(t.events)
    with pytest.raises(BankError, match=match) as info:
        t.line(line)
    assert isinstance(info.value, (RuleViolation, CommandError))
    assert t.state == before, f"the refused {line!r} changed the game"
    assert len(t.events) == count, f"the refused {line!r} was recorded"
    return info.value


# --------------------------------------------------------------------------- readers


def cash(t: Table, who: str) -> int:
    """A player's cash, a company's treasury (by symbol), or the bank's ('bank')."""
    if who == "bank":
        return t.state.cash(BANK)
    if who in t.state.corps:
        return t.state.cash(company_acct(who))
    return t.state.cash(player_acct(who))


def bank_cash(t: Table) -> int:
    return t.state.cash(BANK)


def cell(t: Table, corp: str):
    at = t.state.corps[corp].cell
    return tuple(at) if at else None


def price(t: Table, corp: str) -> int | None:
    at = t.state.corps[corp].cell
    return t.rs.market[tuple(at)].price if at else None


def pct(t: Table, holder: str, corp: str) -> int:
    """Percent of `corp` held by a player, or by 'pool' / 'ipo'."""
    acct = {"pool": POOL, "ipo": shares.unsold_acct(t.state, t.rs, corp)}.get(holder) or player_acct(holder)
    return t.state.percent_of(acct, corp)


def president(t: Table, corp: str) -> str | None:
    return t.state.president(corp)


def certs(t: Table, holder: str, corp: str) -> list[int]:
    """The percentages of the certificates a player (or 'pool') holds of a company, high first."""
    acct = POOL if holder == "pool" else player_acct(holder)
    return sorted((t.state.cert_percent[c] for c in t.state.certs_of(acct, corp)), reverse=True)


def certs_held(t: Table, player: str) -> int:
    """Certificates a player holds: share certificates plus open privates (rules §7.6), all counted."""
    acct = player_acct(player)
    privates = [p for p in t.state.privates.values() if p.owner == acct and not p.closed]
    return len(privates) + len(t.state.certs_of(acct))


def owner(t: Table, private: str) -> str | None:
    held = t.state.privates[private].owner
    return held.split(":", 1)[1] if held else None


def closed(t: Table, private: str) -> bool:
    return t.state.privates[private].closed


def round_kind(t: Table) -> str:
    return t.state.round["kind"]


def turn(t: Table) -> str:
    """Whose turn it is in the auction (the actor, also in a bidding war) or a stock round."""
    r = t.state.round
    return auction.actor(t.state) if r["kind"] == "auction" else t.state.players[r["turn"]]


def order(t: Table) -> list[str]:
    """The seating (player-card) order now; 1843 re-deals it after each stock round (§7.1)."""
    return list(t.state.players)


def phase(t: Table) -> str:
    return t.state.phase


def train_sides(t: Table, corp: str) -> list[str]:
    """The sides ('2+1', '3/5x2', 'TGV') of the train certificates a company holds, sorted."""
    return sorted(train_rules.side_name(t.state, t.rs, x) for x in t.state.corp_trains(corp))


def pool_sides(t: Table) -> list[str]:
    return sorted(train_rules.side_name(t.state, t.rs, x) for x in t.state.pool_trains())


def supply_left(t: Table, train_type: str) -> int:
    """Certificates of a type still in the bank's supply."""
    return len(train_rules.depot_left(t.state, train_type))


def port_owner(t: Table, port: str) -> str | None:
    held = t.state.assets[port].owner  # a port marker is an asset: held by a company or on the map
    return held.split(":", 1)[1] if held else None


def value(t: Table, player: str) -> int:
    """The player's net worth as `score` computes it."""
    from ledger.interface import views
    return views.value(t.state, t.rs, player)


def pending_corps(t: Table) -> list[str]:
    return [p.get("corp") for p in t.state.pending]


# --------------------------------------------------------------------------- carrying a game on


def standard_auction(t: Table, plm_par: int) -> None:
    t.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P1 VDL", "buy P2 BA", "buy P3 LM",
         f"par P3 PLM {plm_par}")


def turns(t: Table, *lines: str) -> None:
    """Stock-round turns, in order. Each line is a new turn of the player it names; the players in
    between pass (never all of them, so the round goes on). A line starting with '+' is done in the
    same turn as the line before it (sell, buy, sell)."""
    for raw in lines:
        same = raw.startswith("+")
        line = raw.lstrip("+").strip()
        if not same:
            to_turn(t, line.split()[1])
        t.do(line)


def to_turn(t: Table, who: str) -> None:
    """Pass round the table until it is a fresh turn of `who` (ending his own turn if he has acted)."""
    assert round_kind(t) == "stock", round_kind(t)
    last = t.lines[-1].split() if t.lines else []
    if turn(t) == who and len(last) > 1 and last[1] == who and last[0] != "pass":
        t.do(f"pass {who}")  # he has acted: this ends his turn and is not a pass
    for _ in range(len(t.players)):
        if turn(t) == who:
            return
        t.do(f"pass {turn(t)}")
    assert turn(t) == who, f"cannot reach {who}'s turn"


def end_sr(t: Table) -> None:
    """Everyone passes until the stock round is over."""
    number = t.state.round["number"]
    for _ in range(3 * len(t.players)):
        if t.state.game_over or round_kind(t) != "stock" or t.state.round["number"] != number:
            return
        t.do(f"pass {turn(t)}")
    raise AssertionError("the stock round did not end")


def corp_now(t: Table) -> str:
    """The company whose turn it is in the operating round."""
    assert round_kind(t) == "operating", round_kind(t)
    return t.state.round["corp"]


def idle(t: Table, corp: str | None = None) -> None:
    """A company's turn that changes nothing but the price: it runs for 0 (withholds, moves left)
    and ends its turn (declaring no route when it has no train)."""
    corp = corp or corp_now(t)
    t.do(f"withhold {corp} 0")
    t.do(f"done {corp}" if train_sides(t, corp) else f"done {corp} --no-route")


def _run(t: Table, corp: str, plans: dict) -> None:
    step = plans.pop(corp, None)
    if step is None:
        idle(t, corp)
    elif callable(step):
        step(t)
    else:
        t.do(*step)


def play_or(t: Table, plans: dict | None = None) -> None:
    """Play the current operating round to its end: each company does its planned lines (a list, or a
    function of the game) when its turn comes, or idles. Starts the OR if a stock round is open."""
    plans = dict(plans or {})
    if round_kind(t) == "stock":
        end_sr(t)
    key = (t.state.round["set"], t.state.round["index"])
    for _ in range(20):
        r = t.state.round
        if t.state.game_over or r["kind"] != "operating" or (r["set"], r["index"]) != key:
            break
        _run(t, corp_now(t), plans)
    assert not plans, f"these companies did not operate: {sorted(plans)}"


def until_turn(t: Table, corp: str, plans: dict | None = None) -> None:
    """Play on (stock rounds: everyone passes; other companies: their plans or idle) until `corp`'s turn."""
    plans = dict(plans or {})
    for _ in range(100):
        assert not t.state.game_over, f"the game ended before {corp}'s turn"
        if round_kind(t) == "stock":
            end_sr(t)
            continue
        now = corp_now(t)
        if now == corp:
            return
        _run(t, now, plans)
    raise AssertionError(f"{corp} never operated")


# =========================================================================== the train era (E12-E16, E21)
#
# One 4-player game played from the auction into gray, in labelled steps; chain(label) plays up to and
# including that step. Companies: PLM (par 94 through LM, director P3), MID (par 67, P2), OU (par 67, P4),
# ETA (par 67, P1; P2 holds BA's 10 %).
#
# SR 1 (P4 first), four rounds of one purchase each, then P4 ETA and P1 MID:
#   P4 PLM, P1 PLM, P2 par MID 67, P3 PLM | P4 par OU 67, P1 par ETA 67, P2 PLM (PLM floats 940), P3 OU |
#   P4 OU, P1 ETA, P2 MID, P3 OU | P4 MID, P1 ETA, P2 MID, P3 OU (OU floats 670) | P4 ETA (ETA floats 670),
#   P1 MID (MID floats 670).
#   Holdings: PLM P3 30, P1 10, P2 10, P4 10; MID P2 40, P1 20, P4 10; OU P4 30 (director), P3 30;
#   ETA P1 40, P2 20, P4 10. Cash: P1 46, P2 68, P3 55, P4 111. The 67 stack in (13,7): MID, OU, ETA.
# OR 1.1 (yellow): PLM withholds (90) with no train. MID buys a 2+1 (545); OU three 2+1 and a 2x2 (95);
#   ETA the last yellow and the first green 4+1 (245): green. Foreigners: the 2nd green.
# SR 2: P4 buys a PLM share (94): P4 has 32.
# OR 2.1 (green, set of 2): PLM withholds (86), buys a 4+1 and a 3/5x2 (140; LM closes). ETA buys VDL
#   from P1 for 220, withholds 1000, marks its 2+1 with the Engineers (VDL closes), buys a 3/5x2 (525).
#   OU withholds 25 (120). MID withholds 1000 and buys the last two greens (945).
# OR 2.2: PLM withholds 1000 ((5,0) = 81) and buys the first blue 5+2 (790): blue.


def sr1_train_era(t: Table) -> None:
    standard_auction(t, plm_par=94)
    turns(t,
          "buy P4 PLM", "buy P1 PLM", "par P2 MID 67", "buy P3 PLM",
          "par P4 OU 67", "par P1 ETA 67", "buy P2 PLM", "buy P3 OU",
          "buy P4 OU", "buy P1 ETA", "buy P2 MID", "buy P3 OU",
          "buy P4 MID", "buy P1 ETA", "buy P2 MID", "buy P3 OU",
          "buy P4 ETA", "buy P1 MID")
    end_sr(t)


def _or1_train_era(t: Table) -> None:
    play_or(t, {
        "PLM": ["withhold PLM 0", "done PLM --no-route"],
        "MID": ["withhold MID 0", "train MID 2+1", "done MID"],
        "OU": ["withhold OU 0", "train OU 2+1", "train OU 2+1", "train OU 2+1", "train OU 2x2", "done OU"],
        "ETA": ["withhold ETA 0", "train ETA 2+1", "train ETA 4+1", "done ETA"],
    })


def _sr2_train_era(t: Table) -> None:
    turns(t, "buy P4 PLM")
    end_sr(t)


def _or21_train_era(t: Table) -> None:
    play_or(t, {
        "PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"],
        "ETA": ["buy-private ETA VDL 220", "withhold ETA 1000 --force --reason 'test position'", "use ETA VDL 2+1",
                "train ETA 3/5x2", "done ETA"],
        "OU": ["withhold OU 25", "done OU"],
        "MID": ["withhold MID 1000 --force --reason 'test position'", "train MID 4+1", "train MID 4+1", "done MID"],
    })


def first_blue(t: Table) -> None:
    until_turn(t, "PLM")
    t.do("withhold PLM 1000 --force --reason 'test position'", "train PLM 5+2")


# OU's forced purchase (E14): P4 hands in HAV (60) and sells a PLM share (81), OU buys the pool 4+1.
OU_EMERGENCY = ["withhold OU 0", "sell P4 HAV", "sell P4 PLM 1", "train OU 4+1 --from pool", "done OU"]


def _rest_of_or22(t: Table) -> None:
    t.do("discard PLM 4+1", "done PLM")
    play_or(t, {"OU": OU_EMERGENCY, "ETA": ["withhold ETA 100", "done ETA"]})


# Set 3 (blue, 2 ORs): PLM pays 3000 twice so that the players can start SO and NOR in SR 4.
def _set3(t: Table) -> None:
    play_or(t, {"PLM": ["pay PLM 3000 --force --reason 'test position'", "done PLM"]})
    play_or(t, {"PLM": ["pay PLM 3000 --force --reason 'test position'", "done PLM"]})


# SR 4: SO par 105 (blue) by P3, NOR par 67 by P1; both float.
def _sr4(t: Table) -> None:
    turns(t, "par P3 SO 105", "par P1 NOR 67", "buy P2 SO", "buy P4 NOR", "buy P3 SO", "buy P1 NOR",
          "buy P2 NOR", "buy P4 SO", "buy P1 SO", "buy P4 NOR")
    assert t.state.corps["SO"].floated and t.state.corps["NOR"].floated
    end_sr(t)


# OR 4.1: the last four blues: SO a 4/6x2 and a 5+2 (100 left), NOR a 4/6x2 (70), MID a 5+2 (595).
def _or41(t: Table) -> None:
    play_or(t, {
        "SO": ["withhold SO 0", "train SO 4/6x2", "train SO 5+2", "done SO"],
        "NOR": ["withhold NOR 0", "train NOR 4/6x2", "done NOR"],
        "MID": ["withhold MID 0", "train MID 5+2", "done MID"],
    })


# OR 4.2: NOR (only a 4/6x2) buys the first brown 5E: brown.
def _or42(t: Table) -> None:
    play_or(t, {"SO": ["withhold SO 0", "done SO"],
                "NOR": ["withhold NOR 1000 --force --reason 'test position'", "train NOR 5E", "done NOR"]})


# Set 5 (brown, 3 ORs): PLM, MID and ETA buy a 5E each (one left; MID 195, ETA 225); SO withholds 3000 each
# OR. The foreigners then take the last brown and the first red: red, the blues rust.
def _set5(t: Table) -> None:
    play_or(t, {
        "PLM": ["withhold PLM 2000 --force --reason 'test position'", "train PLM 5E", "done PLM"],
        "MID": ["withhold MID 0", "train MID 5E", "done MID"],
        "ETA": ["withhold ETA 0", "train ETA 5E", "done ETA"],
        "SO": ["withhold SO 3000 --force --reason 'test position'", "done SO"],
    })
    play_or(t, {"SO": ["withhold SO 3000 --force --reason 'test position'", "done SO"]})
    play_or(t, {"SO": ["withhold SO 3000 --force --reason 'test position'", "done SO"]})


# OR 6.1 (red, a set of 3): the five reds left: SO two, PLM, NOR, MID one each. MID withholds 655 so as to
# keep exactly 350 (195 + 655 - 500). ETA withholds 2000 (2225).
def _or61(t: Table) -> None:
    play_or(t, {
        "SO": ["withhold SO 0", "train SO 8E", "train SO 8E", "done SO"],
        "PLM": ["withhold PLM 2000 --force --reason 'test position'", "train PLM 8E", "done PLM"],
        "NOR": ["withhold NOR 2000 --force --reason 'test position'", "train NOR 8E", "done NOR"],
        "MID": ["withhold MID 655", "train MID 8E", "done MID"],
        "ETA": ["withhold ETA 2000 --force --reason 'test position'", "done ETA"],
    })


CHAIN = [
    ("sr1", sr1_train_era),
    ("or1", _or1_train_era),
    ("sr2", _sr2_train_era),
    ("or2.1", _or21_train_era),
    ("first-blue", first_blue),
    ("or2.2", _rest_of_or22),
    ("set3", _set3),
    ("sr4", _sr4),
    ("or4.1", _or41),
    ("or4.2", _or42),
    ("set5", _set5),
    ("or6.1", _or61),
]

_REACHED: dict[str, Table] = {}


def chain(label: str) -> Table:
    """The train-era game after step `label`: a copy of the one position, played once per session
    (each step starts from the position the step before it left)."""
    if label not in _REACHED:
        labels = [name for name, _step in CHAIN]
        if label not in labels:
            raise KeyError(label)
        at = labels.index(label)
        t = chain(labels[at - 1]) if at else table()
        CHAIN[at][1](t)
        _REACHED[label] = t
    return _REACHED[label].copy()


# 1830's opening (the review of issue 10 compares 1843's Next line with 1830's) and playing on to a
# company's turn: conftest's opening_1830 and next_turn_of.


def e19_position() -> Table:
    """MID at (17,3) = 42 (brown zone) in SR 5, with P2's last share just sold (pool 50 %, IPO 30 %,
    P1 20 %). MID par 67: P1 30 %, P2 20 %, P3 10 %, P4 10 %, IPO 30 %. Path: OR 1 withhold (13,6) 64;
    SR 2 two sales (15,6) 55; OR 2 (15,5) 53; SR 3 two sales (17,5) 46; OR 3 (17,4) 44; OR 4 (17,3) 42."""
    g = table()
    standard_auction(g, plm_par=67)
    turns(g, "par P1 MID 67", "buy P2 MID", "buy P3 MID", "buy P4 MID", "buy P1 MID", "buy P2 MID")
    end_sr(g)
    play_or(g)
    assert cell(g, "MID") == (13, 6)
    turns(g, "sell P2 MID 1", "sell P3 MID 1")
    assert cell(g, "MID") == (15, 6)
    play_or(g)
    assert cell(g, "MID") == (15, 5)
    turns(g, "sell P4 MID 1", "sell P1 MID 1")
    assert cell(g, "MID") == (17, 5)
    play_or(g)
    play_or(g)
    assert cell(g, "MID") == (17, 3) and price(g, "MID") == 42
    assert (pct(g, "pool", "MID"), pct(g, "ipo", "MID"), pct(g, "P1", "MID")) == (40, 30, 20)
    turns(g, "sell P2 MID 1")
    assert cell(g, "MID") == (17, 3), "at the foot of its column and alone: no move"
    assert pct(g, "pool", "MID") == 50
    return g



# --------------------------------------------------------------------------- openings of the rule files

def opened(plm_par: int = 67) -> Table:
    """The common auction played (`standard_auction`): the first stock round, P4 to act."""
    g = table()
    standard_auction(g, plm_par=plm_par)
    return g


def mid_floated() -> Table:
    """SR1: P4 par MID 67 and buys one more (30 %), P1 P2 P3 one each: MID floats with 670."""
    g = opened()
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P2 MID", "buy P3 MID", "buy P4 MID")
    end_sr(g)
    return g


# a logged waiver for a treasury a scenario needs (`withhold CORP 1000 {FORCE}`)
FORCE = "--force --reason 'test position'"


# --------------------------------------------------------------------------- the operating company's steps as the Next line offers them

def steps(g: Table) -> list[str]:
    """The steps the 'Next:' line offers the operating company: the verb of each of its commands."""
    hint = views.whose_turn(g.state, g.rs)
    return [part.split()[0] for part in hint.split("operates: ", 1)[1].split(" · ")]


def offers_tile(g: Table) -> bool:
    return any(step.startswith("tile") for step in steps(g))


def green_after_set_one(g: Table) -> None:
    """Five all-pass rounds in the auction: five yellows discarded; Toulouse reaches 0 in the third and
    P1 takes it free, Ceinture then drops to 10. P2 buys CEI for 10, P3 SG, P4 HAV, P1 VDL, P2 BA,
    P3 LM (PLM par 67): P1 490, P2 440, P3 350, P4 540. The foreigners' purchase after set 1 takes the
    last yellow and with it the first green: set 2 is green."""
    for _ in range(3):
        g.do("pass P1", "pass P2", "pass P3", "pass P4")
    assert owner(g, "TB") == "P1" and cash(g, "P1") == 600
    for _ in range(2):
        g.do("pass P2", "pass P3", "pass P4", "pass P1")
    assert supply_left(g, "yellow") == 1 and g.state.privates["CEI"].price == 10
    g.do("buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P1 VDL", "buy P2 BA", "buy P3 LM", "par P3 PLM 67")
    assert {p: cash(g, p) for p in P4} == {"P1": 490, "P2": 440, "P3": 350, "P4": 540}
