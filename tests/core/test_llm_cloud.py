"""The cloud client against a fake OpenAI-compatible server (no model needed)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from email.utils import formatdate
from typing import Any

import keyring
import pytest

from core.errors import (
    Cancelled,
    CloudError,
    CloudMalformedResponse,
    CloudNotFound,
    CloudRateLimited,
    CloudServerError,
    CloudTimeout,
    CloudUnauthorized,
    CloudUnreachable,
)
from core.llm.cloud import CloudClient, retry_after_seconds
from core.llm.endpoints import (
    API_KEY_ENV,
    KEYRING_SERVICE,
    NO_KEY,
    delete_api_key,
    get_api_key,
    set_api_key,
)
from tests.integration.recording_proxy import CANNED_ANSWER, Fault, RecordingProxy

MESSAGES = [{"role": "user", "content": "Say hello."}]
# A client timeout that only bounds a hang: the fake answers at once, however busy
# the machine; only the "hang" fault, which never answers, waits for a short one.
HANG = 60.0


@pytest.fixture(scope="module")
def fake() -> Iterator[RecordingProxy]:
    proxy = RecordingProxy().start()
    yield proxy
    proxy.stop()


@pytest.fixture
def server(fake: RecordingProxy) -> Iterator[RecordingProxy]:
    fake.clear()
    yield fake
    fake.clear()


def client_for(server: RecordingProxy, **kw: Any) -> tuple[CloudClient, list[float]]:
    slept: list[float] = []
    kw.setdefault("timeout", HANG)
    kw.setdefault("max_retries", 2)
    return CloudClient(server.base_url, "test-model", sleep=slept.append, **kw), slept


def ask(client: CloudClient, stream: bool) -> str:
    body = client.build_body(MESSAGES, stream=stream, max_tokens=8)
    if stream:
        return "".join(client.post_stream(body))
    return client.post(body).text


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_an_answer_comes_back(server: RecordingProxy, stream: bool) -> None:
    client, _ = client_for(server)
    assert ask(client, stream) == CANNED_ANSWER
    (req,) = server.chat_requests
    assert req.json["messages"] == MESSAGES and req.json["model"] == "test-model"


def test_usage_and_finish_reason_are_reported(server: RecordingProxy) -> None:
    client, _ = client_for(server)
    reply = client.post(client.build_body(MESSAGES))
    assert (reply.prompt_tokens, reply.completion_tokens, reply.finish_reason) == (7, 6, "stop")
    assert reply.attempts == 1


FAULTS = [
    ("401", [Fault("status", 401)], CloudUnauthorized),
    ("403", [Fault("status", 403)], CloudUnauthorized),
    ("404", [Fault("status", 404)], CloudNotFound),
    ("400", [Fault("status", 400)], CloudError),
    ("malformed", [Fault("malformed")], CloudMalformedResponse),
    ("cut", [Fault("cut", after_events=2)], CloudUnreachable),
    ("dropped", [Fault("drop")], CloudUnreachable),
    ("timeout", [Fault("hang")], CloudTimeout),
    ("429 forever", [Fault("status", 429, retry_after="1")] * 5, CloudRateLimited),
    ("500 forever", [Fault("status", 500)] * 5, CloudServerError),
]


@pytest.mark.parametrize(("name", "faults", "error"), FAULTS, ids=[f[0] for f in FAULTS])
@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_each_fault_gives_its_typed_error(
    server: RecordingProxy, name: str, faults: list[Fault], error: type[CloudError], stream: bool
) -> None:
    client, slept = client_for(server, timeout=1.0 if name == "timeout" else HANG)
    server.inject(*faults)
    with pytest.raises(error) as info:
        ask(client, stream)
    assert type(info.value) is error
    # Raised clean: nothing links the error to the openai exception and its payload.
    assert info.value.__context__ is None and info.value.__cause__ is None
    retried = name.endswith("forever")
    assert len(server.chat_requests) == (3 if retried else 1)
    assert len(slept) == (2 if retried else 0)


@pytest.mark.parametrize("status", [429, 500, 502, 503])
def test_429_and_5xx_are_retried_with_the_same_body(server: RecordingProxy, status: int) -> None:
    client, slept = client_for(server)
    server.inject(Fault("status", status))
    reply = client.post(client.build_body(MESSAGES))
    assert reply.text == CANNED_ANSWER and reply.attempts == 2
    first, second = server.chat_requests
    assert first.body == second.body
    assert slept == [1.0]


def test_retry_after_is_honoured(server: RecordingProxy) -> None:
    client, slept = client_for(server)
    server.inject(Fault("status", 429, retry_after="7"), Fault("status", 503, retry_after="2"))
    assert client.post(client.build_body(MESSAGES)).attempts == 3
    assert slept == [7.0, 2.0]


def test_backoff_grows_exponentially_without_retry_after(server: RecordingProxy) -> None:
    client, slept = client_for(server, max_retries=4, backoff=0.5, max_backoff=1.5)
    server.inject(*[Fault("status", 500)] * 4)
    client.post(client.build_body(MESSAGES))
    assert slept == [0.5, 1.0, 1.5, 1.5]


def test_a_retry_after_beyond_the_limit_fails_at_once_and_says_how_long(
    server: RecordingProxy,
) -> None:
    client, slept = client_for(server, max_retry_after=60)
    server.inject(Fault("status", 429, retry_after="3600"))
    with pytest.raises(CloudRateLimited) as info:
        client.post(client.build_body(MESSAGES))
    assert slept == [] and len(server.chat_requests) == 1
    assert "3600" in (info.value.hint or "")


def test_cancel_interrupts_the_wait_between_retries(server: RecordingProxy) -> None:
    client = CloudClient(server.base_url, "m", max_retries=3)
    server.inject(Fault("status", 429, retry_after="30"))
    cancel = WatchedCancel()
    # The person cancels while the client waits (whenever that is, on a busy machine).
    threading.Thread(target=lambda: cancel.waiting.wait(60) and cancel.set(), daemon=True).start()
    with pytest.raises(Cancelled):
        client.post(client.build_body(MESSAGES), cancel=cancel)
    # It waited for the Retry-After on the cancel itself, which woke it (a
    # client that slept instead would retry after 30 s and get the answer).
    assert cancel.waits == [30.0]
    assert len(server.chat_requests) == 1


class WatchedCancel(threading.Event):
    """A cancel event that records the waits made on it; ``waiting`` is set once one starts."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float | None] = []
        self.waiting = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        self.waiting.set()
        return super().wait(timeout)


def test_cancel_stops_a_stream_between_pieces(server: RecordingProxy) -> None:
    client, _ = client_for(server)
    cancel = threading.Event()
    stream = client.post_stream(client.build_body(MESSAGES, stream=True), cancel=cancel)
    got = []
    with pytest.raises(Cancelled):
        for piece in stream:
            got.append(piece)
            cancel.set()
    assert got == ["Hello"] and stream.text == "Hello"


def test_an_empty_stream_is_reported_with_the_likely_cause(server: RecordingProxy) -> None:
    client, _ = client_for(server)
    server.inject(Fault("empty"))
    with pytest.raises(CloudUnreachable) as info:
        ask(client, stream=True)
    assert "without sending any of it" in info.value.message
    assert "context" in (info.value.hint or "")


def test_an_unreachable_server_is_reported_as_such() -> None:
    from core.llm.demo import free_port

    client = CloudClient(f"http://127.0.0.1:{free_port()}/v1", "m", max_retries=3)
    with pytest.raises(CloudUnreachable):
        client.post(client.build_body(MESSAGES))


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "5"}, 5.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "1500"}, 1.5),
        ({"Retry-After": formatdate(1_000_030, usegmt=True)}, 30.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
        ({"Retry-After": "-3"}, 0.0),
    ],
)
def test_retry_after_header_forms(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_seconds(headers, now=1_000_000) == expected


# --- the API key ------------------------------------------------------------------------


def test_the_api_key_comes_from_the_keyring_and_is_sent_as_a_bearer_token(
    server: RecordingProxy, hermetic: Any
) -> None:
    set_api_key(server.base_url, "sk-secret-123")
    assert hermetic.items[(KEYRING_SERVICE, f"cloud-api-key:{server.base_url}")] == "sk-secret-123"
    client = CloudClient(server.base_url, "m")
    client.post(client.build_body(MESSAGES))
    (req,) = server.chat_requests
    assert {k.lower(): v for k, v in req.headers.items()}["authorization"] == "Bearer sk-secret-123"
    assert "sk-secret" not in repr(client)


def test_keys_are_per_endpoint_and_can_be_deleted() -> None:
    set_api_key("https://a.example/v1/", "ka")
    set_api_key("https://b.example/v1", "kb")
    assert get_api_key("https://a.example/v1") == "ka"
    assert get_api_key("https://b.example/v1") == "kb"
    delete_api_key("https://a.example/v1")
    delete_api_key("https://a.example/v1")  # twice is fine
    assert get_api_key("https://a.example/v1") is None


def test_the_key_never_reaches_the_logs(server: RecordingProxy, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    set_api_key(server.base_url, "sk-never-logged")
    client = CloudClient(server.base_url, "m", sleep=lambda s: None)
    server.inject(Fault("status", 429, retry_after="0"), Fault("status", 401))
    with pytest.raises(CloudUnauthorized):
        client.post(client.build_body(MESSAGES))
    assert "sk-never-logged" not in caplog.text


def test_a_remote_endpoint_without_a_key_fails_before_connecting(monkeypatch: Any) -> None:
    import socket

    def trap(*a: Any, **k: Any) -> None:
        raise AssertionError("connected")

    monkeypatch.setattr(socket.socket, "connect", trap)
    client = CloudClient("https://cloud.example.invalid/v1", "m")
    with pytest.raises(CloudUnauthorized) as info:
        client.post(client.build_body(MESSAGES))
    assert "Settings" in (info.value.hint or "")


def test_a_loopback_endpoint_needs_no_key(server: RecordingProxy) -> None:
    client = CloudClient(server.base_url, "m")
    client.post(client.build_body(MESSAGES))
    headers = {k.lower(): v for k, v in server.chat_requests[0].headers.items()}
    assert headers["authorization"] == f"Bearer {NO_KEY}"


def test_without_a_keyring_the_environment_provides_the_key(
    server: RecordingProxy, monkeypatch: Any
) -> None:
    from keyring.backends.fail import Keyring as FailKeyring

    keyring.set_keyring(FailKeyring())
    monkeypatch.setenv(API_KEY_ENV, "sk-from-env")
    client = CloudClient(server.base_url, "m")
    client.post(client.build_body(MESSAGES))
    headers = {k.lower(): v for k, v in server.chat_requests[0].headers.items()}
    assert headers["authorization"] == "Bearer sk-from-env"


def test_from_settings_uses_endpoint_model_timeout_and_retries() -> None:
    from core.settings import Settings

    s = Settings(
        cloud_base_url="https://x.example/v1/",
        cloud_model="m1",
        cloud_timeout_s=12,
        cloud_max_retries=1,
    )
    c = CloudClient.from_settings(s)
    assert (c.base_url, c.model, c.timeout, c.retries.max_retries) == ("https://x.example/v1", "m1", 12, 1)
    assert c.endpoint == "https://x.example/v1/chat/completions"
    assert not hasattr(s, "cloud_api_key")


def test_post_and_post_stream_refuse_the_wrong_kind_of_body(server: RecordingProxy) -> None:
    client, _ = client_for(server)
    with pytest.raises(ValueError):
        client.post(client.build_body(MESSAGES, stream=True))
    with pytest.raises(ValueError):
        client.post_stream(client.build_body(MESSAGES))
    assert server.chat_requests == []
