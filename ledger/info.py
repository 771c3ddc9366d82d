"""`bank info TITLE`: a readable summary of a ruleset."""

from __future__ import annotations

from tabulate import tabulate

from .ruleset import Ruleset


def info_text(rs: Ruleset) -> str:
    out = [f"{rs.name} ({rs.title}) · bank ${rs.bank_total}"]
    out.append(tabulate([[n, f"${v['cash']}", v["cert_limit"]] for n, v in sorted(rs.players.items())],
                        headers=["players", "cash each", "cert limit"]))
    out.append(tabulate([[p.sym, p.name, f"${p.face}", f"${p.revenue}", ", ".join(f"{k}={v}" for k, v in p.abilities.items())]
                         for p in rs.privates], headers=["private", "name", "face", "revenue", "abilities"]))
    out.append(tabulate([[c.sym, c.name, c.home, " ".join(f"${t}" for t in c.tokens)] for c in rs.corporations],
                        headers=["company", "name", "home", "tokens"]))
    out.append(tabulate([[t.name, f"${t.price}", t.count or "unlimited", t.rusts_on or "-",
                          (f"${t.trade_in_price} trading in {'/'.join(t.trade_in)}" if t.trade_in else "-")]
                         for t in rs.trains], headers=["train", "price", "number", "rusts on", "trade-in"]))
    out.append(tabulate([[p.name, p.on_train, p.train_limit, p.ors, ", ".join(p.tiles)] for p in rs.phases],
                        headers=["phase", "starts with", "train limit", "ORs", "tiles"]))
    pars = ", ".join(f"${p}" for p in rs.k("company", "par_prices"))
    out.append(f"Par prices: {pars}")
    if rs.options:
        rows = [[name, "on" if name in rs.chosen_options else "off", spec.get("description", "")]
                for name, spec in rs.options.items()]
        out.append(tabulate(rows, headers=["option (--option NAME)", "default", "what"]))
    return "\n\n".join(out)
