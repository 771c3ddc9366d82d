"""Loading and validating a title's rules data (rulesets/<title>/ruleset.toml).

Every number of a title lives in its TOML file; this module only knows the *shape* of the data,
the closed set of values each rule switch ("knob") may take, and each knob's default (KNOBS): a
title lists only the knobs it sets otherwise. All problems are collected and reported at once,
each with its path (e.g. `trains[3].price: ...`).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ledger.core import market_data, round_state
from ledger.core.errors import RulesetError
from ledger.core.fees import DEFAULT_TILE, read_fees, read_stations
from ledger.core.parts import TitleParts, parts_of

ZONES = ("white", "yellow", "orange", "brown")
ZONE_SUFFIX = {"y": "yellow", "o": "orange", "b": "brown"}

# The kinds of round a title may play (rounds.opening, rounds.cycle).
ROUND_KINDS = ("auction", "stock", "operating")

REQUIRED = object()   # the default of a knob every title must give


class Knob(NamedTuple):
    kind: type
    allowed: tuple | None   # the values it may take (for a list: its entries); None: any of its kind
    default: Any            # what a title that does not list the knob gets; REQUIRED: none


# Each knob: section -> name -> Knob. This table is the one place a rule switch is documented and
# checked. A title's TOML lists only the knobs that differ from these defaults, and the required
# ones. A default is what a title without the feature plays ("", 0, [], none, false) or, for a knob
# that always matters, the common 18xx rule (1830's, as R18 = the 18xx.games implementation has it).
KNOBS: dict[str, dict[str, Knob]] = {
    "bank": {
        "total": Knob(int, None, REQUIRED),       # the bank's money; the starting cash is paid out of it
        # below_zero: broken when asked to pay more than it holds (R18); at_zero: when it reaches 0.
        # never: the title has no bank-break rule (1843 D1.1); the bank is watched but never breaks.
        "breaks": Knob(str, ("below_zero", "at_zero", "never"), "below_zero"),
        # money held back beside the bank, paid into it when the title says (1801 §13: the remainder
        # cash keeps the bank paying once it breaks, and joins it with the first level 8 train)
        "remainder": Knob(int, None, 0),
    },
    "auction": {
        "style": Knob(str, ("waterfall",), "waterfall"),   # privates auctioned in face-value order
        "min_raise": Knob(int, None, 5),          # a bid is at least the face value (or the top bid) + this
        "bid_multiple": Knob(int, None, 1),       # every bid a multiple of this (1: any amount)
        "all_pass_discount": Knob(int, None, 5),  # what the private an all-pass drops loses each time
        "discount_only": Knob(str, None, ""),     # discount_or_revenue: the one private dropped ("" none)
        "free_at_zero": Knob(bool, None, True),   # a private dropped to 0 must be taken by the next player
        # who acts after an all-pass: the turn carries on, or goes to the player after the last buyer
        "next_after_all_pass": Knob(str, ("continue", "after_last_buyer"), "continue"),
        "earmark_bids": Knob(bool, None, True),   # open bids on other privates reduce what a player may bid
        # ... only those on which he is the highest bidder (R18 ONLY_HIGHEST_BID_COMMITTED)
        "earmark_highest_only": Knob(bool, None, False),
    },
    "stock": {
        # a turn: sell, buy one, sell; or sales before the one purchase or after it, not on both
        # sides (R18 :sell_buy_or_buy_sell: once a player has sold and then bought, his turn is over);
        # or sales and then at most one purchase, never a sale after it (R18 :sell_buy)
        "order": Knob(str, ("sell_buy_sell", "sell_buy_or_buy_sell", "sell_buy"), "sell_buy_sell"),
        # a company's shares sold in one turn go in one sale (R18 MUST_SELL_IN_BLOCKS); a later turn
        # of the round may sell it again
        "sell_in_blocks": Knob(bool, None, False),
        "no_sell_in_first_round": Knob(bool, None, True),   # nothing is sold in the first stock round
        "holding_limit": Knob(int, None, 60),     # percent of one company a player may hold
        "pool_limit": Knob(int, None, 50),        # percent of a company the pool may hold
        # market zones (of ZONES) where the holding limit is lifted, where certificates do not count
        # toward the certificate limit, and where several of one company may be bought in one turn
        "unlimited_holding_zones": Knob(list, ZONES, []),
        "cert_free_zones": Knob(list, ZONES, []),
        "multi_buy_zones": Knob(list, ZONES, []),
        "multi_buy_from_ipo": Knob(bool, None, False),   # those several from the IPO too, not only the pool
        # a player over the certificate limit may not end his turn while he could sell (1843 §7.6)
        "over_limit_blocks_pass": Knob(bool, None, False),
        # a player holding more of a company than the holding limit now allows (its price left a zone
        # that lifts the limit) may not end his turn while he could sell some of it
        "over_holding_blocks_pass": Knob(bool, None, False),
        "over_limit_must_sell": Knob(bool, None, True),  # a player over a limit buys nothing until he sells
        "no_buy_after_sell": Knob(bool, None, True),     # no buying a company sold earlier in the round
        # after_last_actor: priority deal to the player after the last to act (1830);
        # cash_descending: the seating is re-dealt by descending cash, ties keeping their order (1843 §7.1).
        # pass_order: the next round's order is the order in which the players' final passes began
        # (1839 D9.3, the passing cards)
        "priority": Knob(str, ("after_last_actor", "cash_descending", "pass_order"), "after_last_actor"),
        # a company's director may buy several of its certificates in one turn, up to this percent
        # (the par certificate included; 0: no such exception) (1839 §7.3: 30 %)
        "director_buy_percent": Knob(int, None, 0),
        "holding_limit_ipo_only": Knob(bool, None, False),  # the holding limit caps IPO buys only (1839 D9.2)
        "sell_after_operating": Knob(bool, None, False),    # a company's shares sell once it has operated (1839)
        # the first stock round starts with the player after the auction's last buyer, or the first seat
        "first_round_turn": Knob(str, ("after_last_buyer", "first_seat"), "after_last_buyer"),
        # every share of one sale at the price before it, or each at the price after the last one's drop
        # every share of one sale at the price before it, or each at the price after the one before, or
        # (1801 §10.1) every share sold in one turn at the price as the turn's first sale began
        "sale_price": Knob(str, ("before_sale", "stepwise", "turn_start"), "before_sale"),
        "sold_out_rise": Knob(bool, None, True),  # a company sold out at the end of a stock round moves up
        # a player's certificate limit rises by this much for each company (of a kind that counts)
        # of which he holds at least cert_limit_bonus_at percent (1839 §7.6: +2 at 80 %)
        "cert_limit_bonus": Knob(int, None, 0),
        "cert_limit_bonus_at": Knob(int, None, 100),
    },
    "company": {
        "float_percent": Knob(int, None, 60),     # percent sold from the IPO that floats a company
        "capitalization": Knob(str, ("full",), "full"),   # the bank pays capital_shares x par on floating
        "capital_shares": Knob(int, None, 10),
        "ipo_price": Knob(str, ("par",), "par"),             # IPO shares are bought at par
        "pool_price": Knob(str, ("market",), "market"),      # pool shares at the market price
        "ipo_pays": Knob(str, ("nobody", "company"), "nobody"),     # who gets the dividends on IPO shares
        "pool_pays": Knob(str, ("company", "nobody"), "company"),   # who gets the dividends on pool shares
        # a dividend is paid per holder, rounded up (R18) or down
        # each holder's dividend rounded up or down; or players up and the company's own (pool or
        # treasury shares) down (1839 D11.2, B2)
        "dividend_rounding": Knob(str, ("ceil_per_holder", "floor_per_holder", "ceil_players_floor_company"),
                                  "ceil_per_holder"),
        "share_unit": Knob(int, None, 10),        # percent per share
        "par_prices": Knob(list, None, REQUIRED),  # each must be a par cell of the market
    },
    "operating": {
        "home_token_cost": Knob(int, None, 0),    # what the home station costs
        "tile_costs": Knob(list, None, []),       # the terrain costs a tile may have ([]: any announced)
        "tile_lays": Knob(int, None, 1),          # tiles a company lays in a turn, privates aside
        # a company without a train must buy one: if it has a route, always, or never
        "must_buy_train": Knob(str, ("route", "always", "never"), "route"),
        # a president's emergency sale may hand the operating company to another player
        "emergency_sell_changes_operating_president": Knob(bool, None, False),
        # a president's help buys only the cheapest bank train, and from a company at most face value
        "emergency_cheapest_only": Knob(bool, None, True),
        # ... and from another company at most face value, any price, or never (R18 EBUY_FROM_OTHERS)
        "emergency_from_company_max": Knob(str, ("face", "any", "never"), "face"),
        # the president helps toward another company's train only when the company cannot pay for
        # the cheapest train from the bank or the pool (1830's rulebook; off: as 18xx.games plays it)
        "emergency_help_only_when_short": Knob(bool, None, False),
        # where the title's rulebook states the forced purchase, cited by its refusals (e.g. "§11.6.4")
        "emergency_rule": Knob(str, None, ""),
        # privates a president may hand to the bank to raise money: none, or at face (1843 §8.8.3)
        # privates a director hands to the bank for a forced train: not at all, at face, at half face (1839 D11.6)
        "emergency_private_discard": Knob(str, ("none", "face", "half_face"), "none"),
        # where a train over the limit goes: the pool, or out of the game (1839 D4.2)
        "discard_to": Knob(str, ("pool", "removed"), "pool"),
        # a train kept from rusting once (obsolete until its last run) still counts toward the limit
        "obsolete_in_limit": Knob(bool, None, False),
        "bankrupt_ends_game": Knob(bool, None, True),   # a player's bankruptcy ends the game
        # what a bankrupt player's cash does: goes to the bank (1830), or stays (1843 A21)
        "bankrupt_cash": Knob(str, ("bank", "keep"), "bank"),
        "zero_revenue_moves": Knob(str, ("left", "none"), "left"),  # a $0 run moves the price left, or not
        # a double-sided certificate from the pool: the buyer picks the side, or it keeps its side
        "pool_train_side": Knob(str, ("buyer_choice", "as_discarded"), "buyer_choice"),
        "revenue_multiple": Knob(int, None, 1),   # every revenue is a multiple of this (1: any amount)
        # what one tile may cost in tile points, where a kind counts them ([]: any number)
        "tile_point_costs": Knob(list, None, []),
        # a typo guard, from the title's map: a revenue above (stops x max_stop_revenue) over the
        # company's trains needs --force; max_route_stops are counted for a train that runs any number
        "max_stop_revenue": Knob(int, None, REQUIRED),
        "max_route_stops": Knob(int, None, REQUIRED),
        # at the end of every set of ORs the next train of the supply leaves the game when it is of
        # one of these types, with the effects of its purchase (ledger.core.rules.exports)
        "export_trains": Knob(list, None, []),
        # ... and after the privates-only OR of an auction everyone passed in (R18)
        "export_after_auction_revenue": Knob(bool, None, False),
    },
    "endgame": {
        # the only endings implemented: the set under way (OR) or the set after the SR
        # the set under way, or only the OR under way (1801 §13)
        "bank_broken_in_or": Knob(str, ("end_of_set", "end_of_or"), "end_of_set"),
        # the set after the SR, or only the next OR (1801 §13)
        "bank_broken_in_sr": Knob(str, ("end_of_next_set", "after_next_or"), "end_of_next_set"),
        "bankruptcy": Knob(str, ("immediate",), "immediate"),
        "score_privates": Knob(str, ("face", "nothing"), "face"),   # what a player's privates score
        # a market end cell (flag e) reached: in a stock round / by a dividend in an operating round
        "end_cell_in_sr": Knob(str, ("none", "immediate"), "none"),
        "end_cell_in_or": Knob(str, ("none", "end_of_or"), "none"),
    },
    "privates_rules": {
        "company_buy_from_phase": Knob(str, None, REQUIRED),   # the phase from which companies buy privates
        # what a company pays a player for a private: from ceil(face/2) or 1, to twice the face value
        "company_buy_min": Knob(str, ("half_face", "one"), "half_face"),
        "company_buy_max": Knob(str, ("double_face", "face"), "double_face"),
        "close_on_phase": Knob(str, None, ""),    # the phase that closes every private ("" none)
        # no auction: each player is dealt one of the privates in play as the game starts and pays
        # its face value to the bank. The deal as the table made it: the privates in seating order,
        # comma-separated (ER,MF,TER), or seed:N, 18xx.games' deal from a game's seed N (the privates
        # in play, in the data's order, sorted by successive numbers of its generator; the first
        # player gets the first). "": no deal. An option of kind `sets` types it (ledger.core.rules.privates.deal)
        "deal": Knob(str, None, ""),
    },
    "rounds": {
        # the rounds played once at the start, then the rounds that repeat until the game ends
        "opening": Knob(list, ROUND_KINDS, ["auction"]),
        "cycle": Knob(list, ROUND_KINDS, ["stock", "operating"]),
    },
}


PRIVATE_ABILITIES = {
    "extra_tile_lay": bool,
    "extra_tile_cost": int,
    "track_step_only": str,        # the extra lay only while the track step is open; the rule, for the refusal
    "special_tile_cost": int,
    "free_token_after_tile": bool,
    "exchange_for": str,
    "exchange_from": list,
    "bonus_share": str,
    "bonus_president": str,
    "closes_on_first_train_of": str,
    "no_company_sale": bool,
    "tile_fee": int,               # an extra tile's fee, charged on top of the terrain stated
    "closes_on_use": bool,
    "several_tiles": bool,         # its extra lay may be repeated within the turn it is first used
    "station_tile_fee": int,       # tile + station at its hex, replacing the track and station step
    "par_colours": list,           # the par colours the bonus president's company may be started at
    "company_buy_early": list,     # player counts in which a company buys it at face before the usual phase
    "survives_phase_close": bool,
    "revenue_company": int,        # its revenue when a company owns it, where that differs (1839 "x / y")
    "starts_with": str,            # the company that owns it as the game starts (1839's yellow privates)
    "min_players": int,            # in the game only with this many players or more (closed from the start)
    "max_players": int,            # ... only with this many or fewer
    # the phase that closes privates leaves it open while its owner is of this kind ("player",
    # "company"); owned by the other kind, it closes with the rest
    "survives_phase_close_with": str,
    "revenue_from_phase": str,     # from this phase on it pays revenue_then instead of its revenue
    "revenue_then": int,
}


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    price: int
    zone: str
    par: bool
    end: bool = False       # reaching it ends the game (1843's 500fr box)
    colour: str = ""        # a par box's colour, when the title has par colours


@dataclass(frozen=True)
class Private:
    sym: str
    name: str
    face: int
    revenue: int
    abilities: dict = field(default_factory=dict, hash=False, compare=False)
    alias: str = ""   # a plain name for a symbol the shell would split (see SHELL_SAFE)

    def ability(self, name: str, default=None):
        return self.abilities.get(name, default)


@dataclass(frozen=True)
class Corporation:
    sym: str
    name: str
    home: str
    tokens: tuple[int, ...]
    extra_tile_fee: int | None = None   # a second tile lay in a turn, for this fee (1843 §8.4.1)
    alias: str = ""   # a plain name for a symbol the shell would split (see SHELL_SAFE)
    kind: str = ""    # its company kind as the game starts ("": the title's first kind)
    listed_at: int | None = None  # a company with no director is on the market at this price from the start
    colour: str = ""  # its colour on boards and charts (#rrggbb), as its charter is printed
    homes: int = 1    # home stations placed free on its first turn (1839 D5: HIJSM, NCS and SS have two)


@dataclass(frozen=True)
class CompanyKind:
    """What a kind of company is: its certificates, how it is capitalised, who its shares pay, how
    it pays dividends, whether it sits on the market. A company's kind is state: an event may turn
    it into another kind (1801: a regional expands into a major)."""
    name: str
    certificates: tuple[int, ...]   # the percent of each certificate, in issue order
    president: bool = True          # certificate 0 is the president's (a director); False: no director
    unit: int = 10                  # the percent one share is: prices and dividends are per unit
    float_percent: int = 60         # percent gone from the unsold certificates that floats it
    capitalization: str = "full"    # full: the bank pays capital_shares x par at float; incremental:
                                    # each unsold share's price goes to the company; none
    capital_shares: int = 10
    unsold: str = "ipo"             # unsold certificates: in the bank's IPO, or in the company's treasury
    issues: bool = False            # it may issue treasury shares to the pool and redeem them (1801 majors)
    ipo_price: str = "par"          # an unsold share costs par, the market price, or par in the stock
                                    # round the company started in and the market price after (1801 §9.3)
    ipo_pays: str = "nobody"        # dividends on unsold shares: nobody, or the company
    pool_pays: str = "company"      # dividends on pool shares: the company, or nobody
    dividends: tuple[str, ...] = ("pay", "withhold")   # the payout choices it has
    counts: bool = True             # its certificates count toward the certificate limit
    holding_limit: int = 60         # percent of it one player may hold (0: no limit)
    market: bool = True             # it has a price marker on the stock market
    group: int = 0                  # operating order: lower groups operate first; within a group by
                                    # price (on the market) or in float order (off it)
    train_limits: dict = field(default_factory=dict)   # phase -> its train limit (else the phase's)
    must_own_train: bool = True     # must hold a train after its turn (the title's must_buy_train rule)
    tile_points: int = 0            # tile points a turn, each lay costing --points (0: lays counted instead)
    operates: bool = True           # takes a turn in an OR (False: its title's rules operate it, 1839's
                                    # foreign companies at the end of each OR)
    sale_price: str = "market"      # a share sells at the market price, or at the box below it (1839 D6.3)
    buyable_from_phase: str = ""    # its shares are on sale from this phase ("" from the start; 1839: green)
    end_of_sr: tuple | None = None  # the market's end-of-SR steps that move it (None: all of them)
    breaks_certificates: bool = False  # a larger certificate is exchanged for single units where a
                                       # sale or purchase needs them (1839 D6.1: a 4 % for two 2 %s)
    token_slots: int = 0            # the charter's first N slots are this kind's (0: all of them; 1801:
                                    # a regional has two, the major it becomes all eight)


# The values each company-kind field may take, where they are a closed set.
KIND_CHOICES = {"capitalization": ("full", "incremental", "none"), "unsold": ("ipo", "treasury"),
                "ipo_price": ("par", "market", "par_then_market"), "ipo_pays": ("nobody", "company"),
                "pool_pays": ("company", "nobody"), "sale_price": ("market", "box_below")}
DIVIDEND_MODES = ("pay", "half", "withhold")


@dataclass(frozen=True)
class Side:
    """One side of a train certificate: what the buyer asks for by name, its price, and how many
    trains it counts toward the limit. Single-sided trains have one side named like the train."""
    name: str
    price: int
    trains: int = 1
    sold_rusted: bool = False    # may be bought again as a rusted certificate, in a phase that sells them
    aliases: tuple[str, ...] = ()
    stops: int = 0               # stops it counts for revenue (0: any number)
    multiplier: int = 1          # revenue multiplier (an x2 side doubles)


@dataclass(frozen=True)
class TrainType:
    name: str
    distance: int
    price: int
    count: int | None  # None: unlimited
    rusts_on: str | None
    available_from_phase: str | None
    trade_in: tuple[str, ...]
    trade_in_price: int | None
    sides: tuple[Side, ...] = ()
    supply: bool = True          # False: never sold by the bank (a private's converted train)

    def side(self, name: str | None) -> Side:
        if name is None:
            return self.sides[0]
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(name)


@dataclass(frozen=True)
class Phase:
    name: str
    on_train: str
    train_limit: int
    ors: int
    tiles: tuple[str, ...]
    cert_limit: int = 0              # train certificates a company may hold (0: same as train_limit)
    par_colours: tuple[str, ...] = ()  # par box colours open in this phase (empty: every par price)
    rusted_for_sale: bool = False    # rusted certificates (sides marked sold_rusted) come back for sale

    @property
    def certificate_limit(self) -> int:
        return self.cert_limit or self.train_limit


@dataclass(frozen=True)
class Ruleset:
    title: str
    name: str
    currency: str
    knobs: dict  # section -> {knob: value}
    players: dict  # count -> {"cash": int, "cert_limit": int}
    market: dict  # (row, col) -> Cell
    privates: tuple[Private, ...]
    corporations: tuple[Corporation, ...]
    kinds: dict  # company kind name -> CompanyKind, the title's first kind first
    trains: tuple[TrainType, ...]
    phases: tuple[Phase, ...]
    axes: dict  # a phase axis beside the train phase -> its phases in order ([[phase_axes]])
    assets: dict  # a kind of asset the title adds -> the symbols of its pieces ([[assets]])
    market_rules: dict  # sell_at_bottom, sold_out_top, or_move_stacking, ledges, provisional
    hex_fees: dict  # hex name -> fee for laying or upgrading a tile there
    own: dict  # the title's own data sections, read by its rules (1843: ports)
    parts: "TitleParts"  # the title's own rules, from its package (none for a title that is data alone)
    options: dict  # name -> {"description", "default", "patch"}
    chosen_options: tuple[str, ...]
    digest: str  # sha256 of the source text and chosen options
    # [fees]: the tile and token fee modifiers in order (fees.read_fees); [stations]: how a marker's
    # slot and price are chosen (fees.read_stations)
    fees: dict = field(default_factory=lambda: {"tile": DEFAULT_TILE, "token": ()})
    stations: dict = field(default_factory=lambda: {"slots": "in_order", "price": "charter", "count_new": False})

    def k(self, section: str, knob: str):
        return self.knobs[section][knob]

    def money(self, amount: int) -> str:
        """An amount in the title's currency: '$120', '120fr', '$6.7' for a fraction of a dollar."""
        from ledger.core.money import format_money
        return format_money(amount, self.currency)

    @property
    def bank_total(self) -> int:
        return self.knobs["bank"]["total"]

    @property
    def remainder(self) -> int:
        return self.knobs["bank"]["remainder"]

    def private(self, sym: str) -> Private:
        return self._by("privates", sym)

    def corporation(self, sym: str) -> Corporation:
        return self._by("corporations", sym)

    def company_kind(self, name: str) -> "CompanyKind":
        return self.kinds[name]

    def starting_kind(self, sym: str) -> "CompanyKind":
        """The kind a company starts the game as."""
        return self.kinds[self.corporation(sym).kind or next(iter(self.kinds))]

    def train(self, name: str) -> TrainType:
        return self._by("trains", name)

    def phase(self, name: str) -> Phase:
        return self._by("phases", name)

    def _by(self, what: str, key: str):
        index = self.__dict__.get("_index", {}).get(what)
        if index is None:   # indexed once per table (the rules look these up at every step)
            index = {}
            for item in getattr(self, what):
                index.setdefault(getattr(item, "sym", getattr(item, "name", None)), item)
            self.__dict__.setdefault("_index", {})[what] = index
        try:
            return index[key]
        except (KeyError, TypeError):
            raise KeyError(f"{what}: {key}") from None

    def par_cells(self) -> dict[int, Cell]:
        return {c.price: c for c in self.market.values() if c.par}

    def side_of(self, name: str) -> tuple["TrainType", Side]:
        """The train type and side a side name (or alias, or a type name for its first side) means."""
        for t in self.trains:
            for side in t.sides:
                if name == side.name or name in side.aliases:
                    return t, side
        t = self.train(name)
        return t, t.sides[0]


def parse(text: str, options: dict[str, Any], source: str = "ruleset", override_text: str = "",
          package=None, stored: bool = False, current_text: str = "") -> Ruleset:
    """A title's data (and a table's override merged over it), checked, with the options chosen;
    `package`: the title's package of rules, as the layer that opens games found it
    (ledger.catalog), or None for a title that is data alone. `stored`: the data a game file keeps,
    checked when the game began; a setting this version no longer knows (a knob retired since, or
    moved to a title's own section) is then passed over rather than refused, and a setting every
    title must give that the game's text is older than takes the title's value today
    (`current_text`: its data on this machine). Reads nothing but what it is given."""
    problems: list[str] = []
    try:
        data = tomllib.loads(text)
        if override_text:
            merge(data, tomllib.loads(override_text))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError([f"TOML: {exc}"], source=source) from exc
    chosen = apply_options(data, options, problems)
    parts = parts_of(package)
    for upgrade in parts.data_upgrades:
        upgrade(data)   # a title's data as an older version wrote it, in today's terms
    if stored and current_text:
        fill_required(data, tomllib.loads(current_text), {**KNOBS, **parts.knobs})
    rs = build(data, problems, chosen, text + override_text, parts, stored)
    if problems:
        raise RulesetError(problems, source=source)
    round_state.declare(rs.title, parts.round_kinds, parts.round_fields)   # its rounds' own fields
    return rs


def fill_required(data: dict, current: dict, sections: dict) -> None:
    """A game stored before a setting every title gives existed (the routes' typo guard) plays with
    the title's value today: its stored text is older than the knob, not without it. The stored
    text, and so the ruleset's digest, stays as it was."""
    for section, declared in sections.items():
        for name, knob in declared.items():
            now = current.get(section, {})
            if knob.default is REQUIRED and name not in data.get(section, {}) and isinstance(now, dict) and name in now:
                data.setdefault(section, {})[name] = copy.deepcopy(now[name])


def merge(base: dict, extra: dict) -> None:
    """Deep-merge `extra` into `base`; tables merge, everything else replaces."""
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = value


def apply_options(data: dict, options: dict[str, Any], problems: list[str]) -> tuple[str, ...]:
    """Turn on the chosen options (and the defaults) by patching the data. Lists of tables are
    patched by their `name`/`sym` key (the players' rows by their `count`). An option with `values`
    is one of them, each with its patch; one with `sets = "SECTION.KNOB"` takes the text the table
    types (--option NAME=TEXT), which that knob gets, with the option's patch."""
    known = data.get("options", {})
    # a table may type an option with hyphens or underscores (no-concessions, no_concessions)
    options = {(n if n in known else n.replace("-", "_")): v for n, v in options.items()}
    for name in options:
        if name not in known:
            problems.append(f"options.{name}: unknown option (known: {', '.join(known) or 'none'})")
    chosen = []
    for name, spec in known.items():
        if "sets" in spec:   # an option whose value the table types, set into one knob (SECTION.KNOB)
            value = options.get(name, spec.get("default", False))
            if value is False or (isinstance(value, str) and value.lower() in ("0", "false", "no", "off", "")):
                continue
            if not isinstance(value, str):
                problems.append(f"options.{name}: give its value, --option {name}=VALUE "
                                f"({spec.get('description', spec['sets'])})")
                continue
            section, _, knob = str(spec["sets"]).partition(".")
            chosen.append(f"{name}={value}")
            for sec, patches in spec.get("patch", {}).items():
                patch_section(data, sec, patches, f"options.{name}.patch", problems)
            patch_section(data, section, {knob: value}, f"options.{name}.sets", problems)
            continue
        if "values" in spec:   # an option that is one of named values, each with its patch
            value = option_value(name, spec, options.get(name, spec.get("default", "")), problems)
            if value is not None:
                chosen.append(f"{name}={value}")
                for section, patches in spec["values"][value].get("patch", {}).items():
                    patch_section(data, section, patches, f"options.{name}.values.{value}.patch", problems)
            continue
        on = options.get(name, spec.get("default", False))
        if isinstance(on, str):
            on = on.lower() not in ("0", "false", "no", "off")
        if on:
            chosen.append(name)
            for section, patches in spec.get("patch", {}).items():
                patch_section(data, section, patches, f"options.{name}.patch", problems)
    return tuple(sorted(chosen))


def option_value(name: str, spec: dict, given, problems: list[str]) -> str | None:
    """The value a valued option takes: one of its `values` by name (any case), or `seed:N`, the
    value 18xx.games draws from a game's seed N (the first number of its generator, r = (1103515245
    x (N mod 2^31) + 12345) mod 2^31, taken modulo the number of values, in the order listed)."""
    values = list(spec.get("values", {}))
    text = str(given)
    if text.lower().startswith("seed:") and text[5:].isdigit() and values:
        draw = (1103515245 * (int(text[5:]) % 2 ** 31) + 12345) % 2 ** 31
        return values[draw % len(values)]
    found = next((v for v in values if v.lower() == text.lower()), None)
    if found is None:
        problems.append(f"options.{name}: {text!r} is not one of {', '.join(values)} (or seed:N)")
    return found


def patch_section(data: dict, section: str, patches: dict, path: str, problems: list[str]) -> None:
    target = data.get(section)
    if target is None and section in KNOBS:
        target = data[section] = {}   # a section the title leaves to the defaults
    if isinstance(target, list):
        for key, values in patches.items():
            # rows by symbol or name; the players' rows by their count (1801: £5,200 shared without concessions)
            keys = ("sym", "name", "count") if section == "players" else ("sym", "name")
            rows = [r for r in target if key in (str(r.get(k)) for k in keys if k in r)]
            if not rows:
                problems.append(f"{path}.{section}.{key}: no such entry")
            for row in rows:
                row.update(values)
    elif isinstance(target, dict):
        merge(target, patches)
    else:
        problems.append(f"{path}.{section}: no such section")


def build(data: dict, problems: list[str], chosen: tuple[str, ...], text: str, parts: TitleParts,
          stored: bool = False) -> Ruleset:
    move_legacy_knobs(data, parts.legacy_knobs)
    sections = {**KNOBS, **parts.knobs}
    own_rounds = parts.round_kinds
    if own_rounds:  # a title's own round kinds may stand in its round sequence
        sections["rounds"] = {name: knob._replace(allowed=ROUND_KINDS + own_rounds)
                              for name, knob in KNOBS["rounds"].items()}
    knobs = {section: read_knobs(data, section, table, problems, stored) for section, table in sections.items()}
    abilities = {**PRIVATE_ABILITIES, **parts.private_abilities}
    market = read_market(data.get("market", {}), problems)
    rs = Ruleset(
        title=str(data.get("title", "")),
        name=str(data.get("name", data.get("title", ""))),
        currency=str(data.get("currency", "$")),
        knobs=knobs,
        players=read_players(data.get("players", []), problems),
        market=market,
        privates=tuple(read_private(i, p, abilities, problems) for i, p in enumerate(data.get("privates", []))),
        corporations=tuple(read_corp(i, c, problems) for i, c in enumerate(data.get("corporations", []))),
        kinds=read_kinds(data, knobs, problems),
        trains=tuple(read_train(i, t, problems) for i, t in enumerate(data.get("trains", []))),
        phases=tuple(read_phase(i, p, problems) for i, p in enumerate(data.get("phases", []))),
        axes=read_axes(data.get("phase_axes", []), problems),
        assets=read_assets(data.get("assets", []), problems),
        market_rules=read_market_rules(data.get("market", {}), market, problems),
        hex_fees=read_hex_fees(data.get("hex_fees", []), problems),
        own={name: reader(data.get(name, {}), problems) for name, reader in parts.data_sections.items()},
        parts=parts,
        options=copy.deepcopy(data.get("options", {})),
        chosen_options=chosen,
        digest=hashlib.sha256((text + "|" + ",".join(chosen)).encode()).hexdigest(),
        fees=read_fees(data.get("fees", {}), problems),
        stations=read_stations(data.get("stations", {}), problems),
    )
    if not rs.title:
        problems.append("title: missing")
    cross_check(rs, problems)
    for check in parts.checks:
        check(rs, problems)
    return rs


def move_legacy_knobs(data: dict, legacy: dict) -> None:
    """Knobs a stored game names in the shared sections that are now the title's own: moved to
    where the title's module reads them (unless the data already says), and dropped from where
    they were."""
    for (section, name), (own_section, own_name) in legacy.items():
        table = data.get(section)
        if isinstance(table, dict) and name in table:
            data.setdefault(own_section, {}).setdefault(own_name, table.pop(name))


def read_knobs(data: dict, section: str, declared: dict, problems: list[str], stored: bool = False) -> dict:
    """A section's knobs: the title's values, checked, and the defaults of the knobs it leaves out."""
    table = data.get(section, {})
    if not isinstance(table, dict):
        problems.append(f"{section}: expected a table, got {table!r}")
        table = {}
    out = {}
    for name, knob in declared.items():
        if name in table:
            problem = knob_problem(knob, table[name])
            if problem:
                problems.append(f"{section}.{name}: {problem}")
            else:
                out[name] = table[name]
        elif knob.default is REQUIRED:
            problems.append(f"{section}.{name}: missing")
        else:
            out[name] = copy.deepcopy(knob.default)
    for name in table:
        if name not in declared and not stored:
            problems.append(f"{section}.{name}: unknown setting")
    return out


def knob_problem(knob: Knob, value) -> str:
    """What is wrong with a knob's value, or "" when nothing is."""
    if not isinstance(value, knob.kind) or (knob.kind is int and isinstance(value, bool)):
        return f"expected {knob.kind.__name__}, got {value!r}"
    if knob.allowed is None:
        return ""
    wrong = [v for v in (value if knob.kind is list else [value]) if v not in knob.allowed]
    return f"{wrong[0]!r} is not one of {', '.join(knob.allowed)}" if wrong else ""


def need(row: dict, key: str, kind: type, path: str, problems: list[str], default=None, optional=False):
    if key not in row:
        if not optional:
            problems.append(f"{path}.{key}: missing")
        return default
    value = row[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        problems.append(f"{path}.{key}: expected {kind.__name__}, got {value!r}")
        return default
    if kind is int and value < 0:
        problems.append(f"{path}.{key}: must not be negative, got {value}")
    return value


def read_players(rows: list, problems: list[str]) -> dict:
    out = {}
    for i, row in enumerate(rows):
        path = f"players[{i}]"
        count = need(row, "count", int, path, problems)
        out[count] = {"cash": need(row, "cash", int, path, problems, 0),
                      "cert_limit": need(row, "cert_limit", int, path, problems, 0)}
    if not out:
        problems.append("players: no player counts")
    return out


def read_market(table: dict, problems: list[str]) -> dict:
    """The boxes by (row, col): a grid's rows, or a track's cells as row 0 (market_data.rows)."""
    cells = {}
    for r, row in enumerate(market_data.rows(table, problems)):
        for c, text in enumerate(row):
            if text == "":
                continue
            cell = parse_cell(r, c, str(text), problems)
            if cell:
                cells[(r, c)] = cell
    if not cells:
        problems.append("market.rows: no cells")
    return cells


def parse_cell(r: int, c: int, text: str, problems: list[str]) -> Cell | None:
    digits = text.rstrip("yobpe")
    flags = text[len(digits):]
    if not digits.isdigit() or any(f not in "yobpe" for f in flags):
        problems.append(f"market.rows[{r}][{c}]: cannot read cell {text!r}")
        return None
    zone = next((ZONE_SUFFIX[f] for f in flags if f in ZONE_SUFFIX), "white")
    return Cell(r, c, int(digits), zone, "p" in flags, "e" in flags)


MARKET_RULES = {
    # at a column's foot a sale leaves the marker (1830) or moves it one place down its stack (1843 §7.7)
    "sell_at_bottom": ("stay", "down_in_stack"),
    # sold out on the top row: stays (1830) or goes one row down and one column right (1843 §7.7)
    "sold_out_top": ("stay", "down_right"),
    # a marker moved by its run goes to the bottom of the new cell (1830), or under the markers that
    # have not moved this OR and over those that have (1843 §8.2)
    "or_move_stacking": ("bottom", "under_unmoved"),
}


def read_market_rules(table: dict, cells: dict, problems: list[str]) -> dict:
    out = {}
    for key, allowed in MARKET_RULES.items():
        value = table.get(key, allowed[0])
        if value not in allowed:
            problems.append(f"market.{key}: {value!r} is not one of {', '.join(allowed)}")
        out[key] = value
    ledges = []
    for i, pos in enumerate(table.get("ledges", [])):
        if not (isinstance(pos, list) and len(pos) == 2 and tuple(pos) in cells):
            problems.append(f"market.ledges[{i}]: {pos!r} is not a cell [row, col] of the grid")
        else:
            ledges.append(tuple(pos))
    out["ledges"] = tuple(ledges)
    out["provisional"] = str(table.get("provisional", ""))
    colours = table.get("par_colours", {})
    pars = {c.price: pos for pos, c in cells.items() if c.par}
    for colour, prices in colours.items():
        for price in prices if isinstance(prices, list) else []:
            if price not in pars:
                problems.append(f"market.par_colours.{colour}: {price} is not a par box")
            else:
                cell = cells[pars[price]]
                cells[pars[price]] = Cell(cell.row, cell.col, cell.price, cell.zone, True, cell.end, colour)
    out.update(market_data.read_moves(table, problems))  # shape, edges, run, sale, end_of_sr
    for key in table:
        if key not in ("rows", "movement", "ledges", "provisional", "par_colours", *MARKET_RULES, *market_data.KEYS):
            problems.append(f"market.{key}: unknown setting")
    return out


def read_hex_fees(rows: list, problems: list[str]) -> dict:
    out = {}
    for i, row in enumerate(rows):
        hex_name = need(row, "hex", str, f"hex_fees[{i}]", problems, "?")
        out[hex_name.lower()] = need(row, "fee", int, f"hex_fees[{i}]", problems, 0)
    return out


def read_private(i: int, row: dict, known: dict, problems: list[str]) -> Private:
    path = f"privates[{i}]"
    abilities = {}
    for key, value in row.items():
        if key in ("sym", "name", "face", "revenue", "alias"):
            continue
        kind = known.get(key)
        if value is False and kind is not None and kind is not bool:
            continue   # an option's patch takes the ability away (false: the private has none)
        if kind is None:
            problems.append(f"{path}.{key}: unknown ability")
        elif not isinstance(value, kind):
            problems.append(f"{path}.{key}: expected {kind.__name__}, got {value!r}")
        else:
            abilities[key] = value
    return Private(need(row, "sym", str, path, problems, "?"), need(row, "name", str, path, problems, "?"),
                   need(row, "face", int, path, problems, 0), need(row, "revenue", int, path, problems, 0),
                   abilities, need(row, "alias", str, path, problems, "", optional=True))


def read_corp(i: int, row: dict, problems: list[str]) -> Corporation:
    path = f"corporations[{i}]"
    tokens = need(row, "tokens", list, path, problems, [])
    # an empty list: a company with no station markers (1839's foreign companies)
    if not all(isinstance(t, int) and t >= 0 for t in tokens):
        problems.append(f"{path}.tokens: needs a list of token prices")
    return Corporation(need(row, "sym", str, path, problems, "?"), need(row, "name", str, path, problems, "?"),
                       need(row, "home", str, path, problems, "?"), tuple(tokens),
                       need(row, "extra_tile_fee", int, path, problems, optional=True),
                       need(row, "alias", str, path, problems, "", optional=True),
                       need(row, "kind", str, path, problems, "", optional=True),
                       need(row, "listed_at", int, path, problems, optional=True),
                       need(row, "colour", str, path, problems, "", optional=True),
                       need(row, "homes", int, path, problems, 1, optional=True))


def read_kinds(data: dict, knobs: dict, problems: list[str]) -> dict:
    """The title's company kinds ([[company_kinds]]). A title with one kind may leave the list out:
    its kind is then made of [certificates] shares and the [company] and [stock] knobs."""
    company, stock = knobs.get("company", {}), knobs.get("stock", {})
    base = {"certificates": tuple(data.get("certificates", {}).get("shares", ())),
            "unit": company.get("share_unit", 10), "float_percent": company.get("float_percent", 60),
            "capitalization": company.get("capitalization", "full"),
            "capital_shares": company.get("capital_shares", 10), "ipo_price": company.get("ipo_price", "par"),
            "ipo_pays": company.get("ipo_pays", "nobody"), "pool_pays": company.get("pool_pays", "company"),
            "holding_limit": stock.get("holding_limit", 60)}
    rows = data.get("company_kinds") or [{"name": "company"}]
    kinds = {}
    for i, row in enumerate(rows):
        kind = read_kind(f"company_kinds[{i}]", row, base, problems)
        if kind.name in kinds:
            problems.append(f"company_kinds[{i}].name: {kind.name!r} is declared twice")
        kinds[kind.name] = kind
    return kinds


def read_kind(path: str, row: dict, base: dict, problems: list[str]) -> CompanyKind:
    fields = {f.name: f for f in dataclasses.fields(CompanyKind)}
    values = dict(base)
    for key, value in row.items():
        if key not in fields:
            problems.append(f"{path}.{key}: unknown setting")
        elif key in ("certificates", "dividends", "end_of_sr"):
            values[key] = tuple(value) if isinstance(value, list) else value
        elif key == "train_limits":
            values[key] = {str(k): v for k, v in value.items()} if isinstance(value, dict) else value
        else:
            values[key] = value
    kind = CompanyKind(**{k: v for k, v in values.items() if k in fields})
    check_kind(path, kind, problems)
    return kind


def check_kind(path: str, kind: CompanyKind, problems: list[str]) -> None:
    """A company kind's certificates add up to 100 percent in whole units; its choices are known."""
    certs = kind.certificates
    if not isinstance(certs, tuple) or not certs or not all(isinstance(c, int) and c > 0 for c in certs):
        problems.append(f"{path}.certificates: needs a list of certificate percents")
        return
    if sum(certs) != 100:
        problems.append(f"{path}.certificates: must sum to 100, sums to {sum(certs)}")
    if any(c % kind.unit for c in certs):
        problems.append(f"{path}.certificates: every certificate must be a whole number of {kind.unit}% units")
    if kind.issues and kind.unsold != "treasury":
        problems.append(f"{path}.issues: only a company keeping its unsold shares in its treasury issues them")
    for key, allowed in KIND_CHOICES.items():
        if getattr(kind, key) not in allowed:
            problems.append(f"{path}.{key}: {getattr(kind, key)!r} is not one of {', '.join(allowed)}")
    if not isinstance(kind.dividends, tuple) or any(d not in DIVIDEND_MODES for d in kind.dividends):
        problems.append(f"{path}.dividends: each must be one of {', '.join(DIVIDEND_MODES)}")
    if not isinstance(kind.train_limits, dict) or not all(isinstance(v, int) and v > 0
                                                         for v in kind.train_limits.values()):
        problems.append(f"{path}.train_limits: needs a table of phase = limit")


def read_train(i: int, row: dict, problems: list[str]) -> TrainType:
    path = f"trains[{i}]"
    count = need(row, "count", int, path, problems, 0)
    name = need(row, "name", str, path, problems, "?")
    sides = tuple(read_side(f"{path}.sides[{j}]", side, problems) for j, side in enumerate(row.get("sides", [])))
    if not sides:
        distance = need(row, "distance", int, path, problems, 0, optional=True)
        sides = (Side(name, need(row, "price", int, path, problems, 0), stops=distance),)
    return TrainType(
        name=name,
        distance=need(row, "distance", int, path, problems, 0, optional=True),
        price=sides[0].price,
        sides=sides,
        supply=need(row, "supply", bool, path, problems, True, optional=True),
        count=count or None,
        rusts_on=need(row, "rusts_on", str, path, problems, optional=True),
        available_from_phase=need(row, "available_from_phase", str, path, problems, optional=True),
        trade_in=tuple(need(row, "trade_in", list, path, problems, [], optional=True)),
        trade_in_price=need(row, "trade_in_price", int, path, problems, optional=True),
    )


def read_side(path: str, row: dict, problems: list[str]) -> Side:
    return Side(need(row, "name", str, path, problems, "?"), need(row, "price", int, path, problems, 0),
                need(row, "trains", int, path, problems, 1, optional=True),
                need(row, "sold_rusted", bool, path, problems, False, optional=True),
                tuple(need(row, "aliases", list, path, problems, [], optional=True)),
                need(row, "stops", int, path, problems, 0, optional=True),
                need(row, "multiplier", int, path, problems, 1, optional=True))


def read_assets(rows: list, problems: list[str]) -> dict:
    """[[assets]]: pieces a title adds besides certificates, trains and privates, each kind with
    the symbols of its pieces (1801: zone chits, port authorities, Pullmans); each starts with the
    bank and has one holder at any time."""
    out: dict[str, tuple] = {}
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path = f"assets[{i}]"
        kind = need(row, "kind", str, path, problems, "?")
        syms = need(row, "symbols", list, path, problems, [])
        for sym in syms:
            if not isinstance(sym, str) or sym in seen:
                problems.append(f"{path}.symbols: {sym!r} is not a new symbol")
            seen.add(str(sym))
        out[kind] = out.get(kind, ()) + tuple(str(x) for x in syms)
    return out


def read_axes(rows: list, problems: list[str]) -> dict:
    """[[phase_axes]]: a title's phase axes beside the train phase, each a name and its phases in
    order (the first is where the game starts), e.g. 1801's railroad phases."""
    out = {}
    for i, row in enumerate(rows):
        path = f"phase_axes[{i}]"
        name = need(row, "name", str, path, problems, "?")
        phases = need(row, "phases", list, path, problems, [])
        if not phases or not all(isinstance(p, str) for p in phases):
            problems.append(f"{path}.phases: needs the phase names in order")
        elif name in out or name == "train":
            problems.append(f"{path}.name: {name!r} is already an axis")
        else:
            out[name] = tuple(phases)
    return out


def read_phase(i: int, row: dict, problems: list[str]) -> Phase:
    path = f"phases[{i}]"
    return Phase(need(row, "name", str, path, problems, "?"), need(row, "on_train", str, path, problems, "?"),
                 need(row, "train_limit", int, path, problems, 0), need(row, "ors", int, path, problems, 1),
                 tuple(need(row, "tiles", list, path, problems, [])),
                 need(row, "cert_limit", int, path, problems, 0, optional=True),
                 tuple(need(row, "par_colours", list, path, problems, [], optional=True)),
                 need(row, "rusted_for_sale", bool, path, problems, False, optional=True))


def cross_check(rs: Ruleset, problems: list[str]) -> None:
    """References between tables: every name used must exist."""
    trains = {t.name for t in rs.trains}
    phases = {p.name for p in rs.phases}
    corps = {c.sym for c in rs.corporations}
    for i, c in enumerate(rs.corporations):
        if c.kind and c.kind not in rs.kinds:
            problems.append(f"corporations[{i}].kind: no company kind {c.kind!r} (kinds: {', '.join(rs.kinds)})")
    for i, c in enumerate(rs.corporations):
        if c.colour and not re.fullmatch(r"#[0-9a-fA-F]{6}", c.colour):
            problems.append(f"corporations[{i}].colour: {c.colour!r} is not a colour like #1f77b4")
    for kind in rs.kinds.values():
        for phase in kind.train_limits if isinstance(kind.train_limits, dict) else ():
            if phase not in phases:
                problems.append(f"company_kinds {kind.name}.train_limits: no phase '{phase}'")
    for i, t in enumerate(rs.trains):
        if t.rusts_on and t.rusts_on not in trains:
            problems.append(f"trains[{i}].rusts_on: no train '{t.rusts_on}'")
        if t.available_from_phase and t.available_from_phase not in phases:
            problems.append(f"trains[{i}].available_from_phase: no phase '{t.available_from_phase}'")
        for other in t.trade_in:
            if other not in trains:
                problems.append(f"trains[{i}].trade_in: no train '{other}'")
    colours = {c.colour for c in rs.market.values() if c.colour}
    for i, p in enumerate(rs.phases):
        if p.on_train and p.on_train not in trains:   # "": begun by the title's rule (1801: the first OR)
            problems.append(f"phases[{i}].on_train: no train '{p.on_train}'")
        for colour in p.par_colours:
            if colour not in colours:
                problems.append(f"phases[{i}].par_colours: no par box is {colour!r}")
    sides = [n for t in rs.trains for s in t.sides for n in (s.name, *s.aliases) if n != t.name]
    for name in {n for n in sides if sides.count(n) > 1}:
        problems.append(f"trains: the side name {name!r} is used twice")
    # knobs that name a phase or a train must name one the title has
    for i, p in enumerate(rs.privates):
        for key in ("exchange_for", "bonus_share", "bonus_president", "closes_on_first_train_of"):
            if p.ability(key) and p.ability(key) not in corps:
                problems.append(f"privates[{i}].{key}: no corporation '{p.ability(key)}'")
    check_aliases(rs, problems)
    pars = rs.knobs.get("company", {}).get("par_prices", [])
    par_cells = {c.price for c in rs.market.values() if c.par}
    for price in pars:
        if price not in par_cells:
            problems.append(f"company.par_prices: {price} has no par cell on the market")
    if rs.knobs.get("rounds", {}).get("cycle") == []:
        problems.append("rounds.cycle: needs at least one round kind")
    phase_from = rs.knobs.get("privates_rules", {}).get("company_buy_from_phase")
    if phase_from and phase_from not in phases:
        problems.append(f"privates_rules.company_buy_from_phase: no phase '{phase_from}'")


# What a banker can type at a bash prompt unquoted: a symbol with any other character ('&') needs a
# plain alias in the data.
SHELL_SAFE = re.compile(r"[A-Za-z0-9_.+/-]+")


def check_aliases(rs: Ruleset, problems: list[str]) -> None:
    """Aliases are plain, and no symbol or alias can be read as another (case-insensitively). That
    every shipped symbol the shell would split has an alias is a test of the shipped data, not a
    load error: games stored before aliases existed must still open."""
    # a word names one thing: a private and a corporation may not share a symbol either (the same
    # word in both tables would be read as the corporation by `buy`, as the private elsewhere)
    seen: dict[str, tuple[str, str]] = {}
    for table, entries in (("corporations", rs.corporations), ("privates", rs.privates)):
        for i, e in enumerate(entries):
            if e.alias and not SHELL_SAFE.fullmatch(e.alias):
                problems.append(f"{table}[{i}].alias: {e.alias!r} must be letters, digits and _ . + / -")
            for word in filter(None, (e.sym, e.alias)):
                other = seen.setdefault(word.lower(), (table, e.sym))
                if other != (table, e.sym):
                    what = other[1] if other[0] == table else f"the {other[0][:-1]} {other[1]}"
                    problems.append(f"{table}[{i}]: {word!r} is also {what}")
