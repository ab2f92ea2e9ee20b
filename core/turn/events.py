"""What a running turn yields: stages, restored tokens, notices (what the person
must be told about how the answer was made, :class:`core.integrate.Notice`),
and its result."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from core.errors import SottovoceError
from core.integrate import Notice, Outcome

__all__ = ["Finished", "Notice", "Stage", "Token", "TurnEvent", "TurnResult", "collect"]


@dataclass
class Stage:
    """The turn moved on (``sending``, ``receiving``, ``integrating``, ``saving``)."""

    name: str


@dataclass
class Token:
    """A piece of the answer, already restored; ``source`` is ``cloud``, ``local``,
    ``note`` or ``merged``."""

    text: str
    source: str


@dataclass
class TurnResult:
    """What a finished turn produced."""

    conversation_id: int
    answer: str  # what the person reads (restored)
    cloud_answer: str  # what the cloud wrote (anonymized), "" when nothing left
    outbound: str  # the user content that left, "" when nothing left
    unresolved: list[str]  # placeholders the cloud invented that are not in the box
    local_only: bool
    disclosed: int  # values sent in clear with consent in this turn
    user_message_id: int | None = None
    answer_message_id: int | None = None
    #: How the answer was made from the cloud's (passed through, merged, or the
    #: merge refused) and what the person must be told; None for a local-only turn.
    integration: Outcome | None = None


@dataclass
class Finished:
    result: TurnResult


TurnEvent = Stage | Token | Notice | Finished


def collect(events: Iterator[TurnEvent]) -> TurnResult:
    """Run a turn to the end and return its result (for tests and scripts)."""
    result = None
    for ev in events:
        if isinstance(ev, Finished):
            result = ev.result
    if result is None:  # pragma: no cover - execute always finishes or raises
        raise SottovoceError("The turn ended without a result.")
    return result
