"""1839 (J C Lawrence): what only 1839 has, registered into the shared engine.

Numbers live in ruleset.toml beside this file; this module holds the rules no other title shares
(rules: shared/seeds/003_aa544c940024c360.txt "§x"; digest shared/rules/1839.md "D x"):

* **The draws** (§4, D8 #1): the banker types what was drawn at the table (`deal --privates ...`),
  or lets `deal --random SEED` draw it; nothing random is drawn otherwise. The two blue and two
  brown privates in play (the rest leave the game), the company tied to Rijkswaterstaat and the
  other tied to Spoorwegwerken Oost, the foreign companies' pars, and the player cards. The sixth
  5+ train stays only with Beijnes, or Verveers and Credit Mobilier together, in play.
* **The discount chips** (§6.1, D8 #2): in card order each player puts one of three ƒ60 and three
  ƒ40 chips on an auction private; then the cards are dealt again (`deal --order ...`).
* **The auction** (§6.2, D8 #3-6): in card order each player buys any unsold private for its face
  less its discounts, or puts a ƒ20 discount on one; once a private's discounts reach its face the
  next player takes it for ƒ0. Rijkswaterstaat brings its company's director's certificate, parred
  at ƒ101; Spoorwegwerken Oost a 10 % certificate of its company. Then the first stock round's order
  is by ascending cash, ties keeping the auction's order.
* **The yellow privates** start on their companies' charters (§4); Rijkswaterstaat closes when its
  company buys a train (§12.3).
"""

from __future__ import annotations

import random

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.round_kind import Action, RoundKind, Turn, known_round
from ledger.core.rules import market, privates, revenue, shares, train_step, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.state import BANK, DEPOT, POOL, REMOVED, acct_name, company_acct, player_acct

# The privates' colours decide the draws: yellow start on charters, every green is auctioned,
# so many blue and brown are drawn (§4).
PRIVATE_ABILITIES = {"colour": str}
ROUND_KINDS = ("draws",)
DRAWN = {"blue": 2, "brown": 2}
CHIPS = (60, 60, 60, 40, 40, 40)       # §6.1: three ƒ60 and three ƒ40 discounts
RAISE = 20                             # §6.2: a discount added in the auction
RWS, SWO = "RWS", "SWO"                # the two privates that bring certificates (§12.3)
RWS_PAR = 101                          # §12.3: its company is parred at ƒ101, whatever the phase
FOREIGN = ("OZ", "BEL", "DUI")         # Overzees, België, Duitsland: their pars are drawn (§4)
FOREIGN_PARS = (67, 72, 80)
EXTRA_TRAIN = "5+"                     # §4: the optional sixth blue train ...
EXTRA_TRAIN_IF = (("JJB",), ("VV", "CM"))   # ... with Beijnes, or Verveers and Credit Mobilier


def colour_of(rs, sym: str) -> str:
    return rs.private(sym).ability("colour") or ""


def of_colour(rs, colour: str) -> list[str]:
    return [p.sym for p in rs.privates if colour_of(rs, p.sym) == colour]


def in_auction(s, rs) -> list[str]:
    """The privates the auction sells: every green, and the blue and brown ones drawn."""
    drawn = s.extra.get("draws", {}).get("privates", [])
    return [p.sym for p in rs.privates if colour_of(rs, p.sym) == "green" or p.sym in drawn]


def unsold(s, rs) -> list[str]:
    return [sym for sym in in_auction(s, rs) if s.privates[sym].owner is None and not s.privates[sym].closed]


def discount_on(s, sym: str) -> int:
    return s.round.get("discounts", {}).get(sym, 0)


def price_now(s, rs, sym: str) -> int:
    """Face value less every discount on it, never below ƒ0 (§6.2: any excess is paid to nobody)."""
    return max(0, rs.private(sym).face - discount_on(s, sym))


def initial_state(rs) -> dict:
    return {"draws": {}}


# =========================================================================== the draws

def start(ctx, priority: int = 0, **_carry) -> None:
    ctx.emit("round_started", round={"kind": "draws", "step": "deal", "turn": 0, "chips": list(CHIPS),
                                     "discounts": {}}, priority=priority)


def place_yellow_privates(ctx) -> None:
    """§4: each yellow private starts on its company's charter."""
    moves = [[p.sym, None, company_acct(p.ability("starts_with"))] for p in ctx.rs.privates
             if p.ability("starts_with")]
    if moves:
        ctx.emit("privates_placed", assets=moves)


def cmd_deal(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    step = s.round.get("step")
    if step == "redeal":
        redeal(ctx, cmd)
        return
    if step != "deal":
        refuse("the draws are made once, before the discounts (§4)")
    seed = cmd.get("seed")
    if seed is not None:
        drawn = random_draws(s, rs, names.whole_number(seed, "the seed"))
    else:
        drawn = typed_draws(s, rs, cmd)
    out = [sym for colour in DRAWN for sym in of_colour(rs, colour) if sym not in drawn["privates"]]
    keeps_extra = any(all(sym in drawn["privates"] for sym in need) for need in EXTRA_TRAIN_IF)
    extra = f"{EXTRA_TRAIN}.{next(t.count for t in rs.trains if t.name == EXTRA_TRAIN)}"
    trains = [] if keeps_extra or s.trains.get(extra) != DEPOT else [[extra, DEPOT, REMOVED]]
    ctx.emit("draws_dealt", **drawn, trains=trains, **({"seed": int(seed)} if seed is not None else {}))
    if out:
        ctx.emit("privates_closed", privates=out, reason="not drawn for this game")
    if drawn["order"] != s.players:
        ctx.emit("seating", players=drawn["order"], cash={p: s.cash(player_acct(p)) for p in drawn["order"]},
                 by="as the cards were dealt")
    ctx.emit("draws_step", step="chips", turn=0)


def typed_draws(s, rs, cmd) -> dict:
    """What the banker typed: every part is needed (the table draws them all, §4)."""
    missing = [flag for flag, key in (("--privates", "privates"), ("--rijkswaterstaat", "rws"),
                                      ("--oost", "oost"), ("--foreign", "foreign")) if cmd.get(key) is None]
    if missing:
        raise RuleViolation(f"the draws need {', '.join(missing)} (or --random SEED to draw them here)",
                            "deal --privates VVD,LSW,CM,KR --rijkswaterstaat NBDS --oost NCS "
                            "--foreign OZ=67,BEL=72,DUI=80")
    drawn = [names.private(rs, raw) for raw in split(cmd.get("privates"))]
    for colour, count in DRAWN.items():
        got = [sym for sym in drawn if colour_of(rs, sym) == colour]
        if len(got) != count:
            raise RuleViolation(f"§4 draws {count} {colour} privates for the auction, got {len(got)}"
                                + (f" ({', '.join(got)})" if got else ""),
                                f"{colour} privates: {', '.join(of_colour(rs, colour))}")
    wrong = [sym for sym in drawn if colour_of(rs, sym) not in DRAWN]
    if wrong:
        raise RuleViolation(f"only blue and brown privates are drawn (§4); {', '.join(wrong)} "
                            f"{'is' if len(wrong) == 1 else 'are'} {colour_of(rs, wrong[0])}")
    rws, oost = names.corp(rs, cmd.get("rws")), names.corp(rs, cmd.get("oost"))
    for sym in (rws, oost):
        if sym not in publics(rs):
            raise RuleViolation(f"{sym} is a foreign company: Rijkswaterstaat and Spoorwegwerken Oost are tied to "
                                f"public companies (§4)", f"public companies: {', '.join(publics(rs))}")
    if rws == oost:
        raise RuleViolation(f"Spoorwegwerken Oost's company must differ from Rijkswaterstaat's ({rws}) (§4)")
    return {"privates": drawn, "rws": rws, "oost": oost, "foreign": foreign_pars(cmd.get("foreign")),
            "order": player_order(s, cmd.get("order"))}


def random_draws(s, rs, seed: int) -> dict:
    """`--random SEED`: the program draws, from the seed, what the table would (the seed is recorded,
    so the draws can be checked)."""
    rng = random.Random(seed)
    drawn = [sym for colour, count in DRAWN.items() for sym in sorted(rng.sample(of_colour(rs, colour), count))]
    rws, oost = rng.sample(publics(rs), 2)
    pars = list(FOREIGN_PARS)
    rng.shuffle(pars)
    order = list(s.players)
    rng.shuffle(order)
    return {"privates": drawn, "rws": rws, "oost": oost, "foreign": dict(zip(FOREIGN, pars)), "order": order}


def publics(rs) -> list[str]:
    """The public companies (those with a director)."""
    return [c.sym for c in rs.corporations if rs.starting_kind(c.sym).president]


def split(raw) -> list[str]:
    return [w for w in str(raw).replace(" ", ",").split(",") if w]


def foreign_pars(raw) -> dict:
    """OZ=67,BEL=72,DUI=80: each foreign company on one of the yellow pars (§4)."""
    out = {}
    for part in split(raw):
        sym, _, price = part.partition("=")
        sym = sym.upper()
        if sym not in FOREIGN or not price:
            raise RuleViolation(f"--foreign takes {'=PAR,'.join(FOREIGN)}=PAR, got {part!r}")
        out[sym] = names.whole_number(price, f"{sym}'s par")
    if sorted(out.values()) != sorted(FOREIGN_PARS) or set(out) != set(FOREIGN):
        raise RuleViolation(f"the three foreign companies take the three yellow pars "
                            f"{', '.join(map(str, FOREIGN_PARS))}, one each (§4), got {raw}")
    return out


def player_order(s, raw) -> list[str]:
    """The players in card order (#1 first); left out, the seating of `bank new`."""
    if raw is None:
        return list(s.players)
    order = [names.player(s, w) for w in split(raw)]
    if sorted(order) != sorted(s.players):
        raise RuleViolation(f"--order names every player once in card order: {', '.join(s.players)}")
    return order


def redeal(ctx, cmd) -> None:
    """§6.1: after the discounts the cards are dealt again; card #1 starts the auction."""
    s = ctx.state
    if cmd.get("order") is None:
        raise RuleViolation("the cards are dealt again for the auction: deal --order PLAYER,PLAYER,...")
    if any(cmd.get(k) is not None for k in ("privates", "rws", "oost", "foreign", "seed")):
        refuse("the draws are made once, before the discounts (§4); now only --order")
    order = player_order(s, cmd.get("order"))
    if order != s.players:
        ctx.emit("seating", players=order, cash={p: s.cash(player_acct(p)) for p in order},
                 by="as the cards were dealt again")
    after_sale(ctx, 0)


# =========================================================================== chips and the auction

def whose_turn(s) -> str:
    return s.players[s.round["turn"]]


def check_turn(s, player: str, what: str) -> None:
    if player != whose_turn(s):
        refuse(f"it is {whose_turn(s)}'s turn {what}, not {player}'s")


def auction_private(s, rs, raw) -> str:
    sym = names.private(rs, raw)
    if sym not in in_auction(s, rs):
        raise RuleViolation(f"{sym} is not in this game's auction",
                            f"the auction's privates: {', '.join(in_auction(s, rs))}")
    if sym not in unsold(s, rs):
        raise RuleViolation(f"{sym} is already sold")
    return sym


def cmd_discount(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    step = s.round.get("step")
    if step not in ("chips", "auction"):
        refuse("discounts are placed after the draws (§6.1) and in the auction (§6.2)")
    player = names.player(s, cmd.get("player"))
    sym = auction_private(s, rs, cmd.get("private"))
    check_turn(s, player, "to place a discount" if step == "chips" else "in the auction")
    raw = cmd.get("amount")
    if step == "chips":
        if raw is None:
            raise RuleViolation(f"say which chip: {'/'.join(map(str, sorted(set(s.round['chips']), reverse=True)))}",
                                f"discount {player} {sym} {s.round['chips'][0]}")
        amount = names.amount(raw, "the discount")
        if amount not in s.round["chips"]:
            refuse(f"the chips left are {', '.join(rs.money(c) for c in s.round['chips'])}, not {rs.money(amount)} (§6.1)")
    else:
        amount = RAISE if raw is None else names.amount(raw, "the discount")
        if amount != RAISE:
            refuse(f"an auction discount is {rs.money(RAISE)} (§6.2), not {rs.money(amount)}")
    ctx.emit("discount_placed", player=player, private=sym, amount=amount, total=discount_on(s, sym) + amount,
             chip=step == "chips")
    if step == "chips":
        ctx.emit("draws_step", step="chips" if s.round["chips"] else "redeal", turn=s.next_player(s.round["turn"]))
        return
    after_sale(ctx, s.next_player(s.round["turn"]))


def cmd_buy(ctx, cmd) -> None:
    s, rs = ctx.state, ctx.rs
    if s.round.get("step") != "auction":
        refuse("privates are bought in the auction, after the draws and the discounts (§6)")
    player = names.player(s, cmd.get("player"))
    kind, sym = names.item(rs, cmd.get("item"))
    if kind != "private":
        raise RuleViolation(f"{sym} is a company: companies are started in the stock round")
    sym = auction_private(s, rs, sym)
    check_turn(s, player, "in the auction")
    price = price_now(s, rs, sym)
    cash = s.cash(player_acct(player))
    if cash < price:
        raise RuleViolation(f"{player} has {rs.money(cash)}, {sym} costs {rs.money(price)} "
                            f"({rs.money(rs.private(sym).face)} less {rs.money(discount_on(s, sym))} of discounts)",
                            f"discount {player} PRIVATE (adds {rs.money(RAISE)})")
    award(ctx, player, sym, price, forced=False)
    after_sale(ctx, s.next_player(s.round["turn"]))


def award(ctx, player: str, sym: str, price: int, forced: bool) -> None:
    """The private to its buyer with the certificates it brings (§12.3)."""
    s, rs = ctx.state, ctx.rs
    draws = s.extra["draws"]
    certs, par = [], None
    if sym == RWS:
        corp = draws["rws"]
        certs.append([s.presidents[corp], shares.unsold_acct(s, rs, corp), player_acct(player)])
        par = corp
    elif sym == SWO:
        corp = draws["oost"]
        cert = shares.next_ipo_cert(s, rs, corp)
        if cert:
            certs.append([cert, shares.unsold_acct(s, rs, corp), player_acct(player)])
    ctx.emit("private_bought", player=player, private=sym, price=price, normal=not forced,
             transfers=[[player_acct(player), BANK, price]] if price else [], certs=certs)
    if par:
        # B17: the marker goes down at ƒ101 when the private is acquired
        ctx.emit("par", player=player, corp=par, price=RWS_PAR, moves=[[par, None, list(market.par_cell(rs, RWS_PAR))]])


def after_sale(ctx, nxt: int) -> None:
    """The next player's turn; with every private sold, the first stock round's order (§6.2)."""
    s, rs = ctx.state, ctx.rs
    free = [sym for sym in unsold(s, rs) if price_now(s, rs, sym) == 0]
    while free:
        # §6.2: once a private's discounts reach its face, the next player's turn is taking it for
        # ƒ0 (chips that overshoot before the auction: card #1 takes it first)
        award(ctx, s.players[nxt], free.pop(0), 0, forced=True)
        nxt = s.next_player(nxt)
    if unsold(s, rs):
        ctx.emit("draws_step", step="auction", turn=nxt)
        return
    # D8 #6: ascending cash, ties keeping their order from the auction (a stable sort)
    order = sorted(s.players, key=lambda p: s.cash(player_acct(p)))
    if order != s.players:
        ctx.emit("seating", players=order, cash={p: s.cash(player_acct(p)) for p in order},
                 by="by ascending cash")
    ctx.next_round(priority=0)


# =========================================================================== the round kind

def progress(ctx) -> bool:
    return False


def legal(s, rs, reg) -> Turn:
    step = s.round.get("step")
    if step == "deal":
        return Turn(None, (Action("deal", (), "deal --privates ... --rijkswaterstaat CORP --oost CORP --foreign ..."),),
                    "Draws: type what was drawn: deal --privates B1,B2,BR1,BR2 --rijkswaterstaat CORP --oost CORP "
                    "--foreign OZ=P,BEL=P,DUI=P [--order PLAYERS], or deal --random SEED")
    if step == "redeal":
        return Turn(None, (Action("deal", (), "deal --order PLAYERS"),),
                    "Discounts placed: deal the cards again: deal --order " + ",".join(s.players))
    who = whose_turn(s)
    if step == "chips":
        chips = "/".join(str(c) for c in sorted(set(s.round["chips"]), reverse=True))
        return Turn(who, (Action("discount", (who,), f"discount {who} PRIVATE {chips}"),),
                    f"Discounts: {who} puts a chip ({chips}) on a private: discount {who} PRIVATE AMOUNT")
    offers = ", ".join(f"{sym} {rs.money(price_now(s, rs, sym))}" for sym in unsold(s, rs))
    return Turn(who, (Action("buy", (who,)), Action("discount", (who,))),
                f"Auction: {who} buys a private (buy {who} PRIVATE: {offers}) or adds {rs.money(RAISE)} to one "
                f"(discount {who} PRIVATE)")


def label(r: dict) -> str:
    return {"deal": "Draws", "chips": "Discounts", "redeal": "Discounts"}.get(r.get("step"), "Auction")


DRAWS = known_round(RoundKind(
    name="draws", start=start, progress=progress, actor=lambda s: None if s.round.get("step") in ("deal", "redeal")
    else whose_turn(s), legal=legal, label=label,
    title=lambda r: "Draws, discounts and the auction"))


# =========================================================================== rules that hook in

def rws_closes(ctx, corp: str, _train: str) -> None:
    """§12.3: Rijkswaterstaat closes when its company buys a train (B17: any train)."""
    s = ctx.state
    if s.extra.get("draws", {}).get("rws") == corp and s.privates[RWS].owner and not s.privates[RWS].closed:
        privates.close(ctx, [RWS], reason=f"{corp} bought a train (§12.3)")


def cmd_sell_token(ctx, cmd) -> None:
    """§8.2.7.3 (D11.6): a company with no train that cannot pay for one may sell placed station
    markers back to the bank for the location's value; it keeps its last marker on the map."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "sell-token")
    value = names.amount(cmd.get("value"), "the location's value")
    if trains.working(s, corp):
        refuse(f"{corp} owns a train: station markers are sold only to buy a company's first train when it "
               f"cannot pay for one (§8.2.7.3)")
    cheapest = trains.cheapest_available(s, rs)
    cash = s.cash(company_acct(corp))
    if cheapest is None or cash >= cheapest[0]:
        refuse(f"{corp} has {rs.money(cash)} and can pay for {cheapest[1] if cheapest else 'a train'}: it sells no "
               f"station marker (§8.2.7.3)")
    stations = s.corps[corp].stations
    if len(stations) <= 1:
        refuse(f"{corp} must keep its last station marker on the map (§8.2.7.3)")
    city = cmd.get("city")
    if city is not None:
        index = next((i for i, st in enumerate(stations) if st.city and st.city.lower() == str(city).lower()), None)
        if index is None:
            raise RuleViolation(f"{corp} has no station marker in {city}",
                                f"its markers: {', '.join(st.city or 'unnamed' for st in stations)}")
    else:
        index = len(stations) - 1   # the last one placed
    ctx.emit("token_sold", corp=corp, index=index, city=stations[index].city, value=value,
             transfers=[[BANK, company_acct(corp), value]] if value else [])


def status_lines(s, rs) -> list[str]:
    """The draws, and in the auction each private's discounts and price."""
    draws = s.extra.get("draws")
    if not draws:
        return ["Draws: not yet typed (deal ...)"]
    out = [f"Draws: Rijkswaterstaat -> {draws['rws']} director's certificate at {rs.money(RWS_PAR)}; Spoorwegwerken "
           f"Oost -> {draws['oost']} 10 %; foreign pars "
           + ", ".join(f"{k} {rs.money(v)}" for k, v in draws["foreign"].items())]
    if s.round.get("kind") == "draws":
        chips = s.round["chips"]
        out.append("Auction: " + ", ".join(
            f"{sym} {rs.money(price_now(s, rs, sym))}" + (f" (face {rs.money(rs.private(sym).face)} less "
                                                          f"{rs.money(discount_on(s, sym))})" if discount_on(s, sym) else "")
            for sym in unsold(s, rs)) + (f"; chips left {', '.join(rs.money(c) for c in chips)}" if chips else ""))
    return out


def status_data(s, rs) -> dict:
    draws = s.extra.get("draws") or None
    data = {"draws": draws, "revenue_track": track(s),
            "foreign": {sym: {"income": income_of(s, sym)[0]} for sym in FOREIGN_ORDER if sym in s.corps}}
    if s.round.get("kind") == "draws":
        data["auction"] = {"chips": list(s.round["chips"]), "discounts": dict(s.round["discounts"]),
                           "prices": {sym: price_now(s, rs, sym) for sym in unsold(s, rs)}}
    return data


def info_lines(rs) -> list[str]:
    return [f"Draws (§4): every green private and {DRAWN['blue']} blue and {DRAWN['brown']} brown in the auction; "
            f"discount chips {', '.join(rs.money(c) for c in CHIPS)}, then {rs.money(RAISE)} a turn in the auction; "
            f"Rijkswaterstaat brings a director's certificate parred at {rs.money(RWS_PAR)}, Spoorwegwerken Oost "
            f"a 10 % certificate; the sixth {EXTRA_TRAIN} with Beijnes, or Verveers and Credit Mobilier"]


def register(reg) -> None:
    reg.round(DRAWS)
    reg.rule("initial_state", initial_state)
    reg.rule("info_lines", info_lines)
    reg.rule("status_lines", status_lines)
    reg.rule("status_data", status_data)
    reg.verb("deal", cmd_deal, "draws", elsewhere="the draws are typed once, as the game starts (§4)")
    reg.verb("discount", cmd_discount, "draws", elsewhere="discounts are placed before and in the auction (§6)")
    reg.verb("buy", cmd_buy, "draws")
    reg.verb("sell-token", cmd_sell_token, "operating",
             elsewhere="a station marker is sold in the company's turn, to buy its first train (§8.2.7.3)")
    reg.on("game_started", place_yellow_privates)
    reg.on("train_bought", rws_closes)
    for how in ("pay", "half", "withhold"):
        reg.verb(how, cmd_run(how), "operating")
    reg.rule("unsold_share_payees", unsold_share_payees)
    reg.on("or_started", clear_track)
    reg.on("or_ended", foreign_step)


GRAMMAR = TitleGrammar(
    verbs=(
        Verb("deal", "auction", "Record the draws made at the table as the game starts (deal --privates VVD,LSW,"
             "CM,KR --rijkswaterstaat NBDS --oost NCS --foreign OZ=67,BEL=72,DUI=80 --order Ann,Ben,Cy), or let "
             "--random SEED draw them; after the discounts, the cards dealt again (deal --order ...) (1839 §4, §6.1).",
             "bank deal --random 1839",
             (),
             (Opt("--privates", "privates", help="the 2 blue and 2 brown privates drawn, e.g. VVD,LSW,CM,KR"),
              Opt("--rijkswaterstaat", "rws", kind="company", help="the company tied to Rijkswaterstaat"),
              Opt("--oost", "oost", kind="company", help="the company tied to Spoorwegwerken Oost"),
              Opt("--foreign", "foreign", help="each foreign company's par: OZ=67,BEL=72,DUI=80"),
              Opt("--order", "order", help="the players in card order, #1 first (default: as seated)"),
              Opt("--random", "seed", help="draw everything here from this seed, and print it"))),
        Verb("discount", "auction", "Put a discount chip (60 or 40) on an auction private, or in the auction add "
             "ƒ20 to one (1839 §6).", "bank discount Alice SWO 60",
             (Arg("player", "player"), Arg("private", "private"), Arg("amount", "amount", optional=True))),
        Verb("sell-token", "operating", "A company with no train that cannot pay for one sells a placed station "
             "marker to the bank for the location's value; the last stays (1839 §8.2.7.3).",
             "bank sell-token NBDS 40 --city Tilburg",
             (Arg("corp", "company"), Arg("value", "amount", help="the location's revenue value")),
             (Opt("--city", "city", help="which marker (default: the last placed)"),)),
    ),
    options={how: (Opt("--abroad", "abroad", help="the foreign countries the route reached: OZ,BEL,DUI (1839)"),)
             for how in ("pay", "half", "withhold")},
)


# =========================================================================== events

@event
class DrawsDealt:
    """What was drawn at the table (§4): the blue and brown privates in the auction, the companies
    tied to Rijkswaterstaat and Spoorwegwerken Oost, the foreign pars, the card order."""
    privates: list
    rws: str
    oost: str
    foreign: dict
    order: list
    seed: int = None

    def apply(s, e):
        s.extra = {**s.extra, "draws": {k: e[k] for k in ("privates", "rws", "oost", "foreign")}}

    def describe(e, rs):
        drawn = f" (drawn from seed {e['seed']})" if e.get("seed") is not None else ""
        extra = "; the sixth 5+ leaves the game" if e.get("trains") else ""
        return (f"draws{drawn}: {', '.join(e['privates'])} join the auction; Rijkswaterstaat brings {e['rws']}'s "
                f"director's certificate, Spoorwegwerken Oost a 10 % of {e['oost']}; foreign pars "
                f"{', '.join(f'{k} {rs.money(v)}' for k, v in e['foreign'].items())}; cards "
                f"{', '.join(e['order'])}{extra}")


@event
class PrivatesPlaced:
    """The yellow privates on their companies' charters (§4)."""

    def describe(e, rs):
        return "on the charters: " + ", ".join(f"{sym} ({acct_name(to)})" for sym, _f, to in e["assets"])


@event
class DiscountPlaced:
    player: str
    private: str
    amount: int
    total: int
    chip: bool = False

    def apply(s, e):
        r = dict(s.round)
        r["discounts"] = {**r["discounts"], e["private"]: e["total"]}
        if e.get("chip"):
            chips = list(r["chips"])
            chips.remove(e["amount"])
            r["chips"] = chips
        s.round = r

    def describe(e, rs):
        return (f"{e['player']} puts a {rs.money(e['amount'])} discount on {e['private']} "
                f"({rs.money(e['total'])} in all: {rs.money(max(0, rs.private(e['private']).face - e['total']))})")


@event
class DrawsStep:
    step: str
    turn: int

    def apply(s, e):
        s.round = {**s.round, "step": e["step"], "turn": e["turn"]}


@event
class TokenSold:
    """A station marker back on the charter, paid its location's value by the bank (§8.2.7.3)."""
    corp: str
    index: int
    value: int
    city: str = None

    def apply(s, e):
        c = s.corps[e["corp"]]
        c.stations = c.stations[:e["index"]] + c.stations[e["index"] + 1:]
        c.tokens_used -= 1

    def describe(e, rs):
        where = f" in {e['city']}" if e.get("city") else ""
        return f"{e['corp']} sells its station marker{where} to the bank for {rs.money(e['value'])}"


# =========================================================================== the foreign companies

# D6.4: the foreign companies operate at the end of each OR in this order.
FOREIGN_ORDER = ("OZ", "BEL", "DUI")
FOREIGN_NAMES = {"OZ": ("overzees",), "BEL": ("belgie", "belgië", "belgium"), "DUI": ("duitsland", "germany")}
INCOME_ROUNDING = 100        # §8.3.2: the income is rounded up to a multiple of ƒ100
FULL_PRICE_PHASE = "brown"   # §7.3: from brown, a charter purchase pays the company in full


def country(raw: str) -> str:
    text = raw.strip().lower()
    for sym, aliases in FOREIGN_NAMES.items():
        if text in (sym.lower(), *aliases):
            return sym
    raise RuleViolation(f"no foreign country {raw!r}", f"countries: {', '.join(FOREIGN_ORDER)}")


def listed(s, sym: str) -> bool:
    return s.corps[sym].par is not None


def track(s) -> dict:
    """The revenue track of this OR (D3): each public company's total revenue and the countries its
    route reached."""
    return s.extra.get("track", {})


def cmd_run(how: str):
    """pay / half / withhold with `--abroad COUNTRIES`: the shared run, then the revenue track; a
    country reached for the first time is parred at its drawn par (§8.2.5.3, D6.2)."""
    shared = {"pay": revenue.cmd_pay, "half": revenue.cmd_half, "withhold": revenue.cmd_withhold}[how]

    def handler(ctx, cmd) -> None:
        s = ctx.state
        abroad = [country(w) for w in split(cmd.get("abroad"))] if cmd.get("abroad") else []
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
    par = s.extra["draws"]["foreign"][sym]
    ctx.emit("company_listed", corp=sym, price=par, moves=[[sym, None, list(market.par_cell(rs, par))]])
    ctx.emit("floated", corp=sym, capital=0)


def unsold_share_payees(s, rs, corp: str, price: int):
    """§7.3 (D6.3): a foreign unit from the charter pays half (rounded up) to the company and the
    rest to the bank before brown, all to the company from brown; public shares pay the bank."""
    if shares.kind(s, rs, corp).president:
        return None
    if trains.phase_reached(s, rs, FULL_PRICE_PHASE):
        return [[company_acct(corp), price]]
    half = -(-price // 2)
    return [[company_acct(corp), half], [BANK, price - half]]


def clear_track(ctx) -> None:
    """§8.1 step 1: each OR's tallies start from zero."""
    if track(ctx.state):
        ctx.emit("revenue_track_cleared")


def foreign_step(ctx) -> None:
    """D6.4: after the public companies, each parred foreign company in turn: income, half-pay,
    price, buy-back from the pool, trains."""
    for sym in FOREIGN_ORDER:
        if sym in ctx.state.corps and listed(ctx.state, sym):
            operate_foreign(ctx, sym)
            if ctx.state.game_over:
                return


def income_of(s, sym: str) -> tuple[int, list[str]]:
    """§8.3.2 (D3, B7): half the total revenue of the public companies whose routes reached it
    this OR, rounded up to ƒ100; and those companies."""
    runs = [(corp, run["revenue"]) for corp, run in track(s).items() if sym in run["abroad"]]
    total = sum(r for _c, r in runs)
    income = -(-total // (2 * INCOME_ROUNDING)) * INCOME_ROUNDING if total else 0
    return income, [c for c, _r in runs]


def operate_foreign(ctx, sym: str) -> None:
    s, rs = ctx.state, ctx.rs
    income, sources = income_of(s, sym)
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
        where = DEPOT if name == RETURNS_TO_SUPPLY else REMOVED
        cell = s.corps[sym].cell
        to = market.move(rs, cell, "up")
        ctx.emit("foreign_train_bought", corp=sym, train=train, type=name, price=price,
                 transfers=[[company_acct(sym), BANK, price]], trains=[[train, DEPOT, where]] if where != DEPOT else [],
                 moves=[[sym, list(cell), list(to)]])
        if first:
            train_step.new_phase_or_rust(ctx, name)
            train_step.check_limits(ctx)
        end_due(ctx, sym, to)
        if where == DEPOT:   # a FLOOD goes back: the company could buy it again and again
            return


RETURNS_TO_SUPPLY = "FLOOD"   # §8.3.2: a foreign company's FLOOD goes back into the supply


def end_due(ctx, sym: str, to) -> None:
    """§9.1 #2b, B24: a foreign price reaching ƒ1,000 in an OR ends the game after this OR."""
    s, rs = ctx.state, ctx.rs
    if market.cell(rs, to).end and not s.end_after_or:
        ctx.emit("end_due", corp=sym, price=market.price(rs, to))


def foreign_status(s, rs) -> list[str]:
    """Each parred foreign company: price, charter cash, units left on the charter and in the pool;
    and this OR's revenue track."""
    out = []
    for sym in FOREIGN_ORDER:
        if sym in s.corps and listed(s, sym):
            unit = shares.unit(s, rs, sym)
            out.append(f"{sym}: {rs.money(shares.price(s, rs, sym))}, charter {rs.money(s.cash(company_acct(sym)))}, "
                       f"{s.percent_of(shares.unsold_acct(s, rs, sym), sym) // unit} units unsold, "
                       f"{s.percent_of(POOL, sym) // unit} in the pool")
    runs = track(s)
    if runs:
        out.append("Revenue track: " + ", ".join(
            f"{corp} {rs.money(run['revenue'])}" + (f" ({'/'.join(run['abroad'])})" if run["abroad"] else "")
            for corp, run in runs.items()))
    return out


@event
class RevenueTracked:
    """The revenue track (D3): a public company's total revenue this OR and the countries reached."""
    corp: str
    revenue: int
    abroad: list

    def apply(s, e):
        s.extra = {**s.extra, "track": {**s.extra.get("track", {}),
                                        e["corp"]: {"revenue": e["revenue"], "abroad": list(e["abroad"])}}}

    def describe(e, rs):
        return f"revenue track: {e['corp']} {rs.money(e['revenue'])}" + (
            f", reached {', '.join(e['abroad'])}" if e["abroad"] else "")


@event
class RevenueTrackCleared:
    """§8.1: the revenue markers come off the foreign charters as an OR begins."""

    def apply(s, e):
        s.extra = {**s.extra, "track": {}}


@event
class ForeignIncome:
    """§8.3.2: a foreign company's income, half to its charter, half paid out per 2 % unit (the
    charter's units to the charter, the pool's to nobody); its price moves one box."""
    corp: str
    income: int
    per_unit: int
    sources: list
    payees: list

    def describe(e, rs):
        if not e["income"]:
            return f"{e['corp']} has no income this OR: its price falls a box"
        who = lambda h: "its charter" if h.startswith("treasury:") else acct_name(h)  # noqa: E731
        paid = ", ".join(f"{who(h)} {n} x {rs.money(e['per_unit'])}" + (" (to nobody)" if not amt else "")
                         for h, n, amt in e["payees"])
        return (f"{e['corp']} earns {rs.money(e['income'])} (half of {', '.join(e['sources'])}'s revenue, rounded up "
                f"to ƒ100): {rs.money(e['income'] // 2)} to its charter, {rs.money(e['per_unit'])} a unit: {paid}")


@event
class ForeignBuyBack:
    corp: str
    units: int
    price: int

    def describe(e, rs):
        return f"{e['corp']} buys back {e['units']} unit(s) from the pool at {rs.money(e['price'])}"


@event
class ForeignTrainBought:
    corp: str
    train: str
    type: str
    price: int

    def describe(e, rs):
        gone = "goes back to the supply" if not e.get("trains") else "leaves the game"
        return f"{e['corp']} buys a {e['type']} for {rs.money(e['price'])}; it {gone}; the price rises a box"
