"""The core objects the window drives, built lazily from the settings.

:class:`Engine` holds the person's :class:`~core.settings.Settings`, the open
:class:`~core.store.Store`, and :class:`Parts`, the factories ``app`` hands it
(``core.assembly.Parts``; tests pass fakes). Through them it builds, on first
use and off the GUI thread, the :class:`~core.analyze.Analyzer` (the editor's
live analysis) and the :class:`~core.turn.Assistant` (turns). It builds no
core part itself and decides nothing about privacy; which part a settings
change rebuilds is declared beside each field of the settings.
"""

from __future__ import annotations

import copy
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from core.analyze import Analysis, Analyzer, check_text
from core.settings import Part, Settings
from core.spans import Span
from core.store import Store

if TYPE_CHECKING:
    from core.detect.base import Detector
    from core.egress import EgressGuard
    from core.llm.local import LocalModel
    from core.turn import Assistant

log = logging.getLogger(__name__)


class Parts(Protocol):
    """The factories the engine builds its parts with, each from the settings.

    ``cloud`` (the egress guard for the settings, the store that is its ledger,
    and the detector it re-scans with) and ``local`` (may raise ModelLoadError)
    are None where there is no cloud door or no local model.
    """

    @property
    def detector(self) -> Callable[[Settings], Detector]: ...
    @property
    def analyzer(self) -> Callable[[Settings], Analyzer]: ...
    @property
    def cloud(self) -> Callable[[Settings, Store, Detector], EgressGuard] | None: ...
    @property
    def local(self) -> Callable[[Settings], LocalModel] | None: ...

    def assistant(
        self,
        settings: Settings,
        store: Store,
        *,
        cloud: EgressGuard | None,
        local: LocalModel | None,
        analyzer: Analyzer,
    ) -> Assistant: ...


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
        parts: Parts,
        *,
        save_settings: bool = True,
    ) -> None:
        self.settings = settings
        self.store = store
        self.parts = parts
        self._save = save_settings
        self._analyzer: Analyzer | None = None
        self._assistant: Assistant | None = None
        self._live: Analyzer | None = None
        self._detector_stale = False
        self._local: LocalModel | None = None
        self._cloud: EgressGuard | None = None
        self._lock = threading.RLock()
        #: (model, base URL) shown instead of the settings' endpoint (the demo cloud).
        self.display_cloud: tuple[str, str] | None = None
        #: Called (GUI thread) after settings changed; the window re-analyses.
        self.on_settings_changed: list[Callable[[Settings], None]] = []

    # --- parts ------------------------------------------------------------

    def analyzer(self) -> Analyzer:
        """The analyzer of turns (built on first use; call from a worker)."""
        with self._lock:
            if self._analyzer is None:
                self._analyzer = self.parts.analyzer(self.settings)
            elif self._detector_stale:
                self._analyzer.detector = self.parts.detector(self.settings)
                self._live = None
            self._detector_stale = False
            return self._analyzer

    def analyze(self, text: str, risk_lambda: float, profile: str | None = None) -> Analysis:
        """The editor's live analysis (runs in a worker): the same segmenter,
        detector and router, the detector behind a :class:`ParagraphCache`;
        ``profile`` is the editor's choice (None: the settings' privacy profile)."""
        return self._live_analyzer().analyze(
            text, risk_lambda, profile or self.settings.privacy_profile
        )

    def _live_analyzer(self) -> Analyzer:
        base = self.analyzer()
        with self._lock:
            if self._live is None or self._live.router is not base.router:
                # The turns' analyzer (its segmenter, router and policy), whose
                # detector is only called as ``detector.analyze(text)``: duck-typed.
                live = copy.copy(base)
                cache: Any = ParagraphCache(base.detector)
                live.detector = cache
                self._live = live
            return self._live

    def analyze_staged(
        self, text: str, risk_lambda: float, profile: str | None = None
    ) -> Generator[list[Span], None, Analysis]:
        """:meth:`analyze` in two steps for the editor: yields the detected spans
        (the editor marks them at once), then returns the routed analysis, whose
        detection comes from the same paragraph cache and costs nothing again."""
        live = self._live_analyzer()
        check_text(text)
        yield list(live.detector.analyze(text))
        return live.analyze(text, risk_lambda, profile or self.settings.privacy_profile)

    def local_model(self) -> LocalModel | None:
        """The local model (built on first use; call from a worker), None without a factory."""
        with self._lock:
            if self._local is None and self.parts.local is not None:
                self._local = self.parts.local(self.settings)
            return self._local

    def cloud_door(self) -> EgressGuard | None:
        """The egress guard (built on first use), None without a factory or a store."""
        with self._lock:
            if self._cloud is None and self.parts.cloud is not None and self.store is not None:
                self._cloud = self.parts.cloud(self.settings, self.store, self.analyzer().detector)
            return self._cloud

    def assistant(self) -> Assistant:
        """The turn pipeline; builds the cloud door and the local model on first use."""
        with self._lock:
            if self._assistant is None:
                if self.store is None:
                    from core.errors import VaultLockedError

                    raise VaultLockedError("The vault is not open.")
                self._assistant = self.parts.assistant(
                    self.settings,
                    self.store,
                    cloud=self.cloud_door(),
                    local=self.local_model(),
                    analyzer=self.analyzer(),
                )
            return self._assistant

    # --- loading ----------------------------------------------------------

    def warm_up(self, include_local: bool = True) -> Iterator[Progress]:
        """Load the models one by one (a generator: run it in a worker)."""
        steps: list[tuple[str, Callable[[], object]]] = [
            ("Loading the sentence splitter", lambda: self.analyzer().segmenter.nlp),
            ("Loading the privacy detectors", self._warm_detector),
        ]
        if include_local and self.parts.local is not None:
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
        """Adopt ``new`` (save it) and drop the parts it invalidates (GUI thread).

        Dropped parts are rebuilt on next use, in a worker, with the new values.
        """
        changed = self.settings.changed_from(new)
        stale = Settings.rebuilt_by(changed)
        with self._lock:
            # Mutate in place: the Assistant and the window hold this object.
            for name in changed:
                setattr(self.settings, name, getattr(new, name))
            if Part.DETECTOR in stale:
                self._detector_stale = True
                self._live = None
                stale.add(Part.CLOUD)  # the door re-scans with the detector
            if Part.LOCAL in stale:
                self._local = None
            if Part.CLOUD in stale:
                self._cloud = None
            if stale:
                self._assistant = None  # it holds every other part
        if self._save:
            self.settings.save()
        for cb in list(self.on_settings_changed):
            cb(self.settings)

    def reset_cloud(self) -> None:
        """Forget the cloud door (a new API key or endpoint is used next time)."""
        with self._lock:
            self._cloud = None
            self._assistant = None
