"""The weight average of two NER models: the shipped int8 model read back into its
Hugging Face tensors, and a soup that is one of its ends when its weight is 0 or 1."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import models

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base encoder with this project's token classifier (random head), saved."""
    pytest.importorskip("torch")
    from transformers import AutoModelForTokenClassification

    from training.ner.labels import LABELS
    from training.ner.train import base_model_dir

    out = tmp_path_factory.mktemp("base")
    model = AutoModelForTokenClassification.from_pretrained(
        str(base_model_dir()),
        num_labels=len(LABELS),
        id2label=dict(enumerate(LABELS)),
        label2id={label: i for i, label in enumerate(LABELS)},
    )
    model.save_pretrained(str(out))
    return out


def test_the_shipped_models_tensors_are_read_back_whole(base_checkpoint: Path) -> None:
    import torch
    from transformers import AutoModelForTokenClassification

    from training.ner.soup import weights_from_onnx

    read = weights_from_onnx(models.artifact_dir("ner") / "model.onnx")
    own = AutoModelForTokenClassification.from_pretrained(str(base_checkpoint), dtype=torch.float32)
    wanted = {k: tuple(v.shape) for k, v in own.state_dict().items() if "position_ids" not in k}
    assert {k: v.shape for k, v in read.items()} == wanted


def _probabilities(checkpoint: Path, texts: list[str]) -> list[np.ndarray]:
    import torch
    from transformers import AutoModelForTokenClassification

    from core.detect.ner import NerView

    model = AutoModelForTokenClassification.from_pretrained(str(checkpoint)).eval()
    view = NerView()  # the shipped model's tokenizer and its reading of line breaks
    _session, tokenizer, _ = view._load()
    out = []
    for text in texts:
        enc, _ = view.probabilities(text)
        ids = [tokenizer.token_to_id("[CLS]"), *enc.ids, tokenizer.token_to_id("[SEP]")]
        t = torch.tensor([ids])
        with torch.no_grad():
            logits = model(input_ids=t, attention_mask=torch.ones_like(t), token_type_ids=torch.zeros_like(t)).logits
        out.append(torch.softmax(logits[0, 1:-1], -1).numpy())
    return out


def test_a_soup_of_weight_zero_reads_like_the_shipped_model(base_checkpoint: Path, tmp_path: Path) -> None:
    from core.detect.ner import NerView
    from training.ner.export import FIXTURES
    from training.ner.soup import soup

    soup(models.artifact_dir("ner"), base_checkpoint, 0.0, tmp_path / "soup")
    view = NerView()
    agree = total = 0
    for text, probs in zip(FIXTURES, _probabilities(tmp_path / "soup", FIXTURES), strict=True):
        _, shipped = view.probabilities(text)
        agree += int((probs.argmax(-1) == shipped.argmax(-1)).sum())
        total += len(probs)
    # The shipped file is int8: the float weights read back agree with it token by token
    # as its own export's parity check agreed with torch (0.96 there).
    assert agree / total >= 0.95


def test_a_soup_of_weight_one_is_the_other_model(base_checkpoint: Path, tmp_path: Path) -> None:
    import torch
    from transformers import AutoModelForTokenClassification

    from training.ner.soup import soup

    soup(models.artifact_dir("ner"), base_checkpoint, 1.0, tmp_path / "soup")
    got = AutoModelForTokenClassification.from_pretrained(str(tmp_path / "soup")).state_dict()
    own = AutoModelForTokenClassification.from_pretrained(str(base_checkpoint)).state_dict()
    assert all(torch.equal(got[k], own[k]) for k in own)


def test_a_weight_outside_zero_and_one_is_refused() -> None:
    from training.ner.soup import main

    with pytest.raises(SystemExit):
        main(["--a", "models/ner", "--b", "x", "--weight", "1.5", "--out", "y"])
