"""The router's ``local_use`` input: whether a capable local model can use a withheld sentence."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from core.assembly import ner_states
from core.router.policy import DETECT_DIM, INPUTS, PolicyRouter, local_use_for
from core.settings import Integration, Settings


def _features(n: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    emb = rng.standard_normal((n, 384)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    return emb, rng.random((n, DETECT_DIM)).astype(np.float32)


def test_a_policy_without_the_input_ignores_local_use():
    router = PolicyRouter(states=ner_states()).load()
    emb, det = _features()
    if INPUTS[3] in router._inputs:
        pytest.skip("the shipped policy takes local_use (tested in tests/training)")
    assert np.array_equal(
        router.route_features(emb, det, 5.0, local_use=0.0),
        router.route_features(emb, det, 5.0, local_use=1.0),
    )


@pytest.mark.parametrize(
    ("integration", "capable", "expected"),
    [
        (Integration.LOCAL, True, 1.0),
        (Integration.LOCAL, False, 0.0),
        (Integration.PASS_THROUGH, True, 0.0),
    ],
)
def test_local_use_follows_the_chat_integration_and_the_models_capability(
    monkeypatch, integration, capable, expected
):
    import core.llm.gguf_file
    import core.llm.local

    monkeypatch.setattr(core.llm.gguf_file, "read_gguf", lambda path: SimpleNamespace())
    monkeypatch.setattr(
        core.llm.local, "capability_of", lambda info, b: SimpleNamespace(capable=capable)
    )
    settings = Settings.model_validate({"chat_integration": integration})
    assert local_use_for(settings) == expected


def test_an_unreadable_local_model_uses_nothing_withheld(monkeypatch, tmp_path):
    settings = Settings.model_validate(
        {"chat_integration": Integration.LOCAL, "local_model_path": str(tmp_path / "none.gguf")}
    )
    assert local_use_for(settings) == 0.0


def test_the_assembled_router_carries_the_settings_local_use(monkeypatch):
    import core.router.policy
    from core.assembly import default_router

    monkeypatch.setattr(core.router.policy, "local_use_for", lambda settings: 1.0)
    router = default_router(Settings())
    assert getattr(router, "local_use", None) == 1.0
