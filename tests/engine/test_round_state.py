"""A round's bookkeeping is typed (ledger.core.round_state): a frozen dataclass per kind, a title's
fields added as its own class; it reads as a mapping of what is set and changes only by being
replaced."""

import copy

import pytest

from ledger import catalog
from ledger.core import snapshot
from ledger.core.round_state import OperatingRound, Round, StockRound, make_round


def test_a_round_reads_as_the_mapping_of_what_is_set():
    r = make_round("1830", {"kind": "stock", "number": 2, "turn": 1, "passes": 0, "buys": [], "sold": {}})
    assert isinstance(r, StockRound)
    assert r.get("sale_at", {}) == {} and r.get("number") == 2
    assert "passers" not in r and "buys" in r   # an empty list is set, None is not
    assert dict(r) == {"kind": "stock", "number": 2, "turn": 1, "passes": 0, "buys": [], "sold": {}}
    assert r == {"kind": "stock", "number": 2, "turn": 1, "passes": 0, "buys": [], "sold": {}, "acted": None}


def test_a_key_no_round_keeps_is_refused_where_it_is_read_or_written():
    r = make_round("1830", {"kind": "stock", "number": 1})
    with pytest.raises(KeyError, match="no round of this game keeps 'tile'"):
        r.get("tile", 0)
    with pytest.raises(TypeError, match="a stock round keeps no 'tiles'"):
        r.but(tiles=1)   # an operating round's field: a stock round has none
    assert r.get("tiles", 0) == 0   # ... though reading it, as a shared rule may in any round, is empty


def test_replacing_leaves_the_old_round_as_it_was():
    r = make_round("1830", {"kind": "operating", "set": 1, "index": 1, "count": 1, "order": ["PRR"],
                            "corp": "PRR", "tiles": 1, "token": True})
    turn = r.kept(("kind", "set", "index", "count", "order"), corp="NYC", tiles=0)
    assert (turn["corp"], turn["tiles"], "token" in turn) == ("NYC", 0, False)
    assert (r["corp"], r["tiles"], r["token"]) == ("PRR", 1, True)
    with pytest.raises(AttributeError):
        r.tiles = 3   # frozen
    assert r.cleared(["token"]) == {k: v for k, v in r.items() if k != "token"}


def test_a_titles_fields_are_its_own_class_and_no_other_titles():
    rs = catalog.title_ruleset("1839")
    r = make_round(rs.title, {"kind": "operating", "set": 1, "index": 1, "count": 1, "order": [], "charged": 20})
    assert isinstance(r, OperatingRound) and type(r) is not OperatingRound
    assert r["charged"] == 20
    catalog.title_ruleset("1830")
    plain = make_round("1830", {"kind": "operating", "set": 1, "index": 1, "count": 1, "order": [], "charged": 20})
    assert "charged" not in plain   # a stored key this title does not keep is passed over
    with pytest.raises(TypeError):
        plain.but(charged=5)


def test_loading_a_title_again_keeps_its_classes():
    catalog.title_ruleset("1801")   # a title's own kinds are declared as it loads
    a = make_round("1801", {"kind": "packet", "turn": 0})
    catalog.load("1801", {})
    b = make_round("1801", {"kind": "packet", "turn": 0})
    assert type(a) is type(b) and a == b and copy.deepcopy(a) == a


def test_a_game_that_ends_keeps_the_round_it_ended_in_and_a_snapshot_restores_both():
    from ledger.core import engine
    rs = catalog.title_ruleset("1830")
    s = engine.initial_state(rs, ["Ann", "Ben", "Cy"], {})
    s.round = make_round(rs.title, {"kind": "over", "after": {"kind": "stock", "number": 3, "buys": []}})
    back = snapshot.state_from_json(snapshot.state_to_json(s), own=rs.parts.state)
    assert back.round == s.round and isinstance(back.round["after"], StockRound)
    assert isinstance(back.round, Round) and back.round["after"]["number"] == 3
