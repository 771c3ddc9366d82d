"""1801's own rules, a package of features (ledger.core.parts): each module holds what one thing
the title does needs, and FEATURES lists them in the order they register (the order of hooks on one
event and of verbs in a round matters: consolidation_due, the nationals' hooks, the free Pullman,
the final sequence and, last, the buyer's own rusting all follow a phase change in that order)."""

from . import (
               bankers,
               common,
               concessions,
               end,
               majors,
               mergers,
               minors_regionals,
               nationals,
               operating_rounds,
               orient_express,
               packet,
               ports,
               pullmans,
               status,
               tiles_tokens,
               train_buying,
)

FEATURES = (common, packet, concessions, minors_regionals, majors, bankers, mergers, ports, nationals, pullmans,
            orient_express, end, operating_rounds, tiles_tokens, train_buying, status)
