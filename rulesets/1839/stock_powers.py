"""1839's privates' powers in a stock round (§12.5, D7.4; rules: shared/seeds/003_aa544c940024c360.txt
"§x"; digest shared/rules/1839.md "D x", its best readings "B n"): Kabinet-Rochussen floats a company
with 30 % bought at the end of the round, three of its shares in the pool holding par for it
(`force-float`); Ketwich & Voombergh re-pars a company its owner floated this round (`repar`)."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import counted, event
from ledger.core.grammar import Arg, TitleGrammar, Verb
from ledger.core.rounds import stock
from ledger.core.rules import market, privates, shares
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, POOL, company_acct, player_acct

# the companies floated before this stock round's purchases (who may use a floating power)
ROUND_FIELDS = {"stock": {"floated_before": "list[str]", "forced": "list[list]"}}   # forced: [company, IPO % needed]
KNOBS = {"stock_powers": {
    "forced_capital": Knob(int, None, 7),   # §12.5: "70 % capitalised": 7 x par from the bank
    "escrowed": Knob(int, None, 3),         # §12.5: three 10 % certificates to the pool, each holding par
    # ... that money's account: "bank" (a game begun before it had one: it stayed in the bank's
    # balance) or its own, beside the bank, which the ledger and `bank audit` show
    "escrow_account": Knob(str, None, BANK),
    # §12.5 Ketwich & Voombergh, "capitalised as of the new par" (B14): the treasury is set to 10 x the
    # new par, the digest's best reading ("treasury", the title's data); or the bank adds (or takes)
    # 10 x the change of par, so income the company had before it floated stays ("capital": games
    # begun before the knob, and option repar_keeps_income)
    "repar_treasury": Knob(str, ("capital", "treasury"), "capital"),
}}


def player_power(ctx, raw_player, raw_private, ability: str) -> tuple[str, str]:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, raw_player)
    sym = names.private(rs, raw_private)
    if not rs.private(sym).ability(ability):
        raise RuleViolation(f"{sym} has no such power")
    why = privates.not_held(s, sym, player_acct(player))
    if why:
        raise RuleViolation(why)
    return player, sym


def ipo_bought(s, rs, corp: str) -> int:
    """The percent bought from the IPO (B13: Spoorwegwerken Oost's free 10 % does not count)."""
    gone = 100 - shares.ipo_percent(s, rs, corp)
    oost = rs.k("draws", "share_private")
    given = s.own.draws.get("oost") == corp and s.privates[oost].owner is not None
    return gone - (rs.k("draws", "share_percent") if given else 0)


def cmd_force_float(ctx, cmd) -> None:
    """Kabinet-Rochussen (§12.5, D7.4): its owner declares, in a stock round, an unfloated company
    with at least 30 % bought from the IPO; at the end of the round, before the pool's price drops,
    it floats with 7 x par and three 10 % certificates go to the pool, each holding par of the
    bank's money for the company until a player buys it."""
    s, rs = ctx.state, ctx.rs
    player, sym = player_power(ctx, cmd.get("player"), cmd.get("private"), "forced_float")
    corp = names.corp(rs, cmd.get("corp"))
    why = forced_float_bar(s, rs, corp, rs.private(sym).ability("forced_float"))
    if why:
        refuse(why)
    if corp in [c for c, _n in s.round.get("forced", [])]:
        refuse(f"{corp} is already declared to float at the end of this stock round")
    ctx.emit("float_declared", player=player, private=sym, corp=corp, need=rs.private(sym).ability("forced_float"))


def forced_float_bar(s, rs, corp: str, need: int) -> str:
    c = s.corps[corp]
    if not shares.kind(s, rs, corp).president:
        return f"{corp} is a foreign company"
    if c.par is None or c.floated:
        return f"{corp} must be started and not yet floated"
    if ipo_bought(s, rs, corp) < need:
        return (f"{corp} has {ipo_bought(s, rs, corp)}% bought from the IPO; Kabinet-Rochussen needs {need}% "
                f"(Spoorwegwerken Oost's share not counted, B13)")
    return ""


def forced_floats(ctx) -> None:
    s, rs = ctx.state, ctx.rs
    for corp, need in s.round.get("forced", []):
        if forced_float_bar(s, rs, corp, need):
            continue
        par = s.corps[corp].par
        capital = rs.k("stock_powers", "forced_capital") * par
        certs = [c for c in shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)][:rs.k("stock_powers", "escrowed")]
        ctx.emit("floated", corp=corp, capital=capital,
                 transfers=[[BANK, company_acct(corp), capital]])
        held = rs.k("stock_powers", "escrow_account")
        ctx.emit("escrowed_to_pool", corp=corp, par=par,
                 certs=[[c, shares.unsold_acct(s, rs, corp), POOL] for c in certs],
                 transfers=[[BANK, held, par * len(certs)]] if held != BANK and certs else [])


def escrow_paid(ctx, player: str, corp: str, source: str, cert: str) -> None:
    """D14.12: a player buying an escrowed certificate from the pool releases its par to the company."""
    s = ctx.state
    held = s.own.escrow
    if source == "pool" and cert in held:
        ctx.emit("escrow_released", corp=corp, certificate=cert, amount=held[cert],
                 transfers=[[ctx.rs.k("stock_powers", "escrow_account"), company_acct(corp), held[cert]]])


def sr_floats_noted(ctx) -> None:
    """The companies floated as a stock round begins (Ketwich & Voombergh re-pars one floated in it)."""
    ctx.emit("floats_noted", floated=[sym for sym, c in ctx.state.corps.items() if c.floated])


def cmd_repar(ctx, cmd) -> None:
    """Ketwich & Voombergh (§12.5, B14): on his turn its owner re-pars a company he directs that
    floated in this stock round, at a par open now; the marker moves there (under others) and the
    bank brings the treasury to 10 x the new par (B14; option repar_keeps_income: the bank adds or
    takes 10 x the change of par, so the company keeps what its privates paid it before it floated).
    It then closes."""
    s, rs = ctx.state, ctx.rs
    player, sym = player_power(ctx, cmd.get("player"), cmd.get("private"), "repar")
    corp = names.corp(rs, cmd.get("corp"))
    price = names.amount(cmd.get("price"), "the new par")
    stock.take_turn(ctx, player)
    c = s.corps[corp]
    if s.president(corp) != player:
        refuse(f"{player} does not direct {corp}")
    if not c.floated or corp in s.round.get("floated_before", []):
        refuse(f"{corp} did not float in this stock round: Ketwich & Voombergh re-pars only such a company")
    stock.check_par_colour(s, rs, price)
    capital = shares.kind(s, rs, corp).capital_shares
    change = capital * price - capital * c.par
    if rs.k("stock_powers", "repar_treasury") == "treasury":
        change = capital * price - s.cash(company_acct(corp))
    transfers = ([[BANK, company_acct(corp), change]] if change > 0 else
                 [[company_acct(corp), BANK, -change]] if change < 0 else [])
    if change < 0 and s.cash(company_acct(corp)) < -change:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))} and cannot give back {rs.money(-change)}")
    ctx.emit("reparred", player=player, corp=corp, old=c.par, price=price, transfers=transfers,
             moves=[[corp, list(c.cell), list(market.par_cell(rs, price))]])
    privates.close(ctx, [sym], reason=f"{player} used its power")


def escrow_held(s, rs) -> dict | None:
    """What the escrow holds and for how many pool certificates (None: nothing escrowed)."""
    if not s.own.escrow:
        return None
    return {"held": sum(s.own.escrow.values()), "certificates": len(s.own.escrow)}


def status_lines(s, rs) -> list[str]:
    held = escrow_held(s, rs)
    if not held:
        return []
    where = ("in its own account" if rs.k("stock_powers", "escrow_account") != BANK else "in the bank's balance")
    return [f"Escrow (Kabinet-Rochussen, §12.5): {rs.money(held['held'])} held {where} for "
            f"{counted(held['certificates'], 'pool certificate')}, paid to the company as each is bought"]


# --------------------------------------------------------------------------- what the powers allow now

def held_powers(ability: str):
    def found(s, rs, player, args) -> list[str]:
        return [p.sym for p in rs.privates if p.ability(ability) and s.privates[p.sym].owner == player_acct(player)
                and not s.privates[p.sym].closed]
    return found


def holds_power(ability: str):
    """A player without an open private of this power may not use it: the bar names who holds it."""
    def bars(s, rs, player) -> list[str]:
        if not held_powers(ability)(s, rs, player, {}):
            sym = next(p.sym for p in rs.privates if p.ability(ability))
            return [privates.not_held(s, sym, player_acct(player))]
        return []
    return bars


def repar_prices(s, rs, player, args) -> list[str]:
    return [str(p) for p in stock.allowed_pars(s, rs)]


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("force-float", "stock", "Kabinet-Rochussen: float an unfloated company with 30 % bought at the end of "
             "this stock round, with 7 x par and three shares in the pool (1839 §12.5).",
             "bank force-float Ann KR ZHESM",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company")), label="Force a float (KR)"),
        Verb("repar", "stock", "Ketwich & Voombergh: re-par a company the player floated in this stock round "
             "(1839 §12.5).", "bank repar Ann KV NCS 101",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company"),
              Arg("price", "amount")), label="Re-par (KV)"),
    ),
)


def register(reg) -> None:
    reg.on("stock_round_started", sr_floats_noted)
    reg.on("sr_ending", forced_floats)
    reg.on("share_bought", escrow_paid)
    reg.verb("force-float", cmd_force_float, "stock", elsewhere="Kabinet-Rochussen is used in a stock round",
             who=lambda s, rs: None, bars=holds_power("forced_float"),
             candidates={"private": held_powers("forced_float")},
             phrase=lambda s, rs, players: "force a float with Kabinet-Rochussen ({commands})")
    reg.verb("repar", cmd_repar, "stock", elsewhere="Ketwich & Voombergh is used in a stock round",
             bars=holds_power("repar"), candidates={"private": held_powers("repar"), "price": repar_prices},
             phrase=lambda s, rs, players: "re-par with Ketwich & Voombergh ({command})")


# =========================================================================== events

@event
class FloatDeclared:
    player: str
    private: str
    corp: str
    need: int

    def apply(s, e):
        s.round = s.round.but(forced=[*s.round.get("forced", []), [e["corp"], e["need"]]])

    def describe(e, rs):
        return f"{e['player']} uses {e['private']}: {e['corp']} floats at the end of this stock round"


@event
class EscrowedToPool:
    """Kabinet-Rochussen: three certificates to the pool, each holding par for the company."""
    corp: str
    par: int

    def apply(s, e):
        s.own.escrow = {**s.own.escrow, **{c: e["par"] for c, _f, _t in e["certs"]}}

    def describe(e, rs):
        return (f"{len(e['certs'])} {e['corp']} shares go to the pool, each holding {rs.money(e['par'])} for "
                f"{e['corp']} until bought" + (f" ({rs.money(e['transfers'][0][2])} to the escrow)"
                                               if e.get("transfers") else ""))


@event
class EscrowReleased:
    corp: str
    certificate: str
    amount: int

    def apply(s, e):
        s.own.escrow = {c: v for c, v in s.own.escrow.items() if c != e["certificate"]}

    def describe(e, rs):
        payer = "the bank" if rs.k("stock_powers", "escrow_account") == BANK else "the escrow"
        return f"{payer} pays {e['corp']} the {rs.money(e['amount'])} its pool share held"


@event
class FloatsNoted:
    floated: list[str]

    def apply(s, e):
        s.round = s.round.but(floated_before=list(e["floated"]))


@event
class Reparred:
    player: str
    corp: str
    old: int
    price: int

    def apply(s, e):
        s.corps[e["corp"]].par = e["price"]

    def describe(e, rs):
        return f"{e['player']} re-pars {e['corp']} at {rs.money(e['price'])} (was {rs.money(e['old'])})"
