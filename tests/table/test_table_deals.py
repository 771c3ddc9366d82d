"""What a table page does beyond one tap (issue 34), on Starlette's TestClient and the 1830 example
game: a deal that takes another player's holding waits for that player's yes (and the ledger says
who offered and who accepted), a company that must buy a train is offered no plain "done", a run's
revenue says what it pays before it is sent, a player takes back their own last action while
nobody has acted since, and the top line names the latest command and who entered it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from table_rig import Forms, Rig, example_file, submit

from ledger.books.session import Session


@pytest.fixture
def served():
    made = []

    def serve(path: Path):
        rig = Rig(path)
        client = TestClient(rig.app, follow_redirects=False)
        client.__enter__()
        made.append((rig, client))
        return rig, client
    yield serve
    for rig, client in made:
        client.__exit__(None, None, None)
        rig.close()


def page(client, rig, who: str) -> Forms:
    answer = client.get(rig.url(who))
    assert answer.status_code == 200
    return Forms(answer.text)


def act(client, rig, who: str, fields: dict) -> Forms:
    sent = client.post(rig.url(who), data=fields)
    assert sent.status_code == 303, sent.text
    return Forms(client.get(sent.headers["location"]).text)


def last_command(path: Path) -> tuple:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("select text, entered_by from commands where status = 'active' order by id desc "
                            "limit 1").fetchone()
    finally:
        conn.close()


def test_a_private_bought_from_another_player_waits_for_their_yes(tmp_path, served):
    path = example_file(tmp_path, 102)          # OR 2.1: NYC (Player 1's) may buy Player 3's CS
    rig, client = served(path)
    nyc = page(client, rig, "player:Player 1")
    assert nyc.of("buy-private", w_private="SV")["hidden"]["kind"] == "act"   # his own SV: no one to ask
    offer = nyc.of("buy-private", w_private="CS")
    assert offer["hidden"]["kind"] == "propose"               # sent as an offer, never entered
    assert offer["numbers"][0][:2] == ("a.price", "20")        # from half its face
    said = act(client, rig, "player:Player 1", submit(offer, a_price=40))
    assert said.result[0].startswith("Offered to Player 3: Buy a private: CS (price 40). Nothing moves until")
    assert last_command(path)[0] == "train NYC 3"              # nothing recorded yet
    seller = page(client, rig, "player:Player 3")
    answer = next(f for f in seller.forms if f["hidden"].get("offer"))
    assert [b["value"] for b in answer["buttons"]] == ["accept", "decline"]
    done = act(client, rig, "player:Player 3", submit(answer, kind="accept"))
    assert done.result[0] == "NYC buys CS from Player 3 for $40"
    assert last_command(path) == ("buy-private NYC CS 40", "player:Player 3; offered by player:Player 1")
    s = Session.open(path)
    assert s.state.privates["CS"].owner == "company:NYC"
    s.close()


def test_a_declined_offer_moves_nothing(tmp_path, served):
    path = example_file(tmp_path, 102)
    rig, client = served(path)
    offer = page(client, rig, "player:Player 1").of("buy-private", w_private="CS")
    act(client, rig, "player:Player 1", submit(offer, a_price=20))
    answer = next(f for f in page(client, rig, "player:Player 3").forms if f["hidden"].get("offer"))
    done = act(client, rig, "player:Player 3", submit(answer, kind="decline"))
    assert done.result == ["Player 3 declined: Buy a private: CS"]
    assert last_command(path)[0] == "train NYC 3"
    forged = act(client, rig, "player:Player 1", {**answer["hidden"], "kind": "accept",
                                                  "form_key": offer["hidden"]["form_key"]})
    assert forged.result[0].startswith("that offer is no longer open")


def test_only_the_other_player_accepts(tmp_path, served):
    path = example_file(tmp_path, 102)
    rig, client = served(path)
    offer = page(client, rig, "player:Player 1").of("buy-private", w_private="CS")
    act(client, rig, "player:Player 1", submit(offer, a_price=30))
    key = next(iter(rig.table.proposals))
    own = act(client, rig, "player:Player 1", {**offer["hidden"], "kind": "accept", "offer": key})
    assert own.result[0] == "this offer is Player 3's to answer"
    other = act(client, rig, "player:Player 2", {**page(client, rig, "player:Player 2").forms[0]["hidden"],
                                                 "kind": "accept", "offer": key}) \
        if page(client, rig, "player:Player 2").forms else None
    assert other is None or other.result[0] == "this offer is Player 3's to answer"
    assert last_command(path)[0] == "train NYC 3"


def test_a_company_that_must_buy_a_train_is_offered_no_plain_done(tmp_path, served):
    path = example_file(tmp_path, 56)           # OR 1.1: NYC has run for nothing and owns no train
    rig, client = served(path)
    nyc = page(client, rig, "player:Player 3")
    dones = [f for f in nyc.forms if f["verb"] == "done"]
    assert [f["hidden"].get("w.no_route") for f in dones] == ["True"]      # only with no route ...
    html = client.get(rig.url("player:Player 3")).text
    assert "<summary>NYC has no route" in html or "Sure?" in html          # ... asked twice
    assert any(f["verb"] == "train" for f in nyc.forms)


def test_a_run_says_what_it_pays_before_it_is_sent(tmp_path, served):
    path = example_file(tmp_path, 91)           # PRR is to run
    rig, client = served(path)
    prr = page(client, rig, "player:Player 1")
    pay = prr.of("pay")
    found = client.get(rig.url("player:Player 1") + "/preview",
                       params={"verb": "pay", "actor": pay["actor"], "a.revenue": "30"}).json()
    assert found["ok"] and found["lines"][0].startswith("PRR pays out $30 ($3/share): ")
    wrong = client.get(rig.url("player:Player 1") + "/preview",
                       params={"verb": "pay", "actor": pay["actor"], "a.revenue": "35"}).json()
    assert not wrong["ok"] and "multiple" in wrong["lines"][0]
    # without scripts, the form's own "What it does" button draws the page with the same lines
    shown = client.get(rig.url("player:Player 1"), params={"preview": "1", "verb": "pay", "actor": "PRR",
                                                            "a.revenue": "30"}).text
    assert 'data-field="preview">PRR pays out $30' in shown


def test_a_player_undoes_their_own_last_action_while_nobody_acted_since(tmp_path, served):
    path = example_file(tmp_path, 91)
    rig, client = served(path)
    pay = page(client, rig, "player:Player 1").of("pay")
    act(client, rig, "player:Player 1", submit(pay, a_revenue=30))
    again = client.get(rig.url("player:Player 1")).text
    assert "Undo my last action" in again
    assert "Undo my last action" not in client.get(rig.url("player:Player 2")).text
    undo = next(f for f in Forms(again).forms if "undo-mine" in [b["value"] for b in f["buttons"]])
    done = act(client, rig, "player:Player 1", submit(undo, kind="undo-mine"))
    assert done.result[0] == "undone: pay PRR 30"
    assert last_command(path)[0] == "tile PRR 0"


def test_the_top_line_names_the_latest_command_and_who_entered_it(tmp_path, served):
    path = example_file(tmp_path, 91)
    rig, client = served(path)
    pay = page(client, rig, "player:Player 1").of("pay")
    act(client, rig, "player:Player 1", submit(pay, a_revenue=30))
    other = client.get(rig.url("player:Player 2")).text
    assert 'data-field="latest">Latest: PRR pays out $30' in other and "(#" in other and "Player 1)" in other
    mine = client.get(rig.url("player:Player 1")).text
    assert ", you)" in mine


def test_the_bankers_line_reads_a_phones_typographic_quotes(tmp_path, served):
    path = example_file(tmp_path, 91)
    rig, client = served(path)
    line = next(f for f in page(client, rig, "banker").forms if "line" in f["texts"])
    done = act(client, rig, "banker", submit(line, line="adjust bank \u201cPlayer 1\u201d 5 --reason \u2018fix\u2019"))
    assert done.result[0].startswith("Correction: bank pays Player 1 $5") or "Player 1" in done.result[0]
    assert last_command(path)[0] == "adjust bank \"Player 1\" 5 --reason 'fix'"


def test_a_correction_on_the_bankers_line_says_what_it_changed(tmp_path, served):
    """undo on the banker's line lists the money and certificates it changed back, as the CLI does."""
    path = example_file(tmp_path, 91)
    rig, client = served(path)
    line = next(f for f in page(client, rig, "banker").forms if "line" in f["texts"])
    act(client, rig, "banker", submit(line, line="adjust bank 'Player 1' 5 --reason fix"))
    line = next(f for f in page(client, rig, "banker").forms if "line" in f["texts"])
    done = act(client, rig, "banker", submit(line, line="undo"))
    assert done.result[0].startswith("undone: adjust bank")
    assert "money: Player 1 -$5, the bank +$5" in " ".join(done.result)
