"""A private's powers as words for `bank info` (the data's ability names, `exchange_from=['ipo',
'pool']`, are the engine's: a player reads "exchanged for a NYC share from the IPO or the pool")."""

from __future__ import annotations

from ledger.core.plays import join_words


def listed(v) -> str:
    """'a, b or c' (the Next line's joining), 'none' for nothing."""
    return join_words([str(x) for x in v]) or "none"


def places(v) -> str:
    return listed({"ipo": "the IPO", "pool": "the pool"}.get(x, x) for x in v)


# each shared ability (ledger.core.ruleset's): its words, given its value and the ruleset (for money);
# a False switch says nothing. A title's own abilities have their words in its features (ABILITY_WORDS).
PHRASES = {
    "starts_with": lambda v, rs: f"{v} owns it from the start",
    "extra_tile_lay": lambda v, rs: "lays an extra tile",
    "extra_tile_cost": lambda v, rs: f"the extra tile costs {rs.money(v)}",
    "tile_fee": lambda v, rs: f"a fee of {rs.money(v)} a tile",
    "several_tiles": lambda v, rs: "several in the turn it is first used",
    "track_step_only": lambda v, rs: f"only in the track step ({v})",
    "special_tile_cost": lambda v, rs: f"a tile on its hex for {rs.money(v)}",
    "free_token_after_tile": lambda v, rs: "then a free station there",
    "exchange_for": lambda v, rs: f"exchanged for a {v} share",
    "exchange_from": lambda v, rs: f"from {places(v)}",
    "bonus_share": lambda v, rs: f"comes with a {v} share",
    "bonus_president": lambda v, rs: f"comes with the {v} president's certificate",
    "par_colours": lambda v, rs: f"its company pars in the {listed(v)} boxes",
    "closes_on_first_train_of": lambda v, rs: f"closes when {v} buys a train",
    "no_company_sale": lambda v, rs: "never sold to a company",
    "closes_on_use": lambda v, rs: "closes once used",
    "survives_phase_close": lambda v, rs: "stays open when the phase closes privates",
    "station_tile_fee": lambda v, rs: f"a tile and a station on its hex for {rs.money(v)}",
    "company_buy_early": lambda v, rs: f"a company may buy it at face early with {listed(v)} players",
    "revenue_company": lambda v, rs: f"pays {rs.money(v)} to a company owner",
    "min_players": lambda v, rs: f"in play with {v} or more players",
    "max_players": lambda v, rs: f"in play with {v} or fewer players",
    "survives_phase_close_with": lambda v, rs: f"stays open when the phase closes privates while a {v} owns it",
    "revenue_then": lambda v, rs: f"pays {rs.money(v)}",   # said with revenue_from_phase after it
    "revenue_from_phase": lambda v, rs: f"from phase {v}",
}


def words(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return listed(words(v) for v in value)
    return str(value)


def power_text(abilities: dict, rs) -> str:
    """A private's abilities as one phrase each, joined; an ability without words of its own reads
    as its name and value ("some ability 3")."""
    out = ""
    for key, value in abilities.items():
        if value is False or value is None:
            continue
        phrase = PHRASES.get(key) or rs.parts.ability_words.get(key)
        text = phrase(value, rs) if phrase else key.replace("_", " ") + ("" if value is True else f" {words(value)}")
        # a phrase that goes on from the one before ("from the pool", "or £20 in all") joins it
        out += (" " if text.startswith(GOES_ON) else "; ") + text if out else text
    return out or "-"


GOES_ON = ("from ", "then ", "or ", "of which ", "by the ", "with ", "before ", "only ")
