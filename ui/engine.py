"""The core objects the window drives, built lazily from the settings.

:class:`Engine` holds the person's :class:`~core.settings.Settings`, the open
:class:`~core.store.Store`, and builds, on first use and off the GUI thread,
the :class:`~core.analyze.Analyzer` (the editor's live analysis) and the
:class:`~core.pipeline.Assistant` (turns). Parts are injected (tests pass
fakes; ``app.window`` passes the real cloud door and local model factories);
nothing here decides anything about privacy.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from core.analyze import Analysis, Analyzer
from core.settings import Settings
from core.store import Store

log = logging.getLogger(__name__)

#: Builds the egress guard (the cloud door) for the settings and store; may raise.
CloudFactory = Callable[[Settings, Store], Any]
#: Builds the local model for the settings; may raise ModelLoadError.
LocalFactory = Callable[[Settings], Any]

# Fields whose change means the detector must be rebuilt (models are kept).
_DETECT_FIELDS = {
    "allow_list",
    "deny_list",
    "detect_min_score",
    "fusion_single_view_min",
    "agent_view",
}
_LOCAL_FIELDS = {"local_model_path", "n_gpu_layers", "n_ctx", "n_threads"}
_CLOUD_FIELDS = {"cloud_base_url", "cloud_model", "cloud_timeout_s", "cloud_max_retries"}


@dataclass(frozen=True)
class Progress:
    """One step of loading, for the status bar."""

    label: str
    step: int
    total: int


class Engine:
    """Lazily built core parts for one window. Thread-safe construction."""

    def __init__(
        self,
        settings: Settings,
        store: Store | None,
        *,
        analyzer: Analyzer | None = None,
        cloud_factory: CloudFactory | None = None,
        local_factory: LocalFactory | None = None,
        save_settings: bool = True,
    ) -> None:
        self.settings = settings
        self.store = store
        self._analyzer = analyzer
        self._cloud_factory = cloud_factory
        self._local_factory = local_factory
        self._save = save_settings
        self._assistant: Any | None = None
        self._local: Any | None = None
        self._cloud: Any | None = None
        self._lock = threading.RLock()
        #: (model, base URL) shown instead of the settings' endpoint (the demo cloud).
        self.display_cloud: tuple[str, str] | None = None
        #: Called (GUI thread) after settings changed; the window re-analyses.
        self.on_settings_changed: list[Callable[[Settings], None]] = []

    # --- parts ------------------------------------------------------------

    def analyzer(self) -> Analyzer:
        with self._lock:
            if self._analyzer is None:
                from core.defaults import default_detector, default_router

                self._analyzer = Analyzer(
                    detector=default_detector(self.settings), router=default_router(self.settings)
                )
            return self._analyzer

    def analyze(self, text: str, risk_lambda: float) -> Analysis:
        """The editor's live analysis (runs in a worker)."""
        return self.analyzer().analyze(text, risk_lambda)

    def local_model(self) -> Any | None:
        with self._lock:
            if self._local is None and self._local_factory is not None:
                self._local = self._local_factory(self.settings)
            return self._local

    def cloud_door(self) -> Any | None:
        with self._lock:
            if self._cloud is None and self._cloud_factory is not None and self.store is not None:
                self._cloud = self._cloud_factory(self.settings, self.store)
            return self._cloud

    def assistant(self) -> Any:
        """The turn pipeline; builds the cloud door and the local model on first use."""
        from core.pipeline import Assistant

        with self._lock:
            if self._assistant is None:
                if self.store is None:
                    from core.errors import VaultLockedError

                    raise VaultLockedError("The vault is not open.")
                self._assistant = Assistant(
                    self.settings,
                    self.store,
                    cloud=self.cloud_door(),
                    local=self.local_model(),
                    analyzer=self.analyzer(),
                )
            return self._assistant

    @property
    def has_local_factory(self) -> bool:
        return self._local_factory is not None

    # --- loading ----------------------------------------------------------

    def warm_up(self, include_local: bool = True) -> Iterator[Progress]:
        """Load the models one by one (a generator: run it in a worker)."""
        steps: list[tuple[str, Callable[[], object]]] = [
            ("Loading the sentence splitter", lambda: self.analyzer().segmenter.nlp),
            ("Loading the privacy detectors", self._warm_detector),
        ]
        if include_local and self._local_factory is not None:
            steps.append(("Loading the local model", self.local_model))
        total = len(steps)
        for i, (label, fn) in enumerate(steps):
            yield Progress(label, i, total)
            fn()
        yield Progress("Ready", total, total)

    def _warm_detector(self) -> None:
        # One tiny analysis loads every view's model (spaCy NER, Presidio patterns).
        self.analyzer().analyze("Warm-up for Anna on 3 May.", self.settings.risk_lambda)

    # --- settings ---------------------------------------------------------

    def update_settings(self, new: Settings) -> None:
        """Adopt ``new`` (save it) and drop the parts it invalidates (GUI thread)."""
        old = self.settings
        changed = {
            name for name in Settings.model_fields if getattr(old, name) != getattr(new, name)
        }
        with self._lock:
            # Mutate in place: the Assistant and the window hold this object.
            for name in changed:
                setattr(self.settings, name, getattr(new, name))
            if changed & _DETECT_FIELDS and self._analyzer is not None:
                self._rebuild_detector()
            if changed & _LOCAL_FIELDS:
                self._local = None
                self._assistant = None
            if changed & _CLOUD_FIELDS:
                self._cloud = None
                self._assistant = None
        if self._save:
            self.settings.save()
        for cb in list(self.on_settings_changed):
            cb(self.settings)

    def reset_cloud(self) -> None:
        """Forget the cloud door (a new API key or endpoint is used next time)."""
        with self._lock:
            self._cloud = None
            self._assistant = None

    def _rebuild_detector(self) -> None:
        from core.detect.base import Detector

        assert self._analyzer is not None
        old = self._analyzer.detector
        # Keep the loaded views (their models are slow to load); only the
        # lists and thresholds change.
        self._analyzer.detector = Detector(
            old.views,
            allow=self.settings.allow_list,
            deny=self.settings.deny_list,
            min_score=self.settings.detect_min_score,
        )
