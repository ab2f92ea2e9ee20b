"""The learned router at run time: features, the shipped ONNX policy, lambda's direction.

What is asserted about lambda: for every sentence of every query, raising
lambda never raises ``p_remote`` (beyond 1e-6 of float noise) and never moves
a decision from local to remote; the set of remote sentences at a higher
lambda is a subset of the set at a lower one. The policy's head makes this
hold by construction (``u - softplus(v) * lambda / 10``); these tests check
that the shipped graph keeps it, on random inputs and on real queries.
"""

from __future__ import annotations

import itertools
import json
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.analyze import Analyzer
from core.assembly import ner_states
from core.detect.base import Detector
from core.entities import EntityType
from core.errors import ArtifactError
from core.router.base import RouteInput
from core.router.policy import DETECT_DIM, TYPES, PolicyRouter, detection_features
from core.spans import Sentence, Span

T = {t: i for i, t in enumerate(TYPES)}
K = len(TYPES)


def _sent(text: str, start: int = 0) -> Sentence:
    return Sentence(start, start + len(text), text)


@pytest.mark.parametrize(
    ("ents", "checks"),
    [
        ([], {K: 0.0, K + 1: 0.0, K + 2: 0.0}),
        (
            [Span(0, 4, EntityType.PERSON, 0.9)],
            {T[EntityType.PERSON]: np.log1p(1), K: 0.9, K + 1: 1.0, K + 2: 0.2},
        ),
        (
            [
                Span(0, 4, EntityType.PERSON, 0.6),
                Span(10, 14, EntityType.PERSON, 0.8),
                Span(15, 20, EntityType.DATE, 0.5),
            ],
            {
                T[EntityType.PERSON]: np.log1p(2),
                T[EntityType.DATE]: np.log1p(1),
                K: 0.8,
                K + 2: 13 / 20,
            },
        ),
    ],
)
def test_detection_features(ents, checks):
    sent = Sentence(0, 20, "x" * 20)
    f = detection_features([sent], [ents])
    assert f.shape == (1, DETECT_DIM) and f.dtype == np.float32
    for col, value in checks.items():
        assert f[0, col] == pytest.approx(value, abs=1e-6)
    assert f[0, K + 3] == pytest.approx(np.log1p(20) / 7, abs=1e-6)


@pytest.fixture(scope="module")
def router() -> PolicyRouter:
    return PolicyRouter(states=ner_states()).load()


def test_the_shipped_policy_routes_every_sentence(router):
    text = "Hi, I am Anna Berg, born 04/18/1989. What is a good soup for a cold?"
    sents = [_sent(text[:36]), Sentence(37, len(text), text[37:])]
    ents = [[Span(9, 18, EntityType.PERSON, 0.9), Span(25, 35, EntityType.DATE, 0.9)], []]
    probs = router.route(RouteInput(text, sents, ents, 5.0))
    assert len(probs) == 2
    assert all(0.0 <= p <= 1.0 for p in probs)
    assert router.route(RouteInput("", [], [], 5.0)) == []


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    n=st.integers(1, 30),
    seed=st.integers(0, 2**31 - 1),
    lams=st.lists(st.floats(0.0, 10.0), min_size=2, max_size=6),
)
def test_raising_lambda_never_moves_a_sentence_towards_remote(router, n, seed, lams):
    rng = np.random.default_rng(seed)
    emb = rng.standard_normal((n, 384)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    det = (rng.random((n, DETECT_DIM)) * (rng.random((n, 1)) < 0.5)).astype(np.float32)
    previous = None
    for lam in sorted(lams):
        p = router.route_features(emb, det, lam)
        if previous is not None:
            assert np.all(p <= previous + 1e-6)
            assert not np.any((p >= 0.5) & (previous < 0.5))
        previous = p


def test_raising_lambda_never_sends_more_on_real_queries(router, segmenter, rules_view):
    analyzer = Analyzer(segmenter, Detector([rules_view]), router)
    texts = [
        "Hi, this is Melissa Grant, dob 04/18/1989. I keep reading different things about "
        "covid quarantine. My number is 215-555-4078. Does the 14 day period include the "
        "incubation? My email is mel.g89@protonmail.com if they need it.",
        "Write a cover letter for a nurse position. I worked at Mercy Hospital from 2019 to "
        "2023. My manager was Dr. Alan Reyes. I am good with patients and with charts.",
        "What is the capital of France? Explain it to a child.",
        "Dear Mr. Okafor, thank you for your letter of 12 May about account 7781-2201. "
        "We will call you at +44 20 7946 0958 next week. Kind regards, Ines Costa",
    ]
    lams = [0.0, 1.0, 2.5, 5.0, 7.5, 10.0]
    moved_towards_local = 0
    for text in texts:
        routes = [[p.route == "remote" for p in analyzer.analyze(text, lam).plans] for lam in lams]
        for lo, hi in itertools.pairwise(routes):
            assert all(h <= lo_ for lo_, h in zip(lo, hi, strict=True))
            moved_towards_local += sum(lo_ and not h for lo_, h in zip(lo, hi, strict=True))
    # The slider does something: some sentence changes side somewhere in 0..10.
    assert moved_towards_local > 0


@pytest.mark.parametrize("damage", ["missing", "corrupt", "features"])
def test_a_damaged_artifact_names_the_rebuild_command(tmp_path, damage):
    import models

    folder = tmp_path / "router"
    shutil.copytree(models.artifact_dir("router"), folder)
    if damage == "missing":
        (folder / "policy.onnx").unlink()
    elif damage == "corrupt":
        (folder / "policy.onnx").write_bytes(b"not a model")
    else:
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest["features_version"] = -1
        (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ArtifactError) as err:
        PolicyRouter(folder).load()
    assert "python -m training.router build" in str(err.value)


def test_default_router_is_the_policy_when_built_else_the_heuristic(monkeypatch, tmp_path, caplog):
    from core.assembly import default_router
    from core.settings import Settings

    assert default_router(Settings()).name == "policy"
    monkeypatch.setenv("SOTTOVOCE_MODELS", str(tmp_path))
    assert default_router(Settings()).name == "heuristic"
    assert "python -m training.router build" in caplog.text


def test_a_sentence_in_a_language_the_policy_never_saw_goes_anonymized(router, monkeypatch):
    """The shipped policy was trained on English: a German, French, Spanish or Dutch
    sentence (judged by its own rules) goes anonymized; English and a language without
    rules keep the policy's decision. (The shipped policy keeps almost nothing below the
    slider's top, so the policy's own output is replaced here by one that keeps every
    sentence: what is tested is the language's override, not the policy.)"""
    import numpy as np

    monkeypatch.setattr(router, "route_features", lambda emb, det, lam: np.zeros(len(det), dtype=np.float32))
    from core.analyze import assign
    from core.assembly import default_detector
    from core.router.policy import rules_send, top_holds
    from core.segment import Segmenter
    from core.settings import Settings

    # (A sentence of common words around its values goes whatever the policy says: the
    # reinsurer's words after the name leave this one to the policy.)
    text = (
        "Can you make this firmer? Income protection claim IP-0093381, policyholder "
        "Siobhán Ní Cheallaigh of Brackenfield Mews, reinsured via Lloyd's syndicate. I have "
        "been signed off work with depression since 19 February."
    )
    sents = Segmenter().segment(text)
    ents = assign(sents, default_detector(Settings()).analyze(text))
    # Below the slider's top, where the policy decides alone (core.router.policy.top_holds).
    lam = 9.0
    english = router.route(RouteInput(text, sents, ents, lam, ("en",) * len(sents)))
    kept = [i for i, p in enumerate(english) if p < 0.5]
    assert kept  # the policy keeps what the rules do not send
    assert router.route(RouteInput(text, sents, ents, lam)) == english
    assert router.route(RouteInput(text, sents, ents, lam, ("und",) * len(sents))) == english
    for lang in ("de", "fr", "es", "nl"):
        assert router.route(RouteInput(text, sents, ents, lam, (lang,) * len(sents))) == [
            1.0
        ] * len(sents)
        assert router.judged_elsewhere(lang)
        # At the top, the rule that holds a sentence with a value holds it in every language.
        top = router.route(RouteInput(text, sents, ents, 10.0, (lang,) * len(sents)))
        go = rules_send(text, sents, ents)
        held = top_holds(ents, 10.0)
        assert any(held) and top == [0.0 if h and not g else 1.0 for h, g in zip(held, go, strict=True)]
    assert not router.judged_elsewhere("en") and not router.judged_elsewhere("und")


def test_the_analyzer_tells_the_router_each_sentences_language(router):
    from core.assembly import default_detector
    from core.settings import Settings

    seen = []

    class Spy:
        name = "spy"

        def route(self, query: RouteInput) -> list[float]:
            seen.append(tuple(query.languages))
            return [1.0] * len(query.sentences)

    analyzer = Analyzer(detector=default_detector(Settings()), router=Spy())
    analyzer.analyze("Mein Vater wurde gestern operiert. Was soll ich jetzt tun?", 5.0)
    analyzer.analyze("My father had surgery yesterday. What should I do now?", 5.0)
    assert seen == [("de", "de"), ("en", "en")]


def test_the_rules_decide_in_their_order_and_leave_the_rest_to_the_policy():
    from core.router.policy import ruled_routes

    # sent by a rule, held at the top, judged in its own language, neither
    sent = [True, True, False, False, False, False]
    held = [True, False, True, True, False, False]
    elsewhere = [False, False, True, False, True, False]
    assert ruled_routes(sent, held, elsewhere) == [1.0, 1.0, 0.0, 0.0, 1.0, None]
