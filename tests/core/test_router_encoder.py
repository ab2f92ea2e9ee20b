"""The ONNX sentence encoder at run time (models/encoder, onnxruntime + tokenizers)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from core.errors import ArtifactError
from core.router.encoder import DIM, SentenceEncoder

SENTENCES = [
    "My doctor wants to see me again next week.",
    "My physician asked me to come back in a few days.",
    "The stock market fell sharply on Tuesday.",
    "ok",
    "Please rewrite the following paragraph in a more formal tone, keeping every fact: " * 4,
]


@pytest.fixture(scope="module")
def encoder() -> SentenceEncoder:
    return SentenceEncoder(threads=1)


def test_embeddings_are_unit_vectors_one_per_sentence(encoder):
    emb = encoder.encode(SENTENCES)
    assert emb.shape == (len(SENTENCES), DIM) and emb.dtype == np.float32
    assert np.allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-4)
    assert encoder.encode([]).shape == (0, DIM)


def test_paraphrases_are_closer_than_unrelated_sentences(encoder):
    a, b, c = encoder.encode(SENTENCES[:3])
    assert a @ b > a @ c + 0.2


def test_a_sentence_embeds_the_same_whatever_its_neighbours(encoder):
    together = encoder.encode(SENTENCES)
    alone = np.stack([encoder.encode([s])[0] for s in SENTENCES])
    assert np.abs(together - alone).max() < 1e-6
    # Padded batches stay close (int8 scales activations per batch, so not identical).
    padded = encoder.encode(SENTENCES, batch_size=8)
    assert np.min(np.sum(padded * alone, axis=1)) > 0.95


def test_a_missing_encoder_names_the_export_command(tmp_path):
    import models

    folder = tmp_path / "encoder"
    shutil.copytree(models.artifact_dir("encoder"), folder)
    (folder / "tokenizer.json").unlink()
    with pytest.raises(ArtifactError) as err:
        SentenceEncoder(folder).encode(["hello"])
    assert "python -m training.router export-encoder" in str(err.value)


def test_parallel_workers_give_the_same_embeddings_as_one_by_one(encoder):
    serial = SentenceEncoder(threads=1, workers=1)
    parallel = SentenceEncoder(threads=1, workers=3)
    texts = SENTENCES * 3
    a, b = serial.encode(texts), parallel.encode(texts)
    assert np.array_equal(a, b)
    assert np.array_equal(b[: len(SENTENCES)], b[len(SENTENCES) : 2 * len(SENTENCES)])


def test_cached_embeddings_equal_fresh_ones_and_the_cache_is_bounded():
    cached = SentenceEncoder(threads=1, workers=2, cache_size=4)
    fresh = SentenceEncoder(threads=1, workers=1, cache_size=0)
    first = cached.encode(SENTENCES)
    again = cached.encode(list(reversed(SENTENCES)))
    assert np.array_equal(again, first[::-1])
    assert np.array_equal(first, fresh.encode(SENTENCES))
    assert len(cached._cache) == 4
