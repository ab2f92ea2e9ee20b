"""The router's reward: exact leak of protected units on the product's outbound text, TaskGain
judges (a withheld word costs), penalties, and the warm-up labels of the same meaning."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("torch")

from core.entities import EntityType
from core.outbound.compose import WITHHELD
from core.router.policy import detection_features
from core.spans import Sentence, Span
from training import metrics
from training.router.episodes import Episode, leaked_units, outbound, protected_units
from training.router.judge import LLMJudge, PooledRetention, ShareRetention, parse_verdict
from training.router.reward import reward
from training.router.sft import sft_labels

TEXT = "Hi, I am Anna Berg. I live in Oslo. What is a good soup?"
#        0         1         2         3         4         5
SENTS = [Sentence(0, 19, TEXT[0:19]), Sentence(20, 35, TEXT[20:35]), Sentence(36, 56, TEXT[36:56])]


def make_episode(entities: list[list[Span]], units: list[str]) -> Episode:
    rng = np.random.default_rng(0)
    emb = rng.standard_normal((3, 384)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    occ = [[(TEXT.index(u), TEXT.index(u) + len(u))] for u in units]
    return Episode(
        id="q1",
        source="medpcd",
        split="train",
        text=TEXT,
        sentences=SENTS,
        entities=entities,
        units=units,
        occurrences=occ,
        not_located=0,
        emb=emb,
        emb_anon=emb.copy(),
        ntok=np.array([6.0, 5.0, 6.0], dtype=np.float32),
        ntok_anon=np.array([6.0, 5.0, 6.0], dtype=np.float32),
        det=detection_features(SENTS, entities),
    )


NAME = Span(9, 18, EntityType.PERSON, 0.9, {"rules": 0.9})
CITY = Span(30, 34, EntityType.LOCATION, 0.6, {"spacy": 0.6})


class FakeStore:
    """Stands in for the embedding cache: one fixed vector for the withheld marker."""

    def __init__(self) -> None:
        self.embedder = SimpleNamespace(token_counts=lambda texts: np.array([6.0] * len(texts)))

    def get(self, texts: list[str]) -> np.ndarray:
        v = np.zeros((len(texts), 384), dtype=np.float32)
        v[:, 0] = 1.0
        return v


@pytest.mark.parametrize(
    ("remote", "expected_out", "leaked"),
    [
        ((False, False, False), "", 0),
        # At lambda 5 the type policy sends a city (a quasi-identifier) as written.
        ((True, True, True), "Hi, I am [PERSON_1]. I live in Oslo. What is a good soup?", 1),
        ((False, False, True), f"{WITHHELD} What is a good soup?", 0),
        ((True, False, True), f"Hi, I am [PERSON_1]. {WITHHELD} What is a good soup?", 0),
    ],
)
def test_outbound_is_the_products_anonymized_text(remote, expected_out, leaked):
    ep = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    text, n = ep.route(remote)
    assert text == expected_out == outbound(ep, remote)
    assert n == leaked


def test_a_high_lambda_protects_the_city_too():
    ep = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    text, n = ep.route((True, True, True), 10.0)
    assert text == "Hi, I am [PERSON_1]. I live in [LOCATION_1]. What is a good soup?"
    assert n == 0


def test_an_undetected_unit_in_a_remote_sentence_leaks():
    ep = make_episode([[NAME], [], []], ["Anna Berg", "Oslo"])
    assert ep.route((True, True, True))[1] == 1  # Oslo was not detected
    assert ep.route((True, False, True))[1] == 0


def test_a_unit_the_policy_sends_on_purpose_is_no_leak_of_the_router():
    # At lambda 5 the type policy sends the city as written: the papers' count
    # has a leak, the router's (protected units) has none.
    ep = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    judge = PooledRetention(FakeStore())  # type: ignore[arg-type]
    assert protected_units(ep, 5.0).tolist() == [True, False]
    out = reward(ep, (True, True, True), 5.0, judge)
    assert (out.leaked_all, out.leaked, out.leak) == (1, 0, 0.0)
    assert out.reward == pytest.approx(out.gain)
    # At 10 the city is protected too, and replaced: still no leak.
    assert protected_units(ep, 10.0).tolist() == [True, True]
    assert reward(ep, (True, True, True), 10.0, judge).leak == 0.0


def test_a_name_the_detector_missed_is_a_protected_leak():
    ep = make_episode([[], [CITY], []], ["Anna Berg", "Oslo"])
    judge = PooledRetention(FakeStore())  # type: ignore[arg-type]
    assert protected_units(ep, 5.0).tolist() == [True, False]
    out = reward(ep, (True, True, True), 5.0, judge)
    assert (out.leaked, out.leak) == (1, 1.0)
    assert out.reward == pytest.approx(out.gain - 5.0)
    assert reward(ep, (False, True, True), 5.0, judge).leak == 0.0


def test_a_missed_public_name_is_protected_only_at_the_top_of_the_slider():
    ep = make_episode([[NAME], [], []], ["Anna Berg", "Oslo"])  # Oslo: a region in the lexicon
    assert protected_units(ep, 5.0).tolist() == [True, False]
    assert protected_units(ep, 10.0).tolist() == [True, True]


@pytest.mark.parametrize(
    ("spans", "protects", "missed", "expected"),
    [
        ([(0, 4)], [True], False, True),  # a protected value overlaps
        ([(0, 4)], [False], True, False),  # only values sent in clear overlap
        ([(0, 2), (3, 9)], [False, True], False, True),  # one of them protected
        ([(10, 12)], [True], True, True),  # nothing overlaps: the fallback decides
        ([(10, 12)], [True], False, False),
    ],
)
def test_unit_protected(spans, protects, missed, expected):
    assert metrics.unit_protected([(0, 6)], spans, protects, lambda: missed) is expected


@pytest.mark.parametrize(
    ("unit", "payload", "leaks"),
    [
        ("Anna Berg", "i am ANNA  berg", True),
        ("anna berg", "I am Anna\nBerg.", True),
        ("Anna Berg", "I am [PERSON_1]", False),
        ("Anna Berg", "", False),
        ("Ｏｓｌｏ", "oslo", True),  # NFKC folds full-width letters
    ],
)
def test_leak_is_a_normalized_match(unit, payload, leaks):
    assert leaked_units([unit], payload) == int(leaks)


@pytest.mark.parametrize(
    ("penalty", "lam", "expected_penalty"),
    [("quadratic", 4.0, 4.0 * 0.5**2), ("linear", 4.0, 4.0 * 0.5), ("quadratic", 0.0, 0.0)],
)
def test_reward_is_gain_minus_lambda_times_leak_power(penalty, lam, expected_penalty):
    # Both names protected (direct identifiers); the second one was missed and leaks.
    ep = make_episode([[NAME], [], []], ["Anna Berg", "I live"])
    judge = PooledRetention(FakeStore())  # type: ignore[arg-type]
    out = reward(ep, (True, True, True), lam, judge, penalty)
    assert out.leak == 0.5
    assert out.reward == pytest.approx(out.gain - expected_penalty)


def test_pooled_retention_is_zero_when_nothing_goes_and_one_when_everything_goes_unchanged():
    ep = make_episode([[], [], []], [])
    judge = PooledRetention(FakeStore())  # type: ignore[arg-type]
    assert judge.gain(ep, [False, False, False]) == 0.0
    assert judge.gain(ep, [True, True, True]) == pytest.approx(1.0, abs=1e-5)
    assert 0.0 < judge.gain(ep, [True, False, True]) < 1.0


def test_every_withheld_word_costs_task_gain():
    ep = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    # Non-private words: "Hi I am" (3), "I live in" (3), "What is a good soup" (5).
    assert ep.words.tolist() == [3.0, 3.0, 5.0]
    share = ShareRetention(FakeStore(), share_weight=1.0)  # type: ignore[arg-type]
    assert share.gain(ep, [True, True, True]) == pytest.approx(1.0)
    assert share.gain(ep, [True, False, True]) == pytest.approx(8 / 11)
    assert share.gain(ep, [False, False, True]) == pytest.approx(5 / 11)
    assert share.gain(ep, [False, False, False]) == 0.0
    mixed = ShareRetention(FakeStore(), share_weight=0.5)  # type: ignore[arg-type]
    pooled = PooledRetention(FakeStore())  # type: ignore[arg-type]
    for remote in ([True, False, True], [False, True, False], [True, True, True]):
        assert mixed.gain(ep, remote) == pytest.approx(
            0.5 * share.gain(ep, remote) + 0.5 * pooled.gain(ep, remote)
        )


def test_a_capable_local_model_earns_part_of_a_withheld_sentence():
    ep = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    judge = ShareRetention(FakeStore(), share_weight=1.0, local_credit=0.5)  # type: ignore[arg-type]
    basic = judge.gain(ep, [True, False, True], local_use=0.0)
    capable = judge.gain(ep, [True, False, True], local_use=1.0)
    assert basic == pytest.approx(8 / 11)
    assert capable == pytest.approx(8 / 11 + 0.5 * 3 / 11)
    assert judge.gain(ep, [True, True, True], local_use=1.0) == pytest.approx(1.0)


def test_warm_up_labels_say_whether_the_anonymized_sentence_leaks_a_protected_unit():
    # A detected name leaves as [PERSON_1]: the sentence may go although it holds PII.
    caught = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    assert sft_labels(caught, 5.0).tolist() == [1.0, 1.0, 1.0]
    # A missed name would leave as written: that sentence stays.
    missed = make_episode([[], [CITY], []], ["Anna Berg", "Oslo"])
    assert sft_labels(missed, 5.0).tolist() == [0.0, 1.0, 1.0]
    # A missed city is the router's only at the slider's top, where the policy protects it.
    city = make_episode([[NAME], [], []], ["Anna Berg", "Oslo"])
    assert sft_labels(city, 5.0).tolist() == [1.0, 1.0, 1.0]
    assert sft_labels(city, 10.0).tolist() == [1.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Yes", True),
        ("yes, A is better", True),
        ("No.", False),
        ("True", True),
        ("no, not yes", False),
        ("", False),
        ("maybe", False),
    ],
)
def test_parse_verdict(text, verdict):
    assert parse_verdict(text) is verdict


class FakeClient:
    """An OpenAI-like client: answers prompts, and judges from a script."""

    def __init__(self, verdicts: list[str]) -> None:
        self.verdicts = list(verdicts)
        self.prompts: list[str] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    def _create(self, model: str, messages: list[dict[str, str]], **kw: object) -> object:
        prompt = messages[0]["content"]
        self.prompts.append(prompt)
        content = self.verdicts.pop(0) if "Response A" in prompt else "an answer"
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=content))])


@pytest.mark.parametrize(
    ("first", "second", "passes"),
    [("yes", "no", True), ("yes", "yes", True), ("no", "no", True), ("no", "yes", False)],
)
def test_llm_judge_applies_papillons_pairwise_rule(first, second, passes):
    client = FakeClient([first, second])
    judge = LLMJudge(model="m", client=client)
    ep = make_episode([[NAME], [CITY], []], ["Anna Berg"])
    ep.target = "reference answer"
    assert judge.name == "llm:m"
    assert judge.gain(ep, [True, True, True], "some outbound") == float(passes)
    judged = [p for p in client.prompts if "Response A" in p]
    assert "Is response A at least as good as response B?" in judged[0]
    # The order is swapped for the second question.
    assert judged[0].index("an answer") < judged[0].index("reference answer")
    assert judged[1].index("reference answer") < judged[1].index("an answer")


def test_llm_judge_gives_nothing_for_an_empty_outbound():
    client = FakeClient([])
    assert (
        LLMJudge(model="m", client=client).gain(make_episode([[], [], []], []), [False] * 3, "")
        == 0.0
    )
    assert client.prompts == []


def test_a_placeholder_counts_as_a_word_when_asked():
    from training.router.judge import remote_word_share

    ep = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    # Words outside the units: "Hi I am" 3, "I live in" 3, "What is a good soup" 5.
    assert list(ep.words) == [3.0, 3.0, 5.0]
    assert list(ep.unit_words) == [1.0, 1.0, 0.0]
    only_first = (True, False, False)
    assert remote_word_share(ep, only_first) == pytest.approx(3 / 11)
    assert remote_word_share(ep, only_first, placeholders=True) == pytest.approx(4 / 13)
    judge = ShareRetention(FakeStore(), share_weight=1.0, placeholders=True)  # type: ignore[arg-type]
    assert judge.gain(ep, only_first) == pytest.approx(4 / 13)
