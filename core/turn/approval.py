"""What the person approves, and when they must.

:class:`ApprovalRequest` is exactly what would leave the machine;
:class:`Approval` is the person's answer, bound to the digest of that payload
(:func:`core.outbound.payload_digest`): the turn and the egress guard refuse to
send anything else. Toggles in the approval view do not change an approved
payload: they make a new one (:meth:`core.turn.Assistant.revise`), which is
shown and approved in its turn.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from core.settings import ApprovalPolicy
from core.store import Store

if TYPE_CHECKING:
    from core.turn.assistant import PreparedTurn

Message = dict[str, str]


@dataclass
class ApprovalEntity:
    """One private value the payload mentions, with the person's toggle."""

    placeholder: str
    type: str
    value: str  # shown only on this machine, in the approval view
    protected: bool = True
    reason: str = ""  # why it is sent in clear (the type policy's or the person's choice)


@dataclass
class ApprovalRequest:
    """What would leave the machine, exactly, for the person to approve."""

    endpoint: str
    model: str
    messages: list[Message]
    entities: list[ApprovalEntity]
    withheld_sentences: int
    remote_sentences: int

    @property
    def user_content(self) -> str:
        return self.messages[-1]["content"] if self.messages else ""


class Decision(StrEnum):
    SEND = "send"
    EDIT = "edit"
    CANCEL = "cancel"


@dataclass(frozen=True)
class Approval:
    """The person's answer to an :class:`ApprovalRequest`.

    ``digest`` is the digest of the payload the person saw and approved; a turn
    whose payload has another digest is not sent.
    """

    decision: Decision
    digest: str = ""
    #: Approve every later turn of this conversation without asking.
    always_in_conversation: bool = False

    @classmethod
    def send(cls, prepared: PreparedTurn, always: bool = False) -> Approval:
        """Send exactly ``prepared``'s payload."""
        return cls(Decision.SEND, prepared.digest, always)

    @classmethod
    def cancel(cls) -> Approval:
        return cls(Decision.CANCEL)

    @classmethod
    def edit(cls) -> Approval:
        return cls(Decision.EDIT)

    def sends(self, prepared: PreparedTurn) -> bool:
        """Does this approval send ``prepared``'s payload, byte for byte?"""
        return self.decision is Decision.SEND and self.digest == prepared.digest


class Approvals:
    """The approval policy of the settings and the per-conversation "always approve"."""

    def __init__(self, store: Store, policy: ApprovalPolicy) -> None:
        self.store = store
        self.policy = policy

    def needed(self, conversation_id: int, request: ApprovalRequest) -> bool:
        if self.policy is ApprovalPolicy.NEVER or self.always(conversation_id):
            return False
        if self.policy is ApprovalPolicy.WHEN_ENTITIES:
            return bool(request.entities)
        return True

    def always(self, conversation_id: int) -> bool:
        return bool(self._settings(conversation_id).get("always_approve"))

    def set_always(self, conversation_id: int, value: bool = True) -> None:
        data = self._settings(conversation_id)
        data["always_approve"] = value
        with self.store.transaction() as db:
            db.execute(
                "UPDATE conversations SET settings = ? WHERE id = ?",
                [json.dumps(data), conversation_id],
            )

    def _settings(self, conversation_id: int) -> dict[str, object]:
        conv = self.store.conversation(conversation_id)
        data = json.loads(conv.get("settings") or "{}")
        return data if isinstance(data, dict) else {}
