"""One turn driven from the window: prepare in a worker, approve, execute in a worker.

:class:`TurnController` runs :meth:`Assistant.prepare` off the GUI thread,
opens the :class:`~ui.approval.ApprovalDialog` (non-blocking) when the turn
says the payload needs approval (the policy and "always approve in this
conversation" are the turn's), and when the person answers Send runs
:meth:`Assistant.execute` on the turn they approved (the one the dialog showed
last, its digest bound in the approval) as a generator in a worker,
re-emitting its events as signals. :meth:`stop` takes effect at the next
token, or closes the approval view. Errors go to the boundary function; a
cancelled turn is silent.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QThreadPool, Signal
from PySide6.QtWidgets import QDialog, QLabel, QWidget

from core.analyze import Analysis
from core.errors import Cancelled
from core.turn import (
    Approval,
    Choices,
    Decision,
    Finished,
    PreparedTurn,
    Stage,
    Token,
    TurnEvent,
    TurnKind,
    TurnResult,
)
from ui.errors import report
from ui.workers import Worker, run_in_thread

if TYPE_CHECKING:
    from core.store import Store
    from core.turn import Assistant
    from ui.approval import Reviser

log = logging.getLogger(__name__)

STAGE_TEXT = {
    "preparing": "Preparing what may leave…",
    "approval": "Waiting for your approval…",
    "sending": "Sending the anonymized request…",
    "receiving": "Receiving the answer…",
    "integrating": "Integrating the answer on this machine…",
    "local": "Answering on this machine…",
    "saving": "Saving to the vault…",
}


@dataclass
class TurnRequest:
    """What the view asks for: the text and the person's choices (routes, protection)."""

    text: str
    conversation_id: int | None
    kind: TurnKind
    title: str = ""
    analysis: Analysis | None = None  # the editor's analysis of exactly ``text``
    choices: Choices = field(default_factory=Choices)  # a copy: the editor keeps its own
    replace_from: int | None = None  # edit and resend / regenerate: drop from this message


#: Called with the person's answer: the turn to send (the one shown last) and its approval.
Answered = Callable[[PreparedTurn, Approval], None]
#: Shows the approval view for a prepared turn without blocking and calls
#: ``answered`` once when the person answers; returns the view (closed by Stop).
Approver = Callable[[PreparedTurn, "Reviser", QWidget | None, Answered], QDialog]


class TurnController(QObject):
    """Runs turns one at a time for a view."""

    #: Emitted with a stage name (see STAGE_TEXT).
    stageChanged = Signal(str)
    #: Emitted with the conversation id once it exists (a new conversation is created on send).
    conversationReady = Signal(int)
    #: Emitted with (text, source) for each restored piece of the answer.
    token = Signal(str, str)
    #: Emitted with the TurnResult when the turn is saved.
    finished = Signal(object)
    #: Emitted with the exception when the turn failed (already shown to the person).
    failed = Signal(object)
    #: Emitted when the person cancelled (approval Cancel or Stop); nothing was sent.
    cancelled = Signal()
    #: Emitted when the person chose Edit in the approval view.
    editRequested = Signal()
    #: Emitted with True when a turn starts and False when it ends, however it ends.
    runningChanged = Signal(bool)

    def __init__(
        self,
        assistant: Callable[[], Assistant],
        *,
        pool: QThreadPool | None = None,
        approve: Approver | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._worker: Worker | None = None  # the phase running in a thread, if any
        self._assistant = assistant
        self._pool = pool
        self._approve = approve or ask_approval
        self._parent = parent
        self._dialog: QDialog | None = None  # the approval view, while it waits
        self._asking = False
        self._running = False
        self._result: TurnResult | None = None
        self.last_error: BaseException | None = None

    @property
    def running(self) -> bool:
        return self._running

    def start(self, req: TurnRequest) -> None:
        """Begin a turn; ignored while one is running."""
        if self._running:
            return
        self._set_running(True)
        self.last_error = None
        self.stageChanged.emit("preparing")
        analysis = copy.deepcopy(req.analysis) if req.analysis is not None else None
        self._run(self._prepare, req, analysis, on_return=self._prepared)

    def stop(self) -> None:
        """Cancel the turn in flight (silently); the text is kept."""
        if self._worker is not None:
            self._worker.cancel()
        if self._dialog is not None:
            self._dialog.reject()  # answered as Cancel: nothing is sent

    # --- phases -------------------------------------------------------------

    def _prepare(
        self, req: TurnRequest, analysis: Analysis | None, cancel: threading.Event
    ) -> PreparedTurn:
        assistant = self._assistant()
        conv = req.conversation_id
        if conv is None:
            conv = assistant.new_conversation(req.title or _title(req.text), req.kind)
        if cancel.is_set():
            raise Cancelled()
        return assistant.prepare(
            req.text,
            conv,
            req.kind,
            choices=req.choices,
            analysis=analysis,
            replace_from=req.replace_from if req.conversation_id is not None else None,
        )

    def _prepared(self, prepared: PreparedTurn) -> None:
        self.conversationReady.emit(prepared.conversation_id)
        if prepared.request is None:  # nothing leaves: nothing to approve
            self._send(prepared, None)
        elif not prepared.needs_approval:
            self._send(prepared, Approval.send(prepared))
        else:
            self.stageChanged.emit("approval")
            self._asking = True
            dialog = self._approve(prepared, self._assistant(), self._parent, self._answered)
            self._dialog = dialog if self._asking else None  # an approver may answer at once

    def _answered(self, prepared: PreparedTurn, approval: Approval) -> None:
        # The approval view's finished signal: the turn goes on from here.
        self._asking, self._dialog = False, None
        if approval.decision is Decision.SEND:
            self._send(prepared, approval)
            return
        self._end()
        if approval.decision is Decision.EDIT:
            self.editRequested.emit()
        else:
            self.cancelled.emit()

    def _send(self, prepared: PreparedTurn, approval: Approval | None) -> None:
        self._run(self._execute, prepared, approval, on_yield=self._event)

    def _execute(
        self, prepared: PreparedTurn, approval: Approval | None, cancel: threading.Event
    ) -> Iterator[TurnEvent]:
        yield from self._assistant().execute(prepared, approval, cancel)

    def _event(self, ev: TurnEvent) -> None:
        if isinstance(ev, Stage):
            self.stageChanged.emit(ev.name)
        elif isinstance(ev, Token):
            self.token.emit(ev.text, ev.source)
        elif isinstance(ev, Finished):
            self._result = ev.result

    # --- plumbing -----------------------------------------------------------

    def _run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_return: Callable[[Any], None] | None = None,
        on_yield: Callable[[Any], None] | None = None,
    ) -> None:
        self._result = None
        w = Worker(fn, *args, name=fn.__name__, pool=self._pool)
        if on_yield is not None:
            w.signals.yielded.connect(on_yield)
        if on_return is not None:
            w.signals.returned.connect(on_return)
        else:
            w.signals.returned.connect(lambda _r: self._completed())
        w.on_error(self._error)
        w.signals.finished.connect(lambda w=w: self._worker_done(w))
        self._worker = w
        w.start()

    def _worker_done(self, w: Worker) -> None:
        if self._worker is w:
            self._worker = None

    def _completed(self) -> None:
        result = self._result
        self._end()
        if result is not None:
            self.finished.emit(result)

    def _error(self, exc: BaseException) -> None:
        self._end()
        if isinstance(exc, Cancelled):
            self.cancelled.emit()
            return
        self.last_error = exc
        report(exc, self._parent)
        self.failed.emit(exc)

    def _end(self) -> None:
        self._set_running(False)

    def _set_running(self, value: bool) -> None:
        if self._running != value:
            self._running = value
            self.runningChanged.emit(value)


def ask_approval(
    prepared: PreparedTurn, assistant: Reviser, parent: QWidget | None, answered: Answered
) -> QDialog:
    """Open the approval view (window-modal, not blocking) and call ``answered``
    with the turn it showed last and the person's answer when it closes."""
    from ui.approval import ApprovalDialog

    dlg = ApprovalDialog(prepared, assistant, parent)

    def done(_code: int) -> None:
        turn, approval = dlg.answer()
        dlg.deleteLater()
        answered(turn, approval)

    dlg.finished.connect(done)
    dlg.open()
    return dlg


def show_title(
    label: QLabel,
    store: Store,
    conversation_id: int,
    current: Callable[[], int | None],
    name: str,
) -> None:
    """Read a conversation's title in a worker and show it in ``label`` if that
    conversation is still the one on screen (``current()``) when it arrives."""
    run_in_thread(
        store.conversation,
        conversation_id,
        on_return=lambda c: label.setText(str(c["title"])) if c["id"] == current() else None,
        name=name,
    )


def _title(text: str) -> str:
    words = " ".join(text.split())
    return words[:48] + ("…" if len(words) > 48 else "")
