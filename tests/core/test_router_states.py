"""One encoder pass: the router reading the NER's token states (``sentence_features``).

The NER's ``hidden`` output, the pooling of its states per sentence outside the
entities, a policy that reads them through the detector's own pass, and the
refusal of a policy trained on another NER's states.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from core.entities import EntityType
from core.errors import ArtifactError
from core.router.base import RouteInput
from core.router.policy import NER_STATES, PolicyRouter, state_features
from core.spans import Sentence, Span


def test_states_are_pooled_outside_the_entities_and_normalized() -> None:
    text = "Hi Anna Berg. Thanks."
    sents = [Sentence(0, 13, text[:13]), Sentence(14, 21, text[14:])]
    offsets = [(0, 2), (3, 7), (8, 12), (12, 13), (14, 20), (20, 21)]
    states = np.zeros((6, 4), dtype=np.float32)
    states[0] = [3, 0, 0, 0]  # "Hi"
    states[1] = states[2] = [0, 9, 0, 0]  # "Anna Berg": the entity's tokens
    states[3] = [1, 0, 0, 0]  # "."
    states[4] = [0, 0, 2, 0]
    states[5] = [0, 0, 2, 0]
    ents = [[Span(3, 12, EntityType.PERSON, 0.9)], []]
    f = state_features(sents, ents, offsets, states)
    assert f.shape == (2, 4)
    assert np.allclose(f[0], [1, 0, 0, 0])  # mean of "Hi" and ".", the name left out
    assert np.allclose(f[1], [0, 0, 1, 0])
    assert np.allclose(np.linalg.norm(f, axis=1), 1.0)
    # A sentence that is all entity has nothing in clear: zeros.
    whole = state_features([sents[0]], [[Span(0, 13, EntityType.OTHER, 0.9)]], offsets, states)
    assert not whole.any()


def test_the_max_pooling_lets_one_unusual_token_stand_out() -> None:
    text = "a b c d e f g h"
    sents = [Sentence(0, len(text), text)]
    offsets = [(i, i + 1) for i in range(0, len(text), 2)]
    states = np.zeros((8, 3), dtype=np.float32)
    states[:, 0] = 1.0
    states[5] = [0, 8, 0]  # one token unlike the others ("f")
    mean = state_features(sents, [[]], offsets, states)[0]
    both = state_features(sents, [[]], offsets, states, pool="mean+max")[0]
    assert np.isclose(np.linalg.norm(both), 1.0)
    # The unusual token weighs more in the mean-and-max view than in the mean.
    assert both[1] > mean[1] > 0
    # With the token an entity, neither view sees it.
    hidden = state_features(sents, [[Span(10, 11, EntityType.PERSON, 0.9)]], offsets, states, pool="mean+max")
    assert np.allclose(hidden[0], [1, 0, 0])


def test_the_ner_gives_its_token_states_from_the_same_pass() -> None:
    from core.detect.ner import NerView

    view = NerView()
    if not view.has_states:
        pytest.skip("models/ner has no 'hidden' output")
    view.keep_states = True  # as when a router that reads them is assembled
    text = "Please write to Dr. Reena Patel at Keystone Clinic about my MRI."
    spans = view.analyze(text)
    got = view.token_states(text)
    assert got is not None
    offsets, states = got
    assert states.shape == (len(offsets), 384) and states.dtype == np.float32
    assert view.token_states(text)[1] is states  # kept from the pass, not encoded again
    assert [text[s.start : s.end] for s in spans]  # the same pass found the names


def _states_router(tmp_path: Path, ner_sha: str | None) -> Path:
    import models

    folder = tmp_path / "router"
    shutil.copytree(models.artifact_dir("router"), folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["sentence_features"] = NER_STATES
    manifest["ner"] = {"sha256": ner_sha}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def _shipped_ner_sha() -> str:
    import models

    sha: str = models.load_manifest("ner", models.artifact_dir("ner"))["files"]["model.onnx"]
    return sha


def test_a_policy_on_ner_states_reads_the_detectors_pass_not_minilm(tmp_path: Path) -> None:
    calls: list[str] = []

    def states(text: str) -> tuple[list[tuple[int, int]], np.ndarray]:
        calls.append(text)
        return [(0, 2), (3, 7)], np.ones((2, 384), dtype=np.float32)

    class NoEncoder:
        def encode(self, texts: object) -> np.ndarray:
            raise AssertionError("MiniLM must not run for a policy on the NER's states")

    router = PolicyRouter(
        _states_router(tmp_path, _shipped_ner_sha()),
        states=states,
        encoder=NoEncoder(),  # type: ignore[arg-type]
    )
    text = "Hi Anna. Thanks."
    probs = router.route(
        RouteInput(text, [Sentence(0, 8, text[:8]), Sentence(9, 16, text[9:])], [[], []], 5.0)
    )
    assert len(probs) == 2 and calls == [text]


def test_a_policy_without_states_to_read_says_how_to_add_them(tmp_path: Path) -> None:
    router = PolicyRouter(_states_router(tmp_path, _shipped_ner_sha()))
    with pytest.raises(ArtifactError) as err:
        # (Not a greeting: the rules send that one without asking the policy.)
        text = "Write to Northgate about it."
        router.route(RouteInput(text, [Sentence(0, len(text), text)], [[]], 5.0))
    assert "training.ner add-states" in str(err.value)


def test_a_policy_on_another_ners_states_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError) as err:
        PolicyRouter(_states_router(tmp_path, "0" * 64)).load()
    assert "--sentence-features ner-states" in str(err.value)


def test_the_analyzer_hands_the_router_its_detectors_states() -> None:
    from core.assembly import default_detector, ner_states
    from core.detect.ner import NerView
    from core.settings import Settings

    fn = ner_states(default_detector(Settings()))
    assert isinstance(getattr(fn, "__self__", None), NerView)
    # No detector (a caller of default_router(settings) alone): a NER of the router's own.
    own = ner_states(None)
    got = own("Please write to Dr. Reena Patel.")
    assert got is not None and got[1].shape[1] == 384


def test_a_message_judged_elsewhere_reads_no_states(tmp_path: Path) -> None:
    """A German message goes anonymized sentence by sentence: the policy reads nothing
    and no English NER pass is made for it."""

    def states(text: str) -> None:
        raise AssertionError("no states are needed for a message judged elsewhere")

    router = PolicyRouter(_states_router(tmp_path, _shipped_ner_sha()), states=states)
    text = "Mein Vater ist krank. Was soll ich tun?"
    sents = [Sentence(0, 21, text[:21]), Sentence(22, len(text), text[22:])]
    assert router.route(RouteInput(text, sents, [[], []], 5.0, ("de", "de"))) == [1.0, 1.0]
