"""Where the guard records every request: the ledger protocol and a ledger in memory."""

from __future__ import annotations

import json
import threading
from typing import Any, Protocol, Unpack

from core.store.ledger import LedgerEntry, LedgerOutcome, entry_row, outcome_row


class Ledger(Protocol):
    """Where the guard records requests (:class:`core.store.Store` is one)."""

    def add_ledger(self, **entry: Unpack[LedgerEntry]) -> int: ...

    def finish_ledger(self, ledger_id: int, **outcome: Unpack[LedgerOutcome]) -> None: ...


class MemoryLedger:
    """A ledger in memory, for tools and tests that have no store."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def add_ledger(self, **entry: Unpack[LedgerEntry]) -> int:
        """Record a request before it is sent; returns the row's id."""
        row = entry_row(entry)
        # A copy as the store would give it back: JSON, not the caller's objects.
        row["payload"] = json.loads(json.dumps(row["payload"]))
        with self._lock:
            self.rows.append({"id": len(self.rows) + 1, **row, **outcome_row({"status": row["status"]})})
            return len(self.rows)

    def finish_ledger(self, ledger_id: int, **outcome: Unpack[LedgerOutcome]) -> None:
        """Complete a row with how the request ended."""
        with self._lock:
            self.rows[ledger_id - 1].update(outcome_row(outcome))
