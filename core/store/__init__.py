"""The encrypted store: privacy boxes, conversations, messages and the egress ledger.

- :mod:`core.store.database`: :class:`Store`, opening, the schema and its
  migrations, conversations, messages, boxes and secrets;
- :mod:`core.store.ledger`: the ledger's table (one row per request, written
  before it leaves) and its row types;
- :mod:`core.store.keys`: the store's key (keyring or passphrase) and its description;
- :mod:`core.store.files`: refusing a file that cannot be a store, connecting,
  and the typed error a database failure means.
"""

from __future__ import annotations

from core.store.database import SCHEMA_VERSION, Store
from core.store.keys import KEYRING_SERVICE, KeyInfo, derive_key, keyring_available
from core.store.ledger import LedgerEntry, LedgerOutcome

__all__ = [
    "KEYRING_SERVICE",
    "SCHEMA_VERSION",
    "KeyInfo",
    "LedgerEntry",
    "LedgerOutcome",
    "Store",
    "derive_key",
    "keyring_available",
]
