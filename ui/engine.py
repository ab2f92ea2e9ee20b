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
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

from core.analyze import Analysis, Analyzer, check_text
from core.settings import Settings
from core.spans import Span
from core.store import Store

log = logging.getLogger(__name__)

#: Builds the egress guard (the cloud door) for the settings, the store (its
#: ledger) and the detector it re-scans with; may raise.
CloudFactory = Callable[[Settings, Store, Any], Any]
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


_PARAGRAPH = re.compile(r"\n[ \t]*\n")


class ParagraphCache:
    """A detector that runs its inner detector paragraph by paragraph, with a cache.

    While the person types, only the paragraph being edited changes, so only
    it is detected again; the others come from the cache with their offsets
    moved. Paragraphs are cut at blank lines, which no sentence crosses (the
    segmenter ends a block there too). Everything else (segmentation, routing
    over the whole text) is the core's, unchanged.
    """

    def __init__(self, inner: Any, size: int = 256) -> None:
        self.inner = inner
        self.views = getattr(inner, "views", [])
        self._cache: OrderedDict[str, list[Span]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def analyze(self, text: str) -> list[Span]:
        out: list[Span] = []
        start = 0
        for m in [*_PARAGRAPH.finditer(text), None]:
            end = m.start() if m is not None else len(text)
            if text[start:end].strip():
                for s in self._paragraph(text[start:end]):
                    out.append(Span(s.start + start, s.end + start, s.type, s.score, dict(s.views)))
            if m is not None:
                start = m.end()
        return out

    def _paragraph(self, para: str) -> list[Span]:
        with self._lock:
            hit = self._cache.get(para)
            if hit is not None:
                self._cache.move_to_end(para)
                return hit
        spans = list(self.inner.analyze(para))
        with self._lock:
            self._cache[para] = spans
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
        return spans


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
        self._live: Analyzer | None = None
        self._detector_stale = False
        self._local: Any | None = None
        self._cloud: Any | None = None
        self._lock = threading.RLock()
        #: (model, base URL) shown instead of the settings' endpoint (the demo cloud).
        self.display_cloud: tuple[str, str] | None = None
        #: Called (GUI thread) after settings changed; the window re-analyses.
        self.on_settings_changed: list[Callable[[Settings], None]] = []

    # --- parts ------------------------------------------------------------

    def analyzer(self) -> Analyzer:
        """The analyzer of turns (built on first use; call from a worker)."""
        from core.defaults import default_detector, default_router

        with self._lock:
            if self._analyzer is None:
                self._analyzer = Analyzer(
                    detector=default_detector(self.settings), router=default_router(self.settings)
                )
            elif self._detector_stale:
                self._analyzer.detector = default_detector(self.settings)
                self._live = None
            self._detector_stale = False
            return self._analyzer

    def analyze(self, text: str, risk_lambda: float) -> Analysis:
        """The editor's live analysis (runs in a worker): the same segmenter,
        detector and router, the detector behind a :class:`ParagraphCache`."""
        return self._live_analyzer().analyze(text, risk_lambda)

    def _live_analyzer(self) -> Analyzer:
        base = self.analyzer()
        with self._lock:
            if self._live is None or self._live.router is not base.router:
                # The Analyzer only calls ``detector.analyze(text)``: duck-typed.
                cache: Any = ParagraphCache(base.detector)
                self._live = Analyzer(base.segmenter, cache, base.router)
            return self._live

    def analyze_staged(
        self, text: str, risk_lambda: float
    ) -> Generator[list[Span], None, Analysis]:
        """:meth:`analyze` in two steps for the editor: yields the detected spans
        (the editor marks them at once), then returns the routed analysis, whose
        detection comes from the same paragraph cache and costs nothing again."""
        live = self._live_analyzer()
        check_text(text)
        yield list(live.detector.analyze(text))
        return live.analyze(text, risk_lambda)

    def local_model(self) -> Any | None:
        with self._lock:
            if self._local is None and self._local_factory is not None:
                self._local = self._local_factory(self.settings)
            return self._local

    def cloud_door(self) -> Any | None:
        with self._lock:
            if self._cloud is None and self._cloud_factory is not None and self.store is not None:
                self._cloud = self._cloud_factory(
                    self.settings, self.store, self.analyzer().detector
                )
            return self._cloud

    def assistant(self) -> Any:
        """The turn pipeline; builds the cloud door and the local model on first use."""
        from core.gama import PublicSpace
        from core.pipeline import Assistant

        with self._lock:
            if self._assistant is None:
                if self.store is None:
                    from core.errors import VaultLockedError

                    raise VaultLockedError("The vault is not open.")
                door = self.cloud_door()
                self._assistant = Assistant(
                    self.settings,
                    self.store,
                    cloud=door,
                    local=self.local_model(),
                    analyzer=self.analyzer(),
                    # GAMA's public space runs only when a toggle in the settings is on.
                    public_space=PublicSpace(self.settings, door) if door is not None else None,
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
            if changed & _DETECT_FIELDS:
                # Rebuilt on next use, in a worker: the new lists and thresholds apply.
                self._detector_stale = True
                self._live = None
                self._cloud = None  # the door re-scans with the detector
                self._assistant = None
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
