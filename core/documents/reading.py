"""What each format's reader returns before the common checks and tidying."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Draft:
    """The raw text of one file and what is known about how it was read."""

    text: str
    pages: int = 1
    notes: list[str] = field(default_factory=list)
    ocr_pages: int = 0
