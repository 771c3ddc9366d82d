"""1843 through the `bank` command line (typer's CliRunner), as a table would type it.

Expected numbers come from the rules (`/work/shared/rules/1843.md`, "D x.y" below) and `docs/1843.md`:
T1 starting cash 600fr for 4 players; §6 waterfall auction with bids in steps of 5 (D4); privates'
face and revenue (D3.1); §7.4 full capitalisation (10 x par); §7.1 seats re-dealt by descending cash;
§8.4.3 the 40fr Paris fee; §8.5.1 stations 40fr then 100fr; T4 train prices; T3 station markers
(PLM 3, or 4 with the printed charter, A16); the draft market grid of D7.4 (withholding moves left).
The option names and the provisional note are read from the shipped ruleset, not copied here.
"""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from cli_driver import Bank, error_line
from typer.testing import CliRunner

from ledger.core.errors import CommandError, RuleViolation
from ledger.catalog import ruleset_text
from ledger.interface.cli import app

PLAYERS = ["Alice", "Bob", "Carol", "Dave"]
RULESET = tomllib.loads(ruleset_text("1843"))

# Every private bought at face in card order (§6.1: buy the cheapest), Carol setting PLM's par with LM (§6.3).
AUCTION = ["buy Alice TB", "buy Bob CEI", "buy Carol SG", "buy Dave HAV", "buy Alice VDL", "buy Bob BA",
           "buy Carol LM", "par Carol PLM 67"]
# SR 1 starts after the last buyer, Carol (§6.2): Dave starts PO at 67 and it floats at 60 % sold (§7.4).
STOCK_ROUND_1 = ["par Dave PO 67", "buy Alice PO", "buy Bob PO", "buy Carol PO", "buy Dave PO",
                 "pass Alice", "pass Bob", "pass Carol", "pass Dave"]


def rule_error(result) -> str:
    """A rejected call that reached the engine: one line, the RuleViolation exit code, no usage text."""
    line = error_line(result)
    assert result.exit_code == RuleViolation.exit_code, (result.exit_code, line)
    assert "bank --help" not in line and "Usage" not in result.output, line
    return line


def no_dollars(text: str) -> None:
    assert "$" not in text, f"an amount in dollars in a francs game: {text!r}"


def stock_turn(bank) -> str:
    """Whose turn it is in a stock round, from status --json ("SR 2: Alice's turn: ...")."""
    turn = bank.status()["turn"]
    assert turn.startswith("SR "), turn
    return turn.split(":")[1].split("'")[0].strip()


@pytest.fixture
def bank(tmp_path, monkeypatch):
    b = Bank(tmp_path / "game.db", monkeypatch)
    b("new", "1843", *PLAYERS)
    return b


@pytest.fixture
def operating(bank):
    """OR 1.1: PO (director Dave) is the only floated company and operates."""
    bank.lines(*AUCTION, *STOCK_ROUND_1)
    st = bank.status()
    assert st["round"] == "OR 1.1" and st["operating"] == "PO"
    return bank


# --------------------------------------------------------------------------- bank info 1843

def test_info_shows_the_provisional_market_note():
    out = CliRunner().invoke(app, ["info", "1843"])
    assert out.exit_code == 0, out.output
    note = RULESET["market"]["provisional"]
    assert note and note in out.stdout
    assert "PROVISIONAL" in out.stdout.upper()
    assert "--rules" in out.stdout  # where a table's own market goes


def test_info_lists_every_option_of_the_ruleset():
    out = CliRunner().invoke(app, ["info", "1843"])
    assert out.exit_code == 0, out.output
    options = RULESET["options"]
    assert options
    for name, spec in options.items():
        row = next((l for l in out.stdout.splitlines() if l.split()[:1] == [name]), None)
        assert row is not None, f"option {name} missing from 'bank info 1843'"
        assert ("on" if spec.get("default", False) else "off") in row.split()
        assert spec["description"][:30] in row


def test_info_amounts_are_in_francs():
    out = CliRunner().invoke(app, ["info", "1843"]).stdout
    assert "600fr" in out and "18" in out  # T1: 4 players, 600fr each, limit 18
    assert "210fr" in out and "900fr" in out  # LM's face (D3.1) and the TGV (T4)
    no_dollars(out)


# --------------------------------------------------------------------------- a short auction

def test_new_game_then_auction_status_in_francs(bank):
    st = bank.status()
    assert st["title"] == "1843" and st["round"] == "Auction" and st["phase"] == "yellow"
    assert st["bank"] == 100_000 - 4 * 600  # RULES §2, T1
    assert [p["cash"] for p in st["players"]] == [600] * 4
    bank.line("buy Alice TB")      # the cheapest at face, 15fr
    bank.line("bid Bob HAV 70")    # at least face + 5 = 65, in steps of 5 (§6.1)
    bank.line("buy Carol CEI")     # 20fr; SG next has no bid, so resolution stops (§6.2)
    bank.line("buy Dave SG")       # 40fr; then HAV's single bid wins: Bob pays 70; VDL has no bid
    st = bank.status()
    assert bank.cash() == {"Alice": 585, "Bob": 530, "Carol": 580, "Dave": 560}
    assert st["bank"] == 97_600 + 15 + 70 + 20 + 40
    owners = {p["sym"]: p["owner"] for p in st["privates"]}
    assert owners["HAV"] == "Bob" and owners["SG"] == "Dave" and owners["VDL"] is None
    assert st["turn"].startswith("Auction: Alice")  # the player after the last face buyer, Dave (§6.2)
    text = bank("status").stdout
    for amount in ("585fr", "530fr", "580fr", "560fr", f"{st['bank']}fr", "110fr"):
        assert amount in text, (amount, text)
    no_dollars(text)
    assert "buy VDL for 110," in st["turn"]  # the Next line's amounts paste into bash: no currency
    no_dollars(st["turn"])


def test_status_json_strings_are_in_francs(bank):
    bank.line("buy Alice TB")
    out = bank("status", "--json").stdout
    assert "125fr" in out  # the yellow 2+1 (T4)
    no_dollars(out)


def test_log_amounts_are_in_francs(bank):
    bank.line("buy Alice TB")
    out = bank("log").stdout
    assert "buy Alice TB" in out and "15fr" in out
    no_dollars(out)


def test_explain_amounts_are_in_francs(bank):
    bank.line("buy Alice TB")
    out = bank("explain", "2").stdout
    assert "15fr" in out
    no_dollars(out)


# --------------------------------------------------------------------------- errors

def test_rejected_bid_is_one_error_line_in_francs_and_changes_nothing(bank):
    bank.line("buy Alice TB")
    before = bank("status", "--json").stdout
    result = bank("bid", "Bob", "HAV", "60", ok=False)
    line = rule_error(result)
    assert "65fr" in line and "60" in line, line  # HAV's opening minimum: face 60 + 5 (D4.2, E2)
    no_dollars(line)
    assert result.stdout == ""
    assert bank("status", "--json").stdout == before


def test_bid_above_free_cash_names_the_amounts_in_francs(bank):
    bank.line("buy Alice TB")
    line = rule_error(bank("bid", "Bob", "LM", "615", ok=False))  # Bob has 600fr
    assert "600fr" in line and "615fr" in line, line
    no_dollars(line)


def test_bid_not_a_multiple_of_five_is_refused_in_francs(bank):
    line = rule_error(bank("bid", "Alice", "HAV", "67", ok=False))
    assert "fr" in line and "67" in line, line
    no_dollars(line)


def test_malformed_amount_is_a_command_error(bank):
    result = bank("bid", "Alice", "HAV", "lots", ok=False)
    line = error_line(result)
    assert result.exit_code == CommandError.exit_code and "lots" in line


def test_stock_round_error_in_francs(bank):
    bank.lines(*AUCTION)
    line = rule_error(bank("par", "Dave", "PO", "105", ok=False))  # blue par in the yellow phase (T2, §7.4)
    assert "105fr" in line and "67fr" in line, line
    no_dollars(line)


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
def test_new_verbs_are_parsed_and_refused_by_a_rule(bank, line):
    before = bank("status", "--json").stdout
    message = rule_error(bank.line(line, ok=False))
    assert len(message) > len("error: ") + 10
    assert bank("status", "--json").stdout == before


def test_new_verbs_have_help():
    runner = CliRunner()
    for verb, flag in (("port", "--from"), ("flip", None), ("use", None), ("tile", "--hex"), ("token", "--using"),
                       ("token", "--move"), ("buy-private", "--as-train"), ("exchange", "--par")):
        out = runner.invoke(app, [verb, "--help"])
        assert out.exit_code == 0, (verb, out.output)
        if flag:
            assert flag in out.stdout, (verb, flag)


def test_operating_round_through_the_cli(operating):
    bank = operating
    st = bank.status()
    # §7.1: seats re-dealt by descending cash at the end of SR 1 (Alice 408, Bob 363, Dave 339, Carol 283)
    assert [p["name"] for p in st["players"]] == ["Alice", "Bob", "Dave", "Carol"]
    # OR start: privates pay (D3.1): TB 0 + VDL 20, CEI 5 + BA 25, HAV 15, SG 10 + LM 30
    assert bank.cash() == {"Alice": 428, "Bob": 393, "Dave": 354, "Carol": 323}
    po = bank.company("PO")
    assert (po["cash"], po["price"], po["tokens_left"], po["trains"]) == (670, 67, 1, [])  # 10 x par; home placed

    # §8.5.3: no port claim without a train at the start of the OR
    line = rule_error(bank("port", "PO", "boulogne", ok=False))
    assert "train" in line
    # §8.4.3: Paris costs 40fr on top of the terrain
    out = bank("tile", "PO", "0", "--hex", "paris").stdout
    assert "40fr" in out
    no_dollars(out)
    assert bank.company("PO")["cash"] == 630
    # PO is not one of EST/MID/OU/PRO/SO: no second yellow tile (§8.4.1)
    rule_error(bank("tile", "PO", "20", ok=False))
    # §8.5.2: stations move only in the gray phase
    assert "gray" in rule_error(bank("token", "PO", "--move", ok=False))
    # §8.5.1: the first station placed costs 40fr; PO has two markers (T3), the home one is down
    bank("token", "PO")
    po = bank.company("PO")
    assert (po["cash"], po["tokens_left"]) == (590, 0)
    # PO owns neither Havre nor Val de Loire
    rule_error(bank("token", "PO", "--using", "HAV", ok=False))
    rule_error(bank("use", "PO", "VDL", "2+1", ok=False))
    # §10.2: Val de Loire becomes a train only in 5-6 player games
    assert "5" in rule_error(bank("buy-private", "PO", "VDL", "110", "--as-train", ok=False))
    # §10.2: in an OR the owner may exchange VDL at any time; a blue par is not open in yellow (T2)
    line = rule_error(bank("exchange", "Alice", "VDL", "EST", "--par", "105", ok=False))
    assert "105fr" in line
    bank("exchange", "Alice", "VDL", "EST", "--par", "67")  # the player pays the other half: 1 x par
    assert bank.cash()["Alice"] == 428 - 67
    est = bank.company("EST")
    assert (est["par"], est["president"], est["ipo"], est["floated"]) == (67, "Alice", 80, False)
    # a company without trains earns nothing
    rule_error(bank("pay", "PO", "50", ok=False))
    # T4: the yellow certificate on its 2x2 side costs 200fr; the company first runs for 0 and moves left (§7.7)
    bank("train", "PO", "2x2")
    po = bank.company("PO")
    assert (po["cash"], po["trains"], po["price"]) == (390, ["2x2"], 64)  # D7.4: (13,7)=67 -> (13,6)=64
    # §8.8.2: flipping is only to get within the limit
    rule_error(bank("flip", "PO", "2x2", ok=False))
    bank("done", "PO")
    st = bank.status()
    assert st["round"] == "SR 2"
    assert bank("audit").exit_code == 0


def test_port_claim_through_the_cli_pays_from_the_next_or(operating):
    bank = operating
    bank("train", "PO", "2+1")  # T4: 125fr; PO first runs for 0 (it had no train)
    bank("done", "PO")
    assert bank.company("PO")["cash"] == 670 - 125
    while bank.status()["round"] == "SR 2":
        bank("pass", stock_turn(bank))
    assert bank.status()["round"] == "OR 2.1"
    # §8.5.3: PO owned a train at the start of this OR, so it may claim a port instead of a station
    out = bank("port", "PO", "havre").stdout
    assert "havre" in out
    assert bank.company("PO")["ports"] == ["havre"]
    assert "port" in rule_error(bank("token", "PO", ok=False))  # no station in an OR with a port claim
    assert "port" in rule_error(bank("port", "PO", "brest", ok=False))  # one claim an OR (A24)
    bank("withhold", "PO", "50")
    bank("done", "PO")
    assert bank.company("PO")["cash"] == 545 + 50  # the port pays nothing in the OR of its claim
    while bank.status()["round"] == "SR 3":
        bank("pass", stock_turn(bank))
    assert bank.status()["round"] == "OR 3.1"
    assert bank.company("PO")["cash"] == 595 + 20  # §8.1: 20fr at the start of every later OR
    assert "havre" in bank("status").stdout


def test_port_sale_between_companies_needs_the_seller_to_hold_it(operating):
    line = rule_error(operating("port", "PO", "havre", "--from", "PLM", ok=False))
    assert "PLM" in line and "havre" in line


# --------------------------------------------------------------------------- a table's own rules and options

def grid_with(row: int, col: int, text: str) -> list[list[str]]:
    rows = [list(r) for r in RULESET["market"]["rows"]]
    assert rows[row][col] and not rows[row][col].endswith(("p", "e"))
    rows[row][col] = text
    return rows


def test_rules_override_changes_a_market_price(tmp_path, monkeypatch):
    # D7.4: PO parred at 67 sits at (13,7); withholding moves it left to (13,6), printed 64 on the draft.
    assert RULESET["market"]["rows"][13][6] == "64" and RULESET["market"]["rows"][13][7] == "67p"
    override = tmp_path / "table.toml"
    override.write_text("[market]\nrows = " + json.dumps(grid_with(13, 6, "63")) + "\n")
    b = Bank(tmp_path / "game.db", monkeypatch)
    b("new", "1843", *PLAYERS, "--rules", str(override))
    b.lines(*AUCTION, *STOCK_ROUND_1)
    assert b.company("PO")["price"] == 67
    b("withhold", "PO", "0")
    assert b.company("PO")["price"] == 63  # the table's number, kept when the game file is reopened
    assert "63fr" in b("status").stdout
    assert re.search(r"\b63\b", b("market").stdout)


def test_without_the_override_the_draft_price_is_used(operating):
    operating("withhold", "PO", "0")
    assert operating.company("PO")["price"] == 64


def test_rules_override_changes_a_par_box(tmp_path, monkeypatch):
    rows = [list(r) for r in RULESET["market"]["rows"]]
    assert rows[13][7] == "67p"
    rows[13][7] = "68p"
    pars = [68 if p == 67 else p for p in RULESET["company"]["par_prices"]]
    yellow = [68 if p == 67 else p for p in RULESET["market"]["par_colours"]["yellow"]]
    override = tmp_path / "table.toml"
    override.write_text("[market]\nrows = " + json.dumps(rows) + "\n"
                        "[market.par_colours]\nyellow = " + json.dumps(yellow) + "\n"
                        "[company]\npar_prices = " + json.dumps(pars) + "\n")
    b = Bank(tmp_path / "game.db", monkeypatch)
    b("new", "1843", *PLAYERS, "--rules", str(override))
    b.lines(*AUCTION[:-1])
    assert "68" in b("status").stdout  # the pending LM par lists the table's yellow pars
    rule_error(b("par", "Carol", "PLM", "67", ok=False))
    b("par", "Carol", "PLM", "68")
    plm = b.company("PLM")
    assert (plm["par"], plm["price"]) == (68, 68)


@pytest.mark.parametrize("name", list(RULESET["options"]))
def test_every_option_starts_a_game(tmp_path, monkeypatch, name):
    b = Bank(tmp_path / "g.db", monkeypatch)
    b("new", "1843", *PLAYERS, "--option", name)
    assert b.status()["title"] == "1843"


def test_plm_has_three_stations_by_default(bank):
    assert bank.company("PLM")["tokens_left"] == 3  # T3 (I4/A16)
    assert bank.company("NOR")["tokens_left"] == 2 and bank.company("EST")["tokens_left"] == 4


def test_option_plm_four_stations_gives_plm_four(tmp_path, monkeypatch):
    default = Bank(tmp_path / "a.db", monkeypatch)
    default("new", "1843", *PLAYERS)
    four = Bank(tmp_path / "b.db", monkeypatch)
    four("new", "1843", *PLAYERS, "--option", "plm_four_stations")
    assert four.company("PLM")["tokens_left"] == 4  # the printed charter: free, 40, 100, 100 (A16)
    others = {c["sym"]: c["tokens_left"] for c in four.status()["companies"] if c["sym"] != "PLM"}
    assert others == {c["sym"]: c["tokens_left"] for c in default.status()["companies"] if c["sym"] != "PLM"}


def test_unknown_option_is_refused(tmp_path, monkeypatch):
    b = Bank(tmp_path / "g.db", monkeypatch)
    line = error_line(b("new", "1843", *PLAYERS, "--option", "plm_five_stations", ok=False))
    assert "plm_five_stations" in line
    assert not (tmp_path / "g.db").exists()
