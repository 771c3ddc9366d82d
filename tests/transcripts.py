"""Reading what scenario and golden tests are written in: a transcript's commands, and the tables of
a hand-worked figures file (markdown, each table under a heading)."""

from __future__ import annotations

from pathlib import Path


def complete_games() -> dict[str, str]:
    """Each title's complete example game (examples/<title>-game.txt or <title>-full-game.txt), for
    every title on this machine: the tests that play one per title read them here, with no list of
    titles of their own (a new title's folder and example are picked up)."""
    from ledger import catalog
    examples = Path(__file__).resolve().parents[1] / "examples"
    found = {}
    for title in catalog.available_titles():
        name = next((n for n in (f"{title}-game.txt", f"{title}-full-game.txt") if (examples / n).is_file()), None)
        if name:
            found[title] = name
    return found


def shipped_titles() -> list[str]:
    """The titles the bank ships (rulesets/<title>), as the catalog lists them: what a test that
    checks every title loops over (not the test titles a $BANK_TITLES folder adds)."""
    from ledger import catalog
    return [title for title in catalog.available_titles() if catalog.shipped(title)]


def complete_game(title: str) -> str:
    """The name (without .txt) of a title's complete example game; a title without one fails the
    test that asks, naming what is missing."""
    name = complete_games().get(title)
    assert name, f"{title} has no complete example game: examples/{title}-game.txt (or -full-game.txt) is missing"
    return name.removesuffix(".txt")


def lines_of(script: str) -> list[str]:
    """The commands of a transcript: comments (# ...) and blank lines dropped."""
    out = []
    for raw in script.splitlines():
        text = raw.split("#", 1)[0].strip()
        if text:
            out.append(text)
    return out


def options_of(new) -> dict:
    """The options of a `new` command (catalog.parse_line's): `--option NAME=VALUE` as NAME: VALUE,
    a bare `--option NAME` as NAME: True, as `bank new` reads them."""
    options: dict = {}
    for text in new.get("option") or []:
        name, _, value = text.partition("=")
        options[name] = value or True
    return options


def positions(name: str, every: int = 1, first: int | None = None):
    """(state, rs, the line typed next) before every `every`-th command of the example game `name`
    (its first `first` lines only), played on the engine alone."""
    from ledger import catalog
    from ledger.core import engine
    from ledger.core.events import apply
    lines = lines_of((Path(__file__).resolve().parents[1] / "examples" / f"{name}.txt").read_text(encoding="utf-8"))
    s = rs = None
    for i, line in enumerate(lines[:first]):
        cmd = catalog.parse_line(line)
        if cmd.verb == "new":
            options = options_of(cmd)
            rs = catalog.load(cmd.get("title"), options)
            s = engine.initial_state(rs, cmd.get("players"), options)
            for event in engine.start_events(rs, cmd.get("players")):
                apply(s, event)
            continue
        if i % every == 0:
            yield s, rs, line
        for event in engine.decide(s, rs, cmd):
            apply(s, event)


def markdown_tables(path: Path) -> dict[str, list[dict[str, str]]]:
    """Every markdown table of a hand-worked file, keyed by the heading just above it."""
    assert path.is_file(), f"the hand-worked figures are missing: {path}"
    found: dict[str, list[dict[str, str]]] = {}
    heading, rows = None, []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if rows:
            header, body = rows[0], [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]
            found[heading] = [dict(zip(header, r)) for r in body]
            rows = []
    return found
