"""Start-up of the window: `sottovoce` with no command.

Wiring only: load the settings, open (or on first run create) the vault, build
the :class:`~ui.engine.Engine` with the real local model and cloud door
factories, optionally start the loopback demo cloud, show the window, and
clean up on exit. Models load lazily after the window is shown.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

PASSPHRASE_ENV = "SOTTOVOCE_PASSPHRASE"


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


def local_factory(settings: Any) -> Any:
    """The local model the settings describe (the embedded SmolLM2 by default)."""
    from core.llm.local import LocalModel

    return LocalModel.from_settings(settings)


def make_cloud_factory(
    base_url: str | None = None, model: str | None = None
) -> Callable[[Any, Any], Any]:
    """A factory of the cloud door (the egress guard) for the settings and the store.

    ``base_url`` / ``model`` replace the settings' endpoint for this run only
    (the demo cloud); the settings file is not changed.
    """

    def factory(settings: Any, store: Any) -> Any:
        from core.defaults import default_cloud_door

        s = settings
        if base_url is not None or model is not None:
            s = settings.model_copy(
                update={
                    "cloud_base_url": base_url or settings.cloud_base_url,
                    "cloud_model": model or settings.cloud_model,
                }
            )
        return default_cloud_door(s, store)

    return factory


def start_demo_cloud() -> tuple[str, str, Callable[[], None]]:
    """Start the loopback demo cloud; returns (base URL, model name, stop)."""
    from core.llm.demo import DemoCloud

    demo = DemoCloud()
    demo.start()
    return demo.base_url, demo.model, demo.stop


def start(args: argparse.Namespace, *, app: Any = None) -> Started | None:
    """Build and show the window; None when the person cancelled the vault dialog."""
    from PySide6.QtWidgets import QApplication

    from core.settings import Settings
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
    install_excepthooks()

    settings = Settings.load()
    try:
        store = open_vault(passphrase=os.environ.get(PASSPHRASE_ENV))
    except Exception as exc:
        report(exc)
        app.exec()  # let the person read the message
        return None
    if store is None:
        return None
    started = Started(app, None, None, [store.close])

    base_url = model = None
    note = ""
    if getattr(args, "window_demo_cloud", False) or getattr(args, "demo_cloud", False):
        try:
            base_url, model, stop = start_demo_cloud()
            started.cleanup.append(stop)
            note = "demo, loopback"
        except Exception as exc:
            report(exc)
    engine = Engine(
        settings,
        store,
        cloud_factory=make_cloud_factory(base_url, model),
        local_factory=local_factory,
    )
    if base_url is not None:
        # Shown in the status bar; the settings file keeps the person's endpoint.
        engine.display_cloud = (model, base_url)
    window = MainWindow(engine, cloud_note=note)
    window.show()
    started.window, started.engine = window, engine
    return started


def run_window(args: argparse.Namespace) -> int:
    """Open the window and run until it closes; the process exit status."""
    started = start(args)
    if started is None:
        return 1
    try:
        return int(started.app.exec())
    finally:
        started.close()
