"""Workers and the error boundary: cancellation per yield, errors never vanish."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from core.errors import Cancelled, CloudUnauthorized, SottovoceError
from ui.errors import describe, error_boxes, install_excepthooks, report, uninstall_excepthooks
from ui.workers import LatestOnly, Worker, run_in_thread

from .conftest import HANG_MS, HANG_S, leftover_workers


def test_a_generator_stops_at_the_next_yield_and_runs_its_finally(qtbot: Any) -> None:
    cleaned = threading.Event()
    gate = threading.Event()

    def tokens(cancel: threading.Event) -> Any:
        try:
            for i in range(10_000):
                gate.wait(1)
                if i == 3:
                    # The rest only once the test has cancelled: on a busy machine
                    # the generator could otherwise run to its end first.
                    cancel.wait(HANG_S)
                yield i
        finally:
            cleaned.set()

    seen: list[int] = []
    errors: list[BaseException] = []
    w = run_in_thread(tokens, on_yield=seen.append, on_error=errors.append)
    gate.set()
    qtbot.waitUntil(lambda: len(seen) >= 3, timeout=5000)
    w.cancel()
    assert Worker.wait_all(HANG_MS)
    assert cleaned.is_set() and isinstance(errors[0], Cancelled)
    assert len(seen) < 10_000


def test_an_error_without_a_handler_reaches_the_person(qtbot: Any) -> None:
    def boom() -> None:
        raise CloudUnauthorized("The endpoint rejected the API key.", hint="check it in Settings")

    run_in_thread(boom)
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=5000)
    box = error_boxes()[0]
    assert (
        "rejected the API key" in box.informativeText()
        and "check it in Settings" in box.informativeText()
    )
    box.close()


def test_cancelled_work_is_silent(qtbot: Any) -> None:
    assert report(Cancelled()) is None
    assert error_boxes() == []


@pytest.mark.parametrize(
    ("exc", "title", "expected"),
    [
        (SottovoceError("Plain message."), "Sottovoce", True),
        (CloudUnauthorized("Key refused."), "The cloud model is not available", True),
        (ValueError("secret value 123"), "Something went wrong", False),
    ],
)
def test_describe(exc: BaseException, title: str, expected: bool) -> None:
    d = describe(exc)
    assert (d.title, d.expected) == (title, expected)
    if not expected:
        assert "secret value" not in d.text  # only in the folded details
        assert d.details is not None


def test_uncaught_exceptions_in_threads_reach_the_person(qtbot: Any) -> None:
    install_excepthooks()
    try:
        t = threading.Thread(target=lambda: 1 / 0)
        t.start()
        t.join()
        qtbot.waitUntil(lambda: bool(error_boxes()), timeout=5000)
        assert "ZeroDivisionError" in error_boxes()[0].informativeText()
    finally:
        uninstall_excepthooks()
        for b in error_boxes():
            b.close()


def test_latest_only_delivers_only_the_newest_result(qtbot: Any) -> None:
    release = threading.Event()

    def work(n: int) -> int:
        if n == 0:
            release.wait(HANG_S)
        return n

    runner = LatestOnly(work)
    got: list[tuple[int, int]] = []
    runner.result.connect(lambda req, res: got.append((req, res)))
    for n in range(4):
        runner.submit(n)
    release.set()
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    assert Worker.wait_all(HANG_MS)
    assert got == [(3, 3)]


def test_a_result_after_its_owner_was_deleted_goes_nowhere(qtbot: Any) -> None:
    """A window closed while its analysis ran: the result arrives for a runner whose Qt
    object is gone, and is dropped ("Signal source has been deleted" before)."""
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QObject

    release = threading.Event()
    owner = QObject()
    runner = LatestOnly(lambda n: release.wait(HANG_S) and n, parent=owner)
    runner.submit(1)
    shiboken6.delete(owner)  # the runner's C++ side goes with its parent
    assert not shiboken6.isValid(runner)
    release.set()
    assert Worker.wait_all(HANG_MS)
    QCoreApplication.processEvents()  # the queued result is delivered, and dropped


def test_the_teardown_check_reports_a_worker_left_running(qtbot: Any) -> None:
    release = threading.Event()
    run_in_thread(lambda: release.wait(HANG_S), name="stuck")
    try:
        assert leftover_workers(grace_ms=200) == ["stuck"]
    finally:
        release.set()
        assert Worker.wait_all(HANG_MS)
    assert leftover_workers(grace_ms=200) == []
