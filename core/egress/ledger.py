"""Where the guard records every request: the ledger protocol and a ledger in memory."""

from __future__ import annotations

import json
import threading
from typing import Any, Protocol


class Ledger(Protocol):
    """Where the guard records requests (:class:`core.store.Store` is one)."""

    def add_ledger(
        self,
        *,
        endpoint: str,
        model: str,
        payload: Any,
        purpose: str,
        conversation_id: int | None = None,
        status: str = "sending",
        digest: str = "",
    ) -> int: ...

    def finish_ledger(
        self,
        ledger_id: int,
        *,
        status: str,
        response: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
    ) -> None: ...


class MemoryLedger:
    """A ledger in memory, for tools and tests that have no store."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def add_ledger(
        self,
        *,
        endpoint: str,
        model: str,
        payload: Any,
        purpose: str,
        conversation_id: int | None = None,
        status: str = "sending",
        digest: str = "",
    ) -> int:
        with self._lock:
            self.rows.append(
                {
                    "id": len(self.rows) + 1,
                    "endpoint": endpoint,
                    "model": model,
                    "payload": json.loads(json.dumps(payload)),
                    "purpose": purpose,
                    "conversation_id": conversation_id,
                    "status": status,
                    "response": None,
                    "prompt_tokens": None,
                    "completion_tokens": None,
                    "digest": digest,
                }
            )
            return len(self.rows)

    def finish_ledger(
        self,
        ledger_id: int,
        *,
        status: str,
        response: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
    ) -> None:
        with self._lock:
            self.rows[ledger_id - 1].update(
                status=status,
                response=response,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
            )
