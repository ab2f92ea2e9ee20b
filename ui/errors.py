"""The one place where errors reach the person.

:func:`report` is the boundary function: every error of ``core`` (a
:class:`~core.errors.SottovoceError`) is shown with its person-facing message
and hint; cancelled work is silent; anything else is shown as an unexpected
error with the technical details folded away (Anki's ``show_exception``).
:func:`install_excepthooks` routes uncaught exceptions, from the GUI thread
and from any other thread, to the same function (napari's notification
manager), so no failure vanishes.

Dialogs are non-blocking (``open()``, never ``exec()``): an error never stops
the event loop, and tests can look for the box and close it.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from dataclasses import dataclass
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from core.errors import Cancelled, SottovoceError

log = logging.getLogger(__name__)

_open_boxes: set[QMessageBox] = set()

#: ``objectName`` of every error box, so tests and the screenshot script find them.
ERROR_BOX_NAME = "sottovoce-error"


@dataclass(frozen=True)
class Described:
    """What the person is told about an exception."""

    title: str
    text: str
    hint: str | None
    details: str | None  # technical details, for unexpected errors only
    expected: bool


def describe(exc: BaseException) -> Described:
    """Turn an exception into a message meant for a person."""
    if isinstance(exc, SottovoceError):
        return Described(_title_for(exc), exc.message, exc.hint, None, True)
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return Described(
        "Something went wrong",
        f"An unexpected error stopped this operation ({type(exc).__name__}). "
        "Your text was kept; nothing was sent.",
        "the details below help when reporting the problem",
        details,
        False,
    )


def _title_for(exc: SottovoceError) -> str:
    from core import errors as e
    from core.documents.errors import DocumentError

    for kind, title in (
        (DocumentError, "This file cannot be attached"),
        (e.EgressBlocked, "Blocked before sending"),
        (e.CloudError, "The cloud model is not available"),
        (e.VaultLockedError, "The vault is locked"),
        (e.StoreError, "The encrypted store"),
        (e.ModelLoadError, "A model could not be loaded"),
        (e.InputError, "This text cannot be used"),
    ):
        if isinstance(exc, kind):
            return title
    return "Sottovoce"


def report(exc: BaseException, parent: QWidget | None = None) -> QMessageBox | None:
    """Show ``exc`` to the person (silently drop cancellations); returns the box shown."""
    if isinstance(exc, Cancelled):
        log.debug("cancelled: %s", type(exc).__name__)
        return None
    d = describe(exc)
    # Only the type is logged: an unexpected exception's text may hold private data.
    log.warning("error shown to the person: %s", type(exc).__name__)
    if not d.expected:
        log.debug("unexpected error", exc_info=exc)
    app = QApplication.instance()
    if app is None:  # no GUI (a script): the log is all there is
        return None
    parent = parent or QApplication.activeWindow()
    box = QMessageBox(parent)
    box.setObjectName(ERROR_BOX_NAME)
    box.setWindowTitle(d.title)
    box.setIcon(QMessageBox.Icon.Warning if d.expected else QMessageBox.Icon.Critical)
    box.setText(f"<b>{_escape(d.title)}</b>")
    box.setInformativeText(
        _escape(d.text) + (f"<br><br><i>Try: {_escape(d.hint)}.</i>" if d.hint else "")
    )
    box.setTextFormat(Qt.TextFormat.RichText)
    if d.details:
        box.setDetailedText(d.details)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    # A box without a parent would be collected with this frame; keep it until closed.
    _open_boxes.add(box)
    box.finished.connect(lambda _code, b=box: _open_boxes.discard(b))
    box.open()
    return box


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def error_boxes() -> list[QMessageBox]:
    """The error boxes currently open (for tests and the screenshot script)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return []
    return [
        w
        for w in app.topLevelWidgets()
        if isinstance(w, QMessageBox) and w.objectName() == ERROR_BOX_NAME and w.isVisible()
    ]


class _Relay(QObject):
    """Carries an exception from any thread to the GUI thread."""

    raised = Signal(object)


_relay: _Relay | None = None


def install_excepthooks() -> None:
    """Route uncaught exceptions (GUI thread and other threads) to :func:`report`."""
    global _relay
    if _relay is not None:
        return
    relay = _Relay()
    relay.raised.connect(report, Qt.ConnectionType.QueuedConnection)
    _relay = relay

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        relay.raised.emit(exc)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            relay.raised.emit(args.exc_value)

    sys.excepthook = hook
    threading.excepthook = thread_hook


def uninstall_excepthooks() -> None:
    """Restore Python's default hooks (tests)."""
    global _relay
    sys.excepthook = sys.__excepthook__
    threading.excepthook = threading.__excepthook__
    _relay = None
