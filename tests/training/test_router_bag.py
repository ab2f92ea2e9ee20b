"""``python -m training.router bag``: several builds' policies joined into one graph.

The bag's ``p_remote`` must be the mean of its members' on the same inputs, the
program must load it like any router, and members that cannot share one input
must be refused.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "router"


def _member(tmp_path: Path, name: str, seed: int) -> Path:
    """The shipped router with its policy replaced by a fresh one (``seed``)."""
    import torch

    import models
    from training.router.export import export_policy
    from training.router.policy import PolicyConfig, make_policy

    if not (SHIPPED / "manifest.json").exists():
        pytest.skip("no router is shipped")
    folder = tmp_path / name
    shutil.copytree(SHIPPED, folder)
    torch.manual_seed(seed)
    export_policy(make_policy(PolicyConfig(kind="transformer")).eval(), folder / "policy.onnx")
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    manifest["training_command"] = f"python -m training.router build --seed {seed}"
    models.write_manifest(folder, manifest)
    return folder


def _feeds(seed: int, sentences: int, risk_lambda: float) -> dict[str, np.ndarray]:
    """One random query as the policy graph takes it."""
    from core.router import encoder as enc_rt
    from core.router import policy as pol_rt

    rng = np.random.default_rng(seed)
    emb = rng.standard_normal((1, sentences, enc_rt.DIM)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=-1, keepdims=True)
    return {
        pol_rt.INPUTS[0]: emb,
        pol_rt.INPUTS[1]: rng.random((1, sentences, pol_rt.DETECT_DIM)).astype(np.float32),
        pol_rt.INPUTS[2]: np.array([risk_lambda], dtype=np.float32),
        pol_rt.INPUTS[3]: np.array([0.0], dtype=np.float32),
    }


def _p_remote(folder: Path, feeds: dict[str, np.ndarray]) -> np.ndarray:
    from core.router import encoder as enc_rt
    from core.router import policy as pol_rt

    session = enc_rt.ort_session(folder / "policy.onnx", threads=1)
    return np.asarray(session.run([pol_rt.OUTPUT], feeds)[0])


def test_a_bag_is_the_mean_of_its_members_and_loads_like_any_router(tmp_path: Path) -> None:
    from core.router.policy import PolicyRouter
    from training.router.__main__ import main

    members = [_member(tmp_path, f"m{i}", seed) for i, seed in enumerate((1, 2, 3))]
    out = tmp_path / "bag"
    assert main(["bag", "--members", ",".join(map(str, members)), "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert [m["name"] for m in manifest["bag"]["members"]] == ["m0", "m1", "m2"]
    assert manifest["bag"]["parity_max_abs_diff"] < 1e-5
    assert "bag --members" in manifest["rebuild_command"]

    feeds = _feeds(7, 4, 5.0)
    each = [_p_remote(m, feeds) for m in members]
    bag = _p_remote(out, feeds)
    assert np.abs(bag - np.mean(each, axis=0)).max() < 1e-5
    # The members differ (else the test proves nothing).
    assert np.abs(each[0] - each[1]).max() > 1e-3
    # The program loads it as it loads a single build (its files checked by the manifest).
    router = PolicyRouter(out).load()
    assert router.manifest["bag"]["combine"].startswith("mean")


def test_members_that_cannot_share_one_input_are_refused(tmp_path: Path) -> None:
    import models
    from training.router.bag import bag

    a = _member(tmp_path, "a", 1)
    b = _member(tmp_path, "b", 2)
    manifest = json.loads((b / "manifest.json").read_text("utf-8"))
    manifest["features_version"] = -1
    models.write_manifest(b, manifest)
    with pytest.raises(ValueError, match="features_version"):
        bag([a, b], tmp_path / "bag")
    with pytest.raises(ValueError, match="at least two"):
        bag([a], tmp_path / "bag")


def test_a_geometric_bag_leaves_a_sentence_only_when_its_members_agree(tmp_path: Path) -> None:
    from training.router.bag import bag

    members = [_member(tmp_path, f"g{i}", seed) for i, seed in enumerate((4, 5))]
    mean = tmp_path / "mean"
    geo = tmp_path / "geo"
    bag(members, mean)
    manifest = bag(members, geo, combine="geometric")
    assert manifest["bag"]["combine"].startswith("geometric")
    feeds = _feeds(3, 9, 10.0)
    each = [_p_remote(m, feeds) for m in members]
    got = _p_remote(geo, feeds)
    assert np.abs(got - np.sqrt((each[0] + 1e-6) * (each[1] + 1e-6))).max() < 1e-5
    # Never above the arithmetic mean (AM-GM): a geometric bag sends no sentence the mean keeps.
    assert (got <= _p_remote(mean, feeds) + 1e-6).all()
