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
from dataclasses import dataclass, field

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.plays import Bounds
from ledger.core.round_kind import RoundKind, known_round
from ledger.core import fees
from ledger.core.rounds import operating, stock
from ledger.core.rules import market, privates, revenue, shares, track, train_step, trains
from ledger.core.rules.turn import operating_corp
from ledger.core.state import BANK, DEPOT, POOL, REMOVED, UNUSED, acct_name, company_acct, player_acct, train_type

# The privates' colours decide the draws: yellow start on charters, every green is auctioned,
# so many blue and brown are drawn (§4).
PRIVATE_ABILITIES = {
    "colour": str,
    "tiles_max": int,            # lays up to so many tiles as the company's whole track lay (`lay`)
    "tile_each": int,            # ... for this fee a tile
    "lay_fee": int,              # ... or for this fee in all
    "station_fees": list,        # a station marker for one of these costs (`token --using`)
    "station_half": bool,        # a station marker at half its cost, rounded up
    "train_discounts": dict,     # so much off a train from the supply, by its colour (`train --using`)
    "discount_by": str,          # "train" (its colour) or "phase" (the phase's colour)
    "becomes_train": str,        # exchanged for a train the supply sells now, before this phase
    "converts_at_brown": str,    # a company's becomes this train as brown begins
    "early_trains": bool,        # its company may buy trains at any point of its turn
    "saved_markers": int,        # SAVED markers (`save`)
    "saved_price": int,          # ... sold to other companies for this
    "saved_owner_share": int,    # ... of which the owning company gets this
    "typed_income": bool,        # a player owner earns what the table announces each OR (`income`)
    "counts_abroad": bool,       # ... counted twice toward a foreign company's income it reaches
    "paid_per_company": bool,    # ... paid as each of its owner's companies operates (MEVS, D0.1 #5)
    "forced_float": int,         # its owner floats a company with this percent bought (`force-float`)
    "repar": bool,               # its owner re-pars a company he floated this SR (`repar`)
    "charges_director": bool,    # its company charges its director for costs (`charge`)
}
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
    drawn = s.own.draws.get("privates", [])
    return [p.sym for p in rs.privates if colour_of(rs, p.sym) == "green" or p.sym in drawn]


def unsold(s, rs) -> list[str]:
    return [sym for sym in in_auction(s, rs) if s.privates[sym].owner is None and not s.privates[sym].closed]


def discount_on(s, sym: str) -> int:
    return s.round.get("discounts", {}).get(sym, 0)


def price_now(s, rs, sym: str) -> int:
    """Face value less every discount on it, never below ƒ0 (§6.2: any excess is paid to nobody)."""
    return max(0, rs.private(sym).face - discount_on(s, sym))


@dataclass
class State:
    """What 1839's own rules keep (GameState.own): what was drawn as the game started (§4); the
    company whose turn's end makes the privates obsolete, and the OR they became so (§12.1); the
    SAVED markers used; the incomes paid this OR and the players' privates' runs on the revenue
    track (§12.4); the revenue track itself (D3); the par each escrowed pool share holds (§12.5)."""
    draws: dict = field(default_factory=dict)
    obsolescence_due: str | None = None
    obsolete: list | None = None
    saved: dict = field(default_factory=dict)
    incomes: list = field(default_factory=list)
    private_runs: dict = field(default_factory=dict)
    track: dict = field(default_factory=dict)
    escrow: dict = field(default_factory=dict)


STATE = State


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
    trains = [] if keeps_extra or s.trains.get(extra) != DEPOT else [[extra, DEPOT, UNUSED]]
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
    draws = s.own.draws
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


def heading(s, rs) -> str:
    step = s.round.get("step")
    if step == "deal":
        return "Draws: type what was drawn"
    if step == "redeal":
        return "Discounts placed: deal the cards again"
    if step == "chips":
        return f"Discounts: {whose_turn(s)} puts a chip ({chip_values(s)}) on a private"
    return f"Auction: {whose_turn(s)}"


def chip_values(s) -> str:
    return "/".join(str(c) for c in sorted(set(s.round["chips"]), reverse=True))


def deal_phrase(s, rs, _who) -> str:
    if s.round.get("step") == "redeal":
        return "deal --order " + ",".join(s.players)
    return ("deal --privates B1,B2,BR1,BR2 --rijkswaterstaat CORP --oost CORP --foreign OZ=P,BEL=P,DUI=P "
            "[--order PLAYERS], or deal --random SEED")


def deal_bars(s, rs) -> list[str]:
    return [] if s.round.get("step") in ("deal", "redeal") else ["the draws are made once, before the discounts (§4)"]


def deal_candidates(option: str):
    """A completion of `deal`: a seed for the draws, the seating for the deal again."""
    def found(s, rs, _who, args):
        step = s.round.get("step")
        if option == "seed":
            return ["1"] if step == "deal" else [None]
        return [",".join(s.players)] if step == "redeal" else [None]
    return found


def discount_bars(s, rs) -> list[str]:
    if s.round.get("step") not in ("chips", "auction"):
        return ["discounts are placed after the draws (§6.1) and in the auction (§6.2)"]
    return []


def discount_amounts(s, rs, player, args) -> list[str]:
    if s.round.get("step") == "chips":
        return [str(c) for c in sorted(set(s.round["chips"]), reverse=True)]
    return [str(RAISE)]


def discount_phrase(s, rs, players) -> str:
    who = players[0]
    if s.round.get("step") == "chips":
        return f"discount {who} PRIVATE {chip_values(s)}"
    return f"add {rs.money(RAISE)} to one (discount {who} PRIVATE)"


def buy_bars(s, rs) -> list[str]:
    if s.round.get("step") != "auction":
        return ["privates are bought in the auction, after the draws and the discounts (§6)"]
    return []


def buy_phrase(s, rs, players) -> str:
    offers = ", ".join(f"{sym} {rs.money(price_now(s, rs, sym))}" for sym in unsold(s, rs))
    return f"buy a private (buy {players[0]} PRIVATE: {offers})"


def draws_not_turn(s, rs, player, actors, verb) -> tuple[str, None]:
    step = s.round.get("step")
    what = "to place a discount" if step == "chips" else "in the auction"
    return f"it is {whose_turn(s)}'s turn {what}, not {player}'s", None


def label(r: dict) -> str:
    return {"deal": "Draws", "chips": "Discounts", "redeal": "Discounts"}.get(r.get("step"), "Auction")


DRAWS = known_round(RoundKind(
    name="draws", start=start, progress=progress, actor=lambda s: None if s.round.get("step") in ("deal", "redeal")
    else whose_turn(s), heading=heading, not_turn=draws_not_turn, label=label,
    title=lambda r: "Draws, discounts and the auction"))


# =========================================================================== rules that hook in

def rws_closes(ctx, corp: str, _train: str) -> None:
    """§12.3: Rijkswaterstaat closes when its company buys a train (B17: any train)."""
    s = ctx.state
    if s.own.draws.get("rws") == corp and s.privates[RWS].owner and not s.privates[RWS].closed:
        privates.close(ctx, [RWS], reason=f"{corp} bought a train (§12.3)")


def extra_homes(s, corp: str) -> int:
    """§4, §12.3: the company tied to Rijkswaterstaat has an additional home station in Emmen (D19)."""
    return 1 if s.own.draws.get("rws") == corp else 0


def token_sale_bars(s, rs, corp) -> list[str]:
    """`sell-token` is legal for a company with no train, short of one, and with a marker to spare
    (§8.2.7.3)."""
    if trains.working(s, corp):
        return [f"{corp} owns a train: station markers are sold only to buy a company's first train when it "
                f"cannot pay for one (§8.2.7.3)"]
    cheapest = trains.cheapest_available(s, rs)
    cash = s.cash(company_acct(corp))
    if cheapest is None or cash >= cheapest[0]:
        return [f"{corp} has {rs.money(cash)} and can pay for {cheapest[1] if cheapest else 'a train'}: it sells no "
                f"station marker (§8.2.7.3)"]
    if len(s.corps[corp].stations) <= 1:
        return [f"{corp} must keep its last station marker on the map (§8.2.7.3)"]
    return []


def cmd_sell_token(ctx, cmd) -> None:
    """§8.2.7.3 (D11.6): a company with no train that cannot pay for one may sell placed station
    markers back to the bank for the location's value; it keeps its last marker on the map."""
    s = ctx.state
    corp = operating_corp(ctx, cmd.get("corp"), "sell-token")
    value = names.amount(cmd.get("value"), "the location's value")
    stations = s.corps[corp].stations
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


def cmd_bankrupt(ctx, cmd) -> None:
    """§8.2.7.3: a director is bankrupt only once his company has also sold every station marker
    it legally may (all but its last)."""
    s = ctx.state
    corp = s.round.get("corp")
    director = corp and s.president(corp) == names.player(s, cmd.get("player"))
    if director and not trains.working(s, corp) and len(s.corps[corp].stations) > 1:
        refuse(f"{s.president(corp)} is not bankrupt yet: {corp} still has {len(s.corps[corp].stations) - 1} station "
               f"marker(s) it may sell, and a director is bankrupt only when every source is used (§8.2.7.3)",
               f"sell-token {corp} VALUE --city CITY")
    operating.cmd_bankrupt(ctx, cmd)


def status_lines(s, rs) -> list[str]:
    """The draws, and in the auction each private's discounts and price."""
    draws = s.own.draws
    if not draws:
        return ["Draws: not yet typed (deal ...)"]
    out = foreign_status(s, rs)
    if obsolete(s):
        out.append("Privates: obsolete (brown): no company may buy one; each closes at its next closing point")
    elif s.own.obsolescence_due:
        out.append(f"Privates: obsolete once {s.own.obsolescence_due} finishes its turn")
    out += [f"Draws: Rijkswaterstaat -> {draws['rws']} director's certificate at {rs.money(RWS_PAR)}; Spoorwegwerken "
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
    draws = s.own.draws or None
    data = {"draws": draws, "revenue_track": tallies(s),
            "privates_obsolete": obsolete(s), "obsolescence_after": s.own.obsolescence_due,
            "saved_markers_used": dict(s.own.saved),
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
    reg.rule("info_lines", info_lines)
    reg.rule("status_lines", status_lines)
    reg.rule("status_data", status_data)
    reg.verb("deal", cmd_deal, "draws", elsewhere="the draws are typed once, as the game starts (§4)",
             when=deal_bars, candidates={"seed": deal_candidates("seed"), "order": deal_candidates("order")},
             fill=("seed", "order"), phrase=deal_phrase)
    reg.verb("buy", cmd_buy, "draws", when=buy_bars, candidates={"item": lambda s, rs, who, args: unsold(s, rs)},
             phrase=buy_phrase)
    reg.verb("discount", cmd_discount, "draws", elsewhere="discounts are placed before and in the auction (§6)",
             when=discount_bars, candidates={"private": lambda s, rs, who, args: unsold(s, rs),
                                             "amount": discount_amounts}, fill=("amount",), phrase=discount_phrase)
    reg.verb("sell-token", cmd_sell_token, "operating",
             elsewhere="a station marker is sold in the company's turn, to buy its first train (§8.2.7.3)",
             bars=token_sale_bars, phrase=lambda s, rs, corps: f"sell-token {corps[0]} VALUE")
    reg.on("game_started", place_yellow_privates)
    reg.on("train_bought", rws_closes)
    for how in ("pay", "half", "withhold"):
        shared = reg.play_for("operating", how)
        reg.rework("operating", how, handler=cmd_run(how), fill=("abroad",),
                   candidates={**shared.candidates, "abroad": lambda *_: [None, "OZ", "BEL", "DUI", "BEL,DUI"]})
    reg.verb("lay", cmd_lay, "operating", elsewhere="a private's tiles are laid in its company's turn",
             bars=lay_bars, candidates={"private": powers_of("tiles_max"), "count": lay_counts},
             phrase=lambda s, rs, corps: f"lay {corps[0]} PRIVATE N")
    reg.rework("operating", "token", handler=cmd_token)
    reg.rework("operating", "tile", handler=cmd_tile)
    reg.verb("save", cmd_save, "operating", elsewhere="a SAVED marker is placed in its company's turn (§12.5)",
             candidates={"private": saving_privates,
                                         "type": lambda s, rs, corp, args: sorted({train_type(t) for t in
                                                                                   s.corp_trains(corp)})},
             phrase=lambda s, rs, corps: f"save {corps[0]} PRIVATE TYPE")
    reg.verb("income", cmd_income, "operating", elsewhere="NFLM and MEVS earn in an operating round", offered=False)
    reg.rework("operating", "buy-private", handler=cmd_buy_private, when=obsolete_bars)
    reg.rework("operating", "bankrupt", handler=cmd_bankrupt)
    reg.rule("train_discount", train_discount)
    reg.rule("extra_homes", extra_homes)
    reg.rule("station_bars", station_bars)
    reg.rule("train_before_run", train_before_run)
    reg.protecting_flags.add("saved")
    reg.owner_flags.add("saved")
    reg.on("phase_changed", brown_began)
    reg.on("corp_turn_ended", turn_ended)
    reg.on("or_started", players_obsolete_close)
    reg.on("stock_round_started", sr_obsolete_close)
    reg.on("stock_round_started", sr_floats_noted)
    reg.on("sr_ending", forced_floats)
    reg.on("share_bought", escrow_paid)
    reg.verb("force-float", cmd_force_float, "stock", elsewhere="Kabinet-Rochussen is used in a stock round",
             who=lambda s, rs: None, bars=holds_power("forced_float"),
             candidates={"private": held_powers("forced_float")},
             phrase=lambda s, rs, players: f"{', '.join(players)} may force a float (force-float PLAYER KR CORP)")
    reg.verb("repar", cmd_repar, "stock", elsewhere="Ketwich & Voombergh is used in a stock round",
             bars=repar_bars, candidates={"private": held_powers("repar"), "price": repar_prices},
             phrase=lambda s, rs, players: f"repar {players[0]} KV CORP PRICE")
    reg.verb("charge", cmd_charge, "operating", elsewhere="a company charges its director in its turn",
             bars=charge_bars, candidates={"amount": charge_amounts},
             phrase=lambda s, rs, corps: f"charge {corps[0]} AMOUNT")
    reg.rule("unsold_share_payees", unsold_share_payees)
    reg.on("or_started", clear_track)
    reg.on("or_ended", foreign_step)


# --------------------------------------------------------------------------- what the privates' powers allow now

def powers_of(ability: str):
    """The open privates the operating company owns with this power."""
    def found(s, rs, corp, args) -> list[str]:
        return [p.sym for p in rs.privates if p.ability(ability) is not None and owned_by(s, p.sym, corp)]
    return found


def lay_bars(s, rs, corp) -> list[str]:
    if not powers_of("tiles_max")(s, rs, corp, {}):
        return [f"{corp} owns no private that lays several tiles"]
    if s.round["tiles"]:
        return [f"a private's tiles are {corp}'s whole track lay, and {corp} has laid a tile this turn"]
    return track.track_step_over(s, corp)


def lay_counts(s, rs, corp, args):
    sym = args.get("private")
    most = rs.private(sym).ability("tiles_max") if sym in s.privates else 1
    return Bounds(1, most or 1)


def saving_privates(s, rs, corp, args) -> list[str]:
    return [p.sym for p in rs.privates if p.ability("saved_markers") and not s.privates[p.sym].closed
            and str(s.privates[p.sym].owner).startswith("company:")]


def obsolete_bars(s, rs) -> list[str]:
    if obsolete(s):
        return ["the privates are obsolete (brown): no company may buy one (§12.1)"]
    return []


def power_holders(ability: str):
    """The players owning an open private with this power."""
    def found(s, rs) -> list[str]:
        return [acct_name(s.privates[p.sym].owner) for p in rs.privates if p.ability(ability)
                and not s.privates[p.sym].closed and str(s.privates[p.sym].owner).startswith("player:")]
    return found


def held_powers(ability: str):
    def found(s, rs, player, args) -> list[str]:
        return [p.sym for p in rs.privates if p.ability(ability) and s.privates[p.sym].owner == player_acct(player)
                and not s.privates[p.sym].closed]
    return found


def holds_power(ability: str):
    """A player without an open private of this power may not use it."""
    def bars(s, rs, player) -> list[str]:
        if not held_powers(ability)(s, rs, player, {}):
            sym = next(p.sym for p in rs.privates if p.ability(ability))
            return [f"{player} does not own an open {sym}"]
        return []
    return bars


def repar_bars(s, rs, player) -> list[str]:
    if not held_powers("repar")(s, rs, player, {}):
        sym = next(p.sym for p in rs.privates if p.ability("repar"))
        return [f"{player} does not own an open {sym}"]
    return []


def repar_prices(s, rs, player, args) -> list[str]:
    return [str(p) for p in stock.allowed_pars(s, rs)]


def charge_bars(s, rs, corp) -> list[str]:
    if not [p.sym for p in rs.privates if p.ability("charges_director") and owned_by(s, p.sym, corp)]:
        return [f"{corp} owns no private that charges its director (Rotterdamsche Bank)"]
    return []


def charge_amounts(s, rs, corp, args):
    return Bounds(0, s.cash(player_acct(s.president(corp))) if s.president(corp) else 0)


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
        Verb("lay", "operating", "A private lays several tiles as the company's whole track lay (1839: the "
             "Staatslijnen and VVD up to 4 at ƒ10 each, AMB two upgrades for ƒ20), plus the terrain.",
             "bank lay SS SLC 3 --terrain 80",
             (Arg("corp", "company"), Arg("private", "private"), Arg("count", "count")),
             (Opt("--terrain", "terrain", kind="amount", help="the terrain costs of those tiles"),)),
        Verb("save", "operating", "Put a SAVED marker on one of the company's trains: Verveers' own, or one of "
             "Beyer Peacock's bought for ƒ200 (1839 §12.5).", "bank save NCS BP 2",
             (Arg("corp", "company"), Arg("private", "private"), Arg("type", "train"))),
        Verb("income", "operating", "A player's NFLM or MEVS earns what the table announces this OR, paid by the "
             "bank (1839 §12.4-12.5).", "bank income NFLM 60 --abroad DUI",
             (Arg("private", "private"), Arg("amount", "amount")),
             (Opt("--abroad", "abroad", help="the foreign country NFLM's route reached"),)),
        Verb("force-float", "stock", "Kabinet-Rochussen: float an unfloated company with 30 % bought at the end of "
             "this stock round, with 7 x par and three shares in the pool (1839 §12.5).",
             "bank force-float Ann KR ZHESM",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company"))),
        Verb("repar", "stock", "Ketwich & Voombergh: re-par a company the player floated in this stock round "
             "(1839 §12.5).", "bank repar Ann KV NCS 101",
             (Arg("player", "player"), Arg("private", "private"), Arg("corp", "company"),
              Arg("price", "amount", offer="par_prices"))),
        Verb("charge", "operating", "Rotterdamsche Bank: the company charges its director for a station, track "
             "or train cost (1839 §12.5).", "bank charge NCS 100",
             (Arg("corp", "company"), Arg("amount", "amount"))),
        Verb("sell-token", "operating", "A company with no train that cannot pay for one sells a placed station "
             "marker to the bank for the location's value; the last stays (1839 §8.2.7.3).",
             "bank sell-token NBDS 40 --city Tilburg",
             (Arg("corp", "company"), Arg("value", "amount", help="the location's revenue value")),
             (Opt("--city", "city", help="which marker (default: the last placed)"),)),
    ),
    options={**{how: (Opt("--abroad", "abroad", help="the foreign countries the route reached: OZ,BEL,DUI (1839)"),)
                for how in ("pay", "half", "withhold")},
             "train": (Opt("--using", "using", kind="private", help="1839: Credit Mobilier's discount, or Beijnes "
                           "exchanged for the train"),),
             "token": (Opt("--using", "using", kind="private", help="1839: CO, ZK, SHZ or SWO's station power"),)},
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
        s.own.draws = {k: e[k] for k in ("privates", "rws", "oost", "foreign")}

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


def tallies(s) -> dict:
    """The revenue track of this OR (D3): each public company's total revenue and the countries its
    route reached."""
    return s.own.track


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
    par = s.own.draws["foreign"][sym]
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
    if tallies(ctx.state) or ctx.state.own.private_runs:
        ctx.emit("revenue_track_cleared")


def foreign_step(ctx) -> None:
    """D6.4: after the public companies, each parred foreign company in turn: income, half-pay,
    price, buy-back from the pool, trains."""
    if any(sym in ctx.state.corps and listed(ctx.state, sym) for sym in FOREIGN_ORDER):
        ctx.emit("foreign_step_begun")
    for sym in FOREIGN_ORDER:
        if sym in ctx.state.corps and listed(ctx.state, sym):
            operate_foreign(ctx, sym)
            if ctx.state.game_over:
                return


def income_of(s, sym: str) -> tuple[int, list[str]]:
    """§8.3.2 (D3, B7): half the total revenue of the public companies whose routes reached it
    this OR, rounded up to ƒ100; and those companies."""
    runs = [(corp, run["revenue"]) for corp, run in tallies(s).items() if sym in run["abroad"]]
    # §12.4 (B30): a player's NFLM reaching the country counts twice
    runs += [(p, 2 * run["revenue"]) for p, run in s.own.private_runs.items() if sym in run["abroad"]]
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
    runs = tallies(s)
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


# =========================================================================== the privates' powers (§12)

def owned_by(s, sym: str, corp: str) -> bool:
    held = s.privates[sym]
    return held.owner == company_acct(corp) and not held.closed


def power_of(ctx, corp: str, raw, ability: str) -> tuple[str, object]:
    """The private named, owned and open, with the ability asked for."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, raw)
    value = rs.private(sym).ability(ability)
    if value is None:
        raise RuleViolation(f"{sym} has no such power")
    if not owned_by(s, sym, corp):
        raise RuleViolation(f"{corp} does not own an open {sym}")
    return sym, value


def used(ctx, corp: str, sym: str, ability: str) -> None:
    ctx.emit("ability_used", private=sym, ability=ability)
    if ctx.rs.private(sym).ability("closes_on_use"):
        privates.close(ctx, [sym], reason=f"{corp} used its power")


def cmd_lay(ctx, cmd) -> None:
    """§12.2, §12.5: Staatslijnen C/D/E/K and Van Vlissingen (up to 4 tiles at ƒ10 each) and De
    Ambachtsschool (two upgrades for ƒ20 in all) lay several tiles as the company's whole track lay,
    plus the terrain the table announces."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "lay")
    sym, most = power_of(ctx, corp, cmd.get("private"), "tiles_max")
    count = names.whole_number(cmd.get("count"), "the number of tiles")
    if not 1 <= count <= most:
        refuse(f"{sym} lays 1 to {most} tiles, not {count}")
    if s.round["tiles"]:
        refuse(f"{sym}'s tiles are {corp}'s whole track lay, and {corp} has laid a tile this turn")
    terrain = names.amount(cmd.get("terrain") or 0, "terrain")
    p = rs.private(sym)
    fee = p.ability("lay_fee") if p.ability("lay_fee") is not None else p.ability("tile_each", 0) * count
    cost = fee + terrain
    turn_pay(ctx, corp, cost)
    ctx.emit("tiles_laid_with_private", corp=corp, private=sym, count=count, fee=fee, terrain=terrain,
             lays=rs.k("operating", "tile_lays"),
             transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    used(ctx, corp, sym, "tile")


def station_bars(s, rs, corp) -> list[str]:
    """§8.2.4: no station marker in a turn in which the company laid a second tile (a private's
    several tiles excepted, §12.2)."""
    if s.round.get("tiles", 0) >= 2 and not s.round.get("private_lay"):
        return ["no station marker in a turn in which the company laid a second tile (§8.2.4)"]
    return []


def turn_pay(ctx, corp: str, cost: int) -> None:
    s, rs = ctx.state, ctx.rs
    cash = s.cash(company_acct(corp))
    if cash < cost:
        raise RuleViolation(f"{corp} has {rs.money(cash)}, not {rs.money(cost)}")


def cmd_token(ctx, cmd) -> None:
    """`token CORP VALUE --using PRIVATE`: Cornelis Outshoorn (free), Zevenaar-Kleef (ƒ80 with its
    tile), Schielands Hoge Zeedijk (ƒ80 at Venlo, free at Middelburg), Spoorwegwerken Oost (half the
    cost, rounded up: B9); otherwise the shared station rule."""
    s, rs = ctx.state, ctx.rs
    for why in station_bars(s, rs, s.round.get("corp")):
        refuse(why)
    if not cmd.get("using"):
        track.cmd_token(ctx, cmd)
        return
    corp = operating_corp(ctx, cmd.get("corp"), "token")
    sym = names.private(rs, cmd.get("using"))
    p = rs.private(sym)
    if not owned_by(s, sym, corp):
        raise RuleViolation(f"{corp} does not own an open {sym}")
    for why in track.station_bars(s, corp):   # a private's marker is still the turn's one marker (§8.2.4)
        refuse(why)
    if track.markers_left(s, rs, corp) <= 0:
        raise RuleViolation(f"{corp} has no station markers left")
    given = cmd.get("cost")
    if p.ability("station_half"):
        if given is None:
            raise RuleViolation("give the location's value as COST")
        full, steps = track.station_price(s, rs, corp, track.free_slots(s, rs, corp)[0], given,
                                          fees.parse_asked(cmd.get("modifiers")))
        cost = -(-full // 2)
        why = f"half of {rs.money(full)}, rounded up ({sym})"
    elif p.ability("station_fees") is not None:
        allowed = list(p.ability("station_fees"))
        # one fixed cost (CO free, ZK ƒ80): a COST typed is the location's value, not asked for
        cost = allowed[0] if given is None or len(allowed) == 1 else names.amount(given, "the station's cost")
        if cost not in allowed:
            refuse(f"{sym}'s station costs {' or '.join(rs.money(a) for a in allowed)}, not {rs.money(cost)}")
        why = f"{sym}'s fixed cost"
    else:
        raise RuleViolation(f"{sym} has no station power")
    turn_pay(ctx, corp, cost)
    slot = track.free_slots(s, rs, corp)[0]
    city = track.station_city(s, corp, cmd.get("city"))
    ctx.emit("token_placed", corp=corp, cost=cost, city=city, slot=slot, steps=[[why, cost, cost, None]],
             transfers=[[company_acct(corp), BANK, cost]] if cost else [])
    used(ctx, corp, sym, "station")


def cmd_tile(ctx, cmd) -> None:
    """Regiment Genietroepen's ƒ40 off terrain (`tile CORP 80 --with rg`) needs the company to own it."""
    s = ctx.state
    asked = fees.parse_asked(cmd.get("modifiers"))
    corp = names.corp(ctx.rs, cmd.get("corp"))
    for sym, name in TERRAIN_PRIVATES.items():
        if name in asked and not owned_by(s, sym, corp):
            refuse(f"--with {name} is {sym}'s power, and {corp} does not own an open {sym}")
    track.cmd_tile(ctx, cmd)


TERRAIN_PRIVATES = {"RG": "rg"}   # §12.5: the private whose fee modifier a company names with --with


def train_discount(ctx, corp: str, name: str, seller: str, cmd) -> int:
    """`train CORP TYPE --using CM`: Credit Mobilier takes ƒ100/150/250 off a green/blue/brown
    train from the supply (B21, D0.1 #4: by the train's colour; option: the phase's). `--using JJB`:
    Beijnes is exchanged for a train the supply sells now, before brown (B15)."""
    s, rs = ctx.state, ctx.rs
    if not cmd.get("using"):
        return 0
    sym = names.private(rs, cmd.get("using"))
    p = rs.private(sym)
    if not owned_by(s, sym, corp):
        raise RuleViolation(f"{corp} does not own an open {sym}")
    if seller != BANK:
        refuse(f"{sym}'s power is for a train from the supply (B21, B15)")
    if p.ability("becomes_train"):
        before = p.ability("becomes_train")
        if trains.phase_reached(s, rs, before):
            refuse(f"{sym} is exchanged for a train before {before} (§12.5)")
        ctx.emit("ability_used", private=sym, ability="train")
        privates.close(ctx, [sym], reason=f"{corp} exchanged it for a {name}")
        return rs.train(name).price
    discounts = p.ability("train_discounts")
    if discounts is None:
        raise RuleViolation(f"{sym} has no power over trains")
    colour = (s.phase if p.ability("discount_by") == "phase"
              else next((ph.name for ph in rs.phases if ph.on_train == name), ""))
    amount = discounts.get(colour, 0)
    if not amount:
        refuse(f"{sym} takes {', '.join(f'{rs.money(v)} off a {k}' for k, v in discounts.items())} train, "
               f"not off a {name} ({colour})")
    used(ctx, corp, sym, "train")
    return amount


def train_before_run(s, rs, corp: str) -> bool:
    """§12.5: a company owning Nederlandsche Fabriek may buy trains at any point of its turn."""
    return any(owned_by(s, p.sym, corp) for p in rs.privates if p.ability("early_trains"))


def cmd_save(ctx, cmd) -> None:
    """§12.5 (D7.3): a SAVED marker on one of the company's trains in its turn: Verveers' own, or
    one of Beyer Peacock's three, bought from the company that owns it for ƒ200 (ƒ50 to that
    company, ƒ150 to the bank). The train outlives its rusting once."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "save")
    sym = names.private(rs, cmd.get("private"))
    p = rs.private(sym)
    if not p.ability("saved_markers"):
        raise RuleViolation(f"{sym} has no SAVED markers")
    held = s.privates[sym]
    if held.closed or not str(held.owner).startswith("company:"):
        raise RuleViolation(f"{sym} is not owned by an open company... its markers are used by companies")
    owner = acct_name(held.owner)
    left = p.ability("saved_markers") - s.own.saved.get(sym, 0)
    if left <= 0:
        refuse(f"{sym}'s SAVED markers are all used")
    price = p.ability("saved_price", 0)
    if price and owner == corp:
        refuse(f"{sym}'s markers are sold to other companies (§12.5)")
    if not price and owner != corp:
        refuse(f"{sym}'s marker is for {owner}'s own trains")
    name = names.train(rs, cmd.get("type"))
    held = [t for t in sorted(s.corp_trains(corp)) if train_type(t) == name]
    if not held:
        raise RuleViolation(f"{corp} has no {name} train")
    train = next((t for t in held if not trains.flags(s, t).get("saved")), None)
    if train is None:
        refuse(f"every {name} of {corp} already carries a SAVED marker")
    transfers = []
    if price:
        turn_pay(ctx, corp, price)
        share = p.ability("saved_owner_share", 0)
        transfers = [[company_acct(corp), company_acct(owner), share], [company_acct(corp), BANK, price - share]]
    ctx.emit("train_saved", corp=corp, private=sym, train=train, price=price, transfers=[t for t in transfers if t[2]],
             flags={train: {"saved": True}})
    if p.ability("closes_on_use") and left <= 1:   # Verveers closes once its marker is used (§12.5)
        privates.close(ctx, [sym], reason=f"{corp} used its power")


def cmd_income(ctx, cmd) -> None:
    """§12.4, §12.5: what a player's NFLM earns on its own route this OR (counted twice toward a
    foreign company's income when it reaches that country, B30) or MEVS's new connections; paid by
    the bank to the owner."""
    s, rs = ctx.state, ctx.rs
    sym = names.private(rs, cmd.get("private"))
    p = rs.private(sym)
    if not p.ability("typed_income"):
        raise RuleViolation(f"{sym} pays its fixed revenue; only {', '.join(x.sym for x in rs.privates if x.ability('typed_income'))} "
                            f"earn what the table announces")
    held = s.privates[sym]
    if held.closed or not str(held.owner).startswith("player:"):
        refuse(f"{sym} earns this way only for a player owner (B19)")
    amount = names.amount(cmd.get("amount"), "the income")
    abroad = [country(w) for w in split(cmd.get("abroad"))] if cmd.get("abroad") else []
    if abroad and not p.ability("counts_abroad"):
        refuse(f"{sym}'s income does not count toward a foreign company's")
    key = f"{sym}:{s.round.get('set')}.{s.round.get('index')}"
    if p.ability("paid_per_company"):
        # MEVS (D0.1 #5): paid as each of its owner's companies operates, for that company's new connections
        corp = s.round.get("corp")
        if not corp or s.president(corp) != acct_name(held.owner):
            refuse(f"{sym} is paid while one of {acct_name(held.owner)}'s companies operates; "
                   f"{corp or 'no company'} is operating")
        key += f":{corp}"
    if key in s.own.incomes:
        refuse(f"{sym} has been paid this OR" + (f" for {s.round.get('corp')}" if p.ability("paid_per_company") else ""))
    ctx.emit("private_income", private=sym, amount=amount, abroad=abroad, key=key,
             transfers=[[BANK, held.owner, amount]] if amount else [])


# --------------------------------------------------------------------------- obsolescence (§12.1, D7.5)

def obsolete(s) -> bool:
    return bool(s.own.obsolete)


def brown_began(ctx, phase: str) -> None:
    """Brown (§17): a company's Beijnes becomes a brown train (B15: before the privates close);
    the privates become obsolete once the company that bought the first brown train finishes its
    turn (at once when a foreign company bought it)."""
    s, rs = ctx.state, ctx.rs
    if phase != OBSOLETE_PHASE:
        return
    for p in rs.privates:
        into = p.ability("converts_at_brown")
        held = s.privates[p.sym]
        if into and not held.closed and str(held.owner).startswith("company:"):
            corp = acct_name(held.owner)
            train = trains.next_depot_train(s, rs, into)
            if train:
                ctx.emit("beijnes_converted", private=p.sym, corp=corp, train=train,
                         trains=[[train, DEPOT, company_acct(corp)]])
            privates.close(ctx, [p.sym], reason=f"it became {corp}'s {into} train")
            train_step.check_limits(ctx)
    # a public company's first 7+: obsolete once it finishes its turn; a foreign company's: at once
    operating = (s.round.get("corp") if s.round.get("kind") == "operating" and not s.round.get("foreign_step")
                 else None)
    if operating:
        ctx.emit("obsolescence_due", corp=operating)
    else:
        make_obsolete(ctx)


OBSOLETE_PHASE = "brown"


def make_obsolete(ctx) -> None:
    s = ctx.state
    where = [s.round.get("kind"), s.round.get("set"), s.round.get("index"), s.round.get("pos")]
    ctx.emit("privates_obsolete", at=where)


def turn_ended(ctx, corp: str) -> None:
    """D7.5: the first brown train's buyer finishing its turn makes every private obsolete; a
    company whose turn began after that closes its obsolete privates as it finishes."""
    s = ctx.state
    spent = [p for p, a in s.privates.items() if a.owner == company_acct(corp) and not a.closed
             and "tile" in a.used and ctx.rs.private(p).ability("several_tiles")]
    if spent:   # IJzeren Rijn: its one use (any or all of its hexes) is over with the turn (§12.2)
        privates.close(ctx, spent, reason=f"{corp} used its power")
    due = s.own.obsolescence_due
    if due == corp:
        make_obsolete(ctx)
        return
    if not obsolete(s):
        return
    at = s.own.obsolete
    here = [s.round.get("kind"), s.round.get("set"), s.round.get("index"), s.round.get("pos")]
    if at[0] == "operating" and at[1:3] == here[1:3] and here[3] <= at[3]:
        return   # it was operating as the privates went obsolete: they close at its next turn's end
    mine = [p for p, a in s.privates.items() if a.owner == company_acct(corp) and not a.closed]
    if mine:
        privates.close(ctx, mine, reason="obsolete: its company finished its turn (§12.1)")


def players_obsolete_close(ctx) -> None:
    """D7.5 (B20): a player's obsolete private pays in the next OR's private step, then closes."""
    s = ctx.state
    if obsolete(s):
        mine = [p for p, a in s.privates.items() if str(a.owner).startswith("player:") and not a.closed]
        if mine:
            privates.close(ctx, mine, reason="obsolete: paid its last revenue (§12.1)")


def sr_obsolete_close(ctx) -> None:
    """D7.5: every obsolete private still open closes at the start of the next SR."""
    s = ctx.state
    if obsolete(s) or s.own.obsolescence_due:
        if not obsolete(s):
            make_obsolete(ctx)
        left = [p for p, a in s.privates.items() if a.owner and not a.closed]
        if left:
            privates.close(ctx, left, reason="obsolete: a stock round began (§12.1)")


def cmd_buy_private(ctx, cmd) -> None:
    """No company buys an obsolete private (§12.1)."""
    if obsolete(ctx.state):
        refuse("the privates are obsolete (brown): no company may buy one (§12.1)")
    operating.cmd_buy_private(ctx, cmd)


@event
class TilesLaidWithPrivate:
    corp: str
    private: str
    count: int
    fee: int
    terrain: int
    lays: int = 1

    def apply(s, e):
        # the turn's whole lay: no other tile, and (two or more tiles) no station (§8.2.3-8.2.4)
        # (§12.2: the power does not keep the company from placing a station marker)
        s.round = {**s.round, "tiles": max(s.round.get("tiles", 0) + 1, e.get("lays", 1)), "private_lay": True}

    def describe(e, rs):
        return (f"{e['corp']} lays {e['count']} tile(s) with {e['private']} for {rs.money(e['fee'])}"
                + (f" + {rs.money(e['terrain'])} terrain" if e["terrain"] else ""))


@event
class TrainSaved:
    corp: str
    private: str
    train: str
    price: int = 0

    def apply(s, e):
        saved = dict(s.own.saved)
        saved[e["private"]] = saved.get(e["private"], 0) + 1
        s.own.saved = saved

    def describe(e, rs):
        paid = f" for {rs.money(e['price'])}" if e["price"] else ""
        return f"{e['corp']} puts {e['private']}'s SAVED marker on its {e['train'].rsplit('.', 1)[0]}{paid}"


@event
class PrivateIncome:
    private: str
    amount: int
    abroad: list
    key: str

    def apply(s, e):
        s.own.incomes = [*s.own.incomes, e["key"]]
        s.own.private_runs = {**s.own.private_runs, e["private"]: {"revenue": e["amount"], "abroad": list(e["abroad"])}}

    def describe(e, rs):
        return (f"{e['private']} earns {rs.money(e['amount'])}"
                + (f", reaching {', '.join(e['abroad'])}" if e["abroad"] else ""))


@event
class ObsolescenceDue:
    """The first brown train: the privates go obsolete when its buyer finishes its turn (§12.1)."""
    corp: str

    def apply(s, e):
        s.own.obsolescence_due = e["corp"]

    def describe(e, rs):
        return f"the privates become obsolete when {e['corp']} finishes its turn"


@event
class PrivatesObsolete:
    at: list

    def apply(s, e):
        s.own.obsolete, s.own.obsolescence_due = list(e["at"]), None

    def describe(e, rs):
        return "every private is obsolete: no company may buy one; each closes at its next closing point (§12.1)"


@event
class BeijnesConverted:
    private: str
    corp: str
    train: str

    def describe(e, rs):
        return f"{e['private']} becomes {e['corp']}'s {e['train'].rsplit('.', 1)[0]} train"


# --------------------------------------------------------------------------- the stock-round powers (§12.5, D7.4)

def player_power(ctx, raw_player, raw_private, ability: str) -> tuple[str, str]:
    s, rs = ctx.state, ctx.rs
    player = names.player(s, raw_player)
    sym = names.private(rs, raw_private)
    if not rs.private(sym).ability(ability):
        raise RuleViolation(f"{sym} has no such power")
    held = s.privates[sym]
    if held.owner != player_acct(player) or held.closed:
        raise RuleViolation(f"{player} does not own an open {sym}")
    return player, sym


def ipo_bought(s, rs, corp: str) -> int:
    """The percent bought from the IPO (B13: Spoorwegwerken Oost's free 10 % does not count)."""
    gone = 100 - shares.ipo_percent(s, rs, corp)
    given = s.own.draws.get("oost") == corp and s.privates[SWO].owner is not None
    return gone - (SWO_SHARE if given else 0)


SWO_SHARE = 10


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
        certs = [c for c in shares.ordinary_certs(s, shares.unsold_acct(s, rs, corp), corp)][:ESCROWED]
        ctx.emit("floated", corp=corp, capital=FORCED_CAPITAL * par,
                 transfers=[[BANK, company_acct(corp), FORCED_CAPITAL * par]])
        ctx.emit("escrowed_to_pool", corp=corp, par=par,
                 certs=[[c, shares.unsold_acct(s, rs, corp), POOL] for c in certs])


FORCED_CAPITAL = 7    # §12.5: "70 % capitalised"
ESCROWED = 3          # §12.5: three 10 % certificates to the pool, each holding par for the company


def escrow_paid(ctx, player: str, corp: str, source: str, cert: str) -> None:
    """D14.12: a player buying an escrowed certificate from the pool releases its par to the company."""
    s = ctx.state
    held = s.own.escrow
    if source == "pool" and cert in held:
        ctx.emit("escrow_released", corp=corp, certificate=cert, amount=held[cert],
                 transfers=[[BANK, company_acct(corp), held[cert]]])


def sr_floats_noted(ctx) -> None:
    """The companies floated as a stock round begins (Ketwich & Voombergh re-pars one floated in it)."""
    ctx.emit("floats_noted", floated=[sym for sym, c in ctx.state.corps.items() if c.floated])


def cmd_repar(ctx, cmd) -> None:
    """Ketwich & Voombergh (§12.5, B14): on his turn its owner re-pars a company he directs that
    floated in this stock round, at a par open now; the marker moves there (under others) and the
    bank brings the treasury to 10 x the new par (or takes the difference). It then closes."""
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
    transfers = ([[BANK, company_acct(corp), change]] if change > 0 else
                 [[company_acct(corp), BANK, -change]] if change < 0 else [])
    if change < 0 and s.cash(company_acct(corp)) < -change:
        refuse(f"{corp} has {rs.money(s.cash(company_acct(corp)))} and cannot give back {rs.money(-change)}")
    ctx.emit("reparred", player=player, corp=corp, old=c.par, price=price, transfers=transfers,
             moves=[[corp, list(c.cell), list(market.par_cell(rs, price))]])
    privates.close(ctx, [sym], reason=f"{player} used its power")


def cmd_charge(ctx, cmd) -> None:
    """Rotterdamsche Bank (§12.5): the company owning it charges its director for a station, track
    or train cost in its turn: the director pays the company that much."""
    s, rs = ctx.state, ctx.rs
    corp = operating_corp(ctx, cmd.get("corp"), "charge")
    owns = [p.sym for p in rs.privates if p.ability("charges_director") and owned_by(s, p.sym, corp)]
    if not owns:
        raise RuleViolation(f"{corp} owns no private that charges its director (Rotterdamsche Bank)")
    amount = names.amount(cmd.get("amount"), "the charge")
    director = s.president(corp)
    have = s.cash(player_acct(director))
    if have < amount:
        raise RuleViolation(f"{director} has {rs.money(have)}, not {rs.money(amount)}",
                            f"{director} sells shares first (sell {director} CORP N)")
    ctx.emit("director_charged", corp=corp, player=director, amount=amount, private=owns[0],
             transfers=[[player_acct(director), company_acct(corp), amount]])


@event
class FloatDeclared:
    player: str
    private: str
    corp: str
    need: int

    def apply(s, e):
        s.round = {**s.round, "forced": [*s.round.get("forced", []), [e["corp"], e["need"]]]}

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
                f"{e['corp']} until bought")


@event
class EscrowReleased:
    corp: str
    certificate: str
    amount: int

    def apply(s, e):
        s.own.escrow = {c: v for c, v in s.own.escrow.items() if c != e["certificate"]}

    def describe(e, rs):
        return f"the bank pays {e['corp']} the {rs.money(e['amount'])} its pool share held"


@event
class FloatsNoted:
    floated: list

    def apply(s, e):
        s.round = {**s.round, "floated_before": list(e["floated"])}


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


@event
class DirectorCharged:
    corp: str
    player: str
    amount: int
    private: str

    def describe(e, rs):
        return f"{e['corp']} charges its director {e['player']} {rs.money(e['amount'])} ({e['private']})"


@event
class ForeignStepBegun:
    """The public companies have operated; the foreign companies operate now (§8.3)."""

    def apply(s, e):
        s.round = {**s.round, "foreign_step": True}
