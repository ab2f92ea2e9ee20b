"""The encrypted store: SQLCipher through ``sqlcipher3``, used with ``sqlite-utils``.

One file holds the privacy boxes, the conversations and their messages, and
the egress ledger. The database key is either a random 256-bit key kept in the
OS keyring, or (where no keyring backend exists: CI, headless Linux) derived
from a passphrase with scrypt; a small JSON file beside the database records
which, and the scrypt salt and parameters (nothing secret).

Opening never writes before the key is proven: a wrong key, a foreign file or
a truncated file raise :class:`~core.errors.WrongKeyError` and leave the file
byte-identical.
"""

from __future__ import annotations

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

SCHEMA_VERSION = 1
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
        self.path_for(db_path).write_text(json.dumps(self.__dict__, indent=1), "utf-8")


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
        path.parent.mkdir(parents=True, exist_ok=True)
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
        info.write(path)
        store = cls(path, _connect(path, key, create=True))
        store._migrate()
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
        with self._lock:
            try:
                with self._conn:
                    yield self.db
            except Exception as exc:
                _raise_busy(exc)
                raise

    # --- schema -----------------------------------------------------------

    def _migrate(self) -> None:
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
    ) -> int:
        """Record a request before it is sent (the ledger never misses one)."""
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO ledger (time, endpoint, model, conversation_id, purpose, payload, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [now(), endpoint, model, conversation_id, purpose, json.dumps(payload), status],
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
    if not create and path.stat().st_size == 0:
        raise WrongKeyError(f"{path} is empty; it is not a Sottovoce store.")
    # isolation_level=None: we manage transactions ourselves via `with conn`.
    conn = sqlcipher.connect(str(path), timeout=2.0, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
        # The first read proves the key; nothing is written before it succeeds.
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlcipher.DatabaseError as exc:
        conn.close()
        _raise_busy(exc)
        raise WrongKeyError(
            f"Could not open {path.name}: wrong passphrase or key, or not a Sottovoce store."
        ) from exc
    conn.execute("PRAGMA foreign_keys = ON")
    if create:
        os.chmod(path, 0o600)
    return conn
