"""The settings dialog: built from the model's metadata, the risk slider's live preview,
the GGUF picker, the API key in the keyring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLabel, QPlainTextEdit, QSpinBox

from core import paths
from core.analyze import Analyzer, Route
from core.settings import ApprovalPolicy, Settings
from ui.settings_dialog import HIDDEN, SettingsDialog

from .conftest import wait_analysis

TEXT = "Call me at 215-555-4078 tomorrow. What helps against a sore throat?"


@pytest.fixture
def dialog(qtbot: Any, lambda_analyzer: Analyzer) -> SettingsDialog:
    d = SettingsDialog(Settings(), analyze=lambda_analyzer.analyze, preview_text=TEXT)
    qtbot.addWidget(d)
    d.show()
    return d


def test_every_field_has_an_editor_titled_from_the_model(dialog: SettingsDialog) -> None:
    shown = set(dialog.editors) | {"risk_lambda", "local_model_path"}
    assert shown == set(Settings.model_fields) - HIDDEN
    labels = {lab.text() for lab in dialog.findChildren(QLabel)}
    for name, info in Settings.model_fields.items():
        if name not in HIDDEN:
            assert info.title in labels, name


@pytest.mark.parametrize(
    ("name", "kind", "low", "high"),
    [
        ("n_ctx", QSpinBox, 512, 131072),
        ("detect_min_score", QDoubleSpinBox, 0.0, 1.0),
        ("gama_top_k", QSpinBox, 1, 20),
        ("cloud_timeout_s", QDoubleSpinBox, 1.0, 600.0),
    ],
)
def test_bounds_come_from_the_field_metadata(
    dialog: SettingsDialog, name: str, kind: type, low: float, high: float
) -> None:
    w = dialog.editors[name].widget
    assert isinstance(w, kind)
    assert (w.minimum(), w.maximum()) == (low, high)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("approval_policy", QComboBox),
        ("gama_disproof", QCheckBox),
        ("allow_list", QPlainTextEdit),
    ],
)
def test_widget_kind_follows_the_field_type(dialog: SettingsDialog, name: str, kind: type) -> None:
    assert isinstance(dialog.editors[name].widget, kind)


def test_optional_numbers_offer_automatic(dialog: SettingsDialog) -> None:
    ed = dialog.editors["n_gpu_layers"]
    assert ed.value() is None and ed.widget.specialValueText() == "Automatic"
    ed.set_value(-1)  # "all layers" is a real value, distinct from automatic
    assert ed.value() == -1


def test_the_slider_changes_the_preview(qtbot: Any, dialog: SettingsDialog) -> None:
    preview = dialog.preview
    first = wait_analysis(qtbot, preview)
    assert first.plans[0].route is Route.LOCAL  # lambda 5: the phone sentence stays here
    dialog.risk.set_value(1.0)
    qtbot.waitUntil(
        lambda: preview.analysis is not None and preview.analysis.risk_lambda == 1.0, timeout=10000
    )
    assert preview.analysis.plans[0].route is Route.REMOTE
    assert dialog.risk.value_label.text() == "λ = 1.0"


def test_accepting_saves_the_settings(qtbot: Any, dialog: SettingsDialog) -> None:
    dialog.risk.set_value(7.5)
    dialog.editors["approval_policy"].set_value(ApprovalPolicy.WHEN_ENTITIES)
    dialog.editors["deny_list"].widget.setPlainText("Project Falcon\n\n  Acme  ")
    dialog.accept()
    new = dialog.result_settings()
    assert new.risk_lambda == 7.5
    assert new.approval_policy is ApprovalPolicy.WHEN_ENTITIES
    assert new.deny_list == ["Project Falcon", "Acme"]
    new.save()
    assert Settings.load().deny_list == ["Project Falcon", "Acme"]


def test_the_api_key_goes_to_the_keyring_and_is_never_shown_in_full(
    qtbot: Any, lambda_analyzer: Analyzer
) -> None:
    from core.llm.endpoints import get_api_key

    key = "sk-test-0123456789abcdefWXYZ"
    d = SettingsDialog(Settings(), analyze=lambda_analyzer.analyze)
    qtbot.addWidget(d)
    d.api_key.line.setText(key)
    d.accept()
    assert d.api_key_changed
    assert get_api_key(Settings().cloud_base_url) == key
    d.result_settings().save()
    assert key not in paths.settings_file().read_text("utf-8")
    again = SettingsDialog(Settings(), analyze=lambda_analyzer.analyze)
    qtbot.addWidget(again)
    assert again.api_key.line.text() == ""
    assert key not in again.api_key.line.placeholderText()
    assert again.api_key.line.placeholderText().startswith("••••••••WXYZ")
    again.api_key.remove.click()
    again.accept()
    assert get_api_key(Settings().cloud_base_url) is None


def test_gguf_picker_validates_the_file(qtbot: Any, dialog: SettingsDialog, tmp_path: Path) -> None:
    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"not a model at all" * 10)
    dialog.gguf.line.setText(str(bad))
    qtbot.waitUntil(lambda: dialog.gguf.valid is not None, timeout=5000)
    assert dialog.gguf.valid is False and dialog.gguf.status.text().startswith("✖")
    dialog.accept()
    assert dialog.isVisible()  # refused while the file is not usable
    from core.llm.local import embedded_model_path

    dialog.gguf.line.setText(str(embedded_model_path()))
    qtbot.waitUntil(lambda: dialog.gguf.valid is not None, timeout=5000)
    assert dialog.gguf.valid is True and "llama" in dialog.gguf.status.text()


def test_restore_defaults(dialog: SettingsDialog) -> None:
    dialog.risk.set_value(9.0)
    dialog.editors["gama_disproof"].set_value(True)
    dialog.restore_defaults()
    assert dialog.risk.value() == Settings().risk_lambda
    assert dialog.editors["gama_disproof"].value() is False


def test_window_applies_new_settings_and_persists_them(qtbot: Any, window: Any) -> None:
    dlg = window.open_settings()
    dlg.risk.set_value(2.0)
    dlg.accept()
    assert window.engine.settings.risk_lambda == 2.0
    assert window.chat.editor.risk_lambda == 2.0
    assert json.loads(paths.settings_file().read_text("utf-8"))["risk_lambda"] == 2.0
    assert "λ 2.0" in window.lambda_label.text()
