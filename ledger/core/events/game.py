"""The shared events of the game and its rounds: the start, rounds starting and ending, the seating,
questions the rules ask and their answers, the bank breaking, the end, bankruptcy, waivers and the
banker's corrections."""

from __future__ import annotations

from ledger.core.events.declare import KINDS, event
from ledger.core.round_state import make_round


@event
class GameStarted:
    """The bank is issued its money by the mint and pays each player's starting cash; every
    certificate is issued to its holder (`certs`) with its percent, and each company's president's
    certificate named (games recorded before these two fields took them from the ruleset)."""
    players: list[str]
    percents: dict[str, int] = None
    presidents: dict[str, str] = None

    def apply(s, e):
        s.cert_percent.update(e.get("percents") or {})
        s.presidents.update(e.get("presidents") or {})


@event
class RoundStarted:
    """A round begins; `round` is its whole bookkeeping, `priority` who holds the priority deal."""
    round: dict
    priority: int = 0

    def apply(s, e):
        s.round = make_round(s.title, e["round"])
        if "priority" in e:
            s.priority = e["priority"]
        if e["round"]["kind"] == "operating" and e["round"]["index"] == 1:
            s.sets_played = e["round"]["set"]


@event
class StockRoundEnded:
    number: int
    priority: int


@event
class OperatingRoundEnded:
    set: int
    index: int


@event
class Seating:
    """The seating is re-dealt (1843 §7.1: by descending cash, ties keeping their order; 1839 D9.3:
    by the passing cards; D8: by ascending cash after the auction). `by` says how."""
    players: list[str]
    cash: dict[str, int]
    by: str = "by cash"

    def apply(s, e):
        s.players = list(e["players"])


@event
class Pending:
    """The decisions that block play until answered (a par, a discard), in order."""
    pending: list[dict]

    def apply(s, e):
        s.pending = [dict(p) for p in e["pending"]]


@event
class Chosen:
    """A player answered a choice the rules asked for (the rule that settles it follows)."""
    player: str
    question: str
    option: str


@event
class BankBroke:
    bank: int
    end_after_set: int
    end_at_or: list[int] = None

    def apply(s, e):
        s.bank_broken = True
        s.end_after_set = e["end_after_set"]
        s.end_at_or = e.get("end_at_or")


@event
class AxisPhaseChanged:
    """A phase axis the title adds beside the train phase moves to its next phase (1801: the
    Major railroad phase begins, in the middle of a stock round)."""
    axis: str
    phase: str

    def apply(s, e):
        s.axes = {**s.axes, e["axis"]: e["phase"]}


@event
class EndDue:
    """A price reached an end cell in an OR: the game ends after this OR (1843 §8.10.1)."""
    corp: str
    price: int

    def apply(s, e):
        s.end_after_or = True


@event
class GameOver:
    reason: str

    def apply(s, e):
        s.game_over = True
        s.end_reason = e["reason"]
        s.round = make_round(s.title, {"kind": "over", "after": s.round})


@event
class Bankrupt:
    """A president cannot pay for a forced train; `cash` is what he held, `transfers` what moved."""
    player: str
    corp: str
    cash: int

    def apply(s, e):
        s.bankrupt = s.bankrupt + [e["player"]]


@event
class RulesWaived:
    """The banker forced a command: the rules it broke and why."""
    rules: list[str]
    reason: str
    command: str


@event
class Adjustment:
    """A logged, balanced correction between two accounts."""
    reason: str
    amount: int


# An adjustment names its accounts "from" and "to", which are Python keywords, so not annotations.
KINDS[""]["adjustment"].required.update({"from": "str", "to": "str"})


@event
class Count:
    """A physical count of a player's money compared with the ledger (no money moves)."""
    player: str
    counted: int
    ledger: int
    difference: int
