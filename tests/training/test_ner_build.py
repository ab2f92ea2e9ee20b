"""End to end: a tiny NER training run, its ONNX export, parity with torch, and its use at run time.

Slow (about a minute on two cores): it builds data from a handful of records,
trains for a few steps, exports and quantizes, and loads the result through
the run-time view. CI runs it to prove the training command works; the
shipped model comes from the same command with the full data.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


@pytest.fixture(scope="module")
def tiny_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    pytest.importorskip("torch")
    from training.ner.__main__ import main

    out = tmp_path_factory.mktemp("ner-model")
    work = tmp_path_factory.mktemp("ner-work")
    med, pupa = DATA / "med_pcd" / "med_pcd_train.json", DATA / "pupa" / "PUPA_New.csv"
    if not med.exists() or not pupa.exists():
        pytest.skip("the shared data sets are not available")
    argv = [
        "build",
        "--out",
        str(out),
        "--work",
        str(work),
        "--medpcd",
        str(med),
        "--pupa",
        str(pupa),
        "--templates",
        str(DATA / "presidio_research" / "templates.txt"),
        "--limit",
        "4",
        "--synthetic",
        "40",
        "--max-steps",
        "4",
        "--batch-size",
        "8",
        "--no-eval",
    ]
    assert main(argv) == 0
    return out, work


def test_build_writes_a_verifiable_manifest(tiny_build):
    import models

    out, _ = tiny_build
    manifest = models.verify("ner", out)
    assert set(manifest["files"]) == {"model.onnx", "tokenizer.json"}
    assert manifest["opset"] >= 17
    assert manifest["inputs"] == ["input_ids", "attention_mask", "token_type_ids"]
    assert manifest["labels"][0] == "O" and "B-PERSON" in manifest["labels"]
    assert manifest["training"]["steps"] == 4
    assert manifest["training_command"].startswith("python -m training.ner build")
    assert {"torch", "transformers", "onnx", "tokenizers"} <= set(manifest["versions"])
    assert 0.0 < manifest["decode"]["threshold"] < 1.0


def test_onnx_matches_torch_on_fixture_sentences(tiny_build):
    out, work = tiny_build
    parity = json.loads((out / "manifest.json").read_text())["export"]["parity"]
    assert parity["tokens"] > 50
    assert parity["fp32_argmax_agreement"] == 1.0
    assert parity["fp32_max_abs_logit_diff"] < 1e-3
    assert parity["int8_argmax_agreement"] >= 0.9
    # And recomputed here, not only read back.
    from training.ner.export import parity as measure

    again = measure(work / "hf", work / "onnx" / "model-fp32.onnx", out / "model.onnx")
    assert again["fp32_argmax_agreement"] == 1.0


def test_run_time_view_loads_the_built_model(tiny_build):
    from core.detect.ner import NerView

    out, _ = tiny_build
    view = NerView(out)
    text = "hi, this is melissa grant, my number is 215-555-4078. " * 30  # several windows
    enc, probs = view.probabilities(text)
    assert probs.shape == (len(enc.ids), len(view.manifest["labels"]))
    for s in view.analyze(text):
        assert 0 <= s.start < s.end <= len(text) and s.views


def test_a_damaged_model_names_the_rebuild_command(tiny_build, tmp_path):
    from core.detect.ner import NerView
    from core.errors import ArtifactError

    out, _ = tiny_build
    copy = tmp_path / "ner"
    shutil.copytree(out, copy)
    with (copy / "model.onnx").open("r+b") as fh:
        fh.seek(1000)
        fh.write(b"\x00" * 16)
    with pytest.raises(ArtifactError) as err:
        NerView(copy).analyze("hello Anna")
    assert "model.onnx" in str(err.value) and "python -m training.ner build" in str(err.value)
