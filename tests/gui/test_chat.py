"""Chat and draft flows in the main window, with the real pipeline and a fake cloud door.

The same flows against the real loopback demo cloud are in test_demo_cloud.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog

from core.outbound import payload_digest
from core.turn import Decision
from ui.approval import ApprovalDialog
from ui.errors import error_boxes

from .conftest import FakeCloud, on_dialog, wait_analysis, wait_dialog, wait_revised

PHONE = "215-555-4078"
TEXT = f"My number is {PHONE}. What are the early signs of dehydration in toddlers?"


def flip_all_remote(editor: Any) -> None:
    """Send every sentence to the cloud, so the phone number leaves as a placeholder."""
    for p in editor.analysis.plans:
        if str(p.route) == "local":
            editor.flip_sentence(p.index)


def type_and_wait(qtbot: Any, view: Any, text: str = TEXT) -> None:
    view.editor.set_text(text)
    wait_analysis(qtbot, view.editor)


def test_approve_then_the_answer_streams_with_values_restored(
    qtbot: Any, window: Any, cloud: FakeCloud, store: Any
) -> None:
    chat = window.chat
    type_and_wait(qtbot, chat)
    flip_all_remote(chat.editor)
    seen: dict[str, Any] = {}

    def approve(d: ApprovalDialog) -> None:
        seen["payload"] = d.payload.toPlainText()
        seen["entities"] = [(e.placeholder, e.value) for e in d.request.entities]
        d.send_btn.click()

    on_dialog(ApprovalDialog, approve)
    tokens: list[str] = []
    chat.turns.token.connect(lambda t, _s: tokens.append(t))
    with qtbot.waitSignal(chat.turns.finished, timeout=10000) as done:
        QTest.keyClick(chat.editor.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    # The approval view showed the exact payload: placeholder visible, value absent.
    assert "[PHONE_1]" in seen["payload"] and PHONE not in seen["payload"]
    assert seen["entities"] == [("[PHONE_1]", PHONE)]
    assert PHONE not in str(cloud.received)
    # The answer streamed in pieces and came back with the value restored.
    assert len(tokens) > 2
    result = done.args[0]
    assert PHONE in result.answer
    assert chat.messages[-1].text() == result.answer
    assert chat.editor.text() == ""  # sent: the composer is cleared
    assert [m["role"] for m in store.messages(result.conversation_id)] == ["user", "assistant"]
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 1)


def test_cancel_in_the_approval_view_sends_nothing_and_keeps_the_text(
    qtbot: Any, window: Any, cloud: FakeCloud, store: Any
) -> None:
    chat = window.chat
    type_and_wait(qtbot, chat)
    flip_all_remote(chat.editor)
    on_dialog(ApprovalDialog, lambda d: d.cancel_btn.click())
    with qtbot.waitSignal(chat.turns.cancelled, timeout=10000):
        chat.send_btn.click()
    assert cloud.received == []
    assert chat.editor.text() == TEXT
    assert chat.messages == []
    assert all(not store.messages(c["id"]) for c in store.conversations())


def test_edit_in_the_approval_view_returns_to_the_text(
    qtbot: Any, window: Any, cloud: FakeCloud
) -> None:
    chat = window.chat
    type_and_wait(qtbot, chat)
    on_dialog(ApprovalDialog, lambda d: d.edit_btn.click())
    with qtbot.waitSignal(chat.turns.editRequested, timeout=10000):
        chat.send()
    assert cloud.received == [] and chat.editor.text() == TEXT
    assert not chat.editor.edit.isReadOnly()


def test_a_cloud_error_shows_a_message_and_keeps_the_draft(
    qtbot: Any, window: Any, cloud: FakeCloud, store: Any
) -> None:
    cloud.fail, cloud.fail_after = True, 2  # fails mid-stream
    chat = window.chat
    type_and_wait(qtbot, chat)
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    with qtbot.waitSignal(chat.turns.failed, timeout=10000):
        chat.send()
    boxes = error_boxes()
    assert len(boxes) == 1
    assert "failed (HTTP 500)" in boxes[0].informativeText()
    assert chat.editor.text() == TEXT
    assert chat.messages == []  # the half answer is not kept
    assert all(not store.messages(c["id"]) for c in store.conversations())
    assert "Your text is kept" in chat.stage.text()


def test_per_entity_toggle_shows_the_value_in_the_payload_and_consents(
    qtbot: Any, window: Any, cloud: FakeCloud
) -> None:
    chat = window.chat
    type_and_wait(qtbot, chat)
    flip_all_remote(chat.editor)

    chat.send()  # returns at once: the approval view does not block
    d = wait_dialog(qtbot, ApprovalDialog)
    assert PHONE not in d.payload.toPlainText()
    d.set_protected("[PHONE_1]", False)
    wait_revised(qtbot, d)
    assert PHONE in d.payload.toPlainText()  # what is shown is what would leave
    d.set_protected("[PHONE_1]", True)
    assert PHONE not in d.payload.toPlainText() and d.prepared is d.original
    d.set_protected("[PHONE_1]", False)
    wait_revised(qtbot, d)
    shown, digest = d.prepared.messages, d.prepared.digest
    with qtbot.waitSignal(chat.turns.finished, timeout=10000):
        d.send_btn.click()
    # The payload approved is the one sent, byte for byte, and the door was told its digest.
    assert cloud.received == [shown] and PHONE in cloud.received[0][-1]["content"]
    assert payload_digest(cloud.received[0]) == digest and cloud.approved == [digest]


@pytest.mark.parametrize(
    ("policy", "text", "asks"),
    [
        ("never", TEXT, False),
        ("when_entities", "What are the early signs of dehydration in toddlers?", False),
        ("when_entities", TEXT, True),
        ("always", "What are the early signs of dehydration in toddlers?", True),
    ],
)
def test_the_approval_policy_decides_when_to_ask(
    qtbot: Any, make_engine: Any, cloud: FakeCloud, policy: str, text: str, asks: bool
) -> None:
    from core.turn import Approval
    from ui.main_window import MainWindow

    w = MainWindow(make_engine(approval_policy=policy), load_models=False)
    qtbot.addWidget(w)
    type_and_wait(qtbot, w.chat, text)
    flip_all_remote(w.chat.editor)
    asked: list[Any] = []

    def approve(prepared: Any, _assistant: Any, _parent: Any, answered: Any) -> QDialog:
        asked.append(prepared)
        answered(prepared, Approval.send(prepared))
        return QDialog()

    w.chat.turns._approve = approve
    with qtbot.waitSignal(w.chat.turns.finished, timeout=10000):
        w.chat.send()
    assert bool(asked) is asks and len(cloud.received) == 1
    w.close()


def test_always_approve_in_this_conversation_skips_the_next_review(
    qtbot: Any, window: Any, cloud: FakeCloud
) -> None:
    chat = window.chat
    type_and_wait(qtbot, chat)

    def always(d: ApprovalDialog) -> None:
        d.always.setChecked(True)
        d.send_btn.click()

    on_dialog(ApprovalDialog, always)
    with qtbot.waitSignal(chat.turns.finished, timeout=10000):
        chat.send()
    asked: list[Any] = []
    original = chat.turns._approve
    chat.turns._approve = lambda *a: asked.append(a) or original(*a)
    type_and_wait(qtbot, chat, "And what about older children?")
    with qtbot.waitSignal(chat.turns.finished, timeout=10000):
        chat.send()
    assert asked == [] and len(cloud.received) == 2


def test_stop_ends_the_stream_at_the_next_token_and_saves_nothing(
    qtbot: Any, window: Any, cloud: FakeCloud, store: Any
) -> None:
    cloud.hold_after = 20  # chunks (the restorer holds the last 24 characters back); then it waits for Stop
    cloud.answer = "word " * 200
    chat = window.chat
    type_and_wait(qtbot, chat)
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    tokens: list[str] = []
    chat.turns.token.connect(lambda t, _s: tokens.append(t))
    chat.send()
    qtbot.waitUntil(lambda: len(tokens) >= 2, timeout=10000)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    with qtbot.waitSignal(chat.turns.cancelled, timeout=5000):
        QTest.keyClick(chat.editor.edit, Qt.Key.Key_Escape)
    assert len(tokens) < 50
    assert chat.editor.text() == TEXT
    assert all(not store.messages(c["id"]) for c in store.conversations())
    assert not chat.turns.running and chat.send_btn.isEnabled()


def test_copy_regenerate_and_edit_and_resend(
    qtbot: Any, window: Any, cloud: FakeCloud, store: Any
) -> None:
    chat = window.chat
    type_and_wait(qtbot, chat)
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    with qtbot.waitSignal(chat.turns.finished, timeout=10000) as first:
        chat.send()
    conv = first.args[0].conversation_id
    chat.copy_message(chat.messages[-1])
    assert QGuiApplication.clipboard().text() == chat.messages[-1].text()
    # Regenerate: same question, a new answer replaces the old one.
    cloud.answer = "A second answer."
    assert chat.messages[-1].regen_btn.isVisibleTo(chat.messages[-1])
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    with qtbot.waitSignal(chat.turns.finished, timeout=10000):
        chat.messages[-1].regen_btn.click()
    msgs = store.messages(conv)
    assert [m["role"] for m in msgs] == ["user", "assistant"]
    assert msgs[-1]["content"] == "A second answer."
    # Edit and resend: the edited question replaces the old one and what followed.
    chat.edit_message(chat.messages[0])
    assert chat.editor.text() == TEXT
    type_and_wait(qtbot, chat, "What are the signs of dehydration in adults?")
    cloud.answer = "Thirst."
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    with qtbot.waitSignal(chat.turns.finished, timeout=10000):
        chat.send()
    msgs = store.messages(conv)
    assert [m["content"] for m in msgs] == [
        "What are the signs of dehydration in adults?",
        "Thirst.",
    ]
    assert [w.text() for w in chat.messages] == [m["content"] for m in msgs]


def test_export_to_markdown(qtbot: Any, window: Any, tmp_path: Path) -> None:
    chat = window.chat
    type_and_wait(qtbot, chat)
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    with qtbot.waitSignal(chat.turns.finished, timeout=10000):
        chat.send()
    out = chat.export_markdown(str(tmp_path / "c.md"))
    text = out.read_text("utf-8")
    assert text.startswith("# ") and "## You" in text and "## Sottovoce" in text
    assert TEXT in text


def test_opening_a_stored_conversation_shows_its_messages(
    qtbot: Any, window: Any, store: Any
) -> None:
    conv = store.new_conversation("Earlier", kind="chat")
    store.add_message(conv, "user", "Hello there.", "Hello there.", {"routes": ["remote"]})
    store.add_message(conv, "assistant", "Hi!", "Hi!", {"unresolved": []})
    window.refresh_conversations()
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 1)
    window.sidebar.list.item(0).setSelected(True)
    window.sidebar._open(window.sidebar.list.item(0))
    qtbot.waitUntil(lambda: len(window.chat.messages) == 2)
    assert window.chat.title.text() == "Earlier"
    assert "sent anonymized" in window.chat.messages[0].footer.text()


def test_draft_view_restores_values_and_shows_the_cloud_version(
    qtbot: Any, window: Any, cloud: FakeCloud
) -> None:
    window.new_conversation("draft")
    draft = window.draft
    assert window.stack.currentWidget() is draft
    cloud.answer = "Dear landlord,\n\nPlease call me at [PHONE_1] about [PERSON_7].\n\nBest"
    type_and_wait(qtbot, draft, f"Ask the landlord to fix the heating. My phone is {PHONE}.")
    flip_all_remote(draft.editor)
    on_dialog(ApprovalDialog, lambda d: d.send_btn.click())
    with qtbot.waitSignal(draft.turns.finished, timeout=10000):
        draft.write_btn.click()
    assert f"call me at {PHONE}" in draft.draft.toPlainText()
    assert "[PHONE_1]" in draft.cloud.toPlainText() and PHONE not in draft.cloud.toPlainText()
    # An invented placeholder stays visible and is named.
    assert "[PERSON_7]" in draft.draft.toPlainText()
    assert draft.warning.isVisibleTo(draft) and "[PERSON_7]" in draft.warning.text()
    assert not draft.draft.isReadOnly()
    draft.copy_draft()
    assert QGuiApplication.clipboard().text() == draft.draft.toPlainText()


def test_approval_dialog_answers(qtbot: Any, window: Any) -> None:
    """Escape in the approval view cancels (nothing sent), like the Cancel button."""
    chat = window.chat
    type_and_wait(qtbot, chat)
    decisions: list[Decision] = []

    def escape(d: ApprovalDialog) -> None:
        QTest.keyClick(d, Qt.Key.Key_Escape)
        decisions.append(d.answer()[1].decision)

    on_dialog(ApprovalDialog, escape)
    with qtbot.waitSignal(chat.turns.cancelled, timeout=10000):
        chat.send()
    assert decisions == [Decision.CANCEL]
