"""`sottovoce proxy` over HTTP: the real ``openai`` client and raw HTTP against the proxy,
the real detector, router, egress guard and vault behind it, and a loopback cloud
that records what it received (a recording proxy in front of a capable echo model,
or in front of the embedded llama_cpp.server).

What counts is what the cloud received and what the client got back.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from app.proxy_server import ProxyApp, ProxyServer, check_bind
from core.analyze import Analyzer
from core.assembly import default_detector, default_router, make_cloud_door
from core.errors import InputError
from core.proxy import ProxyService
from core.settings import ApprovalPolicy, Integration, Settings
from core.store import Store
from core.turn import Assistant
from tests.integration.echo_cloud import EchoCloud
from tests.integration.recording_proxy import Fault, RecordingProxy

TOKEN = "svp-test-token"
# Seconds: timeouts that only bound a hang (httpx's default of 5 s can pass on a busy
# machine while the proxy, its analyzer or the model behind it does its work).
HANG = 300
CLIENT = {"X-Sottovoce-Client": "pytest app"}
NAME, EMAIL = "Lucy Whitfield", "lucy.whitfield@example.org"
TEXT = f"Please write a short note to {NAME} ({EMAIL}) about her dentist appointment."


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    s = Settings()
    return Analyzer(detector=default_detector(s), router=default_router(s))


@pytest.fixture(scope="module")
def echo() -> Iterator[EchoCloud]:
    with EchoCloud() as cloud:
        yield cloud


@pytest.fixture(scope="module")
def _echo_recorder(echo: EchoCloud) -> Iterator[RecordingProxy]:
    proxy = RecordingProxy(upstream=echo.base_url.removesuffix("/v1")).start()
    yield proxy
    proxy.stop()


@pytest.fixture
def cloud(_echo_recorder: RecordingProxy) -> Iterator[RecordingProxy]:
    """What the (echo) cloud received during this test; faults can be injected."""
    _echo_recorder.clear()
    yield _echo_recorder
    _echo_recorder.clear()


def serve(
    store: Store, analyzer: Analyzer, base_url: str, model: str = "echo-capable", **settings: Any
) -> ProxyServer:
    s = Settings(
        cloud_base_url=base_url,
        cloud_model=model,
        cloud_max_retries=0,
        cloud_timeout_s=HANG,
        cloud_max_tokens=settings.pop("cloud_max_tokens", 48),
        approval_policy=settings.pop("approval_policy", ApprovalPolicy.NEVER),
        chat_integration=Integration.PASS_THROUGH,
        **settings,
    )
    assistant = Assistant(
        s, store, cloud=make_cloud_door(s, store, analyzer.detector), local=None, analyzer=analyzer
    )
    return ProxyServer(ProxyApp(ProxyService(assistant), TOKEN), "127.0.0.1", 0).start()


@pytest.fixture
def proxy(store: Store, analyzer: Analyzer, cloud: RecordingProxy) -> Iterator[ProxyServer]:
    server = serve(store, analyzer, cloud.base_url)
    yield server
    server.stop()


def client(server: ProxyServer, **kw: Any) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.base_url, api_key=TOKEN, max_retries=0, default_headers=CLIENT, **kw
    )


def stream_text(server: ProxyServer, messages: list[dict[str, str]]) -> tuple[str, int]:
    pieces = []
    for chunk in client(server).chat.completions.create(model="any", messages=messages, stream=True):  # type: ignore[arg-type]
        if chunk.choices and chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
    return "".join(pieces), len(pieces)


def test_without_the_token_nothing_happens(
    proxy: ProxyServer, cloud: RecordingProxy, store: Store
) -> None:
    body = {"model": "x", "messages": [{"role": "user", "content": TEXT}]}
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        r = httpx.post(f"{proxy.base_url}/chat/completions", json=body, headers=headers, timeout=HANG)
        assert r.status_code == 401
        assert r.json()["error"]["code"] == "invalid_api_key"
        assert r.headers["www-authenticate"].startswith("Bearer")
    assert httpx.get(f"{proxy.base_url}/models", timeout=HANG).status_code == 401
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(base_url=proxy.base_url, api_key="wrong", max_retries=0).models.list()
    assert cloud.requests == [] and store.ledger() == [] and store.conversations() == []


def test_models_lists_the_configured_cloud_model(proxy: ProxyServer) -> None:
    assert [m.id for m in client(proxy).models.list()] == ["echo-capable"]
    r = httpx.get(f"{proxy.base_url}/nowhere", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=HANG)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_openai_client_nothing_private_leaves_and_values_come_back(
    proxy: ProxyServer, cloud: RecordingProxy, store: Store
) -> None:
    r = client(proxy).chat.completions.create(
        model="any", messages=[{"role": "user", "content": TEXT}]
    )
    answer = r.choices[0].message.content or ""
    received = cloud.received_text()
    assert len(cloud.chat_requests) == 1
    assert NAME not in received and EMAIL not in received
    assert "[PERSON_1]" in received and "[EMAIL_1]" in received
    assert NAME in answer and EMAIL in answer and "[PERSON_1]" not in answer
    assert r.model == "echo-capable" and r.choices[0].finish_reason == "stop"
    (row,) = store.ledger()
    assert row["purpose"] == "proxy: pytest app" and row["status"] == "ok"
    assert row["payload"] == cloud.chat_requests[0].json  # the ledger holds the exact bytes


def test_streaming_restores_placeholders_split_across_chunks(
    proxy: ProxyServer, cloud: RecordingProxy
) -> None:
    answer, n = stream_text(proxy, [{"role": "user", "content": TEXT}])
    # It streamed from the cloud; how many chunks reach the client depends on the
    # machine's load (pieces queued while one is sent go out as one).
    assert n >= 1 and cloud.chat_requests[-1].json["stream"] is True
    assert NAME in answer and EMAIL in answer and "[" not in answer
    assert NAME not in cloud.received_text()


def test_raw_http_stream_is_openai_server_sent_events(proxy: ProxyServer) -> None:
    body = {"model": "x", "stream": True, "messages": [{"role": "user", "content": TEXT}]}
    with httpx.stream(
        "POST",
        f"{proxy.base_url}/chat/completions",
        json=body,
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=HANG,
    ) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        events = [line[6:] for line in r.iter_lines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
    assert EMAIL in text


def test_two_turns_keep_one_placeholder_and_an_anonymized_history(
    proxy: ProxyServer, cloud: RecordingProxy, store: Store
) -> None:
    first = [{"role": "user", "content": TEXT}]
    a1, _ = stream_text(proxy, first)
    follow = f"Also copy {NAME}'s manager, Anand Krishnan."
    a2, _ = stream_text(proxy, [*first, {"role": "assistant", "content": a1}, {"role": "user", "content": follow}])
    second = cloud.chat_requests[1].json["messages"]
    text = json.dumps(second)
    assert NAME not in text and EMAIL not in text and "Anand Krishnan" not in text
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[1]["content"] == cloud.chat_requests[0].json["messages"][-1]["content"]
    assert "[PERSON_1]" in second[3]["content"] and "[PERSON_1]" in second[2]["content"]
    assert NAME in a2
    assert len(store.conversations()) == 1


def test_a_guard_block_names_the_type_never_the_value(
    proxy: ProxyServer, cloud: RecordingProxy
) -> None:
    first = [{"role": "user", "content": TEXT}]
    a1, _ = stream_text(proxy, first)
    # The name again as HTML character references: the anonymizer does not
    # decode (a name spaced out it now replaces itself), the guard does.
    sneaky = "Tell &#x4C;&#x75;&#x63;&#x79; &#x57;hitfield that the appointment moved."
    with pytest.raises(openai.PermissionDeniedError) as info:
        client(proxy).chat.completions.create(
            model="any",
            messages=[*first, {"role": "assistant", "content": a1}, {"role": "user", "content": sneaky}],  # type: ignore[list-item]
        )
    err = info.value.body
    assert isinstance(err, dict) and err["code"] == "egress_blocked"
    assert "PERSON" in err["message"] and "Lucy" not in err["message"]
    assert len(cloud.chat_requests) == 1  # the blocked request never reached the cloud


def test_an_upstream_500_is_a_502_and_is_in_the_ledger(
    proxy: ProxyServer, cloud: RecordingProxy, store: Store
) -> None:
    cloud.inject(Fault("status", status=500))
    with pytest.raises(openai.InternalServerError) as info:
        client(proxy).chat.completions.create(model="any", messages=[{"role": "user", "content": TEXT}])
    assert info.value.status_code == 502
    assert info.value.body["code"] == "cloud_server_error"  # type: ignore[index]
    (row,) = store.ledger()
    assert row["status"].startswith("error") and "500" in row["status"]


def test_a_rate_limit_is_a_429_with_retry_after(proxy: ProxyServer, cloud: RecordingProxy) -> None:
    cloud.inject(Fault("status", status=429, retry_after="7"))
    body = {"model": "x", "stream": True, "messages": [{"role": "user", "content": TEXT}]}
    r = httpx.post(
        f"{proxy.base_url}/chat/completions", json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=HANG
    )
    assert r.status_code == 429 and r.headers["retry-after"] == "7"
    assert r.json()["error"]["type"] == "rate_limit_error"


def test_a_stream_cut_before_the_answer_is_a_502(proxy: ProxyServer, cloud: RecordingProxy) -> None:
    cloud.inject(Fault("cut", after_events=2))
    with pytest.raises(openai.APIStatusError) as info:
        stream_text(proxy, [{"role": "user", "content": TEXT}])
    assert info.value.status_code == 502


def test_a_stream_cut_mid_answer_ends_with_an_error_event(
    proxy: ProxyServer, cloud: RecordingProxy, store: Store
) -> None:
    cloud.inject(Fault("cut", after_events=20))
    got: list[str] = []
    with pytest.raises(openai.APIError, match=r"stopped before it was complete|cut"):
        for chunk in client(proxy).chat.completions.create(
            model="any", messages=[{"role": "user", "content": TEXT}], stream=True
        ):
            if chunk.choices and chunk.choices[0].delta.content:
                got.append(chunk.choices[0].delta.content)
    assert got  # part of the answer had arrived
    assert store.conversations() == []  # a failed turn stores nothing
    assert store.ledger()[0]["status"].startswith("error")


def test_an_unreachable_cloud_is_a_502(store: Store, analyzer: Analyzer) -> None:
    server = serve(store, analyzer, "http://127.0.0.1:9/v1")
    try:
        with pytest.raises(openai.APIStatusError) as info:
            client(server).chat.completions.create(model="any", messages=[{"role": "user", "content": TEXT}])
        assert info.value.status_code == 502
        assert info.value.body["code"] == "cloud_unreachable"  # type: ignore[index]
    finally:
        server.stop()


def test_without_a_window_approval_policy_always_refuses_clearly(
    store: Store, analyzer: Analyzer, cloud: RecordingProxy
) -> None:
    server = serve(store, analyzer, cloud.base_url, approval_policy=ApprovalPolicy.ALWAYS)
    try:
        with pytest.raises(openai.PermissionDeniedError) as info:
            client(server).chat.completions.create(model="any", messages=[{"role": "user", "content": TEXT}])
        assert info.value.body["code"] == "approval_required"  # type: ignore[index]
        assert "no Sottovoce window" in info.value.body["message"]  # type: ignore[index]
        assert cloud.requests == [] and store.ledger() == []
    finally:
        server.stop()


def test_a_client_that_leaves_cancels_the_upstream_call(store: Store, analyzer: Analyzer) -> None:
    # An answer that goes on until the proxy hangs up on it: the cloud sees the
    # hang-up however long the proxy takes to notice that the client left.
    with EchoCloud(piece=2, delay=0.05, endless=True) as slow:
        server = serve(store, analyzer, slow.base_url)
        try:
            body = {"model": "x", "stream": True, "messages": [{"role": "user", "content": TEXT}]}
            with httpx.stream(
                "POST",
                f"{server.base_url}/chat/completions",
                json=body,
                headers={"Authorization": f"Bearer {TOKEN}"},
                timeout=HANG,
            ) as r:
                for line in r.iter_lines():
                    if '"content": "' in line and '"content": ""' not in line:
                        break  # the first piece of the answer: the app gives up
            # Only bounds a hang: the row is finished and the cloud hung up on.
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and not (
                [r for r in store.ledger() if r["status"] != "sending"] and slow.aborted
            ):
                time.sleep(0.05)
            (row,) = store.ledger()
            assert row["status"] in ("cancelled", "closed")
            assert slow.aborted == 1  # the cloud saw its answer hung up on
            assert all(store.messages(c["id"]) == [] for c in store.conversations())
        finally:
            server.stop()


def test_twenty_concurrent_streaming_clients_each_get_only_their_own_values(
    proxy: ProxyServer, cloud: RecordingProxy, store: Store
) -> None:
    first = ["Maria", "James", "Wei", "Olga", "Kwame", "Lucia", "Arjun", "Hana", "Pieter", "Ines",
             "Tomasz", "Aiko", "Rafael", "Zainab", "Daniel", "Sofia", "Liam", "Chloe", "Mateo", "Amara"]
    last = ["Gonzalez", "Whitaker", "Chen", "Petrova", "Mensah", "Rossi", "Sharma", "Kobayashi", "Visser",
            "Almeida", "Nowak", "Tanaka", "Herrera", "Okafor", "Fischer", "Laurent", "Murphy", "Dubois",
            "Silva", "Adeyemi"]  # fmt: skip
    people = [
        (f"{f} {n}", f"{f.lower()}.{n.lower()}{i}@example.org")
        for i, (f, n) in enumerate(zip(first, last, strict=True))
    ]
    answers: dict[int, str] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(len(people))

    def one(i: int) -> None:
        name, email = people[i]
        try:
            start.wait()
            answers[i], _ = stream_text(
                proxy, [{"role": "user", "content": f"Please remind {name} ({email}) about the team meeting."}]
            )
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(people))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors
    received = cloud.received_text()
    for i, (name, email) in enumerate(people):
        assert name in answers[i] and email in answers[i]
        others = [v for j, p in enumerate(people) if j != i for v in p]
        assert not any(v in answers[i] for v in others), answers[i]
        assert name not in received and email not in received
    assert len(cloud.chat_requests) == 20 and len(store.conversations()) == 20


def test_the_embedded_demo_cloud_behind_the_proxy(
    store: Store, analyzer: Analyzer, demo_cloud: str, recorder: RecordingProxy
) -> None:
    server = serve(store, analyzer, demo_cloud, model="sottovoce-demo", cloud_max_tokens=16)
    try:
        answer, _ = stream_text(server, [{"role": "user", "content": TEXT}])
    finally:
        server.stop()
    received = recorder.received_text()
    assert len(recorder.chat_requests) == 1
    assert NAME not in received and EMAIL not in received and "[PERSON_1]" in received
    assert answer.strip()
    assert store.ledger()[0]["purpose"] == "proxy: pytest app"


# --- where it listens ------------------------------------------------------------------


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10"])
def test_other_addresses_are_refused_without_allow_remote_and_tls(host: str, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--allow-remote"):
        check_bind(host)
    with pytest.raises(InputError, match="TLS"):
        check_bind(host, allow_remote=True)
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    cert.write_text("x")
    key.write_text("x")
    check_bind(host, allow_remote=True, tls_cert=str(cert), tls_key=str(key))


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.5"])
def test_loopback_is_always_fine(host: str) -> None:
    check_bind(host)


def test_a_name_other_than_localhost_counts_as_reachable() -> None:
    with pytest.raises(InputError, match="--allow-remote"):
        check_bind("my-laptop.example")


def test_a_port_in_use_is_a_clear_error(proxy: ProxyServer, store: Store, analyzer: Analyzer) -> None:
    s = Settings(cloud_base_url="http://127.0.0.1:9/v1")
    assistant = Assistant(s, store, cloud=None, local=None, analyzer=analyzer)
    with pytest.raises(InputError, match=f"Cannot listen on 127.0.0.1:{proxy.port}"):
        ProxyServer(ProxyApp(ProxyService(assistant), TOKEN), "127.0.0.1", proxy.port).start()


def test_tls_serves_https(store: Store, analyzer: Analyzer, echo: EchoCloud, tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    s = Settings(cloud_base_url=echo.base_url, cloud_model="echo-capable", approval_policy=ApprovalPolicy.NEVER)
    assistant = Assistant(s, store, cloud=make_cloud_door(s, store, analyzer.detector), local=None, analyzer=analyzer)
    app = ProxyApp(ProxyService(assistant), TOKEN)
    with ProxyServer(app, "127.0.0.1", 0, allow_remote=True, tls_cert=str(cert), tls_key=str(key)) as server:
        assert server.base_url.startswith("https://")
        r = httpx.get(
            f"{server.base_url}/models", headers={"Authorization": f"Bearer {TOKEN}"}, verify=str(cert), timeout=HANG
        )
        assert r.status_code == 200
        with pytest.raises(httpx.HTTPError):
            httpx.get(server.base_url.replace("https", "http") + "/models", timeout=3)


def self_signed(folder: Path) -> tuple[Path, Path]:
    x509 = pytest.importorskip("cryptography.x509")
    import datetime
    import ipaddress

    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path
