"""The window's flows through the real cloud path: egress guard, openai client, HTTP.

A recording proxy stands in front of the cloud and records what it received.
Without an upstream it streams a canned answer (deterministic: the answer
repeats a placeholder, so restoring can be checked); with the loopback demo
cloud (``llama_cpp.server`` serving the embedded model) behind it, the answer
is the real model's.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.analyze import Analyzer, Route
from core.settings import Settings
from core.store import Store
from tests.integration import recording_proxy
from tests.integration.recording_proxy import Fault, RecordingProxy
from ui.approval import ApprovalDialog
from ui.errors import error_boxes

from .conftest import on_dialog, wait_analysis

pytestmark = pytest.mark.integration

#: Set in the child process of the start-up test (see there).
CHILD_MARKER = "STARTUP_TEST_CHILD"

PHONE = "215-555-4078"
TEXT = f"Call me at {PHONE} tomorrow. What helps against a sore throat?"


@pytest.fixture
def proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingProxy]:
    monkeypatch.setattr(
        recording_proxy, "CANNED_ANSWER", "Sure: I will call [PHONE_1] tomorrow. Rest well."
    )
    p = RecordingProxy().start()
    yield p
    p.stop()


def real_window(qtbot: Any, store: Store, analyzer: Analyzer, base_url: str, model: str) -> Any:
    from app.window import make_cloud_factory
    from core.assembly import Parts
    from ui.engine import Engine
    from ui.main_window import MainWindow

    settings = Settings(
        cloud_base_url=base_url,
        cloud_model=model,
        cloud_max_retries=0,
        cloud_timeout_s=120,
        chat_integration="pass_through",
    )
    engine = Engine(settings, store, Parts(analyzer=lambda s: analyzer, cloud=make_cloud_factory()))
    w = MainWindow(engine, load_models=False)
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.fixture
def window(qtbot: Any, store: Store, analyzer: Analyzer, proxy: RecordingProxy) -> Iterator[Any]:
    w = real_window(qtbot, store, analyzer, proxy.base_url, "fake")
    yield w
    w.close()


def test_type_flip_approve_and_the_streamed_answer_has_values_restored(
    qtbot: Any, window: Any, proxy: RecordingProxy, store: Store
) -> None:
    chat = window.chat
    chat.editor.edit.setFocus()
    QTest.keyClicks(chat.editor.edit, TEXT)
    a = wait_analysis(qtbot, chat.editor)
    assert [p.route for p in a.plans] == [Route.LOCAL, Route.REMOTE]  # the highlights
    (_, rect), _ = chat.editor.edit.badge_rects()
    QTest.mouseClick(chat.editor.edit.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert chat.editor.analysis.plans[0].route is Route.REMOTE  # flipped by one click
    shown: list[str] = []

    def approve(d: ApprovalDialog) -> None:
        shown.append(d.payload.toPlainText())
        d.send_btn.click()

    on_dialog(ApprovalDialog, approve)
    tokens: list[str] = []
    chat.turns.token.connect(lambda t, _s: tokens.append(t))
    with qtbot.waitSignal(chat.turns.finished, timeout=30000) as done:
        chat.send()
    result = done.args[0]
    received = proxy.received_text()
    assert "Call me at [PHONE_1] tomorrow." in received and PHONE not in received
    assert "[PHONE_1]" in shown[0] and PHONE not in shown[0]
    assert len(tokens) > 2  # streamed
    assert result.answer == f"Sure: I will call {PHONE} tomorrow. Rest well."
    assert chat.messages[-1].text() == result.answer
    ledger = store.ledger()
    assert len(ledger) == 1 and ledger[0]["status"].startswith("ok")
    assert ledger[0]["payload"] == proxy.chat_requests[0].json  # the ledger holds what was sent
    view = window.open_ledger()
    qtbot.waitUntil(lambda: view.table.rowCount() == 1)
    assert "Call me at [PHONE_1] tomorrow." in view.payload.toPlainText()


def test_cancel_sends_nothing(qtbot: Any, window: Any, proxy: RecordingProxy, store: Store) -> None:
    chat = window.chat
    chat.editor.set_text(TEXT)
    wait_analysis(qtbot, chat.editor)
    on_dialog(ApprovalDialog, lambda d: d.cancel_btn.click())
    with qtbot.waitSignal(chat.turns.cancelled, timeout=30000):
        chat.send()
    assert proxy.chat_requests == [] and store.ledger() == []
    assert chat.editor.text() == TEXT


@pytest.mark.parametrize("fault", [Fault("status", status=500), Fault("cut", after_events=2)])
def test_a_cloud_error_shows_a_message_and_keeps_the_draft(
    qtbot: Any, window: Any, proxy: RecordingProxy, store: Store, fault: Fault
) -> None:
    proxy.inject(fault)
    chat = window.chat
    chat.editor.set_text(TEXT)
    wait_analysis(qtbot, chat.editor)
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    with qtbot.waitSignal(chat.turns.failed, timeout=30000):
        chat.send()
    boxes = error_boxes()
    assert len(boxes) == 1 and boxes[0].windowTitle() == "The cloud model is not available"
    assert chat.editor.text() == TEXT and chat.messages == []
    assert len(proxy.chat_requests) == 1  # not resent without a new approval
    assert not store.ledger()[0]["status"].startswith("ok")


@pytest.mark.slow
def test_a_turn_with_the_real_demo_model(qtbot: Any, store: Store, analyzer: Analyzer) -> None:
    from core.llm.demo import DemoCloud

    with DemoCloud() as server:
        proxy = RecordingProxy(upstream=server.base_url.removesuffix("/v1")).start()
        try:
            w = real_window(qtbot, store, analyzer, proxy.base_url, server.model)
            draft = w.draft
            w.new_conversation("draft")
            draft.editor.set_text(f"Ask my landlord to fix the heater. My phone is {PHONE}.")
            wait_analysis(qtbot, draft.editor)
            for p in draft.editor.analysis.plans:
                if p.route is Route.LOCAL:
                    draft.editor.flip_sentence(p.index)
            on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
            with qtbot.waitSignal(draft.turns.finished, timeout=120000) as done:
                draft.write()
            assert done.args[0].answer.strip() and draft.draft.toPlainText().strip()
            assert PHONE not in proxy.received_text() and "[PHONE_1]" in proxy.received_text()
            assert draft.cloud.toPlainText() == done.args[0].cloud_answer
            w.close()
        finally:
            proxy.stop()


@pytest.mark.slow
def test_sottovoce_demo_cloud_starts_the_window_on_the_loopback_cloud(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The whole start-up runs in a process of its own, as it does for a person
    # (a fresh QApplication, no windows left over from the rest of the suite).
    # The marker is not a SOTTOVOCE_ variable: the autouse fixture clears those,
    # and a child that lost it would start a child of its own.
    if not os.environ.get(CHILD_MARKER):
        import subprocess
        import sys

        env = {**os.environ, CHILD_MARKER: "1"}
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             f"{__file__}::test_sottovoce_demo_cloud_starts_the_window_on_the_loopback_cloud"],
            env=env, capture_output=True, text=True, timeout=800,  # a hang (the child waits 2 x 120 s at most)
        )  # fmt: skip
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert "1 passed" in proc.stdout
        return
    from app.window import start

    monkeypatch.setenv("SOTTOVOCE_PASSPHRASE", "test passphrase")
    started = start(argparse.Namespace(window_demo_cloud=True))
    assert started is not None
    try:
        w = started.window
        qtbot.waitUntil(lambda: "sottovoce-demo" in w.cloud_label.text(), timeout=120000)
        assert "127.0.0.1" in w.cloud_label.text()
        # The models load in the background; the window is closed once they are in.
        qtbot.waitUntil(lambda: w.load_label.text() == "Models ready", timeout=120000)
        assert os.environ["SOTTOVOCE_HOME"] in str(started.engine.store.path)
        w.close()
    finally:
        started.close()
        from ui.errors import uninstall_excepthooks

        uninstall_excepthooks()
