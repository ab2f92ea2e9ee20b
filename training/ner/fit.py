"""The fine-tuning loop alone: windows of token ids and labels in, a model folder out.

:mod:`training.ner.train` cuts the texts into windows with the run-time
tokenizer and calls :func:`fit`; this module imports nothing of the project,
only torch and transformers, so the same loop runs on a machine that holds
nothing but those (a GPU machine without the project's dependencies)::

    python -m training.ner data --work build/ner ...      # writes build/ner/windows.jsonl.gz
    python -m training.ner.fit --windows build/ner/windows.jsonl.gz \\
        --base DIR --out build/ner/hf --epochs 2.5         # anywhere with torch
    python -m training.ner build --checkpoint build/ner/hf ...   # export, tune, evaluate

The windows file is gzip-compressed JSON lines: a header line with the label
names and the window length, then one ``{"ids": [...], "labels": [...]}`` per
window (``-100`` on tokens without a label). The loop, the batching and the
learning-rate schedule are the ones the shipped model was trained with; on a CUDA
device the arithmetic is the same (fp32), only faster.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import math
import os
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

IGNORE = -100
WINDOWS_FORMAT = "sottovoce-ner-windows/1"


@dataclass
class Window:
    ids: list[int]
    labels: list[int]


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
    max_len: int = 128
    log_every: int = 50

    @classmethod
    def from_args(cls, args: argparse.Namespace, **fixed: Any) -> TrainConfig:
        """The options both command lines take (``--epochs``, ``--batch-size``, ...)."""
        names = ("epochs", "batch_size", "lr", "threads", "seed", "max_steps")
        return cls(**{n: getattr(args, n) for n in names}, **fixed)


def save_windows(path: Path, items: Sequence[Window], labels: Sequence[str], max_len: int) -> None:
    """Write ``items`` with a header naming the labels (see the module's docstring)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        header = {"format": WINDOWS_FORMAT, "labels": list(labels), "max_len": max_len}
        fh.write(json.dumps(header) + "\n")
        for w in items:
            fh.write(json.dumps({"ids": w.ids, "labels": w.labels}, separators=(",", ":")) + "\n")


def load_windows(path: Path) -> tuple[list[Window], list[str], int]:
    """The windows, the label names and the window length of a file :func:`save_windows` wrote."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        header = json.loads(fh.readline())
        if header.get("format") != WINDOWS_FORMAT:
            raise ValueError(f"{path} is not a windows file ({WINDOWS_FORMAT})")
        items = []
        for line in fh:
            row = json.loads(line)
            if len(row["ids"]) != len(row["labels"]):
                raise ValueError(f"{path}: a window's ids and labels differ in length")
            items.append(Window(row["ids"], row["labels"]))
    return items, list(header["labels"]), int(header["max_len"])


def _batches(items: list[Window], batch_size: int, rng: random.Random) -> list[list[Window]]:
    # Batches of similar length waste little on padding; their order is shuffled.
    order = sorted(range(len(items)), key=lambda i: (len(items[i].ids), rng.random()))
    batches = [
        [items[i] for i in order[k : k + batch_size]] for k in range(0, len(order), batch_size)
    ]
    rng.shuffle(batches)
    return batches


def _tensors(batch: list[Window], device: Any = None) -> dict[str, Any]:
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
    out = {
        "input_ids": ids,
        "attention_mask": mask,
        "token_type_ids": torch.zeros_like(ids),
        "labels": labels,
    }
    return {k: v.to(device) for k, v in out.items()} if device is not None else out


def pick_device(name: str = "auto") -> str:
    """``cuda`` when asked for or (``auto``) when torch sees one, else ``cpu``."""
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError("a CUDA device was asked for and torch sees none")
    return name


def fit(
    items: Sequence[Window],
    labels: Sequence[str],
    base: Path,
    out_dir: Path,
    config: TrainConfig | None = None,
    device: str = "auto",
) -> dict[str, Any]:
    """Fine-tune the model in ``base`` on ``items``; save it to ``out_dir``; return a summary."""
    import torch
    from transformers import AutoModelForTokenClassification

    cfg = config or TrainConfig()
    dev = pick_device(device)
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    work = list(items)
    label2id = {label: i for i, label in enumerate(labels)}
    model = AutoModelForTokenClassification.from_pretrained(
        str(base),
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id=label2id,
        dtype=torch.float32,  # a base carried in half precision trains in full precision
    )
    model.to(dev)
    model.train()
    steps_per_epoch = math.ceil(len(work) / cfg.batch_size)
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
        for batch in _batches(work, cfg.batch_size, rng):
            out = model(**_tensors(batch, dev))
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
    model.to("cpu")
    model.save_pretrained(str(out_dir))
    summary = {
        "windows": len(work),
        "tokens": sum(len(w.ids) for w in work),
        "steps": step,
        "epochs": round(step / steps_per_epoch, 3),
        "batch_size": cfg.batch_size,
        "lr": cfg.lr,
        "seed": cfg.seed,
        "threads": cfg.threads,
        "max_len": cfg.max_len,
        "device": dev if dev == "cpu" else f"{dev} ({torch.cuda.get_device_name(0)})",
        "train_seconds": round(seconds, 1),
        "final_loss": round(sum(losses[-50:]) / max(1, len(losses[-50:])), 4),
    }
    (out_dir / "train_summary.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    p = argparse.ArgumentParser(prog="python -m training.ner.fit", description=__doc__.split("\n")[0])
    p.add_argument("--windows", required=True, help="a windows file (python -m training.ner data)")
    p.add_argument("--base", required=True, help="the base model's folder (config and weights)")
    p.add_argument("--out", required=True, help="the folder the fine-tuned model is saved to")
    d = TrainConfig()
    p.add_argument("--epochs", type=float, default=d.epochs)
    p.add_argument("--batch-size", type=int, default=d.batch_size)
    p.add_argument("--lr", type=float, default=d.lr)
    p.add_argument("--threads", type=int, default=d.threads)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--max-steps", type=int)
    p.add_argument("--device", default="auto", help="auto (CUDA when there), cpu or cuda")
    p.add_argument(
        "--half", action="store_true", help="save the weights in float16 (half the bytes to carry)"
    )
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    items, labels, max_len = load_windows(Path(args.windows))
    cfg = TrainConfig.from_args(args, max_len=max_len)
    out = Path(args.out)
    summary = fit(items, labels, Path(args.base), out, cfg, device=args.device)
    if args.half:
        half(out)
        summary["saved_as"] = "float16"
        (out / "train_summary.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
    print(json.dumps({"config": asdict(cfg), **summary}, indent=2))
    return 0


def half(folder: Path) -> None:
    """Rewrite the saved weights of ``folder`` in float16 (loaded back as float32)."""
    import torch
    from transformers import AutoModelForTokenClassification

    model = AutoModelForTokenClassification.from_pretrained(str(folder), dtype=torch.float32)
    model.half().save_pretrained(str(folder))


if __name__ == "__main__":
    raise SystemExit(main())
