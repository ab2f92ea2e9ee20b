"""The sentence encoder at run time: all-MiniLM-L6-v2 as ONNX, run by onnxruntime.

The graph in ``models/encoder/`` already does what sentence-transformers does
after BERT (mean pooling over the attention mask, then L2 normalization), so a
forward pass returns the same 384-dimensional sentence embeddings the router
was trained on. Tokenization uses the model's own ``tokenizer.json`` with the
``tokenizers`` library, truncating at 256 word pieces like sentence-transformers.
The sentences of one query are encoded one by one, on parallel workers (see
:meth:`SentenceEncoder.encode`).

``python -m training.router export-encoder`` builds the artifact.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.errors import ArtifactError, ModelLoadError

log = logging.getLogger(__name__)

NAME = "encoder"
DIM = 384
#: sentence-transformers' max_seq_length for all-MiniLM-L6-v2.
MAX_TOKENS = 256
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "sentence_embedding"


def default_workers() -> int:
    """Parallel one-sentence passes: the CPUs, at most 4 (each pass uses one thread)."""
    return max(1, min(4, os.cpu_count() or 1))


def load_artifact(name: str, folder: Path | None = None) -> tuple[Path, dict[str, Any]]:
    """Verify artifact ``name`` against its manifest; return its folder and manifest.

    The loader's own errors are wrapped in :class:`ArtifactError`, whose message
    names the file and the command that rebuilds it.
    """
    import models

    try:
        manifest = models.verify(name, folder)
    except (models.ArtifactMissing, models.ArtifactCorrupt) as exc:
        raise ArtifactError(str(exc)) from exc
    return (folder or models.artifact_dir(name)), manifest


def ort_session(path: Path, threads: int | None = None) -> Any:
    """An onnxruntime CPU session for ``path`` (lazy import, actionable message)."""
    try:
        import onnxruntime as ort
    except ImportError as exc:  # pragma: no cover - a runtime dependency
        raise ModelLoadError(
            "onnxruntime is not installed.", hint="pip install onnxruntime"
        ) from exc
    opts = ort.SessionOptions()
    if threads:
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ModelLoadError(f"The model file {path} cannot be loaded: {exc}") from exc


class SentenceEncoder:
    """Encodes sentences into normalized MiniLM embeddings (``float32[n, 384]``).

    Thread-safe: the session and tokenizer are created lazily under a lock;
    onnxruntime sessions may be run from several threads, which is how
    ``workers`` one-sentence passes run side by side (onnxruntime releases the
    GIL). ``threads`` is each pass's intra-op thread count. One-sentence
    embeddings do not depend on their neighbours, so the last ``cache_size``
    are kept: while the person types, only the edited sentence is encoded again.
    """

    def __init__(
        self,
        folder: Path | None = None,
        *,
        model_file: str | None = None,
        threads: int | None = None,
        workers: int | None = None,
        cache_size: int = 512,
    ) -> None:
        self._folder = folder
        self._model_file = model_file
        self._threads = threads
        self._workers = default_workers() if workers is None else max(1, workers)
        self._pool: ThreadPoolExecutor | None = None
        self._cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self.manifest: dict[str, Any] = {}

    def clear_cache(self) -> None:
        """Forget the kept embeddings (benchmarks of a cold text)."""
        with self._lock:
            self._cache.clear()

    @property
    def workers(self) -> int:
        """How many one-sentence passes run at once."""
        return self._workers

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            folder, manifest = load_artifact(NAME, self._folder)
            model_file = self._model_file or str(manifest.get("model_file", "model.onnx"))
            try:
                from tokenizers import Tokenizer
            except ImportError as exc:  # pragma: no cover - a runtime dependency
                raise ModelLoadError(
                    "The tokenizers library is not installed.", hint="pip install tokenizers"
                ) from exc
            tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
            tok.enable_truncation(int(manifest.get("max_tokens", MAX_TOKENS)))
            # Pad to the longest sentence of the batch, not to a fixed length.
            tok.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tok
            self.manifest = manifest
            self._session = ort_session(folder / model_file, self._threads)

    def encode(self, texts: Sequence[str], batch_size: int = 1) -> npt.NDArray[np.float32]:
        """Embed ``texts`` (one row each, L2-normalized); an empty list gives ``(0, 384)``.

        One sentence per run by default: int8 dynamic quantization scales the
        activations over the whole batch, padding included, so a batched
        sentence's embedding would depend on its neighbours. The runs are
        independent, so they go to ``workers`` threads at once; the result is
        the same as one by one (19 sentences of an email: 40 ms on two workers
        against 84 ms in a row, two cores).
        """
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        self._load()
        if batch_size == 1 and self._cache_size > 0:
            return self._encode_cached(texts)
        return self._encode(texts, batch_size)

    def _encode_cached(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        with self._lock:
            known = {t: self._cache[t] for t in texts if t in self._cache}
            for t in known:
                self._cache.move_to_end(t)
        todo = list(dict.fromkeys(t for t in texts if t not in known))
        if todo:
            fresh = self._encode(todo, 1)
            with self._lock:
                for t, row in zip(todo, fresh, strict=True):
                    known[t] = self._cache[t] = row
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return np.stack([known[t] for t in texts]).astype(np.float32, copy=False)

    def _encode(self, texts: Sequence[str], batch_size: int) -> npt.NDArray[np.float32]:
        # Sorting by length keeps padding small when a batch mixes long and short sentences.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        batches = [order[a : a + batch_size] for a in range(0, len(order), batch_size)]
        if self._workers > 1 and len(batches) > 1:
            out = list(self._executor().map(lambda idx: self._run(texts, idx), batches))
        else:
            out = [self._run(texts, idx) for idx in batches]
        emb = np.concatenate(out).astype(np.float32, copy=False)
        result = np.empty_like(emb)
        result[np.array(order)] = emb
        return result

    def _run(self, texts: Sequence[str], idx: list[int]) -> npt.NDArray[np.float32]:
        enc = self._tokenizer.encode_batch([texts[i] for i in idx])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {INPUTS[0]: ids, INPUTS[1]: mask, INPUTS[2]: np.zeros_like(ids)}
        out: npt.NDArray[np.float32] = self._session.run([OUTPUT], feeds)[0]
        return out

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="encoder")
            return self._pool
