"""What Tab offers, in the shell and in bash, zsh or fish: the core's answer of what may be done now
(ledger.core.legal), each entry with what it means at the table (its price, the range it starts).

The shell's menu and the one-shot completion (cli.OneLineErrors.complete_line) are the same list:
a verb when the game accepts it now (a game verb the turn offers or a correction always open, and
the interface verbs), then each argument or option value the rules accept given the words typed
before it. Nothing is offered that the rules would refuse, as a fallback or otherwise.
"""

from __future__ import annotations

import shlex

from ledger import catalog
from ledger.core import engine, grammar, legal
from ledger.core.command import Command
from ledger.core.errors import BankError
from ledger.core.legal import Completion
from ledger.core.names import pasteable
from ledger.core.state import company_acct, player_acct
from ledger.interface.verbs import interface_words, shared_verbs, verbs_of

# a figure is found by deciding the command on the game as it is: a long list is left without them
FIGURED = 16


def verbs_known(s, shell_words: tuple = ()) -> list[str]:
    """The commands of the open game's title (the shared ones without a game), with `shell_words`
    (the shell's own: help, exit) last."""
    known = verbs_of(s.rs) if s is not None else shared_verbs()
    return sorted(known) + list(shell_words)


def verbs_now(s, shell_words: tuple = ()) -> list[Completion]:
    """The game verbs the game accepts now (the Next line's first), then the interface verbs, each
    with its label; the shell's own last."""
    interface = sorted(name for name, v in shared_verbs().items() if not v.game)
    if s is None:
        names = ["new"] + [v for v in interface if v != "new"]
        known = shared_verbs()
    else:
        names = [v for v in legal.verbs_now(s.state, s.rs) if accepted_now(s, v)] + interface
        known = verbs_of(s.rs)
    out = [Completion(name, label_of(known.get(name))) for name in dict.fromkeys(names)]
    return out + [Completion(w, "the shell's own") for w in shell_words]


def accepted_now(s, verb: str) -> bool:
    """Some command of the verb is accepted now, for someone (a quiet verb the turn does not bar,
    1839's `income` of a closed private, has none)."""
    play = legal.play_now(s.state, s.rs, verb)
    if play is None:
        return False
    pos = legal.Position(s.state, s.rs)
    return any(legal.may_use(pos, play, a) for a in legal.possible_actors(pos.reg, play, s.state, s.rs))


def label_of(verb, most: int = 34) -> str:
    """A verb's words in the menu: its label where it says more than the verb, else its help's
    first sentence, cut at a word."""
    if verb is None:
        return ""
    if verb.label and verb.label.lower() != verb.name.replace("-", " "):
        return verb.label
    text = verb.help.split(". ")[0].rstrip(".")
    if len(text) <= most:
        return text
    return text[:most - 1].rsplit(" ", 1)[0].rstrip(",;:(") + "…"


def candidates(s, words: list[str]) -> list[Completion]:
    """What may come next after `words` (the complete words before the cursor): the legal values of
    the argument, or option value, at that position, or the options that have one."""
    verb_name = words[0]
    known = verbs_of(s.rs) if s is not None else shared_verbs()
    verb = known.get(verb_name)
    if verb is None:
        return []
    at = grammar.argument_at(verb, words[1:])
    if at is not None and at.kind == "title":   # the titles are the catalog's to list, not the core's
        return [Completion(t) for t in catalog.available_titles()]
    if s is None or not verb.game:   # a view's or a file's words: no rule to ask
        return [Completion(w) for w in interface_words(s and s.state, s and s.rs, verb, words[1:])]
    menu = legal.completion_menu(s.state, s.rs, verb_name, words[1:])
    entries = [Completion(typed_word(s.rs, c.text), c.meta) for c in menu]
    if len(entries) > FIGURED or at_actor(s.rs, verb, words[1:]):   # an actor's price is no one command's
        return entries
    return figured(s, verb_name, words[1:], entries)


def at_actor(rs, verb, words: list[str]) -> bool:
    typed = legal.typed_words(verb, words)
    return typed is not None and typed[0] is not None and typed[0] == engine.actor_arg(rs, verb.name)


def offers(s, words: list[str], text: str, shell_words: tuple = ()) -> list[Completion]:
    """What Tab offers for the word `text` being typed after the complete `words`."""
    def starting(options):
        typed = text.lower().lstrip("'\"")
        return [c for c in options if c.text.lower().lstrip("'\"").startswith(typed)]
    if not words:
        return starting(verbs_now(s, shell_words))
    if words[0] == "help":
        return starting([Completion(v) for v in verbs_known(s)]) if len(words) == 1 else []
    return starting(candidates(s, words))


def split_line(buffer: str) -> tuple[list[str], str]:
    """A line being typed as (its complete words, the word at the cursor)."""
    try:
        words = shlex.split(buffer)
    except ValueError:   # an open quote: the word being typed starts at it
        words = buffer.split()
    if buffer and not buffer[-1].isspace() and words:
        return words[:-1], words[-1]
    return words, ""


def typed_word(rs, word: str) -> str:
    """A value as Tab types it: a symbol by its plain alias where it has a character bash treats
    specially (B&O as BnO), a name with spaces quoted."""
    text = str(word)
    return text if text.lstrip("-").isdigit() or text.startswith("-") else shlex.quote(pasteable(text, rs))


def figured(s, verb: str, words: list[str], entries: list[Completion]) -> list[Completion]:
    """Each entry with its price where it has none: the cheapest whole command it starts, decided on
    the game as it is ('$67' a buyer pays, '+$65' a seller gets)."""
    out = []
    for entry in entries:
        if entry.meta or entry.text.startswith("-"):
            out.append(entry)
            continue
        more = [*words, entry.text]
        out.append(Completion(entry.text, price_of(s, verb, more) or amount_after(s, verb, more)))
    return out


def amount_after(s, verb: str, words: list[str]) -> str:
    """Where a word moves no money itself, the range of the amount that comes next ('45 to 600'
    for a bid on CS), if one does."""
    following = legal.completion_menu(s.state, s.rs, verb, words)
    return next((c.meta for c in following if c.meta), "")


def price_of(s, verb: str, words: list[str]) -> str | None:
    """The money the actor of the cheapest command starting with `words` pays or gets."""
    syntax = grammar.verbs_of(s.rs)[verb]
    typed = legal.typed_words(syntax, words)
    if typed is None:
        return None
    _target, given = typed
    try:
        cmd = grammar.resolve(s.state, s.rs, Command(verb, dict(given)))
        play = legal.play_now(s.state, s.rs, verb)
        if play is None:
            return None
        actor_name = engine.actor_arg(s.rs, verb)
        actor = cmd.args.get(actor_name) if actor_name else None
        pos = legal.Position(s.state, s.rs)
        rest = {k: legal.word(v) for k, v in cmd.args.items() if k != actor_name}
        values = legal.completion(pos, play, actor, rest, [d for d in pos.dims_of(play) if d.name not in rest])
        if values is None:
            return None
        events = engine.decide(s.state, s.rs, legal.command(s.rs, verb, {**legal.head_of(s.rs, verb, actor), **values}))
    except BankError:
        return None
    return money_of(s, events, actor)


def money_of(s, events: list[dict], actor) -> str | None:
    """What `actor` (a player, or a company's treasury) pays, as '$67', or gets, as '+$65', in all
    by `events`; None when nothing moves."""
    if actor is None:
        return None
    account = player_acct(actor) if actor in s.state.players else company_acct(actor)
    net = 0
    for event in events:
        for source, dest, amount in ((t[0], t[1], t[2]) for t in event.get("transfers", ())):
            net += (dest == account) * amount - (source == account) * amount
    if not net:
        return None
    return s.rs.money(-net) if net < 0 else f"+{s.rs.money(net)}"
