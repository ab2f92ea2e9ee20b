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
import json
import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.errors import StoreError, VaultLockedError, WrongKeyError
from core.store.files import connect, is_full, raise_store_error
from core.store.keys import (
    KeyInfo,
    derive_key,
    keyring_available,
    keyring_get,
    keyring_set,
    keyring_user,
)
from core.store.ledger import LedgerTable, now

SCHEMA_VERSION = 2
#: Prefix of the ``meta`` rows that hold secrets (see :meth:`Store.get_secret`).
_SECRET = "secret:"


class Store(LedgerTable):
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
            keyring_set(keyring_user(path), key.hex())
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
            store = cls(path, connect(path, key, create=True))
            store._migrate()
        except BaseException as exc:
            # Nothing half-made stays behind (a full disk, a failed first write).
            for p in [*made, path.with_name(path.name + "-journal")]:
                with contextlib.suppress(OSError):
                    p.unlink()
            if is_full(exc):
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
            hex_key = keyring_get(keyring_user(path))
            if hex_key is None:
                raise VaultLockedError("The vault key is not in the system keyring.")
            key = bytes.fromhex(hex_key)
        else:
            if passphrase is None:
                raise VaultLockedError("This store is locked with a passphrase.", hint="enter it")
            key = derive_key(passphrase, info)
        store = cls(path, connect(path, key, create=False))
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
                    raise_store_error(exc, self.path)
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
                raise_store_error(exc, self.path)
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
        return self.row("conversations", conversation_id, f"No conversation {conversation_id}.")

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
