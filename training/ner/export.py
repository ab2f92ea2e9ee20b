"""Export the fine-tuned token classifier to ONNX, fuse, quantize to int8, and check parity.

Steps: ``torch.onnx.export`` (TorchScript exporter, ``dynamo=False``, opset 17,
dynamic batch and sequence axes) to fp32; onnxruntime's transformer optimizer
fuses attention, GELU and layer norms for BERT; ``quantize_dynamic`` turns the
weights of the fused graph into int8. Only the int8 file is shipped.

Parity is measured on fixture sentences: the fp32 export against torch (argmax
agreement and largest absolute logit difference) and the int8 model against
torch (argmax agreement), token by token over real tokens only.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.detect.ner import NEWLINE, batch_inputs, encode
from training.ner.states import HIDDEN, add_hidden_output
from training.ner.train import load_tokenizer

log = logging.getLogger(__name__)

OPSET = 17
INPUTS = ["input_ids", "attention_mask", "token_type_ids"]
OUTPUTS = ["logits"]

#: Sentences the parity check runs on (also used by the tests).
FIXTURES = [
    "hi, this is melissa grant, dob 04/18/1989, my pcp is dr. reena patel at keystone family clinic.",
    "My name is John Smith and I live at 742 Evergreen Terrace, Springfield. Call me at 555-201-3344.",
    "Please email maria.lopez89@gmail.com about MRN PR-44819 before March 3rd, 2024.",
    "Write a cover letter for Napco National Company in Dammam, Saudi Arabia.",
    "The weather is nice today and nothing here is private.",
    "Send a friendly e-mail to Sara thanking her for discussing FRC's IPAEP with me.",
]


def export_fp32(model_dir: Path, out: Path) -> None:
    """``torch.onnx.export`` of the saved model to ``out`` (fp32, opset 17)."""
    import torch
    from transformers import AutoModelForTokenClassification

    # Eager attention exports the classic pattern that onnxruntime fuses into one
    # Attention operator; the SDPA path exports a graph the fusion does not recognise.
    model = AutoModelForTokenClassification.from_pretrained(
        str(model_dir), attn_implementation="eager"
    )
    model.eval()
    model.config.return_dict = False
    ids = torch.ones((2, 16), dtype=torch.long)
    dummy = (ids, torch.ones_like(ids), torch.zeros_like(ids))
    axes = {name: {0: "batch", 1: "sequence"} for name in INPUTS + OUTPUTS}
    with torch.no_grad():
        torch.onnx.export(
            model,
            dummy,
            str(out),
            input_names=INPUTS,
            output_names=OUTPUTS,
            dynamic_axes=axes,
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )


def optimize(src: Path, out: Path, num_heads: int = 12, hidden: int = 384) -> bool:
    """Fuse the BERT graph with onnxruntime's transformer optimizer; False when it fails."""
    try:
        from onnxruntime.transformers import optimizer

        opt = optimizer.optimize_model(
            str(src), model_type="bert", num_heads=num_heads, hidden_size=hidden, opt_level=1
        )
        opt.save_model_to_file(str(out))
        return True
    except Exception as exc:  # the optimizer is best effort; the unfused graph still works
        log.warning("transformer graph fusion failed (%s); using the unfused graph", exc)
        shutil.copyfile(src, out)
        return False


def quantize(src: Path, out: Path) -> None:
    """Dynamic int8 quantization of the weights (activations quantized at run time)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # ONNX shape inference cannot type the outputs of the fused (com.microsoft)
    # operators; every tensor there is float32.
    quantize_dynamic(
        str(src),
        str(out),
        weight_type=QuantType.QInt8,
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )


def _session(path: Path) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def parity(
    model_dir: Path, fp32: Path, int8: Path, sentences: Sequence[str] = FIXTURES
) -> dict[str, float]:
    """Agreement of the ONNX models with torch on ``sentences``, over real tokens."""
    import torch
    from transformers import AutoModelForTokenClassification

    tokenizer = load_tokenizer(model_dir / "tokenizer.json")
    model = AutoModelForTokenClassification.from_pretrained(str(model_dir))
    model.eval()
    s32, s8 = _session(fp32), _session(int8)
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    agree32 = agree8 = total = 0
    max_diff = 0.0
    for text in sentences:
        enc = encode(tokenizer, text, NEWLINE)
        feeds = batch_inputs(enc.ids, [(0, len(enc.ids))], cls_id, sep_id)
        with torch.no_grad():
            ref = model(**{k: torch.from_numpy(v) for k, v in feeds.items()}).logits.numpy()
        (o32,) = s32.run(OUTPUTS, feeds)
        (o8,) = s8.run(OUTPUTS, feeds)
        ref, o32, o8 = ref[0, 1:-1], o32[0, 1:-1], o8[0, 1:-1]
        total += ref.shape[0]
        agree32 += int((ref.argmax(-1) == o32.argmax(-1)).sum())
        agree8 += int((ref.argmax(-1) == o8.argmax(-1)).sum())
        max_diff = max(max_diff, float(np.abs(ref - o32).max()))
    return {
        "tokens": total,
        "fp32_argmax_agreement": round(agree32 / total, 4),
        "fp32_max_abs_logit_diff": float(f"{max_diff:.3g}"),
        "int8_argmax_agreement": round(agree8 / total, 4),
    }


def export(model_dir: Path, out_dir: Path, work: Path, fuse: bool = True) -> dict[str, Any]:
    """Write ``out_dir/model.onnx`` (int8) and ``out_dir/tokenizer.json``; return export facts."""
    work.mkdir(parents=True, exist_ok=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    fp32 = work / "model-fp32.onnx"
    fused = work / "model-fp32-fused.onnx"
    export_fp32(model_dir, fp32)
    fused_ok = optimize(fp32, fused) if fuse else False
    if not fuse:
        shutil.copyfile(fp32, fused)
    quantize(fused, out_dir / "model.onnx")
    # The router reads the encoder's states of the same pass (training.ner.states).
    hidden = add_hidden_output(out_dir / "model.onnx")
    shutil.copyfile(model_dir / "tokenizer.json", out_dir / "tokenizer.json")
    facts: dict[str, Any] = {
        "opset": OPSET,
        "inputs": INPUTS,
        "outputs": [*OUTPUTS, HIDDEN],
        "hidden_states": {
            "tensor": hidden,
            "what": "the classifier's input, float[batch, sequence, 384]",
        },
        "graph_fusion": fused_ok,
        "quantization": "onnxruntime quantize_dynamic, int8 weights (QInt8)",
        "size_bytes": (out_dir / "model.onnx").stat().st_size,
        "fp32_size_bytes": fp32.stat().st_size,
    }
    facts["parity"] = parity(model_dir, fp32, out_dir / "model.onnx")
    return facts
