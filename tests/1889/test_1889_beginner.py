"""Shikoku 1889's Beginner Game on the engine (no CLI): --option beginner_game, the deal instead of
the auction (shared/rules/1889.md D14.1, worked case D16 #19, ambiguity D17 #11). The deal is the
table's (the privates in seating order) or 18xx.games' from its game's seed (seed:N); the digest's
runs of the site's engine give the seeded deals and every player's cash after paying.
"""

from __future__ import annotations

import pytest
from conftest import Table

from ledger import catalog
from ledger.core.errors import RulesetError, RuleViolation

PLAYERS = ["P1", "P2", "P3", "P4", "P5", "P6"]


def beginner(n: int, deal: str) -> Table:
    return Table(title="1889", players=PLAYERS[:n], options={"beginner_game": deal})


def holdings(g: Table) -> list[str]:
    """Each player's private, in seating order."""
    return [next(sym for sym, p in g.state.privates.items() if p.owner == f"player:{who}") for who in g.players]


def in_play(g: Table) -> list[str]:
    return [sym for sym, p in g.state.privates.items() if not p.closed]


@pytest.mark.parametrize("n, seed, dealt, cash, bank", [
    # D16 #19: 6 players, seed 1234; bank ¥7,000 - 6 x ¥390 + ¥310 = ¥4,970
    (6, 1234, ["ER", "MF", "TER", "SMR", "DR", "SIR"], [350, 350, 370, 330, 330, 300], 4970),
    # D14.1 [run]: 3 players seed 1 (cash ¥360, ¥330, ¥380; bank ¥5,930); 4 players seed 42
    (3, 1, ["DR", "SIR", "ER"], [360, 330, 380], 5930),
    (4, 42, ["DR", "SMR", "ER", "SIR"], [360, 360, 380, 330], 7000 - 4 * 420 + 60 + 60 + 40 + 90),
])
def test_the_site_s_deal_from_its_seed(n, seed, dealt, cash, bank):
    """D14.1: no auction; each player is dealt one private and pays its Beginner value to the bank;
    SR 1 starts with the first player."""
    g = beginner(n, f"seed:{seed}")
    assert holdings(g) == dealt
    assert [g.cash(p) for p in g.players] == cash
    assert g.bank() == bank
    assert g.state.round["kind"] == "stock" and g.state.round["number"] == 1
    assert g.state.round["turn"] == 0
    assert not any(e["kind"] == "round_started" and e["round"]["kind"] == "auction" for e in g.events)


@pytest.mark.parametrize("n, privates", [
    (2, ["DR", "SIR"]),
    (3, ["ER", "DR", "SIR"]),
    (4, ["ER", "SMR", "DR", "SIR"]),
    (5, ["TER", "ER", "SMR", "DR", "SIR"]),
    (6, ["TER", "MF", "ER", "SMR", "DR", "SIR"]),
])
def test_the_privates_dealt_by_player_count(n, privates):
    """D14.1 BEGINNER_GAME_PRIVATES: 2 players DR and SIR, then + ER, + SMR, + TR, + MF; UTF never."""
    g = beginner(n, "seed:1")
    assert in_play(g) == privates
    assert sorted(holdings(g)) == sorted(privates)


def test_two_players_keep_sir_only_in_the_beginner_game():
    """D17 #11: the standard 2-player game removes SIR (and UTF); the Beginner Game keeps SIR."""
    standard = Table(title="1889", players=["Ann", "Bob"])
    assert "SIR" not in in_play(standard) and "UTF" not in in_play(standard)
    g = Table(title="1889", players=["Ann", "Bob"], options={"beginner_game": "SIR,DR"})
    assert holdings(g) == ["SIR", "DR"]
    assert [g.cash("Ann"), g.cash("Bob")] == [420 - 90, 420 - 60]
    assert g.bank() == 7000 - 840 + 150


def test_beginner_values_and_revenues():
    """D14.1 BEGINNER_GAME_PRIVATE_VALUES / _REVENUES: TR 20/5, MF 40/15, ER 40/15, SMR 60/20, DR 60/20,
    SIR 90/25 (the standard game's MF is ¥30/¥5, SIR ¥80/¥20)."""
    rs = catalog.load("1889", {"beginner_game": "seed:1"})
    assert {p.sym: (p.face, p.revenue) for p in rs.privates if p.sym != "UTF"} == {
        "TER": (20, 5), "MF": (40, 15), "ER": (40, 15), "SMR": (60, 20), "DR": (60, 20), "SIR": (90, 25)}
    standard = catalog.load("1889")
    assert (standard.private("MF").face, standard.private("SIR").revenue) == (30, 20)


def opened(deal: str = "DR,SIR") -> Table:
    """Two players, AR floated at ¥100 in SR 1 (D5: 50 % out of the IPO), OR 1.1 begun."""
    g = Table(title="1889", players=["Ann", "Bob"], options={"beginner_game": deal})
    g.do("par Ann AR 100", "buy Bob AR", "buy Ann AR", "buy Bob AR", "pass Ann", "pass Bob")
    return g


def test_the_privates_pay_their_beginner_revenue():
    """D14.1, D3.2: each OR opens with the privates' revenue: DR ¥20, SIR ¥25."""
    g = opened()
    assert g.state.round["kind"] == "operating"
    assert g.cash("Ann") == 420 - 60 - 200 - 100 + 20
    assert g.cash("Bob") == 420 - 90 - 200 + 25
    assert g.cash("AR") == 1000


def test_no_company_buys_a_private_and_dr_has_no_exchange():
    """D14.1: every private "cannot be purchased by a corporation"; all abilities removed (DR's
    exchange for an IR share among them)."""
    g = opened()
    g.refusal("buy-private AR DR 60", "DR can never be bought by a company")
    g.refusal("exchange Ann DR IR", "exchanged for a share")
    assert not catalog.load("1889", {"beginner_game": "seed:1"}).private("DR").abilities.get("exchange_for")


def test_the_deal_must_name_the_privates_in_play():
    """The table's deal names each private in play once, in seating order: refused otherwise."""
    with pytest.raises(RuleViolation, match="ER, DR, SIR with 3 players, not DR, SIR"):
        beginner(3, "DR,SIR")
    with pytest.raises(RuleViolation, match="not DR, SIR, UTF"):
        beginner(3, "DR,SIR,UTF")
    with pytest.raises(RulesetError, match="beginner_game=VALUE"):
        catalog.load("1889", {"beginner_game": True})


def test_the_standard_game_is_unchanged():
    """Without the option: the auction, the standard values and DR's exchange."""
    g = Table(title="1889", players=["Ann", "Bob", "Cy"])
    assert g.state.round["kind"] == "auction"
    assert g.rs.private("DR").ability("exchange_for") == "IR"
    assert g.rs.k("privates_rules", "deal") == ""


def test_a_record_of_the_beginner_game_is_dealt_from_its_seed():
    """An 18xx.games record listing the optional rule beginner_game starts the Beginner Game with the
    site's deal from the record's seed ([log_import.json] options): D16 #19's seed 1234."""
    from ledger.importer.sites import for_title
    words = for_title("1889")
    options = words.options(["beginner_game"], {"seed": 1234})
    assert options["beginner_game"] == "seed:1234"
    g = Table(title="1889", players=PLAYERS, options=options)
    assert holdings(g) == ["ER", "MF", "TER", "SMR", "DR", "SIR"]
    assert g.bank() == 4970
    assert words.options([], {"seed": 1234})["beginner_game"] is False


def test_the_log_says_each_private_was_dealt_not_bought():
    """D14.1: the Beginner Game deals the privates; the log says so, with what each player paid."""
    from ledger.core.events import describe
    t = Table("new 1889 Ann Ben Cy --option beginner_game=seed:1")
    lines = [describe(e, t.rs) for e in t.events]
    dealt = [line for line in lines if line and " is dealt " in line]
    assert len(dealt) == 3 and all(line.endswith(" for it") for line in dealt), dealt
    assert not any(line and " buys " in line for line in lines)
