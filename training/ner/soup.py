"""A weight average of two NER models fine-tuned from the same base ("model soup").

Every rebuild of the NER on more name data found more names and read more public names
and code as names: better recall, worse precision, held by the gate each time. Two
models fine-tuned from one pre-trained encoder lie in one basin of the loss, and the
average of their weights behaves between them (Wortsman et al., "Model soups", 2022;
Ilharco et al., "Editing models with task arithmetic", 2023): a soup of the shipped model
and a rebuild can take part of the rebuild's recall for less of its precision, with one
encoder pass as before. ``weight`` is the rebuild's share.

The shipped model exists only as its int8 ONNX file (fused by onnxruntime's transformer
optimizer, then dynamically quantized): :func:`weights_from_onnx` reads its tensors back
into the Hugging Face names, dequantized. The soup is saved as a Hugging Face checkpoint
that ``python -m training.ner build --checkpoint DIR`` exports, tunes and evaluates like
any other model.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

_LAYER = re.compile(r"/bert/encoder/layer\.(\d+)/(attention/output|intermediate|output)/dense/")


def _dequantized(tensors: dict[str, np.ndarray], name: str) -> np.ndarray:
    """An initializer as float32: ``NAME`` itself, or ``NAME_quantized`` with its scale
    and zero point (onnxruntime's per-tensor dynamic quantization)."""
    if name in tensors:
        return tensors[name].astype(np.float32)
    q = tensors[f"{name}_quantized"].astype(np.float32)
    zero = tensors[f"{name}_zero_point"].astype(np.float32)
    return (q - zero) * tensors[f"{name}_scale"].astype(np.float32)


def weights_from_onnx(path: Path, hidden: int = 384) -> dict[str, np.ndarray]:
    """The state dict (Hugging Face ``BertForTokenClassification`` names, float32) of a
    NER exported by :mod:`training.ner.export`: fused attention (``Attention_i_qkv``),
    int8 matrices (``MatMulInteger`` on ``onnx::MatMul_*``), biases and norms by name."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    tensors = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    out: dict[str, np.ndarray] = {}
    emb = "bert.embeddings."
    for part in ("word_embeddings", "position_embeddings", "token_type_embeddings"):
        out[f"{emb}{part}.weight"] = _dequantized(tensors, f"{emb}{part}.weight")
    for part in ("weight", "bias"):
        out[f"{emb}LayerNorm.{part}"] = _dequantized(tensors, f"{emb}LayerNorm.{part}")
    layers = 0
    while f"Attention_{layers}_qkv_bias" in tensors:
        qkv = _dequantized(tensors, f"Attention_{layers}_qkv_weight")  # [in, 3 * hidden]
        bias = _dequantized(tensors, f"Attention_{layers}_qkv_bias")
        for k, part in enumerate(("query", "key", "value")):
            pre = f"bert.encoder.layer.{layers}.attention.self.{part}."
            out[pre + "weight"] = qkv[:, k * hidden : (k + 1) * hidden].T.copy()
            out[pre + "bias"] = bias[k * hidden : (k + 1) * hidden].copy()
        layers += 1
    for node in model.graph.node:
        if node.op_type not in ("MatMulInteger", "MatMul"):
            continue
        weight = node.input[1].removesuffix("_quantized")
        m = _LAYER.search(node.output[0])
        if m:
            name = f"bert.encoder.layer.{m.group(1)}.{m.group(2).replace('/', '.')}.dense.weight"
        elif "classifier" in node.output[0] or node.output[0].startswith("logits"):
            name = "classifier.weight"
        else:
            continue
        out[name] = _dequantized(tensors, weight).T.copy()
    for name, value in tensors.items():
        if name.startswith(("bert.encoder.", "classifier.")) and not name.endswith(
            ("_scale", "_zero_point", "_quantized")
        ):
            out[name] = value.astype(np.float32)
    return out


def soup(a: Path, b: Path, weight: float, out: Path) -> dict[str, Any]:
    """Save ``(1 - weight) * A + weight * B`` as a Hugging Face checkpoint in ``out``.

    ``a`` is a built model folder (its ``model.onnx``) or a Hugging Face checkpoint;
    ``b`` is a Hugging Face checkpoint, whose configuration the result has.
    """
    import torch
    from transformers import AutoModelForTokenClassification

    def load(path: Path) -> Any:
        return AutoModelForTokenClassification.from_pretrained(str(path), dtype=torch.float32)

    if not (b / "config.json").is_file():
        raise SystemExit(f"{b} is no Hugging Face checkpoint (config.json): give it as B")
    model = load(b)
    own = model.state_dict()
    sb = {k: v.detach().numpy() for k, v in own.items()}
    if (a / "model.onnx").is_file():
        sa = weights_from_onnx(a / "model.onnx")
    else:
        sa = {k: v.detach().numpy() for k, v in load(a).state_dict().items()}
    missing = sorted(k for k in own if k not in sa and "position_ids" not in k)
    if missing:
        raise SystemExit(f"{a} lacks {len(missing)} tensors, e.g. {missing[:3]}")
    mixed = {}
    for k, v in own.items():
        if k not in sa:
            mixed[k] = v
            continue
        x, y = sa[k], sb[k]
        if x.shape != tuple(v.shape):
            raise SystemExit(f"{k}: {x.shape} in {a}, {tuple(v.shape)} in {b}")
        mixed[k] = torch.from_numpy((1.0 - weight) * x + weight * y).to(v.dtype)
    model.load_state_dict(mixed)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    summary: dict[str, Any] = {}
    path = b / "train_summary.json"
    if path.is_file():
        summary = json.loads(path.read_text("utf-8"))
    summary["soup"] = {"a": a.name, "b": b.name, "weight_b": weight}
    (out / "train_summary.json").write_text(json.dumps(summary, indent=2), "utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.ner.soup", description=__doc__)
    p.add_argument("--a", required=True, help="model A: a built model folder or a checkpoint")
    p.add_argument("--b", required=True, help="model B: a Hugging Face checkpoint folder")
    p.add_argument("--weight", type=float, default=0.5, help="B's share of the average")
    p.add_argument("--out", required=True, help="where to save the averaged checkpoint")
    args = p.parse_args(argv)
    if not 0.0 <= args.weight <= 1.0:
        p.error("--weight is a share between 0 and 1")
    summary = soup(Path(args.a), Path(args.b), args.weight, Path(args.out))
    print(json.dumps(summary["soup"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
