"""The table's pages and their security (issue 30), each point a test, on Starlette's TestClient:
what each holder's page offers (asked of the core), a link that acts only as its holder, hashed
tokens that --new-links renews, the anti-forgery value, GETs that change nothing, replayed and stale
forms refused, bounded and well-formed requests only (4xx, never a traceback), and nothing from a
request reaching SQL or a shell as text."""

from __future__ import annotations

import io
import re
import sqlite3

import pytest
from starlette.testclient import TestClient
from table_rig import Forms, Rig, game_file, head_of, submit, terminal

from ledger.books.session import Session
from ledger.core import legal
from ledger.interface.board import links, serve as serving
from ledger.interface.views import status_json


@pytest.fixture
def rig(tmp_path):
    r = Rig(game_file(tmp_path, ["bid Ann CS 45"]))
    try:
        yield r
    finally:
        r.close()


@pytest.fixture
def client(rig):
    with TestClient(rig.app, follow_redirects=False) as c:
        yield c


def page(client, rig, who: str, **params) -> Forms:
    answer = client.get(rig.url(who), params=params)
    assert answer.status_code == 200
    return Forms(answer.text)


def act(client, rig, who: str, fields: dict) -> Forms:
    """Send a form as a browser does and follow the redirect back to the page."""
    sent = client.post(rig.url(who), data=fields)
    assert sent.status_code == 303, sent.text
    assert sent.headers["location"].startswith(rig.url(who) + "?note=")
    return Forms(client.get(sent.headers["location"]).text)


def commands(rig) -> list[tuple]:
    conn = sqlite3.connect(str(rig.path))
    try:
        return conn.execute("select id, text, entered_by from commands order by id").fetchall()
    finally:
        conn.close()


# --------------------------------------------------------------------------- what each page offers


def test_a_players_page_offers_only_their_legal_actions_from_the_core(rig, client):
    s = Session.open(rig.path)
    turn = legal.turn(s.state, s.rs)
    ben = page(client, rig, "player:Ben")
    assert {(f["verb"], f["actor"]) for f in ben.forms} == {(a.verb, a.args[0]) for a in turn.actions} == {
        ("buy", "Ben"), ("bid", "Ben"), ("pass", "Ben")}
    bid = ben.of("bid", w_item="CS")
    assert bid["numbers"] == [("a.amount", "50", str(legal.choices(s.state, s.rs, "bid", "Ben", "amount",
                                                                     {"item": "CS"}).high))]
    assert [f["hidden"]["w.item"] for f in ben.forms if f["verb"] == "bid"] == ["CS", "DH", "MH", "CA", "BO"]
    # each control says what it does, at its price, as the engine decides it (and what follows from it)
    assert ben.of("buy", w_item="SV")["buttons"][0]["text"].strip() == "Ben buys SV for $20; Ann buys CS for $45"
    assert [b["text"].strip() for b in ben.of("pass")["buttons"]] == ["Ben passes"]
    assert page(client, rig, "player:Ann").forms == [] and page(client, rig, "player:Cy").forms == []
    banker = page(client, rig, "banker")
    assert {f["verb"] for f in banker.forms} >= {"bid", "buy", "pass"}
    assert banker.forms[-2]["texts"] == ["line"] and [b["value"] for b in banker.forms[-1]["buttons"]] == [
        "undo", "redo"]
    s.close()


def test_players_act_in_turn_through_their_pages_and_the_figures_match_status(rig, client):
    ben = page(client, rig, "player:Ben")
    done = act(client, rig, "player:Ben", submit(ben.of("bid", w_item="CS"), a_amount=55))
    assert done.result[0] == "Ben bids $55 on CS"
    cy = page(client, rig, "player:Cy")
    act(client, rig, "player:Cy", submit(cy.of("pass")))
    ann = page(client, rig, "player:Ann")
    act(client, rig, "player:Ann", submit(ann.of("bid", w_item="CS"), a_amount=60))
    banker = page(client, rig, "banker")
    act(client, rig, "banker", submit(banker.of("pass", actor="Ben")))
    assert commands(rig)[2:] == [(3, "bid Ben CS 55", "player:Ben"), (4, "pass Cy", "player:Cy"),
                                 (5, "bid Ann CS 60", "player:Ann"), (6, "pass Ben", "banker")]
    s = Session.open(rig.path)
    board = client.get("/status.json").json()
    assert board == status_json(s.state, s.rs)
    s.close()


def test_the_boards_last_commands_say_who_entered_each(rig, client):
    act(client, rig, "player:Ben", submit(page(client, rig, "player:Ben").of("pass")))
    act(client, rig, "banker", submit(page(client, rig, "banker").of("pass", actor="Cy")))
    board = client.get("/").text
    said = re.findall(r'<li data-command="(\d+)">.*?<span class="by">by ([^<]+)</span>', board, re.DOTALL)
    assert said == [("4", "banker"), ("3", "Ben"), ("2", "terminal"), ("1", "terminal")]


def test_the_banker_enters_any_command_undo_and_redo(rig, client):
    banker = page(client, rig, "banker")
    line = banker.forms[-2]
    done = act(client, rig, "banker", submit(line, line="bank pass Ben"))
    assert done.result[0] == "Ben passes"
    done = act(client, rig, "banker", submit(page(client, rig, "banker").forms[-1], do="undo"))
    assert done.result[0] == "undone: pass Ben"
    done = act(client, rig, "banker", submit(page(client, rig, "banker").forms[-1], do="redo"))
    assert done.result[0] == "redone: pass Ben"
    done = act(client, rig, "banker", submit(page(client, rig, "banker").forms[-2], line="status"))
    assert "'status' is not entered on the page" in done.result[0]
    assert [row[2] for row in commands(rig)[2:]] == ["banker"] * 3


# --------------------------------------------------------------------------- the links


def test_tokens_are_random_long_and_stored_only_hashed(rig):
    tokens = rig.tokens
    assert set(tokens) == {"player:Ann", "player:Ben", "player:Cy", "banker"}
    assert len(set(tokens.values())) == 4
    for token in tokens.values():
        assert links.TOKEN.fullmatch(token) and len(token) * 6 >= 128   # base64url: 6 bits a character
    conn = sqlite3.connect(str(rig.path))
    stored = dict(conn.execute("select who, token_hash from table_links").fetchall())
    conn.close()
    assert stored == {who: links.digest(token) for who, token in tokens.items()}
    data = rig.path.read_bytes()
    assert not any(token.encode() in data for token in tokens.values())


def test_a_token_acts_only_as_its_player(rig, client):
    ben = page(client, rig, "player:Ben")
    forged = submit(ben.of("pass"), actor="Ann")                          # Ben's form, Ann as actor
    done = act(client, rig, "player:Ben", forged)
    assert done.result == ["this link acts for Ben only: pass Ann is Ann's to enter; nothing was recorded"]
    cy = page(client, rig, "player:Cy")
    forged = {**cy.forms[0]["hidden"], "verb": "pass", "actor": "Ben"} if cy.forms else None
    cy_key = re.search(r'name="form_key" value="([^"]*)"', client.get(rig.url("player:Cy")).text)
    assert forged is None and cy_key is None          # nothing for Cy to do: no form, no key to forge with
    ben_key = ben.of("pass")["hidden"]["form_key"]
    fields = {"form_key": ben_key, "after": "2", "verb": "pass", "actor": "Ben"}
    assert client.post(rig.url("player:Cy"), data=fields).status_code == 403   # Ben's key on Cy's link
    assert len(commands(rig)) == 2
    line = act(client, rig, "player:Ben", {**ben.of("pass")["hidden"], "line": "pass Ben"})
    assert line.result[0].startswith("only the banker's page takes a command line")
    assert len(commands(rig)) == 2


def test_a_wrong_or_missing_token_acts_as_nobody(rig, client):
    for path in ("/t/" + "x" * 32, "/t/short", "/t/" + rig.tokens["banker"][:-1] + "A"):
        answer = client.get(path)
        assert answer.status_code == 200 and "acts as nobody" in answer.text
        assert Forms(answer.text).forms == []
        fields = {"form_key": "a.b", "after": "2", "verb": "pass", "actor": "Ben"}
        assert client.post(path, data=fields).status_code == 403
    assert client.get("/t/").status_code == 404
    assert len(commands(rig)) == 2


def test_new_links_end_the_old_ones(tmp_path):
    path = game_file(tmp_path, ["bid Ann CS 45"])
    first = Rig(path)
    old = first.tokens
    first.close()
    again = Rig(path)                                   # serving again: the links stand, none printed
    assert again.tokens is None and again.table.holder(old["player:Ben"]) == "player:Ben"
    again.close()
    renewed = Rig(path, renew=True)
    try:
        assert renewed.table.holder(old["player:Ben"]) is None
        assert renewed.table.holder(renewed.tokens["player:Ben"]) == "player:Ben"
        with TestClient(renewed.app) as client:
            assert "acts as nobody" in client.get("/t/" + old["player:Ben"]).text
    finally:
        renewed.close()


# --------------------------------------------------------------------------- forms


def test_a_write_needs_this_pages_anti_forgery_value(rig, client):
    form = page(client, rig, "player:Ben").of("pass")
    for key in ("", "junk", "a.b", form["hidden"]["form_key"].split(".")[0] + ".0000", "abc.éé"):
        answer = client.post(rig.url("player:Ben"), data={**form["hidden"], "form_key": key})
        assert answer.status_code == 403
    banker_key = page(client, rig, "banker").forms[0]["hidden"]["form_key"]
    assert client.post(rig.url("player:Ben"), data={**form["hidden"], "form_key": banker_key}).status_code == 403
    other_run = Rig(rig.path)                          # a page drawn by another run of the server
    try:
        with TestClient(other_run.app) as elsewhere:
            answer = elsewhere.post(rig.url("player:Ben"), data=form["hidden"], follow_redirects=False)
        assert answer.status_code == 403
    finally:
        other_run.close()
    answer = client.post(rig.url("player:Ben"), data=form["hidden"], headers={"Origin": "http://evil.example"})
    assert answer.status_code == 403
    assert len(commands(rig)) == 2


def test_gets_never_change_anything(rig, client):
    before = rig.path.read_bytes()
    form = page(client, rig, "player:Ben").of("pass")
    for path in ("/", "/fragment", "/status.json", "/market.json", "/score.json", rig.url("player:Ben"),
                 rig.url("player:Ben") + "/fragment", rig.url("banker")):
        assert client.get(path, params={**form["hidden"], "line": "pass Ben", "do": "undo"}).status_code == 200
    assert client.put(rig.url("player:Ben"), data=form["hidden"]).status_code == 405
    assert rig.path.read_bytes() == before


def test_a_replayed_form_records_once(rig, client):
    form = submit(page(client, rig, "player:Ben").of("pass"))
    first = act(client, rig, "player:Ben", form)
    assert first.result[0] == "Ben passes"
    again = act(client, rig, "player:Ben", form)
    assert again.result[0].startswith("pass Ben: the game moved on since this page was drawn; nothing was recorded")
    assert [row[1] for row in commands(rig)].count("pass Ben") == 1


def test_a_stale_pages_action_is_refused_with_the_reason(rig, client):
    form = submit(page(client, rig, "player:Ben").of("bid", w_item="CS"), a_amount=50)
    s = Session.open(rig.path)
    terminal(s, "pass Ben")                 # typed at the terminal while Ben's page was open
    s.close()
    done = act(client, rig, "player:Ben", form)
    assert done.result == ["bid Ben CS: the game moved on since this page was drawn; nothing was recorded (hint: "
                           "Next: Auction: Cy to act: buy Cy SV (for 20) · bid Cy CS 50 (or more; DH from 75, MH 115, "
                           "CA 165, BO 225) · pass Cy)"]
    assert head_of(rig.path) == 3
    # ... and the typed amount is kept: the form comes back with it
    assert [n for f in done.forms if f["verb"] == "bid" for n in f["numbers"]] == []   # not Ben's to bid now


def test_a_stale_page_whose_action_still_holds_at_its_price_is_taken_at_its_word(rig, client):
    form = submit(page(client, rig, "player:Ben").of("bid", w_item="CS"), a_amount=50)
    s = Session.open(rig.path)
    terminal(s, "count Ann 600")            # a count changes nothing Ben's bid was decided on
    s.close()
    done = act(client, rig, "player:Ben", form)
    assert done.result[0] == "Ben bids $50 on CS"
    assert commands(rig)[-1] == (4, "bid Ben CS 50", "player:Ben")


def test_a_page_that_said_otherwise_is_refused_and_keeps_what_was_typed(rig, client):
    bid = submit(page(client, rig, "player:Ben").of("bid", w_item="DH"), a_amount=75)
    refused = act(client, rig, "player:Ben", {**bid, "seen": "0" * 16})   # drawn when the action read otherwise
    assert refused.result[0].startswith("this action changed since the page was drawn: it now reads 'Bid: DH'")
    assert refused.of("bid", w_item="DH")["typed"] == {"a.amount": "75"}     # what Ben typed, kept
    assert refused.of("bid", w_item="CS")["typed"] == {"a.amount": ""}
    assert len(commands(rig)) == 2


# --------------------------------------------------------------------------- bounded, well-formed requests


def test_junk_oversized_and_malformed_requests_get_a_4xx(rig, client):
    url = rig.url("player:Ben")
    form = page(client, rig, "player:Ben").of("pass")["hidden"]
    cases = [
        (dict(content=b"x=" + b"a" * 5000, headers={"Content-Type": "application/x-www-form-urlencoded"}), 413),
        (dict(content=b"&".join(b"f%d=1" % i for i in range(40)),
              headers={"Content-Type": "application/x-www-form-urlencoded"}), 400),
        (dict(content=b"\xff\xfe=\x00", headers={"Content-Type": "application/x-www-form-urlencoded"}), 400),
        (dict(content=b"a=1&a=2", headers={"Content-Type": "application/x-www-form-urlencoded"}), 400),
        (dict(content=b'{"verb": "pass"}', headers={"Content-Type": "application/json"}), 415),
        (dict(files={"verb": ("x", b"pass")}), 415),
        (dict(data={**form, "after": "not a number"}), 400),
        (dict(data={**form, "after": ""}), 400),
        (dict(data={**form, "a.amount": "9" * 500}), 400),
        (dict(content=b"=&&==", headers={"Content-Type": "application/x-www-form-urlencoded"}), 400),
    ]
    for request, status in cases:
        answer = client.post(url, **request)
        assert answer.status_code == status, (request, answer.text)
        assert "Traceback" not in answer.text
    assert client.get("/t/" + "x" * 5000).status_code in (200, 404, 414)
    assert len(commands(rig)) == 2


def test_form_values_are_data_never_sql_or_shell(rig, client):
    form = page(client, rig, "player:Ben").of("bid", w_item="CS")
    for item, amount in (("CS'; drop table commands; --", "50"), ("$(touch /tmp/pwned)", "50"),
                         ("CS", "--force"), ("CS", "50; rm -rf /"), ("CS", "1e9")):
        done = act(client, rig, "player:Ben", submit(form, w_item=item, a_amount=amount))
        assert done.result and "Traceback" not in " ".join(done.result)
        assert len(commands(rig)) == 2, done.result
    s = Session.open(rig.path)
    assert s.head == 2
    s.close()


def test_requests_are_bounded_in_rate(rig, client, monkeypatch):
    from ledger.interface.board import table
    monkeypatch.setattr(table, "BURST", 5)
    monkeypatch.setattr(table, "PER_SECOND", 0.5)
    answers = [client.get(rig.url("player:Ben") + "/fragment").status_code for _ in range(8)]
    assert answers[:5] == [200] * 5 and answers[5:] == [429] * 3
    assert client.get(rig.url("player:Cy") + "/fragment").status_code == 200   # another link has its own
    # made-up tokens share one budget: changing the token does not buy a fresh one
    made_up = [client.get(f"/t/{'x' * 20}{n:012d}/fragment").status_code for n in range(8)]
    assert made_up[:5] == [200] * 5 and made_up[5:] == [429] * 3


# --------------------------------------------------------------------------- how the server says where it is


@pytest.mark.parametrize("host, plainly", [
    ("127.0.0.1", "Listening on 127.0.0.1 only: phones cannot open these links. To serve the table's network, "
                  "start it with --host 0.0.0.0"),
    ("0.0.0.0", "Serving the table's network on 0.0.0.0: anyone on it can read the board; only a link's holder "
                "can act, and only as themselves."),
])
def test_the_links_are_printed_and_the_network_said_plainly(rig, host, plainly):
    out = io.StringIO()
    serving.announce_table(rig.writer, rig.tokens, host, "http://192.0.2.7:8018/", out)
    text = out.getvalue()
    assert plainly in text
    for who, label in (("player:Ann", "Ann"), ("player:Cy", "Cy"), ("banker", "The banker")):
        assert f"{label}: http://192.0.2.7:8018/t/{rig.tokens[who]}" in text
    assert ("\u2580" in text or "\u2584" in text) == (host != "127.0.0.1")   # a QR code where phones reach
    assert serving.DEFAULT_HOST == "127.0.0.1"
