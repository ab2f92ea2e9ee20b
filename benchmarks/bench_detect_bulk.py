"""Detection on bulk pasted structure: time per KB at three sizes (linear time shows as a flat line).

Inputs (synthetic): a form of ``key: value`` lines, a JSON blob, a log of
repeated lines, CSV rows and binary-looking text, each at three sizes (the
largest: 10,000 form lines, about 1 MB of JSON, 10,000 log lines, 50,000 CSV
cells, 1 MB of binary-looking text). By default the rules view and the
refinement run (``Detector([RulesView()])``: patterns, fields, hosts, zones,
snapping); ``--detector shipped`` runs the shipped fused detector (NER too:
slow on a megabyte, use ``--scale``). Prints one JSON object per input and
size: characters, spans found, seconds, milliseconds per KB, and how many
spans cut a token (must be 0).

    python benchmarks/bench_detect_bulk.py [--detector rules|shipped] [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def form(n: int) -> str:
    keys = [
        ("Name", lambda i: f"Person{i} Example"),
        ("SSN", lambda i: f"{100 + i % 800:03d}-{10 + i % 89:02d}-{1000 + i % 8999:04d}"),
        ("Phone", lambda i: f"+44 20 7946 {i % 10000:04d}"),
        ("Email", lambda i: f"user{i}@example.org"),
        ("Card number", lambda i: "4111 1111 1111 1111"),
        ("Policy number", lambda i: f"POL-{10000 + i}"),
        ("HbA1c", lambda i: f"{40 + i % 30} mmol/mol"),
        ("Host", lambda i: f"db-{i % 50}.internal.acme-corp.com:5432"),
        ("Amount", lambda i: f"R{100 + i % 900}"),
    ]
    return "\n".join(f"{k}: {v(i)}" for i in range(n) for k, v in [keys[i % len(keys)]])


def json_blob(n: int) -> str:
    rows = [
        {
            "id": i,
            "name": f"Person{i} Example",
            "email": f"user{i}@example.org",
            "phone": f"+1 215 555 {i % 10000:04d}",
            "iban": "DE89370400440532013000",
            "note": "paid $2,400 on 2024-03-01; HbA1c 8.4%",
        }
        for i in range(n)
    ]
    return json.dumps(rows)


def log(n: int) -> str:
    line = (
        "2024-05-01T12:00:00Z ERROR psycopg2.OperationalError: could not connect to server at "
        "host db-prod-3.internal.acme-corp.com:5432 user=svc_billing token=9f86d081884c7d659a2f "
        "(took 1841ms)"
    )
    return "\n".join(line for _ in range(n))


def csv_rows(cells: int) -> str:
    per = 10
    rows = ["name,email,phone,city,amount,code,date,ssn,card,host"]
    for i in range(cells // per):
        rows.append(
            f"Person{i} Example,user{i}@example.org,215-555-{i % 10000:04d},Leeds,£{i % 999}.50,"
            f"KDH-{10000 + i},03/11/1961,{100 + i % 800:03d}-45-6789,4111111111111111,nas{i % 9}.local"
        )
    return "\n".join(rows)


def binary(n_chars: int) -> str:
    rng = random.Random(7)
    alphabet = "".join(chr(c) for c in range(33, 127)) + "\x00\x01\x02\ufffd\u00ff  \n"
    return "".join(rng.choice(alphabet) for _ in range(n_chars))


#: (name, builder, sizes): the largest size is the issue's bad input.
INPUTS: list[tuple[str, Callable[[int], str], list[int]]] = [
    ("form_lines", form, [625, 2500, 10_000]),
    ("json_rows", json_blob, [400, 1600, 6400]),  # about 1 MB at the largest
    ("log_lines", log, [625, 2500, 10_000]),
    ("csv_cells", csv_rows, [3125, 12_500, 50_000]),
    ("binary_chars", binary, [62_500, 250_000, 1_000_000]),
]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--detector", choices=["rules", "shipped"], default="rules")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every size (e.g. 0.1)")
    args = p.parse_args()

    from core.detect.base import Detector
    from core.detect.refine import csv_tables
    from core.detect.rules import RulesView
    from core.detect.tokens import atoms, cut_at_cells, cuts_token

    if args.detector == "shipped":
        from core.assembly import default_detector
        from core.settings import Settings

        detector = default_detector(Settings())
    else:
        detector = Detector([RulesView()])
    detector.analyze("warm up: SSN 123-45-6789, db-1.internal.acme.com, HbA1c 8.4%")
    for name, build, sizes in INPUTS:
        for size in sizes:
            n = max(1, int(size * args.scale))
            text = build(n)
            t0 = time.perf_counter()
            spans = detector.analyze(text)
            seconds = time.perf_counter() - t0
            # A token as the product reads one: a pasted table's cells are tokens of their
            # own (core.detect.refine cuts every span at them).
            table = cut_at_cells(atoms(text), [(a, b) for a, b, _ in csv_tables(text).cells])
            cuts = sum(1 for s in spans if cuts_token(text, s.start, s.end, table))
            kb = len(text.encode("utf-8")) / 1024
            print(
                json.dumps(
                    {
                        "bench": "detect_bulk",
                        "detector": args.detector,
                        "input": name,
                        "n": n,
                        "kb": round(kb, 1),
                        "spans": len(spans),
                        "seconds": round(seconds, 3),
                        "ms_per_kb": round(1000 * seconds / kb, 3),
                        "spans_cutting_a_token": cuts,
                    }
                ),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
