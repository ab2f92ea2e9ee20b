"""Rules per language: one folder per locale, each a :class:`~core.locales.base.Locale`.

``locale(code)`` returns the locale of a language code of
:data:`core.language.SUPPORTED` other than English (English is judged by
:mod:`core.detect` itself), or None. A new language is a new folder here and
one line in :data:`_MODULES`.
"""

from __future__ import annotations

import importlib
from functools import cache

from core.locales.base import Locale, LocaleView

_MODULES = {
    "de": "core.locales.de",
    "fr": "core.locales.fr",
    "es": "core.locales.es",
    "nl": "core.locales.nl",
}

#: The languages with a locale of their own.
CODES = tuple(_MODULES)


@cache
def locale(code: str) -> Locale | None:
    """The locale of language ``code``, or None when it has none."""
    module = _MODULES.get(code)
    if module is None:
        return None
    loaded: Locale = importlib.import_module(module).LOCALE
    return loaded


@cache
def view(code: str) -> LocaleView | None:
    """The (shared, thread-safe) view of language ``code``'s locale."""
    lc = locale(code)
    return LocaleView(lc) if lc is not None else None


@cache
def month_names() -> str:
    """A regex alternation of every locale's month names (full and abbreviated)."""
    from core.locales.base import alternation

    months: list[str] = []
    for code in CODES:
        months.extend(importlib.import_module(_MODULES[code] + ".words").MONTHS)
    return alternation(months)


@cache
def field_keys(first: str | None = None) -> dict[str, str]:
    """Every locale's form keys and the entity type of the value after each ("prénom":
    "PERSON"), lower case; a key two languages share keeps the type of ``first``'s
    language when it is one of them ("Firma:" is a company in German, a signature in
    Spanish), else the first one's in :data:`CODES`."""
    return _field_keys(first if first in _MODULES else None)


@cache
def _field_keys(first: str | None) -> dict[str, str]:
    keys: dict[str, str] = {}
    for code in sorted(CODES, key=lambda c: c != first):
        for key, kind in getattr(importlib.import_module(_MODULES[code] + ".words"), "FIELD_KEYS", {}).items():
            keys.setdefault(key, kind)
    return keys


__all__ = ["CODES", "Locale", "LocaleView", "field_keys", "locale", "month_names", "view"]
