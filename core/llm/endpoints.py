"""Cloud endpoints: the well-known presets, and where each endpoint's API key is kept.

The API key lives in the OS keyring (service ``sottovoce``, user
``cloud-api-key:<base URL>``); where no keyring exists it goes into the
encrypted vault. It is never written to settings, logs or the ledger.
:class:`core.llm.cloud.CloudClient` reads it through :func:`api_key_for`.
"""

from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from core.errors import CloudError, CloudUnauthorized

log = logging.getLogger(__name__)

KEYRING_SERVICE = "sottovoce"
#: Read when neither the keyring nor the vault holds a key (CI, scripts).
API_KEY_ENV = "SOTTOVOCE_CLOUD_API_KEY"
#: Sent to loopback servers that need no key (the demo cloud).
NO_KEY = "sk-no-key-needed"
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


# --- presets -----------------------------------------------------------------------


@dataclass(frozen=True)
class CloudPreset:
    """A well-known OpenAI-compatible endpoint, for the first-run guide."""

    name: str
    base_url: str  # "" for "any OpenAI-compatible server": the person types it
    model: str  # a sensible default; "Test connection" lists what the server offers
    needs_key: bool = True
    key_help: str = ""


CLOUD_PRESETS: tuple[CloudPreset, ...] = (
    CloudPreset("OpenAI", "https://api.openai.com/v1", "gpt-4o-mini",
                key_help="platform.openai.com → API keys"),
    CloudPreset("OpenRouter", "https://openrouter.ai/api/v1", "openai/gpt-4o-mini",
                key_help="openrouter.ai → Keys"),
    CloudPreset("Mistral", "https://api.mistral.ai/v1", "mistral-small-latest",
                key_help="console.mistral.ai → API keys"),
    CloudPreset("Groq", "https://api.groq.com/openai/v1", "llama-3.3-70b-versatile",
                key_help="console.groq.com → API keys"),
    CloudPreset("Ollama on this computer", "http://127.0.0.1:11434/v1", "llama3.2",
                needs_key=False, key_help="no key needed; start it with `ollama serve`"),
    CloudPreset("LM Studio on this computer", "http://127.0.0.1:1234/v1", "",
                needs_key=False, key_help="no key needed; start its local server"),
    CloudPreset("Another OpenAI-compatible server", "", "",
                key_help="the key your provider gave you, if it needs one"),
)


# --- the API key ----------------------------------------------------------------


class SecretVault(Protocol):
    """Where a key goes when no keyring exists: the encrypted store (:class:`core.store.Store`)."""

    def get_secret(self, name: str) -> str | None: ...

    def set_secret(self, name: str, value: str) -> None: ...

    def delete_secret(self, name: str) -> None: ...


def _key_user(base_url: str) -> str:
    return f"cloud-api-key:{base_url.rstrip('/')}"


def _keyring_usable() -> bool:
    from core.store import keyring_available

    return keyring_available()


def api_key_location(vault: SecretVault | None = None) -> str:
    """Where :func:`set_api_key` keeps a key on this machine: ``keyring``, ``vault`` or ``none``."""
    if _keyring_usable():
        return "keyring"
    return "vault" if vault is not None else "none"


def set_api_key(base_url: str, key: str, vault: SecretVault | None = None) -> str:
    """Store the API key of ``base_url``; returns where it went (``keyring`` or ``vault``).

    The OS keyring comes first. Where none exists (headless Linux, a desktop
    without Secret Service), the key goes into the encrypted vault, which is
    locked by the person's passphrase. An empty key deletes it.
    """
    if not key:
        delete_api_key(base_url, vault)
        return ""
    if _keyring_usable():
        import keyring

        try:
            keyring.set_password(KEYRING_SERVICE, _key_user(base_url), key)
        except Exception as exc:  # keyring backends raise their own types
            if vault is None:
                raise CloudError(
                    "The system keyring refused to store the API key.",
                    hint="check that the keyring (Secret Service, Keychain, Credential "
                    "Manager) is unlocked",
                ) from exc
            log.warning("keyring refused the API key (%s); keeping it in the vault", type(exc).__name__)
        else:
            if vault is not None:  # one copy only
                vault.delete_secret(_key_user(base_url))
            return "keyring"
    if vault is None:
        raise CloudError(
            "There is no system keyring to keep the API key in, and the vault is not open.",
            hint="open Sottovoce's vault first; the key is then kept in it, encrypted",
        )
    vault.set_secret(_key_user(base_url), key)
    return "vault"


def get_api_key(base_url: str, vault: SecretVault | None = None) -> str | None:
    """The API key of ``base_url`` from the OS keyring, else from the vault, or None."""
    if _keyring_usable():
        import keyring

        try:
            key = keyring.get_password(KEYRING_SERVICE, _key_user(base_url))
        except Exception as exc:
            if vault is None:
                raise CloudError(
                    "The system keyring could not be read for the API key.",
                    hint="unlock the system keyring and try again",
                ) from exc
            key = None
        if key:
            return key
    return vault.get_secret(_key_user(base_url)) if vault is not None else None


def delete_api_key(base_url: str, vault: SecretVault | None = None) -> None:
    """Forget the API key of ``base_url`` wherever it is kept (no error when none is)."""
    if _keyring_usable():
        import keyring
        import keyring.errors

        with contextlib.suppress(keyring.errors.PasswordDeleteError):
            keyring.delete_password(KEYRING_SERVICE, _key_user(base_url))
    if vault is not None:
        vault.delete_secret(_key_user(base_url))


def is_loopback(base_url: str) -> bool:
    """True for an endpoint on this machine (127.0.0.1, localhost, ::1)."""
    return (urlsplit(base_url).hostname or "") in _LOOPBACK


def api_key_for(base_url: str, vault: SecretVault | None = None) -> str:
    """The key to send to ``base_url``: the keyring, the vault, then the environment.

    A loopback endpoint with no key gets a dummy one; any other raises
    :class:`~core.errors.CloudUnauthorized`.
    """
    try:
        key = get_api_key(base_url, vault)
    except CloudError:
        if not is_loopback(base_url) and not os.environ.get(API_KEY_ENV):
            raise
        key = None
    # The environment is the last fallback (CI, scripts); it is never copied
    # into settings or the ledger.
    key = key or os.environ.get(API_KEY_ENV)
    if key:
        return key
    if is_loopback(base_url):
        return NO_KEY
    raise CloudUnauthorized(
        f"No API key is set for {base_url}.",
        hint="enter it in Settings (Cloud); it is kept in the system keyring, or in "
        "the encrypted vault where there is none",
    )
