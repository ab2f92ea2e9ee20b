"""The store's key: a random key in the OS keyring, or one derived from a passphrase.

A small JSON file beside the database (:class:`KeyInfo`) records which, and
the scrypt salt and parameters (nothing secret).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from core.errors import StoreError, VaultLockedError

KEYRING_SERVICE = "sottovoce"
KEYRING_VAULT_USER = "vault-key"
# scrypt cost: about 0.1 s and 32 MiB here; stored with the salt so it can grow.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1


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
        write_private(self.path_for(db_path), json.dumps(self.__dict__, indent=1).encode("utf-8"))


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
        return float(backend.priority) > 0
    except Exception:  # some backends raise when they are not usable here
        return False


def keyring_get(user: str) -> str | None:
    """The secret the OS keyring holds for ``user``, or None."""
    import keyring

    try:
        return keyring.get_password(KEYRING_SERVICE, user)
    except Exception as exc:  # keyring backends raise their own types
        raise VaultLockedError("The system keyring could not be read.") from exc


def keyring_set(user: str, value: str) -> None:
    """Keep ``value`` in the OS keyring for ``user``."""
    import keyring

    try:
        keyring.set_password(KEYRING_SERVICE, user, value)
    except Exception as exc:
        raise VaultLockedError("The system keyring refused to store the vault key.") from exc



def keyring_user(path: Path) -> str:
    """The keyring user of a store file: one key per file, so a test store never touches the real one."""
    # One key per store file, so a test store never touches the real one.
    return f"{KEYRING_VAULT_USER}:{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]}"



def write_private(path: Path, data: bytes) -> None:
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
