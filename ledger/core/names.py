"""Turning what the banker typed into the names the state uses.

Names match case-insensitively; a unique prefix of a player's name is enough. Unknown names get a
'did you mean' hint.
"""

from __future__ import annotations

import re

from ledger.core.errors import CommandError, nearest, one_of, unknown
from ledger.core.ruleset import SHELL_SAFE, Ruleset
from ledger.core.state import GameState


def player(s: GameState, raw: str) -> str:
    text = str(raw).strip().lower()
    exact = [p for p in s.players if p.lower() == text]
    if exact:
        return exact[0]
    prefixed = [p for p in s.players if p.lower().startswith(text)]
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        raise CommandError(f"'{raw}' could be {', '.join(prefixed)}", "type more of the name")
    raise unknown("player", raw, s.players)


def corp(rs: Ruleset, raw: str) -> str:
    return _symbol(rs, "company", raw, rs.corporations)


def private(rs: Ruleset, raw: str) -> str:
    return _symbol(rs, "private", raw, rs.privates)


def item(rs: Ruleset, raw: str) -> tuple[str, str]:
    """A private or a company: ('private', sym) or ('corp', sym)."""
    for kind, table in (("private", rs.privates), ("corp", rs.corporations)):
        sym = _match(rs, raw, table)
        if sym:
            return kind, sym
    raise unknown_symbol(rs, "private or company", raw, [*rs.privates, *rs.corporations])


def _symbol(rs: Ruleset, kind: str, raw: str, table) -> str:
    sym = _match(rs, raw, table)
    if sym is None:
        raise unknown_symbol(rs, kind, raw, table)
    return sym


def _match(rs: Ruleset, raw: str, table) -> str | None:
    """A symbol by its symbol, its plain alias or its name (any case); failing those, by the symbol
    with its shell-special characters left out, when that names nothing else in the title."""
    exact, loose, taken, seen = _words(rs, table)
    try:
        return seen[raw]
    except (KeyError, TypeError):
        pass
    text = str(raw).strip().lower()
    if text in exact:
        found = exact[text]
    else:
        loosely = loose.get(plain(text), ())
        found = loosely[0] if len(loosely) == 1 and plain(text) not in taken else None
    if isinstance(raw, str) and len(seen) < 5000:   # the words met, once each (a table's names are fixed)
        seen[raw] = found
    return found


_WORDS: dict = {}


def _words(rs: Ruleset, table) -> tuple[dict, dict, set, dict]:
    """A table's words, read once per ruleset (every command resolves its names here): each
    symbol, alias and name in lower case -> the symbol (the first entry wins, as the table reads),
    each plain symbol -> its symbols, and the title's taken words."""
    key = (id(rs), id(table))
    found = _WORDS.get(key)
    if found is None or found[0] is not rs or found[1] is not table:
        exact: dict = {}
        for entry in table:
            for word in (entry.sym.lower(), entry.alias.lower(), entry.name.lower()):
                exact.setdefault(word, entry.sym)
        loose: dict = {}
        for entry in table:
            loose.setdefault(plain(entry.sym), []).append(entry.sym)
        found = (rs, table, exact, {k: tuple(v) for k, v in loose.items()}, taken_words(rs), {})
        _WORDS[key] = found
    return found[2], found[3], found[4], found[5]


def plain(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def taken_words(rs: Ruleset) -> set[str]:
    """Every symbol and alias of the title, as typed plainly: a loose match may not be one."""
    return {w.lower() for e in (*rs.corporations, *rs.privates) for w in (e.sym, e.alias) if w}


def unknown_symbol(rs: Ruleset, kind: str, raw: str, table) -> CommandError:
    """An unknown symbol, with a hint that never leads back into the shell's trap: a symbol with a
    character the shell treats specially ('&') is suggested by its plain alias or quoted."""
    text = str(raw).strip()
    cut = [e for e in table if e.alias and text and e.sym.lower().startswith(text.lower())
           and not e.sym[len(text):len(text) + 1].isalnum()]
    if cut:
        first = cut[0]
        options = " or ".join(f"{e.alias} for {e.sym}" for e in cut)
        error = CommandError(f"unknown {kind} '{raw}'", f"a shell cuts {first.sym} at '{first.sym[len(text)]}': "
                                                        f"type {options}, or quote it: '{first.sym}'")
        error.literal_hint = True  # it names the symbol itself, to say why the shell cut it
        return error
    spelled = {w: e for e in table for w in (e.sym, e.alias) if w}   # B&O is typed BnO too
    near = nearest(text, list(spelled))
    if not near:
        return CommandError(f"unknown {kind} '{raw}'", "known: " + ", ".join(typed(e) for e in table))
    entries = list({id(spelled[w]): spelled[w] for w in near}.values())
    return CommandError(f"unknown {kind} '{raw}'", f"did you mean {one_of([typed(e) for e in entries])}?")


def typed(entry) -> str:
    """How to type a symbol at a shell prompt: its alias when it has one."""
    return f"{entry.alias} ({entry.sym})" if entry.alias else entry.sym


def pasteable(text: str, rs: Ruleset, amounts: bool = False) -> str:
    """Text that holds commands (the Next line, a hint) made safe to paste into bash: a symbol with
    a character the shell treats specially (B&O) written as its plain alias (BnO); with `amounts`,
    amounts without the currency sign, which bash would expand ($140 is $1 then 40)."""
    for entry in (*rs.corporations, *rs.privates):
        if entry.alias and not SHELL_SAFE.fullmatch(entry.sym) and entry.sym in text:
            text = text.replace(typed(entry), entry.alias)   # "BnO (B&O)" is said once: BnO
            text = re.sub(rf"(?<![\w&]){re.escape(entry.sym)}(?![\w&])", entry.alias, text)
    if amounts and rs.currency:
        sign = re.escape(rs.currency)
        if len(rs.currency) == 1 or not rs.currency.isalpha():  # written before the amount (money.format_money)
            text = re.sub(rf"{sign}(?=[0-9])", "", text)
        else:
            text = re.sub(rf"(?<=[0-9]){sign}\b", "", text)
    return text


def train(rs: Ruleset, raw: str) -> str:
    names = [t.name for t in rs.trains]
    upper = [n.upper() for n in names]
    text = str(raw).strip().upper()
    if text not in upper:
        text = text.removesuffix("-TRAIN").removesuffix("T")
    for name in names:
        if name.upper() == text:
            return name
    side_of = {sd.name.upper(): t.name for t in rs.trains for sd in t.sides if sd.name != t.name}
    if str(raw).strip().upper() in side_of:
        kind = side_of[str(raw).strip().upper()]
        raise CommandError(f"'{raw}' is a side of the {kind} certificate: here the train is named by its type",
                           f"type {kind}")
    raise unknown("train", raw, names)


def side(rs: Ruleset, raw: str) -> tuple[str, str | None]:
    """A train as the banker names it: (train type, side name or None for 'the type's first side').
    A side's printed name or alias (1843 '4+1', '3/5x2', 'TGV') names that side of its certificate.
    Read once per title and word (the rules read a command's train again at every step)."""
    key = (id(rs), rs.digest, raw if isinstance(raw, str) else str(raw))
    found = _SIDES.get(key)
    if found is None or found[0] is not rs:
        found = _SIDES[key] = (rs, read_side(rs, raw))
        if len(_SIDES) > 20000:
            _SIDES.clear()
    return found[1]


_SIDES: dict = {}


def read_side(rs: Ruleset, raw: str) -> tuple[str, str | None]:
    text = str(raw).strip().lower()
    for t in rs.trains:
        for sd in t.sides:
            # a side named like its certificate is that side unless it is the first (1801: a "3" is
            # the express side of the level 3 card, whose first side is the 3+3)
            named = sd.name != t.name or sd is not t.sides[0]
            if named and text in (sd.name.lower(), *(a.lower() for a in sd.aliases)):
                return t.name, sd.name
    return train(rs, raw), None


DIGITS = re.compile(r"-?[0-9]+")
# No figure of any title comes near this; SQLite's integers end at 2**63, and a number past them
# would fail as it is stored rather than be refused as typed.
LARGEST = 10 ** 12


def whole_number(raw, what: str) -> int:
    """A whole number as typed: ASCII digits with an optional minus sign. Python's int() also
    reads '1_000', ' 7' and other scripts' digits ('٣'), which no banker means as an amount."""
    text = str(raw).strip()
    if not DIGITS.fullmatch(text):
        raise CommandError(f"{what} must be a whole number, got '{raw}'")
    if len(text.lstrip("-")) > 13 or abs(int(text)) > LARGEST:
        raise CommandError(f"{what} {text} is beyond any figure of a game (at most {LARGEST:,})")
    return int(text)


def command_number(raw) -> int:
    """A command's number as `bank log` shows it."""
    text = str(raw).strip()
    if DIGITS.fullmatch(text) and len(text.lstrip("-")) > 13:
        raise CommandError(f"there is no command {text}", "bank log shows the command numbers")
    return whole_number(text, "the command number")


# What a banker may type around an amount: a title's currency sign before it ($140, £140, ƒ140,
# €140) or its unit after it (140fr, 140F): read as the number alone. In bash a `$` before digits
# never reaches the bank (the shell expands $1), so the README and `bank help` say to leave it out.
CURRENCY = re.compile(r"^(?:[$£ƒ€]|fl\.?\s*)?(-?[0-9]+)(?:\s*(?:fr|f|ƒ|£|\$|€))?$", re.IGNORECASE)


def amount(raw, what: str = "amount") -> int:
    text = str(raw).strip()
    marked = CURRENCY.match(text)
    digits = marked.group(1) if marked else text
    if len(digits.lstrip("-")) > 1 and digits.lstrip("-").startswith("0") and digits.lstrip("-").isdigit():
        # nobody writes 0140 for 140; bash turns `$200` into `00` and `$60` into `0`... before we see it
        raise CommandError(f"{what} '{raw}' starts with a 0: an amount is written without leading zeros",
                           "in bash, type an amount without its $ ('$200' reaches the bank as '00')")
    value = whole_number(digits, what)
    if value < 0:
        raise CommandError(f"{what} must not be negative, got {value}")
    return value
