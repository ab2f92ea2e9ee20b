"""End to end: the guard, the real openai client, the loopback llama_cpp.server.

What the server received is recorded by the proxy in front of it; it must
hold no value of the privacy box, and it must be exactly what the ledger says
was sent.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.box import PrivacyBox
from core.egress import EgressGuard
from core.entities import EntityType
from core.errors import EgressBlocked
from core.llm.cloud import CloudClient
from core.outbound.fold import normalize
from core.store import Store
from tests.integration.recording_proxy import RecordingProxy

PRIVATE = {
    "Maria Gonzalez": EntityType.PERSON,
    "maria.gonzalez@example.com": EntityType.EMAIL,
    "555-867-5309": EntityType.PHONE,
    "St. Mary's Hospital": EntityType.ORG,
    "March 14, 1987": EntityType.DATE,
}
ORIGINAL = (
    "Maria Gonzalez (born March 14, 1987) was discharged from St. Mary's Hospital. "
    "Write a short note asking her to call 555-867-5309 or mail maria.gonzalez@example.com."
)


def _anonymize(box: PrivacyBox, text: str) -> str:
    from core.spans import Span

    spans = []
    for value, type_ in PRIVATE.items():
        i = text.find(value)
        if i >= 0:
            spans.append(Span(i, i + len(value), type_, 1.0, {"test": 1.0}))
    return box.anonymize(text, spans).text


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_the_server_receives_no_box_value_and_the_ledger_matches_it(
    demo_client: CloudClient, recorder: RecordingProxy, store: Store, stream: bool
) -> None:
    box = PrivacyBox()
    anonymized = _anonymize(box, ORIGINAL)
    assert len(box) == len(PRIVATE)
    conv = store.new_conversation("e2e")
    messages = [
        {"role": "system", "content": "You write short, polite notes."},
        {"role": "user", "content": _anonymize(box, "Who is Maria Gonzalez?")},
        {"role": "assistant", "content": "[PERSON_1] is a patient."},
        {"role": "user", "content": anonymized},
    ]
    guard = EgressGuard(demo_client, ledger=store)
    kw: dict[str, Any] = {"box": box, "conversation_id": conv, "purpose": "chat", "max_tokens": 8}
    answer = "".join(guard.stream(messages, **kw)) if stream else guard.complete(messages, **kw).text
    assert answer.strip()

    (received,) = recorder.chat_requests
    seen = normalize(recorder.received_text())
    for value in PRIVATE:
        assert normalize(value) not in seen
    assert "[PERSON_1]" in recorder.received_text()

    (row,) = store.ledger()
    assert row["payload"] == received.json
    assert row["endpoint"] == f"{recorder.base_url}/chat/completions"
    assert row["conversation_id"] == conv and row["status"] == "ok"
    assert row["response"] == answer
    if not stream:
        assert row["prompt_tokens"] and row["completion_tokens"]


def test_a_payload_that_still_holds_a_value_never_reaches_the_server(
    demo_client: CloudClient, recorder: RecordingProxy, store: Store
) -> None:
    box = PrivacyBox()
    _anonymize(box, ORIGINAL)
    guard = EgressGuard(demo_client, ledger=store)
    leaky = [{"role": "user", "content": "Write to MARIA GONZALEZ's family."}]
    with pytest.raises(EgressBlocked) as info:
        guard.complete(leaky, box=box, max_tokens=8)
    assert info.value.entity_types == ["PERSON"]
    assert recorder.requests == []
    assert store.ledger() == []


def test_the_ledger_row_shows_the_exact_json_sent(
    demo_client: CloudClient, recorder: RecordingProxy
) -> None:
    guard = EgressGuard(demo_client)
    messages = [{"role": "user", "content": "Say «bonjour» to [PERSON_1] ✓"}]
    guard.complete(messages, box=None, max_tokens=4, temperature=0)
    (received,) = recorder.chat_requests
    body = guard.check(messages, max_tokens=4, temperature=0)
    assert received.json == body == guard.ledger.rows[0]["payload"]  # type: ignore[attr-defined]


def test_a_payload_changed_after_approval_never_reaches_the_server(
    demo_client: CloudClient, recorder: RecordingProxy, store: Store
) -> None:
    from core.errors import PayloadChanged
    from core.outbound import payload_digest

    guard = EgressGuard(demo_client, ledger=store)
    shown = [{"role": "user", "content": "Write one line to [PERSON_1]."}]
    changed = [{"role": "user", "content": "Write one line to [PERSON_1], warmly."}]
    with pytest.raises(PayloadChanged):
        "".join(guard.stream(changed, box=None, max_tokens=8, approved=payload_digest(shown)))
    assert recorder.requests == [] and store.ledger() == []
    guard.complete(shown, box=None, max_tokens=8, approved=payload_digest(shown))
    (row,) = store.ledger()
    assert row["digest"] == payload_digest(shown) and len(recorder.chat_requests) == 1
