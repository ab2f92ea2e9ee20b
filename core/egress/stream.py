"""A streamed answer from the cloud that completes its ledger row however it ends."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterator
from typing import Any

from core.errors import Cancelled, CloudError
from core.llm.base import Reply

#: Completes a ledger row: (row id, status, the reply when there is one, the text that arrived).
Finish = Callable[[int, str, "Reply | None", "str | None"], None]


def ok_status(attempts: int) -> str:
    """The ledger status of an answer that arrived (after retries, says how many attempts)."""
    return "ok" if attempts <= 1 else f"ok after {attempts} attempts"


def error_status(exc: BaseException) -> str:
    """The ledger status of a send that failed: the error's type and HTTP status."""
    code = getattr(exc, "status_code", None)
    return f"error: {type(exc).__name__}" + (f" (HTTP {code})" if code else "")


class GuardedStream(Iterator[str]):
    """A streamed answer that completes its ledger row however it ends.

    Iterate it for text pieces; :attr:`text` keeps what arrived (also after
    an error); :attr:`reply` is the finished answer. Call :meth:`close` when
    abandoning it before the end.
    """

    def __init__(self, finish: Finish, ledger_id: int, raw: Any) -> None:
        self._finish = finish
        self._raw = raw
        self.ledger_id = ledger_id
        self._finished = False
        self._pieces = self._run()

    @property
    def text(self) -> str:
        return str(self._raw.text)

    @property
    def reply(self) -> Reply:
        return self._raw.reply  # type: ignore[no-any-return]

    def _end(self, status: str, reply: Reply | None = None) -> None:
        if self._finished:
            return
        self._finished = True
        self._finish(self.ledger_id, status, reply, self.text)

    def _run(self) -> Generator[str, None, None]:
        try:
            yield from self._raw
        except Cancelled:
            self._end("cancelled")
            raise
        except CloudError as exc:
            self._end(error_status(exc))
            exc.ledger_id = self.ledger_id  # type: ignore[attr-defined]
            raise
        except GeneratorExit:
            self._end("closed")
            raise
        self._end(ok_status(self._raw.attempts), self._raw.reply)

    def __iter__(self) -> GuardedStream:
        return self

    def __next__(self) -> str:
        return next(self._pieces)

    def close(self) -> None:
        """Stop receiving; the ledger row keeps what arrived."""
        self._pieces.close()
        self._raw.close()
        self._end("closed")

    def __del__(self) -> None:
        # An abandoned stream still completes its ledger row.
        if not self._finished:
            with contextlib.suppress(Exception):
                self.close()
