"""The positions the 1801 tests start from, in one place (every figure worked by hand in the comments
from the rulebook, shared/seeds/002_c09d1f5beee78cce.txt "§x", and the digest, shared/rules/1801.md "D x"):

* the openings, typed as at the table: MAIN_AUCTION (three players buy every packet item at face in
  turn from the top row), MAIN_CONCESSIONS (the ten concessions float ten minors), MAJOR_SR1 (SR 1 in
  which 18 regionals are parred, so the Major railroad phase begins, §8.2, §8.3); GAME M (three players)
  and GAME N (two, no concessions) of the opening rules; the POOR auction;
* the positions of the Major phase and the mergers, as module fixtures (a game of table_1801's on the
  engine, built once per test module and copied by each test's own fixture): s2_game (SR 2), s2x_game
  (SR 2 after ten turns), or21_game (OR 2.1), p3_game (SR 3, Train Phase 3), p3m_game (SR 3 with three
  mergers), cons_game (the Consolidation round), or41_game (OR 4.1 after it), forced_game (a trainless
  major);
* the same positions on the engine Table (tests/conftest.py), each built once per session and handed out
  as a copy: sr1(), sr2(), or21() (OR 2.1 at WW's turn: WW Ann 70 / Cy 20 / treasury 10 at £110; cash
  Ann 830, Ben 1480, Cy 1480, WW 850, GWR 510, KSS 330; each major owns its 2+2), or31_first_4(),
  or41_a_bought(), cuts of examples/1801-game.txt;
* the moves that carry a game on (idle_or, idle_until) and the books' check (money_kept);
* examples/1801-game.txt played to a line on the engine (played_to), and its one-line refusals
  (refused_line).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Table
from engine_bank_1801 import Bank
from table_1801 import Table as NamedTable


# =========================================================================== the openings
# §3.3: £5,400 shared by 3 players = £1,800 each; the bank keeps 54,000 - 5,400 = 48,600.
# The packet rows [S]: RSC PC | WSB BBBT | SHTC CCTC WCF | HML BB SML | A-F | G-M | C1-C5 | C6-C10.
# Turn order Ann, Ben, Cy, Ann ...; a buy that empties a row hands the turn on as usual (the next
# player after the buyer). Every item is bought at face: privates and concessions pay the bank,
# a minor's £120 goes to its own treasury (§7.1: at most £180).
MAIN_AUCTION = """
new 1801 Ann Ben Cy
buy Ann RSC          # 20: Ann 1780
buy Ben PC           # 20: Ben 1780 (row 1 empty: row 2 on top, nobody bid on it)
buy Cy WSB           # 40: Cy 1760
buy Ann BBBT         # 40: Ann 1740
buy Ben SHTC         # 60: Ben 1720
buy Cy CCTC          # 60: Cy 1700
buy Ann WCF          # 60: Ann 1680
buy Ben HML          # 80: Ben 1640
buy Cy BB            # 100: Cy 1600
buy Ann SML          # 120: Ann 1560
buy Ben A            # 120 -> A's treasury: Ben 1520
buy Cy B             # Cy 1480
buy Ann C            # Ann 1440
buy Ben D            # Ben 1400
buy Cy E             # Cy 1360
buy Ann F            # Ann 1320
buy Ben G            # Ben 1280
buy Cy H             # Cy 1240
buy Ann J            # Ann 1200
buy Ben K            # Ben 1160
buy Cy L             # Cy 1120
buy Ann M            # Ann 1080
buy Ben C1           # 20 -> bank: Ben 1140
buy Cy C2            # Cy 1100
buy Ann C3           # Ann 1060
buy Ben C4           # Ben 1120
buy Cy C5            # Cy 1080
buy Ann C6           # Ann 1040
buy Ben C7           # Ben 1100
buy Cy C8            # Cy 1060
buy Ann C9           # Ann 1020
buy Ben C10          # Ben 1080: the packet is sold
"""

# §8.1: the holders act in concession order C1 (Ben), C2 (Cy), C3 (Ann), ...; §9.1 / Table 1:
# the home token costs £40 (UK, PHS), £20 (FB, AH), £10 (IT, SP, SND, RU), paid by the minor.
MAIN_CONCESSIONS = """
float Ben A UK                 # C1: A 120 - 40 = 80
float Cy B PHS                 # C2: B 120 - 40 = 80
float Ann C FB                 # C3: C 120 - 20 = 100
float Ben D AH --patronage 30  # C4: D 120 - 20 = 100, + 30 from the bank (§9.1 step 3) = 130
float Cy E RU                  # C5: E 120 - 10 = 110
float Ann F FB                 # C6: F 100 (the 4th UK/PHS/FB chit)
float Ben G AH                 # C7: G 100
float Cy H SP                  # C8: H 110
float Ann J IT                 # C9: J 110
float Ben K SND                # C10: K 110
"""

# The MAIN auction and concessions, then 18 regionals parred in SR 1 (Cy, Ann, Ben, ...).
# §9.2: the president pays 2 x par into the treasury, which pays the home token (Table 1).
MAJOR_SR1 = """
float Cy L IT            # L 110
float Ann M SP           # M 110
par Ben GWR 70           # Ben 1080 - 140 = 940; GWR 140 - 40 = 100
par Cy KSS 70            # Cy 1060 - 140 = 920; KSS 100
par Ann PLM 60           # Ann 1020 - 120 = 900; PLM 120 - 20 = 100
par Ben OU 60            # Ben 820; OU 100
par Cy BEL 60            # Cy 800; BEL 100
par Ann MIDI 60          # Ann 780; MIDI 100
par Ben SB 60            # Ben 700; SB 100
par Cy MAV 60            # Cy 680; MAV 100
par Ann SFAI 60          # Ann 660; SFAI 110
par Ben SFR 60           # Ben 580; SFR 110
par Cy MZA 60            # Cy 560; MZA 110
par Ann CHN 60           # Ann 540; CHN 110
par Ben RCP 60           # Ben 460; RCP 110
par Cy BJV 60            # Cy 440; BJV 110
par Ann DSJ 60           # Ann 420; DSJ 110
par Ben MSP 60           # Ben 340; MSP 110
par Cy MKV 60            # Cy 320; MKV 110
par Ann WW 90            # Ann 420 - 180 = 240; WW 180 - 10 = 170. The 18th regional: §8.2 the Major
                         # phase begins now (12 minors + 18 regionals), LRZD is removed.
buy Ben KSS              # §10.2 / D 11.3: a 25 % from the treasury at par 70: Ben 270, KSS 170
buy Cy GWR               # Cy 250, GWR 170
pass Ann
buy Ben WW               # 90: Ben 180, WW 260
buy Cy WW                # Cy 160, WW 350
pass Ann
pass Ben
pass Cy                  # SR 1 ends
"""


# =========================================================================== the companies


# The MAIN opening: every packet item bought at face in turn.
# After it: Ann 1020, Ben 1080, Cy 1060. Ann: RSC BBBT WCF SML, minors C F J M; Ben: PC SHTC HML,
# minors A D G K; Cy: WSB CCTC BB, minors B E H L.
# SR 1 (Cy first). 18 regionals parred; the 18th (WW) starts the Major phase (§8.2/§8.3).
# §9.2: the president pays 2 x par into the treasury, which pays its home token (Table 1).
MINORS = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M"]
REGIONALS = ["GWR", "KSS", "PLM", "OU", "BEL", "MIDI", "SB", "MAV", "SFAI", "SFR", "MZA", "CHN",
             "RCP", "BJV", "DSJ", "MSP", "MKV", "WW"]


# =========================================================================== GAME M: three players
# §3.3: £5,400 / 3 = £1,800 each; the bank 54,000 - 5,400 = 48,600. Seats Ann, Ben, Cy; Ann first.
# Turn passes left after every action (§7).

M_ROWS_1_2 = """
buy Ann RSC              # T1 top row at face £20: Ann 1780, bank 48,620
bid Ben BBBT 40          # T2 row 2 at face, held back
bid Cy WSB 40            # T3 row 2 at face
bid Ann SHTC 60          # T4 row 3 at face
bid Ben WSB 45           # T5 >= 40 + 5
pass Cy                  # T6
bid Ann WSB 50           # T7 >= 45 + 5 (Ann now holds back 60 + 50 = 110)
pass Ben                 # T8
pass Cy                  # T9
"""


M_ALLPASS_1 = """
pass Ann                 # T10: Ben, Cy, Ann passed in a row (§7): RSC pays Ann £5 (Ann 1785,
                         # bank 48,615); PC 20 -> 15. Play resumes with the first passer, Ben.
bid Ben CCTC 60          # T11 row 3 at face
"""


M_EMPTY_ROW_1 = """
buy Cy PC                # T12 at 20 - 5 = £15: Cy 1785, bank 48,630. Row 1 is empty: row 2 is the top.
                         # BBBT has one bid: Ben pays 40 (bank 48,670). WSB has three bids (Cy 40,
                         # Ben 45, Ann 50): auctioned among them from the bidder left of the highest
                         # (Ann) -> Ben first.
"""


M_WSB_AUCTION = """
bid Ben WSB 55           # A1 >= 50 + 5
pass Cy                  # A2 Cy is out for good
bid Ann WSB 60           # A3
pass Ben                 # A4 Ann wins WSB at £60 (bank 48,730). Row 2 is now empty, so row 3 resolves:
                         # SHTC to Ann at 60 (bank 48,790), CCTC to Ben at 60 (bank 48,850); WCF
                         # stays at £60 in the top row. Play resumes left of Cy (who emptied row 1): Ann.
"""


# After A4: Ann 1800 - 20 + 5 - 60 - 60 = 1665; Ben 1800 - 40 - 60 = 1700; Cy 1800 - 15 = 1785;
# bank 48,850 (sum 54,000).
M_ROWS_3_4 = """
bid Ann C1 20            # T13 row 7 at face
bid Ben G 200            # T14 row 6, above £180
bid Cy SML 1600          # T15 row 4 (Cy holds back 1600 of 1785)
buy Ann WCF              # T16 £60: Ann 1605, bank 48,910. Row 3 empty: row 4 resolves: SML's one
                         # bid: Cy pays 1600 (Cy 185, bank 50,510); HML and BB stay. Resume: Ben.
buy Ben HML              # T17 £80: Ben 1620, bank 50,590
bid Cy C2 20             # T18
buy Ann BB               # T19 £100: Ann 1505, bank 50,690. Row 4 empty: row 5 (A-F, no bids) is the
                         # top. Resume: Ben.
"""


M_ROW_5 = """
buy Ben A                # T20 £120 into A's treasury (§7.1): Ben 1500
bid Cy C3 20             # T21 (Cy holds back 40 of 185)
buy Ann B                # T22 Ann 1385
buy Ben C                # T23 Ben 1380
pass Cy                  # T24
buy Ann D                # T25 Ann 1265
buy Ben E                # T26 Ben 1260
pass Cy                  # T27
buy Ann F                # T28 Ann 1145. Row 5 empty: row 6 resolves: G's one bid: Ben pays 200,
                         # G's treasury gets 180 and the bank 20 (§7.1): Ben 1060, bank 50,710.
                         # Resume: Ben.
pass Ben                 # T29
pass Cy                  # T30
"""


M_ALLPASS_2 = """
pass Ann                 # T31 all passed (§7): Ann RSC 5 + WSB 10 + SHTC 15 + WCF 15 + BB 25 = 70
                         # (1215); Ben BBBT 10 + CCTC 15 + HML 20 = 45 (1105); Cy PC 5 + SML 0 = 5
                         # (190); bank 50,710 - 120 = 50,590. H J K L M 120 -> 115. Resume: Ben.
"""


M_REST = """
buy Ben H                # T32 £115 into H: Ben 990
pass Cy                  # T33
buy Ann J                # T34 Ann 1100
buy Ben K                # T35 Ben 875
pass Cy                  # T36
buy Ann L                # T37 Ann 985
buy Ben M                # T38 Ben 760. Row 6 empty: row 7 resolves: C1 Ann 20 (965), C2 Cy 20 (170),
                         # C3 Cy 20 (150); bank 50,650. C4, C5 stay. Resume: Cy.
pass Cy                  # T39
buy Ann C5               # T40 Ann 945
buy Ben C4               # T41 Ben 740. Row 8 is the top. Resume: Cy.
pass Cy                  # T42
buy Ann C6               # T43 Ann 925
buy Ben C7               # T44 Ben 720
pass Cy                  # T45
buy Ann C8               # T46 Ann 905
buy Ben C9               # T47 Ben 700
pass Cy                  # T48
buy Ann C10              # T49 Ann 885; bank 50,650 + 7 x 20 = 50,790. The packet is sold: Concessions.
"""


M_C1 = """
float Ann B UK           # C1 (§8.1): B pays the UK home token £40: B 80, bank 50,830
"""


M_C2 = """
par Cy MZA 70            # C2: Cy has no minor and 150 >= 2 x 60: he must float a regional (§8.1).
                         # 2 x 70 = 140: Cy 10; MZA 140 - SP token 10 = 130; bank 50,840
"""


M_C3 = """
par Cy SFAI 65 --open-market   # C3: Cy (10 < 120) can float nothing: SFAI's 50 % to the Open Market;
                               # no money moves
"""


M_C4_TO_C6 = """
float Ben A UK           # C4: A 120 - 40 = 80; bank 50,880 (second UK chit)
float Ann D PHS --patronage 30   # C5: D 120 - 40 + 30 = 110; bank 50,880 + 40 - 30 = 50,890
float Ann F FB           # C6: F 120 - 20 = 100; bank 50,910. UK, UK, PHS, FB: the 4th of the 6
                         # asterisked chits, the other two (PHS, FB) leave play (§9.1 Table 1 *)
"""


M_C7_TO_C9 = """
float Ben C AH           # C7: C 120 - 20 = 100; bank 50,930
float Ann J IT           # C8: J 115 - 10 = 105; bank 50,940
float Ben E IT           # C9: E 120 - 10 = 110; bank 50,950 (both IT chits taken)
"""


M_C10 = """
par Ann GWR 90           # C10: a regional may be floated although Ann could float a minor:
                         # Ann 885 - 180 = 705; GWR 180 - 40 = 140; bank 50,990
"""


# SR 1 starts left of the last auction actor (Ann, T49): Ben (spec; D18 #16).
# Ann 705, Ben 700, Cy 10; bank 50,990; minors A 80 B 80 C 100 D 110 E 110 F 100 J 105, unfloated G 180
# H 115 K 115 M 115 (Ben) L 115 (Ann); MZA 130, GWR 140. Sum 1,415 + 685 + 640 + 270 + 50,990 = 54,000.
M_S1 = """
float Ben G SP           # S1 G 180 - 10 = 170; bank 51,000
"""


M_S2_S3 = """
pass Cy                  # S2 Cy owns no minor: he may pass
buy Ann SFAI             # S3 the parred presidency: 2 x 65 = 130 into SFAI, which pays its IT token £10:
                         # Ann 575, SFAI 120, bank 51,010
"""


M_S4_TO_S8 = """
float Ben H SND          # S4 H 115 - 10 = 105; bank 51,020
pass Cy                  # S5
remove Ann GSWR          # S6 first removal (UK)
float Ben K SND          # S7 K 105; bank 51,030
pass Cy                  # S8
"""


M_S9_TO_S12 = """
remove Ann BHB           # S9 second removal (PHS)
float Ben M RU --patronage 20   # S10 M 115 - 10 + 20 = 125; bank 51,030 + 10 - 20 = 51,020
pass Cy                  # S11
float Ann L RU           # S12 L 115 - 10 = 105; bank 51,030. All twelve minors float.
"""


# =========================================================================== GAME N: two players
# No concessions (§3.3): £5,200 / 2 = £2,600 each; bank 54,000 - 5,200 = 48,800. Ann, Ben alternate.

N_AUCTION = """
buy Ann RSC              # 20
buy Ben PC               # 20
buy Ann WSB              # 40
buy Ben BBBT             # 40
buy Ann SHTC             # 60
buy Ben CCTC             # 60
buy Ann WCF              # 60
buy Ben HML              # 80
buy Ann BB               # 100
buy Ben SML              # 120
buy Ann A                # 120 into each minor's treasury
buy Ben B
buy Ann C
buy Ben D
buy Ann E
buy Ben F
buy Ann G
buy Ben H
buy Ann J
buy Ben K
buy Ann L
buy Ben M                # the packet is sold: SR 1 (no concessions), left of Ben: Ann
"""


# Ann 2600 - (20 + 40 + 60 + 60 + 100) - 6 x 120 = 1600; Ben 2600 - (20 + 40 + 60 + 80 + 120) - 720 =
# 1560; bank 48,800 + 280 + 320 = 49,400; twelve minors with £120 each.
N_CHITS_4 = """
float Ann A UK           # A 80, bank +40
float Ben B UK           # B 80, +40
float Ann C PHS          # C 80, +40
float Ben D FB           # D 100, +20: the 4th asterisked chit
"""


N_CHITS_6 = """
float Ann E AH           # E 100, +20
float Ben F AH           # F 100, +20 (both AH chits)
"""


N_CHITS_12 = """
float Ann G IT --patronage 40   # G 120 - 10 + 40 = 150, bank +10 - 40
float Ben H IT           # H 110, +10
float Ann J SP           # J 110, +10
float Ben K SP           # K 110, +10
float Ann L SND          # L 110, +10
float Ben M RU           # M 110, +10
"""


# bank 49,400 + 3 x 40 + 3 x 20 - 30 + 5 x 10 = 49,600; minors 80 + 80 + 80 + 100 x 3 + 150 + 110 x 5 =
# 1,240; 1,600 + 1,560 + 1,240 + 49,600 = 54,000.
N_REGIONALS_17 = """
par Ann GWR 90           # Ann -180; GWR 180 - 40 = 140
par Ben BHB 60           # Ben -120; BHB 120 - 40 = 80
par Ann PLM 75           # -150; PLM 150 - 20 = 130
par Ben SB 65            # -130; SB 130 - 20 = 110
par Ann SFAI 70          # -140; SFAI 140 - 10 = 130
reserve Ben SFAI         # §8.4: free, before his stock action
par Ben MZA 80           # -160; MZA 160 - 10 = 150
par Ann BJV 60           # -120; 110
par Ben MSP 60           # 110
par Ann LNWR 60          # 80
par Ben KBS 60           # 80
par Ann OU 60            # 100
par Ben MAV 60           # 100
par Ann SFR 60           # 110
par Ben CHN 60           # 110
par Ann DSJ 60           # 110
par Ben MKV 60           # 110
par Ann POB 60           # 120 - 40 = 80: the 17th regional
"""


N_REGIONAL_18 = """
par Ben WW 60            # 110: the 18th regional with all 12 minors floated: the Major phase (§8.2)
"""
# Ann paid 180 + 150 + 140 + 6 x 120 = 1,190 (410 left); Ben 120 + 130 + 160 + 6 x 120 = 1,130 (430 left).
# Home tokens: Ann 40+20+10+10+40+20+10+10+40 = 200, Ben 40+20+10+10+40+20+10+10+10 = 170: bank 49,970.


# =========================================================================== the POOR auction
# Ann bids on SML (row 4, face 120) at once: the bid is held back. Ann passes while privates are on
# top. When row 3 empties, row 4 becomes the top row and SML's single bid sells it to Ann at her bid,
# paid to the bank. SML pays no income (£0), so Ann's cash never moves at an OR start.
def poor_auction(sml_bid: int) -> str:
    ann = 1800 - sml_bid
    return f"""
new 1801 Ann Ben Cy
bid Ann SML {sml_bid}    # held back (<= Ann's 1800)
buy Ben RSC              # Ben 1780
buy Cy PC                # Cy 1780; row 2 on top
pass Ann
buy Ben WSB              # Ben 1740
buy Cy BBBT              # Cy 1740; row 3 on top
pass Ann
buy Ben SHTC             # Ben 1680
buy Cy CCTC              # Cy 1680
pass Ann
buy Ben WCF              # Ben 1620; row 4 on top: SML sold to Ann: Ann {ann}; play resumes with Cy
buy Cy HML               # Cy 1600
pass Ann
buy Ben BB               # Ben 1520; row 5 on top, resume with Cy
buy Cy A                 # Cy 1480
buy Ann B                # Ann {ann - 120}
buy Ben C                # Ben 1400
buy Cy D                 # Cy 1360
buy Ann E                # Ann {ann - 240}
buy Ben F                # Ben 1280; row 6
buy Cy G                 # Cy 1240
buy Ann H                # Ann {ann - 360}
buy Ben J                # Ben 1160
buy Cy K                 # Cy 1120
buy Ann L                # Ann {ann - 480}
buy Ben M                # Ben 1040; row 7
buy Cy C1                # Cy 1100
buy Ann C2               # Ann {ann - 500}
buy Ben C3               # Ben 1020
buy Cy C4                # Cy 1080
buy Ann C5               # Ann {ann - 520}; row 8, resume with Ben
buy Ben C6               # Ben 1000
buy Cy C7                # Cy 1060
buy Ann C8               # Ann {ann - 540}
buy Ben C9               # Ben 980
buy Cy C10               # Cy 1040: sold out
float Cy A UK            # C1: A 80
float Ann B UK           # C2: B 80  <- the minor under test
float Ben C PHS          # C3: C 80
float Cy D FB            # C4: D 100 (4th UK/PHS/FB chit)
float Ann E IT           # C5: E 110
float Ben F AH           # C6: F 100
float Cy G AH            # C7: G 100
float Ann H IT           # C8: H 110
float Ben J SP           # C9: J 110
float Cy K SP            # C10: K 110
float Ann L SND          # SR 1 (starts after Cy's last auction buy): L 110
float Ben M SND          # M 110
pass Cy
pass Ann
pass Ben                 # SR 1 ends
"""


# =========================================================================== games: the Major phase, the mergers
# Each is a module fixture (built once per test module and xdist worker); a test works on its own copy,
# which a test module declares with `copied`: `or21 = copied("or21_game")`.


def copied(kept: str):
    """A fixture: the test's own copy of the module fixture named `kept`."""
    @pytest.fixture
    def copy_for_the_test(request) -> NamedTable:
        return request.getfixturevalue(kept).copy()
    copy_for_the_test.__doc__ = f"A copy of {kept} for the test."
    return copy_for_the_test

# The MAIN opening (MAIN_AUCTION, MAIN_CONCESSIONS, MAJOR_SR1):
# after the auction Ann 1020, Ben 1080, Cy 1060. Ann: RSC BBBT WCF SML, minors C F J M; Ben: PC
# SHTC HML, minors A D G K; Cy: WSB CCTC BB, minors B E H L.
# Minors' cash (from test_1801_operating_rules / test_1801_major_rules): OR 1.1 buys the 2+2s (the
# president tops up A and B; J pays £90), OR 1.2 and OR 2.1 idle, K's mail £20 at each OR start:
# A 0, B 0, C 0, D 30, E 10, F 0, G 0, H 10, J 20, K 30 + 20 + 20 = 70, L 10, M 10 (at OR 2.1).
# S2X (SR 2, Ben's turn): Ann 1020, Ben 1410, Cy 1340, WW 850, GWR 420, KSS 330.
# WW: Ann 60, Ben 10, Cy 20, ipo 10 at (0,2) 120; GWR: Ben 30, Cy 30, ipo 40 at (3,2) 90 (first);
# KSS: Ben 30, Cy 20, ipo 50 at (3,2) 90 (under GWR).
# OR21 (OR 2.1, WW's turn): Ann 830, Ben 1480, Cy 1480, WW 850, GWR 510, KSS 330.
# WW: Ann 70, Cy 20, ipo 10 at (1,2) 110; GWR: Ben 40, Cy 30, ipo 30 at (3,2) 90;
# KSS: Ben 30, Cy 10, ipo 50, OM 10 at (4,2) 80. Each major owns its 2+2.

# OR 1.1 (privates: Ann +30 = 270, Ben +40 = 220, Cy +50 = 210): the reserved 2+2s (£100): A 80
# (Ben +20: 200), B 80 (Cy +20: 190); GWR, KSS 170 -> 70; WW 350 -> 250; PLM OU BEL MIDI SB MAV
# 100 -> 0; SFAI SFR MZA CHN RCP BJV DSJ MSP MKV 110 -> 10.
# OR 1.2: privates: Ann 300, Ben 240, Cy 240. Every regional pays £400 in full (§11.4):
#   a president's 50 % gets 200, a player's 25 % 100, a treasury's 25 % (or 50 %) 100 (200).
#   Ann (PLM MIDI SFAI CHN DSJ WW): 300 + 6 x 200 = 1500.
#   Ben (GWR OU SB SFR RCP MSP, and 25 % of KSS and WW): 240 + 1200 + 100 + 100 = 1640.
#   Cy (KSS BEL MAV MZA BJV MKV, and 25 % of GWR and WW): 240 + 1200 + 100 + 100 = 1640.
#   GWR 70 + 100 = 170; KSS 170; WW 250 + 0 = 250; PLM/OU/... 0 + 200 = 200; SFAI/... 10 + 200 = 210.
S2_CASH = {"Ann": 1500, "Ben": 1640, "Cy": 1640, "GWR": 170, "KSS": 170, "WW": 250, "OU": 200, "PLM": 200}


@pytest.fixture(scope="module")
def s2_game() -> NamedTable:
    t = NamedTable()
    t.play(MAIN_AUCTION + MAIN_CONCESSIONS + MAJOR_SR1)
    t.bank.line("choose Ann normal")
    for corp in MINORS + REGIONALS:
        t.first_turn(corp)
    t.bank.line("choose Ann normal")
    for corp in MINORS:
        t.idle_turn(corp)
    for corp in REGIONALS:
        t.bank.line(f"pay {corp} 400")
        t.bank.line(f"done {corp}")
    return t


# SR 2, Ann first (holdings after each turn; §9.3 and §10.2; D 10.4 / E10):
S2X_TURNS = """
expand Ann WW      # 1 Ann: WW par 90 -> MAJOR 120, marker at (0,2); Ann 50 % -> 20 %, Ben and Cy 25 % ->
                   #   10 % each, six 10 % in its treasury.
buy Ann WW         #   §9.3 step 5 at the major par 120, paid to WW: Ann 1380, WW 370. WW: Ann 30, ipo 50
expand Ben GWR --secondary
                   # 2 Ben: first buys GWR's 25 % left in its treasury at par 70 (to GWR): Ben 1570, GWR 240;
                   #   then 75 % -> 20 % + 10 % = 30 %; Cy 10 %; ipo 60 %. Par 70 -> 90 at (3,2).
buy Cy GWR         # 3 Cy: at the major par 90 (the SR GWR floated in): Cy 1550, GWR 330. Cy 20, ipo 50
buy Ann WW         # 4 Ann: 120: Ann 1260, WW 490. Ann 40, ipo 40
buy Ben KSS        # 5 Ben: KSS's last 25 % at the regional par 70 (to KSS): Ben 1500, KSS 240
buy Cy WW          # 6 Cy: 120: Cy 1430, WW 610. Cy 20, ipo 30
buy Ann WW         # 7 Ann: 120: Ann 1140, WW 730. Ann 50, ipo 20
expand Ben KSS     # 8 Ben holds both secondaries: par 70 -> 90 at (3,2) (under GWR); Ben 10 + 10 %, Cy 20 %;
                   #   Ben must buy one at 90 (to KSS): Ben 1410, KSS 330; Ben 30 % > Cy 20 %: Ben president,
                   #   the 20 % certificate to Ben for two 10 %. KSS: Ben 30, Cy 20, ipo 50
buy Cy GWR         # 9 Cy: 90: Cy 1340, GWR 420. GWR: Ben 30, Cy 30 (a tie: Ben stays president), ipo 40
buy Ann WW         # 10 Ann: 120: Ann 1020, WW 850. WW: Ann 60, Ben 10, Cy 20, ipo 10
"""                # now Ben's turn (11)


S2X_CASH = {"Ann": 1020, "Ben": 1410, "Cy": 1340, "WW": 850, "GWR": 420, "KSS": 330}


S2X_HOLDINGS = {
    "WW": {"Ann": 60, "Ben": 10, "Cy": 20, "ipo": 10, "pool": 0},
    "GWR": {"Ann": 0, "Ben": 30, "Cy": 30, "ipo": 40, "pool": 0},
    "KSS": {"Ann": 0, "Ben": 30, "Cy": 20, "ipo": 50, "pool": 0},
}


@pytest.fixture(scope="module")
def s2x_game(s2_game) -> NamedTable:
    t = s2_game.copy()
    t.play(S2X_TURNS)
    return t


# The end of SR 2 for the operating tables:
S2E_TURNS = """
sell Ben WW 1      # 11 Ben: 10 % at 120 (to the OM, paid by the bank): Ben 1530; DOWN (0,2) -> (1,2) 110
buy Ben GWR        #    then a buy (at par 90, to GWR): Ben 1440, GWR 510. GWR: Ben 40, Cy 30, ipo 30
sell Cy KSS 1      # 12 Cy: 10 % at 90: Cy 1430; KSS DOWN (3,2) -> (4,2) 80. KSS: Ben 30, Cy 10, ipo 50, OM 10
buy Ann WW --pool  # 13 Ann holds 60 %: the OM share at 2 x 110 = 220 to the bank: Ann 800. WW: Ann 70, Cy 20
pass Ben
pass Cy
pass Ann           # SR 2 ends (nothing sold out: WW ipo 10, GWR ipo 30, KSS ipo 50); Ann acted last (13),
"""                # so SR 3 begins with Ben.


# OR 2.1: privates: Ann 830, Ben 1480, Cy 1480. Minors, then the 15 regionals, then the majors by share
# value (§11): WW 110, GWR 90, KSS 80. Cash: WW 850, GWR 420 + 90 = 510, KSS 330.
REGIONALS_LEFT = [r for r in REGIONALS if r not in ("GWR", "KSS", "WW")]


OR21_CASH = {"Ann": 830, "Ben": 1480, "Cy": 1480, "WW": 850, "GWR": 510, "KSS": 330}


OR21_HOLDINGS = {
    "WW": {"Ann": 70, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 0},
    "GWR": {"Ann": 0, "Ben": 40, "Cy": 30, "ipo": 30, "pool": 0},
    "KSS": {"Ann": 0, "Ben": 30, "Cy": 10, "ipo": 50, "pool": 10},
}


@pytest.fixture(scope="module")
def or21_game(s2x_game) -> NamedTable:
    t = s2x_game.copy()
    t.play(S2E_TURNS)
    t.bank.line("choose Ann normal")
    for corp in MINORS + REGIONALS_LEFT:
        t.idle_turn(corp)
    return t


# ---------------------------------------------------------------- P3: Train Phase 3, SR 3
# OR 2.1 (from OR21):
#   WW pays 100 (Ann 70 % 70 -> 900, Cy 20 % 20 -> 1500, WW 10 % 10 -> 860; 100 < 110: stays), buys
#   the first 3 (£200): WW 660, Train Phase 3 (§5.2).
#   GWR pays 50 (Ben 20 -> 1500, Cy 15 -> 1515, GWR 15 -> 525; stays), issues its 3 treasury shares
#   at 90 = 270 (§11.7): GWR 795; DOWN x 3: (4,2) 80, (5,2) 75, (6,2) 70. GWR: Ben 40, Cy 30, OM 30.
#   KSS pays 70 (Ben 21 -> 1521, Cy 7 -> 1522, KSS 35 -> 365, the OM's 7 to nobody; stays).
# OR 2.2: privates: Ann +30 = 930, Ben +40 = 1561, Cy +50 = 1572; K's mail in phase 3: £40 -> 110.
#   Minors half-pay 400 (a 2+2 counts 4 stops): each keeps 200 and its owner gets 200:
#   A 200, B 200, C 200, D 230, E 210, F 200, G 200, H 210, J 220, K 310, L 210, M 210;
#   Ann (C F J M) +800 = 1730, Ben (A D G K) +800 = 2361, Cy (B E H L) +800 = 2372.
#   The 15 regionals withhold 400 and buy a 3 (15 level-3 trains).
#   Majors by value: WW 110, KSS 80, GWR 70.
#   WW pays 100: Ann +70 = 1800, Cy +20 = 2392, WW 670; buys a 3: 470.
#   KSS pays 70: Ben +21 = 2382, Cy +7 = 2399, KSS 400; buys a 3: 200.
#   GWR pays 50: Ben 40 % 20 = 2402, Cy 30 % 15 = 2414 (no treasury share; OM nobody); buys two 3s:
#   795 - 400 = 395. Level 3: 1 + 15 + 1 + 1 + 2 = 20: all sold (next: level 4).
# SR 3 begins with Ben (SR 2's last actor was Ann).
OR21_TO_P3 = """
pay WW 100
train WW 3
done WW
pay GWR 50
issue GWR 3
done GWR
pay KSS 70
done KSS
choose Ann normal
"""


def or22_to_sr3(t) -> None:
    """OR 2.2 as the comments above work it, after OR21_TO_P3: the minors half-pay £400, the
    regionals withhold £400 and buy a 3, WW, KSS and GWR pay and buy their 3s (SR 3 follows)."""
    for corp in MINORS:
        t.do(f"half {corp} 400", f"done {corp}")
    for corp in REGIONALS_LEFT:
        t.do(f"withhold {corp} 400", f"train {corp} 3", f"done {corp}")
    t.play("pay WW 100\ntrain WW 3\ndone WW\npay KSS 70\ntrain KSS 3\ndone KSS\n"
           "pay GWR 50\ntrain GWR 3\ntrain GWR 3\ndone GWR\n")


P3_CASH = {"Ann": 1800, "Ben": 2402, "Cy": 2414, "WW": 470, "KSS": 200, "GWR": 395,
           "A": 200, "B": 200, "C": 200, "D": 230, "E": 210, "F": 200, "G": 200, "H": 210,
           "J": 220, "K": 310, "L": 210, "M": 210}


P3_HOLDINGS = {
    "WW": {"Ann": 70, "Ben": 0, "Cy": 20, "ipo": 10, "pool": 0},
    "GWR": {"Ann": 0, "Ben": 40, "Cy": 30, "ipo": 0, "pool": 30},
    "KSS": {"Ann": 0, "Ben": 30, "Cy": 10, "ipo": 50, "pool": 10},
}


@pytest.fixture(scope="module")
def p3_game(or21_game) -> NamedTable:
    t = or21_game.copy()
    t.play(OR21_TO_P3)
    for corp in MINORS:
        t.bank.line(f"half {corp} 400")
        t.bank.line(f"done {corp}")
    for corp in REGIONALS_LEFT:
        t.bank.line(f"withhold {corp} 400")
        t.bank.line(f"train {corp} 3")
        t.bank.line(f"done {corp}")
    t.play("""
pay WW 100
train WW 3
done WW
pay KSS 70
train KSS 3
done KSS
pay GWR 50
train GWR 3
train GWR 3
done GWR
""")
    return t


# ---------------------------------------------------------------- P3M: SR 3 with three mergers
# 1 Ben merges K into WW (Ann agrees): WW's last treasury 10 % to Ben (WW: Ann 70, Ben 10, Cy 20);
#   K's 310 to WW (470 -> 780); K's 2+2 to WW (2+2, 3, 3, 2+2: 4 = the limit).
# 2 Cy passes.
# 3 Ann merges J into KSS (Ben agrees): a KSS treasury 10 % to Ann (KSS: Ben 30, Cy 10, Ann 10,
#   ipo 40, OM 10); J's 220 to KSS (200 -> 420); J's 2+2 (KSS: 2+2, 3, 2+2).
# 4 Ben merges G into GWR: no treasury share, one from the OM (GWR: Ben 50, Cy 30, OM 20); G's 200 to
#   the bank (§10.5); G's 2+2 to GWR (2+2, 3, 3, 2+2).
# 5-7 all pass: SR 3 ends. WW has every share with players: UP (1,2) -> (0,2) 120 (§10.7). Priority
#   to Cy (after Ben, the last to act).
# OR 3.1 begins: privates Ann +30 = 1830, Ben +40 = 2442, Cy +50 = 2464; K's mail (phase 3, £40)
#   now goes to WW: 780 + 40 = 820 (§15.10). KSS 420, GWR 395.
P3M_TURNS = """
merge Ben K WW
pass Cy
merge Ann J KSS
merge Ben G GWR
pass Cy
pass Ann
pass Ben
"""


@pytest.fixture(scope="module")
def p3m_game(p3_game) -> NamedTable:
    t = p3_game.copy()
    t.play(P3M_TURNS)
    return t


# ---------------------------------------------------------------- CONS: the Consolidation round
# OR 3.1 (Ann chooses C's normal place). Minors A B C D E F H L M half-pay 400: each +200 (A 400,
# B 400, C 400, D 430, E 410, F 400, H 410, L 410, M 410); Ann (C F M) +600 = 2430, Ben (A D) +400 =
# 2842, Cy (B E H L) +800 = 3264. Regionals idle. Majors: WW 120, KSS 80, GWR 70.
#   WW pays 100: Ann 70 % +70 = 2500, Cy 20 % +20 = 3284, Ben 10 % +10 = 2852 (stays, < 120).
#   KSS pays 50: Ben 30 % 15 = 2867, Cy 10 % 5 = 3289, Ann 10 % 5 = 2505, KSS 40 % 20 = 440 (stays);
#   buys a 4 with J's 10 % off (§15.9): 300 - 30 = 270 -> 170. Train Phase 4: the 2+2s rust (§5.2).
#   GWR pays 50: Ben 50 % 25 = 2892, Cy 30 % 15 = 3304 (stays); buys a 4: 395 - 300 = 95.
# OR 3.2: privates: Ann 2535, Ben 2932, Cy 3354; WW's mail (phase 4, £40): 860.
#   Minors (no trains now): A B C D E F H L buy a 4 each (£300): A 100, B 100, C 100, D 130, E 110,
#   F 100, H 110, L 110 (level 4: 2 + 8 = 10, all sold); M buys the first 5 (£400): 10. Phase 5.
#   Regionals idle; majors withhold 0: LEFT: WW (0,1) 110, KSS (4,1) 75, GWR (6,1) 65.
# SR 4 is the Consolidation round (§5.1.5: the first SR after the OR in which phase 5 began); Cy first.
CONS_CASH = {"Ann": 2535, "Ben": 2932, "Cy": 3354, "WW": 860, "KSS": 170, "GWR": 95,
             "A": 100, "B": 100, "C": 100, "D": 130, "E": 110, "F": 100, "H": 110, "L": 110, "M": 10}


LEFT_MINORS = ["A", "B", "C", "D", "E", "F", "H", "L", "M"]


@pytest.fixture(scope="module")
def cons_game(p3m_game) -> NamedTable:
    t = p3m_game.copy()
    t.bank.line("choose Ann normal")
    for corp in LEFT_MINORS:
        t.bank.line(f"half {corp} 400")
        t.bank.line(f"done {corp}")
    for corp in REGIONALS_LEFT:
        t.idle_turn(corp)
    t.play("""
pay WW 100
done WW
pay KSS 50
train KSS 4
done KSS
pay GWR 50
train GWR 4
done GWR
choose Ann normal
""")
    for corp in LEFT_MINORS:
        t.bank.line(f"withhold {corp} 0", ok=None)
        t.bank.line(f"train {corp} {'5' if corp == 'M' else '4'}")
        t.bank.line(f"done {corp}")
    for corp in REGIONALS_LEFT + ["WW", "KSS", "GWR"]:
        t.idle_turn(corp)
    return t


# ---------------------------------------------------------------- OR41: after the Consolidation round
# SR 4, turn order Cy, Ann, Ben. Cy presides no major: he abandons his minors, then expands.
# Ann's only major WW has no share in its treasury or the OM: she abandons too. The rulebook would
# have them expand their regionals first, which could then take the minors (§10.6 Designer's Note;
# test_1801_mergers tests it): the table waives that here (--force, logged), for this position is
# where the later rules (OR 4.1, nationals, the end) were worked from. Ben merges A into KSS
# (a treasury share; A's 100 to KSS and A's bonus, KSS's value 75) and D into GWR (an OM share; D's
# 130 to the bank; GWR's 3, 3, 4 + D's 4 is over the limit 3: it discards a 3 to the OM). At the end WW (all shares with players) moves UP: top row, so RIGHT (0,1) ->
# (0,2) 120; the new majors have treasury shares (at 75 or so): WW operates first in OR 4.1.
CONS_TURNS = """
abandon Cy B --no-offers --force --reason 'position for later rules'
abandon Ann C --no-offers --force --reason 'position for later rules'
merge Ben A KSS
abandon Cy E --no-offers --force --reason 'position for later rules'
abandon Ann F --no-offers --force --reason 'position for later rules'
merge Ben D GWR
discard GWR 3
abandon Cy H --no-offers --force --reason 'position for later rules'
abandon Ann M --no-offers --force --reason 'position for later rules'
expand Ben OU
abandon Cy L --no-offers --force --reason 'position for later rules'
expand Ann PLM
expand Ben SB
expand Cy BEL
expand Ann MIDI
expand Ben SFR
expand Cy MAV
expand Ann SFAI
expand Ben RCP
expand Cy MZA
expand Ann CHN
expand Ben MSP
expand Cy BJV
expand Ann DSJ
pass Ben
expand Cy MKV
pass Ann
pass Ben
pass Cy
"""


@pytest.fixture(scope="module")
def or41_game(cons_game) -> NamedTable:
    t = cons_game.copy()
    t.play(CONS_TURNS)
    return t


# ---------------------------------------------------------------- FORCED: a trainless major
# From S2X (Ben's turn in SR 2): Ben buys Ann's RSC for all his 1410 (§10.4 trade): Ben 0, Ann 2430.
# Cy, Ann, Ben pass: SR 2 ends (nothing sold out: every major has treasury shares).
# OR 2.1: privates: Ann BBBT 10 + WCF 15 + SML 0 = 25 -> 2455; Ben PC 5 + SHTC 15 + HML 20 + RSC 5
# = 45 -> 45; Cy 50 -> 1390. Minors and regionals idle. Majors: WW (0,2) 120, GWR (3,2) 90 (first
# arrival), KSS (3,2) 90.
#   WW withholds 0 (no dividend to Ben): LEFT to (0,1) 110.
#   GWR withholds 0 (LEFT to (3,1) 80), buys KSS's 2+2 for £1 (§11.6, RR to RR): GWR 419, KSS 331.
# KSS (trainless, 331) operates; Ben has 45.
FORCED_TURNS = """
trade Ben RSC 1410
pass Cy
pass Ann
pass Ben
choose Ann normal
"""


@pytest.fixture(scope="module")
def forced_game(s2x_game) -> NamedTable:
    t = s2x_game.copy()
    t.play(FORCED_TURNS)
    for corp in MINORS + REGIONALS_LEFT:
        t.idle_turn(corp)
    t.play("""
withhold WW 0
done WW
withhold GWR 0
train GWR 2+2 --from KSS --price 1
done GWR
""")
    return t


# =========================================================================== on the engine Table, built once a session

_KEPT: dict = {}


def kept(key, build) -> Table:
    if key not in _KEPT:
        _KEPT[key] = build()
    return _KEPT[key].copy()


def first_turn(t: Table, corp: str) -> None:
    """A company's first OR: a £0 run (D 0.1 #2: it runs before it buys), its reserved 2+2."""
    t.attempt(f"withhold {corp} 0")
    t.do(f"train {corp} 2+2", f"done {corp}")


def idle_turn(t: Table, corp: str) -> None:
    t.do(f"withhold {corp} 0", f"done {corp}")


def sr1() -> Table:
    return kept("sr1", lambda: Table(MAIN_AUCTION + MAIN_CONCESSIONS))


def sr2() -> Table:
    """SR 2, Ann first: OR 1.1 buys the reserved 2+2s, OR 1.2 every regional pays £400."""
    def build():
        t = sr1()
        t.play(MAJOR_SR1)
        t.do("choose Ann normal")
        for corp in MINORS + REGIONALS:
            first_turn(t, corp)
        t.do("choose Ann normal")
        for corp in MINORS:
            idle_turn(t, corp)
        for corp in REGIONALS:
            t.do(f"pay {corp} 400", f"done {corp}")
        return t
    return kept("sr2", build)


def or21() -> Table:
    def build():
        t = sr2()
        t.play(S2X_TURNS + S2E_TURNS + "choose Ann normal\n")
        for corp in MINORS + REGIONALS_LEFT:
            idle_turn(t, corp)
        return t
    return kept("or21", build)


def or21_named_homes() -> Table:
    """or21() with GWR's home city named as it floats (`par Ben GWR 70 --city London`): the bank
    records the home token's city, as it does a minor's (`float ... --city`)."""
    def build():
        t = sr1()
        t.play(MAJOR_SR1.replace("par Ben GWR 70 ", "par Ben GWR 70 --city London "))
        t.do("choose Ann normal")
        for corp in MINORS + REGIONALS:
            first_turn(t, corp)
        t.do("choose Ann normal")
        for corp in MINORS:
            idle_turn(t, corp)
        for corp in REGIONALS:
            t.do(f"pay {corp} 400", f"done {corp}")
        t.play(S2X_TURNS + S2E_TURNS + "choose Ann normal\n")
        for corp in MINORS + REGIONALS_LEFT:
            idle_turn(t, corp)
        return t
    return kept("or21_named_homes", build)


def sr2_with(option: str) -> Table:
    """sr2() in a game begun with `--option OPTION`."""
    def build():
        t = Table(MAIN_AUCTION.replace("new 1801 Ann Ben Cy", f"new 1801 Ann Ben Cy --option {option}")
                  + MAIN_CONCESSIONS)
        t.play(MAJOR_SR1)
        t.do("choose Ann normal")
        for corp in MINORS + REGIONALS:
            first_turn(t, corp)
        t.do("choose Ann normal")
        for corp in MINORS:
            idle_turn(t, corp)
        for corp in REGIONALS:
            t.do(f"pay {corp} 400", f"done {corp}")
        return t
    return kept(("sr2", option), build)


def game_with(option: str | None) -> str:
    """The MAIN auction's first line, in a game begun with `--option OPTION` (None: as it is)."""
    return MAIN_AUCTION.replace("new 1801 Ann Ben Cy", f"new 1801 Ann Ben Cy --option {option}") if option \
        else MAIN_AUCTION


def or21_with(option: str | None) -> Table:
    """or21() in a game begun with `--option OPTION`."""
    def build():
        t = Table(game_with(option) + MAIN_CONCESSIONS)
        t.play(MAJOR_SR1)
        t.do("choose Ann normal")
        for corp in MINORS + REGIONALS:
            first_turn(t, corp)
        t.do("choose Ann normal")
        for corp in MINORS:
            idle_turn(t, corp)
        for corp in REGIONALS:
            t.do(f"pay {corp} 400", f"done {corp}")
        t.play(S2X_TURNS + S2E_TURNS + "choose Ann normal\n")
        for corp in MINORS + REGIONALS_LEFT:
            idle_turn(t, corp)
        return t
    return or21() if option is None else kept(("or21", option), build)


def or31_first_4(option: str | None = None, a_into_gwr: bool = False) -> Table:
    """P3M (p3m_game above: OR 2.1 and 2.2 played, SR 3 with three mergers), then OR 3.1 up
    to KSS (Ben) buying the first 4 (£300, J's 10 % off: £270): Train Phase 4, the conversion window
    open (§9.4) in player order from Ben: Ben, Cy, Ann. WW is Ann's, KSS and GWR Ben's. KSS has paid
    £50 (< its £80: it stays at (4,2) £80) and holds 440 - 270 = £170.
    `a_into_gwr`: in SR 3 Ben merges Minor A into GWR instead of G (GWR's value 70, an Open Market
    share; the bank pays GWR £70 for A, §15.1), and G half-pays in OR 3.1 in A's place."""
    turns = P3M_TURNS.replace("merge Ben G GWR", "merge Ben A GWR") if a_into_gwr else P3M_TURNS
    left = [m for m in MINORS if m not in ("A", "J", "K")] if a_into_gwr else LEFT_MINORS

    def build():
        t = or21_with(option)
        t.play(OR21_TO_P3)
        or22_to_sr3(t)
        t.play(turns)
        t.do("choose Ann normal")
        for corp in left:
            t.do(f"half {corp} 400", f"done {corp}")
        for corp in REGIONALS_LEFT:
            idle_turn(t, corp)
        t.play("pay WW 100\ndone WW\npay KSS 50\ntrain KSS 4\n")
        return t
    return kept(("or31_first_4", option, a_into_gwr), build)


# A national's revenue by capacity, as the table announces it (§11.3.10): one £60 city
NATIONAL_RUN = "--cities 60 --towns 0 --unlinked-cities 0 --unlinked-towns 0"


def or41_a_bought(option: str | None = None) -> Table:
    """From or31_first_4(): Ben converts GWR (G, merged into it, is abandoned, §9.5); the rest of
    OR 3.1 and OR 3.2 (minors and regionals idle, WW pays 100, KSS 50, GWR runs one £60 city); in SR 4
    (phase 4: minors may merge into nationals, §10.5) Ben merges Minor A into the national GWR (an
    Open Market share; A abandoned at once, no bonus: GWR is no major, §15.1); OR 4.1 to KSS's turn,
    after it pays 50 (< £80: it stays at £80, §4.4; it did so in OR 3.2 too, and nothing of KSS was
    sold in SR 4)."""
    def build():
        t = or31_first_4(option)
        t.do("convert Ben GWR", "done KSS", f"run GWR {NATIONAL_RUN}", "done GWR", "choose Ann normal")
        operate_until(t, lambda: t.round() == "SR 4")
        t.do("pass Cy", "pass Ann", "merge Ben A GWR", "pass Cy", "pass Ann", "pass Ben", "choose Ann normal")
        operate_until(t, lambda: t.status()["operating"] == "KSS")
        t.do("pay KSS 50")
        return t
    return kept(("or41_a_bought", option), build)


def operate_until(t: Table, done) -> None:
    """Every company operates in turn until `done()`: minors and regionals idle, WW pays 100, KSS 50,
    the national GWR runs (NATIONAL_RUN)."""
    turns = {"WW": ["pay WW 100", "done WW"], "KSS": ["pay KSS 50", "done KSS"],
             "GWR": [f"run GWR {NATIONAL_RUN}", "done GWR"]}
    while not done():
        corp = t.status()["operating"]
        t.do(*turns.get(corp, [f"withhold {corp} 0", f"done {corp}"]))


# --------------------------------------------------------------------------- the example game, cut

def example_lines() -> list[str]:
    game = Path(__file__).resolve().parents[2] / "examples" / "1801-game.txt"
    return [x.strip() for x in game.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


def first_6_with_sml(option: str | None = None) -> Table:
    """examples/1801-game.txt with one line added: in OR 5.1 (Train Phase 4), after WW withholds £130,
    Ann's Swift Metropolitan Line gives WW an unclaimed rusted 2+2 for good (§14.10); played on to SFAI
    buying the first 6 (Train Phase 6: the 3s rust, the national window opens from Ann, §9.4). WW
    then holds the SML's 2+2, a rusting 3, a 4 and a 5."""
    def build():
        lines = example_lines()
        if option:
            lines[0] += f" --option {option}"
        cut, six = lines.index("withhold WW 130"), lines.index("train SFAI 6")
        t = Table("\n".join(lines[:cut + 1]))
        t.do("claim WW 2 --using SML")
        t.play("\n".join(lines[cut + 1:six + 1]))
        return t
    return kept(("first_6_with_sml", option), build)


def before_the_repeat_or(change: str | None = None) -> tuple[Table, list[str]]:
    """examples/1801-game.txt up to the end of the last full OR (§13: the OR before the repeat), and
    the repeat OR's lines as the example types them. `change`, a line typed after the last full OR's
    last `run MSP ...` (MSP's turn), before the rest of that OR."""
    lines = example_lines()
    repeat = max(i for i, x in enumerate(lines) if x.startswith("pay MZA"))
    msp = max(i for i, x in enumerate(lines[:repeat]) if x.startswith("run MSP"))

    def build():
        if change is None:
            return Table("\n".join(lines[:repeat]))
        t = Table("\n".join(lines[:msp + 1]))
        t.do(change)
        t.play("\n".join(lines[msp + 1:repeat]))
        return t
    return kept(("before_the_repeat_or", change), build), lines[repeat:]


# --------------------------------------------------------------------- the moves that carry a game on, the books' check

def money_kept(t) -> None:
    """Money is only moved (§3.1: the bank's £54,000 and the remainder cash)."""
    assert sum(t.state.balances.values()) == t.money_at_start


def idle_until(t: Table, done) -> None:
    """Every company withholds £0 and ends its turn, every player passes in a stock round, Ann keeps
    Minor C's place, until `done()`."""
    while not done():
        if t.round().startswith("SR"):
            assert any(t.attempt(f"pass {p}") is None for p in ("Ann", "Ben", "Cy"))
            continue
        corp = t.status()["operating"]
        err = t.attempt(f"withhold {corp} 0")
        if err and "choose" in err:
            t.do("choose Ann normal")
            continue
        assert err is None, err
        t.do(f"done {corp}")


def idle_or(t) -> None:
    """Every company of the OR withholds £0 and ends its turn (Minor C keeps its normal place)."""
    start = t.round()
    while t.round() == start:
        corp = t.state.round["corp"]
        err = t.attempt(f"withhold {corp} 0")
        if err and "choose" in err:
            t.do("choose Ann normal")
            continue
        assert err is None, err
        t.do(f"done {corp}")


def kbs_trainless() -> Table:
    """examples/1801-game.txt in OR 4.1 (Train Phase 3), at LNWR's turn: in SR 4 MZA and BHB
    discarded a 2+2 each to the Open Market (un-rusted: for sale at face, £100, §11.6.3); the
    Locomotive Works offers the 3 (£200) and 3+3 (£225). LNWR (Ben, £260) withholds 80 (340) and
    buys Cy's KBS's only train, its 2+2, for £1 (339; KBS 260 + 1 = 261). KBS lays a tile with a
    £211 terrain fee (50) and runs nothing: £0 withheld, LEFT (3,2) £90 -> (3,1) £80."""
    lines = example_lines()
    t = Table("\n".join(lines[:lines.index("pay BHB 460") + 2]))
    assert t.status()["operating"] == "LNWR" and t.round() == "OR 4.1"
    assert (t.cash()["LNWR"], t.cash()["KBS"], t.cash()["Cy"]) == (260, 260, 1203)
    t.do("withhold LNWR 80", "train LNWR 2+2 --from KBS --price 1", "done LNWR")
    t.do("tile KBS 211", "withhold KBS 0")
    assert (t.cash()["KBS"], t.trains("KBS"), t.cell("KBS"), t.price("KBS")) == (50, [], (3, 1), 80)
    return t


# --------------------------------------------------------------------------- the example played on (engine_bank_1801)

PREFIXES: dict[int, object] = {}   # the example played up to a command's index (shared by the tests)


def played_to(last: str, nth: int = 1) -> tuple[Bank, list[str]]:
    """A game holding the example up to (and with) the nth command `last` (-1: the last one); the
    rest returned. The example is played on the engine once, from the nearest prefix already played."""
    lines = example_lines()
    found = [i for i, x in enumerate(lines) if x == last]
    at = found[nth - 1] if nth > 0 else found[nth]
    start = max((i for i in PREFIXES if i <= at), default=None)
    table = PREFIXES[start].copy() if start is not None else Table()
    table.play("\n".join(lines[(start + 1 if start is not None else 0): at + 1]))
    PREFIXES[at] = table.copy()
    return Bank(table), lines[at + 1:]


def refused_line(bank: Bank, line: str) -> str:
    """The one error line `bank` prints for `line`, which changes nothing."""
    before = bank.status_text()
    result = bank.line(line, ok=False)
    err = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(err) == 1 and err[0].startswith("error: "), result.stderr
    assert bank.status_text() == before
    return err[0]
