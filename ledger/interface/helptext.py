"""`bank help`: the commands, read from the grammar's declarations (ledger.core.grammar) and the
title's Plays (which verbs its games play), never from a list of its own.

In a game, only the open game's title's verbs, with its own options; outside a game, the verbs
every title shares, then what each title adds. `help VERB` is the verb's usage, arguments, options
and example; in the shell without the leading `bank`.
"""

from __future__ import annotations

import re
import textwrap

from ledger import catalog
from ledger.core import grammar
from ledger.interface.verbs import shared_verbs, verbs_of

WIDTH = 78


def overview(title: str | None, prefix: str = "bank ") -> str:
    """The commands by group: a game's title's, or (no game) the shared ones and each title's own."""
    if title is not None:
        verbs = title_verbs(title)
        out = [f"{title}: the commands of this game, by round and purpose ({prefix}help VERB for one)", ""]
        out += grouped(verbs)
    else:
        titles = catalog.available_titles()
        per_title = {t: title_verbs(t) for t in titles}
        shared = {name: v for name, v in per_title[titles[0]].items()
                  if all(name in verbs for verbs in per_title.values())} if titles else {}
        interface = {name: v for name, v in shared_verbs().items() if not v.game}
        out = [f"The commands every title shares, by round and purpose ({prefix}help VERB for one)", ""]
        out += grouped({**shared, **interface})
        for t in titles:
            own = {name: v for name, v in per_title[t].items() if name not in shared and v.game}
            if own:
                out += ["", f"{t} adds:"]
                out += grouped(own, indent="  ")
    out += ["", "In bash, type amounts without a currency sign: bash turns $140 into 40 before the bank sees it "
                "(type 140); bank shell needs no quoting and reads $140 as 140."]
    return "\n".join(wrap(line) for line in out)


def title_verbs(title: str) -> dict[str, grammar.Verb]:
    """The verbs a game of the title understands: the game verbs its Plays play, and every interface verb."""
    from ledger.core.titles import for_ruleset
    rs = catalog.title_ruleset(title)
    played = for_ruleset(rs).verbs()
    return {name: v for name, v in verbs_of(rs).items() if not v.game or name in played}


def grouped(verbs: dict, indent: str = "") -> list[str]:
    out = []
    for group, members in grammar.in_groups(verbs):
        if not members:
            continue
        out.append(f"{indent}{group}:")
        for v in members:
            out.append(f"{indent}  {v.name:<14} {first_sentence(v.help)}")
    return out


def first_sentence(text: str) -> str:
    """A verb's first sentence, whole: the listing wraps it under its column rather than cut it."""
    return text.split(". ")[0].rstrip(".")


def verb_help(verb: grammar.Verb, prefix: str = "bank ", rs=None) -> str:
    """One command: its usage, what it does, its arguments and options, and its example (in the
    words of the game's title, `rs`, or outside a game the default title's)."""
    usage = verb.usage().removeprefix("bank ")
    options = verb.all_options()
    out = [f"Usage: {prefix}{usage}" + (" [OPTIONS]" if options else ""), "", verb.help]
    if verb.args:
        out += ["", "Arguments:"]
        for a in verb.args:
            kind = (grammar.kinds_of(rs) if rs is not None else grammar.KINDS).get(a.kind) or catalog.all_kinds()[a.kind]
            words = a.help or kind.describe
            if a.choices:
                words += f" ({', '.join(a.choices)})" if words else ", ".join(a.choices)
            out.append(f"  {a.name.upper():<16} {words}")
    if options:
        out += ["", "Options:"]
        for o in options:
            flag = o.flag + ("" if o.switch else f" {o.name.upper()}")
            out.append(f"  {flag:<22} {o.help}")
    example = grammar.example_of(verb, rs or catalog.default_ruleset()).removeprefix("bank ")
    out += ["", f"Example: {prefix}{example}"]
    return "\n".join(wrap(line) for line in out)


def wrap(line: str) -> str:
    """A line within the width; a table line ('  NAME    text') continues under its text."""
    if len(line) <= WIDTH:
        return line
    column = re.match(r"^(\s*\S+(?: \S+)*?\s{2,})", line)
    indent = len(line) - len(line.lstrip(" "))
    lead = len(column.group(1)) if column and len(column.group(1)) < WIDTH // 2 else indent + 2
    return textwrap.fill(line, WIDTH, subsequent_indent=" " * lead)
