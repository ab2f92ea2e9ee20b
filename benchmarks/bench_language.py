"""Languages: language identification, and the privacy pipeline's cost per language; JSON lines.

1. ``language_id``: py3langid (core.language.guess) on WikiANN's dev sentences
   that hold four lower-case words or more (up to 500 per language: de, fr, nl,
   en; from ``../shared/data/wikiann_*``) and on the sentences of the Spanish
   utility dev set: accuracy per language and microseconds per sentence.
2. ``pipeline_<lang>``: the analysis (segment, detect, route, type policy) of
   every text of ``training/data/utility_dev[_<lang>].json``, median
   milliseconds per text and per 1,000 characters, after one warm-up pass.
3. ``english_judge``: English texts through the shipped detector and segmenter
   with and without the language judge (core.language_detector), in one
   process, medians of ``--runs`` passes.

    python benchmarks/bench_language.py [--runs 3] [--out benchmarks/results/bench_language.jsonl]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"


def wikiann_sentences(lang: str, limit: int = 500) -> list[str]:
    out: list[str] = []
    cur: list[str] = []
    path = SHARED / f"wikiann_{lang}" / "dev"
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            if cur:
                out.append(" ".join(cur))
            cur = []
            continue
        cur.append(line.split("\t")[0].split(":", 1)[1])
    prose = [s for s in out if sum(w.isalpha() and w.islower() and len(w) > 2 for w in s.split()) >= 4]
    return prose[:limit]


def texts(lang: str) -> list[str]:
    name = "utility_dev.json" if lang == "en" else f"utility_dev_{lang}.json"
    return [item["text"] for item in json.loads((ROOT / "training/data" / name).read_text("utf-8"))]


def language_id() -> dict[str, Any]:
    from core.language import guess
    from core.segment import _RULE_END

    data = {lang: wikiann_sentences(lang) for lang in ("de", "fr", "nl", "en")}
    es = [p.strip() for t in texts("es") for p in _RULE_END.split(t) if len(p.strip()) > 30]
    data["es"] = es
    guess("warm up the model")
    per: dict[str, float] = {}
    times: list[float] = []
    right = total = 0
    for lang, sents in data.items():
        ok = 0
        for s in sents:
            t0 = time.perf_counter()
            g = guess(s)
            times.append(time.perf_counter() - t0)
            ok += g.language == lang
        per[lang] = round(ok / len(sents), 4)
        right += ok
        total += len(sents)
    return {
        "name": "language_id",
        "accuracy": round(right / total, 4),
        "per_language": per,
        "sentences": {k: len(v) for k, v in data.items()},
        "us_per_sentence_p50": round(statistics.median(times) * 1e6, 1),
    }


def pipeline(analyze: Any, items: list[str], runs: int) -> tuple[float, float]:
    for t in items:
        analyze(t)
    per_text: list[float] = []
    per_kchar: list[float] = []
    for _ in range(runs):
        for t in items:
            t0 = time.perf_counter()
            analyze(t)
            ms = (time.perf_counter() - t0) * 1000
            per_text.append(ms)
            per_kchar.append(ms * 1000 / len(t))
    return statistics.median(per_text), statistics.median(per_kchar)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    from core.analyze import Analyzer
    from core.assembly import default_router, english_detector, make_analyzer
    from core.segment import Segmenter
    from core.settings import Settings

    lines = [language_id()]
    settings = Settings()
    analyzer = make_analyzer(settings)
    for lang in ("en", "de", "fr", "es", "nl"):
        items = texts(lang)
        p50, kchar = pipeline(analyzer.analyze, items, args.runs)
        lines.append(
            {
                "name": f"pipeline_{lang}",
                "unit": "ms",
                "texts": len(items),
                "p50_ms": round(p50, 1),
                "p50_ms_per_1000_chars": round(kchar, 1),
            }
        )
    plain = Analyzer(
        segmenter=Segmenter(language="en"),
        detector=english_detector(settings),
        router=default_router(settings),
    )
    en = texts("en")
    without, _ = pipeline(plain.analyze, en, args.runs)
    with_judge, _ = pipeline(analyzer.analyze, en, args.runs)
    lines.append(
        {
            "name": "english_judge",
            "unit": "ms",
            "p50_without_language_judge": round(without, 1),
            "p50_with_language_judge": round(with_judge, 1),
        }
    )
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("a", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
