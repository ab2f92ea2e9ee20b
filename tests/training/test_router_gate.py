"""The router's gate reads two evaluations on the same detector and judges like the detector gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from training.router.gate import fold_figures, run_gate


def details(leak: float, retention: float, needless: int, fingerprint: str = "abc") -> dict[str, Any]:
    system = {
        "protected_leak_pct": leak,
        "leak_pct": 25.0,
        "catastrophic_rate": 0.3,
        "remote_share": 0.9,
        "semantic_retention": retention,
        "_extra": {"protected_units": 289, "needless_withheld": needless},
    }
    return {
        "queries": 148,
        "units_located": 360,
        "detector": {"fingerprint": fingerprint},
        "systems": {"transformer-quadratic": system},
        "lambda_sweep": [
            {"lambda": 10.0, "protected_leak_pct": leak, "_extra": {"protected_units": 360}}
        ],
    }


def write(folder: Path, d: dict[str, Any]) -> Path:
    for fold in ("pupa", "medpcd"):
        (folder / fold).mkdir(parents=True)
        (folder / fold / "details.json").write_text(json.dumps(d), "utf-8")
    return folder


def test_the_figures_of_a_fold() -> None:
    f = fold_figures(details(9.0, 0.8, 70), "pupa")
    assert f["pupa.protected_leak@5"].value == pytest.approx(0.09)
    assert f["pupa.protected_leak@5"].n == 289 and not f["pupa.protected_leak@5"].higher_is_better
    assert f["pupa.protected_leak@10"].n == 360
    assert f["pupa.needless_withheld@5"].kind == "count"


def test_within_noise_ships_and_a_real_loss_holds(tmp_path: Path) -> None:
    base = write(tmp_path / "base", details(9.0, 0.78, 140))
    # One more leaked unit of 289 is within one standard error; retention and needless gain.
    close = write(tmp_path / "close", details(9.35, 0.83, 70))
    text, result = run_gate(base, close, tmp_path, data=())
    assert result["verdict"] == "SHIP", text
    worse = write(tmp_path / "worse", details(14.0, 0.83, 70))
    text, result = run_gate(base, worse, tmp_path, data=())
    assert result["verdict"] == "HOLD"
    assert any("protected_leak@5" in r for r in result["reasons"])
    assert text.startswith("# Router gate: HOLD")


def test_evaluations_on_other_detectors_are_refused(tmp_path: Path) -> None:
    base = write(tmp_path / "base", details(9.0, 0.78, 140, "one"))
    other = write(tmp_path / "other", details(9.0, 0.78, 140, "two"))
    with pytest.raises(SystemExit, match="other detectors"):
        run_gate(base, other, tmp_path, data=())
