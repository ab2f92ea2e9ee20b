"""The privacy NER view: a fine-tuned MiniLM token classifier run by onnxruntime.

The model (``models/ner/model.onnx``, int8) and its ``tokenizer.json`` are
checked against their manifest at load. Text is tokenized by the ``tokenizers``
library with character offsets, cut into overlapping windows of at most
``max_len`` tokens (each token is read from the window where it sits farthest
from an edge, so it sees context on both sides), and the per-token label
probabilities are decoded into spans word by word: a word is private when
``1 - P(O)`` reaches the decoding threshold, and consecutive private words of
one type form a span unless the model starts a new entity (``B-``) there.

No torch and no transformers here: the same windowing and decoding functions
are imported by the training code, so training and run time cannot drift apart.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.entities import EntityType
from core.errors import ArtifactError, ModelLoadError
from core.spans import Span

log = logging.getLogger(__name__)

NAME = "ner"
ARTIFACT = "ner"
REBUILD = "python -m training.ner build"


# --- tokenization and windows (shared with training) ---------------------------------


@dataclass
class Encoded:
    """The content tokens of a text (no special tokens) with their character offsets."""

    ids: list[int]
    offsets: list[tuple[int, int]]
    words: list[int]  # word index of each token (BERT pre-tokenizer words)


#: The character a model built since line breaks count reads for each line break
#: (its manifest's ``decode.newline``). A WordPiece tokenizer drops "\n" as
#: white space, so without it "Annelise Brockhurst\nAddress: ..." reads as one
#: name of three words; "¶" is one token of the base model's vocabulary, and one
#: character for one keeps every offset.
NEWLINE = "\u00b6"


#: The output of the encoder's last hidden states (``training.ner.states``), their size,
#: and how many texts' states a view keeps for the router to read after the detector.
HIDDEN = "hidden"
STATE_DIM = 384
STATES_KEPT = 8


def encode(tokenizer: Any, text: str, newline: str | None = None) -> Encoded:
    """Tokenize ``text`` without special tokens; offsets index the original text.

    ``newline`` (one character) stands for each line break when the model was
    trained so (see :data:`NEWLINE`)."""
    if newline:
        if len(newline) != 1:
            raise ValueError("newline must be one character")
        text = text.replace("\n", newline)
    enc = tokenizer.encode(text, add_special_tokens=False)
    words = [w if w is not None else -1 for w in enc.word_ids]
    return Encoded(list(enc.ids), [tuple(o) for o in enc.offsets], words)


def windows(n: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Cut ``n`` tokens into the fewest windows ``[start, end)`` of at most ``size`` tokens.

    Neighbouring windows share at least ``overlap`` tokens, and all windows have
    (nearly) the same length, so a batch of them carries no padding: a 390-token
    text costs 4 windows of 110 tokens, not 4 of 126.
    """
    if n <= size:
        return [(0, n)]
    overlap = min(overlap, size // 2)
    k = -(-(n - overlap) // (size - overlap))  # ceil
    length = -(-(n + (k - 1) * overlap) // k)
    step = (n - length) / (k - 1)
    starts = [round(i * step) for i in range(k)]
    return [(s, min(n, s + length)) for s in starts[:-1]] + [(n - length, n)]


def owner_window(n: int, spans: Sequence[tuple[int, int]]) -> np.ndarray:
    """For each token, the window in which it is farthest from an edge."""
    best = np.full(n, -1, dtype=np.int64)
    margin = np.full(n, -1, dtype=np.int64)
    for w, (s, e) in enumerate(spans):
        idx = np.arange(s, e)
        m = np.minimum(idx - s, e - 1 - idx)
        better = m > margin[s:e]
        best[s:e][better] = w
        margin[s:e][better] = m[better]
    return best


def batch_inputs(
    ids: Sequence[int], spans: Sequence[tuple[int, int]], cls_id: int, sep_id: int, pad_id: int = 0
) -> dict[str, np.ndarray]:
    """``[CLS] window [SEP]`` rows padded to the longest, as int64 arrays for the model."""
    width = max(e - s for s, e in spans) + 2
    input_ids = np.full((len(spans), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(spans), width), dtype=np.int64)
    for row, (s, e) in enumerate(spans):
        seq = [cls_id, *ids[s:e], sep_id]
        input_ids[row, : len(seq)] = seq
        mask[row, : len(seq)] = 1
    return {
        "input_ids": input_ids,
        "attention_mask": mask,
        "token_type_ids": np.zeros_like(input_ids),
    }


def softmax(x: np.ndarray) -> np.ndarray:
    z = x - x.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def gather_tokens(
    probs: np.ndarray,
    spans: Sequence[tuple[int, int]],
    n: int,
    owner: np.ndarray | None = None,
) -> np.ndarray:
    """Per-token probabilities ``[n, labels]`` from per-window ones ``[windows, width, labels]``.

    ``owner`` is :func:`owner_window` ``(n, spans)`` when the caller has it already."""
    if owner is None:
        owner = owner_window(n, spans)
    out = np.empty((n, probs.shape[-1]), dtype=probs.dtype)
    for w, (s, _e) in enumerate(spans):
        idx = np.nonzero(owner == w)[0]
        if idx.size:
            out[idx] = probs[w, idx - s + 1]  # +1: the [CLS] row
    return out


def decode(
    text: str,
    enc: Encoded,
    probs: np.ndarray,
    labels: Sequence[str],
    threshold: float,
    view: str = NAME,
) -> list[Span]:
    """Turn per-token probabilities into typed spans, one word at a time.

    A word's private probability is the largest ``1 - P(O)`` of its tokens; its
    type is the entity type with the most probability mass over its tokens.
    Consecutive private words of the same type join one span (with the
    whitespace between them) unless the later one is more ``B-`` than ``I-``;
    punctuation is trimmed from a span's ends. A span's score
    is its words' mean private probability, :func:`calibrate`-d.
    """
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
    p_b = probs @ b_cols  # [n, types]
    p_i = probs @ i_cols
    p_ent = 1.0 - probs[:, o_col]

    # Group tokens into words (BERT pre-tokenizer words: whitespace and punctuation split):
    # a new word where the word index changes, and every token outside a word (-1) alone.
    wid = np.asarray(enc.words, dtype=np.int64)
    cut = (wid[1:] != wid[:-1]) | (wid[1:] < 0) | (wid[:-1] < 0)
    starts = np.concatenate(([0], np.nonzero(cut)[0] + 1))
    ends = np.append(starts[1:], n)
    word_max = np.maximum.reduceat(p_ent, starts)  # each word's private probability
    runs: list[list[tuple[int, int, int, float]]] = []  # words (start, end, type, score)
    prev_type = -1
    prev_word = -2
    for i in np.nonzero(~(word_max < threshold))[0].tolist():  # (a NaN counts, as before)
        if i != prev_word + 1:  # a word below the threshold lay between
            prev_type = -1
        prev_word = i
        a, b = int(starts[i]), int(ends[i])
        score = float(word_max[i])
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
        # A span neither starts nor ends on punctuation: at a low threshold a
        # lone comma or colon rides along with the names beside it.
        while run and _is_edge_noise(text[run[0][0] : run[0][1]]):
            run = run[1:]
        while run and _is_edge_noise(text[run[-1][0] : run[-1][1]]):
            run = run[:-1]
        if run and run[-1][1] > run[0][0]:
            p = float(np.mean([w[3] for w in run]))
            score = round(min(1.0, max(0.0, calibrate(p, threshold))), 4)
            spans.append(
                Span(run[0][0], run[-1][1], EntityType(types[run[0][2]]), score, {view: score})
            )
    return spans


_EDGE_WORDS = frozenset(
    {"and", "or", "in", "at", "of", "on", "to", "for", "with", "from", "by", "the"}
)


def _is_edge_noise(word: str) -> bool:
    return word.casefold() in _EDGE_WORDS or not any(c.isalnum() for c in word)


def calibrate(p: float, threshold: float) -> float:
    """Map a probability at or above the decoding threshold onto [0.5, 1].

    The fusion step compares every view's score with one single-view threshold
    (0.5 by default); rescaled this way, a span the NER decoded is kept on its
    own at the default setting, and raising the setting asks the NER for more
    confidence than its tuned threshold.
    """
    return 0.5 + 0.5 * (p - threshold) / max(1e-6, 1.0 - threshold)


# --- the view ----------------------------------------------------------------------------


def _providers() -> list[str]:
    import onnxruntime as ort

    available = ort.get_available_providers()
    if "CUDAExecutionProvider" in available and _cuda_usable():
        return ["CUDAExecutionProvider", "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


def _cuda_usable() -> bool:
    # onnxruntime-gpu lists the CUDA provider even on machines without a GPU or
    # CUDA libraries; asking for it there only fills the log with errors.
    try:
        import ctypes

        ctypes.CDLL("libcuda.so.1")
    except OSError:
        try:
            import ctypes

            ctypes.CDLL("nvcuda.dll")
        except (OSError, AttributeError):
            return False
    return True


def default_threads() -> int:
    """The CPUs, at most 4: onnxruntime's intra-op threads for the NER pass.

    The editor's analysis runs while the GUI thread waits for it, so the pass
    may use every core: the windows of a 2,000-character email (one batch)
    took 41 ms with two threads against 77 ms with one on a two-core machine.
    """
    import os

    return max(1, min(4, os.cpu_count() or 1))


class NerView:
    """Detection view over the shipped ONNX NER model.

    ``folder`` defaults to the ``ner`` artifact folder (:mod:`models`);
    ``threshold`` overrides the decoding threshold stored in the manifest;
    ``threads`` sets onnxruntime's intra-op threads (default: :func:`default_threads`).
    The model is loaded on first use, under a lock; inference is thread-safe.
    """

    name = NAME

    def __init__(
        self,
        folder: Path | None = None,
        *,
        threshold: float | None = None,
        threads: int | None = None,
        providers: Sequence[str] | None = None,
        artifact: str = ARTIFACT,
    ) -> None:
        self._folder = folder
        #: The artifact's name (``ner``, ``ner_languages``): its folder and its rebuild hint.
        self._artifact = artifact
        self._threshold = threshold
        self._threads = threads
        self._providers = list(providers) if providers else None
        self._lock = threading.Lock()
        self._loaded: tuple[Any, Any, dict[str, Any]] | None = None
        #: The token states of the last texts read (see :meth:`token_states`), kept once a
        #: reader asked for them (no router that reads them: no work on the detector's path).
        self._states: OrderedDict[str, tuple[list[tuple[int, int]], np.ndarray]] = OrderedDict()
        self.keep_states = False

    # -- loading

    def _load(self) -> tuple[Any, Any, dict[str, Any]]:
        if self._loaded is None:
            with self._lock:
                if self._loaded is None:
                    self._loaded = self._open()
        return self._loaded

    def _open(self) -> tuple[Any, Any, dict[str, Any]]:
        import models

        folder = self._folder or models.artifact_dir(self._artifact)
        rebuild = models.rebuild_hint(self._artifact)
        try:
            manifest = models.verify(self._artifact, folder)
        except models.ArtifactMissing as exc:
            raise ArtifactError(
                f"The NER model is missing: {exc}", hint=f"rebuild it with: {rebuild}"
            ) from exc
        except models.ArtifactCorrupt as exc:
            raise ArtifactError(
                f"The NER model is damaged: {exc}", hint=f"rebuild it with: {rebuild}"
            ) from exc
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
            tokenizer.no_truncation()
            tokenizer.no_padding()
            opts = ort.SessionOptions()
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            opts.intra_op_num_threads = self._threads or default_threads()
            opts.inter_op_num_threads = 1
            session = ort.InferenceSession(
                str(folder / "model.onnx"), opts, providers=self._providers or _providers()
            )
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise ArtifactError(
                f"The NER model in {folder} cannot be loaded ({type(exc).__name__}).",
                hint=f"rebuild it with: {rebuild}",
            ) from exc
        expected = set(manifest.get("inputs", []))
        actual = {i.name for i in session.get_inputs()}
        if expected and expected != actual:
            raise ArtifactError(
                f"{folder / 'model.onnx'} has inputs {sorted(actual)}, its manifest says "
                f"{sorted(expected)}.",
                hint=f"rebuild it with: {rebuild}",
            )
        log.info("NER model loaded with %s", session.get_providers())
        return session, tokenizer, manifest

    @property
    def manifest(self) -> dict[str, Any]:
        return self._load()[2]

    @property
    def threshold(self) -> float:
        if self._threshold is not None:
            return self._threshold
        return float(self.manifest.get("decode", {}).get("threshold", 0.5))

    @property
    def providers(self) -> list[str]:
        return list(self._load()[0].get_providers())

    # -- inference

    def probabilities(self, text: str) -> tuple[Encoded, np.ndarray]:
        """The text's tokens and their label probabilities ``[tokens, labels]``.

        A model with the ``hidden`` output (``python -m training.ner add-states``) also
        keeps the text's token states for :meth:`token_states` (the router's features:
        the text is encoded once)."""
        session, tokenizer, manifest = self._load()
        dec = manifest.get("decode", {})
        enc = encode(tokenizer, text, dec.get("newline"))
        n = len(enc.ids)
        labels = manifest["labels"]
        if n == 0:
            return enc, np.zeros((0, len(labels)), dtype=np.float32)
        size = int(dec.get("max_len", 128)) - 2
        spans = windows(n, size, int(dec.get("overlap", 16)))
        feeds = batch_inputs(
            enc.ids, spans, tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
        )
        feeds = {k: v for k, v in feeds.items() if k in manifest.get("inputs", feeds)}
        outputs = list(manifest.get("outputs", ["logits"]))
        wanted = outputs[:1] + ([HIDDEN] if self.keep_states and HIDDEN in outputs[1:] else [])
        try:
            results = session.run(wanted, feeds)
        except Exception as exc:
            raise ModelLoadError(
                f"The NER model failed on this text ({type(exc).__name__})."
            ) from exc
        owner = owner_window(n, spans)  # one for both outputs
        if len(results) > 1:
            states = gather_tokens(np.asarray(results[1], dtype=np.float32), spans, n, owner)
            with self._lock:
                self._states[text] = (list(enc.offsets), states)
                while len(self._states) > STATES_KEPT:
                    self._states.popitem(last=False)
        probs = softmax(np.asarray(results[0], dtype=np.float32))
        return enc, gather_tokens(probs, spans, n, owner)

    @property
    def has_states(self) -> bool:
        """Whether the model gives its token states (the ``hidden`` output)."""
        return HIDDEN in self.manifest.get("outputs", [])

    def token_states(self, text: str) -> tuple[list[tuple[int, int]], np.ndarray] | None:
        """The character offsets of ``text``'s tokens and their last hidden states
        ``float32[tokens, 384]``, from this view's last pass over ``text`` when there was
        one (else a pass now); None when the model has no ``hidden`` output."""
        if not self.has_states:
            return None
        self.keep_states = True
        with self._lock:
            kept = self._states.get(text)
        if kept is not None:
            return kept
        if not text.strip():
            return [], np.zeros((0, STATE_DIM), dtype=np.float32)
        self.probabilities(text)
        with self._lock:
            return self._states.get(text)

    def analyze(self, text: str) -> list[Span]:
        if not text.strip():
            return []
        enc, probs = self.probabilities(text)
        return decode(text, enc, probs, self.manifest["labels"], self.threshold)
