"""1801 / 18OE: Barclay, Bevan, Barclay & Tritton's powers in a stock round (§14.4): re-par a
railroad, protect a share value from sale drops, keep a treasury share in custody."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, TitleGrammar, Verb
from ledger.core.rules import shares
from ledger.core.state import acct_name, player_acct

from .common import free_action_turn, kind_of, protected, rules

# --------------------------------------------------------------------------- BBBT (§14.4)

BANKERS = "BBBT"


def bankers_power(ctx, cmd, power: str) -> tuple[str, str]:
    """The player and the company BBBT's power is used on: he owns the face-up BBBT and, except
    for its protection, presides the company; in a stock round."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    sym = names.private(rs, cmd.get("private"))
    corp = names.corp(rs, cmd.get("corp"))
    if sym != BANKERS:
        refuse(f"{sym} has no such power: re-par, custodianship and protection are Barclay, Bevan, Barclay & "
               f"Tritton's (§14.4)")
    if s.privates[sym].owner != player_acct(player) or s.privates[sym].closed:
        refuse(f"{player} does not own a face-up {sym} (§14.4)")
    if protected(s):
        refuse(f"{sym}'s power is used this round (one of its three, once, §14.4)")
    if power != "protect" and s.president(corp) != player:
        refuse(f"{player} does not control {corp}: a private's power serves its owner's railroads (§6.1)")
    if power != "protect":
        free_action_turn(ctx, player)
    return player, corp


def cmd_repar(ctx, cmd) -> None:
    """§14.4 (1): re-par a regional or major the owner controls that still has its par marker, to
    another par of its kind; a major's market marker moves with it if it has not moved since it
    floated (D18 #39); no money changes hands. BBBT leaves the game."""
    s, rs = ctx.state, ctx.rs
    player, corp = bankers_power(ctx, cmd, "repar")
    price = names.amount(cmd.get("price"), "the new par")
    k = kind_of(s, corp)
    if k == "regional":
        pars = rules(rs, "regional_pars")
    elif k == "major" and corp in s.round.get("at_par", []):
        pars = rs.k("company", "par_prices")
    else:
        refuse(f"{corp} has no par marker: a regional keeps it for life, a major until the end of the stock round "
               f"it floated in (§10.7, §14.4)")
    if price not in pars or price == s.corps[corp].par:
        refuse(f"{rs.money(price)} is not another {k} par: {', '.join(rs.money(p) for p in pars)} (§14.4)")
    moves = {}
    if k == "major":
        from ledger.core.rules import market
        old = market.par_cell(rs, s.corps[corp].par)
        if s.corps[corp].cell == tuple(old):
            moves = {"moves": [[corp, list(old), list(market.par_cell(rs, price))]]}
    ctx.emit("bankers_reparred", player=player, corp=corp, price=price, **moves)
    bankers_gone(ctx, player)


def cmd_protect(ctx, cmd) -> None:
    """§14.4 (3): for the rest of this stock round no sale moves the company's marker down, even in
    the middle of another player's sale; at the round's end BBBT leaves the game."""
    s = ctx.state
    player, corp = bankers_power(ctx, cmd, "protect")
    if kind_of(s, corp) not in ("major", "national"):
        refuse(f"{corp} has no share value marker to protect (§14.4)")
    ctx.emit("price_protected", player=player, corp=corp, protected=[*protected(s), corp])


def cmd_custody(ctx, cmd) -> None:
    """§14.4 (2): one treasury share of a railroad is kept for BBBT's owner (it pays the treasury
    still); a regional's secondary only while both are unsold. BBBT's certificate stays on it
    until he buys it (or a merger uses it)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    sym = names.private(rs, cmd.get("private"))
    corp = names.corp(rs, cmd.get("corp"))
    if sym != BANKERS or s.privates[sym].owner != player_acct(player) or s.privates[sym].closed:
        refuse(f"{player} does not own a face-up {BANKERS} (§14.4)")
    if protected(s):
        refuse(f"{BANKERS}'s power is used this round (one of its three, once, §14.4)")
    # §14.4 (2): at any time in a stock round, even as another player is buying
    unsold = shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)
    if kind_of(s, corp) == "regional" and len(unsold) < 2:
        refuse("a regional's secondary is kept only while both are unsold (§14.4)")
    if not unsold or kind_of(s, corp) not in ("regional", "major"):
        refuse(f"{corp}'s treasury holds no share to keep")
    ctx.emit("share_kept", player=player, corp=corp, custody={**s.own.custody, corp: player})
    bankers_gone(ctx, player)   # D18 #38: only its marker stays, on the share


def kept_candidates(s, rs, player, args) -> list[str]:
    """The railroads whose treasury holds a share to keep (§14.4 (2): a regional or a major; the
    rule decides the rest), any player's."""
    return [sym for sym in s.corps if kind_of(s, sym) in ("regional", "major")
            and shares.ordinary_certs(s, shares.unsold_acct(s, rs, sym), sym)]


def protection_ends(ctx) -> None:
    """§14.4 (3): the protection ends with the stock round, and BBBT leaves the game."""
    s = ctx.state
    if protected(s):
        ctx.emit("price_protected", player="", corp="", protected=[])
        owner = s.privates[BANKERS].owner
        if owner and not s.privates[BANKERS].closed:
            bankers_gone(ctx, acct_name(owner))


def bankers_gone(ctx, player: str) -> None:
    """BBBT's power is used: the certificate leaves the game (§14.4)."""
    ctx.emit("private_put_down", player=player, private=BANKERS, how="used",
             assets=[[BANKERS, player_acct(player), None]])


def bankers_owner(s, rs) -> list[str]:
    owner = s.privates[BANKERS].owner if BANKERS in s.privates else None
    return [acct_name(owner)] if owner and owner.startswith("player:") and not s.privates[BANKERS].closed else []


def not_bankers_owner(s, rs, player) -> tuple[str, None]:
    return f"{player} does not own a face-up {BANKERS} (§14.4)", None


def bankers_bars(s, rs, player) -> list[str]:
    if player not in bankers_owner(s, rs):
        return [f"{player} does not own a face-up {BANKERS} (§14.4)"]
    if protected(s):
        return [f"{BANKERS}'s power is used this round (one of its three, once, §14.4)"]
    return []


def bankers(s, rs, player, args) -> list[str]:
    return [BANKERS]


def presided_railroads(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("regional", "major") and s.president(c) == player]


def priced_railroads(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("major", "national")]


def bankers_pars(s, rs, player, args) -> list[str]:
    corp = args.get("corp")
    pars = rules(rs, "regional_pars") if corp in s.corps and kind_of(s, corp) == "regional" else \
        rs.k("company", "par_prices")
    return [str(p) for p in pars]


@event
class BankersReparred:
    """§14.4 (1): BBBT re-pars a railroad."""
    player: str
    corp: str
    price: int

    def apply(s, e):
        s.corps[e["corp"]].par = e["price"]

    def describe(e, rs):
        return f"{e['player']} re-pars {e['corp']} at {rs.money(e['price'])} with BBBT, which leaves the game"


@event
class PriceProtected:
    """§14.4 (3): the companies whose share value no sale moves down in this stock round."""
    player: str
    corp: str
    protected: list[str]

    def apply(s, e):
        s.own.price_held = list(e["protected"])

    def describe(e, rs):
        if not e["corp"]:
            return "BBBT's protection ends with the stock round"
        return f"{e['player']} protects {e['corp']}'s share value with BBBT for the rest of this stock round"


@event
class ShareKept:
    """§14.4 (2): a treasury share kept for BBBT's owner (custody maps company -> player)."""
    player: str
    corp: str
    custody: dict[str, str]

    def apply(s, e):
        s.own.custody = dict(e["custody"])

    def describe(e, rs):
        kept = e["corp"] in e["custody"]
        return (f"one {e['corp']} treasury share is kept for {e['player']} (BBBT)" if kept
                else f"{e['player']} takes the {e['corp']} share kept for him")


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("repar", "stock", "Barclay, Bevan, Barclay & Tritton: re-par a regional or a major the player controls "
             "that still has its par marker, to another par of its kind (1801 §14.4).", "bank repar Ann BBBT WW 80",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company"), Arg("price", "amount")), label="Re-par (BBBT)"),
        Verb("protect", "stock", "Barclay, Bevan, Barclay & Tritton: no sale moves the company's share value down "
             "for the rest of this stock round, even during another's sale (1801 §14.4).",
             "bank protect Ann BBBT WW", (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company")), label="Protect a price (BBBT)"),
        Verb("custody", "stock", "Barclay, Bevan, Barclay & Tritton: one of the company's treasury shares is kept "
             "for the player (1801 §14.4).", "bank custody Ann BBBT KSS",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company")), label="Keep a treasury share (BBBT)"),
    ),
)


def register(reg) -> None:
    reg.verb("repar", cmd_repar, "stock", elsewhere="BBBT re-pars a railroad in a stock round (§14.4)",
             bars=bankers_bars, candidates={"private": bankers, "corp": presided_railroads, "price": bankers_pars},
             phrase=lambda *_: "BBBT: repar")
    reg.verb("protect", cmd_protect, "stock", elsewhere="BBBT protects a share value in a stock round (§14.4)",
             who=bankers_owner, bars=bankers_bars, candidates={"private": bankers, "corp": priced_railroads},
             phrase=lambda *_: "BBBT: protect", not_actor=not_bankers_owner)
    reg.verb("custody", cmd_custody, "stock", elsewhere="BBBT keeps a treasury share in a stock round (§14.4)",
             who=bankers_owner, bars=bankers_bars, candidates={"private": bankers, "corp": kept_candidates},
             phrase=lambda *_: "BBBT: custody", not_actor=not_bankers_owner)
    reg.on("sr_ending", protection_ends)
