"""Routing cost of the shipped policy for a 20-sentence query, and the encoder's time.

Printed, one JSON object per line (medians after a warm-up, one thread):

- ``router_policy_20_sentences``: the ONNX policy alone on precomputed
  features (embeddings excluded), target <= 5 ms;
- ``router_detect_features_20_sentences``: the detection features;
- ``router_encoder_20_sentences``: the ONNX sentence encoder over the same 20
  sentences in one batch (what the embeddings cost);
- ``router_route_20_sentences``: ``PolicyRouter.route`` end to end (encoder +
  features + policy), against the heuristic router as the comparison figure.

    python benchmarks/bench_router.py [--repeats 200] [--models DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# A 20-sentence query in the style of Med-PCD (about 1,900 characters).
SENTENCES = [
    "Hi, this is Melissa Grant, dob 04/18/1989.",
    "I have a question about my covid quarantine that my doctor could not answer.",
    "I believe the incubation period for covid 19 is about 7 days.",
    "If I get sick after 7 days, does the 14 day quarantine start when symptoms show?",
    "Or is the 7 day incubation period included in the 14 day quarantine period?",
    "I tried to ask my pcp Dr. Reena Patel through the portal at Keystone Family Clinic.",
    "I don't think I explained it right and now I am overthinking it.",
    "My number is 215-555-4078 and my email is mel.g89@protonmail.com.",
    "Honestly I just need someone to say it in normal words.",
    "Basically I was around a covid positive person last Tuesday at work.",
    "I felt fine for five days and then got a sore throat and a mild fever.",
    "My roommate Jason Miller is also worried because we share a kitchen.",
    "We live at 4127 Birchwood Lane, Apt 3B, Philadelphia, PA 19104.",
    "Should he also quarantine, or only if he develops symptoms himself?",
    "My insurance member id is KFC-2290-3381 if that matters for testing.",
    "I am also on lisinopril 10 mg for blood pressure since last year.",
    "Does that change anything about how careful I should be?",
    "I would prefer not to go to the emergency room unless I really need to.",
    "Thank you for taking the time to read all of this.",
    "Any clear answer would help me a lot.",
]


def _median_ms(fn: Callable[[], Any], repeats: int, warmup: int = 10) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000.0 * statistics.median(times)


def _query() -> Any:
    from core.router.base import RouteInput
    from core.spans import Sentence

    text = " ".join(SENTENCES)
    sentences, pos = [], 0
    for s in SENTENCES:
        start = text.index(s, pos)
        sentences.append(Sentence(start, start + len(s), s))
        pos = start + len(s)
    from core.analyze import assign
    from core.detect.rules import RulesView

    spans = RulesView().analyze(text)
    return RouteInput(text, sentences, assign(sentences, spans), 5.0)


def measure(models_dir: Path | None = None, repeats: int = 200) -> dict[str, Any]:
    """The routing figures as one dict (the build puts them in the router's manifest)."""
    from core.detect.ner import NerView
    from core.router.base import HeuristicRouter
    from core.router.encoder import SentenceEncoder
    from core.router.policy import PolicyRouter, cloud_view, detection_features, state_features

    query = _query()
    # No embedding cache: the same query is encoded again and again here.
    encoder = SentenceEncoder(threads=1, workers=1, cache_size=0)
    parallel = SentenceEncoder(threads=1, cache_size=0)  # as the app runs it
    # The detector's NER pass over the query (paid by detection either way): a policy on
    # its token states only pools them per sentence.
    ner = NerView(threads=1)
    got = ner.token_states(query.text)
    router = PolicyRouter(models_dir, encoder=encoder, threads=1, states=ner.token_states).load()
    texts = cloud_view(query.text, query.sentences, query.entities)
    emb = encoder.encode(texts)
    det = detection_features(query.sentences, query.entities)
    heuristic = HeuristicRouter()
    return {
        "sentences": len(texts),
        "policy_ms": round(_median_ms(lambda: router.route_features(emb, det, 5.0), repeats), 3),
        "detect_features_ms": round(
            _median_ms(lambda: detection_features(query.sentences, query.entities), repeats), 3
        ),
        "encoder_ms": round(_median_ms(lambda: encoder.encode(texts), max(repeats // 10, 5), 2), 2),
        "encoder_parallel_ms": round(
            _median_ms(lambda: parallel.encode(texts), max(repeats // 10, 5), 2), 2
        ),
        "encoder_workers": parallel.workers,
        "route_end_to_end_ms": round(
            _median_ms(lambda: router.route(query), max(repeats // 10, 5), 2), 2
        ),
        "heuristic_ms": round(_median_ms(lambda: heuristic.route(query), repeats), 4),
        "ner_states_ms": (
            round(
                _median_ms(
                    lambda: state_features(query.sentences, query.entities, *got), repeats
                ),
                3,
            )
            if got is not None
            else None
        ),
        "sentence_features": router.manifest.get("sentence_features", "minilm"),
        "encoder_precision": encoder.manifest.get("precision"),
        "threads": 1,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--models", help="folder of the router artifact (default models/router)")
    args = parser.parse_args()
    m = measure(Path(args.models) if args.models else None, args.repeats)
    rows = [
        ("router_policy_20_sentences", m["policy_ms"], {"target": 5.0}),
        ("router_detect_features_20_sentences", m["detect_features_ms"], {}),
        ("router_encoder_20_sentences", m["encoder_ms"], {"precision": m["encoder_precision"]}),
        (
            "router_encoder_20_sentences_parallel",
            m["encoder_parallel_ms"],
            {"workers": m["encoder_workers"], "threads": m["encoder_workers"]},
        ),
        (
            "router_route_20_sentences",
            m["route_end_to_end_ms"],
            {
                "comparison": "heuristic router",
                "comparison_value": m["heuristic_ms"],
                "sentence_features": m["sentence_features"],
            },
        ),
    ]
    if m["ner_states_ms"] is not None:
        rows.append(
            (
                "router_ner_states_20_sentences",
                m["ner_states_ms"],
                {
                    "what": "the NER's token states pooled per sentence (one encoder pass)",
                    "comparison": "MiniLM encoder, 1 thread",
                    "comparison_value": m["encoder_ms"],
                },
            )
        )
    for name, value, extra in rows:
        print(json.dumps({"name": name, "unit": "ms", "value": value, "threads": 1, **extra}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
