"""Tests for the 18xx.games 1830 log parser (ledger.importer.logparse)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from recorded_games import GAME_IDS, GAMES_DIR, expected, log_text

from ledger.importer import logparse
from ledger.importer.logparse import (
    CORPORATIONS,
    DEPOT,
    LogParseError,
    parse_line,
    parse_log,
    players_from_entries,
    seating_from_log,
)

@cache
def parsed(game: str):
    return parse_log(log_text(game))


def entry_at(game: str, lineno: int):
    entry = parsed(game)[1][lineno - 1]
    assert entry.lineno == lineno
    return entry


def kinds_between(game: str, first: int, last: int) -> list[tuple[str, str | None]]:
    return [(e.kind, e.actor) for e in parsed(game)[1][first - 1 : last]]


# --- the recorded games ---------------------------------------------------------------------


def test_the_data_folder_holds_exactly_the_nine_games():
    on_disk = {p.name for p in GAMES_DIR.glob("*") if p.is_file()}
    wanted = {f"{g}{suffix}" for g in GAME_IDS for suffix in (".log.txt", ".expected.json")}
    assert on_disk == wanted, f"{GAMES_DIR}: missing {sorted(wanted - on_disk)}, extra {sorted(on_disk - wanted)}"


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_line_is_classified(game):
    text = log_text(game)
    _, entries = parsed(game)
    assert len(entries) == len(text.splitlines())
    assert [e.lineno for e in entries] == list(range(1, len(entries) + 1))


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_line_matches_two_rules(game):
    # First-match order must never be what decides a line's meaning.
    seating, entries = parsed(game)
    patterns = logparse._patterns_for(tuple(seating))
    for entry in entries:
        rules = patterns.all_matches(entry.text)
        assert len(rules) == 1, (entry.lineno, entry.text, [r.kind for r in rules])


@pytest.mark.parametrize("game", GAME_IDS)
def test_seating_matches_expected(game):
    seating, _ = parsed(game)
    assert seating == expected(game)["seating"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_final_values_match_expected(game):
    _, entries = parsed(game)
    game_over = [e for e in entries if e.kind == "game_over"][-1]
    want = {p["name"]: p["value"] for p in expected(game)["players"]}
    assert game_over.data["values"] == want


@pytest.mark.parametrize("game", GAME_IDS)
def test_names_resolve_to_players_or_corporations(game):
    seating, entries = parsed(game)
    assert sorted(players_from_entries(entries)) == sorted(seating)
    known = set(seating) | set(CORPORATIONS)
    for e in entries:
        assert e.actor is None or e.actor in known, (e.lineno, e.text)
        if e.kind == "pay_out":
            assert set(e.data["payees"]) <= known, (e.lineno, e.text)
            assert sum(e.data["payees"].values()) <= e.data["revenue"]
        if e.kind in ("buy_train", "exchange_train"):
            assert e.data["seller"] in set(CORPORATIONS) | {DEPOT}
        if e.kind == "rust":
            assert set(e.data["holders"]) <= set(CORPORATIONS) | {DEPOT}


# --- specific lines ---------------------------------------------------------------------------


def test_pay_out_with_company_payee():
    e = entry_at("210011", 353)
    assert e.text == (
        "NYNH pays out $170 = $17.0 per share "
        "($102 to Player 1, $17 to Player 3, $17 to Player 2, $17 to NYNH)"
    )
    assert (e.kind, e.actor) == ("pay_out", "NYNH")
    assert e.data == {
        "revenue": 170,
        "per_share": 17,
        "payees": {"Player 1": 102, "Player 3": 17, "Player 2": 17, "NYNH": 17},
    }


def test_pay_out_with_fractional_per_share():
    e = parse_line("[20:11] NYC pays out $67 = $6.7 per share ($40 to The Lord, $7 to NYC)",
                   players=["The Lord"])
    assert e.data["per_share"] == Fraction(67, 10)
    assert isinstance(e.data["per_share"], Fraction)
    assert e.data["payees"] == {"The Lord": 40, "NYC": 7}
    assert e.text.startswith("NYC pays out")


def test_name_with_spaces():
    e = entry_at("179051", 26)
    assert (e.kind, e.actor) == ("win_auction", "Alexandre Madu")
    assert e.data == {"private": "DH", "amount": 105, "only_bid": False}
    e = entry_at("179090", 136)  # B&O pays out ... ($84 to PdG, $14 to The Lord)
    assert e.data["payees"] == {"PdG": 84, "The Lord": 14}


def test_bidding_war_on_delaware_and_hudson():
    # lucastleite buys SV; CS had one bid; DH had two, so Fsindor and Alexandre Madu fight.
    assert kinds_between("179051", 17, 27) == [
        ("buy_private", "lucastleite"),
        ("win_auction", "lucastleite"),
        ("auction_start", None),
        ("date", None),
        ("bid", "Fsindor"),
        ("bid", "Alexandre Madu"),
        ("bid", "Fsindor"),
        ("bid", "Alexandre Madu"),
        ("auction_drop", "Fsindor"),
        ("win_auction", "Alexandre Madu"),
        ("auction_start", None),
    ]
    assert entry_at("179051", 18).data == {"private": "CS", "amount": 45, "only_bid": True}
    assert entry_at("179051", 19).data == {"private": "DH"}
    assert entry_at("179051", 24).data == {"private": "DH", "amount": 105}
    assert entry_at("179051", 25).data == {"private": "DH"}


def test_emergency_sale_and_contribution():
    assert kinds_between("179263", 798, 803) == [
        ("sell_shares", "huffman123"),
        ("price_move", "ERIE"),
        ("sell_shares", "huffman123"),
        ("price_move", "B&M"),
        ("contribute", "huffman123"),
        ("buy_train", "B&O"),
    ]
    assert entry_at("179263", 798).data == {
        "shares": 4, "percent": 40, "corp": "ERIE", "amount": 400}
    assert entry_at("179263", 800).data == {
        "shares": 1, "percent": 10, "corp": "B&M", "amount": 71}
    assert entry_at("179263", 801).data == {
        "direction": "down", "steps": None, "old_price": 71, "new_price": 67}
    assert entry_at("179263", 802).data == {"amount": 512}
    assert entry_at("179263", 803).data == {"train": "D", "amount": 1100, "seller": DEPOT}


def test_train_bought_from_another_company():
    e = entry_at("179090", 157)
    assert e.text == "NYC buys a 3 train for $400 from NYNH"
    assert (e.kind, e.actor) == ("buy_train", "NYC")
    assert e.data == {"train": "3", "amount": 400, "seller": "NYNH"}


def test_exchanges():
    e = entry_at("179358", 28)  # "Bart Kuiper exchanges Mohawk & Hudson from the IPO for ..."
    assert (e.kind, e.actor) == ("exchange", "Bart Kuiper")
    assert e.data == {"private": "MH", "source": "ipo", "percent": 10, "corp": "NYC"}
    e = entry_at("210011", 284)  # the other word order: "... for a 10% share of NYC from the IPO"
    assert (e.kind, e.actor) == ("exchange", "Player 3")
    assert e.data == {"private": "MH", "source": "ipo", "percent": 10, "corp": "NYC"}
    e = entry_at("179090", 534)  # "NYC exchanges a 4 for a D train for $800 from The Depot"
    assert (e.kind, e.actor) == ("exchange_train", "NYC")
    assert e.data == {"old_train": "4", "train": "D", "amount": 800, "seller": DEPOT}


def test_private_ability_tile_and_token():
    e = entry_at("179090", 178)  # "B&O (DH) spends $120 and lays tile #57 ... on F16 (Scranton)"
    assert (e.kind, e.actor) == ("lay_tile", "B&O")
    assert e.data == {"via": "DH", "cost": 120, "tile": "57", "rotation": 2, "hex": "F16",
                      "location": "Scranton"}
    e = entry_at("179090", 179)
    assert (e.kind, e.actor) == ("place_token", "B&O")
    assert e.data == {"via": "DH", "hex": "F16", "location": "Scranton", "cost": 0}


def test_token_with_double_space_and_free_tile():
    e = parse_line("C&O places a token on H12 (Lancaster)  for $40")
    assert e.data == {"via": None, "hex": "H12", "location": "Lancaster", "cost": 40}
    e = parse_line("NYC lays tile #57 with rotation 2 on D14")
    assert e.data == {"via": None, "cost": 0, "tile": "57", "rotation": 2, "hex": "D14",
                      "location": None}


def test_private_baltimore_and_ohio_versus_corporation():
    assert parse_line("Aer0th buys Baltimore & Ohio for $220").data == {
        "private": "BO", "amount": 220}
    assert parse_line("Aer0th pars B&O at $100").data == {"corp": "B&O", "price": 100}
    assert parse_line("Baltimore & Ohio closes").data == {"private": "BO"}
    e = parse_line("[15:42] B&O collects $30 from Baltimore & Ohio", players=["Aer0th"])
    assert (e.actor, e.data) == ("B&O", {"amount": 30, "private": "BO"})


def test_rounds_phases_and_events():
    assert parse_line("-- Operating Round 3.2 (of 2) --").data == {
        "round": 3, "number": 2, "of": 2}
    assert parse_line("-- Phase D (Operating Rounds: 3 | Train Limit: 2 | "
                      "Available Tiles: Yellow, Green, Brown) --").data == {
        "phase": "D", "operating_rounds": 3, "train_limit": 2,
        "tiles": ["Yellow", "Green", "Brown"]}
    assert parse_line("-- Event: 2 trains rust ( B&O x3, The Depot x1) --").data == {
        "train": "2", "holders": {"B&O": 3, "The Depot": 1}}
    run = parse_line("PRR runs a 2 train for $50: H10-H12")
    assert run.data == {"train": "2", "revenue": 50, "route": ["H10", "H12"]}


def test_end_of_game_lines():
    assert (entry_at("179358", 943).kind, entry_at("179358", 943).actor) == (
        "end_manual", "Bart Kuiper")
    e = entry_at("179263", 850)
    assert (e.kind, e.actor) == ("bankrupt", "sferreira")
    assert entry_at("179090", 1336).kind == "bank_broken"


def test_master_mode_note_is_not_a_turn():
    e = entry_at("26855", 55)
    assert (e.kind, e.actor, e.data) == (
        "master_mode", None, {"action": "buy_shares", "by": "Player 2"})


def test_time_prefix_does_not_change_the_entry():
    bare = parse_line("Bart Kuiper pars NYC at $100")
    stamped = parse_line("[17:45] Bart Kuiper pars NYC at $100")
    assert bare == stamped


# --- names that are hard to split ------------------------------------------------------------

TRICKY_LOG = """\
-- Phase 2 (Operating Rounds: 1 | Train Limit: 4 | Available Tiles: Yellow) --
this is not a train bids $165 for Camden & Amboy
Player 10 bids $75 for Delaware & Hudson
Player 1 buys Schuylkill Valley for $20
this is not a train passes bidding
Player 10 passes on Delaware & Hudson
-- Stock Round 1 --
this is not a train: is this a train?
Player 10 passes
Player 1 buys a 10% share of PRR from the IPO for $100
PRR pays out $30 = $3 per share ($20 to this is not a train, $10 to Player 1)
Player 1 has priority deal
"""


def test_tricky_names_are_matched_whole():
    seating, entries = parse_log(TRICKY_LOG)
    assert seating == ["this is not a train", "Player 10", "Player 1"]
    by_line = {e.lineno: e for e in entries}
    assert (by_line[2].kind, by_line[2].actor) == ("bid", "this is not a train")
    assert (by_line[8].kind, by_line[8].actor) == ("chat", "this is not a train")
    assert by_line[8].data == {"message": "is this a train?"}
    assert (by_line[9].kind, by_line[9].actor) == ("pass", "Player 10")
    assert by_line[11].data["payees"] == {"this is not a train": 20, "Player 1": 10}


def test_seating_skips_bidding_war_actions():
    # The war on CS (Player 3 then Player 2) must not reorder the table.
    log = "\n".join([
        "Player 1 bids $45 for Champlain & St.Lawrence",
        "Player 2 bids $50 for Champlain & St.Lawrence",
        "Player 3 buys Schuylkill Valley for $20",
        "Champlain & St.Lawrence goes up for auction",
        "Player 1 bids $55 for Champlain & St.Lawrence",
        "Player 2 passes on Champlain & St.Lawrence",
        "Player 1 wins the auction for Champlain & St.Lawrence with a bid of $55",
        "Player 1 passes bidding",
    ])
    _, entries = parse_log(log)
    assert seating_from_log(entries) == ["Player 1", "Player 2", "Player 3"]


# --- failures are loud -------------------------------------------------------------------------


def test_unknown_line_raises_with_its_line_number():
    log = "Player 1 buys Schuylkill Valley for $20\n-- 2024-09-20 --\nPRR teleports to Boston\n"
    with pytest.raises(LogParseError) as info:
        parse_log(log)
    assert info.value.lineno == 3
    assert info.value.line == "PRR teleports to Boston"
    assert "line 3" in str(info.value)


def test_unknown_player_raises_once_names_are_known():
    # With the table known, a stranger's "passes" is not silently taken as a player's turn.
    log = "Player 1 buys Schuylkill Valley for $20\nStranger passes\n"
    with pytest.raises(LogParseError) as info:
        parse_log(log)
    assert info.value.lineno == 2


def test_phrases_not_in_the_recorded_games():
    # Worded after the site's engine; none of the nine games happens to contain them.
    assert parse_line("Schuylkill Valley minimum bid decreases from $20 to $15").data == {
        "private": "SV", "old_price": 20, "new_price": 15}
    assert parse_line("Player 1 buys Schuylkill Valley for $0").data == {
        "private": "SV", "amount": 0}
    assert parse_line("Player 1 sells 2 shares of NYC and receives $180").data == {
        "shares": 2, "percent": 20, "corp": "NYC", "amount": 180}
    assert parse_line("Player 1 buys 2 shares of ERIE from the IPO for $180").data == {
        "shares": 2, "percent": 20, "corp": "ERIE", "source": "ipo", "amount": 180}
    assert parse_line("Player 1 exchanges Mohawk & Hudson from the market for a 10% share of NYC"
                      ).data["source"] == "market"
    assert parse_line("-- Event: 2 trains rust --").data == {"train": "2", "holders": {}}
    assert parse_line("• any other engine note").kind == "note"
    assert parse_line("").kind == "blank"


# --- every phrasing the site has used -----------------------------------------------------------
# One line per wording that none of the nine games uses, with the entry it must give. The recorded
# games above cover the site's 2024 wording; these are the other versions' forms of the same verbs.

PLAYERS = ("Player 1", "Player 2")

WORDINGS = [
    # trains: the open market's trains, named "The Discard" by newer versions, in any capitals
    ("CPR buys a 5 train for $450 from The Discard",
     "buy_train", "CPR", {"train": "5", "amount": 450, "seller": logparse.POOL}),
    ("CPR buys a 3 train for $180 from the discard",
     "buy_train", "CPR", {"train": "3", "amount": 180, "seller": logparse.POOL}),
    ("CPR buys a 3 train for $180 from the Depot",
     "buy_train", "CPR", {"train": "3", "amount": 180, "seller": DEPOT}),
    ("NYC exchanges a 5 train for a D train for $800 from The Depot",
     "exchange_train", "NYC", {"old_train": "5", "train": "D", "amount": 800, "seller": DEPOT}),
    ("PRR discards a 3 train", "discard_train", "PRR", {"train": "3"}),
    # shares and privates
    ("Player 1 exchanges Mohawk & Hudson for a 10% share of NYC",
     "exchange", "Player 1", {"private": "MH", "percent": 10, "corp": "NYC", "source": None}),
    ("Player 1 exchanges Mohawk & Hudson for a 10% share of NYC from the Market",
     "exchange", "Player 1", {"private": "MH", "percent": 10, "corp": "NYC", "source": "market"}),
    ("Player 2 receives a 10% share of PRR from the IPO",
     "receive_share", "Player 2", {"percent": 10, "corp": "PRR"}),
    ("Player 1 has the priority deal", "priority", "Player 1", {}),
    ("PRR's share price changes from $67 to $76",
     "price_move", "PRR", {"direction": None, "steps": None, "old_price": 67, "new_price": 76}),
    ("ERIE's share price changes from $90 to $71 (2 steps)",
     "price_move", "ERIE", {"direction": None, "steps": 2, "old_price": 90, "new_price": 71}),
    # passes
    ("Player 2 declines to bid", "pass", "Player 2", {"step": "bid", "forced": False}),
    ("Player 2 passes", "pass", "Player 2", {"step": None, "forced": False}),
    # operating: revenue, tiles and tokens
    ("PRR pays out $100 = $10 ($60 to Player 1, $40 to Player 2)",
     "pay_out", "PRR", {"revenue": 100, "per_share": 10,
                        "payees": {"Player 1": 60, "Player 2": 40}}),
    ("PRR pays out $100 = $10 per share ()",
     "pay_out", "PRR", {"revenue": 100, "per_share": 10, "payees": {}}),
    ("PRR pays out $100",
     "pay_out", "PRR", {"revenue": 100, "per_share": None, "payees": {}}),
    ("PRR withholds $0", "withhold", "PRR", {"amount": 0}),
    ("B&O (Delaware & Hudson) spends $120 and lays tile #57 with rotation 2 on F16 (Scranton)",
     "lay_tile", "B&O", {"via": "DH", "cost": 120, "tile": "57", "rotation": 2, "hex": "F16",
                         "location": "Scranton"}),
    ("B&O (Delaware & Hudson) places a token on F16 (Scranton)",
     "place_token", "B&O", {"via": "DH", "hex": "F16", "location": "Scranton", "cost": 0}),
    ("NYNH places a token on E23 for $40",
     "place_token", "NYNH", {"via": None, "hex": "E23", "location": None, "cost": 40}),
    ("NYNH spends $80 and lays tile #8 with rotation 0 on E11",
     "lay_tile", "NYNH", {"via": None, "cost": 80, "tile": "8", "rotation": 0, "hex": "E11",
                          "location": None}),
    # rounds and events
    ("-- Operating Round 2.1 --", "or_start", None, {"round": 2, "number": 1, "of": None}),
    ("-- Event: 3 trains rust ( The Discard x1, NYC x2) --",
     "rust", None, {"train": "3", "holders": {logparse.POOL: 1, "NYC": 2}}),
    ("-- Player 2 goes bankrupt --", "bankrupt", "Player 2", {}),
    ("Player 2 goes bankrupt and sells remaining shares", "bankrupt", "Player 2", {}),
    ("Player 2 declares bankruptcy", "bankrupt", "Player 2", {}),
]


@pytest.mark.parametrize("line, kind, actor, data", WORDINGS, ids=[w[0] for w in WORDINGS])
def test_other_versions_wording(line, kind, actor, data):
    entry = parse_line(line, players=PLAYERS)
    assert (entry.kind, entry.actor, entry.data) == (kind, actor, data)


def test_each_other_wording_matches_exactly_one_rule():
    # As in the recorded games, the table's order must not decide what a line means.
    patterns = logparse._patterns_for(PLAYERS)
    for line, kind, _actor, _data in WORDINGS:
        assert [r.kind for r in patterns.all_matches(line)] == [kind], line


@pytest.mark.parametrize("stamp", ["[13:23] ", "[13:23:05] ", "[1:23 PM] ", "[2024-09-20 13:23] ", ""])
def test_time_prefixes_of_any_clock(stamp):
    entry = parse_line(f"{stamp}Player 1 pars NYC at $100", players=PLAYERS)
    assert (entry.kind, entry.actor, entry.data) == ("par", "Player 1", {"corp": "NYC", "price": 100})
    assert entry.text == "Player 1 pars NYC at $100"


def test_a_bare_auction_pass_is_a_seat_at_the_table():
    # Early versions logged an auction pass as "X passes"; it still counts as that player's turn.
    # (A pass does not reveal a name: Player 2's bid in the next round does.)
    log = """\
Player 1 bids $45 for Champlain & St.Lawrence
Player 2 passes
Player 3 buys Schuylkill Valley for $20
Player 1 passes
Player 2 bids $80 for Delaware & Hudson
-- Stock Round 1 --
"""
    seating, _ = parse_log(log)
    assert seating == ["Player 1", "Player 2", "Player 3"]


def test_a_train_seller_that_is_no_company_nor_bank_stock_is_reported():
    with pytest.raises(LogParseError) as info:
        parse_line("CPR buys a 5 train for $450 from The Attic", players=PLAYERS, lineno=7)
    assert info.value.lineno == 7
    assert "The Attic" in str(info.value)
