"""Fixtures for tests that talk to a real, loopback "cloud".

Reusable by every integration test (pipeline, UI, CLI):

- ``demo_server``: the :class:`~core.llm.demo.DemoCloud` (``llama_cpp.server``
  serving the embedded SmolLM2 on 127.0.0.1), started once per session.
- ``demo_cloud``: the base URL (``http://127.0.0.1:PORT/v1``) of a recording
  proxy in front of that server. Point a ``CloudClient`` (or the settings'
  ``cloud_base_url``) at it, with model ``DEMO_MODEL`` (``sottovoce-demo``).
- ``recorder``: the proxy itself, emptied for each test. ``recorder.chat_requests``
  lists what the server received (``.json`` body, ``.strings()`` every string
  in it, ``.headers``); ``recorder.received_text()`` joins all received
  strings, to assert that no private value left. ``recorder.inject(Fault(...))``
  replaces the next answers with faults: ``Fault("status", 401)``,
  ``Fault("status", 429, retry_after="1")``, ``Fault("malformed")``,
  ``Fault("cut", after_events=3)``, ``Fault("hang")`` (no answer until the test ends),
  ``Fault("drop")``.
- ``demo_client``: a ``CloudClient`` for ``demo_cloud`` with a timeout that only
  bounds a hang and a recorded, instant backoff (``demo_client.slept`` lists the waits).

Keep requests small (``max_tokens`` of 8 or so): the server answers in well
under a second then. Without a cap, an answer runs until the 2,048-token
context is full (about a minute), and the next turn, whose history holds it,
gets an empty stream (``CloudUnreachable``: "closed the answer without sending
any of it").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from core.llm.cloud import CloudClient
from core.llm.demo import DEMO_MODEL, DemoCloud
from tests.integration.recording_proxy import Fault, RecordingProxy

__all__ = ["DEMO_MODEL", "Fault"]


def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/integration/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def demo_server() -> Iterator[DemoCloud]:
    """The loopback llama_cpp.server with the embedded model, once per session.

    Its context is 2,048 tokens: requests must cap ``max_tokens`` (an answer
    with no cap runs until the context is full, about a minute here).
    """
    with DemoCloud(n_ctx=2048) as server:
        yield server


@pytest.fixture(scope="session")
def _recording_proxy(demo_server: DemoCloud) -> Iterator[RecordingProxy]:
    proxy = RecordingProxy(upstream=demo_server.base_url.removesuffix("/v1")).start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="session")
def demo_cloud(_recording_proxy: RecordingProxy) -> str:
    """Base URL of the recording proxy in front of the loopback server."""
    return _recording_proxy.base_url


@pytest.fixture
def recorder(_recording_proxy: RecordingProxy) -> Iterator[RecordingProxy]:
    """What the server received during this test (and fault injection)."""
    _recording_proxy.clear()
    yield _recording_proxy
    _recording_proxy.clear()


class _RecordingClient(CloudClient):
    slept: list[float]


@pytest.fixture
def demo_client(demo_cloud: str) -> CloudClient:
    """A CloudClient for the demo cloud: 2 retries, waits recorded not slept.

    Its timeout only bounds a hang: the model answers slowly on a busy machine.
    """
    slept: list[float] = []
    client = _RecordingClient(
        demo_cloud, DEMO_MODEL, timeout=300.0, max_retries=2, sleep=slept.append
    )
    client.slept = slept
    return client
