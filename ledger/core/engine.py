"""The pure core: new game, decide (command -> events), replay (events -> state).

`decide` never touches the state it is given: it works on a copy, emitting events one at a time and
applying each to the copy, so that rules checked later in the same command (and the automatic
consequences: end of a round, the next round's start) see the results of earlier events.

Which rule plays a verb, what happens on its own after a command and which round comes next are
asked of the title's registry (ledger.core.registry), never decided here by round name.
"""

from __future__ import annotations

from ledger.core import events, grammar, names, registry, round_kind
from ledger.core.command import Command, Reading
from ledger.core.errors import WAIVING, BankError, CommandError, LedgerCorrupt, RuleViolation, one_line, refuse
from ledger.core.names import pasteable
from ledger.core.plays import Play
from ledger.core.events import apply
from ledger.core.rules import privates
from ledger.core.rules.shares import unsold_holder
from ledger.core.ruleset import Ruleset
from ledger.core.state import BANK, DEPOT, MINT, REMAINDER, Asset, Corp, GameState, cert_corp, player_acct
from ledger.core.titles import for_ruleset


class Ctx:
    """What a rule handler works with: the evolving state, the ruleset, the title's registry, and
    `emit`."""

    def __init__(self, state: GameState, rs: Ruleset):
        self.state = state
        self.rs = rs
        self.reg = for_ruleset(rs)
        self.events: list[dict] = []

    def emit(self, kind: str, **fields) -> dict:
        event = events.make(kind, fields, self.state.title)
        check_balanced(event)
        apply(self.state, event)
        self.events.append(event)
        self.after_money(event)
        return event

    def next_round(self, **carry) -> None:
        """The current round is over: start the next round of the title's sequence, handing it
        `carry` (e.g. the priority deal)."""
        kind = registry.next_kind(self.rs, self.state.round["kind"])
        self.reg.rounds[kind].start(self, **carry)

    def after_money(self, event: dict) -> None:
        """The bank breaks the first time it pays more than it holds (or reaches 0, per ruleset)."""
        s = self.state
        if s.bank_broken or self.rs.k("bank", "breaks") == "never":
            return
        can_break = self.reg.rules.get("bank_can_break")   # 1801 §13: not once the final sequence began
        if can_break and not can_break(s):
            return
        if not any(t[0] == BANK for t in event.get("transfers", ())):
            return
        limit = 0 if self.rs.k("bank", "breaks") == "below_zero" else 1
        if s.cash(BANK) < limit:
            last = self.reg.rounds[s.round["kind"]].breaks_bank(s)
            self.emit("bank_broke", bank=s.cash(BANK), end_after_set=last, **self.last_or(last))
            self.reg.call("bank_broke", self)

    def last_or(self, last_set: int) -> dict:
        """Where the title ends the game with a single OR rather than a set (1801 §13): the OR under
        way, or the first OR after the stock round."""
        s, rs = self.state, self.rs
        if s.round["kind"] == "operating":
            if rs.k("endgame", "bank_broken_in_or") == "end_of_or":
                return {"end_at_or": [s.round["set"], s.round["index"]]}
        elif rs.k("endgame", "bank_broken_in_sr") == "after_next_or":
            return {"end_at_or": [last_set, 1]}
        return {}


def check_balanced(event: dict) -> None:
    for t in event.get("transfers", ()):
        if len(t) != 3 or not isinstance(t[2], int) or t[2] < 0:
            raise LedgerCorrupt(f"event {event['kind']}: bad transfer {t!r}")


# --------------------------------------------------------------------------- new game

def start_events(rs: Ruleset, players: list[str]) -> list[dict]:
    """The events of a new game: the bank pays each player's starting cash, the first round opens."""
    n = len(players)
    if n not in rs.players:
        counts = sorted(rs.players)
        raise RuleViolation(f"{rs.title} is for {counts[0]}-{counts[-1]} players, not {n}")
    if len({p.lower() for p in players}) != n:
        raise CommandError("player names must differ (case-insensitively)")
    for p in players:
        if not p.strip() or not p.isprintable():
            raise CommandError(f"a player's name must be printable text, got '{one_line(p)}'",
                               "quote a name with spaces: \"Anne Marie\"")
    cash = rs.players[n]["cash"]
    ctx = Ctx(initial_state(rs, players), rs)
    percents = {cert: pct for c in rs.corporations for cert, pct in certificates(rs, c.sym)}
    issued = [[cert, None, unsold_holder(rs.starting_kind(cert_corp(cert)), cert_corp(cert))] for cert in percents]
    # The bank is issued its money by the mint, so every posting, the opening one too, balances.
    ctx.emit("game_started", players=list(players), certs=issued, percents=percents,
             presidents=starting_presidents(rs),
             transfers=[[MINT, BANK, rs.bank_total]] + ([[MINT, REMAINDER, rs.remainder]] if rs.remainder else [])
             + [[BANK, player_acct(p), cash] for p in players])
    list_companies(ctx)
    left_out = privates.out_of_play(rs, n)
    if left_out:
        ctx.emit("privates_closed", privates=left_out, reason=f"not in a {n}-player game")
    for player, sym in privates.deal(rs, list(players)):   # a deal instead of an auction: each pays face
        face = rs.private(sym).face
        ctx.emit("private_bought", player=player, private=sym, price=face, normal=False, dealt=True,
                 transfers=[[player_acct(player), BANK, face]] if face else [])
    ctx.reg.call("game_started", ctx)
    ctx.reg.rounds[registry.first_kind(rs)].start(ctx, priority=0)
    return ctx.events


def list_companies(ctx: Ctx) -> None:
    """Companies with no director whose data gives a price go on the market as the game starts,
    floating at once when their kind floats with nothing sold."""
    from ledger.core.rules.market import par_cell
    for c in ctx.rs.corporations:
        kind = ctx.rs.starting_kind(c.sym)
        if c.listed_at is not None and not kind.president:
            ctx.emit("company_listed", corp=c.sym, price=c.listed_at, moves=[[c.sym, None, list(par_cell(ctx.rs, c.listed_at))]])
            if kind.float_percent == 0:
                ctx.emit("floated", corp=c.sym, capital=0)


def certificates(rs: Ruleset, sym: str) -> list[tuple[str, int]]:
    """A company's certificates as the game starts: ids `SYM.0`, `SYM.1` ... and their percents."""
    return [(f"{sym}.{i}", pct) for i, pct in enumerate(rs.starting_kind(sym).certificates)]


def starting_presidents(rs: Ruleset) -> dict[str, str]:
    """Each company whose kind has a director: its president's certificate (the first)."""
    return {c.sym: f"{c.sym}.0" for c in rs.corporations if rs.starting_kind(c.sym).president}


def initial_state(rs: Ruleset, players: list[str], options: dict | None = None) -> GameState:
    # Certificates are issued by the game_started event, which says each one's holder and percent, so
    # the ledger records them. (Games recorded before it said the percents need them set here.)
    percent = {cert: pct for corp in rs.corporations for cert, pct in certificates(rs, corp.sym)}
    trains = {}
    for t in rs.trains:
        for i in range(1, (t.count or 0) + 1):
            trains[f"{t.name}.{i}"] = DEPOT
    corps = {c.sym: Corp(c.sym, kind=rs.starting_kind(c.sym).name) for c in rs.corporations}
    return GameState(
        title=rs.title,
        players=list(players),
        options=dict(options or {}),
        cert_limit=rs.players[len(players)]["cert_limit"] if len(players) in rs.players else 0,
        balances={},
        certs={},
        cert_percent=percent,
        assets=starting_assets(rs),
        corps=corps,
        presidents=starting_presidents(rs),
        trains=trains,
        phase=rs.phases[0].name,
        round={"kind": "setup"},
        axes={axis: phases[0] for axis, phases in rs.axes.items()},
        own=title_state(rs),
    )


def starting_assets(rs: Ruleset) -> dict[str, Asset]:
    """The privates (unsold, at face value), the title's own pieces ([[assets]]) and what its
    module adds (1843: the ports on the map), all with the bank as the game starts."""
    added = for_ruleset(rs).rules.get("initial_assets")
    kinds = {sym: kind for kind, syms in rs.assets.items() for sym in syms} | (added(rs) if added else {})
    return {**{p.sym: Asset(p.sym, price=p.face) for p in rs.privates},
            **{sym: Asset(sym, kind=kind) for sym, kind in kinds.items()}}


def title_state(rs: Ruleset):
    """The state a title's own rules keep, as the game starts: its STATE dataclass, made by its
    `start(rs)` when it has one (1801: an option sets a field), or by its defaults; None for a title
    that keeps none."""
    cls = rs.parts.state
    if cls is None:
        return None
    return cls.start(rs) if hasattr(cls, "start") else cls()


def replay(rs: Ruleset, players: list[str], events: list[dict], options: dict | None = None) -> GameState:
    state = initial_state(rs, players, options)
    for event in events:
        apply(state, event)
    return state


# --------------------------------------------------------------------------- decide

READ_ONLY = {"status", "market", "score", "log"}
# Corrections and counts are recorded even after the game has ended.
ALWAYS = {"adjust", "count"}
# Verbs a pending decision does not hold up.
UNBLOCKED = ALWAYS | {"end"}


def decide(state: GameState, rs: Ruleset, cmd: Command) -> list[dict]:
    """The events a command produces, or a CommandError/RuleViolation. `state` is not changed."""
    return decide_with_state(state, rs, cmd)[0]


def decide_with_state(state: GameState, rs: Ruleset, cmd: Command, read: set | None = None,
                      memo: dict | None = None) -> tuple[list[dict], GameState]:
    """As `decide`, also returning the state after the events (a new object). A refusal's hint
    names symbols as they paste into bash (names.pasteable): a hint is what to type next. `read`
    gets the words the rules read (the answer of what is legal prunes its search with them)."""
    try:
        return decided(state, rs, cmd, read, memo)
    except BankError as exc:
        if exc.hint and not exc.literal_hint:
            exc.hint = pasteable(exc.hint, rs)
        raise


def decided(state: GameState, rs: Ruleset, cmd: Command, read: set | None = None,
            memo: dict | None = None) -> tuple[list[dict], GameState]:
    if state.game_over and cmd.verb not in READ_ONLY | ALWAYS:
        raise RuleViolation(f"the game is over ({state.end_reason}); only status, market, score and log work")
    reg = for_ruleset(rs)
    play = play_now(reg, state, rs, cmd.verb)
    # names and amounts are read once, here; the caller's Command (what the ledger stores) stays as typed
    cmd = grammar.resolve(state, rs, cmd)
    cmd = Command(cmd.verb, Reading(cmd.args, into=read))
    forced = cmd.get("force")
    if forced and not cmd.get("reason"):
        raise CommandError("--force needs --reason TEXT: a waived rule is recorded with its reason")
    token = WAIVING.set([] if forced else None)
    try:
        refuse_by_play(reg, play, state, rs, cmd, memo)  # the true reason first: the actor, then the verb's bars
        refuse_unread(state, rs, play, cmd)
        ctx = Ctx(state.clone(), rs)
        reg.call("before_verb", ctx, cmd)
        cmd = Command(cmd.verb, Reading(cmd.args, into=read))   # what the rule itself reads
        play.run(ctx, cmd)
        if not forced:   # a forced command may skip the checks that would read its words
            refuse_ignored(state, rs, cmd)
        waived = list(dict.fromkeys(WAIVING.get() or ()))
    finally:
        WAIVING.reset(token)
    if forced:
        ctx.emit("rules_waived", rules=waived, reason=cmd.get("reason"), command=cmd.verb)
    progress(ctx)
    return ctx.events, ctx.state


def refuse_unread(state: GameState, rs: Ruleset, play: Play, cmd: Command) -> None:
    """A word the verb's rule does not read in this round is refused rather than ignored."""
    if play.reads is None:
        return
    read = set(play.reads) | {actor_arg(rs, cmd.verb), "force", "reason"}
    extra = [k for k in cmd.args if k not in read]
    if not extra:
        return
    for k in extra:   # their being there is what is refused
        cmd.get(k)
    syntax = grammar.verbs_of(rs)[cmd.verb]
    words = [next((o.flag for o in syntax.all_options() if o.name == k), k.upper()) for k in extra]
    usage = " ".join(a.name.upper() for a in syntax.args if a.name in read)
    raise CommandError(f"'{cmd.verb}' takes no {' or '.join(words)} in {round_kind.round_label(state)}",
                       f"{cmd.verb} {usage}")


def refuse_ignored(state: GameState, rs: Ruleset, cmd: Command) -> None:
    """A word the rule never read (an option it has no use for in this case) is refused, not
    ignored: what a command records is what it did."""
    unread = [k for k in cmd.args.unread() if k not in ("force", "reason")]
    if not unread:
        return
    for k in unread:   # their being there is what is refused
        cmd.get(k)
    syntax = grammar.verbs_of(rs)[cmd.verb]
    words = [next((o.flag for o in syntax.all_options() if o.name == k), k.upper()) for k in unread]
    raise CommandError(f"'{cmd.verb}' has no use for {' or '.join(words)} here ({round_kind.round_label(state)})",
                       f"leave out {' '.join(words)}")


class Reached(Exception):
    """A probe's rule reached its first event: the command may be accepted (decide it to know)."""


class Probe(Ctx):
    """A rule run on the game as it is, stopped at its first event: what it refuses before then it
    refuses without the copy of the game a decision works on (most commands the answer of what is
    legal tries are refused at once)."""

    def __init__(self, state: GameState, rs: Ruleset):
        super().__init__(state, rs)

    def emit(self, kind: str, **fields) -> dict:
        raise Reached(kind)


def attempt(state: GameState, rs: Ruleset, cmd: Command, memo: dict | None = None) -> tuple[list[dict] | None, frozenset]:
    """A command decided for the answer of what is legal: (its events, or None when refused; the
    words the rules read to decide it). A refusal found before the rule's first event costs no
    copy of the game. `memo`: kept by the caller for the commands it decides on this same state."""
    read: set = set()
    try:
        if refused_at_once(state, rs, cmd, read, memo):
            return None, frozenset(read)
        read.clear()
        return decide_with_state(state, rs, cmd, read, memo)[0], frozenset(read)
    except BankError:
        return None, frozenset(read)


def refused_at_once(state: GameState, rs: Ruleset, cmd: Command, read: set | None = None,
                    memo: dict | None = None) -> bool:
    """True when the command is refused before its rule records anything (then decide refuses it
    for the same reason); False when a decision is needed to know. Nothing is changed."""
    if state.game_over and cmd.verb not in READ_ONLY | ALWAYS:
        return True
    if cmd.get("force"):
        return False
    reg = for_ruleset(rs)
    try:
        play = play_now(reg, state, rs, cmd.verb)
        cmd = grammar.resolve(state, rs, cmd)
        cmd = Command(cmd.verb, Reading(cmd.args, into=read))
        refuse_by_play(reg, play, state, rs, cmd, memo)
        refuse_unread(state, rs, play, cmd)
        ctx = Probe(state, rs)
        reg.call("before_verb", ctx, cmd)
        play.run(ctx, cmd)
    except BankError:
        return True
    except Reached:
        return False
    return False


def missing_verb(rs: Ruleset, verb: str) -> str:
    """Why a game has no such command: none at all, or one its title's kinds of company lack."""
    known = {v.name: v for v in grammar.SHARED}.get(verb)
    if known is not None and not known.game:
        return f"'{verb}' is not a game command"
    if known is not None and known.needs:
        return f"{rs.title} has no '{verb}': none of its kinds of company {grammar.KIND_FEATURE_WORDS[known.needs]}"
    return f"{rs.title} has no '{verb}' (another title's command)"


def play_inside(ctx: Ctx, cmd: Command) -> None:
    """A command played inside another command's rule, on the same context, as if it were typed
    next: its names read, refused by its Play (actor, bars), its rule played, the rounds moving on
    (a title's verb that plays a whole round of typed lines, e.g. a repeat of the OR before)."""
    cmd = grammar.resolve(ctx.state, ctx.rs, cmd)
    play = play_now(ctx.reg, ctx.state, ctx.rs, cmd.verb)
    refuse_by_play(ctx.reg, play, ctx.state, ctx.rs, cmd)
    ctx.reg.call("before_verb", ctx, cmd)
    play.run(ctx, cmd)
    progress(ctx)


def play_now(reg, state: GameState, rs: Ruleset, verb: str) -> Play:
    """The Play of `verb` now: the answer to a pending decision, or the verb in this round."""
    if state.pending and verb not in UNBLOCKED:
        due = state.pending[0]
        answer = reg.answer_plays.get(due["kind"], {}).get(verb)
        if answer is None:
            raise pending_refusal(reg, state, rs, due)
        return answer
    play = reg.play_for(state.round["kind"], verb)
    if play is None:
        rounds = [k for k in reg.rounds_of(verb) if k in reg.rounds]
        if not rounds:
            raise CommandError(missing_verb(rs, verb))
        label = round_kind.round_label(state)
        if reg.elsewhere(verb):
            raise RuleViolation(f"{reg.elsewhere(verb)} (now: {label})")
        raise RuleViolation(f"'{verb}' is not played in {label}", f"it is played in: {', '.join(rounds)}")
    check_gate(play, state)
    return play


def check_gate(play: Play, state: GameState) -> None:
    """A verb a title plays only in some phases of a phase axis (1801: secondary shares from the
    Major phase) is refused in the others."""
    for axis, phases in play.phases.items():
        now = state.axes.get(axis)
        if now not in phases:
            raise RuleViolation(f"'{play.verb}' is played in the {' or '.join(phases)} {axis} phase (now: {now})")


def pending_refusal(reg, state: GameState, rs: Ruleset, due: dict) -> RuleViolation:
    """The one line that says who must decide what before play goes on."""
    message, hint = reg.pending_text[due["kind"]](state, rs, due, reg)
    return RuleViolation(message, hint)


# --------------------------------------------------------------------------- who may act, and why not

def actor_arg(rs: Ruleset, verb: str) -> str | None:
    """The argument that names who acts with a verb: its first, when that names a player or a
    company (None for a verb nobody in particular types: deal, end, adjust)."""
    syntax = grammar.verbs_of(rs).get(verb)
    if syntax is None or not syntax.args or syntax.args[0].kind not in ACTOR_KINDS:
        return None
    return syntax.args[0].name


ACTOR_KINDS = ("player", "company")


def actor_of(state: GameState, rs: Ruleset, cmd: Command) -> str | None:
    """Who acts with the command: its actor argument read strictly, so that a word naming nobody is
    refused in the name's own words before anything is said about turns."""
    arg = actor_arg(rs, cmd.verb)
    if arg is None or cmd.get(arg) is None:
        return None
    raw = cmd.get(arg)
    kind = grammar.verbs_of(rs)[cmd.verb].args[0].kind
    if kind == "player":
        return names.player(state, raw)
    return names.corp(rs, raw) if names.item(rs, raw)[0] == "corp" else None


def actors_now(reg, play: Play, state: GameState, rs: Ruleset) -> list | None:
    """Who may use the Play now: its own `who` (None from it: anyone), a pending decision's decider,
    or the round's actors."""
    if play.who is not None:
        found = play.who(state, rs)
        return None if found is None else list(found)
    if play.answers:
        return [reg.pending_heading[play.answers](state, rs, state.pending[0], reg)[0]] if state.pending else []
    kind = reg.rounds[state.round["kind"]]
    return list(kind.actors(state, rs)) if kind.actors else [kind.actor(state)]


def when_bars(reg, play: Play, state: GameState, rs: Ruleset) -> list[str]:
    """Why nobody may use the Play now: the title's bars on every verb, then the Play's own `when`."""
    out = []
    for bar in reg.title_bars:
        out += bar(state, rs, play.verb)
    return out + list(play.when(state, rs))


def bars_of(reg, play: Play, state: GameState, rs: Ruleset, actor) -> list[str]:
    """Why `actor` may not use the Play now: nobody may (when_bars), or the Play's bars for him."""
    return when_bars(reg, play, state, rs) + list(play.bars(state, rs, actor))


def refusal(reg, play: Play, state: GameState, rs: Ruleset, cmd: Command,
            memo: dict | None = None) -> tuple[str, str | None] | None:
    """Why the command is refused before its rule runs, in the rules' order, or None: every name
    must name someone or something, the actor must be one who may use the verb now, then the
    verb's bars must be empty. `memo`: what was found for other commands on the same state (who may
    use a Play and its bars depend on the Play and the actor alone), when many are decided on one."""
    names_known(state, rs, cmd)
    now = remembered(memo, ("when", id(play)), lambda: when_bars(reg, play, state, rs))
    if now:
        return now[0], None
    name = actor_arg(rs, cmd.verb)
    actor = actor_of(state, rs, cmd) if name else None
    if name and actor is not None:
        actors = remembered(memo, ("actors", id(play)), lambda: actors_now(reg, play, state, rs))
        if actors is not None and actor not in actors:
            return not_turn(reg, play, state, rs, actor, actors)
    if name and cmd.get(name) is not None and actor is None:
        return None   # the actor's word names something else (a private where a company is read): the rule's to refuse
    bars = remembered(memo, ("bars", id(play), actor), lambda: list(play.bars(state, rs, actor)))   # nobody's: none
    return (bars[0], None) if bars else None


def remembered(memo: dict | None, key, find):
    if memo is None:
        return find()
    if key not in memo:
        memo[key] = find()
    return memo[key]


NAME_KINDS = ("player", "company", "private", "item")


def names_known(state: GameState, rs: Ruleset, cmd: Command) -> None:
    """A word that names no player, company or private is refused in the name's own words (with
    its hint: a shell cut B&O at '&'), before anything is said about turns."""
    syntax = grammar.verbs_of(rs).get(cmd.verb)
    if syntax is None:
        return
    for arg in syntax.args:
        if arg.kind not in NAME_KINDS or arg.many:   # a word that names nothing is not read here
            continue
        raw = cmd.get(arg.name)
        if raw is None:
            continue
        if arg.kind == "player":
            names.player(state, raw)
        elif str(raw).strip().upper() not in asset_words(state):
            # a private where a company is read, or the reverse, is the rule's to refuse in its words;
            # a title's own pieces (1801's concessions) its rule reads
            names.item(rs, raw)


def asset_words(state: GameState) -> frozenset:
    """The game's pieces' symbols in upper case (a game's set of pieces is fixed as it starts)."""
    found = state.__dict__.get("_asset_words")
    if found is None or len(found) != len(state.assets):
        found = frozenset(a.upper() for a in state.assets)
        state.__dict__["_asset_words"] = found
    return found


def refuse_by_play(reg, play: Play, state: GameState, rs: Ruleset, cmd: Command, memo: dict | None = None) -> None:
    found = refusal(reg, play, state, rs, cmd, memo)
    if found:
        refuse(*found)


def not_turn(reg, play: Play, state: GameState, rs: Ruleset, actor: str, actors: list) -> tuple[str, str | None]:
    """The refusal of an actor who may not use the verb now."""
    if play.not_actor:
        return play.not_actor(state, rs, actor)
    if play.answers and state.pending:
        message, hint = reg.pending_text[play.answers](state, rs, state.pending[0], reg)
        return message, hint
    kind = reg.rounds[state.round["kind"]]
    if kind.not_turn:
        return kind.not_turn(state, rs, actor, actors, play.verb)
    label = round_kind.round_label(state)
    if not actors:
        return f"nobody may {play.verb} now in {label}", None
    return f"it is {' or '.join(map(str, actors))}'s turn in {label}, not {actor}'s", None


def progress(ctx: Ctx) -> None:
    """Automatic consequences after a command: rounds ending and starting, until a player must act."""
    for _ in range(1000):
        s = ctx.state
        if s.game_over or s.pending:
            return
        if not ctx.reg.rounds[s.round["kind"]].progress(ctx):
            return
    raise LedgerCorrupt("the game does not settle after a command (a loop in the round logic)")


def handlers(rs: Ruleset) -> dict:
    """Every game verb of a title (for the CLI and tests that list them)."""
    reg = for_ruleset(rs)
    return {verb: play.run for (_kind, verb), play in reg.plays.items()}
