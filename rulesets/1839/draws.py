"""1839's draws, discount chips and auction (rules: shared/seeds/003_aa544c940024c360.txt "§x";
digest shared/rules/1839.md "D x"), the first round of the game:

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
  company buys a train (§12.3), and its company has a second home station (§4, §12.3).

Every number is in ruleset.toml's [draws] (the defaults below are the rules' own, for games stored
before the section existed).
"""

from __future__ import annotations

import random

from ledger.core import names
from ledger.core.errors import RuleViolation, refuse
from ledger.core.events import event
from ledger.core.grammar import Arg, Opt, TitleGrammar, Verb
from ledger.core.plays import Bounds, Picks, Text
from ledger.core.round_kind import RoundKind, known_round
from ledger.core.rules import market, privates, shares
from ledger.core.ruleset import Knob
from ledger.core.state import BANK, DEPOT, UNUSED, acct_name, company_acct, player_acct

from .common import foreign_companies, split

# The privates' colours decide the draws: yellow start on charters, every green is auctioned,
# so many blue and brown are drawn (§4).
PRIVATE_ABILITIES = {"colour": str}


# How `bank info` says these abilities (ledger.interface.powers reads them through the title's parts).
ABILITY_WORDS = {
    "colour": lambda v, rs: f"{v} private",
}
ROUND_KINDS = ("draws",)
# the draws' steps (§4): which step, whose turn, the chips left and the discounts chosen
ROUND_FIELDS = {"draws": {"step": "str", "turn": "int", "chips": "list[int]", "discounts": "dict"}}
KNOBS = {"draws": {
    "drawn": Knob(dict, None, {"blue": 2, "brown": 2}),        # §4: privates of each colour drawn
    "chips": Knob(list, None, [60, 60, 60, 40, 40, 40]),       # §6.1: three ƒ60 and three ƒ40 discounts
    "raise": Knob(int, None, 20),                              # §6.2: a discount added in the auction
    "director_private": Knob(str, None, "RWS"),                # §12.3: brings its company's director's ...
    "director_par": Knob(int, None, 101),                      # ... certificate, parred at ƒ101 whatever the phase
    "share_private": Knob(str, None, "SWO"),                   # §12.3: brings a certificate of its company ...
    "share_percent": Knob(int, None, 10),                      # ... of 10 %
    "foreign_pars": Knob(list, None, [67, 72, 80]),            # §4: the foreign companies' pars, drawn
    "extra_train": Knob(str, None, "5+"),                      # §4: the optional sixth blue train ...
    "extra_train_if": Knob(list, None, [["JJB"], ["VV", "CM"]]),   # ... with Beijnes, or Verveers and Credit Mobilier
}}


def k(rs, name: str):
    return rs.k("draws", name)


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


# =========================================================================== the draws

def start(ctx, priority: int = 0, **_carry) -> None:
    ctx.emit("round_started", round={"kind": "draws", "step": "deal", "turn": 0, "chips": list(k(ctx.rs, "chips")),
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
        if names.whole_number(seed, "the seed") < 0:
            refuse(f"a seed is a whole number from 0, not {seed}")
        drawn = random_draws(s, rs, names.whole_number(seed, "the seed"))
    else:
        drawn = typed_draws(s, rs, cmd)
    out = [sym for colour in k(rs, "drawn") for sym in of_colour(rs, colour) if sym not in drawn["privates"]]
    keeps_extra = any(all(sym in drawn["privates"] for sym in need) for need in k(rs, "extra_train_if"))
    sixth = k(rs, "extra_train")
    extra = f"{sixth}.{next(t.count for t in rs.trains if t.name == sixth)}"
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
    for colour, count in k(rs, "drawn").items():
        got = [sym for sym in drawn if colour_of(rs, sym) == colour]
        if len(got) != count:
            raise RuleViolation(f"§4 draws {count} {colour} privates for the auction, got {len(got)}"
                                + (f" ({', '.join(got)})" if got else ""),
                                f"{colour} privates: {', '.join(of_colour(rs, colour))}")
    wrong = [sym for sym in drawn if colour_of(rs, sym) not in k(rs, "drawn")]
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
    return {"privates": drawn, "rws": rws, "oost": oost, "foreign": foreign_pars(rs, cmd.get("foreign")),
            "order": player_order(s, cmd.get("order"))}


def random_draws(s, rs, seed: int) -> dict:
    """`--random SEED`: the program draws, from the seed, what the table would (the seed is recorded,
    so the draws can be checked)."""
    rng = random.Random(seed)
    drawn = [sym for colour, count in k(rs, "drawn").items() for sym in sorted(rng.sample(of_colour(rs, colour), count))]
    rws, oost = rng.sample(publics(rs), 2)
    pars = list(k(rs, "foreign_pars"))
    rng.shuffle(pars)
    order = list(s.players)
    rng.shuffle(order)
    return {"privates": drawn, "rws": rws, "oost": oost, "foreign": dict(zip(foreign_companies(rs), pars)), "order": order}


def publics(rs) -> list[str]:
    """The public companies (those with a director)."""
    return [c.sym for c in rs.corporations if rs.starting_kind(c.sym).president]


def foreign_pars(rs, raw) -> dict:
    """OZ=67,BEL=72,DUI=80: each foreign company on one of the yellow pars (§4)."""
    out, foreign, pars = {}, foreign_companies(rs), k(rs, "foreign_pars")
    for part in split(raw):
        sym, _, price = part.partition("=")
        sym = sym.upper()
        if sym not in foreign or not price:
            raise RuleViolation(f"--foreign takes {'=PAR,'.join(foreign)}=PAR, got {part!r}")
        out[sym] = names.whole_number(price, f"{sym}'s par")
    if sorted(out.values()) != sorted(pars) or set(out) != set(foreign):
        raise RuleViolation(f"the three foreign companies take the three yellow pars "
                            f"{', '.join(map(str, pars))}, one each (§4), got {raw}")
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
        amount = k(rs, "raise") if raw is None else names.amount(raw, "the discount")
        if amount != k(rs, "raise"):
            refuse(f"an auction discount is {rs.money(k(rs, 'raise'))} (§6.2), not {rs.money(amount)}")
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
                            f"discount {player} PRIVATE (adds {rs.money(k(rs, 'raise'))})")
    award(ctx, player, sym, price, forced=False)
    after_sale(ctx, s.next_player(s.round["turn"]))


def award(ctx, player: str, sym: str, price: int, forced: bool) -> None:
    """The private to its buyer with the certificates it brings (§12.3)."""
    s, rs = ctx.state, ctx.rs
    draws = s.own.draws
    certs, par = [], None
    if sym == k(rs, "director_private"):
        corp = draws["rws"]
        certs.append([s.presidents[corp], shares.unsold_acct(s, rs, corp), player_acct(player)])
        par = corp
    elif sym == k(rs, "share_private"):
        corp = draws["oost"]
        cert = shares.next_ipo_cert(s, rs, corp)
        if cert:
            certs.append([cert, shares.unsold_acct(s, rs, corp), player_acct(player)])
    ctx.emit("private_bought", player=player, private=sym, price=price, normal=not forced,
             transfers=[[player_acct(player), BANK, price]] if price else [], certs=certs)
    if par:
        # B17: the marker goes down at ƒ101 when the private is acquired
        ctx.emit("par", player=player, corp=par, price=k(rs, "director_par"),
                 moves=[[par, None, list(market.par_cell(rs, k(rs, "director_par")))]])


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
        return "{command}"
    return "deal --privates, --rijkswaterstaat, --oost, --foreign and --order as drawn, or the bank draws ({command})"


def deal_bars(s, rs) -> list[str]:
    return [] if s.round.get("step") in ("deal", "redeal") else ["the draws are made once, before the discounts (§4)"]


def deal_words(s, rs, _who, args, option: str):
    """What each word of `deal` may be: in the draws, a seed (--random), or what the table drew (the
    privates, the two companies, the foreign pars, as free words the rule checks, each tried with
    what a draw could give); the card order, every player once, then and when dealt again."""
    step = s.round.get("step")
    if option == "order":
        return Picks(tuple(s.players), ordered=True) if step in ("deal", "redeal") else []
    if step != "deal":
        return []
    if option == "seed":
        return Bounds(0)
    if option in ("rws", "oost"):
        return list(publics(rs))
    if option == "privates":
        drawn = [sym for colour, count in k(rs, "drawn").items() for sym in of_colour(rs, colour)[:count]]
        return Text(f"the privates drawn ({', '.join(f'{n} {c}' for c, n in k(rs, 'drawn').items())}), "
                    f"comma-separated", probe=",".join(drawn))
    pars = dict(zip(foreign_companies(rs), k(rs, "foreign_pars")))
    return Text("each foreign company's par, comma-separated", probe=",".join(f"{c}={p}" for c, p in pars.items()))


DEAL_WORDS = {key: (lambda key: lambda s, rs, who, args: deal_words(s, rs, who, args, key))(key)
              for key in ("seed", "order", "privates", "rws", "oost", "foreign")}


def discount_bars(s, rs) -> list[str]:
    if s.round.get("step") not in ("chips", "auction"):
        return ["discounts are placed after the draws (§6.1) and in the auction (§6.2)"]
    return []


def discount_amounts(s, rs, player, args) -> list[str]:
    if s.round.get("step") == "chips":
        return [str(c) for c in sorted(set(s.round["chips"]), reverse=True)]
    return [str(k(rs, "raise"))]


def discount_phrase(s, rs, players) -> str:
    if s.round.get("step") == "chips":
        return f"place a discount chip, {chip_values(s)} ({{command}})"
    return f"add {rs.money(k(rs, 'raise'))} to one ({{command}})"


def buy_bars(s, rs) -> list[str]:
    if s.round.get("step") != "auction":
        return ["privates are bought in the auction, after the draws and the discounts (§6)"]
    return []


def buy_phrase(s, rs, players) -> str:
    offers = ", ".join(f"{sym} {rs.money(price_now(s, rs, sym))}" for sym in unsold(s, rs))
    return f"{{command}} (a private: {offers})"


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


# =========================================================================== Rijkswaterstaat's company

def rws_closes(ctx, corp: str, _train: str) -> None:
    """§12.3: Rijkswaterstaat closes when its company buys a train (B17: any train)."""
    s, rws = ctx.state, k(ctx.rs, "director_private")
    if s.own.draws.get("rws") == corp and s.privates[rws].owner and not s.privates[rws].closed:
        privates.close(ctx, [rws], reason=f"{corp} bought a train (§12.3)")


def extra_homes(s, corp: str) -> int:
    """§4, §12.3: the company tied to Rijkswaterstaat has an additional home station in Emmen (D19)."""
    return 1 if s.own.draws.get("rws") == corp else 0


# =========================================================================== status, info, grammar, registration

def status_lines(s, rs) -> list[str]:
    """What was drawn, and in the auction each private's discounts and price."""
    draws = s.own.draws
    out = [f"Draws: Rijkswaterstaat -> {draws['rws']} director's certificate at {rs.money(k(rs, 'director_par'))}; "
           f"Spoorwegwerken Oost -> a {k(rs, 'share_percent')}% share of {draws['oost']}; foreign pars "
           + ", ".join(f"{sym} {rs.money(v)}" for sym, v in draws["foreign"].items())]
    if s.round.get("kind") == "draws":
        chips = s.round["chips"]
        out.append("Auction: " + ", ".join(
            f"{sym} {rs.money(price_now(s, rs, sym))}" + (f" (face {rs.money(rs.private(sym).face)} less "
                                                          f"{rs.money(discount_on(s, sym))})" if discount_on(s, sym) else "")
            for sym in unsold(s, rs)) + (f"; chips left {', '.join(rs.money(c) for c in chips)}" if chips else ""))
    return out


def status_data(s, rs) -> dict:
    """In the auction: the chips left, the discounts and each unsold private's price."""
    if s.round.get("kind") != "draws":
        return {}
    return {"auction": {"chips": list(s.round["chips"]), "discounts": dict(s.round["discounts"]),
                        "prices": {sym: price_now(s, rs, sym) for sym in unsold(s, rs)}}}


def info_lines(rs) -> list[str]:
    drawn, extra = k(rs, "drawn"), k(rs, "extra_train")
    return [f"Draws (§4): every green private and {drawn['blue']} blue and {drawn['brown']} brown in the auction; "
            f"discount chips {', '.join(rs.money(c) for c in k(rs, 'chips'))}, then {rs.money(k(rs, 'raise'))} a turn "
            f"in the auction; Rijkswaterstaat brings a director's certificate parred at "
            f"{rs.money(k(rs, 'director_par'))}, Spoorwegwerken Oost a {k(rs, 'share_percent')} % certificate; "
            f"the sixth {extra} with Beijnes, or Verveers and Credit Mobilier"]


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
              Opt("--random", "seed", help="draw everything here from this seed, and print it")), label="Record the draws"),
        Verb("discount", "auction", "Put a discount chip (60 or 40) on an auction private, or in the auction add "
             "ƒ20 to one (1839 §6).", "bank discount Alice SWO 60",
             (Arg("player", "player"), Arg("private", "private"), Arg("amount", "amount", optional=True)), label="Place a discount"),
    ),
)


def register(reg) -> None:
    reg.round(DRAWS)
    reg.rule("info_lines", info_lines)
    reg.verb("deal", cmd_deal, "draws", elsewhere="the draws are typed once, as the game starts (§4)",
             when=deal_bars, candidates=DEAL_WORDS, phrase=deal_phrase,
             together=(("privates", "rws", "oost", "foreign", "order"),))
    reg.verb("buy", cmd_buy, "draws", when=buy_bars, candidates={"item": lambda s, rs, who, args: unsold(s, rs)},
             phrase=buy_phrase, reads=("item",))
    reg.verb("discount", cmd_discount, "draws", elsewhere="discounts are placed before and in the auction (§6)",
             when=discount_bars, candidates={"private": lambda s, rs, who, args: unsold(s, rs),
                                             "amount": discount_amounts}, phrase=discount_phrase)
    reg.on("game_started", place_yellow_privates)
    reg.on("train_bought", rws_closes)
    reg.rule("extra_homes", extra_homes)


# =========================================================================== events

@event
class DrawsDealt:
    """What was drawn at the table (§4): the blue and brown privates in the auction, the companies
    tied to Rijkswaterstaat and Spoorwegwerken Oost, the foreign pars, the card order."""
    privates: list[str]
    rws: str
    oost: str
    foreign: dict[str, int]
    order: list[str]
    seed: int = None

    def apply(s, e):
        s.own.draws = {k: e[k] for k in ("privates", "rws", "oost", "foreign")}

    def describe(e, rs):
        drawn = f" (drawn from seed {e['seed']})" if e.get("seed") is not None else ""
        extra = "; the sixth 5+ leaves the game" if e.get("trains") else ""
        return (f"draws{drawn}: {', '.join(e['privates'])} join the auction; Rijkswaterstaat brings {e['rws']}'s "
                f"director's certificate, Spoorwegwerken Oost a 10% share of {e['oost']}; foreign pars "
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
        r = {"discounts": {**s.round["discounts"], e["private"]: e["total"]}}
        if e.get("chip"):
            chips = list(s.round["chips"])
            chips.remove(e["amount"])
            r["chips"] = chips
        s.round = s.round.but(**r)

    def describe(e, rs):
        costs = max(0, rs.private(e["private"]).face - e["total"])
        return (f"{e['player']} puts a {rs.money(e['amount'])} discount on {e['private']}: "
                f"{rs.money(e['total'])} off in all, it now costs {rs.money(costs)}")


@event
class DrawsStep:
    step: str
    turn: int

    def apply(s, e):
        s.round = s.round.but(step=e["step"], turn=e["turn"])


