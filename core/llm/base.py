"""Types shared by the local and the cloud model clients."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

#: One chat message in the OpenAI format: ``{"role": "user", "content": "..."}``.
ChatMessage: TypeAlias = Mapping[str, Any]
Messages: TypeAlias = Sequence[ChatMessage]

#: A way to ask running work to stop: an Event that gets set, or a callable
#: that returns True once the work should stop.
Cancel: TypeAlias = threading.Event | Callable[[], bool] | None


def is_cancelled(cancel: Cancel) -> bool:
    """True when ``cancel`` asks the work to stop."""
    if cancel is None:
        return False
    if isinstance(cancel, threading.Event):
        return cancel.is_set()
    return bool(cancel())


@dataclass(frozen=True)
class Reply:
    """A finished answer of a model, local or cloud."""

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    model: str | None = None
    attempts: int = 1  # sends of the same request (more than 1 after 429/5xx retries)
