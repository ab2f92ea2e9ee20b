"""The GAMA and PrivacyLens evaluations run end to end at tiny scale on the loopback cloud."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.main import main

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


def test_gama_tcw_ablation_runs(tmp_path: Path, demo_cloud: str, recorder, capsys) -> None:  # type: ignore[no-untyped-def]
    data = DATA / "spp" / "trivia_creative_writing" / "trivia_creative_writing_100_n_5.jsonl"
    if not data.exists():
        pytest.skip("shared data not present")
    out = tmp_path / "gama"
    code = main(["eval", "gama", "--task", "tcw", "--data", str(data), "--out", str(out),
                 "--limit", "1", "--cloud-url", demo_cloud, "--cloud-model", "sottovoce-demo",
                 "--max-tokens", "16"])
    assert code == 0
    res = json.loads((out / "results.json").read_text())
    assert set(res["configs"]) == {"none", "auto_prompt", "domain_rules", "disproof", "all"}
    assert all(0.0 <= c["score"] <= 1.0 for c in res["configs"].values())
    assert "sottovoce-demo" in res["models"]["cloud"]
    purposes = {json.loads(r.body)["messages"][-1]["content"][:20] for r in recorder.chat_requests}
    assert len(recorder.chat_requests) >= 8 and purposes  # every module's calls went through the door
    assert (out / "report.md").read_text().startswith("# GAMA public space on TCW")


def test_lgp_scoring_rule() -> None:
    from training.eval_gama import lgp_score

    item = {"targets": ["2"]}
    assert lgp_score(item, "The answer is 2.") == 1.0
    assert lgp_score(item, "It is the second house.") == 1.0
    assert lgp_score(item, "Either 2 or 3.") == 0.0
    assert lgp_score(item, "House four.") == 0.0


def test_privacylens_runs(tmp_path: Path, demo_cloud: str) -> None:
    data = DATA / "privacylens" / "confide_subset.json"
    if not data.exists():
        pytest.skip("shared data not present")
    out = tmp_path / "pl"
    code = main(["eval", "privacylens", "--data", str(data), "--out", str(out), "--limit", "1",
                 "--cloud-url", demo_cloud, "--cloud-model", "sottovoce-demo", "--max-tokens", "24"])
    assert code == 0
    res = json.loads((out / "results.json").read_text())
    assert res["judge"] == "substring" and res["n"] == 1
    assert 0.0 <= res["action_leak_rate"] <= 1.0 and 0.0 <= res["cloud_payload_leak_rate"] <= 1.0
