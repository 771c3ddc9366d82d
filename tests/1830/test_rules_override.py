"""A table's ruleset override file (`bank new ... --rules FILE`) is merged over the title's rules
and stored with the game, so the game keeps loading under those rules."""

from cli_1830 import Runner as CliRunner

from ledger.interface.cli import app


def test_override_game_reopens_with_the_overridden_rules(fast_path):
    override = fast_path / "table.toml"
    override.write_text("[bank]\ntotal = 15000\n")
    db = str(fast_path / "g.db")
    runner = CliRunner()
    made = runner.invoke(app, ["--game", db, "new", "1830", "A", "B", "C", "--rules", str(override)])
    assert made.exit_code == 0, made.output
    # a later command reopens the file: 15000 - 3 x 800 starting cash stays in the bank
    status = runner.invoke(app, ["--game", db, "status", "--json"])
    assert status.exit_code == 0, status.output
    assert '"bank": 12600' in status.output
    assert runner.invoke(app, ["--game", db, "audit"]).exit_code == 0
