"""Reading the person's input files safely (size, encoding, directories)."""

from __future__ import annotations

import sys
from pathlib import Path

from core.errors import InputError

#: Files larger than this are refused before they are read.
MAX_FILE_BYTES = 8 * 1024 * 1024


def read_text(source: str | None) -> str:
    """Read ``source`` (a path, or ``-``/None for standard input) as UTF-8 text."""
    if source in (None, "-"):
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        where = "standard input"
    else:
        path = Path(source)
        where = str(path)
        if path.is_dir():
            raise InputError(f"{path} is a directory; give a text file.")
        if not path.exists():
            raise InputError(f"{path} does not exist.")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(
                f"{path} is too large ({path.stat().st_size:,} bytes; the limit is {MAX_FILE_BYTES:,}).",
                hint="split it into smaller parts",
            )
        data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"The input on {where} is larger than {MAX_FILE_BYTES:,} bytes.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where} is not valid UTF-8 text (bad byte at position {exc.start}).",
            hint="save it as UTF-8 and try again",
        ) from exc
    if not text.strip():
        raise InputError(f"{where} is empty: there is nothing to analyze.")
    return text
