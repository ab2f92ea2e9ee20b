"""The bearer token that apps present to `sottovoce proxy`.

Random (256 bits), made on first use and kept where the vault key is kept:
the OS keyring when there is one, else inside the encrypted store.
``SOTTOVOCE_PROXY_TOKEN`` in the environment overrides both (for scripts and
containers that set their own). It is never written to settings or logs.
"""

from __future__ import annotations

import hashlib
import os
import secrets

from core.errors import VaultLockedError
from core.store import KEYRING_SERVICE, Store, keyring_available

TOKEN_ENV = "SOTTOVOCE_PROXY_TOKEN"
PREFIX = "svp-"
_SECRET_NAME = "proxy-token"


def _keyring_user(store: Store) -> str:
    # One token per store file, like the vault key.
    digest = hashlib.sha256(str(store.path.resolve()).encode()).hexdigest()[:16]
    return f"proxy-token:{digest}"


def new_token() -> str:
    """A fresh random token."""
    return PREFIX + secrets.token_urlsafe(32)


def proxy_token(store: Store, *, rotate: bool = False) -> str:
    """The proxy's token: the environment's, else the stored one (made on first use).

    ``rotate`` replaces the stored token with a new one (apps must be given
    the new token); it does not touch ``SOTTOVOCE_PROXY_TOKEN``.
    """
    env = os.environ.get(TOKEN_ENV, "").strip()
    if env and not rotate:
        return env
    if keyring_available():
        import keyring

        user = _keyring_user(store)
        try:
            token = None if rotate else keyring.get_password(KEYRING_SERVICE, user)
            if not token:
                token = new_token()
                keyring.set_password(KEYRING_SERVICE, user, token)
        except Exception as exc:  # keyring backends raise their own types
            raise VaultLockedError("The system keyring could not hold the proxy token.") from exc
        return token
    # No keyring (headless machines): the encrypted store holds it.
    token = None if rotate else store.get_secret(_SECRET_NAME)
    if not token:
        token = new_token()
        store.set_secret(_SECRET_NAME, token)
    return token


def token_source(store: Store) -> str:
    """Where :func:`proxy_token` reads the token from, for messages to the person."""
    if os.environ.get(TOKEN_ENV, "").strip():
        return f"the environment ({TOKEN_ENV})"
    return "the system keyring" if keyring_available() else "the encrypted vault"
