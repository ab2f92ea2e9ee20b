"""The shipped NER model through the run-time view (core.detect.ner.NerView)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import models
from core.detect import ner as ner_mod
from core.detect.ner import REBUILD, NerView
from core.errors import ArtifactError
from training.metrics import locate_units, unit_caught

SHIPPED = models.ROOT / "ner"
needs_model = pytest.mark.skipif(
    not (SHIPPED / "manifest.json").exists(), reason=f"models/ner not built ({REBUILD})"
)


@pytest.fixture(scope="session")
def ner_view() -> NerView:
    return NerView(SHIPPED)


@needs_model
@pytest.mark.parametrize(
    ("text", "units"),
    [
        (
            "hi, this is melissa grant, dob 04/18/1989. my pcp is dr. reena patel at keystone "
            "family clinic, call 215-555-4078 or mel.g89@protonmail.com",
            [
                "melissa grant",
                "dr. reena patel",
                "keystone family clinic",
                "215-555-4078",
                "mel.g89@protonmail.com",
            ],
        ),
        ("My name is John Smith and I work for Acme Logistics in Denver.", ["John Smith"]),
        ("Write a cover letter to Sara Khan at Napco National Company.", ["Sara Khan"]),
    ],
)
def test_ner_finds_the_private_units_of_fixture_sentences(ner_view, text, units):
    spans = ner_view.analyze(text)
    for unit, occ in zip(units, locate_units(text, units, True), strict=True):
        assert unit_caught(occ, spans, text), unit
    for s in spans:
        assert s.views["ner"] == s.score and 0.5 <= s.score <= 1.0


@needs_model
def test_offsets_stay_right_in_long_texts_and_after_wide_characters(ner_view):
    filler = "The weather was mild and the meeting ran long, as meetings do. " * 60
    sentence = "Afterwards I called my brother Tomasz Wieczorek about it."
    text = "😀 ünïcödé ✓ " + filler + sentence + " " + filler
    start = text.index("Tomasz Wieczorek")
    spans = ner_view.analyze(text)
    assert len(ner_view.probabilities(text)[0].ids) > 1000  # many windows
    assert unit_caught([(start, start + len("Tomasz Wieczorek"))], spans, text)
    for s in spans:
        assert text[s.start : s.end].strip() == text[s.start : s.end]


@needs_model
@pytest.mark.parametrize("text", ["", "   \n ", "ok"])
def test_trivial_texts_give_no_error(ner_view, text):
    assert isinstance(ner_view.analyze(text), list)


@needs_model
def test_missing_model_file_names_it_and_the_rebuild_command(tmp_path: Path):
    folder = tmp_path / "ner"
    shutil.copytree(SHIPPED, folder, ignore=shutil.ignore_patterns("model.onnx"))
    with pytest.raises(ArtifactError) as err:
        NerView(folder).analyze("Call Anna.")
    assert "model.onnx" in str(err.value) and "python -m training.ner build" in str(err.value)


def test_missing_artifact_folder_names_the_rebuild_command(tmp_path: Path):
    with pytest.raises(ArtifactError) as err:
        NerView(tmp_path / "nowhere").analyze("Call Anna.")
    assert "python -m training.ner build" in str(err.value)


@needs_model
def test_corrupt_tokenizer_is_refused(tmp_path: Path):
    folder = tmp_path / "ner"
    shutil.copytree(SHIPPED, folder)
    (folder / "tokenizer.json").write_text("{}")
    with pytest.raises(ArtifactError) as err:
        NerView(folder).analyze("Call Anna.")
    assert "tokenizer.json" in str(err.value) and "training.ner build" in str(err.value)


@pytest.mark.parametrize(
    ("available", "cuda", "expected"),
    [
        (
            ["CUDAExecutionProvider", "CPUExecutionProvider"],
            True,
            ["CUDAExecutionProvider", "CPUExecutionProvider"],
        ),
        (["CUDAExecutionProvider", "CPUExecutionProvider"], False, ["CPUExecutionProvider"]),
        (["CPUExecutionProvider"], True, ["CPUExecutionProvider"]),
    ],
)
def test_cuda_provider_is_used_when_present(monkeypatch, available, cuda, expected):
    import onnxruntime

    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: available)
    monkeypatch.setattr(ner_mod, "_cuda_usable", lambda: cuda)
    assert ner_mod._providers() == expected


@needs_model
def test_default_detector_fuses_ner_and_rules():
    from core.assembly import default_detector
    from core.detect.fusion import Fusion
    from core.settings import Settings

    detector = default_detector(Settings())
    # Wrapped by the judge of each message's language (core.language_detector).
    assert isinstance(detector.base, Fusion)
    assert [v.name for v in detector.views] == ["ner", "rules"]
    text = "I'm Dana Whitfield, reach me at dana.w@example.org."
    spans = detector.analyze(text)
    names = {text[s.start : s.end]: s for s in spans}
    assert "dana.w@example.org" in names
    assert any("Dana Whitfield" in k for k in names)


LANGUAGES = models.ROOT / "ner_languages"


@pytest.mark.skipif(not (LANGUAGES / "manifest.json").exists(), reason="no languages NER")
def test_a_damaged_languages_model_names_its_own_rebuild_command(tmp_path: Path):
    folder = tmp_path / "ner_languages"
    shutil.copytree(LANGUAGES, folder)
    (folder / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(ArtifactError) as err:
        NerView(folder, artifact="ner_languages").analyze("Ich heiße Anna Weber.")
    assert "--out models/ner_languages" in str(err.value)


@pytest.mark.skipif(not (LANGUAGES / "manifest.json").exists(), reason="no languages NER")
def test_the_languages_model_finds_a_german_place_and_no_count():
    text = "Ich wohne seit drei Jahren in Wuppertal und arbeite als Pflegekraft."
    found = {text[s.start : s.end] for s in NerView(LANGUAGES, artifact="ner_languages").analyze(text)}
    assert "Wuppertal" in found and "drei Jahren" not in found  # the English model takes both
