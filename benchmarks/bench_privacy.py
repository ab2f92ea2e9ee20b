"""Privacy-pipeline latency per query against Presidio's AnalyzerEngine, same texts, same run.

Prints one JSON object per measurement. Pairs are timed A/B query by query
(after a warm-up) and the ratio is the median of the per-query ratios, so a
noisy, shared machine affects both sides alike.

    python benchmarks/bench_privacy.py [--data ../shared/data/pupa/PUPA_New.csv] [--limit 200]
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analyze import Analyzer  # noqa: E402
from core.box import PrivacyBox  # noqa: E402
from core.detect.base import Detector  # noqa: E402
from core.detect.rules import RulesView  # noqa: E402
from core.outbound.compose import compose_outbound  # noqa: E402
from core.segment import SPACY_PACKAGE, Segmenter  # noqa: E402


def read_queries(path: Path, limit: int) -> list[str]:
    if path.suffix == ".csv":
        with path.open(encoding="utf-8") as fh:
            rows = [r["user_query"] for r in csv.DictReader(fh)]
    else:
        rows = [r["query"] for r in json.loads(path.read_text("utf-8"))]
    return [r for r in rows if r.strip()][:limit]


def presidio_engine():  # type: ignore[no-untyped-def]
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    from core.detect.rules import make_tldextract_offline

    make_tldextract_offline()
    provider = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": SPACY_PACKAGE}],
        }
    )
    return AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])


def timed(fn, arg) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn(arg)
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data/pupa/PUPA_New.csv"))
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--pipeline", choices=["rules", "default"], default="rules",
                    help="rules: segmentation + rules view + anonymization (issue 2); "
                    "default: the shipped detector and router")
    args = ap.parse_args()
    queries = read_queries(Path(args.data), args.limit)

    if args.pipeline == "rules":
        analyzer = Analyzer(Segmenter(), Detector([RulesView()]))
    else:
        from core.assembly import default_detector, default_router
        from core.settings import Settings

        s = Settings()
        detector = default_detector(s)
        # The router reads the detector's pass where its policy takes the NER's states.
        analyzer = Analyzer(Segmenter(), detector, default_router(s, detector))

    def ours(text: str) -> None:
        compose_outbound(analyzer.analyze(text), PrivacyBox())

    engine = presidio_engine()

    def presidio(text: str) -> None:
        engine.analyze(text=text, language="en")

    for q in queries[:10]:  # warm-up: loads, caches, first-call costs
        ours(q)
        presidio(q)
    a, b, ratios = [], [], []
    for q in queries:
        ta, tb = timed(ours, q), timed(presidio, q)
        a.append(ta)
        b.append(tb)
        ratios.append(ta / tb)
    name = f"privacy_pipeline_{args.pipeline}"
    common = {"data": Path(args.data).name, "queries": len(queries)}
    print(json.dumps({"name": f"{name}_p50", "unit": "ms", "value": round(statistics.median(a), 2),
                      "presidio_analyzer_p50_ms": round(statistics.median(b), 2), **common}))
    print(json.dumps({"name": f"{name}_p95", "unit": "ms",
                      "value": round(statistics.quantiles(a, n=20)[18], 2),
                      "presidio_analyzer_p95_ms": round(statistics.quantiles(b, n=20)[18], 2), **common}))
    print(json.dumps({"name": f"{name}_vs_presidio_ratio", "unit": "ratio",
                      "value": round(statistics.median(ratios), 3),
                      "note": "median of per-query (ours / presidio); below 1 is faster", **common}))


if __name__ == "__main__":
    main()
