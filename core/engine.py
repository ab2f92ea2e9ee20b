"""Building the real parts of a turn from the settings.

The command line, the evaluation tools and the window all get their cloud door
(the egress guard in front of the cloud client), their local model and their
:class:`~core.pipeline.Assistant` from here, so there is one wiring.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.detect.base import Detector
    from core.egress import EgressGuard
    from core.llm.local import LocalModel
    from core.pipeline import Assistant
    from core.settings import Settings
    from core.store import Store


def make_cloud_door(settings: Settings, store: Store, detector: Detector | None = None) -> EgressGuard:
    """The egress guard in front of the configured cloud; the store is its ledger."""
    from core.defaults import default_detector
    from core.egress import EgressGuard
    from core.llm.cloud import CloudClient

    return EgressGuard(
        # The store also holds the API key where no keyring exists.
        CloudClient.from_settings(settings, vault=store),
        ledger=store,
        detector=detector if detector is not None else default_detector(settings),
    )


def make_local(settings: Settings) -> LocalModel:
    """The local model of the settings (the embedded SmolLM2 when none is chosen)."""
    from core.llm.local import LocalModel

    return LocalModel.from_settings(settings)


def make_assistant(settings: Settings, store: Store, *, local: bool | Any = True) -> Assistant:
    """An :class:`Assistant` with the real detector, router, cloud door and local model.

    ``local`` may be a ready model, True (load the settings' model) or False
    (none: answers pass through; all-private turns are refused).
    """
    from core.analyze import Analyzer
    from core.defaults import default_detector, default_router
    from core.gama import PublicSpace
    from core.pipeline import Assistant

    detector = default_detector(settings)
    door = make_cloud_door(settings, store, detector)
    model = make_local(settings) if local is True else (local or None)
    return Assistant(
        settings,
        store,
        cloud=door,
        local=model,
        analyzer=Analyzer(detector=detector, router=default_router(settings)),
        public_space=PublicSpace(settings, door, max_tokens=settings.cloud_max_tokens),
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
