"""The router's training code end to end on a handful of episodes (slow: real models).

``python -m training.router build`` runs on two tiny data files: episodes with
the real segmenter, detector and MiniLM, SFT and PPO for a few steps, ONNX
export with parity, the manifest, and the frontier evaluation on the
evaluation fold. The figures mean nothing at this size; the test proves the
code path the shipped policy comes from.
"""

from __future__ import annotations

import csv
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("torch")

from training.metrics import split_of

NAMES = [
    ("Melissa Grant", "215-555-4078", "Keystone Family Clinic"),
    ("Jorge Alvarez", "(312) 555-0199", "Lakeview Medical Center"),
    ("Priya Raman", "617-555-0143", "Harbor Health"),
    ("Tomasz Nowak", "503-555-0172", "Riverside Clinic"),
    ("Aiko Tanaka", "206-555-0110", "Northgate Pediatrics"),
    ("Kwame Mensah", "404-555-0188", "Peachtree Family Practice"),
]


def _ids(n_train: int, n_dev: int, n_eval: int) -> list[str]:
    """Ids that fall, by the build's own hash, in its training part, its development part
    (training fold, ``split_of("dev:" + id) == "eval"``) and the evaluation fold."""
    train: list[str] = []
    dev: list[str] = []
    evals: list[str] = []
    i = 0
    while len(train) < n_train or len(dev) < n_dev or len(evals) < n_eval:
        rid = f"tiny-{i}"
        if split_of(rid) == "eval":
            evals.append(rid)
        elif split_of("dev:" + rid) == "eval":
            dev.append(rid)
        else:
            train.append(rid)
        i += 1
    return train[:n_train] + dev[:n_dev] + evals[:n_eval]


def _medpcd(path, ids):
    rows = []
    for k, rid in enumerate(ids):
        name, phone, clinic = NAMES[k % len(NAMES)]
        query = (
            f"hi, this is {name}, my number is {phone}. I was told by my doctor at {clinic} "
            "that my blood pressure is a bit high. Is it safe to keep running every morning? "
            "I also drink two cups of coffee a day. What should I ask at the next visit?"
        )
        rows.append(
            {
                "id": rid,
                "query": query,
                "pii_units": [name, phone, clinic],
                "num_pii": 3,
                "target_response": "Light exercise is usually fine.",
                "split": "train",
            }
        )
    path.write_text(json.dumps(rows), "utf-8")


def _pupa(path, ids):
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(
            fh,
            [
                "conversation_hash",
                "predicted_category",
                "user_query",
                "target_response",
                "pii_units",
                "redacted_query",
            ],
        )
        w.writeheader()
        for k, rid in enumerate(ids):
            name, _phone, clinic = NAMES[k % len(NAMES)]
            w.writerow(
                {
                    "conversation_hash": rid,
                    "predicted_category": "job",
                    "user_query": f"Write a cover letter for me. My name is {name} and I worked at "
                    f"{clinic} for five years. Make it short and friendly.",
                    "target_response": "Dear hiring manager, ...",
                    "pii_units": f"{name.lower()}||{clinic.lower()}",
                    "redacted_query": "",
                }
            )


@pytest.mark.slow
def test_build_trains_exports_and_evaluates_a_tiny_router(tmp_path):
    from core.router.policy import PolicyRouter
    from training.router.__main__ import main

    med, pupa = tmp_path / "med.json", tmp_path / "pupa.csv"
    _medpcd(med, _ids(5, 1, 2))
    _pupa(pupa, _ids(3, 1, 1))
    out, cache, ev = tmp_path / "router", tmp_path / "cache", tmp_path / "eval"
    code = main(
        [
            "build",
            "--medpcd",
            str(med),
            "--pupa",
            str(pupa),
            "--out",
            str(out),
            "--cache",
            str(cache),
            "--eval-out",
            str(ev),
            "--steps",
            "3",
            "--episodes-per-step",
            "4",
            "--sft-epochs",
            "1",
            "--fixed-lambdas",
            "5",
        ]
    )
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert set(manifest["runs"]) == {"policy", "transformer_linear", "mlp", "fixed_lambda_5"}
    assert all(d <= 1e-4 for d in manifest["parity_max_abs_diff"].values())
    assert manifest["timings_s"]["total"] > 0
    assert manifest["task_gain"].startswith("proxy")
    policy_run = manifest["runs"]["policy"]
    assert len(policy_run["ppo_reward_curve_every_16"]) == 1  # 3 steps + 3 critic warm-up steps
    for fmt in ("medpcd", "pupa"):
        results = json.loads((ev / fmt / "results.json").read_text())
        assert results["judge"] == "proxy"
        assert "transformer-quadratic" in results["systems"]
        assert "transformer-fixed-lambda-5" in results["systems"]
        assert len(results["lambda_sweep"]) >= 5
        assert (ev / fmt / "frontier.png").exists()
    assert manifest["metrics"]["medpcd"]["systems"]["all-remote"]["leak_pct"] == 100.0
    # Every gold unit here is a name, a phone or a clinic: all protected at lambda 5.
    assert manifest["metrics"]["medpcd"]["systems"]["all-remote"]["protected_leak_pct"] == 100.0
    assert manifest["inputs"][-1] == "local_use"
    assert "protected_leak_pct" in policy_run["dev"]["medpcd@5"]
    # An evaluation that failed can be run again on the built router, training nothing.
    before = {p.name: p.read_bytes() for p in out.glob("*.onnx")}
    (ev / "pupa" / "results.json").unlink()
    paths = ["--medpcd", str(med), "--pupa", str(pupa), "--out", str(out), "--cache", str(cache)]
    assert main(["build", "--eval-only", *paths, "--eval-out", str(ev)]) == 0
    assert (ev / "pupa" / "results.json").exists()
    again = json.loads((out / "manifest.json").read_text())
    assert {p.name: p.read_bytes() for p in out.glob("*.onnx")} == before
    assert again["runs"] == manifest["runs"] and again["created"] == manifest["created"]
    assert again["metrics"]["pupa"]["systems"].keys() == manifest["metrics"]["pupa"]["systems"].keys()
    # The exported policy is what the app loads.
    router = PolicyRouter(out).load()
    assert router.manifest["rebuild_command"] == "python -m training.router build"


@pytest.fixture
def shipped_router(tmp_path):
    """A copy of the shipped router that a test may edit (skipped when none is shipped)."""
    import shutil
    from pathlib import Path

    pytest.importorskip("onnxruntime")
    shipped = Path(__file__).resolve().parents[2] / "models" / "router"
    if not (shipped / "manifest.json").exists():
        pytest.skip("no router is shipped")
    router = tmp_path / "router"
    shutil.copytree(shipped, router)
    return router


def test_check_says_when_the_router_was_trained_on_another_detector(shipped_router, capsys):
    import json

    from training.router.__main__ import main, router_staleness

    router = shipped_router
    manifest = json.loads((router / "manifest.json").read_text("utf-8"))
    manifest.pop("probe", None)  # without a probe record the fingerprint decides
    manifest["detector"]["fingerprint"] = "0000000000000000"
    (router / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert any(line.startswith("detector: trained on 0000") for line in router_staleness(router))
    assert main(["check", "--router", str(router)]) == 1
    assert "stale detector" in capsys.readouterr().out

    class Same:
        views: tuple[object, ...] = ()
        min_score = 0.35

    from training.router.episodes import detector_fingerprint

    manifest["detector"]["fingerprint"] = detector_fingerprint(Same())  # type: ignore[arg-type]
    (router / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert router_staleness(router, detector=Same()) == []


def test_check_judges_the_rules_by_the_decisions_they_flip_on_the_probe(shipped_router, tmp_path, capsys):
    import json

    from training.router import probe
    from training.router.__main__ import main, router_staleness

    router = shipped_router
    data = tmp_path / "probe.json"
    texts = [
        "Thanks. Can you check the dose? Sarah Okafor, DOB 03/04/1961, takes 20 mg daily.",
        "Hi, my landlord Mr Dunmore at 14 Larch Road wants the deposit. What are my rights?",
        "Write an SQL insert for a new user. Name is John Doe. Email is jdoe@example.com.",
    ]
    items = [{"id": f"t{i}", "text": t, "protect": [], "keep": []} for i, t in enumerate(texts)]
    data.write_text(json.dumps(items), "utf-8")
    rec = probe.record(router, data, stride=1)
    probe.write(router, rec)
    manifest = json.loads((router / "manifest.json").read_text("utf-8"))
    assert manifest["probe"]["texts"] == 3 and "probe.json" not in manifest["files"]

    # Another fingerprint, the same decisions: the router is its own.
    manifest["detector"]["fingerprint"] = "0000000000000000"
    (router / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert router_staleness(router) == []
    _, cmp = probe.staleness(router)
    assert cmp["texts"] == 3 and sum(cmp["flips"]) == 0

    # One decision recorded otherwise than the program routes it now: stale.
    first = rec["texts"]["t0"]["p"][0]
    first[0] = 1.0 - first[0] if abs(first[0] - 0.5) > 0.01 else 0.0
    probe.write(router, rec)
    stale = router_staleness(router)
    assert len(stale) == 1 and stale[0].startswith("decisions: 1 of ")
    assert main(["probe", "--router", str(router)]) == 1
    assert '"flips": [' in capsys.readouterr().out

    # A probe text edited since the record is not compared.
    rec["texts"]["t0"]["key"] = "edited"
    probe.write(router, rec)
    _, cmp = probe.staleness(router)
    assert cmp["texts"] == 2 and sum(cmp["flips"]) == 0

    # A probe file that is not the one the manifest names makes it stale, not unloadable.
    (router / "probe.json").write_text("{}", "utf-8")
    assert router_staleness(router)[0].startswith("probe: ")


def test_probe_comparison_counts_a_text_cut_otherwise_as_flipped():
    from training.router.probe import compare

    before = {"points": [[5.0, 0.0]], "texts": {"a": {"key": "k", "p": [[0.9, 0.1]]}}}
    same = {"a": {"key": "k", "p": [[0.8, 0.2]]}}
    flipped = {"a": {"key": "k", "p": [[0.4, 0.2]]}}
    recut = {"a": {"key": "k", "p": [[0.9, 0.1, 0.9]]}}
    assert compare(before, same)["flips"] == [0]
    assert compare(before, flipped)["flips"] == [1]
    assert compare(before, recut)["flips"] == [2]
    assert compare(before, recut)["resegmented_texts"] == 1
    assert compare(before, {"b": same["a"]})["texts"] == 0


@given(st.lists(st.integers(), max_size=6), st.floats(0.0, 1.0), st.integers(0, 2**16))
def test_a_missed_copy_that_keeps_one_never_empties_a_sentence(ents, rate, seed):
    import numpy as np

    from training.router.episodes import _drop

    kept = _drop(list(ents), rate, np.random.default_rng(seed), keep_one=True)
    assert set(kept) <= set(ents)
    if len(ents) < 2:
        assert kept == ents  # nothing dropped from a sentence with one entity or none
    else:
        assert kept  # at least one entity stays


def test_without_keep_one_every_entity_may_go():
    import numpy as np

    from training.router.episodes import _drop

    assert _drop([1], 1.0, np.random.default_rng(0), keep_one=False) == []
