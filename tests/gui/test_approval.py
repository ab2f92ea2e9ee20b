"""The approval view: toggles make a new payload in a worker, Send approves what is
shown (its digest), the turn goes on from the view's answer, and no nested loop.

The real assistant (real store, rules analyzer) makes the payloads; the reviser
below only holds a revision until the test lets it go, to see the view meanwhile.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from core.analyze import Route
from core.outbound import payload_digest
from core.turn import Approval, Assistant, Choices, Decision, PreparedTurn, TurnKind
from ui.approval import ApprovalDialog
from ui.workers import Worker

from .conftest import (
    HANG_MS,
    HANG_S,
    FakeCloud,
    find_dialog,
    wait_analysis,
    wait_dialog,
    wait_revised,
)

PHONE = "215-555-4078"
TEXT = f"My number is {PHONE}. What are the early signs of dehydration in toddlers?"


class HeldReviser:
    """The real ``Assistant.revise``, each call held until released; records the threads."""

    def __init__(self, assistant: Assistant) -> None:
        self.assistant = assistant
        self.threads: list[threading.Thread] = []
        self.calls: list[tuple[str, ...]] = []
        self.gates: list[threading.Event] = []
        self.lock = threading.Lock()

    def revise(self, prepared: PreparedTurn, send_in_clear: Iterable[str]) -> PreparedTurn:
        gate = threading.Event()
        with self.lock:
            self.threads.append(threading.current_thread())
            self.calls.append(tuple(send_in_clear))
            self.gates.append(gate)
        assert gate.wait(HANG_S), "the test never released this revision"
        return self.assistant.revise(prepared, send_in_clear)

    def release(self, i: int) -> None:
        self.gates[i].set()


def toggled(qtbot: Any, turn: PreparedTurn, reviser: HeldReviser, *, shown: bool = True) -> ApprovalDialog:
    """The view of ``turn`` with [PHONE_1] unticked, its revision held by ``reviser``."""
    d = ApprovalDialog(turn, reviser)
    qtbot.addWidget(d)
    if shown:
        d.open()
    d.set_protected("[PHONE_1]", False)
    qtbot.waitUntil(lambda: len(reviser.calls) == 1, timeout=5000)
    return d


@pytest.fixture
def prepared(make_engine: Any, analyzer: Any) -> Iterator[tuple[Assistant, PreparedTurn]]:
    assistant = make_engine().assistant()
    conv = assistant.new_conversation("Approval", TurnKind.CHAT)
    choices = Choices.routing(analyzer.analyze(TEXT, 5.0), Route.REMOTE)
    turn = assistant.prepare(TEXT, conv, choices=choices)
    assert turn.request is not None and [e.placeholder for e in turn.request.entities] == [
        "[PHONE_1]"
    ]
    yield assistant, turn


def test_a_toggle_is_revised_off_the_gui_thread_and_send_waits_for_it(
    qtbot: Any, prepared: tuple[Assistant, PreparedTurn]
) -> None:
    assistant, turn = prepared
    reviser = HeldReviser(assistant)
    d = toggled(qtbot, turn, reviser)
    # Meanwhile: the old payload stays on screen, "Updating…" shows, Send does nothing.
    assert d.updating.isVisibleTo(d) and not d.send_btn.isEnabled() and d.busy
    assert PHONE not in d.payload.toPlainText()
    d._finish(Decision.SEND)  # Ctrl+Enter reaches here even with the button disabled
    assert d.isVisible() and d.decision is Decision.CANCEL
    reviser.release(0)
    wait_revised(qtbot, d)
    assert reviser.threads[0] is not threading.main_thread()
    assert reviser.calls == [("[PHONE_1]",)]
    assert not d.updating.isVisibleTo(d)
    assert PHONE in d.payload.toPlainText()
    # The revised turn is a new payload with its own digest; Send approves that one.
    assert d.prepared is not turn and d.prepared.digest != turn.digest
    assert d.prepared.digest == payload_digest(d.prepared.messages)
    d.always.setChecked(True)
    d.send_btn.click()
    shown, approval = d.answer()
    assert shown is d.prepared and approval.decision is Decision.SEND
    assert approval.digest == shown.digest and approval.always_in_conversation


def test_an_older_toggles_payload_is_dropped(
    qtbot: Any, prepared: tuple[Assistant, PreparedTurn]
) -> None:
    assistant, turn = prepared
    reviser = HeldReviser(assistant)
    d = toggled(qtbot, turn, reviser, shown=False)
    d.set_protected("[PHONE_1]", True)  # back to the payload as prepared, at once
    assert d.prepared is turn and not d.busy and d.send_btn.isEnabled()
    reviser.release(0)  # the first toggle's payload arrives late
    assert Worker.wait_all(HANG_MS)  # delivered (or dropped) by now
    assert d.prepared is turn and PHONE not in d.payload.toPlainText()
    assert d.answer()[0] is turn


def test_closing_the_view_while_a_payload_is_made_drops_it(
    qtbot: Any, prepared: tuple[Assistant, PreparedTurn]
) -> None:
    from ui.errors import error_boxes

    assistant, turn = prepared
    reviser = HeldReviser(assistant)
    d = toggled(qtbot, turn, reviser)
    d.reject()  # Escape, Stop or a withdrawn request
    assert d.answer() == (turn, Approval(Decision.CANCEL))
    reviser.release(0)
    assert Worker.wait_all(HANG_MS)
    assert d.prepared is turn and error_boxes() == []


def test_a_failed_revision_is_shown_and_the_toggle_goes_back(
    qtbot: Any, prepared: tuple[Assistant, PreparedTurn]
) -> None:
    from core.errors import StoreError
    from ui.errors import error_boxes

    _assistant, turn = prepared

    class Failing:
        def revise(self, prepared: PreparedTurn, send_in_clear: Iterable[str]) -> PreparedTurn:
            raise StoreError("The vault could not be read.")

    d = ApprovalDialog(turn, Failing())
    qtbot.addWidget(d)
    d.set_protected("[PHONE_1]", False)
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=5000)
    assert not d.busy and d.send_btn.isEnabled() and d.unprotect == set()
    item = d.table.item(0, 0)
    assert item is not None and item.checkState().name == "Checked"
    assert d.prepared is turn and PHONE not in d.payload.toPlainText()


def test_the_toggled_payload_is_what_the_turn_sends(
    qtbot: Any, window: Any, cloud: FakeCloud
) -> None:
    chat = window.chat
    chat.editor.set_text(TEXT)
    wait_analysis(qtbot, chat.editor)
    for p in chat.editor.analysis.plans:
        if p.route is Route.LOCAL:
            chat.editor.flip_sentence(p.index)
    chat.send()
    # send() came back with the view open: nothing runs a nested event loop.
    d = wait_dialog(qtbot, ApprovalDialog)
    assert chat.turns.running and chat.stage.text().startswith("Waiting for your approval")
    first = d.prepared
    d.set_protected("[PHONE_1]", False)
    wait_revised(qtbot, d)
    approved = d.prepared
    assert approved.digest != first.digest
    with qtbot.waitSignal(chat.turns.finished, timeout=10000) as done:
        d.send_btn.click()
    assert cloud.received == [approved.messages]
    assert payload_digest(cloud.received[0]) == approved.digest
    assert cloud.approved == [approved.digest]  # the door checked the same digest
    assert PHONE in cloud.received[0][-1]["content"]
    assert done.args[0].conversation_id == first.conversation_id


def test_stop_while_the_view_waits_cancels_and_sends_nothing(
    qtbot: Any, window: Any, cloud: FakeCloud
) -> None:
    chat = window.chat
    chat.editor.set_text(TEXT)
    wait_analysis(qtbot, chat.editor)
    chat.send()
    d = wait_dialog(qtbot, ApprovalDialog)
    with qtbot.waitSignal(chat.turns.cancelled, timeout=5000):
        chat.stop()
    assert not d.isVisible() and cloud.received == []
    assert not chat.turns.running and chat.editor.text() == TEXT
    QApplication.processEvents()
    assert find_dialog(ApprovalDialog) is None


def test_no_nested_event_loop_in_ui() -> None:
    """Dialogs and menus open with open()/show()/popup(): ``exec`` runs nowhere in ui/."""
    ui = Path(__file__).resolve().parents[2] / "ui"
    calls = [
        f"{path.name}:{n}"
        for path in sorted(ui.glob("*.py"))
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if re.search(r"\bexec(_)?\(", line.split("#")[0]) and "``" not in line
    ]
    assert calls == []
