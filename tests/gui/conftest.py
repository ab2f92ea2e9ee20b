"""Fixtures of the GUI tests: offscreen Qt, a real store, small fakes for the models.

Every GUI test fails if it leaves a worker running: the ``no_leftover_workers``
fixture waits for the workers a test started and fails the test when some are
still running after a grace period (then cancels them so the next test starts
clean). Error boxes and dialogs left open are closed. As in the app, cyclic
garbage is collected on the GUI thread only during a test (``ui.collector``).

No wait of these tests says how fast something must happen: every wait only
bounds a hang. The ``qtbot`` here is pytest-qt's, with its waits
(``waitUntil``, ``waitSignal``, ``waitSignals``, ``waitCallback``,
``waitActive``, ``waitExposed``) given at least ``HANG_MS`` before they fail,
whatever timeout a test names: on a busy machine (two cores shared with a
build) a worker can take seconds. Threads the tests hold wait ``HANG_S``.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from core.analyze import Analyzer
from core.detect.base import Detector
from core.detect.rules import RulesView
from core.errors import CloudServerError
from core.router.base import RouteInput
from core.settings import Settings
from core.store import Store
from ui.collector import GuiCollector
from ui.collector import install as install_collector
from ui.workers import Worker

#: Milliseconds any wait of a GUI test may take before it counts as a hang.
HANG_MS = 120_000
HANG_S = HANG_MS / 1000
GRACE_MS = HANG_MS  # for the workers a test started to end after it


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.gui)


def leftover_workers(grace_ms: int = GRACE_MS) -> list[str]:
    """Names of workers still running after ``grace_ms`` (signals are processed meanwhile)."""
    deadline = time.monotonic() + grace_ms / 1000
    while Worker.active() and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.01)
    return sorted(w.name for w in Worker.active())


_WAITS = ("waitUntil", "waitSignal", "waitSignals", "waitCallback", "waitActive", "waitExposed")


@pytest.fixture
def qtbot(qtbot: Any) -> Any:
    """pytest-qt's qtbot, whose waits fail only after ``HANG_MS`` at least."""
    for name in _WAITS:
        wait = getattr(qtbot, name)

        @functools.wraps(wait)
        def patient(*args: Any, _wait: Any = wait, timeout: int | None = None, **kw: Any) -> Any:
            return _wait(*args, timeout=max(timeout or 0, HANG_MS), **kw)

        setattr(qtbot, name, patient)
    return qtbot


@pytest.fixture(autouse=True)
def gui_thread_collector(qapp: QApplication) -> Iterator[GuiCollector]:
    """Cyclic garbage is collected on the GUI thread only, as in the app; after the
    test (its workers gone) what is left is collected here and Python collects again."""
    collector = install_collector(qapp)
    yield collector
    collector.stop()


@pytest.fixture(autouse=True)
def no_leftover_workers(qapp: QApplication, gui_thread_collector: GuiCollector) -> Iterator[None]:
    """Fail a test that leaves work running; close what it left open."""
    yield
    left = leftover_workers()
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QMessageBox | QDialog) and w.isVisible():
            w.close()
    if left:
        Worker.cancel_all()
        Worker.wait_all(GRACE_MS)
        pytest.fail(f"the test left workers running: {', '.join(left)}")


class LambdaRouter:
    """Routes sentences with entities remote only at a low lambda (a stand-in for the
    learned policy, so the slider has something to change)."""

    name = "lambda-test"

    def route(self, query: RouteInput) -> list[float]:
        return [
            (0.8 if query.risk_lambda < 3 else 0.1) if ents else 0.95 for ents in query.entities
        ]


@pytest.fixture(scope="session")
def analyzer(segmenter: Any) -> Analyzer:
    """The real segmenter and rules view (fast, deterministic), heuristic router."""
    a = Analyzer(segmenter, Detector([RulesView()]))
    a.analyze("Warm up on 3 May, call 215-555-4078.")  # load the models outside any timeout
    return a


@pytest.fixture(scope="session")
def lambda_analyzer(analyzer: Analyzer) -> Analyzer:
    return Analyzer(analyzer.segmenter, analyzer.detector, LambdaRouter())


class FakeCloud:
    """A cloud door that records what it received and streams a canned answer.

    The default answer repeats the placeholders it saw, so the restored answer
    holds the private values; ``fail`` raises a cloud error; ``delay`` slows
    each chunk; ``hold_after`` chunks sent, it waits for the turn to be stopped
    before the next (so Stop lands mid-answer on any machine).
    """

    endpoint = "http://127.0.0.1:9/v1/chat/completions"
    model = "fake-model"

    def __init__(self) -> None:
        self.received: list[list[dict[str, str]]] = []
        self.approved: list[str | None] = []  # the digest each payload was approved with
        self.answer: str | None = None
        self.fail = False
        self.fail_after = 0  # chunks before the failure
        self.delay = 0.0
        self.hold_after: int | None = None
        self.started = threading.Event()

    def stream(self, messages: Sequence[dict[str, str]], **kw: Any) -> Iterator[str]:
        self.received.append([dict(m) for m in messages])
        self.approved.append(kw.get("approved"))
        self.started.set()
        import re

        user = messages[-1]["content"]
        answer = self.answer
        if answer is None:
            phs = re.findall(r"\[[A-Z_]+_\d+\]", user)
            answer = (
                "Noted: " + ", ".join(phs) + ". Drink water and rest." if phs else "Drink water."
            )
        cancel = kw.get("cancel")
        for i in range(0, len(answer), 4):
            if self.fail and i >= self.fail_after * 4:
                raise CloudServerError("The cloud model failed (HTTP 500) and retries ran out.")
            if self.delay:
                time.sleep(self.delay)
            if self.hold_after is not None and i // 4 >= self.hold_after and cancel is not None:
                cancel.wait(HANG_S)
            if cancel is not None and cancel.is_set():
                from core.errors import Cancelled

                raise Cancelled()
            yield answer[i : i + 4]
        if self.fail:
            raise CloudServerError("The cloud model failed (HTTP 500) and retries ran out.")


@pytest.fixture
def cloud() -> FakeCloud:
    return FakeCloud()


@pytest.fixture
def make_engine(store: Store, cloud: FakeCloud, analyzer: Analyzer) -> Callable[..., Any]:
    from core.assembly import Parts
    from ui.engine import Engine

    def make(analyzer_: Analyzer | None = None, **settings: Any) -> Engine:
        parts = Parts(
            analyzer=lambda s: analyzer_ or analyzer, cloud=lambda s, st, det: cloud, local=None
        )
        return Engine(Settings(**settings), store, parts)

    return make


@pytest.fixture
def window(qtbot: Any, make_engine: Callable[..., Any]) -> Iterator[Any]:
    """The main window over a real store, the rules analyzer and the fake cloud."""
    from ui.main_window import MainWindow

    w = MainWindow(make_engine(chat_integration="pass_through"), load_models=False)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()


def wait_analysis(qtbot: Any, editor: Any, timeout: int = HANG_MS) -> Any:
    """Wait until the editor shows the analysis of exactly its text."""
    qtbot.waitUntil(lambda: editor.analysis is not None, timeout=timeout)
    return editor.analysis


def find_dialog(kind: type) -> Any:
    for w in QApplication.topLevelWidgets():
        if isinstance(w, kind) and w.isVisible():
            return w
    return None


def wait_dialog(qtbot: Any, kind: type, timeout: int = HANG_MS) -> Any:
    """The dialog of ``kind`` once it shows (dialogs open without blocking)."""
    qtbot.waitUntil(lambda: find_dialog(kind) is not None, timeout=timeout)
    return find_dialog(kind)


def wait_revised(qtbot: Any, dialog: Any, timeout: int = HANG_MS) -> None:
    """Wait until the approval view shows the payload of its current toggles."""
    qtbot.waitUntil(lambda: not dialog.busy, timeout=timeout)
    assert dialog.send_btn.isEnabled()


def on_dialog(kind: type, callback: Callable[[Any], None]) -> QTimer:
    """Run ``callback(dialog)`` as soon as a dialog of ``kind`` shows (from a
    timer: the test may be waiting for a signal meanwhile)."""
    timer = QTimer()
    timer.setInterval(20)

    def tick() -> None:
        d = find_dialog(kind)
        if d is not None:
            timer.stop()
            callback(d)

    timer.timeout.connect(tick)
    timer.start()
    return timer
