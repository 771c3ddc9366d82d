"""A plain `pip install .` ships every package of the engine: each folder of ledger/ that holds an
__init__.py is listed in pyproject.toml's packages (setuptools installs only those listed; a
package missing there works in a checkout and fails on a user's machine)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_the_engine_is_listed_for_installing():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "ledger").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert found and found <= listed, sorted(found - listed)
