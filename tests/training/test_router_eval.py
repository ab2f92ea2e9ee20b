"""The routing evaluation's metrics and reports (no models: hand-made rows and episodes)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")

from training.router.eval_route import KEYS, Row, remote_chars, summarize, write_results

from .test_router_reward import CITY, NAME, make_episode


def row(leaked: int, located: int, retention: float = 0.5, quality: float | None = None) -> Row:
    return Row(
        leaked=leaked,
        leaked_fuzzy=leaked,
        located=located,
        retention=retention,
        pooled=retention,
        bleu=10.0,
        remote_chars=5,
        clear_chars=10,
        remote_sentences=1,
        quality=quality,
    )


@pytest.mark.parametrize(
    ("rows", "leak_pct", "query_leak", "catastrophic"),
    [
        ([row(0, 4), row(0, 2)], 0.0, 0.0, 0.0),
        ([row(2, 4), row(0, 2)], 100 * 2 / 6, 0.5, 0.5),  # half of its units: catastrophic
        ([row(1, 4), row(1, 2)], 100 * 2 / 6, 1.0, 0.5),
        ([row(0, 0), row(1, 3)], 100 / 3, 0.5, 0.0),  # a query without units never counts
    ],
)
def test_leak_figures_follow_evaluation_md(rows, leak_pct, query_leak, catastrophic):
    s = summarize(rows)
    assert s["leak_pct"] == pytest.approx(leak_pct, abs=1e-3)
    assert s["query_leak_rate"] == query_leak
    assert s["catastrophic_rate"] == catastrophic
    assert s["quality"] is None


def test_quality_is_a_percentage_of_passes_when_judged():
    assert summarize([row(0, 1, quality=1.0), row(0, 1, quality=0.0)])["quality"] == 50.0


def test_remote_share_counts_clear_non_pii_characters_of_remote_sentences():
    ep = make_episode([[NAME], [CITY], []], ["Anna Berg", "Oslo"])
    clear = np.array([not c.isspace() for c in ep.text])
    for occs in ep.occurrences:
        for a, b in occs:
            clear[a:b] = False
    none = remote_chars(ep, np.array([False, False, False]), clear)
    last = remote_chars(ep, np.array([False, False, True]), clear)
    every = remote_chars(ep, np.array([True, True, True]), clear)
    assert none == 0
    assert last == sum(not c.isspace() for c in "What is a good soup?")
    assert every == int(clear.sum())  # detected spans cover exactly the gold units here


def test_reports_have_the_issue_schema(tmp_path):
    systems = {"all-local": summarize([row(0, 2, 0.0)]), "heuristic": summarize([row(1, 2)])}
    sweep = [{"lambda": lam, **summarize([row(1, 2)])} for lam in (0.0, 5.0)]
    info = {"title": "t", "data": "d", "format": "medpcd", "split": "eval", "queries": 1}
    write_results(tmp_path, "proxy", systems, sweep, info)
    results = json.loads((tmp_path / "results.json").read_text())
    assert set(results) == {"judge", "systems", "lambda_sweep"}
    assert results["judge"] == "proxy"
    for d in results["systems"].values():
        assert set(d) == set(KEYS)
    assert [set(p) for p in results["lambda_sweep"]] == [{"lambda", *KEYS}] * 2
    report = (tmp_path / "report.md").read_text()
    assert "Judge: proxy" in report
    assert "at least half of its located PII units" in report
    assert (tmp_path / "frontier.png").read_bytes()[:4] == b"\x89PNG"


def _pt(leak: float, ret: float, lam: float | None = None) -> dict:
    d = {"leak_pct": leak, "semantic_retention": ret}
    return d if lam is None else {"lambda": lam, **d}


@pytest.mark.parametrize(
    ("sweep", "verdict", "lam"),
    [
        ([_pt(1.0, 0.90, 10), _pt(4.0, 0.95, 0)], "dominates", 0),  # the best point at or below
        ([_pt(5.0, 0.802, 5)], "matches", 5),
        ([_pt(5.0, 0.70, 5), _pt(9.0, 0.99, 0)], "below", 5),  # the better point leaks more
        ([_pt(6.0, 0.99, 5)], "below", None),  # nothing leaks as little
    ],
)
def test_frontier_check_compares_at_the_baselines_leak_level(sweep, verdict, lam):
    from training.router.eval_route import frontier_check

    check = frontier_check({"heuristic": _pt(5.0, 0.80)}, sweep)["heuristic"]
    assert check["verdict"] == verdict
    assert check["sweep_lambda"] == lam
