"""Document extraction benchmarks; one JSON object per line.

1. ``pdf_20_pages``: extraction of a 20-page PDF with a text layer (about 40
   lines a page), median of ``--runs`` (target: under 2 s).
2. ``formats``: extraction of each file of the documents' dev set, median of
   ``--runs`` each.
3. ``ocr_per_page``: a 3-page scanned PDF (pages rendered by pypdfium2 at
   300 dpi, read by Tesseract) and a PNG, seconds per page; skipped, with the
   reason, where Tesseract is not installed.

    python benchmarks/bench_documents.py [--runs 5] [--out benchmarks/results/bench_documents.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.documents import extract, find_tesseract  # noqa: E402
from training.documents import writers as w  # noqa: E402
from training.documents.make import DOCS, make  # noqa: E402

SENTENCES = [
    "Patient {n} was reviewed in clinic on {d} March with a persistent cough.",
    "Her peak flow was {p} L/min and oxygen saturation 97% on room air.",
    "We continued salbutamol 2 puffs as needed and added a steroid inhaler.",
    "Please repeat the spirometry in 6 weeks and review the inhaler technique.",
]


def emit(record: dict[str, Any], out: list[dict[str, Any]]) -> None:
    record = {**record, "host": platform.node(), "cpus": os.cpu_count(),
              "loadavg_1m": round(os.getloadavg()[0], 2)}
    out.append(record)
    print(json.dumps(record), flush=True)


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    """(median seconds, max seconds, last result) of ``runs`` calls."""
    times, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), max(times), result


def twenty_pages(path: Path) -> Path:
    pages = []
    for page in range(20):
        lines = []
        for i in range(40):
            s = SENTENCES[i % len(SENTENCES)]
            lines.append(s.format(n=f"Alex Rowan-{page}{i}", d=1 + i % 28, p=300 + i))
        pages.append(lines)
    return w.write_pdf(path, pages)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "bench_documents.jsonl"))
    args = p.parse_args()
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="sottovoce-bench-docs-") as tmp:
        folder = Path(tmp)
        pdf = twenty_pages(folder / "twenty_pages.pdf")
        extract(pdf)  # imports and first-call costs are not what is measured
        median, worst, doc = timed(lambda: extract(pdf), args.runs)
        emit({"bench": "pdf_20_pages", "pages": doc.pages, "chars": len(doc.text),
              "bytes": pdf.stat().st_size, "runs": args.runs, "s_median": round(median, 3),
              "s_max": round(worst, 3), "target_s": 2.0, "ok": median < 2.0}, out)

        make(folder / "dev")
        for d in DOCS:
            path = folder / "dev" / d.file
            median, worst, doc = timed(lambda path=path: extract(path), args.runs)
            emit({"bench": "formats", "file": d.file, "kind": str(doc.kind), "chars": len(doc.text),
                  "runs": args.runs, "ms_median": round(median * 1000, 1),
                  "ms_max": round(worst * 1000, 1)}, out)

        engine = find_tesseract()
        if engine is None:
            emit({"bench": "ocr_per_page", "skipped": "Tesseract is not installed"}, out)
        else:
            lines = [SENTENCES[i % 4].format(n="Alex Rowan", d=3, p=310) for i in range(12)]
            scan = w.write_scanned_pdf(folder / "scan.pdf", [lines, lines, lines])
            median, worst, doc = timed(lambda: extract(scan), max(1, args.runs // 2))
            emit({"bench": "ocr_per_page", "input": "scanned PDF, 3 pages of 12 lines, 300 dpi",
                  "tesseract": engine.binary, "pages": doc.ocr_pages,
                  "s_per_page_median": round(median / doc.ocr_pages, 2),
                  "s_per_page_max": round(worst / doc.ocr_pages, 2)}, out)
            png = w.write_png(folder / "photo.png", lines)
            median, worst, doc = timed(lambda: extract(png), max(1, args.runs // 2))
            emit({"bench": "ocr_per_page", "input": "PNG, 1700 px wide, 12 lines",
                  "tesseract": engine.binary, "pages": 1, "s_per_page_median": round(median, 2),
                  "s_per_page_max": round(worst, 2)}, out)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as fh:
            for r in out:
                fh.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
