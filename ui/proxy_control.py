"""Serving other apps from the window: the proxy with this window as its approver.

A checkable action in the Privacy menu starts `sottovoce proxy` inside the
window's process, on 127.0.0.1 and the settings' port, over the window's own
assistant (same settings, models, vault and ledger). A proxied request that
needs approval is shown in the same approval view as the window's own turns,
with the calling app's name; the person's answer, and the payload the view
showed last, go back to the waiting request (the service sends only that
payload). Requests are shown one at a time, in order; one whose app stopped
waiting is withdrawn and its view closes.

The HTTP server lives in ``app/``: this module is given a function that
starts it (``serve(service, token, host, port)`` returning an object with
``base_url`` and ``stop()``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu

from core.proxy import ApprovalBroker, PendingApproval, ProxyService, proxy_token
from ui.errors import report

if TYPE_CHECKING:
    from ui.approval import ApprovalDialog
    from ui.engine import Engine

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
Serve = Callable[[ProxyService, str, str, int], Any]


class ProxyControl(QObject):
    """The window's proxy switch and the approvals of proxied requests."""

    #: Emitted (queued, from a proxy thread) with a PendingApproval to show.
    pendingArrived = Signal(object)
    #: Emitted (queued, from a proxy thread) with a PendingApproval whose app stopped waiting.
    pendingWithdrawn = Signal(object)
    #: Emitted with the base URL when serving starts, and "" when it stops.
    servingChanged = Signal(str)

    def __init__(self, window: QMainWindow, engine: Engine, serve: Serve) -> None:
        super().__init__(window)
        self.setObjectName("proxy-control")
        self.window = window
        self.engine = engine
        self._serve = serve
        self.broker = ApprovalBroker()
        self.service = ProxyService(engine.assistant, approvals=self.broker)
        self.server: Any = None
        self.dialog: ApprovalDialog | None = None
        self.showing: PendingApproval | None = None
        self._queue: list[PendingApproval] = []

        self.action = QAction("Serve other apps (OpenAI-compatible proxy)", window)
        self.action.setCheckable(True)
        self.action.setStatusTip(
            "Other apps reach the cloud through Sottovoce on 127.0.0.1; you approve here"
        )
        self.action.toggled.connect(self._toggled)
        self.token_action = QAction("Copy the proxy token", window)
        self.token_action.setStatusTip("The API key apps send to the proxy")
        self.token_action.triggered.connect(self.copy_token)
        self.label = QLabel()
        self.label.setObjectName("hint")
        self.label.hide()
        self.pendingArrived.connect(self._arrived)
        self.pendingWithdrawn.connect(self._withdrawn)

    def install(self, menu: QMenu) -> None:
        """Add the actions to ``menu`` and the status to the window; start if the settings say so."""
        menu.addSeparator()
        menu.addAction(self.action)
        menu.addAction(self.token_action)
        self.window.statusBar().addPermanentWidget(self.label)
        if getattr(self.engine.settings, "proxy_in_window", False):
            QTimer.singleShot(0, lambda: self.action.setChecked(True))

    # --- serving -------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return str(self.server.base_url) if self.server is not None else ""

    def _toggled(self, on: bool) -> None:
        if on and self.server is None:
            try:
                self.start()
            except Exception as exc:
                self.action.blockSignals(True)
                self.action.setChecked(False)
                self.action.blockSignals(False)
                report(exc, self.window)
        elif not on:
            self.stop()

    def start(self) -> str:
        """Serve on 127.0.0.1 (the settings' port); returns the base URL."""
        if self.server is not None:
            return self.base_url
        store = self.engine.store
        if store is None:
            from core.errors import VaultLockedError

            raise VaultLockedError("The vault is not open.")
        token = proxy_token(store)
        self.broker.attach(self._on_pending)
        try:
            self.server = self._serve(self.service, token, HOST, self.engine.settings.proxy_port)
        except Exception:
            self.broker.detach()
            raise
        self.label.setText(f"Serving apps at {self.base_url}")
        self.label.show()
        self.window.statusBar().showMessage(
            f"Other apps can use {self.base_url} with the proxy token (Privacy > Copy the proxy token).",
            8000,
        )
        if not self.action.isChecked():
            self.action.blockSignals(True)
            self.action.setChecked(True)
            self.action.blockSignals(False)
        self.servingChanged.emit(self.base_url)
        return self.base_url

    def stop(self) -> None:
        """Stop serving; requests still waiting for approval fail."""
        self.broker.detach()
        if self.server is not None:
            server, self.server = self.server, None
            server.stop()
            self.servingChanged.emit("")
        self.label.hide()
        if self.action.isChecked():
            self.action.blockSignals(True)
            self.action.setChecked(False)
            self.action.blockSignals(False)

    def copy_token(self) -> str:
        """Put the proxy token on the clipboard (it is never shown on screen)."""
        store = self.engine.store
        if store is None:
            return ""
        token = proxy_token(store)
        QGuiApplication.clipboard().setText(token)
        self.window.statusBar().showMessage("The proxy token is on the clipboard.", 5000)
        return token

    # --- approvals ---------------------------------------------------------------

    def _on_pending(self, pending: PendingApproval) -> None:
        # A proxy thread: only signals cross to the GUI thread.
        pending.on_withdrawn(lambda: self.pendingWithdrawn.emit(pending))
        self.pendingArrived.emit(pending)

    def _arrived(self, pending: PendingApproval) -> None:
        if pending.withdrawn:
            return
        self._queue.append(pending)
        if self.dialog is None:
            self._show_next()

    def _show_next(self) -> None:
        from ui.approval import ApprovalDialog

        while self._queue and self.dialog is None:
            pending = self._queue.pop(0)
            if pending.withdrawn:
                continue
            # The pending request stands in for the assistant: its preview
            # rebuilds the payload the same way the service will.
            dlg = ApprovalDialog(pending.prepared, pending, self.window, source=pending.client)
            dlg.finished.connect(lambda _code, p=pending, d=dlg: self._answered(p, d))
            self.dialog, self.showing = dlg, pending
            dlg.open()
            self.window.statusBar().showMessage(f"{pending.client} asks to send a request.", 5000)

    def _answered(self, pending: PendingApproval, dlg: ApprovalDialog) -> None:
        # What the person approved is the turn the view showed last, and only that.
        shown, approval = dlg.answer()
        pending.resolve(approval, shown=shown)
        if self.dialog is dlg:
            self.dialog, self.showing = None, None
        dlg.deleteLater()
        QTimer.singleShot(0, self._show_next)

    def _withdrawn(self, pending: PendingApproval) -> None:
        if pending in self._queue:
            self._queue.remove(pending)
        if self.showing is pending and self.dialog is not None:
            self.dialog.reject()
        self.window.statusBar().showMessage(
            f"The request from {pending.client} was withdrawn: it stopped waiting. Nothing was sent.",
            6000,
        )
