"""Cie du Val de Loire (RULES §10.2, digest D3.3, A13, A15, A27; rulesets/1843/val_de_loire.py): the exchange
for an IPO share or a director's half as the turn's purchase, in a stock round and in an OR; the
conversion into a "2" train (5-6 players) and its limits; the Engineers, whose obsolete train runs once
more and is never sold between companies.
The digest's worked cases E20, E21 (shared/rules/1843.md §12) among them: where a case's exact position cannot be
reached quickly with the table's commands, its test reaches an equivalent one and says so.
Figures are worked by hand from the rule each test cites (seed 000, the June 2016 LyX; section numbers of
seed 001; digest /work/shared/rules/1843.md); openings and readers: openings_1843.py.
"""

from __future__ import annotations

from openings_1843 import (FORCE, OU_EMERGENCY, P4, P5, bank_cash, cash, cell, certs, certs_held, chain, closed,
                           corp_now, end_sr, first_blue, green_after_set_one, idle, opened, owner, pct, pending_corps,
                           phase, play_or, pool_sides, president, refused, round_kind, standard_auction, supply_left,
                           table as game, to_turn, train_sides, turns, until_turn)


# --------------------------------------------------------------------------- the exchange (§10.2, A13)

def test_vdl_exchange_is_the_turns_purchase():
    """§10.2, A13: exchanging VDL for an IPO share is the turn's one purchase."""
    g = opened()
    to_turn(g, "P1")
    g.do("par P1 MID 67")
    to_turn(g, "P1")
    g.do("exchange P1 VDL MID")
    assert closed(g, "VDL") and pct(g, "P1", "MID") == 30
    refused(g, "buy P1 MID")


def test_vdl_exchange_in_an_or_floats_a_company_that_operates_from_the_next_or():
    """§10.2: VDL "at any time during an operating round, may be exchanged for any 10% share from the
    IPO"; §7.4: floated at 40 % left in the IPO (capital 10 x par at once) and operating in "future"
    ORs (A13, A25). MID (par 67) at 50 % in the IPO; during PLM's turn P1 exchanges VDL for a MID share."""
    g = opened()
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P2 MID", "buy P3 MID",
          "buy P4 PLM", "buy P1 PLM", "buy P2 PLM", "buy P3 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM" and not g.state.corps["MID"].floated
    g.do("exchange P1 VDL MID")
    assert g.state.corps["MID"].floated and cash(g, "MID") == 670
    assert pct(g, "P1", "MID") == 20 and closed(g, "VDL")
    g.do("withhold PLM 0", "done PLM --no-route")
    assert round_kind(g) == "stock", "MID first operates in the next OR"


def test_val_de_loire_is_not_exchanged_for_a_company_sold_this_round():
    """A13: the exchange is the turn's purchase, so "a player who sold ... cannot buy that company again in
    this SR" holds; a director half takes a par open in the phase (yellow: 67, 73, 79) and costs 1 x par.
    SR 2 of a game where P1 holds 10 % of MID (par 67): P1 sells it, then VDL for MID is refused; VDL for
    EST at 86 (green) is refused; at 67 P1 pays 67 (428 -> 361) and holds EST's 20 %."""
    g = game()
    standard_auction(g, plm_par=67)
    turns(g, "par P4 MID 67", "buy P1 MID", "buy P2 MID", "buy P3 MID", "buy P4 MID")
    end_sr(g)
    play_or(g)
    to_turn(g, "P1")
    assert cash(g, "P1") == 428
    sold = g.copy()
    sold.do("sell P1 MID 1")
    refused(sold, "exchange P1 VDL MID", match="sold MID")
    refused(g, "exchange P1 VDL EST --par 86", match="green par")
    g.do("exchange P1 VDL EST --par 67")
    assert cash(g, "P1") == 361 and pct(g, "P1", "EST") == 20 and closed(g, "VDL")


# --------------------------------------------------------------------------- made a "2" train (§10.2, A15)

def test_no_company_buys_a_private_in_yellow_with_five_players_except_vdl():
    """§8.3, §10.1: in yellow only VDL, 5-6 players, for exactly face (110)."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM"
    refused(g, "buy-private PLM VDL 111", match="110")
    refused(g, "buy-private PLM CEI 20")
    g.do("buy-private PLM VDL 110")       # bought, not converted (A15: optional)
    assert owner(g, "VDL") == "PLM" and not closed(g, "VDL") and not closed(g, "LM")


def test_vdl_conversion_in_green_at_any_price_and_never_from_blue():
    """§10.2: from yellow until the first blue train a company may buy VDL and make it a "2" train
    (5-6 players), in green within the normal 1fr-220fr; from blue it is a plain purchase only."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    seen = {}
    for _ in range(400):
        if round_kind(g) == "stock":
            end_sr(g)
            continue
        if phase(g) not in seen:
            seen[phase(g)] = g.copy()
        if phase(g) == "blue":
            break
        idle(g)
    green = seen["green"]
    assert corp_now(green) == "PLM"
    had = cash(green, "P5")
    green.do("buy-private PLM VDL 150 --as-train")
    assert cash(green, "P5") == had + 150 and train_sides(green, "PLM") == ["2"]
    blue = seen["blue"]
    assert corp_now(blue) == "PLM" and owner(blue, "VDL") == "P5"
    refused(blue, "buy-private PLM VDL 110 --as-train", match="blue")
    blue.do("buy-private PLM VDL 110")
    assert owner(blue, "VDL") == "PLM"


def five_player_plm_operating():
    """5 players (480 each): P1 TB, P2 CEI, P3 SG, P4 HAV, P5 VDL, P1 BA, P2 LM (PLM par 67); SR 1: P3, P4,
    P5, P1 buy PLM (floats 670); OR 1.1, yellow, PLM's turn."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM" and cash(g, "PLM") == 670
    return g


def test_val_de_loire_made_a_2_train_obeys_the_train_limit():
    """A15: the conversion "obeys the train limit". PLM (5 players, yellow 4/4) buys four 2+1 (170 left):
    Val de Loire may not become a fifth train; it stays with P5."""
    g = five_player_plm_operating()
    g.do("withhold PLM 0", "train PLM 2+1", "train PLM 2+1", "train PLM 2+1", "train PLM 2+1")
    assert cash(g, "PLM") == 170
    error = refused(g, "buy-private PLM VDL 110 --as-train", match="limit")
    assert "4 trains on 4 certificates" in error.message and "yellow" in error.message, error.message
    assert owner(g, "VDL") == "P5" and not closed(g, "VDL")


# --------------------------------------------------------------------------- the Engineers (§10.2, A27)

def test_engineers_card_lost_when_the_marked_train_is_sold():
    """§10.2: "If a train certificate marked with the Engineer's card is bought by another company before
    it becomes obsolete, it loses the Engineer's card and will rust in the normal manner." ETA marks its
    2+1 in OR 2.1 and sells it to MID for 1fr; at the first blue MID's 2+1 rusts."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"]})
    g.do("buy-private ETA VDL 220", "withhold ETA 1000 --force --reason 'test position'", "use ETA VDL 2+1",
         "train ETA 3/5x2", "done ETA")
    until_turn(g, "MID", {"OU": ["withhold OU 25", "done OU"]})
    g.do("withhold MID 1000 --force --reason 'test position'", "train MID 2+1 --from ETA --price 1",
         "train MID 4+1", "train MID 4+1", "done MID")
    assert train_sides(g, "MID") == ["2+1", "2+1", "4+1", "4+1"]
    until_turn(g, "PLM")
    g.do("withhold PLM 1000 --force --reason 'test position'", "train PLM 5+2")
    assert phase(g) == "blue"
    assert train_sides(g, "MID") == ["4+1", "4+1"]


def test_an_obsolete_train_is_not_sold_between_companies():
    """§10.2: obsolete certificates may not be bought between companies."""
    g = chain("first-blue")      # ETA's marked 2+1 is obsolete now (E21)
    g.do("discard PLM 4+1")
    refused(g, "train PLM 2+1 --from ETA --price 1")


def test_obsolete_train_runs_in_the_next_operation_when_its_company_bought_the_rusting_train():
    """§10.2 Engineers: an obsolete certificate "run[s] one more time after [it] would normally rust" and
    is discarded "immediately before the train-buying step". ETA marks its 2+1 in OR 2.1 and itself buys
    the first blue in OR 2.2, after its run: the 2+1 stays until its next operation's train step, and
    does not count toward the 3/3 limit meanwhile."""
    g = chain("sr2")
    play_or(g, {
        "PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"],
        "ETA": ["buy-private ETA VDL 220", "withhold ETA 1000 --force --reason 'test position'",
                "use ETA VDL 2+1", "done ETA"],
        "OU": ["withhold OU 25", "done OU"],
        "MID": ["withhold MID 1000 --force --reason 'test position'", "train MID 4+1", "train MID 4+1",
                "done MID"],
    })
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA 4+1", "train ETA 5+2")
    assert phase(g) == "blue"
    assert train_sides(g, "ETA") == ["2+1", "4+1", "4+1", "5+2"]
    assert not [p for p in g.state.pending if p.get("corp") == "ETA"]
    g.do("done ETA")
    until_turn(g, "ETA")
    assert "2+1" in train_sides(g, "ETA")      # it runs once more ...
    g.do("withhold ETA 0")
    assert train_sides(g, "ETA") == ["4+1", "4+1", "5+2"]   # ... and leaves before the train step


def mid_with_val_de_loire():
    """OR 2.1 of the train era (green), MID's turn: MID (545, one 2+1) buys Val de Loire from P1 for 110."""
    g = chain("sr2")
    until_turn(g, "MID", {"PLM": ["withhold PLM 0", "done PLM --no-route"]})
    g.do("buy-private MID VDL 110")
    assert cash(g, "MID") == 435 and train_sides(g, "MID") == ["2+1"]
    return g


def test_the_engineers_are_named_in_the_train_step():
    """§10.2 Val de Loire, Use: "may preserve a train during the train-buying step": not before the run;
    after it, on a train bought in that step too (a 4+1 for 300: 135 left)."""
    g = mid_with_val_de_loire()
    refused(g, "use MID VDL 2+1", match="train step")
    g.do("withhold MID 0", "train MID 4+1", "use MID VDL 4+1")
    assert closed(g, "VDL") and cash(g, "MID") == 135


def test_an_obsolete_last_train_leaves_the_company_owing_a_train():
    """§10.2, A27: an obsolete certificate runs once more and is "discarded immediately before the
    train-buying step"; it never meets the must-own-a-train rule (§8.8.1). OR 2.1: PLM and ETA withhold
    1000 and buy two 4+1 each (one green left), MID marks its only train, its 2+1. OR 2.2: PLM buys the
    last 4+1 and the first 5+2 (blue: the yellows rust, MID's 2+1 goes obsolete) and puts a 4+1 in the
    pool (3/3). MID runs the 2+1 for 60 (P2 40 % 24, P1 and P4 10 % 6 each), then has no train: it must
    buy the pool's 4+1 (300 of its 435)."""
    g = chain("sr2")
    play_or(g, {
        "PLM": [f"withhold PLM 1000 {FORCE}", "train PLM 4+1", "train PLM 4+1", "done PLM"],
        "ETA": [f"withhold ETA 1000 {FORCE}", "train ETA 4+1", "train ETA 4+1", "done ETA"],
        "MID": ["buy-private MID VDL 110", "withhold MID 0", "use MID VDL 2+1", "done MID"],
    })
    assert supply_left(g, "green") == 1 and corp_now(g) == "PLM"
    g.do("withhold PLM 0", "train PLM 4+1", "train PLM 5+2", "discard PLM 4+1", "done PLM")
    assert phase(g) == "blue" and corp_now(g) == "MID" and train_sides(g, "MID") == ["2+1"]
    before = {p: cash(g, p) for p in P4}
    g.do("pay MID 60")
    assert {p: cash(g, p) - before[p] for p in P4} == {"P1": 6, "P2": 24, "P3": 0, "P4": 6}
    assert train_sides(g, "MID") == [] and cash(g, "MID") == 435
    refused(g, "done MID", match="must buy")
    g.do("train MID 4+1 --from pool", "done MID")
    assert cash(g, "MID") == 135 and train_sides(g, "MID") == ["4+1"]


# --------------------------------------------------------------------------- E20, E21: the digest's cases

def test_e21_engineers_timing():
    """E21: "In green phase MID owns Val de Loire. During its train-buying step it marks its yellow 2+1;
    Val de Loire closes. The first blue train is bought later. Every other yellow train rusts, but MID's
    marked train is obsolete. It runs in MID's next operation, is discarded just before that operation's
    train-buying step, and never counted toward the 3/3 limit in the meantime." Here the company is ETA:
    2+1 (marked), 4+1, 3/5x2 = 4 trains; at blue 3 trains on 2 certificates plus the obsolete one."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"]})
    g.do("buy-private ETA VDL 220")
    assert owner(g, "VDL") == "ETA" and cash(g, "P1") == 86 + 220
    g.do("withhold ETA 1000 --force --reason 'test position'", "use ETA VDL 2+1")
    assert closed(g, "VDL")
    g.do("train ETA 3/5x2", "done ETA")
    assert train_sides(g, "ETA") == ["2+1", "3/5x2", "4+1"]
    play_or(g, {"MID": ["withhold MID 1000 --force --reason 'test position'", "train MID 4+1", "train MID 4+1",
                        "done MID"],
                "OU": ["withhold OU 25", "done OU"]})
    first_blue(g)
    assert phase(g) == "blue"
    assert train_sides(g, "ETA") == ["2+1", "3/5x2", "4+1"], "the marked 2+1 is obsolete, not rusted"
    assert train_sides(g, "MID") == ["4+1", "4+1"] and train_sides(g, "OU") == [], "every other yellow rusted"
    assert "ETA" not in pending_corps(g), "the obsolete train does not count toward 3/3"
    g.do("discard PLM 4+1", "done PLM")
    until_turn(g, "ETA", {"OU": OU_EMERGENCY})
    assert train_sides(g, "ETA") == ["2+1", "3/5x2", "4+1"]
    g.do("withhold ETA 100")  # it runs once more
    assert cash(g, "ETA") == 625
    g.do("done ETA")
    assert train_sides(g, "ETA") == ["3/5x2", "4+1"]
    assert "2+1" not in pool_sides(g), "the obsolete train left the game"


def test_e20_val_de_loire_exchanged_for_a_director_half():
    """E20: "In green phase a player exchanges Val de Loire for the director certificate of an unstarted
    company at the green par 94. The player pays 94 and the company is parred. The private closes and the
    player's certificate count is unchanged." SR 1 all pass; OR 1 (no company) pays VDL's 20 to P1 (510);
    the foreigners start green; SR 2 (order P4, P1, P2, P3)."""
    g = game()
    green_after_set_one(g)
    end_sr(g)
    assert phase(g) == "green" and round_kind(g) == "stock" and g.state.round["number"] == 2
    to_turn(g, "P1")
    assert cash(g, "P1") == 510 and certs_held(g, "P1") == 2
    refused(g, "exchange P1 VDL NOR --par 105", match="105|par")
    bank = bank_cash(g)
    g.do("exchange P1 VDL NOR --par 94")
    assert cash(g, "P1") == 510 - 94 and bank_cash(g) - bank == 94
    assert g.state.corps["NOR"].par == 94 and cell(g, "NOR") == (5, 3)
    assert president(g, "NOR") == "P1" and certs(g, "P1", "NOR") == [20]
    assert closed(g, "VDL")
    assert certs_held(g, "P1") == 2


def test_e20_val_de_loire_becomes_a_2_train_and_rusts_at_blue():
    """E20: "Conversion (5-player game, yellow phase). A company buys Val de Loire for exactly 110 and it
    becomes a '2' train. It still counts toward the 4/4 limit and rusts at blue. If the PLM does this,
    the PLM has acquired a train, so Lyon-Mediterranee closes." (E13: at blue "all yellow trains rust,
    including a Val de Loire '2'".)
    Auction (480 each): P1 TB, P2 CEI, P3 SG, P4 HAV, P5 VDL, P1 BA, P2 LM (PLM par 67); SR 1 (P3 first):
    P3, P4, P5, P1 buy PLM (floats 670). OR 1.1: P5 has 480 - 110 - 67 + 20 = 323."""
    g = game(P5)
    g.do("buy P1 TB", "buy P2 CEI", "buy P3 SG", "buy P4 HAV", "buy P5 VDL", "buy P1 BA", "buy P2 LM",
         "par P2 PLM 67")
    turns(g, "buy P3 PLM", "buy P4 PLM", "buy P5 PLM", "buy P1 PLM")
    end_sr(g)
    assert corp_now(g) == "PLM" and cash(g, "P5") == 323
    refused(g, "buy-private PLM VDL 100 --as-train", match="110")
    refused(g, "buy-private PLM HAV 60", match="green")
    g.do("buy-private PLM VDL 110 --as-train")
    assert cash(g, "PLM") == 560 and cash(g, "P5") == 433
    assert closed(g, "VDL") and train_sides(g, "PLM") == ["2"]
    assert closed(g, "LM"), "PLM acquired a train"
    g.do("withhold PLM 0", "train PLM 2+1", "train PLM 2+1", "train PLM 2+1")
    assert cash(g, "PLM") == 185 and len(train_sides(g, "PLM")) == 4
    refused(g, "train PLM 2+1", match="limit|4")
    g.do("done PLM")
    for _ in range(400):
        if phase(g) == "blue":
            break
        if round_kind(g) == "stock":
            end_sr(g)
        else:
            idle(g)
    assert phase(g) == "blue"
    assert train_sides(g, "PLM") == []
