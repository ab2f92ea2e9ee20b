"""The proxy's service: requests as turns, conversations recognised, approvals bound to bytes.

Unit tests with a rules-only detector, a router that sends every sentence and
a fake cloud door; the same flows over HTTP with the real parts, the ``openai``
client and a loopback cloud are in tests/integration/test_proxy.py.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from core.analyze import Analyzer
from core.detect.base import Detector
from core.detect.rules import RulesView
from core.errors import ApprovalDeclined, Cancelled, PayloadChanged
from core.outbound import payload_digest
from core.proxy import (
    ApprovalBroker,
    ApprovalUnavailable,
    ChatRequest,
    PendingApproval,
    ProxyResult,
    ProxyService,
)
from core.proxy.service import ProxyDoor
from core.router.base import RouteInput
from core.settings import ApprovalPolicy, Integration, Settings
from core.store import Store
from core.turn import Approval, Assistant, Decision

PHONE = "215-555-4078"
EMAIL = "anna.k@example.org"


class AllRemote:
    name = "all-remote"

    def route(self, query: RouteInput) -> list[float]:
        return [0.9] * len(query.sentences)


class FakeDoor:
    """Echoes the placeholders of the last user message, in small pieces."""

    endpoint = "http://fake/v1/chat/completions"
    model = "fake-model"

    def __init__(self) -> None:
        self.received: list[list[dict[str, str]]] = []
        self.purposes: list[str] = []

    def stream(self, messages: Sequence[dict[str, str]], **kw: Any) -> Iterator[str]:
        self.received.append([dict(m) for m in messages])
        self.purposes.append(str(kw.get("purpose")))
        found = re.findall(r"\[[A-Z_]+_\d+\]", messages[-1]["content"])
        answer = f"Noted {' and '.join(found) or 'nothing'}."
        for i in range(0, len(answer), 3):
            yield answer[i : i + 3]


@pytest.fixture(scope="module")
def analyzer(segmenter: Any) -> Analyzer:
    return Analyzer(segmenter, Detector([RulesView()]), AllRemote())


@pytest.fixture
def door() -> FakeDoor:
    return FakeDoor()


def make(store: Store, analyzer: Analyzer, door: FakeDoor, **settings: Any) -> Assistant:
    s = Settings(
        approval_policy=settings.pop("approval_policy", ApprovalPolicy.NEVER),
        chat_integration=Integration.PASS_THROUGH,
        **settings,
    )
    return Assistant(s, store, cloud=door, local=None, analyzer=analyzer)


def request(*messages: tuple[str, str], stream: bool = True) -> ChatRequest:
    return ChatRequest.from_json(
        {"stream": stream, "messages": [{"role": r, "content": c} for r, c in messages]}
    )


def run(service: ProxyService, req: ChatRequest, **kw: Any) -> ProxyResult:
    kw.setdefault("client", "test app")
    items = list(service.run(req, **kw))
    result = items[-1]
    assert isinstance(result, ProxyResult)
    assert "".join(i for i in items if isinstance(i, str)) == result.answer
    return result


def payload(door: FakeDoor, i: int = -1) -> str:
    return "\n".join(m["content"] for m in door.received[i])


def test_a_request_is_a_turn_anonymized_out_and_restored_back(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door))
    r = run(service, request(("user", f"Call me at {PHONE} about the invoice.")))
    assert PHONE not in payload(door) and "[PHONE_1]" in payload(door)
    assert r.answer == f"Noted {PHONE}." and r.model == "fake-model"
    assert door.purposes == ["proxy: test app"]
    conv = store.conversation(r.conversation_id)
    assert conv["kind"] == "proxy" and conv["title"].startswith("test app: Call me")
    assert [m["role"] for m in store.messages(r.conversation_id)] == ["user", "assistant"]


def test_the_next_turn_is_recognised_by_its_history_and_keeps_placeholders(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door))
    first_text = f"Call me at {PHONE} about the invoice."
    first = run(service, request(("user", first_text)))
    # The client keeps the answer as it received it (here trimmed differently).
    second = run(
        service,
        request(
            ("user", first_text),
            ("assistant", "  " + first.answer + "\n"),
            ("user", f"Or write to {EMAIL}; {PHONE} is my work phone."),
        ),
    )
    assert second.conversation_id == first.conversation_id
    sent = door.received[-1]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    text = payload(door)
    assert PHONE not in text and EMAIL not in text
    assert text.count("[PHONE_1]") == 3  # history, earlier answer, new message: one placeholder
    assert sent[2]["content"] == "Noted [PHONE_1]."  # the cloud side of the history, as it was
    assert second.answer == f"Noted {EMAIL} and {PHONE}."
    assert len(store.conversations()) == 1


def test_a_second_branch_from_the_same_history_forks_the_conversation(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door))
    u1 = f"Call me at {PHONE}."
    first = run(service, request(("user", u1)))
    history = [("user", u1), ("assistant", first.answer)]
    a = run(service, request(*history, ("user", f"Also {EMAIL}.")))
    b = run(service, request(*history, ("user", "Only the phone, please.")))
    assert a.conversation_id == first.conversation_id and b.conversation_id != a.conversation_id
    # The branch has the shared start, then its own turn; the original keeps its own.
    assert [m["content"] for m in store.messages(b.conversation_id)][:2] == [u1, first.answer]
    assert store.messages(b.conversation_id)[-2]["content"] == "Only the phone, please."
    assert store.messages(a.conversation_id)[-2]["content"] == f"Also {EMAIL}."
    assert "[PHONE_1]" in payload(door) and PHONE not in payload(door)
    # Each branch goes on in its own conversation.
    c = run(service, request(*history, ("user", "Only the phone, please."), ("assistant", b.answer), ("user", "Thanks.")))
    assert c.conversation_id == b.conversation_id


def test_history_begun_elsewhere_is_adopted_anonymized_with_the_apps_system_prompt(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door))
    r = run(
        service,
        request(
            ("system", f"You help the user, whose email is {EMAIL}. Answer briefly."),
            ("user", f"My phone is {PHONE}."),
            ("assistant", f"Got it, {PHONE}."),
            ("user", "What did I tell you?"),
        ),
    )
    sent = door.received[-1]
    assert [m["role"] for m in sent] == ["system", "system", "user", "assistant", "user"]
    assert sent[1]["content"] == "You help the user, whose email is [EMAIL_1]. Answer briefly."
    assert EMAIL not in payload(door) and PHONE not in payload(door)
    assert [m["role"] for m in store.messages(r.conversation_id)] == [
        "system", "user", "assistant", "user", "assistant",
    ]


def test_the_conversation_header_names_the_conversation(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door))
    a = run(service, request(("user", f"Call {PHONE}.")), key="notes-42")
    b = run(service, request(("user", f"Is {PHONE} right?")), key="notes-42")
    c = run(service, request(("user", f"Call {PHONE}.")), key="other")
    assert a.conversation_id == b.conversation_id != c.conversation_id
    assert [m["role"] for m in door.received[1]] == ["system", "user", "assistant", "user"]


def test_a_restarted_proxy_still_knows_its_conversations(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    first = run(ProxyService(make(store, analyzer, door)), request(("user", f"Call {PHONE}.")))
    again = ProxyService(make(store, analyzer, door))
    second = run(again, request(("user", f"Call {PHONE}."), ("assistant", first.answer), ("user", "Thanks")))
    assert second.conversation_id == first.conversation_id


def test_a_conversation_deleted_in_the_window_starts_afresh(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door))
    first = run(service, request(("user", f"Call {PHONE}.")))
    store.delete_conversation(first.conversation_id)
    second = run(service, request(("user", f"Call {PHONE}."), ("assistant", first.answer), ("user", "Thanks")))
    # Adopted again from the client's history (SQLite may hand out the old id again).
    assert [m["role"] for m in store.messages(second.conversation_id)] == ["user", "assistant"] * 2


def test_without_a_window_a_request_that_needs_approval_fails_unsent(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.ALWAYS))
    with pytest.raises(ApprovalUnavailable):
        run(service, request(("user", f"Call {PHONE}.")))
    assert door.received == [] and store.conversations() == []


def test_when_entities_lets_a_request_without_private_values_go(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.WHEN_ENTITIES))
    run(service, request(("user", "Name three rivers in Europe.")))
    with pytest.raises(ApprovalUnavailable):
        run(service, request(("user", f"Call {PHONE}.")))
    assert len(door.received) == 1


def window(broker: ApprovalBroker, answer: Any) -> list[PendingApproval]:
    """An approver that answers on another thread, as the window does."""
    seen: list[PendingApproval] = []

    def approver(p: PendingApproval) -> None:
        seen.append(p)
        threading.Thread(target=answer, args=(p,)).start()

    broker.attach(approver)
    return seen


def test_the_window_approves_what_it_showed(store: Store, analyzer: Analyzer, door: FakeDoor) -> None:
    broker = ApprovalBroker()
    seen = window(broker, lambda p: p.resolve(Approval.send(p.prepared)))
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.ALWAYS), approvals=broker)
    r = run(service, request(("user", f"Call {PHONE}.")), client="Open WebUI")
    assert [p.client for p in seen] == ["Open WebUI"]
    assert door.received[0] == seen[0].request.messages  # exactly the approved bytes
    assert r.answer == f"Noted {PHONE}."


def test_a_value_sent_in_clear_is_what_the_preview_showed(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    broker = ApprovalBroker()

    def untick(p: PendingApproval) -> None:
        shown = p.revise(p.prepared, ["[PHONE_1]"])  # the view's preview
        p.resolve(Approval.send(shown), shown)

    window(broker, untick)
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.ALWAYS), approvals=broker)
    run(service, request(("user", f"Call {PHONE} or {EMAIL}.")))
    assert PHONE in payload(door) and EMAIL not in payload(door)
    assert store.conversation(store.conversations()[0]["id"])["disclosed"] == 1


def test_a_payload_other_than_the_one_shown_is_never_sent(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    broker = ApprovalBroker()

    def approve_one_execute_another(p: PendingApproval) -> None:
        # The person approved the first payload; the turn handed back is the
        # revised one (the number in clear), which they never approved.
        p.resolve(Approval.send(p.prepared), p.revise(p.prepared, ["[PHONE_1]"]))

    window(broker, approve_one_execute_another)
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.ALWAYS), approvals=broker)
    with pytest.raises(PayloadChanged):
        run(service, request(("user", f"Call {PHONE}.")))
    assert door.received == []


@pytest.mark.parametrize("decision", [Decision.CANCEL, Decision.EDIT])
def test_a_declined_request_is_not_sent(
    store: Store, analyzer: Analyzer, door: FakeDoor, decision: Decision
) -> None:
    broker = ApprovalBroker()
    window(broker, lambda p: p.resolve(Approval(decision)))
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.ALWAYS), approvals=broker)
    with pytest.raises(ApprovalDeclined):
        run(service, request(("user", f"Call {PHONE}.")))
    assert door.received == []


def test_a_client_that_leaves_while_waiting_withdraws_its_request(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    broker = ApprovalBroker()
    cancel = threading.Event()
    seen = window(broker, lambda p: cancel.set())
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.ALWAYS), approvals=broker)
    with pytest.raises(Cancelled):
        run(service, request(("user", f"Call {PHONE}.")), cancel=cancel)
    assert seen[0].withdrawn and door.received == []


def test_always_approve_in_the_conversation_carries_to_the_next_turn(
    store: Store, analyzer: Analyzer, door: FakeDoor
) -> None:
    broker = ApprovalBroker()
    seen = window(broker, lambda p: p.resolve(Approval.send(p.prepared, always=True)))
    service = ProxyService(make(store, analyzer, door, approval_policy=ApprovalPolicy.ALWAYS), approvals=broker)
    first = run(service, request(("user", f"Call {PHONE}.")))
    run(service, request(("user", f"Call {PHONE}."), ("assistant", first.answer), ("user", "Thanks")))
    assert len(seen) == 1 and len(door.received) == 2


def test_the_door_sends_one_approved_payload_once() -> None:
    inner = FakeDoor()
    msgs = [{"role": "user", "content": "[PHONE_1]"}]
    with pytest.raises(PayloadChanged):  # nothing approved
        ProxyDoor(inner, "proxy: x").stream(msgs, box=None, conversation_id=1, purpose="chat")
    door = ProxyDoor(inner, "proxy: x")
    approved = payload_digest(msgs)
    assert "".join(door.stream(msgs, box=None, conversation_id=1, purpose="chat", approved=approved))
    with pytest.raises(PayloadChanged):  # one approval, one send
        door.stream(msgs, box=None, conversation_id=1, purpose="chat", approved=approved)
    assert inner.purposes == ["proxy: x"] and len(inner.received) == 1


class GuessingDoor(FakeDoor):
    """Answers the first request with a placeholder it was never sent."""

    def stream(self, messages: Sequence[dict[str, str]], **kw: Any) -> Iterator[str]:
        if self.received:
            yield from super().stream(messages, **kw)
            return
        self.received.append([dict(m) for m in messages])
        yield from ["Ask the clinic at [PHO", "NE_2] too."]


def test_a_placeholder_the_cloud_invented_is_never_given_to_a_later_value(
    store: Store, analyzer: Analyzer
) -> None:
    door = GuessingDoor()
    service = ProxyService(make(store, analyzer, door))
    u1 = f"Call me at {PHONE}."
    first = run(service, request(("user", u1)))
    assert first.answer == "Ask the clinic at [PHONE_2] too."  # unresolved, shown as written
    clinic = "617-555-0199"
    second = run(
        service,
        request(("user", u1), ("assistant", first.answer), ("user", f"The clinic is {clinic}.")),
    )
    sent = door.received[-1]
    assert sent[2]["content"] == "Ask the clinic at [PHONE_2] too."
    assert clinic not in payload(door) and "[PHONE_3]" in sent[-1]["content"]
    assert "[PHONE_2]" not in sent[-1]["content"]
    assert second.answer == f"Noted {clinic}."
