"""The NER view's windowing and decoding, without a model (core.detect.ner)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from core.detect.ner import Encoded, batch_inputs, calibrate, decode, gather_tokens, windows
from core.entities import EntityType

LABELS = ["O", "B-PERSON", "I-PERSON", "B-EMAIL", "I-EMAIL"]


@pytest.mark.parametrize("n", [1, 5, 126, 127, 200, 390, 1000, 5000])
@pytest.mark.parametrize(("size", "overlap"), [(126, 16), (62, 8), (30, 20)])
def test_windows_cover_every_token_with_the_overlap(n, size, overlap):
    spans = windows(n, size, overlap)
    assert spans[0][0] == 0 and spans[-1][1] == n
    assert all(0 < e - s <= size for s, e in spans)
    for (_, e1), (s2, _) in pairwise(spans):
        assert e1 - s2 >= min(overlap, size // 2)  # shared tokens
    lengths = {e - s for s, e in spans}
    assert max(lengths) - min(lengths) <= 1  # no padding wasted in a batch


def test_gather_reads_each_token_from_its_most_central_window():
    spans = [(0, 6), (4, 10)]
    probs = np.zeros((2, 8, 2))
    probs[0, :, 0] = 1.0  # window 0 votes label 0
    probs[1, :, 1] = 1.0  # window 1 votes label 1
    out = gather_tokens(probs, spans, 10)
    assert out[:4, 0].tolist() == [1, 1, 1, 1]  # tokens 0-3 only in window 0
    assert out[6:, 1].tolist() == [1, 1, 1, 1]  # tokens 6-9 only in window 1
    assert out[4, 0] == 1 and out[5, 1] == 1  # shared tokens: the more central window


def test_batch_inputs_wrap_windows_in_special_tokens_and_pad():
    feeds = batch_inputs([7, 8, 9], [(0, 3), (1, 2)], cls_id=101, sep_id=102)
    assert feeds["input_ids"].tolist() == [[101, 7, 8, 9, 102], [101, 8, 102, 0, 0]]
    assert feeds["attention_mask"].tolist() == [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]
    assert feeds["input_ids"].dtype == np.int64


def _probs(rows):
    out = np.full((len(rows), len(LABELS)), 0.0)
    for i, (label, p) in enumerate(rows):
        out[i, LABELS.index(label)] = p
        out[i, 0] += 1.0 - p
    return out


TEXT = "hi ann lee, mail ann@x.org"
# tokens: hi | ann | lee | , | mail | ann | @ | x | . | org
ENC = Encoded(
    ids=list(range(10)),
    offsets=[
        (0, 2),
        (3, 6),
        (7, 10),
        (10, 11),
        (12, 16),
        (17, 20),
        (20, 21),
        (21, 22),
        (22, 23),
        (23, 26),
    ],
    words=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
)


def test_decode_joins_words_of_one_entity_and_keeps_offsets():
    probs = _probs(
        [
            ("O", 0.0),
            ("B-PERSON", 0.9),
            ("I-PERSON", 0.8),
            ("O", 0.0),
            ("O", 0.0),
            ("B-EMAIL", 0.9),
            ("I-EMAIL", 0.9),
            ("I-EMAIL", 0.9),
            ("I-EMAIL", 0.9),
            ("I-EMAIL", 0.9),
        ]
    )
    spans = decode(TEXT, ENC, probs, LABELS, threshold=0.5)
    assert [(TEXT[s.start : s.end], s.type) for s in spans] == [
        ("ann lee", EntityType.PERSON),
        ("ann@x.org", EntityType.EMAIL),
    ]
    assert all(set(s.views) == {"ner"} and 0.5 <= s.score <= 1.0 for s in spans)


def test_decode_threshold_trades_precision_for_recall():
    probs = _probs([("O", 0.0), ("B-PERSON", 0.3), ("I-PERSON", 0.3)] + [("O", 0.0)] * 7)
    assert decode(TEXT, ENC, probs, LABELS, threshold=0.5) == []
    (span,) = decode(TEXT, ENC, probs, LABELS, threshold=0.2)
    assert TEXT[span.start : span.end] == "ann lee"


def test_decode_starts_a_new_span_on_a_begin_tag():
    probs = _probs([("O", 0.0), ("B-PERSON", 0.9), ("B-PERSON", 0.9)] + [("O", 0.0)] * 7)
    spans = decode(TEXT, ENC, probs, LABELS, threshold=0.5)
    assert [TEXT[s.start : s.end] for s in spans] == ["ann", "lee"]


def test_decode_takes_a_word_whole_when_one_piece_is_private():
    enc = Encoded(ids=[0, 1, 2], offsets=[(0, 2), (3, 6), (6, 9)], words=[0, 1, 1])
    probs = _probs([("O", 0.0), ("O", 0.0), ("I-PERSON", 0.9)])
    (span,) = decode("hi annalee", enc, probs, LABELS, threshold=0.5)
    assert (span.start, span.end) == (3, 9)


@pytest.mark.parametrize(
    ("p", "t", "expected"), [(0.2, 0.2, 0.5), (1.0, 0.2, 1.0), (0.6, 0.2, 0.75)]
)
def test_calibrate_puts_the_threshold_at_one_half(p, t, expected):
    assert calibrate(p, t) == pytest.approx(expected)
