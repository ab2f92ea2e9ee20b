"""Workers: run slow ``core`` work off the GUI thread and report through signals.

A :class:`Worker` wraps a function or a generator function and runs it on a
:class:`QThreadPool`. It reports only through Qt signals (``started``,
``yielded``, ``returned``, ``errored``, ``finished``), which are delivered on
the GUI thread. A generator is the unit of cancellation: :meth:`Worker.cancel`
sets a :class:`threading.Event` (passed to the function as ``cancel=`` when it
asks for it) and the worker stops at the next ``yield``, so Stop takes effect
per token (superqt's ``thread_worker`` works the same way; ours also closes the
generator so ``finally`` blocks run, and never lets an error vanish).

Every started worker is kept in a registry until its ``finished`` signal has
been delivered, so the window can cancel and wait for all of them on close,
and a test can fail when it leaves one running.
"""

from __future__ import annotations

import functools
import inspect
import logging
import threading
from collections.abc import Callable, Generator
from typing import Any, ClassVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QObject, QRunnable, QThreadPool, Signal

from core.errors import Cancelled

log = logging.getLogger(__name__)


class WorkerSignals(QObject):
    """The signals of one worker; lives on the GUI thread."""

    #: Emitted when the work begins on its pool thread.
    started = Signal()
    #: Emitted with each value a generator yields (a token, a progress step).
    yielded = Signal(object)
    #: Emitted with the return value when the work completes and was not cancelled.
    returned = Signal(object)
    #: Emitted with the exception when the work raised (``Cancelled`` included).
    errored = Signal(object)
    #: Emitted last, always, whether the work completed, failed or was cancelled.
    finished = Signal()


class Worker(QRunnable):
    """One unit of background work. Create it on the GUI thread, then :meth:`start`."""

    _active: ClassVar[set[Worker]] = set()
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(
        self,
        fn: Callable[..., Any],
        *args: Any,
        name: str = "",
        pool: QThreadPool | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python owns the object; the registry keeps it alive.
        self.name = name or getattr(fn, "__name__", "work")
        self.signals = WorkerSignals()
        self.cancel_event = threading.Event()
        self._fn = fn
        self._args = args
        self._kwargs = kwargs
        if "cancel" in inspect.signature(fn).parameters:
            self._kwargs["cancel"] = self.cancel_event
        self._pool = pool or QThreadPool.globalInstance()
        self._done = threading.Event()
        self._error_handled = False
        self.signals.errored.connect(self._check_error_handled)
        self.signals.finished.connect(self._forget)

    # --- control ----------------------------------------------------------

    def start(self) -> Worker:
        """Queue the work on its pool; returns ``self`` for chaining."""
        with Worker._lock:
            Worker._active.add(self)
        self._pool.start(self)
        return self

    def cancel(self) -> None:
        """Ask the work to stop; a generator stops at its next ``yield``."""
        self.cancel_event.set()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    @property
    def done(self) -> bool:
        """True once the work has left its thread (signals may still be queued)."""
        return self._done.is_set()

    def wait(self, msecs: int = -1) -> bool:
        """Block until the work has left its thread; False on timeout."""
        return self._done.wait(None if msecs < 0 else msecs / 1000)

    # --- the thread side --------------------------------------------------

    def run(self) -> None:
        s = self.signals
        try:
            s.started.emit()
            if self.cancelled:
                raise Cancelled()
            result = self._fn(*self._args, **self._kwargs)
            if isinstance(result, Generator):
                result = self._drain(result)
            if self.cancelled:
                raise Cancelled()
            s.returned.emit(result)
        except BaseException as exc:  # reported, never swallowed
            s.errored.emit(exc)
        finally:
            self._done.set()
            s.finished.emit()

    def _drain(self, gen: Generator[Any, Any, Any]) -> Any:
        try:
            while True:
                if self.cancelled:
                    raise Cancelled()
                try:
                    value = next(gen)
                except StopIteration as stop:
                    return stop.value
                self.signals.yielded.emit(value)
        finally:
            gen.close()  # runs the generator's finally blocks on cancel

    # --- the GUI side -----------------------------------------------------

    def on_error(self, handler: Callable[[BaseException], None]) -> Worker:
        """Connect an error handler; without one, errors go to :func:`ui.errors.report`."""
        self._error_handled = True
        self.signals.errored.connect(handler)
        return self

    def _check_error_handled(self, exc: BaseException) -> None:
        if not self._error_handled:
            from ui.errors import report

            report(exc)

    def _forget(self) -> None:
        with Worker._lock:
            Worker._active.discard(self)

    # --- the registry -----------------------------------------------------

    @classmethod
    def active(cls) -> list[Worker]:
        """Workers started and not yet finished (as seen by the GUI thread)."""
        with cls._lock:
            return list(cls._active)

    @classmethod
    def cancel_all(cls) -> None:
        for w in cls.active():
            w.cancel()

    @classmethod
    def wait_all(cls, msecs: int = 5000) -> bool:
        """Wait for every active worker to leave its thread and deliver its signals.

        Returns False if some are still running after ``msecs``. Call from the
        GUI thread: queued signals are processed while waiting.
        """
        deadline = QDeadlineTimer(msecs)
        while cls.active():
            pending = [w for w in cls.active() if not w.done]
            for w in pending:
                w.wait(min(20, max(1, deadline.remainingTime())))
            QCoreApplication.processEvents()
            if deadline.hasExpired():
                return not cls.active()
        return True


def run_in_thread(
    fn: Callable[..., Any],
    *args: Any,
    on_yield: Callable[[Any], None] | None = None,
    on_return: Callable[[Any], None] | None = None,
    on_error: Callable[[BaseException], None] | None = None,
    on_finish: Callable[[], None] | None = None,
    pool: QThreadPool | None = None,
    name: str = "",
    **kwargs: Any,
) -> Worker:
    """Create, connect and start a :class:`Worker` in one call."""
    w = Worker(fn, *args, name=name, pool=pool, **kwargs)
    if on_yield:
        w.signals.yielded.connect(on_yield)
    if on_return:
        w.signals.returned.connect(on_return)
    if on_error:
        w.on_error(on_error)
    if on_finish:
        w.signals.finished.connect(on_finish)
    return w.start()


def serial_pool(name: str) -> QThreadPool:
    """A pool with one thread: for resources that are not thread-safe (a llama
    context, the analysis models) the work runs one at a time, in order."""
    pool = QThreadPool()
    pool.setMaxThreadCount(1)
    pool.setObjectName(name)
    return pool


class LatestOnly(QObject):
    """Runs one request at a time; a new request replaces the one waiting and
    cancels the one running, and only the newest request's result is delivered.

    This is the debounced live analysis of the editor (Orange's
    ``ConcurrentMixin``): ``fn`` is a pure function of the request; a stale
    result is dropped, never shown. A generator ``fn`` may yield early partial
    answers (``partial``) before it returns the result.
    """

    #: Emitted with ``(request, result)`` for the newest request only.
    result = Signal(object, object)
    #: Emitted with ``(request, value)`` for each value the newest request's
    #: generator yields before its result (an early, partial answer).
    partial = Signal(object, object)
    #: Emitted with ``(request, exception)`` when the newest request failed.
    failed = Signal(object, object)
    #: Emitted with True when work starts and False when nothing is in flight.
    busy = Signal(bool)

    def __init__(
        self,
        fn: Callable[[Any], Any],
        pool: QThreadPool | None = None,
        parent: QObject | None = None,
        *,
        name: str = "analysis",
    ) -> None:
        super().__init__(parent)
        self._fn = fn
        self._pool = pool
        self._name = name
        self._generation = 0
        self._running: Worker | None = None
        self._pending: tuple[int, Any] | None = None

    @property
    def generation(self) -> int:
        return self._generation

    def submit(self, request: Any) -> int:
        """Ask for ``request``; returns its generation number."""
        self._generation += 1
        self._pending = (self._generation, request)
        if self._running is not None:
            self._running.cancel()
        else:
            self._start_pending()
        return self._generation

    def cancel(self) -> None:
        """Drop the waiting request and cancel the running one."""
        self._generation += 1
        self._pending = None
        if self._running is not None:
            self._running.cancel()

    def _start_pending(self) -> None:
        if self._pending is None:
            self.busy.emit(False)
            return
        gen, request = self._pending
        self._pending = None
        self.busy.emit(True)
        w = Worker(self._fn, request, name=self._name, pool=self._pool)
        w.signals.yielded.connect(functools.partial(self._deliver_partial, gen, request))
        w.signals.returned.connect(functools.partial(self._deliver, gen, request))
        w.on_error(functools.partial(self._fail, gen, request))
        w.signals.finished.connect(self._finished)
        self._running = w
        w.start()

    def _current(self, gen: int) -> bool:
        # A result that arrives after the widget that owns this runner was deleted
        # (its window closed while the work ran) has no one to go to.
        return gen == self._generation and shiboken6.isValid(self)

    def _deliver_partial(self, gen: int, request: Any, value: Any) -> None:
        if self._current(gen):
            self.partial.emit(request, value)

    def _deliver(self, gen: int, request: Any, res: Any) -> None:
        if self._current(gen):
            self.result.emit(request, res)

    def _fail(self, gen: int, request: Any, exc: BaseException) -> None:
        if self._current(gen) and not isinstance(exc, Cancelled):
            self.failed.emit(request, exc)

    def _finished(self) -> None:
        self._running = None
        if shiboken6.isValid(self):
            self._start_pending()
