"""Cyclic garbage is freed on the GUI thread, never on a worker (a Qt object freed
from a pool thread crashes Qt)."""

from __future__ import annotations

import gc
import threading
from typing import Any, ClassVar

from ui.collector import GuiCollector
from ui.workers import Worker, run_in_thread

from .conftest import HANG_MS


class _Cycle:
    """An object only the cyclic collector frees; says on which thread it was freed."""

    freed_on: ClassVar[list[int]] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _Cycle.freed_on.append(threading.get_ident())


def test_cycles_dropped_on_a_worker_are_freed_on_the_gui_thread(
    qtbot: Any, gui_thread_collector: GuiCollector
) -> None:
    _Cycle.freed_on.clear()
    gc.collect()

    def churn() -> int:
        # Far past the youngest generation's threshold (700): with automatic
        # collection on, the worker itself would collect several times here.
        for _ in range(20_000):
            _Cycle()
        return threading.get_ident()

    worker_ids: list[int] = []
    run_in_thread(churn, on_return=worker_ids.append)
    assert Worker.wait_all(HANG_MS)
    assert worker_ids and worker_ids[0] != threading.get_ident()
    qtbot.waitUntil(lambda: len(_Cycle.freed_on) >= 20_000)  # the timer's collections
    assert set(_Cycle.freed_on) == {threading.get_ident()}
    assert gui_thread_collector.collections > 0


def test_the_collector_gives_collection_back_when_it_stops(
    gui_thread_collector: GuiCollector,
) -> None:
    assert gui_thread_collector.active and not gc.isenabled()
    gui_thread_collector.stop()
    assert gc.isenabled() and not gui_thread_collector.active
    gui_thread_collector.start()
    assert not gc.isenabled()


def test_a_check_from_another_thread_collects_nothing(qapp: Any) -> None:
    collector = GuiCollector(qapp)
    thresholds = gc.get_threshold()
    try:
        gc.set_threshold(1, 1, 1)
        for _ in range(10):
            _Cycle()
        t = threading.Thread(target=collector.check)
        t.start()
        t.join()
        assert collector.collections == 0
        collector.check()
        assert collector.collections == 1
    finally:
        gc.set_threshold(*thresholds)
        collector.deleteLater()
