"""18Chesapeake's two-player variant (digest shared/rules/18chesapeake.md "D13", RULES §13; R18
`setup`, `float_corporation`, `share_pool.rb`, `round/stock.rb`), played by itself in a game of the
[two_player] table's player count. The numbers are in ruleset.toml's [two_player]:

* **Setup** (§13.1): every company's president's certificate is 30 %, its last 10 % certificate
  leaving the game, except the company whose president's certificate a private brings (Cornelius
  Vanderbilt's: 20 % and eight 10 %). Starting one costs 3 x par (the shared par charges the
  certificate's percent).
* **Floatation** (§13.2): on floating (60 % sold), every share still in the IPO goes to the pool,
  bought from then on at the market price; pool shares pay the company.
* **Non-president purchases** (§13.3): before a player who is not a company's president buys one
  of its shares while the pool holds some, the pool's highest-numbered share leaves the game.
* **Sold out** at the end of a stock round: floated with no share in the pool (the IPO is empty):
  the shared rule, removed shares held by nobody. Removed shares pay nobody.
"""

from __future__ import annotations

from ledger.core.errors import refuse
from ledger.core.events import event
from ledger.core.ruleset import Knob
from ledger.core.rules import shares
from ledger.core.state import POOL, REMOVED

KNOBS = {"two_player": {
    "players": Knob(int, None, 0),              # D13: the variant plays by itself with this many (0: never)
    "president_percent": Knob(int, None, 30),   # D13 setup: the president's certificate
    "ipo_to_pool_on_float": Knob(bool, None, True),      # D13 floatation
    "non_president_removes": Knob(bool, None, True),     # D13 non-president purchases
}}


def k(rs, name: str):
    return rs.k("two_player", name)


def playing(s, rs) -> bool:
    """A game of the variant's player count, begun with its setup (a 2-player game stored before the
    variant was built keeps the standard rules it began with)."""
    return variant_due(s, rs) and any(s.cert_percent.get(pres) == k(rs, "president_percent")
                                      for pres in s.presidents.values())


def variant_due(s, rs) -> bool:
    """A game of the variant's player count."""
    return bool(k(rs, "players")) and len(s.players) == k(rs, "players")


def index(cert: str) -> int:
    return int(cert.rsplit(".", 1)[1])


# =========================================================================== setup

def setup(ctx) -> None:
    """§13.1: the 30 % president's certificates; each such company's last certificates leave the
    game (their percent is the president's certificate's now: the company is still 100 %)."""
    s, rs = ctx.state, ctx.rs
    if not variant_due(s, rs):
        return
    brought = {p.ability("bonus_president") for p in rs.privates if p.ability("bonus_president")}
    pres_pct, percents, moves, corps = k(rs, "president_percent"), {}, [], []
    for c in rs.corporations:
        pres = s.presidents.get(c.sym)
        if pres is None or c.sym in brought:
            continue
        extra = pres_pct - s.cert_percent[pres]
        ipo = shares.unsold_acct(s, rs, c.sym)
        last = sorted((cert for cert in s.certs_of(ipo, c.sym) if cert != pres), key=index, reverse=True)
        gone, freed = [], 0
        for cert in last:
            if freed >= extra:
                break
            gone.append(cert)
            freed += s.cert_percent[cert]
        if freed != extra:
            continue
        percents[pres] = pres_pct
        percents |= {cert: 0 for cert in gone}
        moves += [[cert, ipo, REMOVED] for cert in gone]
        corps.append(c.sym)
    if corps:
        ctx.emit("two_player_setup", corps=corps, percent=pres_pct, removed=[m[0] for m in moves],
                 percents=percents, certs=moves)


# =========================================================================== floatation

def ipo_to_pool(ctx, corp: str) -> None:
    """§13.2: "remaining shares are transferred to the Market" as the company floats."""
    s, rs = ctx.state, ctx.rs
    if not playing(s, rs) or not k(rs, "ipo_to_pool_on_float"):
        return
    ipo = shares.unsold_acct(s, rs, corp)
    left = sorted(s.certs_of(ipo, corp), key=index)
    if left:
        ctx.emit("ipo_to_pool", corp=corp, percent=sum(s.cert_percent[c] for c in left),
                 certs=[[c, ipo, POOL] for c in left])


# =========================================================================== non-president purchases

def non_president_purchase(ctx, player: str, corp: str, source: str, cert: str) -> None:
    """§13.3: a player who is not the company's president buys one of its shares while the pool
    holds some: first the pool's highest-numbered share leaves the game. Where that is the pool's
    only share and he buys it, nothing would be left to buy (D17 #4): refused."""
    s, rs = ctx.state, ctx.rs
    if not playing(s, rs) or not k(rs, "non_president_removes") or s.president(corp) == player:
        return
    pool = sorted(shares.ordinary_certs(s, POOL, corp), key=index)
    if source == "pool" and not pool:
        refuse(f"the pool holds one {corp} share: before {player}'s purchase, as he is not {corp}'s president, "
               f"it leaves the game (§13.3), and nothing is left to buy")
    if pool:
        gone = pool[-1]
        ctx.emit("share_removed", player=player, corp=corp, cert=gone, percent=s.cert_percent[gone],
                 certs=[[gone, POOL, REMOVED]])


# =========================================================================== registration, info

def info_lines(rs) -> list[str]:
    if not k(rs, "players"):
        return []
    return [f"Two-player game (§13, with {k(rs, 'players')} players): {k(rs, 'president_percent')} % president's "
            f"certificates (not Cornelius Vanderbilt's company), the last share out of the game; on floating the "
            f"IPO's shares go to the pool; a non-president's purchase first takes the pool's last share out"]


def register(reg) -> None:
    reg.on("game_started", setup)
    reg.on("floated", ipo_to_pool)
    reg.on("share_bought", non_president_purchase)
    reg.rule("info_lines", info_lines)


# =========================================================================== events

@event
class TwoPlayerSetup:
    """§13.1: the companies' president's certificates at `percent`, their last shares removed."""
    corps: list[str]
    percent: int
    removed: list[str]
    percents: dict[str, int]

    def apply(s, e):
        s.cert_percent.update(e["percents"])

    def describe(e, rs):
        return (f"two-player game (§13.1): the president's certificates of {', '.join(e['corps'])} are "
                f"{e['percent']}%; their last shares leave the game ({', '.join(e['removed'])})")


@event
class IpoToPool:
    """§13.2: on floating, the IPO's shares go to the pool."""
    corp: str
    percent: int

    def describe(e, rs):
        return f"{e['corp']}'s {e['percent']}% left in the IPO goes to the pool (§13.2)"


@event
class ShareRemoved:
    """§13.3: a non-president's purchase takes the pool's highest-numbered share out of the game."""
    player: str
    corp: str
    cert: str
    percent: int

    def describe(e, rs):
        return (f"{e['player']} is not {e['corp']}'s president: a {e['percent']}% share of {e['corp']} leaves the "
                f"game from the pool (§13.3)")
