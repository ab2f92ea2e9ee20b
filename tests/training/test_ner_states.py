"""The NER's last hidden states as a second output (training.ner.states)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper  # noqa: E402

from training.ner.states import HIDDEN, add_hidden_output  # noqa: E402


def _tiny_classifier(path: Path, quantized_input: bool = False) -> None:
    """x -> the "encoder" (Relu) -> the classifier (MatMul + Add) -> logits."""
    w = helper.make_tensor("W", TensorProto.FLOAT, [4, 3], np.arange(12, dtype=np.float32).tolist())
    b = helper.make_tensor("B", TensorProto.FLOAT, [3], [0.5, 0.0, -0.5])
    nodes = [
        helper.make_node(
            "Relu", ["x"], ["/bert/encoder/layer.5/output"], name="/bert/encoder/relu"
        ),
        helper.make_node(
            "MatMul",
            ["/bert/encoder/layer.5/output", "W"],
            ["/classifier/MatMul_output_0"],
            name="/classifier/MatMul",
        ),
        helper.make_node(
            "Add", ["/classifier/MatMul_output_0", "B"], ["logits"], name="/classifier/Add"
        ),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "sequence", 4])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "sequence", 3])],
        [w, b],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_the_hidden_states_are_the_classifiers_input_and_the_logits_do_not_change(
    tmp_path: Path,
) -> None:
    path = tmp_path / "model.onnx"
    _tiny_classifier(path)
    x = np.random.default_rng(0).standard_normal((1, 5, 4)).astype(np.float32)
    (before,) = ort.InferenceSession(str(path)).run(["logits"], {"x": x})
    assert add_hidden_output(path) == "/bert/encoder/layer.5/output"
    assert add_hidden_output(path) == HIDDEN  # a second call changes nothing
    session = ort.InferenceSession(str(path))
    assert [o.name for o in session.get_outputs()] == ["logits", HIDDEN]
    logits, hidden = session.run(["logits", HIDDEN], {"x": x})
    assert np.array_equal(logits, before)
    assert np.allclose(hidden, np.maximum(x, 0))


def test_the_shipped_ner_has_its_states(tmp_path: Path) -> None:
    """models/ner carries the output the router reads, and its logits are the graph's own."""
    import models
    from training.ner.states import hidden_tensor

    manifest = models.load_manifest("ner", models.artifact_dir("ner"))
    assert HIDDEN in manifest["outputs"]
    graph = onnx.load(str(models.artifact_dir("ner") / "model.onnx")).graph
    assert hidden_tensor(graph).endswith("LayerNorm/LayerNormalization_output_0")
