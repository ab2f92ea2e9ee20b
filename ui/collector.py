"""Python's cyclic garbage is collected on the GUI thread only.

The cyclic collector runs in whichever thread happens to allocate past its
threshold. When that is a pool thread of :mod:`ui.workers` (a cloud turn
allocates a lot), the collection can free Qt objects that live in a reference
cycle and belong to the GUI thread, and Qt crashes: a widget is destroyed from
the wrong thread (seen as a rare segmentation fault in a test of the demo
cloud turn). :class:`GuiCollector` switches automatic collection off and runs
it from a timer on the GUI thread instead, with the interpreter's own
generation thresholds, so the same garbage is collected at about the same
pace, only never on a worker (the pattern of pyqtgraph's and calibre's
``GarbageCollector``).

Reference counting is untouched: only objects kept alive by cycles wait for
the next tick.
"""

from __future__ import annotations

import gc
import threading

import shiboken6
from PySide6.QtCore import QObject, QTimer

#: How often the GUI thread looks at the collector's counts.
INTERVAL_MS = 500


class GuiCollector(QObject):
    """Run cyclic collection from a timer on the thread that owns this object."""

    def __init__(self, parent: QObject | None = None, *, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        self._was_enabled = gc.isenabled()
        self._owner = threading.get_ident()
        self.collections = 0

    @property
    def active(self) -> bool:
        return self._timer.isActive()

    def start(self) -> GuiCollector:
        """Turn automatic collection off and collect from the timer instead."""
        if not self.active:
            self._was_enabled = gc.isenabled()
            gc.disable()
            self._timer.start()
        return self

    def stop(self) -> None:
        """Collect what is left, on this thread, and give collection back to Python."""
        if not self.active:
            return
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()

    def check(self) -> None:
        """Collect each generation whose count has passed Python's threshold for it."""
        if threading.get_ident() != self._owner:
            return  # only ever on the thread that made it (the GUI thread)
        counts = gc.get_count()
        thresholds = gc.get_threshold()
        for generation in (2, 1, 0):  # the oldest generation due collects the younger ones too
            if thresholds[generation] and counts[generation] > thresholds[generation]:
                gc.collect(generation)
                self.collections += 1
                return


_installed: GuiCollector | None = None


def install(app: QObject) -> GuiCollector:
    """Collect on the GUI thread for as long as ``app`` (the QApplication) lives."""
    global _installed
    if _installed is None or not shiboken6.isValid(_installed):
        _installed = GuiCollector(app)
    return _installed.start()
