"""1839's foreign companies, Overzees, België and Duitsland (rules: shared/seeds/003_aa544c940024c360.txt
"§x"; digest shared/rules/1839.md "D x", its best readings "B n"): `pay`/`half`/`withhold --abroad`
puts a public company's revenue on the revenue track with the countries its route reached (D3); a
country reached for the first time is parred at its drawn par (§8.2.5.3); after the public companies
each parred foreign company operates on its own (D6.4, §8.3.2): income from the track, half paid
out, its price moves, it buys back units from the pool and buys trains from the supply. A unit
bought from the charter pays half to the company until brown (§7.3).

Every number is in ruleset.toml's [foreign] (the defaults below are the rules' own, for games
stored before the section existed)."""

from __future__ import annotations

from ledger.core.events import a_train, counted, event
from ledger.core.grammar import Opt, TitleGrammar
from ledger.core.rules import market, revenue, shares, train_step, trains
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, DEPOT, POOL, REMOVED, acct_name, company_acct, player_acct

from .common import country, foreign_companies, listed, split, tallies

# the foreign companies' step of the operating round has begun (D3)
ROUND_FIELDS = {"operating": {"foreign_step": "bool"}}
KNOBS = {"foreign": {
    # D6.4: the foreign companies, in the order they operate at the end of each OR; the names a
    # table may type for each country (`--abroad`)
    "companies": Knob(list, None, ["OZ", "BEL", "DUI"]),
    "names": Knob(dict, None, {"OZ": ["overzees"], "BEL": ["belgie", "belgië", "belgium"],
                               "DUI": ["duitsland", "germany"]}),
    "income_rounding": Knob(int, None, 100),          # §8.3.2: the income is rounded up to a multiple of ƒ100
    "full_price_phase": Knob(str, None, "brown"),     # §7.3: from brown, a charter purchase pays the company in full
    "returns_to_supply": Knob(str, None, "FLOOD"),    # §8.3.2: a foreign company's FLOOD goes back into the supply
}}


def k(rs, name: str):
    return rs.k("foreign", name)


def cmd_run(how: str):
    """pay / half / withhold with `--abroad COUNTRIES`: the shared run, then the revenue track; a
    country reached for the first time is parred at its drawn par (§8.2.5.3, D6.2)."""
    shared = {"pay": revenue.cmd_pay, "half": revenue.cmd_half, "withhold": revenue.cmd_withhold}[how]

    def handler(ctx, cmd) -> None:
        s = ctx.state
        abroad = [country(ctx.rs, w) for w in split(cmd.get("abroad"))] if cmd.get("abroad") else []
        abroad = list(dict.fromkeys(abroad))   # one marker per country (B7)
        shared(ctx, cmd)
        corp = s.round["corp"]
        ctx.emit("revenue_tracked", corp=corp, revenue=s.round["revenue"], abroad=abroad)
        for sym in abroad:
            if not listed(s, sym):
                list_foreign(ctx, sym, by=corp)
    return handler


def list_foreign(ctx, sym: str, by: str) -> None:
    s, rs = ctx.state, ctx.rs
    par = s.own.draws["foreign"][sym]
    ctx.emit("company_listed", corp=sym, price=par, moves=[[sym, None, list(market.par_cell(rs, par))]])
    ctx.emit("floated", corp=sym, capital=0)


def unsold_share_payees(s, rs, corp: str, price: int):
    """§7.3 (D6.3): a foreign unit from the charter pays half (rounded up) to the company and the
    rest to the bank before brown, all to the company from brown; public shares pay the bank."""
    if shares.kind(s, rs, corp).president:
        return None
    if trains.phase_reached(s, rs, k(rs, "full_price_phase")):
        return [[company_acct(corp), price]]
    half = -(-price // 2)
    return [[company_acct(corp), half], [BANK, price - half]]


def clear_track(ctx) -> None:
    """§8.1 step 1: each OR's tallies start from zero."""
    if tallies(ctx.state) or ctx.state.own.private_runs:
        ctx.emit("revenue_track_cleared")


def foreign_step(ctx) -> None:
    """D6.4: after the public companies, each parred foreign company in turn: income, half-pay,
    price, buy-back from the pool, trains."""
    if any(sym in ctx.state.corps and listed(ctx.state, sym) for sym in foreign_companies(ctx.rs)):
        ctx.emit("foreign_step_begun")
    for sym in foreign_companies(ctx.rs):
        if sym in ctx.state.corps and listed(ctx.state, sym):
            operate_foreign(ctx, sym)
            if ctx.state.game_over:
                return


def income_of(s, rs, sym: str) -> tuple[int, list[str]]:
    """§8.3.2 (D3, B7): half the total revenue of the public companies whose routes reached it
    this OR, rounded up to ƒ100; and those companies."""
    runs = [(corp, run["revenue"]) for corp, run in tallies(s).items() if sym in run["abroad"]]
    # §12.4 (B30): a player's NFLM reaching the country counts twice
    runs += [(p, 2 * run["revenue"]) for p, run in s.own.private_runs.items() if sym in run["abroad"]]
    total = sum(r for _c, r in runs)
    rounding = k(rs, "income_rounding")
    income = -(-total // (2 * rounding)) * rounding if total else 0
    return income, [c for c, _r in runs]


def operate_foreign(ctx, sym: str) -> None:
    s, rs = ctx.state, ctx.rs
    income, sources = income_of(s, rs, sym)
    unit = shares.unit(s, rs, sym)
    per_unit = income * unit // 100 // 2 if income else 0      # F/2 paid out: F/100 a 2 % unit
    payees, transfers = [], []
    if income:
        transfers.append([BANK, company_acct(sym), income // 2])
        for holder in [player_acct(p) for p in s.players] + [shares.unsold_acct(s, rs, sym), POOL]:
            units = s.percent_of(holder, sym) // unit
            if not units:
                continue
            to = company_acct(sym) if holder == shares.unsold_acct(s, rs, sym) else None if holder == POOL else holder
            payees.append([holder, units, per_unit * units if to else 0])
            if to:
                transfers.append([BANK, to, per_unit * units])
    cell = s.corps[sym].cell
    to = market.move(rs, cell, "up" if income else "down")
    ctx.emit("foreign_income", corp=sym, income=income, per_unit=per_unit, sources=sources, payees=payees,
             transfers=transfers, moves=[[sym, list(cell), list(to)]])
    end_due(ctx, sym, to)
    buy_back(ctx, sym)
    buy_trains(ctx, sym)


def buy_back(ctx, sym: str) -> None:
    """§8.3.2 (B8): units in the pool come back to the charter at half the price (rounded down) a
    unit, as many as the company can afford; the bank is paid."""
    s, rs = ctx.state, ctx.rs
    unit = shares.unit(s, rs, sym)
    each = shares.price(s, rs, sym) // 2
    cash = s.cash(company_acct(sym))
    charter = shares.unsold_acct(s, rs, sym)
    moves, units = [], 0
    for cert in sorted(shares.ordinary_certs(s, POOL, sym), key=lambda c: -s.cert_percent[c]):
        n = s.cert_percent[cert] // unit
        if each * (units + n) <= cash:
            moves.append([cert, POOL, charter])
            units += n
        elif n > 1 and each * (units + 1) <= cash:
            # D6.1: a 4 % certificate is swapped for a 2 % one from the charter to buy a single unit
            single = next((c for c in shares.ordinary_certs(s, charter, sym) if s.cert_percent[c] == unit), None)
            if single:
                moves += [[cert, POOL, charter], [single, charter, POOL]]
                units += 1
    if units and each:
        ctx.emit("foreign_buy_back", corp=sym, units=units, price=each, certs=moves,
                 transfers=[[company_acct(sym), BANK, each * units]])


def buy_trains(ctx, sym: str) -> None:
    """§8.3.2 (D6.4 #5): as many trains from the supply as the company can afford, one after
    another; each leaves the game (a FLOOD goes back to the supply), moves the price up one box and
    may start a phase."""
    s, rs = ctx.state, ctx.rs
    while True:
        offer = trains.depot_offer(s, rs)
        if not offer:
            return
        name = offer[0]
        price = rs.train(name).price
        if s.cash(company_acct(sym)) < price:
            return
        train = trains.next_depot_train(s, rs, name)
        first = trains.sold_count(s, name) == 0
        where = DEPOT if name == k(rs, "returns_to_supply") else REMOVED
        cell = s.corps[sym].cell
        to = market.move(rs, cell, "up")
        ctx.emit("foreign_train_bought", corp=sym, train=train, type=name, price=price,
                 transfers=[[company_acct(sym), BANK, price]], trains=[[train, DEPOT, where]] if where != DEPOT else [],
                 moves=[[sym, list(cell), list(to)]])
        if first:
            train_step.new_phase_or_rust(ctx, name)
            train_step.check_limits(ctx)

        end_due(ctx, sym, to)


def end_due(ctx, sym: str, to) -> None:
    """§9.1 #2b, B24: a foreign price reaching ƒ1,000 in an OR ends the game after this OR."""
    s, rs = ctx.state, ctx.rs
    if market.cell(rs, to).end and not s.end_after_or:
        ctx.emit("end_due", corp=sym, price=market.price(rs, to))


def status_lines(s, rs) -> list[str]:
    """Each parred foreign company: price, charter cash, units left on the charter and in the pool;
    and this OR's revenue track."""
    out = []
    for sym in foreign_companies(rs):
        if sym in s.corps and listed(s, sym):
            unit = shares.unit(s, rs, sym)
            out.append(f"{sym}: {rs.money(shares.price(s, rs, sym))}, charter {rs.money(s.cash(company_acct(sym)))}, "
                       f"{s.percent_of(shares.unsold_acct(s, rs, sym), sym) // unit} units unsold, "
                       f"{s.percent_of(POOL, sym) // unit} in the pool")
    runs = tallies(s)
    if runs:
        out.append("Revenue track: " + ", ".join(
            f"{corp} {rs.money(run['revenue'])}" + (f" ({'/'.join(run['abroad'])})" if run["abroad"] else "")
            for corp, run in runs.items()))
    return out


def status_data(s, rs) -> dict:
    """Each foreign company's income so far this OR."""
    return {"foreign": {sym: {"income": income_of(s, rs, sym)[0]} for sym in foreign_companies(rs) if sym in s.corps}}


def abroad_candidates(s, rs, *_):
    """What `--abroad` may say: nothing, one country, or (for instance) the last two."""
    foreign = foreign_companies(rs)
    return [None, *foreign, ",".join(foreign[1:])]


GRAMMAR = TitleGrammar(
    options={how: (Opt("--abroad", "abroad", help="the foreign countries the route reached: OZ,BEL,DUI (1839)"),)
             for how in ("pay", "half", "withhold")},
)


def register(reg) -> None:
    for how in ("pay", "half", "withhold"):
        shared = reg.play_for("operating", how)
        reg.rework("operating", how, handler=cmd_run(how),
                   candidates={**shared.candidates, "abroad": abroad_candidates})
    reg.rule("unsold_share_payees", unsold_share_payees)
    reg.on("or_started", clear_track)
    reg.on("or_ended", foreign_step)


@event
class RevenueTracked:
    """The revenue track (D3): a public company's total revenue this OR and the countries reached."""
    corp: str
    revenue: int
    abroad: list[str]

    def apply(s, e):
        s.own.track = {**s.own.track, e["corp"]: {"revenue": e["revenue"], "abroad": list(e["abroad"])}}

    def describe(e, rs):
        return f"revenue track: {e['corp']} {rs.money(e['revenue'])}" + (
            f", reached {', '.join(e['abroad'])}" if e["abroad"] else "")


@event
class RevenueTrackCleared:
    """§8.1: the revenue markers come off the foreign charters as an OR begins."""

    def apply(s, e):
        s.own.track, s.own.private_runs = {}, {}


@event
class ForeignIncome:
    """§8.3.2: a foreign company's income, half to its charter, half paid out per 2 % unit (the
    charter's units to the charter, the pool's to nobody); its price moves one box."""
    corp: str
    income: int
    per_unit: int
    sources: list[str]
    payees: list[tuple[str, int, int]]

    def describe(e, rs):
        if not e["income"]:
            return f"{e['corp']} has no income this OR"   # its marker's move follows (events.describe)
        who = lambda h: "its charter" if h.startswith("treasury:") else acct_name(h)  # noqa: E731
        paid = ", ".join(f"{who(h)} {counted(n, 'unit')} " + (rs.money(amt) if amt else "(to nobody)")
                         for h, n, amt in e["payees"])
        half = rs.money(e["income"] // 2)
        return (f"{e['corp']} earns {rs.money(e['income'])}: half the revenue of {' and '.join(e['sources'])}, "
                f"rounded up to a multiple of {rs.money(k(rs, 'income_rounding'))} (§8.3.2); {half} to its "
                f"charter and {half} paid out at {rs.money(e['per_unit'])} a unit: {paid}")


@event
class ForeignBuyBack:
    corp: str
    units: int
    price: int

    def describe(e, rs):
        return f"{e['corp']} buys back {counted(e['units'], 'unit')} from the pool at {rs.money(e['price'])}"


@event
class ForeignTrainBought:
    corp: str
    train: str
    type: str
    price: int

    def describe(e, rs):
        gone = "goes back to the supply" if not e.get("trains") else "leaves the game"
        return f"{e['corp']} buys {a_train(e['type'])} for {rs.money(e['price'])}; it {gone}"   # and its price moves


@event
class ForeignStepBegun:
    """The public companies have operated; the foreign companies operate now (§8.3)."""

    def apply(s, e):
        s.round = s.round.but(foreign_step=True)
