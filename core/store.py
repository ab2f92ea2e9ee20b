"""The encrypted store: SQLCipher through ``sqlcipher3``, used with ``sqlite-utils``.

One file holds the privacy boxes, the conversations and their messages, and
the egress ledger. The database key is either a random 256-bit key kept in the
OS keyring, or (where no keyring backend exists: CI, headless Linux) derived
from a passphrase with scrypt; a small JSON file beside the database records
which, and the scrypt salt and parameters (nothing secret).

The database and the key description are created owner-only (0600), in a
folder created owner-only (0700); SQLite gives its write-ahead log and
shared-memory files the database's permissions. Writes go through the
write-ahead log: the database file is only written once a transaction is
safely in the log, so a crash or a full disk never leaves half of one.

Opening never writes: a store at the current schema is only read. A wrong
key, a file of another program or an empty file raise
:class:`~core.errors.WrongKeyError`; a truncated or damaged file, a full disk
or a disk error raise :class:`~core.errors.StoreError` with a message that
says which; in every case the file is left byte-identical (a write that
fails is rolled back).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.errors import StoreBusyError, StoreError, VaultLockedError, WrongKeyError

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
#: Prefix of the ``meta`` rows that hold secrets (see :meth:`Store.get_secret`).
_SECRET = "secret:"
KEYRING_SERVICE = "sottovoce"
KEYRING_VAULT_USER = "vault-key"
# scrypt cost: about 0.1 s and 32 MiB here; stored with the salt so it can grow.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class KeyInfo:
    """How the store's key is obtained (the sidecar file ``<db>.key.json``)."""

    source: str  # "keyring" | "passphrase"
    salt: str = ""
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    @staticmethod
    def path_for(db_path: Path) -> Path:
        return db_path.with_name(db_path.name + ".key.json")

    @classmethod
    def read(cls, db_path: Path) -> KeyInfo | None:
        p = cls.path_for(db_path)
        if not p.exists():
            return None
        try:
            return cls(**json.loads(p.read_text("utf-8")))
        except (ValueError, TypeError) as exc:
            raise StoreError(f"The key description {p} is damaged.") from exc

    def write(self, db_path: Path) -> None:
        """Write the description owner-only, atomically (a crash leaves the old one or none)."""
        _write_private(self.path_for(db_path), json.dumps(self.__dict__, indent=1).encode("utf-8"))


def derive_key(passphrase: str, info: KeyInfo) -> bytes:
    """Stretch a passphrase into a 256-bit key with scrypt."""
    return hashlib.scrypt(
        passphrase.encode("utf-8"),
        salt=bytes.fromhex(info.salt),
        n=info.n,
        r=info.r,
        p=info.p,
        maxmem=256 * 1024 * 1024,
        dklen=32,
    )


def keyring_available() -> bool:
    """True when a real OS keyring backend is configured.

    The 'fail' and 'null' backends, and plaintext files (keyrings.alt), do not
    count: a key stored in clear next to the store would protect nothing.
    """
    try:
        import keyring
    except ImportError:  # pragma: no cover
        return False
    backend = keyring.get_keyring()
    name = (type(backend).__module__ + "." + type(backend).__name__).lower()
    if any(bad in name for bad in ("fail", "null", "plaintext", "keyrings.alt")):
        return False
    try:
        return float(backend.priority) > 0  # type: ignore[attr-defined]
    except Exception:  # some backends raise when they are not usable here
        return False


def _keyring_get(user: str) -> str | None:
    import keyring

    try:
        return keyring.get_password(KEYRING_SERVICE, user)
    except Exception as exc:  # keyring backends raise their own types
        raise VaultLockedError("The system keyring could not be read.") from exc


def _keyring_set(user: str, value: str) -> None:
    import keyring

    try:
        keyring.set_password(KEYRING_SERVICE, user, value)
    except Exception as exc:
        raise VaultLockedError("The system keyring refused to store the vault key.") from exc


class Store:
    """An open, unlocked encrypted store.

    Use :meth:`create` for a new store and :meth:`open` for an existing one.
    One connection, guarded by a lock: SQLite connections are not shared
    between threads without one.
    """

    def __init__(self, path: Path, conn: Any) -> None:
        import sqlite_utils

        self.path = path
        self._conn = conn
        self._wal = False  # checked before the first write
        self._lock = threading.RLock()
        self.db = sqlite_utils.Database(conn)

    # --- opening ----------------------------------------------------------

    @classmethod
    def exists(cls, path: Path) -> bool:
        return Path(path).exists()

    @classmethod
    def create(cls, path: Path, passphrase: str | None = None) -> Store:
        """Create a new store; with no passphrase the key goes to the OS keyring."""
        path = Path(path)
        if path.exists():
            raise StoreError(f"A store already exists at {path}.")
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if passphrase is None:
            if not keyring_available():
                raise VaultLockedError(
                    "No system keyring is available to hold the vault key.",
                    hint="choose a passphrase instead",
                )
            key = secrets.token_bytes(32)
            info = KeyInfo("keyring")
            _keyring_set(_keyring_user(path), key.hex())
        else:
            if not passphrase:
                raise VaultLockedError("The passphrase is empty.")
            info = KeyInfo("passphrase", salt=secrets.token_hex(16))
            key = derive_key(passphrase, info)
        made: list[Path] = []
        try:
            info.write(path)
            made.append(KeyInfo.path_for(path))
            # Owner-only from the first byte: SQLite opens the empty file as it is.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            made.append(path)
            store = cls(path, _connect(path, key, create=True))
            store._migrate()
        except BaseException as exc:
            # Nothing half-made stays behind (a full disk, a failed first write).
            for p in [*made, path.with_name(path.name + "-journal")]:
                with contextlib.suppress(OSError):
                    p.unlink()
            if _is_full(exc):
                raise StoreError(
                    f"The disk is full: the store {path.name} could not be created.",
                    hint="free some space, then try again",
                ) from exc
            raise
        return store

    @classmethod
    def open(cls, path: Path, passphrase: str | None = None) -> Store:
        """Open an existing store; raises :class:`WrongKeyError` on a wrong key."""
        path = Path(path)
        if path.is_dir():
            raise StoreError(f"{path} is a directory, not a store.")
        if not path.exists():
            raise StoreError(f"No store at {path}.", hint="run Sottovoce once to create it")
        info = KeyInfo.read(path)
        if info is None:
            raise WrongKeyError(f"{path} has no key description; it is not a Sottovoce store.")
        if info.source == "keyring":
            hex_key = _keyring_get(_keyring_user(path))
            if hex_key is None:
                raise VaultLockedError("The vault key is not in the system keyring.")
            key = bytes.fromhex(hex_key)
        else:
            if passphrase is None:
                raise VaultLockedError("This store is locked with a passphrase.", hint="enter it")
            key = derive_key(passphrase, info)
        store = cls(path, _connect(path, key, create=False))
        store._migrate()
        return store

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """One write transaction: all of it is saved, or none (a typed error says why).

        sqlite-utils commits each write statement on its own unless a
        transaction is open, so one is opened here (BEGIN IMMEDIATE: the write
        lock is taken up front, never upgraded half-way). Nested calls join
        the outer transaction.
        """
        with self._lock:
            if self._conn.in_transaction:
                yield self.db
                return
            try:
                self._ensure_wal()
                self._conn.execute("BEGIN IMMEDIATE")
                yield self.db
                self._conn.commit()
            except BaseException as exc:
                # A failed COMMIT (a full disk) leaves the transaction open:
                # roll it back, so the file keeps what it had.
                with contextlib.suppress(Exception):
                    self._conn.rollback()
                if isinstance(exc, Exception):
                    _raise_store_error(exc, self.path)
                raise

    def _ensure_wal(self) -> None:
        # Write-ahead logging: a transaction is appended to the -wal file and
        # the database file is not touched until it is safely there, so a
        # write that fails (a full disk) leaves the database byte-identical.
        # Stores made before it switch on their first write (never on opening).
        if self._wal:
            return
        mode = self._conn.execute("PRAGMA journal_mode").fetchone()[0]
        if str(mode).lower() != "wal":
            self._conn.execute("PRAGMA journal_mode = WAL")
        self._wal = True

    def _schema_on_disk(self) -> int:
        """The schema version the file holds (0 for a new file); only reads."""
        with self._lock:
            try:
                if not self.db.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
                ).fetchone():
                    return 0
                row = self.db.execute(
                    "SELECT value FROM meta WHERE key = 'schema_version'"
                ).fetchone()
            except Exception as exc:
                _raise_store_error(exc, self.path)
                raise
        return int(row[0]) if row else 0

    # --- schema -----------------------------------------------------------

    def _migrate(self) -> None:
        # A store at the current schema is only read: opening never writes.
        version = self._schema_on_disk()
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"This store was written by a newer Sottovoce (schema {version}).",
                hint="update Sottovoce",
            )
        with self.transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"This store was written by a newer Sottovoce (schema {version}).",
                    hint="update Sottovoce",
                )
            if version < 1:
                db.execute(
                    """CREATE TABLE conversations (
                        id INTEGER PRIMARY KEY, title TEXT NOT NULL, kind TEXT NOT NULL,
                        created TEXT NOT NULL, updated TEXT NOT NULL,
                        disclosed INTEGER NOT NULL DEFAULT 0, settings TEXT NOT NULL DEFAULT '{}')"""
                )
                db.execute(
                    """CREATE TABLE messages (
                        id INTEGER PRIMARY KEY,
                        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                        role TEXT NOT NULL, content TEXT NOT NULL, cloud_content TEXT,
                        created TEXT NOT NULL, meta TEXT NOT NULL DEFAULT '{}')"""
                )
                db.execute(
                    """CREATE TABLE boxes (
                        conversation_id INTEGER PRIMARY KEY, data TEXT NOT NULL, updated TEXT NOT NULL)"""
                )
                db.execute(
                    """CREATE TABLE ledger (
                        id INTEGER PRIMARY KEY, time TEXT NOT NULL, endpoint TEXT NOT NULL,
                        model TEXT NOT NULL, conversation_id INTEGER, purpose TEXT NOT NULL,
                        payload TEXT NOT NULL, prompt_tokens INTEGER, completion_tokens INTEGER,
                        response TEXT, status TEXT NOT NULL)"""
                )
                db.execute("CREATE INDEX messages_conv ON messages(conversation_id)")
            if version < 2:
                # The digest of the messages sent, to match a row to its approval.
                db.execute("ALTER TABLE ledger ADD COLUMN digest TEXT NOT NULL DEFAULT ''")
            db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)]
            )

    @property
    def schema_version(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0])

    # --- conversations ----------------------------------------------------

    def new_conversation(self, title: str, kind: str = "chat") -> int:
        with self.transaction() as db:
            t = now()
            cur = db.execute(
                "INSERT INTO conversations (title, kind, created, updated) VALUES (?, ?, ?, ?)",
                [title, kind, t, t],
            )
            return int(cur.lastrowid)

    def conversations(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.db.query("SELECT * FROM conversations ORDER BY updated DESC, id DESC"))

    def conversation(self, conversation_id: int) -> dict[str, Any]:
        with self._lock:
            rows = list(
                self.db.query("SELECT * FROM conversations WHERE id = ?", [conversation_id])
            )
        if not rows:
            raise StoreError(f"No conversation {conversation_id}.")
        return rows[0]

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE conversations SET title = ? WHERE id = ?", [title, conversation_id])

    def delete_conversation(self, conversation_id: int) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM messages WHERE conversation_id = ?", [conversation_id])
            db.execute("DELETE FROM boxes WHERE conversation_id = ?", [conversation_id])
            db.execute("DELETE FROM conversations WHERE id = ?", [conversation_id])

    def add_disclosed(self, conversation_id: int, count: int) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE conversations SET disclosed = disclosed + ? WHERE id = ?",
                [count, conversation_id],
            )

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        cloud_content: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> int:
        with self.transaction() as db:
            t = now()
            cur = db.execute(
                "INSERT INTO messages (conversation_id, role, content, cloud_content, created, meta)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [conversation_id, role, content, cloud_content, t, json.dumps(meta or {})],
            )
            db.execute("UPDATE conversations SET updated = ? WHERE id = ?", [t, conversation_id])
            return int(cur.lastrowid)

    def messages(self, conversation_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = list(
                self.db.query(
                    "SELECT * FROM messages WHERE conversation_id = ? ORDER BY id", [conversation_id]
                )
            )
        for r in rows:
            r["meta"] = json.loads(r["meta"])
        return rows

    def delete_messages_from(self, conversation_id: int, message_id: int) -> None:
        """Delete a message and every later one (edit and resend, regenerate)."""
        with self.transaction() as db:
            db.execute(
                "DELETE FROM messages WHERE conversation_id = ? AND id >= ?",
                [conversation_id, message_id],
            )

    # --- privacy boxes ----------------------------------------------------

    def save_box(self, conversation_id: int, data: dict[str, Any]) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO boxes VALUES (?, ?, ?)",
                [conversation_id, json.dumps(data), now()],
            )

    def load_box(self, conversation_id: int) -> dict[str, Any] | None:
        with self._lock:
            row = self.db.execute(
                "SELECT data FROM boxes WHERE conversation_id = ?", [conversation_id]
            ).fetchone()
        return json.loads(row[0]) if row else None

    def boxes(self) -> dict[int, dict[str, Any]]:
        with self._lock:
            return {
                int(r["conversation_id"]): json.loads(r["data"])
                for r in self.db.query("SELECT conversation_id, data FROM boxes")
            }

    # --- secrets ----------------------------------------------------------

    # The cloud API key lives here only where no OS keyring exists: the file is
    # encrypted with the person's passphrase, unlike a plaintext keyring file.

    def get_secret(self, name: str) -> str | None:
        """A secret kept in the encrypted store (the API key without a keyring), or None."""
        with self._lock:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", [_SECRET + name]).fetchone()
        return str(row[0]) if row else None

    def set_secret(self, name: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [_SECRET + name, value])

    def delete_secret(self, name: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM meta WHERE key = ?", [_SECRET + name])

    # --- ledger -----------------------------------------------------------

    def add_ledger(
        self,
        *,
        endpoint: str,
        model: str,
        payload: Any,
        purpose: str,
        conversation_id: int | None = None,
        status: str = "sending",
        digest: str = "",
    ) -> int:
        """Record a request before it is sent (the ledger never misses one).

        ``digest`` is :func:`core.outbound.payload_digest` of the messages sent.
        """
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO ledger"
                " (time, endpoint, model, conversation_id, purpose, payload, status, digest)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [now(), endpoint, model, conversation_id, purpose, json.dumps(payload), status,
                 digest],
            )
            return int(cur.lastrowid)

    def finish_ledger(
        self,
        ledger_id: int,
        *,
        status: str,
        response: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE ledger SET status = ?, response = ?, prompt_tokens = ?, completion_tokens = ?"
                " WHERE id = ?",
                [status, response, prompt_tokens, completion_tokens, ledger_id],
            )

    def ledger(self, limit: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM ledger ORDER BY id DESC"
        if limit:
            sql += f" LIMIT {int(limit)}"
        with self._lock:
            rows = list(self.db.query(sql))
        for r in rows:
            r["payload"] = json.loads(r["payload"])
        return rows

    def has_response(self, text: str) -> bool:
        """True when ``text`` is, verbatim, an answer the cloud gave (a completed ledger row)."""
        with self._lock:
            row = self.db.execute(
                "SELECT 1 FROM ledger WHERE response = ? AND status LIKE 'ok%' LIMIT 1", [text]
            ).fetchone()
        return row is not None

    def ledger_entry(self, ledger_id: int) -> dict[str, Any]:
        with self._lock:
            rows = list(self.db.query("SELECT * FROM ledger WHERE id = ?", [ledger_id]))
        if not rows:
            raise StoreError(f"No ledger entry {ledger_id}.")
        rows[0]["payload"] = json.loads(rows[0]["payload"])
        return rows[0]


def _keyring_user(path: Path) -> str:
    # One key per store file, so a test store never touches the real one.
    return f"{KEYRING_VAULT_USER}:{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]}"


# SQLite's primary result codes that say what went wrong with the file.
_SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_NOTADB, _SQLITE_IOERR = 11, 13, 26, 10
_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def _is_full(exc: BaseException | None) -> bool:
    """True when ``exc`` (or what caused it) says the disk is full."""
    while exc is not None:
        if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
            return True
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF == _SQLITE_FULL:
            return True
        exc = exc.__cause__
    return False


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by its owner only, replacing it atomically."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _raise_store_error(exc: BaseException, path: Path) -> None:
    """Raise the typed error a database failure means (busy, full, damaged, disk error)."""
    _raise_busy(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc).lower()
    if _is_full(exc) or "disk is full" in text:
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


def _looks_like_text(head: bytes) -> bool:
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


def _check_file(path: Path) -> None:
    """Refuse, before any key is tried, a file that cannot be a store; reads only."""
    size = path.stat().st_size
    if size == 0:
        raise WrongKeyError(f"{path} is empty; it is not a Sottovoce store.")
    with path.open("rb") as fh:
        head = fh.read(64)
    for magic, kind in _FOREIGN.items():
        if head.startswith(magic):
            raise WrongKeyError(f"{path.name} is {kind}, not a Sottovoce store.")
    if _looks_like_text(head):
        raise WrongKeyError(f"{path.name} is a text file, not a Sottovoce store.")
    # SQLCipher writes whole pages (512 bytes at the least): anything else was cut short.
    if size % 512:
        raise StoreError(
            f"{path.name} is damaged: it was cut short ({size:,} bytes, not a whole number of pages).",
            hint="restore it from a backup",
        )


def _raise_busy(exc: BaseException) -> None:
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        raise StoreBusyError(
            "The store is in use by another Sottovoce process.", hint="close it and try again"
        ) from exc


def _connect(path: Path, key: bytes, *, create: bool) -> Any:
    try:
        from sqlcipher3 import dbapi2 as sqlcipher
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise StoreError("sqlcipher3 is not installed.", hint="pip install sqlcipher3") from exc
    if not create:
        _check_file(path)
    # isolation_level=None: we manage transactions ourselves via `with conn`.
    conn = sqlcipher.connect(str(path), timeout=2.0, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
        # The first read proves the key; nothing is written before it succeeds.
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlcipher.DatabaseError as exc:
        conn.close()
        _raise_busy(exc)
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
