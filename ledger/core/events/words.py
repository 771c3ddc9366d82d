"""The log's words for every shared event, kept apart from the events' data and what they change
(as a printer is kept apart from the books it prints): `describe(event, rs)` is an event's line in
the title's currency, every marker it moves said from and to. A shared kind's words are a function
registered with `says(kind)`; a title's kinds carry theirs in their own declaration
(`describe` in the class body, ledger.core.events.declare.event)."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from ledger.core.money import format_money
from ledger.core.round_kind import round_title
from ledger.core.state import BANK, DEPOT, MINT, POOL, REMOVED, RUSTED, acct_name, train_type
from ledger.core.events.declare import KINDS, UPGRADES, kind_of


def says(kind: str, moves: bool = False):
    """Register a shared kind's line in the log; `moves`: the line itself says how its marker moves
    (price_move), so `describe` does not add it."""
    def register(fn):
        declared = KINDS[""][kind]
        declared.describe, declared.says_moves = fn, moves
        return fn
    return register

def describe(e: dict, rs) -> str | None:
    """One log line for an event in the title's currency, or None for pure bookkeeping. Every
    marker the event moves is said with where it was and where it is now (the banker moves the
    physical markers from the log alone), unless the kind's own line says it."""
    declared = kind_of(e["kind"], rs.title)
    upgrade = UPGRADES.get(rs.title)
    if upgrade:
        upgrade(e)
    line = declared.describe(e, rs) if declared and declared.describe else None
    if line and not declared.says_moves:
        line += "".join(f"; {sym} {price_move(e, rs, sym)}" for sym, old, _new in e.get("moves", ())
                        if old is not None)   # a marker placed (a par, a listing) is its line's price
    return line


def price_move(e: dict, rs, sym: str) -> str:
    """How an event moves a company's marker, from and to: 'falls from $71 to $67', 'rises from
    $67 to $71', 'stays at $50' (the rule moved it nowhere: an edge, a protected price), and where
    the marker now sits in its cell's stack when the event re-stacked it ('..., under B&O')."""
    old, new = next(([o, n] for s, o, n in e.get("moves", ()) if s == sym), [None, None])
    return marker_move(rs, old, new) + stack_place(e, sym)


def marker_move(rs, old, new) -> str:
    """A marker's move between two cells (None: off the market), from and to, in the log's words."""
    if new is None:
        return "does not move" if old is None else f"leaves the market (was {rs.money(cell_price(rs, old))})"
    after = cell_price(rs, new)
    if old is None:
        return f"is placed at {rs.money(after)}"
    before = cell_price(rs, old)
    return (f"rises from {rs.money(before)} to {rs.money(after)}" if after > before else
            f"falls from {rs.money(before)} to {rs.money(after)}" if after < before else
            f"stays at {rs.money(after)}" if list(old) == list(new) else
            f"moves to another {rs.money(after)} box")


def cell_price(rs, cell) -> int:
    return rs.market[tuple(cell)].price


def stack_place(e: dict, sym: str) -> str:
    """Where an event's new stack order (top first) puts a marker among the others of its cell."""
    stack = next((list(st) for st in e.get("restack", ()) if sym in st), None)
    if not stack or len(stack) < 2:
        return ""
    at = stack.index(sym)
    return f", under {' and '.join(stack[:at])}" if at else f", on top of {' and '.join(stack[1:])}"


# The holders that are no person or company, as the table names them.
PLACES = {POOL: "the pool", BANK: "the bank", DEPOT: "the bank", MINT: "the mint", RUSTED: "the rusted trains",
          REMOVED: "out of the game"}


def holder_words(acct: str | None) -> str:
    """An account as the table names the holder of a thing: 'Alice', 'PRR', 'the IPO', "PRR's
    treasury", 'the pool', 'the bank' (None: nobody, a certificate not yet issued)."""
    if acct is None:
        return "nobody"
    if acct in PLACES:
        return PLACES[acct]
    kind, _, name = acct.partition(":")
    return {"ipo": "the IPO", "treasury": f"{name}'s treasury"}.get(kind, name or acct)


def payees_text(e: dict, rs) -> str:
    """Each holder's payout: every player's, and the company's own for the shares of it that pay
    it ('PRR $30 for 3 pool shares'), so the banker pays the treasury as surely as the players."""
    owned = iter(company_paid_for(rs, e["corp"], sum(1 for a, _n, amt in e["payees"]
                                                      if amt and a.startswith("company:"))))
    return ", ".join(f"{acct_name(a)} {rs.money(amt)}"
                     + (f" for {counted(n, next(owned) + 'share')}" if a.startswith("company:") else "")
                     for a, n, amt in e["payees"] if amt) or "nobody"


def company_paid_for(rs, corp: str, entries: int) -> list[str]:
    """The holdings a company's own payout entries are for, in the order a payout lists them (the
    pool's shares, then its unsold ones: rules.revenue.dividends), as the words before 'share':
    'pool ', 'IPO ', 'treasury ' (or '' where its kinds leave it open). Read from the kind the
    company starts as, else from every kind of the title (a kind that converts pays alike)."""
    try:
        kinds = [rs.starting_kind(corp)]
    except KeyError:
        kinds = []
    for candidates in (kinds, list(rs.kinds.values())):
        sources = paying_holdings(candidates)
        if len(sources) == entries:
            return sources
    return [""] * entries


def paying_holdings(kinds) -> list[str]:
    """Which of a company's own holdings pay it a dividend under these kinds, pool first."""
    unsold = {k.unsold for k in kinds if k.ipo_pays == "company"}
    return ((["pool "] if any(k.pool_pays == "company" for k in kinds) else [])
            + ([{"ipo": "IPO ", "treasury": "treasury "}.get(next(iter(unsold)), "unsold ")
                if len(unsold) == 1 else "unsold "] if unsold else []))


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """'1 share', '2 shares': a count with its noun (`plural` where adding s is wrong)."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def a_train(train_id: str) -> str:
    """'a 2 train', 'an 8 train', 'a yellow train': a train as the table names it (its type, not
    the ledger's id of the one certificate)."""
    kind = train_type(train_id)
    article = "an" if kind[:1].upper() in "AEIOU8" or kind.startswith(("11", "18")) else "a"
    return f"{article} {kind} train"


# =========================================================================== the game and its rounds


def answered(question: str) -> str:
    """A question the rules asked, as the statement its answer settles: 'where does Minor C operate
    in this OR (§15.3)?' -> 'where Minor C operates in this OR (§15.3)'."""
    # the subject is a name (capitalised words: 'Minor C', 'GWR'); any other question is kept as asked
    asked = re.match(r"(where|when|how|which|what) does ((?:[A-Z0-9][\w&'+-]* )+)([a-z]+)(.*)\?$", question)
    if not asked:
        return question.rstrip("?")
    how, subject, verb, rest = asked.groups()
    ending = "es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s"
    return f"{how} {subject}{verb}{ending}{rest}"


def who_owes_whom(e: dict, rs) -> str:
    """A count that differs from the ledger, as the table settles it: who hands money to whom."""
    who, gap = e["player"], abs(e["counted"] - e["ledger"])
    if e["counted"] < e["ledger"]:
        return f"{who} is {rs.money(gap)} short, so the bank owes {who} {rs.money(gap)}"
    return f"{who} has {rs.money(gap)} too much, so {who} owes the bank {rs.money(gap)}"


def mend_ledger(e: dict) -> str:
    """The command that makes the ledger agree with a count that was right."""
    who, gap = e["player"], abs(e["counted"] - e["ledger"])
    payer, payee = ("bank", who) if e["counted"] > e["ledger"] else (who, "bank")
    return f"adjust {payer} {payee} {gap} --reason ..."


def signed_money(n: int, currency: str) -> str:
    """A difference with its sign always shown, in front as a person writes it: '+$5', '-$41',
    '-41fr'."""
    return ("-" if n < 0 else "+") + format_money(abs(n), currency)


@says("game_started")
def game_started(e, rs):
    return "game started: " + ", ".join(f"{acct_name(t[1])} {rs.money(t[2])}" for t in e["transfers"]
                                        if t[0] != MINT)


@says("round_started")
def round_started(e, rs):
    return f"-- {round_title(e['round'])} --"


@says("stock_round_ended")
def stock_round_ended(e, rs):
    return f"stock round {e['number']} ends"


@says("seating")
def seating(e, rs):
    return f"new player order {e.get('by', 'by cash')}: " + ", ".join(f"{p} {rs.money(e['cash'][p])}" for p in e["players"])


@says("chosen")
def chosen(e, rs):
    return f"{e['player']} chooses {e['option']}: {answered(e['question'])}"


@says("bank_broke")
def bank_broke(e, rs):
    after = f"OR {e['end_at_or'][0]}.{e['end_at_or'][1]}" if e.get("end_at_or") else f"set {e['end_after_set']}"
    return f"-- the bank has broken ({rs.money(e['bank'])}); the game ends after {after} --"


@says("axis_phase_changed")
def axis_phase_changed(e, rs):
    return f"-- the {e['phase']} {e['axis']} phase begins --"


@says("end_due")
def end_due(e, rs):
    return f"-- {e['corp']} reaches {rs.money(e['price'])}: the game ends after this operating round --"


@says("game_over")
def game_over(e, rs):
    return f"-- game over: {e['reason']} --"


@says("bankrupt")
def bankrupt(e, rs):
    line = f"{e['player']} is bankrupt ({e['corp']} cannot buy a train): "
    if e.get("transfers"):
        return line + f"{rs.money(sum(amount for _payer, _payee, amount in e['transfers']))} to the bank"
    return line + "no money moves" + (f" ({e['player']} keeps {rs.money(e['cash'])})" if e["cash"] else "")


@says("rules_waived")
def rules_waived(e, rs):
    return f"FORCED ({e['reason']}): waived " + ("; ".join(e["rules"]) or "nothing")


@says("adjustment")
def adjustment(e, rs):
    return f"ADJUSTMENT ({e['reason']}): {rs.money(e['amount'])} from {acct_name(e['from'])} to {acct_name(e['to'])}"


@says("count")
def count(e, rs):
    said = f"count: {e['player']} has {rs.money(e['counted'])} on the table, the ledger says {rs.money(e['ledger'])}"
    if e["counted"] == e["ledger"]:
        return said + " — they agree"
    return f"{said}: {who_owes_whom(e, rs)} (if the ledger is wrong instead: {mend_ledger(e)})"


# =========================================================================== the auction


def certificate_words(rs, cert: str) -> str:
    """A certificate as issued at the start, in the table's words (not the ledger's id 'PRR.1'):
    '10% of PRR', "the B&O president's certificate (20%)"."""
    corp, _, index = cert.rpartition(".")
    try:
        kind = rs.starting_kind(corp)
        percent = kind.certificates[int(index)]
    except (KeyError, ValueError, IndexError, StopIteration):
        return cert   # a certificate the title's data does not number: its id is all there is
    if int(index) == 0 and kind.president:
        return f"the {corp} president's certificate ({percent}%)"
    return f"{percent}% of {corp}"


@says("bid")
def bid(e, rs):
    return f"{e['player']} bids {rs.money(e['amount'])} on {e['private']}"


@says("bid_dropped")
def bid_dropped(e, rs):
    return f"{e['player']} drops out of the bidding for {e['private']} (bid {rs.money(e['amount'])})"


@says("auction_pass")
def auction_pass(e, rs):
    return f"{e['player']} passes"


@says("private_bought")
def private_bought(e, rs):
    if e.get("dealt"):
        return f"{e['player']} is dealt {e['private']} and pays {rs.money(e['price'])} for it"
    return (f"{e['player']} buys {e['private']} for {rs.money(e['price'])}"
            + "".join(f"; receives {certificate_words(rs, c[0])}" for c in e.get("certs", ())))


@says("private_discounted")
def private_discounted(e, rs):
    return f"nobody bought: {e['private']} now costs {rs.money(e['price'])}"


@says("private_revenue")
def private_revenue(e, rs):
    return "privates pay: " + ", ".join(f"{sym} {rs.money(amt)} to {acct_name(o)}" for sym, o, amt in e["privates"])


# =========================================================================== stock rounds


def swapped(e: dict) -> str:
    """The certificates a change of president trades between two players: the president's
    certificate (the first to move) to the new president, shares of the same percent back."""
    between = [(cert, acct_name(dest)) for cert, source, dest in e.get("certs", ())
               if str(source).startswith("player:") and str(dest).startswith("player:")]
    if not between:
        return ""
    (_pres, new), back = between[0], Counter(dest for _c, dest in between[1:])
    return (f": the president's certificate to {new}"
            + "".join(f", {counted(n, 'share')} to {who}" for who, n in back.items()))


@says("stock_pass")
def stock_pass(e, rs):
    return f"{e['player']} passes"


@says("par")
def par(e, rs):
    return (f"{e['player']} pars {e['corp']} at {rs.money(e['price'])}"
            + (f" (pays {rs.money(e['cost'])})" if e.get("cost") else ""))


@says("share_bought")
def share_bought(e, rs):
    held = e.get("certs") or [[None, ""]]
    where = ("the pool" if e["source"] == "pool" else
             f"{e['corp']}'s treasury" if str(held[0][1]).startswith("treasury:") else "the IPO")
    return f"{e['player']} buys {e['percent']}% of {e['corp']} from {where} for {rs.money(e['price'])}"


@says("shares_sold", moves=True)
def shares_sold(e, rs):
    line = (f"{e['player']} sells {counted(e['count'], e['corp'] + ' share')} at {rs.money(e['price'])} for "
            f"{rs.money(e['amount'])}")
    if e.get("moves"):
        line += f"; {e['corp']} {price_move(e, rs, e['corp'])}"
    if e.get("president"):
        line += f"; {e['president']} becomes president of {e['corp']}{swapped(e)}"
    return line


@says("president_changed")
def president_changed(e, rs):
    return f"{e['new']} becomes president of {e['corp']} (was {e['old']}){swapped(e)}"


@says("floated")
def floated(e, rs):
    return f"{e['corp']} floats: receives {rs.money(e['capital'])}" if e["capital"] else f"{e['corp']} floats"


@says("exchange")
def exchange(e, rs):
    if e["source"] == "director":
        return (f"{e['player']} exchanges {e['private']} for {e['corp']}'s director's certificate, paying "
                f"{rs.money(e['price'])}")
    source = "IPO" if e["source"] == "ipo" else e["source"]
    return f"{e['player']} exchanges {e['private']} for a {e['corp']} share from the {source}"


@says("company_listed")
def company_listed(e, rs):
    return f"{e['corp']} is listed at {rs.money(e['price'])}"


@says("company_converted")
def company_converted(e, rs):
    return f"{e['corp']} becomes a {e['becomes']}"


@says("shares_issued")
def shares_issued(e, rs):
    verb = "buys back" if e.get("redeem") else "issues"
    return (f"{e['corp']} {verb} {counted(e['count'], 'share')} at {rs.money(e['price'])} for "
            f"{rs.money(e['amount'])}")


@says("sold_out", moves=True)
def sold_out(e, rs):
    return f"{e['corp']} is sold out: its price " + (price_move(e, rs, e["corp"]) if e.get("moves") else "rises")


# =========================================================================== operating rounds


# How each holder's part of a payout is rounded, by the title's rule (ruleset: dividend_rounding).
PAYOUT_ROUNDING = {
    "ceil_per_holder": "each holder's payout rounded up",
    "floor_per_holder": "each holder's payout rounded down",
    "ceil_players_floor_company": "each player's payout rounded up, the company's down",
}


@says("corp_turn_started")
def corp_turn_started(e, rs):
    homes = e.get("homes", 1)
    placed = (f" and places its {homes} home tokens" if homes > 1 else " and places its home token")
    return f"{e['corp']} operates ({e.get('president') or 'no director'})" + (placed if e.get("home_token") else "")


@says("tile_laid")
def tile_laid(e, rs):
    return (f"{e['corp']} lays a tile" + (f" using {e['private']}" if e.get("private") else "")
            + (f" for {rs.money(e['cost'])}" if e["cost"] else ""))


@says("token_placed")
def token_placed(e, rs):
    where = f" at {e['city']}" if e.get("city") else ""
    return f"{e['corp']} places a token{where} for {rs.money(e['cost'])}"


@says("revenue")
def revenue(e, rs):
    if e["how"] == "withhold":
        return f"{e['corp']} withholds {rs.money(e['revenue'])}"
    if e["how"] == "half":
        said = f"{e['corp']} runs for {rs.money(e['revenue'])}, keeps {rs.money(e['kept'])} and pays out half"
    else:
        said = f"{e['corp']} pays out {rs.money(e['revenue'])}"
    if Fraction(e.get("per_share") or 0).denominator > 1:
        # a share's part is not whole money ("£12.5"): the rules round each holder's payout
        # instead (1830 digest #1, 1801 §11.4, 1839 D11.2), so the line says so, not the fraction
        return f"{said}, {PAYOUT_ROUNDING[rs.k('company', 'dividend_rounding')]}: {payees_text(e, rs)}"
    return f"{said} ({format_money(e['per_share'], rs.currency)}/share): {payees_text(e, rs)}"


# =========================================================================== trains and phases


def rusted_text(e: dict) -> str:
    """The trains that rust, by type, with whose they were: 'the 2 trains (6: PRR, NYC ×2, pool ×3)'
    (not the ledger's ids of the certificates, which the table never sees)."""
    holders = {t: acct_name(h) for t, h, _to in e.get("trains") or ()}
    by_type: dict[str, list[str]] = {}
    for t in e["rusted"]:
        by_type.setdefault(train_type(t), []).append(holders.get(t, ""))
    parts = []
    for kind, whose in by_type.items():
        held = ", ".join(w if n == 1 else f"{w} ×{n}" for w, n in Counter(w for w in whose if w).items())
        parts.append(f"the {kind} {'train' if len(whose) == 1 else 'trains'} ({len(whose)}"
                     + (f": {held})" if held else ")"))
    return ", ".join(parts)


@says("train_bought")
def train_bought(e, rs):
    seller = "the bank" if e["seller"] == DEPOT else acct_name(e["seller"])   # the supply is the bank's
    return (f"{e['corp']} buys a {e.get('side') or e['type']} train from {seller} for "
            f"{rs.money(e['price'])}" + (" (a rusted certificate)" if e.get("rusted") else "")
            + (f" trading in a {e['trade_in']}" if e.get("trade_in") else "")
            + (f" ({e['president']} contributes {rs.money(e['contribution'])})" if e.get("contribution") else ""))


@says("phase_changed")
def phase_changed(e, rs):
    certs = e.get("certificate_limit", e["limit"])
    return (f"-- phase {e['phase']} (train limit {e['limit']}"
            + (f" trains / {certs} certificates" if certs != e["limit"] else "") + ") --"
            + (f" rusted: {rusted_text(e)}" if e.get("rusted") else ""))


@says("trains_rusted")
def trains_rusted(e, rs):
    return f"trains rust: {rusted_text(e)}"


@says("train_discarded")
def train_discarded(e, rs):
    where = "out of the game" if (e.get("trains") or [[0, 0, "pool"]])[0][2] == "removed" else "to the pool"
    return f"{e['corp']} discards {a_train(e['train'])} {where}"


@says("obsolete_discarded")
def obsolete_discarded(e, rs):
    gone = [a_train(t[0]) for t in e["trains"]]
    return f"{e['corp']}'s obsolete {'train leaves' if len(gone) == 1 else 'trains leave'} play: {', '.join(gone)}"


# =========================================================================== privates


@says("private_sold")
def private_sold(e, rs):
    return f"{e['corp']} buys {e['private']} from {e['seller']} for {rs.money(e['price'])}"


@says("privates_closed")
def privates_closed(e, rs):
    return f"privates close ({e['reason']}): {', '.join(e['privates'])}"


@says("private_discarded")
def private_discarded(e, rs):
    return f"{e['player']} hands {e['private']} to the bank for {rs.money(e['price'])}"
