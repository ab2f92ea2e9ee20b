"""What reading a message's privacy profile costs (core.domain.detect), per message.

Run on the texts of a utility set (default: training/data/utility_dev.json) and,
to see the growth, on one long text made of all of them. Prints one JSON object
per line: the median and p90 per message in microseconds, and the longest text.

    python benchmarks/bench_domain.py [--data FILE] [--runs 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    from core.domain import detect

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=ROOT / "training/data/utility_dev.json")
    p.add_argument("--runs", type=int, default=200)
    args = p.parse_args()
    texts = [item["text"] for item in json.loads(args.data.read_text("utf-8"))]
    detect(texts[0])  # the tables are built on import; this warms the caches
    per: list[float] = []
    for _ in range(args.runs):
        for t in texts:
            t0 = time.perf_counter()
            detect(t)
            per.append((time.perf_counter() - t0) * 1e6)
    per.sort()
    print(json.dumps({
        "bench": "domain_detect_per_message",
        "texts": len(texts),
        "mean_chars": round(statistics.mean(map(len, texts))),
        "p50_us": round(per[len(per) // 2], 1),
        "p90_us": round(per[int(len(per) * 0.9)], 1),
    }))
    long = "\n\n".join(texts)
    times = []
    for _ in range(max(10, args.runs // 10)):
        t0 = time.perf_counter()
        detect(long)
        times.append((time.perf_counter() - t0) * 1e6)
    print(json.dumps({
        "bench": "domain_detect_all_texts_at_once",
        "chars": len(long),
        "p50_us": round(statistics.median(times), 1),
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
