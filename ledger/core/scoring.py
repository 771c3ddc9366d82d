"""Net worth as the rules score it: cash, shares at the market price, privates as the title says
(1830: at face value). Also each player's worth at a moment, for the ledger's round snapshots."""

from __future__ import annotations

from ledger.core.rules import shares
from ledger.core.titles import for_ruleset
from ledger.core.state import player_acct


def share_value(s, rs, player: str) -> int:
    total = 0
    off_market = unpriced_value(rs)
    for corp in s.corps:
        n = shares.shares_of(s, rs, player_acct(player), corp)
        if n:
            total += n * shares.price(s, rs, corp) if s.corps[corp].cell else off_market(s, rs, player, corp)
    return total


def unpriced_value(rs):
    """What a holding of a company off the market is worth: the title may say (1801 D18 #44: a
    regional's certificates at par), else nothing."""
    return for_ruleset(rs).rules.get("unpriced_share_value") or (lambda s, rs, player, corp: 0)


def private_value(s, rs, player: str) -> int:
    if rs.k("endgame", "score_privates") != "face":
        return 0
    return sum(rs.private(p.sym).face for p in s.privates.values()
               if p.owner == player_acct(player) and not p.closed)


def value(s, rs, player: str) -> int:
    return s.cash(player_acct(player)) + share_value(s, rs, player) + private_value(s, rs, player)


def score_rows(s, rs) -> list[dict]:
    """Each player's cash, share and private value, net worth and rank (ties share a rank)."""
    rows = [{"name": p, "cash": s.cash(player_acct(p)), "shares": share_value(s, rs, p),
             "privates": private_value(s, rs, p), "value": value(s, rs, p)} for p in s.players]
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if other["value"] > row["value"])
    return rows


def snapshot_rows(s, rs) -> list[dict]:
    """Each player's cash and worth, for the per-round snapshots of the ledger."""
    return [{"player": r["name"], "cash": r["cash"], "shares": r["shares"], "privates": r["privates"],
             "value": r["value"]} for r in score_rows(s, rs)]
