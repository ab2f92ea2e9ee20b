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
    argv = ["build", "--out", str(out), *_shared_args(work)]
    argv += ["--max-steps", "4", "--batch-size", "8", "--no-eval"]
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


def _shared_args(work: Path) -> list[str]:
    med, pupa = DATA / "med_pcd" / "med_pcd_train.json", DATA / "pupa" / "PUPA_New.csv"
    if not med.exists() or not pupa.exists():
        pytest.skip("the shared data sets are not available")
    return [
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
    ]


def test_a_model_trained_elsewhere_on_the_windows_is_adopted(tmp_path):
    """data -> windows file -> the bare loop (a half-precision save) -> build --checkpoint."""
    pytest.importorskip("torch")
    import subprocess
    import sys

    from training.ner.__main__ import main
    from training.ner.fit import load_windows
    from training.ner.labels import LABELS
    from training.ner.train import base_model_dir

    work = tmp_path / "work"
    assert main(["data", *_shared_args(work)]) == 0
    items, labels, max_len = load_windows(work / "windows.jsonl.gz")
    assert labels == LABELS and max_len == 128 and items
    assert all(len(w.ids) == len(w.labels) <= max_len for w in items)
    assert any(lab > 0 for w in items for lab in w.labels)  # entities are labelled
    # The loop as a GPU machine runs it: its own process, nothing of the project imported.
    ckpt = tmp_path / "ckpt"
    code = (
        "import sys, training.ner.fit as f; r = f.main(sys.argv[1:]); "
        "bad = [m for m in sys.modules if m == 'core' or m.startswith('core.')]; "
        "sys.exit(r or (3 if bad else 0))"
    )
    args = ["--windows", str(work / "windows.jsonl.gz"), "--base", str(base_model_dir())]
    args += ["--out", str(ckpt), "--max-steps", "2", "--batch-size", "4", "--device", "cpu"]
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads((ckpt / "train_summary.json").read_text())
    assert summary["steps"] == 2 and summary["device"] == "cpu"
    out = tmp_path / "model"
    argv = ["build", *_shared_args(work), "--out", str(out), "--no-eval"]
    assert main([*argv, "--checkpoint", str(ckpt)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["training"]["adopted_from"].startswith("python -m training.ner.fit")
    assert manifest["export"]["parity"]["fp32_argmax_agreement"] == 1.0


def test_a_windows_file_of_another_kind_is_refused(tmp_path):
    import gzip

    from training.ner.fit import load_windows

    path = tmp_path / "w.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        fh.write('{"format": "something else"}\n')
    with pytest.raises(ValueError, match="not a windows file"):
        load_windows(path)
