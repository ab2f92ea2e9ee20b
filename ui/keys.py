"""The cloud API key in the OS keyring: stored, replaced, removed, never shown in full.

The key belongs to an endpoint (:mod:`core.llm.cloud` keeps one per base URL)
and never goes in the settings file or the logs. The settings dialog shows
only a masked form (the last four characters).
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def load_api_key(base_url: str) -> str | None:
    """The stored key of ``base_url``, or None (also when the keyring cannot be read)."""
    from core.errors import CloudError
    from core.llm.cloud import get_api_key

    try:
        return get_api_key(base_url)
    except CloudError as exc:
        log.warning("keyring read failed: %s", type(exc).__name__)
        return None


def save_api_key(base_url: str, key: str) -> None:
    from core.llm.cloud import set_api_key

    set_api_key(base_url, key.strip())


def delete_api_key(base_url: str) -> None:
    from core.llm.cloud import delete_api_key as delete

    delete(base_url)


def masked(key: str | None) -> str:
    """``••••••••abcd``: enough to recognise a key, never enough to use it."""
    if not key:
        return ""
    tail = key[-4:] if len(key) >= 12 else ""
    return "•" * 8 + tail
