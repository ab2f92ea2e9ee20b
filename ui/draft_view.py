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
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QThreadPool, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core.analyze import Route
from core.pipeline import TurnKind, TurnResult
from ui.editor import AnalyzeFn, RoutingEditor
from ui.theme import std_icon
from ui.turns import STAGE_TEXT, TurnController, TurnRequest, show_title
from ui.workers import run_in_thread

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


class DraftView(QWidget):
    """One email draft: situation, restored draft, and the cloud's anonymized version."""

    #: Emitted with the conversation id after a draft was written.
    conversationChanged = Signal(int)

    def __init__(
        self,
        assistant: Callable[[], Any],
        store: Callable[[], Any],
        analyze: AnalyzeFn | None = None,
        *,
        analysis_pool: QThreadPool | None = None,
        turn_pool: QThreadPool | None = None,
        risk_lambda: float = 5.0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("draft-view")
        self._store = store
        self.conversation_id: int | None = None
        self._parts: list[str] = []
        self._previous = ""

        self.title = QLabel("New email draft")
        self.title.setObjectName("viewTitle")
        intro = QLabel(
            "Describe the situation: who the email is for, what happened, what you need. "
            "The cloud writes the email from an anonymized version; names, dates and numbers "
            "are put back here."
        )
        intro.setObjectName("hint")
        intro.setWordWrap(True)

        self.editor = RoutingEditor(
            analyze,
            risk_lambda=risk_lambda,
            pool=analysis_pool,
            placeholder="e.g. Write to my landlord Mr. Jonas Weber: the heating at Lindenstraße 4 "
            "has been broken since 2 February…",
        )
        self.editor.setObjectName("draft-editor")
        self.editor.submitted.connect(self.write)
        self.write_btn = QPushButton("Write draft")
        self.write_btn.setObjectName("primary")
        self.write_btn.setToolTip("Write the email (Ctrl+Enter); you approve what leaves first")
        self.write_btn.clicked.connect(self.write)
        self.stop_btn = QPushButton(std_icon(self, "SP_MediaStop"), "Stop")
        self.stop_btn.setToolTip("Stop (Esc)")
        self.stop_btn.setEnabled(False)
        self.stop_btn.clicked.connect(self.stop)
        self.stage = QLabel("")
        self.stage.setObjectName("hint")
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setFixedSize(90, 6)
        self.progress.setTextVisible(False)
        self.progress.hide()
        actions = QHBoxLayout()
        actions.addWidget(self.progress)
        actions.addWidget(self.stage, 1)
        actions.addWidget(self.stop_btn)
        actions.addWidget(self.write_btn)
        situation = QWidget()
        sl = QVBoxLayout(situation)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(QLabel("<b>The situation</b>"))
        sl.addWidget(self.editor, 1)
        sl.addLayout(actions)

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
        self.split.addWidget(situation)
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

        self.turns = TurnController(assistant, pool=turn_pool, parent=self)
        self.turns.stageChanged.connect(lambda s: self.stage.setText(STAGE_TEXT.get(s) or s))
        self.turns.conversationReady.connect(self._conversation_ready)
        self.turns.token.connect(self._token)
        self.turns.finished.connect(self._finished)
        self.turns.failed.connect(self._failed)
        self.turns.cancelled.connect(self._cancelled)
        self.turns.runningChanged.connect(self._running)

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

    def load(self, conversation_id: int) -> None:
        """Show the latest situation and draft of a stored draft conversation."""
        self.conversation_id = conversation_id

        def read() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            store = self._store()
            return store.conversation(conversation_id), store.messages(conversation_id)

        run_in_thread(read, on_return=self._loaded, name="draft-load")

    def _loaded(self, data: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
        conv, msgs = data
        if conv["id"] != self.conversation_id:
            return
        self.title.setText(str(conv["title"]))
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
        if self.turns.running:
            return
        text = self.editor.text()
        if not text.strip():
            return
        analysis = self.editor.analysis
        overrides: dict[int, Route] = {}
        unprotect: list[tuple[int, int]] = []
        protect: list[tuple[int, int]] = []
        if analysis is not None:
            overrides = self.editor.overrides.by_index(analysis)
            unprotect, protect = self.editor.overrides.spans(analysis)
        self._parts = []
        self._previous = self.draft.toPlainText()
        self.turns.start(
            TurnRequest(
                text,
                self.conversation_id,
                TurnKind.DRAFT,
                title="Draft: " + _short(text),
                analysis=analysis,
                overrides=overrides,
                unprotect=unprotect,
                protect=protect,
            )
        )

    def stop(self) -> None:
        self.turns.stop()

    def copy_draft(self) -> None:
        QGuiApplication.clipboard().setText(self.draft.toPlainText())

    def _running(self, running: bool) -> None:
        self.write_btn.setEnabled(not running)
        self.stop_btn.setEnabled(running)
        self.editor.edit.setReadOnly(running)
        self.progress.setVisible(running)
        if running:
            self.warning.hide()
        else:
            self.stage.setText("")

    def _conversation_ready(self, conversation_id: int) -> None:
        self.conversation_id = conversation_id
        show_title(
            self.title, self._store(), conversation_id, lambda: self.conversation_id, "draft-title"
        )

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
