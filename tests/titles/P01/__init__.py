"""P01's own rules (a test title: tests/titles/README.md)."""

from . import title

FEATURES = (title,)
