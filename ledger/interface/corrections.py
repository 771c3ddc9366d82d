"""What a correction says it did (undo, redo, restore, insert, amend), and how the command it
records is read: the same in the terminal (ledger.interface.cli) and on the banker's page
(ledger.interface.board.table). The session decides the corrections; this module only reads and
words them."""

from __future__ import annotations

import shlex
from collections import Counter

from ledger.core import grammar
from ledger.core.command import Command
from ledger.core.errors import CommandError
from ledger.core.events import holder_words, marker_move, signed_money
from ledger.core.state import GameState, train_type
from ledger.interface.verbs import verbs_of


def span(ids: list[int]) -> str:
    return f"{ids[0]}" if len(ids) == 1 else f"{ids[0]}-{ids[-1]}"


def undone_to(rows: list[dict], to) -> list[str]:
    """`undo --to N`: the commands hidden, and how to bring them back."""
    return [f"undone: {len(rows)} command(s) after command {to}, from {rows[0]['id']} ({rows[0]['text']}) "
            f"to {rows[-1]['id']} ({rows[-1]['text']}); redo brings them back, and bank restore "
            f"{rows[0]['id']} at any time"]


def undone(row: dict) -> list[str]:
    """`undo`: the command hidden (an insert's commands in play again as they were recorded)."""
    lines = [f"undone: {row['text']}"]
    if row["restored"]:
        lines.append(f"  the {len(row['hidden'])} command(s) it recorded are hidden; commands "
                     f"{span(row['restored'])} are in play again as they were recorded")
    return lines


def redone(row: dict) -> list[str]:
    if len(row["restored"]) == 1 and not row["superseded"]:
        return [f"redone: {row['text']}"]
    return [f"redone: {len(row['restored'])} command(s), {span(row['restored'])}"
            + (f" (commands {span(row['superseded'])} superseded again)" if row["superseded"] else "")]


def restored(done) -> str:
    olds = [old for old, _new in done.renumbered]
    news = [new for _old, new in done.renumbered]
    return f"restored {len(olds)} hidden command(s), {span(olds)}, as commands {span(news)}"


def inserted(done, number: int, text: str) -> str:
    return f"inserted as command {done.command_id}, before command {number}: {text}"


def amended(done, target: int, old_text: str, text: str) -> str:
    return f"amended command {target} ({old_text}): now command {done.command_id}: {text}"


def correction_line(words: list[str], verb: str, example: str, rs) -> tuple[str, Command]:
    """The command a correction records, as typed (one quoted argument, or the words) and parsed
    with the game's verbs."""
    text = (words[0] if len(words) == 1 else shlex.join(words)).removeprefix("bank ")
    verbs = verbs_of(rs)
    cmd = grammar.parse_line(text, verbs)
    if not verbs[cmd.verb].game:
        what = "inserted" if verb == "insert" else "the correction of a command"
        raise CommandError(f"only a game command can be {what}, not '{cmd.verb}'", f"e.g. {example}")
    return text, cmd


# --------------------------------------------------------------------------- what a correction changed

def changes(before: GameState, after: GameState, rs) -> list[str]:
    """What a correction changed in the game, in the words of the results: every balance that
    moved, every certificate, train and private that changed hands, every price marker that moved.
    A banker puts the table right from these lines alone."""
    said = [(what, text) for what, text in (
        ("money", money_changed(before, after, rs)),
        ("certificates", certificates_changed(before, after)),
        ("trains", trains_changed(before, after)),
        ("privates", assets_changed(before, after)),
        ("prices", prices_changed(before, after, rs))) if text]
    if not said:
        return ["  nothing changed hands: no money, certificate, train, private or price moved"]
    return [f"  {what}: {text}" for what, text in said]


def money_changed(before: GameState, after: GameState, rs) -> str:
    """'Alice -$67, the bank +$67': each account's balance now less before, the players first."""
    diff = {a: after.balances.get(a, 0) - before.balances.get(a, 0)
            for a in [*before.balances, *(a for a in after.balances if a not in before.balances)]}
    order = {f"player:{p}": i for i, p in enumerate(after.players)}
    moved = sorted((a for a, v in diff.items() if v), key=lambda a: (order.get(a, len(order)), not a.startswith("company:")))
    return ", ".join(f"{holder_words(a)} {signed_money(diff[a], rs.currency)}" for a in moved)


def certificates_changed(before: GameState, after: GameState) -> str:
    """"NYC: the president's certificate from Alice to Carol, 20% from Carol to Alice; PRR: 10% from
    Bob to the IPO": the certificates that now have another holder, by company, its percents from
    one holder to another added up."""
    moved: dict[str, Counter] = {}
    presidents: dict[str, list[str]] = {}
    for cert in sorted(set(before.certs) | set(after.certs)):
        old, new = before.certs.get(cert), after.certs.get(cert)
        if old == new:
            continue
        corp = cert.rsplit(".", 1)[0]
        if cert in (after.presidents.get(corp), before.presidents.get(corp)):
            presidents.setdefault(corp, []).append(
                f"the president's certificate from {holder_words(old)} to {holder_words(new)}")
        moved.setdefault(corp, Counter())
        if cert not in (after.presidents.get(corp), before.presidents.get(corp)):
            moved[corp][old, new] += after.cert_percent.get(cert, before.cert_percent.get(cert, 0))
    return "; ".join(f"{corp}: " + ", ".join(presidents.get(corp, []) + [
        f"{pct}% from {holder_words(old)} to {holder_words(new)}" for (old, new), pct in moved[corp].items()])
        for corp in moved)


def trains_changed(before: GameState, after: GameState) -> str:
    """'a 2 train from the bank to NYC': the trains that now have another holder, by type."""
    moved = Counter((train_type(t), before.trains.get(t, "depot"), after.trains.get(t, "depot"))
                    for t in set(before.trains) | set(after.trains)
                    if before.trains.get(t, "depot") != after.trains.get(t, "depot"))
    return ", ".join((f"a {kind} train" if n == 1 else f"{n} {kind} trains")
                     + f" from {holder_words(old)} to {holder_words(new)}" for (kind, old, new), n in sorted(moved.items()))


def assets_changed(before: GameState, after: GameState) -> str:
    """'CA from Bob to PRR', 'BO closes', 'BO opens again': privates (and a title's other pieces)
    that changed hands or closed."""
    out = []
    for sym, now in after.assets.items():
        was = before.assets.get(sym)
        if was is None:
            continue
        if was.owner != now.owner:
            out.append(f"{sym} from {holder_words(was.owner) if was.owner else 'the bank'} to "
                       f"{holder_words(now.owner) if now.owner else 'the bank'}")
        if was.closed != now.closed:
            out.append(f"{sym} {'closes' if now.closed else 'opens again'}")
    return ", ".join(out)


def prices_changed(before: GameState, after: GameState, rs) -> str:
    """'NYC falls from $76 to $71': each price marker now elsewhere, from and to."""
    return ", ".join(f"{sym} {marker_move(rs, before.corps[sym].cell, c.cell)}" for sym, c in after.corps.items()
                     if sym in before.corps and before.corps[sym].cell != c.cell)
