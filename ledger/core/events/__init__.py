"""Every kind of event, declared once: its fields and how it changes the state; and, apart, its
line in the log.

An event is stored and replayed as a plain dict (`{"kind": ..., fields...}`), which keeps replay
fast; its kind is declared as a small class whose annotations are the fields (a field with a default
may be left out) and whose `apply` says what it does (`declare`). `make` checks an event against its
declaration, so a rule cannot record a field nobody reads. Every event may also carry the generic
effects the state applies the same way for every kind (`EFFECTS`): `apply(state, event)` applies
its effects, then its kind's own change (`applying`).

The shared kinds are declared by round (`game`, `auction`, `stock`, `operating`, `trains`,
`privates`), the kinds only older games hold in `legacy`; how the log says each is `words`. A title
module declares its own kinds with the same `event` decorator (rulesets/1843/ports.py). This face
hands every name on, so a rule imports from `ledger.core.events` whatever part holds it.
"""

from ledger.core.events.declare import (  # noqa: F401
    EFFECTS, Kind, FIELD_TYPES, fits, KINDS, event, UPGRADES, upgrades, upgraded, STOCK_TURN_KEYS, stock_turn_keys, kind_of,
    make, apply_kind)
from ledger.core.events.operating import (  # noqa: F401
    OR_KEYS, TURN_RESET, CorpTurnStarted, OrOrder, CorpTurnEnded, TileLaid, TokenPlaced, AbilityUsed,
    Revenue, home_station, placed_station, next_free_slot)
from ledger.core.events.game import (  # noqa: F401
    GameStarted, RoundStarted, StockRoundEnded, OperatingRoundEnded, Seating, Pending, Chosen, BankBroke,
    AxisPhaseChanged, EndDue, GameOver, Bankrupt, RulesWaived, Adjustment, Count)
from ledger.core.events.legacy import (  # noqa: F401
    RoundUpdate)
from ledger.core.events.auction import (  # noqa: F401
    AuctionTurn, BiddingWar, Bid, BidDropped, AuctionPass, PrivateBought, PrivateDiscounted, PrivateRevenue)
from ledger.core.events.stock import (  # noqa: F401
    SrTurn, SrActed, DirectorsNoted, StockPass, Par, ShareBought, SharesSold, PresidentChanged, Floated,
    Exchange, CompanyListed, CompanyConverted, SharesIssued, SoldOut)
from ledger.core.events.trains import (  # noqa: F401
    TrainBought, PhaseChanged, TrainsRusted, TrainDiscarded, ObsoleteDiscarded)
from ledger.core.events.privates import (  # noqa: F401
    PrivateSold, PrivatesClosed, PrivateDiscarded)
from ledger.core.events.applying import (  # noqa: F401
    evolve, apply, apply_effects, holdings_moved)
from ledger.core.events.words import (  # noqa: F401
    says, describe, price_move, marker_move, cell_price, stack_place, PLACES, holder_words, payees_text,
    company_paid_for, paying_holdings, counted, a_train, answered, who_owes_whom, mend_ledger, signed_money,
    certificate_words, swapped, PAYOUT_ROUNDING, rusted_text)
