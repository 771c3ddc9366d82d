"""Golden test for 1801 (18OE): examples/1801-opening.txt, a three-player game from the packet auction
through the concession round, SR 1, OR 1.1, OR 1.2 and SR 2 into the Major railroad phase (OR 2.1 to
SR 4: the 18th regional, expansions, majors operating, level-3 trains, issuing, mergers; OR 4.1 to
OR 5.2: the last 3s, the 4s with Train Phase 4 and the rust of the 2+2s, the first 5; SR 6: the
Consolidation round, every regional expanded and every minor merged), played
on the engine with the CLI's grammar (tests/test_golden.py plays it through the command line into
SQLite) and checked at every round end against the
figures worked by hand from the rules in tests/data/1801/1801-opening.expected.md, an oracle
independent of the engine.

The expected file is read, never generated: its tables "Checkpoint n: ..." hold every player's,
company's and the bank's cash at the end of each round, and "Checkpoint n as status shows it" the
same after the next operating round's opening payments (private income, Minor K's mail) when the
round that ended passes straight into an OR, which is what `status --json` shows at that point.
A figure missing from the file fails its test.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import Table
from transcripts import markdown_tables

from ledger.books.export import round_snapshots

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT = ROOT / "examples" / "1801-opening.txt"
EXPECTED = Path(__file__).resolve().parents[1] / "data" / "1801" / "1801-opening.expected.md"
PLAYERS = ("Ann", "Ben", "Cy")
REMAINDER_CASH = 100_000   # [S] D18 #9, provisional (ruleset.toml [bank] remainder)
BANK_TOTAL = 54000   # §3.1: the bank's £54,000; the starting cash is dealt from it

# checkpoint n: the transcript comment that follows its last command (None: the end of the
# transcript) and the round the game is in once that last command has been played
CHECKPOINTS = {
    1: ("# --- the concession round", "Concessions"),
    2: ("# --- SR 1", "SR 1"),
    3: ("# OR 1.1", "OR 1.1"),
    4: ("# OR 1.2", "OR 1.2"),
    5: ("# SR 2", "SR 2"),
    6: ("# OR 2.1", "OR 2.1"),
    7: ("# OR 2.2", "OR 2.2"),
    8: ("# SR 3", "SR 3"),
    9: ("# OR 3.1", "OR 3.1"),
    10: ("# OR 3.2", "OR 3.2"),
    11: ("# SR 4", "SR 4"),
    12: ("# OR 4.1", "OR 4.1"),
    13: ("# OR 4.2", "OR 4.2"),
    14: ("# SR 5", "SR 5"),
    15: ("# OR 5.1", "OR 5.1"),
    16: ("# OR 5.2", "OR 5.2"),
    17: ("# SR 6", "SR 6"),
    18: (None, "OR 6.1"),
}


def tables() -> dict[str, list[dict[str, str]]]:
    return markdown_tables(EXPECTED)


def number(cell: str) -> int:
    """A figure of the expected file: a whole number of pounds."""
    return int(cell.replace(",", "").replace("£", "").replace("*", "").strip())


def figures(heading_prefix: str, required: bool = True) -> dict[str, int] | None:
    """The table under the heading that starts with `heading_prefix`: account -> cash."""
    got = {h: rows for h, rows in tables().items() if h and h.startswith(heading_prefix)}
    if not got:
        assert not required, f"{EXPECTED.name} has no table under a heading {heading_prefix!r}"
        return None
    assert len(got) == 1, f"several tables under {heading_prefix!r}: {sorted(got)}"
    rows = next(iter(got.values()))
    assert rows, f"the table {heading_prefix!r} of {EXPECTED.name} is empty"
    out = {row["account"]: number(row["cash"]) for row in rows}
    assert len(out) == len(rows), f"an account appears twice under {heading_prefix!r}"
    return out


def end_of_round(n: int) -> dict[str, int]:
    return figures(f"Checkpoint {n}:")


def as_status(n: int) -> dict[str, int]:
    """What `status` shows after checkpoint n's last command: its own table when the next round is
    an OR that has already paid its opening money, else the end-of-round table."""
    return figures(f"Checkpoint {n} as status shows it", required=False) or end_of_round(n)


def chunks() -> list[list[str]]:
    """The transcript's commands, cut at each checkpoint's comment line."""
    assert TRANSCRIPT.is_file(), f"missing {TRANSCRIPT}"
    lines = TRANSCRIPT.read_text(encoding="utf-8").splitlines()
    cuts, out, current = [m for m, _ in CHECKPOINTS.values() if m], [], []
    for line in lines:
        if cuts and line.startswith(cuts[0]):
            out.append(current)
            current = []
            cuts.pop(0)
        text = line.strip()
        if text and not text.startswith("#"):
            current.append(text)
    assert not cuts, f"the transcript has no comment line starting {cuts[0]!r}"
    out.append(current)
    assert len(out) == len(CHECKPOINTS) and all(out)
    return out


@pytest.fixture(scope="module")
def game():
    """Play the transcript checkpoint by checkpoint on the engine (conftest.Table, the CLI's grammar
    and engine); keep `status --json` after each and, at the end, the per-round opening balances the
    export writes (ledger.books.export.round_snapshots, over the game's events). test_golden plays
    the same transcript through the CLI into SQLite."""
    t = Table()
    statuses = {}
    for n, commands in zip(CHECKPOINTS, chunks()):
        t.play("\n".join(commands))
        statuses[n] = t.status()
    played = SimpleNamespace(rs=t.rs, players=t.players, options=t.options,
                             store=SimpleNamespace(active_events=lambda: list(t.events)))
    return {"status": statuses, "rounds": {r["round"]: r["balances"] for r in round_snapshots(played)}}


def compare(want: dict[str, int], got: dict[str, int], where: str) -> list[str]:
    """Every account of the hand table against the bank's; an account the table leaves out must
    hold nothing in the bank's books. The remainder cash stays aside, untouched, until the bank
    breaks or the first level 8 train is bought (§13), neither of which happens in this opening."""
    if "remainder" in got:   # the ledger's accounts (status shows the bank's books without it)
        want = {**want, "remainder": REMAINDER_CASH}
    wrong = []
    for account, cash in want.items():
        if account == "total":
            continue
        if got.get(account) != cash:
            wrong.append(f"{where}: {account} worked {cash}, bank {got.get(account)}")
    for account, cash in got.items():
        if account not in want and cash != 0:
            wrong.append(f"{where}: {account} holds {cash} in the bank but is not in the hand table")
    return wrong


def status_cash(status: dict) -> dict[str, int]:
    cash = {p["name"]: p["cash"] for p in status["players"]}
    cash.update({c["sym"]: c["cash"] for c in status["companies"]})
    cash["bank"] = status["bank"]
    return cash


def snapshot_cash(balances: dict[str, int]) -> dict[str, int]:
    cash = {}
    for account, amount in balances.items():
        if account == "mint":
            continue
        cash[account.split(":", 1)[-1]] = amount
    return cash


@pytest.mark.parametrize("n", list(CHECKPOINTS))
def test_the_hand_tables_conserve_54000(n):
    for heading, want in ((f"Checkpoint {n}", end_of_round(n)),
                          (f"Checkpoint {n} as status shows it", as_status(n))):
        assert set(PLAYERS) <= set(want) and "bank" in want and "total" in want, heading
        held = sum(cash for account, cash in want.items() if account != "total")
        assert held == want["total"] == BANK_TOTAL, f"{heading}: accounts sum to {held}, total row {want['total']}"


@pytest.mark.parametrize("n", list(CHECKPOINTS))
def test_status_at_each_checkpoint(game, n):
    status = game["status"][n]
    assert status["title"] == "1801"
    assert status["round"] == CHECKPOINTS[n][1], f"checkpoint {n}: the game is in {status['round']}"
    got = status_cash(status)
    assert sum(got.values()) == BANK_TOTAL, f"checkpoint {n}: the bank's books hold {sum(got.values())}"
    assert compare(as_status(n), got, f"checkpoint {n} (status)") == []


@pytest.mark.parametrize("n", list(CHECKPOINTS))
def test_balances_at_each_round_end(game, n):
    """The export keeps each round's opening balances, taken before an OR's opening payments: the
    next round's snapshot is the position at the end of the round."""
    following = CHECKPOINTS[n][1]
    assert following in game["rounds"], f"no snapshot of {following} in the export ({sorted(game['rounds'])})"
    got = snapshot_cash(game["rounds"][following])
    assert compare(end_of_round(n), got, f"checkpoint {n} (end of round)") == []
