"""Forced train purchase (SEED "Forced Train Purchases"): the president helps pay only when the
company does not have enough money to buy a train, i.e. less than the cheapest train from the bank
or the open market. Then it buys that train, or another company's at no more than face value (the
shared limits). A company that can pay for the cheapest train gets no help, not even toward
another company's dearer train. 18xx.games allows that help (digest §10.3, "R18 nuance"): the
option `site_emergency_help` plays the site's reading, and `bank import` of its recorded games
always does, for they were played under it.
"""

from __future__ import annotations

from ledger.core.ruleset import Knob
from ledger.core.state import BANK, POOL, company_acct

KNOBS = {"forced_train": {
    # SEED "Forced Train Purchases": the president helps only a company short of the cheapest train
    "help_only_when_short": Knob(bool, None, True),
}}


def register(reg) -> None:
    reg.rule("emergency_help_bar", help_only_when_short)


def help_only_when_short(s, rs, corp: str, seller: str, price: int, cheapest) -> str:
    cash = s.cash(company_acct(corp))
    if not rs.k("forced_train", "help_only_when_short"):
        return ""
    if seller in (BANK, POOL) or cheapest is None or cash < cheapest[0]:
        return ""   # short of the cheapest train: the shared limits apply (cheapest only, face value)
    return (f"{corp} has {rs.money(cash)}, enough for the cheapest train ({cheapest[1]} for "
            f"{rs.money(cheapest[0])}): its president helps only a company that cannot pay for that, so a "
            f"train for {rs.money(price)} is paid from its treasury alone")
