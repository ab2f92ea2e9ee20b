from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from core import paths
from core.settings import SCHEMA_VERSION, ApprovalPolicy, Settings


def test_defaults_and_file_location(tmp_path: Path) -> None:
    s = Settings.load()
    assert s.risk_lambda == 5.0 and s.approval_policy is ApprovalPolicy.ALWAYS
    assert s.schema_version == SCHEMA_VERSION
    assert paths.settings_file().is_relative_to(tmp_path)  # never the real config


def test_save_and_load_round_trip() -> None:
    s = Settings.load()
    s.risk_lambda = 7.5
    s.deny_list = ["Project Falcon", "  "]
    s.save()
    again = Settings.load()
    assert again.risk_lambda == 7.5 and again.deny_list == ["Project Falcon"]


@pytest.mark.parametrize("value", [-0.1, 10.5])
def test_lambda_bounds(value: float) -> None:
    with pytest.raises(ValidationError):
        Settings(risk_lambda=value)


def test_no_secret_fields() -> None:
    names = " ".join(Settings.model_fields).lower()
    for secret in ("api_key", "password", "passphrase", "secret", "vault_key"):
        assert secret not in names


def test_every_field_is_documented() -> None:
    for name, field in Settings.model_fields.items():
        assert field.title, name


def test_damaged_file_falls_back_to_defaults() -> None:
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text("{not json", "utf-8")
    assert Settings.load().risk_lambda == 5.0
    assert f.with_suffix(".json.bad").exists()


def test_old_schema_is_migrated() -> None:
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text(json.dumps({"schema_version": 0, "risk_lambda": 2}), "utf-8")
    s = Settings.load()
    assert s.schema_version == SCHEMA_VERSION and s.risk_lambda == 2


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOTTOVOCE_RISK_LAMBDA", "1.5")
    assert Settings.load().risk_lambda == 1.5


def test_the_parts_a_change_rebuilds_are_declared_beside_the_fields() -> None:
    from core.settings import Part

    assert Settings.rebuilt_by(["deny_list", "allow_list"]) == {Part.DETECTOR}
    assert Settings.rebuilt_by(["n_ctx", "cloud_model"]) == {Part.LOCAL, Part.CLOUD}
    assert Settings.rebuilt_by(["cloud_max_tokens"]) == {Part.ASSISTANT}
    # Fields read at each turn rebuild nothing.
    assert Settings.rebuilt_by(["risk_lambda", "approval_policy", "gama_disproof"]) == set()
    declared = {n for n in Settings.model_fields if Settings.rebuilt_by([n])}
    assert {"detect_min_score", "agent_view", "local_model_path", "cloud_base_url"} <= declared


def test_changed_from_names_the_fields_that_differ() -> None:
    a = Settings()
    assert a.changed_from(Settings()) == set()
    assert a.changed_from(Settings(risk_lambda=1.0, deny_list=["X"])) == {"risk_lambda", "deny_list"}
