"""Faults between the guard and the loopback server, through the real openai client.

Each fault must give its typed error (a SottovoceError the UI can show), must
not crash, and must not resend content on its own: one call is one send, its
ledger row says what happened, and the error carries nothing that could be
replayed. Retrying the *same approved* request after a 429 or a 5xx is
allowed and checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.egress import EgressGuard
from core.errors import (
    CloudError,
    CloudMalformedResponse,
    CloudNotFound,
    CloudServerError,
    CloudTimeout,
    CloudUnauthorized,
    CloudUnreachable,
    SottovoceError,
)
from core.llm.cloud import CloudClient
from core.llm.demo import DEMO_MODEL, free_port
from tests.integration.recording_proxy import Fault, RecordingProxy

HANG = 300.0  # seconds: a client timeout that only bounds a hang
DRAFT = [{"role": "user", "content": "Write one sentence to [PERSON_1] about the meeting."}]

FAULTS: list[tuple[str, list[Fault], type[CloudError]]] = [
    ("401", [Fault("status", 401)], CloudUnauthorized),
    ("404 model", [Fault("status", 404)], CloudNotFound),
    ("500", [Fault("status", 500)] * 3, CloudServerError),
    ("malformed json", [Fault("malformed")], CloudMalformedResponse),
    ("cut mid-stream", [Fault("cut", after_events=3)], CloudUnreachable),
    ("timeout", [Fault("hang")], CloudTimeout),
]


def _send(guard: EgressGuard, stream: bool) -> str:
    if stream:
        s = guard.stream(DRAFT, box=None, max_tokens=8, purpose="draft")
        try:
            for _ in s:
                pass
        finally:
            partial = s.text
        return partial
    return guard.complete(DRAFT, box=None, max_tokens=8, purpose="draft").text


@pytest.mark.parametrize(("name", "faults", "error"), FAULTS, ids=[f[0] for f in FAULTS])
@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_a_fault_gives_its_typed_error_and_nothing_is_resent(
    demo_cloud: str,
    recorder: RecordingProxy,
    name: str,
    faults: list[Fault],
    error: type[CloudError],
    stream: bool,
) -> None:
    # The model may be slow on a busy machine: a short timeout only where the
    # fault is a server that never answers.
    timeout = 2.0 if name == "timeout" else HANG
    client = CloudClient(demo_cloud, DEMO_MODEL, timeout=timeout, max_retries=2, sleep=lambda s: None)
    guard = EgressGuard(client)
    recorder.inject(*faults)
    with pytest.raises(error) as info:
        _send(guard, stream)
    exc = info.value
    assert isinstance(exc, SottovoceError) and exc.message
    assert exc.__context__ is None and exc.__cause__ is None  # nothing to replay
    sent = len(recorder.chat_requests)
    assert sent == (3 if name == "500" else 1)  # 5xx: the same approved request, retried
    row = guard.ledger.rows[0]  # type: ignore[attr-defined]
    assert row["status"].startswith(f"error: {error.__name__}")
    assert len(guard.ledger.rows) == 1  # type: ignore[attr-defined]


def test_a_cut_stream_keeps_the_text_that_arrived(
    demo_cloud: str, recorder: RecordingProxy
) -> None:
    guard = EgressGuard(CloudClient(demo_cloud, DEMO_MODEL, timeout=HANG))
    recorder.inject(Fault("cut", after_events=4))
    s = guard.stream(DRAFT, box=None, max_tokens=16)
    got = []
    with pytest.raises(CloudUnreachable):
        for piece in s:
            got.append(piece)
    assert got and s.text == "".join(got)
    assert guard.ledger.rows[0]["response"] == s.text  # type: ignore[attr-defined]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_429_then_success_waits_as_asked_and_sends_the_same_body(
    demo_client: Any, recorder: RecordingProxy, stream: bool
) -> None:
    guard = EgressGuard(demo_client)
    recorder.inject(Fault("status", 429, retry_after="2"))
    _send(guard, stream)
    first, second = recorder.chat_requests
    assert first.body == second.body
    assert demo_client.slept == [2.0]
    assert guard.ledger.rows[0]["status"] == "ok after 2 attempts"  # type: ignore[attr-defined]


def test_a_server_that_is_not_running_is_unreachable(recorder: RecordingProxy) -> None:
    client = CloudClient(f"http://127.0.0.1:{free_port()}/v1", DEMO_MODEL, max_retries=2)
    guard = EgressGuard(client)
    with pytest.raises(CloudUnreachable) as info:
        guard.complete(DRAFT, box=None, max_tokens=8)
    assert "running" in (info.value.hint or "")
    assert guard.ledger.rows[0]["status"] == "error: CloudUnreachable"  # type: ignore[attr-defined]


def test_after_a_fault_a_new_approval_sends_again(
    demo_client: Any, recorder: RecordingProxy
) -> None:
    guard = EgressGuard(demo_client)
    recorder.inject(Fault("status", 401))
    with pytest.raises(CloudUnauthorized):
        _send(guard, stream=False)
    assert _send(guard, stream=False)  # a new call: the person's new decision
    assert len(recorder.chat_requests) == 2
    assert [r["status"] for r in guard.ledger.rows] == [  # type: ignore[attr-defined]
        "error: CloudUnauthorized (HTTP 401)",
        "ok",
    ]
