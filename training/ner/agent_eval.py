"""``python -m training.ner agent-eval``: what GAMA's agent view costs and gains.

Runs the fused detector with and without the privacy-identifying agent (the
local model asked about each person, organization and place) on a small sample
of evaluation-fold queries, and reports unit recall, the share of detected
spans that touch a unit (the precision proxy of ``eval detect``), the number of
model calls and the time per query. The default local model is the embedded
SmolLM2-135M-Instruct.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path
from typing import Any

from training.metrics import read_records, select_split

log = logging.getLogger(__name__)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from core.detect.agent import AgentView
    from core.detect.fusion import fused_detector, local_generate
    from core.settings import Settings
    from training.eval_detect import Tally

    settings = Settings()
    plain = fused_detector(settings, ner_folder=Path(args.out))
    if plain is None:
        raise SystemExit(f"no NER model in {args.out}; run: python -m training.ner build")
    generate = local_generate(settings)
    generate("Say OK.")  # load the model outside the timed part
    agent = AgentView(generate)
    with_agent = fused_detector(settings, ner_folder=Path(args.out))
    assert with_agent is not None
    with_agent.agent = agent
    results: dict[str, Any] = {
        "model": settings.local_model_path or "embedded SmolLM2-135M-Instruct"
    }
    for fmt, path in (("pupa", args.pupa), ("medpcd", args.medpcd)):
        records = select_split(read_records(path, fmt), "eval")[: args.agent_limit]
        tallies = {"without_agent": Tally(False), "with_agent": Tally(False)}
        calls_before = agent.calls
        for record in records:
            for name, det in (("without_agent", plain), ("with_agent", with_agent)):
                t0 = time.perf_counter()
                spans = det.analyze(record.text)
                tallies[name].add(record, spans, (time.perf_counter() - t0) * 1000)
        keys = (
            "unit_recall",
            "units_located",
            "units_caught",
            "detected_spans",
            "spans_on_units_share",
            "latency_ms_p50",
            "latency_ms_mean",
        )
        results[fmt] = {
            "queries": len(records),
            "agent_calls": agent.calls - calls_before,
            **{name: {k: t.to_json()[k] for k in keys} for name, t in tallies.items()},
        }
        log.info("%s: %s", fmt, json.dumps(results[fmt]))
    out = Path(args.work) / "agent"
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    return results
