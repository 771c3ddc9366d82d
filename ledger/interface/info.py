"""`bank info TITLE`: a readable summary of a ruleset."""

from __future__ import annotations

from ledger.core import titles
from ledger.core.ruleset import Ruleset
from ledger.interface.fit import fit_table, fit_text, screen_width
from ledger.interface.powers import power_text


def tokens_text(rs, corp) -> str:
    """A company's station markers: their charter prices, or how many when a marker is priced by
    its location (1839 §8.2.4)."""
    if rs.stations["price"] == "announced":
        return f"{len(corp.tokens)} (priced by location)"
    return " ".join(rs.money(t) for t in corp.tokens)


def info_text(rs: Ruleset, width: int | None = None) -> str:
    """The title in the terminal's width: each table narrowed to fit, the notes wrapped (when the
    output goes to a terminal or a width is given: ledger.interface.fit.prose_width)."""
    asked, width = width, width or screen_width()

    def tabulate(rows, headers):
        return fit_table(rows, headers, width)
    out = [f"{rs.name} ({rs.title}) · bank {rs.money(rs.bank_total)}"]
    out.append(tabulate([[n, rs.money(v['cash']), v["cert_limit"]] for n, v in sorted(rs.players.items())],
                        headers=["players", "cash each", "cert limit"]))
    if rs.privates:
        out.append(tabulate([[p.sym, p.name, rs.money(p.face), rs.money(p.revenue), power_text(p.abilities, rs)]
                             for p in rs.privates], headers=["private", "name", "face", "revenue", "powers"]))
    several = len(rs.kinds) > 1
    out.append(tabulate([[c.sym, c.alias or "", c.name, c.home, tokens_text(rs, c)]
                         + ([rs.starting_kind(c.sym).name + (f", listed at {rs.money(c.listed_at)}" if c.listed_at else "")]
                            if several else [])
                         for c in rs.corporations],
                        headers=["company", "type as", "name", "home", "tokens"] + (["kind"] if several else [])))
    if several:
        out.append(kinds_table(rs, width))
    aliased = [c for c in rs.corporations if c.alias]
    if aliased:
        out.append(f"'type as': a plain name for a symbol a shell would split (in bash '&' ends a command); "
                   f"or quote the symbol: '{aliased[0].sym}'")
    out.append(tabulate([[t.name, " / ".join(f"{sd.name} {rs.money(sd.price)}" for sd in t.sides),
                          (t.count or "unlimited") if t.supply else f"{t.count} (not sold)", t.rusts_on or "-",
                          (f"{rs.money(t.trade_in_price)} trading in {'/'.join(t.trade_in)}" if t.trade_in else "-")]
                         for t in rs.trains], headers=["train", "sides and prices", "number", "rusts on", "trade-in"]))
    out.append(tabulate([[p.name, p.on_train, limit(p), p.ors, ", ".join(p.tiles), ", ".join(p.par_colours) or "all",
                          "rusted certificates for sale" if p.rusted_for_sale else ""] for p in rs.phases],
                        headers=["phase", "starts with", "train limit", "ORs", "tiles", "pars", "notes"]))
    out.append(market_table(rs, width))
    out.append("Par prices: " + par_text(rs))
    if rs.market_rules.get("provisional"):
        out.append(f"MARKET IS PROVISIONAL: {rs.market_rules['provisional']}. Check it against your printed "
                   f"market; a table's own market goes in a file given to 'bank new {rs.title} ... --rules FILE'.")
    extras = []
    own = titles.for_ruleset(rs).rules.get("info_lines")
    extras += own(rs) if own else []
    if rs.hex_fees:
        extras.append("Hex fees: " + ", ".join(f"{h} {rs.money(f)}" for h, f in rs.hex_fees.items()))
    fees = [f"{c.sym} {rs.money(c.extra_tile_fee)}" for c in rs.corporations if c.extra_tile_fee is not None]
    if fees:
        extras.append("Second tile a turn: " + ", ".join(fees))
    if extras:
        out.append("\n".join(extras))
    extended = {key: play for key, play in titles.for_ruleset(rs).plays.items() if play.extensions}
    if extended:   # what the title adds to a verb's rule, in the order they run
        lines = ["What the title adds to a verb's rule, in the order it runs:"]
        for (kind, verb), play in extended.items():
            lines.append(f"  {verb} ({kind} rounds): " + " -> ".join(chain_words(play)))
        out.append("\n".join(lines))
    if rs.options:
        valued = dict(c.split("=", 1) for c in rs.chosen_options if "=" in c)   # a valued option's value
        rows = [[name, valued.get(name) or ("on" if name in rs.chosen_options else "off"), spec.get("description", "")]
                for name, spec in rs.options.items()]
        out.append(tabulate(rows, headers=["option (--option NAME)", "default", "what"]))
    return fit_text("\n\n".join(out), asked)


def chain_words(play) -> list[str]:
    """A verb's chain as a player reads it: each extension by what it does, the rule by whose."""
    rule = "the title's rule" if play.handler.__module__.startswith("rulesets") else "the shared rule"
    return ([f"first, {e.name or e.fn.__name__}" for e in play.stage("before")]
            + [f"around it, {e.name or e.fn.__name__}" for e in play.stage("around")]
            + [rule] + [f"then, {e.name or e.fn.__name__}" for e in play.stage("after")])


def kinds_table(rs: Ruleset, width: int | None = None) -> str:
    """A title's kinds of company side by side, one column each (narrow enough for a phone):
    certificates, director, capital, where unsold shares wait and whom they pay, dividends, limits."""
    def column(k) -> list:
        return [", ".join(f"{n}x{pct}%" if n > 1 else f"{pct}%" for pct, n in runs(k.certificates)),
                "yes" if k.president else "none", f"{k.unit}%", f"{k.float_percent}% sold",
                k.capitalization, k.unsold + (", issues them" if k.issues else ""),
                f"{k.ipo_price}, pay {k.ipo_pays}", "/".join(k.dividends), "yes" if k.counts else "no",
                f"{k.holding_limit}%" if k.holding_limit else "none", k.group, k.tile_points or "-",
                ", ".join(f"{ph}: {n}" for ph, n in k.train_limits.items()) or "the phase's",
                "yes" if k.must_own_train else "no"]
    fields = ["certificates", "director", "share unit", "floats at", "capital", "unsold shares", "unsold: price, pay",
              "dividends", "cert limit counts", "holding cap", "operating group", "tile points", "train limits",
              "must own a train"]
    columns = [column(k) for k in rs.kinds.values()]
    return fit_table([[f, *(c[i] for c in columns)] for i, f in enumerate(fields)], ["kind", *rs.kinds], width,
                     floors={0: 12})


def runs(values) -> list[tuple[int, int]]:
    """(value, how many in a row): 20, 10, 10 -> (20, 1), (10, 2)."""
    out: list[list[int]] = []
    for v in values:
        if out and out[-1][0] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return [(v, n) for v, n in out]


def limit(p) -> str:
    return str(p.train_limit) if p.certificate_limit == p.train_limit else f"{p.train_limit} / {p.certificate_limit} certs"


def par_text(rs: Ruleset) -> str:
    cells = rs.par_cells()
    pars = rs.k("company", "par_prices")
    if not any(c.colour for c in cells.values()):
        return ", ".join(rs.money(p) for p in pars)
    colours: dict[str, list[int]] = {}
    for p in pars:
        colours.setdefault(cells[p].colour or "-", []).append(p)
    return " · ".join(f"{c} {', '.join(rs.money(p) for p in ps)}" for c, ps in colours.items())


def market_table(rs: Ruleset, width: int | None = None) -> str:
    """The stock market's boxes row by row (top row first), each price with its mark: p a par box,
    e the box that ends the game, y/o/b a lower-left zone."""
    marks = {"yellow": "y", "orange": "o", "brown": "b"}
    rows = max(r for r, _c in rs.market) + 1
    cols = max(c for _r, c in rs.market) + 1
    grid = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            cell = rs.market.get((r, c))
            mark = "" if cell is None else "e" if cell.end else "p" if cell.par else marks.get(cell.zone, "")
            cells.append("" if cell is None else f"{cell.price}{mark}")
        grid.append(cells)
    # a market wider than the screen is shown in parts side by side: every row's first boxes,
    # then every row's next ones (its columns numbered, so the parts read as one grid)
    per_part = max(1, ((width or screen_width()) + 1) // 6)
    lines = []
    for first in range(0, cols, per_part):
        if cols > per_part:
            last = min(cols, first + per_part)
            lines.append(("" if not first else "\n") + f"columns {first + 1}-{last} of {cols}:")
        part = [" ".join(f"{x:>5}" for x in row[first:first + per_part]).rstrip() for row in grid]
        lines += [line for line in part if line] if first else part
    return "Stock market (p par, e ends the game, y/o/b zones):\n" + "\n".join(lines)
