"""The cloud API key in the OS keyring: stored, replaced, removed, never shown in full.

The key belongs to an endpoint (:mod:`core.llm.cloud` keeps one per base URL)
and never goes in the settings file or the logs. The settings dialog shows
only a masked form (the last four characters).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.llm.endpoints import SecretVault

log = logging.getLogger(__name__)


def load_api_key(base_url: str, vault: SecretVault | None = None) -> str | None:
    """The stored key of ``base_url``, or None (also when the keyring cannot be read).

    ``vault`` is the open store: where no keyring exists, the key is kept there.
    """
    from core.errors import CloudError
    from core.llm.endpoints import get_api_key

    try:
        return get_api_key(base_url, vault)
    except CloudError as exc:
        log.warning("keyring read failed: %s", type(exc).__name__)
        return None


def save_api_key(base_url: str, key: str, vault: SecretVault | None = None) -> str:
    """Store the key (keyring first, else the vault); returns where it went."""
    from core.llm.endpoints import set_api_key

    return set_api_key(base_url, key.strip(), vault)


def delete_api_key(base_url: str, vault: SecretVault | None = None) -> None:
    from core.llm.endpoints import delete_api_key as delete

    delete(base_url, vault)


def where_kept(vault: SecretVault | None = None) -> str:
    """Where a key is kept on this machine, in words for the person."""
    from core.llm.endpoints import api_key_location

    return {
        "keyring": "the system keyring",
        "vault": "your encrypted vault (this machine has no system keyring)",
    }.get(api_key_location(vault), "nowhere yet: open the vault first")


def masked(key: str | None) -> str:
    """``••••••••abcd``: enough to recognise a key, never enough to use it."""
    if not key:
        return ""
    tail = key[-4:] if len(key) >= 12 else ""
    return "•" * 8 + tail
