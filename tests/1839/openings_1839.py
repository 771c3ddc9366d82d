"""What the 1839 tests share (tests/1839/): a new table on the engine (also with a table's `--rules`
override), the engine's audit of a table, checkpoints of a game played once, and the openings
several files play: the draws line, the worked example, AMS about to operate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Table, next_turn_of
from transcripts import lines_of

from ledger import catalog
from ledger.core import engine
from ledger.core.events import apply

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "1839-opening.txt"
BANK_TOTAL = 100_000  # §2 "~ƒ100,000"; the ruleset's bank, which never breaks (D1)
DRAWS = "deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80"


def new_table(players: str = "Ann Ben Cy Dee", rules: Path | None = None, **options) -> Table:
    """`bank new 1839 PLAYERS [--rules FILE] [--option NAME[=VALUE] ...]` on the engine (a switch: NAME=True)."""
    if rules is None:
        return Table(f"new 1839 {players}" + "".join(f" --option {name}" if value is True else f" --option {name}={value}"
                                                     for name, value in options.items()))
    t = Table()
    t.rs = catalog.load("1839", dict(options), override=Path(rules))
    t.players, t.options = players.split(), dict(options)
    t.state = engine.initial_state(t.rs, t.players, t.options)
    for event in engine.start_events(t.rs, t.players):
        apply(t.state, event)
        t.events.append(event)
    t.money_at_start = sum(t.state.balances.values())
    return t


def audit(t: Table) -> None:
    """What `bank audit` checks of the rules, on the engine: the events replayed give the state
    reached; every line decided again from the start gives the same events; the invariants hold."""
    assert t.replayed() == t.state, "replaying the events differs from the state"
    again = Table()
    again.rs, again.players, again.options = t.rs, list(t.players), dict(t.options)
    again.state = engine.initial_state(t.rs, again.players, again.options)
    for event in engine.start_events(t.rs, again.players):
        apply(again.state, event)
        again.events.append(event)
    again.play("\n".join(t.lines))
    assert json.loads(json.dumps(again.events)) == json.loads(json.dumps(t.events)), \
        "the lines decided again give other events"
    t.books_balance()


def balanced(t: Table) -> None:
    """Money conserved at ƒ100,000, every company's certificates at 100 %, and the audit clean."""
    t.books_balance(BANK_TOTAL)
    audit(t)


def checkpoints(t: Table, segments) -> dict[str, Table]:
    """Play (name, script) segments on `t` and keep a copy after each, by name: every test works
    on its own copy of a game played once."""
    saves = {}
    for name, script in segments:
        if script:
            t.play(script)
        saves[name] = t.copy()
    return saves


def example_lines(upto: str | None = None) -> list[str]:
    """The lines of examples/1839-opening.txt, up to (not including) the first that starts with `upto`."""
    out = []
    for text in lines_of(EXAMPLE.read_text()):
        if upto and text.startswith(upto):
            break
        out.append(text)
    return out


def example(upto: str | None = None) -> Table:
    t = Table()
    t.play("\n".join(example_lines(upto)))
    return t


OPERATING_AMS = """
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben CM 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben LSW
buy Ann {brown}
buy Ben CM
buy Ann SHZ
par Ben ZHESM 67
buy Ben ZHESM
par Ann AMS 67
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben NBDS
buy Ann AMS
pass Ben
pass Ann
"""


def operating_ams(brown: str = "VV") -> Table:
    """A two-player game where AMS (par 67, floated with ƒ670 + ƒ30 from its yellow privates) is
    about to operate for the first time. Ann buys the brown private `brown` (ƒ180) with CM."""
    t = new_table("Ann Ben")
    t.play(f"deal --privates VVD,LSW,{brown},CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80")
    t.play(OPERATING_AMS.format(brown=brown))
    assert t.status()["operating"] == "AMS"
    return t


def said(t: Table, line: str) -> str:
    """Play one line (a refusal fails the test) and return what the CLI prints of its events: one
    line each, as `bank` and `bank log` word them."""
    from ledger.core.events import describe
    return "\n".join(filter(None, (describe(e, t.rs) for e in t.do(line))))

# Two players, ƒ1300 each. Draws VVD, LSW (blue), KR, KV (brown). Ben buys RWS (NBDS 20 % at 101),
# KR and KV; Ann the rest (test_1839_stock_powers and test_1839_stock_round play on
# from here).
# Ann: 1300 - 200 - 10 - 80 - 100 - 160 = 750; Ben: 1300 - 250 - 200 - 280 - 140 = 430.
# SR 1 order by ascending cash: Ben, Ann.
KR_OPENING = """
deal --privates VVD,LSW,KR,KV --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben KV 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben KR
buy Ann VVD
buy Ben KV
buy Ann CO
buy Ben LSW
buy Ann SHZ
"""

# Two players, ƒ1300 each (§4); test_1839_powers plays on from here (OR 2.1 in
# green, AMS to operate, Ann its director and SHZ's owner). Draws: NFLM and VVD (blue), BP and CM
# (brown); every green private.
POWERS_GREEN = """
deal --privates NFLM,VVD,BP,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben CM 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben CM
buy Ann NFLM
buy Ben BP
buy Ann SHZ
par Ben ZHESM 67
buy Ben ZHESM
par Ann AMS 67
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
pass Ben
pass Ann
withhold ZHESM 0
train ZHESM 2
train ZHESM 2
train ZHESM 2
train ZHESM 2
done ZHESM
withhold AMS 0
train AMS 2
train AMS 2
train AMS 2
train AMS 3+
done AMS
pass Ben
pass Ann
"""

# The short train roster (tests/data/1839/short-roster.toml, a table's `--rules` override: brown after
# five trains) and its opening: OR 2.1 in green, ZHESM to operate (test_1839_obsolescence, test_1839_powers).
SHORT_ROSTER = ROOT / "tests" / "data" / "1839" / "short-roster.toml"

GREEN_SHORT = """
deal --privates VVD,LSW,JJB,NF --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben NF 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben NF
buy Ann JJB
buy Ben LSW
buy Ann SHZ
par Ann AMS 80
buy Ann AMS
par Ben ZHESM 80
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
pass Ann
pass Ben
withhold AMS 0
train AMS 2
train AMS 2
done AMS
withhold ZHESM 0
train ZHESM 3+
done ZHESM
pass Ann
pass Ben
"""


# --------------------------------------------------------------------------- the tiny roster; a green two-player table with VV and CM

TINY = ROOT / "tests" / "data" / "1839" / "tiny-roster.toml"

# The tiny roster with a single 3+ and three 5+ (Verveers and Credit Mobilier both drawn: the sixth
# 5+ stays, §4): the first 3+ starts green and the 5+ are on sale at once.
ONE_3 = 'price = 250\ncount = 2'


def one_3_roster(tmp_path) -> Path:
    roster = tmp_path / "one-3plus.toml"
    roster.write_text(replaced(TINY.read_text(), (ONE_3, 'price = 250\ncount = 1'),
                               ('price = 450\ncount = 1', 'price = 450\ncount = 3')))
    return roster


def replaced(text: str, *edits: tuple[str, str]) -> str:
    """The roster with each edit made: a text an edit replaces must be there (once), so a changed
    roster fails here instead of the tests silently running on another roster."""
    for old, new in edits:
        assert text.count(old) == 1, f"the roster has {text.count(old)} of {old!r}, not one"
        text = text.replace(old, new)
    return text


# SR 1 with Ben first and OR 1.1 of a two-player green table on the tiny roster: each floats his
# company at 80 with 60 %; no train, no dividend (80 -> 62 each); ZHESM buys both 2s, AMS the first
# 3+: green (the auction before it is each table's own).
TWO_FLOATS_TO_GREEN = """
par Ben ZHESM 80
buy Ben ZHESM
par Ann AMS 80
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
buy Ben ZHESM
buy Ann AMS
pass Ben
pass Ann
withhold ZHESM 0
train ZHESM 2
train ZHESM 2
done ZHESM
withhold AMS 0
train AMS 3+
done AMS
pass Ben
pass Ann
"""

# Draws VVD, LSW (blue), VV, CM (brown). Auction: Ann SWO 300-100 = 200, LVG 70-60 = 10, VVD 120-40 =
# 80, VV 180, SHZ 160: 630 (670 left); Ben RWS 250, CO 160-60 = 100, CM 200-40 = 160, LSW 140: 650
# (650 left): SR 1 Ben first (§6.2: ascending cash). Ben pars ZHESM at 80 with a 10 % (240), Ann AMS
# at 80 (240); two more 10 % each: 60 % sold, both float with 800 (§7.4): Ann 190, Ben 170.
# OR 1.1 (yellow): ZHESM on top (parred first, AMS went under it, §7.4). No train, no dividend:
# 80 -> 62 each (three boxes, §7.7.3.1). ZHESM buys both 2s (600); AMS (800 + SLE 20 + IJR 10) the
# 3+ (580): green. AMS moved into 62 after ZHESM, face up over ZHESM's face-down marker (§8.2.1):
# AMS operates first from now on.
VV_CM = """
deal --privates VVD,LSW,VV,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben CM 40
discount Ann CO 60
discount Ben VVD 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann VVD
buy Ben CM
buy Ann VV
buy Ben LSW
buy Ann SHZ
""" + TWO_FLOATS_TO_GREEN


# --------------------------------------------------------------------------- GAME P (test_1839_rules, test_1839_game_end)
# Four players (ƒ700). Verveers and Credit Mobilier are both drawn, so the sixth 5+ stays in play
# (§4): trains 7 x 2 (100), 7 x 3+ (250), 6 x 5+ (450), 7 x 7+ (700), 5 x 5D+ (1,250). Every company
# withholds, so the players stay poor and the treasuries pay for the trains. Five companies are
# needed: before red every 5+ and 7+ must be on a charter (§8.2.7.1), and NBDS must hold only two.
P_OPENING = """
deal --privates VVD,LSW,VV,CM --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80 --order Ann,Ben,Cy,Dee
discount Ann LVG 60      # LVG 70 -> 10
discount Ben SWO 60      # SWO 300 -> 240
discount Cy CO 60        # CO 160 -> 100
discount Dee SWO 40      # SWO -> 200
discount Ann VV 40       # VV 180 -> 140
discount Ben VVD 40      # VVD 120 -> 80
deal --order Ann,Ben,Cy,Dee
buy Ann LVG              # 10: Ann 690
buy Ben RWS              # 250: Ben 450
buy Cy SWO               # 200: Cy 500 (NCS 10 %)
buy Dee VVD              # 80: Dee 620
buy Ann CO               # 100: Ann 590
discount Ben LSW         # 140 -> 120
discount Cy LSW          # -> 100
buy Dee LSW              # 100: Dee 520
discount Ann CM          # 200 -> 180
buy Ben VV               # 140: Ben 310
buy Cy SHZ               # 160: Cy 340
discount Dee CM          # -> 160
buy Ann CM               # 160: Ann 430; SR 1 goes Ben 310, Cy 340, Ann 430, Dee 520
buy Ben NBDS 2           # 202: Ben 108
buy Cy NBDS              # 101: Cy 239
par Ann ZHESM 72
buy Ann ZHESM            # 216: Ann 214
par Dee AMS 67
buy Dee AMS              # 201: Dee 319
pass Ben
buy Cy NBDS              # 101: Cy 138; NBDS floats (1,010)
buy Ann ZHESM 2          # 144: Ann 70 (50 %)
buy Dee AMS 3            # 201: Dee 118 (60 %); AMS floats (670)
pass Ben
buy Cy ZHESM             # 72: Cy 66; ZHESM floats (720)
pass Ann
pass Dee
pass Ben
pass Cy                  # SR 2 goes Ben, Ann, Dee, Cy
"""
# Private steps until brown: Ben RWS 35 + VV 20 (RWS closes with NBDS's first train: then 20), Cy SWO
# 25 + SHZ 20 = 45, Ann LVG 5 + CO 20 + CM 10 = 35, Dee VVD 15 + LSW 15 = 30; AMS 30 and NWS 20 to
# their charters (§12.2).
# OR 1.1: order NBDS 101, ZHESM 72, AMS 67. Each runs nothing: three boxes down.
P_TO_GREEN = """
withhold NBDS 0          # 101 -> 72, under ZHESM (still face up there)
train NBDS 2
train NBDS 2
train NBDS 2             # NBDS 710
done NBDS
withhold ZHESM 0         # 72 -> 59
train ZHESM 2
train ZHESM 2            # ZHESM 520
done ZHESM
withhold AMS 0           # 67 -> 56
train AMS 2
train AMS 2              # AMS 700 - 200 = 500
done AMS
pass Ben
pass Ann
pass Dee
pass Cy
withhold NBDS 600        # OR 2.1: NBDS 1,310; two boxes down: 72 -> 62
train NBDS 3+            # 250: NBDS 1,060; the first 3+: green
done NBDS
withhold ZHESM 600       # 1,120; 59 -> 55
done ZHESM
withhold AMS 600         # 530 + 600 = 1,130; 56 -> 55 (the floor), on top of face-down ZHESM
train AMS 3+
train AMS 3+             # AMS 630
done AMS
pass Ben
pass Ann
par Dee NCS 67           # SR 3: Dee 178 - 134 = 44
buy Cy NCS               # 67: Cy 89 (20 % with SWO's: ties Dee, who keeps the chair)
buy Ben NCS              # 67: Ben 116
buy Ann NCS              # 67: Ann 73; NCS 60 % sold: floats with 670
pass Dee
pass Cy
pass Ben
pass Ann                 # SR 4 goes Dee, Cy, Ben, Ann
"""
# Set 3 is green: two ORs. OR 3.1 order: NCS 67, NBDS 62, AMS 55 (on top), ZHESM 55.
P_TO_BLUE = """
withhold NCS 0           # its first OR: 67 -> 56
train NCS 3+
train NCS 3+             # NCS 170
done NCS
withhold NBDS 900        # 1,960; 62 -> 56, on top of face-down NCS
done NBDS
withhold AMS 900         # 660 + 900 = 1,560; at the floor
done AMS
withhold ZHESM 600       # 1,720
done ZHESM
withhold NBDS 900        # OR 3.2 (NBDS, NCS, AMS, ZHESM): 2,860; 56 -> 55 under face-up AMS, ZHESM
done NBDS
withhold NCS 330         # 500; 56 -> 55: under face-up AMS, ZHESM, over face-down NBDS
train NCS 3+
train NCS 3+             # NCS 0; all seven 3+ sold
done NCS
withhold AMS 900         # 1,590 + 900 = 2,490
done AMS
withhold ZHESM 600       # 2,320
train ZHESM 5+           # 450: the first 5+: blue; every 2-train rusts (§17)
train ZHESM 5+
train ZHESM 5+           # ZHESM 970: three 5+
"""
# The stack at 55 now reads AMS, ZHESM, NCS, NBDS; at the floor nobody moves any more.
P_SR4 = """
done ZHESM
pass Dee
par Cy NWS 67            # 134: Cy 179 - 134 = 45
buy Ben NWS              # 67: Ben 156 - 67 = 89
buy Ann NWS              # 67: Ann 143 - 67 = 76
pass Dee
pass Cy
buy Ben NWS              # 67: Ben 22 (20 %: ties Cy, who keeps the chair)
buy Ann NWS              # 67: Ann 9; NWS 60 % sold: floats with 670 (750 with SLD's 4 x 20)
pass Dee
pass Cy
pass Ben
pass Ann                 # SR 5 goes Dee, Cy, Ben, Ann
"""
# OR 4.1 (blue: two ORs): NWS 67 first, then the stack at 55.
P_TO_BROWN = """
withhold NWS 0           # its first OR: 67 -> 56
train NWS 5+             # 770 - 450 = 320
done NWS
withhold AMS 900         # AMS 2,520 + 900 = 3,420
train AMS 5+
train AMS 5+             # 2,520; the last two 5+; AMS holds 3+, 3+, 5+, 5+
done AMS
withhold ZHESM 1500      # 2,470
train ZHESM 7+           # 700: 1,770; the first 7+: brown (limit 3), every 3+ rusts
"""


# --------------------------------------------------------------------------- GAME F (test_1839_rules, test_1839_publics)
# Four players, played in parts; test_1839_rules saves a table after each.
# D1: four players start with ƒ700 each (ƒ2,800 from the bank: 100,000 - 2,800 = 97,200) and a
# certificate limit of 16.

F_DRAWS = """
deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80 --order Ann,Ben,Cy,Dee
"""
# §6.1: six chips, three of ƒ60 and three of ƒ40, placed in card order Ann, Ben, Cy, Dee, Ann, Ben.
F_CHIPS_1 = """
discount Ann LVG 60      # LVG 70 -> 10  (D14.1: P1 puts 60 on Het Laantje)
discount Ben SWO 60      # SWO 300 -> 240 (D14.1: P2 60 on Spoorwegwerken Oost)
discount Cy CO 60        # CO 160 -> 100; the three ƒ60 chips are gone
"""
F_CHIPS_2 = """
discount Dee SWO 40      # SWO -> 200 (D14.1: P4 40 on SWO)
discount Ann KR 40       # KR 200 -> 160
discount Ben VVD 40      # VVD 120 -> 80
deal --order Cy,Ann,Dee,Ben    # §6.1: the cards dealt again; the auction goes Cy, Ann, Dee, Ben
"""
# §6.2: buy at face less every discount, or add ƒ20 to an unsold private.
F_AUCTION_1 = """
buy Cy SWO               # 300 - 100 = ƒ200 (D14.1: A buys SWO), with NCS's 10 %: Cy 700 -> 500
discount Ann LVG         # LVG's discounts 60 + 20 = 80 >= 70: Dee (next) must take it for ƒ0
"""
F_AUCTION_2 = """
buy Ben RWS              # ƒ250 and NBDS's director's certificate parred at ƒ101: Ben 700 -> 450
discount Cy KR           # KR 160 -> 140
buy Ann CM               # ƒ200: Ann 700 -> 500
buy Dee KR               # ƒ140: Dee 700 -> 560
buy Ben CO               # ƒ100: Ben 450 -> 350
discount Cy VVD          # VVD 80 -> 60
discount Ann VVD         # VVD 60 -> 40
buy Dee VVD              # ƒ40: Dee 560 -> 520
buy Ben LSW              # ƒ140: Ben 350 -> 210
discount Cy SHZ          # SHZ 160 -> 140
discount Ann SHZ         # SHZ 140 -> 120
buy Dee SHZ              # ƒ120: Dee 520 -> 400; all nine sold
"""
# After the auction: Cy 500, Ann 500, Dee 400, Ben 210. Paid to the bank: 200 + 0 + 250 + 200 + 140
# + 100 + 40 + 140 + 120 = 1,190, so the bank holds 97,200 + 1,190 = 98,390.
# §6.2 / D8 #6: the first SR goes by ascending cash, ties keeping their auction order:
# Ben 210, Dee 400, Cy 500, Ann 500 (Cy before Ann: Cy was ahead of Ann in the auction, although Ann
# sits ahead of Cy at the table).

# SR 1. Certificates: Ben RWS, CO, LSW and NBDS's 20 %; Dee LVG, KR, VVD, SHZ; Cy SWO and NCS 10 %;
# Ann CM. IPO shares cost the current price (D0.1 #2), the director's certificate 2 x par (§7.4).
F_SR1_A = """
buy Ben NBDS 2           # the director buys 20 % in one action at ƒ101: 202, Ben 210 -> 8 (40 %)
"""
F_SR1_B = """
par Dee ZHESM 80         # 2 x 80 = 160: Dee 400 -> 240
buy Dee ZHESM            # 80 in the same action: Dee 160 (30 %)
par Cy NCS 72            # 144: Cy 500 -> 356 (with SWO's 10 %: 30 %)
buy Cy NCS               # 72: Cy 284 (40 %)
buy Ann NBDS             # 101: Ann 500 -> 399; NBDS 50 % sold
pass Ben                 # Ben takes passing card 1
buy Dee NBDS             # 101: Dee 59; 60 % sold (4 x 101 = 404 paid to the bank): NBDS floats
"""
F_SR1_C = """
buy Cy NCS 2             # a director's 20 % at 72: 144, Cy 140; Cy 60 %, NCS floats with 10 x 72
buy Ann ZHESM            # 80: Ann 319 (ZHESM 40 % sold)
pass Ben                 # keeps card 1
pass Dee                 # card 2
"""
F_SR1_D = """
pass Cy                  # card 3
buy Ann ZHESM            # 80: Ann 239 (50 % sold)
pass Ben
pass Dee
pass Cy
buy Ann ZHESM            # 80: Ann 159; 60 % sold, ZHESM floats with 10 x 80 = 800; Ann 30 % = Dee 30 %:
                         # Dee stays director (a new director needs strictly more, §7.5)
pass Ben
pass Dee
pass Cy
pass Ann                 # card 4: every card held; SR 2 goes Ben, Dee, Cy, Ann
"""
# After SR 1: Ben 8, Dee 59, Cy 140, Ann 159; NBDS 1,010, NCS 720, ZHESM 800. Bank: 98,390 + the
# shares (202 + 240 + 216 + 101 + 101 + 144 + 80 + 80 + 80 = 1,244) - the capital (2,530) = 97,104.

# OR 1.1 (yellow: one OR a set). Private step (§8.1): Ben RWS 35 + CO 20 + LSW 15 = 70 -> 78; Dee
# LVG 5 + KR 10 + VVD 15 + SHZ 20 = 50 -> 109; Cy SWO 25 -> 165; Ann CM 10 -> 169; and before they
# float (§12.2) AMS SLE 20 + IJR 10 = 30, SS, NWS and HIJSM 20 each, NRS's ZK 0.
# Order (§8.2.1): NBDS 101, ZHESM 80, NCS 72.
F_OR1 = """
withhold NBDS 0          # no train, no dividend: three boxes down (§7.7.3.1): 101 -> 89 -> 80 -> 72
train NBDS 2
train NBDS 2             # 200: NBDS 1,010 -> 810; its first train closes Rijkswaterstaat (§12.3)
done NBDS
withhold ZHESM 0         # D14.10: ZHESM 80 -> 72 -> 67 -> 62
train ZHESM 2
train ZHESM 2            # ZHESM 800 -> 600
done ZHESM
token NCS 30 --city Rotterdam   # D14.22: markers at its 2 homes (Amsterdam, Arnhem): 30 x 2 = 60
withhold NCS 0           # 72 -> 67 -> 62 -> 59
train NCS 2
train NCS 2              # NCS 720 - 60 - 200 = 460
done NCS
"""
# After OR 1: NBDS 72, ZHESM 62, NCS 59. Players: Ben 78, Dee 109, Cy 165, Ann 169. Bank: 97,104 -
# 155 (players' privates) - 90 (charters) + 600 (six 2-trains) + 60 (station) = 97,519.

# SR 2 (Ben, Dee, Cy, Ann).
F_SR2 = """
buy Ben NBDS             # 72 from the IPO: Ben 6 (NBDS 50 %)
buy Dee NBDS             # 72: Dee 37 (NBDS 20 %)
sell Cy NCS 1            # at 59 (§7.2: NCS has operated): Cy 224; NCS 10 % in the pool, Cy 50 %
"""
F_SR2_B = """
sell Ann NBDS 1          # at 72: Ann 241; NBDS 10 % in the pool
buy Ann NCS              # 59: Ann 182 (NCS 10 %)
pass Ben                 # card 1
pass Dee                 # card 2
pass Cy                  # card 3
buy Ann NCS              # 59: Ann 123 (NCS 20 %)
pass Ben
pass Dee
pass Cy
pass Ann                 # card 4; SR 3 goes Ben, Dee, Cy, Ann
"""
# End of SR 2 (§7.7.2), in operating order: NBDS 72 with 10 % in the pool -> 67; ZHESM none; NCS 59
# with 10 % -> 56. Holdings now: NCS Cy 50, Ann 20, pool 10, IPO 20 (D14.7's); NBDS Ben 50, Dee 20,
# pool 10, IPO 20. Cash: Ben 6, Dee 37, Cy 224, Ann 123. Bank 97,519 + 72 + 72 - 59 - 72 + 59 + 59 =
# 97,650.

# OR 2.1. Privates: Ben 35 (RWS closed) -> 41, Dee 50 -> 87, Cy 25 -> 249, Ann 10 -> 133; AMS 30,
# SS, NWS, HIJSM 20 each. Order: NBDS 67, ZHESM 62, NCS 56.
F_OR2 = """
pay NBDS 280             # Ben 50 % 140 -> 181, Dee 20 % 56 -> 143, the pool's 10 % 28 to NBDS (838);
                         # 280 >= 4 x 67: three boxes up, 67 -> 72 -> 80 -> 89
done NBDS
withhold ZHESM 200       # D14.11: the treasury keeps 200 (600 -> 800); trains and no dividend: two
                         # boxes down, 62 -> 59 -> 56
done ZHESM
token NCS 20 --city Leiden   # D14.22 again: now 3 locations, 20 x 3 = 60 (NCS 460 -> 400)
pay NCS 170              # D14.7: Cy 50 % 85 -> 334, Ann 20 % 34 -> 167, pool 10 % 17 to NCS (417),
                         # the IPO's 20 % nothing; 170 >= 2 x 56, < 4 x 56: two up, 56 -> 59 -> 62
done NCS
"""
# After OR 2: NBDS 89 (838), ZHESM 56 (800), NCS 62 (417). Players: Ben 181, Dee 143, Cy 334, Ann 167.
# Bank 97,650 - 120 - 90 - 224 - 200 - 136 + 60 = 96,940.

# SR 3 (Ben, Dee, Cy, Ann): D14.3's passing cards once Ben, Dee and Cy have acted (nobody holds a
# card), with A = Ann, B = Ben, C = Dee, D = Cy.
F_SR3_A = """
buy Ben ZHESM            # 56: Ben 125 (ZHESM 10 %)
buy Dee NBDS             # 89: Dee 54 (NBDS 30 %, its IPO down to 10 %: D14.8's holdings)
buy Cy NCS               # 62: Cy 272 (NCS 60 %)
pass Ann                 # 1. A passes: card 1
buy Ben ZHESM            # 2. B buys: 56, Ben 69 (ZHESM 20 %)
pass Dee                 # 3. C passes: card 2
pass Cy                  # 4. D passes: card 3
sell Ann NCS 2           # 5. A sells 2 x 62 = 124: Ann 291; A hands card 1 back, C moves to 1, D to 2
"""
F_SR3_B = """
pass Ben                 # 6. B passes: card 3
pass Dee                 # 7. C keeps card 1
pass Cy                  # 8. D keeps card 2
pass Ann                 # 9. A passes: card 4; next order C, D, B, A = Dee, Cy, Ben, Ann
"""
# End of SR 3 in operating order (NBDS 89, NCS 62, ZHESM 56): NBDS 10 % in the pool -> 80; NCS 30 %
# (D14.11) -> three boxes, 62 -> 59 -> 56 -> 55; ZHESM none. Cash: Ben 69, Dee 54, Cy 272, Ann 291.

# OR 3.1. Privates: Ben 35 -> 104, Dee 50 -> 104, Cy 25 -> 297, Ann 10 -> 301. Order: NBDS 80,
# ZHESM 56, NCS 55.
F_OR3 = """
half NBDS 150            # D14.8: treasury floor(150/2) = 75; the 75 paid out: Ben 50 % 37.5 -> 38,
                         # Dee 30 % 22.5 -> 23, the pool's 10 % 7.5 -> 7 to NBDS (838 + 82 = 920);
                         # 75 < 80: one box down, 80 -> 72
done NBDS
pay ZHESM 100            # Dee 30 % 30, Ann 30 % 30, Ben 20 % 20; 100 >= 56: one up, 56 -> 59
done ZHESM
pay NCS 120              # Cy 60 % 72, the pool's 30 % 36 to NCS (453); 120 >= 2 x 55: 55 -> 56 -> 59,
                         # arriving where ZHESM lies face down: NCS goes on top of it (§8.2.1)
done NCS
"""


# --------------------------------------------------------------------------- shared by the rule files

# a logged waiver for a position a scenario needs (revenues above what the map could give, a treasury)
FORCE = "--force --reason 'test position'"


def closed(t: Table) -> set:
    """The privates closed now."""
    return {p["sym"] for p in t.status()["privates"] if p["closed"]}


def supply_left(t: Table, train: str) -> int:
    """How many trains of a type the supply still holds."""
    return next(r for r in t.status()["train_roster"] if r["type"] == train)["left"]


def orun(t: Table, **lines) -> None:
    """One OR: each company in operating order runs its line (default: withholds ƒ10) and finishes."""
    for corp in t.status()["operating_order"]:
        t.do(lines.get(corp, f"withhold {corp} 10"), f"done {corp}")


@pytest.fixture(scope="module")
def tiny_brown():
    """GREEN_SHORT on the tiny roster: OR 2.1 in green (a set of 2 ORs), ZHESM (ƒ550, one 3+) then
    AMS (ƒ660, two 2s), both at ƒ62 (each fell 3 boxes from 80 in OR 1.1 with no train, §7.7.3.1);
    Ann directs AMS and owns LVG, SHZ, SWO, VVD, JJB; Ben directs ZHESM and owns CO, RWS, LSW, NF.
    OR 2.1: ZHESM withholds 1000 (1550; 62 -> 56, two boxes: no dividend but trains), buys the
    last 3+ (1300), the 5+ (850; blue) and the first 7+ (150; brown)."""
    t = new_table("Ann Ben", rules=TINY)
    t.play(GREEN_SHORT)
    s = t.status()
    assert (s["round"], s["phase"], s["operating_order"]) == ("OR 2.1", "green", ["ZHESM", "AMS"])
    assert (t.cash("ZHESM"), t.cash("AMS"), t.price("ZHESM"), t.price("AMS")) == (550, 660, 62, 62)
    assert (t.cash("Ann"), t.cash("Ben")) == (240, 340)
    t.do(f"withhold ZHESM 1000 {FORCE}", "train ZHESM 3+")
    assert (t.status()["phase"], t.status()["train_limit"], t.trains("AMS")) == ("green", 4, ["2", "2"])
    t.do("train ZHESM 5+")
    # §17 blue: every 2 leaves the game (AMS's two); the limit stays 4
    assert (t.status()["phase"], t.status()["train_limit"], t.trains("AMS")) == ("blue", 4, [])
    t.do("train ZHESM 7+")
    return t


@pytest.fixture(scope="module")
def vv_cm(tmp_path_factory):
    """VV_CM, OR 2.1 (green), AMS to operate. Each private step paid Ann LVG 5 + SHZ 20 + SWO 25 +
    VVD 15 + VV 20 = 85 (190 + 85 + 85 = 360) and Ben RWS 35 + CO 20 + CM 10 + LSW 15 = 80 (170 + 80 +
    80 = 330); AMS 580 + SLE 20 + IJR 10 = 610; ZHESM 800 - 200 = 600."""
    t = new_table("Ann Ben", rules=one_3_roster(tmp_path_factory.mktemp("vvcm")))
    t.play(VV_CM)
    s = t.status()
    assert (s["round"], s["phase"], s["operating_order"]) == ("OR 2.1", "green", ["AMS", "ZHESM"])
    assert (t.cash("Ann"), t.cash("Ben"), t.cash("AMS"), t.cash("ZHESM")) == (360, 330, 610, 600)
    assert (t.trains("AMS"), t.trains("ZHESM")) == (["3+"], ["2", "2"])
    return t


# --------------------------------------------------------------------------- two homes, Zevenaar-Kleef (test_1839_markers, test_1839_powers, test_1839_publics)

# Two players, ƒ1300 each (§4). Draws: WSM and LSW (blue), RB and KR (brown); every green private.
# Ben pars HIJSM (homes Leeuwarden and Hoorn, §14) and Ann NRS (home Utrecht; ZK on its charter,
# §4), both at ƒ67 with 50 % sold: each floats with 10 x ƒ67 = ƒ670; HIJSM also has SLK's ƒ20.
HOMES_OPENING = """
deal --privates WSM,LSW,RB,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80
discount Ann LVG 60
discount Ben SWO 60
discount Ann SWO 40
discount Ben RB 40
discount Ann CO 60
discount Ben WSM 40
deal --order Ann,Ben
buy Ann SWO
buy Ben RWS
buy Ann LVG
buy Ben CO
buy Ann WSM
buy Ben LSW
buy Ann RB
buy Ben KR
buy Ann SHZ
par Ben HIJSM 67
buy Ben HIJSM
par Ann NRS 67
buy Ann NRS
buy Ben HIJSM
buy Ann NRS
buy Ben HIJSM
buy Ann NRS
buy Ben HIJSM
buy Ann NRS
pass Ben
pass Ann
"""


# OR 1.1 played plainly: HIJSM buys four 2s (ƒ400), NRS three 2s and the first 3+ (ƒ550): green.
# SR 2 passes; in OR 2.1 HIJSM runs first again (same price box, parred first).
HOMES_TO_GREEN = """
withhold HIJSM 0
train HIJSM 2
train HIJSM 2
train HIJSM 2
train HIJSM 2
done HIJSM
withhold NRS 0
train NRS 2
train NRS 2
train NRS 2
train NRS 3+
done NRS
"""


@pytest.fixture(scope="module")
def homes_master():
    """HOMES_OPENING played: OR 1.1, HIJSM to operate in yellow (HIJSM ƒ690, NRS ƒ670)."""
    t = new_table("Ann Ben")
    t.play(HOMES_OPENING)
    s = t.status()
    assert (s["round"], s["operating"], s["phase"]) == ("OR 1.1", "HIJSM", "yellow")
    assert t.cash("HIJSM") == 690 and t.cash("NRS") == 670
    return t


@pytest.fixture
def hijsm(homes_master):
    """HIJSM's first turn: its two homes are on the map."""
    return homes_master.copy()


@pytest.fixture
def nrs(homes_master):
    """NRS's first turn (HIJSM has bought its trains)."""
    t = homes_master.copy()
    t.play("\n".join(HOMES_TO_GREEN.strip().splitlines()[:6]))
    assert t.status()["operating"] == "NRS"
    return t


@pytest.fixture
def green(homes_master):
    """OR 2.1, green: HIJSM has run; NRS (ƒ120 after its trains) withholds ƒ300 and buys WSM."""
    t = homes_master.copy()
    t.play(HOMES_TO_GREEN)
    next_turn_of(t, "NRS")
    assert t.status()["round"] == "OR 2.1" and t.status()["phase"] == "green"
    assert t.cash("NRS") == 120
    return t


def tokens_left(t: Table, sym: str) -> int:
    """The station markers a company has left on its charter."""
    return t.company(sym)["tokens_left"]
