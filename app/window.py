"""Start-up of the window: `sottovoce` with no command.

Wiring only: load the settings, open (or on first run create) the vault, hand
the :class:`~ui.engine.Engine` the factories of :mod:`core.assembly` (the egress
guard as the cloud door, the local model, the assistant), show the window, and
clean up on exit. Models load lazily after the window is shown. With
``--demo-cloud`` the loopback demo cloud starts in the background and this
run's cloud door points at it (the settings file keeps the person's endpoint).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.assembly import CloudFactory, Parts
    from core.detect.base import Detector
    from core.egress import EgressGuard
    from core.settings import Settings
    from core.store import Store

log = logging.getLogger(__name__)

PASSPHRASE_ENV = "SOTTOVOCE_PASSPHRASE"
#: How long a turn waits for the demo cloud to finish starting.
DEMO_START_TIMEOUT_S = 180.0


@dataclass
class Started:
    """A running window and what to clean up after it."""

    app: Any
    window: Any
    engine: Any
    cleanup: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for fn in reversed(self.cleanup):
            try:
                fn()
            except Exception:  # cleanup must not mask the exit status
                log.warning("cleanup step failed", exc_info=True)
        self.cleanup.clear()


def make_cloud_factory(endpoint: Future[tuple[str, str]] | None = None) -> CloudFactory:
    """A factory of the cloud door (the egress guard) for settings, store and detector.

    ``endpoint`` (the demo cloud, starting in the background) replaces the
    settings' base URL and model for this run only; a turn waits for it.
    """
    from core.assembly import make_cloud_door

    def factory(settings: Settings, store: Store, detector: Detector | None = None) -> EgressGuard:
        s = settings
        if endpoint is not None:
            base_url, model = endpoint.result(timeout=DEMO_START_TIMEOUT_S)
            s = settings.model_copy(update={"cloud_base_url": base_url, "cloud_model": model})
        return make_cloud_door(s, store, detector)

    return factory


def make_parts(endpoint: Future[tuple[str, str]] | None = None) -> Parts:
    """The window's parts: the real ones of :mod:`core.assembly`, the cloud door
    pointed at ``endpoint`` when it is given (see :func:`make_cloud_factory`)."""
    from core.assembly import Parts

    return Parts(cloud=make_cloud_factory(endpoint))


class DemoCloudStarter:
    """Starts the loopback demo cloud on a thread; ``endpoint`` resolves when it answers."""

    def __init__(self) -> None:
        self.endpoint: Future[tuple[str, str]] = Future()
        self._demo: Any = None
        self._thread = threading.Thread(target=self._run, name="demo-cloud", daemon=True)

    def start(self) -> DemoCloudStarter:
        self._thread.start()
        return self

    def _run(self) -> None:
        from core.llm.demo import DemoCloud

        try:
            demo = DemoCloud()
            self._demo = demo
            demo.start()
            self.endpoint.set_result((demo.base_url, demo.model))
        except BaseException as exc:  # delivered to the turn that waits for it
            self.endpoint.set_exception(exc)

    def stop(self) -> None:
        self._thread.join(timeout=DEMO_START_TIMEOUT_S)
        if self._demo is not None:
            self._demo.stop()


def _shipped_icon() -> Any:
    """The application icon file as a QIcon when this copy ships one (bundle, source tree)."""
    from PySide6.QtGui import QIcon

    from app.bundle import icon_file

    path = icon_file()
    return QIcon(str(path)) if path is not None else None


def start(args: argparse.Namespace, *, app: Any = None) -> Started | None:
    """Build and show the window; None when the person cancelled the vault dialog."""
    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication

    from core.settings import Settings
    from ui import collector
    from ui.engine import Engine
    from ui.errors import install_excepthooks, report
    from ui.main_window import MainWindow
    from ui.theme import apply_style
    from ui.vault_dialog import open_vault

    app = app or QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Sottovoce")
    app.setOrganizationName("Sottovoce")
    app.setDesktopFileName("sottovoce")
    apply_style(app)
    icon = _shipped_icon()  # the installers' icon; else the shield apply_style painted
    if icon is not None:
        app.setWindowIcon(icon)
    install_excepthooks()
    collector.install(app)  # cyclic garbage is freed on this thread, never on a worker

    settings = Settings.load()
    from app.vault import take_env_passphrase

    # Read once and removed from the environment: child processes inherit it.
    scripted_passphrase = take_env_passphrase()
    try:
        opened: list[Store | None] = []
        asking = open_vault(passphrase=scripted_passphrase, done=opened.append)
        if asking is not None:  # the vault dialog: start-up waits here until it is answered
            waiting = QEventLoop()
            asking.finished.connect(waiting.quit)
            waiting.exec()
        store = opened[0] if opened else None
    except Exception as exc:
        box = report(exc)
        if box is not None:
            box.finished.connect(app.quit)
            app.exec()  # let the person read why the vault did not open
        return None
    if store is None:
        return None
    started = Started(app, None, None, [store.close])

    from ui.first_run import run_guide, wants_guide

    demo = bool(getattr(args, "window_demo_cloud", False))
    if wants_guide(settings, demo_cloud=demo, scripted=scripted_passphrase is not None):
        # After the vault (the API key may have to live in it): connect a cloud,
        # choose the local model. Settings and key are saved when it finishes.
        chosen: list[Settings] = []
        waiting = QEventLoop()  # start-up waits here until the guide closes
        run_guide(settings, store, done=chosen.append).finished.connect(waiting.quit)
        waiting.exec()
        settings = chosen[0] if chosen else settings

    endpoint: Future[tuple[str, str]] | None = None
    note = ""
    if getattr(args, "window_demo_cloud", False):
        starter = DemoCloudStarter().start()
        started.cleanup.append(starter.stop)
        endpoint = starter.endpoint
        note = "demo cloud on 127.0.0.1"
    engine = Engine(settings, store, make_parts(endpoint))
    window = MainWindow(engine, cloud_note=note)
    if icon is not None:
        window.setWindowIcon(icon)
    # Other apps through the proxy, approved in this window (Privacy menu).
    from app.proxy_server import serve_in_thread
    from ui.proxy_control import ProxyControl

    proxy = ProxyControl(window, engine, serve_in_thread)
    proxy.install(window.privacy_menu)
    started.cleanup.append(proxy.stop)
    if endpoint is not None:
        engine.display_cloud = ("starting…", "127.0.0.1")
        window.watch_demo_cloud(endpoint)
    window.show()
    started.window, started.engine = window, engine
    return started


def run_window(args: argparse.Namespace) -> int:
    """Open the window and run until it closes; the process exit status."""
    from app.display import check

    # Before Qt: its own message for missing xcb libraries names none of them.
    problem = check()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    started = start(args)
    if started is None:
        return 1
    if os.environ.get("SOTTOVOCE_QUIT_WHEN_USABLE") == "1":
        # For start-up benchmarks of a bundle (benchmarks/bench_bundle_startup.py):
        # the first idle moment after the window is shown, say so and quit.
        from PySide6.QtCore import QTimer

        def usable() -> None:
            print("sottovoce: window usable", flush=True)
            started.app.quit()

        QTimer.singleShot(0, usable)
    try:
        return int(started.app.exec())
    finally:
        started.close()
