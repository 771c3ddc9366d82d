"""Every view a script would read has --json (issue 35): status, market, score and log had it;
explain, audit and chart too, with the figures the text shows."""

from __future__ import annotations

import json
from pathlib import Path

from cli_driver import Bank

ROOT = Path(__file__).resolve().parents[2]


def test_explain_audit_and_chart_as_json(tmp_path):
    b = Bank(tmp_path / "g.db")
    b("play", str(ROOT / "examples" / "1830-opening.txt"))
    log = b.log()
    withheld = next(e for e in log if e["text"] == "withhold NYC 0")
    explained = json.loads(b("explain", str(withheld["id"]), "--json").stdout)
    assert explained["command"] == withheld["id"] and explained["text"] == "withhold NYC 0"
    revenue = next(e for e in explained["events"] if e["kind"] == "revenue")
    assert revenue["corp"] == "NYC" and revenue["how"] == "withhold"
    assert explained["lines"][0].startswith(f"command {withheld['id']}")

    audited = json.loads(b("audit", "--json").stdout)
    assert audited["ok"] is True and audited["problems"] == [] and audited["notes"]

    worth = json.loads(b("chart", "worth", "--json").stdout)
    assert worth["rounds"][:2] == ["Auction", "SR 1"]
    final = {name: values[-1] for name, values in worth["series"].items()}
    assert final == {p["name"]: p["value"] for p in b.score()["players"]}
