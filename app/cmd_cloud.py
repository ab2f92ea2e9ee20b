"""Sub-commands of `sottovoce` (filled in by their owners)."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Add this module's sub-commands to the `sottovoce` parser."""
