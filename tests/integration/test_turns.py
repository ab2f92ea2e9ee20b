"""Whole turns through the real parts: detector, box, egress guard, openai client,
the loopback llama_cpp.server (behind the recording proxy) and the SQLCipher store.

What counts is what the server received (``recorder``), never an intermediate.
"""

from __future__ import annotations

import pytest

from core.analyze import Route
from core.assembly import make_assistant
from core.errors import ApprovalDeclined, CloudError
from core.settings import Integration, Settings
from core.store import Store
from core.turn import Approval, Assistant, Choices, PreparedTurn, TurnKind, collect
from tests.integration.recording_proxy import Fault, RecordingProxy

CHAT = (
    "My daughter Lucy Whitfield, 7 years old, has had a fever since 03/02/2024. "
    "Her pediatrician is Dr. Anand Krishnan and her MRN is KDH-774219. "
    "What fever is too high for a child of that age?"
)
DRAFT = (
    "Write to my landlord Gerald Moss (gerald.moss@example.net) that the heating in "
    "flat 4B has been broken since January 12, 2025 and I need it fixed this week. "
    "I am Priya Raman, phone 412-555-0196."
)
VALUES = ["Lucy Whitfield", "Anand Krishnan", "KDH-774219", "03/02/2024", "Gerald Moss",
          "gerald.moss@example.net", "January 12, 2025", "Priya Raman", "412-555-0196"]


@pytest.fixture
def assistant(store: Store, demo_cloud: str) -> Assistant:
    settings = Settings(
        cloud_base_url=demo_cloud,
        cloud_model="sottovoce-demo",
        cloud_max_retries=0,
        cloud_timeout_s=60,
        cloud_max_tokens=48,  # short answers keep the history inside the demo's context
        chat_integration=Integration.PASS_THROUGH,
    )
    return make_assistant(settings, store, local=False)


def all_remote(assistant: Assistant, text: str) -> Choices:
    sentences = assistant.analyzer.segmenter.segment(text)
    return Choices(routes=dict.fromkeys((s.text for s in sentences), Route.REMOTE))


def send(p: PreparedTurn) -> tuple[PreparedTurn, Approval]:
    return p, Approval.send(p)


def test_chat_turn_end_to_end(assistant: Assistant, recorder: RecordingProxy, store: Store) -> None:
    conv = assistant.new_conversation("fever")
    r = collect(assistant.run(CHAT, conv, approve=send, choices=all_remote(assistant, CHAT)))
    received = recorder.received_text()
    assert len(recorder.chat_requests) == 1
    for v in VALUES:
        assert v.lower() not in received.lower()
    assert "[PERSON_1]" in received  # the anonymized sentences did go
    assert r.answer and not r.local_only
    ledger = store.ledger()
    assert ledger[0]["payload"]["messages"][-1]["content"] == r.outbound


def test_two_turns_second_request_holds_no_restored_value(
    assistant: Assistant, recorder: RecordingProxy
) -> None:
    conv = assistant.new_conversation("two turns")
    first = collect(assistant.run(CHAT, conv, approve=send, choices=all_remote(assistant, CHAT)))
    follow = "Should Lucy Whitfield see Dr. Anand Krishnan again tomorrow?"
    collect(assistant.run(follow, conv, approve=send, choices=all_remote(assistant, follow)))
    second = recorder.chat_requests[1].strings()
    text = "\n".join(second).lower()
    for v in VALUES:
        assert v.lower() not in text
    # The history went in its anonymized form, with the same placeholders.
    assert first.outbound in "\n".join(second)
    assert text.count("[person_1]") >= 2


def test_email_draft_end_to_end(assistant: Assistant, recorder: RecordingProxy) -> None:
    conv = assistant.new_conversation("heating", TurnKind.DRAFT)
    r = collect(assistant.run(DRAFT, conv, TurnKind.DRAFT, approve=send, choices=all_remote(assistant, DRAFT)))
    received = recorder.received_text().lower()
    for v in VALUES:
        assert v.lower() not in received
    assert "write one complete" in received  # the drafting prompt went
    assert r.answer.strip()
    # Whatever placeholders the cloud used came back as real values or are reported.
    assert "[email_1]" not in r.answer.lower() or "[EMAIL_1]" in r.unresolved


def test_cancel_at_approval_sends_nothing(assistant: Assistant, recorder: RecordingProxy, store: Store) -> None:
    conv = assistant.new_conversation("cancel")
    with pytest.raises(ApprovalDeclined):
        collect(
            assistant.run(CHAT, conv, approve=lambda p: (p, Approval.cancel()), choices=all_remote(assistant, CHAT))
        )
    assert recorder.chat_requests == [] and store.ledger() == [] and store.messages(conv) == []


@pytest.mark.parametrize("fault", [Fault("status", status=500), Fault("cut", after_events=2), Fault("malformed")])
def test_cloud_failure_mid_turn_keeps_draft_and_box(
    assistant: Assistant, recorder: RecordingProxy, store: Store, fault: Fault
) -> None:
    conv = assistant.new_conversation("failure")
    collect(assistant.run(CHAT, conv, approve=send, choices=all_remote(assistant, CHAT)))
    box_before = store.load_box(conv)
    messages_before = store.messages(conv)
    recorder.clear()
    recorder.inject(fault)
    follow = "Is ibuprofen fine for Lucy Whitfield tonight?"
    with pytest.raises(CloudError):
        collect(assistant.run(follow, conv, approve=send, choices=all_remote(assistant, follow)))
    assert store.load_box(conv) == box_before
    assert store.messages(conv) == messages_before
    assert len(recorder.chat_requests) == 1  # never resent without a new approval
    assert store.ledger()[0]["status"] != "ok"
