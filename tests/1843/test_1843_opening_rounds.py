"""1843's first rounds on the engine, as a table types them: the auction, the first stock round and the
first operating round, the amounts in francs, the refusals, 1843's own verbs and the ruleset's options.
(Moved from test_1843_cli.py, which keeps what only the CLI and the game file show.)

Expected numbers come from the rules (`/work/shared/rules/1843.md`, "D x.y" below) and `docs/1843.md`:
T1 starting cash 600fr for 4 players; §6 waterfall auction with bids in steps of 5 (D4); privates'
face and revenue (D3.1); §7.4 full capitalisation (10 x par); §7.1 seats re-dealt by descending cash;
§8.4.3 the 40fr Paris fee; §8.5.1 stations 40fr then 100fr; T4 train prices; T3 station markers
(PLM 3, or 4 with the printed charter, A16); the draft market grid of D7.4 (withholding moves left).
The option names are read from the shipped ruleset, not copied here.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from conftest import Table

from ledger.catalog import ruleset_text
from ledger.core.errors import BankError, RuleViolation, one_line
from ledger.interface.views import describe, whose_turn

PLAYERS = ["Alice", "Bob", "Carol", "Dave"]
RULESET = tomllib.loads(ruleset_text("1843"))

# Every private bought at face in card order (§6.1: buy the cheapest), Carol setting PLM's par with LM (§6.3).
AUCTION = ["buy Alice TB", "buy Bob CEI", "buy Carol SG", "buy Dave HAV", "buy Alice VDL", "buy Bob BA",
           "buy Carol LM", "par Carol PLM 67"]
# SR 1 starts after the last buyer, Carol (§6.2): Dave starts PO at 67 and it floats at 60 % sold (§7.4).
STOCK_ROUND_1 = ["par Dave PO 67", "buy Alice PO", "buy Bob PO", "buy Carol PO", "buy Dave PO",
                 "pass Alice", "pass Bob", "pass Carol", "pass Dave"]


def new_game() -> Table:
    return Table("new 1843 " + " ".join(PLAYERS))


def operating() -> Table:
    """OR 1.1: PO (director Dave) is the only floated company and operates."""
    t = new_game()
    t.do(*AUCTION, *STOCK_ROUND_1)
    st = t.status()
    assert st["round"] == "OR 1.1" and st["operating"] == "PO"
    return t


def rule_error(t: Table, line: str) -> str:
    """A refusal by a rule (the CLI's RuleViolation exit code): its one line, nothing in the game changed."""
    said = t.refused(line)
    try:
        t.decide(line)
    except BankError as exc:
        assert isinstance(exc, RuleViolation), (type(exc).__name__, said)
        assert said == "error: " + one_line(exc.line())
    assert "bank --help" not in said, said
    return said


def told(t: Table, line: str) -> str:
    """What the CLI prints for a line it takes: each event's line, then who is next."""
    events = t.do(line)
    return "\n".join([text for text in (describe(e, t.rs) for e in events) if text]
                     + [f"Next: {whose_turn(t.state, t.rs)}"])


def no_dollars(text: str) -> None:
    assert "$" not in text, f"an amount in dollars in a francs game: {text!r}"


def stock_turn(t: Table) -> str:
    """Whose turn it is in a stock round, from status --json ("SR 2: Alice's turn: ...")."""
    turn = t.status()["turn"]
    assert turn.startswith("SR "), turn
    return turn.split(":")[1].split("'")[0].strip()


# --------------------------------------------------------------------------- a short auction

def test_new_game_then_auction_status_in_francs():
    t = new_game()
    st = t.status()
    assert st["title"] == "1843" and st["round"] == "Auction" and st["phase"] == "yellow"
    assert st["bank"] == 100_000 - 4 * 600  # RULES §2, T1
    assert [p["cash"] for p in st["players"]] == [600] * 4
    t.do("buy Alice TB")      # the cheapest at face, 15fr
    t.do("bid Bob HAV 70")    # at least face + 5 = 65, in steps of 5 (§6.1)
    t.do("buy Carol CEI")     # 20fr; SG next has no bid, so resolution stops (§6.2)
    t.do("buy Dave SG")       # 40fr; then HAV's single bid wins: Bob pays 70; VDL has no bid
    st = t.status()
    assert {p["name"]: p["cash"] for p in st["players"]} == {"Alice": 585, "Bob": 530, "Carol": 580, "Dave": 560}
    assert st["bank"] == 97_600 + 15 + 70 + 20 + 40
    owners = {p["sym"]: p["owner"] for p in st["privates"]}
    assert owners["HAV"] == "Bob" and owners["SG"] == "Dave" and owners["VDL"] is None
    assert st["turn"].startswith("Auction: Alice")  # the player after the last face buyer, Dave (§6.2)
    text = t.status_text()
    for amount in ("585fr", "530fr", "580fr", "560fr", f"{st['bank']}fr", "110fr"):
        assert amount in text, (amount, text)
    no_dollars(text)
    assert "buy Alice VDL (for 110) ·" in st["turn"]  # the Next line's amounts paste into bash: no currency
    no_dollars(st["turn"])


def test_status_json_strings_are_in_francs():
    t = new_game()
    t.do("buy Alice TB")
    out = json.dumps(t.status())
    assert "125fr" in out  # the yellow 2+1 (T4)
    no_dollars(out)


# --------------------------------------------------------------------------- refusals

@pytest.mark.parametrize("before, line, amounts", [
    (["buy Alice TB"], "bid Bob LM 615", ("600fr", "615fr")),   # Bob has 600fr
    ([], "bid Alice HAV 67", ("fr", "67")),                      # bids go in steps of 5 (§6.1)
    (AUCTION, "par Dave PO 105", ("105fr", "67fr")),             # blue par in the yellow phase (T2, §7.4)
], ids=["bid above free cash", "bid not a multiple of five", "stock round par"])
def test_a_refusal_names_the_amounts_in_francs(before, line, amounts):
    t = new_game()
    t.do(*before)
    said = rule_error(t, line)
    for amount in amounts:
        assert amount in said, said
    no_dollars(said)


# --------------------------------------------------------------------------- 1843's verbs reach the engine

NEW_VERBS_IN_THE_AUCTION = [
    "port PO boulogne",
    "flip PO 3/5x2",
    "use PO VDL yellow.1",
    "tile PO 0 --hex paris",
    "token PO --using HAV",
    "token PO --move",
    "buy-private PO VDL 110 --as-train",
    "exchange Alice VDL PO --par 67",
]


@pytest.mark.parametrize("line", NEW_VERBS_IN_THE_AUCTION)
def test_new_verbs_are_parsed_and_refused_by_a_rule(line):
    t = new_game()
    before = t.status()
    message = rule_error(t, line)
    assert len(message) > len("error: ") + 10
    assert t.status() == before


def test_operating_round():
    t = operating()
    st = t.status()
    # §7.1: seats re-dealt by descending cash at the end of SR 1 (Alice 408, Bob 363, Dave 339, Carol 283)
    assert [p["name"] for p in st["players"]] == ["Alice", "Bob", "Dave", "Carol"]
    # OR start: privates pay (D3.1): TB 0 + VDL 20, CEI 5 + BA 25, HAV 15, SG 10 + LM 30
    assert {p["name"]: p["cash"] for p in st["players"]} == {"Alice": 428, "Bob": 393, "Dave": 354, "Carol": 323}
    po = t.company("PO")
    assert (po["cash"], po["price"], po["tokens_left"], po["trains"]) == (670, 67, 1, [])  # 10 x par; home placed

    # §8.5.3: no port claim without a train at the start of the OR
    line = rule_error(t, "port PO boulogne")
    assert "train" in line
    # §8.4.3: Paris costs 40fr on top of the terrain
    out = told(t, "tile PO 0 --hex paris")
    assert "40fr" in out
    no_dollars(out)
    assert t.company("PO")["cash"] == 630
    # PO is not one of EST/MID/OU/PRO/SO: no second yellow tile (§8.4.1)
    rule_error(t, "tile PO 20")
    # §8.5.2: stations move only in the gray phase
    assert "gray" in rule_error(t, "token PO --move")
    # §8.5.1: the first station placed costs 40fr; PO has two markers (T3), the home one is down
    t.do("token PO")
    po = t.company("PO")
    assert (po["cash"], po["tokens_left"]) == (590, 0)
    # PO owns neither Havre nor Val de Loire
    rule_error(t, "token PO --using HAV")
    rule_error(t, "use PO VDL 2+1")
    # §10.2: Val de Loire becomes a train only in 5-6 player games
    assert "5" in rule_error(t, "buy-private PO VDL 110 --as-train")
    # §10.2: in an OR the owner may exchange VDL at any time; a blue par is not open in yellow (T2)
    line = rule_error(t, "exchange Alice VDL EST --par 105")
    assert "105fr" in line
    t.do("exchange Alice VDL EST --par 67")  # the player pays the other half: 1 x par
    assert t.cash()["Alice"] == 428 - 67
    est = t.company("EST")
    assert (est["par"], est["president"], est["ipo"], est["floated"]) == (67, "Alice", 80, False)
    # a company without trains earns nothing
    rule_error(t, "pay PO 50")
    # T4: the yellow certificate on its 2x2 side costs 200fr; the company first runs for 0 and moves left (§7.7)
    t.do("train PO 2x2")
    po = t.company("PO")
    assert (po["cash"], po["trains"], po["price"]) == (390, ["2x2"], 64)  # D7.4: (13,7)=67 -> (13,6)=64
    # §8.8.2: flipping is only to get within the limit
    rule_error(t, "flip PO 2x2")
    t.do("done PO")
    assert t.status()["round"] == "SR 2"
    assert t.replayed() == t.state  # (the CLI's audit of the same game: test_1843_cli.py)


def test_port_claim_pays_from_the_next_or():
    t = operating()
    t.do("train PO 2+1")  # T4: 125fr; PO first runs for 0 (it had no train)
    t.do("done PO")
    assert t.company("PO")["cash"] == 670 - 125
    while t.status()["round"] == "SR 2":
        t.do(f"pass {stock_turn(t)}")
    assert t.status()["round"] == "OR 2.1"
    # §8.5.3: PO owned a train at the start of this OR, so it may claim a port instead of a station
    out = told(t, "port PO havre")
    assert "Havre" in out
    assert t.company("PO")["ports"] == ["havre"]
    assert "port" in rule_error(t, "token PO")  # no station in an OR with a port claim
    assert "port" in rule_error(t, "port PO brest")  # one claim an OR (A24)
    t.do("withhold PO 50")
    t.do("done PO")
    assert t.company("PO")["cash"] == 545 + 50  # the port pays nothing in the OR of its claim
    while t.status()["round"] == "SR 3":
        t.do(f"pass {stock_turn(t)}")
    assert t.status()["round"] == "OR 3.1"
    assert t.company("PO")["cash"] == 595 + 20  # §8.1: 20fr at the start of every later OR
    assert "havre" in t.status_text()


def test_port_sale_between_companies_needs_the_seller_to_hold_it():
    line = rule_error(operating(), "port PO havre --from PLM")
    assert "PLM" in line and "havre" in line


# --------------------------------------------------------------------------- the ruleset's options

def test_without_an_override_the_draft_price_is_used():
    t = operating()
    t.do("withhold PO 0")
    assert t.company("PO")["price"] == 64


@pytest.mark.parametrize("name", list(RULESET["options"]))
def test_every_option_starts_a_game(name):
    t = Table(f"new 1843 {' '.join(PLAYERS)} --option {name}")
    assert t.status()["title"] == "1843"


def test_plm_has_three_stations_by_default():
    t = new_game()
    assert t.company("PLM")["tokens_left"] == 3  # T3 (I4/A16)
    assert t.company("NOR")["tokens_left"] == 2 and t.company("EST")["tokens_left"] == 4


def test_option_plm_four_stations_gives_plm_four():
    default = new_game().status()
    four = Table(f"new 1843 {' '.join(PLAYERS)} --option plm_four_stations")
    assert four.company("PLM")["tokens_left"] == 4  # the printed charter: free, 40, 100, 100 (A16)
    others = {c["sym"]: c["tokens_left"] for c in four.status()["companies"] if c["sym"] != "PLM"}
    assert others == {c["sym"]: c["tokens_left"] for c in default["companies"] if c["sym"] != "PLM"}
