"""The assembly: every part of a turn built from the settings, wired to the others."""

from __future__ import annotations

from typing import Any

from core.analyze import Analyzer
from core.assembly import Parts, make_assistant, make_cloud_door
from core.detect.base import Detector
from core.egress import EgressGuard
from core.settings import Settings


def test_one_detector_serves_the_analysis_the_door_and_the_answer_guard(store: Any) -> None:
    settings = Settings(cloud_base_url="http://127.0.0.1:9/v1", cloud_max_tokens=77)
    assistant = make_assistant(settings, store, local=False)
    detector = assistant.analyzer.detector
    door = assistant.cloud
    assert isinstance(door, EgressGuard)
    # The door re-scans with the turn's detector and records in the person's store.
    assert door.detector is detector and door.ledger is store
    assert door.client.base_url == settings.cloud_base_url
    assert door.client.model == settings.cloud_model
    assert assistant.integrator.detector is detector
    assert assistant.local is None
    # GAMA's public space sends through the same door, with the settings' cap.
    assert assistant.public_space is not None
    assert assistant.public_space.cloud is door and assistant.public_space.max_tokens == 77


def test_the_parts_build_an_assistant_over_parts_already_built(
    store: Any, segmenter: Any, rules_view: Any
) -> None:
    analyzer = Analyzer(segmenter, Detector([rules_view]))
    settings = Settings()
    door = make_cloud_door(settings, store, analyzer.detector)
    assistant = Parts().assistant(settings, store, cloud=door, local=None, analyzer=analyzer)
    assert assistant.analyzer is analyzer and assistant.cloud is door
    assert assistant.settings is settings  # the window changes it in place
    none = Parts().assistant(settings, store, cloud=None, local=None, analyzer=analyzer)
    assert none.cloud is None and none.public_space is None
