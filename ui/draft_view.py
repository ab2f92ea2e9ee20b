"""The email drafting view: the situation in, a ready email out, values restored.

The situation is written in a :class:`~ui.editor.RoutingEditor` (so the person
sees what will leave); the cloud writes the email from the anonymized text;
the draft appears with the real names, dates and numbers restored, editable
and copyable, and beside it the version the cloud actually wrote, with its
placeholders. A placeholder the cloud invented that is not in the privacy box
is left visible and named in a warning.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core.turn import TurnKind, TurnResult
from ui.composer import Look, TurnView
from ui.theme import std_icon

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


def _pane(title: str, widget: QWidget, *buttons: QWidget) -> QWidget:
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(4)
    head = QHBoxLayout()
    label = QLabel(f"<b>{title}</b>")
    head.addWidget(label, 1)
    for b in buttons:
        head.addWidget(b)
    lay.addLayout(head)
    lay.addWidget(widget, 1)
    return box


WRITE_TIP = "Write the email (Ctrl+Enter); you approve what leaves first"
EXAMPLE = (
    "e.g. Write to my landlord Mr. Jonas Weber: the heating at Lindenstraße 4 "
    "has been broken since 2 February…"
)
HEADING = "<b>The situation</b>"


class DraftView(TurnView):
    """One email draft: situation, restored draft, and the cloud's anonymized version."""

    look = Look("draft", "New email draft", "Write draft", WRITE_TIP, EXAMPLE, HEADING)

    def _build(self) -> None:
        self._parts: list[str] = []
        self._previous = ""
        self.write_btn = self.composer.send_btn
        self.composer.submitted.connect(self.write)

        intro = QLabel(
            "Describe the situation: who the email is for, what happened, what you need. "
            "The cloud writes the email from an anonymized version; names, dates and numbers "
            "are put back here."
        )
        intro.setObjectName("hint")
        intro.setWordWrap(True)

        self.draft = QPlainTextEdit()
        self.draft.setObjectName("draft-restored")
        self.draft.setPlaceholderText("The email appears here, with your real names and numbers.")
        self.copy_btn = QPushButton(std_icon(self, "SP_FileDialogContentsView"), "Copy")
        self.copy_btn.setToolTip("Copy the draft to the clipboard")
        self.copy_btn.clicked.connect(self.copy_draft)
        self.cloud = QPlainTextEdit(readOnly=True)
        self.cloud.setObjectName("draft-cloud")
        self.cloud.setPlaceholderText(
            "What the cloud wrote, with placeholders: it never saw the values."
        )
        self.warning = QLabel()
        self.warning.setObjectName("banner")
        self.warning.setWordWrap(True)
        self.warning.hide()
        # Which sentences stayed here (the cloud wrote without them), and any local note.
        self.notice = QLabel()
        self.notice.setObjectName("hint")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.hide()
        out = QSplitter(Qt.Orientation.Horizontal)
        out.addWidget(_pane("Your draft (values restored, editable)", self.draft, self.copy_btn))
        out.addWidget(_pane("What the cloud wrote (anonymized)", self.cloud))
        out.setSizes([560, 440])
        out_box = QWidget()
        ol = QVBoxLayout(out_box)
        ol.setContentsMargins(0, 0, 0, 0)
        ol.addWidget(self.warning)
        ol.addWidget(self.notice)
        ol.addWidget(out, 1)

        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.composer)
        self.split.addWidget(out_box)
        self.split.setChildrenCollapsible(False)
        self.split.setSizes([300, 360])

        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 10, 16, 10)
        lay.addWidget(self.title)
        lay.addWidget(intro)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        lay.addWidget(line)
        lay.addWidget(self.split, 1)

    # --- conversation -----------------------------------------------------

    def new_conversation(self) -> None:
        self.stop()
        self.conversation_id = None
        self.title.setText("New email draft")
        self.editor.set_text("")
        self.draft.clear()
        self.cloud.clear()
        self.warning.hide()
        self.notice.hide()
        self.editor.edit.setFocus()

    def _loaded(self, msgs: list[dict[str, Any]]) -> None:
        # The latest situation and draft of the stored draft conversation.
        users = [m for m in msgs if m["role"] == "user"]
        answers = [m for m in msgs if m["role"] == "assistant"]
        self.editor.set_text(users[-1]["content"] if users else "")
        self.draft.setPlainText(answers[-1]["content"] if answers else "")
        self.cloud.setPlainText((answers[-1].get("cloud_content") or "") if answers else "")
        self._warn((answers[-1]["meta"].get("unresolved") or []) if answers else [])
        self.notice.hide()

    # --- writing ----------------------------------------------------------

    def write(self) -> None:
        """Write the draft from the situation (through approval)."""
        text = self.editor.text()
        req = self.composer.request(
            self.conversation_id, TurnKind.DRAFT, title="Draft: " + _short(text)
        )
        if req is None:
            return
        self._parts = []
        self._previous = self.draft.toPlainText()
        self.turns.start(req)

    def copy_draft(self) -> None:
        QGuiApplication.clipboard().setText(self.draft.toPlainText())

    def _running(self, running: bool) -> None:
        if running:
            self.warning.hide()

    def _token(self, piece: str, source: str) -> None:
        if source != "cloud":
            return  # a note or a merge is shown when the turn is saved (see _finished)
        if not self._parts:
            self.draft.clear()
        self._parts.append(piece)
        self.draft.setPlainText("".join(self._parts))

    def _finished(self, result: TurnResult) -> None:
        self.draft.setPlainText(result.answer)
        self.cloud.setPlainText(result.cloud_answer)
        self._warn(result.unresolved)
        integration = result.integration
        notice = integration.notice() if integration is not None else ""
        if integration is not None and integration.note and integration.mode != "merged":
            from ui.chat_view import NOTE_LABEL

            notice += f"\n\n{NOTE_LABEL}: {integration.note}"
        self.notice.setText(notice)
        self.notice.setVisible(bool(notice))
        self.stage.setText("Draft written. Edit it freely; Copy puts it on the clipboard.")
        self.conversationChanged.emit(result.conversation_id)

    def _undo_partial(self) -> None:
        # A half-streamed draft is not kept; the previous one comes back.
        if self._parts:
            self.draft.setPlainText(self._previous)
            self._parts = []

    def _failed(self, exc: BaseException) -> None:
        self._undo_partial()
        self.stage.setText("Not sent. Your text is kept.")

    def _cancelled(self) -> None:
        self._undo_partial()
        self.stage.setText("Cancelled: nothing was saved.")

    def _warn(self, unresolved: list[str]) -> None:
        if unresolved:
            self.warning.setText(
                "The cloud used "
                + ", ".join(unresolved)
                + ", which "
                + ("is" if len(unresolved) == 1 else "are")
                + " not in your privacy box; left as written so you can fill "
                + ("it" if len(unresolved) == 1 else "them")
                + " in."
            )
        self.warning.setVisible(bool(unresolved))


def _short(text: str) -> str:
    words = " ".join(text.split())
    return words[:40] + ("…" if len(words) > 40 else "")
