"""Fees as a pipeline of modifiers a title declares in its data, each step recorded with its rounding.

A fee starts from a base (a tile's announced terrain cost, a station's charter slot price or its
location's value) and passes through the title's modifiers in the order the title lists them:

  percent_off  so many percent off, rounded   1801 §12.2: 20 % off in a zone of the company's rights
  times        × a fraction, rounded          1801 §12.2: Minor E/F ×0.67 rounded down; 1839 D5.3:
                                              a station's value × the locations of its markers
  add          + an amount (or - one)         1843 §8.4.1 a second tile's 20fr, §8.4.3 Paris 40fr;
                                              1839 §12.4 Regiment Genietroepen -ƒ40
  per          + an amount per counted unit   1801 §12.2: £10 a sea zone crossed, §12.4: £40
  fewer        lowers the count of `per` ones 1801 §12.2/§12.4: a port authority counts 2 fewer
  floor        at least an amount

A modifier applies by itself when the rule supplies its amount (a source, below), when it is for a
company's kind (`kinds`, 1801: nationals pay nothing) or when it says `when = "always"`; otherwise
only when the table names it (`tile CORP 45 --with zone,ef`, `token CORP --with sea=3`): the bank
cannot see the map, so the players announce which ones apply. A modifier that `replaces` others is
used instead of them when all of them apply (1801 0.1 #3: E/F with a zone discount is 50 %, not
20 % then ×0.67).

Sources, amounts the rule supplies: `add = "second_tile"` (the charter's fee for a lay beyond the
title's lays), `add = "hex"` (the hex's fee), `add = "private"` (the private's extra tile fee),
`times = "locations"` (the locations where the company has markers). A title that declares no tile
modifiers has 1830/1843's: the second tile's fee, the private's fee, the hex's fee.

Pure: no state, no files. `price` does the arithmetic; `resolve` picks the steps; the readers check
a title's data (ruleset.py calls them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from ledger.core.errors import CommandError

OPS = ("percent_off", "times", "add", "per", "fewer", "floor")
ROUNDINGS = ("down", "up", "nearest")   # nearest: a half rounds up
SOURCES = {"add": ("second_tile", "hex", "private"), "times": ("locations",)}
FEE_KINDS = ("tile", "token")


@dataclass(frozen=True)
class Modifier:
    """One modifier as a title declares it."""
    name: str                   # what the table types after --with
    op: str                     # one of OPS
    value: object               # int, Fraction, or a source word (SOURCES)
    label: str = ""             # how explain names it, with the rule it comes from
    rounding: str = "down"      # for percent_off and times (1801 §12.2: in the company's favour)
    when: str = "asked"         # "asked": when the table names it; "always"
    kinds: tuple = ()           # only for a company of these kinds, and then without asking
    replaces: tuple = ()        # used instead of these when all of them apply
    of: tuple = ()              # fewer: the `per` modifiers whose count it lowers

    @property
    def source(self) -> str | None:
        return self.value if isinstance(self.value, str) else None


@dataclass(frozen=True)
class Step:
    """A modifier resolved for one fee: an operation on the running amount."""
    what: str
    op: str                     # percent_off, times, add or floor
    value: object               # int or Fraction
    rounding: str = "down"


# 1830 and 1843 (1843 §8.4.1 a second yellow tile, §10.2 a private's extra tile, §8.4.3 Paris)
DEFAULT_TILE = (
    Modifier("second_tile", "add", "second_tile", "a second tile's fee on the charter"),
    Modifier("private", "add", "private", "the private's tile fee"),
    Modifier("hex", "add", "hex", "the hex's fee"),
)


# --------------------------------------------------------------------------- the arithmetic

def rounded(exact: Fraction, how: str) -> int:
    if how == "up":
        return math.ceil(exact)
    if how == "nearest":
        return math.floor(exact + Fraction(1, 2))
    return math.floor(exact)


def step_after(before: int, step: Step) -> tuple[int, Fraction]:
    """The amount after one step, and the exact amount before its rounding."""
    if step.op == "percent_off":
        exact = Fraction(before) * (100 - Fraction(step.value)) / 100
    elif step.op == "times":
        exact = Fraction(before) * Fraction(step.value)
    elif step.op == "add":
        exact = Fraction(before + step.value)
    else:  # floor
        exact = Fraction(max(before, step.value))
    return rounded(exact, step.rounding), exact


def price(base: int, steps, base_label: str = "base") -> tuple[int, list[list]]:
    """The fee and its lines [what, amount before, amount after, rounding]: the first line is the
    base (before None); rounding is None when the step came out whole, else [how, exact as 'n/d']."""
    lines, amount = [[base_label, None, base, None]], base
    for step in steps:
        after, exact = step_after(amount, step)
        note = None if exact.denominator == 1 else [step.rounding, str(exact)]
        lines.append([step.what, amount, after, note])
        amount = after
    return amount, lines


# --------------------------------------------------------------------------- which steps apply

def parse_asked(words) -> dict[str, int | None]:
    """`--with zone,ef,sea=3` -> {"zone": None, "ef": None, "sea": 3} (one text, or several)."""
    out: dict[str, int | None] = {}
    for word in [words] if isinstance(words, str) else words or ():
        for part in filter(None, (p.strip() for p in str(word).split(","))):
            name, eq, count = part.partition("=")
            count = count.strip()
            if eq and not (count.isdigit() and count == str(int(count)) and int(count) >= 1):
                raise CommandError(f"--with {part}: the count after '=' must be a whole number from 1")
            key = name.strip().lower()
            if key in out:
                raise CommandError(f"--with names {key} twice")
            out[key] = int(count) if eq else None
    return out


def applies(m: Modifier, asked: dict, sources: dict, kind: str) -> bool:
    if m.kinds and kind not in m.kinds:
        return False
    if m.source:  # the rule supplies it: an amount to add (none when 0), or a count
        amount = sources.get(m.source)
        return amount is not None and (m.op == "times" or amount != 0)
    return m.when == "always" or bool(m.kinds) or m.name in asked


def active(mods, asked: dict, sources: dict, kind: str) -> list[Modifier]:
    """The modifiers that apply, a replacing one in place of those it replaces (1801 0.1 #3)."""
    on = [m for m in mods if applies(m, asked, sources, kind)]
    names = {m.name for m in on}
    on += [m for m in mods if m.replaces and m not in on and set(m.replaces) <= names
           and (not m.kinds or kind in m.kinds)]
    gone = {r for m in on if m.replaces for r in m.replaces}
    order = {m.name: i for i, m in enumerate(mods)}
    return sorted((m for m in on if m.name not in gone), key=lambda m: order[m.name])


def counts(on: list[Modifier], asked: dict) -> dict[str, tuple[int, str]]:
    """Each `per` modifier's count as announced, less what `fewer` ones take off (never below 0)."""
    out = {}
    for m in on:
        if m.op == "per":
            if asked.get(m.name) is None:
                raise CommandError(f"--with {m.name} needs a count: --with {m.name}=N")
            out[m.name] = (asked[m.name], str(asked[m.name]))
    for m in on:
        for target in m.of if m.op == "fewer" else ():
            if target in out:
                n, text = out[target]
                out[target] = (max(0, n - m.value), f"{text} − {m.value} {m.label or m.name}")
    return out


def askable(mods) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The modifiers the table may name after --with: (those named alone, those named with a count,
    NAME=N); a modifier the rule supplies, one that always applies or one for a kind of company
    applies by itself and is never named."""
    asked = [m for m in mods if not m.source and m.when != "always" and not m.kinds]
    return (tuple(m.name for m in asked if m.op != "per"), tuple(m.name for m in asked if m.op == "per"))


def check_asked(mods, asked: dict) -> None:
    """The modifiers named are this fee's to name: each by name, a count only on one charged per unit."""
    alone, counted = askable(mods)
    unknown = sorted(set(asked) - set(alone) - set(counted))
    if unknown:
        hint = ", ".join([*alone, *(f"{n}=N" for n in counted)]) or "none"
        raise CommandError(f"no fee modifier '{unknown[0]}' here", f"this fee's modifiers: {hint}")
    for name, count in asked.items():
        if name in alone and count is not None:
            raise CommandError(f"--with {name} takes no count (--with {name})")


def resolve(mods, asked: dict, sources: dict, kind: str = "", money: Callable = str,
            notes: dict | None = None) -> list[Step]:
    """The steps of one fee: the modifiers that apply, in the title's order, with their amounts.
    `notes` adds a word to a source's line (the hex's name)."""
    check_asked(mods, asked)
    on = active(mods, asked, sources, kind)
    n = counts(on, asked)
    steps = (step_of(m, sources, n, money, (notes or {}).get(m.source)) for m in on)
    return [s for s in steps if s is not None]


def step_of(m: Modifier, sources: dict, n: dict, money: Callable, note: str | None = None) -> Step | None:
    label = (m.label or m.name) + (f", {note}" if note else "")
    if m.op == "percent_off":
        return Step(f"− {m.value}% {label}", "percent_off", m.value, m.rounding)
    if m.op == "times":
        value = Fraction(sources.get(m.source, 0)) if m.source else Fraction(m.value)
        return Step(f"× {value} {label}", "times", value, m.rounding)
    if m.op == "add":
        amount = sources[m.source] if m.source else m.value
        return Step(f"+ {money(amount)} {label}", "add", amount)
    if m.op == "per":
        count, text = n[m.name]
        told = f", {text}" if text != str(count) else ""
        return Step(f"+ {count} × {money(m.value)} {label}{told}", "add", count * m.value)
    if m.op == "floor":
        return Step(f"at least {money(m.value)} {label}", "floor", m.value)
    return None  # fewer: already in the counts


# --------------------------------------------------------------------------- reading a title's data

MODIFIER_KEYS = {"name", "label", "rounding", "when", "kinds", "replaces", "of", *OPS}


def read_fees(table, problems: list[str]) -> dict:
    """[fees]: `tile` and `token`, each a list of modifiers in the order they apply. A title that
    leaves `tile` out has DEFAULT_TILE; `token` defaults to none (the charter's price as it is)."""
    if not isinstance(table, dict):
        problems.append("fees: expected a table")
        return {"tile": DEFAULT_TILE, "token": ()}
    for key in table:
        if key not in FEE_KINDS:
            problems.append(f"fees.{key}: unknown (known: {', '.join(FEE_KINDS)})")
    out = {"tile": DEFAULT_TILE, "token": ()}
    for kind in FEE_KINDS:
        if kind in table:
            rows = table[kind] if isinstance(table[kind], list) else []
            if not isinstance(table[kind], list):
                problems.append(f"fees.{kind}: expected a list of modifiers ([[fees.{kind}]])")
            out[kind] = tuple(read_modifier(f"fees.{kind}[{i}]", row, problems) for i, row in enumerate(rows))
            check_names(f"fees.{kind}", out[kind], problems)
    return out


def read_modifier(path: str, row, problems: list[str]) -> Modifier:
    if not isinstance(row, dict):
        problems.append(f"{path}: expected a table")
        return Modifier("?", "add", 0)
    for key in row:
        if key not in MODIFIER_KEYS:
            problems.append(f"{path}.{key}: unknown setting")
    ops = [k for k in OPS if k in row]
    if len(ops) != 1:
        problems.append(f"{path}: needs exactly one of {', '.join(OPS)}")
        return Modifier(str(row.get("name", "?")), "add", 0)
    op = ops[0]
    name = row.get("name")
    if not isinstance(name, str) or not name:
        problems.append(f"{path}.name: needs a name")
        name = "?"
    m = Modifier(name.lower(), op, read_value(f"{path}.{op}", op, row[op], problems),
                 str(row.get("label", "")), row.get("rounding", "down"), row.get("when", "asked"),
                 tuple(row.get("kinds", ())), tuple(str(r).lower() for r in row.get("replaces", ())),
                 tuple(str(r).lower() for r in row.get("of", ())))
    if m.rounding not in ROUNDINGS:
        problems.append(f"{path}.rounding: {m.rounding!r} is not one of {', '.join(ROUNDINGS)}")
    if m.when not in ("asked", "always"):
        problems.append(f"{path}.when: {m.when!r} is not asked or always")
    if (op == "fewer") != bool(m.of):
        problems.append(f"{path}.of: a `fewer` modifier names the `per` modifiers it lowers (and only it)")
    return m


def read_value(path: str, op: str, raw, problems: list[str]):
    """An amount (int), a fraction (times: an int or 'n/d'), or a source word."""
    if isinstance(raw, str) and raw in SOURCES.get(op, ()):
        return raw
    if op == "times" and isinstance(raw, str):
        try:
            value = Fraction(raw)
        except (ValueError, ZeroDivisionError):
            problems.append(f"{path}: {raw!r} is not a fraction such as '2/3' (or {', '.join(SOURCES['times'])})")
            return Fraction(1)
        if value < 0:
            problems.append(f"{path}: must not be negative")
        return value
    # `add` may take off an amount (1839 Regiment Genietroepen: ƒ40 off a terrain cost); a `floor`
    # after it keeps the fee from going below zero
    if not isinstance(raw, int) or isinstance(raw, bool) or (raw < 0 and op != "add"):
        known = SOURCES.get(op)
        problems.append(f"{path}: expected a whole amount{' or one of ' + ', '.join(known) if known else ''}, "
                        f"got {raw!r}")
        return 0
    if op == "percent_off" and raw > 100:
        problems.append(f"{path}: more than 100 %")
    return Fraction(raw) if op == "times" else raw


def check_names(path: str, mods: tuple, problems: list[str]) -> None:
    names = [m.name for m in mods]
    for name in {n for n in names if names.count(n) > 1}:
        problems.append(f"{path}: the modifier {name!r} is declared twice")
    pers = {m.name for m in mods if m.op == "per"}
    for m in mods:
        for other in m.replaces:
            if other not in names:
                problems.append(f"{path}.{m.name}.replaces: no modifier {other!r}")
        for other in m.of:
            if other not in pers:
                problems.append(f"{path}.{m.name}.of: no `per` modifier {other!r}")


STATION_SETTINGS = {"slots": ("in_order", "any"), "price": ("charter", "announced"), "count_new": (False, True)}


def read_stations(table, problems: list[str]) -> dict:
    """[stations]: `slots` "in_order" (the charter's next marker: 1830, 1843) or "any" (any free slot,
    1801 §12.4); `price` "charter" (the slot's printed price) or "announced" (COST is the base the
    token modifiers work on: 1839 D5.3, the location's value); `count_new` (the `locations` count
    includes the new one: 1839 D15 B9's later revision; the seed counts before placing)."""
    out = {"slots": "in_order", "price": "charter", "count_new": False}
    if not isinstance(table, dict):
        problems.append("stations: expected a table")
        return out
    for key, value in table.items():
        allowed = STATION_SETTINGS.get(key)
        if allowed is None:
            problems.append(f"stations.{key}: unknown setting")
        elif value not in allowed or type(value) is not type(allowed[0]):
            problems.append(f"stations.{key}: {value!r} is not one of {', '.join(map(str, allowed))}")
        else:
            out[key] = value
    return out
