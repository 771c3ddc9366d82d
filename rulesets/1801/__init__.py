"""1801's own rules, a package of features (ledger.core.parts): each module holds what one thing
the title does needs, and FEATURES lists them in the order they register. The order matters where
several features answer one hook or add verbs to one round: a phase change runs the Consolidation
round's due mark, the nationals' hooks, the free Pullman, the final sequence and, last, the buyer's
own rusting (train_buying); the stock and operating rounds list the verbs in this order.

common is what several features read (the title's State, its zones, small readers); status, last,
is what `bank status` and `bank info` say. The imports between features form no cycle."""

from . import bankers, common, concessions, end, majors, mergers, minors_regionals, nationals
from . import operating_rounds, orient_express, packet, ports, pullmans, status, tiles_tokens, trades, train_buying

FEATURES = (common, packet, concessions, minors_regionals, trades, majors, bankers, mergers, ports, nationals,
            pullmans, orient_express, end, operating_rounds, tiles_tokens, train_buying, status)
