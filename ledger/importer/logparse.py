"""Parse the text of an 18xx.games game log (its Log tab) into typed entries.

The words are the title's: each title whose ruleset has a [log_import] table for the site gives its
privates' names, its companies' symbols and its currency (`words_for`); the title of a log is the one
whose words read its opening auction (`title_of_log`), unless the caller names it. The contract
below uses 1830's symbols as examples; another title's are its own.

This is a pure function of the text: no I/O, no game state. Every line of a log becomes one
`LogEntry`; a line that matches no rule raises `LogParseError`, because a silently dropped line
could be a dropped money movement. Whether an entry is legal, or what it means in its round, is the
translation layer's business, not this module's.

Player names are arbitrary text ("this is not a train" is a real one), so names are never split on
spaces. They are found in two passes: first a few phrases that only a player can say (auction turns,
"has priority deal", "operates", the game-over list) collect the names with a lenient pattern; then
every line is matched again with the known names as literal alternatives, longest first, so a name
only ever matches as a whole.

Contract: entry kinds and their `data` (money is int dollars; `private` is a symbol SV CS DH MH CA
BO; `corp` and corporation actors are PRR NYC CPR B&O C&O ERIE NYNH B&M; "The Depot" is the
bank's train supply, "The Discard" the open market's trains, the name newer versions of the site
give a discarded train's seller). `actor` is None unless listed.

  framing     blank {} | date {date} | optional_rules {} | optional_rule {rule, description}
              master_mode {action, by} (announces the next line's action; actor None)
              note {note} (other "• ..." engine notes) | chat actor=player {message}
  rounds      phase {phase, operating_rounds, train_limit, tiles: [colour]}
              sr_start {round} | or_start {round, number, of|None}
  auction     auction_start {private} (a bidding war on it follows)
              bid actor=player {private, amount} | buy_private actor=player {private, amount}
              win_auction actor=player {private, amount, only_bid}
              auction_pass actor=player {} (a normal turn) | auction_drop actor=player {private}
              sv_discount {private, old_price, new_price}
  stock       priority actor=player | par actor=player {corp, price}
              buy_share actor=player {corp, shares, percent, source: "ipo"|"market", amount}
              sell_shares actor=player {corp, shares, percent, amount}
              receive_share actor=player {corp, percent} (CA's PRR share, BO's B&O share)
              exchange actor=player {private, corp, percent, source|None}
              president actor=player {corp} | decline_sell actor=player | decline_buy actor=player
              price_move actor=corp {direction|None, steps|None, old_price, new_price}
              float actor=corp | receives actor=corp {amount}
  operating   operates actor=player {corp} | collect actor=player|corp {private, amount}
              lay_tile actor=corp {tile, rotation, hex, location|None, cost, via: private|None}
              place_token actor=corp {hex, location|None, cost, via}
              choose_city actor=corp
              run actor=corp {train, revenue, route: [hex]}
              pay_out actor=corp {revenue, per_share: int|Fraction|None, payees: {name or corp: amount}}
              withhold actor=corp {amount} | does_not_run actor=corp
              buy_train actor=corp {train, amount, seller: "The Depot"|"The Discard"|corp}
              exchange_train actor=corp {old_train, train, amount, seller}
              discard_train actor=corp {train}
              buy_company actor=corp {private, seller, amount}
              contribute actor=player {amount}
  options     option_line {option, value} (the title's [log_import] option_lines: a valued option's
              value, e.g. the company drawn for a private)
  events      rust {train, holders: {corp, "The Depot" or "The Discard": count}} | close_privates {}
              export {train} (the supply's next train leaves the game)
              close_private {private} | bank_broken {} | bankrupt actor=player
              end_manual actor=player | game_over {values: {player: value}} (log order)
  any round   pass actor=player|corp {step|None, forced}
              skip actor=player|corp {step, automatic, reason|None}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ledger import catalog
from ledger.core.errors import CommandError, RulesetError

__all__ = [
    "CORPORATIONS",
    "DEPOT",
    "POOL",
    "PRIVATES",
    "LogEntry",
    "LogWords",
    "LogParseError",
    "parse_line",
    "parse_log",
    "players_from_entries",
    "seating_from_log",
    "title_of_log",
    "words_for",
]

# The site whose logs this reads. Which title a log is, and that title's words for reading it (its
# ruleset's [log_import]: the privates as the log names them, mapped to the bank's symbols; the
# site's symbols where they differ; the companies' symbols; the site's optional rules in the bank's
# terms; and the title's currency), are asked for per log: `words_for`, `title_of_log`.
LOG_SOURCE = "18xx.games"


@dataclass(frozen=True)
class LogWords:
    """One title's words for reading the site's log of its games."""

    title: str
    currency: str                       # the sign before every amount ("$", "¥")
    privates: dict                      # the log's private name -> the bank's symbol
    corporations: tuple
    options: dict                       # the site's optional rule -> the bank's option
    always: dict                        # options every game on the site plays
    symbols: dict                       # the site's private symbol -> the bank's (where they differ)
    # the lines that say a valued option's value: (option, pattern with a {TYPE:value} placeholder),
    # e.g. 18xx.games' line naming the company a private's president's certificate is drawn for
    option_lines: tuple = ()
    aliases: dict = field(default_factory=dict, hash=False, compare=False)   # symbol -> the plain alias the bank types

    def __hash__(self) -> int:
        return hash(self.title)


def _titles_importing() -> list[str]:
    """The titles whose importer words can read a Log tab (their privates' names in the log)."""
    from ledger.importer.sites import importing_titles
    return [title for title, _data, table in importing_titles() if table.get("privates") is not None]


@lru_cache(maxsize=32)
def words_for(title: str | None = None) -> LogWords:
    """The words of `title` (None: the first title that reads this site's logs)."""
    import tomllib
    if title is None:
        title = catalog.log_import(LOG_SOURCE)[0]
    if title not in catalog.available_titles():
        raise CommandError(f"no title {title!r} on this machine",
                           "titles that import its logs: " + (", ".join(_titles_importing()) or "none"))
    try:
        data = tomllib.loads(catalog.ruleset_text(title))
    except (RulesetError, tomllib.TOMLDecodeError, OSError) as exc:
        raise CommandError(f"cannot read the title {title!r}: {exc}") from None
    table = data.get("log_import")
    if not isinstance(table, dict) or table.get("source") != LOG_SOURCE:
        raise CommandError(f"the title {title!r} does not import {LOG_SOURCE} logs",
                           "titles that do: " + (", ".join(_titles_importing()) or "none"))
    corps = tuple(str(c.get("sym")) for c in data.get("corporations", []) if isinstance(c, dict))
    json_table = table.get("json") if isinstance(table.get("json"), dict) else {}
    rows = [r for r in (*data.get("corporations", []), *data.get("privates", [])) if isinstance(r, dict)]
    return LogWords(
        title=title,
        currency=str(data.get("currency") or "$"),
        privates=dict(table.get("privates") or {}),
        corporations=corps,
        options=dict(table.get("options") or {}),
        always=dict(table.get("always") or {}),
        symbols=dict(json_table.get("privates") or {}),
        option_lines=tuple((str(name), str(pattern)) for name, pattern in dict(table.get("option_lines") or {}).items()),
        aliases={str(r["sym"]): str(r["alias"]) for r in rows if r.get("sym") and r.get("alias")},
    )


def title_of_log(text: str) -> str:
    """The title a log is a game of, from what its lines say: the one title whose words read the
    auction that opens every log (its privates' names, in its currency). A log that none or several
    titles read raises CommandError asking for --title."""
    lines = [_strip_time(line) for line in text.splitlines()]
    lines = [line for line in lines if line][:80]
    scores = {}
    for title in _titles_importing():
        pats = _patterns_for((), words_for(title))
        scores[title] = sum(1 for line in lines if (m := pats.match(line)) and m[0].kind in _TITLE_WITNESSES)
    best = max(scores.values(), default=0)
    winners = [t for t, n in scores.items() if n == best]
    if best == 0 or len(winners) > 1:
        known = ", ".join(scores) or "none"
        raise CommandError("the log does not say which title it is a game of",
                           f"name it: bank import FILE --title TITLE (titles that import {LOG_SOURCE} logs: {known})")
    return winners[0]


# Lines whose words only one title has: its privates by name, its amounts in its currency.
_TITLE_WITNESSES = frozenset({"bid", "buy_private", "win_auction", "auction_drop", "auction_start",
                              "collect", "sv_discount"})


def __getattr__(name: str):
    # The first importing title's words, for callers that name no title (kept for older callers).
    attrs = {"LOG_TITLE": "title", "PRIVATES": "privates", "CORPORATIONS": "corporations",
             "OPTION_NAMES": "options", "SITE_OPTIONS": "always"}
    if name in attrs:
        return getattr(words_for(), attrs[name])
    raise AttributeError(name)


# The bank's train supply, as the log names it when it sells or when its trains rust.
DEPOT = "The Depot"
# The open market's trains (discarded ones, sold again at face value). Older versions of the site
# name their seller "The Depot" too; newer ones say "from The Discard".
POOL = "The Discard"


@dataclass(frozen=True)
class LogEntry:
    lineno: int  # 1-based line number in the file
    kind: str
    actor: str | None  # player name or corporation symbol that acts, if any
    data: dict = field(hash=False)  # kind-specific fields; see the contract above
    text: str  # the line without its time prefix


class LogParseError(Exception):
    """A line that no rule recognises. Carries the 1-based line number and the line."""

    def __init__(self, lineno: int, line: str, reason: str = "unrecognised log line"):
        super().__init__(f"line {lineno}: {reason}: {line!r}")
        self.lineno = lineno
        self.line = line
        self.reason = reason


# ---------------------------------------------------------------------------------------------
# Pattern building blocks.
#
# Rules are written with placeholders `{TYPE:group}`; the type decides both the regex and how the
# captured text is converted, so a rule needs no hand-written conversion for plain fields.

def _alternation(words: Iterable[str]) -> str:
    # Longest first: with "Player 1" and "Player 10" both known, "Player 10" must be tried first
    # (anchoring would backtrack anyway, but this keeps the match obvious).
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# A name we do not know yet: lazy, so the fixed phrase after it decides where it ends.
_ANY_NAME_RE = r".+?"


def _money(text: str) -> int:
    # The site prints whole amounts ("$1100", "¥1100"); commas are tolerated in case a view adds them.
    return int(text.replace(",", ""))


def _per_share(text: str) -> int | Fraction:
    # Logs print "$14", "$17.0" or "$6.7". Keep the figure exactly as written (a Fraction, never a
    # float); a whole figure becomes an int so "$17.0" and "$17" compare and behave the same.
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value


def _share_source(text: str) -> str:
    return {"the ipo": "ipo", "the market": "market"}[text.lower()]


# Where a train comes from: the bank's two stocks, matched whatever capitals a version used, or a
# company by its symbol (symbols never collide with these names, lower-cased or not).
_TRAIN_STOCKS = {"the depot": DEPOT, "the discard": POOL}


def _train_seller(text: str) -> str:
    return _TRAIN_STOCKS.get(text.lower(), text)


def _fixed_types(words: LogWords) -> dict[str, tuple[str, str, Callable[[str], object]]]:
    """type -> (literal prefix, body regex, converter) for one title's words. The body becomes the
    named group; the prefix (the currency sign of an amount) stays outside it. PLAYER and ENTITY
    depend on the known names: _Patterns."""
    corp_re = _alternation(words.corporations)
    private_re = _alternation(words.privates)
    # The site names the private whose ability a company uses by its symbol ("B&O (DH) lays
    # tile"); the full name is read too, so a version that prints it still gives the bank's symbol.
    by_symbol = {sym: sym for sym in words.privates.values()} | dict(words.symbols)

    def private_symbol(text: str) -> str:
        return words.privates.get(text) or by_symbol[text]

    cur = re.escape(words.currency)
    return {
        "CORP": ("", corp_re, str),
        "PRIVATE": ("", private_re, words.privates.__getitem__),
        "MONEY": (cur, r"-?\d[\d,]*", _money),
        "PERSHARE": (cur, r"-?\d+(?:\.\d+)?", _per_share),
        "INT": ("", r"\d+", int),
        "TRAIN": ("", r"\d+|D", str),
        "HEX": ("", r"[A-Z]+\d+", str),
        "DATE": ("", r"\d{4}-\d{2}-\d{2}", str),
        "SOURCE": ("", r"(?i:the IPO|the market)", _share_source),
        "SELLER": ("", rf"{corp_re}|(?i:the depot|the discard)", _train_seller),
        "VIA": ("", _alternation(by_symbol.keys() | words.privates.keys()), private_symbol),
        "TEXT": ("", r".+?", str),
        "REST": ("", r".*", str),
    }


@dataclass(frozen=True)
class Rule:
    """One phrase of the log: a pattern, the entry kind it yields, and how to finish its data."""

    kind: str
    pattern: str
    fixed: dict = field(default_factory=dict)  # constant data every match gets
    finish: Callable[[dict, LogWords], None] | None = None  # derives structured fields in place
    needs_names: bool = False  # only safe once player names are known (e.g. chat)


_PLACEHOLDER = re.compile(r"\{([A-Z]+):([a-z_]+)\}")


def _literal(pattern: str) -> str:
    """A title's phrase as a rule's pattern: its words literal, its placeholders kept."""
    parts = _PLACEHOLDER.split(pattern)
    out = []
    for i in range(0, len(parts), 3):
        out.append(re.escape(parts[i]))
        if i + 2 < len(parts):
            out.append("{" + parts[i + 1] + ":" + parts[i + 2] + "}")
    return "".join(out)


class _Patterns:
    """The rule table compiled against one set of player names."""

    def __init__(self, players: Iterable[str], words: LogWords):
        self.words = words
        self.types = _fixed_types(words)
        self.players = tuple(players)
        corp_re = _alternation(words.corporations)
        self.player_re = _alternation(self.players) if self.players else _ANY_NAME_RE
        self.entity_re = (
            f"(?:{corp_re}|{self.player_re})" if self.players else _ANY_NAME_RE
        )
        # the title's own lines first: a line saying an option's value (its words, a literal phrase
        # with one placeholder)
        own = [Rule("option_line", _literal(pattern), fixed={"option": name}) for name, pattern in words.option_lines]
        self.compiled = [
            (rule, *self._compile(rule.pattern))
            for rule in own + RULES
            if not rule.needs_names or self.players
        ]

    def _compile(self, template: str) -> tuple[re.Pattern, dict[str, Callable]]:
        converters: dict[str, Callable] = {}

        def expand(m: re.Match) -> str:
            kind, group = m.group(1), m.group(2)
            if kind == "PLAYER":
                prefix, body, conv = "", self.player_re, str
            elif kind == "ENTITY":
                prefix, body, conv = "", self.entity_re, str
            else:
                prefix, body, conv = self.types[kind]
            converters[group] = conv
            return f"{prefix}(?P<{group}>{body})"

        return re.compile(_PLACEHOLDER.sub(expand, template)), converters

    def match(self, text: str) -> tuple[Rule, re.Match, dict] | None:
        for rule, regex, converters in self.compiled:
            m = regex.fullmatch(text)
            if m:
                return rule, m, converters
        return None

    def all_matches(self, text: str) -> list[Rule]:
        return [rule for rule, regex, _ in self.compiled if regex.fullmatch(text)]


# ---------------------------------------------------------------------------------------------
# Finishers: structured fields that a single regex group cannot express.

# "$14 to PRR, $6 to The Lord": each payee runs up to the next ", $N to " or the end.
@lru_cache(maxsize=8)
def _payee_re(cur: str) -> re.Pattern:
    c = re.escape(cur)
    return re.compile(rf"{c}(?P<amount>-?\d[\d,]*) to (?P<who>.+?)(?=, {c}-?\d[\d,]* to |$)")


def _parse_payees(data: dict, words: LogWords) -> None:
    listing = data.pop("payee_list", None) or ""
    payees: dict[str, int] = {}
    pos = 0
    while pos < len(listing):
        m = _payee_re(words.currency).match(listing, pos)
        if not m:
            raise ValueError(f"bad payee list {listing!r}")
        who = m.group("who")
        payees[who] = payees.get(who, 0) + _money(m.group("amount"))
        pos = m.end()
        if listing.startswith(", ", pos):
            pos += 2
    data["payees"] = payees


# "( B&O x3, The Depot x1)": holder names are corporation symbols or "The Depot".
_RUST_HOLDER_RE = re.compile(r"\s*(?P<who>.+?) x(?P<count>\d+)\s*")


def _parse_rust_holders(data: dict, words: LogWords) -> None:
    listing = data.pop("holder_list", None)
    holders: dict[str, int] = {}
    if listing and listing.strip():
        for part in listing.split(","):
            m = _RUST_HOLDER_RE.fullmatch(part)
            if not m:
                raise ValueError(f"bad rust list {listing!r}")
            holders[_train_seller(m.group("who"))] = int(m.group("count"))
    data["holders"] = holders


# "gershwyn ($5541), cslkmaa ($5359)": names may hold anything, so split on the "($N)" markers.
@lru_cache(maxsize=8)
def _final_value_re(cur: str) -> re.Pattern:
    return re.compile(rf"(?P<who>.+?) \({re.escape(cur)}(?P<value>-?\d[\d,]*)\)(?:, |$)")


def _parse_final_values(data: dict, words: LogWords) -> None:
    listing = data.pop("value_list")
    values: dict[str, int] = {}
    pos = 0
    while pos < len(listing):
        m = _final_value_re(words.currency).match(listing, pos)
        if not m:
            raise ValueError(f"bad game-over list {listing!r}")
        values[m.group("who")] = _money(m.group("value"))
        pos = m.end()
    data["values"] = values


def _split_route(data: dict, words: LogWords) -> None:
    route = data.get("route")
    data["route"] = route.split("-") if route else []


def _default_cost(data: dict, words: LogWords) -> None:
    # A free lay or token simply omits "spends $N" / "for $N".
    if data.get("cost") is None:
        data["cost"] = 0


def _split_tiles(data: dict, words: LogWords) -> None:
    data["tiles"] = [t.strip() for t in data["tiles"].split(",")]


def _shares_to_percent(data: dict, words: LogWords) -> None:
    # The log says either "a 20% share" (one certificate) or "3 shares" (several 10% certificates;
    # in 1830 every certificate but the president's is 10%, and the president's is never sold
    # or bought in a bundle).
    if data.get("percent") is None:
        data["percent"] = 10 * data["shares"]
    elif data.get("shares") is None:
        data["shares"] = 1


# ---------------------------------------------------------------------------------------------
# The rule table. Order matters only where one phrase is a prefix of another with a lenient name
# (e.g. "has no valid actions and passes" before "passes"); the tests check that, with the real
# names, no line of the recorded games matches two rules.

_SHARES = r"(?:a {INT:percent}% share|{INT:shares} shares)"
_WHERE = r"{HEX:hex}(?: \({TEXT:location}\))?"
_VIA = r"(?: \({VIA:via}\))?"  # "B&O (DH) lays tile": a private's ability used by the company

RULES: list[Rule] = [
    # --- framing lines: no decision, no money -------------------------------------------------
    Rule("blank", r""),
    Rule("date", r"-- {DATE:date} --"),
    Rule("optional_rules", r"Optional rules used in this game:"),
    Rule("optional_rule", r"\* {TEXT:rule}: {REST:description}"),
    Rule("master_mode", r"• Action\({TEXT:action}\) via Master Mode by: {PLAYER:by}"),
    # Other engine notes start with the same bullet (e.g. programmed actions); the action they
    # announce is logged on its own line, so the note itself carries nothing.
    Rule("note", r"• (?!Action\(){REST:note}"),
    Rule(
        "phase",
        r"-- Phase {TEXT:phase} \(Operating Rounds: {INT:operating_rounds} \| "
        r"Train Limit: {INT:train_limit} \| Available Tiles: {TEXT:tiles}\) --",
        finish=_split_tiles,
    ),
    Rule("sr_start", r"-- Stock Round {INT:round} --"),
    # Early versions of the site did not say how many rounds the set has.
    Rule("or_start", r"-- Operating Round {INT:round}\.{INT:number}(?: \(of {INT:of}\))? --"),
    Rule(
        "rust",
        r"-- Event: {TRAIN:train} trains rust(?: \({REST:holder_list}\))? --",
        finish=_parse_rust_holders,
    ),
    Rule("close_privates", r"-- Event: Private companies close --"),
    # A title whose supply exports trains at the end of each set of ORs (the engine's export_trains)
    Rule("export", r"-- Event: An? {TRAIN:train} train exports --"),
    # "goes bankrupt and sells remaining shares" in a banner is the site's 1830 wording; the
    # shorter and unbannered forms are read too, so a version that trims the line still imports.
    Rule("bankrupt", r"-- {PLAYER:actor} goes bankrupt(?: and sells remaining shares)? --"),
    Rule(
        "bankrupt",
        r"{PLAYER:actor} (?:goes bankrupt|declares bankruptcy)(?: and sells remaining shares)?",
    ),
    Rule("bank_broken", r"-- The bank has broken --"),
    Rule("game_over", r"-- Game over: {REST:value_list} --", finish=_parse_final_values),
    Rule("end_manual", r"Game ended manually by {PLAYER:actor}"),
    # --- private auction ---------------------------------------------------------------------
    Rule("auction_start", r"{PRIVATE:private} goes up for auction"),
    Rule("bid", r"{PLAYER:actor} bids {MONEY:amount} for {PRIVATE:private}"),
    Rule("buy_private", r"{PLAYER:actor} buys {PRIVATE:private} for {MONEY:amount}"),
    Rule(
        "win_auction",
        r"{PLAYER:actor} wins the auction for {PRIVATE:private} with a bid of {MONEY:amount}",
        fixed={"only_bid": False},
    ),
    Rule(
        "win_auction",
        r"{PLAYER:actor} wins the auction for {PRIVATE:private} "
        r"with the only bid of {MONEY:amount}",
        fixed={"only_bid": True},
    ),
    # A normal auction turn spent passing, vs. dropping out of a bidding war on one private.
    Rule("auction_pass", r"{PLAYER:actor} passes bidding"),
    Rule("auction_drop", r"{PLAYER:actor} passes on {PRIVATE:private}"),
    # After everyone passes with SV unsold, its price falls by $5.
    Rule(
        "sv_discount",
        r"{PRIVATE:private} minimum bid decreases from {MONEY:old_price} to {MONEY:new_price}",
    ),
    # --- stock round ---------------------------------------------------------------------------
    Rule("priority", r"{PLAYER:actor} has (?:the )?priority deal"),
    Rule("par", r"{PLAYER:actor} pars {CORP:corp} at {MONEY:price}"),
    Rule(
        "buy_share",
        r"{PLAYER:actor} buys " + _SHARES + r" of {CORP:corp} "
        r"from {SOURCE:source} for {MONEY:amount}",
        finish=_shares_to_percent,
    ),
    Rule(
        "sell_shares",
        r"{PLAYER:actor} sells " + _SHARES + r" of {CORP:corp} and receives {MONEY:amount}",
        finish=_shares_to_percent,
    ),
    # A share given, not bought: C&A's PRR 10%, B&O's president's share with the BO private.
    # Some versions add where the share came from ("from the IPO"); the holding is what we check.
    Rule(
        "receive_share",
        r"{PLAYER:actor} receives a {INT:percent}% share of {CORP:corp}(?: from [^$]+)?",
    ),
    # M&H for an NYC 10%. The site has used two word orders, and a line that names no source
    # (then our engine takes the share from the IPO if it can, as the site does).
    Rule(
        "exchange",
        r"{PLAYER:actor} exchanges {PRIVATE:private} from {SOURCE:source} "
        r"for a {INT:percent}% share of {CORP:corp}",
    ),
    Rule(
        "exchange",
        r"{PLAYER:actor} exchanges {PRIVATE:private} for a {INT:percent}% share of {CORP:corp}"
        r"(?: from {SOURCE:source})?",
    ),
    Rule("president", r"{PLAYER:actor} becomes the president of {CORP:corp}"),
    Rule("decline_sell", r"{PLAYER:actor} declines to sell shares"),
    Rule("decline_buy", r"{PLAYER:actor} declines to buy shares"),
    # Any other "declines to ..." (e.g. to bid) is a plain pass of that step.
    Rule(
        "pass",
        r"{ENTITY:actor} declines to (?!(?:buy|sell) shares$){TEXT:step}",
        fixed={"forced": False},
    ),
    Rule(
        "pass",
        r"{ENTITY:actor} has no valid actions and passes",
        fixed={"step": None, "forced": True},
    ),
    # "moves down from $67 to $67" happens at the market's floor: logged, but no move.
    Rule(
        "price_move",
        r"{CORP:actor}'s share price moves {TEXT:direction}(?: {INT:steps} steps?)? "
        r"from {MONEY:old_price} to {MONEY:new_price}",
    ),
    # Other versions name no direction, and count the steps of a jump after the prices.
    Rule(
        "price_move",
        r"{CORP:actor}'s share price changes from {MONEY:old_price} to {MONEY:new_price}"
        r"(?: \({INT:steps} steps?\))?",
        fixed={"direction": None},
    ),
    Rule("float", r"{CORP:actor} floats"),
    Rule("receives", r"{CORP:actor} receives {MONEY:amount}"),
    # --- operating round ---------------------------------------------------------------------
    Rule("operates", r"{PLAYER:actor} operates {CORP:corp}"),
    Rule("collect", r"{ENTITY:actor} collects {MONEY:amount} from {PRIVATE:private}"),
    Rule(
        "lay_tile",
        r"{CORP:actor}" + _VIA + r"(?: spends {MONEY:cost} and)? lays tile #{TEXT:tile} "
        r"with rotation {INT:rotation} on " + _WHERE,
        finish=_default_cost,
    ),
    # The site prints "(City)  for $40" with two spaces and sometimes a trailing space.
    Rule(
        "place_token",
        r"{CORP:actor}" + _VIA + r" places a token on " + _WHERE + r"(?: +for {MONEY:cost})? *",
        finish=_default_cost,
    ),
    Rule("choose_city", r"{CORP:actor} must choose city for token"),
    Rule(
        "run",
        r"{CORP:actor} runs a {TRAIN:train} train for {MONEY:revenue}(?:: ?{REST:route})?",
        finish=_split_route,
    ),
    # The per-share figure and the payee list are each left out by some versions (and the list
    # is "()" when nobody holds a share); the revenue is the decision, the payees are audited.
    Rule(
        "pay_out",
        r"{CORP:actor} pays out {MONEY:revenue}(?: = {PERSHARE:per_share}(?: per share)?)?"
        r"(?: \({REST:payee_list}\))?",
        finish=_parse_payees,
    ),
    Rule("withhold", r"{CORP:actor} withholds {MONEY:amount}"),
    Rule("does_not_run", r"{CORP:actor} does not run"),
    # The seller is The Depot, The Discard (newer versions' name for the open market) or a company.
    Rule(
        "buy_train",
        r"{CORP:actor} buys an? {TRAIN:train} train for {MONEY:amount} from {SELLER:seller}",
    ),
    # The D trade-in: the old train goes back to the bank and the price is the reduced one.
    Rule(
        "exchange_train",
        r"{CORP:actor} exchanges an? {TRAIN:old_train}(?: train)? for an? {TRAIN:train} train "
        r"for {MONEY:amount} from {SELLER:seller}",
    ),
    Rule("discard_train", r"{CORP:actor} discards (?:a )?{TRAIN:train}(?: train)?"),
    Rule(
        "buy_company",
        r"{CORP:actor} buys {PRIVATE:private} from {PLAYER:seller} for {MONEY:amount}",
    ),
    Rule("close_private", r"{PRIVATE:private} closes"),
    # Emergency money: the president pays the rest of a forced train purchase.
    Rule("contribute", r"{PLAYER:actor} contributes {MONEY:amount}"),
    # --- step passes and skips, any round ------------------------------------------------------
    Rule(
        "skip",
        r"{CORP:actor} automatically skips {TEXT:step} because {REST:reason}",
        fixed={"automatic": True},
    ),
    Rule("skip", r"{ENTITY:actor} skips {TEXT:step}", fixed={"automatic": False, "reason": None}),
    Rule("pass", r"{CORP:actor} passes {TEXT:step}", fixed={"forced": False}),
    # A private whose ability the company owning it may use ("Ehime Railway passes lay track"): the
    # actor is the private's symbol.
    Rule("pass", r"{PRIVATE:actor} passes {TEXT:step}", fixed={"forced": False}),
    # Ambiguous on its own (stock-round pass, company step pass); round context decides.
    Rule("pass", r"{ENTITY:actor} passes", fixed={"step": None, "forced": False}),
    # --- chat: only with known names, so "X: ..." cannot swallow a game line --------------------
    Rule("chat", r"{PLAYER:actor}: {REST:message}", needs_names=True),
]


# ---------------------------------------------------------------------------------------------
# Line and log parsing.

# "[13:23]", with seconds or a 12-hour clock or a date as a browser's locale may print it.
_TIME_PREFIX = re.compile(
    r"^\[(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?::\d{2})?(?: ?[AaPp][Mm])?\] ?"
)


def _strip_time(line: str) -> str:
    return _TIME_PREFIX.sub("", line, count=1).strip()


def _build_entry(lineno: int, text: str, pats: _Patterns) -> LogEntry:
    found = pats.match(text)
    if found is None:
        raise LogParseError(lineno, text)
    rule, m, converters = found
    data: dict = {}
    for name, raw in m.groupdict().items():
        data[name] = None if raw is None else converters[name](raw)
    actor = data.pop("actor", None)
    data.update(rule.fixed)
    if rule.finish is not None:
        try:
            rule.finish(data, pats.words)
        except ValueError as exc:
            raise LogParseError(lineno, text, str(exc)) from None
    return LogEntry(lineno=lineno, kind=rule.kind, actor=actor, data=data, text=text)


@lru_cache(maxsize=16)
def _patterns_for(players: tuple[str, ...], words: LogWords | None = None) -> _Patterns:
    # Compiling the table costs more than parsing a line; callers reuse a few name sets.
    return _Patterns(players, words or words_for())


def parse_line(line: str, players: Iterable[str] = (), lineno: int = 1, title: str | None = None) -> LogEntry:
    """Parse one log line of `title` (None: the first title that reads this site's logs). With
    `players`, names are matched only as those exact strings."""
    return _build_entry(lineno, _strip_time(line), _patterns_for(tuple(players), words_for(title)))


# Phrases only a player says; their actors are the game's players. Every player makes at least one
# normal auction turn, so these always find all of them in a full log.
_NAME_SOURCES = frozenset(
    {"bid", "buy_private", "auction_pass", "auction_drop", "win_auction", "priority", "par",
     "operates"}
)


def players_from_entries(entries: Iterable[LogEntry]) -> list[str]:
    """Player names in order of first appearance in a name-revealing phrase."""
    names: dict[str, None] = {}
    for entry in entries:
        if entry.kind in _NAME_SOURCES and entry.actor:
            names.setdefault(entry.actor)
        elif entry.kind == "game_over":
            for name in entry.data["values"]:
                names.setdefault(name)
    return list(names)


def _discover_players(lines: list[str], words: LogWords) -> list[str]:
    """First pass: lenient names, unrecognised lines skipped (the second pass reports them)."""
    lenient = _patterns_for((), words)
    entries = []
    for lineno, line in enumerate(lines, 1):
        try:
            entries.append(_build_entry(lineno, _strip_time(line), lenient))
        except LogParseError:
            continue
    return players_from_entries(entries)


# Normal auction turns. Early versions of the site logged an auction pass as a bare "X passes".
_AUCTION_TURNS = frozenset({"bid", "buy_private", "auction_pass", "pass"})


def seating_from_log(entries: Iterable[LogEntry], corporations: Iterable[str] | None = None) -> list[str]:
    """Seating order: the order of the first normal auction turns.

    Normal turns (bid, buy the cheapest private, pass) go round the table from the first player.
    Bidding-war actions (everything between "X goes up for auction" and its "wins the auction")
    do not move the turn marker and are left out, as are the "only bid" wins that follow a purchase.
    """
    corps = set(words_for().corporations if corporations is None else corporations)
    seating: dict[str, None] = {}
    war_on: str | None = None
    for entry in entries:
        if entry.kind == "sr_start":
            break
        if entry.kind == "auction_start":
            war_on = entry.data["private"]
        elif entry.kind == "win_auction" and entry.data["private"] == war_on:
            war_on = None
        elif entry.kind in _AUCTION_TURNS and war_on is None and entry.actor not in corps:
            seating.setdefault(entry.actor)
    return list(seating)


def parse_log(text: str, title: str | None = None) -> tuple[list[str], list[LogEntry]]:
    """Parse a whole log of `title` (None: the title its lines name, title_of_log). Returns
    (seating order, one entry per line)."""
    words = words_for(title or title_of_log(text))
    lines = text.splitlines()
    pats = _patterns_for(tuple(_discover_players(lines, words)), words)
    entries = [
        _build_entry(lineno, _strip_time(line), pats) for lineno, line in enumerate(lines, 1)
    ]
    return seating_from_log(entries, words.corporations), entries
