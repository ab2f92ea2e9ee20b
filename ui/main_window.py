"""The main window: conversation list, chat and email drafting, settings, privacy views.

The window shows at once; the models load in a worker with progress in the
status bar (the editor's first analysis simply waits for them). Two serial
pools keep resources that are not thread-safe to one thread each: the analysis
models and the turn pipeline (the llama context). On close, running work is
cancelled and waited for, and the window state is saved with QSettings in the
config directory; settings are saved by :meth:`Settings.save`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from core import paths
from core.documents import limits_from
from core.errors import VaultLockedError
from ui.chat_view import ChatView
from ui.draft_view import DraftView
from ui.engine import Engine, Progress
from ui.errors import report
from ui.settings_dialog import SettingsDialog
from ui.store_views import LedgerView, PrivacyBoxView
from ui.theme import (
    bubble_pixmap,
    envelope_pixmap,
    icon_from,
    shield_pixmap,
    std_icon,
)
from ui.workers import Worker, run_in_thread, serial_pool

if TYPE_CHECKING:
    from core.store import Store

log = logging.getLogger(__name__)

ROLE_ID = Qt.ItemDataRole.UserRole
ROLE_KIND = Qt.ItemDataRole.UserRole + 1


def window_settings() -> QSettings:
    """Window geometry and layout, in the config directory (never the registry)."""
    paths.config_dir().mkdir(parents=True, exist_ok=True)
    return QSettings(str(paths.config_dir() / "window.ini"), QSettings.Format.IniFormat)


class Sidebar(QFrame):
    """New chat / new draft buttons and the list of conversations."""

    #: Emitted with (conversation id, kind) when the person opens a conversation.
    opened = Signal(int, str)
    #: Emitted when the person asks for a new chat or a new draft ("chat" / "draft").
    created = Signal(str)
    #: Emitted with (conversation id, action) for "rename", "delete", "export".
    action = Signal(int, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setMinimumWidth(200)
        new_chat = QPushButton(icon_from(bubble_pixmap), "New chat")
        new_chat.clicked.connect(lambda: self.created.emit("chat"))
        new_draft = QPushButton(icon_from(envelope_pixmap), "New draft")
        new_draft.clicked.connect(lambda: self.created.emit("draft"))
        buttons = QHBoxLayout()
        buttons.addWidget(new_chat)
        buttons.addWidget(new_draft)
        self.list = QListWidget()
        self.list.setObjectName("conversations")
        self.list.setIconSize(QSize(16, 16))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.itemActivated.connect(self._open)
        self.list.itemClicked.connect(self._open)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.empty = QLabel("No conversations yet.")
        self.empty.setObjectName("hint")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label = QLabel("Conversations")
        label.setObjectName("role")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 12, 10, 10)
        lay.setSpacing(8)
        lay.addLayout(buttons)
        lay.addWidget(label)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.empty)
        self._icons = {"chat": icon_from(bubble_pixmap), "draft": icon_from(envelope_pixmap)}

    def set_conversations(self, rows: list[dict[str, Any]], current: int | None) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for r in rows:
            kind = "draft" if r["kind"] == "draft" else "chat"
            item = QListWidgetItem(self._icons[kind], str(r["title"]))
            item.setData(ROLE_ID, int(r["id"]))
            item.setData(ROLE_KIND, kind)
            item.setToolTip(
                f"{r['title']!s}\nLast change: {str(r['updated'])[:16].replace('T', ' ')}"
            )
            self.list.addItem(item)
            if r["id"] == current:
                item.setSelected(True)
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)
        self.empty.setVisible(not rows)

    def _open(self, item: QListWidgetItem) -> None:
        self.opened.emit(int(item.data(ROLE_ID)), str(item.data(ROLE_KIND)))

    def _menu(self, pos: Any) -> None:
        item = self.list.itemAt(pos)
        if item is None:
            return
        conv = int(item.data(ROLE_ID))
        menu = QMenu(self)
        menu.addAction("Rename…").triggered.connect(lambda: self.action.emit(conv, "rename"))
        menu.addAction("Export to Markdown…").triggered.connect(
            lambda: self.action.emit(conv, "export")
        )
        menu.addSeparator()
        menu.addAction(std_icon(self, "SP_TrashIcon"), "Delete").triggered.connect(
            lambda: self.action.emit(conv, "delete")
        )
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.list.mapToGlobal(pos))


class MainWindow(QMainWindow):
    """Sottovoce's main window over one :class:`~ui.engine.Engine`."""

    #: Emitted when the models are loaded (or failed to load).
    modelsReady = Signal(bool)
    #: Emitted (from any thread) with the finished future of the demo cloud's start.
    demoCloudDone = Signal(object)

    def __init__(
        self,
        engine: Engine,
        *,
        load_models: bool = True,
        cloud_note: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.engine = engine
        self.setWindowTitle("Sottovoce")
        self.setWindowIcon(icon_from(shield_pixmap))
        self.setObjectName("main-window")
        self.analysis_pool = serial_pool("analysis")
        self.turn_pool = serial_pool("turns")
        self._views: dict[str, Any] = {}
        self._cloud_note = cloud_note
        s = engine.settings

        self.sidebar = Sidebar()
        self.sidebar.opened.connect(self.open_conversation)
        self.sidebar.created.connect(self.new_conversation)
        self.sidebar.action.connect(self._conversation_action)

        common: dict[str, Any] = dict(
            analysis_pool=self.analysis_pool, turn_pool=self.turn_pool, risk_lambda=s.risk_lambda
        )
        self.chat = ChatView(engine.assistant, self._store, engine.analyze_staged, **common)
        self.draft = DraftView(engine.assistant, self._store, engine.analyze_staged, **common)
        for view in (self.chat, self.draft):
            view.conversationChanged.connect(self.refresh_conversations)
            view.composer.document_limits = limits_from(s)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.chat)
        self.stack.addWidget(self.draft)

        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(self.sidebar)
        self.split.addWidget(self.stack)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([250, 950])
        self.split.setChildrenCollapsible(False)
        self.setCentralWidget(self.split)

        self._build_actions()
        self._build_status()
        engine.on_settings_changed.append(self._settings_changed)
        self.resize(1240, 820)
        self._restore_state()
        self.refresh_conversations()
        if load_models:
            # After the first paint: the loading thread competes for the interpreter.
            QTimer.singleShot(150, self.load_models)

    # --- chrome -----------------------------------------------------------

    def _action(
        self, text: str, icon: Any, shortcut: str | None, slot: Any, tip: str = ""
    ) -> QAction:
        act = QAction(icon, text, self) if icon is not None else QAction(text, self)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        act.setToolTip(tip or text)
        act.setStatusTip(tip or text)
        act.triggered.connect(slot)
        return act

    def _build_actions(self) -> None:
        self.act_new_chat = self._action(
            "New chat", icon_from(bubble_pixmap), "Ctrl+N", lambda: self.new_conversation("chat")
        )
        self.act_new_draft = self._action(
            "New email draft",
            icon_from(envelope_pixmap),
            "Ctrl+Shift+N",
            lambda: self.new_conversation("draft"),
        )
        self.act_export = self._action(
            "Export conversation…",
            std_icon(self, "SP_DialogSaveButton"),
            "Ctrl+E",
            lambda: self.chat.export_markdown(),
        )
        self.act_quit = self._action("Quit", None, "Ctrl+Q", self.close)
        self.act_settings = self._action(
            "Settings…",
            std_icon(self, "SP_FileDialogListView"),
            "Ctrl+,",
            self.open_settings,
            "Privacy level, models, cloud",
        )
        self.act_box = self._action(
            "Privacy box",
            icon_from(shield_pixmap),
            "Ctrl+Shift+B",
            self.open_privacy_box,
            "Private values and their placeholders",
        )
        self.act_ledger = self._action(
            "Egress ledger",
            std_icon(self, "SP_FileDialogDetailedView"),
            "Ctrl+Shift+L",
            self.open_ledger,
            "Every request that left this machine",
        )
        self.act_where = self._action(
            "Where is my data?", std_icon(self, "SP_DirIcon"), None, self.show_data_location
        )
        self.act_about = self._action("About Sottovoce", None, None, self.show_about)

        bar = self.menuBar()
        m = bar.addMenu("&File")
        for a in (self.act_new_chat, self.act_new_draft, self.act_export):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = bar.addMenu("&Edit")
        m.addAction(self.act_settings)
        m = bar.addMenu("&Privacy")
        self.privacy_menu = m  # the proxy's switch joins it (ui.proxy_control)
        m.addAction(self.act_box)
        m.addAction(self.act_ledger)
        m = bar.addMenu("&Help")
        m.addAction(self.act_where)
        m.addAction(self.act_about)

        tb = QToolBar("Main")
        tb.setObjectName("main-toolbar")
        tb.setMovable(False)
        tb.setIconSize(QSize(18, 18))
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tb.addAction(self.act_new_chat)
        tb.addAction(self.act_new_draft)
        tb.addSeparator()
        tb.addAction(self.act_box)
        tb.addAction(self.act_ledger)
        tb.addSeparator()
        tb.addAction(self.act_settings)
        self.addToolBar(tb)

        # Esc stops the turn of the visible view; it is window-wide on purpose.
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self).activated.connect(self.stop)

    def _build_status(self) -> None:
        sb = self.statusBar()
        self.load_label = QLabel("Models: not loaded")
        self.load_bar = QProgressBar()
        self.load_bar.setFixedSize(120, 10)
        self.load_bar.setTextVisible(False)
        self.load_bar.hide()
        self.cloud_label = QLabel()
        self.lambda_label = QLabel()
        self.vault_label = QLabel()
        for w in (self.cloud_label, self.lambda_label, self.vault_label):
            w.setObjectName("hint")
        sb.addWidget(self.load_bar)
        sb.addWidget(self.load_label)
        sb.addPermanentWidget(self.cloud_label)
        sb.addPermanentWidget(self.lambda_label)
        sb.addPermanentWidget(self.vault_label)
        self._update_status()

    def _update_status(self) -> None:
        s = self.engine.settings
        note = f" ({self._cloud_note})" if self._cloud_note else ""
        model, url = self.engine.display_cloud or (s.cloud_model, s.cloud_base_url)
        self.cloud_label.setText(f"Cloud: {model} at {url}{note}")
        self.lambda_label.setText(f"Privacy λ {s.risk_lambda:.1f} · ask: {s.approval_policy}")
        self.vault_label.setText("Vault open" if self.engine.store is not None else "Vault locked")

    # --- the demo cloud -----------------------------------------------------

    def watch_demo_cloud(self, future: Any) -> None:
        """Show the demo cloud's endpoint (or why it did not start) when it is up."""
        self.demoCloudDone.connect(self._demo_cloud_done)
        future.add_done_callback(self.demoCloudDone.emit)

    def _demo_cloud_done(self, future: Any) -> None:
        exc = future.exception()
        if exc is not None:
            self.engine.display_cloud = ("unavailable", "demo cloud")
            report(exc, self)
        else:
            base_url, model = future.result()
            self.engine.display_cloud = (model, base_url)
        self._update_status()

    # --- models -----------------------------------------------------------

    def load_models(self) -> None:
        """Load the models in a worker, with progress in the status bar."""
        self.load_bar.show()
        self.load_label.setText("Loading models…")
        w = Worker(self.engine.warm_up, name="warm-up", pool=self.analysis_pool)
        w.signals.yielded.connect(self._load_progress)
        w.signals.returned.connect(lambda _r: self._loaded(True))
        w.on_error(self._load_failed)
        w.start()

    def _load_progress(self, p: Progress) -> None:
        self.load_bar.setRange(0, p.total)
        self.load_bar.setValue(p.step)
        self.load_label.setText(f"{p.label}…" if p.step < p.total else "Models ready")

    def _loaded(self, ok: bool) -> None:
        self.load_bar.hide()
        self.load_label.setText("Models ready" if ok else "Models: not loaded")
        self.modelsReady.emit(ok)

    def _load_failed(self, exc: BaseException) -> None:
        self._loaded(False)
        report(exc, self)

    # --- conversations ----------------------------------------------------

    def current_view(self) -> ChatView | DraftView:
        w = self.stack.currentWidget()
        assert isinstance(w, ChatView | DraftView)
        return w

    def _store(self) -> Store:
        """The open store, for work that needs one (called in workers)."""
        if self.engine.store is None:
            raise VaultLockedError("The vault is locked.", hint="open it again from the start")
        return self.engine.store

    def refresh_conversations(self, *_: Any) -> None:
        store = self.engine.store
        if store is None:
            return
        current = self.current_view().conversation_id
        run_in_thread(
            store.conversations,
            on_return=lambda rows: self.sidebar.set_conversations(rows, current),
            name="conversations",
        )

    def new_conversation(self, kind: str) -> None:
        view: ChatView | DraftView = self.draft if kind == "draft" else self.chat
        self.stack.setCurrentWidget(view)
        view.new_conversation()
        self.sidebar.list.clearSelection()

    def open_conversation(self, conversation_id: int, kind: str) -> None:
        view: ChatView | DraftView = self.draft if kind == "draft" else self.chat
        if view.turns.running and view.conversation_id != conversation_id:
            self.statusBar().showMessage("Stop the current answer first (Esc).", 4000)
            return
        self.stack.setCurrentWidget(view)
        view.load(conversation_id)

    def _conversation_action(self, conversation_id: int, action: str) -> None:
        store = self.engine.store
        if store is None:
            return
        if action == "rename":
            title = str(store.conversation(conversation_id)["title"])
            new, ok = QInputDialog.getText(self, "Rename conversation", "Title:", text=title)
            if ok and new.strip():
                run_in_thread(
                    store.rename_conversation,
                    conversation_id,
                    new.strip(),
                    on_return=self.refresh_conversations,
                    name="rename",
                )
        elif action == "delete":
            answer = QMessageBox.question(
                self,
                "Delete conversation",
                "Delete this conversation, its messages and its privacy box? "
                "The ledger keeps its record of what was sent.",
            )
            if answer == QMessageBox.StandardButton.Yes:
                for view in (self.chat, self.draft):
                    if view.conversation_id == conversation_id:
                        view.new_conversation()
                run_in_thread(
                    store.delete_conversation,
                    conversation_id,
                    on_return=self.refresh_conversations,
                    name="delete",
                )
        elif action == "export":
            kind = next(
                (
                    str(self.sidebar.list.item(i).data(ROLE_KIND))
                    for i in range(self.sidebar.list.count())
                    if self.sidebar.list.item(i).data(ROLE_ID) == conversation_id
                ),
                "chat",
            )
            self.open_conversation(conversation_id, kind)
            if kind == "chat":
                self.chat.export_markdown()

    def stop(self) -> None:
        """Stop the answer being written in the visible view (Esc)."""
        self.current_view().stop()

    # --- dialogs ----------------------------------------------------------

    def open_settings(self) -> SettingsDialog:
        view = self.current_view()
        dlg = SettingsDialog(
            self.engine.settings,
            analyze=self.engine.analyze,
            preview_text=view.editor.text(),
            choices=view.editor.choices,
            pool=self.analysis_pool,
            cloud_note=(
                f"This run uses {self.engine.display_cloud[1]} ({self._cloud_note}); "
                "the endpoint below is used when Sottovoce starts without --demo-cloud."
                if self.engine.display_cloud and self._cloud_note
                else ""
            ),
            parent=self,
            vault=self.engine.store,
        )
        dlg.finished.connect(lambda code: self._settings_done(dlg, code))
        dlg.open()
        self._views["settings"] = dlg
        return dlg

    def _settings_done(self, dlg: SettingsDialog, code: int) -> None:
        if code == SettingsDialog.DialogCode.Accepted:
            try:
                self.engine.update_settings(dlg.result_settings())
                if dlg.api_key_changed:
                    self.engine.reset_cloud()
            except Exception as exc:
                report(exc, self)
        dlg.deleteLater()
        self._views.pop("settings", None)

    def _settings_changed(self, settings: Any) -> None:
        for view in (self.chat, self.draft):
            view.composer.document_limits = limits_from(settings)
            view.editor.set_risk_lambda(settings.risk_lambda)
            view.editor.refresh()
        self._update_status()

    def _show_view(self, key: str, factory: Any) -> Any:
        if self.engine.store is None:
            return None
        w = self._views.get(key)
        if w is None:
            w = factory(self.engine.store, self)
            self._views[key] = w
        else:
            w.reload()
        w.show()
        w.raise_()
        w.activateWindow()
        return w

    def open_privacy_box(self) -> PrivacyBoxView:
        return self._show_view("box", PrivacyBoxView)  # type: ignore[no-any-return]

    def open_ledger(self) -> LedgerView:
        return self._show_view("ledger", LedgerView)  # type: ignore[no-any-return]

    def show_data_location(self) -> None:
        store = self.engine.store
        QMessageBox.information(
            self,
            "Where is my data?",
            "<b>Your vault</b> (conversations, privacy box, ledger; encrypted):<br>"
            f"<code>{store.path if store is not None else paths.store_file()}</code><br><br>"
            f"<b>Settings</b> (no secrets):<br><code>{paths.settings_file()}</code><br><br>"
            "The vault key and the cloud API key are in the system keyring; where there is "
            "none, the vault is locked by your passphrase and holds the API key.",
        )

    def show_about(self) -> None:
        QMessageBox.about(
            self,
            "About Sottovoce",
            "<b>Sottovoce</b><br>A privacy assistant: each sentence is routed to a local model "
            "or, anonymized, to the cloud; you approve what leaves and the real names come back "
            "only on this machine.<br><br>Privacy-R1 routing joined with GAMA's privacy box.",
        )

    # --- state ------------------------------------------------------------

    def _restore_state(self) -> None:
        qs = window_settings()
        geo = qs.value("geometry")
        if isinstance(geo, QByteArray | bytes):
            self.restoreGeometry(geo)
        state = qs.value("state")
        if isinstance(state, QByteArray | bytes):
            self.restoreState(state)
        split = qs.value("split")
        if isinstance(split, QByteArray | bytes):
            self.split.restoreState(split)
        if qs.value("view") == "draft":
            self.stack.setCurrentWidget(self.draft)

    def save_state(self) -> None:
        qs = window_settings()
        qs.setValue("geometry", self.saveGeometry())
        qs.setValue("state", self.saveState())
        qs.setValue("split", self.split.saveState())
        qs.setValue("view", "draft" if self.stack.currentWidget() is self.draft else "chat")
        qs.sync()

    def shutdown(self, wait_ms: int = 8000) -> bool:
        """Cancel every running job and wait for it; True when all ended."""
        for view in (self.chat, self.draft):
            view.stop()
            view.editor.cancel()
        for w in list(self._views.values()):
            w.close()
        Worker.cancel_all()
        ok = Worker.wait_all(wait_ms)
        self.analysis_pool.waitForDone(wait_ms)
        self.turn_pool.waitForDone(wait_ms)
        return ok

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        if not self.shutdown():
            log.warning("some work did not stop in time")
        super().closeEvent(event)
