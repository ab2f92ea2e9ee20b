"""What the chat and draft views share: the composer and the turn wiring.

:class:`Composer` is the routing editor with its action row (progress, stage
line, Stop, the primary button) and the :class:`~ui.turns.TurnController` that
runs what it sends. :class:`TurnView` is the view around it: a title, the
conversation on screen, loading a stored conversation in a worker, and the
turn's signals connected to the handlers each view defines for itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QThreadPool, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from core.turn import TurnKind, TurnResult
from ui.editor import AnalyzeFn, RoutingEditor
from ui.theme import std_icon
from ui.turns import STAGE_TEXT, TurnController, TurnRequest, show_title
from ui.workers import run_in_thread

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


class Composer(QWidget):
    """The routing editor, the action row and the turn controller of one view."""

    #: Emitted when the person sends (the primary button or Ctrl+Enter).
    submitted = Signal()

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
        actions = QHBoxLayout()
        actions.addWidget(self.progress)
        actions.addWidget(self.stage, 1)
        actions.addWidget(self.stop_btn)
        actions.addWidget(self.send_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(*look.margins)
        if look.heading:
            lay.addWidget(QLabel(look.heading))
        lay.addWidget(self.editor, 1)
        lay.addLayout(actions)

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
        self.send_btn.setEnabled(not running)
        self.stop_btn.setEnabled(running)
        self.editor.edit.setReadOnly(running)
        self.progress.setVisible(running)
        if not running:
            self.stage.setText("")


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
