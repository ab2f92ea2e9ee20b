"""The NER's last hidden states as a second output of its ONNX file (``hidden``).

The router reads each sentence through the detector's own encoder pass (issue:
"one encoder pass"): the NER is all-MiniLM-L6-v2 fine-tuned for tokens, and the
states its classifier reads, ``float[batch, sequence, 384]``, are already
computed for every message; exposing them costs one more output of the same
graph. The logits do not change (the gate and the parity test check it).

``python -m training.ner add-states [--folder models/ner]`` adds the output to a
built model and updates its manifest; :func:`training.ner.export.export` adds it
to every new build.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: The output's name (``core.detect.ner`` asks for it when the manifest lists it).
HIDDEN = "hidden"
LOGITS = "logits"


def hidden_tensor(graph: Any) -> str:
    """The float tensor the token classifier reads: the encoder's last hidden states.

    Walks back from ``logits`` through the classifier's own nodes (``/classifier/``,
    and the dynamic quantization of its input in an int8 graph) to the first
    tensor another part of the graph made.
    """
    producers = {out: node for node in graph.node for out in node.output}
    initializers = {t.name for t in graph.initializer}
    seen: set[str] = set()
    todo = [LOGITS]
    while todo:
        name = todo.pop()
        if name in seen or name in initializers:
            continue
        seen.add(name)
        node = producers.get(name)
        if node is None:
            continue
        if node.op_type == "DynamicQuantizeLinear":
            return str(node.input[0])
        classifier = node.name.startswith("/classifier") or name.startswith("/classifier")
        if not classifier and name != LOGITS:
            return name
        todo.extend(i for i in node.input if i)
    raise ValueError("no hidden state feeds the classifier in this graph")


def add_hidden_output(path: Path) -> str:
    """Add the encoder's last hidden states to ``path``'s outputs as ``hidden``; idempotent.

    Returns the tensor's name in the graph.
    """
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    graph = model.graph
    if any(o.name == HIDDEN for o in graph.output):
        return HIDDEN
    tensor = hidden_tensor(graph)
    # An Identity names the output without renaming a tensor the graph uses inside.
    graph.node.append(helper.make_node("Identity", [tensor], [HIDDEN], name="hidden_states"))
    graph.output.append(
        helper.make_tensor_value_info(HIDDEN, TensorProto.FLOAT, ["batch", "sequence", 384])
    )
    onnx.save(model, str(path))
    log.info("%s: %s exposed as %r", path, tensor, HIDDEN)
    return tensor


def add_states(folder: Path) -> dict[str, Any]:
    """Add the ``hidden`` output to ``folder``'s model and record it in its manifest."""
    import json

    import models

    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text("utf-8"))
    tensor = add_hidden_output(folder / "model.onnx")
    outputs = list(manifest.get("outputs", [LOGITS]))
    if HIDDEN not in outputs:
        outputs.append(HIDDEN)
    manifest["outputs"] = outputs
    export = manifest.setdefault("export", {})
    export["outputs"] = outputs
    export["hidden_states"] = {
        "tensor": tensor,
        "what": "the encoder's last hidden states, float[batch, sequence, 384], the "
        "classifier's input (the router pools them per sentence)",
    }
    manifest.setdefault("files", {})["model.onnx"] = models.sha256(folder / "model.onnx")
    manifest_path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return manifest
