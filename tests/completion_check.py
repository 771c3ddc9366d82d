"""The property of issue 35, at one position of a game: Tab (ledger.interface.completing.offers, the
shell's menu and the one-shot completion alike) offers exactly what the rules accept.

- offered, then refused: Tab walked from an empty line, each game verb offered followed word by
  word over what is offered (each argument, then the options and their values), each point
  decided by `engine.decide` (a BankError is a refusal; anything else an internal error); a path
  may end where the command is accepted, and must not end refused: a command refused with
  nothing offered to go on is a finding ('offered, then refused' once its required arguments are
  given, else 'offered, leads nowhere'). An amount's range is offered as its ends: the ends are
  the words followed. The walk is bounded: so many paths per verb, each word drawn by a seeded
  random among those the verb's earlier paths did not take at that point.
- accepted, not offered: every command of tests/offer_check.py's generated set (each verb x each
  actor x the legal words and their neighbours x each option) that `engine.decide` accepts is
  typed word by word as `grammar.words_of` spells it; each word must be among Tab's entries at its
  point (a number inside an offered range counts: a range is shown as its ends, its meta the range
  in words, '45 to 600', `legal.menu_of`).
- offered as a fallback: with letters typed at an empty line that start no verb the game accepts
  now (nor an interface verb), nothing is offered; after a word of a refused command that Tab
  never offered, nothing is offered for the next word.

Used by tests/properties/test_completion_property.py (sampled positions of the four example games)
and bench/completion.py (every position, with the counts).
"""

from __future__ import annotations

import random
import re
import shlex
from types import SimpleNamespace

from offer_check import Findings, decided, generated

from ledger.interface.verbs import shared_verbs
from ledger.core import engine, grammar, legal
from ledger.core.command import Command
from ledger.core.plays import Text
from ledger.core.errors import BankError
from ledger.interface import completing

PROBLEMS = ("offered, then refused", "offered, then internal error", "offered, leads nowhere",
            "accepted, not offered", "offered as a fallback")

RANGE = re.compile(r"^(-?\d+) to (-?\d+)(?: in steps of (\d+))?(?: with .*)?$")   # legal.menu_of's meta
AT_LEAST = re.compile(r"^at least (-?\d+)(?: with .*)?$")


def session(s, rs) -> SimpleNamespace:
    """What completing.offers reads (the shell's session), with the menus asked at this position
    kept: the same words typed at one position are offered the same entries."""
    return SimpleNamespace(state=s, rs=rs, menus={})


def tab(sess, words: list[str], text: str = "") -> list:
    key = (tuple(words), text)
    if key not in sess.menus:
        sess.menus[key] = completing.offers(sess, list(words), text)
    return sess.menus[key]


def line_of(texts: list[str]) -> str:
    """The line Tab's entries make, each inserted as it is offered."""
    return " ".join(texts)


def typed_point(s, rs, verb: str, words: list[str]):
    """(the word the next one fills, the actor, the other words typed as the rules read them) after
    `words` (the verb's words after it), or None for a line that does not read."""
    syntax = grammar.verbs_of(rs)[verb]
    typed = legal.typed_words(syntax, words)
    if typed is None:
        return None
    target, given = typed
    name = engine.actor_arg(rs, verb)
    try:
        resolved = grammar.resolve(s, rs, Command(verb, dict(given))).args if given else {}
    except BankError:
        return None
    actor = resolved.get(name) if name else None
    return target, actor, {k: v for k, v in resolved.items() if k != name}


def whole(syntax, words: list[str]) -> bool:
    """Every required argument given, and no option waiting for its value."""
    typed = legal.typed_words(syntax, words)
    if typed is None:
        return False
    target, values = typed
    if target is not None and target not in {a.name for a in syntax.args}:
        return False
    return all(a.name in values for a in syntax.args if not a.optional and not a.many)


def free_text(s, rs, verb: str, words: list[str]) -> Text | None:
    """The free words an option's value may be (a city as printed on the map) after `words`, when
    the core's answer there is such a Text: any word is the table's to announce."""
    point = typed_point(s, rs, verb, words)
    if point is None or point[0] is None:
        return None
    target, actor, given = point
    if target == engine.actor_arg(rs, verb) or (engine.actor_arg(rs, verb) and actor is None):
        return None
    found = legal.domain_of(s, rs, verb, actor, target, given)
    return found.open if found is not None and isinstance(found.open, Text) else None


def decide_line(s, rs, line: str) -> str:
    """'ok', 'refused: why' or 'crash: ...' for a line as Tab's entries make it."""
    try:
        engine.decide(s, rs, grammar.parse_line(line, grammar.verbs_of(rs)))
        return "ok"
    except BankError as exc:
        return f"refused: {exc}"
    except Exception as exc:  # noqa: BLE001 - an internal error is a finding
        return f"crash: {type(exc).__name__}: {exc}"


def game_verbs(rs) -> dict:
    return {n: v for n, v in grammar.verbs_of(rs).items() if v.game}


# --------------------------------------------------------------------------- offered -> accepted

def walk_offers(s, rs, sess, verb: str, rng: random.Random, paths: int, out: Findings,
                depth: int = 16) -> bool:
    """Follow Tab from `verb` over `paths` paths; True when some command was accepted.

    Each point of a path is decided as it stands. An accepted one may end the path (drawn); a
    refused one must go on (the word the rule still needs: an adjustment's --reason, 1839's cost of
    a station, a train's price agreed with the company it comes from): one with nothing offered
    after it is a finding, refused if its required arguments were all given, else leading
    nowhere. Where the core's answer is free words (a city as printed on the map), the path goes
    on with the word the core tries for them."""
    syntax = grammar.verbs_of(rs)[verb]
    taken: dict = {}      # a line so far -> the entries already followed from it
    results: dict = {}
    accepted = False
    for _ in range(paths):
        texts = [verb]
        for _step in range(depth + 1):
            line = line_of(texts)
            words = shlex.split(line)
            if line not in results:
                results[line] = decide_line(s, rs, line)
                out.counts["commands decided"] += 1
                if results[line].startswith("crash"):
                    out.add("offered, then internal error", f"{line}: {results[line]}")
            result = results[line]
            if result == "ok":
                accepted = True
                out.counts["accepted commands offered"] += 1
                if rng.random() < 0.3:
                    break
            entries = tab(sess, words)
            if not entries:
                span = free_text(s, rs, verb, words[1:])
                if span is not None and span.probe and span.probe in span:
                    texts.append(shlex.quote(span.probe))
                    out.counts["free words typed"] += 1
                    continue
                if result != "ok" and not result.startswith("crash"):
                    what = "offered, then refused" if whole(syntax, words[1:]) else "offered, leads nowhere"
                    out.add(what, f"{line}: {result}")
                break
            if _step == depth:
                if result != "ok":
                    out.add("offered, leads nowhere", f"{line}: {result} (still refused after {depth} words)")
                break
            seen = taken.setdefault(line, set())
            fresh = [e for e in entries if e.text not in seen] or entries
            pick = rng.choice(fresh)
            seen.add(pick.text)
            texts.append(pick.text)
    return accepted


# --------------------------------------------------------------------------- accepted -> offered

def in_range(entry, word: str) -> bool:
    """A number inside the range an entry shows the end of ('45 to 600', 'at least 1')."""
    if not word.lstrip("-").isdigit() or not entry.text.lstrip("-").isdigit():
        return False
    value = int(word)
    m = RANGE.match(entry.meta or "")
    if m:
        low, high, step = int(m[1]), int(m[2]), int(m[3] or 1)
        return low <= value <= high and (value - low) % step == 0
    m = AT_LEAST.match(entry.meta or "")
    return bool(m) and value >= int(m[1])


def offered(rs, entries, word: str) -> bool:
    typed = completing.typed_word(rs, word)
    for entry in entries:
        if entry.text == typed or entry.text == word:
            return True
        try:
            if shlex.split(entry.text) == [word]:
                return True
        except ValueError:
            pass
        if in_range(entry, word):
            return True
    return False


def first_unoffered(sess, rs, words: list[str]) -> int | None:
    """The index of the first word of a command Tab does not offer at its point, or None (a word
    of free text, where the core's answer is any word the table announces, counts as offered)."""
    for i, w in enumerate(words):
        if not offered(rs, tab(sess, words[:i]), w):
            span = free_text(sess.state, rs, words[0], words[1:i]) if i else None
            if span is None or w not in span:
                return i
    return None


def check_accepted(s, rs, sess, rng: random.Random, out: Findings, per_pair: int, sample: int | None,
                   most: int | None = None, fallback: int = 12) -> set:
    """The generated set's accepted commands (`most`: so many of them, drawn) each typed word by
    word, each word offered at its point; the verbs accepted. Then refused ones (`fallback` of
    them): after a word Tab never offered, nothing is offered."""
    found = legal.offers(s, rs)
    near = found if sample is None or len(found) <= sample else rng.sample(found, sample)
    verbs = grammar.verbs_of(rs)
    accepted, refused = [], []
    for cmd in [o.command(rs, **{n: b.tries()[-1] for n, b in o.open}) for o in near] + \
            list(generated(s, rs, near, rng, per_pair)):
        result = decided(s, rs, cmd)
        if result.startswith("crash"):
            continue   # the engine's own finding (tests/offer_check.py counts it)
        (accepted if result == "ok" else refused).append((cmd.verb, grammar.words_of(verbs[cmd.verb], cmd)))
    accepted_verbs = {verb for verb, _w in accepted}
    if most is not None and len(accepted) > most:
        accepted = rng.sample(accepted, most)
    for _verb, words in accepted:
        out.counts["accepted commands"] += 1
        i = first_unoffered(sess, rs, words)
        if i is not None:
            out.add("accepted, not offered", f"{shlex.join(words)}: {words[i]!r} not offered after "
                                             f"{shlex.join(words[:i]) or 'an empty line'}")
    # nothing offered after a word Tab never offered: any entry there completes nothing legal
    for _verb, words in rng.sample(refused, min(fallback, len(refused))):
        i = first_unoffered(sess, rs, words)
        if i is None or i == 0:
            continue
        after = tab(sess, words[: i + 1])
        out.counts["refused commands typed"] += 1
        if after:
            out.add("offered as a fallback", f"after {shlex.join(words[: i + 1])} (its last word never "
                                             f"offered): {[e.text for e in after][:6]}")
    return accepted_verbs


# --------------------------------------------------------------------------- nothing as a fallback

def check_fallback(rs, sess, accepted_verbs: set, out: Findings, rng: random.Random,
                   most: int | None = None) -> None:
    """Letters at an empty line that start no verb accepted now (nor an interface verb) are offered
    nothing (`most`: so many such prefixes, drawn)."""
    interface = {name for name, v in shared_verbs().items() if not v.game}
    fine = accepted_verbs | interface
    prefixes = {n[:k] for n in grammar.verbs_of(rs) for k in range(1, len(n) + 1)}
    prefixes |= set("abcdefghijklmnopqrstuvwxyz")
    empty = sorted(p for p in prefixes if not any(v.startswith(p) for v in fine))
    if most is not None and len(empty) > most:
        empty = rng.sample(empty, most)
    for p in empty:
        got = tab(sess, [], p)
        out.counts["prefixes without a legal verb"] += 1
        if got:
            out.add("offered as a fallback", f"{p!r}: {[e.text for e in got]}")


def check_position(s, rs, rng: random.Random, paths: int = 6, per_pair: int = 2, sample: int | None = None,
                   most: int | None = None, prefixes: int | None = None) -> Findings:
    """The findings at one position: `paths` Tab paths per verb offered; the generated set around
    `sample` offers (None: all), `per_pair` random commands per verb and actor, `most` accepted
    commands typed (None: all); `prefixes` letters starting no legal verb (None: all)."""
    out = Findings()
    sess = session(s, rs)
    verbs = game_verbs(rs)
    top = [e.text for e in tab(sess, [])]
    walked_ok = set()
    for verb in top:
        if verb in verbs:
            out.counts["verbs offered"] += 1
            if walk_offers(s, rs, sess, verb, rng, paths, out):
                walked_ok.add(verb)
    accepted_verbs = check_accepted(s, rs, sess, rng, out, per_pair, sample, most)
    check_fallback(rs, sess, accepted_verbs | walked_ok, out, rng, prefixes)
    out.counts["positions"] += 1
    return out


def problems_of(found: Findings) -> list[str]:
    return [f"{what} ({found.counts[what]}): {found.examples.get(what, [])[:4]}" for what in PROBLEMS
            if found.counts[what]]
