"""The 1801 openings the rules tests share, typed as at the table, every figure worked by hand in
the comments from the rulebook (shared/seeds/002_c09d1f5beee78cce.txt "§x") and the digest
(shared/rules/1801.md "D x"):

* MAIN_AUCTION: three players buy every packet item at face in turn from the top row;
* MAIN_CONCESSIONS: the ten concessions float ten minors;
* MAJOR_SR1: SR 1 in which 18 regionals are parred, so the Major railroad phase begins (§8.2, §8.3).
"""

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
