"""1843: the defects of issue 10 §5, each as a scenario that failed before its fix.

Positions come from the train-era chain of openings_1843.py (its comments work out every figure) and,
for 1830, from its `opening_1830()` (tests/test_operating.py `opening()` as a transcript). Expected
numbers are worked from the rules (seed 000, the June 2016 LyX) and the provisional market grid of the ruleset:
  trains T4: green 4+1 300 / 3/5x2 500, blue 5+2 350, gray TGV 900;
  Toulouse-Barcelone §10.2: an extra yellow tile for 20fr plus terrain, in the track-building step;
  second yellow tile §8.4.1: 20fr for EST, MID, OU, PRO and SO.
"""

from __future__ import annotations

from conftest import Table
from openings_1843 import (bank_cash, cash, chain, closed, next_turn_of, opening_1830, owner, price, refused,
                           train_sides, until_turn)

from ledger.interface import views

# =========================================================================== §8.8.3: face value of the side held


def ou_in_emergency(plm_keeps: str) -> Table:
    """E14's position: blue phase, OU (120fr, no train, a route) operates after ETA; its director P4 has
    62fr, Havre, two PLM shares at 81 and 30 % of OU. PLM bought the first blue holding a 4+1 and a 3/5x2
    and got within 3/3 either by discarding the 4+1 to the pool ('discard') or by turning the 3/5x2 to
    its 4+1 side ('flip'). P4 then hands Havre to the bank (60) and sells a PLM share (81): 62 + 60 + 81
    = 203fr."""
    g = chain("first-blue")
    g.do("discard PLM 4+1" if plm_keeps == "x2" else "flip PLM 3/5x2", "done PLM")
    until_turn(g, "OU", {"ETA": ["withhold ETA 100", "done ETA"]})
    assert cash(g, "OU") == 120 and cash(g, "P4") == 62 and train_sides(g, "OU") == []
    g.do("withhold OU 0", "sell P4 HAV", "sell P4 PLM 1")
    assert cash(g, "P4") == 203
    return g


def test_x2_side_bought_from_a_company_is_capped_at_the_x2_face():
    """RULES §8.8.3: with the director's money a train from another company costs at most its face
    value; §8.8.1: a double-sided certificate's face is the price of the side it is on. PLM holds its
    green certificate on the 3/5x2 side, face 500fr (not the 4+1's 300fr). OU may pay 320fr: OU's 120fr
    and 200fr from P4, who keeps 3fr; PLM (790fr after buying its 5+2) receives 320fr."""
    g = ou_in_emergency("x2")
    assert train_sides(g, "PLM") == ["3/5x2", "5+2"] and cash(g, "PLM") == 790
    refused(g, "train OU 3/5x2 --from PLM --price 501", match="500fr")
    events = g.do("train OU 3/5x2 --from PLM --price 320")
    bought = next(e for e in events if e["kind"] == "train_bought")
    assert (bought["side"], bought["price"], bought["contribution"]) == ("3/5x2", 320, 200)
    assert train_sides(g, "OU") == ["3/5x2"] and train_sides(g, "PLM") == ["5+2"]
    assert cash(g, "OU") == 0 and cash(g, "P4") == 3 and cash(g, "PLM") == 790 + 320


def test_a_certificate_is_sold_on_the_side_it_is_held_on():
    """What is sold is the certificate as it lies: asking for PLM's 4+1 when PLM's green certificate is
    on its 3/5x2 side (two trains, face 500fr) must not hand OU both trains at a 4+1's price; asking for
    a 3/5x2 when PLM's greens are on their 4+1 sides must not pass off a 4+1."""
    g = ou_in_emergency("x2")
    refused(g, "train OU 4+1 --from PLM --price 250", match="3/5x2")
    flipped = ou_in_emergency("single")
    assert train_sides(flipped, "PLM") == ["4+1", "4+1", "5+2"]
    refused(flipped, "train OU 3/5x2 --from PLM --price 250", match="4\\+1")
    refused(flipped, "train OU 4+1 --from PLM --price 301", match="300fr")
    flipped.do("train OU 4+1 --from PLM --price 300")
    assert train_sides(flipped, "OU") == ["4+1"] and cash(flipped, "P4") == 203 - 180


# =========================================================================== §8.8.3: bankrupt only when sold out


def ou_in_gray() -> Table:
    """ETA bought the first TGV in OR 6.2: gray, every other train gone. OU (0fr, director P4 with 384fr)
    must buy the cheapest train its director may pay for, a TGV at 900fr (relics never qualify). P4 may
    not sell OU (P3 also holds 30 %) but can sell ETA 1 x 47, MID 1 x 47, NOR 2 x 47, PLM 1 x 54 and
    SO 1 x 66 = 308fr: 384 + 308 = 692 < 900, so he is bankrupt once he has sold them all."""
    g = chain("or6.1")
    until_turn(g, "ETA")
    g.do("withhold ETA 0", "train ETA TGV", "done ETA")
    assert g.state.round["corp"] == "OU" and cash(g, "OU") == 0 and cash(g, "P4") == 384
    assert [price(g, c) for c in ("ETA", "MID", "NOR", "PLM", "SO")] == [47, 47, 47, 54, 66]
    g.do("withhold OU 0")
    return g


def test_bankrupt_is_refused_while_the_director_can_still_sell():
    g = ou_in_gray()
    error = refused(g, "bankrupt P4", match="not bankrupt")
    for part in ("ETA 1", "MID 1", "NOR 2", "PLM 1", "SO 1", "308fr"):
        assert part in error.message, (part, error.message)
    refused(g, "sell P4 OU 1", match="president|director")
    g.do("sell P4 ETA 1", "sell P4 MID 1", "sell P4 NOR 2", "sell P4 PLM 1")
    assert cash(g, "P4") == 384 + 47 + 47 + 94 + 54
    error = refused(g, "bankrupt P4", match="SO 1")
    assert "66fr" in error.message
    g.do("sell P4 SO 1")
    assert cash(g, "P4") == 692
    bank = bank_cash(g)
    events = g.do("bankrupt P4")
    assert g.state.game_over and g.state.end_reason == "bankruptcy"
    assert cash(g, "P4") == 692 and bank_cash(g) == bank, "A21: the game ends as things stand; no money moves"
    line = views.describe(next(e for e in events if e["kind"] == "bankrupt"), g.rs)
    assert "to the bank" not in line and "692fr" in line and "keeps" in line, line


# ======================================================================= §10.2: Toulouse-Barcelone in the track step


def eta_owns_tb() -> Table:
    """OR 2.1 (green: companies may buy privates, §10.1). ETA (245fr) buys TB from P1 for 15fr: 230fr."""
    g = chain("sr2")
    until_turn(g, "ETA", {"PLM": ["withhold PLM 0", "train PLM 4+1", "train PLM 3/5x2", "done PLM"]})
    assert cash(g, "ETA") == 245
    g.do("buy-private ETA TB 15")
    assert owner(g, "TB") == "ETA" and cash(g, "ETA") == 230
    return g


def test_toulouse_barcelone_tile_only_in_the_track_step():
    """RULES §10.2: TB's extra yellow tile "may be used during the track-building step", immediately
    before or after the normal build, for 20fr plus terrain; the private then closes. Not after the
    company has run, nor once its station step (§8.1, step 3) has begun."""
    ran = eta_owns_tb()
    ran.do("withhold ETA 100")
    refused(ran, "tile ETA 0 --using TB", match="§10.2")
    stationed = eta_owns_tb()
    stationed.do("token ETA")  # ETA's second station, 40fr: the station step follows the track step
    refused(stationed, "tile ETA 0 --using TB", match="§10.2")
    g = eta_owns_tb()
    g.do("tile ETA 0 --using TB")  # 20fr and no terrain, before the normal build: 230 - 20
    assert cash(g, "ETA") == 210 and closed(g, "TB")
    g.do("tile ETA 0", "withhold ETA 0")


def test_saint_germain_tile_any_time_in_the_operation():
    """RULES §10.2: Saint-Germain's E14 tile "may be used at any time during a company's operation"; it
    has no fee (terrain only, A9). PLM (940fr: it ran for 0 in OR 1.1) buys SG from P3 for 40fr, runs,
    then lays the E14 tile: 900fr."""
    g = chain("sr2")
    until_turn(g, "PLM")
    assert cash(g, "PLM") == 940
    g.do("buy-private PLM SG 40", "withhold PLM 0", "tile PLM 0 --using SG")
    assert cash(g, "PLM") == 900 and not closed(g, "SG")


# =========================================================================== the Next hint asks the core


def steps(g: Table) -> list[str]:
    """The steps the 'Next:' line offers the operating company: the verb of each of its commands."""
    hint = views.whose_turn(g.state, g.rs)
    return [part.split()[0] for part in hint.split("operates: ", 1)[1].split(" · ")]


def offers_tile(g: Table) -> bool:
    return any(step.startswith("tile") for step in steps(g))


def test_next_hint_offers_the_second_yellow_tile():
    """RULES §8.4.1: MID may lay a second yellow tile (20fr); PLM and 1830's PRR lay one."""
    g = chain("sr1")
    assert g.state.round["corp"] == "PLM" and offers_tile(g)
    g.do("tile PLM 0")
    assert not offers_tile(g)
    g.do("withhold PLM 0", "done PLM --no-route")
    assert g.state.round["corp"] == "MID" and cash(g, "MID") == 670
    g.do("tile MID 0")
    assert offers_tile(g), views.whose_turn(g.state, g.rs)
    g.do("tile MID 0")
    assert cash(g, "MID") == 650 and not offers_tile(g)
    prr = opening_1830()
    assert offers_tile(prr)
    prr.do("tile PRR 0")
    assert not offers_tile(prr)


def test_next_hint_after_the_station_and_after_the_run():
    """Track comes before the station, both before the run (§8.1): the hint follows the same rule."""
    g = chain("sr1")
    g.do("token PLM")  # PLM's second station, 40fr
    assert not offers_tile(g) and "token" not in steps(g)
    ran = chain("sr1")
    ran.do("withhold PLM 0")
    assert not offers_tile(ran) and "token" not in steps(ran)


def test_next_hint_does_not_offer_a_station_when_no_marker_is_left():
    """PRR's charter holds four markers ($0 home, $40, $100, $100): once all are placed the hint stops
    offering `token`, and `token` is refused with the count."""
    g = opening_1830()
    for cost in ("40", "100", "100"):
        assert "token" in steps(g)
        g.do(f"token PRR {cost}", "done PRR --no-route")
        next_turn_of(g, "PRR")
    assert cash(g, "PRR") == 760 - 240
    assert "token" not in steps(g), views.whose_turn(g.state, g.rs)
    refused(g, "token PRR", match="no station tokens left")


# =========================================================================== the step order after a port claim


def test_no_track_after_a_port_claim():
    """RULES §8.1: a company lays track, then places a station or claims a port, then runs. After ETA
    claims Bordeaux its track step is over: a tile is refused and the hint no longer offers one."""
    g = chain("first-blue")
    g.do("discard PLM 4+1", "done PLM")
    until_turn(g, "ETA")
    assert offers_tile(g)
    g.do("port ETA bordeaux")
    assert not offers_tile(g)
    refused(g, "tile ETA 0", match="claimed a port")


# =========================================================================== a side is a train


def test_a_discard_names_the_side_the_certificate_is_on():
    """PLM's blue certificate lies on its 5+2 side: `discard PLM 4/6x2` names a train PLM does not
    have and is refused (before, it threw the 5+2 away), saying which side the blue certificate is on."""
    g = chain("first-blue")
    assert sorted(train_sides(g, "PLM")) == ["3/5x2", "4+1", "5+2"]
    refused(g, "discard PLM 4/6x2", match="on the 5\\+2 side")
