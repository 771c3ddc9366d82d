"""1801 (18OE) opening, played on the engine as typed at the table (table_1801.py): the packet auction, the
concession round and the Regional/Minor-phase stock round, up to the start of the Major phase.

Every number asserted here is worked BY HAND from the rules, never read off the program: the rulebook
shared/seeds/002_c09d1f5beee78cce.txt ("§x", which wins where it states a rule), the digest
shared/rules/1801.md ("D x"; its §0.1 corrections override the rest) and the table grammar of the
implementation (/tmp/1801-spec.md, "spec"), which fixes the numbers the rulebook leaves to the
components (packet rows, concession face £20, home-token costs by zone). The working is in the
comments beside each command.

Packet (spec, top row first): 1 RSC 20, PC 20 | 2 WSB 40, BBBT 40 | 3 SHTC 60, CCTC 60, WCF 60 |
4 HML 80, BB 100, SML 120 | 5 A-F (120) | 6 G H J K L M (120) | 7 C1-C5 (20) | 8 C6-C10 (20).
Private incomes: RSC 5, PC 5, WSB 10, BBBT 10, SHTC 15, CCTC 15, WCF 15, HML 20, BB 25, SML 0.
Home tokens (§9.1 Table 1): UK/PHS £40, FB/AH £20, IT/SP/SND/RU £10.

Three tables:

* GAME M (three players, with concessions): the whole packet auction (bids held back, an all-pass, a
  three-bidder auction on WSB, a chain resolution, a minor bid above £180, a second all-pass with
  income), the ten concessions (order, no pass, compulsory float, open-market par), and SR 1.
* GAME N (two players, no concessions): the packet at face, twelve minors floated (chits, the 4-of-6
  rule, patronage), eighteen regionals floated: the Major phase, removals and the reserve.
* Small tables built inside single tests (the forced £0 take, money held back by bids, starting cash).
"""

from __future__ import annotations

import shlex

import pytest
from engine_bank_1801 import Bank
from positions_1801 import (M_ALLPASS_1, M_ALLPASS_2, M_C1, M_C10, M_C2, M_C3, M_C4_TO_C6, M_C7_TO_C9, M_EMPTY_ROW_1,
                            M_REST, M_ROWS_1_2, M_ROWS_3_4, M_ROW_5, M_S1, M_S2_S3, M_S4_TO_S8, M_S9_TO_S12,
                            M_WSB_AUCTION, N_AUCTION, N_CHITS_12, N_CHITS_4, N_CHITS_6, N_REGIONALS_17, N_REGIONAL_18)
from table_1801 import Table

BANK_TOTAL = 54_000  # §3.1: the bank holds £54,000; starting cash is dealt out of it (D18 #11)


# =========================================================================== driving the table (table_1801.py)

def new_table(players: str, *options: str) -> Table:
    """`bank new 1801 PLAYERS --option ...`. The spec spells the option `no-concessions`; the repository's
    other options use underscores, so `no_concessions` is tried when the spec's spelling is unknown
    (test_no_concessions_option_spelling holds the implementation to the spec's spelling)."""
    t = Table()
    opts = "".join(f" --option {o}" for o in options)
    result = t.bank.line(f"new 1801 {players}{opts}", ok=None)
    if result.exit_code != 0 and "-" in opts:
        t.bank.line(f"new 1801 {players}" + "".join(f" --option {o.replace('-', '_')}" for o in options))
    elif result.exit_code != 0:
        raise AssertionError(f"new 1801 {players}{opts}: {result.stderr}")
    return t


def assert_cash(t: Table, **expected: int) -> None:
    got = t.cash()
    wrong = {k: (got.get(k), v) for k, v in expected.items() if got.get(k) != v}
    assert not wrong, f"(got, expected): {wrong}"


def delta(before: dict, after: dict, key: str) -> int:
    return after[key] - before[key]


# =========================================================================== GAME M: three players
# §3.3: £5,400 / 3 = £1,800 each; the bank 54,000 - 5,400 = 48,600. Seats Ann, Ben, Cy; Ann first.
# Turn passes left after every action (§7).

# End of the auction: Ann 885, Ben 700, Cy 150, bank 50,790. Minors: A B C D E F 120 each (Ben A C E,
# Ann B D F), G 180 (Ben), H K M 115 (Ben), J L 115 (Ann): 720 + 180 + 575 = 1,475.
# 885 + 700 + 150 + 1,475 + 50,790 = 54,000.
# Concessions: Ann C1 C5 C6 C8 C10, Ben C4 C7 C9, Cy C2 C3.


@pytest.fixture(scope="module")
def game_m() -> dict[str, Table]:
    """GAME M played once, saved at each checkpoint; each test works on its own copy."""
    t = new_table("Ann Ben Cy")
    saves: dict[str, Table] = {}

    def save(name: str) -> None:
        saves[name] = t.copy()

    save("start")
    for name, script in [("before_allpass1", M_ROWS_1_2), ("before_row1_empty", M_ALLPASS_1),
                         ("wsb_auction", M_EMPTY_ROW_1), ("row3", M_WSB_AUCTION), ("row5", M_ROWS_3_4),
                         ("before_allpass2", M_ROW_5), ("allpass2", M_ALLPASS_2), ("concessions", M_REST),
                         ("c2", M_C1), ("c3", M_C2), ("c4", M_C3), ("c7", M_C4_TO_C6),
                         ("c10", M_C7_TO_C9), ("sr1", M_C10), ("sr1_cy", M_S1), ("sr1_s9", M_S2_S3 + M_S4_TO_S8),
                         ("sr1_end", M_S9_TO_S12)]:
        t.play(script)
        save(name)
    return saves


def table(saves: dict[str, Table], name: str) -> Table:
    """A copy of the game saved at `name`."""
    return saves[name].copy()


# --------------------------------------------------------------------------- starting cash (§3.3)

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
# §3.3: total / players rounded UP to £5. 5,400: 2 -> 2,700; 3 -> 1,800; 4 -> 1,350; 5 -> 1,080;
# 6 -> 900; 7 -> 771.43 -> 775. 5,200 (no concessions): 2 -> 2,600; 3 -> 1,733.33 -> 1,735; 4 -> 1,300;
# 5 -> 1,040; 6 -> 866.67 -> 870; 7 -> 742.86 -> 745.
STARTING = {2: (2700, 2600), 3: (1800, 1735), 4: (1350, 1300), 5: (1080, 1040), 6: (900, 870), 7: (775, 745)}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
@pytest.mark.parametrize("concessions", [True, False])
def test_starting_cash(n, concessions):
    """§3.3: £5,400 (£5,200 without concessions) split equally, rounded up to £5, dealt from the bank."""
    each = STARTING[n][0 if concessions else 1]
    t = new_table(" ".join(NAMES[:n]), *([] if concessions else ["no-concessions"]))
    s = t.status()
    assert s["title"] == "1801"
    assert [p["name"] for p in s["players"]] == NAMES[:n]
    assert all(p["cash"] == each for p in s["players"]), [p["cash"] for p in s["players"]]
    assert s["bank"] == BANK_TOTAL - n * each  # e.g. 7p: 54,000 - 7 x 775 = 48,575
    assert s["round"] == "Auction"


def test_no_concessions_option_spelling():
    """Spec: `bank new 1801 Ann Ben Cy --option no-concessions` (£5,200 / 3 = 1,733.33 -> £1,735)."""
    b = Bank()
    b(*shlex.split("new 1801 Ann Ben Cy --option no-concessions"))
    assert [p["cash"] for p in b.status()["players"]] == [1735, 1735, 1735]


def test_one_and_eight_players_refused():
    """The game is for 2-7 players (cover; D1)."""
    for players in ("Ann", "Ann Ben Cy Dee Eve Fay Gus Hal"):
        result = Bank()(*shlex.split(f"new 1801 {players}"), ok=False)
        assert result.exit_code != 0


# --------------------------------------------------------------------------- the packet auction (§7)

def test_top_row_buy_pays_the_bank(game_m):
    """§7: an item of the top row is bought at face; a private's price goes to the bank."""
    t = table(game_m, "start")
    t.bank.line("buy Ann RSC")
    assert t.holder("RSC") == "Ann"
    assert_cash(t, Ann=1780, Ben=1800, Cy=1800, bank=48620)  # 1800 - 20; 48,600 + 20
    t.books_balance()


def test_buy_refusals_outside_the_top_row(game_m):
    """§7: only the top row can be bought; the lower rows take bids >= face and >= other bids + £5;
    a private of the top row takes no bid; only the player to act may act."""
    t = table(game_m, "start")
    t.refused("buy Ann WSB")            # row 2 is not the top row
    t.refused("buy Ann A")              # row 5
    t.refused("buy Ann C1")             # row 7
    t.refused("bid Ann WSB 39")         # below face £40
    t.refused("bid Ann A 119")          # below face £120
    t.refused("bid Ann RSC 25")         # a top-row private is bought, not bid for
    t.refused("buy Ben RSC")            # Ann is to act
    t.refused("bid Ben WSB 40")
    t.bank.line("bid Ann WSB 40")
    t.refused("bid Ben WSB 44")         # not 5 above Ann's 40
    t.bank.line("bid Ben WSB 45")
    t.refused("bid Cy WSB 49")          # not 5 above Ben's 45
    t.bank.line("bid Cy WSB 50")


def test_bids_are_held_back(game_m):
    """§7: a bid's cash is set aside: a player's bids never exceed his cash, raising his own bid replaces
    it, and held-back cash cannot pay for a purchase either (D8.2, D18 #15)."""
    t = table(game_m, "start")
    t.play("""
    bid Ann SML 1000         # held 1000 of 1800
    pass Ben
    pass Cy
    bid Ann SML 1700         # replaces the 1000: held 1700 of 1800 (not 2700)
    pass Ben
    pass Cy
    """)
    t.refused("bid Ann BB 101")         # 1700 + 101 = 1801 > 1800
    t.bank.line("bid Ann BB 100")       # 1700 + 100 = 1800: every pound held back
    t.play("""
    pass Ben
    pass Cy
    """)
    t.refused("buy Ann RSC")            # RSC costs 20; Ann has nothing free
    t.refused("bid Ann HML 80")         # and cannot bid either
    t.bank.line("pass Ann")             # Ben, Cy, Ann passed in a row: no private is owned, so no
    assert t.status()["bank"] == 48600  # income; RSC and PC drop to £15
    assert t.holder("SML") is None and t.holder("BB") is None  # bids are not sales


def test_all_pass_pays_income_and_cuts_the_top_row(game_m):
    """§7: when all pass in a row the owned privates pay their owners (RSC £5 to Ann) and the top row
    drops £5 (PC 20 -> 15); the first passer (Ben) acts next."""
    t = table(game_m, "before_allpass1")
    before = t.cash()
    t.bank.line("pass Ann")                                        # T10
    after = t.cash()
    assert delta(before, after, "Ann") == 5                        # RSC's income
    assert delta(before, after, "Ben") == 0 and delta(before, after, "Cy") == 0
    assert after["bank"] == 48615                                  # 48,620 - 5
    t.refused("bid Cy CCTC 60")                                    # Ben (the first passer) acts
    t.refused("buy Ann PC")
    t.bank.line("buy Ben PC")                                      # at 20 - 5 = £15
    assert t.holder("PC") == "Ben"
    # Row 1 is empty. WSB (Cy 40, Ben 45, Ann 50) is auctioned from Ben (left of Ann); Ben and Cy pass:
    # Ann keeps it at her £50. BBBT goes to Ben at 40; row 3 follows: SHTC to Ann at 60 (CCTC and WCF
    # have no bid in this branch).
    t.play("pass Ben\npass Cy")
    s = t.status()
    assert (t.holder("WSB", s), t.holder("BBBT", s), t.holder("SHTC", s)) == ("Ann", "Ben", "Ann")
    # Ann 1785 - 50 - 60 = 1675; Ben 1800 - 15 - 40 = 1745; Cy 1800; bank 48,615 + 15 + 40 + 50 + 60
    assert_cash(t, Ann=1675, Ben=1745, Cy=1800, bank=48780)
    t.books_balance()


def test_multi_bidder_auction_starts_left_of_the_highest_bidder(game_m):
    """§7: when row 1 empties, WSB (bids Cy 40, Ben 45, Ann 50) is auctioned among its bidders only,
    starting with the bidder left of the highest bidder (Ann) -> Ben; raises >= high + 5."""
    t = table(game_m, "wsb_auction")
    assert t.holder("WSB") is None
    t.refused("bid Ann WSB 55")         # Ben opens the auction, not Ann (first seat)
    t.refused("bid Cy WSB 55")          # nor Cy (the player after the buyer of PC)
    t.refused("bid Ben WSB 54")         # below 50 + 5
    t.refused("buy Ann WCF")            # no normal play during the auction
    t.bank.line("bid Ben WSB 55")
    t.refused("bid Ann WSB 60")         # Cy is next in player order
    t.bank.line("pass Cy")
    t.bank.line("bid Ann WSB 60")
    t.refused("bid Cy WSB 65")          # Cy passed: out for good
    t.bank.line("pass Ben")             # Ann is the last bidder left
    assert t.holder("WSB") == "Ann"


def test_single_bids_sold_as_their_row_becomes_the_top(game_m):
    """§7: "When the last item in the topmost row is purchased, any items from the next row that have
    exactly one bid on them are sold at the bid price"; then the auctions are held. So BBBT (Ben's
    one bid of 40) is Ben's while the WSB auction is still running: bank 48,615 + 15 (PC) + 40."""
    t = table(game_m, "wsb_auction")
    assert t.holder("BBBT") == "Ben"
    assert t.cash()["bank"] == 48670


def test_resolution_sells_single_bids_and_chains_to_the_next_row(game_m):
    """§7 / D8.3: after the WSB auction row 2 is empty, so row 3 resolves too: SHTC (Ann's one bid)
    and CCTC (Ben's) are sold at their bids; WCF stays. Losers' bids are released."""
    t = table(game_m, "row3")
    s = t.status()
    assert t.holder("WSB", s) == "Ann" and t.holder("BBBT", s) == "Ben"
    assert t.holder("SHTC", s) == "Ann" and t.holder("CCTC", s) == "Ben"
    assert t.holder("PC", s) == "Cy" and t.holder("RSC", s) == "Ann"
    assert t.holder("WCF", s) is None
    # Ann 1800 - 20 (RSC) + 5 (income) - 60 (WSB) - 60 (SHTC) = 1665; Ben 1800 - 40 - 60 = 1700 (his
    # WSB 55 released); Cy 1800 - 15 = 1785 (his WSB 40 released); bank 48,600 + 20 - 5 + 15 + 40 + 60
    # + 60 + 60 = 48,850.
    assert_cash(t, Ann=1665, Ben=1700, Cy=1785, bank=48850)
    t.books_balance()
    # play resumes with the player after Cy, who emptied row 1: Ann
    t.refused("buy Ben WCF")
    t.refused("bid Ann WCF 65")         # WCF is now in the top row: bought at face, no bid
    t.bank.line("buy Ann WCF")
    assert_cash(t, Ann=1605, bank=48910)


def test_single_bid_above_180_caps_the_minor_treasury(game_m):
    """§7.1: Ben's lone £200 bid on G is paid when row 6 becomes the top: G's treasury gets £180, the
    bank the £20 over; minors bought at face put £120 in their treasury, the bank gets nothing."""
    t = table(game_m, "before_allpass2")
    s = t.status()
    assert t.holder("G", s) == "Ben"
    assert {sym: t.company(sym, s)["cash"] for sym in "ABCDEFG"} == {
        "A": 120, "B": 120, "C": 120, "D": 120, "E": 120, "F": 120, "G": 180}
    # Ben 1620 - 120 (A) - 120 (C) - 120 (E) - 200 (G) = 1060 (no bid of his outstanding); Ann and Cy
    # still have concession bids held back; bank 50,690 + 20 = 50,710 (minor prices go to the minors).
    assert_cash(t, Ben=1060, bank=50710)
    assert t.holder("SML", s) == "Cy"


def test_second_all_pass_pays_every_private(game_m):
    """§7: all privates owned pay: Ann 5 + 10 + 15 + 15 + 25 = 70, Ben 10 + 15 + 20 = 45, Cy 5 + 0 = 5;
    the bank pays 120. H..M drop to £115 and a minor bought at £115 has £115 in its treasury."""
    t0 = table(game_m, "before_allpass2")
    before = t0.cash()
    t = table(game_m, "allpass2")
    after = t.cash()
    assert (delta(before, after, "Ann"), delta(before, after, "Ben"), delta(before, after, "Cy")) == (70, 45, 5)
    assert after["bank"] == 50590                     # 50,710 - 120
    t.refused("buy Ann H")                            # the first passer, Ben, acts
    t.bank.line("buy Ben H")
    assert t.holder("H") == "Ben"
    assert_cash(t, Ben=1105 - 115, H=115, bank=50590)  # 1105 - 115 = 990; no money to the bank


def test_minor_overbid_opens_an_auction_for_all(game_m):
    """§7.1: a bid above face on a minor of the top row starts an auction among ALL players, starting
    left of the bidder; held-back cash counts; the winner's £205 puts £180 in A, £25 in the bank (D17 E9)."""
    t = table(game_m, "row5")
    before = t.cash()
    t.refused("bid Ben A 124")          # an overbid must be >= 120 + 5
    t.bank.line("bid Ben A 150")
    t.refused("bid Ann A 160")          # Cy, left of Ben, bids first
    t.refused("bid Cy A 170")           # Cy: 185 cash, 20 held for C2: 165 free
    t.refused("bid Cy A 154")           # below 150 + 5
    t.bank.line("bid Cy A 155")
    t.bank.line("bid Ann A 200")
    t.bank.line("bid Ben A 205")
    t.bank.line("pass Cy")
    t.bank.line("pass Ann")             # Ben is the last one left: he pays his £205
    after = t.cash()
    assert t.holder("A") == "Ben"
    assert after["A"] == 180                                    # capped at £180
    assert delta(before, after, "bank") == 25                   # 205 - 180
    assert delta(before, after, "Ben") == -205
    assert delta(before, after, "Ann") == 0 and delta(before, after, "Cy") == 0


def test_minor_overbid_nobody_raises(game_m):
    """§7.1: Ben bids £190 on A in the top row; Cy and Ann pass: Ben pays 190, A's treasury gets £180
    and the bank £10. The overbid was Ben's action, so Cy (left of Ben) acts next (§7)."""
    t = table(game_m, "row5")
    before = t.cash()
    t.play("bid Ben A 190\npass Cy\npass Ann")
    after = t.cash()
    assert t.holder("A") == "Ben"
    assert (after["A"], delta(before, after, "bank"), delta(before, after, "Ben")) == (180, 10, -190)
    t.refused("buy Ben B")
    t.refused("buy Ann B")
    t.bank.line("pass Cy")


def test_overbid_on_a_cut_minor(game_m):
    """§7, §7.1: after the all-pass H..M cost £115; an overbid must be at least 115 + 5 = 120. Ben's
    £120 wins when the others pass: H's treasury £120, nothing to the bank."""
    t = table(game_m, "allpass2")
    t.refused("bid Ben H 119")
    before = t.cash()
    t.play("bid Ben H 120\npass Cy\npass Ann")
    after = t.cash()
    assert t.holder("H") == "Ben"
    assert (after["H"], delta(before, after, "bank"), delta(before, after, "Ben")) == (120, 0, -120)


def test_two_auctions_left_to_right_with_money_held_back(game_m):
    """§7: row 2 has two items with several bids each: WSB (Ann 40, Ben 45) then BBBT (Cy 40, Ann 45),
    auctioned left to right among their own bidders, each from the bidder left of its highest bidder.
    Ann's other bid (SML 1700) stays held back and limits her raises and her purchases."""
    t = table(game_m, "start")
    t.play("""
    bid Ann WSB 40           # T1
    bid Ben WSB 45           # T2
    bid Cy BBBT 40           # T3
    bid Ann BBBT 45          # T4
    buy Ben RSC              # T5 £20: Ben 1780
    pass Cy                  # T6
    bid Ann SML 1700         # T7 Ann holds back 40 + 45 + 1700 = 1785 of 1800
    pass Ben                 # T8
    buy Cy PC                # T9 £20: Cy 1780; row 1 empty
    """)
    # WSB: bidders Ann, Ben; highest Ben; the bidder left of Ben is Ann (Cy did not bid on WSB)
    t.refused("bid Cy WSB 50")                        # not a bidder on WSB
    t.refused("bid Ben WSB 50")                       # Ann opens
    t.refused("bid Ann WSB 60")                       # 60 + 45 + 1700 = 1805 > 1800
    t.bank.line("bid Ann WSB 55")                     # 55 + 45 + 1700 = 1800
    t.bank.line("pass Ben")                           # Ann buys WSB at 55: Ann 1745
    assert t.holder("WSB") == "Ann"
    # BBBT: bidders Cy, Ann; highest Ann; left of Ann is Cy (Ben did not bid)
    t.refused("bid Ann BBBT 50")
    t.bank.line("bid Cy BBBT 50")
    t.refused("bid Ann BBBT 55")                      # Ann: 1745 cash, 1700 held for SML: 45 free
    t.bank.line("pass Ann")                           # Cy buys BBBT at 50: Cy 1730
    assert t.holder("BBBT") == "Cy"
    # Ann 1800 - 55 = 1745 (SML's 1700 still held); Ben 1780; Cy 1800 - 20 - 50 = 1730;
    # bank 48,600 + 20 + 20 + 55 + 50 = 48,745
    assert_cash(t, Ann=1745, Ben=1780, Cy=1730, bank=48745)
    t.books_balance()
    # row 3 (no bids) is the top; play resumes left of Cy, who emptied row 1: Ann, with 45 free
    t.refused("buy Ben SHTC")
    t.refused("buy Ann SHTC")                         # 60 > 45 free
    t.bank.line("pass Ann")


def test_forced_take_of_the_zero_item_only():
    """§7 / D8.4 (4): row 4 is HML 80, BB 100, SML 120. Sixteen all-pass cycles take HML to £0 (BB 20,
    SML 40); the next player (Ben, the first passer) must take HML for nothing; BB and SML stay.
    Each cycle pays Ann RSC 5 + BBBT 10 + WCF 15 = 30, Ben PC 5 + SHTC 15 = 20, Cy WSB 10 + CCTC 15 = 25."""
    t = new_table("Ann Ben Cy")
    t.play("""
    buy Ann RSC              # 20
    buy Ben PC               # 20
    buy Cy WSB               # 40
    buy Ann BBBT             # 40
    buy Ben SHTC             # 60
    buy Cy CCTC              # 60
    buy Ann WCF              # 60: row 4 is the top; Ben acts
    """)
    for _ in range(16):
        t.play("pass Ben\npass Cy\npass Ann")
    s = t.status()
    assert t.holder("HML", s) == "Ben"
    assert t.holder("BB", s) is None and t.holder("SML", s) is None
    # Ann 1800 - 120 + 16 x 30 = 2160; Ben 1800 - 80 + 16 x 20 = 2040; Cy 1800 - 100 + 16 x 25 = 2100;
    # bank 48,600 + 300 - 16 x 75 = 47,700
    assert_cash(t, Ann=2160, Ben=2040, Cy=2100, bank=47700)
    t.books_balance()
    # BB now costs 100 - 80 = 20: Cy buys it (the take was Ben's turn: "taken by the next player to
    # have a turn")
    t.bank.line("buy Cy BB")
    assert_cash(t, Cy=2080, bank=47720)


def test_forced_take_at_zero():
    """§7 / D17 E21: four all-pass cycles take RSC and PC from £20 to £0; the next player (Ann, the first
    passer) takes both for nothing. Then row 2 (WSB, BBBT) is the top at full face; the next all-pass
    pays Ann RSC 5 + PC 5 = 10."""
    t = new_table("Ann Ben Cy")
    for _ in range(4):                  # 20 -> 15 -> 10 -> 5 -> 0; no private owned: no income
        t.play("pass Ann\npass Ben\npass Cy")
    s = t.status()
    assert t.holder("RSC", s) == "Ann" and t.holder("PC", s) == "Ann"
    assert_cash(t, Ann=1800, Ben=1800, Cy=1800, bank=48600)
    # Ann's take emptied row 1: play resumes with Ben; WSB costs its full £40
    t.play("pass Ben\npass Cy\npass Ann")
    assert_cash(t, Ann=1810, Ben=1800, Cy=1800, bank=48590)    # Ann + 5 + 5; bank - 10
    t.bank.line("buy Ben WSB")                                  # resume with the first passer, Ben: at 40 - 5
    assert_cash(t, Ben=1765, bank=48625)                        # 1800 - 35; 48,590 + 35
    t.books_balance()


def test_auction_end_state(game_m):
    """The whole packet sold: cash, minors' treasuries and the bank worked out line by line above."""
    t = table(game_m, "concessions")
    s = t.status()
    assert s["round"] == "Concessions"
    assert_cash(t, Ann=885, Ben=700, Cy=150, bank=50790,
                A=120, B=120, C=120, D=120, E=120, F=120, G=180, H=115, J=115, K=115, L=115, M=115)
    t.books_balance()
    owners = {sym: t.holder(sym, s) for sym in ["B", "D", "F", "J", "L", "A", "C", "E", "G", "H", "K", "M"]}
    assert owners == {"B": "Ann", "D": "Ann", "F": "Ann", "J": "Ann", "L": "Ann", "A": "Ben", "C": "Ben",
                      "E": "Ben", "G": "Ben", "H": "Ben", "K": "Ben", "M": "Ben"}
    conc = {f"C{i}": t.holder(f"C{i}", s) for i in range(1, 11)}
    assert conc == {"C1": "Ann", "C2": "Cy", "C3": "Cy", "C4": "Ben", "C5": "Ann", "C6": "Ann",
                    "C7": "Ben", "C8": "Ann", "C9": "Ben", "C10": "Ann"}


# --------------------------------------------------------------------------- concessions (§8.1)

def test_concessions_go_by_number_and_cannot_pass(game_m):
    """§8.1: concessions execute in number order (C1 is Ann's, whatever the seats), nobody passes, and a
    player who can float cannot par to the Open Market. Floating B in the UK: B pays £40."""
    t = table(game_m, "concessions")
    t.refused("float Ben A UK")                       # C1 is Ann's
    t.refused("par Cy MZA 60")                        # C2 comes after C1
    t.refused("pass Ann")                             # no pass in the Concession phase
    t.refused("par Ann GWR 60 --open-market")         # Ann can float: no open-market par
    t.refused("float Ann A UK")                       # A is Ben's
    t.refused("buy Ann RSC")                          # the auction is over
    t.bank.line("float Ann B UK")
    assert_cash(t, Ann=885, B=80, bank=50830)         # 120 - 40; 50,790 + 40
    assert t.company("B")["floated"] is True
    t.refused("float Ann D UK")                       # C2 is Cy's: Ann waits


def test_concession_float_of_a_regional_is_compulsory(game_m):
    """§8.1: Cy has no minor and £150 >= 2 x £60, so he must float a regional: not pass, not par to the
    Open Market, not above what he can pay (2 x 90 = 180 > 150). 2 x 70 into MZA, which pays £10 (SP)."""
    t = table(game_m, "c2")
    t.refused("pass Cy")
    t.refused("par Cy MZA 70 --open-market")
    t.refused("par Cy MZA 90")
    t.refused("par Cy MZA 85")                        # not a regional par (60 65 70 75 80 90)
    t.refused("float Cy A IT")                        # not his minor
    t.bank.line("par Cy MZA 70")
    st = t.status()
    mza = t.company("MZA", st)
    assert mza["president"] == "Cy" and mza["floated"] is True
    assert next(p for p in st["players"] if p["name"] == "Cy")["shares"].get("MZA") == 50
    assert_cash(t, Cy=10, MZA=130, bank=50840)        # 150 - 140; 140 - 10; 50,830 + 10
    t.books_balance()


def test_concession_par_to_the_open_market(game_m):
    """§8.1: Cy (£10) can float neither a minor nor a regional (2 x 60 = 120): he pars SFAI and its
    president's certificate goes to the Open Market; no money moves."""
    t = table(game_m, "c3")
    t.refused("par Cy SFAI 60")                       # 120 > 10
    t.refused("pass Cy")
    before = t.cash()
    t.bank.line("par Cy SFAI 65 --open-market")
    after = t.cash()
    assert after == before                            # no money moves
    sfai = t.company("SFAI")
    assert sfai["floated"] is False and not sfai["president"]
    assert sfai.get("pool") == 50                    # the 50 % certificate waits in the Open Market
    assert t.holder("SFAI") is None


def test_concession_actions_are_limited(game_m):
    """§8.1: a concession floats a minor, floats a regional or pars one; nothing else (no buying the
    parred SFAI, no removing a regional) until the Regional/Minor phase."""
    t = table(game_m, "c4")
    t.refused("buy Ben SFAI")
    t.refused("remove Ben GSWR")
    t.refused("pass Ben")
    t.refused("par Ben KBS 60 --open-market")         # Ben can float


def test_concession_patronage_and_home_tokens(game_m):
    """§9.1: C4 A in the UK (£40), C5 D in PHS (£40) with a patronage tile paying £30, C6 F in FB (£20)."""
    t = table(game_m, "c7")
    assert_cash(t, A=80, D=110, F=100, bank=50910, Ann=885, Ben=700, Cy=10)
    # A 120 - 40; D 120 - 40 + 30; F 120 - 20; bank 50,840 + 40 + 40 - 30 + 20 = 50,910
    t.books_balance()


def test_only_four_of_the_six_asterisked_chits(game_m):
    """§9.1 Table 1 *: UK, UK, PHS, FB have been taken: the 4th removes the remaining PHS and FB chits.
    Ben's C7 must use another zone: C in AH pays £20."""
    t = table(game_m, "c7")
    t.refused("float Ben C PHS")
    t.refused("float Ben C FB")
    t.refused("float Ben C UK")                       # both UK chits used anyway
    t.refused("float Ben C XX")                       # no such zone
    t.bank.line("float Ben C AH")
    assert_cash(t, C=100, bank=50930)                 # 120 - 20; 50,910 + 20


def test_a_zone_has_two_chits(game_m):
    """§9.1 Table 1: two chits per zone: J and E took both IT chits, so L cannot float in IT. Ann floats
    GWR instead (a regional is always allowed): 2 x 90 from Ann, £40 UK home token."""
    t = table(game_m, "c10")
    assert_cash(t, J=105, E=110, C=100, bank=50950)   # 115 - 10; 120 - 10; 50,930 + 10 + 10
    t.refused("float Ann L IT")
    t.bank.line("par Ann GWR 90")
    assert_cash(t, Ann=705, GWR=140, bank=50990)      # 885 - 180; 180 - 40; 50,950 + 40
    assert t.round() == "SR 1"


# --------------------------------------------------------------------------- SR 1 (§8.2)

def test_sr1_starts_after_the_last_auction_actor(game_m):
    """Spec / D18 #16: SR 1 starts with the player left of the last auction action (Ann's T49): Ben.
    The state after the ten concessions (worked line by line above)."""
    t = table(game_m, "sr1")
    assert t.round() == "SR 1"
    assert_cash(t, Ann=705, Ben=700, Cy=10, bank=50990, A=80, B=80, C=100, D=110, E=110, F=100, J=105,
                G=180, H=115, K=115, L=115, M=115, MZA=130, GWR=140)
    t.books_balance()
    t.refused("float Ann L RU")                       # Ben acts first
    t.refused("pass Cy")


def test_sr1_refusals(game_m):
    """§8.2, §10.1, §8.3: Ben owns unfloated minors, so he may not pass; no 25 % before the Major phase;
    no selling in Train Phase 1; no trades; a parred or floated regional cannot be removed or parred."""
    t = table(game_m, "sr1")
    t.refused("pass Ben")                             # G, H, K, M unfloated
    t.refused("buy Ben MZA")                          # a 25 % of MZA: not before the Major phase
    t.refused("buy Ben GWR")
    t.refused("sell Ben MZA 1")                       # no selling in Train Phase 1 (he owns none, too)
    t.refused("trade Ben L 150")                      # trades only in the Major phase
    t.refused("remove Ben SFAI")                      # parred
    t.refused("remove Ben MZA")                       # floated
    t.refused("par Ben SFAI 60")                      # parred: it is bought, not parred again
    t.refused("par Ben GWR 60")                       # floated
    t.refused("float Ben L SP")                       # Ann's minor
    t.refused("float Ben G IT")                       # both IT chits gone
    t.bank.line("float Ben G SP")
    assert_cash(t, G=170, bank=51000)                 # 180 - 10; 50,990 + 10


def test_sr1_one_action_a_turn(game_m):
    """§8.2: one stock action a turn: after floating G, Ben waits for Cy and Ann."""
    t = table(game_m, "sr1_cy")
    t.refused("float Ben H SND")
    t.refused("float Ann L RU")                       # Cy is to act


def test_sr1_no_pass_with_an_unfloated_minor_after_another_players_action(game_m):
    """§8.2: "Pass ... may not be selected if the player owns any un-floated minors" - whatever the
    player before him did. After Ann buys SFAI, Ben (H, K, M unfloated) may not pass; in the 2-player
    game, after Ann's 18th regional, Ben (M unfloated) may not pass either."""
    t = table(game_m, "sr1_cy")
    t.play("pass Cy\nbuy Ann SFAI")
    t.refused("pass Ben")


def test_sr1_buying_a_parred_presidency(game_m):
    """§8.2, D10.3: the parred SFAI's presidency costs 2 x 65 = 130 paid into SFAI, which pays its IT
    home token £10 and floats. Cy (£10) cannot afford it; Cy has no minor and may pass."""
    t = table(game_m, "sr1_cy")
    t.refused("buy Cy SFAI")                          # 10 < 130
    t.refused("sell Cy MZA 1")                        # regional shares never sell; TP 1 neither
    t.bank.line("pass Cy")
    t.refused("par Ann SFAI 90")                      # its par is fixed: buy it
    t.bank.line("buy Ann SFAI")
    sfai = t.company("SFAI")
    assert sfai["president"] == "Ann" and sfai["floated"] is True
    assert_cash(t, Ann=575, SFAI=120, Cy=10, bank=51010)   # 705 - 130; 130 - 10; 51,000 + 10
    st = t.status()
    ann = next(p for p in st["players"] if p["name"] == "Ann")
    assert ann["shares"].get("SFAI") == 50            # the president's 50 %, out of the Open Market
    assert not t.company("SFAI", st).get("pool")
    t.books_balance()


def test_sr1_removals_from_different_zones(game_m):
    """§8.2: Ann removed GSWR (UK); a second UK regional cannot go, nor a floated one; BHB (PHS) can,
    and a removed regional cannot then be floated."""
    t = table(game_m, "sr1_s9")
    t.refused("remove Ann LNWR")                      # UK again
    t.refused("remove Ann GWR")                       # floated
    t.refused("remove Ann SFAI")                      # floated
    t.refused("par Ann GSWR 60")                      # removed
    before = t.cash()
    t.bank.line("remove Ann BHB")
    assert t.cash() == before                         # removing costs nothing
    t.refused("par Ben BHB 60")                       # removed
    t.bank.line("float Ben M RU --patronage 20")
    assert_cash(t, M=125, bank=51020)                 # 115 - 10 + 20; 51,030 + 10 - 20


def test_sr1_all_minors_floated_then_all_pass(game_m):
    """§8: the SR of Train Phase 1 ends once all minors have floated and everyone passes in a row; the
    first OR follows and opens with private income (§6.1)."""
    t = table(game_m, "sr1_end")
    assert_cash(t, Ann=575, Ben=700, Cy=10, bank=51030,
                A=80, B=80, C=100, D=110, E=110, F=100, G=170, H=105, J=105, K=105, L=105, M=125,
                MZA=130, GWR=140, SFAI=120)
    t.books_balance()
    assert all(t.company(sym)["floated"] for sym in "ABCDEFGHJKLM")
    t.play("pass Ben\npass Cy\npass Ann")             # S12 was Ann's: Ben, Cy, Ann pass
    assert t.round().startswith("OR 1")
    c = t.cash()
    # OR start: Ann RSC 5 + WSB 10 + SHTC 15 + WCF 15 + BB 25 = 70; Ben BBBT 10 + CCTC 15 + HML 20 = 45;
    # Cy PC 5 + SML 0 = 5
    assert (c["Ann"], c["Ben"], c["Cy"]) == (575 + 70, 700 + 45, 10 + 5)


def test_sr1_ending_a_turn_is_not_a_pass(game_m):
    """§8 / §10.7: the SR ends when all players pass consecutively. Ann floated L on her turn (S12); if the
    program lets her close that turn with `pass Ann`, it is not a pass of a turn: after Ben and Cy
    pass, Ann must still pass once more before OR 1.1."""
    t = table(game_m, "sr1_end")
    t.bank.line("pass Ann", ok=None)                 # spec: the turn passed already; either way
    t.play("pass Ben\npass Cy")
    assert t.round() == "SR 1"
    t.bank.line("pass Ann")
    assert t.round().startswith("OR 1")


def test_sr1_pass_before_all_minors_float_does_not_end_it(game_m):
    """§8: the SR cannot end while minors are unfloated: Ann owns L, so she cannot pass."""
    t = table(game_m, "sr1_s9")
    t.refused("pass Ann")                             # L unfloated
    assert t.round() == "SR 1"


# =========================================================================== GAME N: two players
# No concessions (§3.3): £5,200 / 2 = £2,600 each; bank 54,000 - 5,200 = 48,800. Ann, Ben alternate.



@pytest.fixture(scope="module")
def game_n() -> dict[str, Table]:
    t = new_table("Ann Ben", "no-concessions")
    saves: dict[str, Table] = {}

    def save(name: str) -> None:
        saves[name] = t.copy()

    save("start")
    for name, script in [("sr1", N_AUCTION), ("chits4", N_CHITS_4), ("chits6", N_CHITS_6),
                         ("minors", N_CHITS_12), ("regionals17", N_REGIONALS_17), ("major", N_REGIONAL_18)]:
        t.play(script)
        save(name)
    return saves


def test_no_concessions_goes_straight_to_sr1(game_n):
    """§8 developer's note: without concessions the packet has no rows 7-8 and the first SR follows the
    auction at once, starting left of the last buyer (Ben): Ann."""
    t = table(game_n, "sr1")
    assert t.round() == "SR 1"
    assert_cash(t, Ann=1600, Ben=1560, bank=49400,
                A=120, B=120, C=120, D=120, E=120, F=120, G=120, H=120, J=120, K=120, L=120, M=120)
    t.books_balance()
    t.refused("float Ben B UK")                       # Ann acts first
    t.refused("pass Ann")                             # Ann owns unfloated minors
    t.refused("buy Ann C1")                           # no concessions in this game


def test_home_token_costs_by_zone(game_n):
    """§9.1 Table 1: UK and PHS £40, FB and AH £20 (paid from the minor's treasury to the bank)."""
    t = table(game_n, "chits6")
    assert_cash(t, A=80, B=80, C=80, D=100, E=100, F=100, Ann=1600, Ben=1560,
                bank=49400 + 40 + 40 + 40 + 20 + 20 + 20)    # 49,580
    t.books_balance()


def test_asterisked_chits_closed_after_the_fourth(game_n):
    """§9.1 *: UK, UK, PHS, FB taken: PHS and FB have one chit each left on paper, but they are removed."""
    t = table(game_n, "chits4")
    t.refused("float Ann E PHS")
    t.refused("float Ann E FB")
    t.refused("float Ann E UK")
    t.refused("float Ann B AH")                       # B is Ben's
    t.bank.line("float Ann E RU")                     # £10
    assert_cash(t, E=110)


def test_two_chits_per_zone_and_patronage(game_n):
    """§9.1: both AH chits are gone; G floats in IT (£10) on a patronage city paying £40 (its lowest
    amount): G 120 - 10 + 40 = 150, the bank 49,580 + 10 - 40 = 49,550."""
    t = table(game_n, "chits6")
    t.refused("float Ann G AH")
    t.bank.line("float Ann G IT --patronage 40")
    assert_cash(t, G=150, bank=49550)


def test_all_minors_floated(game_n):
    """Twelve minors floated (sums worked above): bank 49,600."""
    t = table(game_n, "minors")
    assert_cash(t, Ann=1600, Ben=1560, bank=49600, G=150, H=110, J=110, K=110, L=110, M=110)
    t.books_balance()
    assert all(t.company(sym)["floated"] for sym in "ABCDEFGHJKLM")


def test_floating_regionals_at_twice_par(game_n):
    """§9.2: the president pays 2 x par into the treasury and the regional pays its home token; the
    secondaries stay in the treasury."""
    t = table(game_n, "minors")
    t.refused("par Ann GWR 55")                       # not a regional par
    t.refused("par Ann GWR 100")
    t.bank.line("par Ann GWR 90")
    gwr = t.company("GWR")
    assert gwr["president"] == "Ann" and gwr["floated"] is True
    assert_cash(t, Ann=1420, GWR=140, bank=49640)     # 1600 - 180; 180 - 40; 49,600 + 40
    t.refused("par Ben GWR 60")                       # floated already
    t.bank.line("par Ben SFR 65")
    assert_cash(t, Ben=1430, SFR=120, bank=49650)     # 1560 - 130; 130 - 10; + 10


def test_six_removals_from_six_zones(game_n):
    """§8.2: at most six regionals removed, each from a different zone; the 7th is refused."""
    t = table(game_n, "minors")
    t.bank.line("remove Ann GWR")                     # UK
    t.refused("remove Ben LNWR")                      # UK again
    t.play("""
    remove Ben BHB           # PHS
    remove Ann PLM           # FB
    remove Ben SB            # AH
    remove Ann SFAI          # IT
    remove Ben MZA           # SP
    """)
    t.refused("remove Ann BJV")                       # a 7th (SND) would leave 17
    t.refused("par Ann MZA 60")                       # removed
    assert_cash(t, Ann=1600, Ben=1560, bank=49600)    # removals are free


def test_reserve_only_once(game_n):
    """§8.4: each player reserves one regional's secondaries, once; it cannot be moved. Reserving is
    free."""
    t = table(game_n, "regionals17")
    t.refused("reserve Ben MZA")                      # Ben reserved SFAI already
    t.refused("reserve Ben SFAI")                     # nor again
    t.refused("reserve Ben NOPE")


def test_seventeen_regionals_is_not_yet_the_major_phase(game_n):
    """§8.2: 17 regionals floated: no 25 % certificate may be bought yet; the worked cash."""
    t = table(game_n, "regionals17")
    # Ann paid 180 + 150 + 140 + 120 x 6 = 1190: 410; Ben 120 + 130 + 160 + 120 x 5 = 1010: 550
    # bank 49,600 + Ann's tokens 200 + Ben's so far 40 + 20 + 10 + 10 + 40 + 20 + 10 + 10 = 160: 49,960
    assert_cash(t, Ann=410, Ben=550, bank=49960, GWR=140, BHB=80, PLM=130, SB=110, SFAI=130, MZA=150,
                POB=80, MKV=110)
    t.books_balance()
    t.refused("buy Ben GWR")
    t.refused("buy Ben POB")


def test_major_phase_begins_with_the_18th_regional(game_n):
    """§8.2/§8.3: with 12 minors and the 18th regional floated the Major phase begins at once, in the
    SR; the six unfloated regionals are removed; a 25 % is bought from the treasury at regional par,
    paid to the regional; Ben's reserve of SFAI blocks Ann until SR 2 (§8.4)."""
    t = table(game_n, "major")
    assert_cash(t, Ann=410, Ben=430, bank=49970, WW=110)   # Ben 550 - 120; WW 120 - 10; bank + 10
    t.books_balance()
    for sym in ("GSWR", "KSS", "BEL", "MIDI", "RCP", "LRZD"):
        t.refused(f"par Ann {sym} 60")                # removed when the 18th floated
    t.refused("buy Ann SFAI")                         # reserved by Ben until SR 2
    t.bank.line("buy Ann MZA")                        # Ann's stock action: a 25 % of MZA at par 80
    assert_cash(t, Ann=330, MZA=230, bank=49970)      # 410 - 80; 150 + 80; the bank is not paid
    t.bank.line("buy Ben SFAI")                       # Ben's own reserve: a 25 % at 70
    assert_cash(t, Ben=360, SFAI=200)                 # 430 - 70; 130 + 70
    t.books_balance()


def test_major_phase_buys_a_second_secondary_and_never_sells(game_n):
    """§8.3/§10.1: in the Major phase Ann buys GWR's 25 % at 90 (her own regional); regional shares are
    never sold."""
    t = table(game_n, "major")
    t.bank.line("buy Ann GWR")
    assert_cash(t, Ann=320, GWR=230)                  # 410 - 90; 140 + 90
    t.bank.line("buy Ben GWR")                        # the other 25 %
    assert_cash(t, Ben=340, GWR=320)                  # 430 - 90; 230 + 90
    t.refused("sell Ann GWR 1")                       # Ann's turn: a regional share is never sold (§10.1)
    t.refused("sell Ann GWR 2")
    t.books_balance()


def test_reserved_secondaries_block_others(game_n):
    """§8.4: once a secondary of MZA is bought, MZA cannot be reserved; Ann reserves GWR (free: her turn
    goes on), buys it herself, and Ben cannot buy the other GWR secondary in SR 1."""
    t = table(game_n, "major")
    t.play("buy Ann MZA\nbuy Ben SFAI")             # Ann 330, Ben 360 (see above)
    t.refused("reserve Ann MZA")                      # one MZA secondary already bought
    before = t.cash()
    t.bank.line("reserve Ann GWR")
    assert t.cash() == before                         # reserving is free
    t.bank.line("buy Ann GWR")                        # still Ann's turn: 330 - 90 = 240; GWR 140 + 90 = 230
    assert_cash(t, Ann=240, GWR=230)
    t.refused("buy Ben GWR")                          # reserved for Ann until SR 2
    t.refused("reserve Ann PLM")                      # once per player


def test_trades_allowed_in_the_major_phase(game_n):
    """Spec / §10.4: in the Major phase a player buys a minor from its holder with personal cash; the
    minor keeps its treasury. Ann pays Ben £50 for B (B's £80 stays with B)."""
    t = table(game_n, "regionals17")
    t.refused("trade Ben A 50")                       # not yet the Major phase
    t.bank.line("par Ben WW 60")
    t.bank.line("trade Ann B 50")
    assert t.holder("B") == "Ann"
    assert_cash(t, Ann=360, Ben=480, B=80, bank=49970)   # 410 - 50; 430 + 50
    t.books_balance()


N_ELEVEN_MINORS_18_REGIONALS = """
float Ann G IT           # 120 - 10 = 110 (no patronage here)
float Ben H IT
float Ann J SP
float Ben K SP
float Ann L SND          # eleven minors; Ben keeps M unfloated
par Ben GWR 60           # every regional at par 60: 120 from its president
par Ann LNWR 60
par Ben BHB 60
par Ann KBS 60
par Ben PLM 60
par Ann OU 60
par Ben SB 60
par Ann MAV 60
par Ben SFAI 60
par Ann SFR 60
par Ben MZA 60
par Ann CHN 60
par Ben BJV 60
par Ann DSJ 60
par Ben MSP 60
par Ann MKV 60
par Ben WW 60
par Ann LRZD 60          # the 18th regional
"""
# Ann 1600 - 9 x 120 = 520; Ben 1560 - 9 x 120 = 480. GWR 120 - 40 = 80, LRZD 120 - 10 = 110.


def test_eighteenth_regional_removes_the_others(game_n):
    """§8.2: "The six remaining un-floated regionals are removed from play when the 18th regional is
    floated" (24 regionals, at most 18 float), even while a minor (M) is still unfloated."""
    t = table(game_n, "chits6")
    t.play(N_ELEVEN_MINORS_18_REGIONALS)
    assert_cash(t, Ann=520, Ben=480, GWR=80, LRZD=110, G=110)
    t.books_balance()
    for sym in ("GSWR", "POB", "KSS", "BEL", "MIDI", "RCP"):
        t.refused(f"par Ben {sym} 60")


def test_major_phase_waits_for_the_twelfth_minor(game_n):
    """§8.2: the Major phase needs all 12 minors AND 18 regionals: with M unfloated, 25 % certificates
    stay shut; when M floats they open at once (in the same SR)."""
    t = table(game_n, "chits6")
    t.play(N_ELEVEN_MINORS_18_REGIONALS)
    t.refused("buy Ben LNWR")                         # M unfloated: still the Regional/Minor phase
    t.bank.line("float Ben M RU")                     # M 120 - 10 = 110: all 12 minors -> Major phase
    t.bank.line("buy Ann GWR")                        # a 25 % at par 60 into GWR
    assert_cash(t, Ann=460, GWR=140, M=110)           # 520 - 60; 80 + 60
    t.books_balance()
