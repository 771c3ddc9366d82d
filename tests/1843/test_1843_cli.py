"""1843 through the `bank` command line (typer's CliRunner) and its game file: what only the CLI shows
(`bank info`, `log`, `explain`, exit codes and the one stderr line, help, a table's `--rules` file kept
in the game file, `audit`). The rules these once checked through the CLI run on the engine in
test_1843_opening_rounds.py.

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

from ledger.catalog import ruleset_text
from ledger.core.errors import CommandError, RuleViolation
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


@pytest.fixture
def bank(tmp_path, monkeypatch):
    b = Bank(tmp_path / "game.db", monkeypatch)
    b("new", "1843", *PLAYERS)
    return b


def played(b: Bank, tmp_path, *lines: str) -> None:
    """The lines as one transcript, through `bank play`."""
    script = tmp_path / "lines.txt"
    script.write_text("\n".join(lines) + "\n")
    b("play", str(script))


# --------------------------------------------------------------------------- bank info 1843

def test_info_shows_the_provisional_market_note():
    out = CliRunner().invoke(app, ["info", "1843"])
    assert out.exit_code == 0, out.output
    note = RULESET["market"]["provisional"]
    assert note and " ".join(note.split()) in " ".join(out.stdout.split())   # the views wrap to the width
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


# --------------------------------------------------------------------------- the game file's views


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


def test_malformed_amount_is_a_command_error(bank):
    result = bank("bid", "Alice", "HAV", "lots", ok=False)
    line = error_line(result)
    assert result.exit_code == CommandError.exit_code and "lots" in line


# --------------------------------------------------------------------------- 1843's verbs in the CLI


def test_new_verbs_have_help():
    runner = CliRunner()
    for verb, flag in (("port", "--from"), ("flip", None), ("use", None), ("tile", "--hex"), ("token", "--using"),
                       ("token", "--move"), ("buy-private", "--as-train"), ("exchange", "--par")):
        out = runner.invoke(app, [verb, "--help"])
        assert out.exit_code == 0, (verb, out.output)
        if flag:
            assert flag in out.stdout, (verb, flag)


def test_an_operating_round_through_the_cli_audits_clean(bank, tmp_path):
    """The first operating round of test_1843_opening_rounds.py (a Paris tile, a station, Val de Loire
    exchanged for EST's director's half, a 2x2), stored in the game file: the audit finds the ledger,
    the replay and the rules in agreement."""
    played(bank, tmp_path, *AUCTION, *STOCK_ROUND_1, "tile PO 0 --hex paris", "token PO",
           "exchange Alice VDL EST --par 67", "train PO 2x2", "done PO")
    assert bank.status()["round"] == "SR 2"
    assert bank("audit").exit_code == 0


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
    played(b, tmp_path, *AUCTION, *STOCK_ROUND_1)
    assert b.company("PO")["price"] == 67
    b("withhold", "PO", "0")
    assert b.company("PO")["price"] == 63  # the table's number, kept when the game file is reopened
    assert "63fr" in b("status").stdout
    assert re.search(r"\b63\b", b("market").stdout)


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
    played(b, tmp_path, *AUCTION[:-1])
    assert "68" in b("status").stdout  # the pending LM par lists the table's yellow pars
    rule_error(b("par", "Carol", "PLM", "67", ok=False))
    b("par", "Carol", "PLM", "68")
    plm = b.company("PLM")
    assert (plm["par"], plm["price"]) == (68, 68)


def test_unknown_option_is_refused(tmp_path, monkeypatch):
    b = Bank(tmp_path / "g.db", monkeypatch)
    line = error_line(b("new", "1843", *PLAYERS, "--option", "plm_five_stations", ok=False))
    assert "plm_five_stations" in line
    assert not (tmp_path / "g.db").exists()
