"""The chat view: messages, the routing editor as composer, streaming, stop, regenerate.

The composer is a :class:`~ui.editor.RoutingEditor`, so the person sees where
each sentence of their message will go before sending. A turn runs through a
:class:`~ui.turns.TurnController`; the answer streams in token by token, Stop
(Esc) takes effect at the next token, and the composer keeps its text until
the turn is saved, so a failure or a cancel never loses what was typed.
Messages can be copied, a user message edited and resent, the last answer
regenerated, and the conversation exported to Markdown.
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.turn import TurnKind, TurnResult
from ui.composer import Look, TurnView
from ui.errors import report
from ui.theme import std_icon
from ui.turns import TurnRequest

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


class MessageWidget(QFrame):
    """One message: role, text, a footer about where it went, and actions."""

    #: Emitted with this widget when the person asks to copy / edit / regenerate.
    copyRequested = Signal(object)
    editRequested = Signal(object)
    regenerateRequested = Signal(object)

    def __init__(
        self,
        role: str,
        text: str,
        message_id: int | None = None,
        footer: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.role = role
        self.message_id = message_id
        self.setObjectName(f"message-{role}")
        self.setFrameShape(QFrame.Shape.NoFrame)
        who = QLabel("You" if role == "user" else "Sottovoce" if role == "assistant" else "Error")
        who.setObjectName("role")
        self.body = QLabel(text)
        self.body.setObjectName("message-body")
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.footer = QLabel(footer)
        self.footer.setObjectName("hint")
        self.footer.setWordWrap(True)
        self.footer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.footer.setVisible(bool(footer))
        # The local model's own note, marked apart: it is never part of the cloud's answer.
        self.note = QLabel()
        self.note.setObjectName("local-note")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.setStyleSheet(
            "QLabel#local-note { border-left: 3px solid #8e7cc3; padding: 2px 0 2px 8px;"
            " font-style: italic; }"
        )
        self.note.hide()

        self.copy_btn = self._tool("SP_FileDialogContentsView", "Copy", self.copyRequested)
        self.edit_btn = self._tool(
            "SP_FileDialogDetailedView", "Edit and resend", self.editRequested
        )
        self.regen_btn = self._tool("SP_BrowserReload", "Regenerate", self.regenerateRequested)
        self.edit_btn.setVisible(role == "user")
        self.regen_btn.setVisible(False)
        top = QHBoxLayout()
        top.addWidget(who)
        top.addStretch(1)
        for b in (self.copy_btn, self.edit_btn, self.regen_btn):
            top.addWidget(b)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 8, 12, 10)
        lay.setSpacing(4)
        lay.addLayout(top)
        lay.addWidget(self.body)
        lay.addWidget(self.note)
        lay.addWidget(self.footer)

    def _tool(self, icon: str, tip: str, signal: Any) -> QToolButton:
        b = QToolButton(self)
        b.setIcon(std_icon(self, icon))
        b.setToolTip(tip)
        b.setAccessibleName(tip)
        b.setAutoRaise(True)
        b.clicked.connect(lambda: signal.emit(self))
        return b

    def text(self) -> str:
        return self.body.text()

    def append(self, piece: str) -> None:
        self.body.setText(self.body.text() + piece)

    def set_footer(self, text: str) -> None:
        self.footer.setText(text)
        self.footer.setVisible(bool(text))

    def set_note(self, text: str) -> None:
        """Show the local model's note under the answer, marked as its own ("" hides it)."""
        self.note.setText(f"{NOTE_LABEL}: {text}" if text else "")
        self.note.setVisible(bool(text))


#: How the local model's note is introduced wherever it is shown.
NOTE_LABEL = "Note from the local model (written on this machine, not part of the cloud's answer)"


def footer_for(role: str, content_meta: dict[str, Any], cloud: str | None) -> str:
    """A short line about where a stored message went."""
    if role == "user":
        routes = content_meta.get("routes") or []
        if not routes:
            return ""
        local = sum(1 for r in routes if r == "local")
        return f"{local} kept on this machine · {len(routes) - local} sent anonymized"
    unresolved = content_meta.get("unresolved") or []
    where = (
        "Written from the anonymized request; values restored on this machine"
        if cloud
        else "Answered on this machine"
    )
    integration = content_meta.get("integration") or {}
    kept = int(integration.get("kept") or 0)
    if kept:
        it = "it" if kept == 1 else "them"
        where += f" · {kept} sentence{'s' if kept > 1 else ''} stayed on this machine; the cloud did not see {it}"
        if integration.get("mode") == "merged":
            where += f" · merged here by {integration.get('model') or 'the local model'}"
        elif integration.get("mode") == "fallback":
            where += f" · the local model's merge was not used: {integration.get('reason', '')}"
    if unresolved:
        where += f" · unresolved placeholders: {', '.join(unresolved)}"
    return where


SEND_TIP = "Send (Ctrl+Enter): you will see exactly what leaves first"
COMPOSE_HINT = "Write a message…  (Ctrl+Enter to send)"


class ChatView(TurnView):
    """A conversation and its composer."""

    look = Look("chat", "New chat", "Send", SEND_TIP, COMPOSE_HINT, margins=(16, 6, 16, 10))

    def _build(self) -> None:
        self.messages: list[MessageWidget] = []
        self._answer: MessageWidget | None = None
        self._pending: MessageWidget | None = None
        self._replace_from: int | None = None
        self.send_btn = self.composer.send_btn
        self.composer.submitted.connect(self.send)
        self.turns.editRequested.connect(self._back_to_edit)

        self.export_btn = QPushButton(std_icon(self, "SP_DialogSaveButton"), "Export…")
        self.export_btn.setToolTip("Export this conversation to Markdown (Ctrl+E)")
        self.export_btn.clicked.connect(self.export_markdown)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.export_btn)

        self.list_host = QWidget()
        self.list_lay = QVBoxLayout(self.list_host)
        self.list_lay.setContentsMargins(16, 12, 16, 12)
        self.list_lay.setSpacing(10)
        self.empty = QLabel(
            "Ask anything. Before you send, a badge above each sentence shows where it will "
            "go: a padlock keeps it on this machine, a cloud sends it with private details "
            "replaced by placeholders."
        )
        self.empty.setObjectName("hint")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.list_lay.addWidget(self.empty)
        self.list_lay.addStretch(1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setWidget(self.list_host)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)

        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.scroll_area)
        self.split.addWidget(self.composer)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.split.setChildrenCollapsible(False)
        self.split.setSizes([480, 280])

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 10, 0, 0)
        top = QHBoxLayout()
        top.setContentsMargins(16, 0, 16, 0)
        top.addLayout(head)
        lay.addLayout(top)
        lay.addWidget(self.split, 1)

    # --- conversation -----------------------------------------------------

    def new_conversation(self) -> None:
        self.stop()
        self.conversation_id = None
        self._replace_from = None
        self.title.setText("New chat")
        self._clear_messages()
        self.editor.set_text("")
        self.editor.edit.setFocus()

    def load(self, conversation_id: int) -> None:
        """Show a stored conversation (read in a worker)."""
        self._replace_from = None
        super().load(conversation_id)

    def _loaded(self, msgs: list[dict[str, Any]]) -> None:
        self._clear_messages()
        for m in msgs:
            self._add(
                m["role"],
                m["content"],
                m["id"],
                footer_for(m["role"], m["meta"], m["cloud_content"]),
            )
            note = (m["meta"].get("integration") or {}).get("note")
            if m["role"] == "assistant" and note and m["meta"]["integration"].get("mode") != "merged":
                self.messages[-1].set_note(note)
        self._mark_last()

    def _clear_messages(self) -> None:
        for w in self.messages:
            w.setParent(None)
            w.deleteLater()
        self.messages = []
        self.empty.show()

    def _add(
        self, role: str, text: str, message_id: int | None = None, footer: str = ""
    ) -> MessageWidget:
        w = MessageWidget(role, text, message_id, footer)
        w.copyRequested.connect(self.copy_message)
        w.editRequested.connect(self.edit_message)
        w.regenerateRequested.connect(self.regenerate)
        self.list_lay.insertWidget(self.list_lay.count() - 1, w)
        self.messages.append(w)
        self.empty.hide()
        QTimer.singleShot(0, self._scroll_end)
        return w

    def _scroll_end(self) -> None:
        bar = self.scroll_area.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _mark_last(self) -> None:
        last = next((w for w in reversed(self.messages) if w.role == "assistant"), None)
        for w in self.messages:
            w.regen_btn.setVisible(w is last and not self.turns.running)

    # --- sending ----------------------------------------------------------

    def send(self) -> None:
        """Send the composer's text (through approval); Ctrl+Enter."""
        req = self.composer.request(
            self.conversation_id, TurnKind.CHAT, replace_from=self._replace_from
        )
        if req is None:
            return
        if self._replace_from is not None:
            # Edit and resend: the edited message and what followed are replaced.
            self._remove_from(self._replace_from)
        self._pending = self._add("user", req.text)
        self._answer = None
        self.turns.start(req)

    def _running(self, running: bool) -> None:
        self._mark_last()

    def _token(self, piece: str, source: str) -> None:
        if self._answer is None:
            self._answer = self._add("assistant", "")
        if source == "note":
            self._answer.set_note(piece)
        elif source == "merged":
            # The guard accepted the local merge: it replaces the cloud's streamed answer.
            self._answer.body.setText(piece)
        else:
            self._answer.append(piece)
        self._scroll_end()

    def _finished(self, result: TurnResult) -> None:
        if self._pending is not None:
            self._pending.message_id = result.user_message_id
        if self._answer is None:
            self._answer = self._add("assistant", result.answer)
        self._answer.body.setText(result.answer)
        self._answer.message_id = result.answer_message_id
        where = (
            "Answered on this machine"
            if result.local_only
            else ("Written from the anonymized request; values restored on this machine")
        )
        integration = result.integration
        if integration is not None and integration.notice():
            # What stayed here, and whether the local model merged: told plainly.
            where = integration.notice()
            self._answer.set_note("" if integration.mode == "merged" else integration.note)
        if result.unresolved:
            where += f" · unresolved placeholders: {', '.join(result.unresolved)}"
        self._answer.set_footer(where)
        self._pending = self._answer = None
        self._replace_from = None
        self.editor.set_text("")
        self._mark_last()
        self.conversationChanged.emit(result.conversation_id)

    def _remove_from(self, message_id: int) -> None:
        idx = next((i for i, w in enumerate(self.messages) if w.message_id == message_id), None)
        if idx is None:
            return
        for w in self.messages[idx:]:
            w.setParent(None)
            w.deleteLater()
        del self.messages[idx:]

    def _resync(self) -> None:
        # A replacing turn that did not complete: show what the store now holds.
        if self._replace_from is not None and self.conversation_id is not None:
            self.load(self.conversation_id)

    def _drop_pending(self) -> None:
        for w in (self._answer, self._pending):
            if w is not None and w in self.messages:
                self.messages.remove(w)
                w.setParent(None)
                w.deleteLater()
        self._answer = self._pending = None
        if not self.messages:
            self.empty.show()

    def _failed(self, exc: BaseException) -> None:
        # The composer still holds the text; the half answer is not kept.
        self._drop_pending()
        self._resync()
        self.stage.setText("Not sent. Your text is kept.")

    def _cancelled(self) -> None:
        keep = self._answer is not None and self._answer.text()
        if keep and self._answer is not None:
            self._answer.set_footer("Stopped; not saved")
            self._answer = None
            if self._pending is not None:
                self._pending.set_footer("")
            self._pending = None
        else:
            self._drop_pending()
        self._resync()

    def _back_to_edit(self) -> None:
        self._drop_pending()
        self._resync()
        self.editor.edit.setFocus()

    # --- message actions --------------------------------------------------

    def copy_message(self, w: MessageWidget) -> None:
        QGuiApplication.clipboard().setText(w.text())

    def edit_message(self, w: MessageWidget) -> None:
        """Put a sent message back in the composer; sending replaces it and what followed."""
        if self.turns.running or w.message_id is None:
            return
        self._replace_from = w.message_id
        self.editor.set_text(w.text())
        idx = self.messages.index(w)
        for later in self.messages[idx:]:
            later.setEnabled(False)
        self.stage.setText(
            "Editing an earlier message: sending replaces it and the answers after it."
        )
        self.editor.edit.setFocus()

    def regenerate(self, w: MessageWidget | None = None) -> None:
        """Ask again for the last answer (the question goes through approval again)."""
        if self.turns.running or self.conversation_id is None:
            return
        users = [m for m in self.messages if m.role == "user" and m.message_id is not None]
        if not users:
            return
        text, message_id = users[-1].text(), users[-1].message_id
        assert message_id is not None
        self._remove_from(message_id)
        self._replace_from = message_id
        self._pending = self._add("user", text)
        self._answer = None
        self.turns.start(
            TurnRequest(text, self.conversation_id, TurnKind.CHAT, replace_from=message_id)
        )

    def export_markdown(self, path: str | None = None) -> Path | None:
        """Write the conversation to a Markdown file (asks where when no path is given)."""
        if self.conversation_id is None or not self.messages:
            return None
        if path is None:
            suggested = f"{self.title.text()[:40].strip() or 'conversation'}.md"
            path, _ = QFileDialog.getSaveFileName(
                self, "Export conversation", suggested, "Markdown (*.md)"
            )
            if not path:
                return None
        text = conversation_markdown(self.title.text(), [(w.role, w.text()) for w in self.messages])
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            from core.errors import InputError

            report(InputError(f"Could not write {path}: {exc.strerror}."), self)
            return None
        return Path(path)


def conversation_markdown(title: str, messages: list[tuple[str, str]]) -> str:
    """A conversation as Markdown (the restored text, as the person read it)."""
    lines = [f"# {title}", "", f"_Exported from Sottovoce on {datetime.now():%Y-%m-%d %H:%M}._", ""]
    for role, text in messages:
        who = "You" if role == "user" else "Sottovoce"
        lines += [f"## {who}", "", text.strip(), ""]
    return "\n".join(lines)
