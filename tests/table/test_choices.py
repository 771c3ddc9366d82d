"""An action that asks for an amount anyway takes its options as choices of its one control (issue
34): 1801's tile with fee modifiers ticked or counted, its points and a private's power picked; what
a form sends read back as the command writes it."""

from __future__ import annotations

from pathlib import Path

from conftest import Table
from transcripts import lines_of

from ledger import catalog
from ledger.core import engine
from ledger.interface.board.controls import page_of
from ledger.interface.board.table import typed_values

ROOT = Path(__file__).resolve().parents[2]


def test_picks_and_counts_read_as_the_command_writes_them():
    sent = {"verb": "tile", "a.cost": "45", "k.modifiers.zone": "1", "k.modifiers.ef": "1",
            "k.modifiers.ferry=": "2", "k.modifiers.sea=": "0", "a.points": "", "w.corp": "E"}
    assert typed_values(sent) == {"cost": "45", "modifiers": "zone,ef,ferry=2"}
    assert typed_values(sent, fixed=True)["corp"] == "E"
    assert typed_values({"k.modifiers.sea=": "x"}) == {}          # a count that is no number is none


def position_before(name: str, line: str):
    """(state, rules) of the example game `name` on the engine, before the first line that reads `line`."""
    lines = lines_of((ROOT / "examples" / f"{name}.txt").read_text())
    t = Table(lines[0])
    t.play("\n".join(lines[1:lines.index(line)]))
    return t.state, t.rs


def test_an_1801_tile_is_one_control_with_its_options_as_choices():
    s, rs = position_before("1801-game", "tile E 45 --with zone,ef")
    page = page_of(s, rs, "player:Cy", 0)
    tiles = [c for step in page.steps for c in step.controls if c.verb == "tile"]
    assert len(tiles) == 1
    fields = {f.name: f for f in tiles[0].fields}
    assert fields["cost"].kind == "number" and not fields["cost"].optional
    assert fields["modifiers"].kind == "picks"
    assert {"zone", "ef", "ferry=", "sea="} <= set(fields["modifiers"].choices)
    said = dict(zip(fields["modifiers"].choices, fields["modifiers"].labels))   # in the rulebook's words
    assert said["zone"] == "20 % zone discount (§11.1.5)" and said["ferry="].startswith("£5 a ferry distance")
    assert fields["points"].kind == "choice" and "2" in fields["points"].choices
    # what the page would send with zone and ef ticked is the transcript's command
    words = typed_values({"a.cost": "45", "k.modifiers.zone": "1", "k.modifiers.ef": "1"})
    from ledger.interface.board.actions import command_of
    cmd, _text = command_of(rs, "tile", "E", {**dict(tiles[0].words), **words})
    assert engine.decide(s, rs, cmd) == engine.decide(s, rs, catalog.parse_line("tile E 45 --with zone,ef"))
