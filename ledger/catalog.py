"""The titles on this machine: where each one's folder is, its data, its package of rules. The layer
that opens games reads titles here, so that the pure core (ledger.core) never touches a file, an
environment variable or an import: it is handed a Ruleset that carries its title's package.

A title is a folder holding `ruleset.toml` and, when the title has rules of its own, a Python
package (`__init__.py` and its feature modules). The shipped ones are the `rulesets` package's; a
table's own, or the test titles, are folders under a directory named on $BANK_TITLES, loaded the
same way (as the package `bank_titles.<title>`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ledger.core.errors import RulesetError
from ledger.core.ruleset import Ruleset, parse

# Folders of titles besides the shipped ones (os.pathsep-separated), each holding <title>/ruleset.toml
# (and the title's package): a table's own title, or the test titles of tests/titles.
TITLES_PATH = "BANK_TITLES"
USER_PACKAGE = "bank_titles"


def title_folder(title: str):
    """The folder of a title: the shipped one (rulesets/<title>), else one on $BANK_TITLES; None."""
    if not title or "/" in title or "\\" in title or title.startswith("."):
        return None
    if shipped(title):
        return resources.files("rulesets").joinpath(title)
    for root in filter(None, os.environ.get(TITLES_PATH, "").split(os.pathsep)):
        folder = Path(root) / title
        if (folder / "ruleset.toml").is_file():
            return folder
    return None


def shipped(title: str) -> bool:
    try:
        return resources.files("rulesets").joinpath(title).joinpath("ruleset.toml").is_file()
    except (ModuleNotFoundError, NotADirectoryError, ValueError):
        return False


def ruleset_text(title: str) -> str:
    """The TOML text of a title."""
    folder = title_folder(title)
    if folder is None:
        raise RulesetError([f"no ruleset for title '{title}'"], source=title)
    return folder.joinpath("ruleset.toml").read_text()


def available_titles() -> list[str]:
    roots = [resources.files("rulesets")] + [Path(r) for r in os.environ.get(TITLES_PATH, "").split(os.pathsep) if r]
    found = set()
    for root in roots:
        try:
            found |= {p.name for p in root.iterdir() if p.is_dir() and p.joinpath("ruleset.toml").is_file()}
        except OSError:
            continue
    return sorted(found)


def title_package(title: str):
    """The title's package of rules (rulesets/<title>/__init__.py, or the same in its folder on
    $BANK_TITLES), or None for a title that is data alone."""
    folder = title_folder(title)
    if folder is None or not folder.joinpath("__init__.py").is_file():
        return None
    if shipped(title):
        return importlib.import_module(f"rulesets.{title}")
    name = f"{USER_PACKAGE}.{title}"  # a title outside the shipped ones: loaded from its folder, once
    if name not in sys.modules:
        if USER_PACKAGE not in sys.modules:
            holder = importlib.util.module_from_spec(importlib.util.spec_from_loader(USER_PACKAGE, loader=None))
            holder.__path__ = []
            sys.modules[USER_PACKAGE] = holder
        spec = importlib.util.spec_from_file_location(name, Path(str(folder)) / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[loaded]  # a package that failed to load is not half-registered
            raise
    return sys.modules[name]


def load(title: str, options: dict[str, Any] | None = None, override: Path | None = None) -> Ruleset:
    """A title's ruleset, optionally with a table's override file merged over it."""
    text = ruleset_text(title)
    extra = override.read_text() if override else ""
    return parse(text, options or {}, source=title, override_text=extra, package=title_package(title))


def parse_stored(text: str, options: dict, title: str, override_text: str = "") -> Ruleset:
    """The ruleset a game file stores, with its title's rules as this machine has them."""
    return parse(text, options, source=title, override_text=override_text, package=title_package(title),
                 stored=True, current_text=ruleset_text(title) if title in available_titles() else "")


@lru_cache(maxsize=None)
def title_ruleset(title: str) -> Ruleset:
    """A title's ruleset with its default options (for help and completion outside a game)."""
    return load(title)


# --------------------------------------------------------------------------- every title's words

@lru_cache(maxsize=None)
def all_verbs() -> dict:
    """Every verb of every title: the command line is built before a game is open, so it knows
    the union; a game refuses a verb or an option its title lacks."""
    from ledger.core import grammar
    return grammar.merged([grammar.grammar_of(title_ruleset(t)) for t in available_titles()])


@lru_cache(maxsize=None)
def all_kinds() -> dict:
    from ledger.core import grammar
    kinds = dict(grammar.KINDS)
    for t in available_titles():
        kinds.update(grammar.grammar_of(title_ruleset(t)).kinds)
    return kinds


def parse_line(text: str):
    """A transcript line read with every title's verbs (a game's own: grammar.parse_line(text,
    grammar.verbs_of(rs)))."""
    from ledger.core import grammar
    return grammar.parse_line(text, all_verbs())


def parse_text(text: str, options: dict | None = None, source: str = "ruleset", override_text: str = "") -> Ruleset:
    """A ruleset from a TOML text, with the rules of the title the text names."""
    import tomllib
    try:
        title = str(tomllib.loads(text).get("title", source))
    except tomllib.TOMLDecodeError:
        title = source
    return parse(text, options or {}, source=source, override_text=override_text, package=title_package(title))


def verbs_of_title(title: str) -> dict:
    """The verbs a game of the title understands (with its default options)."""
    from ledger.core import grammar
    return grammar.verbs_of(title_ruleset(title))


def default_title() -> str | None:
    """The title help's examples, `bank info` and `bank demo` use when no game is open: the one the
    shipped titles' package names (rulesets.DEFAULT), else the first title on this machine."""
    titles = available_titles()
    default = getattr(importlib.import_module("rulesets"), "DEFAULT", None)
    return default if default in titles else (titles[0] if titles else None)


def default_ruleset():
    """The default title's ruleset (its words fill help's examples outside a game), or None."""
    title = default_title()
    return title_ruleset(title) if title else None


def log_import(source: str) -> tuple[str, dict]:
    """The title whose data says the bank imports its recorded games from `source` (its TOML's
    [log_import] table, e.g. source = "18xx.games"), with that table and the title's company
    symbols: the importer reads that site's logs of that title only."""
    import tomllib
    for title in available_titles():
        try:
            data = tomllib.loads(ruleset_text(title))
        except (RulesetError, tomllib.TOMLDecodeError, OSError):
            continue
        table = data.get("log_import")
        if isinstance(table, dict) and table.get("source") == source:
            corps = tuple(str(c.get("sym")) for c in data.get("corporations", []) if isinstance(c, dict))
            return title, {**table, "corporations": corps}
    raise RulesetError([f"no title on this machine imports {source} logs"], source=source)


def forget() -> None:
    """Read the titles afresh (after $BANK_TITLES changed)."""
    for cached in (all_verbs, all_kinds, title_ruleset):
        cached.cache_clear()
