"""The one place that builds the parts of a turn from the settings.

The detector, the router, the analyzer over them, the local model, the cloud
door (the egress guard in front of the cloud client), GAMA's public space, the
integrator and the :class:`~core.turn.Assistant` that holds them all. The
command line, the evaluation tools and the window get their parts from here;
the window's engine receives a :class:`Parts` from ``app`` and builds each part
lazily, off the GUI thread, through it (``ui`` never imports this module).

Each part is built only when asked for, so a command that needs no model
loads none.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.analyze import Analyzer
    from core.detect.base import DetectionView, Detector
    from core.egress import EgressGuard
    from core.gama import PublicSpace
    from core.llm.local import LocalModel
    from core.router.base import Router
    from core.router.policy import StatesFn
    from core.settings import Settings
    from core.store import Store
    from core.turn import Assistant

log = logging.getLogger(__name__)


def default_detector(settings: Settings) -> Detector:
    """The fused NER + rules detector once models/ner is built; until then rules + spaCy.

    Either is judged by the rules of each message's language (core.language_detector).
    """
    from core.language_detector import LanguageDetector

    return LanguageDetector(
        english_detector(settings),
        language=str(settings.language),
        languages_ner=languages_ner(),
    )


#: The NER trained on German, French, Spanish and Dutch as well (``models/ner_languages``).
LANGUAGES_NER = "ner_languages"


def languages_ner() -> DetectionView | None:
    """The languages NER view when its artifact is shipped (or SOTTOVOCE_MODELS has one)."""
    import models
    from core.detect.ner import NerView

    folder = models.artifact_dir(LANGUAGES_NER)
    return NerView(folder, artifact=LANGUAGES_NER) if (folder / "manifest.json").exists() else None


def english_detector(settings: Settings) -> Detector:
    """The English detector: the fused NER + rules, or rules + spaCy without models/ner."""
    from core.detect.base import Detector
    from core.detect.fusion import fused_detector
    from core.detect.rules import RulesView
    from core.detect.spacy_view import SpacyView

    fused = fused_detector(settings)
    if fused is not None:
        return fused
    return Detector(
        [RulesView(), SpacyView()],
        allow=settings.allow_list,
        deny=settings.deny_list,
        min_score=settings.detect_min_score,
    )


def default_router(settings: Settings, detector: Detector | None = None) -> Router:
    """The learned policy (models/router) when it is built, else the heuristic router.

    ``detector``: the one the router's queries come from; a policy that reads the NER's
    token states takes them from its NER view's last pass (the text is encoded once).
    """
    import models
    from core.router.base import HeuristicRouter

    if all((models.artifact_dir(n) / "manifest.json").exists() for n in ("router", "encoder")):
        # Loaded on first use; a damaged file then raises ArtifactError naming the fix.
        # local_use: whether a capable local model can use what the router keeps here.
        from core.router.policy import PolicyRouter, local_use_for, reads_states

        states = ner_states(detector) if reads_states() else None
        return PolicyRouter(local_use=local_use_for(settings), states=states)
    log.warning(
        "the learned router is not built (models/router); using the heuristic router. "
        "Build it with: python -m training.router build"
    )
    return HeuristicRouter()


def ner_states(detector: Detector | None = None) -> StatesFn:
    """The English NER view's ``token_states`` of ``detector`` (its last pass is reused).

    Without a detector, or one without a NER view, the states come from a NER view of
    their own, loaded the first time a router asks (a second pass over the text).
    """
    from core.detect.ner import NerView

    base = getattr(detector, "base", detector)
    for view_ in getattr(base, "views", ()):
        if isinstance(view_, NerView):
            view_.keep_states = True  # its passes keep their states for the router
            return view_.token_states
    own: list[NerView] = []

    def states(text: str) -> Any:
        if not own:
            own.append(NerView())
        return own[0].token_states(text)

    return states


def make_analyzer(settings: Settings, detector: Detector | None = None) -> Analyzer:
    """Segmenter, detector (``detector`` or the settings') and router of the settings."""
    from core.analyze import Analyzer
    from core.segment import Segmenter

    detector = detector if detector is not None else default_detector(settings)
    return Analyzer(
        segmenter=Segmenter(language=str(settings.language)),
        detector=detector,
        router=default_router(settings, detector),
    )


def make_local(settings: Settings) -> LocalModel:
    """The local model of the settings (the embedded SmolLM2 when none is chosen)."""
    from core.llm.local import LocalModel

    return LocalModel.from_settings(settings)


def make_cloud_door(
    settings: Settings, store: Store, detector: Detector | None = None
) -> EgressGuard:
    """The egress guard in front of the configured cloud; the store is its ledger.

    ``detector`` is the one the guard re-scans with (the turn's; else the settings').
    """
    from core.egress import EgressGuard
    from core.llm.cloud import CloudClient

    return EgressGuard(
        # The store also holds the API key where no keyring exists.
        CloudClient.from_settings(settings, vault=store),
        ledger=store,
        detector=detector if detector is not None else default_detector(settings),
    )


def make_public_space(settings: Settings, door: EgressGuard) -> PublicSpace:
    """GAMA's public space behind the cloud door (it runs only when a setting turns it on)."""
    from core.gama import PublicSpace

    return PublicSpace(settings, door, max_tokens=settings.cloud_max_tokens)


def make_assistant(
    settings: Settings, store: Store, *, local: bool | LocalModel = True
) -> Assistant:
    """An :class:`Assistant` with the real detector, router, cloud door and local model.

    ``local`` may be a ready model, True (load the settings' model) or False
    (none: answers pass through; all-private turns are refused).
    """
    analyzer = make_analyzer(settings)
    return Parts().assistant(
        settings,
        store,
        cloud=make_cloud_door(settings, store, analyzer.detector),
        local=make_local(settings) if local is True else (local or None),
        analyzer=analyzer,
    )


#: Builds the cloud door for the settings, the store (its ledger) and the detector.
CloudFactory = Callable[["Settings", "Store", "Detector"], "EgressGuard"]
#: Builds the local model for the settings; may raise ModelLoadError.
LocalFactory = Callable[["Settings"], "LocalModel"]


@dataclass
class Parts:
    """How the window's engine builds each part; ``app`` hands one to ``ui.engine.Engine``.

    ``cloud`` and ``local`` may be None (no cloud door, no local model). Tests
    replace a factory with one that returns a fake (a loopback cloud, an
    analyzer without spaCy).
    """

    detector: Callable[[Settings], Detector] = default_detector
    analyzer: Callable[[Settings], Analyzer] = make_analyzer
    cloud: CloudFactory | None = make_cloud_door
    local: LocalFactory | None = make_local

    def assistant(
        self,
        settings: Settings,
        store: Store,
        *,
        cloud: EgressGuard | None,
        local: LocalModel | None,
        analyzer: Analyzer,
    ) -> Assistant:
        """The :class:`Assistant` over parts already built (it makes its integrator)."""
        from core.turn import Assistant

        return Assistant(
            settings,
            store,
            cloud=cloud,
            local=local,
            analyzer=analyzer,
            public_space=make_public_space(settings, cloud) if cloud is not None else None,
        )


@contextmanager
def cloud_endpoint(
    demo: bool = False, base_url: str | None = None, model: str | None = None
) -> Iterator[tuple[str, str]]:
    """Yield ``(base_url, model)``: the loopback demo cloud when ``demo``, else the ones given."""
    if demo:
        from core.llm.demo import DemoCloud

        with DemoCloud() as cloud:
            yield cloud.base_url, cloud.model
        return
    from core.settings import Settings

    s = Settings.load()
    yield base_url or s.cloud_base_url, model or s.cloud_model
