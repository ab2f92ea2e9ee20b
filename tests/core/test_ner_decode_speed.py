"""The NER decode's vectorized word grouping and the cached ``is_cased`` give the answers
of their plain versions (core.detect.ner, core.lexicon)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.detect.ner import (
    Encoded,
    _is_edge_noise,
    calibrate,
    decode,
    gather_tokens,
    owner_window,
    windows,
)
from core.entities import EntityType
from core.lexicon import _is_cased, is_cased
from core.spans import Span

LABELS = ["O", "B-PERSON", "I-PERSON", "B-EMAIL", "I-EMAIL", "B-LOCATION", "I-LOCATION"]


def reference_decode(
    text: str, enc: Encoded, probs: np.ndarray, labels: Sequence[str], threshold: float
) -> list[Span]:
    """The decode as it was written first: one word at a time, in Python."""
    n = len(enc.ids)
    if n == 0:
        return []
    types = sorted({lab[2:] for lab in labels if lab != "O"})
    t_index = {t: i for i, t in enumerate(types)}
    b_cols = np.zeros((len(labels), len(types)))
    i_cols = np.zeros((len(labels), len(types)))
    o_col = labels.index("O")
    for j, lab in enumerate(labels):
        if lab != "O":
            (b_cols if lab.startswith("B-") else i_cols)[j, t_index[lab[2:]]] = 1.0
    p_b = probs @ b_cols
    p_i = probs @ i_cols
    p_ent = 1.0 - probs[:, o_col]
    words: list[tuple[int, int]] = []
    start = 0
    for k in range(1, n + 1):
        if k == n or enc.words[k] != enc.words[start] or enc.words[k] < 0:
            words.append((start, k))
            start = k
    runs: list[list[tuple[int, int, int, float]]] = []
    prev_type = -1
    for a, b in words:
        score = float(p_ent[a:b].max())
        if score < threshold:
            prev_type = -1
            continue
        mass = (p_b[a:b] + p_i[a:b]).sum(axis=0)
        t = int(mass.argmax())
        begins = bool(p_b[a, t] > p_i[a, t])
        word = (enc.offsets[a][0], enc.offsets[b - 1][1], t, score)
        if prev_type == t and not begins:
            runs[-1].append(word)
        else:
            runs.append([word])
        prev_type = t
    spans = []
    for run in runs:
        while run and _is_edge_noise(text[run[0][0] : run[0][1]]):
            run = run[1:]
        while run and _is_edge_noise(text[run[-1][0] : run[-1][1]]):
            run = run[:-1]
        if run and run[-1][1] > run[0][0]:
            p = float(np.mean([w[3] for w in run]))
            score = round(min(1.0, max(0.0, calibrate(p, threshold))), 4)
            spans.append(
                Span(run[0][0], run[-1][1], EntityType(types[run[0][2]]), score, {"ner": score})
            )
    return spans


def _random_case(rng: np.random.Generator, n: int) -> tuple[str, Encoded, np.ndarray]:
    """``n`` tokens of random words (some split into pieces, some outside any word: -1),
    with a text to match and peaked random label probabilities."""
    pieces = ["ann", "lee", ",", "and", "x", ".", "org", "@", "of", "kim", "-", "99"]
    text, offsets, words = "", [], []
    word = -1
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            wid = -1
        elif r < 0.45 and word >= 0 and words and words[-1] == word:
            wid = word  # another piece of the same word
        else:
            word += 1
            wid = word
            text += " "
        piece = pieces[int(rng.integers(len(pieces)))]
        offsets.append((len(text), len(text) + len(piece)))
        text += piece
        words.append(wid)
    logits = rng.normal(0.0, 1.0, size=(n, len(LABELS))) * rng.uniform(0.5, 6.0)
    logits[:, 0] += rng.uniform(-3.0, 3.0)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = (e / e.sum(axis=1, keepdims=True)).astype(
        np.float32 if rng.random() < 0.5 else np.float64
    )
    return text, Encoded(list(range(n)), offsets, words), probs


def _key(spans: Sequence[Span]) -> list[tuple[object, ...]]:
    return [(s.start, s.end, s.type, s.score, repr(s)) for s in spans]


@pytest.mark.parametrize("seed", range(300))
def test_vectorized_decode_equals_the_word_by_word_reference(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 80))
    text, enc, probs = _random_case(rng, n)
    for threshold in (0.05, 0.3, 0.5, 0.8, float(rng.uniform(0.01, 0.99))):
        got = decode(text, enc, probs, LABELS, threshold)
        want = reference_decode(text, enc, probs, LABELS, threshold)
        assert _key(got) == _key(want)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40), threshold=st.floats(0.0, 1.0))
def test_vectorized_decode_equals_the_reference_for_any_threshold(seed, n, threshold):
    text, enc, probs = _random_case(np.random.default_rng(seed), n)
    got = decode(text, enc, probs, LABELS, threshold)
    assert _key(got) == _key(reference_decode(text, enc, probs, LABELS, threshold))


def test_decode_of_no_tokens_is_empty():
    assert decode("", Encoded([], [], []), np.zeros((0, len(LABELS))), LABELS, 0.5) == []


@pytest.mark.parametrize("n", [1, 30, 127, 390])
def test_gather_with_a_given_owner_equals_gather_alone(n):
    rng = np.random.default_rng(n)
    spans = windows(n, 62, 8)
    probs = rng.random((len(spans), max(e - s for s, e in spans) + 2, 5)).astype(np.float32)
    alone = gather_tokens(probs, spans, n)
    given_owner = gather_tokens(probs, spans, n, owner_window(n, spans))
    assert np.array_equal(alone, given_owner)


def _plain_is_cased(text: str) -> bool:
    import re

    words = re.findall(r"[^\W\d_]+", text[:4000])
    if len(words) < 6:
        return False
    capital = sum(1 for w in words if w[0].isupper())
    return capital / len(words) >= 0.06 and not all(w.isupper() for w in words)


CASED_TEXTS = [
    "",
    "hello there how are you doing today",
    "Hello there, how are you doing today?",
    "MY NAME IS ANN LEE AND I LIVE HERE",
    "Dear Dr. Kim, the results from Ashworth Lane arrived on Monday.",
    "short Text",
    "x" * 5000 + " Ann Lee is here and there and everywhere",
    "lower " * 900 + "Upper " * 200,  # the capitals fall past the first 4000 characters
    "Élodie García écrit à Zoë depuis Montréal ce matin",
]


@pytest.mark.parametrize("text", CASED_TEXTS)
def test_cached_is_cased_answers_as_the_plain_function(text):
    _is_cased.cache_clear()
    first = is_cased(text)
    again = is_cased(text)  # from the cache
    assert first == again == _plain_is_cased(text)
    assert isinstance(first, bool)


def test_is_cased_cache_is_bounded_and_hit():
    _is_cased.cache_clear()
    rng = np.random.default_rng(7)
    texts = [
        " ".join("Word" if rng.random() < 0.1 else "word" for _ in range(int(k)))
        for k in rng.integers(0, 40, size=200)
    ]
    for t in texts:
        assert is_cased(t) == _plain_is_cased(t)
    before = _is_cased.cache_info()
    assert before.currsize <= 64
    is_cased(texts[-1])
    assert _is_cased.cache_info().hits == before.hits + 1
