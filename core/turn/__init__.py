"""One turn of a conversation: the person's choices, the approval, the run.

- :mod:`core.turn.choices`: :class:`Choices`, routes per sentence and
  protection per value, made by the editor and applied once;
- :mod:`core.turn.approval`: what the person approves, bound to the payload's
  digest, and when they must (the settings' policy, "always in this
  conversation");
- :mod:`core.turn.events`: what a running turn yields;
- :mod:`core.turn.assistant`: :class:`Assistant`, ``prepare`` / ``revise`` /
  ``execute``.
"""

from __future__ import annotations

from core.turn.approval import Approval, ApprovalEntity, ApprovalRequest, Approvals, Decision
from core.turn.assistant import (
    ApproveCallback,
    Assistant,
    CloudDoor,
    LocalChat,
    Message,
    PreparedTurn,
    TurnKind,
)
from core.turn.choices import Choices
from core.turn.events import Finished, Notice, Stage, Token, TurnEvent, TurnResult, collect

__all__ = [
    "Approval",
    "ApprovalEntity",
    "ApprovalRequest",
    "Approvals",
    "ApproveCallback",
    "Assistant",
    "Choices",
    "CloudDoor",
    "Decision",
    "Finished",
    "LocalChat",
    "Message",
    "Notice",
    "PreparedTurn",
    "Stage",
    "Token",
    "TurnEvent",
    "TurnKind",
    "TurnResult",
    "collect",
]
