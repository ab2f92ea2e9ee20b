"""Default parts built from settings: the detector and the router.

Each part is built only when asked for, so a command that needs no model
loads none.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from core.detect.base import Detector
from core.router.base import HeuristicRouter, Router

if TYPE_CHECKING:
    from core.settings import Settings


def default_detector(settings: Settings) -> Detector:
    from core.detect.fusion import fused_detector
    from core.detect.rules import RulesView
    from core.detect.spacy_view import SpacyView

    # The fused NER + rules detector once models/ner is built; until then rules + spaCy.
    fused = fused_detector(settings)
    if fused is not None:
        return fused
    return Detector(
        [RulesView(), SpacyView()],
        allow=settings.allow_list,
        deny=settings.deny_list,
        min_score=settings.detect_min_score,
    )


def default_router(settings: Settings) -> Router:
    """The learned policy (models/router) when it is built, else the heuristic router."""
    import models

    if all((models.artifact_dir(n) / "manifest.json").exists() for n in ("router", "encoder")):
        from core.router.policy import PolicyRouter

        # Loaded on first use; a damaged file then raises ArtifactError naming the fix.
        return PolicyRouter()
    logging.getLogger(__name__).warning(
        "the learned router is not built (models/router); using the heuristic router. "
        "Build it with: python -m training.router build"
    )
    return HeuristicRouter()
