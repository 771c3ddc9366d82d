"""1801 / 18OE: the Major railroad phase (§9.3, §10): a regional expands into a major, shares bought
from a major's treasury or the Open Market, sold, issued and redeemed."""

from __future__ import annotations

from ledger.core import names
from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.plays import Bounds
from ledger.core.rounds import operating, stock
from ledger.core.rules import shares, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.state import BANK, POOL, company_acct, player_acct

from .common import is_minor, kind_of, major_phase, owes, removed, reserved_side, rules
from .minors_regionals import begin_action, check_major_phase, float_regional, one_stock_action


def cmd_buy(ctx, cmd) -> None:
    """`buy PLAYER CORP`: a parred presidency (§8.2), an insolvent company (§11.6.5), a regional's
    25 % from its treasury at par in the Major phase (§8.3, §8.4), or a share (part 2)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    kind, corp = names.item(rs, cmd.get("item"))
    if kind == "private":
        refuse(f"{corp} is a private: privates change hands between players with trade {player} {corp} PRICE (§10.4)")
    if (cmd.get("count") or 1) > 1:
        refuse(f"a stock action buys one share (§10): buy {player} {corp}")
    if s.certs.get(s.presidents.get(corp, "")) == POOL:
        insolvent = corp in s.own.insolvent
        if is_minor(s, corp) and not insolvent:
            refuse(f"Minor {corp} is abandoned: a player never buys it; a major may, for £60 in its OR (§9.5)")
        if insolvent or (kind_of(s, corp) == "regional" and not s.corps[corp].floated):
            buy_from_open_market(ctx, player, corp)
            return
    if is_minor(s, corp):
        refuse(f"a minor is bought in the packet auction, or from its owner with trade {player} {corp} PRICE (§10.4)")
    if kind_of(s, corp) == "regional":
        if corp in removed(s) or not s.corps[corp].floated:
            refuse(f"{corp} has not floated: a regional is floated with par {player} {corp} PRICE (§9.2)")
        if not major_phase(s):
            refuse("no regional's 25 % share is sold before the Major railroad phase (§8.2)")
        owner = s.own.reserved.get(corp)
        if owner and owner != player and s.round.get("number") == 1:
            refuse(f"{corp}'s secondaries are reserved for {owner} until the second stock round (§8.4)")
        if not shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp):
            refuse(f"{corp}'s treasury has no 25 % share left")
    keeper = s.own.custody.get(corp)
    if keeper and cmd.get("source") != "pool":
        left = shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)
        if keeper != player and len(left) <= 1:
            refuse(f"{corp}'s last treasury share is kept for {keeper} (BBBT, §14.4)")
        if keeper == player:
            ctx.emit("share_kept", player=player, corp=corp,
                     custody={k: v for k, v in s.own.custody.items() if k != corp})
    if kind_of(s, corp) in ("major", "national"):
        major_buy(ctx, player, corp, cmd)   # §10.2: the 60 % rule binds a national's shares as a major's
        return
    stock.cmd_buy(ctx, cmd)


# =========================================================================== the Major phase (§9.3, §10)

def major_par(rs, regional_par: int) -> int:
    """§9.3: REGIONAL X's par marker moves to MAJOR X (D18 #3: the letters in ascending order)."""
    return rs.k("company", "par_prices")[rules(rs, "regional_pars").index(regional_par)]


def cmd_expand(ctx, cmd) -> None:
    """§9.3 (D10.4): a regional's president, or the holder of both its secondaries, floats it as a
    major: optionally the president first buys a 25 % left in its treasury at the regional par
    (--secondary); the 50 % becomes the 20 % president's certificate and each 25 % a 10 %; six new
    10 % certificates go into its treasury; its par marker moves to the major's par, where its
    marker enters the market (under any already there). A player other than the president must then
    buy a treasury share at the major's par, which makes him president; the president may (buy)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    begin_action(ctx, player)
    if not major_phase(s):
        refuse("majors float only in the Major railroad phase (§8.2, §8.3)")
    if kind_of(s, corp) != "regional" or not s.corps[corp].floated:
        refuse(f"{corp} is not a floated regional: only a regional expands into a major (§9.3)")
    if corp in s.own.insolvent:
        refuse(f"{corp} is insolvent: a player must buy it first (§11.6.5)")
    president = s.president(corp)
    seconds = [c for c in s.certs_of(player_acct(player), corp) if c != s.presidents[corp]]
    if player != president and len(seconds) < 2:
        refuse(f"{corp} is expanded by its president ({president}) or by the holder of both its secondary shares "
               f"(§9.3); {player} holds {s.percent_of(player_acct(player), corp)}%")
    secondary = None
    if cmd.get("secondary"):
        if player != president:
            refuse(f"only {corp}'s president buys its secondary share before expanding (§9.3 step 1)")
        secondary = next(iter(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)), None)
        if secondary is None:
            refuse(f"{corp}'s treasury holds no secondary share (§9.3 step 1)")
    par = major_par(rs, s.corps[corp].par)
    need = (s.corps[corp].par if secondary else 0) + (par if player != president else 0)
    sales = expansion_sales(s, rs, player, corp, cmd.get("sell"))
    if s.cash(player_acct(player)) + sum(v for _c, _n, v in sales) < need:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}; this expansion costs him {rs.money(need)} "
               f"(§9.3; he may sell other railroads' shares in it: --sell CORP=N)")
    if secondary:
        shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[secondary])
        ctx.emit("share_bought", player=player, corp=corp, source="ipo", price=s.corps[corp].par,
                 percent=s.cert_percent[secondary],
                 transfers=[[player_acct(player), company_acct(corp), s.corps[corp].par]],
                 certs=[[secondary, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    ctx.emit("company_converted", **shares.conversion(s, rs, corp, "major"))
    from ledger.core.rules import market
    ctx.emit("par", player=player, corp=corp, price=par, par_round=True,
             moves=[[corp, None, list(market.par_cell(rs, par))]])
    reserved = s.own.reserved
    if corp in reserved and s.sets_played == 0:   # §8.4: expanded before the first OR
        ctx.emit("shares_reserved", player=reserved[corp], corp=corp,
                 reserved={k: v for k, v in reserved.items() if k != corp})
    stock.acted(ctx, player, bought=[corp, "expand" if not secondary else "expand+"])
    for other, n, _value in sales:   # §9.3 step 4: his other railroads' shares, under the normal rules
        shares.sell(ctx, player, other, n)
        stock.acted(ctx, player, sold=other)
    if player != president:
        treasury_buy(ctx, player, corp, par, "§9.3 step 5: compulsory for a player other than the president")
        stock.check_president(ctx, corp)


def expansion_sales(s, rs, player: str, corp: str, raw) -> list[tuple[str, int, int]]:
    """`--sell WW=2,GWR=1`: shares of other railroads the expanding player sells within the
    expansion (§9.3 step 4): (company, count, what they fetch at the share value now)."""
    out = []
    for part in filter(None, (p.strip() for p in str(raw or "").split(","))):
        name, _, count = part.partition("=")
        other = names.corp(rs, name)
        if other == corp:
            refuse("the new major's shares are not sold in its expansion (§9.3 step 4)")
        n = names.whole_number(count or "1", "the shares to sell")
        if s.corps[other].cell is None:
            refuse(f"{other} is a {kind_of(s, other)}: its shares are never sold (§10.1)")
        out.append((other, n, n * shares.sale_price(s, rs, other)))
    return out


def treasury_buy(ctx, player: str, corp: str, price: int, why: str) -> None:
    s, rs = ctx.state, ctx.rs
    cert = next(iter(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)), None)
    if cert is None:
        refuse(f"{corp}'s treasury has no share left")
    if s.cash(player_acct(player)) < price:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}, a {corp} share costs {rs.money(price)}")
    shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[cert])
    ctx.emit("share_bought", player=player, corp=corp, source="ipo", price=price, percent=s.cert_percent[cert],
             transfers=[[player_acct(player), company_acct(corp), price]],
             certs=[[cert, shares.unsold_acct(s, rs, corp), player_acct(player)]])
    ctx.emit("sr_acted", player=player, index=s.player_index(player), bought=[corp, "ipo"])


def major_buy(ctx, player: str, corp: str, cmd) -> None:
    """§10.2: one share a turn, after any sales: from the treasury (at par while its par marker is
    up, then at the share value, paid to it) or the Open Market (the share value, to the bank); a
    player at 60 % buys no more, except a president from the Open Market at twice the share value."""
    s, rs = ctx.state, ctx.rs
    stock.take_turn(ctx, player)
    buys = s.round.get("buys", [])
    if buys == [[corp, "expand"]] and s.round.get("acted"):
        # §9.3 step 5: after his expansion the president may buy one treasury share at the major's par
        treasury_buy(ctx, player, corp, s.corps[corp].par, "§9.3 step 5")
        stock.check_president(ctx, corp)
        return
    if any(b[1] in ("expand", "expand+", "float", "trade", "remove") for b in buys):
        refuse(f"{player} has taken his stock action this turn (one a turn, §10)", f"pass {player}")
    source = cmd.get("source") or ("ipo" if shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)
                                   else "pool")
    held = s.percent_of(player_acct(player), corp)
    limit = rs.k("stock", "holding_limit")
    if held >= limit:
        if source == "ipo":
            refuse(f"{player} holds {held}% of {corp}: at {limit}% a player buys none from its treasury (§10.2)")
        if s.president(corp) != player:
            refuse(f"{player} holds {held}% of {corp}: at {limit}% only the president buys more, from the Open "
                   f"Market at twice the share value (§10.2)")
        double_price_buy(ctx, player, corp)
        return
    stock.cmd_buy(ctx, cmd)


def double_price_buy(ctx, player: str, corp: str) -> None:
    s, rs = ctx.state, ctx.rs
    if s.round.get("buys"):
        refuse(f"{player} has already bought this turn: one share a turn (§10)")
    if corp in s.round["sold"].get(player, []):
        refuse(f"{player} sold {corp} earlier in this stock round and may not buy it again (§10.2)")
    cert = shares.next_pool_cert(s, corp)
    if cert is None:
        refuse(f"the Open Market holds no {corp} share")
    price = 2 * shares.price(s, rs, corp) * s.cert_percent[cert] // shares.unit(s, rs, corp)
    if s.cash(player_acct(player)) < price:
        refuse(f"{player} has {rs.money(s.cash(player_acct(player)))}; at 60 % or more the president pays twice the "
               f"share value: {rs.money(price)} (§10.2)")
    count, cap = shares.cert_count(s, rs, player), shares.cert_limit(s, rs, player)
    if count >= cap:
        refuse(f"certificate limit {cap} reached: {player} holds {count} (§4.1)")
    ctx.emit("share_bought", player=player, corp=corp, source="pool", price=price, percent=s.cert_percent[cert],
             transfers=[[player_acct(player), BANK, price]], certs=[[cert, POOL, player_acct(player)]])
    stock.acted(ctx, player, bought=[corp, "pool"])


def buy_from_open_market(ctx, player: str, corp: str) -> None:
    """A parred regional's presidency: 2 x par into its treasury, which floats it (§8.2, D18 #17);
    an insolvent company: its face plus the unpaid 2+2 difference, to the bank (§11.6.5, D18 #31)."""
    s, rs = ctx.state, ctx.rs
    begin_action(ctx, player)
    c = s.corps[corp]
    debt = s.own.insolvent.get(corp)
    if debt is None:
        cash = s.cash(player_acct(player))
        if cash < 2 * c.par:
            refuse(f"{player} has {rs.money(cash)}; {corp}'s presidency costs 2 x par = {rs.money(2 * c.par)} (§8.2)")
        shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[s.presidents[corp]])
        float_regional(ctx, player, corp, c.par, POOL, "bought from the Open Market")
        stock.acted(ctx, player, bought=[corp, "float"])
        check_major_phase(ctx)
        return
    face = rules(rs, "minor_face") if is_minor(s, corp) else 2 * c.par
    price = face + debt
    cash = s.cash(player_acct(player))
    if cash < price:
        refuse(f"{player} has {rs.money(cash)}; {corp} costs its face {rs.money(face)} plus the unpaid "
               f"{rs.money(debt)} of its 2+2 = {rs.money(price)} (§11.6.5)")
    shares.check_can_take_cert(s, rs, player, corp, s.cert_percent[s.presidents[corp]])
    insolvent = {k: v for k, v in s.own.insolvent.items() if k != corp}
    ctx.emit("insolvent_bought", player=player, corp=corp, price=price, debt=debt, insolvent=insolvent,
             transfers=[[player_acct(player), BANK, price]],
             certs=[[s.presidents[corp], POOL, player_acct(player)]])
    stock.acted(ctx, player, bought=[corp, "pool"])


def cmd_issue(ctx, cmd) -> None:
    treasury_step(ctx, cmd, redeem=False)


def cmd_redeem(ctx, cmd) -> None:
    treasury_step(ctx, cmd, redeem=True)


def treasury_step(ctx, cmd, redeem: bool) -> None:
    """§11 step 7, §11.7: a major buys or sells its own shares after its run and its train step;
    a share BBBT keeps (§14.4) is never issued."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "redeem" if redeem else "issue")
    if s.round.get("revenue") is None:
        refuse(f"{corp} buys or sells its own shares in its last step, after it runs (§11 step 7)")
    if owes(s, corp):
        refuse(f"{corp} must first buy its reserved {reserved_side(rs).name}: the train step comes before the shares "
               f"step (§11.6.1, §11 steps 6-7)", f"train {corp} {reserved_side(rs).name}")
    if not trains.working(s, corp) and operating.must_own_train(s, rs, corp):
        refuse(f"{corp} has no train: it buys one in its train step, before it buys or sells its own shares "
               f"(§11.6, §11 steps 6-7)")
    keeper = s.own.custody.get(corp)
    if keeper and not redeem:
        left = len(shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp))
        if (cmd.get("count") or 1) > left - 1:
            refuse(f"one of {corp}'s {left} treasury shares is kept for {keeper} (BBBT, §14.4): it issues at most "
                   f"{left - 1}")
    if redeem:
        check_buy_back_count(s, rs, corp, cmd.get("count") or 1)
    (operating.cmd_redeem if redeem else operating.cmd_issue)(ctx, cmd)


def own_holding(s, rs, corp: str) -> tuple[int, int, str]:
    """(the percentage of itself the major holds, the holding limit, the rule's words)."""
    held, limit = s.percent_of(shares.unsold_acct(s, rs, corp), corp), rs.k("stock", "holding_limit")
    return held, limit, (f"{corp} holds {held}% of itself: a major buying its own shares acts as a player, who "
                         f"at {limit}% buys no more (§11.7, §10.2)")


def own_holding_bars(s, rs, corp) -> list[str]:
    """§11.7: a major buys its own shares "subject to the rules for buying (see 10.2) ... with the
    major acting as a player" (D 12.16): holding 60 % of itself already, it buys none back from the
    Open Market (the double-price way past 60 % is the president's alone). The redeem verb's bar,
    so that the refusal, completion and the table page ask one rule."""
    if corp not in s.corps:
        return []
    held, limit, words = own_holding(s, rs, corp)
    return [words] if held >= limit else []


def check_buy_back_count(s, rs, corp: str, n: int) -> None:
    """§11.7, §10.2: below the limit (own_holding_bars), shares are bought back one by one: the last
    of `n` is bought holding its percentage + 10 x (n - 1), and that too must be under the limit."""
    held, limit, words = own_holding(s, rs, corp)
    unit = shares.unit(s, rs, corp)
    if held + unit * (n - 1) >= limit:
        most = max(0, (limit - 1 - held) // unit + 1)
        refuse(f"{words}: it may buy back {most} now, not {n}")


def cmd_sell(ctx, cmd) -> None:
    """§10, §10.1: sell, then buy one; never a regional or a minor; after an expansion only other
    railroads' shares (§9.3 step 4). Train Phase 1 bars the verb itself (sell_bars)."""
    s, rs = ctx.state, ctx.rs
    player = names.player(s, cmd.get("player"))
    corp = names.corp(rs, cmd.get("corp"))
    if kind_of(s, corp) in ("regional", "minor"):
        refuse(f"{corp} is a {kind_of(s, corp)}: a player never sells a regional's shares or a minor (§10.1)")
    mine = s.round.get("acted") and stock.current(s) == player
    buys = s.round.get("buys", []) if mine else []
    expanded = [b[0] for b in buys if b[1] in ("expand", "expand+")]
    if corp in expanded:
        refuse(f"{player} expanded {corp} this turn: the new major's shares are not sold in the same action (§9.3)")
    if buys and not expanded or any(b[1] in ("ipo", "pool") for b in buys):
        refuse(f"{player} has bought this turn: a stock action sells first, then buys one share (§10, §9.3)")
    stock.cmd_sell(ctx, cmd)


def sell_bars(s, rs) -> list[str]:
    """§10.1: "A player may not sell stock during Train Phase 1" (the first SR, and any stock round
    before the first OR)."""
    return ["no player sells stock in Train Phase 1 (§10.1)"] if s.phase == "1" else []


def expand_bars(s, rs) -> list[str]:
    return [] if major_phase(s) else ["majors float only in the Major railroad phase (§8.2, §8.3)"]


def expandable(s, rs, player, args) -> list[str]:
    """Floated regionals the player presides, or whose two secondaries he holds (§9.3)."""
    return [c for c, corp in s.corps.items() if corp.kind == "regional" and corp.floated
            and (s.president(c) == player or len([x for x in s.certs_of(player_acct(player), c)
                                                  if x != s.presidents.get(c)]) >= 2)]


def player_majors_held(s, rs, player, args) -> list[str]:
    return [c for c in s.corps if kind_of(s, c) in ("major", "national") and s.percent_of(player_acct(player), c)]


def one_share(s, rs, player, args):
    corp = args.get("corp")
    n = shares.shares_of(s, rs, player_acct(player), corp) if corp in s.corps else 1
    return Bounds(1, max(1, n))


@event
class InsolventBought:
    player: str
    corp: str
    price: int
    debt: int
    insolvent: dict[str, int]

    def apply(s, e):
        s.own.insolvent = dict(e["insolvent"])

    def describe(e, rs):
        return f"{e['player']} buys insolvent {e['corp']} for {rs.money(e['price'])} (unpaid {rs.money(e['debt'])})"


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("expand", "stock", "A regional's president, or the holder of both its secondaries, floats it as a "
             "major: 20 % + 8 x 10 %, the major's par, on the market (1801 §9.3).", "bank expand Ann KSS",
             (Arg("player", "player"), Arg("corp", "company")),
             (Opt("--secondary", "secondary", True, help="the president first buys a 25 % left in its treasury at "
                  "the regional par"),
              Opt("--sell", "sell", help="shares of other railroads sold in the expansion (§9.3 step 4): WW=2,GWR=1")), label="Expand a regional"),
    ),
)


def register(reg) -> None:
    reg.rework("stock", "buy", handler=cmd_buy, bars=lambda *_: [], phrase=lambda *_: "buy")
    reg.rework("stock", "sell", handler=cmd_sell, when=sell_bars,
               candidates={"corp": player_majors_held, "count": one_share})
    reg.verb("expand", cmd_expand, "stock", elsewhere="a regional expands into a major in a stock round (§9.3)",
             when=expand_bars, bars=one_stock_action, candidates={"corp": expandable}, phrase=lambda *_: "expand a regional")
    shared_phrase = reg.play_for("operating", "issue").phrase
    reg.rework("operating", "issue", handler=cmd_issue,
               phrase=lambda s, rs, corps: "issue" if own_holding_bars(s, rs, corps[0]) else shared_phrase(s, rs, corps))
    shared_bars = reg.play_for("operating", "redeem").bars
    reg.rework("operating", "redeem", handler=cmd_redeem,
               bars=lambda s, rs, corp: shared_bars(s, rs, corp) or own_holding_bars(s, rs, corp))
