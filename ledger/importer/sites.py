"""Which title a recorded game is, and that title's words for reading it.

Each title says in its own folder (its TOML's [log_import] table) that the bank imports a site's
recorded games of it: `source` (the site), the names the site's Log tab gives its privates and
optional rules, and under [log_import.json] what its JSON record needs: the site's title(s), the
site's private symbols where they differ from the bank's, its optional rules' symbols, the tile
costs of each hex (the record has none), the privates whose abilities move money. The shared
readers (logparse, record) hold no title's words: they ask here, per game, for the title it names.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field

from ledger import catalog
from ledger.core.errors import CommandError, RulesetError

SOURCE = "18xx.games"


@dataclass(frozen=True)
class TitleWords:
    title: str                         # the bank's title (its folder)
    table: dict                        # the title's [log_import] table
    corporations: tuple[str, ...]
    privates: tuple[str, ...]          # the bank's private symbols

    @property
    def json(self) -> dict:
        return dict(self.table.get("json") or {})

    @property
    def site_titles(self) -> tuple[str, ...]:
        return tuple(self.json.get("titles") or (self.title,))

    def private(self, site_sym: str) -> str:
        """The bank's symbol of a private the JSON record names `site_sym`."""
        return dict(self.json.get("privates") or {}).get(site_sym, site_sym)

    def options(self, site_rules, settings: dict | None = None) -> dict:
        """The game's options in the bank's terms: the site's optional rules it lists, every other
        option the title maps left off, those every game on the site plays, and the valued options
        the record's settings decide ([log_import.json] settings_options: an option's value as a
        template of the settings, e.g. "seed:{seed}" for a draw the site makes from the game's seed)."""
        names = dict(self.json.get("options") or {})
        # "NAME=TEMPLATE": a rule the record lists turns on a valued option, its value a template
        # of the settings ("beginner_game=seed:{seed}": the site's deal from the game's seed)
        valued = {rule: str(name).split("=", 1) for rule, name in names.items() if "=" in str(name)}
        out = {str(name).split("=", 1)[0]: False for name in names.values()}
        out.update({name: True for rule, name in names.items() if rule in (site_rules or ()) and rule not in valued})
        for rule, (option, template) in valued.items():
            if rule in (site_rules or ()):
                try:
                    out[option] = template.format(**(settings or {}))
                except (KeyError, IndexError, ValueError):
                    raise CommandError(f"the record's settings do not give what the optional rule {rule!r} "
                                       f"needs ({template!r})") from None
        unknown = [r for r in site_rules or () if r not in names]
        if unknown:
            raise CommandError(f"the record plays the optional rule {unknown[0]!r}, which the bank's "
                               f"{self.title} does not know")
        out |= dict(self.table.get("always") or {})
        for option, template in dict(self.json.get("settings_options") or {}).items():
            try:
                out[option] = str(template).format(**(settings or {}))
            except (KeyError, IndexError, ValueError):
                raise CommandError(f"the record's settings do not give what the option {option!r} needs "
                                   f"({template!r})") from None
        return out


def importing_titles() -> list[tuple[str, dict, dict]]:
    """(title, its data, its [log_import] table) of every title on this machine whose importer
    words are for this site, in the titles' order: the one place the titles' words are read."""
    found = []
    for title in sorted(catalog.available_titles()):
        try:
            data = tomllib.loads(catalog.ruleset_text(title))
        except (RulesetError, tomllib.TOMLDecodeError, OSError):
            continue
        table = data.get("log_import")
        if isinstance(table, dict) and table.get("source") == SOURCE:
            found.append((title, data, table))
    return found


def _titles() -> list[TitleWords]:
    found = []
    for title, data, table in importing_titles():
        corps = tuple(str(c.get("sym")) for c in data.get("corporations", []) if isinstance(c, dict))
        privs = tuple(str(p.get("sym")) for p in data.get("privates", []) if isinstance(p, dict))
        found.append(TitleWords(title, table, corps, privs))
    return found


def for_site_title(site_title: str) -> TitleWords:
    """The title whose words name `site_title` (the record's `title`), e.g. "1889"."""
    titles = _titles()
    for words in titles:
        if str(site_title) in words.site_titles:
            return words
    for words in titles:  # a folder named as the site names the title, whatever its case
        if words.title.lower() == str(site_title).lower():
            return words
    known = ", ".join(t for w in titles for t in w.site_titles) or "none"
    raise CommandError(f"the record is a game of {site_title!r}, which no title here imports from {SOURCE}",
                       f"titles this bank imports: {known}")


def for_title(title: str) -> TitleWords:
    for words in _titles():
        if words.title == title:
            return words
    raise CommandError(f"the title {title!r} does not import {SOURCE} records")
