"""Attaching documents in the window: the Attach button and drops on the chat and draft
composers read the file in a worker and put its text in the editor, where it is
highlighted, routed and approved like typed text; only that text reaches the cloud."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog

from core.documents import Limits, find_tesseract
from training.documents import writers as w
from ui.approval import ApprovalDialog
from ui.errors import error_boxes

from .conftest import HANG_MS, FakeCloud, on_dialog, wait_analysis

PHONE = "215-555-4078"
LINES = [
    "Discharge letter",
    f"Call the ward on {PHONE} if the fever returns.",
    "Paracetamol 1 g four times daily.",
]


def drop(widget: Any, paths: list[Path]) -> QDropEvent:
    """Drag ``paths`` over ``widget`` and drop them, as a file manager would.

    Qt delivers a drop only to the widget that accepted the drag's entry, so
    the entry comes first (as it does with a real mouse).
    """
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, buttons, keys)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted(), "the editor refused the drag of files"
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, buttons, keys)
    QApplication.sendEvent(widget, event)
    return event


def wait_attached(qtbot: Any, composer: Any) -> None:
    qtbot.waitUntil(lambda: not composer.attaching, timeout=HANG_MS)


@pytest.mark.parametrize("view_name", ["chat", "draft"])
def test_a_dropped_pdf_puts_its_text_in_the_editor_and_it_is_highlighted(
    qtbot: Any, window: Any, tmp_path: Path, view_name: str
) -> None:
    view = getattr(window, view_name)
    view.editor.set_text("Please summarise this letter for me.")
    path = w.write_pdf(tmp_path / "discharge_letter.pdf", [LINES])
    with qtbot.waitSignal(view.composer.attached, timeout=HANG_MS) as got:
        event = drop(view.editor.edit.viewport(), [path])
    assert event.isAccepted()
    assert [d.name for d in got.args[0]] == ["discharge_letter.pdf"]
    assert view.editor.text() == (
        "Please summarise this letter for me.\n\nAttached: discharge_letter.pdf\n\n"
        + "\n".join(LINES)
    )
    assert "discharge_letter.pdf (1 page)" in view.composer.stage.text()
    wait_analysis(qtbot, view.editor)
    qtbot.waitUntil(
        lambda: (
            view.editor.analysis is not None and view.editor.analysis.text == view.editor.text()
        ),
        timeout=HANG_MS,
    )
    analysis = view.editor.analysis
    found = [analysis.text[e.start : e.end] for p in analysis.plans for e in p.entities]
    assert PHONE in found


def test_the_attach_button_opens_a_file_dialog_and_attaches_the_choice(
    qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = w.write_docx(
        tmp_path / "contract.docx", ["Service Agreement", ("list", ["Fee GBP 4,500."])]
    )
    asked: dict[str, Any] = {}

    def fake_dialog(parent: Any, title: str, folder: str, filter_: str) -> tuple[list[str], str]:
        asked["filter"] = filter_
        return [str(path)], filter_

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(fake_dialog))
    composer = window.chat.composer
    with qtbot.waitSignal(composer.attached, timeout=HANG_MS):
        composer.attach_btn.click()
    assert "*.pdf" in asked["filter"] and "*.docx" in asked["filter"] and "*.msg" in asked["filter"]
    assert (
        window.chat.editor.text()
        == "Attached: contract.docx\n\nService Agreement\n- Fee GBP 4,500."
    )


def test_a_bad_file_is_one_clear_error_and_the_editor_is_unchanged(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    good = w.write_pdf(tmp_path / "real.pdf", [["text"]])
    liar = tmp_path / "report.docx"
    liar.write_bytes(good.read_bytes())
    composer = window.chat.composer
    window.chat.editor.set_text("My question.")
    composer.attach_files([liar])
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=HANG_MS)
    box = error_boxes()[0]
    assert box.windowTitle() == "This file cannot be attached"
    assert "report.docx" in box.informativeText() and "PDF" in box.informativeText()
    wait_attached(qtbot, composer)
    assert window.chat.editor.text() == "My question."
    assert composer.send_btn.isEnabled() and composer.attach_btn.isEnabled()
    box.close()


def test_one_bad_file_among_several_keeps_the_others(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    notes = tmp_path / "notes.md"
    notes.write_text("- Blood pressure 162/98 mmHg\n", "utf-8")
    composer = window.chat.composer
    composer.attach_files([empty, notes])
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=HANG_MS)
    assert "empty.txt" in error_boxes()[0].informativeText()
    wait_attached(qtbot, composer)
    assert window.chat.editor.text() == "Attached: notes.md\n\n- Blood pressure 162/98 mmHg"
    error_boxes()[0].close()


def test_the_size_limit_set_on_the_composer_applies(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    path = tmp_path / "long.txt"
    path.write_text("word " * 1000, "utf-8")
    composer = window.chat.composer
    composer.document_limits = Limits(max_bytes=1000)
    composer.attach_files([path])
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=HANG_MS)
    assert "limit" in error_boxes()[0].informativeText()
    wait_attached(qtbot, composer)
    assert window.chat.editor.text() == ""
    error_boxes()[0].close()


def test_only_the_approved_anonymized_text_of_the_file_reaches_the_cloud(
    qtbot: Any, window: Any, cloud: FakeCloud, tmp_path: Path
) -> None:
    chat = window.chat
    path = w.write_pdf(tmp_path / "discharge_letter.pdf", [LINES])
    with qtbot.waitSignal(chat.composer.attached, timeout=HANG_MS):
        drop(chat.editor.edit.viewport(), [path])
    qtbot.waitUntil(
        lambda: (
            chat.editor.analysis is not None and chat.editor.analysis.text == chat.editor.text()
        ),
        timeout=HANG_MS,
    )
    for (
        p
    ) in chat.editor.analysis.plans:  # send every sentence, so the number leaves as a placeholder
        if str(p.route) == "local":
            chat.editor.flip_sentence(p.index)
    qtbot.waitUntil(
        lambda: (
            chat.editor.analysis is not None
            and all(str(p.route) != "local" for p in chat.editor.analysis.plans)
        ),
        timeout=HANG_MS,
    )
    shown: dict[str, str] = {}

    def approve(d: ApprovalDialog) -> None:
        shown["payload"] = d.payload.toPlainText()
        d.send_btn.click()

    on_dialog(ApprovalDialog, approve)
    with qtbot.waitSignal(chat.turns.finished, timeout=HANG_MS):
        chat.send()
    sent = cloud.received[-1][-1]["content"]
    assert sent.startswith("Attached: ")  # the header line left, as the detector left it
    assert PHONE not in shown["payload"] and PHONE not in sent
    assert "[PHONE_1]" in sent and "Paracetamol 1 g four times daily." in sent
    assert sent in shown["payload"]  # what left is what the approval view showed
    assert b"%PDF" not in "".join(m["content"] for m in cloud.received[-1]).encode()


@pytest.mark.skipif(
    find_tesseract() is None,
    reason="Tesseract is not installed (apt-get install tesseract-ocr, dnf install tesseract, brew install tesseract, or the Windows installer)",
)
def test_ocr_shows_progress_and_cancel_adds_nothing(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    path = w.write_scanned_pdf(
        tmp_path / "scan.pdf", [["Scanned page one"], ["Scanned page two"], ["Three"]]
    )
    composer = window.chat.composer
    seen: list[str] = []
    worker = composer.attach_files([path])
    assert worker is not None and composer.attach_row.isVisibleTo(composer)
    worker.signals.yielded.connect(lambda step: seen.append(step.progress.what))
    qtbot.waitUntil(lambda: any(s.startswith("OCR") for s in seen), timeout=HANG_MS)
    assert (
        composer.attach_label.text().startswith("scan.pdf: OCR")
        and composer.attach_bar.maximum() == 3
    )
    composer.attach_cancel.click()
    wait_attached(qtbot, composer)
    assert not error_boxes()  # a cancellation is silent
    assert window.chat.editor.text() == "" and not composer.attach_row.isVisibleTo(composer)


def test_a_text_drop_is_not_taken_for_a_file(qtbot: Any, window: Any) -> None:
    mime = QMimeData()
    mime.setText("dragged words")
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    composer = window.chat.composer
    assert not composer.eventFilter(window.chat.editor.edit.viewport(), event)
    assert not composer.attaching
