"""Parity of what runs in the app against what was trained: policy and sentence encoder."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from core.router.encoder import SentenceEncoder  # noqa: E402
from core.router.policy import DETECT_DIM  # noqa: E402
from training.router.export import export_policy, policy_parity  # noqa: E402
from training.router.policy import ExportWrapper, PolicyConfig, make_policy  # noqa: E402

SENTENCES = [
    "Hi, this is Melissa Grant, dob 04/18/1989.",
    "i believe the incubation period for covid 19 is 7 days.",
    "My number is 215-555-4078 and email is mel.g89@protonmail.com if they need to reply.",
    "Create a professional resume to apply for a job as per the information below.",
    "I worked at Napco National Company as Senior Compliance Officer since Jun 2022.",
    "ok",
    "Could you explain what an HbA1c of 7.9 means for someone on metformin 500 mg twice daily?",
]


@pytest.mark.parametrize("kind", ["transformer", "mlp"])
def test_policy_onnx_matches_torch(tmp_path, kind):
    torch.manual_seed(1)
    policy = make_policy(PolicyConfig(kind=kind)).eval()
    # Push the head away from zero so the parity is measured on decisive outputs too.
    with torch.no_grad():
        for p in policy.parameters():
            p.add_(0.05 * torch.randn_like(p))
    diff = export_policy(policy, tmp_path / f"{kind}.onnx")
    assert diff <= 1e-4
    assert policy_parity(ExportWrapper(policy).eval(), tmp_path / f"{kind}.onnx", seed=7) <= 1e-4


def test_policy_ignores_padding():
    torch.manual_seed(0)
    policy = make_policy(PolicyConfig()).eval()
    emb = torch.randn(1, 4, 384)
    det = torch.rand(1, 4, DETECT_DIM)
    lam = torch.tensor([5.0])
    alone = policy(emb, det, lam)
    padded = policy(
        torch.cat([emb, torch.randn(1, 3, 384)], 1),
        torch.cat([det, torch.rand(1, 3, DETECT_DIM)], 1),
        lam,
        torch.tensor([[True] * 4 + [False] * 3]),
    )[:, :4]
    assert torch.allclose(alone, padded, atol=1e-5)


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    from training.router.features import SentenceEmbedder

    return SentenceEmbedder().encode(SENTENCES)


def test_shipped_encoder_matches_sentence_transformers(reference):
    enc = SentenceEncoder(threads=1)
    got = enc.encode(SENTENCES)
    cos = np.sum(got * reference, axis=1)
    if enc.manifest.get("precision") == "fp32":
        assert np.abs(got - reference).max() <= 1e-4
    else:  # int8: the rule the export applied (mean >= 0.98, min >= 0.90)
        assert cos.mean() >= 0.98 and cos.min() >= 0.90


@pytest.mark.slow
def test_fp32_encoder_export_is_exact(tmp_path, reference):
    from training.router.export import export_encoder

    manifest = export_encoder(tmp_path / "enc", SENTENCES, quantize=False)
    assert manifest["precision"] == "fp32"
    got = SentenceEncoder(tmp_path / "enc", threads=1).encode(SENTENCES)
    assert np.abs(got - reference).max() <= 1e-4


def test_the_exported_policy_reads_local_use(tmp_path):
    from core.router.encoder import ort_session
    from core.router.policy import INPUTS, OUTPUT

    torch.manual_seed(2)
    policy = make_policy(PolicyConfig()).eval()
    with torch.no_grad():
        for p in policy.parameters():
            p.add_(0.05 * torch.randn_like(p))
    export_policy(policy, tmp_path / "p.onnx")
    sess = ort_session(tmp_path / "p.onnx", threads=1)
    assert [i.name for i in sess.get_inputs()] == list(INPUTS)
    rng = np.random.default_rng(0)
    feeds = {
        INPUTS[0]: rng.standard_normal((1, 3, 384)).astype(np.float32),
        INPUTS[1]: rng.random((1, 3, DETECT_DIM)).astype(np.float32),
        INPUTS[2]: np.array([5.0], dtype=np.float32),
    }
    basic = sess.run([OUTPUT], {**feeds, INPUTS[3]: np.array([0.0], np.float32)})[0]
    capable = sess.run([OUTPUT], {**feeds, INPUTS[3]: np.array([1.0], np.float32)})[0]
    assert not np.allclose(basic, capable)
    # Out of range is clamped: 7 reads as 1.
    clamped = sess.run([OUTPUT], {**feeds, INPUTS[3]: np.array([7.0], np.float32)})[0]
    assert np.allclose(clamped, capable)
