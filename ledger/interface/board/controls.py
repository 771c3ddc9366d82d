"""What a table page offers its holder, made from the core's one answer of what may be done
(ledger.core.legal): the actions open to them now, each a control that says what it does in the
log's own words and at its price, as the engine decided the command on the game as it is (no
figure is computed here); grouped in steps so that a thumb finds its action without scrolling
through every other; a deal that takes another person's holding sent to that person to accept.

A player's page holds the actions of the one who acts now when that is them (or a company they
preside over), and the actions open to them out of turn (a private's power, an exchange); the
banker's page every action of everyone. The next player of a stock round may type an action that
ends the turn before it (the terminal allows it), but no page offers that: one "your turn" at a
time.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace

from ledger.core import engine, grammar, legal
from ledger.core.events import holdings_moved
from ledger.core.plays import Bounds, Open, Picks, Text
from ledger.core.state import acct_name

BANKER = "banker"
# More controls than this in one step are grouped, a step each, by the word that tells them apart.
MOST_AT_ONCE = 8
# A count with this many legal values or fewer (the shares of one sale) is a button per value, each
# at its own price, rather than a field to type.
FEW_VALUES = 6


@dataclass(frozen=True)
class Field:
    """An open word of a control, typed or picked: an amount within its bounds, or free words."""
    name: str
    label: str
    kind: str                  # "number", "text" (an order of `choices` too), "choice" (one of
                               # `choices`) or "picks" (any of them; one ending in '=' takes a count)
    hint: str = ""
    low: int | None = None
    high: int | None = None
    step: int = 1
    choices: tuple = ()
    optional: bool = False     # the command may leave it out
    labels: tuple = ()         # each choice in the table's words, where the rules name it


@dataclass(frozen=True)
class Control:
    """One action: `verb` for `actor` with the words `words` ((key, value), ...), what it does in
    the table's words (`label`: the log's line for it, with its price), the words left to type
    (`fields`), the person whose holding it takes and who must accept it (`consent`), a question a
    second tap answers (`confirm`), and a digest of what the page says (`seen`) by which a page
    drawn before a later command is still taken at its word."""
    verb: str
    actor: str | None
    words: tuple
    label: str
    fields: tuple = ()
    consent: str | None = None
    confirm: str = ""
    seen: str = ""


@dataclass
class Step:
    """A group of controls under a title (one of the page's steps), and the steps inside it."""
    title: str
    controls: list = field(default_factory=list)
    steps: list = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.controls) + sum(s.size for s in self.steps)


@dataclass(frozen=True)
class Proposal:
    """A deal one person offered another: the command it would record (the control and the words
    typed into it), waiting for the other, on the position after command `after`."""
    id: str
    by: str
    to: str
    control: Control
    values: tuple
    after: int

    @property
    def label(self) -> str:
        typed = ", ".join(f"{k} {v}" for k, v in self.values)
        return f"{self.control.label} ({typed})" if typed else self.control.label


@dataclass
class Page:
    """A holder's actions now: whether it is their turn, who acts (in words), their steps and the
    actions open to them out of turn."""
    head: int
    line: str
    turn: bool
    whose: str
    steps: list = field(default_factory=list)
    also: list = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.steps or self.also)


def player_of(who: str) -> str | None:
    return who.removeprefix("player:") if who.startswith("player:") else None


def acts_for(s, who: str, actor) -> bool:
    """Whether the holder of a link may act as `actor`: the banker as anyone; a player as
    themselves, or as a company they preside over."""
    if who == BANKER:
        return True
    return actor is not None and legal.player_for(s, actor) == player_of(who)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- the page of a holder

def page_of(s, rs, who: str, head: int, pos: legal.Position | None = None) -> Page:
    """A holder's page, from the answer of what may be done now (`pos`: the position's answer so
    far, shared by every holder's page of it)."""
    pos = pos or legal.Position(s, rs)
    turn = legal.turn(s, rs, pos)
    acting = legal.player_for(s, turn.actor) if turn.actor is not None else None
    mine = who == BANKER or (acting is not None and acting == player_of(who))
    # the banker reads the line the terminal prints; a player the round and whose turn, the
    # actions being the page's own controls
    page = Page(head, turn.line if who == BANKER else turn.heading or turn.line, turn=who != BANKER and mine, whose=acting or (turn.actor or ""))
    if s.game_over:
        return page
    reg = pos.reg
    holder, _heading, plays = legal.now(reg, s, rs)
    for play in plays:
        if not play.offered:
            continue
        own = play.who is not None or bool(play.answers)   # the Play says who may use it, not the round
        for actor in legal.possible_actors(reg, play, s, rs):
            if who == BANKER:
                shown = True
            else:
                # the round's verbs only to the one who acts now, never to the next player who would
                # end the turn before his; to the one who still holds the turn though he may only end
                # it (done: the next one's first action would end it), what ends it; a Play's own
                # actors (a private's power) whenever they may
                # (the answer hands the turn on only when the holder's one verb left is pass:
                # legal's handed_on, so what the holder sees then is what ends his turn)
                shown = acts_for(s, who, actor) and (own or mine and actor == turn.actor
                                                     or actor == holder != turn.actor)
            if not shown:
                continue
            controls = controls_of(pos, play, actor)
            if not controls:
                continue
            title = grammar.verbs_of(rs)[play.verb].title
            if who == BANKER and actor is not None:
                title = f"{title} ({actor})"
            (page.steps if mine else page.also).append(grouped(title, controls))
    return page


def quiet_label(pos, play, actor, title: str) -> str:
    """A control whose command the log says nothing of (a stock-round turn ended after acting): its
    verb's title with the Next line's words about it ('Pass: ends the turn'), never its command."""
    words = legal.words_of(pos, play, [actor])
    said = re.search(r"\(([^()]*)\)\s*$", words)
    if not said or "--" in said.group(1) or re.search(r"\d", said.group(1)):   # options or a range: no words
        return title
    return f"{title}: {said.group(1)}"


def controls_of(pos, play, actor) -> list[Control]:
    """The controls of one Play for one actor: each legal command once by what it does (the same
    purchase typed two ways is one control), an open amount a field; an option left open that the
    command may leave out (a patronage amount, a city's name) an optional field of the plain one."""
    out: list[Control] = []
    s, rs = pos.s, pos.rs
    offers = [o for offer in legal.offers_of(pos, play, actor) for o in spelled(rs, offer)]

    def needs(offer) -> tuple:
        return tuple(n for n, _o in offer.open if not optional_option(rs, offer.verb, n))

    bases = {(o.values, needs(o)) for o in offers if len(o.open) == len(needs(o))}
    extra: dict[tuple, list[Field]] = {}
    merged = set()
    for offer in offers:
        key = (offer.values, needs(offer))
        if len(offer.open) > len(key[1]) and key in bases:
            fields = extra.setdefault(key, [])
            fields += [replace(field_of(rs, offer.verb, n, o), optional=True) for n, o in offer.open
                       if n not in key[1] and all(f.name != n for f in fields)]
            merged.add(id(offer))
    folded, widened = fold_options(pos, play, actor, offers, bases, needs, merged)
    for key, fields in folded.items():
        extra.setdefault(key, [])
        extra[key] = [f for f in extra[key] if all(g.name != f.name for g in fields)] + fields
    seen = set()
    for offer in offers:
        if id(offer) in merged:
            continue   # its option is an optional field of the control without it
        values = {**legal.head_of(rs, offer.verb, actor), **offer.args()}
        events = pos.events(offer.verb, values) or []
        if offer.open:
            label = f"{grammar.verbs_of(rs)[offer.verb].title}{words_said(rs, offer)}"
        else:
            label = said_once(rs, events) or quiet_label(pos, play, actor, grammar.verbs_of(rs)[offer.verb].title)
        key = (offer.verb, actor, label, tuple(n for n, _o in offer.open))
        if key in seen:
            continue
        seen.add(key)
        base = (offer.values, needs(offer))
        fields = tuple(field_of(rs, offer.verb, n, widened.get((base, n), o)) for n, o in offer.open) + \
            tuple(extra.get(base, ()))
        # a page drawn before a later command holds while what it says holds: the words, the price,
        # the bounds of what is typed, the choices
        said = label + "".join(f"|{f.name}:{f.low}:{f.high}:{f.step}:{f.optional}:{','.join(map(str, f.choices))}"
                               for f in fields)
        out.append(Control(offer.verb, actor, offer.values, label, fields, consent=taker(s, events, actor),
                           confirm=confirmation(rs, offer), seen=digest(said)))
    return out


def fold_options(pos, play, actor, offers, bases, needs, merged) -> tuple[dict, dict]:
    """An action that asks for an amount anyway (a tile's cost, a run's revenue) takes its options
    as choices of its one control rather than a control each: a private's power, tile points, fee
    modifiers (any of them together, with their counts), the train a Pullman rides; so that any
    combination the rules accept can be entered, and the engine decides it (the preview says what
    it does). Returns the choice fields of each plain offer (by its key) and each of its amounts'
    bounds widened to what any choice allows; the offers folded in are added to `merged`."""
    rs = pos.rs
    syntax = grammar.verbs_of(rs)[play.verb]
    args = {a.name for a in syntax.args}
    plain = {key for key in bases if key[1] and all(k in args for k, _v in key[0])}
    choices: dict[tuple, dict[str, list]] = {}
    spans: dict[tuple, Open] = {}
    for offer in offers:
        if id(offer) in merged:
            continue
        given = dict(offer.values)
        own = tuple((k, v) for k, v in offer.values if k in args)
        key = (own, needs(offer))
        if key not in plain or own == offer.values:
            continue
        options = {k: v for k, v in given.items() if k not in args}
        if not all(optional_option(rs, offer.verb, k) and not is_switch(syntax, k) for k in options):
            continue
        for name, value in options.items():
            found = choices.setdefault(key, {}).setdefault(name, [])
            if value not in found:
                found.append(value)
        for name, span in offer.open:
            if name in key[1] and isinstance(span, Bounds):
                spans[(key, name)] = wider(spans.get((key, name)), span)
        merged.add(id(offer))
    fields: dict[tuple, list[Field]] = {}
    for key, named in choices.items():
        fields[key] = [choice_field(pos, play, actor, name, values) for name, values in named.items()]
    widened = {}
    for (key, name), span in spans.items():
        base = next((o for o in offers if (o.values, needs(o)) == key), None)
        own = dict(base.open).get(name) if base is not None else None
        widened[(key, name)] = wider(own, span) if isinstance(own, Bounds) else span
    return fields, widened


def is_switch(syntax, name: str) -> bool:
    return any(o.name == name and o.switch for o in syntax.options)


def wider(a: Bounds | None, b: Bounds) -> Bounds:
    """The bounds holding both: a field's limits over every choice (the engine decides the rest)."""
    if a is None:
        return b
    high = None if a.high is None or b.high is None else max(a.high, b.high)
    low = min(a.low, b.low)
    return Bounds(low, high, a.step if a.step == b.step else 1)


def choice_field(pos, play, actor, name: str, values: list) -> Field:
    """An option as a choice: a list of names and counts (fee modifiers) as picks, any other as one
    of its values, or none."""
    rs = pos.rs
    dim = next((d for d in pos.dims_of(play) if d.name == name), None)
    found = legal.raw_candidates(pos, play, actor, dim, {}) if dim is not None else None
    base = field_of(rs, play.verb, name, found if isinstance(found, Picks) else Text(""))
    if isinstance(found, Picks) and not found.ordered:
        names = tuple(v for v in values if isinstance(v, str) and "=" not in v and "," not in v)
        counted = tuple(v.split("=", 1)[0] for v in values if isinstance(v, str) and v.endswith("=1"))
        said = dict(found.labels)
        choices = names + tuple(f"{c}=" for c in counted)
        return replace(base, kind="picks", hint="", choices=choices, optional=True,
                       labels=tuple(said.get(c.rstrip("="), c.rstrip("=")) for c in choices))
    return replace(base, kind="choice", hint="", choices=tuple(str(v) for v in values), optional=True)


def said_once(rs, events: list[dict], most: int = 3) -> str:
    """What a command does in the log's words, each line once: one said several times (a purchase
    of three shares, a certificate each) says how many, and what its payer pays in all."""
    said: dict[str, list[dict]] = {}
    for event in events:
        line = describe(event, rs)
        if line:
            said.setdefault(line, []).append(event)
    parts = []
    for line, made in list(said.items())[:most]:
        if len(made) > 1:
            payer = next((t[0] for e in made for t in e.get("transfers", ())), None)
            paid = sum(t[2] for e in made for t in e.get("transfers", ()) if t[0] == payer)
            line = f"{line}, {len(made)} times" + (f": {rs.money(paid)} in all" if paid else "")
        parts.append(line)
    return "; ".join(parts)


def spelled(rs, offer) -> list:
    """An offer whose one open word is an argument of a few values (a sale's count) as an offer per
    value; any other as it is."""
    if len(offer.open) != 1:
        return [offer]
    name, span = offer.open[0]
    if (not isinstance(span, Bounds) or span.high is None or span.exact or optional_option(rs, offer.verb, name)
            or (span.last - span.low) // span.step + 1 > FEW_VALUES):
        return [offer]
    return [replace(offer, values=offer.values + ((name, v),), open=())
            for v in range(span.low, span.last + 1, span.step)]


def optional_option(rs, verb: str, name: str) -> bool:
    """A word the command may leave out that is an option, not an argument."""
    return all(a.name != name for a in grammar.verbs_of(rs)[verb].args)


def describe(event: dict, rs) -> str | None:
    from ledger.interface.views import describe as said
    return said(event, rs)


def words_said(rs, offer) -> str:
    """The fixed words of an offer with open ones, as a heading says them: ': 4, from NYC'."""
    syntax = grammar.verbs_of(rs)[offer.verb]
    args = {a.name for a in syntax.args}
    parts = []
    for name, value in offer.values:
        if name in args:
            parts.append(str(value))
        else:
            opts = [o for o in syntax.options if o.name == name]
            switch = next((o for o in opts if o.switch and str(o.value) == str(value)), None)
            flag = (switch or opts[0]).flag.lstrip("-").replace("-", " ") if opts else name
            parts.append(flag if switch else f"{flag} {value}")
    return f": {', '.join(parts)}" if parts else ""


def field_of(rs, verb: str, name: str, span: Open) -> Field:
    """A field for an open word: its label from the grammar's words, its bounds or what it is."""
    syntax = grammar.verbs_of(rs)[verb]
    arg = next((a for a in syntax.args if a.name == name), None)
    opt = next((o for o in syntax.options if o.name == name and not o.switch), None)
    label = (arg.name if arg else (opt.flag.lstrip("-") if opt else name)).replace("_", " ").capitalize()
    if isinstance(span, Bounds):
        return Field(name, label, "number", span.text(), span.low, span.high, span.step)
    if isinstance(span, Picks) and span.ordered:   # every name, in an order typed: 'Ben,Cy,Ann'
        return Field(name, label, "text", span.text(), choices=tuple(span.names))
    if isinstance(span, Picks):
        choices = tuple(span.names) + tuple(f"{c}=" for c in span.counted)
        said = dict(span.labels)
        return Field(name, label, "picks", "", choices=choices,
                     labels=tuple(said.get(c.rstrip("="), c.rstrip("=")) for c in choices))
    if isinstance(span, Text):
        return Field(name, label, "text", span.what, choices=tuple(span.suggest))
    return Field(name, label, "text")


def taker(s, events: list[dict], actor) -> str | None:
    """The player whose holding the command takes for the one acting (a private, a train, a minor,
    a certificate their company holds), who must accept it: a holding that passes from another
    player's side to the actor's for nothing but money. (A holding that leaves play takes nothing;
    nor does a swap the rules make, a presidency passing on a sale: the other player gets the
    president's certificate for his shares.)"""
    mine = legal.player_for(s, actor) if actor is not None else None
    for event in events:
        moves = [(holder_player(s, item[1]), holder_player(s, item[2])) for item in holdings_moved(event, s.title)]
        for owner, to in moves:
            if owner is not None and owner != mine and to == mine and (mine, owner) not in moves:
                return owner
    return None


def holder_player(s, account) -> str | None:
    """The player an account belongs to: a player's own, or a company's, its president's."""
    if not isinstance(account, str):
        return None
    if account.startswith("player:"):
        return acct_name(account)
    if account.startswith("company:") and acct_name(account) in s.corps:
        return s.president(acct_name(account))
    return None


def confirmation(rs, offer) -> str:
    """The question a control asks before it is sent: a switch that declares what the rules cannot
    see (a company with no route ends its turn without the train it must buy)."""
    syntax = grammar.verbs_of(rs)[offer.verb]
    for name, value in offer.values:
        opt = next((o for o in syntax.options if o.name == name and o.switch and str(o.value) == str(value)), None)
        if opt is not None and opt.value is True:
            return f"{syntax.title}: {opt.help}"
    return ""


def grouped(title: str, controls: list[Control], depth: int = 0) -> Step:
    """A step of controls; too many for one screen, grouped by the first word that tells them apart
    (the company, then its price), each group a step of its own."""
    common = [v for k, v in controls[0].words if all((k, v) in c.words for c in controls)] if controls else []
    if common and depth == 0 and len(controls) > 1:
        title = f"{title} · {common[0]}"   # every control names it (the one minor Cy floats)
    if len(controls) <= MOST_AT_ONCE or depth > 2:
        return Step(title, controls)
    for index in range(max(len(c.words) for c in controls)):
        values = list(dict.fromkeys(c.words[index][1] if index < len(c.words) else None for c in controls))
        if 1 < len(values) < len(controls):
            groups = [Step(str(v) if v is not None else "other",
                           [c for c in controls if (c.words[index][1] if index < len(c.words) else None) == v])
                      for v in values]
            return Step(title, [], [g if len(g.controls) <= MOST_AT_ONCE else grouped(g.title, g.controls, depth + 1)
                                    for g in groups])
    return Step(title, controls)


def control_for(s, rs, who: str, verb: str, actor, words: dict, typed: tuple | None = None) -> Control | None:
    """The control a page's form names (verb, actor, the fixed words, and the names of the words
    it left to type when given), as the answer has it now: None when the game no longer offers it
    to this holder."""
    play = legal.play_now(s, rs, verb)
    if play is None or not acts_for(s, who, actor):
        return None
    pos = legal.Position(s, rs)
    for control in controls_of(pos, play, actor):
        if {k: str(v) for k, v in control.words} == {k: str(v) for k, v in words.items()} and (typed is None or tuple(f.name for f in control.fields) == typed):
            return control
    return None


def preview(s, rs, verb: str, actor, values: dict) -> tuple[bool, list[str]]:
    """What a command would do, decided on the game as it is: (accepted?, the log's lines or the
    refusal's one line)."""
    from ledger.core.errors import BankError, one_line
    try:
        cmd = legal.command(rs, verb, {**legal.head_of(rs, verb, actor), **values})
        events = engine.decide(s, rs, cmd)
    except BankError as exc:
        return False, [one_line(exc.line())]
    return True, [t for t in (describe(e, rs) for e in events) if t]
