"""What the chat and draft views share: the composer and the turn wiring.

:class:`Composer` is the routing editor with its action row (progress, stage
line, Stop, the primary button) and the :class:`~ui.turns.TurnController` that
runs what it sends. :class:`TurnView` is the view around it: a title, the
conversation on screen, loading a stored conversation in a worker, and the
turn's signals connected to the handlers each view defines for itself.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QEvent, QObject, QThreadPool, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QTextCursor
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.documents import EXTENSIONS, DocumentError, Extracted, Limits, Progress, extract_steps
from core.documents import with_attachments as _with_attachments
from core.turn import TurnKind, TurnResult
from ui.editor import AnalyzeFn, RoutingEditor
from ui.errors import report
from ui.theme import std_icon
from ui.turns import STAGE_TEXT, TurnController, TurnRequest, show_title
from ui.workers import Worker, run_in_thread

if TYPE_CHECKING:
    from core.store import Store
    from core.turn import Assistant

#: A stored conversation and its messages, as the store returns them.
Loaded = tuple[dict[str, Any], list[dict[str, Any]]]


@dataclass(frozen=True)
class Look:
    """What tells one view's composer from another's."""

    name: str  # "chat": the view is "chat-view", its editor "chat-editor"
    new_title: str  # the title of a view with no conversation yet
    action: str  # the primary button
    action_tip: str
    placeholder: str  # the editor's, while it is empty
    heading: str = ""  # a line above the editor
    margins: tuple[int, int, int, int] = (0, 0, 0, 0)


#: The file dialog's filter: every format core.documents reads.
ATTACH_FILTER = (
    "Documents ("
    + " ".join(f"*{ext}" for ext in EXTENSIONS)
    + ");;All files (*)"
)


@dataclass(frozen=True)
class Step:
    """One step of attaching: file ``index`` of ``count`` (named ``name``), its progress."""

    index: int
    count: int
    name: str
    progress: Progress


@dataclass(frozen=True)
class Attached:
    """What an attach job returns: the files read, and the first refusal (if any) with their count."""

    documents: list[Extracted]
    error: DocumentError | None
    refused: int


def extract_files(paths: Sequence[str | Path], limits: Limits) -> Generator[Step, None, Attached]:
    """Read each file in turn, yielding a :class:`Step` per page (where Cancel stops it).

    A file that cannot be attached is skipped and the first refusal returned, so
    one bad file among several does not lose the others.
    """
    docs: list[Extracted] = []
    first: DocumentError | None = None
    refused = 0
    for i, path in enumerate(paths):
        name = Path(path).name
        steps = extract_steps(path, limits=limits)
        try:
            while True:
                try:
                    progress = next(steps)
                except StopIteration as done:
                    docs.append(done.value)
                    break
                yield Step(i, len(paths), name, progress)
        except DocumentError as exc:
            refused += 1
            first = first or exc
        finally:
            steps.close()
    return Attached(docs, first, refused)


class Composer(QWidget):
    """The routing editor, the action row and the turn controller of one view.

    Files attached (the Attach button, or dropped on the editor) are read in a
    worker (:func:`extract_files`), with a progress bar and Cancel; their text
    is appended to the editor under a line naming each file, where it is
    analyzed, highlighted, routed and approved like typed text. Nothing of a
    file but that text ever reaches the turn.
    """

    #: Emitted when the person sends (the primary button or Ctrl+Enter).
    submitted = Signal()
    #: Emitted with the documents whose text was just added to the editor.
    attached = Signal(list)

    def __init__(
        self, editor: RoutingEditor, turns: TurnController, look: Look, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.editor = editor
        self.editor.setObjectName(f"{look.name}-editor")
        self.editor.submitted.connect(self.submitted)
        self.send_btn = QPushButton(look.action)
        self.send_btn.setObjectName("primary")
        self.send_btn.setToolTip(look.action_tip)
        self.send_btn.clicked.connect(self.submitted)
        self.stop_btn = QPushButton(std_icon(self, "SP_MediaStop"), "Stop")
        self.stop_btn.setToolTip("Stop (Esc)")
        self.stop_btn.setEnabled(False)
        self.stage = QLabel("")
        self.stage.setObjectName("hint")
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setFixedSize(90, 6)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.attach_btn = QPushButton(std_icon(self, "SP_FileIcon"), "Attach…")
        self.attach_btn.setObjectName(f"{look.name}-attach")
        self.attach_btn.setToolTip(
            "Attach a document (PDF, Word, OpenDocument, Excel, CSV, text, e-mail, image): "
            "its text joins your message and is checked like the rest. You can also drop files "
            "on the editor."
        )
        self.attach_btn.clicked.connect(self.choose_files)
        # Reading a file: what is read, a bar per page, Cancel (OCR can take a while).
        self.attach_label = QLabel("")
        self.attach_label.setObjectName("hint")
        self.attach_bar = QProgressBar()
        self.attach_bar.setFixedSize(120, 6)
        self.attach_bar.setTextVisible(False)
        self.attach_cancel = QPushButton("Cancel")
        self.attach_cancel.setToolTip("Stop reading the file; nothing of it is added")
        self.attach_cancel.clicked.connect(self.cancel_attach)
        self.attach_row = QWidget()
        row = QHBoxLayout(self.attach_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.attach_label, 1)
        row.addWidget(self.attach_bar)
        row.addWidget(self.attach_cancel)
        self.attach_row.hide()
        #: The limits files are read under (main window sets them from the settings).
        self.document_limits = Limits()
        self._attach_worker: Worker | None = None

        actions = QHBoxLayout()
        actions.addWidget(self.attach_btn)
        actions.addWidget(self.progress)
        actions.addWidget(self.stage, 1)
        actions.addWidget(self.stop_btn)
        actions.addWidget(self.send_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(*look.margins)
        if look.heading:
            lay.addWidget(QLabel(look.heading))
        lay.addWidget(self.editor, 1)
        lay.addWidget(self.attach_row)
        lay.addLayout(actions)
        # Files dropped on the editor are attached; other drops (text) work as before.
        self.setAcceptDrops(True)
        self.editor.edit.installEventFilter(self)
        self.editor.edit.viewport().installEventFilter(self)

        self.turns = turns
        self.stop_btn.clicked.connect(self.turns.stop)
        self.turns.stageChanged.connect(lambda s: self.stage.setText(STAGE_TEXT.get(s) or s))
        self.turns.runningChanged.connect(self._running)

    def request(
        self,
        conversation_id: int | None,
        kind: TurnKind,
        *,
        title: str = "",
        replace_from: int | None = None,
    ) -> TurnRequest | None:
        """The turn the composer's text asks for; None while a turn runs or when it is empty."""
        text = self.editor.text()
        if self.turns.running or not text.strip():
            return None
        return TurnRequest(
            text,
            conversation_id,
            kind,
            title=title,
            analysis=self.editor.analysis,
            choices=self.editor.choices.copy(),
            replace_from=replace_from,
        )

    def _running(self, running: bool) -> None:
        # The text stays in the editor (read-only meanwhile) until the turn is saved.
        self.send_btn.setEnabled(not running and not self.attaching)
        self.stop_btn.setEnabled(running)
        self.attach_btn.setEnabled(not running and not self.attaching)
        self.editor.edit.setReadOnly(running)
        self.progress.setVisible(running)
        if not running:
            self.stage.setText("")

    # --- attaching files --------------------------------------------------

    @property
    def attaching(self) -> bool:
        """True while files are being read."""
        return self._attach_worker is not None

    def choose_files(self) -> None:
        """The Attach button: pick files in a dialog, then attach them."""
        paths, _ = QFileDialog.getOpenFileNames(self, "Attach documents", "", ATTACH_FILTER)
        if paths:
            self.attach_files(paths)

    def attach_files(self, paths: Sequence[str | Path]) -> Worker | None:
        """Read ``paths`` in a worker and append their text to the editor; None when busy."""
        if not paths or self.attaching or self.turns.running:
            return None
        self.attach_label.setText(f"Reading {Path(paths[0]).name}…")
        self.attach_bar.setRange(0, 0)
        self.attach_row.show()
        self.send_btn.setEnabled(False)
        self.attach_btn.setEnabled(False)
        self._attach_worker = run_in_thread(
            extract_files,
            list(paths),
            self.document_limits,
            on_yield=self._attach_step,
            on_return=self._attach_done,
            on_error=self._attach_failed,
            on_finish=self._attach_finished,
            name="attach",
        )
        return self._attach_worker

    def cancel_attach(self) -> None:
        """Stop reading (between pages); nothing of the files is added."""
        if self._attach_worker is not None:
            self._attach_worker.cancel()

    def _attach_step(self, step: Step) -> None:
        p = step.progress
        of = f" ({step.index + 1} of {step.count})" if step.count > 1 else ""
        self.attach_label.setText(f"{step.name}{of}: {p.what}")
        self.attach_bar.setRange(0, max(p.total, 1))
        self.attach_bar.setValue(p.done)

    def _attach_done(self, result: Attached) -> None:
        if result.documents:
            self.append_documents(result.documents)
        if result.error is not None:
            if result.refused > 1:
                result.error.message += f" ({result.refused - 1} more file(s) were not attached either.)"
            report(result.error, self)

    def _attach_failed(self, exc: BaseException) -> None:
        report(exc, self)  # a cancellation is silent there

    def _attach_finished(self) -> None:
        self._attach_worker = None
        self.attach_row.hide()
        running = self.turns.running
        self.send_btn.setEnabled(not running)
        self.attach_btn.setEnabled(not running)

    def append_documents(self, documents: list[Extracted]) -> None:
        """Append each document's block (a line naming the file, then its text) to the editor.

        The text is inserted with a cursor, so undo removes it and the choices
        made on the sentences above are kept.
        """
        current = self.editor.text()
        kept = len(current.rstrip())
        tail = _with_attachments(current, documents)[kept:]
        cursor = QTextCursor(self.editor.edit.document())
        cursor.setPosition(kept)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(tail)
        self.editor.edit.setTextCursor(cursor)
        self.editor.edit.ensureCursorVisible()
        self.stage.setText("Attached " + "; ".join(_summary(d) for d in documents))
        self.attached.emit(documents)

    # --- drag and drop ------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, QDropEvent)  # the drag events derive from it
            if _dropped_files(event):
                event.acceptProposedAction()
                return True
        elif event.type() == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            files = _dropped_files(event)
            if files:
                event.acceptProposedAction()
                self.attach_files(files)
                return True
        return super().eventFilter(watched, event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _dropped_files(event):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        files = _dropped_files(event)
        if files:
            event.acceptProposedAction()
            self.attach_files(files)


def _dropped_files(event: QDropEvent) -> list[str]:
    """The local files a drag carries (not folders); empty for text and web links."""
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    files = [u.toLocalFile() for u in mime.urls() if u.isLocalFile()]
    return [f for f in files if f and not Path(f).is_dir()]


def _summary(doc: Extracted) -> str:
    facts = [f"{doc.pages} page{'s' if doc.pages != 1 else ''}", *doc.notes]
    return f"{doc.name} ({', '.join(facts)})"


class TurnView(QWidget):
    """A view that writes in a :class:`Composer` and shows one conversation.

    Subclasses set ``look``, lay out their widgets around ``self.composer`` in
    ``_build``, and define what differs: ``_loaded``, ``_token``,
    ``_finished``, ``_failed``, ``_cancelled`` and ``_running``.
    """

    #: Emitted with the conversation id after a turn created or changed it.
    conversationChanged = Signal(int)
    look: ClassVar[Look]

    def __init__(
        self,
        assistant: Callable[[], Assistant],
        store: Callable[[], Store],
        analyze: AnalyzeFn | None = None,
        *,
        analysis_pool: QThreadPool | None = None,
        turn_pool: QThreadPool | None = None,
        risk_lambda: float = 5.0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        name = self.look.name
        self.setObjectName(f"{name}-view")
        self._name = name
        self._store = store
        self.conversation_id: int | None = None
        self.title = QLabel(self.look.new_title)
        self.title.setObjectName("viewTitle")
        editor = RoutingEditor(
            analyze, risk_lambda=risk_lambda, pool=analysis_pool, placeholder=self.look.placeholder
        )
        # The controller's parent is the view: approval and error boxes open over it.
        turns = TurnController(assistant, pool=turn_pool, parent=self)
        self.composer = Composer(editor, turns, self.look, self)
        self.editor = self.composer.editor
        self.turns = self.composer.turns
        self.stage = self.composer.stage
        self.stop_btn = self.composer.stop_btn
        self.progress = self.composer.progress
        t = self.turns
        t.conversationReady.connect(self._conversation_ready)
        t.token.connect(self._token)
        t.finished.connect(self._finished)
        t.failed.connect(self._failed)
        t.cancelled.connect(self._cancelled)
        t.runningChanged.connect(self._running)
        self._build()

    def load(self, conversation_id: int) -> None:
        """Show a stored conversation (read in a worker)."""
        self.conversation_id = conversation_id

        def read() -> Loaded:
            store = self._store()
            return store.conversation(conversation_id), store.messages(conversation_id)

        run_in_thread(read, on_return=self._arrived, name=f"{self._name}-load")

    def _arrived(self, data: Loaded) -> None:
        conv, msgs = data
        if conv["id"] == self.conversation_id:  # else another one was opened meanwhile
            self.title.setText(str(conv["title"]))
            self._loaded(msgs)

    def stop(self) -> None:
        """Stop the turn in flight (Esc); the composer keeps its text."""
        self.turns.stop()

    def _conversation_ready(self, conversation_id: int) -> None:
        self.conversation_id = conversation_id
        show_title(
            self.title,
            self._store(),
            conversation_id,
            lambda: self.conversation_id,
            f"{self._name}-title",
        )

    # --- what each view does its own way ----------------------------------

    def _build(self) -> None:
        """Lay out the view around ``self.composer`` (called once, from ``__init__``)."""
        raise NotImplementedError

    def _loaded(self, messages: list[dict[str, Any]]) -> None:
        raise NotImplementedError

    def _token(self, piece: str, source: str) -> None:
        raise NotImplementedError

    def _finished(self, result: TurnResult) -> None:
        raise NotImplementedError

    def _failed(self, exc: BaseException) -> None:
        raise NotImplementedError

    def _cancelled(self) -> None:
        raise NotImplementedError

    def _running(self, running: bool) -> None:
        """What the view changes beside the composer when a turn starts or ends."""
