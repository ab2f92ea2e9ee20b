"""The encrypted database file: refusing what cannot be a store, connecting with the
key, and the typed error a database failure means (busy, full, damaged, a disk error).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from core.errors import StoreBusyError, StoreError, WrongKeyError

# SQLite's primary result codes that say what went wrong with the file.
_SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_NOTADB, _SQLITE_IOERR = 11, 13, 26, 10
_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def is_full(exc: BaseException | None) -> bool:
    """True when ``exc`` (or what caused it) says the disk is full."""
    while exc is not None:
        if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
            return True
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF == _SQLITE_FULL:
            return True
        exc = exc.__cause__
    return False


def raise_store_error(exc: BaseException, path: Path) -> None:
    """Raise the typed error a database failure means (busy, full, damaged, disk error)."""
    raise_busy(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc).lower()
    if is_full(exc) or "disk is full" in text:
        raise StoreError(
            f"The disk is full: the last change was not saved to {path.name}.",
            hint="free some space, then try again",
        ) from exc
    if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or "malformed" in text:
        raise StoreError(
            f"{path.name} is damaged (part of it is missing or unreadable).",
            hint="restore it from a backup",
        ) from exc
    if primary == _SQLITE_IOERR or "disk i/o error" in text:
        raise StoreError(
            f"{path.name} could not be written (a disk error): the last change was not saved.",
            hint="check the disk, then try again",
        ) from exc


#: How files of other programs begin (a store is encrypted from its first byte).
_FOREIGN = {
    b"SQLite format 3\x00": "an unencrypted SQLite database",
    b"%PDF": "a PDF document",
    b"PK\x03\x04": "a ZIP archive (or an office document)",
    b"\x89PNG": "a PNG image",
    b"\x1f\x8b\x08": "a gzip archive",
}


def looks_like_text(head: bytes) -> bool:
    """True when ``head`` reads as text: UTF-8 (a character may be cut at the end)
    with no control character but tabs and line breaks.

    A store begins with random bytes (its salt): judging by the first byte alone
    ("{", "[" or "<") called one store in 85 a text file.
    """
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            return False
        text = head[: exc.start].decode("utf-8")
    return bool(text) and all(c.isprintable() or c in "\t\r\n" for c in text)


def check_file(path: Path) -> None:
    """Refuse, before any key is tried, a file that cannot be a store; reads only."""
    size = path.stat().st_size
    if size == 0:
        raise WrongKeyError(f"{path} is empty; it is not a Sottovoce store.")
    with path.open("rb") as fh:
        head = fh.read(64)
    for magic, kind in _FOREIGN.items():
        if head.startswith(magic):
            raise WrongKeyError(f"{path.name} is {kind}, not a Sottovoce store.")
    if looks_like_text(head):
        raise WrongKeyError(f"{path.name} is a text file, not a Sottovoce store.")
    # SQLCipher writes whole pages (512 bytes at the least): anything else was cut short.
    if size % 512:
        raise StoreError(
            f"{path.name} is damaged: it was cut short ({size:,} bytes, not a whole number of pages).",
            hint="restore it from a backup",
        )


def raise_busy(exc: BaseException) -> None:
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        raise StoreBusyError(
            "The store is in use by another Sottovoce process.", hint="close it and try again"
        ) from exc


def connect(path: Path, key: bytes, *, create: bool) -> Any:
    try:
        from sqlcipher3 import dbapi2 as sqlcipher
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise StoreError("sqlcipher3 is not installed.", hint="pip install sqlcipher3") from exc
    if not create:
        check_file(path)
    # isolation_level=None: we manage transactions ourselves via `with conn`.
    conn = sqlcipher.connect(str(path), timeout=2.0, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
        # The first read proves the key; nothing is written before it succeeds.
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlcipher.DatabaseError as exc:
        conn.close()
        raise_busy(exc)
        if getattr(exc, "sqlite_errorcode", None) == _SQLITE_CORRUPT:
            # The key decrypted the first page: the file is the store, damaged.
            raise StoreError(
                f"{path.name} is damaged: it is shorter than it says, or parts are unreadable.",
                hint="restore it from a backup",
            ) from exc
        raise WrongKeyError(
            f"Could not open {path.name}: wrong passphrase or key, or not a Sottovoce store."
        ) from exc
    conn.execute("PRAGMA foreign_keys = ON")
    if create:
        os.chmod(path, 0o600)
        conn.execute("PRAGMA journal_mode = WAL")
    return conn
