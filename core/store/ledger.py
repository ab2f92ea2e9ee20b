"""The egress ledger's table in the store: one row per request, written before it leaves."""

from __future__ import annotations

import json
import threading
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Required, TypedDict, Unpack

from core.errors import StoreError


def now() -> str:
    """The time of a row: UTC, ISO 8601, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class LedgerEntry(TypedDict, total=False):
    """What a ledger row records before the request leaves.

    ``payload`` is the exact JSON body; ``digest`` is
    :func:`core.outbound.payload_digest` of its messages, which binds the row
    to the approval it had; ``status`` is ``sending`` until the row is finished.
    """

    endpoint: Required[str]
    model: Required[str]
    payload: Required[Any]
    purpose: Required[str]
    conversation_id: int | None
    status: str
    digest: str


class LedgerOutcome(TypedDict, total=False):
    """How a request ended: its status, the answer and the token counts."""

    status: Required[str]
    response: str | None
    prompt_tokens: int | None
    completion_tokens: int | None


def entry_row(entry: LedgerEntry) -> dict[str, Any]:
    """The columns of a new row, defaults filled in."""
    return {
        "endpoint": entry["endpoint"],
        "model": entry["model"],
        "payload": entry["payload"],
        "purpose": entry["purpose"],
        "conversation_id": entry.get("conversation_id"),
        "status": entry.get("status", "sending"),
        "digest": entry.get("digest", ""),
    }


def outcome_row(outcome: LedgerOutcome) -> dict[str, Any]:
    """The columns a finished row sets, unknowns as None."""
    return {
        "status": outcome["status"],
        "response": outcome.get("response"),
        "prompt_tokens": outcome.get("prompt_tokens"),
        "completion_tokens": outcome.get("completion_tokens"),
    }


class Tables:
    """What the store's tables share: the connection's lock and database, one row by id."""

    _lock: threading.RLock
    db: Any

    def transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError  # the store's

    def row(self, table: str, row_id: int, missing: str) -> dict[str, Any]:
        """Row ``row_id`` of ``table`` (a name of ours); raises StoreError(``missing``) when none."""
        with self._lock:
            rows: list[dict[str, Any]] = list(
                self.db.query(f"SELECT * FROM {table} WHERE id = ?", [row_id])
            )
        if not rows:
            raise StoreError(missing)
        return rows[0]


class LedgerTable(Tables):
    """The ledger methods of :class:`core.store.Store` (a ``Ledger`` for the egress guard)."""

    def add_ledger(self, **entry: Unpack[LedgerEntry]) -> int:
        """Record a request before it is sent (the ledger never misses one)."""
        row = entry_row(entry)
        row["payload"] = json.dumps(row["payload"])
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO ledger (time, endpoint, model, payload, purpose, conversation_id,"
                " status, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [now(), *row.values()],
            )
            return int(cur.lastrowid)

    def finish_ledger(self, ledger_id: int, **outcome: Unpack[LedgerOutcome]) -> None:
        """Complete a row with how the request ended."""
        row = outcome_row(outcome)
        with self.transaction() as db:
            db.execute(
                "UPDATE ledger SET status = ?, response = ?, prompt_tokens = ?, completion_tokens = ?"
                " WHERE id = ?",
                [*row.values(), ledger_id],
            )

    def ledger(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The rows, newest first (at most ``limit``)."""
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
        """One row; raises :class:`~core.errors.StoreError` when there is none."""
        row = self.row("ledger", ledger_id, f"No ledger entry {ledger_id}.")
        row["payload"] = json.loads(row["payload"])
        return row
