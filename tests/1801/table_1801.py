"""The table the 1801 rules tests drive: one game on the pure engine (engine_bank_1801.Bank over a
conftest.Table), typed line by line, with the readers and checks the tests share.

    t = Table(); t.play(AUCTION)                       # `new 1801 ...` starts the game
    u = t.copy()                                       # an independent copy
    assert "§8.3" in t.refused("train B 3+3")          # refused, one error line, nothing changed
"""

from __future__ import annotations


from engine_bank_1801 import Bank
from transcripts import lines_of

BANK_TOTAL = 54_000  # §3.1: the bank holds £54,000 (starting capital dealt from it, D18 #11)


def _holder_in(node, sym: str):
    """Who holds `sym`, searching the status JSON for an entry named sym with an owner field."""
    if isinstance(node, dict):
        if node.get("sym") == sym:
            for key in ("owner", "holder", "president"):
                if node.get(key):
                    return node[key]
        for value in node.values():
            found = _holder_in(value, sym)
            if found:
                return found
    elif isinstance(node, list):
        for value in node:
            found = _holder_in(value, sym)
            if found:
                return found
    return None


class Table:
    """One 1801 game on the engine, driven as `bank ...` is typed."""

    def __init__(self, bank: Bank | None = None):
        self.bank = bank or Bank()

    def play(self, script: str) -> None:
        for line in lines_of(script):
            self.bank.line(line)

    def copy(self) -> Table:
        """An independent copy of the game."""
        return type(self)(self.bank.copy())

    # ---------------------------------------------------------------- reading
    def status(self) -> dict:
        return self.bank.status()

    def company(self, sym: str, s: dict | None = None) -> dict:
        return next(c for c in (s or self.status())["companies"] if c["sym"] == sym)

    def player(self, name: str) -> dict:
        return next(p for p in self.status()["players"] if p["name"] == name)

    def cash(self) -> dict:
        """Every holder's cash: players by name, companies by symbol, and 'bank'."""
        s = self.status()
        out = {p["name"]: p["cash"] for p in s["players"]}
        out.update({c["sym"]: c["cash"] for c in s["companies"]})
        out["bank"] = s["bank"]
        return out

    def holdings(self, sym: str) -> dict:
        """Percent of `sym` held by each player, its treasury ('ipo') and the Open Market ('pool')."""
        s = self.status()
        out = {p["name"]: p["shares"].get(sym, 0) for p in s["players"]}
        c = self.company(sym, s)
        out["ipo"] = c["ipo"]
        out["pool"] = c["pool"]
        return out

    def market(self, sym: str) -> tuple:
        c = self.company(sym)
        return (c["cell"], c["price"])

    def trains(self, sym: str) -> list:
        return sorted(self.company(sym)["trains"])

    def certs(self, name: str) -> int:
        return self.player(name)["certificates"]

    def holder(self, sym: str, s: dict | None = None):
        """The player holding a private, a concession or a minor (None while unsold)."""
        s = s or self.status()
        for p in s.get("privates", []):
            if p.get("sym") == sym:
                return p.get("owner")
        for c in s.get("companies", []):
            if c.get("sym") == sym:
                if c.get("president"):
                    return c["president"]
                for p in s["players"]:
                    if p.get("shares", {}).get(sym):
                        return p["name"]
                return None
        for p in s["players"]:
            for value in p.values():
                if isinstance(value, list) and sym in value:
                    return p["name"]
                if isinstance(value, dict) and sym in value:
                    return p["name"]
        return _holder_in(s, sym)

    def round(self) -> str:
        return self.status()["round"]

    def log_count(self) -> int:
        return len(self.bank.log())

    # ---------------------------------------------------------------- checks
    def refused(self, line: str) -> str:
        """`line` is refused (one 'error: ...' line, as the CLI prints it) and nothing changes."""
        before, count = self.bank.status_text(), self.log_count()
        result = self.bank.line(line, ok=False)
        err = [x for x in result.stderr.splitlines() if x.strip()]
        assert len(err) == 1 and err[0].startswith("error: "), f"{line!r}: {result.stderr!r}"
        assert self.bank.status_text() == before, f"the refused {line!r} changed the game"
        assert self.log_count() == count, f"the refused {line!r} was recorded"
        return err[0]

    def conserved(self) -> None:
        """Money is only moved, never made: bank + players + companies = £54,000."""
        s = self.status()
        total = s["bank"] + sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])
        assert total == BANK_TOTAL

    def books_balance(self) -> None:
        """Money is conserved: bank + players + companies = £54,000 (only where no bid is held back)."""
        s = self.status()
        total = s["bank"] + sum(p["cash"] for p in s["players"]) + sum(c["cash"] for c in s["companies"])
        assert total == BANK_TOTAL, total

    # ---------------------------------------------------------------- company turns
    def first_turn(self, corp: str) -> None:
        """A company's first OR with nothing laid: it runs before it buys (§11 steps 3 and 6; D 0.1
        #2), so it earns £0; then its reserved 2+2 (§11.6.1), then its turn ends. Whether the £0 run
        must be declared is the program's business (the spec: `withhold CORP 0`), so it may be
        refused here without failing the test."""
        self.bank.line(f"withhold {corp} 0", ok=None)
        self.bank.line(f"train {corp} 2+2")
        self.bank.line(f"done {corp}")

    def idle_turn(self, corp: str) -> None:
        """A later OR with nothing laid and £0 earned: `withhold CORP 0` (the spec), then done."""
        self.bank.line(f"withhold {corp} 0")
        self.bank.line(f"done {corp}")


def changes(before: dict, after: dict) -> dict:
    """Only the holders whose cash changed: {holder: after - before}."""
    return {k: after[k] - before[k] for k in after if after[k] != before.get(k)}
